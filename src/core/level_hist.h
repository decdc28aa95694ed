/* SPDX-License-Identifier: MIT */
/*
 * A multiset of pstate levels with its maximum kept current: the count of
 * counted votes per distinct level, sorted by level. Adding or removing one
 * vote is O(log L + L_shift) in the number of distinct levels L, never in the
 * number of voters; the maximum is O(1). Capacity only grows, so re-adding a
 * level removed in the same operation (rollback) never allocates.
 */
#ifndef DOMINO_CORE_LEVEL_HIST_H
#define DOMINO_CORE_LEVEL_HIST_H

#include <stdint.h>

struct dmn_ctx;

struct level_count {
	uint32_t level;
	uint32_t count;
};

struct level_hist {
	struct level_count *bins;
	unsigned n, cap;
};

void dmn__level_hist_init(struct level_hist *h);
void dmn__level_hist_fini(struct dmn_ctx *ctx, struct level_hist *h);
/* Count one more vote at @level (> 0). -ENOMEM leaves @h unchanged. */
int dmn__level_hist_add(struct dmn_ctx *ctx, struct level_hist *h, uint32_t level);
/* Make sure one more distinct level fits without allocating. */
int dmn__level_hist_reserve(struct dmn_ctx *ctx, struct level_hist *h);
/* Count one vote fewer at @level; the level must be present. */
void dmn__level_hist_remove(struct level_hist *h, uint32_t level);
/* The highest counted level, 0 if empty. */
static inline uint32_t level_hist_max(const struct level_hist *h)
{
	return h->n ? h->bins[h->n - 1].level : 0;
}
uint32_t dmn__level_hist_total(const struct level_hist *h);
/* Index of the first bin with level >= @level (h->n if none). */
unsigned dmn__level_hist_lower_bound(const struct level_hist *h, uint32_t level);

#endif
