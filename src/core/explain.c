/* SPDX-License-Identifier: MIT */
/*
 * Why a domain is in its state (docs/lifecycle.md): its holders, the inputs of
 * its pstate aggregate, and the governor's last decision replayed on the inputs
 * it had then. Reads only; every fact comes from the records the transaction
 * engine keeps anyway, plus the governor's three inputs that dmn__idle_choose()
 * stores.
 */
#include "internal.h"

#include <domino/explain.h>
#include <domino/lifecycle.h>
#include <errno.h>
#include <string.h>

static void say(dmn_why_fn fn, void *user, enum dmn_why_kind kind,
		dmn_device_t dev, dmn_domain_t child, uint32_t level)
{
	struct dmn_why w;
	memset(&w, 0, sizeof(w));
	w.kind = kind;
	w.dev = dev;
	w.child = child;
	w.level = level;
	fn(user, &w);
}

static void holders(const struct dmn_domain *d, dmn_why_fn fn, void *user)
{
	if (d->flags & DMN_FLAG_ALWAYS_ON)
		say(fn, user, DMN_WHY_ALWAYS_ON, 0, 0, 0);
	if (dom_cold(d)->held) {
		struct dmn_why w;
		memset(&w, 0, sizeof(w));
		w.kind = DMN_WHY_BOOT_HOLD;
		w.level = dom_cold(d)->boot_level;
		w.awaiting = dom_cold(d)->awaiting;
		w.x = dom_cold(d)->boot_flags;
		fn(user, &w);
	}
	/* On since boot with no hold: what it is, not what keeps it. */
	if ((dom_cold(d)->boot_flags & DMN_BOOT_NO_STAY_ON) && d->on &&
	    dom_cold(d)->stats.off_count == dom_cold(d)->boot_off_count)
		say(fn, user, DMN_WHY_BOOT_UNHELD, 0, 0, 0);
	for (const struct dmn_attachment *a = d->att_head; a; a = a->dom_next)
		if (a->counted)
			say(fn, user, DMN_WHY_DEVICE, a->dev->handle, 0,
			    a->vote);
	bool named = false;
	for (const struct dmn_attachment *a = d->att_head;
	     dom_cold(d)->sleep_keep && a; a = a->dom_next)
		if (a->dev->wakeup) {
			say(fn, user, DMN_WHY_WAKEUP_PATH, a->dev->handle, 0, 0);
			named = true;
		}
	/* Kept at system-suspend for a device whose wakeup was disabled
	 * since: the keep lasts until system-resume all the same. */
	if (dom_cold(d)->sleep_keep && !named)
		say(fn, user, DMN_WHY_WAKEUP_PATH, 0, 0, 0);
	/* The power-off vetoes, as domain_kept_on() counts them. */
	for (const struct dmn_attachment *a = d->att_head;
	     !dom_cold(d)->sleeping && a; a = a->dom_next)
		if (a->dev->always_on)
			say(fn, user, DMN_WHY_ALWAYS_ON_DEV, a->dev->handle, 0,
			    0);
	for (const struct dmn_attachment *a = d->att_head;
	     !dom_cold(d)->sleeping && a; a = a->dom_next)
		if (a->hw)
			say(fn, user, DMN_WHY_HWMODE, a->dev->handle, 0, 0);
	for (unsigned i = 0; i < d->n_children; i++)
		if (d->children[i]->child_on)
			say(fn, user, DMN_WHY_CHILD, 0,
			    d->children[i]->child->handle,
			    d->children[i]->req);
}

static void pstate_inputs(const struct dmn_domain *d, dmn_why_fn fn,
			  void *user)
{
	if (dom_cold(d)->held && dom_cold(d)->boot_level)
		say(fn, user, DMN_WHY_PSTATE_BOOT, 0, 0, dom_cold(d)->boot_level);
	for (const struct dmn_attachment *a = d->att_head; a; a = a->dom_next)
		if (a->counted && a->vote)
			say(fn, user, DMN_WHY_PSTATE_DEVICE, a->dev->handle, 0,
			    a->vote);
	for (unsigned i = 0; i < d->n_children; i++)
		if (d->children[i]->req)
			say(fn, user, DMN_WHY_PSTATE_CHILD, 0,
			    d->children[i]->child->handle,
			    d->children[i]->req);
}

/* The default governor's rules (dmn_governor_qos) on each state from the
 * deepest down to @chosen (-1: all, for a domain the governor kept on). */
static void idle_decision(const struct dmn_domain *d, int chosen, dmn_why_fn fn,
			  void *user)
{
	for (unsigned i = d->idle->n; i > 0 && (int)(i - 1) >= chosen; i--) {
		const struct dmn_idle_state_desc *s = &d->idle->desc[i - 1];
		uint64_t entry = (uint64_t)s->entry_latency_us * 1000u;
		uint64_t exit = (uint64_t)s->exit_latency_us * 1000u;
		uint64_t residency = (uint64_t)s->min_residency_us * 1000u;
		struct dmn_why w;
		memset(&w, 0, sizeof(w));
		w.idle = i - 1;
		if (entry + exit > dom_cold(d)->gov_qos) {
			w.kind = dom_cold(d)->gov_sys_qos ? DMN_WHY_IDLE_SYSTEM_QOS
							  : DMN_WHY_IDLE_QOS;
			w.x = entry + exit;
			w.y = dom_cold(d)->gov_qos;
		} else if (dom_cold(d)->gov_wakeup != UINT64_MAX &&
			   (dom_cold(d)->gov_now > dom_cold(d)->gov_wakeup ||
			    entry + residency > dom_cold(d)->gov_wakeup - dom_cold(d)->gov_now)) {
			/* the sum saturates at UINT64_MAX: still past the wakeup */
			uint64_t now = dom_cold(d)->gov_now;
			w.kind = DMN_WHY_IDLE_RESIDENCY;
			w.x = now > UINT64_MAX - (entry + residency)
				      ? UINT64_MAX
				      : now + entry + residency;
			w.y = dom_cold(d)->gov_wakeup;
		} else {
			w.kind = (int)(i - 1) == chosen
					 ? DMN_WHY_IDLE_FITS
					 : DMN_WHY_IDLE_CUSTOM;
		}
		fn(user, &w);
	}
}

/* System sleep's rulings for a CPU domain, from the deepest state down to
 * @chosen (-1: all, for one the limit kept on). */
static void sleep_decision(const struct dmn_domain *d, int chosen,
			   dmn_why_fn fn, void *user)
{
	uint64_t limit = dom_cold(d)->sleep_qos_ns;
	for (unsigned i = d->idle->n; i > 0 && (int)(i - 1) >= chosen; i--) {
		const struct dmn_idle_state_desc *s = &d->idle->desc[i - 1];
		struct dmn_why w;
		memset(&w, 0, sizeof(w));
		w.idle = i - 1;
		w.x = (uint64_t)s->entry_latency_us * 1000u +
		      (uint64_t)s->exit_latency_us * 1000u;
		w.y = limit;
		w.kind = w.x > limit ? DMN_WHY_IDLE_SYSTEM_QOS : DMN_WHY_IDLE_FITS;
		w.level = 1; /* system sleep's, not the governor's */
		fn(user, &w);
	}
}

/* Kept on in system sleep by the system wakeup latency (a CPU domain none
 * of whose idle states fits), or left on by a failed power-off there. */
static bool sleep_limited_on(const struct dmn_domain *d)
{
	return d->on && !domain_wants_on(d) && dom_cold(d)->sleeping &&
	       dom_cold(d)->sleep_qos && d->idle && d->idle->n;
}

int dmn_domain_explain(struct dmn_ctx *ctx, dmn_domain_t dom,
		      struct dmn_explanation *out, dmn_why_fn fn, void *user)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, out, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	memset(out, 0, sizeof(*out));
	out->on = d->on;
	out->pstate = d->pstate;
	out->aggregate = level_hist_max(&d->votes);
	out->idle_state = d->on ? -1 : d->idle_state;
	bool has_idle = d->idle && d->idle->n;
	if (d->on)
		out->idle_why = DMN_IDLE_ON;
	else if (!has_idle)
		out->idle_why = DMN_IDLE_NONE;
	else if (dom_cold(d)->off_by_sleep && dom_cold(d)->sleep_qos)
		out->idle_why = DMN_IDLE_SYSTEM_QOS;
	else if (dom_cold(d)->off_by_sleep)
		out->idle_why = DMN_IDLE_SYSTEM_SLEEP;
	else if (!dom_cold(d)->gov_decided || !dom_cold(d)->stats.off_count)
		out->idle_why = DMN_IDLE_INITIAL;
	else
		out->idle_why = DMN_IDLE_GOVERNOR;
	if (out->idle_why == DMN_IDLE_GOVERNOR)
		out->decided_ns = dom_cold(d)->gov_now;
	if (fn) {
		holders(d, fn, user);
		pstate_inputs(d, fn, user);
		if (out->idle_why == DMN_IDLE_GOVERNOR && d->idle_state >= 0)
			idle_decision(d, d->idle_state, fn, user);
		else if (out->idle_why == DMN_IDLE_SYSTEM_QOS)
			sleep_decision(d, d->idle_state, fn, user);
		else if (sleep_limited_on(d))
			sleep_decision(d, -1, fn, user);
		/* On with nothing holding it: the governor's last word (a
		 * stay-on lists every state it ruled out). */
		else if (d->on && !domain_wants_on(d) && dom_cold(d)->gov_decided && has_idle)
			idle_decision(d, -1, fn, user);
	}
	dmn__unlock(ctx);
	return 0;
}
