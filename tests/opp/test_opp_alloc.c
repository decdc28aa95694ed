/* SPDX-License-Identifier: MIT */
/*
 * Allocation-failure injection: for dmn_opp_add, dmn_opp_device_bind,
 * dmn_opp_domain_set_table, dmn_opp_device_follow and dmn_opp_set_rate, fail the k-th
 * allocation for k = 1, 2, ... until the call succeeds. Every failure must
 * return -ENOMEM, call no provider and change nothing observable; nothing
 * leaks (world_fini checks the live count after dmn_ctx_destroy).
 */
#include "opp_test.h"

struct setup {
	struct world w;
	dmn_domain_t mmcx, mx, gdsc;
	dmn_opp_table_t rpmh, vt;
	dmn_device_t dev;
	dmn_attach_t a_gdsc, a_mx;
	uint32_t l[4];
};

static struct setup *setup_new(void)
{
	struct setup *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	world_init(&s->w);
	struct world *w = &s->w;
	s->mmcx = mk_domain(w, "mmcx", 1);
	s->mx = mk_domain(w, "mx", 1);
	s->gdsc = mk_domain(w, "gdsc", 0);
	OK(dmn_opp_table_create(w->ctx, "rpmhpd", &s->rpmh));
	for (unsigned i = 0; i < 4; i++)
		s->l[i] = add_level(w, s->rpmh, 16 * (i + 1), 0, NULL);
	OK(dmn_opp_domain_set_table(w->ctx, s->mmcx, s->rpmh));
	OK(dmn_opp_domain_set_table(w->ctx, s->mx, s->rpmh));
	OK(dmn_opp_link_add(w->ctx, s->mmcx, s->gdsc));
	OK(dmn_opp_table_create(w->ctx, "venus", &s->vt));
	for (unsigned i = 0; i < 3; i++) {
		struct dmn_opp_required q[2] = {{s->rpmh, s->l[i]},
					    {s->rpmh, s->l[i + 1]}};
		add_freq(w, s->vt, 100 * (i + 1), 600 + 100 * i, 2, q);
	}
	OK(dmn_device_create(w->ctx, "venus", &s->dev));
	OK(dmn_attach(w->ctx, s->dev, s->gdsc, &s->a_gdsc));
	OK(dmn_attach(w->ctx, s->dev, s->mx, &s->a_mx));
	OK(dmn_device_get(w->ctx, s->dev));
	dmn_sim_providers_clear_log(&w->sp);
	return s;
}

static void setup_free(struct setup *s)
{
	world_fini(&s->w);
	free(s);
}

static void bind_all(struct setup *s)
{
	struct world *w = &s->w;
	OK(dmn_opp_device_bind(w->ctx, s->dev, s->vt));
	OK(dmn_opp_device_set_clock(w->ctx, s->dev, &dmn_sim_providers_clock, &w->sp));
	OK(dmn_opp_device_set_regulators(w->ctx, s->dev, &dmn_sim_providers_regulators,
				     &w->sp));
}

struct snap {
	uint32_t p_mmcx, p_mx, p_gdsc, v_gdsc, v_mx, id;
	uint64_t req;
	unsigned total;
};

static void take(struct setup *s, struct snap *out)
{
	struct world *w = &s->w;
	memset(out, 0, sizeof(*out));
	out->p_mmcx = dom_pstate(w, s->mmcx);
	out->p_mx = dom_pstate(w, s->mx);
	out->p_gdsc = dom_pstate(w, s->gdsc);
	out->v_gdsc = att_vote(w, s->a_gdsc);
	out->v_mx = att_vote(w, s->a_mx);
	out->id = DMN_OPP_ID_NONE;
	dmn_opp_device_current(w->ctx, s->dev, &out->id, &out->req);
	OK(dmn_opp_table_count(w->ctx, s->vt, &out->total, NULL));
}

static void same(const struct snap *a, const struct snap *b)
{
	assert_memory_equal(a, b, sizeof(*a));
}

static void test_alloc_opp_add(void **state)
{
	(void)state;
	struct setup *s = setup_new();
	struct world *w = &s->w;
	struct snap before, after;
	take(s, &before);
	struct dmn_opp_desc d;
	memset(&d, 0, sizeof(d));
	d.name = "opp-400";
	const uint64_t hz = 400;
	d.hz = &hz;
	d.n_hz = 1;
	const struct dmn_opp_required req = {s->rpmh, s->l[3]};
	d.required = &req;
	d.n_required = 1;
	/* A table that has never held a required OPP: a new dependency. */
	dmn_opp_table_t fresh;
	OK(dmn_opp_table_create(w->ctx, "fresh", &fresh));
	unsigned k;
	int err = -ENOMEM;
	for (k = 1; err == -ENOMEM && k < 100; k++) {
		arm_alloc(&w->alloc, k);
		err = dmn_opp_add(w->ctx, fresh, &d, NULL);
		arm_alloc(&w->alloc, 0);
		if (err == -ENOMEM) {
			unsigned total;
			OK(dmn_opp_table_count(w->ctx, fresh, &total, NULL));
			assert_int_equal(total, 0);
		}
	}
	OK(err);
	assert_true(k > 2);
	/* Putting the fresh table drops its reference on rpmhpd only. */
	OK(dmn_opp_table_put(w->ctx, fresh));
	take(s, &after);
	same(&before, &after);
	uint32_t id;
	OK(dmn_opp_first(w->ctx, s->rpmh, &id));
	setup_free(s);
}

static void test_alloc_bind_and_follow(void **state)
{
	(void)state;
	struct setup *s = setup_new();
	struct world *w = &s->w;
	int err = -ENOMEM;
	for (unsigned k = 1; err == -ENOMEM; k++) {
		arm_alloc(&w->alloc, k);
		err = dmn_opp_device_bind(w->ctx, s->dev, s->vt);
		arm_alloc(&w->alloc, 0);
		if (err == -ENOMEM) {
			dmn_opp_table_t t;
			assert_int_equal(dmn_opp_device_table(w->ctx, s->dev, &t),
					 -ENOENT);
		}
	}
	OK(err);
	/* follow needs no memory, domain tables one block. */
	arm_alloc(&w->alloc, 1);
	OK(dmn_opp_device_follow(w->ctx, s->dev, true));
	assert_int_equal(w->alloc.failed, 0);
	arm_alloc(&w->alloc, 0);
	dmn_domain_t extra = mk_domain(w, "extra", 1);
	arm_alloc(&w->alloc, 1);
	assert_int_equal(dmn_opp_domain_set_table(w->ctx, extra, s->rpmh), -ENOMEM);
	arm_alloc(&w->alloc, 0);
	dmn_opp_table_t t;
	assert_int_equal(dmn_opp_domain_table(w->ctx, extra, &t), -ENOENT);
	OK(dmn_opp_domain_set_table(w->ctx, extra, s->rpmh));
	setup_free(s);
}

/* A bound device's supply records are grown by its first move, not at
 * bind (docs/decisions/optional-units.md): binding takes the device's cold
 * part and the binding, two blocks; the first move with a supply takes
 * the records too, and the move works. */
static void test_alloc_records_on_first_move(void **state)
{
	(void)state;
	struct setup *s = setup_new();
	struct world *w = &s->w;
	long live = w->alloc.live;
	bind_all(s);
	assert_int_equal(w->alloc.live - live, 2);
	OK(dmn_opp_set_rate(w->ctx, s->dev, 300));
	assert_int_equal(cur_id(w, s->dev), 2);
	assert_true(w->sp.n_log > 0);
	setup_free(s);
}

/* Returns how many allocations the call needed. */
static unsigned rate_case(uint64_t from, uint64_t to)
{
	for (unsigned k = 1;; k++) {
		struct setup *s = setup_new();
		struct world *w = &s->w;
		bind_all(s);
		if (from)
			OK(dmn_opp_set_rate(w->ctx, s->dev, from));
		dmn_sim_providers_clear_log(&w->sp);
		struct snap before, after;
		take(s, &before);
		arm_alloc(&w->alloc, k);
		int err = dmn_opp_set_rate(w->ctx, s->dev, to);
		unsigned long failed = w->alloc.failed;
		arm_alloc(&w->alloc, 0);
		if (!err) {
			setup_free(s);
			assert_true(k < 200);
			return k - 1;
		}
		assert_int_equal(err, -ENOMEM);
		assert_int_equal(failed, 1);
		assert_int_equal(w->sp.n_log, 0);
		take(s, &after);
		same(&before, &after);
		/* And it works once memory is back. */
		OK(dmn_opp_set_rate(w->ctx, s->dev, to));
		setup_free(s);
	}
}

static void test_alloc_set_rate(void **state)
{
	(void)state;
	/* The first raise grows level bins and the undo log. */
	assert_true(rate_case(0, 300) > 0);
	rate_case(300, 100);
	rate_case(100, 200);
	rate_case(200, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_alloc_opp_add),
	    cmocka_unit_test(test_alloc_bind_and_follow),
	    cmocka_unit_test(test_alloc_set_rate),
	    cmocka_unit_test(test_alloc_records_on_first_move),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
