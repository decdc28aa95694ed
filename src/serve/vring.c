/* SPDX-License-Identifier: MIT */
/* The split virtqueue from the device side; guest memory is shared with a
 * driver that may be hostile, so each field is read once, checked, then
 * used (docs/scmi.md, vhost-user). */
#include "vring.h"
#include "le.h"
#include "../core/debug.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define VRING_DESC_F_NEXT 1u
#define VRING_DESC_F_WRITE 2u
#define VRING_DESC_F_INDIRECT 4u
#define VRING_AVAIL_F_NO_INTERRUPT 1u

uint8_t *dmn__gmem_at(const struct dmn__gmem *m, uint64_t addr, uint64_t len,
		      int user)
{
	DMN_ASSERT(m->n <= DMN__GMEM_MAX_REGIONS);
	for (unsigned i = 0; i < m->n; i++) {
		const struct dmn__gmem_region *r = &m->r[i];
		uint64_t base = user ? r->uva : r->gpa;
		if (addr >= base && len <= r->size && addr - base <= r->size - len)
			return r->host + (addr - base);
	}
	return NULL;
}

sigjmp_buf *volatile dmn__gmem_guard;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	if (dmn__gmem_guard)
		siglongjmp(*dmn__gmem_guard, 1);
	signal(sig, SIG_DFL); /* not guest memory: the usual end */
	raise(sig);
}

int dmn__gmem_guard_install(void)
{
	static int installed;
	if (installed)
		return 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	/* SA_NODEFER: the jump leaves the handler without restoring the
	 * mask, so SIGBUS must not be blocked inside it */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL))
		return -errno;
	installed = 1;
	return 0;
}

/* The indices the driver and the device publish to each other: atomic
 * (the rings are 2-byte aligned, dmn__vring_map checks) and ordered
 * (acquire: what the index covers is read after it; release: what the
 * device wrote is visible before the index moves). */
static uint16_t load_index(const uint8_t *p)
{
	uint16_t v = __atomic_load_n((const uint16_t *)(const void *)p,
				     __ATOMIC_ACQUIRE);
	return dmn__get16((const uint8_t *)&v);
}

static void store_index(uint8_t *p, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	uint16_t raw;
	memcpy(&raw, b, 2);
	__atomic_store_n((uint16_t *)(void *)p, raw, __ATOMIC_RELEASE);
}

void dmn__vring_init(struct dmn__vring *vr)
{
	memset(vr, 0, sizeof(*vr));
	vr->kick_fd = vr->call_fd = -1;
}

int dmn__vring_map(struct dmn__vring *vr, const struct dmn__gmem *m,
		   char *err, size_t err_size)
{
	vr->desc = vr->avail = vr->used = NULL;
	uint64_t n = vr->num;
	if (!n || !vr->addr_set) {
		snprintf(err, err_size, "its size or addresses are not set");
		return -1;
	}
	struct {
		const char *what;
		uint64_t addr, len, align;
		uint8_t **out;
	} part[3] = {
	    {"descriptor table", vr->desc_addr, 16 * n, 16, &vr->desc},
	    {"available ring", vr->avail_addr, 6 + 2 * n, 2, &vr->avail},
	    {"used ring", vr->used_addr, 6 + 8 * n, 4, &vr->used},
	};
	for (unsigned i = 0; i < 3; i++) {
		if (part[i].addr % part[i].align) {
			snprintf(err, err_size,
				 "its %s at 0x%llx is not %llu-byte aligned",
				 part[i].what, (unsigned long long)part[i].addr,
				 (unsigned long long)part[i].align);
			break;
		}
		*part[i].out = dmn__gmem_at(m, part[i].addr, part[i].len, 1);
		if (!*part[i].out) {
			snprintf(err, err_size,
				 "its %s at 0x%llx (%llu bytes) is outside the "
				 "mapped memory",
				 part[i].what, (unsigned long long)part[i].addr,
				 (unsigned long long)part[i].len);
			break;
		}
	}
	if (vr->desc && vr->avail && vr->used)
		return 0;
	/* all three or none: a ring half mapped is never taken for ready */
	vr->desc = vr->avail = vr->used = NULL;
	return -1;
}

int dmn__vring_pop(struct dmn__vring *vr, const struct dmn__gmem *m,
		   struct dmn__vchain *ch, char *err, size_t err_size)
{
	DMN_ASSERT(vr->num && vr->desc && vr->avail && vr->used &&
		   "only a ring dmn__vu_ring_ready mapped is popped");
	uint16_t avail_idx = load_index(vr->avail + 2);
	uint16_t waiting = (uint16_t)(avail_idx - vr->last_avail);
	if (!waiting)
		return 0;
	if (waiting > vr->num) {
		snprintf(err, err_size,
			 "its available index moved %u past the last one taken "
			 "(the ring holds %u)",
			 waiting, vr->num);
		return -1;
	}
	uint16_t head = dmn__get16(vr->avail + 4 + 2 * (vr->last_avail % vr->num));
	if (head >= vr->num) {
		snprintf(err, err_size,
			 "available entry %u names descriptor %u (the ring has "
			 "%u)",
			 vr->last_avail % vr->num, head, vr->num);
		return -1;
	}
	memset(ch, 0, sizeof(*ch));
	ch->head = head;
	uint16_t seen[2 * DMN__VCHAIN_MAX + 1]; /* a chain is never longer */
	unsigned i = head;
	for (unsigned walked = 0;; walked++) {
		for (unsigned k = 0; k < walked; k++)
			if (seen[k] == i) {
				snprintf(err, err_size,
					 "the chain from descriptor %u loops "
					 "(back to descriptor %u)",
					 head, i);
				return -1;
			}
		/* each turn adds a segment, at most DMN__VCHAIN_MAX a way */
		DMN_ASSERT(walked < sizeof(seen) / sizeof(seen[0]) && i < vr->num);
		seen[walked] = (uint16_t)i;
		uint8_t d[16];
		memcpy(d, vr->desc + 16 * i, 16);
		uint64_t addr = dmn__get64(d);
		uint32_t len = dmn__get32(d + 8);
		uint16_t flags = dmn__get16(d + 12), next = dmn__get16(d + 14);
		if (flags & VRING_DESC_F_INDIRECT) {
			snprintf(err, err_size,
				 "descriptor %u is indirect (not negotiated)", i);
			return -1;
		}
		int writable = (flags & VRING_DESC_F_WRITE) != 0;
		if (!writable && ch->n_wr) {
			snprintf(err, err_size,
				 "descriptor %u is readable after a writable "
				 "one",
				 i);
			return -1;
		}
		unsigned *count = writable ? &ch->n_wr : &ch->n_rd;
		if (*count == DMN__VCHAIN_MAX) {
			snprintf(err, err_size,
				 "the chain from descriptor %u is too long (more "
				 "than %u %s segments)",
				 head, DMN__VCHAIN_MAX,
				 writable ? "writable" : "readable");
			return -1;
		}
		uint8_t *p = dmn__gmem_at(m, addr, len, 0);
		if (!p) {
			snprintf(err, err_size,
				 "descriptor %u's buffer at 0x%llx (%u bytes) is "
				 "outside the mapped memory",
				 i, (unsigned long long)addr, len);
			return -1;
		}
		struct dmn__vseg *seg = writable ? &ch->wr[*count] : &ch->rd[*count];
		seg->p = p;
		seg->len = len;
		++*count;
		*(writable ? &ch->wr_len : &ch->rd_len) += len;
		if (!(flags & VRING_DESC_F_NEXT))
			break;
		if (next >= vr->num) {
			snprintf(err, err_size,
				 "descriptor %u's next is %u (the ring has %u)",
				 i, next, vr->num);
			return -1;
		}
		i = next;
	}
	vr->last_avail++;
	return 1;
}

void dmn__vring_push(struct dmn__vring *vr, uint16_t head, uint32_t len)
{
	DMN_ASSERT(vr->num && vr->used && head < vr->num &&
		   "the head a pop returned, on the ring it came from");
	uint8_t *e = vr->used + 4 + 8 * (vr->used_idx % vr->num);
	dmn__put32(e, head);
	dmn__put32(e + 4, len);
	vr->used_idx++;
	store_index(vr->used + 2, vr->used_idx);
}

void dmn__vring_notify(struct dmn__vring *vr)
{
	/* the used index is published before the driver's flag is read */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (vr->call_fd < 0 || (load_index(vr->avail) & VRING_AVAIL_F_NO_INTERRUPT))
		return;
	uint64_t one = 1;
	ssize_t w;
	do
		w = write(vr->call_fd, &one, sizeof(one));
	while (w < 0 && errno == EINTR);
	/* EAGAIN: a signal is already pending, which is all it says */
}

size_t dmn__vchain_read(const struct dmn__vchain *ch, uint8_t *dst, size_t cap)
{
	size_t done = 0;
	DMN_ASSERT(ch->n_rd <= DMN__VCHAIN_MAX);
	for (unsigned i = 0; i < ch->n_rd && done < cap; i++) {
		size_t n = ch->rd[i].len < cap - done ? ch->rd[i].len : cap - done;
		memcpy(dst + done, ch->rd[i].p, n);
		done += n;
	}
	return done;
}

size_t dmn__vchain_write(const struct dmn__vchain *ch, const uint8_t *src,
			 size_t len)
{
	size_t done = 0;
	DMN_ASSERT(ch->n_wr <= DMN__VCHAIN_MAX);
	for (unsigned i = 0; i < ch->n_wr && done < len; i++) {
		size_t n = ch->wr[i].len < len - done ? ch->wr[i].len : len - done;
		memcpy(ch->wr[i].p, src + done, n);
		done += n;
	}
	return done;
}
