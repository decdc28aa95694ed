/* SPDX-License-Identifier: MIT */
/*
 * Device-to-device requirements (docs/device-tree.md): required OPPs into a
 * table
 * without levels raise the devices bound to it (MediaTek's CPUs and CCI).
 */
#include "opp_test.h"

struct rig {
	struct world w;
	dmn_opp_table_t cpu_t, cci_t, mem_t, lv;
	uint32_t e_cpu[3], e_cci[4], e_mem[2], l[3];
	dmn_device_t cpu0, cpu1, cci, mem;
	dmn_domain_t rail;
	dmn_attach_t cci_att;
};

/* cpu table: 100/200/300 Hz require cci 10/20/30; cci table: 10..40,
 * the top two requiring mem 2 and levels of the rail the cci sits on;
 * mem table: 1, 2. */
static void rig_init(struct rig *r, uint32_t rail_top)
{
	struct world *w = &r->w;
	world_init(w);
	OK(dmn_opp_table_create(w->ctx, "mem", &r->mem_t));
	r->e_mem[0] = add_freq(w, r->mem_t, 1, 0, 0, NULL);
	r->e_mem[1] = add_freq(w, r->mem_t, 2, 0, 0, NULL);
	OK(dmn_opp_table_create(w->ctx, "rail", &r->lv));
	r->l[0] = add_level(w, r->lv, 16, 0, NULL);
	r->l[1] = add_level(w, r->lv, 32, 0, NULL);
	r->l[2] = add_level(w, r->lv, rail_top, 0, NULL);
	OK(dmn_opp_table_create(w->ctx, "cci", &r->cci_t));
	for (unsigned i = 0; i < 4; i++) {
		struct dmn_opp_required req[2] = {
		    {r->mem_t, r->e_mem[i >= 2]},
		    {r->lv, r->l[i < 3 ? (i ? 1 : 0) : 2]}};
		r->e_cci[i] = add_freq(w, r->cci_t, 10 * (i + 1), 0, 2, req);
	}
	OK(dmn_opp_table_create(w->ctx, "cpu", &r->cpu_t));
	for (unsigned i = 0; i < 3; i++) {
		struct dmn_opp_required req = {r->cci_t, r->e_cci[i]};
		r->e_cpu[i] = add_freq(w, r->cpu_t, 100 * (i + 1), 0, 1, &req);
	}
	r->rail = mk_domain(w, "rail", 1);
	OK(dmn_opp_domain_set_table(w->ctx, r->rail, r->lv));
	OK(dmn_device_create(w->ctx, "cpu0", &r->cpu0));
	OK(dmn_device_create(w->ctx, "cpu1", &r->cpu1));
	OK(dmn_device_create(w->ctx, "cci", &r->cci));
	OK(dmn_device_create(w->ctx, "mem", &r->mem));
	OK(dmn_attach(w->ctx, r->cci, r->rail, &r->cci_att));
	OK(dmn_opp_device_bind(w->ctx, r->cpu0, r->cpu_t));
	OK(dmn_opp_device_bind(w->ctx, r->cpu1, r->cpu_t));
	OK(dmn_opp_device_bind(w->ctx, r->cci, r->cci_t));
	OK(dmn_opp_device_bind(w->ctx, r->mem, r->mem_t));
	dmn_device_t all[4] = {r->cpu0, r->cpu1, r->cci, r->mem};
	for (unsigned i = 0; i < 4; i++)
		OK(dmn_opp_device_set_clock(w->ctx, all[i], &dmn_sim_providers_clock,
					&w->sp));
	/* the tables are held by the bindings and by each other */
	dmn_opp_table_t own[4] = {r->mem_t, r->lv, r->cci_t, r->cpu_t};
	for (unsigned i = 0; i < 4; i++)
		OK(dmn_opp_table_put(w->ctx, own[i]));
}

static uint64_t rate(struct rig *r, dmn_device_t d)
{
	return dmn_sim_providers_rate(&r->w.sp, d);
}

/* The position of the first logged clock call on @dev, or -1. */
static int clock_call(struct rig *r, dmn_device_t dev)
{
	for (unsigned i = 0; i < r->w.sp.n_log; i++)
		if (r->w.sp.log[i].op == DMN_SIM_PROVIDERS_CLOCK &&
		    r->w.sp.log[i].object == dev)
			return (int)i;
	return -1;
}

/* Max over active requirers and the owner's own rate; a suspended
 * requirer does not count; raised before the requirer moves up, lowered
 * after it moves down. */
static void max_aggregation(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, 64);
	struct dmn_ctx *ctx = r.w.ctx;
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300));
	assert_int_equal(rate(&r, r.cci), 0); /* cpu0 suspended */
	OK(dmn_opp_device_get(ctx, r.cpu0));
	assert_int_equal(rate(&r, r.cci), 30);
	assert_int_equal(cur_id(&r.w, r.cci), r.e_cci[2]);
	OK(dmn_opp_device_get(ctx, r.cpu1));
	OK(dmn_opp_set_rate(ctx, r.cpu1, 100));
	assert_int_equal(rate(&r, r.cci), 30); /* cpu0 still asks 30 */

	dmn_sim_providers_clear_log(&r.w.sp);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 200));
	assert_int_equal(rate(&r, r.cci), 20);
	assert_true(clock_call(&r, r.cpu0) < clock_call(&r, r.cci));
	dmn_sim_providers_clear_log(&r.w.sp);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300));
	assert_int_equal(rate(&r, r.cci), 30);
	assert_true(clock_call(&r, r.cci) < clock_call(&r, r.cpu0));

	/* its own rate above the requirements wins; below, they do */
	OK(dmn_opp_set_rate(ctx, r.cci, 40));
	assert_int_equal(rate(&r, r.cci), 40);
	uint64_t own;
	OK(dmn_opp_device_current(ctx, r.cci, NULL, &own));
	assert_int_equal(own, 40);
	OK(dmn_opp_set_rate(ctx, r.cci, 10));
	assert_int_equal(rate(&r, r.cci), 30);
	OK(dmn_opp_device_put(ctx, r.cpu0));
	assert_int_equal(rate(&r, r.cci), 10); /* cpu1 asks 10, own 10 */
	OK(dmn_opp_set_rate(ctx, r.cci, 0));
	assert_int_equal(cur_id(&r.w, r.cci), r.e_cci[0]); /* cpu1's */
	OK(dmn_opp_device_put(ctx, r.cpu1));
	assert_int_equal(cur_id(&r.w, r.cci), DMN_OPP_ID_NONE);
	/* an unbound requirer requires nothing any more */
	OK(dmn_opp_device_get(ctx, r.cpu0));
	OK(dmn_opp_set_rate(ctx, r.cpu0, 200));
	assert_int_equal(cur_id(&r.w, r.cci), r.e_cci[1]);
	OK(dmn_opp_device_unbind(ctx, r.cpu0));
	assert_int_equal(cur_id(&r.w, r.cci), DMN_OPP_ID_NONE);
	OK(dmn_device_put(ctx, r.cpu0));
	world_fini(&r.w);
}

/* The effective entry drives the owner's own votes and requirements:
 * cci at 30 votes level 32 on its rail and requires mem 2, the latter
 * only while the cci itself is active. */
static void chains(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, 64);
	struct dmn_ctx *ctx = r.w.ctx;
	OK(dmn_opp_device_get(ctx, r.cpu0));
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300));
	assert_int_equal(att_vote(&r.w, r.cci_att), 32);
	assert_int_equal(dom_pstate(&r.w, r.rail), 0); /* cci suspended */
	assert_int_equal(rate(&r, r.mem), 0);
	OK(dmn_opp_device_get(ctx, r.cci));
	assert_int_equal(dom_pstate(&r.w, r.rail), 32);
	assert_int_equal(rate(&r, r.mem), 2);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 100));
	assert_int_equal(rate(&r, r.cci), 10);
	assert_int_equal(dom_pstate(&r.w, r.rail), 16);
	assert_int_equal(rate(&r, r.mem), 1);
	/* raising, what is required rises first: mem, cci, then cpu0;
	 * lowering, the requirer comes down first */
	dmn_sim_providers_clear_log(&r.w.sp);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300));
	assert_true(clock_call(&r, r.mem) < clock_call(&r, r.cci));
	assert_true(clock_call(&r, r.cci) < clock_call(&r, r.cpu0));
	dmn_sim_providers_clear_log(&r.w.sp);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 100));
	assert_true(clock_call(&r, r.cpu0) < clock_call(&r, r.cci));
	assert_true(clock_call(&r, r.cci) < clock_call(&r, r.mem));
	/* an owner held up by cpu0 and unbound: what it required of mem
	 * counts no more */
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300));
	assert_int_equal(cur_id(&r.w, r.mem), r.e_mem[1]);
	OK(dmn_opp_device_unbind(ctx, r.cci));
	assert_int_equal(cur_id(&r.w, r.mem), DMN_OPP_ID_NONE);
	OK(dmn_opp_device_put(ctx, r.cci));
	OK(dmn_opp_device_put(ctx, r.cpu0));
	world_fini(&r.w);
}

/* docs/semantics.md, The OPP layer: `vote` and `rate` write the same
 * per-attachment vote, the
 * latest wins, and a rate writes only where its entries vote: the cci's
 * vote on the rail outlives a rate to no OPP from none (which writes
 * nothing) and still counts when a requirement moves the cci and when
 * it lets go (model_diff.py DOMINO_OPS=300 seed 230521); a rate that
 * votes there, the later word, wins. */
static void rate_writes_where_it_votes(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, 64);
	struct dmn_ctx *ctx = r.w.ctx;
	OK(dmn_opp_device_get(ctx, r.cci));
	OK(dmn_opp_device_vote(ctx, r.cci, 0, 64));
	OK(dmn_opp_set_rate(ctx, r.cci, 0));
	assert_int_equal(att_vote(&r.w, r.cci_att), 64);
	OK(dmn_opp_device_get(ctx, r.cpu0));
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300)); /* cci to 30: votes 32 */
	assert_int_equal(rate(&r, r.cci), 30);
	assert_int_equal(att_vote(&r.w, r.cci_att), 64);
	OK(dmn_opp_device_put(ctx, r.cpu0)); /* cci to no OPP */
	assert_int_equal(cur_id(&r.w, r.cci), DMN_OPP_ID_NONE);
	assert_int_equal(att_vote(&r.w, r.cci_att), 64);
	assert_int_equal(dom_pstate(&r.w, r.rail), 64);
	OK(dmn_opp_set_rate(ctx, r.cci, 20)); /* its rate votes 32 there */
	assert_int_equal(att_vote(&r.w, r.cci_att), 32);
	OK(dmn_opp_device_put(ctx, r.cci));
	world_fini(&r.w);
}

/* set_performance_state calls on @d logged since the last clear. */
static unsigned pstate_calls(struct rig *r, dmn_domain_t d)
{
	unsigned n = 0;
	for (unsigned i = 0; i < r->w.sp.n_log; i++)
		n += r->w.sp.log[i].op == DMN_SIM_PROVIDERS_PSTATE &&
		     r->w.sp.log[i].object == d;
	return n;
}

/* docs/semantics.md, Ordering: one pstate call a domain a command. The owner's
 * votes join
 * the requirer's transaction: cpu0 on the cci's rail voting 64 and
 * requiring cci 30 (which votes 32) takes the rail 0 -> 64 in one call
 * when it resumes and back in one when it suspends (in steps of their
 * own the owner's move made 0 -> 32 -> 64 and 64 -> 32 -> 0). */
static void one_call_per_domain(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, 64);
	struct dmn_ctx *ctx = r.w.ctx;
	dmn_attach_t a;
	OK(dmn_attach(ctx, r.cpu0, r.rail, &a));
	OK(dmn_opp_device_get(ctx, r.cci));
	OK(dmn_vote(ctx, a, 64));
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300)); /* suspended: counts not */
	assert_int_equal(att_vote(&r.w, r.cci_att), 0);
	dmn_sim_providers_clear_log(&r.w.sp);
	OK(dmn_opp_device_get(ctx, r.cpu0));
	assert_int_equal(dom_pstate(&r.w, r.rail), 64);
	assert_int_equal(att_vote(&r.w, r.cci_att), 32);
	assert_int_equal(rate(&r, r.cci), 30);
	assert_int_equal(pstate_calls(&r, r.rail), 1);
	dmn_sim_providers_clear_log(&r.w.sp);
	OK(dmn_opp_device_put(ctx, r.cpu0));
	assert_int_equal(att_vote(&r.w, r.cci_att), 0);
	assert_int_equal(pstate_calls(&r, r.rail), 1);
	assert_int_equal(cur_id(&r.w, r.cci), DMN_OPP_ID_NONE);
	OK(dmn_opp_device_put(ctx, r.cci));
	world_fini(&r.w);
}

/* The rig with the cci and cpu0 active, cpu0 at 300: the cci at 30,
 * voting 32 on the rail. */
static struct dmn_ctx *rig_cci_at_30(struct rig *r)
{
	rig_init(r, 64);
	struct dmn_ctx *ctx = r->w.ctx;
	OK(dmn_opp_device_get(ctx, r->cci));
	OK(dmn_opp_device_get(ctx, r->cpu0));
	OK(dmn_opp_set_rate(ctx, r->cpu0, 300));
	assert_int_equal(cur_id(&r->w, r->cci), r->e_cci[2]);
	assert_int_equal(att_vote(&r->w, r->cci_att), 32);
	return ctx;
}

/* An owner's vote on its domain is the higher of its own latest vote or
 * rate and its effective OPP's vote (docs/device-tree.md, Device-to-device
 * requirements). */
static void owner_votes(void **state)
{
	(void)state;
	struct rig r;
	struct dmn_ctx *ctx = rig_cci_at_30(&r);
	OK(dmn_opp_device_vote(ctx, r.cci, 0, 16)); /* below: 32 stays */
	assert_int_equal(att_vote(&r.w, r.cci_att), 32);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 100)); /* cci at 10: votes 16 */
	assert_int_equal(att_vote(&r.w, r.cci_att), 16);
	OK(dmn_opp_device_vote(ctx, r.cci, 0, 64));
	assert_int_equal(dom_pstate(&r.w, r.rail), 64);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300)); /* its 64 is higher than 32 */
	assert_int_equal(att_vote(&r.w, r.cci_att), 64);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 100));
	assert_int_equal(att_vote(&r.w, r.cci_att), 64);
	/* its own rate is its latest word: the vote no longer counts */
	OK(dmn_opp_set_rate(ctx, r.cci, 20));
	assert_int_equal(att_vote(&r.w, r.cci_att), 32);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 300));
	assert_int_equal(att_vote(&r.w, r.cci_att), 32);
	OK(dmn_opp_set_rate(ctx, r.cpu0, 100));
	assert_int_equal(att_vote(&r.w, r.cci_att), 32);
	/* for a device owning nothing it is dmn_vote(); bad index */
	assert_int_equal(dmn_opp_device_vote(ctx, r.cpu0, 0, 1), -ENOENT);
	assert_int_equal(dmn_opp_device_vote(ctx, 0, 0, 1), -EBADF);
	OK(dmn_opp_device_put(ctx, r.cpu0));
	OK(dmn_opp_device_put(ctx, r.cci));
	world_fini(&r.w);
}

/* An owner's clock failing on the way down is safe (docs/semantics.md,
 * Failures): the
 * requirer's suspend stands, the owner ends at its entry with its votes
 * (lowered in the transaction, whose lowerings come after the clocks,
 * and put back after it), the failure is reported; the next change
 * lowers it. */
static void owner_lowering_failure_is_safe(void **state)
{
	(void)state;
	struct rig r;
	struct dmn_ctx *ctx = rig_cci_at_30(&r);
	OK(dmn_sim_providers_fail(&r.w.sp, DMN_SIM_PROVIDERS_CLOCK, r.cci, 1, -EIO));
	OK(dmn_opp_device_put(ctx, r.cpu0));
	assert_int_equal(dmn_last_error(ctx), -EIO);
	struct dmn_device_info di;
	OK(dmn_device_info(ctx, r.cpu0, &di));
	assert_int_equal(di.usage, 0);
	assert_int_equal(cur_id(&r.w, r.cci), r.e_cci[2]);
	assert_int_equal(rate(&r, r.cci), 30);
	assert_int_equal(att_vote(&r.w, r.cci_att), 32);
	assert_int_equal(dom_pstate(&r.w, r.rail), 32);
	OK(dmn_opp_device_get(ctx, r.cpu0));
	OK(dmn_opp_device_put(ctx, r.cpu0));
	assert_int_equal(cur_id(&r.w, r.cci), DMN_OPP_ID_NONE);
	assert_int_equal(att_vote(&r.w, r.cci_att), 0);
	OK(dmn_opp_device_put(ctx, r.cci));
	world_fini(&r.w);
}

/* A requirement the owner cannot take fails the requirer's command,
 * which changes nothing: a vote above the rail's top (-ERANGE), a clock
 * that refuses (-EIO), on set_rate and on resume. */
static void owner_failure_rolls_back(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, 48); /* cci 40 votes level 48; 30 votes 32 */
	struct dmn_ctx *ctx = r.w.ctx;
	OK(dmn_opp_device_get(ctx, r.cpu0));
	OK(dmn_opp_set_rate(ctx, r.cpu0, 100));
	assert_int_equal(rate(&r, r.cci), 10);

	OK(dmn_sim_providers_fail(&r.w.sp, DMN_SIM_PROVIDERS_CLOCK, r.cci, 1, -EIO));
	assert_int_equal(dmn_opp_set_rate(ctx, r.cpu0, 300), -EIO);
	assert_int_equal(cur_id(&r.w, r.cpu0), r.e_cpu[0]);
	assert_int_equal(rate(&r, r.cpu0), 100);
	assert_int_equal(rate(&r, r.cci), 10);
	assert_int_equal(att_vote(&r.w, r.cci_att), 16);
	assert_int_equal(dmn_last_error(ctx), -EIO);

	/* a chain's far end failing undoes the nearer owner too */
	OK(dmn_opp_device_get(ctx, r.cci));
	OK(dmn_sim_providers_fail(&r.w.sp, DMN_SIM_PROVIDERS_CLOCK, r.mem, 1, -EIO));
	assert_int_equal(dmn_opp_set_rate(ctx, r.cpu0, 300), -EIO);
	assert_int_equal(rate(&r, r.cci), 10);
	assert_int_equal(cur_id(&r.w, r.cci), r.e_cci[0]);
	assert_int_equal(rate(&r, r.mem), 1);
	OK(dmn_opp_device_put(ctx, r.cci));

	/* resume: cpu1 at 300 would hold the cci at 30, whose clock fails */
	OK(dmn_opp_set_rate(ctx, r.cpu1, 300));
	OK(dmn_sim_providers_fail(&r.w.sp, DMN_SIM_PROVIDERS_CLOCK, r.cci, 1, -EIO));
	assert_int_equal(dmn_opp_device_get(ctx, r.cpu1), -EIO);
	struct dmn_device_info di;
	OK(dmn_device_info(ctx, r.cpu1, &di));
	assert_int_equal(di.usage, 0);
	assert_int_equal(rate(&r, r.cci), 10);
	OK(dmn_opp_device_get(ctx, r.cpu1));
	assert_int_equal(rate(&r, r.cci), 30);
	OK(dmn_opp_device_put(ctx, r.cpu1));
	OK(dmn_opp_device_put(ctx, r.cpu0));
	world_fini(&r.w);
}

/* An owner whose vote would be refused (-ERANGE): a dsp on a small
 * domain (levels up to 16, under the rail) takes the rail's level 64 by
 * pass 2, which the small domain cannot round. The cpu entry requiring
 * that dsp OPP fails and changes nothing. */
static void vote_out_of_range(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, 64);
	struct dmn_ctx *ctx = r.w.ctx;
	dmn_opp_table_t small_t, dsp_t, cpu_t;
	OK(dmn_opp_table_create(ctx, "small-levels", &small_t));
	add_level(&r.w, small_t, 16, 0, NULL);
	dmn_domain_t small = mk_domain(&r.w, "small", 1);
	OK(dmn_opp_domain_set_table(ctx, small, small_t));
	OK(dmn_opp_link_add(ctx, r.rail, small));
	OK(dmn_opp_table_create(ctx, "dsp", &dsp_t));
	struct dmn_opp_required hi = {r.lv, r.l[2]};
	uint32_t d1 = add_freq(&r.w, dsp_t, 7, 0, 1, &hi);
	dmn_device_t dsp;
	dmn_attach_t dsp_att;
	OK(dmn_device_create(ctx, "dsp", &dsp));
	OK(dmn_attach(ctx, dsp, small, &dsp_att));
	OK(dmn_opp_device_bind(ctx, dsp, dsp_t));
	OK(dmn_opp_device_table(ctx, r.cpu0, &cpu_t));
	struct dmn_opp_required req[2] = {{r.cci_t, r.e_cci[0]}, {dsp_t, d1}};
	add_freq(&r.w, cpu_t, 400, 0, 2, req);
	OK(dmn_opp_device_get(ctx, r.cpu0));
	OK(dmn_opp_set_rate(ctx, r.cpu0, 100));
	assert_int_equal(dmn_opp_set_rate(ctx, r.cpu0, 400), -ERANGE);
	assert_int_equal(cur_id(&r.w, r.cpu0), r.e_cpu[0]);
	assert_int_equal(cur_id(&r.w, dsp), DMN_OPP_ID_NONE);
	assert_int_equal(att_vote(&r.w, dsp_att), 0);
	assert_int_equal(rate(&r, r.cci), 10);
	OK(dmn_opp_table_put(ctx, small_t));
	OK(dmn_opp_table_put(ctx, dsp_t));
	world_fini(&r.w);
}

/* Device tables requiring each other in a cycle are refused (the loader
 * drops the pair closing it, with a warning). */
static void cycle_refused(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t a, b;
	OK(dmn_opp_table_create(w.ctx, "a", &a));
	OK(dmn_opp_table_create(w.ctx, "b", &b));
	uint32_t a1 = add_freq(&w, a, 1, 0, 0, NULL);
	struct dmn_opp_required to_a = {a, a1};
	uint32_t b1 = add_freq(&w, b, 1, 0, 1, &to_a);
	struct dmn_opp_required to_b = {b, b1};
	uint64_t hz = 2;
	struct dmn_opp_desc d = {.hz = &hz, .n_hz = 1, .required = &to_b,
			     .n_required = 1};
	assert_int_equal(dmn_opp_add(w.ctx, a, &d, NULL), -EINVAL);
	OK(dmn_opp_table_put(w.ctx, b));
	OK(dmn_opp_table_put(w.ctx, a));
	world_fini(&w);
}

/* A chain of 2000 device tables: no recursion on its length when adding,
 * settling or freeing. */
static void long_chain(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	enum { N = 2000 };
	dmn_opp_table_t t[N];
	uint32_t e[N];
	dmn_device_t dev[N];
	for (int i = N - 1; i >= 0; i--) {
		OK(dmn_opp_table_create(w.ctx, "t", &t[i]));
		struct dmn_opp_required req = {i + 1 < N ? t[i + 1] : 0,
					   i + 1 < N ? e[i + 1] : 0};
		e[i] = add_freq(&w, t[i], 5, 0, i + 1 < N, &req);
		OK(dmn_device_create(w.ctx, "d", &dev[i]));
		OK(dmn_opp_device_bind(w.ctx, dev[i], t[i]));
	}
	for (int i = N - 1; i > 0; i--)
		OK(dmn_opp_device_get(w.ctx, dev[i]));
	OK(dmn_opp_device_get(w.ctx, dev[0]));
	OK(dmn_opp_set_rate(w.ctx, dev[0], 5));
	assert_int_equal(cur_id(&w, dev[N - 1]), e[N - 1]);
	OK(dmn_opp_set_rate(w.ctx, dev[0], 0));
	OK(dmn_opp_device_put(w.ctx, dev[1]));
	assert_int_equal(cur_id(&w, dev[N - 1]), DMN_OPP_ID_NONE);
	for (int i = 0; i < N; i++)
		OK(dmn_opp_table_put(w.ctx, t[i]));
	world_fini(&w);
}

/* Every allocation of a requirement-raising set_rate may fail: then
 * nothing changed. */
static void alloc_failures(void **state)
{
	(void)state;
	for (unsigned long k = 1;; k++) {
		struct rig r;
		rig_init(&r, 64);
		struct dmn_ctx *ctx = r.w.ctx;
		OK(dmn_opp_device_get(ctx, r.cci));
		OK(dmn_opp_device_get(ctx, r.cpu0));
		arm_alloc(&r.w.alloc, k);
		int err = dmn_opp_set_rate(ctx, r.cpu0, 300);
		arm_alloc(&r.w.alloc, 0);
		if (!err) {
			assert_int_equal(rate(&r, r.cci), 30);
			world_fini(&r.w);
			break;
		}
		assert_int_equal(err, -ENOMEM);
		assert_int_equal(rate(&r, r.cci), 0);
		assert_int_equal(rate(&r, r.cpu0), 0);
		assert_int_equal(cur_id(&r.w, r.cci), DMN_OPP_ID_NONE);
		assert_int_equal(dom_pstate(&r.w, r.rail), 0);
		world_fini(&r.w);
	}
}

/* dmn_opp_device_get, _put and _vote hold the context lock once, from start to
 * end: released around the core call, another thread could remove the
 * device or its OPP state in the gap and the relocked remainder would
 * write to freed memory (docs/decisions/locking.md). Counted through the lock
 * hook. */
static unsigned lock_acquires;
static bool lock_held;

static int count_create(void *user, void **lock)
{
	(void)user;
	*lock = &lock_held;
	return 0;
}

static void count_acquire(void *user, void *lock)
{
	(void)user;
	assert_false(*(bool *)lock);
	*(bool *)lock = true;
	lock_acquires++;
}

static void count_release(void *user, void *lock)
{
	(void)user;
	*(bool *)lock = false;
}

static void count_destroy(void *user, void *lock)
{
	(void)user;
	(void)lock;
}

static void one_lock_per_call(void **state)
{
	(void)state;
	struct dmn_lock_ops counting = {count_create, count_acquire,
					count_release, count_destroy, 0};
	world_lock = counting;
	struct rig r;
	rig_init(&r, 64);
	struct dmn_ctx *ctx = r.w.ctx;
	unsigned before = lock_acquires;
	OK(dmn_opp_device_get(ctx, r.cci));
	assert_int_equal(lock_acquires - before, 1);
	before = lock_acquires;
	OK(dmn_opp_device_vote(ctx, r.cci, 0, 64));
	assert_int_equal(lock_acquires - before, 1);
	assert_int_equal(att_vote(&r.w, r.cci_att), 64);
	before = lock_acquires;
	OK(dmn_opp_device_put(ctx, r.cci));
	assert_int_equal(lock_acquires - before, 1);
	assert_false(lock_held);
	world_fini(&r.w);
	memset(&world_lock, 0, sizeof(world_lock));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(max_aggregation),
	    cmocka_unit_test(chains),
	    cmocka_unit_test(owner_votes),
	    cmocka_unit_test(one_call_per_domain),
	    cmocka_unit_test(rate_writes_where_it_votes),
	    cmocka_unit_test(one_lock_per_call),
	    cmocka_unit_test(owner_failure_rolls_back),
	    cmocka_unit_test(owner_lowering_failure_is_safe),
	    cmocka_unit_test(vote_out_of_range),
	    cmocka_unit_test(cycle_refused),
	    cmocka_unit_test(long_chain),
	    cmocka_unit_test(alloc_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
