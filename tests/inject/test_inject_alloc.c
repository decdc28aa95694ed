/* SPDX-License-Identifier: MIT */
/*
 * Allocation failure during a whole board load: dmn_ctx_create + dmn_dt_load +
 * dmn_dt_instantiate of the demo board and of every board in DOMINO_BOARDS
 * (skipped with a message when absent), with allocation k failing, for
 * every k from 1 to the number of allocations of a clean load. One
 * counting allocator serves the loader (struct dmn_dt_load_opts.alloc) and the
 * context (struct dmn_config.alloc), so the k-th allocation is counted
 * across both stages. After each failure: the call that met it returned
 * -ENOMEM, and once everything is freed no block is left; the clean load
 * after the loop succeeds and frees to zero as well.
 *
 * Every k is tried in a plain build (13,287 failed loads over the six
 * boards, ~17 s). Sanitizer builds, several times slower, keep CI short
 * with a dense sample on boards with more than FULL_LIMIT allocations:
 * every k up to FULL_LIMIT, then every SAMPLE_STEP-th, plus the last TAIL
 * (the end of dmn_dt_instantiate, where unwinding is hardest); the output
 * says so.
 */
#include <domino/context.h>
#include <domino/dt.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "domino_demo_board.h"
#include "read_file.h"

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#elif __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#if defined(UNDER_TSAN)
#define FULL_LIMIT 800
#define SAMPLE_STEP 8
#define TAIL 100
#elif defined(UNDER_ASAN)
#define FULL_LIMIT 1200
#define SAMPLE_STEP 4
#define TAIL 200
#else
#define FULL_LIMIT 1000000
#define SAMPLE_STEP 1
#define TAIL 0
#endif

static long total_injected;

struct counting {
	long calls;   /* allocation requests */
	long live;    /* blocks not freed */
	long fail_at; /* the request that fails; 0 = none */
	long failed;  /* requests refused */
};

static void *c_alloc(void *user, size_t size)
{
	struct counting *c = user;
	if (++c->calls == c->fail_at) {
		c->failed++;
		return NULL;
	}
	void *p = malloc(size ? size : 1);
	if (p)
		c->live++;
	return p;
}

static void c_free(void *user, void *ptr)
{
	struct counting *c = user;
	c->live--;
	free(ptr);
}

/* One load; returns its error, everything freed again. */
static int load_once(const void *blob, size_t size, const uint32_t *hw,
		     unsigned n_hw, struct counting *c, const char **stage)
{
	struct dmn_alloc_ops ops = {c_alloc, c_free, c};
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.alloc = ops;
	cfg.lock = dmn_lock_none;
	struct dmn_dt_load_opts lo;
	memset(&lo, 0, sizeof(lo));
	lo.alloc = &ops;
	lo.supported_hw = hw;
	lo.n_supported_hw = n_hw;
	struct dmn_ctx *ctx = NULL;
	struct dmn_dt_board *board = NULL;
	struct dmn_dt_instance *inst = NULL;
	*stage = "dmn_ctx_create";
	int err = dmn_ctx_create(&cfg, &ctx);
	if (!err) {
		*stage = "dmn_dt_load";
		err = dmn_dt_load(blob, size, &lo, &board);
	}
	if (!err) {
		*stage = "dmn_dt_instantiate";
		err = dmn_dt_instantiate(board, ctx, NULL, NULL, &inst);
		if (err && inst)
			fail_msg(
			    "dmn_dt_instantiate failed but returned an instance");
	}
	dmn_dt_instance_free(inst);
	dmn_ctx_destroy(ctx);
	dmn_dt_board_free(board);
	return err;
}

static void fail_each(const char *name, const void *blob, size_t size,
		      const uint32_t *hw, unsigned n_hw)
{
	struct counting clean = {0};
	const char *stage;
	int err = load_once(blob, size, hw, n_hw, &clean, &stage);
	if (err)
		fail_msg("%s: clean load failed in %s: %s", name, stage,
			 dmn_errno_name(err));
	assert_int_equal(clean.live, 0);
	long n = clean.calls, tried = 0;
	long by_stage[3] = {0};
	for (long k = 1; k <= n; k++) {
		if (k > FULL_LIMIT && k % SAMPLE_STEP && k <= n - TAIL)
			continue;
		struct counting c = {0};
		c.fail_at = k;
		err = load_once(blob, size, hw, n_hw, &c, &stage);
		tried++;
		if (err != -ENOMEM)
			fail_msg(
			    "%s: allocation %ld of %ld failing: %s returned "
			    "%s, expected ENOMEM",
			    name, k, n, stage, dmn_errno_name(err));
		if (c.live)
			fail_msg(
			    "%s: allocation %ld failing (in %s): %ld blocks "
			    "leaked",
			    name, k, stage, c.live);
		by_stage[stage[1] == 'm'	     ? 0
			 : !strcmp(stage, "dmn_dt_load") ? 1
						     : 2]++;
	}
	/* And the load works again once memory is there. */
	struct counting again = {0};
	assert_int_equal(load_once(blob, size, hw, n_hw, &again, &stage), 0);
	assert_int_equal(again.live, 0);
	assert_int_equal(again.calls, n);
	char how[160] = "";
	if (tried < n)
		snprintf(
		    how, sizeof(how),
		    " (every k up to %d, then every %dth, and the last %d)",
		    FULL_LIMIT, SAMPLE_STEP, TAIL);
	printf("%s: %ld allocations per load; failed %ld of them in turn%s "
	       "(%ld in dmn_ctx_create, %ld in dmn_dt_load, %ld in "
	       "dmn_dt_instantiate): all ENOMEM, no leak\n",
	       name, n, tried, how, by_stage[0], by_stage[1], by_stage[2]);
	total_injected += tried;
}

static void demo_board(void **state)
{
	(void)state;
	fail_each("demo", domino_demo_dtb, domino_demo_dtb_len, NULL, 0);
}

static void shared_boards(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		uint32_t hw; /* --supported-hw, 0 = none */
	} boards[] = {
	    {"qrb5165-rb5", 0},	   {"sc7180-trogdor-lazor-r10", 0},
	    {"imx8mp-evk", 0},	   {"rk3588-rock-5b", 0},
	    {"tegra30-beaver", 4},
	};
	for (unsigned i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
		char path[600];
		snprintf(path, sizeof(path), "%s/%s.dtb", DOMINO_BOARDS_DIR,
			 boards[i].name);
		size_t size;
		void *blob = read_whole_file(path, &size);
		if (!blob) {
			printf("SKIP %s: %s absent\n", boards[i].name, path);
			continue;
		}
		fail_each(boards[i].name, blob, size, &boards[i].hw,
			  boards[i].hw ? 1 : 0);
		free(blob);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(demo_board),
	    cmocka_unit_test(shared_boards),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	printf("allocation failures injected during board loads: %ld\n",
	       total_injected);
	return rc;
}
