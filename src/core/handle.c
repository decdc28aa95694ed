/* SPDX-License-Identifier: MIT */
#include "handle.h"

#include "internal.h"

#include <errno.h>

#define GEN_MASK ((1u << HANDLE_GEN_BITS) - 1u)
#define SLOT_MASK ((1u << HANDLE_SLOT_BITS) - 1u)

static uint32_t make_handle(enum handle_kind kind, uint16_t gen, uint32_t slot)
{
	return ((uint32_t)kind << 30) | ((uint32_t)(gen & GEN_MASK) << 20) |
	       (slot + 1u);
}

void handle_table_init(struct handle_table *t, enum handle_kind kind)
{
	t->kind = kind;
	t->slots = 0;
	t->n_slots = t->cap_slots = 0;
	t->free_head = 0;
	t->live_head = t->live_tail = 0;
	t->live = 0;
}

void handle_table_fini(struct dmn_ctx *ctx, struct handle_table *t)
{
	if (t->slots)
		dmn_free(ctx, t->slots);
	handle_table_init(t, t->kind);
}

int handle_reserve(struct dmn_ctx *ctx, struct handle_table *t)
{
	if (t->free_head || t->n_slots < t->cap_slots)
		return 0;
	if (t->n_slots >= HANDLE_MAX_SLOTS)
		return -ENOSPC;
	unsigned cap = t->cap_slots;
	int err = dmn_grow(ctx, (void **)&t->slots, &cap, t->n_slots + 1,
			   sizeof(*t->slots));
	t->cap_slots = cap;
	return err;
}

uint32_t handle_alloc(struct handle_table *t, void *obj)
{
	uint32_t slot;
	if (t->free_head) {
		slot = t->free_head - 1u;
		t->free_head = t->slots[slot].next_free;
	} else {
		if (t->n_slots >= t->cap_slots || t->n_slots >= HANDLE_MAX_SLOTS)
			return 0;
		slot = t->n_slots++;
		t->slots[slot].gen = 0;
	}
	t->slots[slot].obj = obj;
	t->slots[slot].next_free = 0;
	t->slots[slot].prev_live = t->live_tail;
	t->slots[slot].next_live = 0;
	if (t->live_tail)
		t->slots[t->live_tail - 1u].next_live = slot + 1u;
	else
		t->live_head = slot + 1u;
	t->live_tail = slot + 1u;
	t->live++;
	return make_handle(t->kind, t->slots[slot].gen, slot);
}

static struct handle_slot *slot_of(const struct handle_table *t, uint32_t h)
{
	if ((h >> 30) != (uint32_t)t->kind)
		return 0;
	uint32_t slot = (h & SLOT_MASK);
	if (slot == 0 || slot > t->n_slots)
		return 0;
	struct handle_slot *s = &t->slots[slot - 1u];
	if (!s->obj || (s->gen & GEN_MASK) != ((h >> 20) & GEN_MASK))
		return 0;
	return s;
}

void handle_release(struct handle_table *t, uint32_t h)
{
	struct handle_slot *s = slot_of(t, h);
	if (!s)
		return;
	if (s->prev_live)
		t->slots[s->prev_live - 1u].next_live = s->next_live;
	else
		t->live_head = s->next_live;
	if (s->next_live)
		t->slots[s->next_live - 1u].prev_live = s->prev_live;
	else
		t->live_tail = s->prev_live;
	s->obj = 0;
	s->gen = (uint16_t)((s->gen + 1u) & GEN_MASK);
	s->next_free = t->free_head;
	t->free_head = (uint32_t)(s - t->slots) + 1u;
	t->live--;
}

void *handle_lookup(const struct handle_table *t, uint32_t h)
{
	struct handle_slot *s = slot_of(t, h);
	return s ? s->obj : 0;
}

uint32_t handle_next(const struct handle_table *t, uint32_t prev)
{
	uint32_t slot = prev & SLOT_MASK; /* slot index + 1 */
	uint32_t next;
	if (!prev)
		next = t->live_head;
	else if (slot && slot <= t->n_slots)
		next = t->slots[slot - 1u].next_live;
	else
		return 0;
	if (!next)
		return 0;
	return make_handle(t->kind, t->slots[next - 1u].gen, next - 1u);
}
