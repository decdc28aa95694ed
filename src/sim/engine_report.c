/* SPDX-License-Identifier: MIT */
/* The simulation's state, events and statistics as a report model. */
#include "engine_internal.h"
#include "../core/bsearch.h"

#include <domino/idle.h>
#include <domino/lifecycle.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dmn__sim_report_free(struct dmn_sim *sim)
{
	struct dmn_sim_report_store *s = &sim->report;
	free(s->domains);
	free(s->names);
	free(s->devices);
	free(s->idle);
	free(s->pstates);
	free(s->levels);
	free(s->level_values);
	for (unsigned i = 0; i < s->n_warnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->requirements);
	free(s->owners);
	free(s->device_rates);
	free(s->rates);
	free(s->awaiting);
	free(s->sleep_ns);
	free(s->provider_paths);
	free(s->provider_text);
	free(s->energy_parts);
	free(s->power_states);
	free(s->power_steps);
	memset(s, 0, sizeof(*s));
}

/* A provider named by its path (no label) whose one domain (no cells) is
 * named by it too: that name is the path. */
static const char *path_as_name(const struct dmn_dt_board *b, unsigned p)
{
	const struct dmn_dt_provider *v = &b->providers[p];
	if (v->label || v->cells || !v->n_domains)
		return NULL;
	return b->domains[v->first_domain].name;
}

/* Each provider's path, built once per report (the board keeps segments,
 * not paths: deep unlabelled nesting would be quadratic). 0 or -ENOMEM. */
static int fill_provider_paths(struct dmn_sim *sim)
{
	struct dmn_sim_report_store *s = &sim->report;
	const struct dmn_dt_board *b = sim->board;
	size_t total = 0;
	for (unsigned p = 0; p < b->n_providers; p++)
		if (!path_as_name(b, p))
			total += dmn_dt_provider_path(b, p, NULL, 0) + 1;
	s->provider_paths = calloc(b->n_providers ? b->n_providers : 1,
				   sizeof(*s->provider_paths));
	s->provider_text = malloc(total ? total : 1);
	if (!s->provider_paths || !s->provider_text)
		return -ENOMEM;
	char *at = s->provider_text;
	for (unsigned p = 0; p < b->n_providers; p++) {
		s->provider_paths[p] = path_as_name(b, p);
		if (s->provider_paths[p])
			continue;
		s->provider_paths[p] = at;
		at += dmn_dt_provider_path(b, p, at,
				       total - (size_t)(at - s->provider_text)) + 1;
	}
	return 0;
}

/* An OPP entry with a level: the level and the entry's position. */
struct placed {
	uint32_t level;
	unsigned pos;
};

/* Every OPP table's entries with a level, each table's sorted by (level,
 * position) in its own run: level_name in O(log n), not a scan of the
 * table per pstate (quadratic on a table of 20,000 levels). */
struct level_index {
	struct placed *sorted;
	size_t *first; /* per table, where its run starts; then the end */
};

static int by_placed(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void level_index_free(struct level_index *ix)
{
	free(ix->sorted);
	free(ix->first);
}

static int level_index_build(struct level_index *ix, const struct dmn_dt_board *b)
{
	size_t n = 0;
	for (unsigned t = 0; t < b->n_opp_tables; t++)
		n += b->opp_tables[t].n_entries;
	ix->sorted = malloc((n ? n : 1) * sizeof(*ix->sorted));
	ix->first = malloc(((size_t)b->n_opp_tables + 1) * sizeof(*ix->first));
	if (!ix->sorted || !ix->first) {
		level_index_free(ix);
		return -ENOMEM;
	}
	n = 0;
	for (unsigned t = 0; t < b->n_opp_tables; t++) {
		const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
		ix->first[t] = n;
		for (unsigned k = 0; k < tab->n_entries; k++)
			if (tab->entries[k].has_level)
				ix->sorted[n++] = (struct placed){
				    tab->entries[k].level, k};
		qsort(&ix->sorted[ix->first[t]], n - ix->first[t],
		      sizeof(*ix->sorted), by_placed);
	}
	ix->first[b->n_opp_tables] = n;
	return 0;
}

static bool placed_before(const void *base, size_t i, const void *key)
{
	const struct placed *v = base;
	return v[i].level < *(const uint32_t *)key;
}

/* The OPP entry name of @level in the domain's table, e.g. "opp-nom":
 * its first entry of that level. */
static const char *level_name(const struct level_index *ix,
			      const struct dmn_dt_board *b,
			      const struct dmn_dt_domain *d, uint32_t level)
{
	if (d->opp_table < 0 || !level)
		return NULL;
	const struct dmn_dt_opp_table *t = &b->opp_tables[d->opp_table];
	size_t first = ix->first[d->opp_table], end = ix->first[d->opp_table + 1];
	size_t lo = first + dmn__lower_bound(end - first, &ix->sorted[first],
					     &level, placed_before);
	if (lo == end || ix->sorted[lo].level != level)
		return NULL;
	/* The label says what the level means (rpmhpd_opp_low_svs); the
	 * node name often does not (opp3). */
	const struct dmn_dt_opp *e = &t->entries[ix->sorted[lo].pos];
	return e->label ? e->label : e->name;
}

/* Counts of what every array needs, to allocate each once. */
struct sizes {
	size_t names, devices, idle, pstates, levels;
};

static void count(const struct dmn_sim *sim, struct sizes *n)
{
	const struct dmn_dt_board *b = sim->board;
	memset(n, 0, sizeof(*n));
	for (unsigned i = 0; i < b->n_domains; i++) {
		const struct dmn_dt_domain *d = &b->domains[i];
		struct dmn_domain_info info;
		struct dmn_domain_stats st;
		dmn_domain_info(sim->ctx, sim->inst->domains[i], &info);
		dmn_domain_stats(sim->ctx, sim->inst->domains[i], &st);
		n->names += info.n_parents + info.n_children;
		n->devices += info.n_attachments;
		n->idle += d->n_idle_states;
		n->pstates += st.n_pstates;
		if (d->opp_table >= 0)
			n->levels += b->opp_tables[d->opp_table].n_entries;
	}
}

/* Every board attachment as (device, domain) -> its index in the device's
 * list, sorted: fill_devices finds one in O(log) instead of scanning the
 * device's attachments for each of its domains (quadratic for a device
 * of many domains). */
struct att_key {
	uint32_t dev, dom, a;
};

static int by_dev_dom(const void *x, const void *y)
{
	const struct att_key *p = x, *q = y;
	if (p->dev != q->dev)
		return (p->dev > q->dev) - (p->dev < q->dev);
	return (p->dom > q->dom) - (p->dom < q->dom);
}

static struct att_key *att_index(const struct dmn_dt_board *b, size_t *n)
{
	size_t total = 0;
	for (unsigned d = 0; d < b->n_devices; d++)
		total += b->devices[d].n_attachments;
	struct att_key *k = malloc((total ? total : 1) * sizeof(*k));
	if (!k)
		return NULL;
	*n = 0;
	for (unsigned d = 0; d < b->n_devices; d++)
		for (unsigned a = 0; a < b->devices[d].n_attachments; a++)
			k[(*n)++] = (struct att_key){
			    d, (uint32_t)b->devices[d].attachments[a].domain, a};
	qsort(k, *n, sizeof(*k), by_dev_dom);
	return k;
}

static const struct att_key *att_find(const struct att_key *k, size_t n,
				      unsigned dev, unsigned dom)
{
	struct att_key want = {dev, dom, 0};
	return bsearch(&want, k, n, sizeof(*k), by_dev_dom);
}

static int fill_devices(struct dmn_sim *sim, unsigned i, struct dmn_report_device *out,
			unsigned *n, const struct att_key *keys, size_t n_keys)
{
	const struct dmn_dt_board *b = sim->board;
	dmn_domain_t dom = sim->inst->domains[i];
	dmn_attach_t att = 0;
	*n = 0;
	while (!dmn_domain_next_attachment(sim->ctx, dom, att, &att)) {
		struct dmn_attach_info ai;
		dmn_attach_info(sim->ctx, att, &ai);
		int dev = dmn__sim_device_index(sim, ai.device);
		if (dev < 0)
			continue;
		const struct dmn_dt_device *d = &b->devices[dev];
		struct dmn_report_device *r = &out[(*n)++];
		r->name = d->name;
		r->path = d->path;
		r->via = NULL;
		r->args = NULL;
		r->n_args = 0;
		r->vote = ai.vote;
		const struct att_key *k = att_find(keys, n_keys, (unsigned)dev, i);
		if (k) {
			unsigned a = k->a;
			r->via = d->attachments[a].name;
			r->args = d->attachments[a].args;
			r->n_args = d->attachments[a].n_args;
			r->vote = dmn__sim_shown_vote(sim, (unsigned)dev, a);
		}
		/* resumed by the scenario, or held by an active child (a
		 * device on its simple-pm-bus) */
		struct dmn_device_info di;
		r->active = sim->devs[dev].active ||
			    (!dmn_device_info(sim->ctx, ai.device, &di) &&
			     di.usage > 0);
		r->counts = ai.counts;
		r->probed = dmn_device_probed(sim->ctx, ai.device) == 1;
		r->wakeup = dmn_device_wakeup_enabled(sim->ctx, ai.device) == 1;
		r->always_on = dmn_device_always_on(sim->ctx, ai.device) == 1;
		r->hw = dmn_attach_hwmode(sim->ctx, att) == 1;
	}
	return 0;
}

static int by_level(const void *a, const void *b)
{
	uint32_t x = ((const struct dmn_report_pstate_time *)a)->level;
	uint32_t y = ((const struct dmn_report_pstate_time *)b)->level;
	return (x > y) - (x < y);
}

static void fill_stats(struct dmn_sim *sim, const struct level_index *ix,
		       unsigned i, struct dmn_report_domain *r,
		       struct dmn_report_idle_stats *idle,
		       struct dmn_report_pstate_time *ps)
{
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_domain *d = &b->domains[i];
	dmn_domain_t dom = sim->inst->domains[i];
	struct dmn_domain_stats st;
	dmn_domain_stats(sim->ctx, dom, &st);
	r->has_stats = 1;
	r->time_on_ns = st.time_on_ns;
	r->time_off_ns = st.time_off_ns;
	r->on_count = st.on_count;
	r->off_count = st.off_count;
	r->pstate_transitions = st.pstate_transitions;
	r->idle = idle;
	r->n_idle = 0;
	for (unsigned k = 0; k < d->n_idle_states; k++) {
		struct dmn_idle_state_info info;
		if (dmn_domain_idle_state(sim->ctx, dom, k, &info))
			continue;
		struct dmn_report_idle_stats *s = &idle[r->n_idle++];
		s->name = dmn__sim_idle_name(sim, i, (int)k);
		s->entry_latency_us = info.desc.entry_latency_us;
		s->exit_latency_us = info.desc.exit_latency_us;
		s->min_residency_us = info.desc.min_residency_us;
		s->usage = info.usage;
		s->rejected = info.rejected;
		s->time_ns = info.time_ns;
	}
	r->pstates = ps;
	r->n_pstates = 0;
	for (unsigned k = 0; k < st.n_pstates; k++) {
		struct dmn_report_pstate_time *p = &ps[r->n_pstates];
		if (dmn_domain_pstate_residency(sim->ctx, dom, k, &p->level,
					       &p->time_ns))
			continue;
		p->level_name = level_name(ix, b, d, p->level);
		r->n_pstates++;
	}
	/* The core keeps levels in the order first reached; a reader scans
	 * them as a scale. */
	qsort(ps, r->n_pstates, sizeof(*ps), by_level);
}

/* @r's boot hold, its awaited consumers into @names; returns how many. */
static unsigned fill_hold(struct dmn_sim *sim, unsigned i, struct dmn_report_domain *r,
			  const char **names)
{
	struct dmn_hold_info h;
	dmn_domain_t dom = sim->inst->domains[i];
	if (dmn_domain_hold(sim->ctx, dom, &h))
		return 0;
	r->held = h.held;
	int flags = dmn_domain_boot_flags(sim->ctx, dom);
	r->no_stay_on = flags > 0 && (flags & DMN_BOOT_NO_STAY_ON);
	r->no_sync_state = flags > 0 && (flags & DMN_BOOT_NO_SYNC_STATE);
	r->active_wakeup = dmn_domain_active_wakeup(sim->ctx, dom) == 1;
	dmn_domain_sleep_stats(sim->ctx, dom, DMN_SLEEP_ON, &r->sleep_on_ns);
	r->boot_level = h.level;
	r->awaiting = names;
	r->n_awaiting = 0;
	dmn_attach_t att = 0;
	/* A no-sync-state hold waits for the provider, not its consumers. */
	while (h.held && !r->no_sync_state &&
	       !dmn_domain_next_attachment(sim->ctx, dom, att, &att)) {
		struct dmn_attach_info ai;
		dmn_attach_info(sim->ctx, att, &ai);
		int dev = dmn__sim_device_index(sim, ai.device);
		if (dev >= 0 && dmn_device_probed(sim->ctx, ai.device) == 0)
			names[r->n_awaiting++] = sim->board->devices[dev].name;
	}
	return r->n_awaiting;
}

static int fill_warnings(struct dmn_sim *sim)
{
	struct dmn_sim_report_store *s = &sim->report;
	const struct dmn_dt_board *b = sim->board;
	s->warnings = calloc(b->n_diags ? b->n_diags : 1, sizeof(char *));
	if (!s->warnings)
		return -ENOMEM;
	for (unsigned i = 0; i < b->n_diags; i++) {
		int len = dmn_dt_diag_format(&b->diags[i], sim->board_name, NULL, 0);
		if (len < 0)
			continue;
		char *text = malloc((size_t)len + 1);
		if (!text)
			return -ENOMEM;
		dmn_dt_diag_format(&b->diags[i], sim->board_name, text, (size_t)len + 1);
		s->warnings[s->n_warnings++] = text;
	}
	return 0;
}

static int by_hz(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Each device's settable rates, for summary (a scenario writer
 * needs them to write `rate DEV HZ`). 0 or -ENOMEM. */
static int fill_device_rates(struct dmn_sim *sim)
{
	struct dmn_sim_report_store *s = &sim->report;
	const struct dmn_dt_board *b = sim->board;
	size_t devices = 0, rates = 0;
	for (unsigned i = 0; i < b->n_devices; i++) {
		if (b->devices[i].opp_table < 0)
			continue;
		devices++;
		rates += b->opp_tables[b->devices[i].opp_table].n_entries;
	}
	if (!devices)
		return 0;
	s->device_rates = calloc(devices, sizeof(*s->device_rates));
	s->rates = calloc(rates ? rates : 1, sizeof(*s->rates));
	if (!s->device_rates || !s->rates)
		return -ENOMEM;
	uint64_t *next = s->rates;
	for (unsigned i = 0; i < b->n_devices; i++) {
		if (b->devices[i].opp_table < 0)
			continue;
		const struct dmn_dt_opp_table *t = &b->opp_tables[b->devices[i].opp_table];
		struct dmn_report_device_rates *r = &s->device_rates[s->n_device_rates++];
		r->device = b->devices[i].name;
		r->hz = next;
		unsigned n = 0;
		for (unsigned k = 0; k < t->n_entries; k++)
			if (t->entries[k].available && t->entries[k].n_hz)
				next[n++] = t->entries[k].hz[0];
		qsort(next, n, sizeof(*next), by_hz);
		unsigned kept = 0;
		for (unsigned k = 0; k < n; k++)
			if (!kept || next[kept - 1] != next[k])
				next[kept++] = next[k];
		r->n_hz = kept;
		next += kept;
	}
	return 0;
}

int dmn_sim_report(struct dmn_sim *sim, int with_events, const struct dmn_report_model **out)
{
	if (!sim || !out)
		return -EINVAL;
	dmn__sim_report_free(sim);
	struct dmn_sim_report_store *s = &sim->report;
	const struct dmn_dt_board *b = sim->board;
	struct sizes n;
	struct level_index ix;
	if (level_index_build(&ix, b))
		return -ENOMEM;
	count(sim, &n);
	struct att_key *keys = NULL;
	size_t n_keys = 0;
	s->domains = calloc(b->n_domains ? b->n_domains : 1, sizeof(*s->domains));
	s->names = calloc(n.names ? n.names : 1, sizeof(*s->names));
	s->devices = calloc(n.devices ? n.devices : 1, sizeof(*s->devices));
	s->idle = calloc(n.idle ? n.idle : 1, sizeof(*s->idle));
	s->pstates = calloc(n.pstates ? n.pstates : 1, sizeof(*s->pstates));
	s->levels = calloc(n.levels ? n.levels : 1, sizeof(*s->levels));
	s->level_values = calloc(n.levels ? n.levels : 1, sizeof(uint32_t));
	/* Per domain, its unprobed consumers; then, for the model, each
	 * awaited device once. */
	s->awaiting = calloc(n.devices + b->n_devices + 1, sizeof(char *));
	s->sleep_ns = calloc(n.idle + b->n_domains + 1, sizeof(uint64_t));
	if (!s->domains || !s->names || !s->devices || !s->idle || !s->pstates ||
	    !s->levels || !s->level_values || !s->awaiting || !s->sleep_ns ||
	    fill_warnings(sim) || dmn__sim_fill_requirements(sim) ||
	    fill_device_rates(sim) || fill_provider_paths(sim) || !(keys = att_index(b, &n_keys))) {
		free(keys);
		level_index_free(&ix);
		dmn__sim_report_free(sim);
		return -ENOMEM;
	}
	size_t names = 0, devices = 0, idle = 0, pstates = 0, levels = 0;
	size_t awaiting = 0, sleep = 0;
	for (unsigned i = 0; i < b->n_domains; i++) {
		const struct dmn_dt_domain *d = &b->domains[i];
		struct dmn_report_domain *r = &s->domains[i];
		dmn_domain_t dom = sim->inst->domains[i];
		struct dmn_domain_info info;
		dmn_domain_info(sim->ctx, dom, &info);
		r->name = d->name;
		r->provider = s->provider_paths[d->provider];
		r->index = d->index < 0 ? -1 : (int)d->index;
		r->on = info.on;
		r->pstate = info.pstate;
		r->hw = dmn_domain_hwmode(sim->ctx, dom) == 1;
		r->always_on = (info.flags & DMN_FLAG_ALWAYS_ON) != 0;
		r->pstate_name = level_name(&ix, b, d, info.pstate);
		r->idle_state = info.on ? NULL : dmn__sim_idle_name(sim, i, info.idle_state);
		r->parents = &s->names[names];
		for (unsigned k = 0; k < info.n_parents; k++) {
			dmn_domain_t p;
			if (!dmn_domain_parent(sim->ctx, dom, k, &p)) {
				int pi = dmn__sim_domain_index(sim, p);
				if (pi >= 0)
					s->names[names + r->n_parents++] = b->domains[pi].name;
			}
		}
		names += r->n_parents;
		r->children = &s->names[names];
		for (unsigned k = 0; k < info.n_children; k++) {
			dmn_domain_t c;
			if (!dmn_domain_child(sim->ctx, dom, k, &c)) {
				int ci = dmn__sim_domain_index(sim, c);
				if (ci >= 0)
					s->names[names + r->n_children++] = b->domains[ci].name;
			}
		}
		names += r->n_children;
		r->devices = &s->devices[devices];
		fill_devices(sim, i, &s->devices[devices], &r->n_devices, keys,
			     n_keys);
		devices += r->n_devices;
		if (d->opp_table >= 0) {
			const struct dmn_dt_opp_table *t = &b->opp_tables[d->opp_table];
			r->levels = &s->levels[levels];
			r->level_values = &s->level_values[levels];
			for (unsigned k = 0; k < t->n_entries; k++) {
				if (!t->entries[k].has_level || !t->entries[k].available)
					continue;
				s->levels[levels + r->n_levels] =
					t->entries[k].label ? t->entries[k].label
							    : t->entries[k].name;
				s->level_values[levels + r->n_levels] = t->entries[k].level;
				r->n_levels++;
			}
			levels += r->n_levels;
		}
		awaiting += fill_hold(sim, i, r, &s->awaiting[awaiting]);
		r->initial_on = sim->initial[i].on;
		r->initial_pstate = sim->initial[i].pstate;
		r->initial_idle_state = dmn__sim_idle_name(sim, i, sim->initial[i].idle);
		fill_stats(sim, &ix, i, r, &s->idle[idle], &s->pstates[pstates]);
		/* Sleep time per idle state, or in plain off where it has
		 * none: one slot per state, or one. */
		r->sleep_idle_ns = &s->sleep_ns[sleep];
		for (unsigned k = 0; k < r->n_idle; k++)
			dmn_domain_sleep_stats(sim->ctx, dom, (int)k,
					      &s->sleep_ns[sleep + k]);
		if (!r->n_idle)
			dmn_domain_sleep_stats(sim->ctx, dom, DMN_SLEEP_OFF,
					      &s->sleep_ns[sleep]);
		sleep += r->n_idle ? r->n_idle : 1;
		r->has_stats = with_events;
		if (!with_events)
			r->n_pstates = 0;
		idle += r->n_idle;
		pstates += r->n_pstates;
	}
	s->model.board = sim->board_name;
	s->model.model = b->model;
	s->model.domains = s->domains;
	s->model.n_domains = b->n_domains;
	s->model.has_life = 1;
	s->model.asleep = dmn_system_asleep(sim->ctx) == 1;
	uint32_t sys_us = DMN_QOS_NONE;
	dmn_system_wakeup_latency(sim->ctx, &sys_us);
	s->model.has_system_qos = sys_us != DMN_QOS_NONE;
	s->model.system_qos_us = s->model.has_system_qos ? sys_us : 0;
	dmn_system_sleep_stats(sim->ctx, &s->model.sleep_count,
			      &s->model.sleep_ns);
	s->model.awaiting = &s->awaiting[awaiting];
	for (unsigned i = 0; i < b->n_devices; i++) {
		struct dmn_hold_info h;
		int awaited = 0;
		for (unsigned a = 0; a < b->devices[i].n_attachments && !awaited;
		     a++) {
			int dom = b->devices[i].attachments[a].domain;
			awaited = dom >= 0 &&
				  !dmn_domain_hold(sim->ctx, sim->inst->domains[dom],
						  &h) &&
				  h.held && !s->domains[dom].no_sync_state &&
				  dmn_device_probed(sim->ctx,
						   sim->inst->devices[i]) == 0;
		}
		if (awaited)
			s->awaiting[awaiting + s->model.n_awaiting++] =
			    b->devices[i].name;
	}
	s->model.warnings = (const char *const *)s->warnings;
	s->model.n_warnings = s->n_warnings;
	s->model.device_rates = s->device_rates;
	s->model.n_device_rates = s->n_device_rates;
	if (with_events) {
		s->model.events = sim->events;
		s->model.n_events = sim->n_events;
		s->model.end_ns = sim->now;
	}
	if (sim->energy) {
		if (dmn__sim_energy_report(sim, with_events)) {
			free(keys);
			level_index_free(&ix);
			dmn__sim_report_free(sim);
			return -ENOMEM;
		}
		s->model.energy = &s->energy;
	}
	free(keys);
	level_index_free(&ix);
	*out = &s->model;
	return 0;
}
