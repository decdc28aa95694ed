/* SPDX-License-Identifier: MIT */
/*
 * The provider's boot flags (lifecycle.h, Linux 6.17): a domain booted
 * DMN_BOOT_NO_STAY_ON is on without a hold and powers off at the first
 * re-evaluation (a consumer's probe, dmn_probe_all, a change below it); a
 * DMN_BOOT_NO_SYNC_STATE hold outlives its consumers' probes until
 * dmn_sync_state (one transaction over several domains), dmn_domain_release
 * or dmn_probe_all. Every error changes nothing; every allocation and
 * every callback of the new paths may fail, leaving the records equal to
 * what the hardware accepted.
 */
#include "test_core_common.h"

#include <domino/explain.h>
#include <domino/lifecycle.h>

static struct dmn_hold_info hold(struct dmn_ctx *ctx, dmn_domain_t d)
{
	struct dmn_hold_info h;
	memset(&h, 0xff, sizeof(h));
	assert_int_equal(dmn_domain_hold(ctx, d, &h), 0);
	return h;
}

/* rail (pstate callback) <- gdsc (power only) with consumers a and b;
 * rail <- lonely (no consumer). */
struct board {
	dmn_domain_t rail, gdsc, lonely;
	dmn_device_t a, b;
	dmn_attach_t aa, ab;
};

static void mkboard(struct tcase *t, struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	b->rail = fake_domain(&t->fake, ctx, "rail", &fake_ops_full, 0);
	b->gdsc = fake_domain(&t->fake, ctx, "gdsc", &fake_ops_power, 0);
	b->lonely = fake_domain(&t->fake, ctx, "lonely", &fake_ops_power, 0);
	assert_int_equal(dmn_link_add(ctx, b->rail, b->gdsc), 0);
	assert_int_equal(dmn_link_add(ctx, b->rail, b->lonely), 0);
	b->a = mkdev(ctx, "a");
	b->b = mkdev(ctx, "b");
	b->aa = mkatt(ctx, b->a, b->gdsc);
	b->ab = mkatt(ctx, b->b, b->gdsc);
}

/* What boot left on is on in the hardware too (no callback records it). */
static void hw_booted(struct tcase *t, const dmn_domain_t *doms, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		HW(doms[i])->on = true;
}

static void records_match_hw(struct tcase *t, const struct board *b)
{
	struct dmn_ctx *ctx = t->ctx;
	assert_int_equal(ON(b->rail), HW(b->rail)->on);
	assert_int_equal(ON(b->gdsc), HW(b->gdsc)->on);
	assert_int_equal(ON(b->lonely), HW(b->lonely)->on);
}

static unsigned why_count;
static enum dmn_why_kind why_kinds[16];
static void why_fn(void *user, const struct dmn_why *w)
{
	(void)user;
	if (why_count < 16)
		why_kinds[why_count] = w->kind;
	why_count++;
}

static bool explains(struct dmn_ctx *ctx, dmn_domain_t d, enum dmn_why_kind k)
{
	struct dmn_explanation e;
	why_count = 0;
	assert_int_equal(dmn_domain_explain(ctx, d, &e, why_fn, 0), 0);
	for (unsigned i = 0; i < why_count && i < 16; i++)
		if (why_kinds[i] == k)
			return true;
	return false;
}

static void no_stay_on_records_on_without_hold(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	CLEAR();
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_STAY_ON),
			 0);
	NO_CALLS();
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	struct dmn_hold_info h = hold(ctx, b.gdsc);
	assert_int_equal(h.held, 0);
	assert_int_equal(h.released, 0);
	assert_int_equal(h.awaiting, 0);
	assert_int_equal(dmn_domain_boot_flags(ctx, b.gdsc),
			 DMN_BOOT_NO_STAY_ON);
	assert_int_equal(dmn_domain_boot_flags(ctx, b.rail), -ENOENT);
	assert_true(explains(ctx, b.gdsc, DMN_WHY_BOOT_UNHELD));
	assert_false(explains(ctx, b.gdsc, DMN_WHY_BOOT_HOLD));
	/* Not a holder: the parent is on for its child. */
	assert_false(explains(ctx, b.rail, DMN_WHY_BOOT_UNHELD));
	assert_true(explains(ctx, b.rail, DMN_WHY_CHILD));
}

/* The first consumer's probe powers it off (genpd's sync after a probe),
 * where a hold waits for the last one. */
static void no_stay_on_first_probe_powers_off(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_STAY_ON),
			 0);
	hw_booted(t, (dmn_domain_t[]){b.gdsc, b.rail}, 2);
	CLEAR();
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	assert_int_equal(dmn_last_error(ctx), 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
	LOG_IS(FAKE_OFF, b.gdsc, 0, FAKE_OFF, b.rail, 0);
	records_match_hw(t, &b);
	assert_false(explains(ctx, b.gdsc, DMN_WHY_BOOT_UNHELD));
	/* Off since: the next probe touches nothing. */
	CLEAR();
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	NO_CALLS();
	/* The flags are kept, the domain booted once. */
	assert_int_equal(dmn_domain_boot_flags(ctx, b.gdsc),
			 DMN_BOOT_NO_STAY_ON);
	EXPECT_NOOP_ERR(dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_STAY_ON),
			-EALREADY);
}

/* A plain boot of the same board waits for both consumers: the flag is
 * what powers it off early. */
static void plain_boot_waits_for_every_probe(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, 0), 0);
	assert_int_equal(dmn_domain_boot_flags(ctx, b.gdsc), 0);
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	assert_true(ON(b.gdsc));
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	assert_false(ON(b.gdsc));
}

/* A consumer that probes by resuming keeps it on; its suspend then
 * powers it off as any runtime suspend does. */
static void no_stay_on_resume_keeps_then_suspend_frees(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_STAY_ON),
			 0);
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_true(ON(b.gdsc));
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
}

/* The end of boot powers off a consumer-less domain (genpd's
 * power_off_unused); a held one is released in the same transaction. */
static void no_stay_on_probe_all(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot(ctx, b.lonely, 0, DMN_BOOT_NO_STAY_ON),
			 0);
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, 0), 0);
	hw_booted(t, (dmn_domain_t[]){b.gdsc, b.rail, b.lonely}, 3);
	/* A probe of gdsc's consumers leaves lonely alone. */
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	assert_true(ON(b.lonely));
	CLEAR();
	assert_int_equal(dmn_probe_all(ctx), 0);
	assert_false(ON(b.lonely));
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
	records_match_hw(t, &b);
}

/* A child going off re-evaluates its unheld parent, which a hold would
 * keep on: Linux's genpd_power_off walks to parents whose stay_on is
 * clear. */
static void no_stay_on_parent_follows_child(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot(ctx, b.rail, 0, DMN_BOOT_NO_STAY_ON),
			 0);
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, 0), 0);
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	assert_true(ON(b.rail));
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
}

/* Not held, so system sleep switches it off like any unused domain. */
static void no_stay_on_sleeps(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot(ctx, b.lonely, 0, DMN_BOOT_NO_STAY_ON),
			 0);
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, 0), 0);
	assert_int_equal(dmn_system_suspend(ctx), 0);
	assert_false(ON(b.lonely));
	/* Held domains stay on with their parents in sleep (domino's rule). */
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	assert_int_equal(dmn_system_resume(ctx), 0);
}

/* A failing power-off at the probe is safe: reported, the domain stays
 * on, and the next consumer's probe tries again. */
static void no_stay_on_failed_off_retried_by_next_probe(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_STAY_ON),
			 0);
	hw_booted(t, (dmn_domain_t[]){b.gdsc, b.rail}, 2);
	fake_fail(&t->fake, b.gdsc, FAKE_OFF, 1);
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	assert_true(ON(b.gdsc));
	assert_true(ON(b.rail));
	records_match_hw(t, &b);
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	assert_int_equal(dmn_last_error(ctx), 0);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
	records_match_hw(t, &b);
}

/* The consumers' probes leave a no-sync-state hold in place (awaiting
 * reaches 0); the provider's own sync releases it. */
static void no_sync_state_waits_for_the_provider(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(
	    dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_SYNC_STATE), 0);
	assert_int_equal(dmn_domain_boot_flags(ctx, b.gdsc),
			 DMN_BOOT_NO_SYNC_STATE);
	assert_int_equal(dmn_device_probe(ctx, b.a), 0);
	assert_int_equal(dmn_device_probe(ctx, b.b), 0);
	struct dmn_hold_info h = hold(ctx, b.gdsc);
	assert_int_equal(h.held, 1);
	assert_int_equal(h.awaiting, 0);
	assert_true(ON(b.gdsc));
	assert_true(explains(ctx, b.gdsc, DMN_WHY_BOOT_HOLD));
	CLEAR();
	assert_int_equal(dmn_sync_state(ctx, &b.gdsc, 1), 0);
	assert_int_equal(hold(ctx, b.gdsc).released, 1);
	assert_false(ON(b.gdsc));
	assert_false(ON(b.rail));
	LOG_IS(FAKE_OFF, b.gdsc, 0, FAKE_OFF, b.rail, 0);
}

static void no_sync_state_released_by_probe_all(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(
	    dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_SYNC_STATE), 0);
	assert_int_equal(dmn_probe_all(ctx), 0);
	assert_int_equal(hold(ctx, b.gdsc).released, 1);
	assert_false(ON(b.gdsc));
}

/* dmn_sync_state: several domains in one transaction; one not held is
 * left as it is; a handle twice counts once; a bad handle changes
 * nothing. */
static void sync_state_releases_a_set(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	assert_int_equal(dmn_domain_boot(ctx, b.gdsc, 0, 0), 0);
	assert_int_equal(dmn_domain_boot(ctx, b.lonely, 0, 0), 0);
	EXPECT_NOOP_ERR(dmn_sync_state(ctx, (dmn_domain_t[]){b.gdsc, b.a}, 2),
			-EBADF);
	EXPECT_NOOP_ERR(dmn_sync_state(0, &b.gdsc, 1), -EINVAL);
	EXPECT_NOOP_ERR(dmn_sync_state(ctx, 0, 1), -EINVAL);
	assert_int_equal(dmn_sync_state(ctx, 0, 0), 0);
	hw_booted(t, (dmn_domain_t[]){b.gdsc, b.rail, b.lonely}, 3);
	CLEAR();
	assert_int_equal(
	    dmn_sync_state(
		ctx, (dmn_domain_t[]){b.lonely, b.rail, b.gdsc, b.lonely}, 4),
	    0);
	assert_int_equal(hold(ctx, b.gdsc).released, 1);
	assert_int_equal(hold(ctx, b.lonely).released, 1);
	assert_int_equal(hold(ctx, b.rail).released, 0);
	assert_false(ON(b.gdsc) || ON(b.lonely) || ON(b.rail));
	/* Each domain once, the rail once, after both children. */
	assert_int_equal(fake_log_count(&t->fake, FAKE_OFF, b.rail), 1);
	assert_int_equal(fake_log_count(&t->fake, FAKE_OFF, b.lonely), 1);
	records_match_hw(t, &b);
	/* Released domains are not held: a second sync changes nothing. */
	EXPECT_NOOP_ERR(dmn_sync_state(ctx, &b.gdsc, 1), 0);
}

static void errors_change_nothing(void **state)
{
	T;
	struct board b;
	mkboard(t, &b);
	EXPECT_NOOP_ERR(dmn_domain_boot(0, b.gdsc, 0, 0), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_boot(ctx, b.gdsc, 0, 1u << 7), -EINVAL);
	EXPECT_NOOP_ERR(
	    dmn_domain_boot(ctx, b.gdsc, 0,
			    DMN_BOOT_NO_STAY_ON | DMN_BOOT_NO_SYNC_STATE),
	    -EINVAL);
	/* Only a hold keeps a level. */
	EXPECT_NOOP_ERR(dmn_domain_boot(ctx, b.gdsc, 1, DMN_BOOT_NO_STAY_ON),
			-EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_boot(ctx, b.a, 0, 0), -EBADF);
	EXPECT_NOOP_ERR(dmn_domain_boot_flags(0, b.gdsc), -EINVAL);
	EXPECT_NOOP_ERR(dmn_domain_boot_flags(ctx, b.a), -EBADF);
	EXPECT_NOOP_ERR(dmn_domain_boot_flags(ctx, b.gdsc), -ENOENT);
	/* Boot state comes before runtime PM, with any flag. */
	assert_int_equal(dmn_device_get(ctx, b.a), 0);
	assert_int_equal(dmn_device_put(ctx, b.a), 0);
	EXPECT_NOOP_ERR(dmn_domain_boot(ctx, b.lonely, 0, DMN_BOOT_NO_STAY_ON),
			-EBUSY);
}

/* What the snapshot does not see: the holds of gdsc and lonely, gdsc's
 * boot flags. */
struct keep {
	struct dmn_hold_info h, l;
	int flags;
};

static void take(struct dmn_ctx *ctx, const struct board *b, struct keep *k)
{
	k->h = hold(ctx, b->gdsc);
	k->l = hold(ctx, b->lonely);
	k->flags = dmn_domain_boot_flags(ctx, b->gdsc);
}

#define ENOMEM_LOOP(setup, call, check)                                      \
	ENOMEM_LOOP_BOARD(struct board, mkboard, struct keep, take, setup,  \
			  call, check)

static void enomem_boot_no_stay_on(void **state)
{
	(void)state;
	ENOMEM_LOOP((void)0,
		    dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_STAY_ON),
		    (assert_true(ON(b.gdsc)),
		     assert_int_equal(hold(ctx, b.gdsc).held, 0)));
}

static void enomem_probe_no_stay_on(void **state)
{
	(void)state;
	ENOMEM_LOOP(
	    assert_int_equal(
		dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_STAY_ON), 0),
	    dmn_device_probe(ctx, b.a), assert_false(ON(b.gdsc)));
}

static void enomem_sync_state(void **state)
{
	(void)state;
	ENOMEM_LOOP(
	    (assert_int_equal(
		 dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_SYNC_STATE), 0),
	     assert_int_equal(dmn_domain_boot(ctx, b.lonely, 0, 0), 0)),
	    dmn_sync_state(ctx, (dmn_domain_t[]){b.gdsc, b.lonely}, 2),
	    (assert_false(ON(b.gdsc)), assert_false(ON(b.lonely))));
}

static void enomem_probe_all_unheld(void **state)
{
	(void)state;
	ENOMEM_LOOP(
	    (assert_int_equal(
		 dmn_domain_boot(ctx, b.lonely, 0, DMN_BOOT_NO_STAY_ON), 0),
	     assert_int_equal(
		 dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_SYNC_STATE), 0)),
	    dmn_probe_all(ctx),
	    (assert_false(ON(b.lonely)), assert_false(ON(b.gdsc))));
}

/* Every callback of the end of boot may fail (power-offs: the safe
 * direction): the call succeeds, reports it, and the records are what
 * the hardware accepted; a second end of boot finishes the job. */
static void probe_all_failure_at_every_callback(void **state)
{
	(void)state;
	for (unsigned long k = 1;; k++) {
		void *fresh;
		assert_int_equal(tc_setup(&fresh), 0);
		struct tcase *t = fresh;
		struct dmn_ctx *ctx = t->ctx;
		struct board b;
		mkboard(t, &b);
		assert_int_equal(
		    dmn_domain_boot(ctx, b.lonely, 0, DMN_BOOT_NO_STAY_ON), 0);
		assert_int_equal(
		    dmn_domain_boot(ctx, b.gdsc, 0, DMN_BOOT_NO_SYNC_STATE), 0);
		hw_booted(t, (dmn_domain_t[]){b.gdsc, b.rail, b.lonely}, 3);
		CLEAR();
		fake_fail_call(&t->fake, k);
		assert_int_equal(dmn_probe_all(ctx), 0);
		fake_fail_call(&t->fake, 0);
		int failed = dmn_last_error(ctx) != 0;
		records_match_hw(t, &b);
		assert_int_equal(hold(ctx, b.gdsc).released, 1);
		/* The failed domain is retried by its next change: a
		 * consumer's resume and suspend for gdsc; lonely, which has
		 * none, stays until anything below it changes. */
		assert_int_equal(dmn_device_get(ctx, b.a), 0);
		assert_int_equal(dmn_device_put(ctx, b.a), 0);
		assert_false(ON(b.gdsc));
		records_match_hw(t, &b);
		assert_int_equal(tc_teardown(&fresh), 0);
		if (!failed) {
			assert_true(k > 3); /* three power-offs */
			break;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    TEST(no_stay_on_records_on_without_hold),
	    TEST(no_stay_on_first_probe_powers_off),
	    TEST(plain_boot_waits_for_every_probe),
	    TEST(no_stay_on_resume_keeps_then_suspend_frees),
	    TEST(no_stay_on_probe_all),
	    TEST(no_stay_on_parent_follows_child),
	    TEST(no_stay_on_sleeps),
	    TEST(no_stay_on_failed_off_retried_by_next_probe),
	    TEST(no_sync_state_waits_for_the_provider),
	    TEST(no_sync_state_released_by_probe_all),
	    TEST(sync_state_releases_a_set),
	    TEST(errors_change_nothing),
	    cmocka_unit_test(enomem_boot_no_stay_on),
	    cmocka_unit_test(enomem_probe_no_stay_on),
	    cmocka_unit_test(enomem_sync_state),
	    cmocka_unit_test(enomem_probe_all_unheld),
	    cmocka_unit_test(probe_all_failure_at_every_callback),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
