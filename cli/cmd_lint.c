/* SPDX-License-Identifier: MIT */
/* domino lint BOARD.dtb [--json] [--supported-hw V[,V...]] */
#include "cli.h"

#include <domino/lint.h>
#include <domino/sim.h>
#include <errno.h>
#include <string.h>

static const char lint_help[] =
	"usage: domino lint BOARD.dtb [--json] [-W [no-]CHECK] [-E [no-]CHECK]\n"
	"                  [--supported-hw V[,V...]]\n"
	"\n"
	"Check the board's power-domain, OPP and idle-state wiring for problems\n"
	"dtc does not find. Each finding gives its severity, node path, property\n"
	"and a one-line explanation, with the check's name in brackets.\n"
	"\n"
	"  -j, --json           summary --json's object (board, domains, warnings)\n"
	"                       with \"findings\": [...], \"errors\": N and \"counts\":\n"
	"                       {\"errors\", \"warnings\", \"notes\"}\n"
	"  -W no-CHECK          drop CHECK's findings (-W CHECK: keep them again)\n"
	"  -E CHECK             make CHECK's findings errors (-E no-CHECK: undo)\n"
	"                       (as dtc's -W/-E; the check is the name in brackets;\n"
	"                       the last option for a check wins)\n"
	"  --supported-hw V,..  hardware version for opp-supported-hw entries\n"
	"\n"
	"exit status: 0 no errors (warnings and notes allowed), 1 errors found,\n"
	"2 unreadable input or bad usage\n";

struct printer {
	const char *file;
	int json;
	int color;
	struct dmn_report_sink out;
	unsigned n;
	const struct cli_options *opt;
	struct dmn_lint_counts counts; /* after -W and -E */
};

/* The rule the last -W or -E naming @check set. */
static enum cli_check_rule_kind check_rule(const struct cli_options *opt,
					   const char *check)
{
	enum cli_check_rule_kind rule = CLI_CHECK_DEFAULT;
	for (unsigned i = 0; i < opt->n_check_rules; i++)
		if (!strcmp(opt->check_rules[i].check, check))
			rule = opt->check_rules[i].rule;
	return rule;
}

static void print_finding(void *user, const struct dmn_dt_diag *f)
{
	struct printer *p = user;
	struct dmn_dt_diag promoted;
	/* An unreadable blob is no check to turn off. */
	if (strcmp(f->check, "dt-corrupt")) {
		enum cli_check_rule_kind rule = check_rule(p->opt, f->check);
		if (rule == CLI_CHECK_OFF)
			return;
		if (rule == CLI_CHECK_ERROR) {
			promoted = *f;
			promoted.severity = DMN_DT_SEV_ERROR;
			f = &promoted;
		}
	}
	if (f->severity == DMN_DT_SEV_ERROR)
		p->counts.errors++;
	else if (f->severity == DMN_DT_SEV_WARNING)
		p->counts.warnings++;
	else
		p->counts.notes++;
	/* A blob that cannot be read is bad input, not a finding about the
	 * board: its error goes to stderr (docs/command-line.md, Errors and
	 * output), in JSON mode too. */
	if (!strcmp(f->check, "dt-corrupt")) {
		cli_text(stderr, p->file);
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
		if (!p->json)
			return;
	}
	if (p->json) {
		cli_puts(p->n++ ? ",\n    " : "\n    ");
		cli_puts("{\"severity\": ");
		dmn_report_json_escape(&p->out, dmn_dt_severity_name(f->severity));
		cli_puts(", \"check\": ");
		dmn_report_json_escape(&p->out, f->check);
		cli_puts(", \"node\": ");
		dmn_report_json_escape(&p->out, f->node);
		cli_puts(", \"property\": ");
		if (f->property)
			dmn_report_json_escape(&p->out, f->property);
		else
			cli_puts("null");
		cli_puts(", \"message\": ");
		dmn_report_json_escape(&p->out, f->message);
		cli_puts("}");
		return;
	}
	/* Node names, properties and messages come from the board: escaped,
	 * so a name holding ESC[2J or CR cannot clear the screen or fake a
	 * line such as "0 errors". */
	static const char *const colors[] = {"\033[1;31m", "\033[1;33m", "\033[1;36m"};
	const char *sev = dmn_dt_severity_name(f->severity);
	cli_text(stdout, p->file);
	cli_puts(": ");
	cli_text(stdout, f->node);
	cli_puts(": ");
	if (f->property) {
		cli_text(stdout, f->property);
		cli_puts(": ");
	}
	if (p->color)
		cli_printf("%s%s\033[0m: ", colors[f->severity], sev);
	else
		cli_printf("%s: ", sev);
	cli_text(stdout, f->message);
	cli_puts(" [");
	cli_text(stdout, f->check);
	cli_puts("]\n");
	p->n++;
}

/*
 * docs/json.md: every --json is one object with `board`, `domains` and, where
 * there are any, `warnings` (the loader's, as strings): the summary's
 * object without its closing brace, for lint's members to follow. A board
 * the simulator cannot load (lint says why: load-failed) has no domains.
 */
static int json_open(const struct cli_options *opt, const struct cli_board *board,
		     struct dmn_report_sink *out)
{
	struct dmn_sim_options so;
	memset(&so, 0, sizeof(so));
	so.board_name = board->name;
	so.supported_hw = opt->supported_hw;
	so.n_supported_hw = (unsigned)opt->n_supported_hw;
	struct dmn_sim *sim = NULL;
	const struct dmn_report_model *m;
	int err = dmn_sim_create(board->blob, board->size, &so, &sim);
	if (!err && !(err = dmn_sim_report(sim, 0, &m)))
		err = cli_json_begin(m);
	dmn_sim_free(sim);
	if (err && err != -ENOMEM && !cli_stdout_error()) {
		cli_puts("{\n  \"board\": ");
		err = dmn_report_json_escape(out, board->name);
		cli_puts(",\n  \"domains\": []");
	}
	return err;
}

int cmd_lint(int argc, char **argv)
{
	struct cli_options opt;
	int rc = cli_parse(argc, argv, "lint", "jhWE", 1, &opt);
	if (rc)
		return rc;
	if (opt.help) {
		cli_puts(lint_help);
		return EXIT_OK;
	}
	if (!opt.n_positional) {
		fprintf(stderr, "domino lint: error: give a BOARD.dtb (see domino lint --help)\n");
		return EXIT_INPUT;
	}
	struct cli_board board;
	rc = cli_board_open(opt.positional[0], &board);
	if (rc)
		return rc;
	struct printer p;
	memset(&p, 0, sizeof(p));
	p.file = board.name;
	p.json = opt.json;
	p.color = !opt.json && cli_use_color(stdout);
	p.out = cli_file_sink(stdout);
	p.opt = &opt;
	if (p.json) {
		int err = json_open(&opt, &board, &p.out);
		if (err) {
			cli_board_close(&board);
			if (!cli_stdout_error())
				fprintf(stderr, "domino lint: error: %s\n",
					dmn_strerror(err));
			return EXIT_INPUT;
		}
		cli_puts(",\n  \"findings\": [");
	}
	int err = dmn_dt_lint(board.blob, board.size, opt.supported_hw,
			  (unsigned)opt.n_supported_hw, print_finding, &p, NULL);
	const struct dmn_lint_counts counts = p.counts;
	if (!err)
		cli_board_loaded(&board);
	if (p.json) {
		cli_printf("%s],\n  \"errors\": %u,\n  \"counts\": {\"errors\": %u, \"warnings\": %u, \"notes\": %u}\n}\n",
			   p.n ? "\n  " : "", counts.errors, counts.errors,
			   counts.warnings, counts.notes);
	} else if (!err) {
		cli_printf("%s%u error%s, %u warning%s, %u note%s\n", p.n ? "\n" : "",
		       counts.errors, counts.errors == 1 ? "" : "s", counts.warnings,
		       counts.warnings == 1 ? "" : "s", counts.notes,
		       counts.notes == 1 ? "" : "s");
	}
	cli_board_close(&board);
	if (err) {
		if (!counts.errors)
			cli_path_msg(opt.positional[0], ": error: cannot lint: %s\n",
				     dmn_strerror(err));
		return EXIT_INPUT;
	}
	return counts.errors ? EXIT_CHECK : EXIT_OK;
}
