/* SPDX-License-Identifier: MIT */
/*
 * dmn_vote's path for single-parent chains (dmn__txn_vote_chain,
 * docs/decisions/chain-votes.md)
 * against the general engine. Two contexts are built alike:
 *
 *   root (pstate, rounds to multiples of 5, -ERANGE above 100)
 *    └ mid1 (no pstate callback: passes its level up) ── side (devices)
 *       └ mid2 (pstate; its link to mid1 maps level -> level + 7, and
 *          fails for levels above 90)
 *          └ leaf (pstate; devices) ── and one device on mid2
 *
 * The deep variant puts 8 more domains between root and mid1 (a chain of
 * 12: longer than the striped fast path takes, so the path runs alone in
 * the context with its steps in the context's scratch).
 *
 * The same random operations run on both: context A votes with dmn_vote
 * (the chain path whenever the voted domain's ancestry is a chain, all on),
 * context B with dmn_vote_many of one change (always the general engine).
 * Between votes devices are put and got (domains power off and on), a
 * link floor changes, and the next pstate call of a random domain fails,
 * so raises are rolled back and lowerings are kept high and retried.
 * After every step everything observable must be equal: the return code,
 * dmn_last_error(), every callback, every event, each domain's statistics
 * and pstate residencies, the snapshot.
 */
#include "test_core_common.h"
#include "test_compare.h"

enum { ROOT, MID1, MID2, LEAF, SIDE, NDOM };
/* The deep variant puts NPAD domains (pstate callbacks, no devices)
 * between root and mid1: the leaf's chain is then 12 domains, longer than
 * a striped fast path takes, so the chain path runs alone in the context
 * with its steps in the context's scratch. */
#define NPAD 8
#define NDOM_MAX (NDOM + NPAD)
#define NDEV 5 /* 0-2 on leaf, 3 on mid2, 4 on side */

static int plus7(void *user, dmn_domain_t child, dmn_domain_t parent,
		 uint32_t level, uint32_t *out)
{
	(void)user;
	(void)child;
	(void)parent;
	if (level > 90)
		return -EINVAL;
	*out = level + 7;
	return 0;
}

struct side {
	struct fake fake;
	struct fake_alloc alloc;
	struct evrec ev;
	struct dmn_ctx *ctx;
	dmn_domain_t dom[NDOM_MAX];
	unsigned ndom;
	dmn_device_t dev[NDEV];
	dmn_attach_t att[NDEV];
};

static void side_init(struct side *s, uint64_t *clock, unsigned npad)
{
	memset(s, 0, sizeof(*s));
	fake_init(&s->fake);
	s->fake.fail_err = -EIO;
	struct dmn_config cfg = fake_config(&s->alloc);
	cfg.now = clock_now;
	cfg.now_user = clock;
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(&cfg, &ctx), 0);
	s->ctx = ctx;
	assert_int_equal(dmn_listen(ctx, evrec_fn, &s->ev), 0);
	s->dom[ROOT] = fake_domain(&s->fake, ctx, "root", &fake_ops_full, 0);
	s->dom[MID1] = fake_domain(&s->fake, ctx, "mid1", &fake_ops_power, 0);
	s->dom[MID2] = fake_domain(&s->fake, ctx, "mid2", &fake_ops_full, 0);
	s->dom[LEAF] = fake_domain(&s->fake, ctx, "leaf", &fake_ops_full, 0);
	s->dom[SIDE] = fake_domain(&s->fake, ctx, "side", &fake_ops_full, 0);
	s->ndom = NDOM + npad;
	dmn_domain_t above = s->dom[ROOT];
	for (unsigned i = 0; i < npad; i++) {
		char name[8];
		snprintf(name, sizeof(name), "pad%u", i);
		s->dom[NDOM + i] = fake_domain(&s->fake, ctx, name,
					       &fake_ops_full, 0);
		assert_int_equal(dmn_link_add(ctx, above, s->dom[NDOM + i]), 0);
		above = s->dom[NDOM + i];
	}
	assert_int_equal(dmn_domain_set_rounding(ctx, s->dom[ROOT], round5, 0),
			 0);
	assert_int_equal(dmn_link_add(ctx, above, s->dom[MID1]), 0);
	assert_int_equal(dmn_link_add(ctx, s->dom[MID1], s->dom[MID2]), 0);
	assert_int_equal(dmn_link_add(ctx, s->dom[MID2], s->dom[LEAF]), 0);
	assert_int_equal(dmn_link_add(ctx, s->dom[MID1], s->dom[SIDE]), 0);
	assert_int_equal(dmn_link_set_map(ctx, s->dom[MID1], s->dom[MID2],
					 plus7, 0), 0);
	static const unsigned where[NDEV] = {LEAF, LEAF, LEAF, MID2, SIDE};
	for (unsigned i = 0; i < NDEV; i++) {
		char name[8];
		snprintf(name, sizeof(name), "d%u", i);
		s->dev[i] = mkdev(ctx, name);
		s->att[i] = mkatt(ctx, s->dev[i], s->dom[where[i]]);
		assert_int_equal(dmn_device_get(ctx, s->dev[i]), 0);
	}
}

static void side_fini(struct side *s)
{
	dmn_ctx_destroy(s->ctx);
	assert_int_equal(s->alloc.live, 0);
}

static void run_chain_equals_general(unsigned npad)
{
	uint64_t clock = 1000;
	struct side *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct snapshot *sa = malloc(sizeof(*sa)), *sb = malloc(sizeof(*sb));
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(sa);
	assert_non_null(sb);
	side_init(a, &clock, npad);
	side_init(b, &clock, npad);
	uint32_t seed = 21;
	unsigned raise_fail = 0, lower_fail = 0, bad = 0, moved = 0;
	for (unsigned step = 0; step < 6000; step++) {
		uint32_t r = next_rand(&seed);
		unsigned i = r % NDEV;
		uint32_t level = (r >> 8) % 112; /* some above 100: -ERANGE */
		clock += 1 + (r >> 20) % 50;
		fake_clear_log(&a->fake);
		fake_clear_log(&b->fake);
		a->ev.n = b->ev.n = 0;
		int ra, rb;
		switch ((r >> 16) % 20) {
		case 0: case 1: { /* the next pstate call of a domain fails */
			unsigned k = (r >> 24) % a->ndom;
			fake_fail(&a->fake, a->dom[k], FAKE_PSTATE, 1);
			fake_fail(&b->fake, b->dom[k], FAKE_PSTATE, 1);
			continue;
		}
		case 2: /* domains power off; votes stored for the resume */
			ra = dmn_device_put(a->ctx, a->dev[i]);
			rb = dmn_device_put(b->ctx, b->dev[i]);
			break;
		case 3: case 4:
			ra = dmn_device_get(a->ctx, a->dev[i]);
			rb = dmn_device_get(b->ctx, b->dev[i]);
			break;
		case 5: { /* a provider's floor on mid2's parent */
			uint32_t floor = (r >> 24) % 3 * 12;
			ra = dmn_link_set_floor(a->ctx, a->dom[MID1], a->dom[MID2],
					       floor);
			rb = dmn_link_set_floor(b->ctx, b->dom[MID1], b->dom[MID2],
					       floor);
			break;
		}
		default: {
			struct dmn_vote_change ch = {b->att[i], level};
			uint32_t before = dinfo(a->ctx, a->dom[LEAF]).pstate;
			ra = dmn_vote(a->ctx, a->att[i], level);
			rb = dmn_vote_many(b->ctx, &ch, 1);
			raise_fail += ra == -EIO;
			bad += ra && ra != -EIO;
			lower_fail += !ra && dmn_last_error(a->ctx) == -EIO;
			moved += !ra && dinfo(a->ctx, a->dom[LEAF]).pstate !=
						before;
			break;
		}
		}
		assert_int_equal(ra, rb);
		assert_int_equal(dmn_last_error(a->ctx),
				 dmn_last_error(b->ctx));
		same_calls(&a->fake, &b->fake);
		same_events(&a->ev, &b->ev);
		for (unsigned k = 0; k < a->ndom; k++)
			same_stats(a->ctx, a->dom[k], b->ctx, b->dom[k]);
		snap_take(a->ctx, &a->fake, sa);
		snap_take(b->ctx, &b->fake, sb);
		char why[256];
		if (snap_diff(sa, sb, why, sizeof(why)))
			fail_msg("step %u: %s", step, why);
	}
	/* Every branch was exercised, not just the happy path. */
	assert_true(raise_fail > 10);
	assert_true(lower_fail > 10);
	assert_true(bad > 10); /* -ERANGE, the map's -EINVAL */
	assert_true(moved > 100);
	free(sa);
	free(sb);
	side_fini(a);
	side_fini(b);
	free(a);
	free(b);
}

static void chain_equals_general(void **state)
{
	(void)state;
	run_chain_equals_general(0);
}

static void deep_chain_equals_general(void **state)
{
	(void)state;
	run_chain_equals_general(NPAD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(chain_equals_general),
		TEST(deep_chain_equals_general),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
