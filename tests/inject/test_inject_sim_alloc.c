/* SPDX-License-Identifier: MIT */
/*
 * Allocation failure during a whole `domino simulate` of the demo board:
 * dmn_scn_parse + dmn_sim_create + dmn_sim_run + dmn_sim_report + every
 * writer (summary, events and statistics text, JSON, trace, SVG), with
 * allocation k failing, for every k from 1 to the number of allocations
 * of a clean run (SQLite style). The simulator, the loader it calls and
 * the writers allocate with malloc, not through a hook, so this test
 * replaces malloc, calloc, realloc and free with counting versions over
 * glibc's own (__libc_malloc ...), armed only around the run.
 *
 * After each failure: the stage that met it returned -ENOMEM, or 0 with
 * exactly the clean run's result and output (a failure it recovered
 * from), or 0 with an event reporting -ENOMEM (a lowering that failed:
 * safe direction, docs/semantics.md, Failures); 0 with another result and no
 * such event
 * would be a hidden failure. Once everything is freed no block is left. The clean run
 * frees to zero as well. Built only outside the sanitizers (they own
 * malloc) and for glibc.
 */
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

struct sink_count {
	unsigned long bytes;
};

static int count_bytes(void *user, const char *bytes, size_t len)
{
	(void)bytes;
	((struct sink_count *)user)->bytes += len;
	return 0;
}

/* What one run produced, to compare a run that met no failure with. */
struct outcome {
	int rc;		    /* 0 or the first stage's error */
	const char *stage;  /* the stage that returned it */
	struct dmn_sim_result res;
	unsigned long bytes; /* written by every writer */
	unsigned enomem;     /* events that report -ENOMEM */
};

static void on_event(void *user, const struct dmn_report_event *ev)
{
	if (ev->error == -ENOMEM)
		((struct outcome *)user)->enomem++;
}

static void run_once(struct outcome *o)
{
	struct dmn_scn_script *script = NULL;
	struct dmn_sim *sim = NULL;
	struct dmn_scn_diag diag;
	struct sink_count count = {0};
	const struct dmn_report_sink sink = {count_bytes, &count};
	const struct dmn_report_text_options text = {0, 1};
	const struct dmn_sim_options so = {.board_name = "demo"};
	const struct dmn_report_model *m = NULL;
	memset(o, 0, sizeof(*o));

	o->stage = "dmn_scn_parse";
	o->rc = dmn_scn_parse(domino_demo_scenario, domino_demo_scenario_len,
			      "demo.scn", NULL, &script, &diag);
	if (!o->rc) {
		o->stage = "dmn_sim_create";
		o->rc = dmn_sim_create(domino_demo_dtb, domino_demo_dtb_len, &so,
				       &sim);
	}
	if (!o->rc) {
		o->stage = "dmn_sim_run";
		o->rc = dmn_sim_run(sim, script, on_event, o, &o->res, &diag);
	}
	if (!o->rc) {
		o->stage = "dmn_sim_report";
		o->rc = dmn_sim_report(sim, 1, &m);
	}
	if (!o->rc) {
		o->stage = "dmn_report_write_summary_text";
		o->rc = dmn_report_write_summary_text(m, &text, &sink);
	}
	if (!o->rc) {
		o->stage = "dmn_report_write_events_text";
		o->rc = dmn_report_write_events_text(m, &text, &sink);
	}
	if (!o->rc) {
		o->stage = "dmn_report_write_stats_text";
		o->rc = dmn_report_write_stats_text(m, &text, &sink);
	}
	if (!o->rc) {
		o->stage = "dmn_report_write_json";
		o->rc = dmn_report_write_json(m, &sink);
	}
	if (!o->rc) {
		o->stage = "dmn_report_write_trace";
		o->rc = dmn_report_write_trace(m, &sink);
	}
	if (!o->rc) {
		o->stage = "dmn_report_write_svg";
		o->rc = dmn_report_write_svg(m, &sink);
	}
	o->bytes = count.bytes;
	dmn_sim_free(sim);
	dmn_scn_free(script);
}

static void every_allocation(void **state)
{
	(void)state;
	struct outcome clean;
	inj.armed = 1;
	inj.calls = inj.live = inj.fail_at = 0;
	run_once(&clean);
	inj.armed = 0;
	long total = inj.calls;
	if (clean.rc)
		fail_msg("clean run: %s returned %d", clean.stage, clean.rc);
	assert_int_equal(inj.live, 0);
	assert_true(clean.res.commands > 0);
	assert_true(clean.bytes > 0);
	printf("clean run: %ld allocations, %u commands, %lu bytes written\n",
	       total, clean.res.commands, clean.bytes);

	long per_stage[10] = {0};
	static const char *const stages[10] = {
	    "dmn_scn_parse", "dmn_sim_create", "dmn_sim_run",
	    "dmn_sim_report", "dmn_report_write_summary_text",
	    "dmn_report_write_events_text", "dmn_report_write_stats_text",
	    "dmn_report_write_json", "dmn_report_write_trace",
	    "dmn_report_write_svg"};
	for (long k = 1; k <= total; k++) {
		struct outcome o;
		inj.armed = 1;
		inj.calls = inj.live = 0;
		inj.fail_at = k;
		run_once(&o);
		inj.armed = 0;
		/* A failure the code recovers from must not show, but a
		 * lowering that fails is a safe-direction failure
		 * (docs/semantics.md, Failures): the command succeeds, the
		 * domain stays higher and an
		 * event reports the error. */
		int same = o.res.commands == clean.res.commands &&
			   o.res.commands_failed == clean.res.commands_failed &&
			   o.res.expect_failed == clean.res.expect_failed &&
			   o.bytes == clean.bytes;
		if (o.rc != -ENOMEM && !(o.rc == 0 && (same || o.enomem)))
			fail_msg("allocation %ld of %ld failed: %s returned %d "
				 "(commands %u/%u failed, %u expectations, %lu "
				 "bytes; clean: %u/%u, %u, %lu)",
				 k, total, o.stage, o.rc, o.res.commands_failed,
				 o.res.commands, o.res.expect_failed, o.bytes,
				 clean.res.commands_failed, clean.res.commands,
				 clean.res.expect_failed, clean.bytes);
		if (inj.live != 0)
			fail_msg("allocation %ld of %ld failed in %s: %ld "
				 "blocks left",
				 k, total, o.stage, inj.live);
		for (unsigned s = 0; s < 10; s++)
			if (!strcmp(o.stage, stages[s]))
				per_stage[s]++;
	}
	for (unsigned s = 0; s < 10; s++)
		printf("%-30s: %ld runs ended here\n", stages[s], per_stage[s]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_allocation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
