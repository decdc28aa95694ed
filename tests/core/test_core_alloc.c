/* SPDX-License-Identifier: MIT */
/*
 * Allocation-failure injection, SQLite style: for each public call of the
 * core, in a non-trivial setup, fail the k-th allocation for k = 1, 2, ...
 * until the call succeeds. Each failure must return -ENOMEM, make no
 * callback and leave the full observable state (and the fake hardware) as
 * it was; the successful run must end in the same state as a run without
 * injection; nothing leaks (live blocks are 0 after dmn_ctx_destroy).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"

#include <domino/idle.h>
#include <domino/lifecycle.h>

struct world {
	struct fake fake;
	struct fake_alloc alloc;
	struct dmn_ctx *ctx;
	dmn_domain_t top, mid1, mid2, l1, l2, l3, l4, ao, spare, loose;
	dmn_device_t da, db, dc, idle;
	dmn_attach_t a_top, a_l1, a_l2, a_l3, a_l4, b_l3, c_l1;
	dmn_device_t out_dev;
	dmn_domain_t out_dom;
	dmn_attach_t out_att;
	unsigned n_voters;
};

static int map_plus3(void *user, dmn_domain_t child, dmn_domain_t parent,
		     uint32_t level, uint32_t *out)
{
	(void)user;
	(void)child;
	(void)parent;
	*out = level + 3;
	return 0;
}

static int round_even(void *user, dmn_domain_t dom, uint32_t level,
		      uint32_t *rounded)
{
	(void)user;
	(void)dom;
	if (level > 1000)
		return -ERANGE;
	*rounded = (level + 1) & ~1u;
	return 0;
}

static void ok(int err)
{
	assert_int_equal(err, 0);
}

/*
 *            ao (always-on)      top
 *              \               /    \
 *               mid2 ------'-- mid1   spare   loose
 *              /   \ (+3)     / |
 *            l4     l3 ------'  l1  l2
 * da: top, l1, l2, l3, l4 (votes stored, suspended)
 * db: l3, active, vote 3;  dc: l1, active, vote 1;  idle: nothing
 */
static void build(struct world *w)
{
	memset(w, 0, sizeof(*w));
	fake_init(&w->fake);
	struct dmn_config cfg = fake_config(&w->alloc);
	ok(dmn_ctx_create(&cfg, &w->ctx));
	struct dmn_ctx *ctx = w->ctx;
	struct fake *f = &w->fake;
	w->top = fake_domain(f, ctx, "top", &fake_ops_full, 0);
	w->ao = fake_domain(f, ctx, "ao", &fake_ops_full, DMN_FLAG_ALWAYS_ON);
	w->mid1 = fake_domain(f, ctx, "mid1", &fake_ops_full, 0);
	w->mid2 = fake_domain(f, ctx, "mid2", &fake_ops_power, 0);
	w->l1 = fake_domain(f, ctx, "l1", &fake_ops_full, 0);
	w->l2 = fake_domain(f, ctx, "l2", &fake_ops_power, 0);
	w->l3 = fake_domain(f, ctx, "l3", &fake_ops_full, 0);
	w->l4 = fake_domain(f, ctx, "l4", &fake_ops_full, 0);
	w->spare = fake_domain(f, ctx, "spare", &fake_ops_full, 0);
	w->loose = fake_domain(f, ctx, "loose", &fake_ops_full, 0);
	ok(dmn_domain_set_rounding(ctx, w->top, round_even, 0));
	ok(dmn_link_add(ctx, w->top, w->mid1));
	ok(dmn_link_add(ctx, w->ao, w->mid2));
	ok(dmn_link_add(ctx, w->top, w->mid2));
	ok(dmn_link_add(ctx, w->mid1, w->l1));
	ok(dmn_link_add(ctx, w->mid1, w->l2));
	ok(dmn_link_add(ctx, w->mid1, w->l3));
	ok(dmn_link_add(ctx, w->mid2, w->l3));
	ok(dmn_link_add(ctx, w->mid2, w->l4));
	ok(dmn_link_set_map(ctx, w->mid2, w->l3, map_plus3, 0));
	ok(dmn_device_create(ctx, "da", &w->da));
	ok(dmn_device_create(ctx, "db", &w->db));
	ok(dmn_device_create(ctx, "dc", &w->dc));
	ok(dmn_device_create(ctx, "idle", &w->idle));
	ok(dmn_attach(ctx, w->da, w->top, &w->a_top));
	ok(dmn_attach(ctx, w->da, w->l1, &w->a_l1));
	ok(dmn_attach(ctx, w->da, w->l2, &w->a_l2));
	ok(dmn_attach(ctx, w->da, w->l3, &w->a_l3));
	ok(dmn_attach(ctx, w->da, w->l4, &w->a_l4));
	ok(dmn_attach(ctx, w->db, w->l3, &w->b_l3));
	ok(dmn_attach(ctx, w->dc, w->l1, &w->c_l1));
	ok(dmn_vote(ctx, w->a_top, 11));
	ok(dmn_vote(ctx, w->a_l1, 13));
	ok(dmn_vote(ctx, w->a_l2, 17));
	ok(dmn_vote(ctx, w->a_l3, 19));
	ok(dmn_vote(ctx, w->a_l4, 23));
	ok(dmn_vote(ctx, w->b_l3, 3));
	ok(dmn_vote(ctx, w->c_l1, 1));
	ok(dmn_device_get(ctx, w->db));
	ok(dmn_device_get(ctx, w->dc));
	fake_clear_log(f);
}

typedef int (*op_fn)(struct world *w);

/* An active device voting @level on @dom: one more distinct level there.
 * Level histograms start with room for 4 levels and double, so filling one
 * to 4 makes the next new level allocate. */
static void voter(struct world *w, dmn_domain_t dom, uint32_t level)
{
	char name[32];
	snprintf(name, sizeof(name), "voter%u", w->n_voters++);
	dmn_device_t dev;
	dmn_attach_t att;
	ok(dmn_device_create(w->ctx, name, &dev));
	ok(dmn_attach(w->ctx, dev, dom, &att));
	ok(dmn_device_get(w->ctx, dev));
	ok(dmn_vote(w->ctx, att, level));
}

/* l3: {1, 2, 3, 4}: a vote of 5 needs a new bin. */
static void prep_l3_full(struct world *w)
{
	voter(w, w->l3, 1);
	voter(w, w->l3, 2);
	voter(w, w->l3, 4);
}

/* mid1: {1 (l1), 3 (l3), 7, 8}; l3 keeps a voter at 2 once db goes. */
static void prep_mid1_full(struct world *w)
{
	voter(w, w->l3, 2);
	voter(w, w->mid1, 7);
	voter(w, w->mid1, 8);
}

/* mid2 stays on for l4 at 1; top: {4 (mid1), 6 (mid2), 10, 12}. */
static void prep_top_full(struct world *w)
{
	voter(w, w->l4, 1);
	voter(w, w->top, 10);
	voter(w, w->top, 12);
}

/* A device that grew while active: its put is a bigger transaction than
 * any before, so the undo log must grow. */
static dmn_device_t big;
static void prep_big(struct world *w)
{
	ok(dmn_device_create(w->ctx, "big", &big));
	ok(dmn_device_get(w->ctx, big));
	const dmn_domain_t doms[] = {w->top, w->mid1, w->mid2, w->l1, w->l2,
				    w->l3, w->l4, w->spare, w->loose, w->ao};
	for (unsigned i = 0; i < sizeof(doms) / sizeof(doms[0]); i++) {
		dmn_attach_t att;
		ok(dmn_attach(w->ctx, big, doms[i], &att));
		ok(dmn_vote(w->ctx, att, 2 + 2 * i));
	}
}

static int op_domain_create(struct world *w)
{
	struct dmn_domain_desc d = {"new", &fake_ops_full, &w->fake.dom[0], 0};
	return dmn_domain_create(w->ctx, &d, &w->out_dom);
}
static int op_domain_create_ao(struct world *w)
{
	struct dmn_domain_desc d = {"new-ao", &fake_ops_power, &w->fake.dom[0],
				   DMN_FLAG_ALWAYS_ON};
	return dmn_domain_create(w->ctx, &d, &w->out_dom);
}
static int op_domain_remove(struct world *w)
{
	return dmn_domain_remove(w->ctx, w->loose);
}
static int op_set_rounding(struct world *w)
{
	return dmn_domain_set_rounding(w->ctx, w->spare, round_even, 0);
}
/* The first of these on a domain allocates its cold part
 * (docs/decisions/memory-layout.md). */
static int op_set_governor(struct world *w)
{
	return dmn_domain_set_governor(w->ctx, w->spare, DMN_GOVERNOR_ALWAYS_ON,
				      0, 0);
}
static int op_set_active_wakeup(struct world *w)
{
	return dmn_domain_set_active_wakeup(w->ctx, w->spare, 1);
}
static int op_add_idle_state(struct world *w)
{
	struct dmn_idle_state_desc s = {"ret", 100, 200, 1000, 0};
	return dmn_domain_add_idle_state(w->ctx, w->spare, &s, 0);
}
static int op_device_create(struct world *w)
{
	return dmn_device_create(w->ctx, "new-dev", &w->out_dev);
}
static int op_device_remove(struct world *w)
{
	return dmn_device_remove(w->ctx, w->idle);
}
static int op_attach_active(struct world *w)
{
	return dmn_attach(w->ctx, w->db, w->l4, &w->out_att);
}
static int op_attach_suspended(struct world *w)
{
	return dmn_attach(w->ctx, w->idle, w->l4, &w->out_att);
}
static int op_detach_active(struct world *w)
{
	return dmn_detach(w->ctx, w->b_l3);
}
static int op_detach_suspended(struct world *w)
{
	return dmn_detach(w->ctx, w->a_l2);
}
static int op_link_add_off(struct world *w)
{
	return dmn_link_add(w->ctx, w->spare, w->l4);
}
static int op_link_add_on(struct world *w)
{
	return dmn_link_add(w->ctx, w->spare, w->l3);
}
static int op_link_remove_on(struct world *w)
{
	return dmn_link_remove(w->ctx, w->mid2, w->l3);
}
static int op_link_set_map_on(struct world *w)
{
	return dmn_link_set_map(w->ctx, w->mid1, w->l3, map_plus3, 0);
}
static int op_link_set_floor_on(struct world *w)
{
	return dmn_link_set_floor(w->ctx, w->top, w->mid1, 7);
}
static int op_vote_new_level(struct world *w)
{
	return dmn_vote(w->ctx, w->b_l3, 5);
}
static int op_vote_lower(struct world *w)
{
	return dmn_vote(w->ctx, w->c_l1, 0);
}
static int op_vote_suspended(struct world *w)
{
	return dmn_vote(w->ctx, w->a_l3, 29);
}
static int op_vote_many(struct world *w)
{
	struct dmn_vote_change ch[3] = {{w->b_l3, 9}, {w->b_l3, 2}, {w->b_l3, 8}};
	return dmn_vote_many(w->ctx, ch, 3);
}
static int op_get(struct world *w)
{
	return dmn_device_get(w->ctx, w->da);
}
static int op_get_nested(struct world *w)
{
	return dmn_device_get(w->ctx, w->db);
}
static int op_put_nested(struct world *w)
{
	ok(dmn_device_get(w->ctx, w->db));
	return dmn_device_put(w->ctx, w->db);
}
static int op_put_last(struct world *w)
{
	return dmn_device_put(w->ctx, w->dc);
}
static int op_put_big(struct world *w)
{
	return dmn_device_put(w->ctx, big);
}
static int op_listen(struct world *w)
{
	static struct evrec rec;
	return dmn_listen(w->ctx, evrec_fn, &rec);
}

struct op_case {
	const char *name;
	op_fn fn;
	bool allocates; /* must hit at least one failure point */
	void (*prep)(struct world *w); /* after build(), before the snapshot */
};

static const struct op_case cases[] = {
	{"dmn_domain_create", op_domain_create, true, 0},
	{"dmn_domain_create(always-on)", op_domain_create_ao, true, 0},
	{"dmn_domain_remove", op_domain_remove, false, 0},
	{"dmn_domain_set_rounding", op_set_rounding, true, 0},
	{"dmn_domain_set_governor", op_set_governor, true, 0},
	{"dmn_domain_set_active_wakeup", op_set_active_wakeup, true, 0},
	{"dmn_domain_add_idle_state", op_add_idle_state, true, 0},
	{"dmn_device_create", op_device_create, true, 0},
	{"dmn_device_remove", op_device_remove, false, 0},
	{"dmn_attach(active)", op_attach_active, true, 0},
	{"dmn_attach(suspended)", op_attach_suspended, true, 0},
	{"dmn_detach(active)", op_detach_active, true, prep_mid1_full},
	{"dmn_detach(suspended)", op_detach_suspended, false, 0},
	{"dmn_link_add(child off)", op_link_add_off, true, 0},
	{"dmn_link_add(child on)", op_link_add_on, true, 0},
	{"dmn_link_remove(child on)", op_link_remove_on, true, prep_top_full},
	{"dmn_link_set_map(child on)", op_link_set_map_on, true,
	 prep_mid1_full},
	{"dmn_link_set_floor(child on)", op_link_set_floor_on, true,
	 prep_top_full},
	{"dmn_vote(new level)", op_vote_new_level, true, prep_l3_full},
	{"dmn_vote(lower)", op_vote_lower, false, 0},
	{"dmn_vote(suspended)", op_vote_suspended, false, 0},
	{"dmn_vote_many", op_vote_many, true, prep_l3_full},
	{"dmn_device_get", op_get, true, 0},
	{"dmn_device_get(nested)", op_get_nested, false, 0},
	{"dmn_device_put(nested)", op_put_nested, false, 0},
	{"dmn_device_put(last user)", op_put_last, false, 0},
	{"dmn_device_put(grown while active)", op_put_big, true, prep_big},
	{"dmn_listen", op_listen, false, 0},
};

static void run_case(void **state)
{
	const struct op_case *c = *state;
	static struct world w;
	static struct snapshot before, after, want;
	char why[256];

	/* The reference: the call with working allocations. */
	build(&w);
	if (c->prep)
		c->prep(&w);
	assert_int_equal(c->fn(&w), 0);
	snap_take(w.ctx, &w.fake, &want);
	dmn_ctx_destroy(w.ctx);
	assert_int_equal(w.alloc.live, 0);

	long failures = 0;
	for (long k = 1;; k++) {
		assert_true(k < 10000);
		build(&w);
		if (c->prep)
			c->prep(&w);
		snap_take(w.ctx, &w.fake, &before);
		fake_clear_log(&w.fake);
		fake_alloc_fail_at(&w.alloc, k);
		int err = c->fn(&w);
		fake_alloc_fail_at(&w.alloc, 0);
		bool hit = w.alloc.failed > 0;
		if (err == 0) {
			assert_false(hit && "the call ignored a failed allocation");
			snap_take(w.ctx, &w.fake, &after);
			if (snap_diff(&want, &after, why, sizeof(why)))
				fail_msg("%s: k=%ld: differs from the reference "
					 "run: %s",
					 c->name, k, why);
			dmn_ctx_destroy(w.ctx);
			assert_int_equal(w.alloc.live, 0);
			break;
		}
		if (err != -ENOMEM)
			fail_msg("%s: k=%ld: returned %d, not -ENOMEM", c->name,
				 k, err);
		failures++;
		snap_take(w.ctx, &w.fake, &after);
		if (snap_diff(&before, &after, why, sizeof(why)))
			fail_msg("%s: k=%ld: state changed: %s", c->name, k, why);
		if (w.fake.hw.n_log) {
			fake_log_print(&w.fake);
			fail_msg("%s: k=%ld: callbacks ran before -ENOMEM",
				 c->name, k);
		}
		/* The failed call left the context usable. */
		assert_int_equal(c->fn(&w), 0);
		snap_take(w.ctx, &w.fake, &after);
		if (snap_diff(&want, &after, why, sizeof(why)))
			fail_msg("%s: k=%ld: retry differs from the reference: %s",
				 c->name, k, why);
		dmn_ctx_destroy(w.ctx);
		if (w.alloc.live)
			fail_msg("%s: k=%ld: %ld blocks leaked", c->name, k,
				 w.alloc.live);
	}
	printf("%-30s %ld allocation failure points\n", c->name, failures);
	if (c->allocates)
		assert_true(failures > 0);
}

static void ctx_create(void **state)
{
	(void)state;
	struct fake_alloc a;
	for (long k = 1;; k++) {
		memset(&a, 0, sizeof(a));
		struct dmn_config cfg = fake_config(&a);
		struct dmn_ctx *ctx = 0;
		fake_alloc_fail_at(&a, k);
		int err = dmn_ctx_create(&cfg, &ctx);
		if (!err) {
			assert_non_null(ctx);
			dmn_ctx_destroy(ctx);
			assert_int_equal(a.live, 0);
			break;
		}
		assert_int_equal(err, -ENOMEM);
		assert_null(ctx);
		assert_int_equal(a.live, 0);
	}
}

int main(void)
{
	enum { N = sizeof(cases) / sizeof(cases[0]) };
	struct CMUnitTest tests[N + 1];
	memset(tests, 0, sizeof(tests));
	for (unsigned i = 0; i < N; i++) {
		tests[i].name = cases[i].name;
		tests[i].test_func = run_case;
		tests[i].initial_state = (void *)&cases[i];
	}
	tests[N].name = "dmn_ctx_create";
	tests[N].test_func = ctx_create;
	return cmocka_run_group_tests(tests, 0, 0);
}
