/* SPDX-License-Identifier: MIT */
/*
 * The rules of docs/semantics.md (domains, performance states, failures,
 * ordering; idle states excepted), each checked through the callback log of the
 * recording fake and the introspection API.
 */
#include "test_core_common.h"

static int map_half(void *user, dmn_domain_t child, dmn_domain_t parent,
		    uint32_t level, uint32_t *out)
{
	(void)user;
	(void)child;
	(void)parent;
	*out = level / 2;
	return 0;
}

static int map_double(void *user, dmn_domain_t child, dmn_domain_t parent,
		      uint32_t level, uint32_t *out)
{
	(void)user;
	(void)child;
	(void)parent;
	*out = level * 2;
	return 0;
}

static uint32_t link_req(struct dmn_ctx *ctx, dmn_domain_t p, dmn_domain_t c,
			 int *on)
{
	uint32_t req = 99;
	int child_on = -1;
	assert_int_equal(dmn_link_info(ctx, p, c, &req, &child_on), 0);
	if (on)
		*on = child_on;
	return req;
}

/* A domain is on while a device is active or a child is on; power-on runs
 * parents first, power-off children first. */
static void power_order_chain(void **state)
{
	T;
	dmn_domain_t a = fake_domain(&t->fake, ctx, "a", &fake_ops_power, 0);
	dmn_domain_t b = fake_domain(&t->fake, ctx, "b", &fake_ops_power, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_power, 0);
	assert_int_equal(dmn_link_add(ctx, a, b), 0);
	assert_int_equal(dmn_link_add(ctx, b, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	mkatt(ctx, dev, c);
	assert_false(ON(a) || ON(b) || ON(c));
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	LOG_IS(FAKE_ON, a, 0, FAKE_ON, b, 0, FAKE_ON, c, 0);
	assert_true(ON(a) && ON(b) && ON(c));
	assert_int_equal(dinfo(ctx, c).active_devices, 1);
	assert_int_equal(dinfo(ctx, b).on_children, 1);
	assert_int_equal(dinfo(ctx, a).on_children, 1);
	assert_int_equal(dmn_last_error(ctx), 0);
	/* Nested gets count; only the last put powers off. */
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	NO_CALLS();
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	LOG_IS(FAKE_OFF, c, 0, FAKE_OFF, b, 0, FAKE_OFF, a, 0);
	assert_false(ON(a) || ON(b) || ON(c));
	assert_false(HW(a)->on || HW(b)->on || HW(c)->on);
	/* A child on keeps the parent on even with no device of its own. */
	dmn_device_t dev_b = mkdev(ctx, "dev-b");
	mkatt(ctx, dev_b, b);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_device_get(ctx, dev_b), 0);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, dev_b), 0);
	NO_CALLS();
	assert_true(ON(b));
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	LOG_IS(FAKE_OFF, c, 0, FAKE_OFF, b, 0, FAKE_OFF, a, 0);
}

/* On resume votes are restored (pstates raised, parents first) before the
 * domains power on; on suspend they go after the domains power off. */
static void pstate_order_resume_suspend(void **state)
{
	T;
	dmn_domain_t a = fake_domain(&t->fake, ctx, "a", &fake_ops_full, 0);
	dmn_domain_t b = fake_domain(&t->fake, ctx, "b", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, a, b), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, b);
	CLEAR();
	assert_int_equal(dmn_vote(ctx, att, 5), 0);
	NO_CALLS(); /* stored while suspended */
	assert_int_equal(PS(b), 0);
	assert_int_equal(ainfo(ctx, att).vote, 5);
	assert_false(ainfo(ctx, att).counts);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	LOG_IS(FAKE_PSTATE, a, 5, FAKE_PSTATE, b, 5, FAKE_ON, a, 0, FAKE_ON,
	       b, 0);
	assert_true(ainfo(ctx, att).counts);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	LOG_IS(FAKE_OFF, b, 0, FAKE_OFF, a, 0, FAKE_PSTATE, b, 0, FAKE_PSTATE,
	       a, 0);
	/* The vote is kept but no longer counts. */
	assert_int_equal(ainfo(ctx, att).vote, 5);
	assert_false(ainfo(ctx, att).counts);
	assert_int_equal(PS(a), 0);
	assert_int_equal(dinfo(ctx, a).target_pstate, 0);
	/* A vote cast while suspended applies at resume. */
	assert_int_equal(dmn_vote(ctx, att, 3), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	LOG_IS(FAKE_PSTATE, a, 3, FAKE_PSTATE, b, 3, FAKE_ON, a, 0, FAKE_ON,
	       b, 0);
}

/* A device's domains power on in attachment order (parents first). */
static void attach_order(void **state)
{
	T;
	dmn_domain_t d1 = fake_domain(&t->fake, ctx, "d1", &fake_ops_power, 0);
	dmn_domain_t d2 = fake_domain(&t->fake, ctx, "d2", &fake_ops_power, 0);
	dmn_domain_t d3 = fake_domain(&t->fake, ctx, "d3", &fake_ops_power, 0);
	dmn_domain_t top = fake_domain(&t->fake, ctx, "top", &fake_ops_power, 0);
	dmn_domain_t sub = fake_domain(&t->fake, ctx, "sub", &fake_ops_power, 0);
	assert_int_equal(dmn_link_add(ctx, top, sub), 0);
	dmn_device_t x = mkdev(ctx, "x");
	mkatt(ctx, x, d2);
	mkatt(ctx, x, d3);
	mkatt(ctx, x, d1);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, x), 0);
	LOG_IS(FAKE_ON, d2, 0, FAKE_ON, d3, 0, FAKE_ON, d1, 0);
	dmn_device_t y = mkdev(ctx, "y");
	mkatt(ctx, y, d3);
	mkatt(ctx, y, sub);
	mkatt(ctx, y, top);
	mkatt(ctx, y, d1);
	assert_int_equal(dmn_device_put(ctx, x), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, y), 0);
	/* top is attached after sub but is its parent: it goes first. */
	LOG_IS(FAKE_ON, d3, 0, FAKE_ON, top, 0, FAKE_ON, sub, 0, FAKE_ON, d1, 0);
	dmn_attach_t att;
	assert_int_equal(dmn_device_attachment(ctx, y, 2, &att), 0);
	assert_int_equal(ainfo(ctx, att).domain, top);
}

/* set_performance_state runs only when the aggregate changes, at most once
 * per domain per call; the pstate is the max over counted votes. */
static void pstate_aggregate(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t d1 = mkdev(ctx, "d1"), d2 = mkdev(ctx, "d2");
	dmn_attach_t a1 = mkatt(ctx, d1, c), a2 = mkatt(ctx, d2, c);
	assert_int_equal(dmn_device_get(ctx, d1), 0);
	assert_int_equal(dmn_device_get(ctx, d2), 0);
	CLEAR();
	assert_int_equal(dmn_vote(ctx, a1, 5), 0);
	LOG_IS(FAKE_PSTATE, p, 5, FAKE_PSTATE, c, 5);
	CLEAR();
	assert_int_equal(dmn_vote(ctx, a2, 5), 0);
	assert_int_equal(dmn_vote(ctx, a2, 3), 0);
	assert_int_equal(dmn_vote(ctx, a2, 3), 0); /* same level: no-op */
	NO_CALLS();
	assert_int_equal(PS(c), 5);
	/* The max falls to the other voter's level: lowered children first. */
	assert_int_equal(dmn_vote(ctx, a1, 0), 0);
	LOG_IS(FAKE_PSTATE, c, 3, FAKE_PSTATE, p, 3);
	assert_int_equal(PS(c), 3);
	assert_int_equal(dinfo(ctx, c).target_pstate, 3);
	/* Non-consecutive levels. */
	CLEAR();
	assert_int_equal(dmn_vote(ctx, a1, 1000000), 0);
	LOG_IS(FAKE_PSTATE, p, 1000000, FAKE_PSTATE, c, 1000000);
	assert_int_equal(dmn_vote(ctx, a1, 0), 0);
	/* One call reaching p directly and through c: one pstate call each. */
	dmn_attach_t ap = mkatt(ctx, d1, p);
	struct dmn_vote_change up[2] = {{a1, 4}, {ap, 6}};
	CLEAR();
	assert_int_equal(dmn_vote_many(ctx, up, 2), 0);
	LOG_IS(FAKE_PSTATE, p, 6, FAKE_PSTATE, c, 4);
	struct dmn_vote_change down[2] = {{ap, 1}, {a1, 2}};
	CLEAR();
	assert_int_equal(dmn_vote_many(ctx, down, 2), 0);
	/* c: max(2, d2's 3) = 3; p: max(1, c's 3) = 3. */
	LOG_IS(FAKE_PSTATE, c, 3, FAKE_PSTATE, p, 3);
	/* Suspending one voter drops only its vote. */
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, d2), 0);
	LOG_IS(FAKE_PSTATE, c, 2, FAKE_PSTATE, p, 2);
	assert_int_equal(dinfo(ctx, c).active_devices, 1);
	assert_int_equal(ainfo(ctx, a2).vote, 3);
	assert_false(ainfo(ctx, a2).counts);
	/* Its stored vote counts again at resume. */
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, d2), 0);
	LOG_IS(FAKE_PSTATE, p, 3, FAKE_PSTATE, c, 3);
}

/* A child of two parents powers and raises both. */
static void dag_two_parents(void **state)
{
	T;
	dmn_domain_t p1 = fake_domain(&t->fake, ctx, "p1", &fake_ops_full, 0);
	dmn_domain_t p2 = fake_domain(&t->fake, ctx, "p2", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t c2 = fake_domain(&t->fake, ctx, "c2", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p1, c), 0);
	assert_int_equal(dmn_link_add(ctx, p2, c), 0);
	assert_int_equal(dmn_link_add(ctx, p1, c2), 0);
	dmn_device_t dev = mkdev(ctx, "dev"), dev2 = mkdev(ctx, "dev2");
	dmn_attach_t a = mkatt(ctx, dev, c), a2 = mkatt(ctx, dev2, c2);
	assert_int_equal(dmn_vote(ctx, a, 5), 0);
	assert_int_equal(dmn_vote(ctx, a2, 2), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	LOG_IS(FAKE_PSTATE, p1, 5, FAKE_PSTATE, p2, 5, FAKE_PSTATE, c, 5,
	       FAKE_ON, p1, 0, FAKE_ON, p2, 0, FAKE_ON, c, 0);
	int on;
	assert_int_equal(link_req(ctx, p1, c, &on), 5);
	assert_int_equal(on, 1);
	assert_int_equal(link_req(ctx, p2, c, &on), 5);
	assert_int_equal(link_req(ctx, p1, c2, &on), 0);
	assert_int_equal(on, 0);
	assert_int_equal(dmn_device_get(ctx, dev2), 0);
	assert_int_equal(dinfo(ctx, p1).on_children, 2);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	/* p1 stays on for c2 and falls to its 2; p2 goes off. */
	assert_true(ON(p1));
	assert_false(ON(p2));
	assert_int_equal(PS(p1), 2);
	assert_int_equal(PS(p2), 0);
	assert_true(fake_log_find(&t->fake, FAKE_OFF, c) <
		    fake_log_find(&t->fake, FAKE_OFF, p2));
	assert_int_equal(fake_log_count(&t->fake, FAKE_OFF, p1), 0);
}

/* Per-link level maps, also changed while the child is on. */
static void link_map(void **state)
{
	T;
	dmn_domain_t p1 = fake_domain(&t->fake, ctx, "p1", &fake_ops_full, 0);
	dmn_domain_t p2 = fake_domain(&t->fake, ctx, "p2", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p1, c), 0);
	assert_int_equal(dmn_link_add(ctx, p2, c), 0);
	CLEAR();
	assert_int_equal(dmn_link_set_map(ctx, p1, c, map_half, 0), 0);
	NO_CALLS(); /* child off: nothing to do yet */
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t a = mkatt(ctx, dev, c);
	assert_int_equal(dmn_vote(ctx, a, 6), 0);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(PS(p1), 3);
	assert_int_equal(PS(p2), 6);
	assert_int_equal(link_req(ctx, p1, c, 0), 3);
	/* Changed while on: only p1 moves, with one call. */
	CLEAR();
	assert_int_equal(dmn_link_set_map(ctx, p1, c, map_double, 0), 0);
	LOG_IS(FAKE_PSTATE, p1, 12);
	assert_int_equal(link_req(ctx, p1, c, 0), 12);
	CLEAR();
	assert_int_equal(dmn_link_set_map(ctx, p1, c, 0, 0), 0); /* identity */
	LOG_IS(FAKE_PSTATE, p1, 6);
	/* A raise through a new map that fails is undone: the old map stays. */
	assert_int_equal(dmn_link_set_map(ctx, p1, c, map_half, 0), 0);
	fake_fail(&t->fake, p1, FAKE_PSTATE, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_link_set_map(ctx, p1, c, map_double, 0), -EIO);
	UNCHANGED();
	assert_int_equal(dmn_vote(ctx, a, 8), 0);
	assert_int_equal(PS(p1), 4); /* still halved */
	/* A map yielding 0 asks nothing (but the child still keeps it on). */
	assert_int_equal(dmn_vote(ctx, a, 1), 0);
	assert_int_equal(link_req(ctx, p1, c, 0), 0);
	assert_int_equal(PS(p1), 0);
	assert_true(ON(p1));
}

/* A provider's own required-opps: a floor while the child is on. */
static void link_floor(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_power, 0);
	dmn_domain_t bare = fake_domain(&t->fake, ctx, "bare", &fake_ops_power, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	assert_int_equal(dmn_link_add(ctx, bare, c), 0);
	CLEAR();
	assert_int_equal(dmn_link_set_floor(ctx, p, c, 3), 0);
	NO_CALLS();
	EXPECT_NOOP_ERR(dmn_link_set_floor(ctx, bare, c, 3), -ENODEV);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t a = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(PS(p), 3);
	assert_int_equal(dmn_vote(ctx, a, 5), 0);
	assert_int_equal(PS(p), 5);
	assert_int_equal(dmn_vote(ctx, a, 1), 0);
	assert_int_equal(PS(p), 3);
	CLEAR();
	assert_int_equal(dmn_link_set_floor(ctx, p, c, 0), 0);
	LOG_IS(FAKE_PSTATE, p, 1);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(PS(p), 0);
}

static void always_on(void **state)
{
	T;
	dmn_domain_t ao = fake_domain(&t->fake, ctx, "ao", &fake_ops_full,
				     DMN_FLAG_ALWAYS_ON);
	LOG_IS(FAKE_ON, ao, 0);
	/* Its power-on is the engine's: one DMN_EV_POWER_ON, 0 -> 1. */
	assert_int_equal(t->ev.n, 1);
	assert_int_equal(t->ev.ev[0].kind, DMN_EV_POWER_ON);
	assert_int_equal(t->ev.ev[0].op, DMN_OP_POWER_ON);
	assert_int_equal(t->ev.ev[0].domain, ao);
	assert_int_equal(t->ev.ev[0].device, 0);
	assert_int_equal(t->ev.ev[0].error, 0);
	assert_int_equal(t->ev.ev[0].safe, 0);
	assert_int_equal(t->ev.ev[0].old_value, 0);
	assert_int_equal(t->ev.ev[0].new_value, 1);
	assert_true(ON(ao));
	assert_true(HW(ao)->on);
	assert_int_equal(dinfo(ctx, ao).flags, DMN_FLAG_ALWAYS_ON);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, ao, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t a = mkatt(ctx, dev, c);
	dmn_attach_t aa = mkatt(ctx, dev, ao);
	assert_int_equal(dmn_vote(ctx, a, 4), 0);
	assert_int_equal(dmn_vote(ctx, aa, 2), 0);
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	LOG_IS(FAKE_PSTATE, ao, 4, FAKE_PSTATE, c, 4, FAKE_ON, c, 0);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	/* Never powered off, but its level still falls. */
	LOG_IS(FAKE_OFF, c, 0, FAKE_PSTATE, c, 0, FAKE_PSTATE, ao, 0);
	assert_true(ON(ao));
	assert_int_equal(PS(ao), 0);

	/* An always-on domain whose power_on fails is not created. */
	struct fake_domain *fd = &t->fake.dom[t->fake.n_dom];
	memset(fd, 0, sizeof(*fd));
	fd->fake = &t->fake;
	fd->index = t->fake.n_dom;
	fd->name = "ao-bad";
	fake_fail_call(&t->fake, t->fake.hw.n_calls + 1);
	struct dmn_domain_desc desc = {"ao-bad", &fake_ops_full, fd,
				      DMN_FLAG_ALWAYS_ON};
	dmn_domain_t h = 0;
	SNAP();
	t->ev.n = 0;
	assert_int_equal(dmn_domain_create(ctx, &desc, &h), -EIO);
	fake_fail_call(&t->fake, 0);
	UNCHANGED();
	assert_int_equal(dmn_domain_find(ctx, "ao-bad", &h), -ENOENT);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	/* Listeners hear of the failed callback (an unsafe failure, on the
	 * handle the call then took back), as of any other. */
	assert_int_equal(t->ev.n, 1);
	assert_int_equal(t->ev.ev[0].kind, DMN_EV_FAILURE);
	assert_int_equal(t->ev.ev[0].op, DMN_OP_POWER_ON);
	assert_int_equal(t->ev.ev[0].error, -EIO);
	assert_int_equal(t->ev.ev[0].safe, 0);
	assert_int_equal(t->ev.ev[0].new_value, 1);
	assert_int_not_equal(t->ev.ev[0].domain, 0);
}

/* Unsafe failure of a power-on: everything switched on goes back off. */
static void rollback_power_on(void **state)
{
	T;
	dmn_domain_t a = fake_domain(&t->fake, ctx, "a", &fake_ops_full, 0);
	dmn_domain_t b = fake_domain(&t->fake, ctx, "b", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t o = fake_domain(&t->fake, ctx, "o", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, a, b), 0);
	assert_int_equal(dmn_link_add(ctx, b, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	mkatt(ctx, dev, o);
	mkatt(ctx, dev, c);
	fake_fail(&t->fake, c, FAKE_ON, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), -EIO);
	LOG_IS(FAKE_ON, o, 0, FAKE_ON, a, 0, FAKE_ON, b, 0, FAKE_ON, c, 0,
	       FAKE_OFF, b, 0, FAKE_OFF, a, 0, FAKE_OFF, o, 0);
	UNCHANGED();
	assert_int_equal(dmn_last_error(ctx), -EIO);
	const struct dmn_event *ev = evrec_first(&t->ev, DMN_EV_FAILURE);
	assert_non_null(ev);
	assert_int_equal(ev->safe, 0);
	assert_int_equal(ev->domain, c);
	assert_int_equal(ev->op, DMN_OP_POWER_ON);
	assert_int_equal(ev->error, -EIO);
	assert_int_equal(evrec_count(&t->ev, DMN_EV_ROLLBACK), 1);
	/* Works once the hardware does. */
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_true(ON(a) && ON(b) && ON(c) && ON(o));
	assert_int_equal(dmn_last_error(ctx), 0);
	assert_int_equal(dmn_device_put(ctx, dev), 0);

	/* With votes: raised first, undone after the power-offs. */
	dmn_attach_t ac;
	assert_int_equal(dmn_attach_find(ctx, dev, c, &ac), 0);
	assert_int_equal(dmn_vote(ctx, ac, 5), 0);
	fake_fail(&t->fake, b, FAKE_ON, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), -EIO);
	LOG_IS(FAKE_PSTATE, a, 5, FAKE_PSTATE, b, 5, FAKE_PSTATE, c, 5,
	       FAKE_ON, o, 0, FAKE_ON, a, 0, FAKE_ON, b, 0, FAKE_OFF, a, 0,
	       FAKE_OFF, o, 0, FAKE_PSTATE, c, 0, FAKE_PSTATE, b, 0,
	       FAKE_PSTATE, a, 0);
	UNCHANGED();
	assert_int_equal(ainfo(ctx, ac).vote, 5);
	assert_false(ainfo(ctx, ac).counts);
}

/* Unsafe failure of a pstate raise: the old vote stands. */
static void rollback_pstate_raise(void **state)
{
	T;
	dmn_domain_t a = fake_domain(&t->fake, ctx, "a", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, a, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, att, 2), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_vote(ctx, att, 7), -EIO);
	LOG_IS(FAKE_PSTATE, a, 7, FAKE_PSTATE, c, 7, FAKE_PSTATE, a, 2);
	UNCHANGED();
	assert_int_equal(ainfo(ctx, att).vote, 2);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	fake_fail(&t->fake, a, FAKE_PSTATE, 1);
	CLEAR();
	assert_int_equal(dmn_vote(ctx, att, 7), -EIO);
	LOG_IS(FAKE_PSTATE, a, 7);
	UNCHANGED();
	/* A failing raise at resume leaves the device suspended. */
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, att, 7), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), -EIO);
	LOG_IS(FAKE_PSTATE, a, 7, FAKE_PSTATE, c, 7, FAKE_PSTATE, a, 0);
	UNCHANGED();
	struct dmn_device_info vi;
	assert_int_equal(dmn_device_info(ctx, dev, &vi), 0);
	assert_int_equal(vi.usage, 0);
}

/* Safe failure of a power-off: that domain and its parents stay on, the put
 * succeeds, the failure is reported, a later change retries. */
static void safe_power_off(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t o = fake_domain(&t->fake, ctx, "o", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, c);
	mkatt(ctx, dev, o);
	assert_int_equal(dmn_vote(ctx, att, 3), 0);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	fake_fail(&t->fake, c, FAKE_OFF, 1);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	const struct dmn_event *ev = evrec_first(&t->ev, DMN_EV_FAILURE);
	assert_non_null(ev);
	assert_int_equal(ev->safe, 1);
	assert_int_equal(ev->op, DMN_OP_POWER_OFF);
	assert_int_equal(ev->domain, c);
	assert_int_equal(evrec_count(&t->ev, DMN_EV_ROLLBACK), 0);
	/* c and its parent stay on; o, unrelated, went off. */
	assert_true(ON(c) && HW(c)->on);
	assert_true(ON(p) && HW(p)->on);
	assert_false(ON(o));
	assert_int_equal(fake_log_count(&t->fake, FAKE_OFF, p), 0);
	int on;
	link_req(ctx, p, c, &on);
	assert_int_equal(on, 1);
	assert_int_equal(dinfo(ctx, p).on_children, 1);
	/* The device is suspended all the same; records match the hardware. */
	struct dmn_device_info vi;
	assert_int_equal(dmn_device_info(ctx, dev, &vi), 0);
	assert_int_equal(vi.usage, 0);
	assert_false(ainfo(ctx, att).counts);
	assert_int_equal(dinfo(ctx, c).active_devices, 0);
	assert_int_equal(PS(c), HW(c)->pstate);
	assert_int_equal(PS(p), HW(p)->pstate);
	/* A later change retries. */
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(fake_log_count(&t->fake, FAKE_ON, c), 0);
	assert_int_equal(dmn_last_error(ctx), 0);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_false(ON(c) || ON(p) || HW(c)->on || HW(p)->on);
	assert_int_equal(dmn_last_error(ctx), 0);

	/* The retry also happens from another device's change on c. */
	dmn_device_t other = mkdev(ctx, "other");
	mkatt(ctx, other, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	fake_fail(&t->fake, c, FAKE_OFF, 1);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_true(ON(c));
	assert_int_equal(dmn_device_get(ctx, other), 0);
	assert_int_equal(dmn_device_put(ctx, other), 0);
	assert_false(ON(c) || ON(p));
}

/* Safe failure of a lowering: that domain stays high, its parents keep what
 * it still requires, a later change retries. */
static void safe_lowering(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, att, 5), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	CLEAR();
	assert_int_equal(dmn_vote(ctx, att, 2), 0);
	LOG_IS(FAKE_PSTATE, c, 2); /* failed; p is not lowered */
	assert_int_equal(dmn_last_error(ctx), -EIO);
	const struct dmn_event *ev = evrec_first(&t->ev, DMN_EV_FAILURE);
	assert_non_null(ev);
	assert_int_equal(ev->safe, 1);
	assert_int_equal(ev->op, DMN_OP_SET_PSTATE);
	assert_int_equal(PS(c), 5);
	assert_int_equal(HW(c)->pstate, 5);
	assert_int_equal(dinfo(ctx, c).target_pstate, 2);
	assert_int_equal(link_req(ctx, p, c, 0), 5);
	assert_int_equal(PS(p), 5);
	assert_int_equal(ainfo(ctx, att).vote, 2); /* the vote did change */
	/* A later change retries. */
	CLEAR();
	assert_int_equal(dmn_vote(ctx, att, 3), 0);
	LOG_IS(FAKE_PSTATE, c, 3, FAKE_PSTATE, p, 3);
	assert_int_equal(dmn_last_error(ctx), 0);
	assert_int_equal(dinfo(ctx, c).target_pstate, 3);

	/* Failing at the parent: the child goes down, the parent stays. */
	fake_fail(&t->fake, p, FAKE_PSTATE, 1);
	assert_int_equal(dmn_vote(ctx, att, 1), 0);
	assert_int_equal(PS(c), 1);
	assert_int_equal(PS(p), 3);
	assert_int_equal(dinfo(ctx, p).target_pstate, 1);
	assert_int_equal(link_req(ctx, p, c, 0), 1);

	/* Failing lowering on suspend: powered off, left at its level. */
	assert_int_equal(dmn_vote(ctx, att, 4), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	CLEAR();
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	LOG_IS(FAKE_OFF, c, 0, FAKE_OFF, p, 0, FAKE_PSTATE, c, 0,
	       FAKE_PSTATE, p, 0);
	assert_false(ON(c));
	assert_int_equal(PS(c), 4);
	assert_int_equal(PS(p), 0);
	assert_int_equal(link_req(ctx, p, c, 0), 0);
	/* At the next resume c already sits at 4: no call for it. */
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	LOG_IS(FAKE_PSTATE, p, 4, FAKE_ON, p, 0, FAKE_ON, c, 0);
}

/* An unsafe failure undoes only what its own call did: a domain left high
 * (or on) by an earlier safe-direction failure stays as it was. */
static void rollback_keeps_earlier_safe_failure(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t d = fake_domain(&t->fake, ctx, "d", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev"), dev2 = mkdev(ctx, "dev2");
	dmn_attach_t a = mkatt(ctx, dev, c);
	mkatt(ctx, dev2, c);
	mkatt(ctx, dev2, d);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, a, 5), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	assert_int_equal(dmn_vote(ctx, a, 2), 0);
	assert_int_equal(PS(c), 5); /* left high by the safe failure */
	/* A call reaching c fails in the unsafe direction. */
	fake_fail(&t->fake, d, FAKE_ON, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev2), -EIO);
	UNCHANGED();
	assert_int_equal(fake_log_count(&t->fake, FAKE_PSTATE, c), 0);
	/* Same with a domain left on by a failed power-off. */
	dmn_domain_t q = fake_domain(&t->fake, ctx, "q", &fake_ops_full, 0);
	dmn_device_t dev3 = mkdev(ctx, "dev3"), dev4 = mkdev(ctx, "dev4");
	mkatt(ctx, dev3, q);
	mkatt(ctx, dev4, q);
	mkatt(ctx, dev4, d);
	assert_int_equal(dmn_device_get(ctx, dev3), 0);
	fake_fail(&t->fake, q, FAKE_OFF, 1);
	assert_int_equal(dmn_device_put(ctx, dev3), 0);
	assert_true(ON(q));
	fake_fail(&t->fake, d, FAKE_ON, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dev4), -EIO);
	UNCHANGED();
	assert_int_equal(fake_log_count(&t->fake, FAKE_OFF, q), 0);
	/* dmn_last_error follows every call, also early failures. */
	assert_int_equal(dmn_last_error(ctx), -EIO);
	assert_int_equal(dmn_link_add(ctx, p, c), -EEXIST);
	assert_int_equal(dmn_last_error(ctx), -EEXIST);
	assert_int_equal(dmn_link_add(ctx, p, d), 0);
	assert_int_equal(dmn_last_error(ctx), 0);
}

/* A safe failure two levels down: the domain in between does not change,
 * but still holds its own parents where it really needs them. */
static void safe_failure_holds_grandparent(void **state)
{
	T;
	dmn_domain_t g = fake_domain(&t->fake, ctx, "g", &fake_ops_full, 0);
	dmn_domain_t m = fake_domain(&t->fake, ctx, "m", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, g, m), 0);
	assert_int_equal(dmn_link_add(ctx, m, c), 0);
	dmn_device_t dc = mkdev(ctx, "dc"), dm = mkdev(ctx, "dm");
	dmn_attach_t ac = mkatt(ctx, dc, c), am = mkatt(ctx, dm, m);
	assert_int_equal(dmn_device_get(ctx, dc), 0);
	assert_int_equal(dmn_device_get(ctx, dm), 0);
	assert_int_equal(dmn_vote(ctx, ac, 5), 0);
	assert_int_equal(dmn_vote(ctx, am, 2), 0);
	fake_fail(&t->fake, c, FAKE_PSTATE, 1);
	assert_int_equal(dmn_vote(ctx, ac, 0), 0);
	assert_int_equal(PS(c), 5);
	assert_int_equal(PS(m), 5);
	assert_int_equal(link_req(ctx, g, m, 0), 5);
	assert_int_equal(PS(g), 5);
	/* Same for power: m kept on by c must keep g on. */
	assert_int_equal(dmn_device_put(ctx, dm), 0);
	fake_fail(&t->fake, c, FAKE_OFF, 1);
	assert_int_equal(dmn_device_put(ctx, dc), 0);
	assert_true(ON(c) && ON(m) && ON(g));
	assert_true(HW(g)->on);
	int on;
	link_req(ctx, g, m, &on);
	assert_int_equal(on, 1);
	assert_int_equal(dinfo(ctx, g).on_children, 1);
	/* Retried by the next change: all go off, children first. */
	CLEAR();
	assert_int_equal(dmn_device_get(ctx, dc), 0);
	assert_int_equal(dmn_device_put(ctx, dc), 0);
	assert_false(ON(c) || ON(m) || ON(g));
}

static void vote_many(void **state)
{
	T;
	dmn_domain_t d1 = fake_domain(&t->fake, ctx, "d1", &fake_ops_full, 0);
	dmn_domain_t d2 = fake_domain(&t->fake, ctx, "d2", &fake_ops_full, 0);
	dmn_device_t dev = mkdev(ctx, "dev"), other = mkdev(ctx, "other");
	dmn_attach_t a1 = mkatt(ctx, dev, d1), a2 = mkatt(ctx, dev, d2);
	dmn_attach_t ao = mkatt(ctx, other, d1);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	struct dmn_vote_change ch[2] = {{a1, 3}, {a2, 4}};
	CLEAR();
	assert_int_equal(dmn_vote_many(ctx, ch, 2), 0);
	assert_int_equal(PS(d1), 3);
	assert_int_equal(PS(d2), 4);
	assert_int_equal(t->fake.hw.n_log, 2);
	struct dmn_vote_change mixed[2] = {{a1, 5}, {ao, 5}};
	EXPECT_NOOP_ERR(dmn_vote_many(ctx, mixed, 2), -EINVAL);
	/* All or nothing: a failing raise on d2 undoes d1's. */
	struct dmn_vote_change up[2] = {{a1, 5}, {a2, 6}};
	fake_fail(&t->fake, d2, FAKE_PSTATE, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_vote_many(ctx, up, 2), -EIO);
	UNCHANGED();
	assert_int_equal(ainfo(ctx, a1).vote, 3);
	assert_int_equal(ainfo(ctx, a2).vote, 4);
	/* The same attachment twice: the last one wins. */
	struct dmn_vote_change twice[2] = {{a1, 9}, {a1, 1}};
	assert_int_equal(dmn_vote_many(ctx, twice, 2), 0);
	assert_int_equal(ainfo(ctx, a1).vote, 1);
	assert_int_equal(PS(d1), 1);
	/* 64 changes are allowed. */
	struct dmn_vote_change many[64];
	for (unsigned i = 0; i < 64; i++) {
		many[i].att = i % 2 ? a1 : a2;
		many[i].level = i + 1;
	}
	assert_int_equal(dmn_vote_many(ctx, many, 64), 0);
	assert_int_equal(PS(d1), 64);
	assert_int_equal(PS(d2), 63);
}

/* Links added and removed while the child is on, as transactions. */
static void link_while_on(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t a = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, a, 4), 0);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	LOG_IS(FAKE_PSTATE, p, 4, FAKE_ON, p, 0);
	int on;
	assert_int_equal(link_req(ctx, p, c, &on), 4);
	assert_int_equal(on, 1);
	CLEAR();
	assert_int_equal(dmn_link_remove(ctx, p, c), 0);
	LOG_IS(FAKE_OFF, p, 0, FAKE_PSTATE, p, 0);
	UNCHANGED(); /* the exact inverse */
	/* A failing power-on or raise of the parent: the link is not added. */
	fake_fail(&t->fake, p, FAKE_ON, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_link_add(ctx, p, c), -EIO);
	LOG_IS(FAKE_PSTATE, p, 4, FAKE_ON, p, 0, FAKE_PSTATE, p, 0);
	UNCHANGED();
	fake_fail(&t->fake, p, FAKE_PSTATE, 1);
	SNAP();
	CLEAR();
	assert_int_equal(dmn_link_add(ctx, p, c), -EIO);
	LOG_IS(FAKE_PSTATE, p, 4);
	UNCHANGED();
	assert_int_equal(dinfo(ctx, c).n_parents, 0);
	/* A failing power-off on removal: removed anyway, the parent stays on
	 * as it really is, and a later change retries. */
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	fake_fail(&t->fake, p, FAKE_OFF, 1);
	assert_int_equal(dmn_link_remove(ctx, p, c), 0);
	assert_int_equal(dmn_last_error(ctx), -EIO);
	assert_int_equal(dinfo(ctx, p).n_children, 0);
	assert_true(ON(p) && HW(p)->on);
	assert_int_equal(PS(p), 0);
	dmn_device_t d2 = mkdev(ctx, "d2");
	mkatt(ctx, d2, p);
	assert_int_equal(dmn_device_get(ctx, d2), 0);
	assert_int_equal(dmn_device_put(ctx, d2), 0);
	assert_false(ON(p));
	/* Adding or removing a link of an off child changes nothing else. */
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	CLEAR();
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	assert_int_equal(dmn_link_remove(ctx, p, c), 0);
	NO_CALLS();
}

/* Attach/detach while the device is active; detach is attach's inverse. */
static void attach_detach_active(void **state)
{
	T;
	dmn_domain_t d1 = fake_domain(&t->fake, ctx, "d1", &fake_ops_full, 0);
	dmn_domain_t d2 = fake_domain(&t->fake, ctx, "d2", &fake_ops_full, 0);
	dmn_domain_t d3 = fake_domain(&t->fake, ctx, "d3", &fake_ops_full, 0);
	dmn_domain_t top = fake_domain(&t->fake, ctx, "top", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, top, d2), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t a1 = mkatt(ctx, dev, d1);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, a1, 2), 0);
	SNAP();
	CLEAR();
	dmn_attach_t a2 = mkatt(ctx, dev, d2);
	LOG_IS(FAKE_ON, top, 0, FAKE_ON, d2, 0);
	assert_true(ainfo(ctx, a2).counts);
	assert_int_equal(ainfo(ctx, a2).vote, 0);
	assert_int_equal(dmn_vote(ctx, a2, 5), 0);
	assert_int_equal(PS(top), 5);
	CLEAR();
	assert_int_equal(dmn_detach(ctx, a2), 0);
	LOG_IS(FAKE_OFF, d2, 0, FAKE_OFF, top, 0, FAKE_PSTATE, d2, 0,
	       FAKE_PSTATE, top, 0);
	UNCHANGED();
	EXPECT_NOOP_ERR(dmn_detach(ctx, a2), -EBADF);
	/* A failing power-on: not attached. */
	fake_fail(&t->fake, d2, FAKE_ON, 1);
	dmn_attach_t h;
	SNAP();
	assert_int_equal(dmn_attach(ctx, dev, d2, &h), -EIO);
	UNCHANGED();
	assert_int_equal(dmn_attach_find(ctx, dev, d2, &h), -ENOENT);
	/* Order is kept across a detach in the middle. */
	a2 = mkatt(ctx, dev, d2);
	dmn_attach_t a3 = mkatt(ctx, dev, d3);
	assert_int_equal(dmn_detach(ctx, a2), 0);
	assert_int_equal(dmn_device_attachment(ctx, dev, 0, &h), 0);
	assert_int_equal(h, a1);
	assert_int_equal(dmn_device_attachment(ctx, dev, 1, &h), 0);
	assert_int_equal(h, a3);
	/* Detaching a suspended device makes no callback. */
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	CLEAR();
	assert_int_equal(dmn_detach(ctx, a3), 0);
	NO_CALLS();
}

static void introspection(void **state)
{
	T;
	dmn_domain_t d[5];
	const char *names[5] = {"d0", "d1", "d2", "dup", "dup"};
	for (unsigned i = 0; i < 5; i++)
		d[i] = fake_domain(&t->fake, ctx, names[i],
				   i == 2 ? &fake_ops_power : &fake_ops_full, 0);
	dmn_domain_t h;
	assert_int_equal(dmn_domain_find(ctx, "dup", &h), 0);
	assert_int_equal(h, d[3]);
	assert_int_equal(dmn_domain_find(ctx, "d2", &h), 0);
	assert_int_equal(h, d[2]);
	struct dmn_domain_info di = dinfo(ctx, d[2]);
	assert_string_equal(di.name, "d2");
	assert_false(di.has_pstate_cb);
	assert_int_equal(di.idle_state, -1);
	/* Iteration in creation order, also after a removal and a reuse. */
	assert_int_equal(dmn_domain_remove(ctx, d[1]), 0);
	dmn_domain_t d5 = fake_domain(&t->fake, ctx, "d5", &fake_ops_full, 0);
	const dmn_domain_t want[] = {d[0], d[2], d[3], d[4], d5};
	h = 0;
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(dmn_domain_next(ctx, h, &h), 0);
		assert_int_equal(h, want[i]);
	}
	assert_int_equal(dmn_domain_next(ctx, h, &h), -ENOENT);
	/* Parents and children in link order, kept across a removal. */
	assert_int_equal(dmn_link_add(ctx, d[0], d5), 0);
	assert_int_equal(dmn_link_add(ctx, d[2], d5), 0);
	assert_int_equal(dmn_link_add(ctx, d[3], d5), 0);
	assert_int_equal(dmn_link_add(ctx, d[3], d[4]), 0);
	assert_int_equal(dmn_link_remove(ctx, d[2], d5), 0);
	assert_int_equal(dinfo(ctx, d5).n_parents, 2);
	assert_int_equal(dmn_domain_parent(ctx, d5, 0, &h), 0);
	assert_int_equal(h, d[0]);
	assert_int_equal(dmn_domain_parent(ctx, d5, 1, &h), 0);
	assert_int_equal(h, d[3]);
	assert_int_equal(dinfo(ctx, d[3]).n_children, 2);
	assert_int_equal(dmn_domain_child(ctx, d[3], 0, &h), 0);
	assert_int_equal(h, d5);
	assert_int_equal(dmn_domain_child(ctx, d[3], 1, &h), 0);
	assert_int_equal(h, d[4]);
	/* Devices and attachments. */
	dmn_device_t x = mkdev(ctx, "x"), y = mkdev(ctx, "y"), z = mkdev(ctx, "z");
	assert_int_equal(dmn_device_remove(ctx, y), 0);
	dmn_device_t w = mkdev(ctx, "w");
	dmn_device_t dh;
	assert_int_equal(dmn_device_find(ctx, "w", &dh), 0);
	assert_int_equal(dh, w);
	const dmn_device_t dwant[] = {x, z, w};
	dh = 0;
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(dmn_device_next(ctx, dh, &dh), 0);
		assert_int_equal(dh, dwant[i]);
	}
	assert_int_equal(dmn_device_next(ctx, dh, &dh), -ENOENT);
	dmn_attach_t ax = mkatt(ctx, x, d5), az = mkatt(ctx, z, d5);
	dmn_attach_t aw = mkatt(ctx, w, d5), ax0 = mkatt(ctx, x, d[0]);
	assert_int_equal(dmn_detach(ctx, az), 0);
	dmn_attach_t a = 0;
	assert_int_equal(dmn_domain_next_attachment(ctx, d5, a, &a), 0);
	assert_int_equal(a, ax);
	assert_int_equal(dmn_domain_next_attachment(ctx, d5, a, &a), 0);
	assert_int_equal(a, aw);
	assert_int_equal(dmn_domain_next_attachment(ctx, d5, a, &a), -ENOENT);
	assert_int_equal(dinfo(ctx, d5).n_attachments, 2);
	struct dmn_device_info vi;
	assert_int_equal(dmn_device_info(ctx, x, &vi), 0);
	assert_string_equal(vi.name, "x");
	assert_int_equal(vi.n_attachments, 2);
	assert_int_equal(vi.usage, 0);
	assert_int_equal(dmn_device_attachment(ctx, x, 1, &a), 0);
	assert_int_equal(a, ax0);
	assert_int_equal(dmn_attach_find(ctx, x, d[0], &a), 0);
	assert_int_equal(a, ax0);
	struct dmn_attach_info ai = ainfo(ctx, ax0);
	assert_int_equal(ai.device, x);
	assert_int_equal(ai.domain, d[0]);
	assert_int_equal(ai.vote, 0);
	assert_int_equal(ai.counts, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(power_order_chain),
		TEST(pstate_order_resume_suspend),
		TEST(attach_order),
		TEST(pstate_aggregate),
		TEST(dag_two_parents),
		TEST(link_map),
		TEST(link_floor),
		TEST(always_on),
		TEST(rollback_power_on),
		TEST(rollback_pstate_raise),
		TEST(safe_power_off),
		TEST(safe_lowering),
		TEST(rollback_keeps_earlier_safe_failure),
		TEST(safe_failure_holds_grandparent),
		TEST(vote_many),
		TEST(link_while_on),
		TEST(attach_detach_active),
		TEST(introspection),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
