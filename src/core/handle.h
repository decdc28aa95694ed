/* SPDX-License-Identifier: MIT */
/*
 * Validated handles: a slot table per object kind. A handle packs the kind,
 * a generation and the slot, so a stale handle (object removed, slot maybe
 * reused) or a handle of another kind is detected instead of dereferenced.
 *
 * The table is parallel arrays in one block: object pointers (a free slot
 * holds the free list instead, tagged in bit 0), 16-bit generations, and,
 * for the kinds that are iterated, a doubly linked list of live slots in
 * creation order. Attachments are never iterated through their table, so
 * each costs 10 bytes of table, not 18: it is the object there are most of.
 */
#ifndef DOMINO_CORE_HANDLE_H
#define DOMINO_CORE_HANDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dmn_ctx;

enum handle_kind { HK_DOMAIN = 1, HK_DEVICE = 2, HK_ATTACH = 3 };
/* Kind 0 is free in the handle encoding: the OPP layer's tables use it. */
#define HK_OPP_TABLE ((enum handle_kind)0)

#define HANDLE_SLOT_BITS 20u
#define HANDLE_GEN_BITS 10u
#define HANDLE_MAX_SLOTS ((1u << HANDLE_SLOT_BITS) - 1u)

/* The published votes of a striped context's attachments (dmn_vote's
 * lock-free unchanged check, device.c): per slot one word, the stripe of
 * the attachment's domain << 48 | the slot's generation << 33 | live << 32
 * | the attachment's vote, written with an atomic store whenever a call's
 * outcome is final, read with an atomic load without any lock. The words
 * are grouped by (slot + 1) % DMN_STRIPES, each group in its own cache
 * lines (dmn__pub_word), so that neighbouring slots, voted on by threads
 * on different domains, do not share a line. A block is never freed while
 * the context lives (a reader may hold an older one): a bigger one
 * replaces it when the table grows, linked through @older, all freed by
 * dmn__handle_table_fini. */
struct handle_pub {
	struct handle_pub *older;
	uint32_t cap;     /* slots */
	uint32_t per;     /* words per stripe group, a multiple of 8 */
	uint64_t *w;      /* in this block, on a 64-byte boundary */
};
#define HANDLE_PUB_LIVE ((uint64_t)1 << 32)
#define HANDLE_PUB_STRIPE_SHIFT 48
#define HANDLE_PUB_STRIPE_MASK ((uint64_t)0xffffu << HANDLE_PUB_STRIPE_SHIFT)
/* The word's generation and live bit: whom it names. */
#define HANDLE_PUB_ID ((((uint64_t)1 << HANDLE_PUB_STRIPE_SHIFT) - 1u) & \
		       ~(uint64_t)0xffffffffu)

struct handle_table {
	enum handle_kind kind;
	bool ordered;     /* keeps creation order for dmn__handle_next */
	void **objs;      /* live: the object; free: (next free + 1) << 1 | 1 */
	uint16_t *gens;
	uint32_t *links;  /* ordered only: [2 * slot] prev, [2 * slot + 1] next
			   * (slot index + 1, 0 = end) */
	uint32_t n_slots, cap_slots;
	uint32_t free_head; /* slot index + 1, 0 = none */
	uint32_t live_head, live_tail; /* slot index + 1, 0 = none */
	uint32_t live;
	struct handle_pub *pub; /* attachments of a striped context, or NULL */
};

void dmn__handle_table_init(struct handle_table *t, enum handle_kind kind);
/* In teardown.c (the teardown unit: only dmn_ctx_destroy frees tables). */
void dmn__handle_table_fini(struct dmn_ctx *ctx, struct handle_table *t);
/* Reserve room so that the next dmn__handle_alloc cannot fail for memory. */
int dmn__handle_reserve(struct dmn_ctx *ctx, struct handle_table *t);
/* Returns the new handle; after a successful dmn__handle_reserve it is
 * never 0 (0: the table is full). */
uint32_t dmn__handle_alloc(struct handle_table *t, void *obj);
/* The start of every create call (domains, devices, attachments): room for
 * one more handle in @t (dmn__handle_reserve) and an object of @size bytes
 * followed by a copy of @name (NULL: none), all zero but the name. Returns
 * it with *@err 0 (dmn__handle_alloc then cannot fail), or NULL with *@err
 * -ENOSPC or -ENOMEM, leaving at most room in @t. */
void *dmn__obj_new(struct dmn_ctx *ctx, struct handle_table *t, size_t size,
		   const char *name, int *err);
void dmn__handle_release(struct handle_table *t, uint32_t h);
#define HANDLE_GEN_MASK ((1u << HANDLE_GEN_BITS) - 1u)
#define HANDLE_SLOT_MASK ((1u << HANDLE_SLOT_BITS) - 1u)

/* The object a live, current handle @h names in @t, or NULL. O(1). */
void *dmn__handle_lookup(const struct handle_table *t, uint32_t h);
/* First live handle after @prev (0 = from the start) in creation order,
 * or 0. Ordered tables only. @prev's object may already be freed, but not
 * its slot released. */
uint32_t dmn__handle_next(const struct handle_table *t, uint32_t prev);

#endif
