/* SPDX-License-Identifier: MIT */
/*
 * Residency statistics. Every instant since a domain was created is
 * attributed to exactly one of: on, plain off, or one idle state; and to
 * exactly one pstate. So the buckets always add up to the elapsed time.
 */
#include "internal.h"

#include <errno.h>

int dmn__stats_init(struct dmn_ctx *ctx, struct pd_domain *d, uint64_t now)
{
	d->stats.created = d->stats.since = d->stats.pstate_since = now;
	d->stats.n_levels = 0;
	int err = dmn__stats_reserve(ctx, d, 1);
	if (err)
		return err;
	d->stats.levels[0].level = 0;
	d->stats.levels[0].ns = 0;
	d->stats.n_levels = 1;
	return 0;
}

void dmn__stats_free(struct dmn_ctx *ctx, struct pd_domain *d)
{
	dmn__free(ctx, d->stats.levels);
	d->stats.levels = 0;
	d->stats.n_levels = d->stats.cap_levels = 0;
}

int dmn__stats_reserve(struct dmn_ctx *ctx, struct pd_domain *d, unsigned extra)
{
	return dmn_grow(ctx, (void **)&d->stats.levels, &d->stats.cap_levels,
			d->stats.n_levels + extra,
			sizeof(*d->stats.levels));
}

/* O(levels seen): a domain sees the few levels of its table. */
static unsigned level_slot(struct pd_stats *s, uint32_t level)
{
	for (unsigned i = 0; i < s->n_levels; i++)
		if (s->levels[i].level == level)
			return i;
	/* A new level is one of the domain's inputs: dmn__txn_hist_add made room. */
	s->levels[s->n_levels].level = level;
	s->levels[s->n_levels].ns = 0;
	return s->n_levels++;
}

/* Close the current power period at @now. */
void dmn__stats_account(struct pd_domain *d, uint64_t now)
{
	struct pd_stats *s = &d->stats;
	uint64_t span = now > s->since ? now - s->since : 0;
	if (d->on)
		s->time_on += span;
	else if (d->idle && d->idle_state >= 0)
		d->idle->counts[d->idle_state].time_ns += span;
	else
		s->time_off += span;
	s->since = now > s->since ? now : s->since;
}

static void stats_account_pstate(struct pd_domain *d, uint64_t now)
{
	struct pd_stats *s = &d->stats;
	uint64_t span = now > s->pstate_since ? now - s->pstate_since : 0;
	s->levels[level_slot(s, d->pstate)].ns += span;
	s->pstate_since = now > s->pstate_since ? now : s->pstate_since;
}

void dmn__stats_power(struct dmn_ctx *ctx, struct pd_domain *d, bool on, int idle,
		 unsigned rejected_from)
{
	uint64_t now = dmn_now(ctx);
	dmn__stats_account(d, now);
	if (on) {
		d->stats.on_count++;
		return;
	}
	d->stats.off_count++;
	if (d->idle && idle >= 0)
		d->idle->counts[idle].usage++;
	dmn__stats_rejected(d, rejected_from);
}

void dmn__stats_rejected(struct pd_domain *d, unsigned rejected_from)
{
	for (unsigned i = rejected_from; d->idle && i < d->idle->n; i++)
		d->idle->counts[i].rejected++;
}

void dmn__stats_pstate(struct dmn_ctx *ctx, struct pd_domain *d, uint32_t new_level)
{
	/* The pstate clock (see default_pstate_now) may lag dmn_now by a
	 * tick: a span that would come out negative counts 0 and
	 * pstate_since never goes back, so the closed spans add up to the
	 * last pstate_since - created and, with the open one read on
	 * dmn_now, to the elapsed time exactly. */
	stats_account_pstate(d, ctx->pstate_now(ctx->now_user));
	d->stats.pstate_transitions++;
	level_slot(&d->stats, new_level);
}
