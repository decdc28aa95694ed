/* SPDX-License-Identifier: MIT */
/*
 * dmn_lint_board: lint on a board loaded once, through the public API.
 *
 * For every blob of $LINT_BOARDS (the lint cases and the real boards):
 *  - the findings and counts equal dmn_dt_lint's (the load done for the
 *    caller), for the blob where it lies and for a misaligned copy (lint
 *    then reads an aligned copy of its own);
 *  - the simulation handed back reads the very board given, and exists
 *    exactly when the lenient load found no error and the board builds;
 *  - every allocation lint makes goes through the hook given: failing the
 *    k-th, for every k up to the number of a clean run, returns -ENOMEM,
 *    hands back no simulation and leaves no block; the findings emitted
 *    before the failure are a prefix of the clean run's.
 */
#include <domino/lint.h>
#include <domino/sim.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "read_file.h"

struct counting {
	long calls, live, fail_at;
};

static void *c_alloc(void *user, size_t size)
{
	struct counting *c = user;
	if (++c->calls == c->fail_at)
		return NULL;
	void *p = malloc(size ? size : 1);
	if (p)
		c->live++;
	return p;
}

static void c_free(void *user, void *p)
{
	struct counting *c = user;
	c->live--;
	free(p);
}

/* The findings of one run, one formatted line each, joined. */
struct seen {
	char *text;
	size_t len;
};

static void on_finding(void *user, const struct dmn_dt_diag *f)
{
	struct seen *s = user;
	char line[2048];
	int n = dmn_dt_diag_format(f, NULL, line, sizeof(line));
	assert_true(n >= 0);
	size_t add = strlen(line) + strlen(f->check) + 16;
	s->text = realloc(s->text, s->len + add);
	assert_non_null(s->text);
	s->len += (size_t)snprintf(s->text + s->len, add, "%s [%s] %d\n", line,
				   f->check, f->error);
}

static int lint(const struct dmn_dt_board *b, int load, const void *blob, size_t size,
		struct counting *c, struct seen *s, struct dmn_sim **sim,
		struct dmn_lint_counts *counts)
{
	struct dmn_alloc_ops ops = {c_alloc, c_free, c};
	struct dmn_lint_options o = {&ops, on_finding, s, "board", sim};
	return dmn_lint_board(b, load, blob, size, &o, counts);
}

static void check_blob(const char *path)
{
	size_t size;
	char *data = read_whole_file(path, &size);
	assert_non_null(data);
	/* the same bytes at an odd address */
	char *odd_block = malloc(size + 1);
	assert_non_null(odd_block);
	memcpy(odd_block + 1, data, size);

	struct seen want = {NULL, 0};
	struct dmn_lint_counts want_counts;
	assert_int_equal(dmn_dt_lint(data, size, NULL, 0, on_finding, &want,
				     &want_counts), 0);

	struct dmn_dt_load_opts lo = {.flags = DMN_DT_LOAD_LENIENT};
	struct dmn_dt_board *b = NULL;
	int load = dmn_dt_load(data, size, &lo, &b);
	assert_non_null(b);
	for (int odd = 0; odd < 2; odd++) {
		const void *blob = odd ? odd_block + 1 : data;
		struct counting c = {0, 0, 0};
		struct seen got = {NULL, 0};
		struct dmn_sim *sim = (struct dmn_sim *)&c; /* overwritten */
		struct dmn_lint_counts counts;
		assert_int_equal(lint(b, load, blob, size, &c, &got, &sim, &counts), 0);
		assert_int_equal(c.live, 0);
		assert_true(got.len == want.len &&
			    (!got.len || !memcmp(got.text, want.text, got.len)));
		assert_memory_equal(&counts, &want_counts, sizeof(counts));
		/* the simulation: the board lint was given, when it builds */
		if (sim)
			assert_ptr_equal(dmn_sim_board(sim), b);
		else
			assert_true(load || counts.errors);
		if (!load && !counts.errors)
			assert_non_null(sim);
		dmn_sim_free(sim);
		/* every allocation fails in turn */
		long n = c.calls;
		assert_true(n >= odd); /* the aligned copy */
		for (long k = 1; k <= n; k++) {
			struct counting f = {0, 0, k};
			struct seen part = {NULL, 0};
			sim = (struct dmn_sim *)&f;
			assert_int_equal(lint(b, load, blob, size, &f, &part, &sim, NULL),
					 -ENOMEM);
			assert_null(sim);
			assert_int_equal(f.live, 0);
			assert_true(part.len <= want.len &&
				    (!part.len || !memcmp(part.text, want.text, part.len)));
			free(part.text);
		}
		printf("%s%s: %ld allocations, each failed in turn\n", path,
		       odd ? " (misaligned)" : "", n);
		free(got.text);
	}
	dmn_dt_board_free(b);
	free(want.text);
	free(odd_block);
	free(data);
}

static void lint_board_through_the_hook(void **state)
{
	(void)state;
	const char *list = getenv("LINT_BOARDS");
	if (!list || !*list)
		skip();
	char *copy = strdup(list), *save = NULL;
	assert_non_null(copy);
	unsigned n = 0;
	for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save), n++)
		check_blob(p);
	assert_true(n > 0);
	free(copy);
}

static void lint_board_refuses_bad_arguments(void **state)
{
	(void)state;
	struct dmn_alloc_ops half = {c_alloc, NULL, NULL};
	struct dmn_lint_options o = {.alloc = &half};
	struct dmn_dt_board *b = NULL;
	static const char blob[] = "x";
	struct dmn_sim *sim = (struct dmn_sim *)&half;
	o.sim = &sim;
	assert_int_equal(dmn_lint_board(NULL, 0, blob, 1, NULL, NULL), -EINVAL);
	assert_int_equal(dmn_lint_board(b, 0, blob, 1, &o, NULL), -EINVAL);
	assert_null(sim);
	/* a corrupt blob: its diagnostic is the finding, -EILSEQ the result */
	struct dmn_dt_load_opts lo = {.flags = DMN_DT_LOAD_LENIENT};
	int load = dmn_dt_load(blob, sizeof(blob), &lo, &b);
	assert_int_equal(load, -EILSEQ);
	assert_non_null(b);
	struct seen s = {NULL, 0};
	struct dmn_lint_options plain = {.emit = on_finding, .user = &s};
	assert_int_equal(dmn_lint_board(b, 0, NULL, 0, &plain, NULL), -EINVAL);
	struct dmn_lint_counts counts;
	assert_int_equal(dmn_lint_board(b, load, blob, sizeof(blob), &plain, &counts),
			 -EILSEQ);
	assert_int_equal(counts.errors, 1);
	assert_non_null(strstr(s.text, "[dt-corrupt]"));
	free(s.text);
	dmn_dt_board_free(b);
	assert_int_equal(dmn_sim_create_board(NULL, NULL, &sim), -EINVAL);
	assert_null(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lint_board_through_the_hook),
		cmocka_unit_test(lint_board_refuses_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
