/* SPDX-License-Identifier: MIT */
/*
 * Edges of the core that the rest of the suite let through: each test here
 * kills a mutant scripts/mutate.sh found alive (docs/testing.md), so a
 * change at that spot can no longer pass unnoticed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <domino/context.h>

#include "core/internal.h"

/* An allocator that refuses anything over 1 MiB and records the sizes it
 * was asked for, so a test sees which growth the core attempted. */
struct sized_alloc {
	size_t last_size;
	unsigned calls;
	long live;
};

static void *sized_alloc_fn(void *user, size_t size)
{
	struct sized_alloc *a = user;
	a->last_size = size;
	a->calls++;
	if (size > (1u << 20))
		return NULL;
	void *p = malloc(size);
	if (p)
		a->live++;
	return p;
}

static void sized_free_fn(void *user, void *ptr)
{
	struct sized_alloc *a = user;
	if (ptr)
		a->live--;
	free(ptr);
}

static struct dmn_ctx *sized_ctx(struct sized_alloc *a)
{
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.alloc.alloc = sized_alloc_fn;
	cfg.alloc.free = sized_free_fn;
	cfg.alloc.user = a;
	struct dmn_ctx *ctx = NULL;
	assert_int_equal(dmn_ctx_create(&cfg, &ctx), 0);
	return ctx;
}

/* dmn__grow doubles up to the largest capacity an unsigned holds: from
 * 2^31 - 1 it still asks for 2^32 - 2 elements (refused here, -ENOMEM),
 * and only past 2^31 does it give up without asking. */
static void grow_doubles_to_the_unsigned_limit(void **state)
{
	(void)state;
	struct sized_alloc a = { 0 };
	struct dmn_ctx *ctx = sized_ctx(&a);
	void *array = NULL;

	unsigned cap = 0x7fffffffu;
	a.calls = 0;
	assert_int_equal(dmn__grow(ctx, &array, &cap, 0x80000000u, 1), -ENOMEM);
	assert_int_equal(a.calls, 1);
	assert_true(a.last_size == (size_t)0xfffffffeu);
	assert_int_equal(cap, 0x7fffffffu);
	assert_null(array);

	cap = 0x80000000u;
	a.calls = 0;
	assert_int_equal(dmn__grow(ctx, &array, &cap, 0x80000001u, 1), -ENOMEM);
	assert_int_equal(a.calls, 0);

	/* Within reach it grows, keeping the contents. */
	cap = 0;
	assert_int_equal(dmn__grow(ctx, &array, &cap, 3, sizeof(int)), 0);
	assert_int_equal(cap, 3);
	((int *)array)[2] = 42;
	assert_int_equal(dmn__grow(ctx, &array, &cap, 4, sizeof(int)), 0);
	assert_int_equal(cap, 6);
	assert_int_equal(((int *)array)[2], 42);
	assert_int_equal(dmn__grow(ctx, &array, &cap, 6, sizeof(int)), 0);
	assert_int_equal(cap, 6);
	dmn__free(ctx, array);
	dmn_ctx_destroy(ctx);
	assert_int_equal(a.live, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grow_doubles_to_the_unsigned_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
