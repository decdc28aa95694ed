/* SPDX-License-Identifier: MIT */
/*
 * The two-pass required-OPP matching rule (docs/semantics.md, Required
 * OPPs), on the model.
 *
 * The OPP layer applies the same rule to bound devices (opp.h); the loader
 * needs it on its own for what the OPP layer never sees: a provider's
 * required-opps against its parents (link floors), a device-level
 * required-opps on a device without a table (fixed votes), and lint's
 * "matches nothing" findings.
 */
#include "dt_internal.h"
#include "../core/bsearch.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Scratch of one call, from the board's allocator (not its pool: a
 * const board may be read by several threads at once). */
static void *scratch_alloc(const struct dmn_dt_board *b, size_t n, size_t elem)
{
	const struct dmn_alloc_ops *ops = dmn__dt_pool_ops(b->pool);
	if (n > SIZE_MAX / elem - 1)
		return NULL;
	return ops->alloc(ops->user, (n + 1) * elem);
}

static void scratch_free(const struct dmn_dt_board *b, void *p)
{
	const struct dmn_alloc_ops *ops = dmn__dt_pool_ops(b->pool);
	if (p)
		ops->free(ops->user, p);
}

/* A set of domain indices (open addressing, -1 empty), grown by doubling:
 * O(1) expected per insertion, so a walk of A ancestors is O(A), not the
 * O(A^2) of a scan of the list found so far (a device at the bottom of a
 * chain of 80,000 domains took 4 s). */
struct domain_set {
	int32_t *slot;
	size_t cap; /* a power of two, or 0 */
	size_t n;
};

static size_t set_home(int32_t x, size_t cap)
{
	return (size_t)((uint32_t)x * 2654435761u) & (cap - 1);
}

/* 1 when @x is new (added), 0 when already there, -ENOMEM. */
static int set_add(const struct dmn_dt_board *b, struct domain_set *s, int32_t x)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		int32_t *slot = scratch_alloc(b, cap, sizeof(*slot));
		if (!slot)
			return -ENOMEM;
		memset(slot, 0xff, cap * sizeof(*slot)); /* all -1 */
		for (size_t i = 0; i < s->cap; i++) {
			if (s->slot[i] < 0)
				continue;
			size_t h = set_home(s->slot[i], cap);
			while (slot[h] >= 0)
				h = (h + 1) & (cap - 1);
			slot[h] = s->slot[i];
		}
		scratch_free(b, s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	size_t h = set_home(x, s->cap);
	for (; s->slot[h] >= 0; h = (h + 1) & (s->cap - 1))
		if (s->slot[h] == x)
			return 0;
	s->slot[h] = x;
	s->n++;
	return 1;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The OPP tables of @dom's proper ancestors, sorted, without repeats, into
 * *@tables (scratch, NULL when there are none) and *@n. Iterative, each
 * ancestor visited once (diamonds in the DAG are common: i.MX blk-ctrl);
 * no limit on depth or count. O(A log A) for A ancestors. 0 or -ENOMEM. */
static int ancestor_tables(const struct dmn_dt_board *b, int32_t dom,
			   int32_t **tables, size_t *n)
{
	*tables = NULL;
	*n = 0;
	if (!b->domains[dom].n_parents)
		return 0;
	struct domain_set seen = {0};
	size_t cap = 16, n_found = 0;
	int32_t *found = scratch_alloc(b, cap, sizeof(*found));
	int err = found ? set_add(b, &seen, dom) : -ENOMEM;
	/* @found lists the domain, then each ancestor once, in BFS order */
	if (err > 0) {
		found[n_found++] = dom;
		err = 0;
	}
	for (size_t next = 0; !err && next < n_found; next++) {
		const struct dmn_dt_domain *a = &b->domains[found[next]];
		for (unsigned i = 0; !err && i < a->n_parents; i++) {
			int added = set_add(b, &seen, a->parents[i]);
			if (added <= 0) {
				err = added;
				continue;
			}
			if (n_found == cap) {
				int32_t *bigger =
				    scratch_alloc(b, 2 * cap, sizeof(*found));
				if (!bigger) {
					err = -ENOMEM;
					break;
				}
				memcpy(bigger, found, n_found * sizeof(*found));
				scratch_free(b, found);
				found = bigger;
				cap *= 2;
			}
			found[n_found++] = a->parents[i];
		}
	}
	scratch_free(b, seen.slot);
	if (err) {
		scratch_free(b, found);
		return err;
	}
	/* their tables, in place of the domains (the first is @dom) */
	size_t k = 0;
	for (size_t i = 1; i < n_found; i++)
		if (b->domains[found[i]].opp_table >= 0)
			found[k++] = b->domains[found[i]].opp_table;
	qsort(found, k, sizeof(*found), cmp_i32);
	size_t kept = 0;
	for (size_t i = 0; i < k; i++)
		if (!kept || found[kept - 1] != found[i])
			found[kept++] = found[i];
	*tables = found;
	*n = kept;
	return 0;
}

/* A ref into a table without levels is a device-to-device requirement,
 * never a domain's vote. */
static bool votes_level(const struct dmn_dt_board *b, const struct dmn_dt_opp_ref *r)
{
	return b->opp_tables[r->table].entries[r->entry].has_level;
}

/* A ref that votes a level, keyed by its table: sorted by (table, ref),
 * each table's refs are a run in DT order, and the refs taken from a run
 * are always its first ones (both passes take a table's first untaken). */
struct table_ref {
	int32_t table;
	int32_t ref;
};

static int cmp_table_ref(const void *a, const void *b)
{
	const struct table_ref *x = a, *y = b;
	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	return (x->ref > y->ref) - (x->ref < y->ref);
}

static bool table_before(const void *base, size_t i, const void *key)
{
	const struct table_ref *tr = base;
	return tr[i].table < *(const int32_t *)key;
}

/* The start of @table's run in @tr, or @n when it has none. */
static size_t run_of(const struct table_ref *tr, size_t n, int32_t table)
{
	size_t lo = dmn__lower_bound(n, tr, &table, table_before);
	return lo < n && tr[lo].table == table ? lo : n;
}

/* The first untaken ref of run @run (@taken[@run] of it taken), or -1. */
static int32_t run_next(const struct table_ref *tr, size_t n, const size_t *taken,
			size_t run)
{
	if (run >= n)
		return -1;
	size_t pos = run + taken[run];
	return pos < n && tr[pos].table == tr[run].table ? tr[pos].ref : -1;
}

int dmn_dt_match_required(const struct dmn_dt_board *board, const int32_t *domains,
		      unsigned n_domains, const struct dmn_dt_opp_ref *refs,
		      unsigned n_refs, int32_t *assign)
{
	if (!board || (n_domains && (!domains || !assign)) ||
	    (n_refs && !refs))
		return -EINVAL;
	for (unsigned i = 0; i < n_domains; i++)
		if (domains[i] < 0 || (unsigned)domains[i] >= board->n_domains)
			return -EINVAL;
	struct table_ref *tr = scratch_alloc(board, n_refs, sizeof(*tr));
	size_t *taken = scratch_alloc(board, n_refs, sizeof(*taken));
	if (!tr || !taken) {
		scratch_free(board, tr);
		scratch_free(board, taken);
		return -ENOMEM;
	}
	size_t n = 0;
	for (unsigned r = 0; r < n_refs; r++)
		if (votes_level(board, &refs[r]))
			tr[n++] = (struct table_ref){refs[r].table, (int32_t)r};
	qsort(tr, n, sizeof(*tr), cmp_table_ref);
	memset(taken, 0, (n_refs + 1) * sizeof(*taken));
	int count = 0;

	/* pass 1: the first untaken ref into the domain's own table */
	for (unsigned i = 0; i < n_domains; i++) {
		assign[i] = -1;
		int32_t table = board->domains[domains[i]].opp_table;
		size_t run = table < 0 ? n : run_of(tr, n, table);
		assign[i] = run_next(tr, n, taken, run);
		if (assign[i] >= 0) {
			taken[run]++;
			count++;
		}
	}
	/* pass 2: the first untaken ref into an ancestor's table, each
	 * domain's ancestors walked once */
	for (unsigned i = 0; i < n_domains && count >= 0 && n; i++) {
		if (assign[i] >= 0)
			continue;
		int32_t *tables;
		size_t n_tables, best_run = n;
		int err = ancestor_tables(board, domains[i], &tables, &n_tables);
		if (err) {
			count = err;
			break;
		}
		for (size_t k = 0; k < n_tables; k++) {
			size_t run = run_of(tr, n, tables[k]);
			int32_t r = run_next(tr, n, taken, run);
			if (r >= 0 && (assign[i] < 0 || r < assign[i])) {
				assign[i] = r;
				best_run = run;
			}
		}
		if (assign[i] >= 0) {
			taken[best_run]++;
			count++;
		}
		scratch_free(board, tables);
	}
	scratch_free(board, tr);
	scratch_free(board, taken);
	return count;
}

static int votes_for(const struct dmn_dt_board *b, const struct dmn_dt_device *d,
		     const struct dmn_dt_opp_ref *refs, unsigned n_refs,
		     uint32_t *levels, unsigned max)
{
	unsigned n = d->n_attachments;
	int32_t *doms = scratch_alloc(b, n, sizeof(*doms));
	int32_t *assign = scratch_alloc(b, n, sizeof(*assign));
	int err = doms && assign ? 0 : -ENOMEM;
	for (unsigned i = 0; !err && i < n; i++)
		doms[i] = d->attachments[i].domain;
	if (!err)
		err = dmn_dt_match_required(b, doms, n, refs, n_refs, assign);
	for (unsigned i = 0; err >= 0 && i < n && i < max; i++) {
		levels[i] = 0;
		if (assign[i] >= 0) {
			const struct dmn_dt_opp_ref *r = &refs[assign[i]];
			levels[i] =
			    b->opp_tables[r->table].entries[r->entry].level;
		}
	}
	scratch_free(b, doms);
	scratch_free(b, assign);
	return err < 0 ? err : (int)n;
}

int dmn_dt_device_opp_votes(const struct dmn_dt_board *board, unsigned device,
			unsigned entry, uint32_t *levels, unsigned max)
{
	if (!board || device >= board->n_devices || (max && !levels))
		return -EINVAL;
	const struct dmn_dt_device *d = &board->devices[device];
	if (d->opp_table < 0)
		return -ENOENT;
	const struct dmn_dt_opp_table *t = &board->opp_tables[d->opp_table];
	if (entry >= t->n_entries)
		return -ENOENT;
	const struct dmn_dt_opp *o = &t->entries[entry];
	return votes_for(board, d, o->required, o->n_required, levels, max);
}

int dmn_dt_device_fixed_votes(const struct dmn_dt_board *board, unsigned device,
			  uint32_t *levels, unsigned max)
{
	if (!board || device >= board->n_devices || (max && !levels))
		return -EINVAL;
	const struct dmn_dt_device *d = &board->devices[device];
	return votes_for(board, d, d->required, d->n_required, levels, max);
}
