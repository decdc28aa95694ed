/* SPDX-License-Identifier: MIT */
/*
 * domino-bench-energy: what metering energy costs a simulation (the
 * target: under 20 % more time, docs/energy.md). The same long scenario on the built-in
 * demo board runs, round after round, without energy and with it
 * (examples/demo-soc.power bound by dmn_sim_energy); each side is what
 * `domino simulate --json` does after loading the board: (bind the model,)
 * run the script, build the report and write its JSON into a sink that
 * drops the bytes. Board loading is left out of both: it is the same work.
 *
 * Method (bench/README.md): thread CPU time, the two sides of a round timed
 * back to back in alternating order, the ratio the median of the
 * per-round ratios; min and median per side.
 *
 *   domino-bench-energy [--quick] [--commands N] [--power-model FILE]
 *
 * Prints `key value` lines: energy_commands, energy_off_ns_per_command,
 * energy_on_ns_per_command (medians) and their _min, energy_ratio (on /
 * off), energy_run_ratio (the run alone, no report), and
 * `target_energy_ratio PASS|MISS` against 1.20.
 */
#include <domino/energy.h>
#include <domino/report.h>
#include <domino/scenario.h>
#include <domino/sim.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "domino_demo_board.h"

static int drop(void *user, const char *bytes, size_t len)
{
	(void)bytes;
	*(size_t *)user += len;
	return 0;
}

/* A long, busy scenario on the demo board: devices resume, change rate and
 * suspend in turn, a CPU goes through its idle states, the display and
 * the codec share MMCX. @n commands, one every 100 us on average. */
static char *scenario(unsigned n, size_t *len)
{
	static const char *const devs[] = {"venus", "mdp", "gpu", "cpu0", "cpu1",
					   "ufs_mem_hc", "sdhc_2", "camss", "i2c0"};
	static const char *const rates[][4] = {
	    {"720MHz", "1.014GHz", "1.098GHz", "1.332GHz"},
	    {"200MHz", "300MHz", "345MHz", "460MHz"},
	    {"305MHz", "587MHz", "670MHz", "305MHz"},
	    {"300MHz", "1.0944GHz", "1.5168GHz", "2.016GHz"},
	    {"300MHz", "1.0944GHz", "1.5168GHz", "1.8048GHz"},
	    {"37.5MHz", "300MHz", "37.5MHz", "300MHz"},
	    {"100MHz", "202MHz", "100MHz", "202MHz"}};
	size_t cap = (size_t)n * 48 + 64, at = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	uint64_t t = 0, seed = 12345;
	int active[9] = {0};
	for (unsigned i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		unsigned d = (unsigned)(seed >> 33) % 9, r = (unsigned)(seed >> 20) % 4;
		t += (seed >> 40) % 200000;
		const char *verb = !active[d] ? "resume" : d < 7 && r < 3 ? "rate" : "suspend";
		if (!strcmp(verb, "rate"))
			at += (size_t)snprintf(s + at, cap - at, "@%lluns rate %s %s\n",
					       (unsigned long long)t, devs[d], rates[d][r]);
		else
			at += (size_t)snprintf(s + at, cap - at, "@%lluns %s %s\n",
					       (unsigned long long)t, verb, devs[d]);
		active[d] = strcmp(verb, "suspend") != 0;
	}
	*len = at;
	return s;
}

struct side {
	const struct dmn_scn_script *script;
	const struct dmn_power_model *pm; /* NULL: energy off */
	int report;			  /* 1: report and JSON too */
	struct dmn_sim *sim;		  /* built for the next sample, not timed */
};

static void prepare(struct side *s)
{
	const struct dmn_sim_options so = {.board_name = "demo"};
	if (dmn_sim_create(domino_demo_dtb, domino_demo_dtb_len, &so, &s->sim)) {
		fprintf(stderr, "domino-bench-energy: cannot load the demo board\n");
		exit(2);
	}
}

/* One sample: the side's work on a fresh simulation (bench_batch_fn with
 * one operation: one whole run). */
static void sample(void *arg, unsigned calls)
{
	struct side *s = arg;
	for (unsigned c = 0; c < calls; c++) {
		if (!s->sim)
			prepare(s);
		struct dmn_energy_diag diag;
		struct dmn_scn_diag sd;
		struct dmn_sim_result res;
		const struct dmn_report_model *m;
		size_t bytes = 0;
		const struct dmn_report_sink sink = {drop, &bytes};
		if ((s->pm && dmn_sim_energy(s->sim, s->pm, &diag)) ||
		    dmn_sim_run(s->sim, s->script, NULL, NULL, &res, &sd) ||
		    (s->report && (dmn_sim_report(s->sim, 1, &m) || dmn_report_write_json(m, &sink)))) {
			fprintf(stderr, "domino-bench-energy: the run failed\n");
			exit(2);
		}
		dmn_sim_free(s->sim);
		s->sim = NULL;
	}
}

int main(int argc, char **argv)
{
	unsigned n = 20000, rounds = 31;
	const char *pm_path = DOMINO_DEMO_POWER;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			rounds = 11;
		else if (!strcmp(argv[i], "--commands") && i + 1 < argc)
			n = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--power-model") && i + 1 < argc)
			pm_path = argv[++i];
		else if (strcmp(argv[i], "--domino") && strcmp(argv[i], "--boards")) {
			fprintf(stderr, "usage: domino-bench-energy [--quick] [--commands N] [--power-model FILE]\n");
			return 2;
		}
	}
	size_t len, pm_len;
	char *text = scenario(n, &len);
	char *pm_text = read_whole_file(pm_path, &pm_len);
	struct dmn_scn_script *script;
	struct dmn_scn_diag sd;
	struct dmn_power_model *pm;
	struct dmn_energy_diag ed;
	if (!text || !pm_text || dmn_scn_parse(text, len, "bench.scn", NULL, &script, &sd) ||
	    dmn_power_model_parse(pm_text, pm_len, pm_path, &pm, &ed)) {
		fprintf(stderr, "domino-bench-energy: cannot read the scenario or %s\n", pm_path);
		return 2;
	}
	struct side sides[4] = {{script, NULL, 1, NULL}, {script, pm, 1, NULL},
				{script, NULL, 0, NULL}, {script, pm, 0, NULL}};
	double ns[4][64];
	struct bench_subject subj[4];
	for (unsigned k = 0; k < 4; k++)
		subj[k] = (struct bench_subject){sample, &sides[k], ns[k], 0};
	/* one run a sample: a run of n commands lasts milliseconds */
	bench_interleave(subj, 2, rounds, 1);
	bench_interleave(subj + 2, 2, rounds, 1);
	struct bench_table t;
	bench_table_init(&t);
	bench_result(&t, "energy_commands", 0, (double)n, "commands");
	bench_result(&t, "energy_off_ns_per_command", 0, bench_median_of(ns[0], rounds) / n, "ns");
	bench_result(&t, "energy_off_ns_per_command_min", 0, bench_min(ns[0], rounds) / n, "ns");
	bench_result(&t, "energy_on_ns_per_command", 0, bench_median_of(ns[1], rounds) / n, "ns");
	bench_result(&t, "energy_on_ns_per_command_min", 0, bench_min(ns[1], rounds) / n, "ns");
	double ratio = bench_paired_ratio(ns[1], ns[0], rounds);
	bench_result(&t, "energy_ratio", 0, ratio, "x");
	bench_result(&t, "energy_run_ratio", 0, bench_paired_ratio(ns[3], ns[2], rounds), "x");
	printf("\n");
	bench_table_print_kv(&t);
	printf("target_energy_ratio %s\n", ratio < 1.20 ? "PASS" : "MISS");
	dmn_scn_free(script);
	dmn_power_model_free(pm);
	free(text);
	free(pm_text);
	return 0;
}
