/* SPDX-License-Identifier: MIT */
/*
 * dmn_vote's fast path (docs/decisions/vote-speed.md) against the general
 * engine.
 * Two contexts are built alike: a root domain with a rounding hook, devices
 * attached to it, a fake clock; in the chain variant (the fast path takes
 * chains: docs/decisions/chain-votes.md) half of the devices vote on a leaf
 * instead, under a
 * middle domain without a pstate callback, whose link to the root maps
 * each level 5 up. The same random operations run on both;
 * context A votes with dmn_vote (the fast path when the domain has no
 * parents and is on), context B with dmn_vote_many of one change (always the
 * general engine). After every step everything observable must be equal:
 * the return code, dmn_last_error(), the callbacks the fake hardware got,
 * the events, the statistics and pstate residencies, the snapshot. Injected
 * failures of set_performance_state cover a failed raise (rolled back) and
 * a failed lowering (kept, reported through dmn_last_error()).
 * The plain variants take the root's rounding hook away, so that a vote
 * on it takes the fast unit's chain of one domain (src/core/fast/fast.c),
 * with four voters or with one (the histogram's one bin moves in place,
 * the domain needs no lock of its own on a striped context), the one
 * voter also with no listener on either side (as in a driver's context). Each runs twice: context B
 * on dmn_lock_none, context A too or (_striped) on the default lock, whose
 * votes take the striped fast paths and dmn_vote's lock-free check of a
 * published unchanged vote.
 */
#include "test_core_common.h"
#include "test_compare.h"

#define NDEV 4

/* A child at level L asks L + 5 of the root. */
static int plus5(void *user, dmn_domain_t child, dmn_domain_t parent,
		 uint32_t level, uint32_t *parent_level)
{
	(void)user;
	(void)child;
	(void)parent;
	*parent_level = level + 5;
	return 0;
}

#define NDOM 3 /* root, mid, leaf */

struct side {
	struct fake fake;
	struct fake_alloc alloc;
	struct evrec ev;
	struct dmn_ctx *ctx;
	dmn_domain_t root;
	dmn_domain_t dom[NDOM];
	unsigned n_dom;
	dmn_device_t dev[NDEV];
	dmn_attach_t att[NDEV];
	unsigned n_dev;
	/* PLAIN_ONE_RESHAPED: the kid's link and the extra attachment. */
	bool kid_linked;
	dmn_device_t extra;
	dmn_attach_t extra_att; /* 0: detached */
};

/* PLAIN_ONE_QUIET: PLAIN_ONE with no listener on either side, so that
 * the one-voter path runs as it does in a driver's context (no event to
 * build). PLAIN_ONE_RESHAPED: PLAIN_ONE_QUIET whose root also gains and
 * loses, between the votes, a child domain (dom[1], "kid"), a second
 * attachment (the device "extra") and a rounding hook: the one-voter
 * path's shape, which a striped context checks once per exclusive call
 * (struct dmn_domain, fast_epoch), changing under it. */
enum shape { ROUNDED, CHAIN, PLAIN, PLAIN_ONE, PLAIN_ONE_QUIET,
	     PLAIN_ONE_RESHAPED, RAIL, RAIL_RESHAPED, FLAT };

/* RAIL, RAIL_RESHAPED: PLAIN_ONE_QUIET and PLAIN_ONE_RESHAPED without a
 * time source (pstates untimed) and with votes mostly toggling between
 * two levels: the case the fast unit's rail (vote_rail, src/core/fast/
 * rail.h) takes on a striped context. With no time source the on/off
 * times read the real clock, so those two sums are not compared (every
 * count and level is, and every pstate residency must read 0). FLAT: the
 * same with the four voters of PLAIN, no listener: the rail of several
 * voters, every vote on the domain's stripe. */
static bool is_rail(enum shape shape)
{
	return shape == RAIL || shape == RAIL_RESHAPED || shape == FLAT;
}

static bool is_reshaped(enum shape shape)
{
	return shape == PLAIN_ONE_RESHAPED || shape == RAIL_RESHAPED;
}

static void side_init(struct side *s, uint64_t *clock, enum shape shape,
		      bool striped)
{
	bool chain = shape == CHAIN;
	memset(s, 0, sizeof(*s));
	fake_init(&s->fake);
	s->fake.fail_err = -EIO;
	struct dmn_config cfg = fake_config(&s->alloc);
	if (!is_rail(shape)) {
		cfg.now = clock_now;
		cfg.now_user = clock;
	}
	if (striped) /* the default lock: stripes, the striped fast paths
		      * and dmn_vote's lock-free unchanged check */
		memset(&cfg.lock, 0, sizeof(cfg.lock));
	assert_int_equal(dmn_ctx_create(&cfg, &s->ctx), 0);
	if (shape < PLAIN_ONE_QUIET)
		assert_int_equal(dmn_listen(s->ctx, evrec_fn, &s->ev), 0);
	bool one = shape >= PLAIN_ONE && shape != FLAT;
	s->root = fake_domain(&s->fake, s->ctx, "root", &fake_ops_full, 0);
	if (shape == ROUNDED || chain)
		assert_int_equal(dmn_domain_set_rounding(s->ctx, s->root,
							round5, 0), 0);
	s->dom[0] = s->root;
	s->n_dom = 1;
	if (chain) {
		s->dom[1] = fake_domain(&s->fake, s->ctx, "mid",
					&fake_ops_power, 0);
		s->dom[2] = fake_domain(&s->fake, s->ctx, "leaf",
					&fake_ops_full, 0);
		assert_int_equal(dmn_link_add(s->ctx, s->root, s->dom[1]), 0);
		assert_int_equal(dmn_link_add(s->ctx, s->dom[1], s->dom[2]), 0);
		assert_int_equal(dmn_link_set_map(s->ctx, s->root, s->dom[1],
						 plus5, 0), 0);
		s->n_dom = NDOM;
	}
	if (is_reshaped(shape)) {
		s->dom[1] = fake_domain(&s->fake, s->ctx, "kid",
					&fake_ops_full, 0);
		s->n_dom = 2;
		s->extra = mkdev(s->ctx, "extra");
		assert_int_equal(dmn_device_get(s->ctx, s->extra), 0);
	}
	s->n_dev = one ? 1 : NDEV;
	for (unsigned i = 0; i < s->n_dev; i++) {
		char name[8];
		snprintf(name, sizeof(name), "d%u", i);
		s->dev[i] = mkdev(s->ctx, name);
		s->att[i] = mkatt(s->ctx, s->dev[i],
				  chain && i % 2 ? s->dom[2] : s->root);
		assert_int_equal(dmn_device_get(s->ctx, s->dev[i]), 0);
	}
}

static uint32_t pstate_of(struct side *s)
{
	return dinfo(s->ctx, s->root).pstate;
}

static void side_fini(struct side *s)
{
	dmn_ctx_destroy(s->ctx);
	assert_int_equal(s->alloc.live, 0);
}

/* One change of PLAIN_ONE_RESHAPED's root, chosen by @r: the kid linked
 * or unlinked, the extra device attached (voting @r's level) or
 * detached, or the rounding hook set or taken (-EBUSY unless the root is
 * at level 0 with no vote). */
static int reshape(struct side *s, uint32_t r)
{
	switch ((r >> 4) % 3) {
	case 0:
		s->kid_linked = !s->kid_linked;
		return s->kid_linked ? dmn_link_add(s->ctx, s->root, s->dom[1])
				     : dmn_link_remove(s->ctx, s->root,
						      s->dom[1]);
	case 1:
		if (s->extra_att) {
			int err = dmn_detach(s->ctx, s->extra_att);
			s->extra_att = 0;
			return err;
		}
		s->extra_att = mkatt(s->ctx, s->extra, s->root);
		return dmn_vote(s->ctx, s->extra_att, (r >> 8) % 100);
	default:
		return dmn_domain_set_rounding(s->ctx, s->root,
					       r & 0x100 ? round5 : NULL, 0);
	}
}

/* A vote's level: any of 0..111 (some above 100: -ERANGE); on a RAIL,
 * 20 or 40 seven times in eight. */
static uint32_t next_level(enum shape shape, uint32_t *seed)
{
	uint32_t r = next_rand(seed);
	if (is_rail(shape) && r % 8)
		return r & 0x100 ? 20 : 40;
	return (r >> 8) % 112;
}

static void run_fast_equals_general(enum shape shape, bool striped)
{
	uint64_t clock = 1000;
	struct side *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	side_init(a, &clock, shape, striped);
	side_init(b, &clock, shape, false);
	uint32_t seed = 7;
	unsigned raised_fail = 0, lowered_fail = 0;
	for (unsigned step = 0; step < 4000; step++) {
		uint32_t r = next_rand(&seed);
		unsigned i = r % a->n_dev;
		uint32_t level = next_level(shape, &seed);
		clock += 1 + (r >> 20) % 50;
		fake_clear_log(&a->fake);
		fake_clear_log(&b->fake);
		a->ev.n = b->ev.n = 0;
		int ra, rb;
		switch ((r >> 16) % 16) {
		case 0: /* the next pstate call of one domain fails */
			fake_fail(&a->fake, a->dom[(r >> 4) % a->n_dom],
				  FAKE_PSTATE, 1);
			fake_fail(&b->fake, b->dom[(r >> 4) % b->n_dom],
				  FAKE_PSTATE, 1);
			continue;
		case 1: /* an uncounted vote: stored for the resume */
			ra = dmn_device_put(a->ctx, a->dev[i]);
			rb = dmn_device_put(b->ctx, b->dev[i]);
			break;
		case 2:
			ra = dmn_device_get(a->ctx, a->dev[i]);
			rb = dmn_device_get(b->ctx, b->dev[i]);
			break;
		case 3: /* PLAIN_ONE_RESHAPED: the shape changes */
			if (!is_reshaped(shape))
				goto vote;
			ra = reshape(a, r);
			rb = reshape(b, r);
			break;
		default:
		vote:
			/* One to four votes in a row, nothing else on context
			 * A between them: any other call there (the checks
			 * below, dmn_last_error) is an exclusive call, after
			 * which a striped context checks the one-voter shape
			 * again; in a row, its votes find it checked. */
			ra = rb = 0;
			for (unsigned k = (r >> 24) % 4 + 1; k && ra == rb; k--) {
				struct dmn_vote_change ch = {b->att[i], level};
				uint32_t before = pstate_of(b);
				ra = dmn_vote(a->ctx, a->att[i], level);
				rb = dmn_vote_many(b->ctx, &ch, 1);
				raised_fail += rb == -EIO;
				lowered_fail += !rb &&
						dmn_last_error(b->ctx) == -EIO &&
						pstate_of(b) == before;
				level = next_level(shape, &seed);
			}
			break;
		}
		assert_int_equal(ra, rb);
		assert_int_equal(dmn_last_error(a->ctx),
				 dmn_last_error(b->ctx));
		same_calls(&a->fake, &b->fake);
		same_events(&a->ev, &b->ev);
		for (unsigned k = 0; k < a->n_dom; k++)
			same_stats_timed(a->ctx, a->dom[k], b->ctx, b->dom[k],
					 !is_rail(shape));
		struct snapshot *sa = malloc(sizeof(*sa)), *sb = malloc(sizeof(*sb));
		assert_non_null(sa);
		assert_non_null(sb);
		snap_take(a->ctx, &a->fake, sa);
		snap_take(b->ctx, &b->fake, sb);
		char why[256];
		if (snap_diff(sa, sb, why, sizeof(why)))
			fail_msg("step %u: %s", step, why);
		free(sa);
		free(sb);
	}
	/* Both failure directions were exercised, not just the happy path. */
	assert_true(raised_fail > 10);
	assert_true(lowered_fail > 10);
	side_fini(a);
	side_fini(b);
	free(a);
	free(b);
}

/* One test per variant: the shape, and whether context A is striped. */
#define VARIANT(fn, shape, striped)                                        \
	static void fn(void **state)                                          \
	{                                                                     \
		(void)state;                                                  \
		run_fast_equals_general(shape, striped);                      \
	}
VARIANT(fast_equals_general, ROUNDED, false)
VARIANT(fast_equals_general_striped, ROUNDED, true)
VARIANT(chain_equals_general, CHAIN, false)
VARIANT(chain_equals_general_striped, CHAIN, true)
VARIANT(alone_equals_general, PLAIN, false)
VARIANT(alone_equals_general_striped, PLAIN, true)
VARIANT(alone_one_voter_equals_general, PLAIN_ONE, false)
VARIANT(alone_one_voter_equals_general_striped, PLAIN_ONE, true)
VARIANT(quiet_one_voter_equals_general, PLAIN_ONE_QUIET, false)
VARIANT(quiet_one_voter_equals_general_striped, PLAIN_ONE_QUIET, true)
VARIANT(reshaped_one_voter_equals_general, PLAIN_ONE_RESHAPED, false)
VARIANT(reshaped_one_voter_equals_general_striped, PLAIN_ONE_RESHAPED, true)
VARIANT(rail_equals_general, RAIL, false)
VARIANT(rail_equals_general_striped, RAIL, true)
VARIANT(reshaped_rail_equals_general, RAIL_RESHAPED, false)
VARIANT(reshaped_rail_equals_general_striped, RAIL_RESHAPED, true)
VARIANT(flat_equals_general, FLAT, false)
VARIANT(flat_equals_general_striped, FLAT, true)

int main(void)
{
	/* The shared setup's context stays unused: both sides here need
	 * their own clock. */
	const struct CMUnitTest tests[] = {
		TEST(fast_equals_general),
		TEST(fast_equals_general_striped),
		TEST(chain_equals_general),
		TEST(chain_equals_general_striped),
		TEST(alone_equals_general),
		TEST(alone_equals_general_striped),
		TEST(alone_one_voter_equals_general),
		TEST(alone_one_voter_equals_general_striped),
		TEST(quiet_one_voter_equals_general),
		TEST(quiet_one_voter_equals_general_striped),
		TEST(reshaped_one_voter_equals_general),
		TEST(reshaped_one_voter_equals_general_striped),
		TEST(rail_equals_general),
		TEST(rail_equals_general_striped),
		TEST(reshaped_rail_equals_general),
		TEST(reshaped_rail_equals_general_striped),
		TEST(flat_equals_general),
		TEST(flat_equals_general_striped),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
