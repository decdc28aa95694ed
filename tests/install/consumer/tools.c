/* SPDX-License-Identifier: MIT */
/*
 * A program of libdomino-tools and libdomino together, for tests/install:
 * lint a blob that is no blob (the loader's, lint's and the simulator's
 * code linked) and create a context (the runtime's). Exit 0 when both
 * answer as documented.
 */
#include <domino/context.h>
#include <domino/lint.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void finding(void *user, const struct dmn_dt_diag *f)
{
	*(int *)user += !strcmp(f->check, "dt-corrupt");
}

int main(void)
{
	static const char not_a_blob[64] = "not a device tree blob";
	int corrupt = 0;
	struct dmn_lint_counts counts;
	int err = dmn_dt_lint(not_a_blob, sizeof(not_a_blob), NULL, 0, finding,
			      &corrupt, &counts);
	struct dmn_ctx *ctx = NULL;
	int made = dmn_ctx_create(NULL, &ctx);
	dmn_ctx_destroy(ctx);
	if (err != -EILSEQ || corrupt != 1 || counts.errors != 1 || made) {
		fprintf(stderr, "tools: lint %d, dt-corrupt %d, context %d\n", err,
			corrupt, made);
		return 1;
	}
	puts("tools: lint and the runtime linked");
	return 0;
}
