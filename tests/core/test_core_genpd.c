/* SPDX-License-Identifier: MIT */
/*
 * The orders Linux's genpd walks a domain's parent links in, where
 * docs/semantics.md says only "parents first" / "children first"
 * (docs/genpd-fidelity.md
 * rules 3 to 6): a raise and a power-on go depth first through the links
 * in the order they were added, a power-off too; a lowering calls the
 * domain, then its parents in the reverse order of their links, each
 * followed by what it frees (genpd's _genpd_set_performance_state). A
 * parent two children share is called once, after both.
 *
 * Shapes: C under P1 and P2 (in that order), P1 under R1, P2 under R2;
 * D under Q1 and Q2, both under R. Every domain has every callback.
 */
#include "test_core_common.h"

struct two_roots {
	dmn_domain_t r1, r2, p1, p2, c;
	dmn_attach_t at;
	dmn_device_t dev;
};

static struct two_roots mk_two_roots(struct tcase *t, struct dmn_ctx *ctx)
{
	struct two_roots s;
	s.r1 = fake_domain(&t->fake, ctx, "r1", &fake_ops_full, 0);
	s.r2 = fake_domain(&t->fake, ctx, "r2", &fake_ops_full, 0);
	s.p1 = fake_domain(&t->fake, ctx, "p1", &fake_ops_full, 0);
	s.p2 = fake_domain(&t->fake, ctx, "p2", &fake_ops_full, 0);
	s.c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, s.r1, s.p1), 0);
	assert_int_equal(dmn_link_add(ctx, s.r2, s.p2), 0);
	assert_int_equal(dmn_link_add(ctx, s.p1, s.c), 0);
	assert_int_equal(dmn_link_add(ctx, s.p2, s.c), 0);
	s.dev = mkdev(ctx, "dev");
	s.at = mkatt(ctx, s.dev, s.c);
	return s;
}

/* Rules 3 and 4: a resume raises, then powers on, R1, P1, R2, P2, C. */
static void raise_depth_first(void **state)
{
	T;
	struct two_roots s = mk_two_roots(t, ctx);
	assert_int_equal(dmn_vote(ctx, s.at, 5), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, s.dev), 0);
	LOG_IS(FAKE_PSTATE, s.r1, 5, FAKE_PSTATE, s.p1, 5, FAKE_PSTATE, s.r2, 5,
	       FAKE_PSTATE, s.p2, 5, FAKE_PSTATE, s.c, 5, FAKE_ON, s.r1, 0,
	       FAKE_ON, s.p1, 0, FAKE_ON, s.r2, 0, FAKE_ON, s.p2, 0, FAKE_ON,
	       s.c, 0);
}

/* Rule 6: a lowering takes the links backwards: C, P2 and what it frees
 * (R2), then P1 and R1. Rule 5: a power-off takes them forwards. */
static void lower_links_backwards(void **state)
{
	T;
	struct two_roots s = mk_two_roots(t, ctx);
	assert_int_equal(dmn_vote(ctx, s.at, 5), 0);
	assert_int_equal(dmn_device_get(ctx, s.dev), 0);
	CLEAR();
	assert_int_equal(dmn_vote(ctx, s.at, 1), 0);
	LOG_IS(FAKE_PSTATE, s.c, 1, FAKE_PSTATE, s.p2, 1, FAKE_PSTATE, s.r2, 1,
	       FAKE_PSTATE, s.p1, 1, FAKE_PSTATE, s.r1, 1);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, s.dev), 0);
	LOG_IS(FAKE_OFF, s.c, 0, FAKE_OFF, s.p1, 0, FAKE_OFF, s.r1, 0, FAKE_OFF,
	       s.p2, 0, FAKE_OFF, s.r2, 0, FAKE_PSTATE, s.c, 0, FAKE_PSTATE,
	       s.p2, 0, FAKE_PSTATE, s.r2, 0, FAKE_PSTATE, s.p1, 0,
	       FAKE_PSTATE, s.r1, 0);
}

/* Rule 6 on a diamond: R goes down once, after Q2 and Q1. */
static void diamond_lowers_shared_parent_last(void **state)
{
	T;
	dmn_domain_t r = fake_domain(&t->fake, ctx, "r", &fake_ops_full, 0);
	dmn_domain_t q1 = fake_domain(&t->fake, ctx, "q1", &fake_ops_full, 0);
	dmn_domain_t q2 = fake_domain(&t->fake, ctx, "q2", &fake_ops_full, 0);
	dmn_domain_t d = fake_domain(&t->fake, ctx, "d", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, r, q1), 0);
	assert_int_equal(dmn_link_add(ctx, r, q2), 0);
	assert_int_equal(dmn_link_add(ctx, q1, d), 0);
	assert_int_equal(dmn_link_add(ctx, q2, d), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t at = mkatt(ctx, dev, d);
	assert_int_equal(dmn_vote(ctx, at, 5), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	LOG_IS(FAKE_PSTATE, r, 5, FAKE_PSTATE, q1, 5, FAKE_PSTATE, q2, 5,
	       FAKE_PSTATE, d, 5, FAKE_ON, r, 0, FAKE_ON, q1, 0, FAKE_ON, q2, 0,
	       FAKE_ON, d, 0);
	CLEAR();
	assert_int_equal(dmn_vote(ctx, at, 0), 0);
	LOG_IS(FAKE_PSTATE, d, 0, FAKE_PSTATE, q2, 0, FAKE_PSTATE, q1, 0,
	       FAKE_PSTATE, r, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(raise_depth_first),
		TEST(lower_links_backwards),
		TEST(diamond_lowers_shared_parent_last),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
