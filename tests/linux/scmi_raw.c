/* SPDX-License-Identifier: MIT */
/*
 * Runs inside the User-Mode-Linux guest of tests/linux (a host binary the
 * guest reaches through hostfs): sends SCMI messages through Linux's SCMI
 * raw mode (debugfs scmi/0/raw, CONFIG_ARM_SCMI_RAW_MODE_SUPPORT), so
 * they travel Linux's SCMI core and virtio transport to the platform, and
 * prints what comes back.
 *
 *   scmi-raw msg PROTO ID [WORD...]      one command; prints
 *                                          "status S words W..."
 *   scmi-raw bench N PROTO ID [WORD...]  N round trips of that command,
 *                                          timed; prints "round_trip_ns
 *                                          MEDIAN min MIN over N" (the
 *                                          median of 32-message batches)
 *   scmi-raw alternate N DOM L1 L2       N PERFORMANCE_LEVEL_SET pairs of
 *                                          domain DOM to L1 then L2, timed
 *                                          as bench (one figure per set)
 *   scmi-raw notes MS                    the notifications raw mode got,
 *                                          waiting up to MS for the first;
 *                                          one "note PROTO ID WORD..." a line
 * Numbers are decimal or 0x hexadecimal. Exit 0, 1 on an error (said on
 * stderr), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RAW "/sys/kernel/debug/scmi/0/raw/"
#define MAX_WORDS 8
#define BATCH 32

static uint32_t token;
/* Raw mode writes a message at the file position, which reading a reply
 * moves (and lseek is refused): messages go out on one descriptor and
 * replies (the instance's queue, whichever descriptor reads it) come in
 * on another. */
static int wfd, rfd;

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int number(const char *s, uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* One whole message from a raw file: its bytes, then EOF. */
static ssize_t read_message(int fd, uint8_t *buf, size_t cap)
{
	ssize_t n = read(fd, buf, cap);
	if (n <= 0)
		return -1;
	uint8_t rest[16];
	while (read(fd, rest, sizeof(rest)) > 0)
		; /* a message longer than @cap: the rest is dropped */
	return n;
}

/* Send one command; the reply into @reply. Returns its length or -1. */
static ssize_t xfer(uint32_t proto, uint32_t id, const uint32_t *w,
		    unsigned n, uint8_t *reply, size_t cap)
{
	uint8_t msg[4 + 4 * MAX_WORDS];
	uint32_t t = token++ & 0x3ff;
	put32(msg, (id & 0xff) | (proto & 0xff) << 10 | t << 18);
	for (unsigned k = 0; k < n; k++)
		put32(msg + 4 + 4 * k, w[k]);
	if (write(wfd, msg, 4 + 4 * n) != (ssize_t)(4 + 4 * n)) {
		perror("scmi-raw: write " RAW "message");
		return -1;
	}
	ssize_t len = read_message(rfd, reply, cap);
	if (len < 8 || get32(reply) != get32(msg)) {
		fprintf(stderr,
			"scmi-raw: sent header 0x%08x, got %zd bytes (0x%08x): "
			"%s\n",
			get32(msg), len, len >= 4 ? get32(reply) : 0,
			len < 0 ? strerror(errno) : "");
		return -1;
	}
	return len;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* @n messages (@n rounded up to whole batches), alternating @w1 and @w2
 * (the same when no alternation); prints the per-message median and min
 * of the batches. */
static int timed(unsigned long n, uint32_t proto, uint32_t id,
		 const uint32_t *w1, const uint32_t *w2, unsigned nw)
{
	unsigned long batches = (n + BATCH - 1) / BATCH;
	uint64_t *per = calloc(batches, sizeof(*per));
	uint8_t reply[256];
	if (!per)
		return 1;
	for (unsigned long b = 0; b < batches; b++) {
		uint64_t t0 = now_ns();
		for (unsigned k = 0; k < BATCH; k++) {
			ssize_t len = xfer(proto, id, k & 1 ? w2 : w1, nw,
					   reply, sizeof(reply));
			if (len < 0 || get32(reply + 4)) {
				fprintf(stderr, "scmi-raw: status %d\n",
					len < 0 ? 0 : (int32_t)get32(reply + 4));
				free(per);
				return 1;
			}
		}
		per[b] = (now_ns() - t0) / BATCH;
	}
	qsort(per, batches, sizeof(*per), cmp_u64);
	printf("round_trip_ns %llu min %llu over %lu\n",
	       (unsigned long long)per[batches / 2], (unsigned long long)per[0],
	       batches * BATCH);
	free(per);
	return 0;
}

static int notes(unsigned ms)
{
	int fd = open(RAW "notification", O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		perror("scmi-raw: " RAW "notification");
		return 1;
	}
	uint8_t buf[256];
	struct pollfd p = {fd, POLLIN, 0};
	int first = 1;
	/* the first may take up to @ms; those queued behind it, 200 ms */
	while (poll(&p, 1, first ? (int)ms : 200) > 0) {
		ssize_t n = read_message(fd, buf, sizeof(buf));
		if (n < 4)
			break;
		first = 0;
		uint32_t h = get32(buf);
		printf("note 0x%x 0x%x", h >> 10 & 0xff, h & 0xff);
		for (ssize_t k = 4; k + 4 <= n; k += 4)
			printf(" %u", get32(buf + k));
		printf("\n");
	}
	close(fd);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: scmi-raw msg PROTO ID [WORD...] | bench N PROTO "
			"ID [WORD...] | alternate N DOM L1 L2 | notes MS\n");
	return 2;
}

int main(int argc, char **argv)
{
	uint32_t v[2 + MAX_WORDS];
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "notes"))
		return number(argv[2], &v[0]) ? usage() : notes(v[0]);
	int bench = !strcmp(argv[1], "bench"), alt = !strcmp(argv[1], "alternate");
	int first = bench || alt ? 3 : 2;
	if ((!bench && !alt && strcmp(argv[1], "msg")) || argc < first + 2 ||
	    argc - first > 2 + MAX_WORDS)
		return usage();
	uint32_t n = 1;
	if ((bench || alt) && number(argv[2], &n))
		return usage();
	for (int i = first; i < argc; i++)
		if (number(argv[i], &v[i - first]))
			return usage();
	unsigned nw = (unsigned)(argc - first - 2);
	token = (uint32_t)getpid();
	wfd = open(RAW "message", O_WRONLY);
	rfd = open(RAW "message", O_RDONLY);
	if (wfd < 0 || rfd < 0) {
		perror("scmi-raw: " RAW "message");
		return 1;
	}
	int rc;
	if (alt) {
		/* PERFORMANCE_LEVEL_SET {dom, L1} and {dom, L2} */
		uint32_t w1[2] = {v[0], v[1]}, w2[2] = {v[0], v[2]};
		if (argc - first != 3)
			return usage();
		rc = timed(n, 0x13, 0x7, w1, w2, 2);
	} else if (bench) {
		rc = timed(n, v[0], v[1], v + 2, v + 2, nw);
	} else {
		uint8_t reply[256];
		ssize_t len = xfer(v[0], v[1], v + 2, nw, reply, sizeof(reply));
		rc = len < 0;
		if (!rc) {
			printf("status %d words", (int32_t)get32(reply + 4));
			for (ssize_t k = 8; k + 4 <= len; k += 4)
				printf(" %u", get32(reply + k));
			printf("\n");
		}
	}
	close(wfd);
	close(rfd);
	return rc;
}
