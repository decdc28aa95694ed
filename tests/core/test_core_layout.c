/* SPDX-License-Identifier: MIT */
/*
 * The compact device (docs/decisions/memory-layout.md): its name inside it, a
 * single
 * attachment inline and several in an array that grows and shrinks across
 * the inline/array boundary, its constraints and OPP binding in a part
 * allocated on first use. Everything must read back as before.
 */
#include "test_core_common.h"

#include <domino/idle.h>

#define NDOM 9

/* The device's attachments, through the API, are @want in order. */
static void atts_are(struct dmn_ctx *ctx, dmn_device_t dev,
		     const dmn_attach_t *want, unsigned n)
{
	struct dmn_device_info info;
	assert_int_equal(dmn_device_info(ctx, dev, &info), 0);
	assert_int_equal(info.n_attachments, n);
	for (unsigned i = 0; i < n; i++) {
		dmn_attach_t a = 0;
		assert_int_equal(dmn_device_attachment(ctx, dev, i, &a), 0);
		assert_int_equal(a, want[i]);
	}
	dmn_attach_t a;
	assert_int_equal(dmn_device_attachment(ctx, dev, n, &a), -ENOENT);
}

static void attachments_keep_order(void **state)
{
	T;
	dmn_domain_t dom[NDOM];
	for (unsigned i = 0; i < NDOM; i++) {
		char name[8];
		snprintf(name, sizeof(name), "p%u", i);
		dom[i] = fake_domain(&t->fake, ctx, name, &fake_ops_full, 0);
	}
	dmn_device_t dev = mkdev(ctx, "a-rather-long-device-name-0123456789");
	dmn_attach_t att[NDOM];
	unsigned n = 0;
	for (unsigned i = 0; i < NDOM; i++) {
		att[n++] = mkatt(ctx, dev, dom[i]);
		atts_are(ctx, dev, att, n);
	}
	/* Remove from the middle, the front and the back, down to one
	 * (back inside the device) and none, then grow again. */
	static const unsigned order[NDOM] = {4, 0, 6, 1, 2, 8, 3, 5, 7};
	for (unsigned k = 0; k < NDOM; k++) {
		dmn_attach_t gone = 0;
		for (unsigned i = 0; i < n; i++)
			if (att[i] && ainfo(ctx, att[i]).domain == dom[order[k]])
				gone = att[i];
		assert_int_equal(dmn_detach(ctx, gone), 0);
		unsigned m = 0;
		for (unsigned i = 0; i < n; i++)
			if (att[i] != gone)
				att[m++] = att[i];
		n = m;
		atts_are(ctx, dev, att, n);
	}
	for (unsigned i = 0; i < 3; i++) {
		att[n++] = mkatt(ctx, dev, dom[i]);
		atts_are(ctx, dev, att, n);
	}
	/* The votes still reach the right domains. */
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(dmn_vote(ctx, att[i], 10 + i), 0);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(PS(dom[i]), 10 + i);
	struct dmn_device_info info;
	assert_int_equal(dmn_device_info(ctx, dev, &info), 0);
	assert_string_equal(info.name, "a-rather-long-device-name-0123456789");
	dmn_device_t found;
	assert_int_equal(dmn_device_find(ctx, "a-rather-long-device-name-0123456789",
					&found), 0);
	assert_int_equal(found, dev);
}

static void constraints_on_first_use(void **state)
{
	T;
	dmn_device_t dev = mkdev(ctx, "d");
	uint32_t qos = 0;
	uint64_t wakeup = 0;
	assert_int_equal(dmn_device_constraints(ctx, dev, &qos, &wakeup), 0);
	assert_int_equal(qos, DMN_QOS_NONE);
	assert_int_equal(wakeup, DMN_WAKEUP_NONE);
	/* Out of memory for the constraint's room: -ENOMEM, unchanged. */
	fake_alloc_fail_at(&t->alloc, 1);
	assert_int_equal(dmn_device_set_qos(ctx, dev, 5), -ENOMEM);
	fake_alloc_fail_at(&t->alloc, 0);
	assert_int_equal(dmn_device_constraints(ctx, dev, &qos, &wakeup), 0);
	assert_int_equal(qos, DMN_QOS_NONE);
	assert_int_equal(dmn_device_set_qos(ctx, dev, 5), 0);
	assert_int_equal(dmn_device_set_wakeup(ctx, dev, 777), 0);
	assert_int_equal(dmn_device_constraints(ctx, dev, &qos, &wakeup), 0);
	assert_int_equal(qos, 5);
	assert_int_equal(wakeup, 777);
	assert_int_equal(dmn_device_remove(ctx, dev), 0);
}

/* The compact domain: one block with its name; statistics, governor and
 * the rest of its rarely used state in one part allocated by the first
 * call that needs it, until then read as a fresh domain's. */
static void domain_cold_on_first_use(void **state)
{
	T;
	/* Four domains: the context's scratch and handle table have grown
	 * for the fourth before it is created. */
	dmn_domain_t dom[4];
	for (unsigned i = 0; i < 3; i++)
		dom[i] = fake_domain(&t->fake, ctx, "warm", &fake_ops_full, 0);
	long before = t->alloc.live;
	dom[3] = fake_domain(&t->fake, ctx, "a-domain-with-a-long-name",
			     &fake_ops_full, 0);
	assert_int_equal(t->alloc.live - before, 1);
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(ctx, dom[3], &info), 0);
	assert_string_equal(info.name, "a-domain-with-a-long-name");
	struct dmn_domain_stats st;
	assert_int_equal(dmn_domain_stats(ctx, dom[3], &st), 0);
	assert_int_equal(st.n_pstates, 1);
	assert_int_equal(st.on_count, 0);
	assert_int_equal(st.time_on_ns, 0);
	uint32_t level = 9;
	uint64_t ns = 0;
	assert_int_equal(dmn_domain_pstate_residency(ctx, dom[3], 0, &level, &ns),
			 0);
	assert_int_equal(level, 0);
	assert_int_equal(dmn_domain_pstate_residency(ctx, dom[3], 1, &level, &ns),
			 -ENOENT);
	/* Out of memory for the cold part: -ENOMEM, nothing changed. */
	fake_alloc_fail_at(&t->alloc, 1);
	assert_int_equal(dmn_domain_set_governor(ctx, dom[3],
						DMN_GOVERNOR_ALWAYS_ON, 0, 0),
			 -ENOMEM);
	fake_alloc_fail_at(&t->alloc, 0);
	assert_int_equal(t->alloc.live - before, 1);
	assert_int_equal(dmn_domain_set_governor(ctx, dom[3],
						DMN_GOVERNOR_ALWAYS_ON, 0, 0),
			 0);
	/* The part and its first residency slot. */
	assert_int_equal(t->alloc.live - before, 3);
	assert_int_equal(dmn_domain_stats(ctx, dom[3], &st), 0);
	assert_int_equal(st.n_pstates, 1);
	/* A domain that powers on gets its own, with its statistics. */
	dmn_device_t dev = mkdev(ctx, "d");
	dmn_attach_t a = mkatt(ctx, dev, dom[0]);
	(void)a;
	assert_int_equal(dmn_device_get(ctx, dev), 0);
	assert_int_equal(dmn_domain_stats(ctx, dom[0], &st), 0);
	assert_int_equal(st.on_count, 1);
	assert_int_equal(dmn_device_put(ctx, dev), 0);
	assert_int_equal(dmn_domain_stats(ctx, dom[0], &st), 0);
	assert_int_equal(st.off_count, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(attachments_keep_order),
		TEST(constraints_on_first_use),
		TEST(domain_cold_on_first_use),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
