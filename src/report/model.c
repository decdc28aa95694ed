/* SPDX-License-Identifier: MIT */
/* Look-ups in a report model shared by the writers. */
#include "report_internal.h"
#include "../core/bsearch.h"
#include "../core/debug.h"

#include <domino/context.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *domain_name(const struct dmn_report_model *m, unsigned i)
{
	return m->domains[i].name ? m->domains[i].name : "";
}

/* qsort has no context argument in C11; the model is threaded through a
 * small array of (name, position) pairs instead of a global. */
struct named {
	const char *name;
	unsigned pos;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

int dmn__rpt_index_build(struct dmn_report_index *ix, const struct dmn_report_model *m)
{
	struct named *tmp;
	unsigned n = m->n_domains;

	ix->m = m;
	ix->by_name = NULL;
	if (n == 0)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	ix->by_name = malloc(n * sizeof(*ix->by_name));
	if (!tmp || !ix->by_name) {
		free(tmp);
		free(ix->by_name);
		ix->by_name = NULL;
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		tmp[i].name = domain_name(m, i);
		tmp[i].pos = i;
	}
	qsort(tmp, n, sizeof(*tmp), cmp_named);
	for (unsigned i = 0; i < n; i++)
		ix->by_name[i] = tmp[i].pos;
	free(tmp);
	/* dmn__rpt_index_find's binary search relies on it */
	for (unsigned i = 1; DMN_CHECKS && i < n; i++)
		DMN_ASSERT(strcmp(domain_name(m, ix->by_name[i - 1]),
				  domain_name(m, ix->by_name[i])) <= 0);
	return 0;
}

void dmn__rpt_index_free(struct dmn_report_index *ix)
{
	free(ix->by_name);
	ix->by_name = NULL;
}

static bool name_before(const void *base, size_t i, const void *key)
{
	const struct dmn_report_index *ix = base;
	return strcmp(domain_name(ix->m, ix->by_name[i]), key) < 0;
}

int dmn__rpt_index_find(const struct dmn_report_index *ix, const char *name)
{
	if (!name || !ix->by_name)
		return -1;
	/* Lower bound, so that a duplicated name finds its first domain. */
	size_t lo = dmn__lower_bound(ix->m->n_domains, ix, name, name_before);
	if (lo < ix->m->n_domains &&
	    !strcmp(domain_name(ix->m, ix->by_name[lo]), name))
		return (int)ix->by_name[lo];
	return -1;
}

/* A level and where it is in its domain's table, to sort by both. */
struct placed {
	uint32_t value;
	unsigned pos;
};

static int cmp_placed(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Whether @d's level values never go down: then a binary search on them
 * finds a value's first position, and the table needs no order of its own. */
static int levels_ascend(const struct dmn_report_domain *d)
{
	for (unsigned i = 1; i < d->n_levels; i++)
		if (d->level_values[i] < d->level_values[i - 1])
			return 0;
	return 1;
}

static int has_levels(const struct dmn_report_domain *d)
{
	return d->levels && d->level_values && d->n_levels;
}

int dmn__rpt_levels_build(struct dmn_report_levels *lv,
			  const struct dmn_report_model *m)
{
	size_t n = 0, at = 0;
	struct placed *tmp = NULL;

	lv->m = m;
	lv->order = NULL;
	lv->block = NULL;
	if (!m->domains || !m->n_domains)
		return 0;
	for (unsigned i = 0; i < m->n_domains; i++)
		if (has_levels(&m->domains[i]) && !levels_ascend(&m->domains[i]))
			n += m->domains[i].n_levels;
	if (!n) /* the usual case: every table in level order */
		return 0;
	lv->order = calloc(m->n_domains, sizeof(*lv->order));
	lv->block = malloc(n * sizeof(*lv->block));
	tmp = malloc(n * sizeof(*tmp));
	if (!lv->order || !lv->block || !tmp) {
		free(tmp);
		dmn__rpt_levels_free(lv);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < m->n_domains; i++) {
		const struct dmn_report_domain *d = &m->domains[i];
		if (!has_levels(d) || levels_ascend(d))
			continue;
		for (unsigned k = 0; k < d->n_levels; k++)
			tmp[k] = (struct placed){d->level_values[k], k};
		qsort(tmp, d->n_levels, sizeof(*tmp), cmp_placed);
		lv->order[i] = &lv->block[at];
		for (unsigned k = 0; k < d->n_levels; k++)
			lv->block[at++] = tmp[k].pos;
	}
	DMN_ASSERT(at == n && "the block holds each unordered table once");
	free(tmp);
	return 0;
}

void dmn__rpt_levels_free(struct dmn_report_levels *lv)
{
	free(lv->order);
	free(lv->block);
	lv->order = NULL;
	lv->block = NULL;
}

/* A domain's levels in value order: through @order, or as they stand. */
struct levels_in_order {
	const uint32_t *values;
	const unsigned *order; /* or NULL */
};

static bool level_before(const void *base, size_t i, const void *key)
{
	const struct levels_in_order *v = base;
	return v->values[v->order ? v->order[i] : i] < *(const uint32_t *)key;
}

const char *dmn__rpt_level_name(const struct dmn_report_levels *lv,
				const struct dmn_report_domain *d, uint32_t level)
{
	if (!has_levels(d))
		return NULL;
	const struct dmn_report_model *m = lv ? lv->m : NULL;
	if (!m || d < m->domains || d >= m->domains + m->n_domains) {
		for (unsigned i = 0; i < d->n_levels; i++)
			if (d->level_values[i] == level)
				return d->levels[i];
		return NULL;
	}
	/* The first position holding @level: in value order, ties by
	 * position. */
	const unsigned *order = lv->order ? lv->order[d - m->domains] : NULL;
	/* without an order of its own the binary search needs ascending values */
	DMN_ASSERT(order || levels_ascend(d));
	struct levels_in_order v = {d->level_values, order};
	size_t lo = dmn__lower_bound(d->n_levels, &v, &level, level_before);
	size_t at = lo < d->n_levels ? (order ? order[lo] : lo) : 0;
	return lo < d->n_levels && d->level_values[at] == level ? d->levels[at]
								: NULL;
}

const char *dmn__rpt_pstate_name(const struct dmn_report_domain *d)
{
	return d->pstate_name ? d->pstate_name
			      : dmn__rpt_level_name(NULL, d, d->pstate);
}

int dmn__rpt_is_simulation(const struct dmn_report_model *m)
{
	if (m->events || m->n_events || m->end_ns)
		return 1;
	for (unsigned i = 0; i < m->n_domains; i++)
		if (m->domains[i].has_stats)
			return 1;
	return 0;
}

const char *dmn__rpt_event_kind_name(enum dmn_report_event_kind kind)
{
	switch (kind) {
	case DMN_REPORT_EV_POWER_ON:
		return "power_on";
	case DMN_REPORT_EV_POWER_OFF:
		return "power_off";
	case DMN_REPORT_EV_PSTATE:
		return "pstate";
	case DMN_REPORT_EV_STAY_ON:
		return "stay_on";
	case DMN_REPORT_EV_FAILURE:
		return "failure";
	case DMN_REPORT_EV_RATE:
		return "rate";
	case DMN_REPORT_EV_COMMAND_ERROR:
		return "command_error";
	case DMN_REPORT_EV_EXPECT_FAILED:
		return "expect_failed";
	case DMN_REPORT_EV_EXPLAIN:
		return "explain";
	case DMN_REPORT_EV_HWMODE:
		return "hwmode";
	case DMN_REPORT_EV_SYSTEM_SLEEP:
		return "system_sleep";
	case DMN_REPORT_EV_SYSTEM_WAKE:
		return "system_wake";
	}
	return "unknown";
}

const char *dmn__rpt_error_name(int error)
{
	return dmn_errno_name(error > 0 ? -error : error);
}
