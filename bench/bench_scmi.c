/* SPDX-License-Identifier: MIT */
/*
 * SCMI figures:
 *   scmi_msg_ns             a PERFORMANCE_LEVEL_SET through dmn_scmi_handle, in
 *                           process (1000 calls a sample, median per call)
 *   scmi_vote_ns            the same level changes as plain dmn_vote calls,
 *                           timed by the same loop
 *   scmi_level_set_vs_vote  their ratio: what the protocol layer adds
 *   scmi_roundtrip_us       a LEVEL_SET over `domino scmi-serve`'s socket
 *                           on the demo board, request to reply
 *   scmi_hostile_ratio      a POWER_STATE_SET's round trip with a hostile
 *                           agent beside it over without, the worst of the
 *                           hostile cases of scmi_hostile.c (target <= 2)
 */
#include "bench_util.h"
#include "domino_demo_board.h"
#include "scmi_hostile.h"

#include <domino/scmi.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BATCH 1000

static int noop_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return 0;
}

static const struct dmn_domain_ops rail_ops = {0, 0, noop_pstate, 0};

struct scmi_bench {
	struct dmn_ctx *ctx;
	struct dmn_scmi_server *srv;
	dmn_attach_t att; /* a plain device's, for the comparison */
	uint8_t msg[2][12];
};

static void setup(struct scmi_bench *b)
{
	memset(b, 0, sizeof(*b));
	dmn_domain_t dom;
	dmn_device_t dev;
	struct dmn_domain_desc desc = {"rail", &rail_ops, 0, 0};
	static const struct dmn_scmi_perf_level levels[2] = {{10, 0, 0, 0},
							     {20, 0, 0, 0}};
	static const uint8_t all = 1;
	struct dmn_scmi_agent agent = {1, "ospm", &all, &all, 0, 0};
	if (dmn_ctx_create(NULL, &b->ctx) ||
	    dmn_domain_create(b->ctx, &desc, &dom) ||
	    dmn_device_create(b->ctx, "dev", &dev) ||
	    dmn_attach(b->ctx, dev, dom, &b->att) ||
	    dmn_device_get(b->ctx, dev)) {
		fprintf(stderr, "domino-bench: scmi setup failed\n");
		exit(1);
	}
	struct dmn_scmi_power_domain power = {dom, "rail"};
	struct dmn_scmi_perf_domain perf = {dom, "rail", levels, 2};
	struct dmn_scmi_config cfg = {.ctx = b->ctx,
				  .power = &power,
				  .n_power = 1,
				  .perf = &perf,
				  .n_perf = 1,
				  .agents = &agent,
				  .n_agents = 1};
	if (dmn_scmi_server_create(&cfg, &b->srv)) {
		fprintf(stderr, "domino-bench: dmn_scmi_server_create failed\n");
		exit(1);
	}
	for (int k = 0; k < 2; k++) {
		uint32_t w[3] = {dmn_scmi_header(DMN_SCMI_PROTOCOL_PERF, 7, 0, 1), 0,
				 k ? 20u : 10u};
		memcpy(b->msg[k], w, 12);
	}
}

/* Median ns per call of @BATCH alternating level changes. */
static double time_scmi(struct scmi_bench *b, unsigned samples)
{
	double *t = malloc(samples * sizeof(double));
	uint8_t reply[DMN_SCMI_DEFAULT_MAX_MSG];
	size_t len;
	for (unsigned s = 0; s < samples; s++) {
		uint64_t t0 = bench_now();
		for (unsigned i = 0; i < BATCH; i++)
			dmn_scmi_handle(b->srv, 1, b->msg[i & 1], 12, reply,
				    sizeof(reply), &len);
		t[s] = (double)(bench_now() - t0) / BATCH;
	}
	double r = bench_median(t, samples);
	free(t);
	return r;
}

static double time_vote(struct scmi_bench *b, unsigned samples)
{
	double *t = malloc(samples * sizeof(double));
	for (unsigned s = 0; s < samples; s++) {
		uint64_t t0 = bench_now();
		for (unsigned i = 0; i < BATCH; i++)
			dmn_vote(b->ctx, b->att, i & 1 ? 20u : 10u);
		t[s] = (double)(bench_now() - t0) / BATCH;
	}
	double r = bench_median(t, samples);
	free(t);
	return r;
}

static int write_all(int fd, const void *p, size_t n)
{
	const uint8_t *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	uint8_t *c = p;
	while (n) {
		ssize_t r = read(fd, c, n);
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Serve the demo board and time LEVEL_SETs on perf domain 0; returns the
 * median in µs, or a negative value when it could not run. */
static double roundtrip(const char *domino, unsigned samples)
{
	char dir[] = "/tmp/domino-bench-scmi-XXXXXX";
	if (!mkdtemp(dir))
		return -1;
	char dtb[128], agents[128], sock[96];
	snprintf(dtb, sizeof(dtb), "%s/demo.dtb", dir);
	snprintf(agents, sizeof(agents), "%s/agents", dir);
	snprintf(sock, sizeof(sock), "%s/agent1.sock", dir);
	FILE *f = fopen(dtb, "wb");
	int ok = f && fwrite(domino_demo_dtb, 1, domino_demo_dtb_len, f) ==
			  domino_demo_dtb_len;
	if (f)
		fclose(f);
	f = fopen(agents, "w");
	ok = ok && f && fputs("agent 1 bench power all perf all\n", f) >= 0;
	if (f)
		fclose(f);
	double result = -1;
	pid_t pid = ok ? fork() : -1;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(domino, domino, "scmi-serve", dtb, "--agents", agents,
		      "--socket-dir", dir, (char *)NULL);
		_exit(127);
	}
	int fd = -1;
	for (int tries = 0; pid > 0 && tries < 1000 && fd < 0; tries++) {
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd >= 0 &&
		    connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			close(fd);
			fd = -1;
			struct timespec ts = {0, 5 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
	/* two levels of perf domain 0, from its first DESCRIBE_LEVELS page */
	uint32_t levels[2] = {0, 0};
	if (fd >= 0) {
		uint32_t frame[4] = {
		    12, dmn_scmi_header(DMN_SCMI_PROTOCOL_PERF, 4, 0, 0), 0, 0};
		uint32_t reply[3 + 3 * 2];
		if (write_all(fd, frame, sizeof(frame)) ||
		    read_all(fd, reply, 4) || reply[0] < 8 + 4 + 24 ||
		    read_all(fd, reply + 1, sizeof(reply) - 4)) {
			close(fd);
			fd = -1;
		} else {
			levels[0] = reply[4];
			levels[1] = reply[7];
			uint8_t rest[DMN_SCMI_DEFAULT_MAX_MSG];
			if (read_all(fd, rest,
				     reply[0] - (sizeof(reply) - 4))) {
				close(fd);
				fd = -1;
			}
		}
	}
	if (fd >= 0) {
		double *t = malloc(samples * sizeof(double));
		unsigned s = 0;
		for (; s < samples; s++) {
			uint32_t frame[4] = {
			    12, dmn_scmi_header(DMN_SCMI_PROTOCOL_PERF, 7, 0, s), 0,
			    levels[s & 1]};
			uint32_t reply[3];
			uint64_t t0 = bench_now();
			if (write_all(fd, frame, sizeof(frame)) ||
			    read_all(fd, reply, sizeof(reply)) ||
			    reply[0] != 8 || reply[2] != 0)
				break;
			t[s] = (double)(bench_now() - t0) / 1000.0;
		}
		if (s == samples)
			result = bench_median(t, samples);
		free(t);
		close(fd);
	}
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	remove(dtb);
	remove(agents);
	remove(sock);
	rmdir(dir);
	return result;
}

/* The demo board's blob in a file, for the server to read. */
static int demo_file(char *path, size_t n)
{
	snprintf(path, n, "/tmp/domino-bench-demo-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	int ok = write_all(fd, domino_demo_dtb, domino_demo_dtb_len) == 0;
	close(fd);
	return ok ? 0 : -1;
}

static void hostile(struct bench_table *t, const char *domino, int quick)
{
	char dtb[64];
	struct scmi_hostile_case c[SCMI_HOSTILE_CASES];
	if (demo_file(dtb, sizeof(dtb)) ||
	    scmi_hostile_run(domino, dtb, quick ? 3 : 9, quick ? 100 : 300, c)) {
		printf("scmi_hostile_ratio: unavailable (%s scmi-serve did not "
		       "answer)\n",
		       domino);
		remove(dtb);
		return;
	}
	remove(dtb);
	double worst = 0;
	for (unsigned i = 0; i < SCMI_HOSTILE_HOSTILE; i++) {
		if (c[i].no_reply) {
			printf("scmi_hostile_ratio: %s: no reply within 2 s\n",
			       c[i].name);
			return;
		}
		if (c[i].ratio > worst)
			worst = c[i].ratio;
	}
	bench_result(t, "scmi_hostile_ratio", 0, worst, "x");
}

void bench_scmi(struct bench_table *t, const char *domino, int quick)
{
	struct scmi_bench b;
	setup(&b);
	unsigned samples = quick ? 51 : 301;
	/* warm up the agent's device, then interleave to share any drift */
	time_scmi(&b, 3);
	double msg = time_scmi(&b, samples);
	double vote = time_vote(&b, samples);
	bench_result(t, "scmi_msg_ns", 0, msg, "ns");
	bench_result(t, "scmi_vote_ns", 0, vote, "ns");
	bench_result(t, "scmi_level_set_vs_vote", 0, msg / vote, "x");
	dmn_scmi_server_destroy(b.srv);
	dmn_ctx_destroy(b.ctx);
	if (!domino) {
		printf("scmi_roundtrip_us: skipped (no --domino PATH)\n");
		return;
	}
	double rt = roundtrip(domino, quick ? 501 : 5001);
	if (rt < 0)
		printf("scmi_roundtrip_us: unavailable (%s scmi-serve did not "
		       "answer)\n",
		       domino);
	else
		bench_result(t, "scmi_roundtrip_us", 0, rt, "us");
	hostile(t, domino, quick);
}
