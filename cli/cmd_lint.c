/* SPDX-License-Identifier: MIT */
/* domino lint BOARD.dtb|BOARD.dts [--json] [--format F] [-W ..] [-E ..]
 *             [-I DIR] [--kernel-tree DIR] [--supported-hw V[,V...]]
 * domino lint --tree DIR [-j N] [--format F] ... */
#include "lint_out.h"

#include <domino/lint.h>
#include <domino/sim.h>
#include <errno.h>
#include <string.h>

static const char lint_help[] =
	"usage: domino lint BOARD.dtb|BOARD.dts [--json] [--format gcc|json|sarif]\n"
	"                  [-W [no-]CHECK] [-E [no-]CHECK] [--supported-hw V[,V...]]\n"
	"                  [-I DIR]... [--kernel-tree DIR]\n"
	"       domino lint --tree DIR [-j N] [--format gcc|json|sarif] [-W ..] [-E ..]\n"
	"\n"
	"Check the board's power-domain, OPP and idle-state wiring for problems\n"
	"dtc does not find. Each finding gives its severity, place, and a one-line\n"
	"explanation, with the check's name in brackets.\n"
	"\n"
	"A blob's findings name the node path and property:\n"
	"  BOARD.dtb: NODE: PROPERTY: SEVERITY: MESSAGE [CHECK]\n"
	"Device tree source (.dts) is built with cpp and dtc as Linux's dtbs rule\n"
	"builds it, and each finding names the line that wrote the property (GCC's\n"
	"form), with a note where a .dtsi first set what a .dts overrode:\n"
	"  FILE:LINE:COL: SEVERITY: MESSAGE [CHECK]\n"
	"  FILE:LINE:COL: note: PROPERTY was first set here\n"
	"\n"
	"  -j, --json           summary --json's object (board, domains, warnings)\n"
	"                       with \"findings\": [...], \"errors\": N and \"counts\":\n"
	"                       {\"errors\", \"warnings\", \"notes\"} (--format json)\n"
	"  --format F           gcc (the default: the lines above), json, or sarif\n"
	"                       (SARIF 2.1.0, as code scanning services read it)\n"
	"  -W no-CHECK          drop CHECK's findings (-W CHECK: keep them again)\n"
	"  -E CHECK             make CHECK's findings errors (-E no-CHECK: undo)\n"
	"                       (as dtc's -W/-E; the check is the name in brackets;\n"
	"                       the last option for a check wins)\n"
	"  --supported-hw V,..  hardware version for opp-supported-hw entries\n"
	"  -I DIR               a folder for #include and /include/ (cpp -I, dtc -i)\n"
	"  --kernel-tree DIR    a Linux tree: its include paths, as its dtbs rule\n"
	"                       gives them (DIR/scripts/dtc/include-prefixes), and\n"
	"                       its own scripts/dtc/dtc when built; by default the\n"
	"                       nearest folder above BOARD.dts holding\n"
	"                       scripts/dtc/include-prefixes and arch/\n"
	"  --tree DIR           every board under DIR, in parallel: in a kernel tree,\n"
	"                       every .dts of arch/arm and arch/arm64 (or under DIR\n"
	"                       when DIR is a folder inside one); elsewhere every\n"
	"                       .dtb under DIR (every .dts if there is none). A\n"
	"                       finding boards share (a .dtsi's) is one line, with\n"
	"                       a note naming how many boards and a few of them;\n"
	"                       a table per check ends the output\n"
	"  -j N, --jobs N       boards linted at once (default: the CPUs online)\n"
	"\n"
	"A progress bar is drawn on standard error when it is a terminal.\n"
	"cpp and dtc are found on PATH, or named by $CPP and $DTC.\n"
	"\n"
	"exit status: 0 no errors (warnings and notes allowed), 1 errors found,\n"
	"2 unreadable input, a board cpp or dtc could not build, or bad usage;\n"
	"130 --tree interrupted\n";

/* Kept findings, after -W and -E (the dmn_lint_fn of every lint run). */
struct keeper {
	struct lint_board *board;
	const struct cli_options *opt;
};

static void keep(void *user, const struct dmn_dt_diag *f)
{
	struct keeper *k = user;
	struct dmn_dt_diag d = *f;
	if (lint_rule(k->opt, f, &d.severity))
		lint_board_add(k->board, &d);
}

int cli_lint_blob(const struct cli_options *opt, const void *blob, size_t size,
		  struct lint_board *out, struct dmn_sim **sim,
		  struct dmn_dt_board **board, const char *name)
{
	if (board)
		*board = NULL;
	struct keeper k = {out, opt};
	struct dmn_dt_load_opts lo;
	memset(&lo, 0, sizeof(lo));
	lo.supported_hw = opt->supported_hw;
	lo.n_supported_hw = (unsigned)opt->n_supported_hw;
	lo.flags = DMN_DT_LOAD_LENIENT;
	struct dmn_dt_board *b = NULL;
	int err = dmn_dt_load(blob, size, &lo, &b);
	if (!b)
		return err ? err : -ENOMEM;
	struct dmn_lint_options o;
	memset(&o, 0, sizeof(o));
	o.emit = keep;
	o.user = &k;
	o.board_name = name;
	o.sim = sim;
	err = dmn_lint_board(b, err, blob, size, &o, NULL);
	if (sim && *sim) {
		/* the simulation reads the board: freed after it */
		*board = b;
		b = NULL;
	}
	dmn_dt_board_free(b);
	if (!err && out->oom)
		err = -ENOMEM;
	return err;
}

/*
 * docs/json.md, Top level: every --json is one object with `board`,
 * `domains` and, where there are any, `warnings` (the loader's, as
 * strings): the summary's object without its closing brace, for lint's
 * members to follow. A board the simulator cannot load (lint says why:
 * load-failed) has no domains.
 */
static int json_open(struct cli_board *board, struct dmn_sim *sim, const char *name)
{
	const struct dmn_report_model *m;
	int err = sim ? cli_sim_report(board, sim, 0, &m) : -EINVAL;
	if (!err)
		return cli_json_begin(m);
	if (err != -ENOMEM && !cli_stdout_error()) {
		struct dmn_report_sink out = cli_file_sink(stdout);
		cli_puts("{\n  \"board\": ");
		err = dmn_report_json_escape(&out, name);
		cli_puts(",\n  \"domains\": []");
	}
	return err;
}

/* An unreadable blob is bad input, not a finding about the board: its
 * error goes to stderr (docs/command-line.md, Errors and output), in
 * JSON mode too. */
static void print_corrupt(const char *file, const struct lint_finding *f)
{
	cli_text(stderr, file);
	fputs(": ", stderr);
	cli_text(stderr, f->node);
	fputs(": ", stderr);
	if (f->property) {
		cli_text(stderr, f->property);
		fputs(": ", stderr);
	}
	fputs("error: ", stderr);
	cli_text(stderr, f->message);
	fputc('\n', stderr);
}

static int lint_one(const struct cli_options *opt)
{
	struct cli_board board;
	int rc = cli_board_open(opt, opt->positional[0], &board);
	if (rc)
		return rc;
	int json = opt->format == LINT_JSON;
	struct lint_board lb;
	memset(&lb, 0, sizeof(lb));
	lb.name = board.name;
	lb.file = board.name;
	struct dmn_sim *sim = NULL;
	struct dmn_dt_board *loaded = NULL;
	int err = cli_lint_blob(opt, board.blob, board.size, &lb, json ? &sim : NULL,
				&loaded, board.name);
	if (err == -ENOMEM) {
		dmn_sim_free(sim);
		dmn_dt_board_free(loaded);
		lint_board_free(&lb);
		cli_board_close(&board);
		fprintf(stderr, "domino lint: error: %s\n", dmn_strerror(err));
		return EXIT_INPUT;
	}
	if (!err)
		cli_board_loaded(&board);
	for (size_t i = 0; i < lb.n; i++)
		if (!strcmp(lb.v[i].check, "dt-corrupt"))
			print_corrupt(board.name, &lb.v[i]);
	if (lb.n && !err) {
		struct cli_srcmap *map = cli_board_map(&board);
		if (map)
			lint_board_place(&lb, map);
	}
	const struct dmn_lint_counts counts = lb.counts;
	if (json) {
		int jerr = json_open(&board, sim, board.name);
		if (jerr && jerr != -EINVAL) {
			if (!cli_stdout_error())
				fprintf(stderr, "domino lint: error: %s\n", dmn_strerror(jerr));
			err = err ? err : jerr;
			rc = EXIT_INPUT;
		} else {
			cli_puts(",\n  \"findings\": [");
			for (size_t i = 0; i < lb.n; i++) {
				cli_puts(i ? ",\n    {" : "\n    {");
				lint_json_finding(&lb.v[i]);
				cli_puts("}");
			}
			cli_printf("%s],\n  \"errors\": %u,\n  \"counts\": {\"errors\": %u, \"warnings\": %u, \"notes\": %u}\n}\n",
				   lb.n ? "\n  " : "", counts.errors, counts.errors,
				   counts.warnings, counts.notes);
		}
	} else if (opt->format == LINT_SARIF) {
		if (!err)
			lint_write_sarif_one(&lb);
	} else {
		int color = cli_use_color(stdout);
		size_t shown = 0;
		for (size_t i = 0; i < lb.n; i++) {
			if (strcmp(lb.v[i].check, "dt-corrupt")) {
				lint_print_gcc(&lb.v[i], board.name, color);
				shown++;
			}
		}
		if (!err)
			cli_printf("%s%u error%s, %u warning%s, %u note%s\n", shown ? "\n" : "",
				   counts.errors, counts.errors == 1 ? "" : "s",
				   counts.warnings, counts.warnings == 1 ? "" : "s",
				   counts.notes, counts.notes == 1 ? "" : "s");
	}
	dmn_sim_free(sim);
	dmn_dt_board_free(loaded);
	lint_board_free(&lb);
	cli_board_close(&board);
	if (rc)
		return rc;
	if (err) {
		if (!counts.errors)
			cli_path_msg(opt->positional[0], ": error: cannot lint: %s\n",
				     dmn_strerror(err));
		return EXIT_INPUT;
	}
	return counts.errors ? EXIT_CHECK : EXIT_OK;
}

int cmd_lint(int argc, char **argv)
{
	struct cli_options opt;
	int rc = cli_parse(argc, argv, "lint", "jhWEIKTfJ", 1, &opt);
	if (rc)
		return rc;
	if (opt.help) {
		cli_puts(lint_help);
		return EXIT_OK;
	}
	if (opt.json) {
		if (opt.format >= 0 && opt.format != LINT_JSON) {
			fprintf(stderr, "domino lint: error: --json and --format %s do not mix\n",
				opt.format == LINT_GCC ? "gcc" : "sarif");
			return EXIT_INPUT;
		}
		opt.format = LINT_JSON;
	}
	if (opt.format < 0)
		opt.format = LINT_GCC;
	if (opt.tree) {
		if (opt.n_positional) {
			fprintf(stderr, "domino lint: error: --tree DIR lints the boards under DIR: give no BOARD too\n");
			return EXIT_INPUT;
		}
		return cli_lint_tree(&opt);
	}
	if (!opt.n_positional) {
		fprintf(stderr, "domino lint: error: give a BOARD.dtb (see domino lint --help)\n");
		return EXIT_INPUT;
	}
	return lint_one(&opt);
}
