/* SPDX-License-Identifier: MIT */
/* domino summary [BOARD.dtb] [--json] [--supported-hw V[,V...]]
 *                [--explain DOMAIN] */
#include "cli.h"

#include <domino/sim.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char summary_help[] =
	"usage: domino summary [BOARD.dtb|BOARD.dts] [--json] [--supported-hw V[,V...]]\n"
	"                      [--provider-parents by-name|all]\n"
	"                      [--explain DOMAIN] [-I DIR]... [--kernel-tree DIR]\n"
	"                      [--energy] [--power-model FILE]\n"
	"\n"
	"Print the board's domain tree: each domain's status, pstate (with the\n"
	"level's name where the OPP table gives one), idle state, parents and\n"
	"children, and the devices attached to it with their votes (and the\n"
	"specifier's further cells, 'args', for providers of 2+ cells); then\n"
	"which devices require OPPs of another device's table (required-opps into\n"
	"a table without opp-level, e.g. MediaTek CPUs and their CCI); then each\n"
	"domain's levels (value and name, both usable in a scenario) and each\n"
	"device's OPP rates. Without BOARD, the built-in demo SoC.\n"
	"\n"
	"  -j, --json           one JSON object (its fields: docs/json.md)\n"
	"  --supported-hw V,..  hardware version for opp-supported-hw entries\n"
	"  --provider-parents by-name|all\n"
	"                       i.MX8M block controllers: each domain under\n"
	"                       \"bus\" and its own named parent, as Linux's\n"
	"                       drivers (by-name, the default), or under every\n"
	"                       parent the node lists (all, for comparison)\n"
	"  --explain DOMAIN     instead of the tree, why DOMAIN is on or off, at\n"
	"                       its pstate and in its idle state (with --json:\n"
	"                       the summary's object with \"explain\": [lines])\n"
	"  -I DIR, --kernel-tree DIR\n"
	"                       BOARD.dts is built with cpp and dtc as Linux builds\n"
	"                       it: -I folders for its includes, and the kernel\n"
	"                       tree's include paths (found above the file by\n"
	"                       default); its loader warnings name their lines\n"
	"  --energy             also each domain's and device's power in each\n"
	"                       state (on at each level, idle, off; each OPP\n"
	"                       entry, suspended), from the device tree\n"
	"                       (opp-microwatt, dynamic-power-coefficient), and\n"
	"                       which states have none (docs/energy.md)\n"
	"  --power-model FILE   --energy with FILE's powers added (docs/energy.md)\n";

/* The answer of `explain DOMAIN` for the board as loaded (docs/lifecycle.md,
 * explain); with --json, the summary's object (docs/json.md) with "explain":
 * its lines. */
static int explain(struct cli_board *board, struct dmn_sim *sim, const char *domain,
		   int json)
{
	char *text, why[256];
	int err = dmn_sim_explain(sim, domain, &text, why, sizeof(why));
	if (err == -ENOENT || err == -EEXIST) {
		fputs("domino summary: error: --explain: ", stderr);
		cli_text(stderr, why);
		fputc('\n', stderr);
		return EXIT_INPUT;
	}
	const struct dmn_report_model *m;
	if (!err && json && !(err = cli_sim_report(board, sim, 0, &m)))
		err = cli_json_begin(m);
	if (err) {
		if (!cli_stdout_error())
			fprintf(stderr, "domino summary: error: %s\n",
				dmn_strerror(err));
		free(text);
		return EXIT_INPUT;
	}
	struct dmn_report_sink out = cli_file_sink(stdout);
	if (json)
		cli_puts(",\n  \"explain\": [");
	/* Line by line: cli_text makes control characters (a newline
	 * too) harmless, and names come from the board. */
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = 0;
		if (json) {
			cli_puts(line == text ? "\n    " : ",\n    ");
			dmn_report_json_escape(&out, line);
		} else {
			cli_text(stdout, line);
			cli_puts("\n");
		}
	}
	if (json)
		cli_puts("\n  ]\n}\n");
	free(text);
	return EXIT_OK;
}

int cmd_summary(int argc, char **argv)
{
	struct cli_options opt;
	int rc = cli_parse(argc, argv, "summary", "jhpeIKnP", 1, &opt);
	if (rc)
		return rc;
	if (opt.help) {
		cli_puts(summary_help);
		return EXIT_OK;
	}
	struct cli_board board;
	rc = cli_board_open(&opt, opt.n_positional ? opt.positional[0] : NULL, &board);
	if (rc)
		return rc;
	struct dmn_sim *sim;
	if (cli_sim_open(&opt, &board, &sim)) {
		cli_board_close(&board);
		return EXIT_INPUT;
	}
	if (cli_energy_open(&opt, sim)) {
		dmn_sim_free(sim);
		cli_board_close(&board);
		return EXIT_INPUT;
	}
	if (opt.explain) {
		rc = explain(&board, sim, opt.explain, opt.json);
		dmn_sim_free(sim);
		cli_board_close(&board);
		return rc;
	}
	const struct dmn_report_model *m;
	int err = cli_sim_report(&board, sim, 0, &m);
	if (!err) {
		struct dmn_report_sink out = cli_file_sink(stdout);
		if (opt.json) {
			err = dmn_report_write_json(m, &out);
		} else {
			struct dmn_report_text_options to = {cli_use_color(stdout), 0};
			err = dmn_report_write_summary_text(m, &to, &out);
			if (!err && m->energy) {
				cli_puts("\n");
				err = dmn_report_write_power_text(m, &to, &out);
			}
			const struct dmn_dt_board *b = dmn_sim_board(sim);
			/* the loader's findings at the severity lint gives
			 * them (docs/lint-corpus.md): counted alike */
			if (!err && (b->n_warnings || b->n_notes)) {
				cli_printf("\n%u warning%s, %u note%s while loading (domino lint ",
					   b->n_warnings, b->n_warnings == 1 ? "" : "s",
					   b->n_notes, b->n_notes == 1 ? "" : "s");
				cli_text(stdout, opt.n_positional ? board.name : "");
				cli_puts(" shows them)\n");
			}
			unsigned skipped = b->n_opp_hw_unavailable;
			if (!err && skipped && !opt.n_supported_hw)
				cli_printf("%u OPP entr%s skipped: they need a hardware version (--supported-hw)\n",
					   skipped, skipped == 1 ? "y" : "ies");
			if (!err && skipped && opt.n_supported_hw) {
				cli_printf("%u OPP entr%s skipped: not supported by hardware version ",
					   skipped, skipped == 1 ? "y" : "ies");
				for (int i = 0; i < opt.n_supported_hw; i++)
					cli_printf("%s0x%x", i ? "," : "",
						   (unsigned)opt.supported_hw[i]);
				cli_puts(" (opp-supported-hw did not match)\n");
			}
		}
	}
	dmn_sim_free(sim);
	cli_board_close(&board);
	if (err) {
		/* a failed write is cli_finish's to report, with its errno */
		if (!cli_stdout_error())
			fprintf(stderr, "domino summary: error: %s\n",
				dmn_strerror(err));
		return EXIT_INPUT;
	}
	return EXIT_OK;
}
