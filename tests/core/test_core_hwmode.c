/* SPDX-License-Identifier: MIT */
/*
 * Hardware mode, always-on devices and always-on domains (lifecycle.h,
 * docs/lifecycle.md): the power-off vetoes keep only what is on, never power
 * anything on, stop counting in system sleep, and every error, injected
 * set_hwmode failure and allocation failure leaves the state as it was.
 */
#include "test_core_common.h"

#include <domino/explain.h>
#include <domino/lifecycle.h>

/* set_hwmode of the fake GDSC: every call logged, the next hw_fail calls
 * fail with hw_ret. */
static struct {
	unsigned calls, fail;
	int ret;
	dmn_device_t dev;
	int hw;
} hw;

static int gdsc_hwmode(void *user, dmn_domain_t dom, dmn_device_t dev, int on)
{
	(void)user;
	(void)dom;
	hw.calls++;
	hw.dev = dev;
	hw.hw = on;
	if (hw.fail) {
		hw.fail--;
		return hw.ret;
	}
	return 0;
}

static int gdsc_on(void *user, dmn_domain_t dom)
{
	return fake_ops_power.power_on(user, dom);
}

static int gdsc_off(void *user, dmn_domain_t dom, int idle)
{
	return fake_ops_power.power_off(user, dom, idle);
}

static const struct dmn_domain_ops ops_gdsc = {gdsc_on, gdsc_off, 0,
					      gdsc_hwmode};

/* explain's records. */
struct recs {
	unsigned n;
	struct dmn_why w[8];
};

static void collect(void *u, const struct dmn_why *w)
{
	struct recs *rec = u;
	if (rec->n < 8)
		rec->w[rec->n++] = *w;
}

/* rail (levels, no set_hwmode) <- gdsc (set_hwmode); a on gdsc and rail,
 * b on gdsc. */
struct board {
	dmn_domain_t rail, gdsc;
	dmn_device_t a, b;
	dmn_attach_t aa, ab, ar;
};

static void mkboard(struct tcase *t, struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	memset(&hw, 0, sizeof(hw));
	hw.ret = -EIO;
	b->rail = fake_domain(&t->fake, ctx, "rail", &fake_ops_full, 0);
	b->gdsc = fake_domain(&t->fake, ctx, "gdsc", &ops_gdsc, 0);
	assert_int_equal(dmn_link_add(ctx, b->rail, b->gdsc), 0);
	b->a = mkdev(ctx, "a");
	b->b = mkdev(ctx, "b");
	b->aa = mkatt(ctx, b->a, b->gdsc);
	b->ar = mkatt(ctx, b->a, b->rail);
	b->ab = mkatt(ctx, b->b, b->gdsc);
}

static void hwmode_keeps_an_on_domain(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_vote(ctx, b.ar, 5), 0);
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	CLEAR();
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.aa, 1), 0);
	assert_int_equal(hw.calls, 1);
	assert_int_equal(hw.dev, b.a);
	assert_int_equal(hw.hw, 1);
	NO_CALLS(); /* entering powers nothing */
	assert_int_equal(dmn_attach_hwmode(ctx, b.aa), 1);
	assert_int_equal(dmn_attach_hwmode(ctx, b.ab), 0);
	assert_int_equal(dmn_domain_hwmode(ctx, b.gdsc), 1);
	assert_int_equal(dmn_domain_hwmode(ctx, b.rail), 0);
	const struct dmn_event *e = evrec_first(&t->ev, DMN_EV_HWMODE);
	assert_non_null(e);
	assert_int_equal(e->domain, b.gdsc);
	assert_int_equal(e->device, b.a);
	assert_int_equal(e->old_value, 0);
	assert_int_equal(e->new_value, 1);
	/* The current mode again: no call. */
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.aa, 7), 0);
	assert_int_equal(hw.calls, 1);
	/* Runtime suspend: gdsc and its parent stay on; the votes still
	 * aggregate (a's vote left the rail). */
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	assert_int_equal(PS(b.rail), 0);
	assert_int_equal(fake_log_count(&t->fake, FAKE_OFF, b.gdsc), 0);
	/* explain names the holder. */
	struct dmn_explanation x;
	struct recs rec = {0};
	assert_int_equal(dmn_domain_explain(ctx, b.gdsc, &x, collect, &rec), 0);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.w[0].kind, DMN_WHY_HWMODE);
	assert_int_equal(rec.w[0].dev, b.a);
	/* Leaving HW mode re-evaluates at once: gdsc, then the rail, off. */
	CLEAR();
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.aa, 0), 0);
	assert_int_equal(hw.calls, 2);
	assert_int_equal(hw.hw, 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
	assert_int_equal(fake_log_find(&t->fake, FAKE_OFF, b.gdsc), 0);
	assert_int_equal(dmn_domain_hwmode(ctx, b.gdsc), 0);
}

static void hwmode_powers_nothing_on(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	CLEAR();
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.aa, 1), 0);
	NO_CALLS();
	assert_false(ON(b.gdsc));
	/* Once a device powers it on, the mode keeps it. */
	assert_int_equal(dmn_device_get(ctx, b.b), 0);
	assert_int_equal(dmn_device_put(ctx, b.b), 0);
	assert_true(ON(b.gdsc));
	/* Several attachments: in HW mode while any is. */
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.ab, 1), 0);
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.aa, 0), 0);
	assert_true(ON(b.gdsc));
	assert_int_equal(dmn_domain_hwmode(ctx, b.gdsc), 1);
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.ab, 0), 0);
	assert_false(ON(b.gdsc));
}

static void hwmode_errors_change_nothing(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	EXPECT_NOOP_ERR(dmn_attach_set_hwmode(0, b.aa, 1), -EINVAL);
	EXPECT_NOOP_ERR(dmn_attach_set_hwmode(ctx, 0, 1), -EBADF);
	EXPECT_NOOP_ERR(dmn_attach_set_hwmode(ctx, b.gdsc, 1), -EBADF);
	/* The rail has no set_hwmode. */
	EXPECT_NOOP_ERR(dmn_attach_set_hwmode(ctx, b.ar, 1), -EOPNOTSUPP);
	assert_int_equal(dmn_last_error(ctx), -EOPNOTSUPP);
	assert_int_equal(hw.calls, 0);
	assert_int_equal(dmn_attach_hwmode(0, b.aa), -EINVAL);
	assert_int_equal(dmn_attach_hwmode(ctx, b.a), -EBADF);
	assert_int_equal(dmn_domain_hwmode(0, b.gdsc), -EINVAL);
	assert_int_equal(dmn_domain_hwmode(ctx, b.aa), -EBADF);
}

/* An injected set_hwmode failure, entering and leaving: the call returns
 * it, the mode and every state stay as they were. */
static void hwmode_failure_leaves_the_mode(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	hw.fail = 1;
	EXPECT_NOOP_ERR(dmn_attach_set_hwmode(ctx, b.aa, 1), -EIO);
	assert_int_equal(hw.calls, 1);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	assert_int_equal(dmn_domain_hwmode(ctx, b.gdsc), 0);
	const struct dmn_event *e = evrec_first(&t->ev, DMN_EV_FAILURE);
	assert_non_null(e);
	assert_int_equal(e->op, DMN_OP_SET_HWMODE);
	assert_int_equal(e->error, -EIO);
	assert_int_equal(evrec_count(&t->ev, DMN_EV_HWMODE), 0);
	/* Leaving, with the device suspended: the domain is not
	 * re-evaluated, it stays on in HW mode. */
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.aa, 1), 0);
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	hw.fail = 1;
	hw.ret = 5; /* a positive return counts as -EIO */
	EXPECT_NOOP_ERR(dmn_attach_set_hwmode(ctx, b.aa, 0), -EIO);
	assert_int_equal(dmn_attach_hwmode(ctx, b.aa), 1);
	assert_true(ON(b.gdsc));
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.aa, 0), 0);
	assert_false(ON(b.gdsc));
}

/* Every allocation of @call failing in turn, on a fresh board set up by
 * @setup: -ENOMEM changes nothing and calls nothing (set_hwmode
 * included); the first run that gets its memory passes @check. */
static void enomem_loop(void (*setup)(struct tcase *, struct board *),
			int (*call)(struct dmn_ctx *, const struct board *),
			void (*check)(struct tcase *, const struct board *))
{
	for (long k = 1;; k++) {
		struct tcase *t = calloc(1, sizeof(*t));
		assert_non_null(t);
		fake_init(&t->fake);
		struct dmn_config cfg = fake_config(&t->alloc);
		assert_int_equal(dmn_ctx_create(&cfg, &t->ctx), 0);
		struct dmn_ctx *ctx = t->ctx;
		struct board b;
		mkboard(t, &b);
		setup(t, &b);
		SNAP();
		CLEAR();
		unsigned calls = hw.calls;
		fake_alloc_fail_at(&t->alloc, k);
		int err = call(ctx, &b);
		fake_alloc_fail_at(&t->alloc, 0);
		if (err) {
			assert_int_equal(err, -ENOMEM);
			assert_int_equal(hw.calls, calls);
			UNCHANGED();
			NO_CALLS();
		} else {
			check(t, &b);
		}
		dmn_ctx_destroy(ctx);
		assert_int_equal(t->alloc.live, 0);
		free(t);
		if (!err)
			break;
	}
}

/* Leaving HW mode: -ENOMEM only before the callback; entering needs no
 * memory at all. */
static void hw_suspended(struct tcase *t, struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	assert_int_equal(dmn_device_get(ctx, b->a), 0);
	fake_alloc_fail_at(&t->alloc, 1);
	assert_int_equal(dmn_attach_set_hwmode(ctx, b->aa, 1), 0);
	assert_int_equal(t->alloc.failed, 0);
	fake_alloc_fail_at(&t->alloc, 0);
	assert_int_equal(dmn_device_put(ctx, b->a), 0);
}

static int leave_hw(struct dmn_ctx *ctx, const struct board *b)
{
	return dmn_attach_set_hwmode(ctx, b->aa, 0);
}

static void ends_off(struct tcase *t, const struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	assert_false(ON(b->gdsc));
}

static void ends_on(struct tcase *t, const struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	assert_true(ON(b->gdsc));
}

static void hwmode_enomem(void **state)
{
	(void)state;
	enomem_loop(hw_suspended, leave_hw, ends_off);
}

static void ao_kept(struct tcase *t, struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	assert_int_equal(dmn_device_set_always_on(ctx, b->a, 1), 0);
	assert_int_equal(dmn_device_get(ctx, b->a), 0);
	assert_int_equal(dmn_device_put(ctx, b->a), 0);
}

static int ao_off(struct dmn_ctx *ctx, const struct board *b)
{
	return dmn_device_set_always_on(ctx, b->a, 0);
}

static void always_on_device_enomem(void **state)
{
	(void)state;
	enomem_loop(ao_kept, ao_off, ends_off);
}

static void nothing(struct tcase *t, struct board *b)
{
	(void)t;
	(void)b;
}

static int ao_domain(struct dmn_ctx *ctx, const struct board *b)
{
	return dmn_domain_set_always_on(ctx, b->gdsc);
}

static void always_on_domain_enomem(void **state)
{
	(void)state;
	enomem_loop(nothing, ao_domain, ends_on);
}
/* System sleep powers HW-mode domains off like any other; the mode
 * survives, and resume does not power the domain back on. */
static void hwmode_in_system_sleep(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.aa, 1), 0);
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	assert_true(ON(b.gdsc));
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
	assert_int_equal(dmn_domain_hwmode(ctx, b.gdsc), 1);
	/* Asleep, explain lists no HW-mode holder. */
	struct dmn_explanation x;
	struct recs rec = {0};
	assert_int_equal(dmn_domain_explain(ctx, b.gdsc, &x, collect, &rec), 0);
	assert_int_equal(rec.n, 0);
	assert_int_equal(dmn_system_resume(ctx), 0);
	assert_false(ON(b.gdsc));
	assert_int_equal(dmn_domain_hwmode(ctx, b.gdsc), 1);
	/* Awake again, the mode keeps the domain once a device powers it. */
	assert_int_equal(dmn_device_get(ctx, b.b), 0);
	assert_int_equal(dmn_device_put(ctx, b.b), 0);
	assert_true(ON(b.gdsc));
}

/* Detaching the attachment in HW mode, or the always-on device, drops
 * the veto in the same transaction. */
static void detach_drops_the_vetoes(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_device_get(ctx, b.b), 0);
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.ab, 1), 0);
	assert_int_equal(dmn_device_put(ctx, b.b), 0);
	assert_true(ON(b.gdsc));
	assert_int_equal(dmn_detach(ctx, b.ab), 0);
	assert_false(ON(b.gdsc));
	assert_int_equal(dmn_domain_hwmode(ctx, b.gdsc), 0);
	/* An always-on device attached later keeps its new domain too. */
	assert_int_equal(dmn_device_set_always_on(ctx, b.b, 1), 0);
	b.ab = mkatt(ctx, b.b, b.gdsc);
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	assert_true(ON(b.gdsc));
	assert_int_equal(dmn_detach(ctx, b.ab), 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
}

static void always_on_device(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	CLEAR();
	/* It powers nothing on. */
	assert_int_equal(dmn_device_set_always_on(ctx, b.a, 1), 0);
	NO_CALLS();
	assert_false(ON(b.gdsc));
	assert_int_equal(dmn_device_always_on(ctx, b.a), 1);
	assert_int_equal(dmn_device_always_on(ctx, b.b), 0);
	assert_int_equal(dmn_device_set_always_on(ctx, b.a, 1), 0);
	/* Whatever the device's state: b's resume and suspend too. */
	assert_int_equal(dmn_device_get(ctx, b.b), 0);
	assert_int_equal(dmn_device_put(ctx, b.b), 0);
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	struct dmn_explanation x;
	struct recs rec = {0};
	assert_int_equal(dmn_domain_explain(ctx, b.gdsc, &x, collect, &rec), 0);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.w[0].kind, DMN_WHY_ALWAYS_ON_DEV);
	assert_int_equal(rec.w[0].dev, b.a);
	/* Nothing kept in system sleep. */
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_false(ON(b.gdsc));
	assert_int_equal(dmn_system_resume(ctx), 0);
	assert_false(ON(b.gdsc));
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	assert_true(ON(b.gdsc));
	/* Off re-evaluates at once; a failing power-off is safe. */
	fake_fail(&t->fake, b.gdsc, FAKE_OFF, 1);
	assert_int_equal(dmn_device_set_always_on(ctx, b.a, 0), 0);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	assert_true(ON(b.gdsc));
	assert_int_equal(dmn_device_get(ctx, b.b), 0);
	assert_int_equal(dmn_device_put(ctx, b.b), 0);
	assert_false(ON(b.gdsc));
	EXPECT_NOOP_ERR(dmn_device_set_always_on(0, b.a, 1), -EINVAL);
	EXPECT_NOOP_ERR(dmn_device_set_always_on(ctx, b.aa, 1), -EBADF);
	assert_int_equal(dmn_device_always_on(0, b.a), -EINVAL);
	assert_int_equal(dmn_device_always_on(ctx, b.gdsc), -EBADF);
}

/* A rollback takes back a power-on the veto did not cover: a device on
 * gdsc and a failing domain leaves gdsc off though a is always-on. */
static void rollback_ignores_the_vetoes(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	dmn_domain_t bad = fake_domain(&t->fake, ctx, "bad", &fake_ops_power, 0);
	dmn_device_t c = mkdev(ctx, "c");
	mkatt(ctx, c, b.gdsc);
	mkatt(ctx, c, bad);
	assert_int_equal(dmn_device_set_always_on(ctx, b.a, 1), 0);
	assert_int_equal(dmn_device_get(ctx, b.b), 0);
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.ab, 1), 0);
	assert_int_equal(dmn_device_put(ctx, b.b), 0);
	assert_int_equal(dmn_attach_set_hwmode(ctx, b.ab, 0), 0);
	assert_int_equal(dmn_device_set_always_on(ctx, b.a, 0), 0);
	assert_false(ON(b.gdsc));
	assert_int_equal(dmn_device_set_always_on(ctx, b.a, 1), 0);
	fake_fail(&t->fake, bad, FAKE_ON, 1);
	SNAP();
	assert_int_equal(dmn_device_get(ctx, c), -EIO);
	UNCHANGED();
	assert_false(ON(b.gdsc));
	assert_false(HW(b.gdsc)->on);
}


static void always_on_domain(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	CLEAR();
	assert_int_equal(dmn_domain_set_always_on(ctx, b.gdsc), 0);
	NO_CALLS(); /* boot left it on */
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	assert_int_equal(dinfo(ctx, b.gdsc).flags, DMN_FLAG_ALWAYS_ON);
	assert_int_equal(dmn_domain_set_always_on(ctx, b.gdsc), 0);
	/* Never off, in sleep too. */
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	assert_int_equal(dmn_system_resume(ctx), 0);
	/* Too late once a device was resumed. */
	EXPECT_NOOP_ERR(dmn_domain_set_always_on(ctx, b.rail), -EBUSY);
	EXPECT_NOOP_ERR(dmn_domain_set_always_on(0, b.rail), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_set_always_on(ctx, b.a), -EBADF);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
	    TEST(hwmode_keeps_an_on_domain),
	    TEST(hwmode_powers_nothing_on),
	    TEST(hwmode_errors_change_nothing),
	    TEST(hwmode_failure_leaves_the_mode),
	    cmocka_unit_test(hwmode_enomem),
	    TEST(hwmode_in_system_sleep),
	    TEST(detach_drops_the_vetoes),
	    TEST(always_on_device),
	    TEST(rollback_ignores_the_vetoes),
	    cmocka_unit_test(always_on_device_enomem),
	    TEST(always_on_domain),
	    cmocka_unit_test(always_on_domain_enomem),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
