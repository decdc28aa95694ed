/* SPDX-License-Identifier: MIT */
/* The domino command: shared pieces of the subcommands. */
#ifndef DOMINO_CLI_H
#define DOMINO_CLI_H

#include <domino/dt.h>
#include <domino/report.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
	EXIT_OK = 0,
	EXIT_CHECK = 1, /* a lint error or an expect failed */
	EXIT_INPUT = 2, /* bad input or usage */
};

struct cli_options {
	const char *positional[2];
	unsigned n_positional;
	int json;
	const char *trace_path;
	const char *svg_path;
	uint32_t supported_hw[DT_MAX_HW_CELLS];
	int n_supported_hw;
	int help;
};

/* Parse argv after the subcommand; @allowed: "jtsh" letters for --json,
 * --trace, --svg, --supported-hw. Prints the error; returns 0 or EXIT_INPUT. */
int cli_parse(int argc, char **argv, const char *cmd, const char *allowed,
	      unsigned max_positional, struct cli_options *opt);

/* Read a whole file; returns 0, or prints "FILE: error: ..." and returns
 * EXIT_INPUT. The buffer is malloc'ed and NUL-terminated. */
int cli_read_file(const char *path, char **data, size_t *size);

/* Is @data a flattened device tree (magic 0xd00dfeed)? */
int cli_is_dtb(const char *data, size_t size);

/* The board to use: a file, or the built-in demo when @path is NULL. */
struct cli_board {
	const char *name; /* for messages: the path or "demo" */
	char *data;       /* owned, NULL for the demo */
	const void *blob;
	size_t size;
};
int cli_board_open(const char *path, struct cli_board *board);
void cli_board_close(struct cli_board *board);

struct sim;
/* Load @board into a new simulation with the options' hardware version;
 * loader errors are printed (warnings are not: lint shows them). Returns 0,
 * or prints the error and returns EXIT_INPUT. */
int cli_sim_open(const struct cli_options *opt, const struct cli_board *board,
		 struct sim **out);

/* A diagnostics sink printing `FILE: NODE: PROP: SEV: MESSAGE` to stderr. */
struct cli_diag_printer {
	const char *file;
	unsigned errors;
	int quiet_warnings;
};
void cli_print_diag(void *user, const struct dt_diag *diag);

/* Writers' sink over a FILE*. */
struct rpt_sink cli_file_sink(FILE *f);
/* Write a report to @path with @writer; prints errors. */
int cli_write_file(const char *path, const struct rpt_model *m,
		   int (*writer)(const struct rpt_model *, const struct rpt_sink *));

/* Colour when stdout is a terminal and NO_COLOR is unset. */
int cli_use_color(FILE *f);

int cmd_summary(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_scmi_serve(int argc, char **argv);

#endif
