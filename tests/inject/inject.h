/* SPDX-License-Identifier: MIT */
/*
 * Callback failure injection over scenarios: the harness shared by the
 * scenario and the randomized tests (inject.c).
 *
 * For one scenario on one board, inject_scenario() runs the script once
 * without injected failures, step by step (dmn_sim_step), recording a snapshot
 * of the whole observable state after every command and the number of
 * backend calls so far. Then, for every k from 1 to the number N of backend
 * calls of that clean run, it runs the script again with call k failing
 * (struct dmn_sim_options.fail_call) and judges the command that contains call
 * k against the snapshot taken just before it (see inject.c for the exact
 * rules), then runs the rest of the script and checks the invariants after
 * every command.
 */
#ifndef DOMINO_TESTS_INJECT_H
#define DOMINO_TESTS_INJECT_H

#include <domino/scenario.h>
#include <domino/sim.h>
#include <stddef.h>
#include <stdint.h>

struct inject_scenario {
	const char *name; /* for messages: "demo.scn on demo" */
	const void *blob;
	size_t size;
	const uint32_t *supported_hw;
	unsigned n_supported_hw;
	const struct dmn_scn_script *script;
};

struct inject_totals {
	unsigned long scenarios;
	unsigned long calls;	/* backend calls of the clean runs */
	unsigned long injected; /* runs with a failure injected */
	unsigned long unsafe, safe;
	unsigned long compound; /* the failing command met another
				 * failure (a scenario's own `fail`):
				 * invariants only */
	unsigned long already;	/* call k fails in the clean run too */
	unsigned long mismatches;
	unsigned long unverified;  /* link requirements at a level never
				    * seen in the clean run: not compared */
	unsigned long commands;	   /* commands run, all runs */
	unsigned long by_op[DMN_SIM_CALL_HWMODE + 1][2]; /* judged, by enum
				    * dmn_sim_call_op and
				    * [0] unsafe / [1] safe */
};

/* Run the whole injection over @sc, adding to @tot; prints one line. */
void inject_scenario(const struct inject_scenario *sc,
		     struct inject_totals *tot);

#endif
