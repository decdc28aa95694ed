/* SPDX-License-Identifier: MIT */
/*
 * Residency statistics. Every instant since a domain was created is
 * attributed to exactly one of: on, plain off, or one idle state; and to
 * exactly one pstate. So the buckets always add up to the elapsed time.
 * They live in the domain's cold part, allocated before its first state
 * change: until then the domain has been off at level 0 since created.
 */
#include "internal.h"

#include <errno.h>
#include <string.h>

const struct pd_domain_cold dmn__cold_none;

struct pd_domain_cold *dmn__pd_domain_cold(struct dmn_ctx *ctx,
					   struct pd_domain *d)
{
	if (d->cold)
		return d->cold;
	struct pd_domain_cold *c = dmn__alloc(ctx, sizeof(*c));
	struct pd_level_time *levels =
		c ? dmn__alloc(ctx, sizeof(*levels)) : 0;
	if (!levels) {
		dmn__free(ctx, c);
		return 0;
	}
	memset(c, 0, sizeof(*c));
	dmn__ms_init(&c->qos_set);
	dmn__ms_init(&c->wake_set);
	c->stats.created = c->stats.since = c->stats.pstate_since = d->created;
	levels[0].level = 0;
	levels[0].ns = 0;
	c->stats.levels = levels;
	c->stats.n_levels = c->stats.cap_levels = 1;
	d->cold = c;
	return c;
}

int dmn__pd_domain_cold_up(struct dmn_ctx *ctx, struct pd_domain *d)
{
	if (d->cold && !d->n_parents)
		return 0;
	unsigned n = dmn__walk_up(ctx, d);
	for (unsigned i = 0; i < n; i++)
		if (!dmn__pd_domain_cold(ctx, ctx->walk[i]))
			return -ENOMEM;
	return 0;
}

const struct pd_stats *dmn__stats_view(const struct pd_domain *d,
				       struct pd_stats *tmp,
				       struct pd_level_time *slot)
{
	if (d->cold)
		return &d->cold->stats;
	memset(tmp, 0, sizeof(*tmp));
	tmp->created = tmp->since = tmp->pstate_since = d->created;
	slot->level = 0;
	slot->ns = 0;
	tmp->levels = slot;
	tmp->n_levels = tmp->cap_levels = 1;
	return tmp;
}

void dmn__stats_free(struct dmn_ctx *ctx, struct pd_domain *d)
{
	if (!d->cold)
		return;
	dmn__free(ctx, d->cold->stats.levels);
	d->cold->stats.levels = 0;
	d->cold->stats.n_levels = d->cold->stats.cap_levels = 0;
}

/* The cold part, then room in it: -ENOMEM changes nothing. */
int dmn__stats_reserve(struct dmn_ctx *ctx, struct pd_domain *d, unsigned extra)
{
	struct pd_domain_cold *c = dmn__pd_domain_cold(ctx, d);
	if (!c)
		return -ENOMEM;
	return dmn_grow(ctx, (void **)&c->stats.levels, &c->stats.cap_levels,
			c->stats.n_levels + extra, sizeof(*c->stats.levels));
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
	struct pd_stats *s = &d->cold->stats;
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
	struct pd_stats *s = &d->cold->stats;
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
		d->cold->stats.on_count++;
		return;
	}
	d->cold->stats.off_count++;
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
	d->cold->stats.pstate_transitions++;
	level_slot(&d->cold->stats, new_level);
}
