/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "vhost_front.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <domino/scmi.h>

enum {
	GET_FEATURES = 1,
	SET_FEATURES = 2,
	SET_OWNER = 3,
	SET_MEM_TABLE = 5,
	SET_VRING_NUM = 8,
	SET_VRING_ADDR = 9,
	SET_VRING_BASE = 10,
	SET_VRING_KICK = 12,
	SET_VRING_CALL = 13,
	GET_PROTOCOL_FEATURES = 15,
	SET_PROTOCOL_FEATURES = 16,
	SET_VRING_ENABLE = 18,
	SET_BACKEND_REQ_FD = 21,
};

#define NEXT 1u
#define WRITE 2u

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int vf_connect(struct vfront *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->sock = f->memfd = -1;
	f->backend_req[0] = f->backend_req[1] = -1;
	for (int i = 0; i < 2; i++)
		f->q[i].kick = f->q[i].call = -1;
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	f->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (f->sock < 0)
		return -errno;
	if (connect(f->sock, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;
		close(f->sock);
		f->sock = -1;
		return -e;
	}
	return 0;
}

void vf_close(struct vfront *f)
{
	int *fds[] = {&f->sock, &f->memfd, &f->backend_req[0],
		      &f->backend_req[1], &f->q[0].kick, &f->q[0].call,
		      &f->q[1].kick, &f->q[1].call};
	for (unsigned i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	if (f->mem)
		munmap(f->mem, VF_MEM_SIZE);
	f->mem = NULL;
}

static int read_full(int fd, void *buf, size_t n, int timeout_ms)
{
	uint8_t *p = buf;
	while (n) {
		struct pollfd pfd = {fd, POLLIN, 0};
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return -1;
		ssize_t r = read(fd, p, n);
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int vf_message(struct vfront *f, uint32_t request, const void *payload,
	       uint32_t size, const int *fds, unsigned n_fds, int need_reply,
	       uint64_t *ack)
{
	uint8_t msg[12 + 512];
	if (size > 512)
		return -1;
	put32(msg, request);
	put32(msg + 4, 1u | (need_reply ? 8u : 0u));
	put32(msg + 8, size);
	if (size)
		memcpy(msg + 12, payload, size);
	struct iovec iov = {msg, 12 + size};
	union {
		char buf[CMSG_SPACE(sizeof(int) * 8)];
		struct cmsghdr align;
	} cm;
	struct msghdr mh;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (n_fds) {
		mh.msg_control = cm.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * n_fds);
	}
	if (sendmsg(f->sock, &mh, MSG_NOSIGNAL) != (ssize_t)(12 + size))
		return -1;
	if (!need_reply)
		return 0;
	uint8_t head[12], body[64];
	if (read_full(f->sock, head, 12, 2000))
		return -1;
	uint32_t rsize = get32(head + 8);
	if (get32(head) != request || get32(head + 4) != (1u | 4u) ||
	    rsize > sizeof(body) || read_full(f->sock, body, rsize, 2000))
		return -1;
	if (ack)
		*ack = rsize >= 8 ? (uint64_t)get32(body) |
					(uint64_t)get32(body + 4) << 32
				  : 0;
	return 0;
}

static int send_u64(struct vfront *f, uint32_t request, uint64_t v, int fd)
{
	uint8_t p[8];
	put64(p, v);
	uint64_t ack = 1;
	if (vf_message(f, request, p, 8, &fd, fd >= 0, 1, &ack) || ack) {
		fprintf(stderr, "vhost front: request %u failed\n", request);
		return -1;
	}
	return 0;
}

static int send_state(struct vfront *f, uint32_t request, uint32_t index,
		      uint32_t num)
{
	uint8_t p[8];
	put32(p, index);
	put32(p + 4, num);
	uint64_t ack = 1;
	if (vf_message(f, request, p, 8, NULL, 0, 1, &ack) || ack) {
		fprintf(stderr, "vhost front: request %u failed\n", request);
		return -1;
	}
	return 0;
}

uint64_t vf_alloc(struct vfront *f, size_t size)
{
	uint64_t at = f->buf_next;
	f->buf_next += (size + 63) & ~(size_t)63;
	if (f->buf_next > VF_MEM_SIZE)
		abort();
	return at;
}

static void ring_layout(struct vfront *f, unsigned q)
{
	struct vf_ring *r = &f->q[q];
	r->num = VF_NUM;
	r->desc = vf_alloc(f, 16 * VF_NUM);
	r->avail = vf_alloc(f, 6 + 2 * VF_NUM);
	r->used = vf_alloc(f, 6 + 8 * VF_NUM);
}

int vf_setup(struct vfront *f, unsigned how)
{
	int p2a = (how & VF_P2A) != 0;
	uint64_t features = 0;
	if (vf_message(f, SET_OWNER, NULL, 0, NULL, 0, 0, NULL) ||
	    vf_message(f, GET_FEATURES, NULL, 0, NULL, 0, 1, &features)) {
		fprintf(stderr, "vhost front: GET_FEATURES failed\n");
		return -1;
	}
	uint64_t want = 1ull << 32 | 1ull << 30 | (p2a ? 1ull : 0);
	if ((features & want) != want) {
		fprintf(stderr, "vhost front: features 0x%llx lack 0x%llx\n",
			(unsigned long long)features, (unsigned long long)want);
		return -1;
	}
	uint64_t pf = 0;
	if (vf_message(f, GET_PROTOCOL_FEATURES, NULL, 0, NULL, 0, 1, &pf) ||
	    !(pf & (1u << 5)) || !(pf & (1u << 3))) {
		fprintf(stderr, "vhost front: protocol features 0x%llx\n",
			(unsigned long long)pf);
		return -1;
	}
	if (send_u64(f, SET_PROTOCOL_FEATURES, pf & (1u << 3 | 1u << 5), -1) ||
	    pipe2(f->backend_req, O_CLOEXEC) ||
	    send_u64(f, SET_BACKEND_REQ_FD, 0, f->backend_req[1]) ||
	    send_u64(f, SET_FEATURES, want, -1))
		return -1;
	f->features = want;
	f->memfd = memfd_create("vf-guest", MFD_CLOEXEC);
	if (f->memfd < 0 || ftruncate(f->memfd, VF_MEM_SIZE))
		return -1;
	f->mem = mmap(NULL, VF_MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      f->memfd, 0);
	if (f->mem == MAP_FAILED) {
		f->mem = NULL;
		return -1;
	}
	uint8_t table[8 + 32];
	memset(table, 0, sizeof(table));
	put32(table, 1);
	put64(table + 8, VF_GPA);
	put64(table + 16, VF_MEM_SIZE);
	put64(table + 24, VF_UVA);
	put64(table + 32, 0);
	uint64_t ack = 1;
	if (vf_message(f, SET_MEM_TABLE, table, sizeof(table), &f->memfd, 1, 1,
		       &ack) ||
	    ack) {
		fprintf(stderr, "vhost front: SET_MEM_TABLE failed\n");
		return -1;
	}
	f->slots = vf_alloc(f, VF_SLOT * VF_NUM);
	unsigned nq = how & VF_EVENTQ ? 2 : 1;
	for (unsigned q = 0; q < nq; q++) {
		ring_layout(f, q);
		f->q[q].kick = eventfd(0, EFD_CLOEXEC);
		f->q[q].call = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		uint8_t addr[40];
		memset(addr, 0, sizeof(addr));
		put32(addr, q);
		put64(addr + 8, VF_UVA + f->q[q].desc);
		put64(addr + 16, VF_UVA + f->q[q].used);
		put64(addr + 24, VF_UVA + f->q[q].avail);
		put64(addr + 32, ~0ull);
		if (send_u64(f, SET_VRING_CALL, q, f->q[q].call) ||
		    send_state(f, SET_VRING_NUM, q, VF_NUM) ||
		    send_state(f, SET_VRING_BASE, q, 0) ||
		    vf_message(f, SET_VRING_ADDR, addr, sizeof(addr), NULL, 0, 1,
			       &ack) ||
		    ack)
			return -1;
	}
	for (unsigned q = 0; q < nq; q++)
		if (send_u64(f, SET_VRING_KICK, q, f->q[q].kick) ||
		    send_state(f, SET_VRING_ENABLE, q, 1))
			return -1;
	f->token = 1;
	return 0;
}

void vf_desc(struct vfront *f, unsigned q, unsigned i, uint64_t gpa,
	     uint32_t len, uint16_t flags, uint16_t next)
{
	uint8_t *d = f->mem + f->q[q].desc + 16 * (i % f->q[q].num);
	put64(d, gpa);
	put32(d + 8, len);
	put16(d + 12, flags);
	put16(d + 14, next);
}

void vf_avail(struct vfront *f, unsigned q, uint16_t head)
{
	struct vf_ring *r = &f->q[q];
	uint8_t *avail = f->mem + r->avail;
	put16(avail + 4 + 2 * (r->avail_idx % r->num), head);
	r->avail_idx++;
	__atomic_store_n((uint16_t *)(void *)(avail + 2), r->avail_idx,
			 __ATOMIC_RELEASE);
	uint64_t one = 1;
	if (write(r->kick, &one, sizeof(one)) != sizeof(one))
		abort();
}

int vf_used(struct vfront *f, unsigned q, uint32_t *id, uint32_t *len,
	    int timeout_ms)
{
	struct vf_ring *r = &f->q[q];
	uint8_t *used = f->mem + r->used;
	for (int waited = 0;; waited += 10) {
		uint16_t idx = __atomic_load_n((uint16_t *)(void *)(used + 2),
					       __ATOMIC_ACQUIRE);
		if (idx != r->used_seen) {
			const uint8_t *e = used + 4 + 8 * (r->used_seen % r->num);
			*id = get32(e);
			*len = get32(e + 4);
			r->used_seen++;
			return 1;
		}
		if (waited >= timeout_ms)
			return 0;
		struct pollfd pfd = {r->call, POLLIN, 0};
		if (poll(&pfd, 1, 10) > 0) {
			uint64_t n;
			if (read(r->call, &n, sizeof(n)) < 0) {
				/* drained by an earlier read */
			}
		}
	}
}

static uint16_t take_desc(struct vfront *f, unsigned q)
{
	struct vf_ring *r = &f->q[q];
	uint16_t i = r->next_desc;
	r->next_desc = (uint16_t)((r->next_desc + 1) % r->num);
	return i;
}

long vf_command(struct vfront *f, const void *req, size_t len, void *resp,
		size_t resp_cap, int timeout_ms)
{
	uint16_t d0 = take_desc(f, 0), d1 = take_desc(f, 0);
	/* a slot per descriptor, reused; bigger buffers are taken anew */
	uint64_t in = len <= VF_SLOT ? f->slots + VF_SLOT * d0 : vf_alloc(f, len);
	uint64_t out = resp_cap <= VF_SLOT ? f->slots + VF_SLOT * d1
					   : vf_alloc(f, resp_cap);
	memcpy(f->mem + in, req, len);
	memset(f->mem + out, 0xa5, resp_cap);
	vf_desc(f, 0, d0, VF_GPA + in, (uint32_t)len, NEXT, d1);
	vf_desc(f, 0, d1, VF_GPA + out, (uint32_t)resp_cap, WRITE, 0);
	vf_avail(f, 0, d0);
	uint32_t id, rlen;
	if (!vf_used(f, 0, &id, &rlen, timeout_ms) || id != d0 ||
	    rlen > resp_cap)
		return -1;
	memcpy(resp, f->mem + out, rlen);
	return rlen;
}

int32_t vf_call(struct vfront *f, uint32_t protocol, uint32_t msg,
		const uint32_t *args, unsigned n_args, uint32_t *out,
		unsigned max_out)
{
	uint8_t req[4 + 4 * 16], resp[256];
	uint32_t token = f->token++ & 0x3ffu;
	uint32_t header =
	    dmn_scmi_header(protocol, msg, DMN_SCMI_TYPE_COMMAND, token);
	put32(req, header);
	for (unsigned i = 0; i < n_args; i++)
		put32(req + 4 + 4 * i, args[i]);
	long n = vf_command(f, req, 4 + 4 * n_args, resp, sizeof(resp), 2000);
	if (n < 8 || get32(resp) != header)
		return -1000;
	for (unsigned i = 0; i < max_out && 8 + 4 * i + 4 <= (size_t)n; i++)
		out[i] = get32(resp + 8 + 4 * i);
	return (int32_t)get32(resp + 4);
}

void vf_event_buffers(struct vfront *f, unsigned n, uint32_t size)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t at = vf_alloc(f, size);
		uint16_t d = take_desc(f, 1);
		vf_desc(f, 1, d, VF_GPA + at, size, WRITE, 0);
		vf_avail(f, 1, d);
	}
}

long vf_event(struct vfront *f, void *buf, size_t cap, int timeout_ms)
{
	uint32_t id, len;
	if (!vf_used(f, 1, &id, &len, timeout_ms) || id >= f->q[1].num)
		return -1;
	const uint8_t *d = f->mem + f->q[1].desc + 16 * id;
	uint64_t gpa = (uint64_t)get32(d) | (uint64_t)get32(d + 4) << 32;
	if (gpa < VF_GPA || gpa - VF_GPA + len > VF_MEM_SIZE || len > cap)
		return -1;
	memcpy(buf, f->mem + (gpa - VF_GPA), len);
	return len;
}
