/* SPDX-License-Identifier: MIT */
/* Little-endian words, as SCMI, virtio 1.x and vhost-user (on the hosts
 * domino runs on) lay them out, read and written a byte at a time: no
 * alignment needed, whatever the host's order. */
#ifndef DOMINO_SERVE_LE_H
#define DOMINO_SERVE_LE_H

#include <stdint.h>

static inline uint16_t dmn__get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t dmn__get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t dmn__get64(const uint8_t *p)
{
	return (uint64_t)dmn__get32(p) | (uint64_t)dmn__get32(p + 4) << 32;
}

static inline void dmn__put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void dmn__put64(uint8_t *p, uint64_t v)
{
	dmn__put32(p, (uint32_t)v);
	dmn__put32(p + 4, (uint32_t)(v >> 32));
}

#endif
