/* SPDX-License-Identifier: MIT */
/* Idle states and the power-off governors. */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

int dmn_governor_qos(const struct dmn_governor_input *in)
{
	if (!in->n_states)
		return 0; /* plain off: zero latencies pass every test */
	for (unsigned i = in->n_states; i > 0; i--) {
		const struct dmn_idle_state_desc *s = &in->states[i - 1];
		uint64_t entry = (uint64_t)s->entry_latency_us * 1000u;
		uint64_t exit = (uint64_t)s->exit_latency_us * 1000u;
		uint64_t residency = (uint64_t)s->min_residency_us * 1000u;
		bool latency_ok = entry + exit <= in->qos_ns;
		/* now + entry + residency, without wrapping past 2^64: a
		 * wakeup at most UINT64_MAX - 1 is always sooner than that */
		bool wakeup_ok = in->next_wakeup_ns == UINT64_MAX ||
				 (in->now_ns <= in->next_wakeup_ns &&
				  entry + residency <=
					  in->next_wakeup_ns - in->now_ns);
		if (latency_ok && wakeup_ok)
			return (int)(i - 1);
	}
	return DMN_GOV_STAY_ON;
}

int dmn__idle_choose(struct dmn_ctx *ctx, struct dmn_domain *d, uint64_t now,
		unsigned *rejected_from)
{
	/* The domain is on (it powers off), so it has its cold part. */
	struct dmn_domain_cold *c = d->cold;
	*rejected_from = UINT_MAX;
	if (c->gov == DMN_GOVERNOR_ALWAYS_ON)
		return DMN_GOV_STAY_ON;
	struct dmn_governor_input in;
	in.now_ns = now;
	dmn__qos_effective(ctx, d, now, &in.qos_ns, &in.next_wakeup_ns);
	/* A CPU domain also answers to the system wakeup latency (Linux's
	 * CPU governor takes the tighter one). */
	c->gov_sys_qos = (d->flags & DMN_FLAG_CPU_DOMAIN) && ctx->sys_qos_set &&
			 ctx->sys_qos_ns < in.qos_ns;
	if (c->gov_sys_qos)
		in.qos_ns = ctx->sys_qos_ns;
	/* Kept so that dmn_domain_explain can say why, later: this is the
	 * domain's last decision, not system sleep's. */
	c->gov_decided = true;
	c->sleep_qos = false;
	c->gov_now = now;
	c->gov_qos = in.qos_ns;
	c->gov_wakeup = in.next_wakeup_ns;
	in.n_states = d->idle ? d->idle->n : 0;
	in.states = d->idle ? d->idle->desc : 0;
	int choice;
	if (c->gov_fn) /* set with DMN_GOVERNOR_CUSTOM only */
		choice = c->gov_fn(c->gov_user, d->handle, &in);
	else
		choice = dmn_governor_qos(&in);
	unsigned limit = in.n_states ? in.n_states : 1;
	/* Every state deeper than the one chosen was ruled out (all of them
	 * when the domain stays on), as the default governor decides. */
	if (choice < 0 || (unsigned)choice >= limit) {
		*rejected_from = 0;
		return DMN_GOV_STAY_ON;
	}
	*rejected_from = (unsigned)choice + 1;
	return choice;
}

int dmn_domain_add_idle_state(struct dmn_ctx *ctx, dmn_domain_t dom,
			     const struct dmn_idle_state_desc *desc,
			     unsigned *index)
{
	int err;
	struct dmn_domain *d =
	    dmn__enter(ctx, desc && desc->name, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	char *name = 0;
	/* Adding a state closes the domain's plain-off period (statistics);
	 * the states live in the cold part too. A failure leaves room in
	 * the arrays, nothing else. */
	if (!dmn__domain_cold(ctx, d))
		err = -ENOMEM;
	struct dmn_idle_data *idle = err ? 0 : &d->cold->idle;
	if (!err)
		err = dmn__grow(ctx, (void **)&idle->desc, &idle->cap_desc,
			       idle->n + 1, sizeof(*idle->desc));
	if (!err)
		err = dmn__grow(ctx, (void **)&idle->counts, &idle->cap_counts,
			       idle->n + 1, sizeof(*idle->counts));
	if (!err) {
		name = dmn__strdup(ctx, desc->name);
		err = name ? 0 : -ENOMEM;
	}
	if (!err) {
		d->idle = idle;
		dmn__stats_account(d, dmn_now(ctx));
		unsigned i = idle->n++;
		idle->desc[i] = *desc;
		idle->desc[i].name = name;
		memset(&idle->counts[i], 0, sizeof(idle->counts[i]));
		/* Before its first transition an off domain sits in its
		 * deepest state (docs/semantics.md). */
		const struct dmn_stats *st = &d->cold->stats;
		if (!d->on && !st->on_count && !st->off_count)
			d->idle_state = (int)i;
		if (index)
			*index = i;
	}
	dmn__unlock(ctx);
	return err;
}

void dmn__idle_free(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	if (!d->cold)
		return;
	struct dmn_idle_data *idle = &d->cold->idle;
	for (unsigned i = 0; i < idle->n; i++)
		dmn__free(ctx, (char *)idle->desc[i].name);
	dmn__free(ctx, idle->desc);
	dmn__free(ctx, idle->counts);
	d->idle = 0;
}

