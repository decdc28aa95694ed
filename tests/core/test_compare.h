/* SPDX-License-Identifier: MIT */
/* Helpers of the tests that run the same random operations on two
 * contexts (a fast path against the general engine) and compare all that
 * is observable after each step. Include after test_core_common.h. */
#ifndef DOMINO_TESTS_CORE_TEST_COMPARE_H
#define DOMINO_TESTS_CORE_TEST_COMPARE_H

#include <domino/idle.h>

/* xorshift32: a fixed sequence per seed, so a failure reproduces. */
/* A rounding hook: multiples of 5 up to 100; above that -ERANGE. */
static inline int round5(void *user, dmn_domain_t dom, uint32_t level,
			 uint32_t *rounded)
{
	(void)user;
	(void)dom;
	if (level > 100)
		return -ERANGE;
	*rounded = (level + 4) / 5 * 5;
	return 0;
}

static inline uint32_t next_rand(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* A context clock both sides share (dmn_config.now). */
static inline uint64_t clock_now(void *user)
{
	return *(const uint64_t *)user;
}

static inline void same_events(const struct evrec *a, const struct evrec *b)
{
	assert_int_equal(a->n, b->n);
	for (unsigned i = 0; i < a->n; i++) {
		const struct dmn_event *x = &a->ev[i], *y = &b->ev[i];
		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->op, y->op);
		assert_int_equal(x->domain, y->domain);
		assert_int_equal(x->error, y->error);
		assert_int_equal(x->safe, y->safe);
		assert_int_equal(x->old_value, y->old_value);
		assert_int_equal(x->new_value, y->new_value);
	}
}

static inline void same_calls(const struct fake *a, const struct fake *b)
{
	assert_int_equal(a->hw.n_log, b->hw.n_log);
	for (unsigned k = 0; k < a->hw.n_log; k++) {
		assert_int_equal(a->log[k].op, b->log[k].op);
		assert_int_equal(fake_index(a, a->log[k].object),
				 fake_index(b, b->log[k].object));
		assert_int_equal(a->log[k].value, b->log[k].value);
		assert_int_equal(a->log[k].result, b->log[k].result);
	}
}

/* Statistics and pstate residencies of domain @da of @a and @db of @b. */
/* Every statistic of @da and @db equal; without @times (contexts with no
 * time source, whose on/off times read the real clock) the on/off times
 * are left out and every pstate residency must read 0. */
static inline void same_stats_timed(struct dmn_ctx *a, dmn_domain_t da,
				    struct dmn_ctx *b, dmn_domain_t db,
				    bool times)
{
	struct dmn_domain_stats sa, sb;
	assert_int_equal(dmn_domain_stats(a, da, &sa), 0);
	assert_int_equal(dmn_domain_stats(b, db, &sb), 0);
	assert_int_equal(sa.pstate_transitions, sb.pstate_transitions);
	assert_int_equal(sa.on_count, sb.on_count);
	assert_int_equal(sa.off_count, sb.off_count);
	assert_int_equal(sa.n_pstates, sb.n_pstates);
	if (times) {
		assert_int_equal(sa.time_on_ns, sb.time_on_ns);
		assert_int_equal(sa.time_off_ns, sb.time_off_ns);
	}
	for (unsigned i = 0; i < sa.n_pstates; i++) {
		uint32_t la, lb;
		uint64_t ta, tb;
		assert_int_equal(dmn_domain_pstate_residency(a, da, i, &la, &ta),
				 0);
		assert_int_equal(dmn_domain_pstate_residency(b, db, i, &lb, &tb),
				 0);
		assert_int_equal(la, lb);
		assert_int_equal(ta, tb);
		if (!times)
			assert_int_equal(ta, 0);
	}
}

static inline void same_stats(struct dmn_ctx *a, dmn_domain_t da,
			      struct dmn_ctx *b, dmn_domain_t db)
{
	same_stats_timed(a, da, b, db, true);
}

#endif
