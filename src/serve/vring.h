/* SPDX-License-Identifier: MIT */
/*
 * Guest memory and the split virtqueue (virtio 1.2, "Split Virtqueues"),
 * seen from the device side, with nothing in guest memory trusted: every
 * address is checked against the mapped regions before use, every index
 * against the ring size, every field read once into a local.
 */
#ifndef DOMINO_SERVE_VRING_H
#define DOMINO_SERVE_VRING_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#define DMN__GMEM_MAX_REGIONS 8
#define DMN__VRING_MAX_NUM 32768u
/* The segments a chain may have in each direction. An SCMI message uses
 * one of each; a longer chain is refused as "too long". */
#define DMN__VCHAIN_MAX 16

struct dmn__gmem_region {
	uint64_t gpa;  /* guest physical address (descriptors) */
	uint64_t uva;  /* front end's address (ring addresses) */
	uint64_t size;
	uint8_t *host; /* where it is mapped here */
	void *map;     /* the mmap()ed range, for munmap */
	size_t map_len;
};

struct dmn__gmem {
	struct dmn__gmem_region r[DMN__GMEM_MAX_REGIONS];
	unsigned n;
};

/* Where [@addr, @addr + @len) lies here, by guest physical addresses
 * (@user 0) or the front end's (@user 1); NULL unless wholly inside one
 * region. O(regions). */
uint8_t *dmn__gmem_at(const struct dmn__gmem *m, uint64_t addr, uint64_t len,
		      int user);

/* Guest memory is a file the front end may shrink under the mapping; a
 * touch past its end raises SIGBUS. While dmn__gmem_guard points at a
 * sigsetjmp() buffer, a SIGBUS jumps there instead of ending the server
 * (the caller then drops that front end). dmn__gmem_guard_install() sets
 * the handler once; returns 0 or -errno. */
extern sigjmp_buf *volatile dmn__gmem_guard;
int dmn__gmem_guard_install(void);

struct dmn__vring {
	unsigned num; /* 0: not set */
	uint64_t desc_addr, avail_addr, used_addr; /* front end's addresses */
	int addr_set;
	uint8_t *desc, *avail, *used; /* mapped by dmn__vring_map, or NULL */
	uint16_t last_avail, used_idx;
	int kick_fd, call_fd;
	int started, enabled;
};

struct dmn__vseg {
	uint8_t *p;
	uint32_t len;
};

struct dmn__vchain {
	uint16_t head;
	unsigned n_rd, n_wr;
	struct dmn__vseg rd[DMN__VCHAIN_MAX], wr[DMN__VCHAIN_MAX];
	uint64_t rd_len, wr_len;
};

void dmn__vring_init(struct dmn__vring *vr);
/* Check the ring's size, alignment and addresses against @m and keep
 * where they lie. Returns 0, or -1 with a sentence in @err. */
int dmn__vring_map(struct dmn__vring *vr, const struct dmn__gmem *m,
		   char *err, size_t err_size);
/* The next available chain: 1 and *@ch, 0 if none, -1 with @err when the
 * driver broke the ring's rules (an index past the ring, a loop, a chain
 * too long, a buffer outside the mapped memory, an indirect descriptor,
 * a readable segment after a writable one). The ring must be mapped. */
int dmn__vring_pop(struct dmn__vring *vr, const struct dmn__gmem *m,
		   struct dmn__vchain *ch, char *err, size_t err_size);
/* Return chain @head to the driver with @len bytes written. */
void dmn__vring_push(struct dmn__vring *vr, uint16_t head, uint32_t len);
/* Signal the call fd unless the driver asked for no interrupts. */
void dmn__vring_notify(struct dmn__vring *vr);

/* Copy the readable segments into @dst (at most @cap bytes); returns the
 * bytes copied. */
size_t dmn__vchain_read(const struct dmn__vchain *ch, uint8_t *dst,
			size_t cap);
/* Copy @len bytes into the writable segments (at most wr_len); returns
 * the bytes written. */
size_t dmn__vchain_write(const struct dmn__vchain *ch, const uint8_t *src,
			 size_t len);

#endif
