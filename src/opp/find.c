/* SPDX-License-Identifier: MIT */
/*
 * The public look-ups of a table (an optional unit of a firmware image):
 * exact, ceiling and floor by frequency or level, and the first,
 * last and suspend entries, on lookup.c's searches. dmn_opp_set_rate searches
 * through lookup.c directly and never calls these.
 *
 * Cost: O(log n + k) as lookup.c says, except a level in a frequency table
 * (levels are not in order there): a scan, O(n).
 */
#include "opp_internal.h"

#include <errno.h>

enum find_how { FIND_EXACT, FIND_CEIL, FIND_FLOOR };

/* A search key of opp_bound: the level (@level: level tables) or hz[0]
 * (frequency tables), and whether an entry at the key sorts before it. */
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

/* First position whose key is >= @key (@upper: > @key). */
static unsigned opp_bound(const struct dmn_opp_table *t, uint64_t key,
			  bool level, bool upper)
{
	struct bound_key b = {key, level, upper};
	return (unsigned)dmn__lower_bound(t->n, t, &b, key_before);
}

/* The last usable position before @end, or -1. */
static int usable_down(const struct dmn_opp_table *t, unsigned end)
{
	for (unsigned pos = end; pos > 0; pos--)
		if (dmn__opp_entry_usable(t, opp_sorted_at(t, pos - 1)))
			return (int)pos - 1;
	return -1;
}

static int find_freq(const struct dmn_opp_table *t, uint64_t hz, enum find_how how)
{
	if (!t->has_freq)
		return -1;
	int pos;
	if (how == FIND_FLOOR) {
		pos = usable_down(t, opp_bound(t, hz, false, true));
	} else {
		pos = dmn__opp_usable_up(t, opp_bound(t, hz, false, false));
		if (how == FIND_EXACT && pos >= 0 &&
		    oe_hz(opp_sorted_at(t, pos))[0] != hz)
			pos = -1;
	}
	return pos;
}

/* In a level table: binary search. In a frequency table the levels are not
 * in order: a scan, O(n). Ties go to the lowest position for exact and ceil,
 * the highest for floor, as for frequencies. */
static int find_level(const struct dmn_opp_table *t, uint32_t level,
		      enum find_how how)
{
	if (!t->has_freq) {
		int pos;
		if (how == FIND_FLOOR) {
			pos = usable_down(t, opp_bound(t, level, true, true));
		} else {
			pos = dmn__opp_usable_up(t, opp_bound(t, level, true, false));
			if (how == FIND_EXACT && pos >= 0 &&
			    opp_sorted_at(t, pos)->level != level)
				pos = -1;
		}
		return pos;
	}
	int best = -1;
	for (unsigned i = 0; i < t->n; i++) {
		const struct dmn_opp_entry *e = opp_sorted_at(t, i);
		if (!(e->flags & DMN_OPP_FLAG_HAS_LEVEL) || !dmn__opp_entry_usable(t, e))
			continue;
		bool ok = how == FIND_EXACT  ? e->level == level
			  : how == FIND_CEIL ? e->level >= level
					     : e->level <= level;
		if (!ok)
			continue;
		if (best < 0)
			best = (int)i;
		else if (how == FIND_FLOOR ? e->level >= opp_sorted_at(t, best)->level
					   : e->level < opp_sorted_at(t, best)->level)
			best = (int)i;
	}
	return best;
}

static int lookup(struct dmn_ctx *ctx, dmn_opp_table_t table, uint64_t key,
		  bool by_level, enum find_how how, uint32_t *id)
{
	int err;
	const struct dmn_opp_table *t = dmn__opp_enter(ctx, id, table, &err);
	if (!t)
		return err;
	int pos;
	if (by_level)
		pos = key > UINT32_MAX
			  ? -1
			  : find_level(t, (uint32_t)key, how);
	else
		pos = find_freq(t, key, how);
	if (pos < 0)
		err = -ERANGE;
	else
		*id = opp_sorted_at(t, pos)->id;
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_find_freq_exact(struct dmn_ctx *ctx, dmn_opp_table_t table, uint64_t hz,
			uint32_t *id)
{
	return lookup(ctx, table, hz, false, FIND_EXACT, id);
}

int dmn_opp_find_freq_ceil(struct dmn_ctx *ctx, dmn_opp_table_t table, uint64_t hz,
		       uint32_t *id)
{
	return lookup(ctx, table, hz, false, FIND_CEIL, id);
}

int dmn_opp_find_freq_floor(struct dmn_ctx *ctx, dmn_opp_table_t table, uint64_t hz,
			uint32_t *id)
{
	return lookup(ctx, table, hz, false, FIND_FLOOR, id);
}

int dmn_opp_find_level_exact(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t level,
			 uint32_t *id)
{
	return lookup(ctx, table, level, true, FIND_EXACT, id);
}

int dmn_opp_find_level_ceil(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t level,
			uint32_t *id)
{
	return lookup(ctx, table, level, true, FIND_CEIL, id);
}

int dmn_opp_find_level_floor(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t level,
			 uint32_t *id)
{
	return lookup(ctx, table, level, true, FIND_FLOOR, id);
}

static int edge(struct dmn_ctx *ctx, dmn_opp_table_t table, int which, uint32_t *id)
{
	int err;
	const struct dmn_opp_table *t = dmn__opp_enter(ctx, id, table, &err);
	if (!t)
		return err;
	err = -ENOENT;
	int pos = -1;
	if (which == 0) {
		pos = dmn__opp_usable_up(t, 0);
	} else if (which == 1) {
		pos = usable_down(t, t->n);
	} else {
		for (unsigned i = 0; i < t->n && pos < 0; i++)
			if (opp_sorted_at(t, i)->flags & DMN_OPP_FLAG_SUSPEND)
				pos = (int)i;
	}
	if (pos >= 0) {
		*id = opp_sorted_at(t, pos)->id;
		err = 0;
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_first(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t *id)
{
	return edge(ctx, table, 0, id);
}

int dmn_opp_last(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t *id)
{
	return edge(ctx, table, 1, id);
}

int dmn_opp_suspend(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t *id)
{
	return edge(ctx, table, 2, id);
}
