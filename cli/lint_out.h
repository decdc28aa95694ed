/* SPDX-License-Identifier: MIT */
/* domino lint: findings kept, placed on source lines, folded and written. */
#ifndef DOMINO_CLI_LINT_OUT_H
#define DOMINO_CLI_LINT_OUT_H

#include "cli.h"
#include "source.h"

#include <domino/lint.h>

enum lint_format { LINT_GCC, LINT_JSON, LINT_SARIF };

/* One finding, after -W and -E; every string its own (one block). */
struct lint_finding {
	enum dmn_dt_severity severity;
	const char *check;
	const char *node;
	const char *property; /* or NULL */
	const char *message;
	int error;
	struct cli_loc at, first; /* file NULL: not placed */
};

/* The findings of one board. */
struct lint_board {
	const char *name;  /* as shown: the path, or ARCH/VENDOR/BOARD */
	const char *file;  /* the file given (.dtb or .dts) */
	struct lint_finding *v;
	size_t n, cap;
	struct dmn_lint_counts counts;
	char *failed;      /* why it could not be linted (printed as is), or NULL */
	int oom;
};

/* Keep @f in @b (a dmn_lint_fn once -W/-E applied: see lint_keep). */
void lint_board_add(struct lint_board *b, const struct dmn_dt_diag *f);
/* -W/-E of @opt on @f: 0 to drop it, else 1 with *@out its severity. */
int lint_rule(const struct cli_options *opt, const struct dmn_dt_diag *f,
	      enum dmn_dt_severity *out);
/* Place every finding with @map (file names copied). */
void lint_board_place(struct lint_board *b, struct cli_srcmap *map);
void lint_board_free(struct lint_board *b);
/* The findings only (@b->failed stays). */
void lint_board_free_findings(struct lint_board *b);

/* One finding in GCC form on stdout: "FILE:LINE:COL: SEV: MESSAGE [CHECK]"
 * and a note where it was first set; unplaced, the node-path form "FILE:
 * NODE: PROP: SEV: MESSAGE [CHECK]". @color: severities in colour. */
void lint_print_gcc(const struct lint_finding *f, const char *file, int color);

/* Write the findings of @boards (@n of them) folded: findings equal in
 * check, severity, message and place (source line, else node and
 * property) are one, with their boards. GCC form ends with the per-check
 * table. Returns the exit status (by severity, 2 if a board failed). */
int lint_write_tree(enum lint_format fmt, struct lint_board *boards, size_t n,
		    int color);

/* SARIF 2.1.0 of one board's findings (not folded). */
void lint_write_sarif_one(const struct lint_board *b);

/* JSON members of one finding (the object's inside, after '{'). */
void lint_json_finding(const struct lint_finding *f);

/* Load @blob leniently (once) and lint it into @out with @opt's version
 * and -W/-E. @sim (may be NULL): the simulation lint built, when the board
 * builds; then *@board receives the board it reads, freed after it.
 * Returns dmn_lint_board's result (-ENOMEM also when a finding could not
 * be kept). */
struct dmn_sim;
int cli_lint_blob(const struct cli_options *opt, const void *blob, size_t size,
		  struct lint_board *out, struct dmn_sim **sim,
		  struct dmn_dt_board **board, const char *name);

/* domino lint --tree (lint_tree.c). */
int cli_lint_tree(const struct cli_options *opt);

#endif /* DOMINO_CLI_LINT_OUT_H */
