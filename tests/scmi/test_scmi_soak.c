/* SPDX-License-Identifier: MIT */
/*
 * A soak of `domino scmi-serve`: 16 well-behaved agents (each a
 * connection that subscribes to notifications and reads everything, and
 * sends power state sets, level sets and reads in turn) beside 8 hostile
 * ones (two slow readers, two agents of deaf subscribers at --max-conns,
 * a connection churner and flooder, a junk sender reading at full speed,
 * a frame trickler, a half-frame quitter), for DOMINO_SOAK_SECONDS
 * (default 10). Checks that every well-behaved call is answered within
 * the bound, that the server's memory does not grow after the first
 * second, and that SIGTERM still stops it within 1 s. Prints the latency
 * percentiles, the server's resident memory and the calls made.
 * Arguments: DOMINO BOARD.dtb; DOMINO_SERVE_BIN=PATH runs another build.
 */
#define _GNU_SOURCE
#include "serve_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <domino/scmi.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define GOOD 16
#define LATENCY_BOUND_MS 1000
#define RSS_GROWTH_KIB 1024

static const char *domino_bin, *board;

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static void frame(int fd, uint32_t header)
{
	uint8_t f[8];
	put32(f, 4);
	put32(f + 4, header);
	if (write(fd, f, 8) < 0) {
		/* dropped: the behaviour reconnects or ends */
	}
}

/* ---- the hostile agents (children) ----------------------------------- */

static void slow_reader(int fd)
{
	fcntl(fd, F_SETFL, O_NONBLOCK);
	for (unsigned i = 0;; i++) {
		frame(fd, dmn_scmi_header(DMN_SCMI_PROTOCOL_BASE, 0, 0, i & 0x3ff));
		if (i % 64 == 0) {
			uint8_t b[16];
			if (read(fd, b, sizeof(b)) == 0)
				_exit(0);
			nap_ms(200);
		}
	}
}

static void deaf(int fd)
{
	uint8_t f[16];
	put32(f, 12);
	put32(f + 4, dmn_scmi_header(DMN_SCMI_PROTOCOL_POWER, 0x6, 0, 1));
	put32(f + 8, 0);
	put32(f + 12, 1);
	for (uint32_t d = 0; d < 14; d++) {
		put32(f + 8, d);
		if (write(fd, f, 16) < 0)
			_exit(0);
	}
	/* never reads */
}

static const struct served *soak_server;

/* --max-conns connections of one agent that never read, each subscribed
 * to every power domain. */
static void deaf_agent(int fd, unsigned agent)
{
	deaf(fd);
	for (int i = 1; i < 8; i++) {
		int more = served_connect_agent(soak_server, agent);
		if (more >= 0)
			deaf(more);
	}
}

static void deaf_agent_19(int fd)
{
	deaf_agent(fd, 19);
}

static void deaf_agent_20(int fd)
{
	deaf_agent(fd, 20);
}

static void churner(int fd)
{
	close(fd);
	for (;;) {
		int fds[16];
		for (int i = 0; i < 16; i++)
			fds[i] = served_connect_agent(soak_server, 21);
		for (int i = 0; i < 16; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		nap_ms(5);
	}
}

static void junk(int fd)
{
	srand(22);
	uint8_t buf[512];
	for (;;) {
		size_t n = (size_t)rand() % 200;
		put32(buf, (uint32_t)n);
		for (size_t k = 0; k < n; k++)
			buf[4 + k] = (uint8_t)rand();
		if (write(fd, buf, 4 + n) < 0)
			_exit(0);
		/* reads what comes, at full speed */
		struct pollfd pfd = {fd, POLLIN, 0};
		while (poll(&pfd, 1, 0) > 0)
			if (read(fd, buf, sizeof(buf)) <= 0)
				_exit(0);
	}
}

static void trickler(int fd)
{
	for (;;) {
		uint8_t head[4];
		put32(head, 1u << 30);
		if (write(fd, head, 4) == 4)
			for (;;) {
				uint8_t b = 0;
				if (write(fd, &b, 1) != 1)
					break;
				nap_ms(50);
			}
		close(fd);
		fd = served_connect_agent(soak_server, 23);
		if (fd < 0)
			_exit(0);
	}
}

static void quitter(int fd)
{
	for (;;) {
		uint8_t half[6] = {40, 0, 0, 0, 1, 2};
		if (write(fd, half, sizeof(half)) < 0) {
			/* reconnect below */
		}
		close(fd);
		nap_ms(2);
		fd = served_connect_agent(soak_server, 24);
		if (fd < 0)
			_exit(0);
	}
}

/* ---- the well-behaved agents ----------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void test_soak(void **state)
{
	(void)state;
	const char *env = getenv("DOMINO_SOAK_SECONDS");
	int seconds = env && atoi(env) > 0 ? atoi(env) : 10;
	char agents[2048] = "";
	for (unsigned a = 1; a <= 24; a++) {
		char line[80];
		snprintf(line, sizeof(line), "agent %u a%u power all perf all\n",
			 a, a);
		strcat(agents, line);
	}
	struct served s;
	assert_int_equal(served_start(&s, served_bin(domino_bin), board, agents,
				      24, NULL),
			 0);
	soak_server = &s;
	pid_t bad[8];
	bad[0] = served_child(&s, 17, slow_reader);
	bad[1] = served_child(&s, 18, slow_reader);
	bad[2] = served_child(&s, 19, deaf_agent_19);
	bad[3] = served_child(&s, 20, deaf_agent_20);
	bad[4] = served_child(&s, 21, churner);
	bad[5] = served_child(&s, 22, junk);
	bad[6] = served_child(&s, 23, trickler);
	bad[7] = served_child(&s, 24, quitter);
	int fd[GOOD];
	for (unsigned a = 0; a < GOOD; a++) {
		fd[a] = served_connect_agent(&s, a + 1);
		assert_true(fd[a] >= 0);
		int32_t st;
		for (uint32_t d = 0; d < 4; d++) {
			uint32_t notify[2] = {d, 1};
			assert_true(served_call(fd[a], DMN_SCMI_PROTOCOL_POWER, 0x6,
						notify, 2, 5000, &st) >= 0);
		}
	}
	size_t cap = 1u << 20, n = 0;
	double *lat = malloc(cap * sizeof(*lat));
	assert_non_null(lat);
	double t0 = served_now_ms(), worst = 0;
	long rss[600] = {0};
	int sampled = 0;
	for (unsigned i = 0; served_now_ms() - t0 < seconds * 1000.0; i++) {
		if (served_now_ms() - t0 > 1000.0 * (sampled + 1) && sampled < 600)
			rss[sampled++] = served_rss_kib(&s);
		unsigned a = i % GOOD;
		int32_t st = -1;
		double ms;
		uint32_t w[3];
		switch (i / GOOD % 4) {
		case 0: /* power state set on one of the first four domains */
			w[0] = 0;
			w[1] = a % 4;
			w[2] = (i / GOOD / 4) % 2 ? DMN_SCMI_POWER_OFF
						  : DMN_SCMI_POWER_ON;
			ms = served_call(fd[a], DMN_SCMI_PROTOCOL_POWER, 0x4, w, 3,
					 5000, &st);
			break;
		case 1: /* its level on a perf domain, then back */
			w[0] = a % 4;
			w[1] = 0;
			ms = served_call(fd[a], DMN_SCMI_PROTOCOL_PERF, 0x7, w, 2,
					 5000, &st);
			break;
		case 2:
			w[0] = a % 4;
			ms = served_call(fd[a], DMN_SCMI_PROTOCOL_POWER, 0x5, w, 1,
					 5000, &st);
			break;
		default:
			ms = served_call(fd[a], DMN_SCMI_PROTOCOL_BASE, 0, NULL, 0,
					 5000, &st);
			break;
		}
		if (ms < 0) {
			served_dump_log(&s);
			fail_msg("agent %u: call %u not answered", a + 1, i);
		}
		assert_int_equal(st, 0);
		if (n < cap)
			lat[n++] = ms;
		if (ms > worst)
			worst = ms;
	}
	long rss_end = served_rss_kib(&s);
	assert_true(served_alive(&s));
	/* the queues and buffers fill during the first third; after it the
	 * memory stays where it is */
	long rss_warm = rss[sampled / 3];
	for (int k = 0; k < sampled; k++)
		print_message("%s%ld", k ? " " : "    server memory each second (KiB): ",
			      rss[k]);
	print_message("\n");
	qsort(lat, n, sizeof(*lat), cmp_double);
	print_message("    %zu calls of %d well-behaved agents in %d s beside 8 "
		      "hostile ones: p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
		      n, GOOD, seconds, lat[n / 2], lat[n * 99 / 100], worst);
	print_message("    server memory: %ld KiB after %d s, %ld KiB at the "
		      "end\n",
		      rss_warm, sampled / 3 + 1, rss_end);
	assert_true(worst < LATENCY_BOUND_MS);
	assert_true(rss_end - rss_warm < RSS_GROWTH_KIB);
	free(lat);
	for (unsigned a = 0; a < GOOD; a++)
		close(fd[a]);
	double ms;
	int rc = served_stop(&s, 5000, &ms);
	print_message("    stop with the hostile agents still there: %.1f ms\n",
		      ms);
	assert_int_equal(rc, 0);
	assert_true(ms < 1000);
	for (int i = 0; i < 8; i++)
		served_reap(bad[i]);
	served_cleanup(&s);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s DOMINO BOARD.dtb\n", argv[0]);
		return 2;
	}
	domino_bin = argv[1];
	board = argv[2];
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_soak)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
