/* SPDX-License-Identifier: MIT */
/*
 * Pstate statistics over many levels: a domain that reaches hundreds of
 * levels keeps them in an index (stats.c, hosted builds) instead of a
 * scan per change. Random votes on a domain with one voter (the solo fast
 * path appends levels behind the index's back) and on one with two (the
 * general engine), on a clock of our own; each level's residency, the
 * order levels were first reached and the transition count must be what
 * a plain model of the votes says, to the nanosecond.
 */
#include <domino/domain.h>
#include <domino/idle.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"

enum { LEVELS = 700, STEPS = 12000, CHECK_EVERY = 997 };

static uint64_t now_ns;
static uint64_t clock_now(void *user)
{
	(void)user;
	return now_ns;
}

/* What the statistics of one domain must say. */
struct model {
	dmn_domain_t dom;
	uint32_t pstate;
	uint64_t since;
	uint64_t transitions;
	unsigned n_seen;
	uint32_t seen[LEVELS + 1];   /* levels in the order first reached */
	uint64_t ns[LEVELS + 1];     /* closed time per level */
	int slot_of[LEVELS + 1];     /* -1: not reached yet */
};

static void model_init(struct model *m, dmn_domain_t dom)
{
	memset(m, 0, sizeof(*m));
	m->dom = dom;
	m->since = now_ns; /* at level 0 since created */
	for (unsigned i = 0; i <= LEVELS; i++)
		m->slot_of[i] = -1;
	m->slot_of[0] = 0;
	m->seen[m->n_seen++] = 0;
}

static void model_pstate(struct model *m, uint32_t level)
{
	if (level == m->pstate)
		return;
	m->ns[m->pstate] += now_ns - m->since;
	m->since = now_ns;
	m->pstate = level;
	m->transitions++;
	if (m->slot_of[level] < 0) {
		m->slot_of[level] = (int)m->n_seen;
		m->seen[m->n_seen++] = level;
	}
}

static void check(struct dmn_ctx *ctx, const struct model *m)
{
	struct dmn_domain_stats st;
	assert_int_equal(dmn_domain_stats(ctx, m->dom, &st), 0);
	assert_int_equal(st.n_pstates, m->n_seen);
	assert_int_equal(st.pstate_transitions, m->transitions);
	for (unsigned i = 0; i < m->n_seen; i++) {
		uint32_t level;
		uint64_t ns;
		assert_int_equal(
		    dmn_domain_pstate_residency(ctx, m->dom, i, &level, &ns), 0);
		assert_int_equal(level, m->seen[i]);
		uint64_t want = m->ns[level] +
				(level == m->pstate ? now_ns - m->since : 0);
		assert_int_equal(ns, want);
	}
	uint32_t level;
	uint64_t ns;
	assert_int_equal(dmn_domain_pstate_residency(ctx, m->dom, m->n_seen,
						    &level, &ns),
			 -ENOENT);
}

static uint32_t rng_state = 0x2545f491u;
static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state % n;
}

/* Mostly levels near the last one (a governor's walk), sometimes a jump:
 * new levels keep coming for the whole run, old ones come back. */
static uint32_t next_level(uint32_t cur)
{
	if (!cur || rnd(8) == 0)
		return 1 + rnd(LEVELS);
	uint32_t step = rnd(9);
	int64_t l = (int64_t)cur + (int64_t)step - 4;
	return l < 1 ? 1 : l > LEVELS ? LEVELS : (uint32_t)l;
}

static void many_levels(void **state)
{
	(void)state;
	static struct fake fake;
	struct fake_alloc alloc = {0};
	struct dmn_config cfg = fake_config(&alloc);
	struct dmn_ctx *ctx;
	cfg.now = clock_now;
	now_ns = 1000;
	fake_init(&fake);
	assert_int_equal(dmn_ctx_create(&cfg, &ctx), 0);

	/* solo: one device; pair: two, its level their maximum */
	dmn_domain_t solo = fake_domain(&fake, ctx, "solo", &fake_ops_full, 0);
	dmn_domain_t pair = fake_domain(&fake, ctx, "pair", &fake_ops_full, 0);
	dmn_device_t dev[3];
	dmn_attach_t att[3];
	const char *names[3] = {"s", "p0", "p1"};
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(dmn_device_create(ctx, names[i], &dev[i]), 0);
		assert_int_equal(dmn_attach(ctx, dev[i], i ? pair : solo,
					   &att[i]),
				 0);
	}
	static struct model ms, mp;
	model_init(&ms, solo);
	model_init(&mp, pair);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(dmn_device_get(ctx, dev[i]), 0);

	uint32_t vote[3] = {0, 0, 0};
	for (unsigned step = 1; step <= STEPS; step++) {
		now_ns += 1 + rnd(1000);
		unsigned who = rnd(3);
		/* A vote of 0 takes the general engine on the solo domain
		 * too, while levels the solo path appended wait unindexed. */
		vote[who] = rnd(40) ? next_level(vote[who]) : 0;
		assert_int_equal(dmn_vote(ctx, att[who], vote[who]), 0);
		if (who == 0)
			model_pstate(&ms, vote[0]);
		else
			model_pstate(&mp, vote[1] > vote[2] ? vote[1] : vote[2]);
		if (step % CHECK_EVERY == 0) {
			now_ns += rnd(50); /* an open period read mid-way */
			check(ctx, &ms);
			check(ctx, &mp);
		}
	}
	check(ctx, &ms);
	check(ctx, &mp);
	/* The walk reached most levels, so the index was well used. */
	assert_true(ms.n_seen > LEVELS / 2);
	assert_true(mp.n_seen > LEVELS / 2);
	dmn_ctx_destroy(ctx);
	assert_int_equal(alloc.live, 0); /* the index freed with the rest */
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(many_levels)};
	return cmocka_run_group_tests(tests, 0, 0);
}
