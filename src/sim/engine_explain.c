/* SPDX-License-Identifier: MIT */
/*
 * `explain DOMAIN` and `domino summary --explain DOMAIN` (docs/lifecycle.md,
 * explain): the
 * library's records (dmn_domain_explain) in the words of the contract,
 * with names and votes as the scenario wrote them.
 */
#include "engine_internal.h"

#include <domino/explain.h>
#include <domino/lifecycle.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing text; a failed allocation sticks (oom) and is reported once. */
struct text {
	char *s;
	size_t len, cap;
	int oom;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->oom || n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->len + (size_t)n + 1) * 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->oom = 1;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

struct records {
	struct dmn_why *w;
	unsigned n, cap;
	int oom;
};

static void collect(void *user, const struct dmn_why *why)
{
	struct records *r = user;
	if (r->oom)
		return;
	if (r->n == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 16;
		struct dmn_why *w = realloc(r->w, cap * sizeof(*w));
		if (!w) {
			r->oom = 1;
			return;
		}
		r->w = w;
		r->cap = cap;
	}
	r->w[r->n++] = *why;
}

static const char *dev_name(const struct dmn_sim *sim, dmn_device_t h)
{
	int i = dmn__sim_device_index(sim, h);
	return i >= 0 ? sim->board->devices[i].name : "?";
}

static const char *dom_name(const struct dmn_sim *sim, dmn_domain_t h)
{
	int i = dmn__sim_domain_index(sim, h);
	return i >= 0 ? sim->board->domains[i].name : "?";
}

/* The vote @dev cast on @domain as written (49 stays 49: docs/semantics.md,
 * Votes and pstates). */
static uint32_t cast_vote(const struct dmn_sim *sim, dmn_device_t h,
			  unsigned domain, uint32_t rounded)
{
	int dev = dmn__sim_device_index(sim, h);
	if (dev < 0)
		return rounded;
	const struct dmn_dt_device *d = &sim->board->devices[dev];
	for (unsigned a = 0; a < d->n_attachments; a++)
		if (d->attachments[a].domain == (int32_t)domain)
			return dmn__sim_shown_vote(sim, (unsigned)dev, a);
	return rounded;
}

static void idle_records(struct dmn_sim *sim, unsigned domain,
			 const struct records *r, struct text *t);

/* A device active because devices on its simple-pm-bus are
 * (dmn_device_set_parent): "; held by child A, B", the active ones whose
 * parent it is, after "resumed" when the scenario resumed it too. */
static void held_by(struct dmn_sim *sim, dmn_device_t h, struct text *t)
{
	unsigned kids = 0;
	int dev = dmn__sim_device_index(sim, h);
	if (dev < 0 || dmn_device_parent(sim->ctx, h, NULL, &kids) || !kids)
		return;
	put(t, "; %sheld by child", sim->devs[dev].active ? "resumed, " : "");
	const char *sep = " ";
	for (unsigned i = 0; i < sim->board->n_devices; i++) {
		struct dmn_device_info di;
		if (sim->board->devices[i].parent != dev ||
		    dmn_device_info(sim->ctx, sim->inst->devices[i], &di) ||
		    !di.usage)
			continue;
		put(t, "%s%s", sep, sim->board->devices[i].name);
		sep = ", ";
	}
}

static int is_idle_ruling(enum dmn_why_kind k)
{
	return k == DMN_WHY_IDLE_QOS || k == DMN_WHY_IDLE_RESIDENCY ||
	       k == DMN_WHY_IDLE_CUSTOM || k == DMN_WHY_IDLE_FITS ||
	       k == DMN_WHY_IDLE_SYSTEM_QOS;
}

static void on_line(struct dmn_sim *sim, unsigned domain, const char *name,
		    const struct records *r, struct text *t)
{
	dmn_domain_t dom = sim->inst->domains[domain];
	int n = 0;
	put(t, "explain %s: on because: ", name);
	for (unsigned i = 0; i < r->n; i++) {
		const struct dmn_why *w = &r->w[i];
		const char *sep = n ? ", " : "";
		switch (w->kind) {
		case DMN_WHY_ALWAYS_ON:
			put(t, "%salways-on", sep);
			break;
		case DMN_WHY_BOOT_HOLD: {
			put(t, "%sboot hold (level %" PRIu32 "; ", sep,
			    sim->doms[domain].boot_raw);
			/* The provider syncs it: its consumers' probes do
			 * not count. */
			if (w->x & DMN_BOOT_NO_SYNC_STATE) {
				put(t, "no-sync-state: until sync-state or "
				       "probe all)");
				break;
			}
			if (!w->awaiting) {
				put(t, "no consumers: until probe all)");
				break;
			}
			put(t, "awaiting");
			dmn_attach_t att = 0;
			while (!dmn_domain_next_attachment(sim->ctx, dom, att,
							  &att)) {
				struct dmn_attach_info ai;
				if (!dmn_attach_info(sim->ctx, att, &ai) &&
				    dmn_device_probed(sim->ctx, ai.device) == 0)
					put(t, " %s", dev_name(sim, ai.device));
			}
			put(t, ")");
			break;
		}
		case DMN_WHY_DEVICE:
			put(t, "%sdev %s (vote %" PRIu32, sep,
			    dev_name(sim, w->dev),
			    cast_vote(sim, w->dev, domain, w->level));
			held_by(sim, w->dev, t);
			put(t, ")");
			break;
		case DMN_WHY_WAKEUP_PATH:
			if (w->dev)
				put(t, "%swakeup path dev %s", sep,
				    dev_name(sim, w->dev));
			else
				put(t, "%swakeup path (until system-resume)",
				    sep);
			break;
		case DMN_WHY_ALWAYS_ON_DEV:
			put(t, "%salways-on dev %s", sep, dev_name(sim, w->dev));
			break;
		case DMN_WHY_HWMODE:
			put(t, "%shw mode (dev %s)", sep, dev_name(sim, w->dev));
			break;
		case DMN_WHY_BOOT_UNHELD:
			put(t, "%sboot (no-stay-on: until a consumer probes, "
			       "probe all, or a change below it)",
			    sep);
			break;
		case DMN_WHY_CHILD:
			put(t, "%schild %s (requires %" PRIu32 ")", sep,
			    dom_name(sim, w->child), w->level);
			break;
		default:
			continue;
		}
		n++;
	}
	if (n) {
		put(t, "\n");
		return;
	}
	/* Nothing holds it: the governor kept it on (every state rejected),
	 * or its power-off failed. Either is retried at its next change.
	 * The records replay the governor's last inputs; the simulator uses
	 * only the default governor, so a state they do not rule out by QoS
	 * or residency (FITS, or CUSTOM: allowed but not chosen) means that
	 * decision chose a state and a later power-off failed (a system
	 * sleep's, say). */
	unsigned rejected = 0, states = 0, by_system = 0, in_sleep = 0;
	for (unsigned i = 0; i < r->n; i++) {
		if (!is_idle_ruling(r->w[i].kind))
			continue;
		states++;
		by_system += r->w[i].kind == DMN_WHY_IDLE_SYSTEM_QOS;
		in_sleep += r->w[i].kind == DMN_WHY_IDLE_SYSTEM_QOS &&
			    r->w[i].level;
		rejected += r->w[i].kind == DMN_WHY_IDLE_QOS ||
			    r->w[i].kind == DMN_WHY_IDLE_RESIDENCY ||
			    r->w[i].kind == DMN_WHY_IDLE_SYSTEM_QOS;
	}
	if (!states || rejected != states) {
		put(t, "no holder (its power-off failed)\n");
		return;
	}
	if (!by_system)
		put(t, "no holder; the governor kept it on: ");
	else if (in_sleep)
		put(t, "no holder; system sleep kept it on (system wakeup "
		       "latency): ");
	else
		put(t, "no holder; the governor kept it on (system wakeup "
		       "latency): ");
	idle_records(sim, domain, r, t);
	put(t, "\n");
}

static void off_line(struct dmn_sim *sim, unsigned domain, const char *name,
		     const struct dmn_explanation *e, const struct records *r,
		     struct text *t)
{
	if (e->idle_why == DMN_IDLE_NONE) {
		put(t, "explain %s: off because: no idle states\n", name);
		return;
	}
	const char *state = dmn__sim_idle_name(sim, domain, e->idle_state);
	put(t, "explain %s: off in %s because: ", name, state ? state : "?");
	if (e->idle_why == DMN_IDLE_INITIAL) {
		put(t, "initial (deepest)\n");
		return;
	}
	if (e->idle_why == DMN_IDLE_SYSTEM_SLEEP) {
		put(t, "system sleep (deepest, governor not asked)\n");
		return;
	}
	if (e->idle_why == DMN_IDLE_SYSTEM_QOS)
		put(t, "system sleep (system wakeup latency): ");
	idle_records(sim, domain, r, t);
	put(t, "\n");
}

/* "S2 rejected (qos: ...), S1 rejected (residency: ...), S0 fits". */
static void idle_records(struct dmn_sim *sim, unsigned domain,
			 const struct records *r, struct text *t)
{
	int n = 0;
	for (unsigned i = 0; i < r->n; i++) {
		const struct dmn_why *w = &r->w[i];
		const char *s = dmn__sim_idle_name(sim, domain, (int)w->idle);
		const char *sep = n ? ", " : "";
		switch (w->kind) {
		case DMN_WHY_IDLE_QOS:
			put(t, "%s%s rejected (qos: entry+exit %" PRIu64
			       "ns > limit %" PRIu64 "ns)", sep, s, w->x, w->y);
			break;
		case DMN_WHY_IDLE_RESIDENCY:
			put(t, "%s%s rejected (residency: now+entry+residency "
			       "%" PRIu64 "ns > next wakeup %" PRIu64 "ns)",
			    sep, s, w->x, w->y);
			break;
		case DMN_WHY_IDLE_CUSTOM:
			put(t, "%s%s rejected (governor)", sep, s);
			break;
		case DMN_WHY_IDLE_SYSTEM_QOS:
			put(t, "%s%s rejected (system qos: entry+exit %" PRIu64
			       "ns > limit %" PRIu64 "ns)", sep, s, w->x, w->y);
			break;
		case DMN_WHY_IDLE_FITS:
			put(t, n ? "%s%s fits" : "deepest", sep, s);
			break;
		default:
			continue;
		}
		n++;
	}
}

static void pstate_line(struct dmn_sim *sim, unsigned domain, const char *name,
			const struct dmn_explanation *e,
			const struct records *r, struct text *t)
{
	/* Each input as written: device votes as cast, the boot level as
	 * given; the rounding shows in the domain's pstate. */
	uint32_t raw_max = 0;
	for (unsigned i = 0; i < r->n; i++) {
		const struct dmn_why *w = &r->w[i];
		uint32_t raw = w->kind == DMN_WHY_PSTATE_DEVICE
				   ? cast_vote(sim, w->dev, domain, w->level)
			       : w->kind == DMN_WHY_PSTATE_BOOT
				   ? sim->doms[domain].boot_raw
			       : w->kind == DMN_WHY_PSTATE_CHILD ? w->level
								: 0;
		if (raw > raw_max)
			raw_max = raw;
	}
	put(t, "explain %s: pstate %" PRIu32, name, e->pstate);
	if (e->pstate > e->aggregate) {
		put(t, " because: stuck (aggregate %" PRIu32
		       "; a lowering call failed)\n",
		    e->aggregate);
		return;
	}
	if (!raw_max) {
		put(t, " because: no votes\n");
		return;
	}
	if (raw_max != e->pstate)
		put(t, " (rounded up from %" PRIu32 ")", raw_max);
	put(t, " because: ");
	int n = 0;
	for (unsigned i = 0; i < r->n; i++) {
		const struct dmn_why *w = &r->w[i];
		const char *sep = n ? ", " : "";
		if (w->kind == DMN_WHY_PSTATE_DEVICE &&
		    cast_vote(sim, w->dev, domain, w->level) == raw_max)
			put(t, "%sdev %s (vote %" PRIu32 ")", sep,
			    dev_name(sim, w->dev), raw_max);
		else if (w->kind == DMN_WHY_PSTATE_CHILD && w->level == raw_max)
			put(t, "%schild %s (requires %" PRIu32 ")", sep,
			    dom_name(sim, w->child), raw_max);
		else if (w->kind == DMN_WHY_PSTATE_BOOT &&
			 sim->doms[domain].boot_raw == raw_max)
			put(t, "%sboot hold (level %" PRIu32 ")", sep, raw_max);
		else
			continue;
		n++;
	}
	put(t, "\n");
}

int dmn__sim_explain_index(struct dmn_sim *sim, unsigned domain, char **out)
{
	*out = NULL;
	struct dmn_explanation e;
	struct records r = {0};
	struct text t = {0};
	int err = dmn_domain_explain(sim->ctx, sim->inst->domains[domain], &e,
				    collect, &r);
	if (err) {
		free(r.w);
		return err;
	}
	const char *name = sim->board->domains[domain].name;
	if (e.on)
		on_line(sim, domain, name, &r, &t);
	else
		off_line(sim, domain, name, &e, &r, &t);
	pstate_line(sim, domain, name, &e, &r, &t);
	free(r.w);
	if (r.oom || t.oom) {
		free(t.s);
		return -ENOMEM;
	}
	*out = t.s;
	return 0;
}

int dmn_sim_explain(struct dmn_sim *sim, const char *domain, char **out, char *why,
		size_t why_size)
{
	if (!sim || !domain || !out)
		return -EINVAL;
	*out = NULL;
	int i = dmn__sim_find_domain(sim, domain, why, why_size);
	if (i < 0)
		return i;
	return dmn__sim_explain_index(sim, (unsigned)i, out);
}
