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

unsigned dmn__level_hist_lower_bound(const struct level_hist *h, uint32_t level)
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

int dmn__level_hist_reserve(struct dmn_ctx *ctx, struct level_hist *h)
{
	return dmn_grow(ctx, (void **)&h->bins, &h->cap, h->n + 1,
			sizeof(*h->bins));
}

int dmn__level_hist_add(struct dmn_ctx *ctx, struct level_hist *h, uint32_t level)
{
	unsigned i = dmn__level_hist_lower_bound(h, level);
	if (i < h->n && h->bins[i].level == level) {
		h->bins[i].count++;
		return 0;
	}
	int err = dmn__level_hist_reserve(ctx, h);
	if (err)
		return err;
	/* A domain has a few distinct levels: a loop beats a memmove call. */
	for (unsigned j = h->n; j > i; j--)
		h->bins[j] = h->bins[j - 1];
	h->bins[i].level = level;
	h->bins[i].count = 1;
	h->n++;
	return 0;
}

void dmn__level_hist_remove(struct level_hist *h, uint32_t level)
{
	unsigned i = dmn__level_hist_lower_bound(h, level);
	if (i >= h->n || h->bins[i].level != level)
		return; /* cannot happen: callers only remove what they added */
	if (--h->bins[i].count)
		return;
	for (unsigned j = i + 1; j < h->n; j++)
		h->bins[j - 1] = h->bins[j];
	h->n--;
}

uint32_t dmn__level_hist_total(const struct level_hist *h)
{
	uint32_t total = 0;
	for (unsigned i = 0; i < h->n; i++)
		total += h->bins[i].count;
	return total;
}
