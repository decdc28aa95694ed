/* SPDX-License-Identifier: MIT */
#include "level_hist.h"

#include "internal.h"

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

/* Index of the first bin with level >= @level (h->n if none). */
static unsigned lower_bound(const struct level_hist *h, uint32_t level)
{
	unsigned lo = 0, hi = h->n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (h->bins[mid].level < level)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* dmn__level_hist_fits and dmn__level_hist_remove serve only the vote
 * fast paths (txn.c): a build without them (firmware) leaves them out. */
#if DMN_FAST_PATHS
bool dmn__level_hist_fits(const struct level_hist *h, uint32_t level)
{
	unsigned i = lower_bound(h, level);
	return h->n < h->cap || (i < h->n && h->bins[i].level == level);
}
#endif

int dmn__level_hist_reserve(struct dmn_ctx *ctx, struct level_hist *h)
{
	return dmn_grow(ctx, (void **)&h->bins, &h->cap, h->n + 1,
			sizeof(*h->bins));
}

int dmn__level_hist_add(struct dmn_ctx *ctx, struct level_hist *h,
			uint32_t level)
{
	unsigned i = lower_bound(h, level);
	if (i < h->n && h->bins[i].level == level) {
		h->bins[i].count++;
		return 0;
	}
	int err = dmn__level_hist_reserve(ctx, h);
	if (err)
		return err;
	for (unsigned j = h->n; j > i; j--)
		h->bins[j] = h->bins[j - 1];
	h->bins[i].level = level;
	h->bins[i].count = 1;
	h->n++;
	return 0;
}

/* The bin counting @level, or NULL when no vote is counted there. */
static struct level_count *counted_bin(struct level_hist *h, uint32_t level)
{
	unsigned i = lower_bound(h, level);
	if (i >= h->n || h->bins[i].level != level || !h->bins[i].count)
		return 0; /* callers only take back what they counted */
	return &h->bins[i];
}

void dmn__level_hist_dec(struct level_hist *h, uint32_t level)
{
	struct level_count *b = counted_bin(h, level);
	if (b)
		b->count--;
}

#if DMN_FAST_PATHS
void dmn__level_hist_remove(struct level_hist *h, uint32_t level)
{
	struct level_count *b = counted_bin(h, level);
	if (!b || --b->count)
		return;
	for (struct level_count *end = h->bins + --h->n; b < end; b++)
		b[0] = b[1];
}
#endif

void dmn__level_hist_compact(struct level_hist *h)
{
	unsigned out = 0;
	for (unsigned i = 0; i < h->n; i++)
		if (h->bins[i].count)
			h->bins[out++] = h->bins[i];
	h->n = out;
}
