/* SPDX-License-Identifier: MIT */
/* The allocation pool behind a board: one list of blocks, freed at once. */
#include "dt_internal.h"
#include "../core/alloc.h"

#include <stdlib.h>
#include <string.h>

/* The header keeps the payload aligned for any object. */
union dmn_dt_block {
	struct {
		union dmn_dt_block *prev;
		union dmn_dt_block *next;
	} link;
	max_align_t align;
};

struct dmn_dt_pool {
	struct dmn_alloc_ops ops;
	union dmn_dt_block head; /* circular list sentinel */
};

struct dmn_dt_pool *dmn__dt_pool_create(const struct dmn_alloc_ops *ops)
{
	struct dmn_alloc_ops use = dmn__alloc_ops_or_default(ops);
	struct dmn_dt_pool *pool = use.alloc(use.user, sizeof(*pool));
	if (!pool)
		return NULL;
	pool->ops = use;
	pool->head.link.prev = pool->head.link.next = &pool->head;
	return pool;
}

const struct dmn_alloc_ops *dmn__dt_pool_ops(const struct dmn_dt_pool *pool)
{
	return &pool->ops;
}

void dmn__dt_pool_destroy(struct dmn_dt_pool *pool)
{
	if (!pool)
		return;
	union dmn_dt_block *b = pool->head.link.next;
	while (b != &pool->head) {
		union dmn_dt_block *next = b->link.next;
		pool->ops.free(pool->ops.user, b);
		b = next;
	}
	pool->ops.free(pool->ops.user, pool);
}

/* A block of @size bytes linked into the pool, not cleared. */
static void *pool_alloc_raw(struct dmn_dt_pool *pool, size_t size)
{
	if (size > SIZE_MAX - sizeof(union dmn_dt_block))
		return NULL;
	union dmn_dt_block *b =
	    pool->ops.alloc(pool->ops.user, sizeof(union dmn_dt_block) + size);
	if (!b)
		return NULL;
	b->link.next = pool->head.link.next;
	b->link.prev = &pool->head;
	pool->head.link.next->link.prev = b;
	pool->head.link.next = b;
	return b + 1;
}

void *dmn__dt_pool_alloc(struct dmn_dt_pool *pool, size_t size)
{
	void *p = pool_alloc_raw(pool, size);
	if (p)
		memset(p, 0, size);
	return p;
}

void dmn__dt_pool_free(struct dmn_dt_pool *pool, void *ptr)
{
	if (!ptr)
		return;
	union dmn_dt_block *b = (union dmn_dt_block *)ptr - 1;
	DMN_ASSERT(b->link.prev->link.next == b && b->link.next->link.prev == b &&
		   "a live block of this pool");
	b->link.prev->link.next = b->link.next;
	b->link.next->link.prev = b->link.prev;
	pool->ops.free(pool->ops.user, b);
}

char *dmn__dt_pool_strndup(struct dmn_dt_pool *pool, const char *s, size_t n)
{
	char *copy = n < SIZE_MAX ? pool_alloc_raw(pool, n + 1) : NULL;
	if (copy) {
		memcpy(copy, s, n);
		copy[n] = 0;
	}
	return copy;
}

char *dmn__dt_pool_strdup(struct dmn_dt_pool *pool, const char *s)
{
	return dmn__dt_pool_strndup(pool, s, strlen(s));
}

void *dmn__dt_vec_push(struct dmn_dt_pool *pool, void **array, unsigned *count,
		  unsigned *cap, size_t elem)
{
	DMN_ASSERT(*count <= *cap && elem > 0);
	if (*count == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 8;
		if (ncap < *cap || (size_t)ncap > SIZE_MAX / elem)
			return NULL;
		void *grown = dmn__dt_pool_alloc(pool, (size_t)ncap * elem);
		if (!grown)
			return NULL;
		if (*count)
			memcpy(grown, *array, (size_t)*count * elem);
		dmn__dt_pool_free(pool, *array);
		*array = grown;
		*cap = ncap;
	}
	char *slot = (char *)*array + (size_t)*count * elem;
	memset(slot, 0, elem);
	(*count)++;
	return slot;
}
