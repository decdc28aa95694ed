/* SPDX-License-Identifier: MIT */
/* One meaning per errno (include/domino/context.h): a device with no OPP table
 * bound gets
 * -ENOENT from every OPP call that needs one, dmn_opp_set_rate included (it
 * answered -ENODEV, which elsewhere means "no domain can take this pstate
 * vote"), and the failed call changes nothing. */
#include "opp_test.h"

static void test_not_bound_is_enoent_everywhere(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_domain_t cx = mk_domain(&w, "cx", 1);
	dmn_device_t dev;
	dmn_attach_t att;
	OK(dmn_device_create(w.ctx, "dev", &dev));
	OK(dmn_attach(w.ctx, dev, cx, &att));
	OK(dmn_device_get(w.ctx, dev));
	unsigned calls = w.sp.n_log;

	uint32_t id, levels[2];
	int slot[2];
	dmn_opp_table_t t;
	assert_int_equal(dmn_opp_set_rate(w.ctx, dev, 100), -ENOENT);
	assert_int_equal(dmn_last_error(w.ctx), -ENOENT);
	assert_int_equal(dmn_opp_set_rate(w.ctx, dev, 0), -ENOENT);
	assert_int_equal(dmn_opp_device_unbind(w.ctx, dev), -ENOENT);
	assert_int_equal(dmn_opp_device_table(w.ctx, dev, &t), -ENOENT);
	assert_int_equal(dmn_opp_device_set_clock(w.ctx, dev, NULL, NULL), -ENOENT);
	assert_int_equal(dmn_opp_device_set_regulators(w.ctx, dev, NULL, NULL), -ENOENT);
	assert_int_equal(dmn_opp_device_current(w.ctx, dev, &id, NULL), -ENOENT);
	assert_int_equal(dmn_opp_device_votes(w.ctx, dev, 0, levels, 2), -ENOENT);
	assert_int_equal(dmn_opp_device_required_match(w.ctx, dev, 0, slot, 2), -ENOENT);
	assert_int_equal(dmn_opp_find_max_permitted(w.ctx, dev, &id), -ENOENT);
	assert_int_equal(dmn_opp_device_follow(w.ctx, dev, true), -ENOENT);

	/* Nothing moved: no callback ran and the domain has no vote. */
	assert_int_equal(w.sp.n_log, calls);
	struct dmn_domain_info info;
	OK(dmn_domain_info(w.ctx, cx, &info));
	assert_int_equal(info.on, 1);
	assert_int_equal(info.pstate, 0);
	assert_int_equal(info.target_pstate, 0);
	OK(dmn_device_put(w.ctx, dev));
	world_fini(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_not_bound_is_enoent_everywhere),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
