/* SPDX-License-Identifier: MIT */
/* domino simulate [BOARD.dtb] [SCENARIO] [--json] [--trace F] [--svg F] */
#include "cli.h"

#include "domino_demo_board.h"

#include <domino/sim.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char simulate_help[] =
	"usage: domino simulate [BOARD.dtb] [SCENARIO] [--json] [--trace OUT.json]\n"
	"                       [--svg OUT.svg] [--supported-hw V[,V...]]\n"
	"\n"
	"Run a scenario (resume, suspend, rate, vote, qos, wakeup, fail, expect,\n"
	"boot-on, probe; the language is in man domino) on the board, on\n"
	"simulated time, and print every change as it happens (time, domain,\n"
	"old -> new, cause), the final domain tree and per-domain statistics.\n"
	"Without BOARD, the built-in demo SoC; without SCENARIO as well, the\n"
	"built-in demo scenario. SCENARIO "
	"'-' reads stdin.\n"
	"\n"
	"  --json               one JSON object with domains, events and stats\n"
	"  --trace OUT.json     Chrome trace-event file for Perfetto UI\n"
	"  --svg OUT.svg        SVG timeline: a lane per domain\n"
	"  --supported-hw V,..  hardware version for opp-supported-hw entries\n"
	"\n"
	"exit status: 0 ok, 1 an expect line failed, 2 bad board or scenario\n";

struct live {
	const char *scenario;
	int progress;
	struct timespec start;
	time_t last;
	unsigned events;
};

static void on_event(void *user, const struct rpt_event *ev)
{
	struct live *l = user;
	l->events++;
	if (ev->kind == RPT_EV_EXPECT_FAILED || ev->kind == RPT_EV_EXPLAIN) {
		cli_text(stderr, l->scenario);
		fprintf(stderr, ":%u: %s", ev->line,
			ev->kind == RPT_EV_EXPLAIN ? "" : "expect failed: ");
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

int cmd_simulate(int argc, char **argv)
{
	struct cli_options opt;
	int rc = cli_parse(argc, argv, "simulate", "jtsh", 2, &opt);
	if (rc)
		return rc;
	if (opt.help) {
		cli_puts(simulate_help);
		return EXIT_OK;
	}
	const char *board_path = NULL, *scn_path = NULL;
	char *scn_text = NULL;
	size_t scn_len = 0;
	if (opt.n_positional == 2) {
		board_path = opt.positional[0];
		scn_path = opt.positional[1];
	} else if (opt.n_positional == 1) {
		/* One argument: a board needs a scenario; a scenario runs on
		 * the demo board. Tell them apart by the blob's magic. */
		rc = cli_read_file(opt.positional[0], 0, &scn_text, &scn_len);
		if (rc)
			return rc;
		if (cli_is_dtb(scn_text, scn_len)) {
			free(scn_text);
			fprintf(stderr, "domino simulate: error: %s is a board: give a SCENARIO too\n",
				opt.positional[0]);
			return EXIT_INPUT;
		}
		scn_path = opt.positional[0];
	}
	if (scn_path && !scn_text) {
		rc = cli_read_file(scn_path, 0, &scn_text, &scn_len);
		if (rc)
			return rc;
		if (cli_is_dtb(scn_text, scn_len)) {
			free(scn_text);
			fprintf(stderr, "domino simulate: error: %s is a board, not a scenario: the board comes first (domino simulate BOARD.dtb SCENARIO)\n",
				scn_path);
			return EXIT_INPUT;
		}
	}
	const char *scn_name = scn_path ? scn_path : "demo.scn";
	const char *text = scn_text ? scn_text : domino_demo_scenario;
	size_t len = scn_text ? scn_len : domino_demo_scenario_len;

	struct scn_script *script = NULL;
	struct scn_diag diag;
	int err = scn_parse(text, len, scn_name, NULL, &script, &diag);
	if (err) {
		char line[512];
		scn_diag_format(&diag, 0, line, sizeof(line));
		cli_text(stderr, line); /* it may quote the scenario */
		fputc('\n', stderr);
		free(scn_text);
		return EXIT_INPUT;
	}

	struct cli_board board;
	rc = cli_board_open(board_path, &board);
	if (rc) {
		scn_free(script);
		free(scn_text);
		return rc;
	}
	struct sim *sim = NULL;
	rc = cli_sim_open(&opt, &board, &sim);
	if (rc)
		goto out;
	struct live live;
	memset(&live, 0, sizeof(live));
	live.scenario = scn_name;
	live.progress = isatty(fileno(stderr));
	clock_gettime(CLOCK_MONOTONIC, &live.start);
	struct sim_result res;
	err = sim_run(sim, script, on_event, &live, &res, &diag);
	if (live.last)
		fputs("\r\033[K", stderr);
	if (err == -EINVAL) {
		char line[512];
		scn_diag_format(&diag, 0, line, sizeof(line));
		cli_text(stderr, line); /* it may quote the scenario */
		fputc('\n', stderr);
		rc = EXIT_INPUT;
		goto out;
	}
	const struct rpt_model *m = NULL;
	if (!err)
		err = sim_report(sim, 1, &m);
	if (err) {
		fprintf(stderr, "domino simulate: error: %s\n", dmn_strerror(err));
		rc = EXIT_INPUT;
		goto out;
	}
	struct rpt_sink out = cli_file_sink(stdout);
	if (opt.json) {
		err = rpt_write_json(m, &out);
	} else {
		struct rpt_text_options to = {cli_use_color(stdout)};
		cli_puts("== ");
		cli_text(stdout, scn_name);
		cli_puts(" on ");
		cli_text(stdout, board.name);
		cli_printf(": %u commands, %zu lines\n\n", res.commands,
			   script->count);
		err = rpt_write_events_text(m, &to, &out);
		if (!err) {
			cli_puts("\n== final state\n\n");
			err = rpt_write_summary_text(m, &to, &out);
		}
		if (!err) {
			cli_puts("\n== statistics\n\n");
			err = rpt_write_stats_text(m, &to, &out);
		}
		if (!err)
			cli_printf("\n%u expectation%s failed, %u command%s failed\n",
			       res.expect_failed, res.expect_failed == 1 ? "" : "s",
			       res.commands_failed, res.commands_failed == 1 ? "" : "s");
	}
	if (err && !cli_stdout_error())
		fprintf(stderr, "domino simulate: error: %s\n", dmn_strerror(err));
	rc = err ? EXIT_INPUT : EXIT_OK;
	if (!rc && opt.trace_path)
		rc = cli_write_file(opt.trace_path, m, rpt_write_trace);
	if (!rc && opt.svg_path)
		rc = cli_write_file(opt.svg_path, m, rpt_write_svg);
	if (!rc && res.expect_failed)
		rc = EXIT_CHECK;
out:
	sim_free(sim);
	cli_board_close(&board);
	scn_free(script);
	free(scn_text);
	return rc;
}
