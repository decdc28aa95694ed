/* SPDX-License-Identifier: MIT */
/*
 * No compiled caps in the loader and the OPP layer (docs/device-tree.md,
 * Limits and errors): every count
 * comes from the blob. tests/dt/cases/caps.dts has an OPP entry with 9
 * clocks (sdm845's UFS) and one with 20, an entry with 10 required OPPs
 * and a device on 40 domains.
 */
#include "dt_test_util.h"

#include <domino/domain.h>
#include <domino/opp.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct built {
	struct dmn_dt_board *b;
	struct dmn_ctx *ctx;
	struct dmn_dt_instance *in;
};

static void build(struct built *w)
{
	size_t size;
	void *blob = dt_test_case("caps", &size);
	assert_int_equal(dmn_dt_load(blob, size, NULL, &w->b), 0);
	free(blob);
	assert_int_equal(w->b->n_errors + w->b->n_warnings, 0);
	assert_int_equal(dmn_ctx_create(NULL, &w->ctx), 0);
	assert_int_equal(dmn_dt_instantiate(w->b, w->ctx, NULL, NULL, &w->in), 0);
}

static void unbuild(struct built *w)
{
	dmn_dt_instance_free(w->in);
	dmn_ctx_destroy(w->ctx);
	dmn_dt_board_free(w->b);
}

static int dev(const struct dmn_dt_board *b, const char *name)
{
	int i = dmn_dt_device_find(b, name);
	if (i < 0)
		fail_msg("no device %s (%d)", name, i);
	return i;
}

static uint32_t pstate(struct dmn_ctx *ctx, dmn_domain_t d)
{
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(ctx, d, &info), 0);
	return info.pstate;
}

/* 9 opp-hz values per entry load, are added whole and set_rate moves on
 * the first; 20 as well. */
static void many_clocks(void **state)
{
	(void)state;
	struct built w;
	build(&w);
	int ufs = dev(w.b, "/ufs@1d84000");
	const struct dmn_dt_opp_table *t = &w.b->opp_tables[w.b->devices[ufs].opp_table];
	assert_int_equal(t->n_entries, 2);
	assert_int_equal(t->entries[0].n_hz, 9);
	assert_int_equal(t->entries[1].hz[8], 18000000);
	dmn_opp_table_t ot;
	assert_int_equal(dmn_opp_device_table(w.ctx, w.in->devices[ufs], &ot), 0);
	struct dmn_opp_info info;
	uint32_t id;
	assert_int_equal(dmn_opp_table_entry(w.ctx, ot, 1, &id), 0);
	assert_int_equal(dmn_opp_entry_info(w.ctx, ot, id, &info), 0);
	assert_int_equal(info.n_hz, 9);
	assert_int_equal(info.hz[0], 2000000);
	assert_int_equal(info.hz[8], 18000000);
	assert_int_equal(dmn_device_get(w.ctx, w.in->devices[ufs]), 0);
	assert_int_equal(dmn_opp_set_rate(w.ctx, w.in->devices[ufs], 1500000), 0);
	assert_int_equal(pstate(w.ctx, w.in->domains[dmn_dt_domain_find(w.b, "rail:0")]),
			 48);

	int wide = dev(w.b, "/wide@1000");
	t = &w.b->opp_tables[w.b->devices[wide].opp_table];
	assert_int_equal(t->entries[0].n_hz, 20);
	assert_int_equal(dmn_opp_device_table(w.ctx, w.in->devices[wide], &ot), 0);
	assert_int_equal(dmn_opp_table_entry(w.ctx, ot, 0, &id), 0);
	assert_int_equal(dmn_opp_entry_info(w.ctx, ot, id, &info), 0);
	assert_int_equal(info.n_hz, 20);
	assert_int_equal(info.hz[19], 20000);
	unbuild(&w);
}

/* 10 required OPPs on 10 domains: each domain takes one (pass 1), and a
 * set_rate votes all ten in one move. */
static void ten_required(void **state)
{
	(void)state;
	struct built w;
	build(&w);
	int ten = dev(w.b, "/ten@2000");
	const struct dmn_dt_device *d = &w.b->devices[ten];
	assert_int_equal(d->n_attachments, 10);
	const struct dmn_dt_opp *o = &w.b->opp_tables[d->opp_table].entries[0];
	assert_int_equal(o->n_required, 10);
	uint32_t levels[10];
	assert_int_equal(dmn_dt_device_opp_votes(w.b, (unsigned)ten, 0, levels, 10),
			 10);
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(levels[i], 16 * (i + 1));
	int slot[10];
	dmn_opp_table_t ot;
	uint32_t id;
	assert_int_equal(dmn_opp_device_table(w.ctx, w.in->devices[ten], &ot), 0);
	assert_int_equal(dmn_opp_table_entry(w.ctx, ot, 0, &id), 0);
	assert_int_equal(
	    dmn_opp_device_required_match(w.ctx, w.in->devices[ten], id, slot, 10),
	    10);
	for (int i = 0; i < 10; i++)
		assert_int_equal(slot[i], i);
	assert_int_equal(dmn_device_get(w.ctx, w.in->devices[ten]), 0);
	assert_int_equal(dmn_opp_set_rate(w.ctx, w.in->devices[ten], 1), 0);
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(
		    pstate(w.ctx, w.in->domains[d->attachments[i].domain]),
		    16 * (i + 1));
	assert_int_equal(dmn_opp_set_rate(w.ctx, w.in->devices[ten], 0), 0);
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(
		    pstate(w.ctx, w.in->domains[d->attachments[i].domain]), 0);
	unbuild(&w);
}

/* A device on 40 domains: every one attached, and a resume powers all. */
static void forty_domains(void **state)
{
	(void)state;
	struct built w;
	build(&w);
	int forty = dev(w.b, "/forty@3000");
	const struct dmn_dt_device *d = &w.b->devices[forty];
	assert_int_equal(d->n_attachments, 40);
	uint32_t levels[40];
	assert_int_equal(dmn_dt_device_fixed_votes(w.b, (unsigned)forty, levels, 40),
			 40);
	assert_int_equal(dmn_device_get(w.ctx, w.in->devices[forty]), 0);
	for (unsigned i = 0; i < 40; i++) {
		struct dmn_domain_info info;
		assert_int_equal(
		    dmn_domain_info(w.ctx, w.in->domains[d->attachments[i].domain],
				   &info),
		    0);
		assert_true(info.on);
	}
	unbuild(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(many_clocks),
	    cmocka_unit_test(ten_required),
	    cmocka_unit_test(forty_domains),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
