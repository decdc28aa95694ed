/* SPDX-License-Identifier: MIT */
#include "level_hist.h"

#include "internal.h"
#include "bsearch.h"

#include <errno.h>

void dmn__level_hist_init(struct level_hist *h)
{
	h->bins = 0;
	h->n = h->cap = 0;
}

void dmn__level_hist_fini(struct dmn_ctx *ctx, struct level_hist *h)
{
	if (h->bins)
		dmn__free(ctx, h->bins);
	dmn__level_hist_init(h);
}

static bool bin_before(const void *bins, size_t i, const void *level)
{
	return ((const struct level_count *)bins)[i].level <
	       *(const uint32_t *)level;
}

unsigned dmn__level_hist_search(const struct level_hist *h, uint32_t level)
{
	return (unsigned)dmn__lower_bound(h->n, h->bins, &level, bin_before);
}

int dmn__level_hist_reserve(struct dmn_ctx *ctx, struct level_hist *h)
{
	return dmn__grow(ctx, (void **)&h->bins, &h->cap, h->n + 1,
			sizeof(*h->bins));
}

int dmn__level_hist_add(struct dmn_ctx *ctx, struct level_hist *h,
			uint32_t level)
{
	unsigned i = dmn__level_hist_find(h, level);
	if (i < h->n && h->bins[i].level == level) {
		h->bins[i].count++;
		return 0;
	}
	int err = dmn__level_hist_reserve(ctx, h);
	if (err)
		return err;
	dmn__level_hist_insert(h, i, level, 1);
	return 0;
}

/* The bin counting @level, or NULL when no vote is counted there. */
static struct level_count *counted_bin(struct level_hist *h, uint32_t level)
{
	unsigned i = dmn__level_hist_index(h, level);
	if (i == h->n || !h->bins[i].count)
		return 0; /* callers only take back what they counted */
	return &h->bins[i];
}

void dmn__level_hist_dec(struct level_hist *h, uint32_t level)
{
	struct level_count *b = counted_bin(h, level);
	if (b)
		b->count--;
}

void dmn__level_hist_compact(struct level_hist *h)
{
	unsigned out = 0;
	for (unsigned i = 0; i < h->n; i++)
		if (h->bins[i].count)
			h->bins[out++] = h->bins[i];
	h->n = out;
}
