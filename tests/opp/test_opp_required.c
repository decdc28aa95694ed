/* SPDX-License-Identifier: MIT */
/* Required OPPs to domains (two passes), domain level tables: rounding,
 * non 1:1 maps to a parent's levels, floors. */
#include "opp_test.h"

/* sm8250-like: venus on [mvs0 GDSC (child of mmcx), mx]; one table for
 * every rpmhpd domain. The entry's first required OPP goes to mx (its own
 * table, pass 1), the second to mvs0 (an ancestor's table, pass 2). */
static void test_two_passes(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_domain_t mmcx = mk_domain(&w, "mmcx", 1);
	dmn_domain_t mx = mk_domain(&w, "mx", 1);
	dmn_domain_t gdsc = mk_domain(&w, "mvs0", 0);
	dmn_opp_table_t rpmh;
	OK(dmn_opp_table_create(w.ctx, "rpmhpd", &rpmh));
	uint32_t l[6];
	for (unsigned i = 0; i < 6; i++)
		l[i] = add_level(&w, rpmh, (i + 1) * 16, 0, NULL);
	OK(dmn_opp_domain_set_table(w.ctx, mmcx, rpmh));
	OK(dmn_opp_domain_set_table(w.ctx, mx, rpmh));
	OK(dmn_opp_link_add(w.ctx, mmcx, gdsc));

	dmn_opp_table_t vt;
	OK(dmn_opp_table_create(w.ctx, "venus-opp", &vt));
	struct dmn_opp_required lo[2] = {{rpmh, l[0]}, {rpmh, l[2]}};
	struct dmn_opp_required hi[2] = {{rpmh, l[1]}, {rpmh, l[4]}};
	uint32_t e_lo = add_freq(&w, vt, 100, 0, 2, lo);
	uint32_t e_hi = add_freq(&w, vt, 200, 0, 2, hi);
	dmn_device_t venus;
	dmn_attach_t a_gdsc, a_mx;
	OK(dmn_device_create(w.ctx, "venus", &venus));
	OK(dmn_attach(w.ctx, venus, gdsc, &a_gdsc));
	OK(dmn_attach(w.ctx, venus, mx, &a_mx));
	OK(dmn_opp_device_bind(w.ctx, venus, vt));
	OK(dmn_opp_device_set_clock(w.ctx, venus, &dmn_sim_providers_clock, &w.sp));

	int slot[4];
	assert_int_equal(dmn_opp_device_required_match(w.ctx, venus, e_lo, slot, 4),
			 2);
	assert_int_equal(slot[0], 1); /* mx */
	assert_int_equal(slot[1], 0); /* mvs0, through mmcx */
	uint32_t v[2];
	assert_int_equal(dmn_opp_device_votes(w.ctx, venus, e_hi, v, 2), 2);
	assert_int_equal(v[0], 80);
	assert_int_equal(v[1], 32);

	OK(dmn_device_get(w.ctx, venus));
	dmn_sim_providers_clear_log(&w.sp);
	OK(dmn_opp_set_rate(w.ctx, venus, 150));
	/* One transaction raises both rails, in the order the entry lists
	 * its required OPPs (mx first, as Linux's _set_required_opps), then
	 * the clock moves. */
	const struct dmn_sim_providers *sp = &w.sp;
	assert_int_equal(sp->n_log, 3);
	assert_int_equal(sp->log[0].op, DMN_SIM_PROVIDERS_PSTATE);
	assert_int_equal(sp->log[0].object, mx);
	assert_int_equal(sp->log[0].value, 32);
	assert_int_equal(sp->log[1].op, DMN_SIM_PROVIDERS_PSTATE);
	assert_int_equal(sp->log[1].object, mmcx);
	assert_int_equal(sp->log[1].value, 80);
	assert_int_equal(sp->log[2].op, DMN_SIM_PROVIDERS_CLOCK);
	assert_int_equal(dom_pstate(&w, gdsc), 80);
	assert_int_equal(att_vote(&w, a_gdsc), 80);
	assert_int_equal(att_vote(&w, a_mx), 32);
	OK(dmn_opp_set_rate(w.ctx, venus, 100));
	assert_int_equal(dom_pstate(&w, mmcx), 48);
	assert_int_equal(dom_pstate(&w, mx), 16);
	/* A direct vote and a rate write the same vote: the latest wins. */
	OK(dmn_vote(w.ctx, a_mx, 64));
	assert_int_equal(dom_pstate(&w, mx), 64);
	OK(dmn_opp_set_rate(w.ctx, venus, 200));
	assert_int_equal(dom_pstate(&w, mx), 32);
	OK(dmn_opp_set_rate(w.ctx, venus, 0));
	assert_int_equal(dom_pstate(&w, mx), 0);
	assert_int_equal(dom_pstate(&w, mmcx), 0);
	OK(dmn_device_put(w.ctx, venus));
	world_fini(&w);
}

/* Pass 2 looks past direct parents: a device on a GDSC two links below
 * the rail whose table holds its required OPP, and one 40 gates further
 * down (the OPP layer's walk has no depth limit of its own). */
static void test_pass_two_grandparent(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_domain_t rail = mk_domain(&w, "rail", 1);
	dmn_domain_t mid = mk_domain(&w, "mid", 0);
	dmn_domain_t gdsc = mk_domain(&w, "gdsc", 0);
	dmn_opp_table_t lv, dt;
	OK(dmn_opp_table_create(w.ctx, "rail-levels", &lv));
	uint32_t l16 = add_level(&w, lv, 16, 0, NULL);
	uint32_t l48 = add_level(&w, lv, 48, 0, NULL);
	OK(dmn_opp_domain_set_table(w.ctx, rail, lv));
	OK(dmn_opp_link_add(w.ctx, rail, mid));
	OK(dmn_opp_link_add(w.ctx, mid, gdsc));
	dmn_domain_t deep = gdsc;
	for (int i = 0; i < 40; i++) {
		dmn_domain_t next = mk_domain(&w, "gate", 0);
		OK(dmn_opp_link_add(w.ctx, deep, next));
		deep = next;
	}
	OK(dmn_opp_table_create(w.ctx, "dev-opp", &dt));
	struct dmn_opp_required lo = {lv, l16}, hi = {lv, l48};
	uint32_t e_lo = add_freq(&w, dt, 100, 0, 1, &lo);
	add_freq(&w, dt, 200, 0, 1, &hi);
	dmn_device_t dev, deep_dev;
	dmn_attach_t att, deep_att;
	OK(dmn_device_create(w.ctx, "dev", &dev));
	OK(dmn_attach(w.ctx, dev, gdsc, &att));
	OK(dmn_opp_device_bind(w.ctx, dev, dt));
	OK(dmn_device_create(w.ctx, "deep", &deep_dev));
	OK(dmn_attach(w.ctx, deep_dev, deep, &deep_att));
	OK(dmn_opp_device_bind(w.ctx, deep_dev, dt));
	int slot[1] = {-7};
	assert_int_equal(dmn_opp_device_required_match(w.ctx, dev, e_lo, slot, 1),
			 1);
	assert_int_equal(slot[0], 0);
	slot[0] = -7;
	assert_int_equal(
	    dmn_opp_device_required_match(w.ctx, deep_dev, e_lo, slot, 1), 1);
	assert_int_equal(slot[0], 0);
	OK(dmn_device_get(w.ctx, dev));
	OK(dmn_opp_set_rate(w.ctx, dev, 200));
	assert_int_equal(att_vote(&w, att), 48);
	assert_int_equal(dom_pstate(&w, rail), 48);
	OK(dmn_opp_set_rate(w.ctx, dev, 100));
	assert_int_equal(dom_pstate(&w, rail), 16);
	OK(dmn_device_get(w.ctx, deep_dev));
	OK(dmn_opp_set_rate(w.ctx, deep_dev, 200));
	assert_int_equal(dom_pstate(&w, rail), 48);
	OK(dmn_opp_table_put(w.ctx, lv));
	OK(dmn_opp_table_put(w.ctx, dt));
	world_fini(&w);
}

/* A domain's table whose entries have frequencies and levels (sorted by
 * frequency): a vote at exactly a level stays at it, between levels it
 * rounds up, above the top it is -ERANGE; the look-ups agree. */
static void test_exact_level_in_frequency_table(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w.ctx, "mixed", &t));
	uint64_t hz[2] = {100, 200};
	struct dmn_opp_desc d = {.hz = &hz[0], .n_hz = 1, .level = 5,
			     .flags = DMN_OPP_FLAG_HAS_LEVEL};
	uint32_t e5, e2;
	OK(dmn_opp_add(w.ctx, t, &d, &e5)); /* 100 Hz is level 5 */
	d.hz = &hz[1];
	d.level = 2;
	OK(dmn_opp_add(w.ctx, t, &d, &e2)); /* 200 Hz is level 2 */
	dmn_domain_t dom = mk_domain(&w, "rail", 1);
	OK(dmn_opp_domain_set_table(w.ctx, dom, t));
	dmn_device_t dev;
	dmn_attach_t att;
	OK(dmn_device_create(w.ctx, "dev", &dev));
	OK(dmn_attach(w.ctx, dev, dom, &att));
	OK(dmn_device_get(w.ctx, dev));
	OK(dmn_vote(w.ctx, att, 2));
	assert_int_equal(dom_pstate(&w, dom), 2);
	OK(dmn_vote(w.ctx, att, 3));
	assert_int_equal(dom_pstate(&w, dom), 5);
	OK(dmn_vote(w.ctx, att, 5));
	assert_int_equal(dom_pstate(&w, dom), 5);
	assert_int_equal(dmn_vote(w.ctx, att, 6), -ERANGE);
	uint32_t id;
	OK(dmn_opp_find_level_ceil(w.ctx, t, 2, &id));
	assert_int_equal(id, e2);
	OK(dmn_opp_find_level_ceil(w.ctx, t, 3, &id));
	assert_int_equal(id, e5);
	OK(dmn_opp_find_level_exact(w.ctx, t, 5, &id));
	assert_int_equal(id, e5);
	OK(dmn_opp_find_level_floor(w.ctx, t, 4, &id));
	assert_int_equal(id, e2);
	OK(dmn_device_put(w.ctx, dev));
	OK(dmn_opp_table_put(w.ctx, t));
	world_fini(&w);
}

/* Separate tables match by table, whatever the order; a required OPP in a
 * table no domain of the device uses matches nothing and is ignored. */
static void test_match_by_table(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_domain_t cx = mk_domain(&w, "cx", 1), mx = mk_domain(&w, "mx", 1);
	dmn_opp_table_t tc, tm, tx;
	OK(dmn_opp_table_create(w.ctx, "cx-opp", &tc));
	OK(dmn_opp_table_create(w.ctx, "mx-opp", &tm));
	OK(dmn_opp_table_create(w.ctx, "other", &tx));
	uint32_t c2 = add_level(&w, tc, 2, 0, NULL);
	uint32_t m7 = add_level(&w, tm, 7, 0, NULL);
	uint32_t x1 = add_level(&w, tx, 1, 0, NULL);
	OK(dmn_opp_domain_set_table(w.ctx, cx, tc));
	OK(dmn_opp_domain_set_table(w.ctx, mx, tm));
	dmn_opp_table_t dt;
	OK(dmn_opp_table_create(w.ctx, "dev", &dt));
	struct dmn_opp_required req[3] = {{tm, m7}, {tx, x1}, {tc, c2}};
	uint32_t e = add_freq(&w, dt, 100, 0, 3, req);
	dmn_device_t dev;
	dmn_attach_t a_cx, a_mx;
	OK(dmn_device_create(w.ctx, "dev", &dev));
	OK(dmn_attach(w.ctx, dev, cx, &a_cx));
	OK(dmn_attach(w.ctx, dev, mx, &a_mx));
	OK(dmn_opp_device_bind(w.ctx, dev, dt));
	int slot[3];
	assert_int_equal(dmn_opp_device_required_match(w.ctx, dev, e, slot, 3), 3);
	assert_int_equal(slot[0], 1);
	assert_int_equal(slot[1], -1);
	assert_int_equal(slot[2], 0);
	OK(dmn_device_get(w.ctx, dev));
	OK(dmn_opp_set_rate(w.ctx, dev, 1));
	assert_int_equal(dom_pstate(&w, cx), 2);
	assert_int_equal(dom_pstate(&w, mx), 7);
	assert_int_equal(dmn_opp_device_required_match(w.ctx, dev, 9, slot, 3),
			 -ENOENT);
	OK(dmn_device_put(w.ctx, dev));
	world_fini(&w);
}

/* gfx's levels 1..3 require 64/128/256 of cx (non 1:1), through the
 * link's map; a vote on cx rounds up to its levels. */
static void test_domain_map_and_rounding(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_domain_t cx = mk_domain(&w, "cx", 1);
	dmn_domain_t gfx = mk_domain(&w, "gfx", 1);
	dmn_domain_t gfx2 = mk_domain(&w, "gfx2", 1);
	dmn_opp_table_t tp, tg;
	OK(dmn_opp_table_create(w.ctx, "cx-opp", &tp));
	uint32_t p[4];
	for (unsigned i = 0; i < 4; i++)
		p[i] = add_level(&w, tp, 64u << i, 0, NULL); /* 64..512 */
	OK(dmn_opp_domain_set_table(w.ctx, cx, tp));
	OK(dmn_opp_table_create(w.ctx, "gfx-opp", &tg));
	for (unsigned i = 0; i < 3; i++) {
		struct dmn_opp_required r = {tp, p[i]};
		add_level(&w, tg, i + 1, 1, &r);
	}
	OK(dmn_opp_domain_set_table(w.ctx, gfx, tg));
	OK(dmn_opp_link_add(w.ctx, cx, gfx));
	/* A link that exists before the table gets the map too. */
	OK(dmn_link_add(w.ctx, cx, gfx2));
	OK(dmn_opp_domain_set_table(w.ctx, gfx2, tg));

	int slot[2];
	uint32_t g2;
	OK(dmn_opp_find_level_exact(w.ctx, tg, 2, &g2));
	assert_int_equal(dmn_opp_domain_required_match(w.ctx, gfx, g2, slot, 2), 1);
	assert_int_equal(slot[0], 0);
	dmn_opp_table_t cx_of_table;
	assert_int_equal(dmn_opp_domain_table(w.ctx, cx, &cx_of_table), 0);
	assert_int_equal(cx_of_table, tp);
	assert_int_equal(
	    dmn_opp_domain_table(w.ctx, mk_domain(&w, "x", 1), &cx_of_table),
	    -ENOENT);

	dmn_device_t gpu, gpu2, cpu;
	dmn_attach_t a, a2, ac;
	OK(dmn_device_create(w.ctx, "gpu", &gpu));
	OK(dmn_device_create(w.ctx, "gpu2", &gpu2));
	OK(dmn_device_create(w.ctx, "cpu", &cpu));
	OK(dmn_attach(w.ctx, gpu, gfx, &a));
	OK(dmn_attach(w.ctx, gpu2, gfx2, &a2));
	OK(dmn_attach(w.ctx, cpu, cx, &ac));
	OK(dmn_device_get(w.ctx, gpu));
	OK(dmn_vote(w.ctx, a, 2));
	assert_int_equal(dom_pstate(&w, gfx), 2);
	assert_int_equal(dom_pstate(&w, cx), 128);
	OK(dmn_vote(w.ctx, a, 3));
	assert_int_equal(dom_pstate(&w, cx), 256);
	assert_int_equal(dmn_vote(w.ctx, a, 4), -ERANGE);
	OK(dmn_device_get(w.ctx, gpu2));
	OK(dmn_vote(w.ctx, a2, 1));
	assert_int_equal(dom_pstate(&w, cx), 256);
	OK(dmn_vote(w.ctx, a, 0));
	assert_int_equal(dom_pstate(&w, cx), 64);
	/* Rounding on cx: between levels up, above the top -ERANGE. */
	OK(dmn_device_get(w.ctx, cpu));
	OK(dmn_vote(w.ctx, ac, 100));
	assert_int_equal(att_vote(&w, ac), 128);
	assert_int_equal(dom_pstate(&w, cx), 128);
	assert_int_equal(dmn_vote(w.ctx, ac, 513), -ERANGE);
	assert_int_equal(dom_pstate(&w, cx), 128);

	/* set_table errors. */
	assert_int_equal(dmn_opp_domain_set_table(w.ctx, cx, tp), -EEXIST);
	dmn_opp_table_t freq;
	OK(dmn_opp_table_create(w.ctx, "freq", &freq));
	add_freq(&w, freq, 100, 0, 0, NULL);
	dmn_domain_t y = mk_domain(&w, "y", 1);
	assert_int_equal(dmn_opp_domain_set_table(w.ctx, y, freq), -EINVAL);
	assert_int_equal(dmn_opp_domain_set_table(w.ctx, y, 0), -EBADF);
	dmn_device_t z;
	dmn_attach_t az;
	OK(dmn_device_create(w.ctx, "z", &z));
	OK(dmn_attach(w.ctx, z, y, &az));
	OK(dmn_vote(w.ctx, az, 5)); /* stored, suspended */
	assert_int_equal(dmn_opp_domain_set_table(w.ctx, y, tp), -EBUSY);
	/* A table giving a domain its levels takes only entries with one. */
	assert_int_equal(
	    dmn_opp_add(w.ctx, tp, &(struct dmn_opp_desc){.hz = (const uint64_t[]){1}, .n_hz = 1}, NULL),
	    -EINVAL);
	OK(dmn_opp_table_put(w.ctx, freq));
	world_fini(&w);
}

/* A provider's own required-opps: while the GDSC is on, mmcx is held at
 * its floor, whatever the GDSC's own level. */
static void test_floor(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_domain_t mmcx = mk_domain(&w, "mmcx", 1);
	dmn_domain_t gdsc = mk_domain(&w, "mdss_gdsc", 0);
	dmn_opp_table_t rpmh;
	OK(dmn_opp_table_create(w.ctx, "rpmhpd", &rpmh));
	add_level(&w, rpmh, 64, 0, NULL);
	add_level(&w, rpmh, 128, 0, NULL);
	OK(dmn_opp_domain_set_table(w.ctx, mmcx, rpmh));
	OK(dmn_opp_link_add(w.ctx, mmcx, gdsc));
	OK(dmn_opp_link_set_floor(w.ctx, mmcx, gdsc, 50)); /* rounds to 64 */
	dmn_device_t disp;
	dmn_attach_t a;
	OK(dmn_device_create(w.ctx, "disp", &disp));
	OK(dmn_attach(w.ctx, disp, gdsc, &a));
	assert_int_equal(dom_pstate(&w, mmcx), 0);
	OK(dmn_device_get(w.ctx, disp));
	assert_int_equal(dom_pstate(&w, mmcx), 64);
	OK(dmn_vote(w.ctx, a, 100));
	assert_int_equal(dom_pstate(&w, mmcx), 128);
	OK(dmn_vote(w.ctx, a, 0));
	assert_int_equal(dom_pstate(&w, mmcx), 64);
	OK(dmn_device_put(w.ctx, disp));
	assert_int_equal(dom_pstate(&w, mmcx), 0);
	assert_int_equal(dmn_opp_link_set_floor(w.ctx, mmcx, gdsc, 999), -ERANGE);
	assert_int_equal(dmn_opp_link_set_floor(w.ctx, gdsc, mmcx, 64), -ENOENT);
	world_fini(&w);
}

/* An entry that raises one rail and lowers another: the raise comes before
 * the clock, the lowering after it, so the device never runs above what
 * either rail gives it. */
static void test_mixed_direction(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_domain_t cx = mk_domain(&w, "cx", 1), mx = mk_domain(&w, "mx", 1);
	dmn_opp_table_t tc, tm, dt;
	OK(dmn_opp_table_create(w.ctx, "cx-opp", &tc));
	OK(dmn_opp_table_create(w.ctx, "mx-opp", &tm));
	uint32_t c1 = add_level(&w, tc, 1, 0, NULL),
		 c3 = add_level(&w, tc, 3, 0, NULL);
	uint32_t m1 = add_level(&w, tm, 1, 0, NULL),
		 m3 = add_level(&w, tm, 3, 0, NULL);
	OK(dmn_opp_domain_set_table(w.ctx, cx, tc));
	OK(dmn_opp_domain_set_table(w.ctx, mx, tm));
	OK(dmn_opp_table_create(w.ctx, "dev", &dt));
	struct dmn_opp_required a[2] = {{tc, c3}, {tm, m1}},
			    b[2] = {{tc, c1}, {tm, m3}};
	add_freq(&w, dt, 100, 0, 2, a);
	add_freq(&w, dt, 200, 0, 2, b);
	dmn_device_t dev;
	dmn_attach_t ac, am;
	OK(dmn_device_create(w.ctx, "dev", &dev));
	OK(dmn_attach(w.ctx, dev, cx, &ac));
	OK(dmn_attach(w.ctx, dev, mx, &am));
	OK(dmn_opp_device_bind(w.ctx, dev, dt));
	OK(dmn_opp_device_set_clock(w.ctx, dev, &dmn_sim_providers_clock, &w.sp));
	OK(dmn_device_get(w.ctx, dev));
	OK(dmn_opp_set_rate(w.ctx, dev, 100));
	dmn_sim_providers_clear_log(&w.sp);
	OK(dmn_opp_set_rate(w.ctx, dev, 200));
	const struct dmn_sim_providers *sp = &w.sp;
	assert_int_equal(sp->n_log, 3);
	assert_int_equal(sp->log[0].op, DMN_SIM_PROVIDERS_PSTATE);
	assert_int_equal(sp->log[0].object, mx);
	assert_int_equal(sp->log[0].value, 3);
	assert_int_equal(sp->log[1].op, DMN_SIM_PROVIDERS_CLOCK);
	assert_int_equal(sp->log[2].op, DMN_SIM_PROVIDERS_PSTATE);
	assert_int_equal(sp->log[2].object, cx);
	assert_int_equal(sp->log[2].value, 1);
	/* A failing clock undoes the raise of mx only. */
	OK(dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_CLOCK, dev, 1, -EIO));
	assert_int_equal(dmn_opp_set_rate(w.ctx, dev, 100), -EIO);
	assert_int_equal(dom_pstate(&w, cx), 1);
	assert_int_equal(dom_pstate(&w, mx), 3);
	assert_int_equal(att_vote(&w, ac), 1);
	assert_int_equal(att_vote(&w, am), 3);
	assert_int_equal(dmn_sim_providers_rate(sp, dev), 200);
	OK(dmn_device_put(w.ctx, dev));
	world_fini(&w);
}

/* dmn_opp_link_add on a child that is on is one step: the new link and
 * its map in one transaction, so a failure at any callback or allocation
 * leaves no link, no count on the parent and the other link's requirement
 * as it was; the first k that fails nothing gives the mapped level. */
struct linkon {
	struct world w;
	dmn_domain_t cx, mx, gfx;
};

static void linkon_init(struct linkon *s)
{
	struct world *w = &s->w;
	world_init(w);
	s->cx = mk_domain(w, "cx", 1);
	s->mx = mk_domain(w, "mx", 1);
	s->gfx = mk_domain(w, "gfx", 1);
	dmn_opp_table_t tp, tg;
	OK(dmn_opp_table_create(w->ctx, "rail-opp", &tp));
	uint32_t p[5];
	for (unsigned i = 0; i < 5; i++)
		p[i] = add_level(w, tp, 64u << i, 0, NULL); /* 64..1024 */
	OK(dmn_opp_domain_set_table(w->ctx, s->cx, tp));
	OK(dmn_opp_domain_set_table(w->ctx, s->mx, tp));
	OK(dmn_opp_table_create(w->ctx, "gfx-opp", &tg));
	for (unsigned i = 0; i < 3; i++) {
		struct dmn_opp_required r[2] = {{tp, p[i]}, {tp, p[i + 2]}};
		add_level(w, tg, i + 1, 2, r);
	}
	OK(dmn_opp_domain_set_table(w->ctx, s->gfx, tg));
	OK(dmn_opp_link_add(w->ctx, s->mx, s->gfx));
	dmn_device_t gpu;
	dmn_attach_t a;
	OK(dmn_device_create(w->ctx, "gpu", &gpu));
	OK(dmn_attach(w->ctx, gpu, s->gfx, &a));
	OK(dmn_device_get(w->ctx, gpu));
	OK(dmn_vote(w->ctx, a, 2));
	/* mx takes the first required OPP of gfx's entry 2 (128); a link
	 * to cx gives cx the second (512) */
	assert_int_equal(dom_pstate(w, s->mx), 128);
	dmn_sim_providers_clear_log(&w->sp);
}

static void test_link_add_on_child_one_step(void **state)
{
	(void)state;
	int err = -1;
	unsigned k, calls = 0;
	/* every callback in turn */
	for (k = 1; err; k++) {
		struct linkon s;
		linkon_init(&s);
		OK(dmn_sim_providers_fail_call(&s.w.sp, k, -EIO));
		err = dmn_opp_link_add(s.w.ctx, s.cx, s.gfx);
		struct dmn_domain_info cx, gfx;
		OK(dmn_domain_info(s.w.ctx, s.cx, &cx));
		OK(dmn_domain_info(s.w.ctx, s.gfx, &gfx));
		assert_int_equal(dom_pstate(&s.w, s.mx), 128);
		assert_int_equal(gfx.pstate, 2);
		if (err) {
			assert_int_equal(err, -EIO);
			assert_int_equal(gfx.n_parents, 1);
			assert_false(cx.on);
			assert_int_equal(cx.pstate, 0);
		} else {
			assert_int_equal(gfx.n_parents, 2);
			assert_true(cx.on);
			/* entry 2's second required OPP, not gfx's level */
			assert_int_equal(cx.pstate, 512);
			calls = k - 1;
		}
		world_fini(&s.w);
	}
	assert_true(calls >= 2); /* at least cx's power-on and its level */
	/* every allocation in turn */
	err = -1;
	for (k = 1; err; k++) {
		struct linkon s;
		linkon_init(&s);
		arm_alloc(&s.w.alloc, k);
		err = dmn_opp_link_add(s.w.ctx, s.cx, s.gfx);
		arm_alloc(&s.w.alloc, 0);
		struct dmn_domain_info cx, gfx;
		OK(dmn_domain_info(s.w.ctx, s.cx, &cx));
		OK(dmn_domain_info(s.w.ctx, s.gfx, &gfx));
		assert_int_equal(dom_pstate(&s.w, s.mx), 128);
		if (err) {
			assert_int_equal(err, -ENOMEM);
			assert_int_equal(gfx.n_parents, 1);
			assert_int_equal(cx.pstate, 0);
		} else {
			assert_int_equal(cx.pstate, 512);
		}
		world_fini(&s.w);
	}
	assert_true(k > 2); /* the link itself allocates */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_passes),
	    cmocka_unit_test(test_pass_two_grandparent),
	    cmocka_unit_test(test_exact_level_in_frequency_table),
	    cmocka_unit_test(test_match_by_table),
	    cmocka_unit_test(test_domain_map_and_rounding),
	    cmocka_unit_test(test_floor),
	    cmocka_unit_test(test_mixed_direction),
	    cmocka_unit_test(test_link_add_on_child_one_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
