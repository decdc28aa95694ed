/* SPDX-License-Identifier: MIT */
/*
 * Every error code of domain.h, each checked to change nothing: the full
 * introspection snapshot (and what the fake hardware holds) is the same
 * after the failing call, and no callback ran.
 */
#include "test_core_common.h"

#include <domino/explain.h>
#include <domino/lifecycle.h>

static int round_248(void *user, dmn_domain_t dom, uint32_t level,
		     uint32_t *rounded)
{
	(void)user;
	(void)dom;
	static const uint32_t levels[] = {2, 4, 8};
	for (unsigned i = 0; i < 3; i++) {
		if (level <= levels[i]) {
			*rounded = levels[i];
			return 0;
		}
	}
	return -ERANGE;
}

static int map_double(void *user, dmn_domain_t child, dmn_domain_t parent,
		      uint32_t level, uint32_t *out)
{
	(void)user;
	(void)child;
	(void)parent;
	*out = level * 2;
	return 0;
}

static void einval(void **state)
{
	T;
	struct dmn_ctx *none = 0;
	assert_int_equal(dmn_ctx_create(0, 0), -EINVAL);
	struct fake_alloc a;
	memset(&a, 0, sizeof(a));
	struct dmn_config half = fake_config(&a);
	half.alloc.free = 0;
	assert_int_equal(dmn_ctx_create(&half, &none), -EINVAL);
	assert_null(none);

	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, att, 3), 0);

	SNAP();
	CLEAR();
	dmn_domain_t h;
	dmn_device_t dh;
	dmn_attach_t ah;
	uint32_t req;
	int on;
	struct dmn_domain_desc desc = {"x", 0, 0, 0};
	struct dmn_domain_desc noname = {0, 0, 0, 0};
	struct dmn_domain_info di;
	struct dmn_device_info vi;
	struct dmn_attach_info ai;
	struct dmn_vote_change ch[65];
	for (unsigned i = 0; i < 65; i++) {
		ch[i].att = att;
		ch[i].level = 1;
	}
	assert_int_equal(dmn_domain_create(0, &desc, &h), -EINVAL);
	assert_int_equal(dmn_domain_create(ctx, 0, &h), -EINVAL);
	assert_int_equal(dmn_domain_create(ctx, &desc, 0), -EINVAL);
	assert_int_equal(dmn_domain_create(ctx, &noname, &h), -EINVAL);
	assert_int_equal(dmn_domain_remove(0, p), -EINVAL);
	assert_int_equal(dmn_domain_set_rounding(0, p, round_248, 0), -EINVAL);
	assert_int_equal(dmn_domain_find(0, "p", &h), -EINVAL);
	assert_int_equal(dmn_domain_find(ctx, 0, &h), -EINVAL);
	assert_int_equal(dmn_domain_find(ctx, "p", 0), -EINVAL);
	assert_int_equal(dmn_link_add(0, p, c), -EINVAL);
	assert_int_equal(dmn_link_remove(0, p, c), -EINVAL);
	assert_int_equal(dmn_link_set_map(0, p, c, map_double, 0), -EINVAL);
	assert_int_equal(dmn_link_set_floor(0, p, c, 1), -EINVAL);
	assert_int_equal(dmn_device_create(0, "d", &dh), -EINVAL);
	assert_int_equal(dmn_device_create(ctx, 0, &dh), -EINVAL);
	assert_int_equal(dmn_device_create(ctx, "d", 0), -EINVAL);
	assert_int_equal(dmn_device_remove(0, dev), -EINVAL);
	assert_int_equal(dmn_device_find(0, "dev", &dh), -EINVAL);
	assert_int_equal(dmn_device_find(ctx, 0, &dh), -EINVAL);
	assert_int_equal(dmn_device_find(ctx, "dev", 0), -EINVAL);
	assert_int_equal(dmn_attach(0, dev, p, &ah), -EINVAL);
	assert_int_equal(dmn_attach(ctx, dev, p, 0), -EINVAL);
	assert_int_equal(dmn_detach(0, att), -EINVAL);
	assert_int_equal(dmn_device_get(0, dev), -EINVAL);
	assert_int_equal(dmn_device_put(0, dev), -EINVAL);
	assert_int_equal(dmn_vote(0, att, 1), -EINVAL);
	assert_int_equal(dmn_vote_many(0, ch, 1), -EINVAL);
	assert_int_equal(dmn_vote_many(ctx, 0, 1), -EINVAL);
	assert_int_equal(dmn_vote_many(ctx, ch, 0), -EINVAL);
	assert_int_equal(dmn_domain_info(0, p, &di), -EINVAL);
	assert_int_equal(dmn_domain_info(ctx, p, 0), -EINVAL);
	assert_int_equal(dmn_domain_next(0, 0, &h), -EINVAL);
	assert_int_equal(dmn_domain_next(ctx, 0, 0), -EINVAL);
	assert_int_equal(dmn_domain_parent(0, c, 0, &h), -EINVAL);
	assert_int_equal(dmn_domain_parent(ctx, c, 0, 0), -EINVAL);
	assert_int_equal(dmn_domain_child(0, p, 0, &h), -EINVAL);
	assert_int_equal(dmn_domain_child(ctx, p, 0, 0), -EINVAL);
	assert_int_equal(dmn_link_info(0, p, c, &req, &on), -EINVAL);
	assert_int_equal(dmn_link_info(ctx, p, c, 0, &on), -EINVAL);
	assert_int_equal(dmn_link_info(ctx, p, c, &req, 0), -EINVAL);
	assert_int_equal(dmn_domain_next_attachment(0, c, 0, &ah), -EINVAL);
	assert_int_equal(dmn_domain_next_attachment(ctx, c, 0, 0), -EINVAL);
	assert_int_equal(dmn_device_info(0, dev, &vi), -EINVAL);
	assert_int_equal(dmn_device_info(ctx, dev, 0), -EINVAL);
	assert_int_equal(dmn_device_next(0, 0, &dh), -EINVAL);
	assert_int_equal(dmn_device_next(ctx, 0, 0), -EINVAL);
	assert_int_equal(dmn_device_attachment(0, dev, 0, &ah), -EINVAL);
	assert_int_equal(dmn_device_attachment(ctx, dev, 0, 0), -EINVAL);
	assert_int_equal(dmn_attach_info(0, att, &ai), -EINVAL);
	assert_int_equal(dmn_attach_info(ctx, att, 0), -EINVAL);
	assert_int_equal(dmn_attach_find(0, dev, c, &ah), -EINVAL);
	assert_int_equal(dmn_attach_find(ctx, dev, c, 0), -EINVAL);
	assert_int_equal(dmn_listen(0, evrec_fn, 0), -EINVAL);
	assert_int_equal(dmn_listen(ctx, 0, 0), -EINVAL);
	assert_int_equal(dmn_unlisten(ctx, 0, 0), -EINVAL);
	assert_int_equal(dmn_last_error(0), -EINVAL);
	UNCHANGED();
	NO_CALLS();
}

static void ebadf(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t gone = fake_domain(&t->fake, ctx, "gone", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_device_t dev_gone = mkdev(ctx, "dev-gone");
	dmn_attach_t att = mkatt(ctx, dev, c);
	dmn_attach_t att_gone = mkatt(ctx, dev, p);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, att, 3), 0);
	assert_int_equal(dmn_domain_remove(ctx, gone), 0);
	assert_int_equal(dmn_device_remove(ctx, dev_gone), 0);
	assert_int_equal(dmn_detach(ctx, att_gone), 0);

	dmn_domain_t h;
	dmn_device_t dh;
	dmn_attach_t ah;
	uint32_t req;
	int on;
	struct dmn_domain_info di;
	struct dmn_device_info vi;
	struct dmn_attach_info ai;
	SNAP();
	CLEAR();
	/* A removed domain, handle 0, garbage, and handles of other kinds. */
	const dmn_domain_t bad_dom[] = {gone, 0, 0xdeadbeefu, dev, att};
	for (unsigned i = 0; i < sizeof(bad_dom) / sizeof(bad_dom[0]); i++) {
		dmn_domain_t b = bad_dom[i];
		assert_int_equal(dmn_domain_info(ctx, b, &di), -EBADF);
		assert_int_equal(dmn_domain_remove(ctx, b), -EBADF);
		assert_int_equal(dmn_domain_set_rounding(ctx, b, round_248, 0),
				 -EBADF);
		assert_int_equal(dmn_link_add(ctx, b, c), -EBADF);
		assert_int_equal(dmn_link_add(ctx, p, b), -EBADF);
		assert_int_equal(dmn_link_remove(ctx, b, c), -EBADF);
		assert_int_equal(dmn_link_remove(ctx, p, b), -EBADF);
		assert_int_equal(dmn_link_set_map(ctx, b, c, map_double, 0),
				 -EBADF);
		assert_int_equal(dmn_link_set_floor(ctx, p, b, 1), -EBADF);
		assert_int_equal(dmn_link_info(ctx, b, c, &req, &on), -EBADF);
		assert_int_equal(dmn_attach(ctx, dev, b, &ah), -EBADF);
		assert_int_equal(dmn_attach_find(ctx, dev, b, &ah), -EBADF);
		assert_int_equal(dmn_domain_parent(ctx, b, 0, &h), -EBADF);
		assert_int_equal(dmn_domain_child(ctx, b, 0, &h), -EBADF);
		assert_int_equal(dmn_domain_next_attachment(ctx, b, 0, &ah),
				 -EBADF);
		if (b)
			assert_int_equal(dmn_domain_next(ctx, b, &h), -EBADF);
	}
	const dmn_device_t bad_dev[] = {dev_gone, 0, 0xdeadbeefu, p, att};
	for (unsigned i = 0; i < sizeof(bad_dev) / sizeof(bad_dev[0]); i++) {
		dmn_device_t b = bad_dev[i];
		assert_int_equal(dmn_device_info(ctx, b, &vi), -EBADF);
		assert_int_equal(dmn_device_remove(ctx, b), -EBADF);
		assert_int_equal(dmn_device_get(ctx, b), -EBADF);
		assert_int_equal(dmn_device_put(ctx, b), -EBADF);
		assert_int_equal(dmn_attach(ctx, b, p, &ah), -EBADF);
		assert_int_equal(dmn_attach_find(ctx, b, c, &ah), -EBADF);
		assert_int_equal(dmn_device_attachment(ctx, b, 0, &ah), -EBADF);
		if (b)
			assert_int_equal(dmn_device_next(ctx, b, &dh), -EBADF);
	}
	const dmn_attach_t bad_att[] = {att_gone, 0, 0xdeadbeefu, p, dev};
	for (unsigned i = 0; i < sizeof(bad_att) / sizeof(bad_att[0]); i++) {
		dmn_attach_t b = bad_att[i];
		struct dmn_vote_change two[2] = {{att, 4}, {b, 4}};
		assert_int_equal(dmn_attach_info(ctx, b, &ai), -EBADF);
		assert_int_equal(dmn_detach(ctx, b), -EBADF);
		assert_int_equal(dmn_vote(ctx, b, 5), -EBADF);
		assert_int_equal(dmn_vote_many(ctx, two, 2), -EBADF);
		if (b)
			assert_int_equal(
				dmn_domain_next_attachment(ctx, c, b, &ah), -EBADF);
	}
	/* An attachment of another domain is a bad "prev" for this one. */
	assert_int_equal(dmn_domain_next_attachment(ctx, p, att, &ah), -EBADF);
	UNCHANGED();
	NO_CALLS();

	/* A reused slot does not revive the old handle. */
	dmn_domain_t again = fake_domain(&t->fake, ctx, "again", &fake_ops_full, 0);
	assert_int_not_equal(again, gone);
	assert_int_equal(dmn_domain_info(ctx, gone, &di), -EBADF);
	dmn_device_t dev_again = mkdev(ctx, "dev-again");
	assert_int_not_equal(dev_again, dev_gone);
	assert_int_equal(dmn_device_get(ctx, dev_gone), -EBADF);
	dmn_attach_t att_again = mkatt(ctx, dev_again, p);
	assert_int_not_equal(att_again, att_gone);
	assert_int_equal(dmn_vote(ctx, att_gone, 1), -EBADF);
}

static void ebusy(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t lone = fake_domain(&t->fake, ctx, "lone", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_device_t bare = mkdev(ctx, "bare");
	dmn_attach_t a_lone = mkatt(ctx, dev, lone);
	dmn_attach_t a_c = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_device_get(ctx, bare), 0);
	assert_int_equal(dmn_vote(ctx, a_c, 2), 0);

	EXPECT_NOOP_ERR(dmn_domain_remove(ctx, p), -EBUSY);    /* children */
	EXPECT_NOOP_ERR(dmn_domain_remove(ctx, c), -EBUSY);    /* parents+att */
	EXPECT_NOOP_ERR(dmn_domain_remove(ctx, lone), -EBUSY); /* attachment */
	EXPECT_NOOP_ERR(dmn_device_remove(ctx, dev), -EBUSY);  /* attached */
	EXPECT_NOOP_ERR(dmn_device_remove(ctx, bare), -EBUSY); /* active */
	/* Rounding may only change while nothing counts a level. */
	EXPECT_NOOP_ERR(dmn_domain_set_rounding(ctx, c, round_248, 0), -EBUSY);
	EXPECT_NOOP_ERR(dmn_domain_set_rounding(ctx, p, round_248, 0), -EBUSY);

	/* Once unused, everything can go. */
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(dmn_device_put(ctx, bare), 0);
	assert_int_equal(dmn_device_remove(ctx, bare), 0);
	assert_int_equal(dmn_domain_set_rounding(ctx, c, round_248, 0), 0);
	assert_int_equal(dmn_detach(ctx, a_lone), 0);
	assert_int_equal(dmn_domain_remove(ctx, lone), 0);
	EXPECT_NOOP_ERR(dmn_domain_remove(ctx, c), -EBUSY);
	assert_int_equal(dmn_detach(ctx, a_c), 0);
	EXPECT_NOOP_ERR(dmn_domain_remove(ctx, c), -EBUSY); /* still a parent */
	assert_int_equal(dmn_device_remove(ctx, dev), 0);
	assert_int_equal(dmn_link_remove(ctx, p, c), 0);
	assert_int_equal(dmn_domain_remove(ctx, c), 0);
	assert_int_equal(dmn_domain_remove(ctx, p), 0);
	dmn_domain_t h;
	assert_int_equal(dmn_domain_next(ctx, 0, &h), -ENOENT);
}

static void eloop(void **state)
{
	T;
	/* a > b > c > d chain, plus a diamond a > e > d. */
	dmn_domain_t a = fake_domain(&t->fake, ctx, "a", &fake_ops_full, 0);
	dmn_domain_t b = fake_domain(&t->fake, ctx, "b", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t d = fake_domain(&t->fake, ctx, "d", &fake_ops_full, 0);
	dmn_domain_t e = fake_domain(&t->fake, ctx, "e", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, a, b), 0);
	assert_int_equal(dmn_link_add(ctx, b, c), 0);
	assert_int_equal(dmn_link_add(ctx, c, d), 0);
	assert_int_equal(dmn_link_add(ctx, a, e), 0);
	assert_int_equal(dmn_link_add(ctx, e, d), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, d);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, att, 3), 0);

	EXPECT_NOOP_ERR(dmn_link_add(ctx, a, a), -ELOOP);
	EXPECT_NOOP_ERR(dmn_link_add(ctx, d, d), -ELOOP);
	EXPECT_NOOP_ERR(dmn_link_add(ctx, b, a), -ELOOP);
	EXPECT_NOOP_ERR(dmn_link_add(ctx, d, a), -ELOOP); /* 3 levels down */
	EXPECT_NOOP_ERR(dmn_link_add(ctx, d, b), -ELOOP);
	EXPECT_NOOP_ERR(dmn_link_add(ctx, d, e), -ELOOP); /* via the diamond */
	EXPECT_NOOP_ERR(dmn_link_add(ctx, c, a), -ELOOP);
	/* Not a cycle: a second path down. */
	assert_int_equal(dmn_link_add(ctx, b, d), 0);
	assert_int_equal(dinfo(ctx, d).n_parents, 3);
}

static void eexist(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, c);
	dmn_attach_t h;
	EXPECT_NOOP_ERR(dmn_link_add(ctx, p, c), -EEXIST);
	EXPECT_NOOP_ERR(dmn_attach(ctx, dev, c, &h), -EEXIST);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, att, 1), 0);
	EXPECT_NOOP_ERR(dmn_link_add(ctx, p, c), -EEXIST);
	EXPECT_NOOP_ERR(dmn_attach(ctx, dev, c, &h), -EEXIST);
}

static void enoent(void **state)
{
	T;
	dmn_domain_t h;
	dmn_device_t dh;
	dmn_attach_t ah;
	uint32_t req;
	int on;
	/* Empty context. */
	assert_int_equal(dmn_domain_next(ctx, 0, &h), -ENOENT);
	assert_int_equal(dmn_device_next(ctx, 0, &dh), -ENOENT);
	assert_int_equal(dmn_domain_find(ctx, "x", &h), -ENOENT);
	assert_int_equal(dmn_device_find(ctx, "x", &dh), -ENOENT);

	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t o = fake_domain(&t->fake, ctx, "o", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, c);
	assert_int_equal(dmn_device_get(ctx, dev), 0);

	EXPECT_NOOP_ERR(dmn_domain_find(ctx, "nope", &h), -ENOENT);
	EXPECT_NOOP_ERR(dmn_device_find(ctx, "nope", &dh), -ENOENT);
	EXPECT_NOOP_ERR(dmn_link_remove(ctx, c, p), -ENOENT);
	EXPECT_NOOP_ERR(dmn_link_remove(ctx, o, c), -ENOENT);
	EXPECT_NOOP_ERR(dmn_link_set_map(ctx, o, c, map_double, 0), -ENOENT);
	EXPECT_NOOP_ERR(dmn_link_set_floor(ctx, o, c, 1), -ENOENT);
	EXPECT_NOOP_ERR(dmn_link_info(ctx, c, p, &req, &on), -ENOENT);
	EXPECT_NOOP_ERR(dmn_domain_parent(ctx, c, 1, &h), -ENOENT);
	EXPECT_NOOP_ERR(dmn_domain_parent(ctx, p, 0, &h), -ENOENT);
	EXPECT_NOOP_ERR(dmn_domain_child(ctx, p, 1, &h), -ENOENT);
	EXPECT_NOOP_ERR(dmn_device_attachment(ctx, dev, 1, &ah), -ENOENT);
	EXPECT_NOOP_ERR(dmn_attach_find(ctx, dev, p, &ah), -ENOENT);
	EXPECT_NOOP_ERR(dmn_domain_next(ctx, o, &h), -ENOENT);
	EXPECT_NOOP_ERR(dmn_device_next(ctx, dev, &dh), -ENOENT);
	EXPECT_NOOP_ERR(dmn_domain_next_attachment(ctx, c, att, &ah), -ENOENT);
	EXPECT_NOOP_ERR(dmn_domain_next_attachment(ctx, p, 0, &ah), -ENOENT);
	EXPECT_NOOP_ERR(dmn_unlisten(ctx, evrec_fn, 0), -ENOENT);
}

static void enodev(void **state)
{
	T;
	/* "bare" has no set_performance_state callback and no parent. */
	dmn_domain_t bare = fake_domain(&t->fake, ctx, "bare", &fake_ops_power, 0);
	dmn_domain_t top = fake_domain(&t->fake, ctx, "top", &fake_ops_full, 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, bare);
	assert_false(dinfo(ctx, bare).has_pstate_cb);
	assert_true(dinfo(ctx, top).has_pstate_cb);
	/* Checked while suspended too. */
	EXPECT_NOOP_ERR(dmn_vote(ctx, att, 1), -ENODEV);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	EXPECT_NOOP_ERR(dmn_vote(ctx, att, 7), -ENODEV);
	assert_int_equal(dmn_last_error(ctx), -ENODEV);
	struct dmn_vote_change ch = {att, 2};
	EXPECT_NOOP_ERR(dmn_vote_many(ctx, &ch, 1), -ENODEV);
	/* 0 is "no vote": always accepted. */
	assert_int_equal(dmn_vote(ctx, att, 0), 0);
	/* With a parent to pass it to, the vote is accepted and climbs. */
	assert_int_equal(dmn_link_add(ctx, top, bare), 0);
	CLEAR();
	assert_int_equal(dmn_vote(ctx, att, 7), 0);
	LOG_IS(FAKE_PSTATE, top, 7);
	assert_int_equal(PS(bare), 7);
	assert_int_equal(PS(top), 7);
}

static void erange(void **state)
{
	T;
	dmn_domain_t r = fake_domain(&t->fake, ctx, "r", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t gc = fake_domain(&t->fake, ctx, "gc", &fake_ops_power, 0);
	assert_int_equal(dmn_domain_set_rounding(ctx, r, round_248, 0), 0);
	assert_int_equal(dmn_link_add(ctx, r, c), 0);
	assert_int_equal(dmn_link_add(ctx, c, gc), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t ar = mkatt(ctx, dev, r);
	dmn_attach_t ac = mkatt(ctx, dev, c);
	dmn_attach_t ag = mkatt(ctx, dev, gc);

	/* Suspended: rounded and stored, refused above the top. */
	assert_int_equal(dmn_vote(ctx, ar, 3), 0);
	assert_int_equal(ainfo(ctx, ar).vote, 4);
	EXPECT_NOOP_ERR(dmn_vote(ctx, ar, 9), -ERANGE);
	assert_int_equal(ainfo(ctx, ar).vote, 4);
	/* c has no rounding, but its parent refuses what it would pass up;
	 * and two levels down, through a domain without a callback. */
	EXPECT_NOOP_ERR(dmn_vote(ctx, ac, 9), -ERANGE);
	EXPECT_NOOP_ERR(dmn_vote(ctx, ag, 100), -ERANGE);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(PS(r), 4);
	EXPECT_NOOP_ERR(dmn_vote(ctx, ar, 9), -ERANGE);
	EXPECT_NOOP_ERR(dmn_vote(ctx, ac, 9), -ERANGE);
	EXPECT_NOOP_ERR(dmn_vote(ctx, ag, 9), -ERANGE);
	struct dmn_vote_change ch[2] = {{ar, 2}, {ac, 9}};
	EXPECT_NOOP_ERR(dmn_vote_many(ctx, ch, 2), -ERANGE);
	/* Accepted below the top: c keeps 5, r rounds it up to 8. */
	CLEAR();
	assert_int_equal(dmn_vote(ctx, ag, 5), 0);
	LOG_IS(FAKE_PSTATE, r, 8, FAKE_PSTATE, c, 5);
	uint32_t req;
	int on;
	assert_int_equal(dmn_link_info(ctx, r, c, &req, &on), 0);
	assert_int_equal(req, 8);
	assert_int_equal(on, 1);
	/* A map that asks too much of r fails as a transaction. */
	EXPECT_NOOP_ERR(dmn_link_set_map(ctx, r, c, map_double, 0), -ERANGE);
	/* So does a floor above r's top. */
	EXPECT_NOOP_ERR(dmn_link_set_floor(ctx, r, c, 9), -ERANGE);
}

static void ealready(void **state)
{
	T;
	dmn_domain_t d = fake_domain(&t->fake, ctx, "d", &fake_ops_full, 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	mkatt(ctx, dev, d);
	EXPECT_NOOP_ERR(dmn_device_put(ctx, dev), -EALREADY);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_true(ON(d));
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_false(ON(d));
	EXPECT_NOOP_ERR(dmn_device_put(ctx, dev), -EALREADY);
}

static void listeners(void **state)
{
	T;
	/* No compiled cap: 100 listeners (one more is the fixture's), each
	 * sees every event. */
	enum { N = 100 };
	struct evrec *extra = calloc(N, sizeof(*extra));
	assert_non_null(extra);
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(dmn_listen(ctx, evrec_fn, &extra[i]), 0);
	assert_int_equal(dmn_unlisten(ctx, evrec_fn, &extra[3]), 0);
	assert_int_equal(dmn_unlisten(ctx, evrec_fn, &extra[3]), -ENOENT);
	dmn_domain_t d = fake_domain(&t->fake, ctx, "d", &fake_ops_full, 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	mkatt(ctx, dev, d);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(evrec_count(&extra[i], DMN_EV_POWER_ON),
				 i == 3 ? 0 : 1);
	for (unsigned i = 0; i < N; i++)
		assert_int_equal(dmn_unlisten(ctx, evrec_fn, &extra[i]),
				 i == 3 ? -ENOENT : 0);
	free(extra);
}

/* Which bad handles a call records as its result (dmn_last_error): the
 * calls that change state do, the readers leave the last result alone. */
static void ebadf_recorded(void **state)
{
	T;
	dmn_domain_t p = fake_domain(&t->fake, ctx, "p", &fake_ops_full, 0);
	dmn_domain_t c = fake_domain(&t->fake, ctx, "c", &fake_ops_full, 0);
	dmn_domain_t lone = fake_domain(&t->fake, ctx, "lone", &fake_ops_full, 0);
	assert_int_equal(dmn_link_add(ctx, p, c), 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, c);
	const dmn_domain_t b = 0xdeadbeefu;
	dmn_attach_t ah;
	uint32_t req;
	int on;
/* @call fails with @err, and dmn_last_error() then says @last (after a
 * call that left 0 there). */
#define RESULT(call, err, last)                                              \
	do {                                                                   \
		assert_int_equal(dmn_vote(ctx, att, 0), 0);                     \
		assert_int_equal(dmn_last_error(ctx), 0);                      \
		assert_int_equal(call, err);                                   \
		assert_int_equal(dmn_last_error(ctx), last);                   \
	} while (0)
	RESULT(dmn_link_add(ctx, b, c), -EBADF, -EBADF);
	RESULT(dmn_link_add(ctx, p, b), -EBADF, -EBADF);
	RESULT(dmn_link_remove(ctx, b, c), -EBADF, -EBADF);
	RESULT(dmn_link_remove(ctx, p, b), -EBADF, -EBADF);
	RESULT(dmn_link_remove(ctx, p, lone), -ENOENT, -ENOENT);
	RESULT(dmn_link_set_map(ctx, b, c, map_double, 0), -EBADF, -EBADF);
	RESULT(dmn_link_set_map(ctx, lone, c, map_double, 0), -ENOENT, -ENOENT);
	RESULT(dmn_link_set_floor(ctx, p, b, 1), -EBADF, -EBADF);
	RESULT(dmn_link_set_floor(ctx, c, p, 1), -ENOENT, -ENOENT);
	RESULT(dmn_attach(ctx, dev, b, &ah), -EBADF, -EBADF);
	RESULT(dmn_attach(ctx, b, p, &ah), -EBADF, -EBADF);
	RESULT(dmn_detach(ctx, b), -EBADF, -EBADF);
	RESULT(dmn_link_info(ctx, b, c, &req, &on), -EBADF, 0);
	RESULT(dmn_link_info(ctx, p, lone, &req, &on), -ENOENT, 0);
	RESULT(dmn_attach_find(ctx, dev, b, &ah), -EBADF, 0);
	RESULT(dmn_attach_find(ctx, b, c, &ah), -EBADF, 0);
	RESULT(dmn_attach_find(ctx, dev, p, &ah), -ENOENT, 0);
	RESULT(dmn_domain_remove(ctx, b), -EBADF, 0);
#undef RESULT
}

/* The optional units' calls (lifecycle, system sleep, explain) take the
 * same entry as the core's: -EINVAL before -EBADF, a bad handle changes
 * nothing, and the setters record it as the call's result (dmn_last_error)
 * while the readers leave the last result alone. */
static void units_entry(void **state)
{
	T;
	dmn_domain_t d = fake_domain(&t->fake, ctx, "d", &fake_ops_full, 0);
	dmn_device_t dev = mkdev(ctx, "dev");
	dmn_attach_t att = mkatt(ctx, dev, d);
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_vote(ctx, att, 3), 0);
	struct dmn_hold_info hold;
	struct dmn_explanation ex;
	uint64_t n, ns;
	dmn_device_t par;
	SNAP();
	CLEAR();
	assert_int_equal(dmn_domain_boot_on(0, d, 1), -EINVAL);
	assert_int_equal(dmn_device_probe(0, dev), -EINVAL);
	assert_int_equal(dmn_domain_release(0, d), -EINVAL);
	assert_int_equal(dmn_probe_all(0), -EINVAL);
	assert_int_equal(dmn_domain_hold(0, d, &hold), -EINVAL);
	assert_int_equal(dmn_domain_hold(ctx, d, 0), -EINVAL);
	assert_int_equal(dmn_device_probed(0, dev), -EINVAL);
	assert_int_equal(dmn_system_suspend(0), -EINVAL);
	assert_int_equal(dmn_system_resume(0), -EINVAL);
	assert_int_equal(dmn_system_asleep(0), -EINVAL);
	assert_int_equal(dmn_device_set_wakeup_enable(0, dev, 1), -EINVAL);
	assert_int_equal(dmn_device_wakeup_enabled(0, dev), -EINVAL);
	assert_int_equal(dmn_domain_set_active_wakeup(0, d, 1), -EINVAL);
	assert_int_equal(dmn_domain_active_wakeup(0, d), -EINVAL);
	assert_int_equal(dmn_system_sleep_stats(0, &n, &ns), -EINVAL);
	assert_int_equal(dmn_system_sleep_stats(ctx, 0, &ns), -EINVAL);
	assert_int_equal(dmn_system_sleep_stats(ctx, &n, 0), -EINVAL);
	assert_int_equal(dmn_domain_sleep_stats(0, d, -1, &ns), -EINVAL);
	assert_int_equal(dmn_domain_sleep_stats(ctx, d, -1, 0), -EINVAL);
	assert_int_equal(dmn_attach_set_hwmode(0, att, 1), -EINVAL);
	assert_int_equal(dmn_attach_hwmode(0, att), -EINVAL);
	assert_int_equal(dmn_domain_hwmode(0, d), -EINVAL);
	assert_int_equal(dmn_device_set_always_on(0, dev, 1), -EINVAL);
	assert_int_equal(dmn_device_always_on(0, dev), -EINVAL);
	assert_int_equal(dmn_domain_set_always_on(0, d), -EINVAL);
	assert_int_equal(dmn_domain_explain(0, d, &ex, 0, 0), -EINVAL);
	assert_int_equal(dmn_domain_explain(ctx, d, 0, 0, 0), -EINVAL);
	assert_int_equal(dmn_device_set_parent(0, dev, 0), -EINVAL);
	assert_int_equal(dmn_device_parent(0, dev, &par, 0), -EINVAL);
	assert_int_equal(dmn_device_parent(ctx, 0xdeadbeefu, 0, 0), -EINVAL);
	/* A bad handle and a missing argument: -EINVAL first. */
	assert_int_equal(dmn_domain_hold(ctx, 0xdeadbeefu, 0), -EINVAL);
	assert_int_equal(dmn_domain_explain(ctx, 0xdeadbeefu, 0, 0, 0),
			 -EINVAL);
	UNCHANGED();
	NO_CALLS();

/* @call fails with -EBADF and changes nothing; dmn_last_error() then says
 * @last (after a call that left 0 there). */
#define BAD(call, last)                                                      \
	do {                                                                   \
		assert_int_equal(dmn_vote(ctx, att, 3), 0);                     \
		assert_int_equal(dmn_last_error(ctx), 0);                      \
		SNAP();                                                        \
		CLEAR();                                                       \
		assert_int_equal(call, -EBADF);                                \
		assert_int_equal(dmn_last_error(ctx), last);                   \
		UNCHANGED();                                                   \
		NO_CALLS();                                                    \
	} while (0)
	/* Handles of the wrong kind and garbage. */
	const uint32_t bad[] = {0, 0xdeadbeefu};
	for (unsigned i = 0; i < 2; i++) {
		BAD(dmn_domain_boot_on(ctx, bad[i] ? bad[i] : dev, 1), -EBADF);
		BAD(dmn_device_probe(ctx, bad[i] ? bad[i] : d), -EBADF);
		BAD(dmn_domain_release(ctx, bad[i] ? bad[i] : att), -EBADF);
		BAD(dmn_attach_set_hwmode(ctx, bad[i] ? bad[i] : d, 1), -EBADF);
		BAD(dmn_device_set_always_on(ctx, bad[i] ? bad[i] : att, 1),
		    -EBADF);
		BAD(dmn_domain_set_always_on(ctx, bad[i] ? bad[i] : dev),
		    -EBADF);
		BAD(dmn_device_set_parent(ctx, bad[i] ? bad[i] : d, 0), -EBADF);
		BAD(dmn_device_set_parent(ctx, dev, bad[i] ? bad[i] : att),
		    -EBADF);
		BAD(dmn_device_parent(ctx, bad[i], &par, 0), 0);
		BAD(dmn_domain_hold(ctx, bad[i], &hold), 0);
		BAD(dmn_device_probed(ctx, bad[i]), 0);
		BAD(dmn_device_set_wakeup_enable(ctx, bad[i], 1), 0);
		BAD(dmn_device_wakeup_enabled(ctx, bad[i]), 0);
		BAD(dmn_domain_set_active_wakeup(ctx, bad[i], 1), 0);
		BAD(dmn_domain_active_wakeup(ctx, bad[i]), 0);
		BAD(dmn_domain_sleep_stats(ctx, bad[i], -1, &ns), 0);
		BAD(dmn_attach_hwmode(ctx, bad[i]), 0);
		BAD(dmn_domain_hwmode(ctx, bad[i]), 0);
		BAD(dmn_device_always_on(ctx, bad[i]), 0);
		BAD(dmn_domain_explain(ctx, bad[i], &ex, 0, 0), 0);
	}
#undef BAD
}

static void errno_names(void **state)
{
	(void)state;
	assert_string_equal(dmn_errno_name(0), "OK");
	assert_string_equal(dmn_errno_name(-EIO), "EIO");
	assert_string_equal(dmn_errno_name(-ELOOP), "ELOOP");
	assert_int_equal(dmn_errno_parse("ERANGE"), -ERANGE);
	assert_int_equal(dmn_errno_parse("OK"), 0);
	assert_int_equal(dmn_errno_parse("ENOPE"), 1);
	assert_non_null(dmn_strerror(-12345));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(einval),   TEST(ebadf),     TEST(ebusy),
		TEST(eloop),    TEST(eexist),    TEST(enoent),
		TEST(enodev),   TEST(erange),    TEST(ealready),
		TEST(listeners), TEST(ebadf_recorded), TEST(units_entry),
		TEST(errno_names),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
