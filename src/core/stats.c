/* SPDX-License-Identifier: MIT */
/*
 * Residency statistics. Every instant since a domain was created is
 * attributed to exactly one of: on, plain off, or one idle state; and to
 * exactly one pstate. So the buckets always add up to the elapsed time.
 */
#include "internal.h"

#include <errno.h>

void stats_init(struct pd_domain *d, uint64_t now)
{
	d->stats.created = d->stats.since = d->stats.pstate_since = now;
	d->stats.levels[0] = 0;
	d->stats.level_ns[0] = 0;
	d->stats.n_levels = 1;
}

static unsigned level_slot(struct pd_stats *s, uint32_t level)
{
	for (unsigned i = 0; i < s->n_levels; i++)
		if (s->levels[i] == level)
			return i;
	if (s->n_levels < PD_STATS_MAX_PSTATES - 1 ||
	    (s->n_levels == PD_STATS_MAX_PSTATES - 1 &&
	     level == PD_STATS_OTHER_LEVEL)) {
		s->levels[s->n_levels] = level;
		s->level_ns[s->n_levels] = 0;
		return s->n_levels++;
	}
	/* Table full: the last slot collects every further level. */
	return level_slot(s, PD_STATS_OTHER_LEVEL);
}

/* Close the current power period at @now. */
void stats_account(struct pd_domain *d, uint64_t now)
{
	struct pd_stats *s = &d->stats;
	uint64_t span = now > s->since ? now - s->since : 0;
	if (d->on)
		s->time_on += span;
	else if (d->idle && d->idle_state >= 0)
		d->idle->time_ns[d->idle_state] += span;
	else
		s->time_off += span;
	s->since = now > s->since ? now : s->since;
}

static void stats_account_pstate(struct pd_domain *d, uint64_t now)
{
	struct pd_stats *s = &d->stats;
	uint64_t span = now > s->pstate_since ? now - s->pstate_since : 0;
	s->level_ns[level_slot(s, d->pstate)] += span;
	s->pstate_since = now > s->pstate_since ? now : s->pstate_since;
}

void stats_power(struct dmn_ctx *ctx, struct pd_domain *d, bool on, int idle,
		 uint32_t rejected_mask)
{
	uint64_t now = dmn_now(ctx);
	stats_account(d, now);
	if (on) {
		d->stats.on_count++;
		return;
	}
	d->stats.off_count++;
	if (d->idle && idle >= 0)
		d->idle->usage[idle]++;
	stats_rejected(d, rejected_mask);
}

void stats_rejected(struct pd_domain *d, uint32_t rejected_mask)
{
	for (unsigned i = 0; d->idle && i < d->idle->n; i++)
		if (rejected_mask & (1u << i))
			d->idle->rejected[i]++;
}

void stats_pstate(struct dmn_ctx *ctx, struct pd_domain *d, uint32_t new_level)
{
	stats_account_pstate(d, dmn_now(ctx));
	d->stats.pstate_transitions++;
	level_slot(&d->stats, new_level);
}

int pd_domain_stats(struct dmn_ctx *ctx, pd_domain_t dom,
		    struct pd_domain_stats *out)
{
	if (!ctx || !out)
		return -EINVAL;
	dmn_lock(ctx);
	struct pd_domain *d = pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d) {
		uint64_t now = dmn_now(ctx);
		uint64_t span = now > d->stats.since ? now - d->stats.since : 0;
		out->time_on_ns = d->stats.time_on + (d->on ? span : 0);
		out->time_off_ns =
			d->stats.time_off +
			(!d->on && !(d->idle && d->idle_state >= 0) ? span : 0);
		out->on_count = d->stats.on_count;
		out->off_count = d->stats.off_count;
		out->pstate_transitions = d->stats.pstate_transitions;
		out->n_pstates = d->stats.n_levels;
		out->created_ns = d->stats.created;
	}
	dmn_unlock(ctx);
	return err;
}

int pd_domain_pstate_residency(struct dmn_ctx *ctx, pd_domain_t dom,
			       unsigned i, uint32_t *level, uint64_t *time_ns)
{
	if (!ctx || !level || !time_ns)
		return -EINVAL;
	dmn_lock(ctx);
	struct pd_domain *d = pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d && i >= d->stats.n_levels)
		err = -ENOENT;
	if (!err) {
		*level = d->stats.levels[i];
		*time_ns = d->stats.level_ns[i];
		unsigned cur = 0;
		for (unsigned k = 0; k < d->stats.n_levels; k++)
			if (d->stats.levels[k] == d->pstate)
				cur = k;
		uint64_t now = dmn_now(ctx);
		if (cur == i && now > d->stats.pstate_since)
			*time_ns += now - d->stats.pstate_since;
	}
	dmn_unlock(ctx);
	return err;
}
