/* SPDX-License-Identifier: MIT */
/* domino: see, check and simulate a board's power domains. */
#include "cli.h"

#include <domino/context.h>
#include <domino/scenario.h>
#include <string.h>

static void usage(FILE *f)
{
	const char *text = "usage: domino COMMAND [ARGS]\n"
	      "\n"
	      "See, check and simulate a board's power domains, from its device tree.\n"
	      "\n"
	      "commands:\n"
	      "  summary  [BOARD.dtb] [--json]           the domain tree: status, pstate, idle\n"
	      "                                          state, parents, devices and votes\n"
	      "  lint     BOARD.dtb   [--json] [-W no-CHECK] [-E CHECK]\n"
	      "                                          semantic checks; exit 1 on errors\n"
	      "  lint     --tree DIR  [-j N] [--format gcc|json|sarif]\n"
	      "                                          every board of a kernel tree\n"
	      "  simulate [BOARD.dtb] [SCENARIO] [--json] [--trace OUT.json] [--svg OUT.svg]\n"
	      "           [--strict] [--all] [--energy] [--power-model FILE] [--follow DEV]\n"
	      "                                          run a scenario on simulated time\n"
	      "  scmi-serve BOARD.dtb --agents FILE      serve the board to SCMI agents over\n"
	      "                                          Unix sockets (docs/scmi.md)\n"
	      "  compare  A.json B.json [--json]         two simulate --json runs with energy:\n"
	      "                                          energy, power and residency, B - A\n"
	      "\n"
	      "Without BOARD, summary and simulate use the built-in demo SoC (and its demo\n"
	      "scenario). Every command that reads a board takes --supported-hw V[,V...];\n"
	      "summary, lint and simulate build a BOARD.dts with cpp and dtc (-I DIR,\n"
	      "--kernel-tree DIR) and name its source lines.\n"
	      "Options go anywhere: --opt=VALUE or --opt VALUE, -ja, and -- ends them.\n"
	      "'domino COMMAND --help' (or 'domino help COMMAND') tells more; 'man domino'\n"
	      "tells everything.\n"
	      "\n"
	      "exit status: 0 ok, 1 a check or expectation failed, 2 bad input, bad usage\n"
	      "or output that could not be written\n";
	if (f == stdout)
		cli_puts(text);
	else
		fputs(text, f);
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_INPUT;
	}
	const char *cmd = argv[1];
	/* `domino help COMMAND` is `domino COMMAND --help` */
	static char help_flag[] = "--help";
	char *help_argv[] = {argv[0], argc > 2 ? argv[2] : NULL, help_flag};
	if (!strcmp(cmd, "help") && argc == 3) {
		argc = 3;
		argv = help_argv;
		cmd = argv[1];
	} else if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") ||
		   !strcmp(cmd, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version")) {
		cli_printf("domino %s\n", DMN_VERSION_STRING);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "summary"))
		return cmd_summary(argc - 2, argv + 2);
	if (!strcmp(cmd, "lint"))
		return cmd_lint(argc - 2, argv + 2);
	if (!strcmp(cmd, "simulate"))
		return cmd_simulate(argc - 2, argv + 2);
	if (!strcmp(cmd, "scmi-serve"))
		return cmd_scmi_serve(argc - 2, argv + 2);
	if (!strcmp(cmd, "compare"))
		return cmd_compare(argc - 2, argv + 2);
	static const char *const commands[] = {"summary", "lint", "simulate",
					       "scmi-serve", "compare", "help"};
	const char *near = dmn_scn_suggest(cmd, commands,
				       sizeof(commands) / sizeof(commands[0]));
	fputs("domino: error: unknown command '", stderr);
	cli_text(stderr, cmd);
	if (near)
		fprintf(stderr, "': did you mean '%s'? (try domino --help)\n", near);
	else
		fputs("' (try domino --help)\n", stderr);
	return EXIT_INPUT;
}

int main(int argc, char **argv)
{
	cli_stdio_init();
	return cli_finish(run(argc, argv));
}
