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

#define MAX_DOMAINS 64
#define MAX_REFS 128
#define MAX_WALK 256 /* ancestors visited per domain; real trees have < 10 */

/* Does some proper ancestor of @dom own @table? Iterative, each ancestor
 * visited once (diamonds in the DAG are common: i.MX blk-ctrl). */
static bool ancestor_owns(const struct dt_board *b, int32_t dom, int32_t table)
{
	int32_t seen[MAX_WALK];
	unsigned n_seen = 0, next = 0;
	const struct dt_domain *d = &b->domains[dom];
	for (unsigned i = 0; i < d->n_parents && n_seen < MAX_WALK; i++)
		seen[n_seen++] = d->parents[i];
	while (next < n_seen) {
		const struct dt_domain *a = &b->domains[seen[next++]];
		if (a->opp_table == table)
			return true;
		for (unsigned i = 0; i < a->n_parents && n_seen < MAX_WALK;
		     i++) {
			bool dup = false;
			for (unsigned k = 0; k < n_seen && !dup; k++)
				dup = seen[k] == a->parents[i];
			if (!dup)
				seen[n_seen++] = a->parents[i];
		}
	}
	return false;
}

int dt_match_required(const struct dt_board *board, const int32_t *domains,
		      unsigned n_domains, const struct dt_opp_ref *refs,
		      unsigned n_refs, int32_t *assign)
{
	if (!board || (n_domains && (!domains || !assign)) ||
	    (n_refs && !refs) || n_domains > MAX_DOMAINS)
		return -EINVAL;
	for (unsigned i = 0; i < n_domains; i++)
		if (domains[i] < 0 || (unsigned)domains[i] >= board->n_domains)
			return -EINVAL;
	/* refs beyond MAX_REFS (no real node has more than a handful) are
	 * never taken, so they count as unmatched */
	bool used[MAX_REFS];
	unsigned limit = n_refs < MAX_REFS ? n_refs : MAX_REFS;
	for (unsigned r = 0; r < limit; r++)
		used[r] = false;
	int count = 0;

	for (unsigned i = 0; i < n_domains; i++) {
		assign[i] = -1;
		int32_t table = board->domains[domains[i]].opp_table;
		if (table < 0)
			continue;
		for (unsigned r = 0; r < limit; r++)
			if (!used[r] && refs[r].table == table) {
				used[r] = true;
				assign[i] = (int32_t)r;
				count++;
				break;
			}
	}
	for (unsigned i = 0; i < n_domains; i++) {
		if (assign[i] >= 0)
			continue;
		for (unsigned r = 0; r < limit; r++)
			if (!used[r] &&
			    ancestor_owns(board, domains[i], refs[r].table)) {
				used[r] = true;
				assign[i] = (int32_t)r;
				count++;
				break;
			}
	}
	return count;
}

static int votes_for(const struct dt_board *b, const struct dt_device *d,
		     const struct dt_opp_ref *refs, unsigned n_refs,
		     uint32_t *levels, unsigned max)
{
	int32_t doms[MAX_DOMAINS] = {0}, assign[MAX_DOMAINS];
	unsigned n =
	    d->n_attachments < MAX_DOMAINS ? d->n_attachments : MAX_DOMAINS;
	for (unsigned i = 0; i < n; i++)
		doms[i] = d->attachments[i].domain;
	int err = dt_match_required(b, doms, n, refs, n_refs, assign);
	if (err < 0)
		return err;
	for (unsigned i = 0; i < d->n_attachments && i < max; i++) {
		levels[i] = 0;
		if (i < n && assign[i] >= 0) {
			const struct dt_opp_ref *r = &refs[assign[i]];
			levels[i] =
			    b->opp_tables[r->table].entries[r->entry].level;
		}
	}
	return (int)d->n_attachments;
}

int dt_device_opp_votes(const struct dt_board *board, unsigned device,
			unsigned entry, uint32_t *levels, unsigned max)
{
	if (!board || device >= board->n_devices || (max && !levels))
		return -EINVAL;
	const struct dt_device *d = &board->devices[device];
	if (d->opp_table < 0)
		return -ENOENT;
	const struct dt_opp_table *t = &board->opp_tables[d->opp_table];
	if (entry >= t->n_entries)
		return -ENOENT;
	const struct dt_opp *o = &t->entries[entry];
	return votes_for(board, d, o->required, o->n_required, levels, max);
}

int dt_device_fixed_votes(const struct dt_board *board, unsigned device,
			  uint32_t *levels, unsigned max)
{
	if (!board || device >= board->n_devices || (max && !levels))
		return -EINVAL;
	const struct dt_device *d = &board->devices[device];
	return votes_for(board, d, d->required, d->n_required, levels, max);
}
