/* SPDX-License-Identifier: MIT */
#include "multiset.h"

#include "internal.h"
#include "bsearch.h"

#include <string.h>

void dmn__ms_init(struct u64_multiset *s)
{
	s->bins = 0;
	s->n = s->cap = 0;
}

/* The rest only keeps the QoS sets of a hosted build (qos.c). */
#ifndef DMN_FIRMWARE
void dmn__ms_fini(struct dmn_ctx *ctx, struct u64_multiset *s)
{
	dmn__free(ctx, s->bins);
	dmn__ms_init(s);
}

int dmn__ms_reserve(struct dmn_ctx *ctx, struct u64_multiset *s, unsigned extra)
{
	return dmn__grow(ctx, (void **)&s->bins, &s->cap, s->n + extra,
			sizeof(*s->bins));
}

static bool bin_before(const void *bins, size_t i, const void *value)
{
	return ((const struct u64_bin *)bins)[i].value <
	       *(const uint64_t *)value;
}

DMN_NOINLINE static unsigned lower_bound(const struct u64_multiset *s, uint64_t value)
{
	return (unsigned)dmn__lower_bound(s->n, s->bins, &value, bin_before);
}

void dmn__ms_add(struct u64_multiset *s, uint64_t value, uint64_t count,
		 bool remove)
{
	unsigned i = lower_bound(s, value);
	if (i < s->n && s->bins[i].value == value) {
		struct u64_bin *b = &s->bins[i];
		b->count += remove ? -count : count;
		if (b->count)
			return;
		/* Emptied: the bin goes. */
		memmove(b, b + 1, (s->n - i - 1) * sizeof(*b));
		s->n--;
		return;
	}
	/* Removing what is not there cannot happen; adding without room
	 * neither (the caller reserved). */
	if (remove || s->n >= s->cap)
		return;
	struct u64_bin *b = &s->bins[i];
	memmove(b + 1, b, (s->n - i) * sizeof(*b));
	b->value = value;
	b->count = count;
	s->n++;
}

uint64_t dmn__ms_first_at_or_after(const struct u64_multiset *s, uint64_t floor)
{
	unsigned i = lower_bound(s, floor);
	return i < s->n ? s->bins[i].value : UINT64_MAX;
}
#endif
