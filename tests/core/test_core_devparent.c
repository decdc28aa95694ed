/* SPDX-License-Identifier: MIT */
/*
 * Device parents (dmn_device_set_parent, src/core/devparent.c): a child's
 * active state holds its parent active, as Linux's runtime PM holds a
 * simple-pm-bus while a device on it is active. The parent resumes first
 * and suspends after its last active child, in one operation (one pstate
 * call a domain), and a failure at any callback of a resume, or any
 * allocation, changes nothing.
 */
#include "test_core_common.h"

#include <domino/lifecycle.h>

/* rail (levels) <- busd (on/off) <- gbd (on/off); cd (on/off) alone.
 * gb on gbd; bus on busd (vote 2); c on cd and on rail (vote 5); c2 on
 * cd. Parents: c, c2 -> bus -> gb. */
struct board {
	dmn_domain_t rail, busd, gbd, cd;
	dmn_device_t gb, bus, c, c2;
};

static void mkboard(struct tcase *t, struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	b->rail = fake_domain(&t->fake, ctx, "rail", &fake_ops_full, 0);
	b->busd = fake_domain(&t->fake, ctx, "busd", &fake_ops_power, 0);
	b->gbd = fake_domain(&t->fake, ctx, "gbd", &fake_ops_power, 0);
	b->cd = fake_domain(&t->fake, ctx, "cd", &fake_ops_power, 0);
	assert_int_equal(dmn_link_add(ctx, b->rail, b->busd), 0);
	b->gb = mkdev(ctx, "gb");
	b->bus = mkdev(ctx, "bus");
	b->c = mkdev(ctx, "c");
	b->c2 = mkdev(ctx, "c2");
	mkatt(ctx, b->gb, b->gbd);
	assert_int_equal(dmn_vote(ctx, mkatt(ctx, b->bus, b->busd), 2), 0);
	mkatt(ctx, b->c, b->cd);
	assert_int_equal(dmn_vote(ctx, mkatt(ctx, b->c, b->rail), 5), 0);
	mkatt(ctx, b->c2, b->cd);
	assert_int_equal(dmn_device_set_parent(ctx, b->bus, b->gb), 0);
	assert_int_equal(dmn_device_set_parent(ctx, b->c, b->bus), 0);
	assert_int_equal(dmn_device_set_parent(ctx, b->c2, b->bus), 0);
}

static unsigned usage(struct dmn_ctx *ctx, dmn_device_t d)
{
	struct dmn_device_info info;
	assert_int_equal(dmn_device_info(ctx, d, &info), 0);
	return info.usage;
}

static unsigned kids(struct dmn_ctx *ctx, dmn_device_t d)
{
	unsigned n = ~0u;
	assert_int_equal(dmn_device_parent(ctx, d, 0, &n), 0);
	return n;
}

/* The child's resume resumes the chain above it first: its domains power
 * on before the child's, the rail gets one pstate call (the max of both
 * devices' votes). */
static void resume_resumes_parents_first(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, b.c), 0);
	assert_true(ON(b.gbd) && ON(b.busd) && ON(b.cd) && ON(b.rail));
	assert_int_equal(PS(b.rail), 5);
	assert_int_equal(fake_log_count(&t->fake, FAKE_PSTATE, b.rail), 1);
	int gbd = fake_log_find(&t->fake, FAKE_ON, b.gbd);
	int busd = fake_log_find(&t->fake, FAKE_ON, b.busd);
	int cd = fake_log_find(&t->fake, FAKE_ON, b.cd);
	assert_true(gbd >= 0 && gbd < busd && busd < cd);
	assert_int_equal(usage(ctx, b.bus), 1);
	assert_int_equal(kids(ctx, b.bus), 1);
	assert_int_equal(usage(ctx, b.gb), 1);
	assert_int_equal(kids(ctx, b.gb), 1);
	/* A second child only counts. */
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, b.c2), 0);
	NO_CALLS();
	assert_int_equal(usage(ctx, b.bus), 2);
	assert_int_equal(usage(ctx, b.gb), 1);
}

/* The parent suspends after its last active child: the child's domains go
 * off first, then the bus's, then the grand-bus's; the rail lowers once. */
static void suspend_after_last_child(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_device_get(ctx, b.c), 0);
	assert_int_equal(dmn_device_get(ctx, b.c2), 0);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, b.c), 0);
	assert_true(ON(b.busd) && ON(b.gbd) && ON(b.cd));
	assert_int_equal(PS(b.rail), 2); /* the bus's vote still counts */
	assert_int_equal(usage(ctx, b.bus), 1);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, b.c2), 0);
	assert_false(ON(b.busd) || ON(b.gbd) || ON(b.cd) || ON(b.rail));
	int cd = fake_log_find(&t->fake, FAKE_OFF, b.cd);
	int busd = fake_log_find(&t->fake, FAKE_OFF, b.busd);
	int gbd = fake_log_find(&t->fake, FAKE_OFF, b.gbd);
	assert_true(cd >= 0 && cd < busd && busd < gbd);
	assert_int_equal(fake_log_count(&t->fake, FAKE_PSTATE, b.rail), 1);
	assert_int_equal(usage(ctx, b.bus), 0);
	assert_int_equal(kids(ctx, b.bus), 0);
	assert_int_equal(usage(ctx, b.gb), 0);
	assert_int_equal(kids(ctx, b.gb), 0);
}

/* The parent's own users and its children are counted apart: a put of
 * its own never takes it below its active children. */
static void own_users_and_children(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_device_get(ctx, b.bus), 0);
	assert_int_equal(dmn_device_get(ctx, b.c), 0);
	assert_int_equal(usage(ctx, b.bus), 2);
	assert_int_equal(dmn_device_put(ctx, b.c), 0);
	assert_true(ON(b.busd)); /* its own user */
	assert_int_equal(dmn_device_get(ctx, b.c), 0);
	assert_int_equal(dmn_device_put(ctx, b.bus), 0);
	assert_true(ON(b.busd)); /* held by c */
	EXPECT_NOOP_ERR(dmn_device_put(ctx, b.bus), -EALREADY);
	assert_int_equal(dmn_device_get(ctx, b.bus), 0);
	assert_int_equal(dmn_device_get(ctx, b.bus), 0);
	assert_int_equal(dmn_device_put(ctx, b.bus), 0); /* nested */
	assert_int_equal(dmn_device_put(ctx, b.bus), 0);
	EXPECT_NOOP_ERR(dmn_device_put(ctx, b.bus), -EALREADY);
	assert_int_equal(dmn_device_put(ctx, b.c), 0);
	assert_false(ON(b.busd) || ON(b.gbd));
	EXPECT_NOOP_ERR(dmn_device_put(ctx, b.bus), -EALREADY);
}

static void set_parent_errors(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	dmn_device_t p = 1;
	unsigned n = 7;
	assert_int_equal(dmn_device_parent(ctx, b.c, &p, &n), 0);
	assert_int_equal(p, b.bus);
	assert_int_equal(n, 0);
	assert_int_equal(dmn_device_parent(ctx, b.gb, &p, 0), 0);
	assert_int_equal(p, 0);
	EXPECT_NOOP_ERR(dmn_device_set_parent(ctx, b.gb, b.c), -ELOOP);
	EXPECT_NOOP_ERR(dmn_device_set_parent(ctx, b.gb, b.gb), -ELOOP);
	EXPECT_NOOP_ERR(dmn_device_set_parent(0, b.gb, b.c), -EINVAL);
	EXPECT_NOOP_ERR(dmn_device_set_parent(ctx, b.rail, b.c), -EBADF);
	EXPECT_NOOP_ERR(dmn_device_set_parent(ctx, b.c, b.rail), -EBADF);
	assert_int_equal(dmn_last_error(ctx), -EBADF);
	assert_int_equal(dmn_device_parent(ctx, b.c, 0, 0), -EINVAL);
	assert_int_equal(dmn_device_parent(ctx, b.rail, &p, 0), -EBADF);
	assert_int_equal(dmn_device_get(ctx, b.c), 0);
	EXPECT_NOOP_ERR(dmn_device_set_parent(ctx, b.c, 0), -EBUSY);
	EXPECT_NOOP_ERR(dmn_device_set_parent(ctx, b.bus, 0), -EBUSY);
	assert_int_equal(dmn_device_put(ctx, b.c), 0);
	/* Cleared: c no longer holds the bus. */
	assert_int_equal(dmn_device_set_parent(ctx, b.c, 0), 0);
	assert_int_equal(dmn_device_get(ctx, b.c), 0);
	assert_false(ON(b.busd));
	assert_int_equal(usage(ctx, b.bus), 0);
}

/* Fail the k-th callback of a resume that moves the whole chain, for
 * every k: the resume fails and nothing differs (devices' counts, the
 * parents' children, every domain, the hardware). */
static void resume_failure_at_every_callback(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	for (unsigned long k = 1;; k++) {
		SNAP();
		CLEAR();
		fake_fail_call(&t->fake, k);
		int err = dmn_device_get(ctx, b.c);
		fake_fail_call(&t->fake, 0);
		if (!err) {
			assert_true(k > 4); /* gbd, busd, cd on; a pstate */
			assert_true(ON(b.cd) && ON(b.busd) && ON(b.gbd));
			break;
		}
		assert_int_equal(err, -EIO);
		UNCHANGED();
		assert_int_equal(kids(ctx, b.bus), 0);
		assert_int_equal(kids(ctx, b.gb), 0);
	}
}

/* Suspend in the safe direction: a failing power-off keeps that domain
 * on and the call succeeds; the devices are suspended all the same and
 * a later resume and suspend leave everything off. */
static void suspend_failure_at_every_callback(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	for (unsigned long k = 1; k <= 4; k++) {
		assert_int_equal(dmn_device_get(ctx, b.c), 0);
		CLEAR();
		fake_fail_call(&t->fake, k);
		assert_int_equal(dmn_device_put(ctx, b.c), 0);
		fake_fail_call(&t->fake, 0);
		assert_int_equal(dmn_last_error(ctx), -EIO);
		assert_int_equal(usage(ctx, b.bus), 0);
		assert_int_equal(usage(ctx, b.gb), 0);
		assert_int_equal(kids(ctx, b.bus), 0);
		/* The records are what the hardware accepted. */
		struct dmn_domain_info r = dinfo(ctx, b.rail);
		assert_int_equal(r.on, HW(b.rail)->on);
		assert_int_equal(ON(b.busd), HW(b.busd)->on);
		assert_int_equal(ON(b.gbd), HW(b.gbd)->on);
		assert_int_equal(ON(b.cd), HW(b.cd)->on);
		assert_int_equal(dmn_device_get(ctx, b.c), 0);
		assert_int_equal(dmn_device_put(ctx, b.c), 0);
		assert_false(ON(b.busd) || ON(b.gbd) || ON(b.cd) || ON(b.rail));
	}
}

/* Every allocation of a chained resume may fail: -ENOMEM, nothing
 * changed, no callback. */
static void resume_enomem(void **state)
{
	(void)state;
	for (long k = 1;; k++) {
		void *fresh;
		assert_int_equal(tc_setup(&fresh), 0);
		struct tcase *t = fresh;
		struct dmn_ctx *ctx = t->ctx;
		struct board b;
		mkboard(t, &b);
		SNAP();
		CLEAR();
		fake_alloc_fail_at(&t->alloc, k);
		int err = dmn_device_get(ctx, b.c);
		fake_alloc_fail_at(&t->alloc, 0);
		if (err) {
			assert_int_equal(err, -ENOMEM);
			UNCHANGED();
			NO_CALLS();
			assert_int_equal(kids(ctx, b.bus), 0);
		} else {
			assert_true(ON(b.gbd) && ON(b.busd) && ON(b.cd));
		}
		assert_int_equal(tc_teardown(&fresh), 0); /* no leak */
		if (!err)
			break;
	}
}

/* System sleep suspends the bus with its child and restores both. */
static void system_sleep_restores_the_chain(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_device_get(ctx, b.c), 0);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_false(ON(b.busd) || ON(b.cd));
	EXPECT_NOOP_ERR(dmn_device_set_parent(ctx, b.bus, 0), -EBUSY);
	assert_int_equal(dmn_system_resume(ctx), 0);
	assert_true(ON(b.busd) && ON(b.cd) && ON(b.gbd));
	assert_int_equal(usage(ctx, b.bus), 1);
	assert_int_equal(dmn_device_put(ctx, b.c), 0);
	assert_false(ON(b.busd) || ON(b.gbd) || ON(b.cd));
}

/* A removed parent leaves its children without one. */
static void removed_parent(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	dmn_attach_t a;
	assert_int_equal(dmn_device_attachment(ctx, b.gb, 0, &a), 0);
	assert_int_equal(dmn_detach(ctx, a), 0);
	assert_int_equal(dmn_device_remove(ctx, b.gb), 0);
	dmn_device_t p = 1;
	assert_int_equal(dmn_device_parent(ctx, b.bus, &p, 0), 0);
	assert_int_equal(p, 0);
	assert_int_equal(dmn_device_get(ctx, b.c), 0);
	assert_true(ON(b.busd));
	assert_int_equal(dmn_device_put(ctx, b.c), 0);
	assert_false(ON(b.busd));
}

/* Random trees of devices (each one's parent an earlier device or none),
 * each on one of four domains (or none), and random gets and puts; with
 * @fail, now and then the next callback fails. After every call a
 * device's count is its own gets plus its active children, its children
 * count is theirs, and every domain an active device sits on is on; the
 * records are what the hardware accepted. Without failures a domain is
 * on exactly while an active device sits on it. */
#define RV 10
static void random_trees_run(struct tcase *t, bool fail, unsigned seed)
{
	struct dmn_ctx *ctx = t->ctx;
	srand(seed);
	dmn_domain_t dom[4];
	for (int i = 0; i < 4; i++) {
		char name[8];
		snprintf(name, sizeof(name), "d%d", i);
		dom[i] = fake_domain(&t->fake, ctx, name, &fake_ops_power, 0);
	}
	dmn_device_t v[RV];
	int par[RV], on[RV];
	unsigned own[RV] = {0};
	for (int i = 0; i < RV; i++) {
		char name[8];
		snprintf(name, sizeof(name), "v%d", i);
		v[i] = mkdev(ctx, name);
		on[i] = rand() % 5 - 1; /* -1: no domain */
		if (on[i] >= 0)
			mkatt(ctx, v[i], dom[on[i]]);
		par[i] = i && rand() % 4 ? rand() % i : -1;
		if (par[i] >= 0)
			assert_int_equal(
			    dmn_device_set_parent(ctx, v[i], v[par[i]]), 0);
	}
	for (int step = 0; step < 500; step++) {
		int k = rand() % RV;
		/* mostly a resume of a suspended device and a suspend of
		 * an active one, so domains go on and off */
		bool get = own[k] ? rand() % 4 == 0 : rand() % 8 != 0;
		fake_clear_log(&t->fake);
		if (fail && rand() % 2 == 0)
			fake_fail_call(&t->fake, 1 + (unsigned)(rand() % 2));
		int err = get ? dmn_device_get(ctx, v[k])
			      : dmn_device_put(ctx, v[k]);
		fake_fail_call(&t->fake, 0);
		if (get && !err)
			own[k]++;
		else if (get)
			assert_int_equal(err, -EIO); /* rolled back */
		else if (own[k] && !err)
			own[k]--;
		else
			assert_int_equal(err, own[k] ? 0 : -EALREADY);
		/* children come after their parents */
		unsigned held[RV] = {0};
		bool active[RV], needed[4] = {0};
		for (int i = RV - 1; i >= 0; i--) {
			active[i] = own[i] || held[i];
			if (active[i] && par[i] >= 0)
				held[par[i]]++;
		}
		for (int i = 0; i < RV; i++) {
			assert_int_equal(usage(ctx, v[i]), own[i] + held[i]);
			assert_int_equal(kids(ctx, v[i]), held[i]);
			if (active[i] && on[i] >= 0)
				needed[on[i]] = true;
		}
		for (int d = 0; d < 4; d++) {
			assert_int_equal(ON(dom[d]), HW(dom[d])->on);
			if (needed[d] || !fail)
				assert_int_equal(ON(dom[d]), needed[d]);
		}
	}
}

static void random_trees(void **state)
{
	T;
	random_trees_run(t, false, 1);
}

static void random_trees_failing(void **state)
{
	(void)state;
	for (unsigned seed = 2; seed < 40; seed++) {
		void *fresh;
		assert_int_equal(tc_setup(&fresh), 0);
		random_trees_run(fresh, true, seed);
		assert_int_equal(tc_teardown(&fresh), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    TEST(resume_resumes_parents_first),
	    TEST(suspend_after_last_child),
	    TEST(own_users_and_children),
	    TEST(set_parent_errors),
	    TEST(resume_failure_at_every_callback),
	    TEST(suspend_failure_at_every_callback),
	    cmocka_unit_test(resume_enomem),
	    TEST(system_sleep_restores_the_chain),
	    TEST(removed_parent),
	    TEST(random_trees),
	    cmocka_unit_test(random_trees_failing),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
