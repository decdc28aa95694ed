/* SPDX-License-Identifier: MIT */
/*
 * The vhost-user protocol for the virtio SCMI device. The front end
 * (User-Mode Linux's virtio_uml, QEMU's vhost-user-scmi) is not trusted:
 * every size, index and address is checked, a message that breaks the
 * protocol is refused with a sentence and the caller drops the front end.
 *
 * Offered: VIRTIO_F_VERSION_1, VIRTIO_SCMI_F_P2A_CHANNELS and
 * VHOST_USER_F_PROTOCOL_FEATURES; protocol features MQ (the queue count is
 * asked), REPLY_ACK and BACKEND_REQ (virtio_uml takes its interrupt line
 * from the backend request channel; without it the SCMI probe fails).
 * The backend request fd is kept open and never written.
 */
#include "vu.h"
#include "le.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PF_MQ 0
#define PF_REPLY_ACK 3
#define PF_BACKEND_REQ 5

#define VRING_INDEX_MASK 0xffu
#define VRING_NOFD_MASK (1u << 8)

uint64_t dmn__vu_features(void)
{
	return 1ull << DMN__VIRTIO_F_VERSION_1 |
	       1ull << DMN__VIRTIO_SCMI_F_P2A_CHANNELS |
	       1ull << DMN__VHOST_USER_F_PROTOCOL_FEATURES;
}

uint64_t dmn__vu_protocol_features(void)
{
	return 1ull << PF_MQ | 1ull << PF_REPLY_ACK | 1ull << PF_BACKEND_REQ;
}

int dmn__vu_p2a(const struct dmn__vu *vu)
{
	return (vu->features >> DMN__VIRTIO_SCMI_F_P2A_CHANNELS) & 1;
}

void dmn__vu_init(struct dmn__vu *vu)
{
	memset(vu, 0, sizeof(*vu));
	vu->backend_fd = -1;
	for (unsigned i = 0; i < DMN__VU_RINGS; i++)
		dmn__vring_init(&vu->ring[i]);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void unmap_all(struct dmn__gmem *m)
{
	for (unsigned i = 0; i < m->n; i++)
		munmap(m->r[i].map, m->r[i].map_len);
	m->n = 0;
}

void dmn__vu_reset(struct dmn__vu *vu)
{
	unmap_all(&vu->mem);
	for (unsigned i = 0; i < DMN__VU_RINGS; i++) {
		close_fd(&vu->ring[i].kick_fd);
		close_fd(&vu->ring[i].call_fd);
	}
	close_fd(&vu->backend_fd);
	dmn__vu_init(vu);
}

/* A reply: the request's header with the reply flag, then @size bytes. */
static size_t reply_header(const struct dmn__vu_msg *m, uint8_t *reply,
			   uint32_t size)
{
	dmn__put32(reply, m->request);
	dmn__put32(reply + 4, DMN__VU_VERSION | DMN__VU_FLAG_REPLY);
	dmn__put32(reply + 8, size);
	return DMN__VU_HEADER + size;
}

static size_t reply_u64(const struct dmn__vu_msg *m, uint8_t *reply,
			uint64_t v)
{
	dmn__put64(reply + DMN__VU_HEADER, v);
	return reply_header(m, reply, 8);
}

/* The fd a message carries (the first), taken from it; -1 if none. */
static int take_fd(struct dmn__vu_msg *m)
{
	if (!m->n_fds)
		return -1;
	int fd = m->fds[0];
	for (unsigned i = 1; i < m->n_fds; i++)
		m->fds[i - 1] = m->fds[i];
	m->n_fds--;
	return fd;
}

static int fail(char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

static int need_size(const struct dmn__vu_msg *m, uint32_t size, char *err,
		     size_t n)
{
	if (m->size >= size)
		return 0;
	return fail(err, n, "request %u carries %u bytes, fewer than %u",
		    m->request, m->size, size);
}

static int set_mem_table(struct dmn__vu *vu, struct dmn__vu_msg *m, char *err,
			 size_t n)
{
	if (need_size(m, 8, err, n))
		return -1;
	uint32_t count = dmn__get32(m->payload);
	if (count < 1 || count > DMN__GMEM_MAX_REGIONS)
		return fail(err, n, "the memory table has %u regions (1..%u)",
			    count, DMN__GMEM_MAX_REGIONS);
	if (need_size(m, 8 + 32 * count, err, n))
		return -1;
	if (m->n_fds != count)
		return fail(err, n,
			    "the memory table has %u regions and %u fds",
			    count, m->n_fds);
	struct dmn__gmem mem;
	memset(&mem, 0, sizeof(mem));
	long page = sysconf(_SC_PAGESIZE);
	for (unsigned i = 0; i < count; i++) {
		const uint8_t *p = m->payload + 8 + 32 * i;
		struct dmn__gmem_region *r = &mem.r[i];
		r->gpa = dmn__get64(p);
		r->size = dmn__get64(p + 8);
		r->uva = dmn__get64(p + 16);
		uint64_t offset = dmn__get64(p + 24);
		uint64_t skew = offset % (uint64_t)page;
		struct stat st;
		if (!r->size || r->size > SIZE_MAX - skew ||
		    offset > UINT64_MAX - r->size || r->gpa > UINT64_MAX - r->size ||
		    r->uva > UINT64_MAX - r->size) {
			unmap_all(&mem);
			return fail(err, n,
				    "memory region %u is %llu bytes, or ends "
				    "past 2^64",
				    i, (unsigned long long)r->size);
		}
		if (fstat(m->fds[i], &st) ||
		    (S_ISREG(st.st_mode) &&
		     (uint64_t)st.st_size < offset + r->size)) {
			unmap_all(&mem);
			return fail(err, n,
				    "memory region %u needs %llu bytes of a file "
				    "that has fewer",
				    i, (unsigned long long)(offset + r->size));
		}
		r->map_len = (size_t)(r->size + skew);
		r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE,
			      MAP_SHARED, m->fds[i], (off_t)(offset - skew));
		if (r->map == MAP_FAILED) {
			int e = errno;
			unmap_all(&mem);
			snprintf(err, n, "memory region %u cannot be mapped: %s",
				 i, strerror(e));
			return -1;
		}
		r->host = (uint8_t *)r->map + skew;
		mem.n = i + 1;
	}
	for (unsigned i = 0; i < m->n_fds; i++)
		close(m->fds[i]);
	m->n_fds = 0;
	unmap_all(&vu->mem);
	vu->mem = mem;
	vu->remap = 1;
	return 0;
}

static struct dmn__vring *ring_of(struct dmn__vu *vu, uint32_t index,
				  const struct dmn__vu_msg *m, char *err,
				  size_t n)
{
	if (index < DMN__VU_RINGS)
		return &vu->ring[index];
	fail(err, n, "request %u names ring %u (the SCMI device has %u)",
	     m->request, index, DMN__VU_RINGS);
	return NULL;
}

/* SET_VRING_KICK / CALL / ERR: a ring index and an fd, or bit 8 for none. */
static int set_ring_fd(struct dmn__vu *vu, struct dmn__vu_msg *m, char *err,
		       size_t n)
{
	if (need_size(m, 8, err, n))
		return -1;
	uint64_t v = dmn__get64(m->payload);
	struct dmn__vring *vr = ring_of(vu, (uint32_t)(v & VRING_INDEX_MASK), m,
					err, n);
	if (!vr)
		return -1;
	int fd = (v & VRING_NOFD_MASK) ? -1 : take_fd(m);
	if (!(v & VRING_NOFD_MASK) && fd < 0)
		return fail(err, n, "request %u for ring %u carries no fd",
			    m->request, (unsigned)(v & VRING_INDEX_MASK));
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (m->request == DMN__VU_SET_VRING_ERR) {
		close_fd(&fd); /* errors are reported on the log instead */
		return 0;
	}
	if (m->request == DMN__VU_SET_VRING_CALL) {
		close_fd(&vr->call_fd);
		vr->call_fd = fd;
		return 0;
	}
	if (fd < 0)
		return fail(err, n,
			    "ring %u: polling without a kick fd is not "
			    "supported",
			    (unsigned)(v & VRING_INDEX_MASK));
	close_fd(&vr->kick_fd);
	vr->kick_fd = fd;
	vr->started = 1;
	/* without protocol features a ring starts enabled */
	if (!(vu->features >> DMN__VHOST_USER_F_PROTOCOL_FEATURES & 1))
		vr->enabled = 1;
	return 0;
}

static int ring_state(struct dmn__vu *vu, struct dmn__vu_msg *m, uint8_t *reply,
		      size_t *reply_len, char *err, size_t n)
{
	if (need_size(m, 8, err, n))
		return -1;
	uint32_t index = dmn__get32(m->payload), num = dmn__get32(m->payload + 4);
	struct dmn__vring *vr = ring_of(vu, index, m, err, n);
	if (!vr)
		return -1;
	switch (m->request) {
	case DMN__VU_SET_VRING_NUM:
		if (!num || num > DMN__VRING_MAX_NUM || (num & (num - 1)))
			return fail(err, n,
				    "ring %u: size %u is not a power of 2 "
				    "up to 32768",
				    index, num);
		vr->num = num;
		vu->remap = 1;
		return 0;
	case DMN__VU_SET_VRING_BASE:
		if (num > 0xffff)
			return fail(err, n, "ring %u: base %u is past 65535",
				    index, num);
		vr->last_avail = vr->used_idx = (uint16_t)num;
		return 0;
	case DMN__VU_GET_VRING_BASE:
		vr->started = 0;
		close_fd(&vr->kick_fd);
		dmn__put32(reply + DMN__VU_HEADER, index);
		dmn__put32(reply + DMN__VU_HEADER + 4, vr->last_avail);
		*reply_len = reply_header(m, reply, 8);
		return 0;
	default: /* SET_VRING_ENABLE */
		vr->enabled = num != 0;
		return 0;
	}
}

static int set_ring_addr(struct dmn__vu *vu, struct dmn__vu_msg *m, char *err,
			 size_t n)
{
	if (need_size(m, 40, err, n))
		return -1;
	struct dmn__vring *vr = ring_of(vu, dmn__get32(m->payload), m, err, n);
	if (!vr)
		return -1;
	vr->desc_addr = dmn__get64(m->payload + 8);
	vr->used_addr = dmn__get64(m->payload + 16);
	vr->avail_addr = dmn__get64(m->payload + 24);
	vr->addr_set = 1;
	vu->remap = 1;
	return 0;
}

static int set_features(struct dmn__vu *vu, struct dmn__vu_msg *m, char *err,
			size_t n, int protocol)
{
	if (need_size(m, 8, err, n))
		return -1;
	uint64_t v = dmn__get64(m->payload);
	uint64_t offered =
	    protocol ? dmn__vu_protocol_features() : dmn__vu_features();
	if (v & ~offered)
		return fail(err, n, "%sfeatures 0x%llx were not offered",
			    protocol ? "protocol " : "",
			    (unsigned long long)(v & ~offered));
	if (protocol)
		vu->protocol_features = v;
	else
		vu->features = v;
	return 0;
}

static int carry_out(struct dmn__vu *vu, struct dmn__vu_msg *m, uint8_t *reply,
		     size_t *reply_len, char *err, size_t n)
{
	switch (m->request) {
	case DMN__VU_GET_FEATURES:
		*reply_len = reply_u64(m, reply, dmn__vu_features());
		return 0;
	case DMN__VU_GET_PROTOCOL_FEATURES:
		*reply_len = reply_u64(m, reply, dmn__vu_protocol_features());
		return 0;
	case DMN__VU_GET_QUEUE_NUM:
		*reply_len = reply_u64(m, reply, DMN__VU_RINGS);
		return 0;
	case DMN__VU_SET_FEATURES:
		return set_features(vu, m, err, n, 0);
	case DMN__VU_SET_PROTOCOL_FEATURES:
		return set_features(vu, m, err, n, 1);
	case DMN__VU_SET_OWNER:
	case DMN__VU_RESET_OWNER:
		return 0;
	case DMN__VU_SET_MEM_TABLE:
		return set_mem_table(vu, m, err, n);
	case DMN__VU_SET_VRING_NUM:
	case DMN__VU_SET_VRING_BASE:
	case DMN__VU_GET_VRING_BASE:
	case DMN__VU_SET_VRING_ENABLE:
		return ring_state(vu, m, reply, reply_len, err, n);
	case DMN__VU_SET_VRING_ADDR:
		return set_ring_addr(vu, m, err, n);
	case DMN__VU_SET_VRING_KICK:
	case DMN__VU_SET_VRING_CALL:
	case DMN__VU_SET_VRING_ERR:
		return set_ring_fd(vu, m, err, n);
	case DMN__VU_SET_BACKEND_REQ_FD: {
		int fd = take_fd(m);
		if (fd < 0)
			return fail(err, n, "request %u carries no fd",
				    m->request);
		close_fd(&vu->backend_fd);
		vu->backend_fd = fd;
		return 0;
	}
	default:
		fail(err, n, "request %u is not supported; ignored", m->request);
		return 1;
	}
}

int dmn__vu_message(struct dmn__vu *vu, struct dmn__vu_msg *m, uint8_t *reply,
		    size_t *reply_len, char *err, size_t err_size)
{
	*reply_len = 0;
	int rc;
	if ((m->flags & 3u) != DMN__VU_VERSION)
		rc = fail(err, err_size,
			  "request %u has protocol version %u (1 is known)",
			  m->request, m->flags & 3u);
	else
		rc = carry_out(vu, m, reply, reply_len, err, err_size);
	for (unsigned i = 0; i < m->n_fds; i++)
		close(m->fds[i]);
	m->n_fds = 0;
	/* REPLY_ACK: a message without a reply of its own is acked when it
	 * asks (0 done, 1 failed) */
	if ((m->flags & DMN__VU_FLAG_NEED_REPLY) && !*reply_len)
		*reply_len = reply_u64(m, reply, rc ? 1 : 0);
	return rc;
}

int dmn__vu_ring_ready(struct dmn__vu *vu, unsigned i, char *err,
		       size_t err_size)
{
	struct dmn__vring *vr = &vu->ring[i];
	if (!vr->started || !vr->enabled || !vu->mem.n || !vr->num ||
	    !vr->addr_set)
		return 0;
	if (vu->remap) {
		for (unsigned k = 0; k < DMN__VU_RINGS; k++)
			vu->ring[k].desc = NULL;
		vu->remap = 0;
	}
	if (!vr->desc) {
		char why[160];
		if (dmn__vring_map(vr, &vu->mem, why, sizeof(why))) {
			snprintf(err, err_size, "ring %u: %s", i, why);
			return -1;
		}
	}
	return 1;
}
