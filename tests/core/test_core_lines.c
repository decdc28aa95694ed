/* SPDX-License-Identifier: MIT */
/*
 * Cache-line placement of a striped context's blocks: on the
 * default lock and the default allocator every block the core allocates
 * starts on a 64-byte line and owns whole lines, so two threads' fast
 * paths on disjoint domains never write one line (src/core/context.c,
 * dmn__alloc; docs/decisions/locking.md). The user's allocation hook
 * has no alignment and gets exactly the sizes asked.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <domino/context.h>
#include <domino/domain.h>

#include "core/internal.h"

#define LINE 64u

static void blocks_own_their_lines(void **state)
{
	(void)state;
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
#if defined(DMN_TEST_THREADS)
	assert_true(dmn__alloc_whole_lines(ctx));
#endif
	/* The sizes of the blocks a vote writes (attachments, links,
	 * histogram bins, statistics) and odd ones, interleaved with frees
	 * that leave holes, as two trees built one after the other do. */
	static const size_t sizes[] = {1, 16, 40, 48, 63, 64, 65, 180, 16, 8};
	enum { N = sizeof(sizes) / sizeof(sizes[0]) };
	void *b[N];
	for (unsigned i = 0; i < N; i++) {
		b[i] = dmn__alloc(ctx, sizes[i]);
		assert_non_null(b[i]);
		memset(b[i], 0xa5, sizes[i]);
		if (i % 3 == 1) {
			dmn__free(ctx, b[i]);
			b[i] = dmn__alloc(ctx, sizes[i] / 2 + 1);
			assert_non_null(b[i]);
		}
	}
	for (unsigned i = 0; i < N; i++) {
		uintptr_t a = (uintptr_t)b[i];
		size_t n = i % 3 == 1 ? sizes[i] / 2 + 1 : sizes[i];
		if (dmn__alloc_whole_lines(ctx))
			assert_int_equal(a % LINE, 0);
		for (unsigned j = 0; j < N && dmn__alloc_whole_lines(ctx);
		     j++) {
			uintptr_t o = (uintptr_t)b[j];
			size_t m = j % 3 == 1 ? sizes[j] / 2 + 1 : sizes[j];
			if (i == j)
				continue;
			/* no line holds bytes of both */
			assert_true(a / LINE > (o + m - 1) / LINE ||
				    o / LINE > (a + n - 1) / LINE);
		}
	}
	for (unsigned i = 0; i < N; i++)
		dmn__free(ctx, b[i]);
	dmn_ctx_destroy(ctx);
}

static size_t hook_last;

static void *hook_alloc(void *user, size_t size)
{
	(void)user;
	hook_last = size;
	return malloc(size);
}

static void hook_free(void *user, void *ptr)
{
	(void)user;
	free(ptr);
}

static void user_hook_gets_the_size(void **state)
{
	(void)state;
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.alloc.alloc = hook_alloc;
	cfg.alloc.free = hook_free;
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(&cfg, &ctx), 0);
	void *p = dmn__alloc(ctx, 40);
	assert_non_null(p);
	assert_int_equal(hook_last, 40);
	assert_false(dmn__alloc_whole_lines(ctx));
	dmn__free(ctx, p);
	dmn_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blocks_own_their_lines),
		cmocka_unit_test(user_hook_gets_the_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
