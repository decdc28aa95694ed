/* SPDX-License-Identifier: MIT */
/*
 * System sleep (lifecycle.h): the noirq phase's power-offs into the
 * deepest state, the wakeup path kept on with its parents, -EACCES while
 * asleep, resume as one transaction (rolled back on an unsafe failure),
 * sleep statistics, and allocation failures changing nothing.
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

/* rail <- usb_gdsc (active-wakeup) <- usb (wakeup-enabled, active);
 * rail <- cluster (two idle states) <- cpu (active, tight QoS). */
struct world {
	dmn_domain_t rail, usb_gdsc, cluster;
	dmn_device_t usb, cpu;
};

static void build(struct tcase *t, struct world *w)
{
	struct dmn_ctx *ctx = t->ctx;
	w->rail = fake_domain(&t->fake, ctx, "rail", &fake_ops_full, 0);
	w->usb_gdsc = fake_domain(&t->fake, ctx, "usb_gdsc", &fake_ops_power, 0);
	w->cluster = fake_domain(&t->fake, ctx, "cluster", &fake_ops_power, 0);
	assert_int_equal(dmn_link_add(ctx, w->rail, w->usb_gdsc), 0);
	assert_int_equal(dmn_link_add(ctx, w->rail, w->cluster), 0);
	struct dmn_idle_state_desc s0 = {"ret", 10, 10, 10, 0};
	struct dmn_idle_state_desc s1 = {"pc", 1000, 1000, 1000, 0};
	assert_int_equal(dmn_domain_add_idle_state(ctx, w->cluster, &s0, 0), 0);
	assert_int_equal(dmn_domain_add_idle_state(ctx, w->cluster, &s1, 0), 0);
	w->usb = mkdev(ctx, "usb");
	w->cpu = mkdev(ctx, "cpu");
	dmn_attach_t ua = mkatt(ctx, w->usb, w->usb_gdsc);
	mkatt(ctx, w->cpu, w->cluster);
	assert_int_equal(dmn_vote(ctx, ua, 3), 0);
	assert_int_equal(dmn_domain_set_active_wakeup(ctx, w->usb_gdsc, 1), 0);
	assert_int_equal(dmn_device_set_wakeup_enable(ctx, w->usb, 1), 0);
	/* QoS 100 us: the governor would never pick "pc". */
	assert_int_equal(dmn_device_set_qos(ctx, w->cpu, 100), 0);
	assert_int_equal(dmn_device_get(ctx, w->usb), 0);
	assert_int_equal(dmn_device_get(ctx, w->cpu), 0);
}

static int setup_clock(void **state)
{
	int err = tc_setup(state);
	struct tcase *t = *state;
	dmn_ctx_destroy(t->ctx);
	struct dmn_config cfg = fake_config(&t->alloc);
	cfg.now = test_now;
	clock_ns = 0;
	assert_int_equal(dmn_ctx_create(&cfg, &t->ctx), 0);
	return err;
}

static void suspend_keeps_wakeup_path(void **state)
{
	T;
	struct world w;
	build(t, &w);
	clock_ns = 1000;
	CLEAR();
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_int_equal(dmn_system_asleep(ctx), 1);
	/* The cluster goes to its deepest state, the governor not asked. */
	assert_false(ON(w.cluster));
	assert_int_equal(dinfo(ctx, w.cluster).idle_state, 1);
	/* The wakeup path and its parent stay on, at the wakeup vote. */
	assert_true(ON(w.usb_gdsc));
	assert_true(ON(w.rail));
	assert_int_equal(PS(w.rail), 3);
	LOG_IS(FAKE_OFF, w.cluster, 0);
	struct dmn_explanation e;
	assert_int_equal(dmn_domain_explain(ctx, w.cluster, &e, 0, 0), 0);
	assert_int_equal(e.idle_why, DMN_IDLE_SYSTEM_SLEEP);
	/* Runtime changes are refused while asleep; nesting counts are not. */
	EXPECT_NOOP_ERR(dmn_device_get(ctx, w.cpu), -EACCES);
	EXPECT_NOOP_ERR(dmn_device_put(ctx, w.usb), -EACCES);
	assert_int_equal(dmn_device_get(ctx, w.usb), 0);
	assert_int_equal(dmn_device_put(ctx, w.usb), 0);
	/* A second suspend does nothing. */
	CLEAR();
	assert_int_equal(dmn_system_suspend(ctx), 0);
	NO_CALLS();
	clock_ns = 5000;
	uint64_t count, ns;
	assert_int_equal(dmn_system_sleep_stats(ctx, &count, &ns), 0);
	assert_int_equal(count, 1);
	assert_int_equal(ns, 4000);
	CLEAR();
	assert_int_equal(dmn_system_resume(ctx), 0);
	assert_int_equal(dmn_system_asleep(ctx), 0);
	assert_true(ON(w.cluster));
	LOG_IS(FAKE_ON, w.cluster, 0);
	assert_int_equal(dmn_domain_sleep_stats(ctx, w.cluster, 1, &ns), 0);
	assert_int_equal(ns, 4000);
	assert_int_equal(dmn_domain_sleep_stats(ctx, w.cluster, 0, &ns), 0);
	assert_int_equal(ns, 0);
	assert_int_equal(dmn_domain_sleep_stats(ctx, w.rail, DMN_SLEEP_ON, &ns),
			 0);
	assert_int_equal(ns, 4000);
	assert_int_equal(dmn_domain_sleep_stats(ctx, w.cluster, 2, &ns),
			 -ENOENT);
	/* A resume while awake does nothing. */
	CLEAR();
	assert_int_equal(dmn_system_resume(ctx), 0);
	NO_CALLS();
}

static void suspended_wakeup_device_keeps_domain(void **state)
{
	T;
	struct world w;
	build(t, &w);
	/* usb runtime-suspends, but its domain is on (the cpu is not on it,
	 * so take a second device keeping usb_gdsc on). */
	dmn_device_t phy = mkdev(ctx, "phy");
	mkatt(ctx, phy, w.usb_gdsc);
	assert_int_equal(dmn_device_get(ctx, phy), 0);
	assert_int_equal(dmn_device_put(ctx, w.usb), 0);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	/* phy is suspended by sleep; usb_gdsc stays for usb's wakeup. */
	assert_true(ON(w.usb_gdsc));
	assert_true(ON(w.rail));
	assert_int_equal(dmn_system_resume(ctx), 0);
	assert_true(ON(w.usb_gdsc));
	/* Without active-wakeup, the domain goes. */
	assert_int_equal(dmn_domain_set_active_wakeup(ctx, w.usb_gdsc, 0), 0);
	assert_int_equal(dmn_domain_active_wakeup(ctx, w.usb_gdsc), 0);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_false(ON(w.usb_gdsc));
	assert_int_equal(dmn_system_resume(ctx), 0);
	assert_true(ON(w.usb_gdsc));
}

static void resume_failure_rolls_back_restoration(void **state)
{
	T;
	struct world w;
	build(t, &w);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	fake_fail(&t->fake, w.cluster, FAKE_ON, 1);
	assert_int_equal(dmn_system_resume(ctx), -EIO);
	assert_int_equal(dmn_system_asleep(ctx), 0);
	assert_false(ON(w.cluster));
	struct dmn_device_info di;
	assert_int_equal(dmn_device_info(ctx, w.cpu, &di), 0);
	assert_int_equal(di.usage, 0);
	/* Awake: the device can be resumed by hand. */
	assert_int_equal(dmn_device_get(ctx, w.cpu), 0);
	assert_true(ON(w.cluster));
}

static void errors(void **state)
{
	T;
	struct world w;
	build(t, &w);
	uint64_t a, b;
	EXPECT_NOOP_ERR(dmn_system_suspend(0), -EINVAL);
	EXPECT_NOOP_ERR(dmn_system_resume(0), -EINVAL);
	EXPECT_NOOP_ERR(dmn_system_asleep(0), -EINVAL);
	EXPECT_NOOP_ERR(dmn_device_set_wakeup_enable(0, w.usb, 1), -EINVAL);
	EXPECT_NOOP_ERR(dmn_device_set_wakeup_enable(ctx, w.rail, 1), -EBADF);
	EXPECT_NOOP_ERR(dmn_device_wakeup_enabled(ctx, w.rail), -EBADF);
	EXPECT_NOOP_ERR(dmn_domain_set_active_wakeup(0, w.rail, 1), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_set_active_wakeup(ctx, w.usb, 1), -EBADF);
	EXPECT_NOOP_ERR(dmn_domain_active_wakeup(ctx, w.usb), -EBADF);
	EXPECT_NOOP_ERR(dmn_system_sleep_stats(ctx, 0, &b), -EINVAL);
	EXPECT_NOOP_ERR(dmn_system_sleep_stats(ctx, &a, 0), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_sleep_stats(ctx, w.usb, 0, &a), -EBADF);
	EXPECT_NOOP_ERR(dmn_domain_sleep_stats(ctx, w.rail, 0, &a), -ENOENT);
	EXPECT_NOOP_ERR(dmn_domain_sleep_stats(ctx, w.rail, 0, 0), -EINVAL);
	assert_int_equal(dmn_device_wakeup_enabled(ctx, w.usb), 1);
}

static void enomem_suspend(void **state)
{
	(void)state;
	for (long k = 1;; k++) {
		struct tcase *t = calloc(1, sizeof(*t));
		assert_non_null(t);
		fake_init(&t->fake);
		struct dmn_config cfg = fake_config(&t->alloc);
		assert_int_equal(dmn_ctx_create(&cfg, &t->ctx), 0);
		struct dmn_ctx *ctx = t->ctx;
		struct world w;
		build(t, &w);
		SNAP();
		CLEAR();
		fake_alloc_fail_at(&t->alloc, k);
		int err = dmn_system_suspend(ctx);
		fake_alloc_fail_at(&t->alloc, 0);
		if (err) {
			assert_int_equal(err, -ENOMEM);
			UNCHANGED();
			NO_CALLS();
			assert_int_equal(dmn_system_asleep(ctx), 0);
		} else {
			assert_int_equal(dmn_system_asleep(ctx), 1);
		}
		dmn_ctx_destroy(ctx);
		assert_int_equal(t->alloc.live, 0);
		free(t);
		if (!err)
			break;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(suspend_keeps_wakeup_path,
					    setup_clock, tc_teardown),
	    TEST(suspended_wakeup_device_keeps_domain),
	    TEST(resume_failure_rolls_back_restoration),
	    TEST(errors),
	    cmocka_unit_test(enomem_suspend),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
