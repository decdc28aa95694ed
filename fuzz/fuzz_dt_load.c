/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dt_load - arbitrary bytes into the device-tree loader.
 *
 * Each input is loaded strict and lenient, linted, and (when a load
 * succeeds and the library has stage 2) instantiated into a fresh context.
 * The loader's contract is that a blob is validated before it is read, so
 * no input may crash, read out of bounds or leak (ASan/LSan watch that);
 * the contract's own promises are checked with __builtin_trap():
 *  - strict: success gives a board with no errors, failure gives no board;
 *  - lenient: the same first error, and every error but -ENOMEM still
 *    yields a board (lenient runs only when strict failed);
 *  - lint reports -EILSEQ exactly when the strict load said the blob is
 *    corrupt.
 */
#include <domino/context.h>
#include <domino/dt.h>
#include <domino/lint.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_diag(void *user, const struct dmn_dt_diag *diag)
{
	unsigned *n = user;
	/* The sink's strings must be readable for the whole call. */
	if (!diag->check || !diag->node || !diag->message)
		__builtin_trap();
	char line[128];
	dmn_dt_diag_format(diag, "fuzz.dtb", line, sizeof(line));
	(*n)++;
}

static void count_finding(void *user, const struct dmn_dt_diag *f)
{
	unsigned *n = user;
	if (!f->check || !f->node || !f->message)
		__builtin_trap();
	(*n)++;
}

#ifdef FUZZ_HAVE_INSTANTIATE
static void instantiate(const struct dmn_dt_board *board)
{
	struct dmn_ctx *ctx = NULL;
	if (dmn_ctx_create(NULL, &ctx))
		return;
	struct dmn_dt_instance *inst = NULL;
	if (dmn_dt_instantiate(board, ctx, NULL, NULL, &inst) == 0)
		dmn_dt_instance_free(inst);
	else if (inst)
		__builtin_trap(); /* failure must leave *out NULL */
	dmn_ctx_destroy(ctx);
}
#endif

/* The name look-ups scan the board (O(n) each, as documented): try them on
 * the first few and the last of each kind only, so the deep and wide seeds
 * (10,000 domains or devices) cost linear time, not quadratic. */
#define LOOKUPS 64
static int look_up(unsigned i, unsigned n)
{
	return i < LOOKUPS || i + 1 == n;
}

static void use_board(const struct dmn_dt_board *board)
{
	/* Walk the model the way the reports do: every index must be valid. */
	for (unsigned i = 0; i < board->n_domains; i++) {
		const struct dmn_dt_domain *d = &board->domains[i];
		if (look_up(i, board->n_domains) &&
		    dmn_dt_domain_find(board, d->name) < 0)
			__builtin_trap();
		for (unsigned p = 0; p < d->n_parents; p++)
			if (d->parents[p] < 0 || (unsigned)d->parents[p] >= board->n_domains)
				__builtin_trap();
	}
	for (unsigned i = 0; i < board->n_devices; i++) {
		const struct dmn_dt_device *dev = &board->devices[i];
		uint32_t levels[16];
		if (look_up(i, board->n_devices))
			(void)dmn_dt_device_find(board, dev->name);
		(void)dmn_dt_device_fixed_votes(board, i, levels, 16);
		if (dev->opp_table >= 0) {
			const struct dmn_dt_opp_table *t = &board->opp_tables[dev->opp_table];
			for (unsigned e = 0; e < t->n_entries && e < 4; e++)
				(void)dmn_dt_device_opp_votes(board, i, e, levels, 16);
		}
	}
#ifdef FUZZ_HAVE_INSTANTIATE
	instantiate(board);
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* One bit of the input picks a hardware version, so opp-supported-hw
	 * paths are reached too; the blob itself is used unchanged. */
	static const uint32_t hw[2] = {0x3, 0x1};
	unsigned n_hw = size ? (data[size - 1] & 1u) * 2u : 0;

	struct dmn_dt_load_opts opts = {0};
	unsigned n_diags = 0;
	opts.supported_hw = n_hw ? hw : NULL;
	opts.n_supported_hw = n_hw;
	opts.diag = count_diag;
	opts.diag_user = &n_diags;

	struct dmn_dt_board *board = NULL;
	int strict = dmn_dt_load(data, size, &opts, &board);
	if (strict == 0) {
		if (!board || board->n_errors)
			__builtin_trap();
		use_board(board);
	} else if (board) {
		__builtin_trap();
	}
	dmn_dt_board_free(board);

	/* Lenient differs only past the first error: with none, it would
	 * build the same board again. */
	if (strict != 0) {
		board = NULL;
		opts.flags = DMN_DT_LOAD_LENIENT;
		int lenient = dmn_dt_load(data, size, &opts, &board);
		if (lenient != strict)
			__builtin_trap(); /* the first error is the same either way */
		if (lenient != -ENOMEM && !board)
			__builtin_trap();
		if (board)
			use_board(board);
		dmn_dt_board_free(board);
	}

	struct dmn_lint_counts counts;
	unsigned n_findings = 0;
	int lint = dmn_dt_lint(data, size, opts.supported_hw, n_hw, count_finding,
			   &n_findings, &counts);
	if ((lint == -EILSEQ) != (strict == -EILSEQ))
		__builtin_trap();
	if (lint == 0 && counts.errors + counts.warnings + counts.notes != n_findings)
		__builtin_trap();
	return 0;
}
