/* SPDX-License-Identifier: MIT */
/* Opportunistic scaling: two devices on one rail; the follower rides the
 * other's raises and drops back before the rail is lowered. */
#include "opp_test.h"

struct rig {
	struct world w;
	dmn_domain_t cx;
	dmn_opp_table_t rail;
	dmn_device_t a, b; /* a follows */
	dmn_opp_table_t ta, tb;
	uint32_t a1, a2, a3, b1, b2, b3;
};

static dmn_opp_table_t dev_table(struct rig *r, const char *name, uint32_t *e1,
			     uint32_t *e2, uint32_t *e3)
{
	struct world *w = &r->w;
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w->ctx, name, &t));
	uint32_t ids[3];
	for (unsigned i = 0; i < 3; i++) {
		uint32_t lvl;
		OK(dmn_opp_find_level_exact(w->ctx, r->rail, i + 1, &lvl));
		struct dmn_opp_required q = {r->rail, lvl};
		ids[i] = add_freq(w, t, (i + 1) * 100, 500 + 100 * i, 1, &q);
	}
	*e1 = ids[0];
	*e2 = ids[1];
	*e3 = ids[2];
	return t;
}

static dmn_device_t dev_new(struct rig *r, const char *name, dmn_opp_table_t t)
{
	struct world *w = &r->w;
	dmn_device_t d;
	dmn_attach_t att;
	OK(dmn_device_create(w->ctx, name, &d));
	OK(dmn_attach(w->ctx, d, r->cx, &att));
	OK(dmn_opp_device_bind(w->ctx, d, t));
	OK(dmn_opp_device_set_clock(w->ctx, d, &dmn_sim_providers_clock, &w->sp));
	OK(dmn_opp_device_set_regulators(w->ctx, d, &dmn_sim_providers_regulators,
				     &w->sp));
	OK(dmn_device_get(w->ctx, d));
	return d;
}

static struct rig *rig_new(void)
{
	struct rig *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	world_init(&r->w);
	struct world *w = &r->w;
	r->cx = mk_domain(w, "cx", 1);
	OK(dmn_opp_table_create(w->ctx, "rpmhpd", &r->rail));
	for (unsigned i = 1; i <= 3; i++)
		add_level(w, r->rail, i, 0, NULL);
	OK(dmn_opp_domain_set_table(w->ctx, r->cx, r->rail));
	r->ta = dev_table(r, "a-opp", &r->a1, &r->a2, &r->a3);
	r->tb = dev_table(r, "b-opp", &r->b1, &r->b2, &r->b3);
	r->a = dev_new(r, "a", r->ta);
	r->b = dev_new(r, "b", r->tb);
	return r;
}

static void rig_free(struct rig *r)
{
	world_fini(&r->w);
	free(r);
}

static void test_follow_up_and_back(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	const struct dmn_sim_providers *sp = &w->sp;
	OK(dmn_opp_set_rate(w->ctx, r->a, 100));
	OK(dmn_opp_device_follow(w->ctx, r->a, true));
	uint32_t id;
	OK(dmn_opp_find_max_permitted(w->ctx, r->a, &id));
	assert_int_equal(id, r->a1);

	/* b raises cx to 3: a moves up after the raise, supplies then clock. */
	dmn_sim_providers_clear_log(&w->sp);
	OK(dmn_opp_set_rate(w->ctx, r->b, 300));
	assert_int_equal(dom_pstate(w, r->cx), 3);
	assert_int_equal(cur_id(w, r->a), r->a3);
	uint64_t req;
	OK(dmn_opp_device_current(w->ctx, r->a, NULL, &req));
	assert_int_equal(req, 100);
	assert_int_equal(dmn_sim_providers_rate(sp, r->a), 300);
	assert_int_equal(dmn_sim_providers_microvolt(sp, r->a, 0), 700);
	assert_int_equal(sp->log[0].op, DMN_SIM_PROVIDERS_PSTATE);
	assert_int_equal(sp->log[1].op, DMN_SIM_PROVIDERS_REGULATOR);
	assert_int_equal(sp->log[1].object, r->a);
	assert_int_equal(sp->log[2].op, DMN_SIM_PROVIDERS_CLOCK);
	assert_int_equal(sp->log[2].object, r->a);
	OK(dmn_opp_find_max_permitted(w->ctx, r->a, &id));
	assert_int_equal(id, r->a3);
	/* a's own vote is still for its requested OPP. */
	uint32_t v;
	assert_int_equal(dmn_opp_device_votes(w->ctx, r->a, r->a1, &v, 1), 1);
	assert_int_equal(v, 1);

	/* b drops to 200: before cx lowers, a goes down, clock first. */
	dmn_sim_providers_clear_log(&w->sp);
	OK(dmn_opp_set_rate(w->ctx, r->b, 200));
	assert_int_equal(dom_pstate(w, r->cx), 2);
	assert_int_equal(cur_id(w, r->a), r->a2);
	unsigned i_clk = 99, i_pst = 99;
	for (unsigned i = 0; i < sp->n_log; i++) {
		if (sp->log[i].op == DMN_SIM_PROVIDERS_CLOCK &&
		    sp->log[i].object == r->a)
			i_clk = i;
		if (sp->log[i].op == DMN_SIM_PROVIDERS_PSTATE)
			i_pst = i;
	}
	assert_true(i_clk < i_pst);
	assert_int_equal(dmn_sim_providers_rate(sp, r->a), 200);

	/* b goes away: a drops back to its own OPP, never below. */
	OK(dmn_opp_set_rate(w->ctx, r->b, 0));
	assert_int_equal(dom_pstate(w, r->cx), 1);
	assert_int_equal(cur_id(w, r->a), r->a1);
	assert_int_equal(dmn_sim_providers_rate(sp, r->a), 100);
	assert_int_equal(dmn_sim_providers_microvolt(sp, r->a, 0), 500);

	/* a's own raise, then b below it: a stays where its vote is. */
	OK(dmn_opp_set_rate(w->ctx, r->a, 200));
	assert_int_equal(cur_id(w, r->a), r->a2);
	OK(dmn_opp_set_rate(w->ctx, r->b, 100));
	assert_int_equal(cur_id(w, r->a), r->a2);
	/* a lowers its request while b holds cx at 3: a stays at 3. */
	OK(dmn_opp_set_rate(w->ctx, r->b, 300));
	assert_int_equal(cur_id(w, r->a), r->a3);
	dmn_sim_providers_clear_log(&w->sp);
	OK(dmn_opp_set_rate(w->ctx, r->a, 100));
	assert_int_equal(cur_id(w, r->a), r->a3);
	assert_int_equal(sp->n_log, 0);

	/* Stop following: back to the requested OPP. */
	OK(dmn_opp_device_follow(w->ctx, r->a, false));
	assert_int_equal(cur_id(w, r->a), r->a1);
	assert_int_equal(dmn_sim_providers_rate(sp, r->a), 100);
	OK(dmn_opp_set_rate(w->ctx, r->b, 100));
	assert_int_equal(cur_id(w, r->a), r->a1);
	rig_free(r);
}

static void test_follow_failure_reported(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	OK(dmn_opp_set_rate(w->ctx, r->a, 100));
	OK(dmn_opp_device_follow(w->ctx, r->a, true));
	OK(dmn_sim_providers_fail(&w->sp, DMN_SIM_PROVIDERS_CLOCK, r->a, 1, -EIO));
	/* b's raise succeeds; a's move fails, is undone and reported. */
	OK(dmn_opp_set_rate(w->ctx, r->b, 300));
	assert_int_equal(dmn_last_error(w->ctx), -EIO);
	assert_int_equal(dom_pstate(w, r->cx), 3);
	assert_int_equal(cur_id(w, r->a), r->a1);
	assert_int_equal(dmn_sim_providers_rate(&w->sp, r->a), 100);
	assert_int_equal(dmn_sim_providers_microvolt(&w->sp, r->a, 0), 500);
	/* The next raise retries. */
	OK(dmn_opp_set_rate(w->ctx, r->b, 200));
	OK(dmn_opp_set_rate(w->ctx, r->b, 300));
	assert_int_equal(cur_id(w, r->a), r->a3);
	OK(dmn_last_error(w->ctx));
	/* Suspended: a's vote no longer counts; it stays at its requested
	 * OPP when cx drops. */
	OK(dmn_device_put(w->ctx, r->a));
	OK(dmn_opp_set_rate(w->ctx, r->b, 0));
	assert_int_equal(dom_pstate(w, r->cx), 0);
	assert_int_equal(cur_id(w, r->a), r->a1);
	uint32_t id;
	assert_int_equal(dmn_opp_find_max_permitted(w->ctx, r->a, &id), -ENOENT);
	OK(dmn_opp_device_unbind(w->ctx, r->a));
	assert_int_equal(dmn_opp_device_follow(w->ctx, r->a, true), -ENOENT);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_follow_up_and_back),
	    cmocka_unit_test(test_follow_failure_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
