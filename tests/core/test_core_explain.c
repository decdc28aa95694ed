/* SPDX-License-Identifier: MIT */
/*
 * dmn_domain_explain (explain.h): holders in order, every pstate input,
 * and the governor's decision replayed rule by rule on the inputs it had.
 */
#include "test_core_common.h"

#include <domino/explain.h>
#include <domino/idle.h>
#include <domino/lifecycle.h>

static uint64_t clock_ns;
static uint64_t test_now(void *user)
{
	(void)user;
	return clock_ns;
}

struct got {
	struct dmn_why w[32];
	unsigned n;
};

static void rec(void *user, const struct dmn_why *why)
{
	struct got *g = user;
	assert_true(g->n < 32);
	g->w[g->n++] = *why;
}

static struct got explain(struct dmn_ctx *ctx, dmn_domain_t d,
			  struct dmn_explanation *e)
{
	struct got g;
	memset(&g, 0, sizeof(g));
	assert_int_equal(dmn_domain_explain(ctx, d, e, rec, &g), 0);
	return g;
}

static void holders_and_pstate_inputs(void **state)
{
	T;
	dmn_domain_t rail = fake_domain(&t->fake, ctx, "rail", &fake_ops_full, 0);
	dmn_domain_t gdsc = fake_domain(&t->fake, ctx, "gdsc", &fake_ops_power, 0);
	dmn_domain_t ao = fake_domain(&t->fake, ctx, "ao", &fake_ops_full,
				     DMN_FLAG_ALWAYS_ON);
	assert_int_equal(dmn_link_add(ctx, rail, gdsc), 0);
	dmn_device_t a = mkdev(ctx, "a"), b = mkdev(ctx, "b"), c = mkdev(ctx, "c");
	dmn_attach_t aa = mkatt(ctx, a, rail), ba = mkatt(ctx, b, rail);
	mkatt(ctx, c, gdsc);
	assert_int_equal(dmn_domain_boot_on(ctx, rail, 7), 0);
	assert_int_equal(dmn_vote(ctx, aa, 5), 0);
	assert_int_equal(dmn_vote(ctx, ba, 9), 0);
	assert_int_equal(dmn_device_get(ctx, a), 0);
	assert_int_equal(dmn_device_get(ctx, c), 0);
	struct dmn_explanation e;
	struct got g = explain(ctx, rail, &e);
	assert_int_equal(e.on, 1);
	assert_int_equal(e.pstate, 7);
	assert_int_equal(e.aggregate, 7);
	assert_int_equal(e.idle_why, DMN_IDLE_ON);
	/* Boot hold (awaiting b), then device a, then child gdsc; then the
	 * pstate inputs: boot 7, a's vote 5 (b is suspended: not counted). */
	assert_int_equal(g.n, 5);
	assert_int_equal(g.w[0].kind, DMN_WHY_BOOT_HOLD);
	assert_int_equal(g.w[0].level, 7);
	assert_int_equal(g.w[0].awaiting, 1);
	assert_int_equal(g.w[1].kind, DMN_WHY_DEVICE);
	assert_int_equal(g.w[1].dev, a);
	assert_int_equal(g.w[1].level, 5);
	assert_int_equal(g.w[2].kind, DMN_WHY_CHILD);
	assert_int_equal(g.w[2].child, gdsc);
	assert_int_equal(g.w[3].kind, DMN_WHY_PSTATE_BOOT);
	assert_int_equal(g.w[4].kind, DMN_WHY_PSTATE_DEVICE);
	assert_int_equal(g.w[4].level, 5);
	g = explain(ctx, ao, &e);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.w[0].kind, DMN_WHY_ALWAYS_ON);
	/* A lowering that fails leaves the pstate above the aggregate. */
	assert_int_equal(dmn_probe_all(ctx), 0);
	fake_fail(&t->fake, rail, FAKE_PSTATE, 1);
	assert_int_equal(dmn_vote(ctx, aa, 0), 0);
	g = explain(ctx, rail, &e);
	assert_int_equal(e.pstate, 5);
	assert_int_equal(e.aggregate, 0);
	/* Without a callback the explanation still comes. */
	assert_int_equal(dmn_domain_explain(ctx, rail, &e, 0, 0), 0);
	assert_int_equal(dmn_domain_explain(0, rail, &e, rec, &g), -EINVAL);
	assert_int_equal(dmn_domain_explain(ctx, rail, 0, rec, &g), -EINVAL);
	assert_int_equal(dmn_domain_explain(ctx, a, &e, rec, &g), -EBADF);
}

static void governor_decision_replayed(void **state)
{
	T;
	clock_ns = 0;
	dmn_domain_t d = fake_domain(&t->fake, ctx, "cluster", &fake_ops_power, 0);
	dmn_domain_t plain = fake_domain(&t->fake, ctx, "plain", &fake_ops_power, 0);
	struct dmn_idle_state_desc s0 = {"s0", 10, 10, 100, 0};
	struct dmn_idle_state_desc s1 = {"s1", 100, 100, 1000, 0};
	struct dmn_idle_state_desc s2 = {"s2", 1000, 1000, 10000, 0};
	assert_int_equal(dmn_domain_add_idle_state(ctx, d, &s0, 0), 0);
	assert_int_equal(dmn_domain_add_idle_state(ctx, d, &s1, 0), 0);
	assert_int_equal(dmn_domain_add_idle_state(ctx, d, &s2, 0), 0);
	dmn_device_t cpu = mkdev(ctx, "cpu");
	mkatt(ctx, cpu, d);
	struct dmn_explanation e;
	struct got g = explain(ctx, d, &e);
	assert_int_equal(e.idle_why, DMN_IDLE_INITIAL);
	assert_int_equal(e.idle_state, 2);
	assert_int_equal(g.n, 0);
	g = explain(ctx, plain, &e);
	assert_int_equal(e.idle_why, DMN_IDLE_NONE);
	/* QoS 1500 us rules out s2 (2000 us); a wakeup 1.5 ms after the
	 * power-off at 1 ms rules out s1 (0.2 + 1 ms residency > 0.5 ms). */
	assert_int_equal(dmn_device_get(ctx, cpu), 0);
	assert_int_equal(dmn_device_set_qos(ctx, cpu, 1500), 0);
	clock_ns = 1000000;
	assert_int_equal(dmn_device_set_wakeup(ctx, cpu, 2000000), 0);
	assert_int_equal(dmn_device_put(ctx, cpu), 0);
	/* Later constraints do not change the account of that decision. */
	assert_int_equal(dmn_device_set_qos(ctx, cpu, DMN_QOS_NONE), 0);
	clock_ns = 5000000;
	g = explain(ctx, d, &e);
	assert_int_equal(e.idle_why, DMN_IDLE_GOVERNOR);
	assert_int_equal(e.idle_state, 0);
	assert_int_equal(e.decided_ns, 1000000);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.w[0].kind, DMN_WHY_IDLE_QOS);
	assert_int_equal(g.w[0].idle, 2);
	assert_int_equal(g.w[0].x, 2000000);
	assert_int_equal(g.w[0].y, 1500000);
	assert_int_equal(g.w[1].kind, DMN_WHY_IDLE_RESIDENCY);
	assert_int_equal(g.w[1].idle, 1);
	assert_int_equal(g.w[1].x, 1000000 + 100000 + 1000000);
	assert_int_equal(g.w[1].y, 2000000);
	assert_int_equal(g.w[2].kind, DMN_WHY_IDLE_FITS);
	assert_int_equal(g.w[2].idle, 0);
	/* A QoS nothing fits: the governor keeps it on, every state listed
	 * as rejected. */
	assert_int_equal(dmn_device_set_wakeup(ctx, cpu, DMN_WAKEUP_NONE), 0);
	assert_int_equal(dmn_device_get(ctx, cpu), 0);
	assert_int_equal(dmn_device_set_qos(ctx, cpu, 1), 0);
	assert_int_equal(dmn_device_put(ctx, cpu), 0);
	g = explain(ctx, d, &e);
	assert_int_equal(e.on, 1);
	assert_int_equal(g.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(g.w[i].kind, DMN_WHY_IDLE_QOS);
		assert_int_equal(g.w[i].idle, 2 - i);
	}
}

/* A system-resume rolled back by a failed power-on puts every domain it
 * powered on back into its sleep state, reason included (nothing
 * observable differs: docs/semantics.md, Failures; found by
 * tests/sim/model_diff.py). */
static void rollback_keeps_sleep_reason(void **state)
{
	T;
	dmn_domain_t top = fake_domain(&t->fake, ctx, "top", &fake_ops_power, 0);
	dmn_domain_t sub = fake_domain(&t->fake, ctx, "sub", &fake_ops_power, 0);
	struct dmn_idle_state_desc s0 = {"s0", 10, 10, 100, 0};
	assert_int_equal(dmn_domain_add_idle_state(ctx, top, &s0, 0), 0);
	assert_int_equal(dmn_link_add(ctx, top, sub), 0);
	dmn_device_t a = mkdev(ctx, "a");
	mkatt(ctx, a, sub);
	assert_int_equal(dmn_device_get(ctx, a), 0);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	struct dmn_explanation e;
	explain(ctx, top, &e);
	assert_int_equal(e.idle_why, DMN_IDLE_SYSTEM_SLEEP);
	fake_fail(&t->fake, sub, FAKE_ON, 1);
	assert_int_equal(dmn_system_resume(ctx), -EIO);
	explain(ctx, top, &e);
	assert_int_equal(e.on, 0);
	assert_int_equal(e.idle_why, DMN_IDLE_SYSTEM_SLEEP);
}

static int setup_clock(void **state)
{
	int err = tc_setup(state);
	struct tcase *t = *state;
	dmn_ctx_destroy(t->ctx);
	struct dmn_config cfg = fake_config(&t->alloc);
	cfg.now = test_now;
	assert_int_equal(dmn_ctx_create(&cfg, &t->ctx), 0);
	return err;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    TEST(holders_and_pstate_inputs),
	    TEST(rollback_keeps_sleep_reason),
	    cmocka_unit_test_setup_teardown(governor_decision_replayed,
					    setup_clock, tc_teardown),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
