/* SPDX-License-Identifier: MIT */
/*
 * Per-domain timelines rebuilt from a simulation's events: the trace and
 * SVG writers draw the same periods, so they cannot disagree about what
 * happened. Each domain starts from its initial state (initial_on,
 * initial_idle_state, initial_pstate) at time 0.
 */
#include "report_internal.h"
#include "../core/debug.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int same_state(const struct tl_period *p, int on, const char *idle)
{
	if (p->on != on)
		return 0;
	if (on)
		return 1;
	if (!p->idle_state || !idle)
		return p->idle_state == idle;
	return !strcmp(p->idle_state, idle);
}

/* Enter a power state at @t; the last period is the open one. A period
 * that would last no time is replaced instead of kept, and a return to
 * the state before it merges with that period, so periods always have a
 * length and neighbours always differ. */
static void enter(struct tl_domain *d, uint64_t t, int on, const char *idle)
{
	DMN_ASSERT(d->n_periods >= 1 && "the initial period is never taken back");
	struct tl_period *cur = &d->periods[d->n_periods - 1];

	if (same_state(cur, on, idle))
		return;
	if (t <= cur->start) {
		if (d->n_periods > 1 && same_state(cur - 1, on, idle)) {
			d->n_periods--;
			return;
		}
		cur->on = on;
		cur->idle_state = on ? NULL : idle;
		return;
	}
	cur->end = t;
	cur[1].start = t;
	cur[1].on = on;
	cur[1].idle_state = on ? NULL : idle;
	d->n_periods++;
}

static void step(struct tl_domain *d, uint64_t t, uint32_t level)
{
	DMN_ASSERT(d->n_steps >= 1 && "steps[0] is never taken back");
	struct tl_step *cur = &d->steps[d->n_steps - 1];

	if (cur->level == level)
		return;
	if (t <= cur->time) {
		if (d->n_steps > 1 && cur[-1].level == level) {
			d->n_steps--;
			return;
		}
		cur->level = level;
		return;
	}
	cur[1].time = t;
	cur[1].level = level;
	d->n_steps++;
}

static int changes_power(enum dmn_report_event_kind k)
{
	return k == DMN_REPORT_EV_POWER_ON || k == DMN_REPORT_EV_POWER_OFF;
}

/* Open a span at @t (one of no length is dropped when closed). */
static void span_open(struct tl_span *s, unsigned *n, uint64_t t)
{
	s[*n].start = t;
	s[*n].end = UINT64_MAX;
	(*n)++;
}

static void span_close(struct tl_span *s, unsigned *n, uint64_t t)
{
	if (!*n || s[*n - 1].end != UINT64_MAX)
		return;
	if (t <= s[*n - 1].start)
		(*n)--;
	else
		s[*n - 1].end = t;
}

/* One hwmode event: the domain is in HW mode while any attachment is. */
static void hw_event(struct tl_domain *t, const struct dmn_report_event *e)
{
	if (e->new_level && !e->old_level) {
		if (t->hw_atts++ == 0)
			span_open(t->hw, &t->n_hw, e->time_ns);
	} else if (!e->new_level && e->old_level && t->hw_atts) {
		if (--t->hw_atts == 0)
			span_close(t->hw, &t->n_hw, e->time_ns);
	}
}

int dmn__rpt_timeline_build(struct dmn_report_timeline *tl, const struct dmn_report_model *m,
		       const struct dmn_report_index *ix)
{
	unsigned nd = m->n_domains, ne = m->events ? m->n_events : 0;
	size_t n_periods = nd, n_steps = nd, pp = 0, sp = 0, n_hw = 0, hp = 0;
	size_t n_sleep = 0;

	memset(tl, 0, sizeof(*tl));
	tl->end = m->end_ns;
	if (!tl->end && ne)
		tl->end = m->events[ne - 1].time_ns;
	tl->domains = calloc(nd ? nd : 1, sizeof(*tl->domains));
	tl->event_domain = malloc((ne ? ne : 1) * sizeof(*tl->event_domain));
	if (!tl->domains || !tl->event_domain)
		goto nomem;

	/* Pass 1: which domain each event is about, and how many periods and
	 * steps each domain can have at most (counted in n_periods/n_steps
	 * for now), so that one block of each is allocated for all. */
	for (unsigned i = 0; i < ne; i++) {
		const struct dmn_report_event *e = &m->events[i];
		int d = dmn__rpt_index_find(ix, e->domain);
		tl->event_domain[i] = d;
		if (e->kind == DMN_REPORT_EV_SYSTEM_SLEEP && e->time_ns <= tl->end)
			n_sleep++;
		if (d < 0 || e->time_ns > tl->end)
			continue;
		if (e->kind == DMN_REPORT_EV_HWMODE) {
			tl->domains[d].n_hw++;
			n_hw++;
		} else if (changes_power(e->kind)) {
			tl->domains[d].n_periods++;
			n_periods++;
		} else if (e->kind == DMN_REPORT_EV_PSTATE) {
			tl->domains[d].n_steps++;
			n_steps++;
		}
	}
	tl->period_block =
	    malloc((n_periods ? n_periods : 1) * sizeof(*tl->period_block));
	tl->step_block =
	    malloc((n_steps ? n_steps : 1) * sizeof(*tl->step_block));
	tl->hw_block = malloc((n_hw ? n_hw : 1) * sizeof(*tl->hw_block));
	tl->sleep = malloc((n_sleep ? n_sleep : 1) * sizeof(*tl->sleep));
	if (!tl->period_block || !tl->step_block || !tl->hw_block ||
	    !tl->sleep)
		goto nomem;
	for (unsigned d = 0; d < nd; d++) {
		tl->domains[d].periods = tl->period_block + pp;
		tl->domains[d].steps = tl->step_block + sp;
		tl->domains[d].hw = tl->hw_block + hp;
		pp += 1 + tl->domains[d].n_periods;
		sp += 1 + tl->domains[d].n_steps;
		hp += tl->domains[d].n_hw;
		tl->domains[d].n_hw = 0;
	}
	DMN_ASSERT(pp == n_periods && sp == n_steps && hp == n_hw &&
		   "each domain's slice lies inside its block");

	for (unsigned d = 0; d < nd; d++) {
		const struct dmn_report_domain *dom = &m->domains[d];
		struct tl_domain *t = &tl->domains[d];
		t->periods[0].start = 0;
		t->periods[0].on = dom->initial_on;
		t->periods[0].idle_state =
		    dom->initial_on ? NULL : dom->initial_idle_state;
		t->n_periods = 1;
		t->steps[0].time = 0;
		t->steps[0].level = dom->initial_pstate;
		t->n_steps = 1;
	}

	/* Pass 2: replay. Failures change nothing by construction: an unsafe
	 * one was rolled back, a safe one left the domain where it was. */
	for (unsigned i = 0; i < ne; i++) {
		const struct dmn_report_event *e = &m->events[i];
		int d = tl->event_domain[i];
		if (e->time_ns > tl->end)
			continue;
		if (e->kind == DMN_REPORT_EV_SYSTEM_SLEEP)
			span_open(tl->sleep, &tl->n_sleep, e->time_ns);
		else if (e->kind == DMN_REPORT_EV_SYSTEM_WAKE)
			span_close(tl->sleep, &tl->n_sleep, e->time_ns);
		if (d < 0)
			continue;
		struct tl_domain *t = &tl->domains[d];
		if (e->kind == DMN_REPORT_EV_HWMODE)
			hw_event(t, e);
		else if (e->kind == DMN_REPORT_EV_POWER_ON)
			enter(t, e->time_ns, 1, NULL);
		else if (e->kind == DMN_REPORT_EV_POWER_OFF)
			enter(t, e->time_ns, 0, e->idle_state);
		else if (e->kind == DMN_REPORT_EV_PSTATE)
			step(t, e->time_ns, e->new_level);
	}

	for (unsigned d = 0; d < nd; d++) {
		const struct dmn_report_domain *dom = &m->domains[d];
		struct tl_domain *t = &tl->domains[d];
		t->periods[t->n_periods - 1].end = tl->end;
		span_close(t->hw, &t->n_hw, tl->end);
		t->max_level = 0;
		for (unsigned s = 0; s < t->n_steps; s++)
			if (t->steps[s].level > t->max_level)
				t->max_level = t->steps[s].level;
		if (dom->level_values)
			for (unsigned l = 0; l < dom->n_levels; l++)
				if (dom->level_values[l] > t->max_level)
					t->max_level = dom->level_values[l];
	}
	span_close(tl->sleep, &tl->n_sleep, tl->end);
	return 0;

nomem:
	dmn__rpt_timeline_free(tl);
	return -ENOMEM;
}

void dmn__rpt_timeline_free(struct dmn_report_timeline *tl)
{
	free(tl->period_block);
	free(tl->step_block);
	free(tl->hw_block);
	free(tl->sleep);
	free(tl->domains);
	free(tl->event_domain);
	memset(tl, 0, sizeof(*tl));
}
