/* SPDX-License-Identifier: MIT */
/*
 * The subdomain graph at its edges: shared parents in a rollback, the order
 * of several parents, where a vote can land (-ENODEV), and the gaps a
 * mutation run found (docs/testing.md, Mutation testing): failing level maps,
 * the first of two
 * errors, a domain left high while off, a rejected floor, a governor's
 * out-of-range answer.
 */
#include "test_core_common.h"

#include <domino/idle.h>

/* P->A, P->B, A->G, B->G; a device on G and X. X's
 * power_on fails and so does G's power_off in the undo: G stays on, so A, B
 * and P must stay on for it, P at the level G requires. */
static void rollback_keeps_shared_parent(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t x = fake_domain(&t->fake, ctx, "x", &fake_ops_full, 0);
	dmn_domain_t a = fake_domain(&t->fake, ctx, "a", &fake_ops_full, 0);
	dmn_domain_t b = fake_domain(&t->fake, ctx, "b", &fake_ops_full, 0);
	dmn_domain_t g = fake_domain(&t->fake, ctx, "g", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, a), 0);
	assert_int_equal(dmn_link_add(ctx, p, b), 0);
	assert_int_equal(dmn_link_add(ctx, a, g), 0);
	assert_int_equal(dmn_link_add(ctx, b, g), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t ag = mkatt(ctx, dev, g);
	mkatt(ctx, dev, x);
	assert_int_equal(dmn_vote(ctx, ag, 4), 0);
	const dmn_domain_t above[] = {a, b, p};
	const dmn_domain_t all[] = {p, x, a, b, g};
	for (int round = 0; round < 2; round++) {
		fake_fail(&t->fake, x, FAKE_ON, 1);
		fake_fail(&t->fake, g, FAKE_OFF, 1);
		CLEAR();
		/* Round 1: G's lowering in the undo fails too (call 11: four
		 * raises, five power-ons, G's power-off, G's lowering). */
		fake_fail_call(&t->fake, round ? 11 : 0);
		assert_int_equal(dmn_device_get(ctx, dev), -EIO);
		fake_fail_call(&t->fake, 0);
		assert_int_equal(dmn_last_error(ctx), -EIO);
		if (round)
			assert_int_equal(t->fake.log[10].op, FAKE_PSTATE);
		/* G is on (its undo failed); everything above it holds it,
		 * at the level G is left at. */
		uint32_t level = round ? 4 : 0;
		assert_true(HW(g)->on && ON(g));
		assert_int_equal(PS(g), level);
		assert_int_equal(HW(g)->pstate, level);
		for (unsigned i = 0; i < 3; i++) {
			assert_true(ON(above[i]));
			assert_true(HW(above[i])->on);
			assert_int_equal(PS(above[i]), level);
			assert_int_equal(HW(above[i])->pstate, level);
		}
		assert_int_equal(dinfo(ctx, p).on_children, 2);
		assert_false(ON(x));
		/* The next change of G retries: all goes off. */
		assert_int_equal(dmn_device_get(ctx, dev), 0);
		assert_int_equal(dmn_device_put(ctx, dev), 0);
		for (unsigned i = 0; i < 5; i++) {
			assert_false(ON(all[i]));
			assert_false(HW(all[i])->on);
			assert_int_equal(HW(all[i])->pstate, 0);
		}
	}
}

/* docs/semantics.md, Ordering: several parents power on and off
 * in the order their links were added, as Linux walks them; pstates are
 * lowered in the reverse order (genpd's _genpd_set_performance_state). */
static void parents_in_link_order(void **state)
{
	T;
	dmn_domain_t q = fake_domain(&t->fake, ctx, "q", &fake_ops_full, 0);
	dmn_domain_t pp = fake_domain(&t->fake, ctx, "pp", &fake_ops_full, 0);
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, pp, p), 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0); /* P first */
	assert_int_equal(dmn_link_add(ctx, q, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t at = mkatt(ctx, dev, c);
	assert_int_equal(dmn_vote(ctx, at, 3), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	LOG_IS(FAKE_PSTATE, pp, 3, FAKE_PSTATE, p, 3, FAKE_PSTATE, q, 3,
	       FAKE_PSTATE, c, 3, FAKE_ON, pp, 0, FAKE_ON, p, 0, FAKE_ON, q, 0,
	       FAKE_ON, c, 0);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	/* Off: C, then P and what P frees (PP), then Q. Lowering walks the
	 * links backwards, as genpd does: C, Q, then P and PP. */
	LOG_IS(FAKE_OFF, c, 0, FAKE_OFF, p, 0, FAKE_OFF, pp, 0, FAKE_OFF, q, 0,
	       FAKE_PSTATE, c, 0, FAKE_PSTATE, q, 0, FAKE_PSTATE, p, 0,
	       FAKE_PSTATE, pp, 0);
}

/* docs/semantics.md, Votes and pstates: -ENODEV depends only on whether a
 * domain with a pstate
 * callback is reachable from the voted one, through every link. */
static void enodev_by_reach(void **state)
{
	T;
	dmn_domain_t root = fake_domain(&t->fake, ctx, "root", &fake_ops_power, 0);
	dmn_domain_t mid = fake_domain(&t->fake, ctx, "mid", &fake_ops_power, 0);
	dmn_domain_t leaf = fake_domain(&t->fake, ctx, "leaf", &fake_ops_power, 0);
	dmn_domain_t rail = fake_domain(&t->fake, ctx, "rail", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, root, mid), 0);
	assert_int_equal(dmn_link_add(ctx, mid, leaf), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t al = mkatt(ctx, dev, leaf), ar = mkatt(ctx, dev, root);
	/* A callback-less chain: the same answer wherever the vote is cast. */
	EXPECT_NOOP_ERR(dmn_vote(ctx, ar, 2), -ENODEV);
	EXPECT_NOOP_ERR(dmn_vote(ctx, al, 2), -ENODEV);
	struct dmn_vote_change ch = {al, 2};
	EXPECT_NOOP_ERR(dmn_vote_many(ctx, &ch, 1), -ENODEV);
	assert_int_equal(dmn_vote(ctx, al, 0), 0);
	/* A second parent of the middle domain with a callback: reachable. */
	assert_int_equal(dmn_link_add(ctx, rail, mid), 0);
	assert_int_equal(dmn_vote(ctx, al, 2), 0);
	EXPECT_NOOP_ERR(dmn_vote(ctx, ar, 2), -ENODEV);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(PS(rail), 2);
	assert_int_equal(HW(rail)->pstate, 2);
	assert_int_equal(PS(leaf), 2);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
}

static int map_fails(void *user, dmn_domain_t child, dmn_domain_t parent,
		     uint32_t level, uint32_t *out)
{
	(void)user;
	(void)child;
	(void)parent;
	*out = level;
	return level > 5 ? -EDOM : 0;
}

/* A level map's own errno is the call's answer. */
static void map_error_returned(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	assert_int_equal(dmn_link_set_map(ctx, p, c, map_fails, 0), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t at = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, at, 5), 0);
	assert_int_equal(PS(p), 5);
	EXPECT_NOOP_ERR(dmn_vote(ctx, at, 6), -EDOM);
	assert_int_equal(dmn_last_error(ctx), -EDOM);
	/* The map is also asked when the child's level changes another way:
	 * a new map that fails for the current level is refused. */
	assert_int_equal(dmn_link_set_map(ctx, p, c, 0, 0), 0);
	assert_int_equal(dmn_vote(ctx, at, 7), 0);
	EXPECT_NOOP_ERR(dmn_link_set_map(ctx, p, c, map_fails, 0), -EDOM);
	/* The old (identity) map stands: a new vote uses it. */
	assert_int_equal(dmn_vote(ctx, at, 8), 0);
	assert_int_equal(PS(p), 8);
}

static int err_a, err_b;
static dmn_domain_t dom_a, dom_b;
static int off_fails(void *user, dmn_domain_t dom, int idle)
{
	(void)user;
	(void)idle;
	return dom == dom_a ? err_a : dom == dom_b ? err_b : 0;
}
static int on_ok(void *user, dmn_domain_t dom)
{
	(void)user;
	(void)dom;
	return 0;
}
static const struct dmn_domain_ops ops_off_fails = {on_ok, off_fails, 0, 0};

/* With two failures in one call, dmn_last_error is the first. */
static void first_of_two_errors(void **state)
{
	T;
	struct dmn_domain_desc da = {"a", &ops_off_fails, 0, 0};
	struct dmn_domain_desc db = {"b", &ops_off_fails, 0, 0};
	assert_int_equal(dmn_domain_create(ctx, &da, &dom_a), 0);
	assert_int_equal(dmn_domain_create(ctx, &db, &dom_b), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	mkatt(ctx, dev, dom_a);
	mkatt(ctx, dev, dom_b);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	err_a = -EBUSY;
	err_b = -ETIMEDOUT;
	t->ev.n = 0;
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(evrec_count(&t->ev, DMN_EV_FAILURE), 2);
	const struct dmn_event *first = evrec_first(&t->ev, DMN_EV_FAILURE);
	assert_int_equal(dmn_last_error(ctx), first->error);
	assert_true(first->error == -EBUSY || first->error == -ETIMEDOUT);
	err_a = err_b = 0;
}

/* An off domain left at a high level (its lowering failed) must
 * not power on above what its parent allows. One pstate call a domain a
 * command (docs/semantics.md, Ordering): it is lowered first, while off, so
 * its parent is raised
 * once, to what the vote asks (model_diff.py seeds 20210, 31296). */
static void stuck_high_waits_for_parent(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t at = mkatt(ctx, dev, c);
	assert_int_equal(dmn_vote(ctx, at, 6), 0);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_false(ON(c));
	assert_int_equal(PS(c), 6);
	assert_int_equal(PS(p), 0); /* c is off: it holds nothing */
	assert_int_equal(dmn_vote(ctx, at, 2), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	int lower = fake_log_find(&t->fake, FAKE_PSTATE, c);
	int raise = fake_log_find(&t->fake, FAKE_PSTATE, p);
	int on = fake_log_find(&t->fake, FAKE_ON, c);
	assert_true(lower >= 0 && raise >= 0 && on >= 0);
	assert_true(lower < on && raise < on);
	assert_int_equal(t->fake.log[lower].value, 2);
	assert_int_equal(t->fake.log[raise].value, 2);
	assert_int_equal(fake_log_count(&t->fake, FAKE_PSTATE, p), 1);
	assert_int_equal(fake_log_count(&t->fake, FAKE_PSTATE, c), 1);
	assert_int_equal(PS(c), 2);
	assert_int_equal(PS(p), 2);

	/* If that lowering fails, it powers on where it is, its parent
	 * raised for that level first, and is not called again. */
	assert_int_equal(dmn_vote(ctx, at, 6), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(PS(c), 6);
	assert_int_equal(dmn_vote(ctx, at, 2), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	raise = fake_log_find(&t->fake, FAKE_PSTATE, p);
	on = fake_log_find(&t->fake, FAKE_ON, c);
	assert_true(raise >= 0 && on >= 0 && raise < on);
	assert_int_equal(t->fake.log[raise].value, 6);
	assert_int_equal(fake_log_count(&t->fake, FAKE_PSTATE, c), 1);
	assert_true(ON(c));
	assert_int_equal(PS(c), 6);
	assert_int_equal(PS(p), 6);
}

/* A floor whose raise fails is not kept for a later vote. */
static void failed_floor_not_kept(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t at = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_link_set_floor(ctx, p, c, 2), 0);
	assert_int_equal(PS(p), 2);
	fake_fail(&t->fake, p, FAKE_PSTATE, 1);
	SNAP();
	assert_int_equal(dmn_link_set_floor(ctx, p, c, 9), -EIO);
	UNCHANGED();
	assert_int_equal(dmn_vote(ctx, at, 1), 0);
	assert_int_equal(PS(p), 2);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(PS(p), 2);
}

static int gov_answer;
static int fixed_governor(void *user, dmn_domain_t dom,
			  const struct dmn_governor_input *in)
{
	(void)user;
	(void)dom;
	(void)in;
	return gov_answer;
}

/* A custom governor's answer out of range (n_states included)
 * means "stay on". */
static void governor_out_of_range(void **state)
{
	T;
	dmn_domain_t d = fake_domain(&t->fake, ctx, "d", &fake_ops_full, 0);
	struct dmn_idle_state_desc s0 = {"ret", 10, 10, 100, 0};
	struct dmn_idle_state_desc s1 = {"off", 100, 100, 1000, 0};
	assert_int_equal(dmn_domain_add_idle_state(ctx, d, &s0, 0), 0);
	assert_int_equal(dmn_domain_add_idle_state(ctx, d, &s1, 0), 0);
	assert_int_equal(dmn_domain_set_governor(ctx, d, DMN_GOVERNOR_CUSTOM,
						fixed_governor, 0),
			 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	mkatt(ctx, dev, d);
	const int answers[] = {2, 3, -1, 1};
	for (unsigned i = 0; i < 4; i++) {
		gov_answer = answers[i];
		assert_int_equal(dmn_device_get(ctx, dev), 0);
		assert_int_equal(dmn_device_put(ctx, dev), 0);
		if (answers[i] == 1) {
			assert_false(ON(d));
			assert_int_equal(dinfo(ctx, d).idle_state, 1);
		} else {
			assert_true(ON(d));
			assert_true(HW(d)->on);
		}
	}
}

#define DEEP 100000

/* No depth cap. A 100,000-deep chain, linked top-down or
 * bottom-up, takes every link, a vote on its leaf reaches the root, and
 * only a real cycle is refused. */
static void deep_chain(bool bottom_up, void **state)
{
	T;
	dmn_domain_t root = fake_domain(&t->fake, ctx, "root", &fake_ops_full, 0);
	dmn_domain_t *chain = calloc(DEEP, sizeof(*chain));
	assert_non_null(chain);
	chain[0] = root;
	for (unsigned i = 1; i < DEEP; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%u", i);
		struct dmn_domain_desc desc = {name, 0, 0, 0};
		assert_int_equal(dmn_domain_create(ctx, &desc, &chain[i]), 0);
	}
	for (unsigned k = 1; k < DEEP; k++) {
		unsigned i = bottom_up ? DEEP - k : k;
		assert_int_equal(dmn_link_add(ctx, chain[i - 1], chain[i]), 0);
	}
	dmn_domain_t leaf = chain[DEEP - 1];
	assert_int_equal(dmn_link_add(ctx, leaf, root), -ELOOP);
	assert_int_equal(dmn_link_add(ctx, chain[DEEP / 2], chain[1]), -ELOOP);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t at = mkatt(ctx, dev, leaf);
	assert_int_equal(dmn_vote(ctx, at, 3), 0);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_true(ON(root) && ON(leaf));
	assert_int_equal(HW(root)->pstate, 3);
	assert_int_equal(dmn_vote(ctx, at, 5), 0);
	assert_int_equal(HW(root)->pstate, 5);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_false(ON(root) || ON(leaf));
	assert_int_equal(HW(root)->pstate, 0);
	/* Constraints pass up the whole chain too. */
	assert_int_equal(dmn_device_set_qos(ctx, dev, 7), 0);
	uint64_t qos, wake;
	assert_int_equal(dmn_domain_constraints(ctx, root, &qos, &wake), 0);
	assert_int_equal(qos, 7000);
	free(chain);
}

static void deep_chain_top_down(void **state)
{
	deep_chain(false, state);
}

static void deep_chain_bottom_up(void **state)
{
	deep_chain(true, state);
}

static int pstate_ok(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return 0;
}
static const struct dmn_domain_ops ops_pstate_ok = {0, 0, pstate_ok, 0};

/* No compiled caps: idle states, pstate levels in the
 * statistics and the changes of one dmn_vote_many are limited by memory
 * only. */
static void no_compiled_caps(void **state)
{
	T;
	enum { STATES = 40, LEVELS = 100, ATTS = 200 };
	dmn_domain_t d = fake_domain(&t->fake, ctx, "d", &fake_ops_full, 0);
	for (unsigned i = 0; i < STATES; i++) {
		struct dmn_idle_state_desc s = {"s", i, i, i, 0};
		unsigned index = 0;
		assert_int_equal(dmn_domain_add_idle_state(ctx, d, &s, &index), 0);
		assert_int_equal(index, i);
	}
	assert_int_equal(dmn_domain_n_idle_states(ctx, d), STATES);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t at = mkatt(ctx, dev, d);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	for (uint32_t level = 1; level <= LEVELS; level++)
		assert_int_equal(dmn_vote(ctx, at, level), 0);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	/* The deepest state is chosen, every level was recorded. */
	assert_int_equal(dinfo(ctx, d).idle_state, STATES - 1);
	struct dmn_domain_stats st;
	assert_int_equal(dmn_domain_stats(ctx, d, &st), 0);
	assert_int_equal(st.n_pstates, LEVELS + 1);
	uint32_t level;
	uint64_t ns;
	assert_int_equal(dmn_domain_pstate_residency(ctx, d, LEVELS, &level,
						    &ns),
			 0);
	assert_int_equal(level, LEVELS);

	/* One device on 200 domains, all voted in one transaction. */
	dmn_device_t wide = mkdev(ctx, "wide");
	struct dmn_vote_change *ch = calloc(ATTS, sizeof(*ch));
	assert_non_null(ch);
	for (unsigned i = 0; i < ATTS; i++) {
		struct dmn_domain_desc desc = {"w", &ops_pstate_ok, 0, 0};
		dmn_domain_t w;
		assert_int_equal(dmn_domain_create(ctx, &desc, &w), 0);
		ch[i].att = mkatt(ctx, wide, w);
		ch[i].level = 1 + i;
	}
	assert_int_equal(dmn_device_get(ctx, wide), 0);
	assert_int_equal(dmn_vote_many(ctx, ch, ATTS), 0);
	for (unsigned i = 0; i < ATTS; i++)
		assert_int_equal(PS(ainfo(ctx, ch[i].att).domain), 1 + i);
	assert_int_equal(dmn_device_put(ctx, wide), 0);
	free(ch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(rollback_keeps_shared_parent),
		TEST(parents_in_link_order),
		TEST(enodev_by_reach),
		TEST(map_error_returned),
		TEST(first_of_two_errors),
		TEST(stuck_high_waits_for_parent),
		TEST(failed_floor_not_kept),
		TEST(governor_out_of_range),
		TEST(deep_chain_top_down),
		TEST(deep_chain_bottom_up),
		TEST(no_compiled_caps),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
