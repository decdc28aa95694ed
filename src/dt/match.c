/* SPDX-License-Identifier: MIT */
/*
 * The two-pass required-OPP matching rule of DESIGN §1, on the model.
 *
 * The OPP layer applies the same rule to bound devices (opp.h); the loader
 * needs it on its own for what the OPP layer never sees: a provider's
 * required-opps against its parents (link floors), a device-level
 * required-opps on a device without a table (fixed votes), and lint's
 * "matches nothing" findings.
 */
#include "dt_internal.h"

#include <errno.h>
#include <stdint.h>
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

/* Does some proper ancestor of @dom own @table? Iterative, each ancestor
 * visited once (diamonds in the DAG are common: i.MX blk-ctrl), in a list
 * that grows with what it finds; no limit on depth or count. 1, 0 or
 * -ENOMEM. */
static int ancestor_owns(const struct dmn_dt_board *b, int32_t dom, int32_t table)
{
	const struct dmn_dt_domain *d = &b->domains[dom];
	if (!d->n_parents)
		return 0;
	size_t cap = d->n_parents + 8, n_seen = 0, next = 0;
	int32_t *seen = scratch_alloc(b, cap, sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	for (unsigned i = 0; i < d->n_parents; i++)
		seen[n_seen++] = d->parents[i];
	int found = 0;
	while (next < n_seen && !found) {
		const struct dmn_dt_domain *a = &b->domains[seen[next++]];
		if (a->opp_table == table) {
			found = 1;
			break;
		}
		for (unsigned i = 0; i < a->n_parents; i++) {
			bool dup = false;
			for (size_t k = 0; k < n_seen && !dup; k++)
				dup = seen[k] == a->parents[i];
			if (dup)
				continue;
			if (n_seen == cap) {
				int32_t *bigger =
				    scratch_alloc(b, 2 * cap, sizeof(*seen));
				if (!bigger) {
					found = -ENOMEM;
					break;
				}
				memcpy(bigger, seen, n_seen * sizeof(*seen));
				scratch_free(b, seen);
				seen = bigger;
				cap *= 2;
			}
			seen[n_seen++] = a->parents[i];
		}
	}
	scratch_free(b, seen);
	return found;
}

/* A ref into a table without levels is a device-to-device requirement,
 * never a domain's vote. */
static bool votes_level(const struct dmn_dt_board *b, const struct dmn_dt_opp_ref *r)
{
	return b->opp_tables[r->table].entries[r->entry].has_level;
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
	bool *used = scratch_alloc(board, n_refs, sizeof(*used));
	if (!used)
		return -ENOMEM;
	for (unsigned r = 0; r < n_refs; r++)
		used[r] = !votes_level(board, &refs[r]);
	int count = 0;

	for (unsigned i = 0; i < n_domains; i++) {
		assign[i] = -1;
		int32_t table = board->domains[domains[i]].opp_table;
		if (table < 0)
			continue;
		for (unsigned r = 0; r < n_refs; r++)
			if (!used[r] && refs[r].table == table) {
				used[r] = true;
				assign[i] = (int32_t)r;
				count++;
				break;
			}
	}
	for (unsigned i = 0; i < n_domains && count >= 0; i++) {
		if (assign[i] >= 0)
			continue;
		for (unsigned r = 0; r < n_refs; r++) {
			if (used[r])
				continue;
			int own = ancestor_owns(board, domains[i], refs[r].table);
			if (own < 0) {
				count = own;
				break;
			}
			if (own) {
				used[r] = true;
				assign[i] = (int32_t)r;
				count++;
				break;
			}
		}
	}
	scratch_free(board, used);
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
