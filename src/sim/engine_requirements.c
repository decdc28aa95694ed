/* SPDX-License-Identifier: MIT */
/* The board's device-to-device requirements, for the reports. */
#include "engine_internal.h"

#include <domino/dt.h>
#include <domino/opp.h>
#include <errno.h>
#include <stdlib.h>

/* Each requirement lists its table's owners, the devices whose table it
 * is (in device order): grouped by table first, so the cost is the size
 * of the lists, not requirements times devices. */
int dmn__sim_fill_requirements(struct dmn_sim *sim)
{
	const struct dmn_dt_board *b = sim->board;
	struct dmn_sim_report_store *s = &sim->report;
	unsigned n = b->n_requirements, nt = b->n_opp_tables;
	size_t n_owners = 0;
	unsigned *first = calloc((size_t)nt + 1, sizeof(*first));
	unsigned *by_table = calloc(b->n_devices ? b->n_devices : 1,
				    sizeof(*by_table));
	if (!first || !by_table)
		goto oom;
	for (unsigned d = 0; d < b->n_devices; d++)
		if (b->devices[d].opp_table >= 0)
			first[b->devices[d].opp_table + 1]++;
	for (unsigned t = 0; t < nt; t++)
		first[t + 1] += first[t];
	/* filling moves first[t] up to table t + 1's start: shift back */
	for (unsigned d = 0; d < b->n_devices; d++)
		if (b->devices[d].opp_table >= 0)
			by_table[first[b->devices[d].opp_table]++] = d;
	for (unsigned t = nt; t > 0; t--)
		first[t] = first[t - 1];
	first[0] = 0;
	for (unsigned i = 0; i < n; i++) {
		int32_t t = b->requirements[i].table;
		n_owners += first[t + 1] - first[t];
	}
	s->requirements = calloc(n ? n : 1, sizeof(*s->requirements));
	s->owners = calloc(n_owners ? n_owners : 1, sizeof(*s->owners));
	if (!s->requirements || !s->owners)
		goto oom;
	size_t used = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct dmn_dt_requirement *q = &b->requirements[i];
		struct dmn_report_requirement *r = &s->requirements[i];
		r->device = b->devices[q->device].name;
		r->table = b->opp_tables[q->table].path;
		r->owners = &s->owners[used];
		for (unsigned k = first[q->table]; k < first[q->table + 1]; k++)
			s->owners[used + r->n_owners++] =
			    b->devices[by_table[k]].name;
		used += r->n_owners;
	}
	free(first);
	free(by_table);
	s->model.requirements = s->requirements;
	s->model.n_requirements = n;
	return 0;
oom:
	free(first);
	free(by_table);
	return -ENOMEM;
}

/* The vote device @dev shows on its attachment @a (JSON, `explain`): as
 * cast, except that an owner of a required table votes the higher of
 * that and its effective entry's vote there (docs/device-tree.md,
 * Device-to-device requirements, as dmn_opp_device_vote and the library's
 * moves count them): the cast is its own latest word, a `vote` or its
 * `rate`'s entry (note_rate_votes; the latest wins: docs/semantics.md, The
 * OPP layer), so `explain` names it when it sets a domain's pstate. */
uint32_t dmn__sim_shown_vote(const struct dmn_sim *sim, unsigned dev, unsigned a)
{
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_device *d = &b->devices[dev];
	uint32_t vote = sim->devs[dev].cast[a], id = DMN_OPP_ID_NONE;
	bool owner = false;
	for (unsigned i = 0; d->opp_table >= 0 && i < b->n_requirements; i++)
		owner |= b->requirements[i].table == d->opp_table;
	dmn_device_t h = sim->inst->devices[dev];
	if (owner && !dmn_opp_device_current(sim->ctx, h, &id, NULL) &&
	    id != DMN_OPP_ID_NONE &&
	    dmn_opp_device_votes(sim->ctx, h, id, sim->vote_scratch,
				 d->n_attachments) > (int)a &&
	    sim->vote_scratch[a] > vote)
		vote = sim->vote_scratch[a];
	return vote;
}
