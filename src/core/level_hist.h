/* SPDX-License-Identifier: MIT */
/*
 * The vote aggregate of a domain: a multiset of pstate levels (the count of
 * counted votes and child requirements per distinct level, sorted by
 * level) and its one maximum, level_hist_max(). The transaction
 * engine and the fast unit share this structure and this max.
 *
 * Costs, L distinct levels (never the number of voters):
 * - dmn__level_hist_find: a scan up to LEVEL_HIST_SCAN levels (a domain
 *   has a few: no call, no branch the predictor cannot learn), O(log L)
 *   past them;
 * - dmn__level_hist_add: the find, O(L) shift when the level is new
 *   (a domain has a few levels: the shift beats a memmove call);
 * - dmn__level_hist_dec: O(log L); an emptied bin stays (count 0) until
 *   dmn__level_hist_compact, O(L). The transaction engine decrements this
 *   way while an operation runs, so its fix-ups after the commit point,
 *   which only restore levels counted before, never allocate;
 * - level_hist_max: O(1) plus the empty bins above the highest counted
 *   one. Every operation of the engine compacts what it touched; inside
 *   one each empty bin is one logged removal of that operation, so the
 *   scan is bounded by the operation's own undo log. The fast unit's rail
 *   keeps the bins it empties (at most LEVEL_HIST_SCAN bins, never fewer
 *   counts), so that a driver going back and forth between its levels
 *   moves counts, not bins (fast/rail.h, vote_rail): there the scan is
 *   bounded by LEVEL_HIST_SCAN, and the engine's next operation on the
 *   domain compacts them (or the rail itself, when it needs a bin and
 *   LEVEL_HIST_SCAN are taken).
 * Capacity only grows, so re-adding a level whose bin still exists never
 * allocates.
 */
#ifndef DOMINO_CORE_LEVEL_HIST_H
#define DOMINO_CORE_LEVEL_HIST_H

#include <stdint.h>
#include <stdbool.h>

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
/* dmn__level_hist_find past LEVEL_HIST_SCAN levels. */
unsigned dmn__level_hist_search(const struct level_hist *h, uint32_t level);

#define LEVEL_HIST_SCAN 8u
/* The index of the first bin at @level or above (h->n if none). */
static inline unsigned dmn__level_hist_find(const struct level_hist *h,
					    uint32_t level)
{
	if (h->n > LEVEL_HIST_SCAN)
		return dmn__level_hist_search(h, level);
	unsigned i = 0;
	while (i < h->n && h->bins[i].level < level)
		i++;
	return i;
}
/* The index of @level's bin, or h->n when it has none. */
static inline unsigned dmn__level_hist_index(const struct level_hist *h,
					     uint32_t level)
{
	unsigned i = dmn__level_hist_find(h, level);
	return i < h->n && h->bins[i].level == level ? i : h->n;
}
/* A bin for @level (which has none) at @at, where dmn__level_hist_find
 * put it, holding @count, in room the caller made (h->n < h->cap). O(L)
 * shift. */
static inline void dmn__level_hist_insert(struct level_hist *h, unsigned at,
					  uint32_t level, uint32_t count)
{
	for (unsigned j = h->n; j > at; j--)
		h->bins[j] = h->bins[j - 1];
	h->bins[at].level = level;
	h->bins[at].count = count;
	h->n++;
}
void dmn__level_hist_fini(struct dmn_ctx *ctx, struct level_hist *h);
/* Count one more vote at @level (> 0). -ENOMEM leaves @h unchanged. */
int dmn__level_hist_add(struct dmn_ctx *ctx, struct level_hist *h,
			uint32_t level);
/* Make sure one more distinct level fits without allocating. */
int dmn__level_hist_reserve(struct dmn_ctx *ctx, struct level_hist *h);
/* Count one vote fewer at @level, keeping its bin even at count 0. */
void dmn__level_hist_dec(struct level_hist *h, uint32_t level);
/* Drop the bins dmn__level_hist_dec emptied. */
void dmn__level_hist_compact(struct level_hist *h);
/* The highest counted level, 0 if none. */
static inline uint32_t level_hist_max(const struct level_hist *h)
{
	unsigned i = h->n;
	while (i && !h->bins[i - 1].count)
		i--;
	return i ? h->bins[i - 1].level : 0;
}

#endif
