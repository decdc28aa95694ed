/* SPDX-License-Identifier: MIT */
/*
 * What the random models (test_core_model_life) found in the library, one
 * case each.
 *
 * A vote cast again unchanged after a link moved above it
 * (docs/semantics.md, Votes and pstates:
 * "-ENODEV and -ERANGE are checked when a vote is cast, even while
 * suspended"; "Acceptance depends only on where a vote can land").
 * test_core_model_life with DOMINO_LINK_OPS=1 found it (seed 11): after
 * dmn_link_remove took away the only domain with a pstate callback a
 * device's vote reached, the same vote again answered 0 (dmn_vote's
 * unchanged shortcut), where a new vote of that level answers -ENODEV.
 * Likewise -ERANGE after dmn_link_add put the vote under a table it
 * exceeds. Each case runs on a context with no lock (the locked path)
 * and on the default, striped one (the stripe path and the lock-free
 * check of a published unchanged vote).
 * Also an attachment moving: dmn_detach of a domain's last user ran the
 * governor with the detached device's QoS still counted (docs/semantics.md,
 * Idle states and the governor: "of every device below it";
 * test_core_model_life DOMINO_WIDE=1, seed 7).
 * And a dmn_device_get that probes: its resume and its probe were two
 * commits, so a domain a failed lowering had left high got two pstate
 * calls in one command (docs/semantics.md, Ordering: "at most one pstate
 * call per command"), the second one a retry (DOMINO_WIDE=1, seed 90).
 */
#include <domino/lifecycle.h>

#include "test_core_common.h"
#include "test_compare.h"

struct world {
	struct fake fake;
	struct fake_alloc alloc;
	struct dmn_ctx *ctx;
	dmn_domain_t rail, gdsc, small;
	dmn_device_t dev;
	dmn_attach_t att;
};

/* rail (pstate callback) -> gdsc (none) <- dev; small (pstate callback,
 * levels up to 100) not linked yet. */
static void world_init(struct world *w, bool striped)
{
	memset(w, 0, sizeof(*w));
	fake_init(&w->fake);
	w->fake.fail_err = -EIO;
	struct dmn_config cfg = fake_config(&w->alloc);
	if (striped)
		memset(&cfg.lock, 0, sizeof(cfg.lock));
	assert_int_equal(dmn_ctx_create(&cfg, &w->ctx), 0);
	w->rail = fake_domain(&w->fake, w->ctx, "rail", &fake_ops_full, 0);
	w->gdsc = fake_domain(&w->fake, w->ctx, "gdsc", &fake_ops_power, 0);
	w->small = fake_domain(&w->fake, w->ctx, "small", &fake_ops_full, 0);
	assert_int_equal(dmn_domain_set_rounding(w->ctx, w->small, round5, 0),
			 0);
	assert_int_equal(dmn_link_add(w->ctx, w->rail, w->gdsc), 0);
	w->dev = mkdev(w->ctx, "dev");
	w->att = mkatt(w->ctx, w->dev, w->gdsc);
}

static void world_fini(struct world *w)
{
	dmn_ctx_destroy(w->ctx);
	assert_int_equal(w->alloc.live, 0);
}

static void enodev_after_unlink(bool striped, bool active)
{
	struct world w;
	world_init(&w, striped);
	if (active)
		assert_int_equal(dmn_device_get(w.ctx, w.dev), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), 0); /* unchanged */
	assert_int_equal(dinfo(w.ctx, w.rail).pstate, active ? 150u : 0u);
	assert_int_equal(dmn_link_remove(w.ctx, w.rail, w.gdsc), 0);
	assert_int_equal(dinfo(w.ctx, w.rail).pstate, 0);
	/* Nothing with a callback is reachable: as a new vote would (the
	 * unchanged one first, while dmn_last_error() is 0). */
	assert_int_equal(dmn_last_error(w.ctx), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), -ENODEV);
	assert_int_equal(dmn_last_error(w.ctx), -ENODEV);
	assert_int_equal(dmn_vote(w.ctx, w.att, 151), -ENODEV);
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), -ENODEV);
	assert_int_equal(ainfo(w.ctx, w.att).vote, 150); /* kept as it was */
	assert_int_equal(dmn_vote(w.ctx, w.att, 0), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att, 0), 0);
	/* Back under the rail: accepted again, and again unchanged. */
	assert_int_equal(dmn_link_add(w.ctx, w.rail, w.gdsc), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), 0);
	assert_int_equal(dmn_last_error(w.ctx), 0);
	assert_int_equal(dinfo(w.ctx, w.rail).pstate, active ? 150u : 0u);
	world_fini(&w);
}

static void erange_after_link(bool striped)
{
	struct world w;
	world_init(&w, striped);
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), 0); /* suspended */
	/* The gdsc is off: nothing passes up, the link is made. */
	assert_int_equal(dmn_link_add(w.ctx, w.small, w.gdsc), 0);
	/* 150 is above small's top (100): as a new vote would. */
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), -ERANGE);
	assert_int_equal(dmn_vote(w.ctx, w.att, 150), -ERANGE);
	assert_int_equal(dmn_device_get(w.ctx, w.dev), -ERANGE);
	assert_false(dinfo(w.ctx, w.gdsc).on);
	assert_int_equal(dmn_vote(w.ctx, w.att, 100), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att, 100), 0);
	assert_int_equal(dmn_device_get(w.ctx, w.dev), 0);
	assert_int_equal(dinfo(w.ctx, w.small).pstate, 100);
	assert_int_equal(dinfo(w.ctx, w.rail).pstate, 100);
	assert_int_equal(dmn_vote(w.ctx, w.att, 100), 0);
	world_fini(&w);
}

static void detach_qos_leaves_first(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, false);
	struct dmn_idle_state_desc st = {"ret", 5, 5, 0, 0};
	assert_int_equal(dmn_domain_add_idle_state(w.ctx, w.gdsc, &st, 0), 0);
	assert_int_equal(dmn_device_set_qos(w.ctx, w.dev, 0), 0);
	assert_int_equal(dmn_device_get(w.ctx, w.dev), 0);
	assert_true(dinfo(w.ctx, w.gdsc).on);
	/* The last user goes: with its QoS 0 gone, "ret" fits. */
	assert_int_equal(dmn_detach(w.ctx, w.att), 0);
	assert_false(dinfo(w.ctx, w.gdsc).on);
	assert_int_equal(dinfo(w.ctx, w.gdsc).idle_state, 0);
	assert_false(dinfo(w.ctx, w.rail).on);
	world_fini(&w);
}

static void get_probes_in_one_commit(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, false);
	dmn_device_t late = mkdev(w.ctx, "late");
	dmn_attach_t late_att = mkatt(w.ctx, late, w.rail);
	dmn_attach_t on_rail = mkatt(w.ctx, w.dev, w.rail);
	assert_int_equal(dmn_domain_boot_on(w.ctx, w.rail, 20), 0);
	assert_int_equal(dmn_device_probe(w.ctx, w.dev), 0);
	assert_int_equal(dmn_device_get(w.ctx, w.dev), 0);
	assert_int_equal(dmn_vote(w.ctx, on_rail, 50), 0);
	assert_int_equal(dinfo(w.ctx, w.rail).pstate, 50);
	/* The lowering to the boot level fails: the rail stays at 50. */
	fake_fail(&w.fake, w.rail, FAKE_PSTATE, 1);
	assert_int_equal(dmn_device_put(w.ctx, w.dev), 0);
	assert_int_equal(dmn_last_error(w.ctx), -EIO);
	assert_int_equal(dinfo(w.ctx, w.rail).pstate, 50);
	/* The last awaited device resumes: the hold goes in the same
	 * command, one lowering (50 -> 0) is tried, and it fails. */
	fake_clear_log(&w.fake);
	fake_fail(&w.fake, w.rail, FAKE_PSTATE, 1);
	assert_int_equal(dmn_device_get(w.ctx, late), 0);
	assert_int_equal(fake_log_count(&w.fake, FAKE_PSTATE, w.rail), 1);
	assert_int_equal(dmn_last_error(w.ctx), -EIO);
	assert_int_equal(dinfo(w.ctx, w.rail).pstate, 50);
	struct dmn_hold_info hold;
	assert_int_equal(dmn_domain_hold(w.ctx, w.rail, &hold), 0);
	assert_false(hold.held);
	/* The next change retries it. */
	assert_int_equal(dmn_vote(w.ctx, late_att, 10), 0);
	assert_int_equal(dinfo(w.ctx, w.rail).pstate, 10);
	world_fini(&w);
}

static void unlink_locked(void **state)
{
	(void)state;
	enodev_after_unlink(false, true);
	enodev_after_unlink(false, false);
}

static void unlink_striped(void **state)
{
	(void)state;
	enodev_after_unlink(true, true);
	enodev_after_unlink(true, false);
}

static void link_locked(void **state)
{
	(void)state;
	erange_after_link(false);
}

static void link_striped(void **state)
{
	(void)state;
	erange_after_link(true);
}

int main(void)
{
	/* The shared setup's context stays unused: each case builds its
	 * own, with or without stripes. */
	const struct CMUnitTest tests[] = {
		TEST(unlink_locked),
		TEST(unlink_striped),
		TEST(link_locked),
		TEST(link_striped),
		TEST(detach_qos_leaves_first),
		TEST(get_probes_in_one_commit),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
