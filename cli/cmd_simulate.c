/* SPDX-License-Identifier: MIT */
/* domino simulate [BOARD.dtb] [SCENARIO] [--json] [--trace F] [--svg F] */
#include "cli.h"

#include "domino_demo_board.h"

#include <domino/sim.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char simulate_help[] =
	"usage: domino simulate [BOARD.dtb|BOARD.dts] [SCENARIO] [--json]\n"
	"                       [--trace OUT.json] [--trace-max-events N]\n"
	"                       [--svg OUT.svg] [--strict] [--all]\n"
	"                       [--supported-hw V[,V...]]\n"
	"                       [--provider-parents by-name|all]\n"
	"                       [-I DIR]... [--kernel-tree DIR]\n"
	"                       [--energy] [--power-model FILE] [--follow DEV|all]\n"
	"\n"
	"Run a scenario (resume, suspend, rate, vote, qos, wakeup, fail, expect,\n"
	"explain, boot-on, probe, system-suspend, system-resume, wakeup-enable,\n"
	"active-wakeup, hwmode, always-on, sync-state, system-qos; the language is\n"
	"in man domino) on the board, on simulated time, and print every change\n"
	"as it happens (time, domain, old -> new, cause), the final domain tree\n"
	"and per-domain statistics.\n"
	"Without BOARD, the built-in demo SoC; without SCENARIO as well, the\n"
	"built-in demo scenario; a BOARD alone runs no commands (its state at\n"
	"time 0). SCENARIO '-' reads stdin.\n"
	"\n"
	"  -j, --json           one JSON object with domains, events and stats\n"
	"  --trace OUT.json     Chrome trace-event file for Perfetto UI\n"
	"  --trace-max-events N at most N of the run's events in the trace (it\n"
	"                       then ends at the first one left out, and says so)\n"
	"  --svg OUT.svg        SVG timeline: a lane per domain\n"
	"  --strict             exit 1 when a command fails and the next line is\n"
	"                       not 'expect last-error ERRNO'\n"
	"  -a, --all            statistics list every domain (by default those that\n"
	"                       never changed share one line)\n"
	"  --supported-hw V,..  hardware version for opp-supported-hw entries\n"
	"  --provider-parents by-name|all\n"
	"                       i.MX8M block controllers: each domain under\n"
	"                       \"bus\" and its own named parent, as Linux's\n"
	"                       drivers (by-name, the default), or under every\n"
	"                       parent the node lists (all, for comparison)\n"
	"  -I DIR, --kernel-tree DIR\n"
	"                       BOARD.dts is built with cpp and dtc as Linux builds\n"
	"                       it: -I folders for its includes, and the kernel\n"
	"                       tree's include paths (found above the file by\n"
	"                       default); see domino lint --help\n"
	"  --energy             meter energy: each domain's and device's power by\n"
	"                       state from the device tree (opp-microwatt,\n"
	"                       dynamic-power-coefficient), integrated over the\n"
	"                       run; in every output (docs/energy.md)\n"
	"  --power-model FILE   --energy with FILE's powers added (docs/energy.md)\n"
	"  --follow DEV|all     DEV runs at the fastest OPP its domains' pstates\n"
	"                       already allow (opportunistic scaling); repeatable\n"
	"\n"
	"A command that fails (e.g. rate DEV 5GHz above the top OPP: ERANGE) is an\n"
	"event, and a warning on stderr says why; the run goes on.\n"
	"\n"
	"exit status: 0 ok, 1 an expect line failed (or, with --strict, a command\n"
	"failed unexpectedly), 2 bad board, scenario or usage, or output that\n"
	"could not be written\n";

struct live {
	const char *scenario;
	int progress;
	struct timespec start;
	time_t last;
	unsigned events;
	unsigned failures; /* command failures; the first few are told */
};

/* A long run failing the same command over and over must not bury the
 * terminal: past this many, failures are counted, not each told. */
#define MAX_TOLD_FAILURES 10

/*
 * --strict: the failed commands the scenario did not expect, i.e. whose
 * next command is not `expect last-error ...` (the way to expect a
 * failure, docs/scenario.md, Errors and failures; a wrong errno there
 * fails that expect by itself). Each is told on stderr.
 */
static unsigned unexpected_failures(const struct dmn_report_model *m,
				    const struct dmn_scn_script *script,
				    const char *scn_name)
{
	unsigned n = 0;
	size_t i = 0;
	for (size_t e = 0; e < m->n_events; e++) {
		const struct dmn_report_event *ev = &m->events[e];
		if (ev->kind != DMN_REPORT_EV_COMMAND_ERROR)
			continue;
		/* events come in script order: find the command's line */
		while (i < script->count && script->cmds[i].line < ev->line)
			i++;
		size_t next = i + 1;
		while (next < script->count &&
		       script->cmds[next].line == ev->line)
			next++;
		if (next < script->count &&
		    script->cmds[next].verb == DMN_SCN_EXPECT &&
		    script->cmds[next].expect.kind == DMN_SCN_EXPECT_LAST_ERROR)
			continue;
		cli_text(stderr, scn_name);
		fprintf(stderr, ":%u: error: the command failed (%s) and the next line is not 'expect last-error %s' (--strict)\n",
			ev->line, dmn_errno_name(ev->error),
			dmn_errno_name(ev->error));
		n++;
	}
	return n;
}

static void on_event(void *user, const struct dmn_report_event *ev)
{
	struct live *l = user;
	l->events++;
	if (ev->kind == DMN_REPORT_EV_COMMAND_ERROR &&
	    ++l->failures <= MAX_TOLD_FAILURES) {
		if (l->last)
			fputs("\r\033[K", stderr); /* the progress line */
		/* `FILE:LINE: warning:` as scenario errors are reported
		 * (docs/command-line.md, Errors and output); the event
		 * carries the same words. */
		cli_text(stderr, l->scenario);
		fprintf(stderr, ":%u: warning: ", ev->line);
		cli_text(stderr, ev->cause ? ev->cause : "command");
		fprintf(stderr, " failed: %s", dmn_errno_name(ev->error));
		if (ev->message) {
			fputs(" (", stderr);
			cli_text(stderr, ev->message);
			fputc(')', stderr);
		}
		fputc('\n', stderr);
	}
	if (ev->kind == DMN_REPORT_EV_EXPECT_FAILED || ev->kind == DMN_REPORT_EV_EXPLAIN) {
		cli_text(stderr, l->scenario);
		fprintf(stderr, ":%u: %s", ev->line,
			ev->kind == DMN_REPORT_EV_EXPLAIN ? "" : "expect failed: ");
		cli_text(stderr, ev->message);
		fputc('\n', stderr);
	}
	if (l->progress) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - l->start.tv_sec >= 1 && now.tv_sec != l->last) {
			l->last = now.tv_sec;
			fprintf(stderr, "\rsimulating: %u events, line %u ", l->events,
				ev->line);
		}
	}
}

/* --trace-max-events for the writer cli_write_file calls; *trace_cut
 * says afterwards whether it left events out. */
static uint64_t trace_max = UINT64_MAX;
static int trace_cut;

static int write_trace_bounded(const struct dmn_report_model *m,
			       const struct dmn_report_sink *out)
{
	return dmn_report_write_trace_max(m, trace_max, out, &trace_cut);
}

int cmd_simulate(int argc, char **argv)
{
	struct cli_options opt;
	int rc = cli_parse(argc, argv, "simulate", "jtshSampIKnPF", 2, &opt);
	if (rc)
		return rc;
	if (opt.help) {
		cli_puts(simulate_help);
		return EXIT_OK;
	}
	const char *board_path = NULL, *scn_path = NULL;
	struct cli_board board;
	int have_board = 0;
	char *scn_text = NULL;
	size_t scn_len = 0;
	if (opt.n_positional == 2) {
		board_path = opt.positional[0];
		scn_path = opt.positional[1];
		if (!strcmp(board_path, "-") && !strcmp(scn_path, "-")) {
			fputs("domino simulate: error: stdin ('-') can be the board or the scenario, not both\n",
			      stderr);
			return EXIT_INPUT;
		}
	} else if (opt.n_positional == 1) {
		/* One argument: a board alone (both are optional:
		 * docs/command-line.md, The board and the scenario) runs
		 * no commands, as the demo scenario names the demo's
		 * devices; a scenario runs on the demo board.
		 * Told apart by the blob's magic, or the board's name. */
		rc = cli_board_or_scenario(&opt, opt.positional[0], &board, &scn_text,
					   &scn_len);
		if (rc)
			return rc;
		have_board = board.name != NULL;
		if (!have_board)
			scn_path = opt.positional[0];
	}
	if (scn_path && !scn_text) {
		rc = cli_read_file(scn_path, 0, &scn_text, &scn_len);
		if (rc)
			return rc;
		if (cli_is_dtb(scn_text, scn_len)) {
			free(scn_text);
			fputs("domino simulate: error: ", stderr);
			cli_text(stderr, scn_path);
			fputs(" is a board, not a scenario: the board comes first (domino simulate BOARD.dtb SCENARIO)\n",
			      stderr);
			return EXIT_INPUT;
		}
	}
	const char *scn_name = scn_path ? scn_path
				: have_board ? "(no scenario)" : "demo.scn";
	const char *text = scn_text ? scn_text
			   : have_board ? "" : domino_demo_scenario;
	size_t len = scn_text ? scn_len
		     : have_board ? 0 : domino_demo_scenario_len;

	struct dmn_scn_script *script = NULL;
	struct dmn_scn_diag diag;
	int err = dmn_scn_parse(text, len, scn_name, NULL, &script, &diag);
	if (err) {
		char line[512];
		dmn_scn_diag_format(&diag, 0, line, sizeof(line));
		cli_text(stderr, line); /* it may quote the scenario */
		fputc('\n', stderr);
		free(scn_text);
		if (have_board)
			cli_board_close(&board);
		return EXIT_INPUT;
	}

	if (!have_board) {
		rc = cli_board_open(&opt, board_path, &board);
		if (rc) {
			dmn_scn_free(script);
			free(scn_text);
			return rc;
		}
	}
	struct dmn_sim *sim = NULL;
	rc = cli_sim_open(&opt, &board, &sim);
	if (!rc)
		rc = cli_energy_open(&opt, sim);
	if (!rc)
		rc = cli_follow(&opt, sim);
	if (rc)
		goto out;
	struct live live;
	memset(&live, 0, sizeof(live));
	live.scenario = scn_name;
	live.progress = isatty(fileno(stderr));
	clock_gettime(CLOCK_MONOTONIC, &live.start);
	struct dmn_sim_result res;
	err = dmn_sim_run(sim, script, on_event, &live, &res, &diag);
	if (live.last)
		fputs("\r\033[K", stderr);
	if (live.failures > MAX_TOLD_FAILURES) {
		cli_text(stderr, scn_name);
		fprintf(stderr, ": warning: %u more command failures not shown (the events list each)\n",
			live.failures - MAX_TOLD_FAILURES);
	}
	if (err == -EINVAL) {
		char line[512];
		dmn_scn_diag_format(&diag, 0, line, sizeof(line));
		cli_text(stderr, line); /* it may quote the scenario */
		fputc('\n', stderr);
		rc = EXIT_INPUT;
		goto out;
	}
	const struct dmn_report_model *m = NULL;
	if (!err)
		err = cli_sim_report(&board, sim, 1, &m);
	if (err) {
		fprintf(stderr, "domino simulate: error: %s\n", dmn_strerror(err));
		rc = EXIT_INPUT;
		goto out;
	}
	/* A run long enough for a progress line has reports to match:
	 * say what the wait is for (not over the report on a terminal). */
	int writing_note = live.last && !isatty(fileno(stdout));
	if (writing_note)
		fprintf(stderr, "\rsimulated: %u events; writing the reports ",
			live.events);
	struct dmn_report_sink out = cli_file_sink(stdout);
	if (opt.json) {
		err = dmn_report_write_json(m, &out);
	} else {
		struct dmn_report_text_options to = {cli_use_color(stdout), opt.all};
		cli_puts("== ");
		cli_text(stdout, scn_name);
		cli_puts(" on ");
		cli_text(stdout, board.name);
		cli_printf(": %u command%s, %zu line%s\n\n", res.commands,
			   res.commands == 1 ? "" : "s", script->count,
			   script->count == 1 ? "" : "s");
		err = dmn_report_write_events_text(m, &to, &out);
		if (!err) {
			cli_puts("\n== final state\n\n");
			err = dmn_report_write_summary_text(m, &to, &out);
		}
		if (!err) {
			cli_puts("\n== statistics\n\n");
			err = dmn_report_write_stats_text(m, &to, &out);
		}
		if (!err && m->energy) {
			cli_puts("\n== energy\n\n");
			err = dmn_report_write_energy_text(m, &to, &out);
		}
		if (!err)
			cli_printf("\n%u expectation%s failed, %u command%s failed\n",
			       res.expect_failed, res.expect_failed == 1 ? "" : "s",
			       res.commands_failed, res.commands_failed == 1 ? "" : "s");
	}
	if (err && !cli_stdout_error())
		fprintf(stderr, "domino simulate: error: %s\n", dmn_strerror(err));
	rc = err ? EXIT_INPUT : EXIT_OK;
	if (!rc && opt.trace_path) {
		trace_max = opt.trace_max_set ? opt.trace_max_events : UINT64_MAX;
		rc = cli_write_file(opt.trace_path, m, write_trace_bounded);
		if (!rc && trace_cut) {
			cli_text(stderr, opt.trace_path);
			fprintf(stderr, ": warning: cut at --trace-max-events %" PRIu32
				" of the run's %u events (otherData.truncated says where)\n",
				opt.trace_max_events, m->n_events);
		}
	} else if (!rc && opt.trace_max_set) {
		fputs("domino simulate: warning: --trace-max-events without --trace does nothing\n",
		      stderr);
	}
	if (!rc && opt.svg_path)
		rc = cli_write_file(opt.svg_path, m, dmn_report_write_svg);
	if (writing_note)
		fputs("\r\033[K", stderr);
	if (!rc && res.expect_failed)
		rc = EXIT_CHECK;
	if (!rc && opt.strict && unexpected_failures(m, script, scn_name))
		rc = EXIT_CHECK;
out:
	dmn_sim_free(sim);
	cli_board_close(&board);
	dmn_scn_free(script);
	free(scn_text);
	return rc;
}
