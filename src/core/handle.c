/* SPDX-License-Identifier: MIT */
#include "internal.h"

#include <errno.h>
#include <string.h>

#define GEN_MASK HANDLE_GEN_MASK
#define SLOT_MASK HANDLE_SLOT_MASK

DMN_NOINLINE static uint32_t make_handle(enum handle_kind kind, uint16_t gen, uint32_t slot)
{
	return ((uint32_t)kind << 30) | ((uint32_t)(gen & GEN_MASK) << 20) |
	       (slot + 1u);
}

/* The slot index of a live, current handle, or -1. */
static int64_t handle_slot(const struct handle_table *t, uint32_t h)
{
	if ((h >> 30) != (uint32_t)t->kind)
		return -1;
	uint32_t slot = h & HANDLE_SLOT_MASK;
	if (slot == 0 || slot > t->n_slots)
		return -1;
	slot--;
	const void *obj = t->objs[slot];
	/* A free slot holds the free list, tagged in bit 0. */
	if (!obj || ((uintptr_t)obj & 1u) ||
	    (t->gens[slot] & HANDLE_GEN_MASK) != ((h >> 20) & HANDLE_GEN_MASK))
		return -1;
	return slot;
}

void *dmn__handle_lookup(const struct handle_table *t, uint32_t h)
{
	int64_t s = handle_slot(t, h);
	return s < 0 ? 0 : t->objs[s];
}

struct dmn_domain *dmn__domain_get(struct dmn_ctx *ctx, dmn_domain_t h)
{
	return dmn__handle_lookup(&ctx->domains, h);
}

struct dmn_device *dmn__device_get(struct dmn_ctx *ctx, dmn_device_t h)
{
	return dmn__handle_lookup(&ctx->devices, h);
}

struct dmn_attachment *dmn__attach_get(struct dmn_ctx *ctx, dmn_attach_t h)
{
	return dmn__handle_lookup(&ctx->attachments, h);
}

static void *free_tag(uint32_t next_free)
{
	return (void *)(((uintptr_t)next_free << 1) | 1u);
}

void dmn__handle_table_init(struct handle_table *t, enum handle_kind kind)
{
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->ordered = kind != HK_ATTACH;
}

static size_t block_size(const struct handle_table *t, uint32_t cap)
{
	return (size_t)cap * (sizeof(void *) + (t->ordered ? 8u : 0u) + 2u);
}

int dmn__handle_reserve(struct dmn_ctx *ctx, struct handle_table *t)
{
	if (t->free_head || t->n_slots < t->cap_slots)
		return 0;
	if (t->n_slots >= HANDLE_MAX_SLOTS)
		return -ENOSPC;
	uint32_t cap = t->cap_slots ? t->cap_slots * 2u : 4u;
	if (cap > HANDLE_MAX_SLOTS)
		cap = HANDLE_MAX_SLOTS;
	/* One block: pointers first (aligned), then links, then generations. */
	char *block = dmn__alloc(ctx, block_size(t, cap));
	if (!block)
		return -ENOMEM;
#if DMN_STRIPED
	/* A striped context's attachments: a bigger block of published
	 * votes, filled, then swapped in; the old one stays for readers. */
	if (t->kind == HK_ATTACH && ctx->stripes) {
		/* Slot indexes 0..cap-1 are handle slots 1..cap: a group
		 * holds cap / DMN_STRIPES + 1 of them, in whole lines. */
		uint32_t per = (cap / DMN_STRIPES + 1u + 7u) & ~7u;
		size_t words = (size_t)per * DMN_STRIPES;
		struct handle_pub *pub = dmn__alloc(
		    ctx, sizeof(*pub) + 64 + words * sizeof(uint64_t));
		if (!pub) {
			dmn__free(ctx, block);
			return -ENOMEM;
		}
		uintptr_t at = ((uintptr_t)(pub + 1) + 63) & ~(uintptr_t)63;
		pub->older = t->pub;
		pub->cap = cap;
		pub->per = per;
		pub->w = (uint64_t *)at;
		memset(pub->w, 0, words * sizeof(uint64_t));
		for (uint32_t i = 0; t->pub && i < t->n_slots; i++)
			*dmn__pub_word(pub, i) = __atomic_load_n(
			    dmn__pub_word(t->pub, i), __ATOMIC_RELAXED);
		__atomic_store_n(&t->pub, pub, __ATOMIC_RELEASE);
	}
#endif
	void **objs = (void **)block;
	uint32_t *links = t->ordered ? (uint32_t *)(objs + cap) : 0;
	uint16_t *gens = (uint16_t *)(links ? (void *)(links + 2u * cap)
					    : (void *)(objs + cap));
	if (t->n_slots) {
		memcpy(objs, t->objs, t->n_slots * sizeof(*objs));
		memcpy(gens, t->gens, t->n_slots * sizeof(*gens));
		if (links)
			memcpy(links, t->links, 2u * t->n_slots * sizeof(*links));
	}
	dmn__free(ctx, t->objs);
	t->objs = objs;
	t->links = links;
	t->gens = gens;
	t->cap_slots = cap;
	return 0;
}

void *dmn__obj_new(struct dmn_ctx *ctx, struct handle_table *t, size_t size,
		   const char *name, int *err)
{
	size_t len = name ? strlen(name) + 1 : 0;
	char *obj = 0;
	*err = dmn__handle_reserve(ctx, t);
	if (!*err && len <= (size_t)-1 - size)
		obj = dmn__alloc(ctx, size + len);
	if (!*err && !obj)
		*err = -ENOMEM;
	if (obj) {
		memset(obj, 0, size);
		if (len)
			memcpy(obj + size, name, len);
	}
	return obj;
}

uint32_t dmn__handle_alloc(struct handle_table *t, void *obj)
{
	uint32_t slot;
	if (t->free_head) {
		slot = t->free_head - 1u;
		t->free_head = (uint32_t)((uintptr_t)t->objs[slot] >> 1);
	} else {
		/* dmn__handle_reserve keeps cap_slots at most
		 * HANDLE_MAX_SLOTS. */
		if (t->n_slots >= t->cap_slots)
			return 0;
		slot = t->n_slots++;
		t->gens[slot] = 0;
	}
	t->objs[slot] = obj;
	if (t->ordered) {
		t->links[2u * slot] = t->live_tail;
		t->links[2u * slot + 1u] = 0;
		if (t->live_tail)
			t->links[2u * (t->live_tail - 1u) + 1u] = slot + 1u;
		else
			t->live_head = slot + 1u;
		t->live_tail = slot + 1u;
	}
	t->live++;
	uint32_t h = make_handle(t->kind, t->gens[slot], slot);
	dmn__handle_publish(t, h, 0); /* a new attachment votes 0 */
	return h;
}

void dmn__handle_release(struct handle_table *t, uint32_t h)
{
	int64_t s = handle_slot(t, h);
	if (s < 0)
		return;
	uint32_t slot = (uint32_t)s;
	if (t->ordered) {
		uint32_t prev = t->links[2u * slot], next = t->links[2u * slot + 1u];
		if (prev)
			t->links[2u * (prev - 1u) + 1u] = next;
		else
			t->live_head = next;
		if (next)
			t->links[2u * (next - 1u)] = prev;
		else
			t->live_tail = prev;
	}
#if DMN_STRIPED
	if (t->pub) /* no longer live: every reader takes the locked path */
		__atomic_store_n(dmn__pub_word(t->pub, slot), 0,
				 __ATOMIC_RELAXED);
#endif
	t->objs[slot] = free_tag(t->free_head);
	t->gens[slot] = (uint16_t)((t->gens[slot] + 1u) & GEN_MASK);
	t->free_head = slot + 1u;
	t->live--;
}


uint32_t dmn__handle_next(const struct handle_table *t, uint32_t prev)
{
	if (!t->ordered)
		return 0;
	uint32_t slot = prev & SLOT_MASK; /* slot index + 1 */
	uint32_t next;
	if (!prev)
		next = t->live_head;
	else if (slot && slot <= t->n_slots)
		next = t->links[2u * (slot - 1u) + 1u];
	else
		return 0;
	if (!next)
		return 0;
	return make_handle(t->kind, t->gens[next - 1u], next - 1u);
}

int dmn__enter_ctx(struct dmn_ctx *ctx, bool args_ok)
{
	if (!ctx || !args_ok)
		return -EINVAL;
	return dmn__lock(ctx) ? -EDEADLK : 0;
}

void *dmn__enter_leave(struct dmn_ctx *ctx, size_t record, int err, int *out)
{
	*out = err;
	if (record & DMN_ENTER_RECORD) {
		ctx->op_error = 0;
		dmn__txn_result(ctx, err);
	}
	dmn__unlock(ctx);
	return 0;
}

int dmn__txn_result(struct dmn_ctx *ctx, int err)
{
	__atomic_store_n(&ctx->last_error, err ? err : ctx->op_error,
			 __ATOMIC_RELAXED);
	return err;
}

int dmn__leave(struct dmn_ctx *ctx, int err)
{
	dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

void *dmn__enter_more(struct dmn_ctx *ctx, size_t table, uint32_t h, int *err)
{
	void *obj = dmn__handle_lookup(
	    (const struct handle_table *)((char *)ctx +
					  (table & ~DMN_ENTER_RECORD)),
	    h);
	*err = 0;
	return obj ? obj : dmn__enter_leave(ctx, table, -EBADF, err);
}

void *dmn__enter(struct dmn_ctx *ctx, bool args_ok, size_t table, uint32_t h,
		 int *err)
{
	*err = dmn__enter_ctx(ctx, args_ok);
	return *err ? 0 : dmn__enter_more(ctx, table, h, err);
}
