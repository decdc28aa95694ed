/* SPDX-License-Identifier: MIT */
/* OPP tables: sorting, duplicates, bad input, look-ups at the edges with
 * disabled and turbo entries, reference counts, get-pstate helper. */
#include "opp_test.h"

static uint64_t hz_of(struct world *w, dmn_opp_table_t t, uint32_t id)
{
	struct dmn_opp_info info;
	OK(dmn_opp_entry_info(w->ctx, t, id, &info));
	return info.n_hz ? info.hz[0] : 0;
}

static uint32_t level_of(struct world *w, dmn_opp_table_t t, uint32_t id)
{
	struct dmn_opp_info info;
	OK(dmn_opp_entry_info(w->ctx, t, id, &info));
	return info.level;
}

/* The desc points at its frequency: a ring of them, so the last few
 * descs made stay valid together. */
static struct dmn_opp_desc freq_desc(uint64_t hz, int has_level, uint32_t level)
{
	static uint64_t ring[8];
	static unsigned next;
	uint64_t *slot = &ring[next++ % 8];
	*slot = hz;
	struct dmn_opp_desc d;
	memset(&d, 0, sizeof(d));
	d.hz = slot;
	d.n_hz = 1;
	if (has_level) {
		d.flags = DMN_OPP_FLAG_HAS_LEVEL;
		d.level = level;
	}
	return d;
}

static void test_sorted_stable_ids(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w.ctx, "cpu", &t));
	uint32_t a = add_freq(&w, t, 800000000, 0, 0, NULL);
	uint32_t b = add_freq(&w, t, 200000000, 0, 0, NULL);
	uint32_t c = add_freq(&w, t, 1200000000, 0, 0, NULL);
	uint32_t d = add_freq(&w, t, 400000000, 0, 0, NULL);
	assert_int_equal(a, 0);
	assert_int_equal(b, 1);
	assert_int_equal(c, 2);
	assert_int_equal(d, 3);
	uint64_t want[] = {200000000, 400000000, 800000000, 1200000000};
	for (unsigned i = 0; i < 4; i++) {
		uint32_t id;
		OK(dmn_opp_table_entry(w.ctx, t, i, &id));
		assert_int_equal(hz_of(&w, t, id), want[i]);
	}
	uint32_t id;
	assert_int_equal(dmn_opp_table_entry(w.ctx, t, 4, &id), -ENOENT);
	/* Ids stay what they were. */
	assert_int_equal(hz_of(&w, t, a), 800000000);
	assert_int_equal(dmn_opp_entry_info(w.ctx, t, 9, &(struct dmn_opp_info){0}),
			 -ENOENT);
	unsigned total, usable;
	OK(dmn_opp_table_count(w.ctx, t, &total, &usable));
	assert_int_equal(total, 4);
	assert_int_equal(usable, 4);
	OK(dmn_opp_table_put(w.ctx, t));
	assert_int_equal(dmn_opp_table_count(w.ctx, t, &total, NULL), -EBADF);
	world_fini(&w);
}

static void test_duplicates(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w.ctx, "gpu", &t));
	struct dmn_opp_desc d = freq_desc(500, 1, 2);
	uint32_t lo, hi, id;
	OK(dmn_opp_add(w.ctx, t, &d, &hi));
	d = freq_desc(500, 1, 1); /* same frequency, another level: fine */
	OK(dmn_opp_add(w.ctx, t, &d, &lo));
	d = freq_desc(500, 1, 2);
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, &id), -EEXIST);
	d = freq_desc(500, 0, 0); /* no level: differs from level 0..n */
	OK(dmn_opp_add(w.ctx, t, &d, &id));
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, &id), -EEXIST);
	/* Sorted by frequency then level: none, 1, 2. */
	uint32_t first;
	OK(dmn_opp_table_entry(w.ctx, t, 0, &first));
	assert_int_equal(first, id);
	OK(dmn_opp_table_entry(w.ctx, t, 1, &first));
	assert_int_equal(first, lo);
	OK(dmn_opp_table_entry(w.ctx, t, 2, &first));
	assert_int_equal(first, hi);

	/* Multi-value opp-hz: a duplicate only when every value is equal. */
	dmn_opp_table_t u;
	OK(dmn_opp_table_create(w.ctx, "ufs", &u));
	struct dmn_opp_desc m;
	uint64_t mhz[3] = {100, 0, 300};
	memset(&m, 0, sizeof(m));
	m.n_hz = 3;
	m.hz = mhz;
	OK(dmn_opp_add(w.ctx, u, &m, NULL));
	mhz[2] = 200;
	OK(dmn_opp_add(w.ctx, u, &m, NULL));
	assert_int_equal(dmn_opp_add(w.ctx, u, &m, NULL), -EEXIST);
	OK(dmn_opp_table_entry(w.ctx, u, 0, &id));
	struct dmn_opp_info info;
	OK(dmn_opp_entry_info(w.ctx, u, id, &info));
	assert_int_equal(info.n_hz, 3);
	assert_int_equal(info.hz[2], 200);
	unsigned total;
	OK(dmn_opp_table_count(w.ctx, u, &total, NULL));
	assert_int_equal(total, 2);
	world_fini(&w);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t t, lv, nolv;
	OK(dmn_opp_table_create(w.ctx, "t", &t));
	OK(dmn_opp_table_create(w.ctx, "levels", &lv));
	OK(dmn_opp_table_create(w.ctx, "nolevels", &nolv));
	struct dmn_opp_desc d = freq_desc(0, 0, 0);
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EINVAL); /* zero hz */
	d.n_hz = 0;
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EINVAL); /* nothing */
	/* Counts without their lists. */
	d = freq_desc(100, 0, 0);
	d.n_supplies = 1;
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EINVAL);
	d = freq_desc(100, 0, 0);
	d.n_required = 1;
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EINVAL);
	d = freq_desc(100, 0, 0);
	d.hz = NULL;
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EINVAL);
	d = freq_desc(100, 0, 0);
	const struct dmn_opp_supply bad = {900000, 950000, 1000000, 0};
	d.n_supplies = 1;
	d.supplies = &bad;
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EINVAL); /* min > uV */
	assert_int_equal(dmn_opp_add(w.ctx, 0, &d, NULL), -EBADF);

	/* Level-only and frequency entries do not mix. */
	add_freq(&w, t, 100, 0, 0, NULL);
	struct dmn_opp_desc l;
	memset(&l, 0, sizeof(l));
	l.flags = DMN_OPP_FLAG_HAS_LEVEL;
	l.level = 3;
	assert_int_equal(dmn_opp_add(w.ctx, t, &l, NULL), -EINVAL);
	uint32_t l3 = add_level(&w, lv, 3, 0, NULL);
	d = freq_desc(200, 0, 0);
	assert_int_equal(dmn_opp_add(w.ctx, lv, &d, NULL), -EINVAL);

	/* Required OPPs: an entry without a level in a table with levels,
	 * bad ids, and references to itself. (An entry of a table without
	 * any level is a device-to-device requirement: test_opp_devreq.) */
	dmn_opp_table_t mixed;
	OK(dmn_opp_table_create(w.ctx, "mixed", &mixed));
	struct dmn_opp_desc ml = freq_desc(300, 1, 4);
	OK(dmn_opp_add(w.ctx, mixed, &ml, NULL));
	uint32_t f = add_freq(&w, mixed, 400, 0, 0, NULL);
	struct dmn_opp_required r = {mixed, f};
	d = freq_desc(400, 0, 0);
	d.required = &r;
	d.n_required = 1;
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EINVAL);
	r = (struct dmn_opp_required){lv, 77};
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EBADF);
	r = (struct dmn_opp_required){0, 0};
	assert_int_equal(dmn_opp_add(w.ctx, t, &d, NULL), -EBADF);
	l.level = 5;
	const struct dmn_opp_required self = {lv, l3};
	l.required = &self;
	l.n_required = 1;
	assert_int_equal(dmn_opp_add(w.ctx, lv, &l, NULL), -EINVAL);
	(void)nolv;

	unsigned total;
	OK(dmn_opp_table_count(w.ctx, t, &total, NULL));
	assert_int_equal(total, 1);
	OK(dmn_opp_table_count(w.ctx, lv, &total, NULL));
	assert_int_equal(total, 1);

	/* set_rate on a device with no table. */
	dmn_device_t dev;
	OK(dmn_device_create(w.ctx, "dev", &dev));
	assert_int_equal(dmn_opp_set_rate(w.ctx, dev, 100), -ENOENT);
	assert_int_equal(dmn_opp_device_current(w.ctx, dev, NULL, NULL), -ENOENT);
	world_fini(&w);
}

static void test_lookups(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w.ctx, "cpu", &t));
	uint32_t e100 = add_freq(&w, t, 100, 0, 0, NULL);
	uint32_t e200 = add_freq(&w, t, 200, 0, 0, NULL);
	uint32_t e300 = add_freq(&w, t, 300, 0, 0, NULL);
	struct dmn_opp_desc td = freq_desc(400, 0, 0);
	td.flags = DMN_OPP_FLAG_TURBO;
	uint32_t e400;
	OK(dmn_opp_add(w.ctx, t, &td, &e400));
	uint32_t id;

	/* Edges. */
	OK(dmn_opp_find_freq_ceil(w.ctx, t, 0, &id));
	assert_int_equal(id, e100);
	OK(dmn_opp_find_freq_ceil(w.ctx, t, 100, &id));
	assert_int_equal(id, e100);
	OK(dmn_opp_find_freq_ceil(w.ctx, t, 101, &id));
	assert_int_equal(id, e200);
	assert_int_equal(dmn_opp_find_freq_ceil(w.ctx, t, 301, &id), -ERANGE);
	assert_int_equal(dmn_opp_find_freq_floor(w.ctx, t, 99, &id), -ERANGE);
	OK(dmn_opp_find_freq_floor(w.ctx, t, 100, &id));
	assert_int_equal(id, e100);
	OK(dmn_opp_find_freq_floor(w.ctx, t, UINT64_MAX, &id));
	assert_int_equal(id, e300); /* turbo skipped */
	OK(dmn_opp_find_freq_exact(w.ctx, t, 200, &id));
	assert_int_equal(id, e200);
	assert_int_equal(dmn_opp_find_freq_exact(w.ctx, t, 250, &id), -ERANGE);
	assert_int_equal(dmn_opp_find_freq_exact(w.ctx, t, 400, &id), -ERANGE);
	OK(dmn_opp_first(w.ctx, t, &id));
	assert_int_equal(id, e100);
	OK(dmn_opp_last(w.ctx, t, &id));
	assert_int_equal(id, e300);
	unsigned usable;
	OK(dmn_opp_table_count(w.ctx, t, NULL, &usable));
	assert_int_equal(usable, 3);

	/* Boost makes the turbo entry usable. */
	OK(dmn_opp_table_set_boost(w.ctx, t, true));
	OK(dmn_opp_find_freq_ceil(w.ctx, t, 301, &id));
	assert_int_equal(id, e400);
	OK(dmn_opp_last(w.ctx, t, &id));
	assert_int_equal(id, e400);
	OK(dmn_opp_table_set_boost(w.ctx, t, false));

	/* Disabled entries are stepped over, both ways. */
	OK(dmn_opp_set_available(w.ctx, t, e100, false));
	OK(dmn_opp_set_available(w.ctx, t, e200, false));
	OK(dmn_opp_find_freq_ceil(w.ctx, t, 50, &id));
	assert_int_equal(id, e300);
	assert_int_equal(dmn_opp_find_freq_floor(w.ctx, t, 250, &id), -ERANGE);
	assert_int_equal(dmn_opp_find_freq_exact(w.ctx, t, 200, &id), -ERANGE);
	OK(dmn_opp_first(w.ctx, t, &id));
	assert_int_equal(id, e300);
	struct dmn_opp_info info;
	OK(dmn_opp_entry_info(w.ctx, t, e100, &info));
	assert_int_equal(info.available, 0);
	OK(dmn_opp_set_available(w.ctx, t, e300, false));
	assert_int_equal(dmn_opp_first(w.ctx, t, &id), -ENOENT);
	assert_int_equal(dmn_opp_last(w.ctx, t, &id), -ENOENT);
	OK(dmn_opp_set_available(w.ctx, t, e200, true));
	OK(dmn_opp_find_freq_floor(w.ctx, t, 1000, &id));
	assert_int_equal(id, e200);
	assert_int_equal(dmn_opp_find_freq_ceil(w.ctx, 0, 1, &id), -EBADF);
	assert_int_equal(dmn_opp_set_available(w.ctx, t, 99, false), -ENOENT);
	/* A frequency table has no levels to find. */
	assert_int_equal(dmn_opp_find_level_ceil(w.ctx, t, 0, &id), -ERANGE);
	assert_int_equal(dmn_opp_suspend(w.ctx, t, &id), -ENOENT);
	world_fini(&w);
}

static void test_equal_frequency_levels(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w.ctx, "gpu", &t));
	struct dmn_opp_desc d = freq_desc(500, 1, 7);
	uint32_t l7, l3, l5, f9;
	OK(dmn_opp_add(w.ctx, t, &d, &l7));
	d = freq_desc(500, 1, 3);
	OK(dmn_opp_add(w.ctx, t, &d, &l3));
	d = freq_desc(500, 1, 5);
	d.flags |= DMN_OPP_FLAG_SUSPEND;
	OK(dmn_opp_add(w.ctx, t, &d, &l5));
	d = freq_desc(900, 1, 1);
	OK(dmn_opp_add(w.ctx, t, &d, &f9));
	uint32_t id;
	OK(dmn_opp_find_freq_ceil(w.ctx, t, 500, &id));
	assert_int_equal(id, l3); /* lowest level */
	OK(dmn_opp_find_freq_exact(w.ctx, t, 500, &id));
	assert_int_equal(id, l3);
	OK(dmn_opp_find_freq_floor(w.ctx, t, 600, &id));
	assert_int_equal(id, l7); /* highest level */
	OK(dmn_opp_set_available(w.ctx, t, l3, false));
	OK(dmn_opp_find_freq_exact(w.ctx, t, 500, &id));
	assert_int_equal(id, l5);
	OK(dmn_opp_suspend(w.ctx, t, &id));
	assert_int_equal(id, l5);
	/* Levels in a frequency table: a scan. */
	OK(dmn_opp_find_level_ceil(w.ctx, t, 2, &id));
	assert_int_equal(id, l5); /* 3 is disabled */
	OK(dmn_opp_find_level_floor(w.ctx, t, 4, &id));
	assert_int_equal(id, f9);
	OK(dmn_opp_find_level_exact(w.ctx, t, 7, &id));
	assert_int_equal(id, l7);
	assert_int_equal(dmn_opp_find_level_ceil(w.ctx, t, 8, &id), -ERANGE);
	world_fini(&w);
}

static void test_level_table(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w.ctx, "rpmhpd", &t));
	uint32_t ids[5];
	uint32_t levels[5] = {256, 16, 384, 64, 128};
	for (unsigned i = 0; i < 5; i++)
		ids[i] = add_level(&w, t, levels[i], 0, NULL);
	assert_int_equal(dmn_opp_add(w.ctx, t,
				 &(struct dmn_opp_desc){
				     .level = 64, .flags = DMN_OPP_FLAG_HAS_LEVEL},
				 NULL),
			 -EEXIST);
	uint32_t id;
	OK(dmn_opp_table_entry(w.ctx, t, 0, &id));
	assert_int_equal(level_of(&w, t, id), 16);
	OK(dmn_opp_find_level_ceil(w.ctx, t, 65, &id));
	assert_int_equal(id, ids[4]);
	OK(dmn_opp_find_level_floor(w.ctx, t, 65, &id));
	assert_int_equal(id, ids[3]);
	OK(dmn_opp_find_level_exact(w.ctx, t, 384, &id));
	assert_int_equal(id, ids[2]);
	assert_int_equal(dmn_opp_find_level_ceil(w.ctx, t, 385, &id), -ERANGE);
	assert_int_equal(dmn_opp_find_level_floor(w.ctx, t, 15, &id), -ERANGE);
	OK(dmn_opp_set_available(w.ctx, t, ids[4], false));
	OK(dmn_opp_find_level_ceil(w.ctx, t, 65, &id));
	assert_int_equal(id, ids[0]);
	OK(dmn_opp_find_level_floor(w.ctx, t, 255, &id));
	assert_int_equal(id, ids[3]);
	assert_int_equal(dmn_opp_find_freq_ceil(w.ctx, t, 1, &id), -ERANGE);
	world_fini(&w);
}

static void test_refcounts(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t rail, dev_t;
	OK(dmn_opp_table_create(w.ctx, "rail", &rail));
	uint32_t low = add_level(&w, rail, 1, 0, NULL);
	OK(dmn_opp_table_create(w.ctx, "dev", &dev_t));
	struct dmn_opp_required r = {rail, low};
	add_freq(&w, dev_t, 100, 0, 1, &r);
	add_freq(&w, dev_t, 200, 0, 1, &r); /* one reference for both */
	long before = w.alloc.live;
	/* The device table keeps the rail table alive. */
	OK(dmn_opp_table_put(w.ctx, rail));
	uint32_t id;
	OK(dmn_opp_first(w.ctx, rail, &id));
	OK(dmn_opp_table_get(w.ctx, dev_t));
	OK(dmn_opp_table_put(w.ctx, dev_t));
	OK(dmn_opp_first(w.ctx, dev_t, &id));
	/* A bound device holds one more. */
	dmn_device_t dev;
	OK(dmn_device_create(w.ctx, "d", &dev));
	OK(dmn_opp_device_bind(w.ctx, dev, dev_t));
	assert_int_equal(dmn_opp_device_bind(w.ctx, dev, dev_t), -EEXIST);
	assert_int_equal(dmn_device_remove(w.ctx, dev), -EBUSY);
	OK(dmn_opp_table_put(w.ctx, dev_t));
	OK(dmn_opp_first(w.ctx, dev_t, &id));
	OK(dmn_opp_device_unbind(w.ctx, dev));
	assert_int_equal(dmn_opp_device_unbind(w.ctx, dev), -ENOENT);
	/* Last reference: both tables go. */
	assert_int_equal(dmn_opp_first(w.ctx, dev_t, &id), -EBADF);
	assert_int_equal(dmn_opp_first(w.ctx, rail, &id), -EBADF);
	assert_int_equal(dmn_opp_table_put(w.ctx, rail), -EBADF);
	assert_int_equal(dmn_opp_table_get(w.ctx, rail), -EBADF);
	assert_true(w.alloc.live < before);
	OK(dmn_device_remove(w.ctx, dev));
	world_fini(&w);
}

struct helper_state {
	unsigned calls;
	int fail;
};

static int get_pstate(void *user, dmn_opp_table_t table, uint64_t rate,
		      uint32_t *pstate)
{
	(void)table;
	struct helper_state *h = user;
	h->calls++;
	if (h->fail)
		return h->fail;
	*pstate = (uint32_t)(rate / 100);
	return 0;
}

static int other_helper(void *user, dmn_opp_table_t table, uint64_t rate,
			uint32_t *pstate)
{
	(void)user;
	(void)table;
	(void)rate;
	*pstate = 1;
	return 0;
}

static void test_helper(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	struct helper_state h = {0, 0};
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w.ctx, "cpu", &t));
	OK(dmn_opp_register_get_pstate(w.ctx, t, get_pstate, &h));
	OK(dmn_opp_register_get_pstate(w.ctx, t, get_pstate, &h)); /* counted */
	assert_int_equal(dmn_opp_register_get_pstate(w.ctx, t, other_helper, NULL),
			 -EBUSY);
	uint32_t a = add_freq(&w, t, 300, 0, 0, NULL);
	add_freq(&w, t, 500, 0, 0, NULL);
	assert_int_equal(h.calls, 2);
	struct dmn_opp_info info;
	OK(dmn_opp_entry_info(w.ctx, t, a, &info));
	assert_int_equal(info.pstate, 3);
	/* A helper error adds nothing. */
	h.fail = -EIO;
	assert_int_equal(
	    dmn_opp_add(w.ctx, t,
		    &(struct dmn_opp_desc){.hz = (const uint64_t[]){700}, .n_hz = 1},
		    NULL),
	    -EIO);
	unsigned total;
	OK(dmn_opp_table_count(w.ctx, t, &total, NULL));
	assert_int_equal(total, 2);
	h.fail = 0;

	/* The device votes the helper's pstate on its single domain. */
	dmn_domain_t dom = mk_domain(&w, "cpu-pd", 1);
	dmn_device_t dev;
	dmn_attach_t att;
	OK(dmn_device_create(w.ctx, "cpu0", &dev));
	OK(dmn_attach(w.ctx, dev, dom, &att));
	OK(dmn_opp_device_bind(w.ctx, dev, t));
	OK(dmn_device_get(w.ctx, dev));
	OK(dmn_opp_set_rate(w.ctx, dev, 400));
	assert_int_equal(dom_pstate(&w, dom), 5);
	uint32_t levels[2];
	assert_int_equal(dmn_opp_device_votes(w.ctx, dev, a, levels, 2), 1);
	assert_int_equal(levels[0], 3);
	OK(dmn_device_put(w.ctx, dev));
	OK(dmn_opp_device_unbind(w.ctx, dev));

	/* Registration holds references: the table outlives the creator's. */
	OK(dmn_opp_table_put(w.ctx, t));
	OK(dmn_opp_table_count(w.ctx, t, &total, NULL));
	OK(dmn_opp_unregister_get_pstate(w.ctx, t));
	OK(dmn_opp_table_count(w.ctx, t, &total, NULL));
	OK(dmn_opp_unregister_get_pstate(w.ctx, t)); /* last: table freed */
	assert_int_equal(dmn_opp_unregister_get_pstate(w.ctx, t), -EBADF);

	/* Registering after entries exist is refused; unregistering what
	 * was never registered too. */
	dmn_opp_table_t u;
	OK(dmn_opp_table_create(w.ctx, "gpu", &u));
	assert_int_equal(dmn_opp_unregister_get_pstate(w.ctx, u), -ENOENT);
	add_freq(&w, u, 100, 0, 0, NULL);
	assert_int_equal(dmn_opp_register_get_pstate(w.ctx, u, get_pstate, &h),
			 -EBUSY);
	OK(dmn_opp_table_put(w.ctx, u));
	world_fini(&w);
}

static void test_helper_no_leak(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	long base = w.alloc.live;
	struct helper_state h = {0, 0};
	dmn_opp_table_t t;
	OK(dmn_opp_table_create(w.ctx, "cpu", &t));
	for (int i = 0; i < 3; i++)
		OK(dmn_opp_register_get_pstate(w.ctx, t, get_pstate, &h));
	add_freq(&w, t, 100, 0, 0, NULL);
	OK(dmn_opp_table_put(w.ctx, t));
	for (int i = 0; i < 3; i++)
		OK(dmn_opp_unregister_get_pstate(w.ctx, t));
	/* Only the layer's per-context state remains. */
	dmn_opp_table_t u;
	OK(dmn_opp_table_create(w.ctx, "again", &u));
	OK(dmn_opp_table_put(w.ctx, u));
	/* opp ctx, handle slots, the matching rule's 4 scratch arrays */
	assert_true(w.alloc.live <= base + 6);
	long after = w.alloc.live;
	OK(dmn_opp_table_create(w.ctx, "again", &u));
	OK(dmn_opp_register_get_pstate(w.ctx, u, get_pstate, &h));
	add_freq(&w, u, 100, 0, 0, NULL);
	OK(dmn_opp_unregister_get_pstate(w.ctx, u));
	OK(dmn_opp_table_put(w.ctx, u));
	assert_int_equal(w.alloc.live, after);
	world_fini(&w);
}

/* An entry stores its counts in 8 bits and its flags in 16
 * (docs/decisions/memory-layout.md): one more is refused with -EOVERFLOW and
 * adds nothing; the
 * largest ones, a name, power and several lists of every kind read back
 * as given. */
static void test_entry_limits(void **state)
{
	(void)state;
	struct world w;
	world_init(&w);
	dmn_opp_table_t lv, t;
	OK(dmn_opp_table_create(w.ctx, "rail", &lv));
	uint32_t l1 = add_level(&w, lv, 16, 0, NULL);
	uint32_t l2 = add_level(&w, lv, 48, 0, NULL);
	OK(dmn_opp_table_create(w.ctx, "dev", &t));
	static uint64_t hz[256];
	static struct dmn_opp_supply sup[256];
	static struct dmn_opp_required req[256];
	for (unsigned i = 0; i < 256; i++) {
		hz[i] = 1000000ull * (i + 1);
		sup[i] = (struct dmn_opp_supply){600000 + i, 0, 0, i};
		req[i] = (struct dmn_opp_required){lv, i % 2 ? l2 : l1};
	}
	struct dmn_opp_desc d;
	memset(&d, 0, sizeof(d));
	d.name = "opp-1000000";
	d.hz = hz;
	d.supplies = sup;
	d.required = req;
	d.microwatt = 1234;
	d.n_hz = d.n_supplies = d.n_required = 256;
	uint32_t id = 7;
	for (int k = 0; k < 4; k++) {
		d.n_hz = k == 0 ? 256 : 255;
		d.n_supplies = k == 1 ? 256 : 255;
		d.n_required = k == 2 ? 256 : 255;
		d.flags = k == 3 ? 1u << 16 : 0;
		assert_int_equal(dmn_opp_add(w.ctx, t, &d, &id), -EOVERFLOW);
		assert_int_equal(id, 7);
	}
	unsigned total = 9;
	OK(dmn_opp_table_count(w.ctx, t, &total, NULL));
	assert_int_equal(total, 0);
	d.flags = 1u << 15; /* unknown to the library, kept as given */
	OK(dmn_opp_add(w.ctx, t, &d, &id));
	struct dmn_opp_info info;
	OK(dmn_opp_entry_info(w.ctx, t, id, &info));
	assert_string_equal(info.name, "opp-1000000");
	assert_int_equal(info.n_hz, 255);
	assert_int_equal(info.n_supplies, 255);
	assert_int_equal(info.n_required, 255);
	assert_int_equal(info.microwatt, 1234);
	assert_int_equal(info.flags, 1u << 15);
	assert_true(info.available);
	for (unsigned i = 0; i < 255; i++) {
		assert_int_equal(info.hz[i], hz[i]);
		assert_int_equal(info.supplies[i].microvolt, 600000 + i);
		/* A single cell: the window is the target. */
		assert_int_equal(info.supplies[i].microvolt_min, 600000 + i);
		assert_int_equal(info.supplies[i].microvolt_max, 600000 + i);
		assert_int_equal(info.supplies[i].microamp, i);
		assert_int_equal(info.required[i].id, i % 2 ? l2 : l1);
	}
	/* Without a name or power the entry stores neither. */
	d.name = NULL;
	d.microwatt = 0;
	d.hz = hz + 1;
	d.n_hz = d.n_supplies = 1;
	d.n_required = 0;
	d.flags = 0;
	OK(dmn_opp_add(w.ctx, t, &d, &id));
	OK(dmn_opp_entry_info(w.ctx, t, id, &info));
	assert_null(info.name);
	assert_int_equal(info.microwatt, 0);
	assert_int_equal(info.hz[0], hz[1]);
	world_fini(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sorted_stable_ids),
	    cmocka_unit_test(test_duplicates),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_lookups),
	    cmocka_unit_test(test_equal_frequency_levels),
	    cmocka_unit_test(test_level_table),
	    cmocka_unit_test(test_refcounts),
	    cmocka_unit_test(test_helper),
	    cmocka_unit_test(test_helper_no_leak),
	    cmocka_unit_test(test_entry_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
