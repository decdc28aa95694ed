/* SPDX-License-Identifier: MIT */
/*
 * Allocation failure with energy metered: a `domino simulate
 * --power-model` of the demo board (examples/demo-soc.power, demo.scn):
 * dmn_power_model_parse, dmn_sim_create, dmn_sim_energy, dmn_sim_run,
 * dmn_sim_report and every writer with the energy ones, allocation k
 * failing for every k of a clean run (SQLite style), as
 * tests/inject/test_inject_sim_alloc.c does without energy. After each:
 * the stage that met it returned -ENOMEM, or 0 with exactly the clean
 * run's result and output (or with an event reporting -ENOMEM: a lowering
 * that failed, the safe direction); when dmn_sim_energy fails the
 * simulation is left unmetered (its report has no energy); no block is
 * left once everything is freed.
 */
#include <domino/energy.h>
#include <domino/report.h>
#include <domino/scenario.h>
#include <domino/sim.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "domino_demo_board.h"
#include "malloc_inject.h"

static char *model_text;
static size_t model_len;

struct sink_count {
	unsigned long bytes;
};

static int count_bytes(void *user, const char *bytes, size_t len)
{
	(void)bytes;
	((struct sink_count *)user)->bytes += len;
	return 0;
}

struct outcome {
	int rc;
	const char *stage;
	struct dmn_sim_result res;
	unsigned long bytes;
	unsigned enomem;
	int unmetered; /* dmn_sim_energy failed and the report had no energy */
};

static void on_event(void *user, const struct dmn_report_event *ev)
{
	if (ev->error == -ENOMEM)
		((struct outcome *)user)->enomem++;
}

#define N_STAGES 13
static const char *const stages[N_STAGES] = {
    "dmn_power_model_parse", "dmn_scn_parse", "dmn_sim_create", "dmn_sim_energy",
    "dmn_sim_run", "dmn_sim_report", "dmn_report_write_summary_text",
    "dmn_report_write_stats_text", "dmn_report_write_energy_text",
    "dmn_report_write_power_text", "dmn_report_write_json", "dmn_report_write_trace",
    "dmn_report_write_svg"};

static void run_once(struct outcome *o)
{
	struct dmn_power_model *pm = NULL;
	struct dmn_scn_script *script = NULL;
	struct dmn_sim *sim = NULL;
	struct dmn_scn_diag diag;
	struct dmn_energy_diag ediag;
	struct sink_count count = {0};
	const struct dmn_report_sink sink = {count_bytes, &count};
	const struct dmn_report_text_options text = {0, 1};
	const struct dmn_sim_options so = {.board_name = "demo"};
	const struct dmn_report_model *m = NULL;
	memset(o, 0, sizeof(*o));

	o->stage = stages[0];
	o->rc = dmn_power_model_parse(model_text, model_len, "demo-soc.power", &pm, &ediag);
	if (!o->rc) {
		o->stage = stages[1];
		o->rc = dmn_scn_parse(domino_demo_scenario, domino_demo_scenario_len,
				      "demo.scn", NULL, &script, &diag);
	}
	if (!o->rc) {
		o->stage = stages[2];
		o->rc = dmn_sim_create(domino_demo_dtb, domino_demo_dtb_len, &so, &sim);
	}
	if (!o->rc) {
		o->stage = stages[3];
		o->rc = dmn_sim_energy(sim, pm, &ediag);
		if (o->rc == -ENOMEM) {
			/* nothing metered: a report of this simulation has no energy */
			const struct dmn_report_model *plain;
			long fail_at = inj.fail_at;
			inj.fail_at = -1; /* counted, never failed */
			o->unmetered = !dmn_sim_report(sim, 0, &plain) && !plain->energy;
			inj.fail_at = fail_at;
		}
	}
	dmn_power_model_free(pm);
	if (!o->rc) {
		o->stage = stages[4];
		o->rc = dmn_sim_run(sim, script, on_event, o, &o->res, &diag);
	}
	if (!o->rc) {
		o->stage = stages[5];
		o->rc = dmn_sim_report(sim, 1, &m);
		if (!o->rc && !m->energy)
			o->rc = -EFAULT;
	}
	int (*const text_writers[])(const struct dmn_report_model *,
				    const struct dmn_report_text_options *,
				    const struct dmn_report_sink *) = {
	    dmn_report_write_summary_text, dmn_report_write_stats_text,
	    dmn_report_write_energy_text, dmn_report_write_power_text};
	for (unsigned w = 0; w < 4 && !o->rc; w++) {
		o->stage = stages[6 + w];
		o->rc = text_writers[w](m, &text, &sink);
	}
	int (*const writers[])(const struct dmn_report_model *, const struct dmn_report_sink *) = {
	    dmn_report_write_json, dmn_report_write_trace, dmn_report_write_svg};
	for (unsigned w = 0; w < 3 && !o->rc; w++) {
		o->stage = stages[10 + w];
		o->rc = writers[w](m, &sink);
	}
	o->bytes = count.bytes;
	dmn_sim_free(sim);
	dmn_scn_free(script);
}

static void every_allocation(void **state)
{
	(void)state;
	FILE *f = fopen(DOMINO_DEMO_POWER, "rb");
	assert_non_null(f);
	model_text = __libc_malloc(1 << 16);
	model_len = fread(model_text, 1, 1 << 16, f);
	fclose(f);
	assert_true(model_len > 0);

	struct outcome clean;
	inj.armed = 1;
	inj.calls = inj.live = inj.fail_at = 0;
	run_once(&clean);
	inj.armed = 0;
	long total = inj.calls;
	if (clean.rc)
		fail_msg("clean run: %s returned %d", clean.stage, clean.rc);
	assert_int_equal(inj.live, 0);
	assert_true(clean.bytes > 0);
	printf("clean run: %ld allocations, %u commands, %lu bytes written\n", total,
	       clean.res.commands, clean.bytes);
	long per_stage[N_STAGES] = {0};
	for (long k = 1; k <= total; k++) {
		struct outcome o;
		inj.armed = 1;
		inj.calls = inj.live = 0;
		inj.fail_at = k;
		run_once(&o);
		inj.armed = 0;
		int same = o.res.commands == clean.res.commands &&
			   o.res.commands_failed == clean.res.commands_failed &&
			   o.res.expect_failed == clean.res.expect_failed && o.bytes == clean.bytes;
		if (o.rc != -ENOMEM && !(o.rc == 0 && (same || o.enomem)))
			fail_msg("allocation %ld of %ld failed: %s returned %d", k, total, o.stage,
				 o.rc);
		if (o.rc == -ENOMEM && !strcmp(o.stage, "dmn_sim_energy") && !o.unmetered)
			fail_msg("allocation %ld: dmn_sim_energy failed and left energy behind", k);
		if (inj.live != 0)
			fail_msg("allocation %ld of %ld failed in %s: %ld blocks left", k, total,
				 o.stage, inj.live);
		for (unsigned s = 0; s < N_STAGES; s++)
			if (!strcmp(o.stage, stages[s]))
				per_stage[s]++;
	}
	for (unsigned s = 0; s < N_STAGES; s++)
		printf("%-30s: %ld runs ended here\n", stages[s], per_stage[s]);
	__libc_free(model_text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_allocation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
