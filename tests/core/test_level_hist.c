/* SPDX-License-Identifier: MIT */
/*
 * The vote aggregate (src/core/level_hist.c): random adds, removes (a
 * decrement compacted at once) and operation-style decrements with
 * compaction, checked after every step against a plain count per level:
 * bins sorted and distinct, counts equal, one max equal to the highest
 * counted level, no empty bin left after dmn__level_hist_compact; and
 * re-adding a level whose bin exists never allocates.
 */
#include "test_core_common.h"

#include "core/internal.h"
#include "test_compare.h"

#define LEVELS 40

static void check(const struct level_hist *h, const unsigned *ref, bool empty_ok)
{
	uint32_t max = 0;
	for (uint32_t l = 1; l < LEVELS; l++)
		if (ref[l])
			max = l;
	assert_int_equal(level_hist_max(h), max);
	unsigned counted = 0;
	for (unsigned i = 0; i < h->n; i++) {
		const struct level_count *b = &h->bins[i];
		if (i)
			assert_true(h->bins[i - 1].level < b->level);
		assert_true(b->level > 0 && b->level < LEVELS);
		assert_int_equal(b->count, ref[b->level]);
		if (!empty_ok)
			assert_true(b->count > 0);
		counted += b->count > 0;
	}
	for (uint32_t l = 1; l < LEVELS; l++)
		counted -= ref[l] > 0;
	assert_int_equal(counted, 0); /* every counted level has its bin */
}

static void random_ops_keep_one_max(void **state)
{
	T;
	struct level_hist h;
	dmn__level_hist_init(&h);
	unsigned ref[LEVELS] = {0};
	uint32_t seed = 19;
	bool in_op = false;
	for (unsigned step = 0; step < 20000; step++) {
		uint32_t r = next_rand(&seed);
		uint32_t level = 1 + r % (LEVELS - 1);
		switch ((r >> 8) % 8) {
		case 0: case 1: case 2:
			assert_int_equal(dmn__level_hist_add(ctx, &h, level), 0);
			ref[level]++;
			break;
		case 3: case 4:
			if (in_op) {
				dmn__level_hist_dec(&h, level);
			} else {
				dmn__level_hist_dec(&h, level);
				dmn__level_hist_compact(&h);
			}
			/* An uncounted level is ignored by both. */
			ref[level] -= ref[level] > 0;
			break;
		case 5:
			in_op = !in_op;
			if (!in_op)
				dmn__level_hist_compact(&h);
			break;
		default: {
			/* Take back the highest vote: the max falls to the
			 * next counted level, over empty bins inside an
			 * operation. */
			uint32_t top = level_hist_max(&h);
			if (!top)
				break;
			if (in_op)
				dmn__level_hist_dec(&h, top);
			else
				dmn__level_hist_dec(&h, top),
					dmn__level_hist_compact(&h);
			ref[top]--;
			break;
		}
		}
		check(&h, ref, in_op);
	}
	dmn__level_hist_fini(ctx, &h);
	assert_null(h.bins);
	assert_int_equal(level_hist_max(&h), 0);
}

static void readd_never_allocates(void **state)
{
	T;
	struct level_hist h;
	dmn__level_hist_init(&h);
	/* Fill the bins to their capacity. */
	uint32_t n = 0;
	do
		assert_int_equal(dmn__level_hist_add(ctx, &h, ++n * 10), 0);
	while (h.n < h.cap || n < 5);
	/* Inside an operation an emptied bin stays, so putting its vote back
	 * (a rollback, a fix-up after the commit point) cannot fail. */
	for (uint32_t l = 1; l <= n; l++)
		dmn__level_hist_dec(&h, l * 10);
	assert_int_equal(level_hist_max(&h), 0);
	assert_int_equal(h.n, n);
	fake_alloc_fail_at(&t->alloc, 1);
	for (uint32_t l = n; l >= 1; l--) {
		assert_int_equal(dmn__level_hist_add(ctx, &h, l * 10), 0);
		assert_int_equal(level_hist_max(&h), n * 10);
	}
	assert_int_equal(t->alloc.failed, 0);
	/* A new level needs a bin: -ENOMEM changes nothing. */
	assert_int_equal(dmn__level_hist_add(ctx, &h, 5), -ENOMEM);
	assert_int_equal(t->alloc.failed, 1);
	assert_int_equal(h.n, n);
	assert_int_equal(h.bins[0].level, 10);
	assert_int_equal(level_hist_max(&h), n * 10);
	fake_alloc_fail_at(&t->alloc, 0);
	dmn__level_hist_compact(&h);
	assert_int_equal(h.n, n);
	dmn__level_hist_fini(ctx, &h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(random_ops_keep_one_max),
		TEST(readd_never_allocates),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
