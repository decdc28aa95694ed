/* SPDX-License-Identifier: MIT */
/* Stage 2: the model built into a context through the core and OPP APIs. */
#include "dt_test_util.h"

#include <domino/domain.h>
#include <domino/opp.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct dmn_dt_board *load_case(const char *name)
{
	size_t size;
	void *blob = dt_test_case(name, &size);
	struct dmn_dt_board *b;
	assert_int_equal(dmn_dt_load(blob, size, NULL, &b), 0);
	free(blob);
	return b;
}

static uint32_t pstate(struct dmn_ctx *ctx, dmn_domain_t d)
{
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(ctx, d, &info), 0);
	return info.pstate;
}

static void basic_built(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_case("basic");
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
	struct dmn_dt_instance *in;
	assert_int_equal(dmn_dt_instantiate(b, ctx, NULL, NULL, &in), 0);

	/* every domain, named as in the model, with a pstate callback
	 * exactly when its provider has a table */
	for (unsigned d = 0; d < b->n_domains; d++) {
		struct dmn_domain_info info;
		assert_int_equal(dmn_domain_info(ctx, in->domains[d], &info), 0);
		assert_string_equal(info.name, b->domains[d].name);
		assert_int_equal(info.has_pstate_cb,
				 b->domains[d].opp_table >= 0);
		assert_int_equal(info.n_parents, b->domains[d].n_parents);
		for (unsigned k = 0; k < info.n_parents; k++) {
			dmn_domain_t p;
			assert_int_equal(
			    dmn_domain_parent(ctx, in->domains[d], k, &p), 0);
			assert_int_equal(p,
					 in->domains[b->domains[d].parents[k]]);
		}
	}
	int cx = dmn_dt_domain_find(b, "rpmhpd:0"),
	    mx = dmn_dt_domain_find(b, "rpmhpd:2");
	int video = dmn_dt_device_find(b, "video"),
	    i2c = dmn_dt_device_find(b, "/i2c@3000");
	int usb = dmn_dt_device_find(b, "/usb@4000");
	dmn_device_t vdev = in->devices[video];
	dmn_opp_table_t t;
	assert_int_equal(dmn_opp_device_table(ctx, vdev, &t), 0);
	assert_int_equal(t, in->opp_tables[b->devices[video].opp_table]);
	/* the disabled entry is present but unusable */
	unsigned total, usable;
	assert_int_equal(dmn_opp_table_count(ctx, t, &total, &usable), 0);
	assert_int_equal(total, 3);

	/* resume: gcc:3 on, so its floor holds rpmhpd:0 at 64 */
	assert_int_equal(dmn_device_get(ctx, vdev), 0);
	assert_int_equal(pstate(ctx, in->domains[cx]), 64);
	/* a rate: the rail's required level goes to mx */
	assert_int_equal(dmn_opp_set_rate(ctx, vdev, 100000000), 0);
	assert_int_equal(pstate(ctx, in->domains[mx]), 16);
	assert_int_equal(dmn_device_put(ctx, vdev), 0);

	/* fixed votes of device-level required-opps: stored on attach */
	struct dmn_attach_info ai;
	assert_int_equal(dmn_attach_info(ctx, in->attachments[i2c][0], &ai), 0);
	assert_int_equal(ai.vote, 64);
	assert_int_equal(dmn_attach_info(ctx, in->attachments[usb][0], &ai), 0);
	assert_int_equal(ai.vote, 256); /* on gcc:1, passed up to rpmhpd:0 */
	assert_int_equal(dmn_device_get(ctx, in->devices[usb]), 0);
	assert_int_equal(pstate(ctx, in->domains[cx]), 256);
	assert_int_equal(dmn_device_put(ctx, in->devices[usb]), 0);

	dmn_dt_instance_free(in);
	dmn_ctx_destroy(ctx);
	dmn_dt_board_free(b);
}

/* rpmhpd's driver parents carry a level 1:1 (one shared table, no
 * required-opps between rails): the uart's nom on sm8250's CX holds MX at
 * nom, the display's low_svs on sm8550's MMCX holds CX at low_svs. */
static void rpmhpd_parent_levels(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_case("rpmhpd_parents");
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
	struct dmn_dt_instance *in;
	assert_int_equal(dmn_dt_instantiate(b, ctx, NULL, NULL, &in), 0);
	int uart = dmn_dt_device_find(b, "uart"), mdss = dmn_dt_device_find(b, "mdss");
	dmn_domain_t mx = in->domains[dmn_dt_domain_find(b, "pd8250:8")];
	dmn_domain_t cx = in->domains[dmn_dt_domain_find(b, "pd8550:0")];
	assert_true(uart >= 0 && mdss >= 0);
	assert_int_equal(dmn_device_get(ctx, in->devices[uart]), 0);
	assert_int_equal(pstate(ctx, mx), 256);
	assert_int_equal(dmn_device_get(ctx, in->devices[mdss]), 0);
	assert_int_equal(pstate(ctx, cx), 64);
	assert_int_equal(dmn_device_put(ctx, in->devices[uart]), 0);
	assert_int_equal(pstate(ctx, mx), 0);
	dmn_dt_instance_free(in);
	dmn_ctx_destroy(ctx);
	dmn_dt_board_free(b);
}

struct factory_log {
	unsigned calls;
	unsigned fail_at; /* 1-based; 0 never */
};

static int count_on(void *user, dmn_domain_t d)
{
	(void)user;
	(void)d;
	return 0;
}
static const struct dmn_domain_ops onoff = {count_on, NULL, NULL, 0};

static int factory(void *user, const struct dmn_dt_board *b, unsigned d,
		   struct dmn_domain_desc *desc)
{
	struct factory_log *log = user;
	if (++log->calls == log->fail_at)
		return -EIO;
	if (b->domains[d].opp_table < 0)
		desc->ops = &onoff;
	else
		desc->ops =
		    NULL; /* no pstate callback: votes pass up or -ENODEV */
	return 0;
}

static void factory_errors_undo(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_case("match");
	for (unsigned k = 1; k <= b->n_domains; k++) {
		struct dmn_ctx *ctx;
		assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
		struct factory_log log = {0, k};
		struct dmn_dt_instance *in = (void *)1;
		assert_int_equal(dmn_dt_instantiate(b, ctx, factory, &log, &in),
				 -EIO);
		assert_null(in);
		dmn_domain_t next;
		assert_int_equal(dmn_domain_next(ctx, 0, &next), -ENOENT);
		dmn_device_t dnext;
		assert_int_equal(dmn_device_next(ctx, 0, &dnext), -ENOENT);
		dmn_ctx_destroy(ctx);
	}
	dmn_dt_board_free(b);
}

/* Fail the k-th allocation of the context and of the loader, for every k. */
static void allocation_failures_in(const char *name)
{
	struct dmn_dt_board *b = load_case(name);
	long k;
	for (k = 1;; k++) {
		struct dt_count_alloc c;
		struct dmn_alloc_ops ops;
		dt_count_init(&c, &ops);
		struct dmn_config cfg = {.alloc = ops, .lock = dmn_lock_none};
		struct dmn_ctx *ctx;
		assert_int_equal(dmn_ctx_create(&cfg, &ctx), 0);
		c.fail_at = c.calls + k;
		struct dmn_dt_instance *in;
		int err = dmn_dt_instantiate(b, ctx, NULL, NULL, &in);
		c.fail_at = 0;
		if (err) {
			assert_int_equal(err, -ENOMEM);
			dmn_ctx_destroy(ctx);
			assert_int_equal(c.allocs, c.frees);
			continue;
		}
		dmn_dt_instance_free(in);
		dmn_ctx_destroy(ctx);
		assert_int_equal(c.allocs, c.frees);
		break;
	}
	printf("instantiate %s: failed each of %ld allocations in turn\n", name,
	       k - 1);
	dmn_dt_board_free(b);
}

/* ... on the board of tests/dt, the caps (lists sized from the blob) and
 * the device-to-device requirements. */
static void allocation_failures(void **state)
{
	(void)state;
	allocation_failures_in("basic");
	allocation_failures_in("caps");
	allocation_failures_in("devreq");
}

static const char *const boards[] = {
    "qrb5165-rb5",    "sc7180-trogdor-lazor-r10", "imx8mp-evk",
    "rk3588-rock-5b", "tegra30-beaver",
};

static void real_boards(void **state)
{
	(void)state;
	for (unsigned bi = 0; bi < 5; bi++) {
		size_t size;
		void *blob = dt_test_board(boards[bi], &size);
		if (!blob) {
			skip();
			return;
		}
		/* Tegra with a version, so its tables have entries */
		uint32_t hw[] = {0x4};
		struct dmn_dt_load_opts o = {.supported_hw = hw,
					 .n_supported_hw = bi == 4 ? 1 : 0};
		struct dmn_dt_board *b;
		assert_int_equal(dmn_dt_load(blob, size, &o, &b), 0);
		struct dmn_ctx *ctx;
		assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
		struct dmn_dt_instance *in;
		int err = dmn_dt_instantiate(b, ctx, NULL, NULL, &in);
		if (err)
			fail_msg("%s: dmn_dt_instantiate: %s", boards[bi],
				 dmn_strerror(err));
		/* every device resumes and suspends */
		for (unsigned d = 0; d < b->n_devices; d++) {
			assert_int_equal(dmn_device_get(ctx, in->devices[d]), 0);
			struct dmn_device_info di;
			assert_int_equal(
			    dmn_device_info(ctx, in->devices[d], &di), 0);
			assert_int_equal(di.n_attachments,
					 b->devices[d].n_attachments);
		}
		for (unsigned d = 0; d < b->n_devices; d++)
			assert_int_equal(dmn_device_put(ctx, in->devices[d]), 0);
		printf("%s: %u domains, %u devices instantiated\n", boards[bi],
		       b->n_domains, b->n_devices);
		dmn_dt_instance_free(in);
		dmn_ctx_destroy(ctx);
		dmn_dt_board_free(b);
		free(blob);
	}
}

static void bad_args(void **state)
{
	(void)state;
	struct dmn_dt_instance *in;
	assert_int_equal(dmn_dt_instantiate(NULL, NULL, NULL, NULL, &in), -EINVAL);
	dmn_dt_instance_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(basic_built),
	    cmocka_unit_test(rpmhpd_parent_levels),
	    cmocka_unit_test(factory_errors_undo),
	    cmocka_unit_test(allocation_failures),
	    cmocka_unit_test(real_boards),
	    cmocka_unit_test(bad_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
