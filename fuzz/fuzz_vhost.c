/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the vhost-user back end of `scmi-serve --vhost-user`
 * (src/serve/vu.c, the protocol; src/serve/vring.c, the split ring walker)
 * fed by a hostile front end.
 *
 * Input: two bytes, N (little-endian, at most 64 KiB); N bytes of guest
 * memory (a memfd, the rest zero); then vhost-user messages, each a 12-byte
 * header (request, flags, size) and min(size, what is left, 512) bytes of
 * payload. A message that takes fds gets them: SET_MEM_TABLE one duplicate
 * of the memory's fd per region it declares (at most 8), SET_VRING_KICK /
 * CALL / ERR, SET_BACKEND_REQ_FD and SET_LOG_FD an eventfd, SET_LOG_BASE
 * the memfd. After each message both rings, if ready, give up to 4 chains,
 * read and written as the SCMI device does, and go back to the driver.
 *
 * Checks beyond "no crash, no leak, no fd left open": a refused message
 * leaves an error sentence; a reply is a reply (flag 0x5, the request's
 * id, 8 bytes of payload); every chain's segments lie inside the mapped
 * memory, each direction holds at most DMN__VCHAIN_MAX segments and the
 * head names a descriptor of the ring.
 */
#define _GNU_SOURCE
#include "vu.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#define MEM_SIZE 65536

static int memfd = -1;

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int inside(const struct dmn__gmem *m, const uint8_t *p, uint32_t len)
{
	for (unsigned i = 0; i < m->n; i++) {
		const struct dmn__gmem_region *r = &m->r[i];
		if (p >= r->host && (uint64_t)(p - r->host) + len <= r->size)
			return 1;
	}
	return 0;
}

static void attach_fds(struct dmn__vu_msg *m)
{
	m->n_fds = 0;
	unsigned want = 0;
	int memory = 0;
	switch (m->request) {
	case DMN__VU_SET_MEM_TABLE:
		want = m->size >= 4 ? rd32(m->payload) : 0;
		want = want > DMN__VU_MAX_FDS ? DMN__VU_MAX_FDS : want;
		memory = 1;
		break;
	case DMN__VU_SET_LOG_BASE:
		want = 1;
		memory = 1;
		break;
	case DMN__VU_SET_VRING_KICK:
	case DMN__VU_SET_VRING_CALL:
	case DMN__VU_SET_VRING_ERR:
	case DMN__VU_SET_BACKEND_REQ_FD:
	case DMN__VU_SET_LOG_FD:
		want = 1;
		break;
	default:
		break;
	}
	for (unsigned i = 0; i < want; i++) {
		int fd = memory ? dup(memfd) : eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (fd >= 0)
			m->fds[m->n_fds++] = fd;
	}
}

/* Take up to 4 chains from ring @i as the SCMI device does. */
static void walk(struct dmn__vu *vu, unsigned i)
{
	char err[160];
	if (dmn__vu_ring_ready(vu, i, err, sizeof(err)) <= 0)
		return;
	struct dmn__vring *vr = &vu->ring[i];
	for (int k = 0; k < 4; k++) {
		struct dmn__vchain ch;
		int got = dmn__vring_pop(vr, &vu->mem, &ch, err, sizeof(err));
		if (got < 0 && !err[0])
			abort();
		if (got <= 0)
			return;
		if (ch.head >= vr->num || ch.n_rd > DMN__VCHAIN_MAX ||
		    ch.n_wr > DMN__VCHAIN_MAX)
			abort();
		for (unsigned s = 0; s < ch.n_rd; s++)
			if (!inside(&vu->mem, ch.rd[s].p, ch.rd[s].len))
				abort();
		for (unsigned s = 0; s < ch.n_wr; s++)
			if (!inside(&vu->mem, ch.wr[s].p, ch.wr[s].len))
				abort();
		uint8_t buf[256];
		size_t n = dmn__vchain_read(&ch, buf, sizeof(buf));
		if (n > sizeof(buf) || n > ch.rd_len)
			abort();
		size_t w = dmn__vchain_write(&ch, buf, n);
		if (w > ch.wr_len || w > n)
			abort();
		dmn__vring_push(vr, ch.head, (uint32_t)w);
		dmn__vring_notify(vr);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memfd < 0) {
		memfd = memfd_create("fuzz-guest", MFD_CLOEXEC);
		if (memfd < 0 || ftruncate(memfd, MEM_SIZE))
			abort();
	}
	if (size < 2)
		return 0;
	size_t n = (size_t)(data[0] | data[1] << 8);
	data += 2;
	size -= 2;
	if (n > size)
		n = size;
	static uint8_t image[MEM_SIZE];
	memset(image, 0, sizeof(image));
	memcpy(image, data, n);
	if (pwrite(memfd, image, sizeof(image), 0) != (ssize_t)sizeof(image))
		abort();
	data += n;
	size -= n;

	struct dmn__vu vu;
	dmn__vu_init(&vu);
	while (size >= DMN__VU_HEADER) {
		static struct dmn__vu_msg m;
		m.request = rd32(data);
		m.flags = rd32(data + 4);
		m.size = rd32(data + 8);
		data += DMN__VU_HEADER;
		size -= DMN__VU_HEADER;
		if (m.size > DMN__VU_MAX_PAYLOAD)
			m.size = DMN__VU_MAX_PAYLOAD; /* the transport refuses it */
		if (m.size > size)
			m.size = (uint32_t)size;
		memcpy(m.payload, data, m.size);
		data += m.size;
		size -= m.size;
		attach_fds(&m);
		uint8_t reply[DMN__VU_HEADER + 16];
		size_t rlen;
		char err[200] = "";
		int rc = dmn__vu_message(&vu, &m, reply, &rlen, err, sizeof(err));
		if (m.n_fds || (rc && !err[0]))
			abort(); /* every fd taken; every refusal said */
		if (rlen && (rlen > sizeof(reply) || rd32(reply) != m.request ||
			     rd32(reply + 4) != 5 ||
			     rd32(reply + 8) != rlen - DMN__VU_HEADER))
			abort();
		if (rc < 0) {
			dmn__vu_reset(&vu); /* the transport drops the front end */
			continue;
		}
		walk(&vu, 0);
		walk(&vu, 1);
	}
	dmn__vu_reset(&vu);
	return 0;
}
