/* SPDX-License-Identifier: MIT */
/*
 * A well-behaved SCMI agent's round trip over `domino scmi-serve`'s socket
 * (POWER_STATE_SET on and off, which notifies every subscriber) with and
 * without a hostile agent beside it, in one run: each round starts the
 * hostile agent (child processes), lets it reach its steady state (400
 * untimed calls: a deaf subscriber's socket is full after a few hundred
 * notifications; before that its notifications are delivered, which is
 * work, not harm), times a batch of calls, stops it, times a batch alone; the figure is the median over rounds of the two
 * batches' median ratio, so the load of the machine in that round cancels
 * (bench_paired_ratio). The hostile agents are the issues' cases:
 *   slow_reader      3,000 frames pipelined, one reply read every 0.5 s
 *   deaf_subscribers 20 connections subscribed to the domain, never reading
 *   connection_flood 64 idle connections of one agent
 *   trickled_frame   a frame declared 2 GiB, a byte every 10 ms
 *   busy_agent       random frames as fast as it can, reading every reply
 *                    (not hostile: the round-robin share of a busy peer)
 * A call not answered within 2 s ends that case ("no reply": a server
 * that blocks on a client).
 */
#include "scmi_hostile.h"
#include "bench_util.h"

#include <domino/scmi.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DOMAIN 3 /* the demo SoC's power domain the agents switch */
#define MAX_CHILDREN 24
#define WARM_UP 400 /* calls before the timed ones, beside the hostile agent */

static const char agents_text[] = "agent 1 ospm power all perf all\n"
				  "agent 3 guest3\nagent 4 guest4\n"
				  "agent 5 guest5\nagent 6 guest6\n"
				  "agent 7 guest7\n";

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static char dir[64];

static int agent_socket(unsigned agent)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/agent%u.sock", dir, agent);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static int read_within(int fd, uint8_t *p, size_t n, double deadline)
{
	while (n) {
		struct pollfd pfd = {fd, POLLIN, 0};
		int left = (int)((deadline - now_us()) / 1000);
		if (left < 0 || poll(&pfd, 1, left) <= 0)
			return -1;
		ssize_t r = read(fd, p, n);
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* One command, its reply within 2 s (notifications before it skipped):
 * the round trip in µs, or -1. */
static double call(int fd, uint32_t token, const uint32_t *words, unsigned n,
		   uint32_t protocol, uint32_t msg)
{
	uint8_t frame[8 + 16];
	uint32_t header = dmn_scmi_header(protocol, msg, 0, token & 0x3ff);
	put32(frame, 4 + 4 * n);
	put32(frame + 4, header);
	for (unsigned i = 0; i < n; i++)
		put32(frame + 8 + 4 * i, words[i]);
	double t0 = now_us(), deadline = t0 + 2e6;
	if (write(fd, frame, 8 + 4 * n) != (ssize_t)(8 + 4 * n))
		return -1;
	for (;;) {
		uint8_t head[4], body[256];
		if (read_within(fd, head, 4, deadline))
			return -1;
		uint32_t len = get32(head);
		if (len > sizeof(body) || read_within(fd, body, len, deadline))
			return -1;
		if (len >= 8 && get32(body) == header)
			return get32(body + 4) == 0 ? now_us() - t0 : -1;
	}
}

/* ---- the hostile agents, each a child process until killed ----------- */

static void slow_reader(void)
{
	int fd = agent_socket(3);
	if (fd < 0)
		return;
	if (!fork()) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (unsigned i = 0; i < 3000; i++) {
			uint8_t f[8];
			put32(f, 4);
			put32(f + 4, dmn_scmi_header(DMN_SCMI_PROTOCOL_BASE, 0, 0,
						     i & 0x3ff));
			if (write(fd, f, 8) != 8)
				break;
		}
		_exit(0);
	}
	for (;;) {
		uint8_t reply[12];
		nap_ms(500);
		if (read(fd, reply, sizeof(reply)) <= 0)
			return;
	}
}

static void deaf_subscriber(unsigned k)
{
	int fd = agent_socket(3 + k % 5);
	uint32_t notify[2] = {DOMAIN, 1};
	if (fd >= 0)
		call(fd, 1, notify, 2, DMN_SCMI_PROTOCOL_POWER, 0x6);
	for (;;)
		pause();
}

static void connection_flood(void)
{
	for (int i = 0; i < 64; i++)
		agent_socket(3);
	for (;;)
		pause();
}

static void trickled_frame(void)
{
	for (;;) {
		int fd = agent_socket(3);
		uint8_t head[4];
		put32(head, 0x80000000u);
		if (fd < 0 || write(fd, head, 4) != 4)
			return;
		uint8_t b = 0;
		while (write(fd, &b, 1) == 1)
			nap_ms(10);
		close(fd);
	}
}

static void busy_agent(void)
{
	int fd = agent_socket(3);
	uint8_t buf[512];
	srand(3);
	while (fd >= 0) {
		size_t n = (size_t)rand() % 40;
		put32(buf, (uint32_t)n);
		for (size_t k = 0; k < n; k++)
			buf[4 + k] = (uint8_t)rand();
		if (write(fd, buf, 4 + n) < 0)
			return;
		struct pollfd pfd = {fd, POLLIN, 0};
		while (poll(&pfd, 1, 0) > 0)
			if (read(fd, buf, sizeof(buf)) <= 0)
				return;
	}
}

enum { SLOW, DEAF, FLOOD, TRICKLE, BUSY, N_CASES };

static const char *const case_names[N_CASES] = {
    "slow_reader", "deaf_subscribers", "connection_flood", "trickled_frame",
    "busy_agent"};

static unsigned start_case(int c, pid_t *kids)
{
	unsigned n = c == DEAF ? 20 : 1;
	for (unsigned k = 0; k < n; k++) {
		kids[k] = fork();
		if (kids[k])
			continue;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		switch (c) {
		case SLOW: slow_reader(); break;
		case DEAF: deaf_subscriber(k); break;
		case FLOOD: connection_flood(); break;
		case TRICKLE: trickled_frame(); break;
		default: busy_agent(); break;
		}
		_exit(0);
	}
	return n;
}

static void stop_case(pid_t *kids, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (kids[k] > 0)
			kill(kids[k], SIGKILL);
	for (unsigned k = 0; k < n; k++)
		if (kids[k] > 0)
			waitpid(kids[k], NULL, 0);
}

/* @n power state sets, on and off; their round trips into @us. */
static int batch(int fd, unsigned n, double *us)
{
	static uint32_t token;
	for (unsigned i = 0; i < n; i++) {
		uint32_t set[3] = {0, DOMAIN,
				   i & 1 ? DMN_SCMI_POWER_OFF : DMN_SCMI_POWER_ON};
		us[i] = call(fd, ++token, set, 3, DMN_SCMI_PROTOCOL_POWER, 0x4);
		if (us[i] < 0)
			return -1;
	}
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(double *v, unsigned n, unsigned p)
{
	qsort(v, n, sizeof(*v), cmp);
	return v[(size_t)n * p / 100 < n ? (size_t)n * p / 100 : n - 1];
}

static pid_t serve(const char *domino, const char *dtb)
{
	char agents[96];
	snprintf(agents, sizeof(agents), "%s/agents", dir);
	FILE *f = fopen(agents, "w");
	if (!f || fputs(agents_text, f) < 0) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	pid_t pid = fork();
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(127);
		execl(domino, domino, "scmi-serve", dtb, "--agents", agents,
		      "--socket-dir", dir, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int scmi_hostile_run(const char *domino, const char *dtb, unsigned rounds,
		     unsigned calls, struct scmi_hostile_case *out)
{
	snprintf(dir, sizeof(dir), "/tmp/domino-hostile-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	signal(SIGPIPE, SIG_IGN);
	pid_t server = serve(domino, dtb);
	int fd = -1;
	for (int tries = 0; server > 0 && tries < 2000 && fd < 0; tries++) {
		fd = agent_socket(1);
		if (fd < 0)
			nap_ms(5);
	}
	double *with = malloc(rounds * calls * sizeof(double));
	double *alone = malloc(rounds * calls * sizeof(double));
	double *rw = malloc(rounds * sizeof(double));
	double *ra = malloc(rounds * sizeof(double));
	int rc = fd < 0 || !with || !alone || !rw || !ra ? -1 : 0;
	for (int c = 0; !rc && c < N_CASES; c++) {
		struct scmi_hostile_case *r = &out[c];
		memset(r, 0, sizeof(*r));
		r->name = case_names[c];
		unsigned done = 0;
		for (; done < rounds; done++) {
			pid_t kids[MAX_CHILDREN];
			unsigned n = start_case(c, kids);
			nap_ms(150); /* its connections are in, its frames sent */
			/* and its steady state reached: the deaf subscribers'
			 * sockets full (a few hundred notifications each) */
			static double warm[WARM_UP];
			int failed = batch(fd, WARM_UP, warm) ||
				     batch(fd, calls, with + done * calls);
			stop_case(kids, n);
			if (failed) {
				r->no_reply = 1;
				break;
			}
			nap_ms(50); /* the server has seen them go */
			if (batch(fd, calls, alone + done * calls)) {
				r->no_reply = 1;
				break;
			}
			rw[done] = bench_median_of(with + done * calls, calls);
			ra[done] = bench_median_of(alone + done * calls, calls);
		}
		if (r->no_reply) {
			/* a server that blocked: the connection is no use now */
			close(fd);
			fd = agent_socket(1);
			if (fd < 0)
				break;
			continue;
		}
		r->ratio = bench_paired_ratio(rw, ra, rounds);
		r->alone_p50 = pct(alone, rounds * calls, 50);
		r->with_p50 = pct(with, rounds * calls, 50);
		r->with_p99 = pct(with, rounds * calls, 99);
		r->with_max = pct(with, rounds * calls, 100);
	}
	if (fd >= 0)
		close(fd);
	free(with);
	free(alone);
	free(rw);
	free(ra);
	if (server > 0) {
		kill(server, SIGTERM);
		for (int i = 0; i < 200 && waitpid(server, NULL, WNOHANG) == 0; i++)
			nap_ms(10);
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
	}
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
		/* a directory in /tmp left behind */
	}
	return rc;
}
