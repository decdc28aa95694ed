/* SPDX-License-Identifier: MIT */
/*
 * Boot holds (lifecycle.h): recorded without callbacks, released by the
 * last probe (or dmn_domain_release), every error changing nothing, and
 * allocation failures in each call leaving holds and state as before.
 */
#include "test_core_common.h"

#include <domino/lifecycle.h>

static struct dmn_hold_info hold(struct dmn_ctx *ctx, dmn_domain_t d)
{
	struct dmn_hold_info h;
	memset(&h, 0xff, sizeof(h));
	assert_int_equal(dmn_domain_hold(ctx, d, &h), 0);
	return h;
}

static int round_248(void *user, dmn_domain_t dom, uint32_t level,
		     uint32_t *rounded)
{
	(void)user;
	(void)dom;
	static const uint32_t levels[] = {2, 4, 8};
	for (unsigned i = 0; i < 3; i++) {
		if (level <= levels[i]) {
			*rounded = levels[i];
			return 0;
		}
	}
	return -ERANGE;
}

/* rail (pstate callback) <- gdsc (power only) with two consumers. */
struct board {
	dmn_domain_t rail, gdsc;
	dmn_device_t a, b;
	dmn_attach_t aa, ab;
};

static void mkboard(struct tcase *t, struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	b->rail = fake_domain(&t->fake, ctx, "rail", &fake_ops_full, 0);
	b->gdsc = fake_domain(&t->fake, ctx, "gdsc", &fake_ops_power, 0);
	assert_int_equal(dmn_link_add(ctx, b->rail, b->gdsc), 0);
	assert_int_equal(dmn_domain_set_rounding(ctx, b->rail, round_248, 0),
			 0);
	b->a = mkdev(ctx, "a");
	b->b = mkdev(ctx, "b");
	b->aa = mkatt(ctx, b->a, b->gdsc);
	b->ab = mkatt(ctx, b->b, b->gdsc);
}

static void boot_on_records_without_callbacks(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	CLEAR();
	assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 3), 0);
	NO_CALLS();
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	/* 3 rounds up at the rail, the first domain with levels. */
	assert_int_equal(PS(b.rail), 4);
	assert_false(HW(b.rail)->on); /* the fake saw no call: boot did it */
	struct dmn_hold_info h = hold(ctx, b.gdsc);
	assert_int_equal(h.held, 1);
	assert_int_equal(h.released, 0);
	assert_int_equal(h.level, 3);
	assert_int_equal(h.awaiting, 2);
	/* Ancestors are on because their child is; not held. */
	assert_int_equal(hold(ctx, b.rail).held, 0);
	assert_int_equal(dmn_last_error(ctx), 0);
}

static void last_probe_releases(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 3), 0);
	CLEAR();
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	NO_CALLS();
	assert_int_equal(dmn_device_probed(ctx, b.a), 1);
	assert_int_equal(dmn_device_probed(ctx, b.b), 0);
	assert_int_equal(hold(ctx, b.gdsc).awaiting, 1);
	assert_true(ON(b.gdsc));
	/* Repeating a probe changes nothing. */
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	assert_int_equal(hold(ctx, b.gdsc).awaiting, 1);
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	struct dmn_hold_info h = hold(ctx, b.gdsc);
	assert_int_equal(h.held, 0);
	assert_int_equal(h.released, 1);
	assert_int_equal(h.awaiting, 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
	assert_int_equal(PS(b.rail), 0);
	/* Children first: gdsc off, rail off, then the rail lowered. */
	LOG_IS(FAKE_OFF, b.gdsc, 0, FAKE_OFF, b.rail, 0, FAKE_PSTATE, b.rail,
	       0);
}

static void resume_probes_and_keeps_domain_on(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_vote(ctx, b.aa, 2), 0);
	assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 8), 0);
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_int_equal(dmn_device_probed(ctx, b.a), 1);
	assert_int_equal(hold(ctx, b.gdsc).released, 1);
	/* The boot level stopped counting; a's vote sets the level. */
	assert_true(ON(b.gdsc));
	assert_int_equal(PS(b.rail), 2);
	LOG_IS(FAKE_PSTATE, b.rail, 2);
	/* Only a now: suspending it powers everything off. */
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	assert_false(ON(b.rail));
}

static void release_without_consumers(void **state)
{
	T;
	dmn_domain_t d = fake_domain(&t->fake, ctx, "lonely", &fake_ops_full, 0);
	assert_int_equal(dmn_domain_boot_on(ctx, d, 5), 0);
	assert_int_equal(PS(d), 5);
	assert_int_equal(hold(ctx, d).awaiting, 0);
	/* A consumer attached later is awaited; detached, no longer. */
	dmn_device_t late = mkdev(ctx, "late");
	dmn_attach_t la = mkatt(ctx, late, d);
	assert_int_equal(hold(ctx, d).awaiting, 1);
	assert_int_equal(dmn_detach(ctx, la), 0);
	assert_int_equal(hold(ctx, d).awaiting, 0);
	assert_int_equal(hold(ctx, d).held, 1);
	CLEAR();
	assert_int_equal(dmn_domain_release(ctx, d), 0);
	assert_false(ON(d));
	LOG_IS(FAKE_OFF, d, 0, FAKE_PSTATE, d, 0);
	/* Not held any more: a no-op. */
	CLEAR();
	assert_int_equal(dmn_domain_release(ctx, d), 0);
	NO_CALLS();
	assert_int_equal(dmn_device_remove(ctx, late), 0);
}

static void failed_power_off_at_release_is_safe(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 0), 0);
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	fake_fail(&t->fake, b.gdsc, FAKE_OFF, 1);
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	assert_int_equal(hold(ctx, b.gdsc).released, 1);
	/* gdsc stays on, and so its parent. */
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	/* The next change of gdsc retries. */
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
}

static void errors_change_nothing(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	dmn_domain_t bare = fake_domain(&t->fake, ctx, "bare", &fake_ops_power, 0);
	struct dmn_hold_info h;
	EXPECT_NOOP_ERR(dmn_domain_boot_on(0, b.gdsc, 0), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_boot_on(ctx, 0, 0), -EBADF);
	EXPECT_NOOP_ERR(dmn_domain_boot_on(ctx, b.a, 0), -EBADF);
	/* Nothing above bare takes a level. */
	EXPECT_NOOP_ERR(dmn_domain_boot_on(ctx, bare, 1), -ENODEV);
	/* 9 is above the rail's top level (8). */
	EXPECT_NOOP_ERR(dmn_domain_boot_on(ctx, b.gdsc, 9), -ERANGE);
	EXPECT_NOOP_ERR(dmn_device_probe(0, b.a), -EINVAL);
	EXPECT_NOOP_ERR(dmn_device_probe(ctx, b.gdsc), -EBADF);
	EXPECT_NOOP_ERR(dmn_domain_release(0, b.gdsc), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_release(ctx, b.a), -EBADF);
	EXPECT_NOOP_ERR(dmn_domain_hold(0, b.gdsc, &h), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_hold(ctx, b.gdsc, 0), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_hold(ctx, b.a, &h), -EBADF);
	EXPECT_NOOP_ERR(dmn_device_probed(0, b.a), -EINVAL);
	EXPECT_NOOP_ERR(dmn_device_probed(ctx, b.gdsc), -EBADF);
	/* A domain boots once. */
	assert_int_equal(dmn_domain_boot_on(ctx, bare, 0), 0);
	EXPECT_NOOP_ERR(dmn_domain_boot_on(ctx, bare, 0), -EALREADY);
	assert_int_equal(dmn_domain_release(ctx, bare), 0);
	EXPECT_NOOP_ERR(dmn_domain_boot_on(ctx, bare, 0), -EALREADY);
	assert_int_equal(hold(ctx, bare).released, 1);
	/* Once a device was resumed, domains went on through callbacks. */
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	EXPECT_NOOP_ERR(dmn_domain_boot_on(ctx, b.rail, 0), -EBUSY);
}

/* What the snapshot does not see: gdsc's hold, a's probe. */
struct keep {
	struct dmn_hold_info h;
	int probed;
};

static void take(struct dmn_ctx *ctx, const struct board *b, struct keep *k)
{
	k->h = hold(ctx, b->gdsc);
	k->probed = dmn_device_probed(ctx, b->a);
}

#define ENOMEM_LOOP(setup, call, check)                                      \
	ENOMEM_LOOP_BOARD(struct board, mkboard, struct keep, take, setup,  \
			  call, check)

static void enomem_boot_on(void **state)
{
	(void)state;
	ENOMEM_LOOP((void)0, dmn_domain_boot_on(ctx, b.gdsc, 3),
		    assert_int_equal(hold(ctx, b.gdsc).held, 1));
}

static void enomem_probe_release(void **state)
{
	(void)state;
	ENOMEM_LOOP(
	    (assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 3), 0),
	     assert_int_equal(dmn_device_probe(ctx, b.b), 0)),
	    dmn_device_probe(ctx, b.a),
	    assert_int_equal(hold(ctx, b.gdsc).released, 1));
}

static void enomem_get_probe(void **state)
{
	(void)state;
	ENOMEM_LOOP(
	    (assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 3), 0),
	     assert_int_equal(dmn_device_probe(ctx, b.b), 0)),
	    dmn_device_get(ctx, b.a),
	    assert_int_equal(hold(ctx, b.gdsc).released, 1));
}

static void enomem_release(void **state)
{
	(void)state;
	ENOMEM_LOOP(assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 3), 0),
		    dmn_domain_release(ctx, b.gdsc),
		    assert_false(ON(b.rail)));
}

static void probe_all_releases_every_hold(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	dmn_domain_t lonely =
	    fake_domain(&t->fake, ctx, "lonely", &fake_ops_full, 0);
	assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 3), 0);
	assert_int_equal(dmn_domain_boot_on(ctx, lonely, 2), 0);
	/* One safe failure among the releases: reported, the rest go on. */
	fake_fail(&t->fake, lonely, FAKE_OFF, 1);
	CLEAR();
	assert_int_equal(dmn_probe_all(ctx), 0);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	assert_int_equal(hold(ctx, b.gdsc).released, 1);
	assert_int_equal(hold(ctx, lonely).released, 1);
	assert_int_equal(dmn_device_probed(ctx, b.a), 1);
	assert_int_equal(dmn_device_probed(ctx, b.b), 1);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
	assert_true(ON(lonely));
	EXPECT_NOOP_ERR(dmn_probe_all(0), -EINVAL);
}

static void enomem_probe_all(void **state)
{
	(void)state;
	ENOMEM_LOOP(assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 3), 0),
		    dmn_probe_all(ctx),
		    (assert_int_equal(hold(ctx, b.gdsc).released, 1),
		     assert_int_equal(dmn_device_probed(ctx, b.b), 1)));
}

/* The lifecycle is an optional unit that the core reaches through hooks
 * its first call installs (docs/architecture.md, Firmware units): before
 * that call a resume still probes, and a hold made after it still counts
 * every consumer, attached before or after. */
static void lifecycle_hooks_installed_on_first_use(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	dmn_device_t c = mkdev(ctx, "c");
	/* No lifecycle call yet: a resume marks the device probed. */
	assert_int_equal(dmn_device_get(ctx, c), 0);
	assert_int_equal(dmn_device_probed(ctx, c), 1);
	assert_int_equal(dmn_device_put(ctx, c), 0);
	/* Boot is recorded only before any resume. */
	assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 3), -EBUSY);
	assert_int_equal(hold(ctx, b.gdsc).held, 0);
}

static void hold_counts_consumers_attached_later(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot_on(ctx, b.gdsc, 0), 0);
	assert_int_equal(hold(ctx, b.gdsc).awaiting, 2);
	dmn_device_t c = mkdev(ctx, "c");
	dmn_attach_t ac = mkatt(ctx, c, b.gdsc);
	assert_int_equal(hold(ctx, b.gdsc).awaiting, 3);
	assert_int_equal(dmn_detach(ctx, ac), 0);
	assert_int_equal(hold(ctx, b.gdsc).awaiting, 2);
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	assert_int_equal(hold(ctx, b.gdsc).released, 1);
	assert_false(ON(b.gdsc));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    TEST(boot_on_records_without_callbacks),
	    TEST(last_probe_releases),
	    TEST(resume_probes_and_keeps_domain_on),
	    TEST(release_without_consumers),
	    TEST(failed_power_off_at_release_is_safe),
	    TEST(errors_change_nothing),
	    cmocka_unit_test(enomem_boot_on),
	    cmocka_unit_test(enomem_probe_release),
	    cmocka_unit_test(enomem_get_probe),
	    cmocka_unit_test(enomem_release),
	    TEST(probe_all_releases_every_hold),
	    cmocka_unit_test(enomem_probe_all),
	    TEST(lifecycle_hooks_installed_on_first_use),
	    TEST(hold_counts_consumers_attached_later),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
