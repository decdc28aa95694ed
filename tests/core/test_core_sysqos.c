/* SPDX-License-Identifier: MIT */
/*
 * The system wakeup latency (lifecycle.h, Linux 6.19's CPU system wakeup
 * QoS): for a CPU domain (DMN_FLAG_CPU_DOMAIN) the runtime governor takes
 * the tighter of it and the devices' QoS, and system sleep picks the
 * deepest idle state within it or keeps the domain on; other domains are
 * as before. Explain says which; allocation and callback failures keep
 * the records equal to what the hardware accepted.
 */
#include "test_core_common.h"

#include <domino/explain.h>
#include <domino/idle.h>
#include <domino/lifecycle.h>

/* rail <- cpu_pd (CPU domain) <- cpu; rail <- gpu_pd (same idle states,
 * not a CPU domain) <- gpu. States: ret 10+10 us, pc 1000+1000 us. */
struct world {
	dmn_domain_t rail, cpu_pd, gpu_pd;
	dmn_device_t cpu, gpu;
};

static void add_states(struct dmn_ctx *ctx, dmn_domain_t d)
{
	struct dmn_idle_state_desc s0 = {"ret", 10, 10, 10, 0};
	struct dmn_idle_state_desc s1 = {"pc", 1000, 1000, 1000, 0};
	assert_int_equal(dmn_domain_add_idle_state(ctx, d, &s0, 0), 0);
	assert_int_equal(dmn_domain_add_idle_state(ctx, d, &s1, 0), 0);
}

static void build(struct tcase *t, struct world *w)
{
	struct dmn_ctx *ctx = t->ctx;
	w->rail = fake_domain(&t->fake, ctx, "rail", &fake_ops_full, 0);
	w->cpu_pd = fake_domain(&t->fake, ctx, "cpu_pd", &fake_ops_power,
				DMN_FLAG_CPU_DOMAIN);
	w->gpu_pd = fake_domain(&t->fake, ctx, "gpu_pd", &fake_ops_power, 0);
	assert_int_equal(dmn_link_add(ctx, w->rail, w->cpu_pd), 0);
	assert_int_equal(dmn_link_add(ctx, w->rail, w->gpu_pd), 0);
	add_states(ctx, w->cpu_pd);
	add_states(ctx, w->gpu_pd);
	w->cpu = mkdev(ctx, "cpu");
	w->gpu = mkdev(ctx, "gpu");
	mkatt(ctx, w->cpu, w->cpu_pd);
	mkatt(ctx, w->gpu, w->gpu_pd);
}

static int idle(struct dmn_ctx *ctx, dmn_domain_t d)
{
	return dinfo(ctx, d).idle_state;
}

static void set_get(void **state)
{
	T;
	uint32_t us = 7;
	assert_int_equal(dmn_system_wakeup_latency(ctx, &us), 0);
	assert_int_equal(us, DMN_QOS_NONE);
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 0), 0);
	assert_int_equal(dmn_system_wakeup_latency(ctx, &us), 0);
	assert_int_equal(us, 0);
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 4000000), 0);
	assert_int_equal(dmn_system_wakeup_latency(ctx, &us), 0);
	assert_int_equal(us, 4000000);
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, DMN_QOS_NONE), 0);
	assert_int_equal(dmn_system_wakeup_latency(ctx, &us), 0);
	assert_int_equal(us, DMN_QOS_NONE);
	EXPECT_NOOP_ERR(dmn_system_set_wakeup_latency(0, 5), -EINVAL);
	EXPECT_NOOP_ERR(dmn_system_wakeup_latency(0, &us), -EINVAL);
	EXPECT_NOOP_ERR(dmn_system_wakeup_latency(ctx, 0), -EINVAL);
}

static struct dmn_explanation explain(struct dmn_ctx *ctx, dmn_domain_t d);
static unsigned n_why;
static struct dmn_why whys[16];

/* At run time the CPU domain answers to the tighter limit; the GPU
 * domain, not a CPU domain, ignores it. Setting it re-evaluates
 * nothing. */
static void runtime_governor(void **state)
{
	T;
	struct world w;
	build(t, &w);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_device_get(ctx, w.gpu), 0);
	CLEAR();
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 100), 0);
	NO_CALLS();
	assert_int_equal(dmn_device_put(ctx, w.cpu), 0);
	assert_int_equal(dmn_device_put(ctx, w.gpu), 0);
	assert_int_equal(idle(ctx, w.cpu_pd), 0);
	assert_int_equal(idle(ctx, w.gpu_pd), 1);
	/* A device QoS tighter than the system's still wins. */
	assert_int_equal(dmn_device_set_qos(ctx, w.cpu, 5), 0);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_device_put(ctx, w.cpu), 0);
	assert_true(ON(w.cpu_pd));
	/* Equality passes: entry + exit of ret is 20 us. */
	assert_int_equal(dmn_device_set_qos(ctx, w.cpu, DMN_QOS_NONE), 0);
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 20), 0);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_device_put(ctx, w.cpu), 0);
	assert_int_equal(idle(ctx, w.cpu_pd), 0);
	/* The governor's records name the system limit where it ruled. */
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 100), 0);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_device_put(ctx, w.cpu), 0);
	explain(ctx, w.cpu_pd);
	assert_int_equal(n_why, 2);
	assert_int_equal(whys[0].kind, DMN_WHY_IDLE_SYSTEM_QOS);
	assert_int_equal(whys[0].y, 100000);
	assert_int_equal(whys[1].kind, DMN_WHY_IDLE_FITS);
	/* Cleared: the deepest again. */
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, DMN_QOS_NONE), 0);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_device_put(ctx, w.cpu), 0);
	assert_int_equal(idle(ctx, w.cpu_pd), 1);
}

static void why_fn(void *user, const struct dmn_why *w)
{
	(void)user;
	if (n_why < 16)
		whys[n_why] = *w;
	n_why++;
}

static struct dmn_explanation explain(struct dmn_ctx *ctx, dmn_domain_t d)
{
	struct dmn_explanation e;
	n_why = 0;
	assert_int_equal(dmn_domain_explain(ctx, d, &e, why_fn, 0), 0);
	return e;
}

/* In system sleep the CPU domain takes the deepest state within the
 * limit; the GPU domain its deepest, as before. */
static void sleep_within_limit(void **state)
{
	T;
	struct world w;
	build(t, &w);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_device_get(ctx, w.gpu), 0);
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 100), 0);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_false(ON(w.cpu_pd));
	assert_false(ON(w.gpu_pd));
	assert_false(ON(w.rail));
	assert_int_equal(idle(ctx, w.cpu_pd), 0);
	assert_int_equal(idle(ctx, w.gpu_pd), 1);
	struct dmn_explanation e = explain(ctx, w.cpu_pd);
	assert_int_equal(e.idle_why, DMN_IDLE_SYSTEM_QOS);
	assert_int_equal(n_why, 2);
	assert_int_equal(whys[0].kind, DMN_WHY_IDLE_SYSTEM_QOS);
	assert_int_equal(whys[0].idle, 1);
	assert_int_equal(whys[0].x, 2000000);
	assert_int_equal(whys[0].y, 100000);
	assert_int_equal(whys[1].kind, DMN_WHY_IDLE_FITS);
	assert_int_equal(whys[1].idle, 0);
	e = explain(ctx, w.gpu_pd);
	assert_int_equal(e.idle_why, DMN_IDLE_SYSTEM_SLEEP);
	assert_int_equal(dmn_system_resume(ctx), 0);
	assert_true(ON(w.cpu_pd));
	assert_true(ON(w.gpu_pd));
}

/* No state fits: the CPU domain stays on through sleep, with its parent;
 * explain rules out every state against the limit. Resume brings the
 * devices back; the domain was never off. */
static void sleep_nothing_fits(void **state)
{
	T;
	struct world w;
	build(t, &w);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 5), 0);
	CLEAR();
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_int_equal(dmn_last_error(ctx), 0);
	assert_true(ON(w.cpu_pd));
	assert_true(ON(w.rail));
	assert_int_equal(fake_log_count(&t->fake, FAKE_OFF, w.cpu_pd), 0);
	assert_int_equal(evrec_count(&t->ev, DMN_EV_STAY_ON), 1);
	struct dmn_explanation e = explain(ctx, w.cpu_pd);
	assert_int_equal(e.on, 1);
	assert_int_equal(n_why, 2);
	assert_int_equal(whys[0].kind, DMN_WHY_IDLE_SYSTEM_QOS);
	assert_int_equal(whys[1].kind, DMN_WHY_IDLE_SYSTEM_QOS);
	assert_int_equal(whys[1].x, 20000);
	assert_int_equal(whys[1].y, 5000);
	/* The rail is on for its child, not for the limit. */
	explain(ctx, w.rail);
	assert_int_equal(whys[0].kind, DMN_WHY_CHILD);
	assert_int_equal(dmn_system_resume(ctx), 0);
	assert_true(ON(w.cpu_pd));
	/* At run time the limit keeps it on as well, until cleared. */
	assert_int_equal(dmn_device_put(ctx, w.cpu), 0);
	assert_true(ON(w.cpu_pd));
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, DMN_QOS_NONE), 0);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_device_put(ctx, w.cpu), 0);
	assert_false(ON(w.cpu_pd));
}

/* Limit 0 is a real limit; plain off (no idle states) fits it. */
static void limit_zero(void **state)
{
	T;
	dmn_domain_t bare = fake_domain(&t->fake, ctx, "bare", &fake_ops_power,
					DMN_FLAG_CPU_DOMAIN);
	dmn_domain_t cpd = fake_domain(&t->fake, ctx, "cpd", &fake_ops_power,
				       DMN_FLAG_CPU_DOMAIN);
	add_states(ctx, cpd);
	dmn_device_t a = mkdev(ctx, "a"), c = mkdev(ctx, "c");
	mkatt(ctx, a, bare);
	mkatt(ctx, c, cpd);
	assert_int_equal(dmn_device_get(ctx, a), 0);
	assert_int_equal(dmn_device_get(ctx, c), 0);
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 0), 0);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_false(ON(bare));
	assert_true(ON(cpd));
	assert_int_equal(dmn_system_resume(ctx), 0);
	/* And at run time the CPU domain stays on too. */
	assert_int_equal(dmn_device_put(ctx, c), 0);
	assert_true(ON(cpd));
}

/* The rule at a power-off that fails in sleep: safe, reported; explain
 * says a state fitted (so the power-off failed, not the limit). */
static void sleep_power_off_fails(void **state)
{
	T;
	struct world w;
	build(t, &w);
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_int_equal(dmn_system_set_wakeup_latency(ctx, 100), 0);
	fake_fail(&t->fake, w.cpu_pd, FAKE_OFF, 1);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	assert_true(ON(w.cpu_pd));
	assert_true(ON(w.rail));
	explain(ctx, w.cpu_pd);
	assert_int_equal(n_why, 2);
	assert_int_equal(whys[0].kind, DMN_WHY_IDLE_SYSTEM_QOS);
	assert_int_equal(whys[1].kind, DMN_WHY_IDLE_FITS);
	assert_int_equal(dmn_system_resume(ctx), 0);
}

/* Every callback of the suspend may fail (power-offs, safe): the call
 * succeeds, and the records are what the hardware accepted. */
static void sleep_failure_at_every_callback(void **state)
{
	(void)state;
	for (unsigned long k = 1;; k++) {
		void *fresh;
		assert_int_equal(tc_setup(&fresh), 0);
		struct tcase *t = fresh;
		struct dmn_ctx *ctx = t->ctx;
		struct world w;
		build(t, &w);
		assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
		assert_int_equal(dmn_device_get(ctx, w.gpu), 0);
		assert_int_equal(dmn_system_set_wakeup_latency(ctx, 100), 0);
		CLEAR();
		fake_fail_call(&t->fake, k);
		assert_int_equal(dmn_system_suspend(ctx), 0);
		fake_fail_call(&t->fake, 0);
		int failed = dmn_last_error(ctx) != 0;
		assert_int_equal(ON(w.cpu_pd), HW(w.cpu_pd)->on);
		assert_int_equal(ON(w.gpu_pd), HW(w.gpu_pd)->on);
		assert_int_equal(ON(w.rail), HW(w.rail)->on);
		if (!ON(w.cpu_pd))
			assert_int_equal(idle(ctx, w.cpu_pd), 0);
		assert_int_equal(dmn_system_resume(ctx), 0);
		assert_true(ON(w.cpu_pd) && ON(w.gpu_pd) && ON(w.rail));
		assert_int_equal(tc_teardown(&fresh), 0);
		if (!failed)
			break;
	}
}

/* What the snapshot does not see: asleep or awake. */
struct keep {
	int asleep;
};

static void take(struct dmn_ctx *ctx, const struct world *w, struct keep *k)
{
	(void)w;
	k->asleep = dmn_system_asleep(ctx);
}

/* Allocation failures of a suspend with the limit set change nothing. */
static void enomem_sleep(void **state)
{
	(void)state;
	ENOMEM_LOOP_BOARD(
	    struct world, build, struct keep, take,
	    (assert_int_equal(dmn_device_get(ctx, b.cpu), 0),
	     assert_int_equal(dmn_system_set_wakeup_latency(ctx, 100), 0)),
	    dmn_system_suspend(ctx), assert_int_equal(idle(ctx, b.cpu_pd), 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    TEST(set_get),
	    TEST(runtime_governor),
	    TEST(sleep_within_limit),
	    TEST(sleep_nothing_fits),
	    TEST(limit_zero),
	    TEST(sleep_power_off_fails),
	    cmocka_unit_test(sleep_failure_at_every_callback),
	    cmocka_unit_test(enomem_sleep),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
