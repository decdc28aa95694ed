/* SPDX-License-Identifier: MIT */
/* A board's SCMI numbering (docs/scmi.md, Numbering), from the loader's
 * model. */
#include <domino/dt.h>
#include <domino/scmi.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int by_level(const void *x, const void *y)
{
	const struct dmn_scmi_perf_level *a = x, *b = y;
	return a->level < b->level ? -1 : a->level > b->level;
}

/* The distinct available levels of @t, ascending, into @out; returns the
 * count. Power: the entry's opp-microwatt summed over supplies, in mW
 * (power_cost) and uW (power_uw), each saturating at UINT32_MAX. */
static unsigned table_levels(const struct dmn_dt_opp_table *t,
			     struct dmn_scmi_perf_level *out)
{
	unsigned n = 0;
	for (unsigned e = 0; e < t->n_entries; e++) {
		const struct dmn_dt_opp *o = &t->entries[e];
		if (!o->available || !o->has_level)
			continue;
		uint64_t uw = 0;
		for (unsigned k = 0; k < o->n_microwatt; k++)
			uw += o->microwatt[k];
		out[n].level = o->level;
		out[n].power_cost =
		    (uint32_t)(uw / 1000 > UINT32_MAX ? UINT32_MAX : uw / 1000);
		out[n].latency_us = 0;
		out[n].power_uw = (uint32_t)(uw > UINT32_MAX ? UINT32_MAX : uw);
		n++;
	}
	/* Entries sharing a level (and differing in frequency) are one SCMI
	 * level: one of them is kept. */
	qsort(out, n, sizeof(*out), by_level);
	unsigned m = 0;
	for (unsigned k = 0; k < n; k++)
		if (!m || out[k].level != out[m - 1].level)
			out[m++] = out[k];
	return m;
}

int dmn_scmi_board_map(const struct dmn_dt_board *b, const struct dmn_dt_instance *inst,
		   struct dmn_scmi_board_map *out)
{
	if (!b || !inst || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	size_t pool = 0;
	for (unsigned i = 0; i < b->n_domains; i++)
		if (b->domains[i].opp_table >= 0)
			pool +=
			    b->opp_tables[b->domains[i].opp_table].n_entries;
	out->power =
	    calloc(b->n_domains ? b->n_domains : 1, sizeof(*out->power));
	out->perf = calloc(b->n_domains ? b->n_domains : 1, sizeof(*out->perf));
	out->perf_board =
	    calloc(b->n_domains ? b->n_domains : 1, sizeof(*out->perf_board));
	out->level_pool = calloc(pool ? pool : 1, sizeof(*out->level_pool));
	if (!out->power || !out->perf || !out->perf_board || !out->level_pool) {
		dmn_scmi_board_map_free(out);
		return -ENOMEM;
	}
	size_t used = 0;
	for (unsigned i = 0; i < b->n_domains; i++) {
		const struct dmn_dt_domain *d = &b->domains[i];
		out->power[i].domain = inst->domains[i];
		out->power[i].name = d->name;
		if (d->opp_table < 0)
			continue;
		struct dmn_scmi_perf_level *levels = out->level_pool + used;
		unsigned n = table_levels(&b->opp_tables[d->opp_table], levels);
		if (!n)
			continue;
		used += n;
		struct dmn_scmi_perf_domain *p = &out->perf[out->n_perf];
		p->domain = inst->domains[i];
		p->name = d->name;
		p->levels = levels;
		p->n_levels = n;
		out->perf_board[out->n_perf++] = i;
	}
	out->n_power = b->n_domains;
	return 0;
}

void dmn_scmi_board_map_free(struct dmn_scmi_board_map *map)
{
	if (!map)
		return;
	free(map->power);
	free(map->perf);
	free(map->perf_board);
	free(map->level_pool);
	memset(map, 0, sizeof(*map));
}
