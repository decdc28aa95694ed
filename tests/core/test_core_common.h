/* SPDX-License-Identifier: MIT */
/* cmocka glue shared by the core unit tests: one context per test, backed
 * by the recording fake, with a leak check at teardown. */
#ifndef DOMINO_TESTS_CORE_COMMON_H
#define DOMINO_TESTS_CORE_COMMON_H

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

struct tcase {
	struct fake fake;
	struct fake_alloc alloc;
	struct evrec ev;
	struct dmn_ctx *ctx;
	struct snapshot before, after;
};

static int tc_setup(void **state)
{
	struct tcase *t = calloc(1, sizeof(*t));
	assert_non_null(t);
	fake_init(&t->fake);
	struct dmn_config cfg = fake_config(&t->alloc);
	assert_int_equal(dmn_ctx_create(&cfg, &t->ctx), 0);
	assert_int_equal(dmn_listen(t->ctx, evrec_fn, &t->ev), 0);
	*state = t;
	return 0;
}

static int tc_teardown(void **state)
{
	struct tcase *t = *state;
	dmn_ctx_destroy(t->ctx);
	long live = t->alloc.live;
	free(t);
	if (live) {
		fprintf(stderr, "leak: %ld blocks still allocated\n", live);
		return -1;
	}
	return 0;
}

#define T struct tcase *t = *state; struct dmn_ctx *ctx = t->ctx; (void)ctx
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, tc_setup, tc_teardown)

static inline struct dmn_domain_info dinfo(struct dmn_ctx *ctx, dmn_domain_t d)
{
	struct dmn_domain_info info;
	memset(&info, 0, sizeof(info));
	assert_int_equal(dmn_domain_info(ctx, d, &info), 0);
	return info;
}

static inline struct dmn_attach_info ainfo(struct dmn_ctx *ctx, dmn_attach_t a)
{
	struct dmn_attach_info info;
	memset(&info, 0, sizeof(info));
	assert_int_equal(dmn_attach_info(ctx, a, &info), 0);
	return info;
}

static inline dmn_device_t mkdev(struct dmn_ctx *ctx, const char *name)
{
	dmn_device_t d = 0;
	assert_int_equal(dmn_device_create(ctx, name, &d), 0);
	return d;
}

static inline dmn_attach_t mkatt(struct dmn_ctx *ctx, dmn_device_t dev,
				dmn_domain_t dom)
{
	dmn_attach_t a = 0;
	assert_int_equal(dmn_attach(ctx, dev, dom, &a), 0);
	return a;
}

#define ON(d) (dinfo(ctx, (d)).on)
#define PS(d) (dinfo(ctx, (d)).pstate)
#define HW(d) (fake_find(&t->fake, (d)))

/* Take the "before" snapshot; CLEAR also empties the callback and event
 * logs so a test can assert that an error made no callback. */
#define SNAP() snap_take(ctx, &t->fake, &t->before)
#define CLEAR()                                                              \
	do {                                                                 \
		fake_clear_log(&t->fake);                                    \
		t->ev.n = 0;                                                 \
	} while (0)

#define UNCHANGED()                                                          \
	do {                                                                 \
		char why_[256];                                              \
		snap_take(ctx, &t->fake, &t->after);                         \
		if (snap_diff(&t->before, &t->after, why_, sizeof(why_)))    \
			fail_msg("state changed: %s", why_);                 \
	} while (0)

#define NO_CALLS()                                                           \
	do {                                                                 \
		if (t->fake.hw.n_log) {                                      \
			fake_log_print(&t->fake);                            \
			fail_msg("unexpected callbacks");                    \
		}                                                            \
	} while (0)

/* Fail the k-th allocation of @call for k = 1, 2, ... until it succeeds,
 * each time on a fresh context and board (@board_t built by @mk(t, &b),
 * then @setup): each failure returns -ENOMEM with the observable state
 * unchanged, no callback made and, as @keep_t filled by @take(ctx, &b,
 * &keep) says, what the snapshot does not see (holds, probes, boot
 * flags); nothing leaks.
 * @check runs after the call that succeeds. */
#define ENOMEM_LOOP_BOARD(board_t, mk, keep_t, take, setup, call, check)     \
	for (long k = 1;; k++) {                                             \
		struct tcase *w_ = calloc(1, sizeof(*w_));                   \
		assert_non_null(w_);                                         \
		fake_init(&w_->fake);                                        \
		struct dmn_config cfg_ = fake_config(&w_->alloc);            \
		assert_int_equal(dmn_ctx_create(&cfg_, &w_->ctx), 0);        \
		struct tcase *t = w_;                                        \
		struct dmn_ctx *ctx = w_->ctx;                               \
		board_t b;                                                   \
		mk(t, &b);                                                   \
		setup;                                                       \
		keep_t k0_, k1_;                                             \
		memset(&k0_, 0, sizeof(k0_));                                \
		memset(&k1_, 0, sizeof(k1_));                                \
		take(ctx, &b, &k0_);                                         \
		SNAP();                                                      \
		CLEAR();                                                     \
		fake_alloc_fail_at(&w_->alloc, k);                           \
		int err_ = (call);                                           \
		long failed_ = w_->alloc.failed;                             \
		fake_alloc_fail_at(&w_->alloc, 0);                           \
		if (err_) {                                                  \
			assert_int_equal(err_, -ENOMEM);                     \
			assert_true(failed_ > 0);                            \
			UNCHANGED();                                         \
			NO_CALLS();                                          \
			take(ctx, &b, &k1_);                                 \
			assert_memory_equal(&k0_, &k1_, sizeof(k0_));        \
		} else {                                                     \
			check;                                               \
		}                                                            \
		dmn_ctx_destroy(ctx);                                        \
		assert_int_equal(w_->alloc.live, 0);                         \
		free(w_);                                                    \
		if (!err_)                                                   \
			break;                                               \
	}

/* An error that must change nothing and call nothing. */
#define EXPECT_NOOP_ERR(call, err)                                           \
	do {                                                                 \
		SNAP();                                                      \
		CLEAR();                                                     \
		assert_int_equal((call), (err));                             \
		UNCHANGED();                                                 \
		NO_CALLS();                                                  \
	} while (0)

#define LOG_IS(...)                                                          \
	do {                                                                 \
		const uint32_t want_[] = {__VA_ARGS__};               \
		assert_true(fake_log_is(&t->fake,                            \
					sizeof(want_) / sizeof(want_[0]) / 3, \
					want_));                             \
	} while (0)

#endif
