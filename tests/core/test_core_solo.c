/* SPDX-License-Identifier: MIT */
/*
 * The one-voter rail's vote and pstate residency (struct dmn_config):
 * - a context without a time source does not time pstates (no clock read
 *   on the vote), still lists every level and counts every change;
 *   DMN_CFG_TIME_PSTATES or a time source times them; unknown flag bits
 *   are refused;
 * - the fast unit's mark of a rail (struct dmn_domain, fast_epoch) never
 *   outlives the epoch's wrap to 0 (dmn__fast_epoch_wrap): a domain
 *   checked at epoch 1 long ago must not pass for checked when the count
 *   comes round to 1 again;
 * - a rail of several voters keeps the bins its votes empty, which the
 *   engine's next operation on the domain compacts;
 * - a driver wandering over more levels than the rail keeps bins for
 *   stays on the fast unit: the rail drops its emptied bins itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include <domino/context.h>
#include <domino/domain.h>
#include <domino/idle.h>

#include "core/internal.h"

static unsigned calls;
static uint32_t last_level;

static int record_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	calls++;
	last_level = level;
	return 0;
}

static const struct dmn_domain_ops ops = {
	.set_performance_state = record_pstate,
};

struct rail {
	struct dmn_ctx *ctx;
	dmn_domain_t dom;
	dmn_device_t dev;
	dmn_attach_t att;
};

static void rail_make(struct rail *r, const struct dmn_config *cfg)
{
	assert_int_equal(dmn_ctx_create(cfg, &r->ctx), 0);
	struct dmn_domain_desc desc = {.name = "rail", .ops = &ops};
	assert_int_equal(dmn_domain_create(r->ctx, &desc, &r->dom), 0);
	assert_int_equal(dmn_device_create(r->ctx, "dev", &r->dev), 0);
	assert_int_equal(dmn_attach(r->ctx, r->dev, r->dom, &r->att), 0);
	assert_int_equal(dmn_device_get(r->ctx, r->dev), 0);
	calls = 0;
}

static uint64_t level_ns(struct rail *r, uint32_t want, unsigned *found)
{
	struct dmn_domain_stats st;
	assert_int_equal(dmn_domain_stats(r->ctx, r->dom, &st), 0);
	for (unsigned i = 0; i < st.n_pstates; i++) {
		uint32_t level;
		uint64_t ns;
		assert_int_equal(
		    dmn_domain_pstate_residency(r->ctx, r->dom, i, &level, &ns),
		    0);
		if (level == want) {
			*found = 1;
			return ns;
		}
	}
	*found = 0;
	return 0;
}

static uint64_t fake_now_ns;
static uint64_t fake_now(void *user)
{
	(void)user;
	return fake_now_ns;
}

/* No time source: levels listed and changes counted, no time. */
static void untimed_by_default(void **state)
{
	(void)state;
	struct rail r;
	rail_make(&r, NULL);
	for (unsigned i = 0; i < 50; i++) {
		assert_int_equal(dmn_vote(r.ctx, r.att, 20), 0);
		assert_int_equal(dmn_vote(r.ctx, r.att, 10), 0);
	}
	assert_int_equal(dmn_vote(r.ctx, r.att, 30), 0);
	/* Ticks of any coarse clock pass: a timed level would show them. */
	uint64_t start = dmn_now(r.ctx);
	while (dmn_now(r.ctx) - start < 20000000u)
		;
	struct dmn_domain_stats st;
	assert_int_equal(dmn_domain_stats(r.ctx, r.dom, &st), 0);
	assert_int_equal(st.n_pstates, 4); /* 0, 20, 10, 30: first seen */
	assert_int_equal(st.pstate_transitions, 101);
	for (unsigned i = 0; i < st.n_pstates; i++) {
		uint32_t level;
		uint64_t ns = 1;
		assert_int_equal(
		    dmn_domain_pstate_residency(r.ctx, r.dom, i, &level, &ns), 0);
		assert_int_equal(ns, 0);
	}
	assert_int_equal(calls, 101);
	assert_int_equal(last_level, 30);
	dmn_ctx_destroy(r.ctx);
}

/* A time source times every level exactly, the toggling ones included. */
static void timed_with_a_time_source(void **state)
{
	(void)state;
	struct dmn_config cfg = {.now = fake_now};
	struct rail r;
	fake_now_ns = 1000;
	rail_make(&r, &cfg);
	assert_int_equal(dmn_vote(r.ctx, r.att, 10), 0); /* 0 for 0 ns */
	for (unsigned i = 0; i < 10; i++) {
		fake_now_ns += 5; /* at 10 */
		assert_int_equal(dmn_vote(r.ctx, r.att, 20), 0);
		fake_now_ns += 7; /* at 20 */
		assert_int_equal(dmn_vote(r.ctx, r.att, 10), 0);
	}
	fake_now_ns += 3;
	unsigned found;
	assert_int_equal(level_ns(&r, 10, &found), 53);
	assert_true(found);
	assert_int_equal(level_ns(&r, 20, &found), 70);
	assert_true(found);
	dmn_ctx_destroy(r.ctx);
}

/* DMN_CFG_TIME_PSTATES on the default clock: the sum is the elapsed
 * time (each level to a tick); unknown bits are refused. */
static void flag_times_the_default_clock(void **state)
{
	(void)state;
	struct dmn_ctx *ctx = (struct dmn_ctx *)1;
	struct dmn_config bad = {.flags = 2};
	assert_int_equal(dmn_ctx_create(&bad, &ctx), -EINVAL);
	assert_null(ctx);
	struct dmn_config cfg = {.flags = DMN_CFG_TIME_PSTATES};
	struct rail r;
	rail_make(&r, &cfg);
	assert_int_equal(dmn_vote(r.ctx, r.att, 10), 0);
	uint64_t start = dmn_now(r.ctx);
	/* Long enough for the coarse clock to tick several times. */
	while (dmn_now(r.ctx) - start < 50000000u) {
		assert_int_equal(dmn_vote(r.ctx, r.att, 20), 0);
		assert_int_equal(dmn_vote(r.ctx, r.att, 10), 0);
	}
	struct dmn_domain_stats st;
	assert_int_equal(dmn_domain_stats(r.ctx, r.dom, &st), 0);
	uint64_t sum = 0;
	for (unsigned i = 0; i < st.n_pstates; i++) {
		uint32_t level;
		uint64_t ns;
		assert_int_equal(
		    dmn_domain_pstate_residency(r.ctx, r.dom, i, &level, &ns), 0);
		sum += ns;
	}
	uint64_t elapsed = dmn_now(r.ctx) - st.created_ns;
	assert_true(sum > 0);
	assert_true(sum <= elapsed + 1000000u);
	dmn_ctx_destroy(r.ctx);
}

#if DMN_FAST_PATHS && DMN_STRIPED
static unsigned pstate_events;

static void count_pstates(void *user, struct dmn_ctx *ctx,
			  const struct dmn_event *ev)
{
	(void)user;
	(void)ctx;
	if (ev->kind == DMN_EV_PSTATE)
		pstate_events++;
}

/* A rail marked at epoch 1, then 2^32 - 3 exclusive calls later (set
 * here): three more calls wrap the count, every mark is dropped and the
 * count starts again at 1. The third adds a listener, so that the rail is
 * no longer one the fast unit may take without reporting. Without the
 * drop its old mark would match the new count and the vote of 15 would
 * pass without its event. */
static void epoch_wrap_drops_every_mark(void **state)
{
	(void)state;
	struct rail r;
	rail_make(&r, NULL);
	assert_non_null(r.ctx->stripes);
	/* Twice: the first time each level is new and takes the engine,
	 * which makes room for it in the statistics. */
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(dmn_vote(r.ctx, r.att, 20), 0);
		assert_int_equal(dmn_vote(r.ctx, r.att, 10), 0);
	}
	struct dmn_domain *d = dmn__handle_lookup(&r.ctx->domains, r.dom);
	assert_non_null(d);
	assert_int_equal(d->fast_epoch, r.ctx->fast_epoch); /* marked */
	d->fast_epoch = 1;
	r.ctx->fast_epoch = UINT32_MAX - 2u;
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(r.ctx, r.dom, &info), 0);
	assert_int_equal(dmn_domain_info(r.ctx, r.dom, &info), 0);
	pstate_events = 0;
	assert_int_equal(dmn_listen(r.ctx, count_pstates, 0), 0);
	assert_int_equal(r.ctx->fast_epoch, 1u);
	assert_int_equal(d->fast_epoch, 0u);
	assert_int_equal(dmn_vote(r.ctx, r.att, 15), 0);
	assert_int_equal(pstate_events, 1);
	assert_int_equal(dmn_domain_info(r.ctx, r.dom, &info), 0);
	assert_int_equal(info.pstate, 15);
	assert_int_equal(last_level, 15);
	dmn_ctx_destroy(r.ctx);
}

/* A rail of three voters at 10, one of them going to 20 and back: the
 * rail moves counts and keeps the bin it empties (level_hist.h), so the
 * histogram holds 10 and 20 from the second pair on and every vote still
 * gives the right pstate, callback and maximum; the engine's next
 * operation on the domain (a device's last put) compacts it. Every vote is the fast unit's: the exclusive path would
 * have compacted the emptied bin. */
static void rail_keeps_bins_the_engine_compacts(void **state)
{
	(void)state;
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
	assert_non_null(ctx->stripes);
	struct dmn_domain_desc desc = {.name = "rail", .ops = &ops};
	dmn_domain_t dom;
	assert_int_equal(dmn_domain_create(ctx, &desc, &dom), 0);
	dmn_attach_t att[3];
	dmn_device_t dev[3];
	for (unsigned i = 0; i < 3; i++) {
		char name[8] = {'d', 'e', 'v', (char)('0' + i), 0};
		assert_int_equal(dmn_device_create(ctx, name, &dev[i]), 0);
		assert_int_equal(dmn_attach(ctx, dev[i], dom, &att[i]), 0);
		assert_int_equal(dmn_device_get(ctx, dev[i]), 0);
		assert_int_equal(dmn_vote(ctx, att[i], 10), 0);
	}
	struct dmn_domain *d = dmn__handle_lookup(&ctx->domains, dom);
	assert_non_null(d);
	for (unsigned k = 0; k < 50; k++) {
		unsigned before = calls;
		assert_int_equal(dmn_vote(ctx, att[0], 20), 0);
		assert_int_equal(calls, before + 1);
		assert_int_equal(last_level, 20);
		assert_int_equal(d->pstate, 20);
		assert_int_equal(dmn_vote(ctx, att[0], 10), 0);
		assert_int_equal(calls, before + 2);
		assert_int_equal(last_level, 10);
		assert_int_equal(d->pstate, 10);
		if (!k)
			continue; /* the first pair made room (the engine) */
		/* 20's bin stays, empty; 10 counts all three votes. */
		assert_int_equal(d->votes.n, 2);
		assert_int_equal(d->votes.bins[0].level, 10);
		assert_int_equal(d->votes.bins[0].count, 3);
		assert_int_equal(d->votes.bins[1].level, 20);
		assert_int_equal(d->votes.bins[1].count, 0);
		assert_int_equal(level_hist_max(&d->votes), 10);
	}
	/* A second voter at 20 beside the first: the max holds while either
	 * does. */
	assert_int_equal(dmn_vote(ctx, att[0], 20), 0);
	assert_int_equal(dmn_vote(ctx, att[1], 20), 0);
	assert_int_equal(dmn_vote(ctx, att[0], 10), 0);
	assert_int_equal(d->pstate, 20);
	assert_int_equal(dmn_vote(ctx, att[1], 10), 0);
	assert_int_equal(d->pstate, 10);
	assert_int_equal(last_level, 10);
	/* The engine's operation compacts: one bin, two votes. */
	assert_int_equal(dmn_device_put(ctx, dev[2]), 0);
	assert_int_equal(d->votes.n, 1);
	assert_int_equal(d->votes.bins[0].level, 10);
	assert_int_equal(d->votes.bins[0].count, 2);
	assert_int_equal(d->pstate, 10);
	dmn_ctx_destroy(ctx);
}

/* One voter over twelve levels, round and round: once the engine has
 * grown the histogram and the statistics (the first round), every vote
 * is the fast unit's (no exclusive call: ctx->excl_seq stays), with the
 * right pstate and callback, and the rail never keeps more than
 * LEVEL_HIST_SCAN bins: when they are all taken and a level needs one,
 * it drops the emptied ones (as the engine would), so each round sees
 * fewer than LEVEL_HIST_SCAN bins again, rather than sending every vote
 * for a level without a bin the chain's way (which swaps one bin for
 * another and keeps all of them taken). */
static void rail_drops_emptied_bins_when_full(void **state)
{
	(void)state;
	struct rail r;
	rail_make(&r, NULL);
	struct dmn_domain *d = dmn__handle_lookup(&r.ctx->domains, r.dom);
	assert_non_null(d);
	unsigned fast = 0;
	for (unsigned round = 0; round < 6; round++) {
		unsigned fewest = UINT_MAX;
		for (uint32_t k = 0; k < 12; k++) {
			uint32_t level = 10 * (1 + (k * 5) % 12);
			unsigned seq = r.ctx->excl_seq, before = calls;
			assert_int_equal(dmn_vote(r.ctx, r.att, level), 0);
			assert_int_equal(calls, before + 1);
			assert_int_equal(last_level, level);
			assert_int_equal(d->pstate, level);
			assert_true(d->votes.n <= LEVEL_HIST_SCAN);
			if (round >= 2)
				assert_int_equal(r.ctx->excl_seq, seq);
			fast += r.ctx->excl_seq == seq;
			fewest = d->votes.n < fewest ? d->votes.n : fewest;
		}
		assert_true(fewest < LEVEL_HIST_SCAN);
	}
	assert_true(fast >= 48);
	dmn_ctx_destroy(r.ctx);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(untimed_by_default),
		cmocka_unit_test(timed_with_a_time_source),
		cmocka_unit_test(flag_times_the_default_clock),
#if DMN_FAST_PATHS && DMN_STRIPED
		cmocka_unit_test(epoch_wrap_drops_every_mark),
		cmocka_unit_test(rail_keeps_bins_the_engine_compacts),
		cmocka_unit_test(rail_drops_emptied_bins_when_full),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
