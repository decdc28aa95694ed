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

/* Zero-filled storage, never written (dom_cold hands it out as const):
 * in .bss, it costs a firmware image RAM, not 208 B of flash. */
struct dmn_domain_cold dmn__cold_none;

void dmn__stats_start(struct dmn_stats *s, uint64_t created,
		      struct dmn_level_time *slot)
{
	s->created = s->since = s->pstate_since = created;
	slot->level = 0;
	slot->ns = 0;
	s->levels = slot;
	s->n_levels = s->cap_levels = 1;
	s->slot_cur = s->slot_prev = 0;
#ifndef DMN_FIRMWARE
	s->index = 0;
	s->index_mask = s->n_indexed = 0;
#endif
}

#ifndef DMN_FIRMWARE
/* The level index of hosted builds. Below this many levels a scan is as
 * quick as the hash, and a domain allocates nothing more for it. */
#define DMN_STATS_INDEX_MIN 16u

static unsigned index_bucket(uint32_t level, unsigned mask)
{
	/* A full-avalanche mix: levels are often multiples of 16 or 64. */
	level ^= level >> 16;
	level *= 0x7feb352du;
	level ^= level >> 15;
	level *= 0x846ca68bu;
	level ^= level >> 16;
	return level & mask;
}

/* Index the slots not indexed yet, while the load stays at most 1/2 (it
 * always does, but when a bigger index could not be allocated: the rest
 * are then scanned). */
static void index_catch_up(struct dmn_stats *s)
{
	while (s->index && s->n_indexed < s->n_levels &&
	       s->n_indexed < (s->index_mask + 1) / 2) {
		unsigned b = index_bucket(s->levels[s->n_indexed].level,
					  s->index_mask);
		while (s->index[b])
			b = (b + 1) & s->index_mask;
		s->index[b] = ++s->n_indexed;
	}
}

/* Room in the index for every slot @s has room for: a bigger one, filled
 * from the slots. -ENOMEM leaves the old one, which still answers (what
 * it lacks is scanned): a failed allocation is reported all the same,
 * as every other. */
static int index_reserve(struct dmn_ctx *ctx, struct dmn_stats *s)
{
	unsigned buckets = 2 * DMN_STATS_INDEX_MIN;
	if (s->cap_levels < DMN_STATS_INDEX_MIN ||
	    s->cap_levels > (~0u) / 4 ||
	    (s->index && (s->index_mask + 1) / 2 >= s->cap_levels))
		return 0;
	while (buckets < 2 * s->cap_levels)
		buckets *= 2;
	uint32_t *index = dmn__alloc(ctx, (size_t)buckets * sizeof(*index));
	if (!index)
		return -ENOMEM;
	memset(index, 0, (size_t)buckets * sizeof(*index));
	dmn__free(ctx, s->index);
	s->index = index;
	s->index_mask = buckets - 1;
	s->n_indexed = 0;
	index_catch_up(s);
	return 0;
}

/* The slot of @level if the index has it, else where the slots it lacks
 * start (slots appended since it was last filled join it first). */
static unsigned index_find(struct dmn_stats *s, uint32_t level)
{
	index_catch_up(s);
	if (!s->index)
		return 0;
	for (unsigned b = index_bucket(level, s->index_mask); s->index[b];
	     b = (b + 1) & s->index_mask)
		if (s->levels[s->index[b] - 1].level == level)
			return s->index[b] - 1;
	return s->n_indexed;
}

#endif

/* The slot of @level in @s, or s->n_levels if none: the index of a
 * hosted build, then a scan. */
DMN_NOINLINE static unsigned find_slot(struct dmn_stats *s, uint32_t level)
{
	unsigned i = 0;
#ifndef DMN_FIRMWARE
	if (s->index)
		i = index_find(s, level);
#endif
	while (i < s->n_levels && s->levels[i].level != level)
		i++;
	return i;
}

struct dmn_domain_cold *dmn__domain_cold(struct dmn_ctx *ctx,
					   struct dmn_domain *d)
{
	if (d->cold)
		return d->cold;
	struct dmn_domain_cold *c = dmn__alloc(ctx, sizeof(*c));
	struct dmn_level_time *levels =
		c ? dmn__alloc(ctx, sizeof(*levels)) : 0;
	if (!levels) {
		dmn__free(ctx, c);
		return 0;
	}
	memset(c, 0, sizeof(*c));
	dmn__ms_init(&c->qos_set);
	dmn__ms_init(&c->wake_set);
	dmn__stats_start(&c->stats, d->created, levels);
	d->cold = c;
	return c;
}

int dmn__domain_cold_up(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	if (d->cold && !d->n_parents)
		return 0;
	unsigned n = dmn__walk_up(ctx, d);
	for (unsigned i = 0; i < n; i++)
		if (!dmn__domain_cold(ctx, ctx->walk[i]))
			return -ENOMEM;
	return 0;
}

void dmn__stats_free(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	if (!d->cold)
		return;
	struct dmn_stats *s = &d->cold->stats;
	dmn__free(ctx, s->levels);
	s->levels = 0;
	s->n_levels = s->cap_levels = 0;
#ifndef DMN_FIRMWARE
	dmn__free(ctx, s->index);
	s->index = 0;
	s->index_mask = s->n_indexed = 0;
#endif
}

/* The cold part, then room in it: -ENOMEM changes nothing. */
int dmn__stats_reserve(struct dmn_ctx *ctx, struct dmn_domain *d, unsigned extra)
{
	struct dmn_domain_cold *c = dmn__domain_cold(ctx, d);
	if (!c)
		return -ENOMEM;
	int err = dmn__grow(ctx, (void **)&c->stats.levels, &c->stats.cap_levels,
			   c->stats.n_levels + extra, sizeof(*c->stats.levels));
#ifndef DMN_FIRMWARE
	if (!err)
		err = index_reserve(ctx, &c->stats);
#endif
	return err;
}

/* The slot of @level, made if new: O(1) when it is the current level or
 * the one before (the hints), else O(1)
 * on average in a hosted build (a scan of the few levels below the
 * index's threshold), O(levels seen) in firmware (whose tables are
 * small). */
static unsigned level_slot(struct dmn_stats *s, uint32_t level)
{
	if (s->slot_prev < s->n_levels && s->levels[s->slot_prev].level == level)
		return s->slot_prev;
	if (s->slot_cur < s->n_levels && s->levels[s->slot_cur].level == level)
		return s->slot_cur;
	unsigned i = find_slot(s, level);
	if (i < s->n_levels)
		return i;
	/* A new level is one of the domain's inputs: dmn__txn_hist_add made room. */
	DMN_ASSERT(i < s->cap_levels && "room for every level of the inputs");
	s->levels[i].level = level;
	s->levels[i].ns = 0;
	s->n_levels++;
#ifndef DMN_FIRMWARE
	index_catch_up(s);
#endif
	return i;
}

/* The time from *@since to @now (0 if @now is earlier: a clock that lags
 * never counts backwards), and *@since moved up to @now. */
static uint64_t advance(uint64_t *since, uint64_t now)
{
	uint64_t span = now > *since ? now - *since : 0;
	*since += span;
	return span;
}

/* Close the current power period at @now. */
void dmn__stats_account(struct dmn_domain *d, uint64_t now)
{
	struct dmn_stats *s = &d->cold->stats;
	uint64_t span = advance(&s->since, now);
	if (d->on)
		s->time_on += span;
	else if (d->idle && d->idle_state >= 0)
		d->idle->counts[d->idle_state].time_ns += span;
	else
		s->time_off += span;
}

static void stats_account_pstate(struct dmn_domain *d, uint64_t now)
{
	struct dmn_stats *s = &d->cold->stats;
	uint64_t span = advance(&s->pstate_since, now);
	s->levels[level_slot(s, d->pstate)].ns += span;
}

void dmn__stats_power(struct dmn_ctx *ctx, struct dmn_domain *d, bool on, int idle,
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

void dmn__stats_rejected(struct dmn_domain *d, unsigned rejected_from)
{
	for (unsigned i = rejected_from; d->idle && i < d->idle->n; i++)
		d->idle->counts[i].rejected++;
}

void dmn__stats_pstate_slow(struct dmn_ctx *ctx, struct dmn_domain *d,
			    uint32_t new_level)
{
	/* The pstate clock (see default_pstate_now) may lag dmn_now by a
	 * tick: a span that would come out negative counts 0 and
	 * pstate_since never goes back, so the closed spans add up to the
	 * last pstate_since - created and, with the open one read on
	 * dmn_now, to the elapsed time exactly. Untimed (no pstate
	 * clock, struct dmn_config): every slot stays at 0 ns. */
	struct dmn_stats *s = &d->cold->stats;
	if (dmn__pstate_timed(ctx))
		stats_account_pstate(d, ctx->pstate_now(ctx->now_user));
	s->pstate_transitions++;
	/* The hints (struct dmn_stats): the pstate's slot was slot_cur. */
	unsigned slot = level_slot(s, new_level);
	s->slot_prev = s->slot_cur;
	s->slot_cur = slot;
}
