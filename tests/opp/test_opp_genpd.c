/* SPDX-License-Identifier: MIT */
/*
 * dev_pm_opp_set_rate's order for a device whose OPPs require levels of
 * two domains (docs/genpd-fidelity.md rule 29): going up, the required
 * OPPs in the order the entry lists them, then the clock; going down, the
 * clock, then the required OPPs in the reverse order. The order is the
 * entry's, whatever order the device's domains were attached in.
 */
#include "opp_test.h"

struct rig {
	struct world w;
	dmn_domain_t cx, mx;
	dmn_device_t dev;
};

/* @mx_first: attach mx before cx (the entries list cx first). */
static void rig_init(struct rig *r, bool mx_first)
{
	world_init(&r->w);
	r->cx = mk_domain(&r->w, "cx", 1);
	r->mx = mk_domain(&r->w, "mx", 1);
	dmn_opp_table_t tc, tm, dt;
	OK(dmn_opp_table_create(r->w.ctx, "cx-opp", &tc));
	OK(dmn_opp_table_create(r->w.ctx, "mx-opp", &tm));
	uint32_t c1 = add_level(&r->w, tc, 1, 0, NULL),
		 c2 = add_level(&r->w, tc, 2, 0, NULL);
	uint32_t m1 = add_level(&r->w, tm, 1, 0, NULL),
		 m2 = add_level(&r->w, tm, 2, 0, NULL);
	OK(dmn_opp_domain_set_table(r->w.ctx, r->cx, tc));
	OK(dmn_opp_domain_set_table(r->w.ctx, r->mx, tm));
	OK(dmn_opp_table_create(r->w.ctx, "dev", &dt));
	struct dmn_opp_required lo[2] = {{tc, c1}, {tm, m1}},
			    hi[2] = {{tc, c2}, {tm, m2}};
	add_freq(&r->w, dt, 100, 0, 2, lo);
	add_freq(&r->w, dt, 200, 0, 2, hi);
	dmn_attach_t a;
	OK(dmn_device_create(r->w.ctx, "dev", &r->dev));
	OK(dmn_attach(r->w.ctx, r->dev, mx_first ? r->mx : r->cx, &a));
	OK(dmn_attach(r->w.ctx, r->dev, mx_first ? r->cx : r->mx, &a));
	OK(dmn_opp_device_bind(r->w.ctx, r->dev, dt));
	OK(dmn_opp_device_set_clock(r->w.ctx, r->dev, &dmn_sim_providers_clock,
				    &r->w.sp));
	OK(dmn_device_get(r->w.ctx, r->dev));
	OK(dmn_opp_set_rate(r->w.ctx, r->dev, 100));
}

static void expect_call(const struct dmn_sim_providers *sp, unsigned i,
			enum dmn_sim_providers_op op, uint32_t object,
			uint32_t value)
{
	assert_true(i < sp->n_log);
	assert_int_equal(sp->log[i].op, op);
	if (op != DMN_SIM_PROVIDERS_CLOCK) {
		assert_int_equal(sp->log[i].object, object);
		assert_int_equal(sp->log[i].value, value);
	}
}

static void run(bool mx_first)
{
	struct rig r;
	rig_init(&r, mx_first);
	const struct dmn_sim_providers *sp = &r.w.sp;
	dmn_sim_providers_clear_log(&r.w.sp);
	OK(dmn_opp_set_rate(r.w.ctx, r.dev, 200));
	assert_int_equal(sp->n_log, 3);
	expect_call(sp, 0, DMN_SIM_PROVIDERS_PSTATE, r.cx, 2);
	expect_call(sp, 1, DMN_SIM_PROVIDERS_PSTATE, r.mx, 2);
	expect_call(sp, 2, DMN_SIM_PROVIDERS_CLOCK, 0, 0);
	dmn_sim_providers_clear_log(&r.w.sp);
	OK(dmn_opp_set_rate(r.w.ctx, r.dev, 100));
	assert_int_equal(sp->n_log, 3);
	expect_call(sp, 0, DMN_SIM_PROVIDERS_CLOCK, 0, 0);
	expect_call(sp, 1, DMN_SIM_PROVIDERS_PSTATE, r.mx, 1);
	expect_call(sp, 2, DMN_SIM_PROVIDERS_PSTATE, r.cx, 1);
	OK(dmn_device_put(r.w.ctx, r.dev));
	world_fini(&r.w);
}

static void required_in_entry_order(void **state)
{
	(void)state;
	run(false);
}

static void required_order_not_attach_order(void **state)
{
	(void)state;
	run(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(required_in_entry_order),
		cmocka_unit_test(required_order_not_attach_order),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
