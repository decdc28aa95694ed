/* SPDX-License-Identifier: MIT */
/*
 * A vhost-user front end for the tests: what User-Mode Linux's virtio_uml
 * does to reach a virtio SCMI device (the handshake, one memfd of guest
 * memory, split rings, eventfds), written from the vhost-user and virtio
 * specifications, with the rings open to the test for hostile cases.
 */
#ifndef DOMINO_TESTS_VHOST_FRONT_H
#define DOMINO_TESTS_VHOST_FRONT_H

#include <stddef.h>
#include <stdint.h>

#define VF_MEM_SIZE (1u << 20)
#define VF_NUM 64 /* descriptors per ring */
#define VF_SLOT 512 /* request and response buffers, one per descriptor */
#define VF_GPA 0x40000000ull	 /* guest physical address of the memory */
#define VF_UVA 0x7f1200000000ull /* the front end's address of it */

struct vf_ring {
	unsigned num;
	uint64_t desc, avail, used; /* offsets into the memory */
	uint16_t avail_idx, used_seen;
	int kick, call;
	uint16_t next_desc; /* descriptors handed out round-robin */
};

struct vfront {
	int sock;
	int memfd;
	uint8_t *mem;
	int backend_req[2]; /* the pipe given with SET_BACKEND_REQ_FD */
	uint64_t features;
	struct vf_ring q[2];
	uint32_t token;
	uint64_t buf_next; /* bump allocator for buffers, an offset */
	uint64_t slots;	   /* VF_NUM buffers of VF_SLOT bytes */
};

/* Connect to @path; -errno on failure. */
int vf_connect(struct vfront *f, const char *path);
/* The handshake virtio_uml does. @how: VF_P2A negotiates
 * VIRTIO_SCMI_F_P2A_CHANNELS, VF_EVENTQ sets up the event queue (a driver
 * does so only with VF_P2A; without it, to see that nothing comes). 0, or
 * -1 with a message on stderr. */
#define VF_P2A 1u
#define VF_EVENTQ 2u
int vf_setup(struct vfront *f, unsigned how);
void vf_close(struct vfront *f);

/* One vhost-user message; when @need_reply, waits for the reply (an ack
 * or the request's own) and returns its u64 payload in *@ack. Returns 0
 * or -1 (the connection broke). */
int vf_message(struct vfront *f, uint32_t request, const void *payload,
	       uint32_t size, const int *fds, unsigned n_fds, int need_reply,
	       uint64_t *ack);

/* A buffer of @size bytes in guest memory: its offset. */
uint64_t vf_alloc(struct vfront *f, size_t size);
/* Write descriptor @i of ring @q. */
void vf_desc(struct vfront *f, unsigned q, unsigned i, uint64_t gpa,
	     uint32_t len, uint16_t flags, uint16_t next);
/* Put descriptor @head in ring @q's available ring and kick. */
void vf_avail(struct vfront *f, unsigned q, uint16_t head);
/* Wait up to @timeout_ms for a used entry on ring @q: 1 and its id and
 * length, or 0. */
int vf_used(struct vfront *f, unsigned q, uint32_t *id, uint32_t *len,
	    int timeout_ms);

/* One SCMI command over the command queue: the request at a fresh
 * buffer, a response buffer of @resp_cap bytes; waits for the reply
 * (copied into @resp) and returns its length, or -1 on timeout. */
long vf_command(struct vfront *f, const void *req, size_t len, void *resp,
		size_t resp_cap, int timeout_ms);
/* An SCMI call: header (@protocol, @msg, command, next token) and
 * @n_args words; the reply's status, its words after the status in @out.
 * Returns the status, or a value below -100 on a transport failure. */
int32_t vf_call(struct vfront *f, uint32_t protocol, uint32_t msg,
		const uint32_t *args, unsigned n_args, uint32_t *out,
		unsigned max_out);
/* Offer @n event buffers of @size bytes on the event queue. */
void vf_event_buffers(struct vfront *f, unsigned n, uint32_t size);
/* The next event-queue message: its length and bytes, or -1 on timeout. */
long vf_event(struct vfront *f, void *buf, size_t cap, int timeout_ms);

#endif
