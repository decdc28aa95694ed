/* SPDX-License-Identifier: MIT */
/*
 * Validated handles: a slot table per object kind. A handle packs the kind,
 * a generation and the slot, so a stale handle (object removed, slot maybe
 * reused) or a handle of another kind is detected instead of dereferenced.
 */
#ifndef DOMINO_CORE_HANDLE_H
#define DOMINO_CORE_HANDLE_H

#include <stdint.h>

struct dmn_ctx;

enum handle_kind { HK_DOMAIN = 1, HK_DEVICE = 2, HK_ATTACH = 3 };
/* Kind 0 is free in the handle encoding: the OPP layer's tables use it. */
#define HK_OPP_TABLE ((enum handle_kind)0)

#define HANDLE_SLOT_BITS 20u
#define HANDLE_GEN_BITS 10u
#define HANDLE_MAX_SLOTS ((1u << HANDLE_SLOT_BITS) - 1u)

struct handle_slot {
	void *obj;
	uint16_t gen;
	uint32_t next_free; /* slot index + 1 of the next free slot, 0 = end */
	/* Live slots in allocation order (slot index + 1, 0 = end): iteration
	 * follows creation order even when freed slots are reused. */
	uint32_t prev_live, next_live;
};

struct handle_table {
	enum handle_kind kind;
	struct handle_slot *slots;
	uint32_t n_slots, cap_slots;
	uint32_t free_head; /* slot index + 1, 0 = none */
	uint32_t live_head, live_tail; /* slot index + 1, 0 = none */
	uint32_t live;
};

void handle_table_init(struct handle_table *t, enum handle_kind kind);
void handle_table_fini(struct dmn_ctx *ctx, struct handle_table *t);
/* Reserve room so that the next handle_alloc cannot fail for memory. */
int handle_reserve(struct dmn_ctx *ctx, struct handle_table *t);
/* Returns the new handle, or 0 if the table is full (-ENOSPC). */
uint32_t handle_alloc(struct handle_table *t, void *obj);
void handle_release(struct handle_table *t, uint32_t h);
void *handle_lookup(const struct handle_table *t, uint32_t h);
/* First live handle after @prev (0 = from the start) in allocation order,
 * or 0. @prev's object may already be freed, but not its slot released. */
uint32_t handle_next(const struct handle_table *t, uint32_t prev);

#endif
