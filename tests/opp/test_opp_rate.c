/* SPDX-License-Identifier: MIT */
/* set_rate: the exact call order up and down, nothing for the same OPP, a
 * failure injected at every step in both directions, availability. */
#include "opp_test.h"

#define MHZ 1000000ull

struct rig {
	struct world w;
	dmn_domain_t cx;
	dmn_device_t dev;
	dmn_attach_t att;
	dmn_opp_table_t rail, table;
	uint32_t e100, e200, e300;
	struct dmn_event events[64];
	unsigned n_events;
};

static void on_event(void *user, struct dmn_ctx *ctx,
		     const struct dmn_event *ev)
{
	(void)ctx;
	struct rig *r = user;
	if (r->n_events < 64)
		r->events[r->n_events++] = *ev;
}

static struct rig *rig_new(void)
{
	struct rig *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	world_init(&r->w);
	struct world *w = &r->w;
	r->cx = mk_domain(w, "cx", 1);
	OK(dmn_opp_table_create(w->ctx, "rpmhpd", &r->rail));
	uint32_t l[3];
	for (unsigned i = 0; i < 3; i++)
		l[i] = add_level(w, r->rail, i + 1, 0, NULL);
	OK(dmn_opp_domain_set_table(w->ctx, r->cx, r->rail));
	OK(dmn_opp_table_create(w->ctx, "dev-opp", &r->table));
	struct dmn_opp_required q1 = {r->rail, l[0]}, q2 = {r->rail, l[1]},
			    q3 = {r->rail, l[2]};
	r->e300 = add_freq(w, r->table, 300 * MHZ, 800000, 1, &q3);
	r->e100 = add_freq(w, r->table, 100 * MHZ, 600000, 1, &q1);
	r->e200 = add_freq(w, r->table, 200 * MHZ, 700000, 1, &q2);
	OK(dmn_device_create(w->ctx, "venus", &r->dev));
	OK(dmn_attach(w->ctx, r->dev, r->cx, &r->att));
	OK(dmn_opp_device_bind(w->ctx, r->dev, r->table));
	OK(dmn_opp_device_set_clock(w->ctx, r->dev, &dmn_sim_providers_clock, &w->sp));
	OK(dmn_opp_device_set_regulators(w->ctx, r->dev, &dmn_sim_providers_regulators,
				     &w->sp));
	OK(dmn_device_get(w->ctx, r->dev));
	OK(dmn_listen(w->ctx, on_event, r));
	dmn_sim_providers_clear_log(&w->sp);
	return r;
}

static void rig_free(struct rig *r)
{
	world_fini(&r->w);
	free(r);
}

static void clear(struct rig *r)
{
	dmn_sim_providers_clear_log(&r->w.sp);
	r->n_events = 0;
}

struct want {
	enum dmn_sim_providers_op op;
	uint64_t value;
	int result;
};

static void expect_log(struct rig *r, const struct want *want, unsigned n)
{
	const struct dmn_sim_providers *sp = &r->w.sp;
	for (unsigned i = 0; i < n && i < sp->n_log; i++) {
		if (sp->log[i].op != want[i].op ||
		    sp->log[i].value != want[i].value ||
		    sp->log[i].result != want[i].result)
			fail_msg("call %u: got %s %llu (%d), want %s %llu (%d)",
				 i, dmn_sim_providers_op_name(sp->log[i].op),
				 (unsigned long long)sp->log[i].value,
				 sp->log[i].result,
				 dmn_sim_providers_op_name(want[i].op),
				 (unsigned long long)want[i].value,
				 want[i].result);
	}
	assert_int_equal(sp->n_log, n);
}

/* The whole observable state at one OPP. */
static void expect_at(struct rig *r, uint32_t id, uint64_t hz, uint32_t uv,
		      uint32_t pstate)
{
	struct world *w = &r->w;
	assert_int_equal(cur_id(w, r->dev), id);
	assert_int_equal(dmn_sim_providers_rate(&w->sp, r->dev), hz);
	assert_int_equal(dmn_sim_providers_microvolt(&w->sp, r->dev, 0), uv);
	assert_int_equal(dmn_sim_providers_pstate(&w->sp, r->cx), pstate);
	assert_int_equal(dom_pstate(w, r->cx), pstate);
}

#define CLK DMN_SIM_PROVIDERS_CLOCK
#define REG DMN_SIM_PROVIDERS_REGULATOR
#define PST DMN_SIM_PROVIDERS_PSTATE

static void test_order_up_down_same(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	OK(dmn_opp_set_rate(w->ctx, r->dev, 200 * MHZ));
	expect_log(
	    r,
	    (struct want[]){{PST, 2, 0}, {REG, 700000, 0}, {CLK, 200 * MHZ, 0}},
	    3);
	expect_at(r, r->e200, 200 * MHZ, 700000, 2);
	uint64_t req;
	OK(dmn_opp_device_current(w->ctx, r->dev, NULL, &req));
	assert_int_equal(req, 200 * MHZ);

	clear(r);
	OK(dmn_opp_set_rate(w->ctx, r->dev, 300 * MHZ));
	expect_log(
	    r,
	    (struct want[]){{PST, 3, 0}, {REG, 800000, 0}, {CLK, 300 * MHZ, 0}},
	    3);
	/* Events: the pstate, the voltage and the clock. */
	bool saw_rate = false;
	for (unsigned i = 0; i < r->n_events; i++)
		if (r->events[i].kind == DMN_EV_RATE) {
			saw_rate = true;
			assert_int_equal(r->events[i].device, r->dev);
			assert_int_equal(r->events[i].old_value, 200 * MHZ);
			assert_int_equal(r->events[i].new_value, 300 * MHZ);
		}
	assert_true(saw_rate);

	clear(r);
	OK(dmn_opp_set_rate(w->ctx, r->dev, 50 * MHZ));
	expect_log(
	    r,
	    (struct want[]){{CLK, 100 * MHZ, 0}, {REG, 600000, 0}, {PST, 1, 0}},
	    3);
	expect_at(r, r->e100, 100 * MHZ, 600000, 1);

	clear(r);
	OK(dmn_opp_set_rate(w->ctx, r->dev, 100 * MHZ)); /* same OPP */
	OK(dmn_opp_set_rate(w->ctx, r->dev, 1));	     /* ceil is the same OPP */
	expect_log(r, NULL, 0);
	assert_int_equal(r->n_events, 0);

	/* Above the top: -ERANGE, nothing called. */
	assert_int_equal(dmn_opp_set_rate(w->ctx, r->dev, 300 * MHZ + 1), -ERANGE);
	expect_log(r, NULL, 0);
	expect_at(r, r->e100, 100 * MHZ, 600000, 1);

	/* 0 drops the votes and leaves the clock alone. */
	OK(dmn_opp_set_rate(w->ctx, r->dev, 0));
	expect_log(r, (struct want[]){{PST, 0, 0}}, 1);
	assert_int_equal(att_vote(w, r->att), 0);
	assert_int_equal(cur_id(w, r->dev), DMN_OPP_ID_NONE);
	assert_int_equal(dmn_sim_providers_rate(&w->sp, r->dev), 100 * MHZ);
	clear(r);
	OK(dmn_opp_set_rate(w->ctx, r->dev, 0));
	expect_log(r, NULL, 0);
	/* Back up from no OPP: the clock is known, only the vote moves
	 * first. */
	OK(dmn_opp_set_rate(w->ctx, r->dev, 100 * MHZ));
	expect_log(r, (struct want[]){{PST, 1, 0}}, 1);
	OK(dmn_last_error(w->ctx));
	rig_free(r);
}

/* Two OPPs with the same target voltage but different windows: the
 * higher minimum is a raise (before the clock going up), the lower one a
 * lowering (after the clock going down), as docs/semantics.md (The OPP
 * layer) orders them. */
static void test_same_target_windows(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w->ctx, "windows", &t));
	uint64_t lo_hz = 100 * MHZ, hi_hz = 200 * MHZ;
	const struct dmn_opp_supply lo_s = {900000, 850000, 950000, 0},
				hi_s = {900000, 880000, 950000, 0};
	struct dmn_opp_desc d = {.hz = &lo_hz, .n_hz = 1, .supplies = &lo_s,
			     .n_supplies = 1};
	OK(dmn_opp_add(w->ctx, t, &d, NULL));
	d.hz = &hi_hz;
	d.supplies = &hi_s;
	OK(dmn_opp_add(w->ctx, t, &d, NULL));
	dmn_device_t dev;
	OK(dmn_device_create(w->ctx, "dsp", &dev));
	OK(dmn_opp_device_bind(w->ctx, dev, t));
	OK(dmn_opp_table_put(w->ctx, t));
	OK(dmn_opp_device_set_clock(w->ctx, dev, &dmn_sim_providers_clock, &w->sp));
	OK(dmn_opp_device_set_regulators(w->ctx, dev, &dmn_sim_providers_regulators,
				     &w->sp));
	OK(dmn_opp_set_rate(w->ctx, dev, lo_hz));
	clear(r);
	OK(dmn_opp_set_rate(w->ctx, dev, hi_hz));
	expect_log(r, (struct want[]){{REG, 900000, 0}, {CLK, hi_hz, 0}}, 2);
	assert_int_equal(w->sp.log[0].min, 880000);
	clear(r);
	OK(dmn_opp_set_rate(w->ctx, dev, lo_hz));
	expect_log(r, (struct want[]){{CLK, lo_hz, 0}, {REG, 900000, 0}}, 2);
	assert_int_equal(w->sp.log[1].min, 850000);
	rig_free(r);
}

/* Unsafe: every step going up. The device stays at 100 MHz and the
 * hardware is as before, undone in reverse. */
static void test_fail_up(void **state)
{
	(void)state;
	const struct {
		enum dmn_sim_providers_op op;
		struct want log[5];
		unsigned n;
	} cases[] = {
	    {PST, {{PST, 3, -EIO}}, 1},
	    {REG, {{PST, 3, 0}, {REG, 800000, -EIO}, {PST, 1, 0}}, 3},
	    {CLK,
	     {{PST, 3, 0},
	      {REG, 800000, 0},
	      {CLK, 300 * MHZ, -EIO},
	      {REG, 600000, 0},
	      {PST, 1, 0}},
	     5},
	};
	for (unsigned c = 0; c < 3; c++) {
		struct rig *r = rig_new();
		struct world *w = &r->w;
		OK(dmn_opp_set_rate(w->ctx, r->dev, 100 * MHZ));
		clear(r);
		uint32_t obj = cases[c].op == PST ? r->cx : r->dev;
		OK(dmn_sim_providers_fail(&w->sp, cases[c].op, obj, 1, -EIO));
		assert_int_equal(dmn_opp_set_rate(w->ctx, r->dev, 300 * MHZ), -EIO);
		expect_log(r, cases[c].log, cases[c].n);
		expect_at(r, r->e100, 100 * MHZ, 600000, 1);
		assert_int_equal(att_vote(w, r->att), 1);
		uint64_t req;
		OK(dmn_opp_device_current(w->ctx, r->dev, NULL, &req));
		assert_int_equal(req, 100 * MHZ);
		assert_int_equal(dmn_last_error(w->ctx), -EIO);
		bool failure = false;
		for (unsigned i = 0; i < r->n_events; i++)
			if (r->events[i].kind == DMN_EV_FAILURE) {
				failure = true;
				assert_int_equal(r->events[i].safe, 0);
			}
		assert_true(failure);
		/* The next try goes through. */
		clear(r);
		OK(dmn_opp_set_rate(w->ctx, r->dev, 300 * MHZ));
		expect_at(r, r->e300, 300 * MHZ, 800000, 3);
		OK(dmn_last_error(w->ctx));
		rig_free(r);
	}
}

static void test_fail_down_clock(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	OK(dmn_opp_set_rate(w->ctx, r->dev, 300 * MHZ));
	clear(r);
	OK(dmn_sim_providers_fail(&w->sp, CLK, r->dev, 1, -ETIMEDOUT));
	/* Any clock change is unsafe: nothing else moves. */
	assert_int_equal(dmn_opp_set_rate(w->ctx, r->dev, 100 * MHZ), -ETIMEDOUT);
	expect_log(r, (struct want[]){{CLK, 100 * MHZ, -ETIMEDOUT}}, 1);
	expect_at(r, r->e300, 300 * MHZ, 800000, 3);
	assert_int_equal(att_vote(w, r->att), 3);
	assert_int_equal(dmn_last_error(w->ctx), -ETIMEDOUT);
	rig_free(r);
}

static void test_fail_down_supply(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	OK(dmn_opp_set_rate(w->ctx, r->dev, 300 * MHZ));
	clear(r);
	OK(dmn_sim_providers_fail(&w->sp, REG, r->dev, 1, -EIO));
	/* Safe: the new OPP stands, the supply stays higher. */
	OK(dmn_opp_set_rate(w->ctx, r->dev, 100 * MHZ));
	expect_log(r,
		   (struct want[]){
		       {CLK, 100 * MHZ, 0}, {REG, 600000, -EIO}, {PST, 1, 0}},
		   3);
	expect_at(r, r->e100, 100 * MHZ, 800000, 1);
	assert_int_equal(dmn_last_error(w->ctx), -EIO);
	bool reported = false;
	for (unsigned i = 0; i < r->n_events; i++)
		if (r->events[i].kind == DMN_EV_FAILURE) {
			assert_int_equal(r->events[i].op, DMN_OP_REGULATOR);
			assert_int_equal(r->events[i].device, r->dev);
			assert_int_equal(r->events[i].safe, 1);
			assert_int_equal(r->events[i].error, -EIO);
			reported = true;
		}
	assert_true(reported);
	/* A later change retries the supply from where it really is. */
	clear(r);
	OK(dmn_opp_set_rate(w->ctx, r->dev, 200 * MHZ));
	expect_log(
	    r,
	    (struct want[]){{PST, 2, 0}, {CLK, 200 * MHZ, 0}, {REG, 700000, 0}},
	    3);
	OK(dmn_last_error(w->ctx));
	rig_free(r);
}

static void test_fail_down_pstate(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	OK(dmn_opp_set_rate(w->ctx, r->dev, 300 * MHZ));
	clear(r);
	OK(dmn_sim_providers_fail(&w->sp, PST, r->cx, 1, -EIO));
	OK(dmn_opp_set_rate(w->ctx, r->dev, 100 * MHZ));
	expect_log(r,
		   (struct want[]){
		       {CLK, 100 * MHZ, 0}, {REG, 600000, 0}, {PST, 1, -EIO}},
		   3);
	/* The domain stays at 3; the device is at its new OPP. */
	assert_int_equal(cur_id(w, r->dev), r->e100);
	assert_int_equal(dmn_sim_providers_pstate(&w->sp, r->cx), 3);
	assert_int_equal(dom_pstate(w, r->cx), 3);
	assert_int_equal(att_vote(w, r->att), 1);
	assert_int_equal(dmn_last_error(w->ctx), -EIO);
	struct dmn_domain_info info;
	OK(dmn_domain_info(w->ctx, r->cx, &info));
	assert_int_equal(info.target_pstate, 1);
	rig_free(r);
}

static void test_available(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	OK(dmn_opp_set_rate(w->ctx, r->dev, 200 * MHZ));
	clear(r);
	/* Disabling the device's OPP moves it up, through set_rate. */
	OK(dmn_opp_set_available(w->ctx, r->table, r->e200, false));
	expect_log(
	    r,
	    (struct want[]){{PST, 3, 0}, {REG, 800000, 0}, {CLK, 300 * MHZ, 0}},
	    3);
	expect_at(r, r->e300, 300 * MHZ, 800000, 3);
	/* Nothing above: -EBUSY, nothing changed. */
	clear(r);
	assert_int_equal(dmn_opp_set_available(w->ctx, r->table, r->e300, false),
			 -EBUSY);
	expect_log(r, NULL, 0);
	struct dmn_opp_info info;
	OK(dmn_opp_entry_info(w->ctx, r->table, r->e300, &info));
	assert_int_equal(info.available, 1);
	/* A failing move: the entry stays available, the error returned. */
	OK(dmn_opp_set_rate(w->ctx, r->dev, 100 * MHZ));
	OK(dmn_sim_providers_fail(&w->sp, CLK, r->dev, 1, -EIO));
	clear(r);
	assert_int_equal(dmn_opp_set_available(w->ctx, r->table, r->e100, false),
			 -EIO);
	OK(dmn_opp_entry_info(w->ctx, r->table, r->e100, &info));
	assert_int_equal(info.available, 1);
	expect_at(r, r->e100, 100 * MHZ, 600000, 1);
	/* Rate look-ups skip the disabled entry. */
	OK(dmn_opp_set_available(w->ctx, r->table, r->e100, false));
	expect_at(r, r->e300, 300 * MHZ, 800000, 3);
	OK(dmn_opp_set_rate(w->ctx, r->dev, 1));
	assert_int_equal(cur_id(w, r->dev), r->e300);
	rig_free(r);
}

/* Votes cast while suspended are stored; the clock still moves. */
static void test_suspended(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	OK(dmn_device_put(w->ctx, r->dev));
	clear(r);
	OK(dmn_opp_set_rate(w->ctx, r->dev, 200 * MHZ));
	expect_log(r, (struct want[]){{REG, 700000, 0}, {CLK, 200 * MHZ, 0}},
		   2);
	assert_int_equal(att_vote(w, r->att), 2);
	assert_int_equal(dom_pstate(w, r->cx), 0);
	clear(r);
	OK(dmn_device_get(w->ctx, r->dev));
	assert_int_equal(dom_pstate(w, r->cx), 2);
	OK(dmn_opp_device_unbind(w->ctx, r->dev));
	assert_int_equal(att_vote(w, r->att), 0);
	assert_int_equal(dom_pstate(w, r->cx), 0);
	assert_int_equal(dmn_opp_set_rate(w->ctx, r->dev, 1), -ENOENT);
	rig_free(r);
}

/* The backend on its own: call numbers, the call-number failure beside the
 * rules, set_hwmode, and a failure an adapter decided (dmn_sim_providers_call). */
static void test_backend_calls(void **state)
{
	(void)state;
	struct dmn_sim_providers sp;
	struct dmn_sim_providers_call log[8];
	dmn_sim_providers_init(&sp, NULL, log, 8);
	assert_int_equal(dmn_sim_providers_fail_call(&sp, 2, 0), -EINVAL);
	assert_int_equal(dmn_sim_providers_fail_call(NULL, 2, -EIO), -EINVAL);
	OK(dmn_sim_providers_fail_call(&sp, 2, -ETIMEDOUT));
	OK(dmn_sim_providers_fail(&sp, DMN_SIM_PROVIDERS_POWER_ON, 7, 1, -EIO));
	/* call 1: the rule; call 2: the call number; then neither */
	assert_int_equal(dmn_sim_providers_gate.power_on(&sp, 7), -EIO);
	assert_int_equal(dmn_sim_providers_gate.set_hwmode(&sp, 7, 3, 1),
			 -ETIMEDOUT);
	assert_int_equal(dmn_sim_providers_hwmode(&sp, 7), 0);
	OK(dmn_sim_providers_gate.set_hwmode(&sp, 7, 3, 1));
	assert_int_equal(dmn_sim_providers_hwmode(&sp, 7), 1);
	OK(dmn_sim_providers_gate.power_on(&sp, 7));
	assert_int_equal(dmn_sim_providers_on(&sp, 7), 1);
	struct dmn_sim_providers_call c;
	memset(&c, 0, sizeof(c));
	c.op = DMN_SIM_PROVIDERS_PSTATE;
	c.object = 9;
	c.value = 4;
	c.result = -EBUSY;
	assert_int_equal(dmn_sim_providers_call(&sp, &c), -EBUSY);
	assert_int_equal(c.index, 5);
	assert_int_equal(dmn_sim_providers_pstate(&sp, 9), 0);
	c.result = 0;
	OK(dmn_sim_providers_call(&sp, &c));
	assert_int_equal(dmn_sim_providers_pstate(&sp, 9), 4);
	assert_int_equal(sp.n_log, 6);
	assert_int_equal(log[1].index, 2);
	assert_int_equal(log[1].op, DMN_SIM_PROVIDERS_HWMODE);
	assert_int_equal(log[1].value, 1);
	assert_int_equal(log[1].result, -ETIMEDOUT);
	assert_int_equal(log[4].result, -EBUSY);
	assert_string_equal(dmn_sim_providers_op_name(DMN_SIM_PROVIDERS_HWMODE),
			    "hwmode");
	/* Numbering restarts with the log. */
	dmn_sim_providers_clear_log(&sp);
	OK(dmn_sim_providers_fail_call(&sp, 1, -EIO));
	assert_int_equal(dmn_sim_providers_gate.power_off(&sp, 7, -1), -EIO);
	assert_int_equal(log[0].index, 1);
	assert_true(log[0].value == UINT64_MAX);
	assert_int_equal(dmn_sim_providers_on(&sp, 7), 1);
	OK(dmn_sim_providers_fail_call(&sp, 0, 0));
	OK(dmn_sim_providers_gate.power_off(&sp, 7, -1));
	assert_int_equal(dmn_sim_providers_on(&sp, 7), 0);
}

/* The undo of a failed clock step with two supplies raised: in reverse,
 * each event from the new window to the old; a supply whose way back
 * fails, or whose old window was never known, stays where it went, and
 * the next move calls only what differs from that. */
static void test_fail_clock_undo_supplies(void **state)
{
	(void)state;
	struct rig *r = rig_new();
	struct world *w = &r->w;
	dmn_opp_table_t t;
	dmn_device_t dev;
	dmn_attach_t att;
	OK(dmn_opp_table_create(w->ctx, "two-supplies", &t));
	uint64_t lo_hz = 100 * MHZ, hi_hz = 300 * MHZ;
	struct dmn_opp_supply lo[2] = {{600000, 0, 0, 0}, {650000, 0, 0, 0}};
	struct dmn_opp_supply hi[2] = {{800000, 0, 0, 0}, {900000, 0, 0, 0}};
	struct dmn_opp_desc d;
	memset(&d, 0, sizeof(d));
	d.n_hz = 1;
	d.n_supplies = 2;
	d.hz = &lo_hz;
	d.supplies = lo;
	OK(dmn_opp_add(w->ctx, t, &d, NULL));
	d.hz = &hi_hz;
	d.supplies = hi;
	OK(dmn_opp_add(w->ctx, t, &d, NULL));
	OK(dmn_device_create(w->ctx, "gpu", &dev));
	OK(dmn_attach(w->ctx, dev, r->cx, &att));
	OK(dmn_opp_device_bind(w->ctx, dev, t));
	OK(dmn_opp_device_set_clock(w->ctx, dev, &dmn_sim_providers_clock, &w->sp));
	OK(dmn_opp_device_set_regulators(w->ctx, dev, &dmn_sim_providers_regulators,
				     &w->sp));
	OK(dmn_device_get(w->ctx, dev));
	OK(dmn_opp_set_rate(w->ctx, dev, lo_hz));
	clear(r);

	/* Calls: 1, 2 supplies up, 3 clock (fails), 4 supply 1 back (fails),
	 * 5 supply 0 back. */
	OK(dmn_sim_providers_fail(&w->sp, CLK, dev, 1, -EIO));
	OK(dmn_sim_providers_fail_call(&w->sp, 4, -ETIMEDOUT));
	assert_int_equal(dmn_opp_set_rate(w->ctx, dev, hi_hz), -EIO);
	expect_log(r,
		   (struct want[]){{REG, 800000, 0},
				   {REG, 900000, 0},
				   {CLK, hi_hz, -EIO},
				   {REG, 650000, -ETIMEDOUT},
				   {REG, 600000, 0}},
		   5);
	assert_int_equal(w->sp.log[3].supply, 1);
	assert_int_equal(w->sp.log[4].supply, 0);
	unsigned undo = 0;
	bool back = false;
	for (unsigned i = 0; i < r->n_events; i++) {
		const struct dmn_event *ev = &r->events[i];
		back |= ev->kind == DMN_EV_ROLLBACK;
		if (!back || ev->op != DMN_OP_REGULATOR)
			continue;
		/* the way back: from the new window to the old */
		assert_int_equal(ev->old_value, undo ? 800000 : 900000);
		assert_int_equal(ev->new_value, undo ? 600000 : 650000);
		assert_int_equal(ev->kind, undo ? DMN_EV_VOLTAGE : DMN_EV_FAILURE);
		undo++;
	}
	assert_int_equal(undo, 2);
	/* Supply 1 stayed at 900000: only supply 0 and the clock move. */
	clear(r);
	OK(dmn_opp_set_rate(w->ctx, dev, hi_hz));
	expect_log(r, (struct want[]){{REG, 800000, 0}, {CLK, hi_hz, 0}}, 2);

	/* Unknown old windows (a new regulator provider): nothing to go back
	 * to, both stay at what they were set to. */
	OK(dmn_opp_set_rate(w->ctx, dev, lo_hz));
	OK(dmn_opp_device_set_regulators(w->ctx, dev, &dmn_sim_providers_regulators,
				     &w->sp));
	clear(r);
	OK(dmn_sim_providers_fail(&w->sp, CLK, dev, 1, -EIO));
	assert_int_equal(dmn_opp_set_rate(w->ctx, dev, hi_hz), -EIO);
	expect_log(r,
		   (struct want[]){
		       {REG, 800000, 0}, {REG, 900000, 0}, {CLK, hi_hz, -EIO}},
		   3);
	clear(r);
	OK(dmn_opp_set_rate(w->ctx, dev, hi_hz));
	expect_log(r, (struct want[]){{CLK, hi_hz, 0}}, 1);
	OK(dmn_device_put(w->ctx, dev));
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_target_windows),
	    cmocka_unit_test(test_order_up_down_same),
	    cmocka_unit_test(test_fail_up),
	    cmocka_unit_test(test_fail_down_clock),
	    cmocka_unit_test(test_fail_down_supply),
	    cmocka_unit_test(test_fail_down_pstate),
	    cmocka_unit_test(test_fail_clock_undo_supplies),
	    cmocka_unit_test(test_available),
	    cmocka_unit_test(test_suspended),
	    cmocka_unit_test(test_backend_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
