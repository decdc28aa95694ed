/* SPDX-License-Identifier: MIT */
/*
 * Look-ups: a binary search over the sorted entries (dmn__opp_entry_pos
 * of a probe entry that sorts first among those at the key: the search
 * dmn_opp_add places entries with), then a step over the unusable
 * neighbours (disabled, or turbo without boost).
 *
 * Cost: O(log n + k), k = the run of consecutive unusable entries stepped
 * over; the worst case, every entry past the search point unusable, is
 * O(n). Tables have tens of entries and few unusable ones, so no index of
 * usable entries is kept (it would have to be rebuilt on every boost or
 * availability change).
 */
#include "opp_internal.h"

#include <errno.h>

int dmn__opp_usable_up(const struct dmn_opp_table *t, unsigned pos)
{
	for (; pos < t->n; pos++)
		if (dmn__opp_entry_usable(t, opp_sorted_at(t, pos)))
			return (int)pos;
	return -1;
}

int dmn__opp_pos_freq_ceil(const struct dmn_opp_table *t, uint64_t hz)
{
	if (!t->has_freq)
		return -1;
	/* One clock at @hz and no level: it sorts before every entry at @hz,
	 * so its place is the first entry at @hz or above. */
	struct {
		struct dmn_opp_entry e;
		uint64_t hz;
	} probe = {.e = {.n_hz = 1}, .hz = hz};
	return dmn__opp_usable_up(t, dmn__opp_entry_pos(t, &probe.e));
}

/* Level ceil over every entry with a level, usable or not: the domain
 * rounding and level-map hooks must answer the same for a level whatever
 * happens to availability later. */
int dmn__opp_pos_level_ceil_any(const struct dmn_opp_table *t, uint32_t level)
{
	/* A table without clocks sorts by level, the entries without one
	 * first: a probe at @level and no clock sorts before its first entry
	 * at @level or above, the scan's answer, found in O(log n). */
	if (!t->has_freq) {
		struct dmn_opp_entry probe = {.flags = DMN_OPP_FLAG_HAS_LEVEL,
					      .level = level};
		unsigned pos = dmn__opp_entry_pos(t, &probe);
		return pos < t->n ? (int)pos : -1;
	}
	int best = -1;
	for (unsigned i = 0; i < t->n; i++) {
		const struct dmn_opp_entry *e = opp_sorted_at(t, i);
		if (!(e->flags & DMN_OPP_FLAG_HAS_LEVEL) || e->level < level)
			continue;
		if (best < 0 || e->level < opp_sorted_at(t, best)->level)
			best = (int)i;
	}
	return best;
}
