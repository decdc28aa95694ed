/* SPDX-License-Identifier: MIT */
/*
 * `domino scmi-serve --vhost-user AGENT=PATH` against a front end written
 * here (vhost_front.c: the handshake User-Mode Linux's virtio_uml does,
 * memfd guest memory, split rings, eventfds), no kernel needed:
 *  - requests and replies on the command queue, the same bytes the socket
 *    transport answers;
 *  - notifications and delayed responses on the event queue with
 *    VIRTIO_SCMI_F_P2A_CHANNELS, none without it (and an asynchronous
 *    POWER_STATE_SET answered as a synchronous one);
 *  - each hostile front end (a descriptor loop, indices past the ring, a
 *    chain too long, buffers and rings outside the memory, a reply larger
 *    than its buffer, a request larger than --max-msg, a vanishing or
 *    second front end, broken vhost-user messages): an error on the log
 *    naming it, never a crash, the socket agent beside it still answered
 *    and the next front end served.
 * Arguments: DOMINO BOARD.dtb (the demo SoC).
 */
#define _GNU_SOURCE
#include "serve_harness.h"
#include "vhost_front.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <domino/scmi.h>

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *domino_bin, *board;

static const char agents_text[] = "agent 1 linux power all perf all\n"
				  "agent 2 other power all perf all\n";

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

struct rig {
	struct served srv;
	char vu_path[200];
	char sock_path[200]; /* agent 2's socket */
};

static int rig_up(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	const char *args[] = {"--vhost-user", "linux=@DIR/vu1.sock", NULL};
	if (!r || served_start(&r->srv, served_bin(domino_bin), board,
			       agents_text, 2, args)) {
		free(r);
		return -1;
	}
	snprintf(r->vu_path, sizeof(r->vu_path), "%s/vu1.sock", r->srv.dir);
	snprintf(r->sock_path, sizeof(r->sock_path), "%s/agent2.sock",
		 r->srv.dir);
	*state = r;
	return 0;
}

static int rig_down(void **state)
{
	struct rig *r = *state;
	served_cleanup(&r->srv);
	free(r);
	return 0;
}

/* One framed call over agent 2's socket: the reply, its length. */
static long sock_call(const char *path, const uint8_t *msg, size_t len,
		      uint8_t *reply, size_t cap)
{
	int fd = served_connect(path, 0);
	if (fd < 0)
		return -1;
	uint8_t frame[4 + 256];
	put32(frame, (uint32_t)len);
	memcpy(frame + 4, msg, len);
	long n = -1;
	if (write(fd, frame, 4 + len) == (ssize_t)(4 + len)) {
		uint8_t head[4];
		struct pollfd pfd = {fd, POLLIN, 0};
		if (poll(&pfd, 1, 2000) > 0 && read(fd, head, 4) == 4) {
			uint32_t want = get32(head);
			size_t got = 0;
			while (got < want && got < cap &&
			       poll(&pfd, 1, 2000) > 0) {
				ssize_t r = read(fd, reply + got, want - got);
				if (r <= 0)
					break;
				got += (size_t)r;
			}
			n = got == want ? (long)got : -1;
		}
	}
	close(fd);
	return n;
}

/* The socket agent beside the front end is answered. */
static void other_agent_answered(struct rig *r)
{
	uint8_t msg[4], reply[64];
	put32(msg, dmn_scmi_header(DMN_SCMI_PROTOCOL_BASE, 0, 0, 7));
	long n = sock_call(r->sock_path, msg, 4, reply, sizeof(reply));
	assert_int_equal(n, 12);
	assert_int_equal(get32(reply + 4), 0);
	assert_true(served_alive(&r->srv));
}

static void connect_front(struct rig *r, struct vfront *f, int p2a)
{
	assert_int_equal(vf_connect(f, r->vu_path), 0);
	assert_int_equal(vf_setup(f, p2a ? VF_P2A | VF_EVENTQ : 0), 0);
}

/* ---- normal traffic ---------------------------------------------------- */

static void test_commands(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	uint32_t out[8];
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_BASE, 0, NULL, 0, out, 1),
			 0);
	assert_true(out[0] >= DMN_SCMI_PROTOCOL_VERSION_2_0);
	/* the same bytes as over the socket, for a few messages */
	static const uint32_t probes[][3] = {
	    {DMN_SCMI_PROTOCOL_BASE, 0x3, 0},	   /* DISCOVER_VENDOR */
	    {DMN_SCMI_PROTOCOL_BASE, 0x6, 0},	   /* LIST_PROTOCOLS skip 0 */
	    {DMN_SCMI_PROTOCOL_POWER, 0x1, ~0u},   /* ATTRIBUTES */
	    {DMN_SCMI_PROTOCOL_PERF, 0x4, 0},	   /* DESCRIBE_LEVELS 0 */
	    {DMN_SCMI_PROTOCOL_POWER, 0x9, ~0u},   /* unknown: NOT_FOUND */
	    {0x77, 0x0, ~0u},			   /* NOT_SUPPORTED */
	};
	for (unsigned i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		uint8_t msg[12], a[256], b[256];
		size_t len = 4;
		put32(msg, dmn_scmi_header(probes[i][0], probes[i][1], 0, 40 + i));
		if (probes[i][2] != ~0u) {
			put32(msg + 4, probes[i][2]);
			put32(msg + 8, 0);
			len = probes[i][1] == 0x4 ? 12 : 8;
		}
		long na = vf_command(&f, msg, len, a, 128, 2000);
		long nb = sock_call(r->sock_path, msg, len, b, sizeof(b));
		assert_true(na >= 8);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, (size_t)na);
	}
	vf_close(&f);
	other_agent_answered(r);
}

static int32_t sock_agent_power(struct rig *r, uint32_t domain, uint32_t state)
{
	uint8_t msg[16], reply[64];
	put32(msg, dmn_scmi_header(DMN_SCMI_PROTOCOL_POWER, 0x4, 0, 9));
	put32(msg + 4, 0);
	put32(msg + 8, domain);
	put32(msg + 12, state);
	long n = sock_call(r->sock_path, msg, 16, reply, sizeof(reply));
	return n >= 8 ? (int32_t)get32(reply + 4) : -1000;
}

static void test_events(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	vf_event_buffers(&f, 8, 128);
	uint32_t args[3] = {3, 1}, out[4];
	/* POWER_STATE_NOTIFY domain 3, then agent 2 switches it on */
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x6, args, 2, out, 0),
			 0);
	assert_int_equal(sock_agent_power(r, 3, DMN_SCMI_POWER_ON), 0);
	uint8_t ev[128];
	long n = vf_event(&f, ev, sizeof(ev), 2000);
	assert_int_equal(n, 16);
	uint32_t h = get32(ev);
	assert_int_equal(dmn_scmi_header_type(h), DMN_SCMI_TYPE_NOTIFICATION);
	assert_int_equal(dmn_scmi_header_protocol(h), DMN_SCMI_PROTOCOL_POWER);
	assert_int_equal(get32(ev + 4), 2); /* agent 2 caused it */
	assert_int_equal(get32(ev + 8), 3);
	assert_int_equal(get32(ev + 12), DMN_SCMI_POWER_ON);
	/* an asynchronous POWER_STATE_SET: its delayed response follows */
	uint32_t set[3] = {1, 5, DMN_SCMI_POWER_ON};
	uint32_t token = f.token & 0x3ffu;
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x4, set, 3, out, 0),
			 0);
	n = vf_event(&f, ev, sizeof(ev), 2000);
	assert_int_equal(n, 16);
	h = get32(ev);
	assert_int_equal(dmn_scmi_header_type(h), DMN_SCMI_TYPE_DELAYED_RESPONSE);
	assert_int_equal(dmn_scmi_header_token(h), token);
	assert_int_equal(get32(ev + 4), 0);
	assert_int_equal(get32(ev + 8), 5);
	assert_int_equal(get32(ev + 12), DMN_SCMI_POWER_ON);
	uint32_t dom = 5;
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x5, &dom, 1, out, 1),
			 0);
	assert_int_equal(out[0], DMN_SCMI_POWER_ON);
	/* 6 of the 8 buffers are left: 8 notifications, 6 delivered, the
	 * other 2 wait until the driver gives 2 more buffers */
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(sock_agent_power(r, 3, i % 2 ? DMN_SCMI_POWER_ON
							      : DMN_SCMI_POWER_OFF),
				 0);
	unsigned got = 0;
	while (vf_event(&f, ev, sizeof(ev), 300) > 0)
		got++;
	assert_int_equal(got, 6);
	vf_event_buffers(&f, 2, 128);
	while (vf_event(&f, ev, sizeof(ev), 300) > 0) {
		assert_int_equal(get32(ev + 12), got % 2 ? DMN_SCMI_POWER_ON
							 : DMN_SCMI_POWER_OFF);
		got++;
	}
	assert_int_equal(got, 8);
	vf_close(&f);
	assert_int_equal(sock_agent_power(r, 3, DMN_SCMI_POWER_OFF), 0);
	other_agent_answered(r);
}

static void test_no_p2a(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	/* without VIRTIO_SCMI_F_P2A_CHANNELS, even an event queue set up
	 * and given buffers gets nothing */
	assert_int_equal(vf_connect(&f, r->vu_path), 0);
	assert_int_equal(vf_setup(&f, VF_EVENTQ), 0);
	vf_event_buffers(&f, 4, 128);
	uint32_t args[2] = {6, 1}, out[2];
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x6, args, 2, out, 0),
			 0);
	/* asynchronous, answered as synchronous: done when the reply comes */
	uint32_t set[3] = {1, 6, DMN_SCMI_POWER_ON};
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x4, set, 3, out, 0),
			 0);
	uint32_t dom = 6;
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x5, &dom, 1, out, 1),
			 0);
	assert_int_equal(out[0], DMN_SCMI_POWER_ON);
	set[0] = 0;
	set[2] = DMN_SCMI_POWER_OFF;
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x4, set, 3, out, 0),
			 0);
	assert_int_equal(sock_agent_power(r, 6, DMN_SCMI_POWER_ON), 0);
	assert_int_equal(sock_agent_power(r, 6, DMN_SCMI_POWER_OFF), 0);
	uint8_t ev[128];
	assert_true(vf_event(&f, ev, sizeof(ev), 300) < 0);
	vf_close(&f);
	other_agent_answered(r);
}

/* ---- hostile front ends ------------------------------------------------ */

/* After a hostile case: the log names it, the server lives, the socket
 * agent is answered, and a new front end is served. */
static void survives(struct rig *r, const char *logged)
{
	for (int i = 0; i < 100 && !served_log_has(&r->srv, logged); i++)
		usleep(10000);
	if (!served_log_has(&r->srv, logged)) {
		served_dump_log(&r->srv);
		fail_msg("the log does not say '%s'", logged);
	}
	other_agent_answered(r);
	struct vfront f;
	connect_front(r, &f, 1);
	uint32_t out[1];
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_BASE, 0, NULL, 0, out, 1),
			 0);
	vf_close(&f);
}

/* The front end's request buffer holds a valid BASE PROTOCOL_VERSION. */
static uint64_t request_buffer(struct vfront *f)
{
	uint64_t at = vf_alloc(f, 64);
	put32(f->mem + at, dmn_scmi_header(DMN_SCMI_PROTOCOL_BASE, 0, 0, 1));
	return VF_GPA + at;
}

static void test_descriptor_loop(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	uint64_t req = request_buffer(&f);
	vf_desc(&f, 0, 0, req, 4, 1, 1);
	vf_desc(&f, 0, 1, req, 4, 1, 0); /* readable: back to 0 */
	vf_avail(&f, 0, 0);
	survives(r, "loops");
	vf_close(&f);
}

static void test_head_past_ring(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	vf_avail(&f, 0, 200);
	survives(r, "names descriptor 200");
	vf_close(&f);
}

static void test_next_past_ring(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	vf_desc(&f, 0, 0, request_buffer(&f), 4, 1, 999);
	vf_avail(&f, 0, 0);
	survives(r, "next is 999");
	vf_close(&f);
}

static void test_chain_too_long(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	uint64_t req = request_buffer(&f);
	for (unsigned i = 0; i < 20; i++)
		vf_desc(&f, 0, i, req, 1, 1, (uint16_t)(i + 1));
	vf_desc(&f, 0, 20, req, 64, 2, 0);
	vf_avail(&f, 0, 0);
	survives(r, "too long");
	vf_close(&f);
}

static void test_buffer_outside(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	vf_desc(&f, 0, 0, VF_GPA + VF_MEM_SIZE - 4, 64, 1, 1);
	vf_desc(&f, 0, 1, request_buffer(&f), 64, 2, 0);
	vf_avail(&f, 0, 0);
	survives(r, "outside the mapped memory");
	vf_close(&f);
	/* a length that wraps past 2^64 */
	connect_front(r, &f, 1);
	vf_desc(&f, 0, 0, ~0ull - 8, 64, 0, 0);
	vf_avail(&f, 0, 0);
	survives(r, "descriptor 0's buffer at 0xfffffffffffffff7");
	vf_close(&f);
}

static void test_ring_outside(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	uint8_t addr[40];
	memset(addr, 0, sizeof(addr));
	put32(addr, 0);
	uint64_t outside = VF_UVA + 2 * (uint64_t)VF_MEM_SIZE;
	for (int i = 0; i < 3; i++) {
		put32(addr + 8 + 8 * i, (uint32_t)outside);
		put32(addr + 12 + 8 * i, (uint32_t)(outside >> 32));
	}
	uint64_t ack = 1;
	assert_int_equal(vf_message(&f, 9, addr, sizeof(addr), NULL, 0, 1, &ack), 0);
	assert_int_equal(ack, 0);
	vf_avail(&f, 0, 0); /* only kicks: the ring is checked when used */
	survives(r, "outside the mapped memory");
	vf_close(&f);
	/* an available ring at an odd address (found by fuzz_vhost) */
	connect_front(r, &f, 1);
	put32(addr + 8, (uint32_t)(VF_UVA + f.q[0].desc));
	put32(addr + 12, (uint32_t)((VF_UVA + f.q[0].desc) >> 32));
	put32(addr + 16, (uint32_t)(VF_UVA + f.q[0].used));
	put32(addr + 20, (uint32_t)((VF_UVA + f.q[0].used) >> 32));
	put32(addr + 24, (uint32_t)(VF_UVA + f.q[0].avail + 1));
	put32(addr + 28, (uint32_t)((VF_UVA + f.q[0].avail + 1) >> 32));
	assert_int_equal(vf_message(&f, 9, addr, sizeof(addr), NULL, 0, 1, &ack), 0);
	vf_avail(&f, 0, 0);
	survives(r, "is not 2-byte aligned");
	vf_close(&f);
}

static void test_avail_jump(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	f.q[0].avail_idx = 1000;
	vf_avail(&f, 0, 0);
	survives(r, "available index moved");
	vf_close(&f);
}

static void test_indirect(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	vf_desc(&f, 0, 0, request_buffer(&f), 16, 4, 0);
	vf_avail(&f, 0, 0);
	survives(r, "indirect");
	vf_close(&f);
}

static void test_no_response_buffer(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	vf_desc(&f, 0, 0, request_buffer(&f), 4, 0, 0);
	vf_avail(&f, 0, 0);
	survives(r, "no buffer for the response");
	vf_close(&f);
	/* an event-queue buffer the device would have to read */
	connect_front(r, &f, 1);
	uint32_t args[2] = {2, 1}, out[1];
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x6, args, 2, out, 0),
			 0);
	vf_desc(&f, 1, 0, request_buffer(&f), 16, 0, 0);
	vf_avail(&f, 1, 0);
	assert_int_equal(sock_agent_power(r, 2, DMN_SCMI_POWER_ON), 0);
	survives(r, "device-readable buffer");
	assert_int_equal(sock_agent_power(r, 2, DMN_SCMI_POWER_OFF), 0);
	vf_close(&f);
}

static void test_reply_larger_than_buffer(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	uint8_t msg[4], resp[64];
	put32(msg, dmn_scmi_header(DMN_SCMI_PROTOCOL_BASE, 0x3, 0, 3));
	/* DISCOVER_VENDOR answers 24 bytes; the buffer holds 12 */
	long n = vf_command(&f, msg, 4, resp, 12, 2000);
	assert_int_equal(n, 8);
	assert_int_equal((int32_t)get32(resp + 4), DMN_SCMI_COMMS_ERROR);
	assert_true(served_log_has(&r->srv, "does not fit the 12-byte"));
	/* the front end stays: the next command is answered */
	uint32_t out[1];
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_BASE, 0, NULL, 0, out, 1),
			 0);
	/* a request longer than --max-msg: PROTOCOL_ERROR under its header */
	uint8_t big[300];
	memset(big, 0, sizeof(big));
	put32(big, dmn_scmi_header(DMN_SCMI_PROTOCOL_BASE, 0, 0, 4));
	n = vf_command(&f, big, sizeof(big), resp, 64, 2000);
	assert_int_equal(n, 8);
	assert_int_equal(get32(resp), get32(big));
	assert_int_equal((int32_t)get32(resp + 4), DMN_SCMI_PROTOCOL_ERROR);
	/* an event buffer smaller than the notification: dropped, said */
	uint32_t args[2] = {4, 1};
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_POWER, 0x6, args, 2, out, 0),
			 0);
	vf_event_buffers(&f, 1, 8);
	assert_int_equal(sock_agent_power(r, 4, DMN_SCMI_POWER_ON), 0);
	uint8_t ev[64];
	assert_int_equal(vf_event(&f, ev, sizeof(ev), 2000), 0);
	assert_true(served_log_has(&r->srv, "event buffer of 8 bytes"));
	assert_int_equal(sock_agent_power(r, 4, DMN_SCMI_POWER_OFF), 0);
	vf_close(&f);
	other_agent_answered(r);
}

static void test_vanish(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	/* mid-message */
	assert_int_equal(vf_connect(&f, r->vu_path), 0);
	uint8_t half[6] = {1, 0, 0, 0, 1, 0};
	assert_int_equal(write(f.sock, half, sizeof(half)), (ssize_t)sizeof(half));
	vf_close(&f);
	survives(r, "front end gone");
	/* with requests in its rings and event buffers posted */
	connect_front(r, &f, 1);
	vf_event_buffers(&f, 4, 128);
	uint64_t req = request_buffer(&f);
	vf_desc(&f, 0, 0, req, 4, 1, 1);
	vf_desc(&f, 0, 1, req + 64, 64, 2, 0);
	vf_avail(&f, 0, 0);
	vf_close(&f);
	survives(r, "it closed its socket");
}

static void test_second_front_end(void **state)
{
	struct rig *r = *state;
	struct vfront f, g;
	connect_front(r, &f, 1);
	assert_int_equal(vf_connect(&g, r->vu_path), 0);
	uint64_t features = 0;
	/* refused: closed without an answer */
	assert_int_not_equal(vf_message(&g, 1, NULL, 0, NULL, 0, 1, &features), 0);
	vf_close(&g);
	uint32_t out[1];
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_BASE, 0, NULL, 0, out, 1),
			 0);
	assert_true(served_log_has(&r->srv, "a second front end refused"));
	vf_close(&f);
	other_agent_answered(r);
}

static void test_bad_messages(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	/* a payload larger than any message */
	assert_int_equal(vf_connect(&f, r->vu_path), 0);
	uint8_t head[12];
	put32(head, 5);
	put32(head + 4, 1);
	put32(head + 8, 100000);
	assert_int_equal(write(f.sock, head, 12), 12);
	vf_close(&f);
	survives(r, "carries 100000 bytes");
	/* an unknown request asking for an ack: refused by the ack only */
	connect_front(r, &f, 1);
	uint64_t ack = 0;
	assert_int_equal(vf_message(&f, 99, NULL, 0, NULL, 0, 1, &ack), 0);
	assert_int_equal(ack, 1);
	assert_true(served_log_has(&r->srv, "request 99 is not supported"));
	uint32_t out[1];
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_BASE, 0, NULL, 0, out, 1),
			 0);
	vf_close(&f);
	/* a wrong version, a ring index past 1, a ring size not a power of
	 * two, features not offered, a memory table without its fds */
	static const struct {
		uint32_t request, flags, size;
		uint32_t words[4];
		const char *logged;
	} bad[] = {
	    {3, 2, 0, {0}, "protocol version 2"},
	    {8, 1, 8, {5, 64}, "names ring 5"},
	    {8, 1, 8, {0, 100}, "size 100 is not a power of 2"},
	    {2, 1, 8, {0, 0x80}, "features 0x8000000000 were not offered"},
	    {5, 1, 40, {1, 0}, "1 regions and 0 fds"},
	    {12, 1, 8, {0, 0}, "carries no fd"},
	    {8, 1, 4, {0}, "carries 4 bytes, fewer than 8"},
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(vf_connect(&f, r->vu_path), 0);
		uint8_t m[12 + 40];
		memset(m, 0, sizeof(m));
		put32(m, bad[i].request);
		put32(m + 4, bad[i].flags);
		put32(m + 8, bad[i].size);
		for (unsigned k = 0; k < 4; k++)
			put32(m + 12 + 4 * k, bad[i].words[k]);
		assert_int_equal(write(f.sock, m, 12 + bad[i].size),
				 (ssize_t)(12 + bad[i].size));
		/* the server drops it: read sees the end */
		struct pollfd pfd = {f.sock, POLLIN, 0};
		assert_true(poll(&pfd, 1, 2000) > 0);
		vf_close(&f);
		survives(r, bad[i].logged);
	}
}

static void test_memory_file_too_small(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	assert_int_equal(vf_connect(&f, r->vu_path), 0);
	int fd = memfd_create("small", MFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4096), 0);
	uint8_t table[40];
	memset(table, 0, sizeof(table));
	put32(table, 1);
	put32(table + 8, (uint32_t)VF_GPA);
	put32(table + 16, 1u << 20); /* 1 MiB from a 4 KiB file */
	uint64_t ack = 0;
	assert_int_equal(vf_message(&f, 5, table, sizeof(table), &fd, 1, 1, &ack),
			 0);
	assert_int_equal(ack, 1);
	close(fd);
	vf_close(&f);
	survives(r, "a file that has fewer");
}

/* The guest's memory file shrinks under the mapping: the next touch of a
 * ring is a SIGBUS, caught, and the front end dropped. */
static void test_memory_shrinks(void **state)
{
	struct rig *r = *state;
	struct vfront f;
	connect_front(r, &f, 1);
	uint32_t out[1];
	assert_int_equal(vf_call(&f, DMN_SCMI_PROTOCOL_BASE, 0, NULL, 0, out, 1),
			 0);
	assert_int_equal(ftruncate(f.memfd, 0), 0);
	uint64_t one = 1;
	assert_int_equal(write(f.q[0].kick, &one, 8), 8);
	survives(r, "shrank under the mapping");
	vf_close(&f);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s DOMINO BOARD.dtb\n", argv[0]);
		return 2;
	}
	domino_bin = argv[1];
	board = argv[2];
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_commands),
	    cmocka_unit_test(test_events),
	    cmocka_unit_test(test_no_p2a),
	    cmocka_unit_test(test_descriptor_loop),
	    cmocka_unit_test(test_head_past_ring),
	    cmocka_unit_test(test_next_past_ring),
	    cmocka_unit_test(test_chain_too_long),
	    cmocka_unit_test(test_buffer_outside),
	    cmocka_unit_test(test_ring_outside),
	    cmocka_unit_test(test_avail_jump),
	    cmocka_unit_test(test_indirect),
	    cmocka_unit_test(test_no_response_buffer),
	    cmocka_unit_test(test_reply_larger_than_buffer),
	    cmocka_unit_test(test_vanish),
	    cmocka_unit_test(test_second_front_end),
	    cmocka_unit_test(test_bad_messages),
	    cmocka_unit_test(test_memory_file_too_small),
	    cmocka_unit_test(test_memory_shrinks),
	};
	return cmocka_run_group_tests(tests, rig_up, rig_down);
}
