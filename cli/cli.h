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

/* lint -W / -E: a check turned off, promoted to an error, or left as the
 * lint gives it (-W CHECK, -E no-CHECK); the last rule for a check wins. */
enum cli_check_rule_kind { CLI_CHECK_DEFAULT, CLI_CHECK_OFF, CLI_CHECK_ERROR };
struct cli_check_rule {
	const char *check;
	enum cli_check_rule_kind rule;
};
#define CLI_MAX_CHECK_RULES 64
#define CLI_MAX_INCLUDE_DIRS 64
/* An unknown option is compared with the known ones (did-you-mean) on its
 * first CLI_MAX_OPTION_LEN bytes: the longest option is far shorter. */
#define CLI_MAX_OPTION_LEN 63
#define CLI_MAX_FOLLOW 64

struct cli_options {
	const char *positional[2];
	unsigned n_positional;
	int json;
	const char *trace_path;
	const char *svg_path;
	uint32_t *supported_hw; /* as many values as given; freed at exit */
	int n_supported_hw;
	int parents_all; /* --provider-parents=all */
	int help;
	int strict; /* simulate: exit 1 on a command failure not expected */
	int all;    /* simulate: every domain in the statistics */
	uint32_t trace_max_events; /* simulate: --trace-max-events */
	int trace_max_set;
	struct cli_check_rule check_rules[CLI_MAX_CHECK_RULES];
	unsigned n_check_rules;
	const char *explain; /* --explain DOMAIN (summary) */
	unsigned sim_flags;  /* more DMN_SIM_* flags for cli_sim_open */
	/* sources: -I DIR (cpp -I and dtc -i), --kernel-tree DIR */
	const char *include_dirs[CLI_MAX_INCLUDE_DIRS];
	unsigned n_include_dirs;
	const char *kernel_tree;
	/* lint: --tree DIR, --format gcc|json|sarif (-1 unset), -j N */
	const char *tree;
	int format;
	unsigned jobs;
	int energy;		 /* --energy, or --power-model */
	const char *power_model; /* --power-model FILE */
	const char *follow[CLI_MAX_FOLLOW]; /* simulate: --follow DEV|all */
	unsigned n_follow;
};

/* Parse argv after the subcommand, getopt_long style: `--` ends the
 * options, `--opt=value` or `--opt value`, short flags bundle (-ja), a
 * short option's value follows it or is the next argument (-Wno-x, -W
 * no-x); a misspelt long option gets a "did you mean". @allowed: letters of
 * the options taken: j --json (-j), t --trace, s --svg, h --supported-hw,
 * S --strict, a --all (-a), m --trace-max-events, W -W/--warning, E
 * -E/--error, p --provider-parents,
 * e --explain, I -I/--include, K --kernel-tree, T --tree, f --format,
 * J --jobs (and -j N: -j followed by a number is jobs, else --json),
 * n --energy, P --power-model, F --follow.
 * Prints the error; returns 0 or EXIT_INPUT. */
int cli_parse(int argc, char **argv, const char *cmd, const char *allowed,
	      unsigned max_positional, struct cli_options *opt);

/* An option: its long name, the letter that identifies it (in @allowed, or
 * to a command's own setter), its short name (0: none) and whether it
 * takes a value. */
struct cli_option {
	const char *name;
	char letter;
	char short_name;
	int takes_value;
};

/* A command's own options (scmi-serve's), parsed by the same rules as the
 * common ones: @set gets each with its value (NULL for a flag) and returns
 * 0, or prints the error and returns EXIT_INPUT. */
#define CLI_MAX_OWN_OPTIONS 32
struct cli_own_options {
	const struct cli_option *table;
	size_t n; /* at most CLI_MAX_OWN_OPTIONS */
	int (*set)(void *user, char letter, const char *value);
	void *user;
};

/* cli_parse with the command's own options beside the common ones
 * @allowed names (looked up after them; a misspelling is suggested among
 * both). */
int cli_parse_own(int argc, char **argv, const char *cmd, const char *allowed,
		  const struct cli_own_options *own, unsigned max_positional,
		  struct cli_options *opt);

/* Parse a --supported-hw value into @opt (storage that lives until exit).
 * Prints the error; returns 0 or EXIT_INPUT. */
int cli_parse_supported_hw(const char *cmd, const char *value,
			   struct cli_options *opt);

/* The most domino reads of one input: a blob (by its header's totalsize)
 * and anything else (a scenario). */
#define CLI_MAX_BLOB (1u << 30)
#define CLI_MAX_TEXT (64u << 20)
/*
 * Read a board or a scenario (@path "-": stdin). A device tree blob is read
 * up to its header's totalsize (refused above CLI_MAX_BLOB; bytes after it
 * are left unread, with a warning); anything else only up to its first 40
 * bytes when @board is set (enough for the loader to say it is no blob),
 * else up to CLI_MAX_TEXT (refused above): an endless input such as
 * /dev/zero never grows the buffer without bound. Returns 0, or prints "FILE: error: ..." and
 * returns EXIT_INPUT. The buffer is malloc'ed and NUL-terminated.
 */
int cli_read_file(const char *path, int board, char **data, size_t *size);

/* Is @data a flattened device tree (magic 0xd00dfeed)? */
int cli_is_dtb(const char *data, size_t size);

/* The board to use: a file, or the built-in demo when @path is NULL. */
struct cli_srcmap;
struct cli_board {
	const char *name; /* for messages: the path or "demo" */
	char *data;       /* owned, NULL for the demo */
	const void *blob;
	size_t size;
	int trailing; /* the file goes on after the blob's end */
	/* a source built with cpp and dtc (source.h): private */
	void *built;
	struct cli_srcmap *map; /* made on first need (cli_board_map) */
	int map_tried;
	void *placed; /* a report model with placed warnings (cli_sim_report) */
};
/* A blob, or device tree source (named .dts/.dtsi, or starting as one),
 * which is built with cpp and dtc with @opt's -I and --kernel-tree (a
 * failure prints cpp's and dtc's messages and returns EXIT_INPUT). */
int cli_board_open(const struct cli_options *opt, const char *path,
		   struct cli_board *board);
void cli_board_close(struct cli_board *board);
/* The source map of a board built from source (dtc -T -T, run once), or
 * NULL (a blob; or the annotation failed: its messages are printed). */
struct cli_srcmap *cli_board_map(struct cli_board *board);
/* simulate's one argument, read once (it may be stdin): a board when it is
 * a blob or named as one (.dtb, .dtbo, .dts, .dtsi: then the loader says
 * what is wrong with it), filling @board; else a scenario, in *@text
 * (malloc'ed, NUL-terminated) with @board zeroed. Returns 0 or prints the
 * error and returns EXIT_INPUT. */
int cli_board_or_scenario(const struct cli_options *opt, const char *path,
			  struct cli_board *board, char **text, size_t *len);
/* Once the board has loaded: warn about bytes after the blob's end. */
void cli_board_loaded(const struct cli_board *board);

struct dmn_sim;
/* Load @board into a new simulation with the options' hardware version;
 * loader errors are printed (warnings are not: lint shows them). Returns 0,
 * or prints the error and returns EXIT_INPUT. */
int cli_sim_open(const struct cli_options *opt, struct cli_board *board,
		 struct dmn_sim **out);

/* dmn_sim_report(@sim, @events, @m), and for a board built from source
 * the same model with its loader warnings at their source lines
 * ("FILE:LINE:COL: SEVERITY: MESSAGE [CHECK]"; kept with @board). */
int cli_sim_report(struct cli_board *board, struct dmn_sim *sim, int events,
		   const struct dmn_report_model **m);

/* --energy / --power-model FILE: meter the simulation's energy
 * (dmn_sim_energy); nothing without them. Prints a bad model's error as
 * FILE:LINE: error: ...; returns 0 or EXIT_INPUT. */
int cli_energy_open(const struct cli_options *opt, struct dmn_sim *sim);
/* --follow DEV|all: the devices run at the fastest OPP their domains
 * already allow (dmn_opp_device_follow). Returns 0 or EXIT_INPUT. */
int cli_follow(const struct cli_options *opt, struct dmn_sim *sim);

/* A diagnostics sink printing `FILE: NODE: PROP: SEV: MESSAGE` to stderr;
 * with @board built from source, FILE:LINE:COL: SEV: MESSAGE [CHECK] at the
 * line that wrote the property. */
struct cli_diag_printer {
	const char *file;
	unsigned errors;
	int quiet_warnings;
	struct cli_board *board; /* or NULL */
};
void cli_print_diag(void *user, const struct dmn_dt_diag *diag);

/* Writers' sink over a FILE*; a failed write returns -errno (and, on
 * stdout, is remembered for cli_finish). */
struct dmn_report_sink cli_file_sink(FILE *f);
/*
 * Write a report to @path with @writer: to a temporary file in the same
 * folder, renamed over @path only once complete, so a failure leaves the
 * previous file intact (an existing non-regular file, e.g. a FIFO or
 * /dev/stdout, is written in place). Prints "PATH: error: ...: REASON" and
 * returns EXIT_INPUT on failure.
 */
int cli_write_file(const char *path, const struct dmn_report_model *m,
		   int (*writer)(const struct dmn_report_model *, const struct dmn_report_sink *));

/*
 * Standard output. cli_stdio_init() runs first: a closed stdin, stdout or
 * stderr gets /dev/null, so no file opened later takes its place (a closed
 * stdout counts as a failed write). The commands print through cli_printf,
 * cli_puts and cli_file_sink(stdout), which remember the first failure's
 * errno; cli_finish(rc) flushes and returns @rc, or prints "domino: error:
 * cannot write standard output: REASON" and returns EXIT_INPUT.
 */
void cli_stdio_init(void);
void cli_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void cli_puts(const char *s);
/* @s with control characters and invalid UTF-8 replaced (dmn_report_text_escape):
 * for every name or message that comes from a board or scenario. */
void cli_text(FILE *f, const char *s);
/* On stderr: @path escaped as cli_text does (paths are names a user or a
 * script chose), then @fmt, which starts ": ". */
void cli_path_msg(const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Each line of @text (ending in '\n') as cli_text prints it, with '\n'. */
void cli_text_lines(FILE *f, const char *text);
int cli_stdout_error(void); /* the errno of the first failure, or 0 */
int cli_finish(int rc);

/* Write @m's JSON object (dmn_report_write_json) to standard output
 * without its closing "\n}\n", for the caller's own members to follow
 * (each starting ",\n  "). Returns 0 or a negative errno. */
int cli_json_begin(const struct dmn_report_model *m);

/* Colour when @f is a terminal, NO_COLOR is unset or empty and TERM is
 * not "dumb". */
int cli_use_color(FILE *f);

int cmd_summary(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_scmi_serve(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif
