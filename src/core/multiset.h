/* SPDX-License-Identifier: MIT */
/*
 * A sorted multiset of 64-bit values (value, count): the constraints below a
 * domain. Min and lower-bound are O(log V) in the number of distinct values
 * V; reserve() first so that a batch of adds cannot fail half-way.
 */
#ifndef DOMINO_CORE_MULTISET_H
#define DOMINO_CORE_MULTISET_H

#include <stdbool.h>
#include <stdint.h>

struct dmn_ctx;

struct u64_bin {
	uint64_t value;
	uint64_t count; /* modulo 2^64: see qos.c */
};

struct u64_multiset {
	struct u64_bin *bins;
	unsigned n, cap;
};

void dmn__ms_init(struct u64_multiset *s);
void dmn__ms_fini(struct dmn_ctx *ctx, struct u64_multiset *s);
/* Make room for @extra more distinct values. */
int dmn__ms_reserve(struct dmn_ctx *ctx, struct u64_multiset *s, unsigned extra);
/* Add @count copies (@remove: take them away; the bin goes when its count
 * reaches 0). Adding a new value needs room for one more bin (see
 * dmn__ms_reserve). */
void dmn__ms_add(struct u64_multiset *s, uint64_t value, uint64_t count,
		 bool remove);
/* Smallest value >= @floor, or UINT64_MAX. */
uint64_t dmn__ms_first_at_or_after(const struct u64_multiset *s, uint64_t floor);

#endif
