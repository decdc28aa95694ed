/* SPDX-License-Identifier: MIT */
/* The board's device-to-device requirements, for the reports. */
#include "engine_internal.h"

#include <domino/dt.h>
#include <errno.h>
#include <stdlib.h>

int dmn__sim_fill_requirements(struct dmn_sim *sim)
{
	const struct dmn_dt_board *b = sim->board;
	struct dmn_sim_report_store *s = &sim->report;
	unsigned n = b->n_requirements, n_owners = 0;
	for (unsigned i = 0; i < n; i++)
		for (unsigned d = 0; d < b->n_devices; d++)
			n_owners += b->devices[d].opp_table ==
				    b->requirements[i].table;
	s->requirements = calloc(n ? n : 1, sizeof(*s->requirements));
	s->owners = calloc(n_owners ? n_owners : 1, sizeof(*s->owners));
	if (!s->requirements || !s->owners)
		return -ENOMEM;
	unsigned used = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct dmn_dt_requirement *q = &b->requirements[i];
		struct dmn_report_requirement *r = &s->requirements[i];
		r->device = b->devices[q->device].name;
		r->table = b->opp_tables[q->table].path;
		r->owners = &s->owners[used];
		for (unsigned d = 0; d < b->n_devices; d++)
			if (b->devices[d].opp_table == q->table)
				s->owners[used + r->n_owners++] =
				    b->devices[d].name;
		used += r->n_owners;
	}
	s->model.requirements = s->requirements;
	s->model.n_requirements = n;
	return 0;
}
