/* SPDX-License-Identifier: MIT */
/*
 * The vhost-user protocol, back-end side, for the virtio SCMI device
 * (virtio 1.2 "SCMI Device", device id 32): what each front-end message
 * does to the device state (features, memory table, the two rings and
 * their fds), without any socket I/O, so it can be fuzzed alone.
 */
#ifndef DOMINO_SERVE_VU_H
#define DOMINO_SERVE_VU_H

#include "vring.h"

#define DMN__VU_HEADER 12
/* The largest payload taken (a memory table of 8 regions is 264 bytes);
 * a longer message is a protocol error. */
#define DMN__VU_MAX_PAYLOAD 512
#define DMN__VU_MAX_FDS 8
#define DMN__VU_RINGS 2 /* the command queue, the event queue */

/* Feature bits */
#define DMN__VIRTIO_SCMI_F_P2A_CHANNELS 0
#define DMN__VHOST_USER_F_PROTOCOL_FEATURES 30
#define DMN__VIRTIO_F_VERSION_1 32

/* Requests (front end to back end) */
enum {
	DMN__VU_GET_FEATURES = 1,
	DMN__VU_SET_FEATURES = 2,
	DMN__VU_SET_OWNER = 3,
	DMN__VU_RESET_OWNER = 4,
	DMN__VU_SET_MEM_TABLE = 5,
	DMN__VU_SET_LOG_BASE = 6,
	DMN__VU_SET_LOG_FD = 7,
	DMN__VU_SET_VRING_NUM = 8,
	DMN__VU_SET_VRING_ADDR = 9,
	DMN__VU_SET_VRING_BASE = 10,
	DMN__VU_GET_VRING_BASE = 11,
	DMN__VU_SET_VRING_KICK = 12,
	DMN__VU_SET_VRING_CALL = 13,
	DMN__VU_SET_VRING_ERR = 14,
	DMN__VU_GET_PROTOCOL_FEATURES = 15,
	DMN__VU_SET_PROTOCOL_FEATURES = 16,
	DMN__VU_GET_QUEUE_NUM = 17,
	DMN__VU_SET_VRING_ENABLE = 18,
	DMN__VU_SET_BACKEND_REQ_FD = 21,
};

/* Header flags */
#define DMN__VU_VERSION 1u
#define DMN__VU_FLAG_REPLY (1u << 2)
#define DMN__VU_FLAG_NEED_REPLY (1u << 3)

struct dmn__vu_msg {
	uint32_t request, flags, size;
	uint8_t payload[DMN__VU_MAX_PAYLOAD];
	int fds[DMN__VU_MAX_FDS];
	unsigned n_fds;
};

struct dmn__vu {
	uint64_t features;	    /* what SET_FEATURES acked */
	uint64_t protocol_features; /* what SET_PROTOCOL_FEATURES acked */
	struct dmn__gmem mem;
	struct dmn__vring ring[DMN__VU_RINGS];
	int backend_fd; /* kept open: closing it tells UML the device broke */
	int remap;	/* the rings must be mapped again before use */
};

/* What the device offers. */
uint64_t dmn__vu_features(void);
uint64_t dmn__vu_protocol_features(void);

void dmn__vu_init(struct dmn__vu *vu);
/* Unmap the memory, close every fd: the state of a new connection. */
void dmn__vu_reset(struct dmn__vu *vu);
/* Carry out one message. Its fds are taken (kept or closed). A reply, if
 * the message has one (or asks for an ack), is written to @reply (at
 * least DMN__VU_HEADER + 8 + 8 bytes) and its length to *@reply_len (0:
 * none). Returns 0; 1 with a sentence in @err for a request not
 * supported (nothing done; the caller logs it and goes on); -1 with a
 * sentence in @err when the front end broke the protocol (the caller
 * drops it). */
int dmn__vu_message(struct dmn__vu *vu, struct dmn__vu_msg *m, uint8_t *reply,
		    size_t *reply_len, char *err, size_t err_size);
/* Is ring @i ready to be processed (started, enabled, memory mapped)?
 * Maps it first if needed; -1 with @err when its addresses are bad. */
int dmn__vu_ring_ready(struct dmn__vu *vu, unsigned i, char *err,
		       size_t err_size);
/* Was VIRTIO_SCMI_F_P2A_CHANNELS negotiated? */
int dmn__vu_p2a(const struct dmn__vu *vu);

#endif
