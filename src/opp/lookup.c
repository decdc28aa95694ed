/* SPDX-License-Identifier: MIT */
/*
 * Look-ups: a binary search over the sorted entries (dmn__opp_bound on
 * the key), then a step over the unusable neighbours (disabled, or turbo
 * without boost).
 *
 * Cost: O(log n + k), k = the run of consecutive unusable entries stepped
 * over; the worst case, every entry past the search point unusable, is
 * O(n). Tables have tens of entries and few unusable ones, so no index of
 * usable entries is kept (it would have to be rebuilt on every boost or
 * availability change).
 */
#include "opp_internal.h"

#include <errno.h>

struct bound_key {
	uint64_t key;
	bool level, upper;
};

static bool key_before(const void *t, size_t pos, const void *k)
{
	const struct bound_key *b = k;
	const struct dmn_opp_entry *e = opp_sorted_at(t, (unsigned)pos);
	uint64_t v = b->level ? e->level : oe_hz(e)[0];
	return b->upper ? v <= b->key : v < b->key;
}

unsigned dmn__opp_bound(const struct dmn_opp_table *t, uint64_t key,
			bool level, bool upper)
{
	struct bound_key b = {key, level, upper};
	return (unsigned)dmn__lower_bound(t->n, t, &b, key_before);
}

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
	return dmn__opp_usable_up(t, dmn__opp_bound(t, hz, false, false));
}

/* Level ceil over every entry with a level, usable or not: the domain
 * rounding and level-map hooks must answer the same for a level whatever
 * happens to availability later. */
int dmn__opp_pos_level_ceil_any(const struct dmn_opp_table *t, uint32_t level)
{
	/* A level table is sorted by level: its first entry at @level or
	 * above is the scan's answer too, found in O(log n). */
	if (!t->has_freq) {
		unsigned pos = dmn__opp_bound(t, level, true, false);
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
