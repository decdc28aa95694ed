/* SPDX-License-Identifier: MIT */
/*
 * domino - the simulator: a board's domains driven by a scenario on
 * simulated time, with simulated backends.
 *
 * sim_create() loads a blob (dt_load), builds it into a fresh context
 * (dt_instantiate) whose time source is the simulator's clock, and gives
 * every domain a simulated backend: power on/off always, and a
 * set_performance_state exactly when its provider has an OPP table (DESIGN
 * §1 "Precise rules"); `fail DOMAIN OP COUNT` arms the next COUNT calls of
 * that callback to fail with -EIO. Devices with an OPP table get a simulated
 * clock, so `rate` and `expect DEV rate` work.
 *
 * sim_run() executes a parsed scenario in time order and records every
 * change (power, pstate, idle state, failures, clock rates) as report
 * events with the command that caused it. Names in the scenario are
 * resolved before anything runs, so a misspelt device is an error (with a
 * suggestion), not a half-run simulation.
 *
 * sim_report() turns the current state, the events and the statistics into
 * a struct rpt_model for the report writers.
 */
#ifndef DOMINO_SIM_H
#define DOMINO_SIM_H

#include <domino/dt.h>
#include <domino/report.h>
#include <domino/scenario.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sim;

/**
 * struct sim_options - how to build a simulation; every member may be zero
 * @board_name: shown in reports (e.g. the file name), default "board"
 * @supported_hw, @n_supported_hw: the hardware version (--supported-hw)
 * @diag, @diag_user: loader diagnostics sink (see dt_load)
 */
struct sim_options {
	const char *board_name;
	const uint32_t *supported_hw;
	unsigned n_supported_hw;
	dt_diag_fn diag;
	void *diag_user;
};

/**
 * sim_create - load @blob and build it into a new simulated context
 * returns: 0 and *@out, or -EINVAL (NULL argument), -ENOMEM, the error of
 *   dt_load (the diagnostics went to @opts->diag) or of dt_instantiate.
 * cost: O(model size).
 */
int sim_create(const void *blob, size_t size, const struct sim_options *opts,
	       struct sim **out);

/** sim_free - free everything; NULL is a no-op */
void sim_free(struct sim *sim);

/** sim_board / sim_ctx / sim_instance - what the simulator built */
const struct dt_board *sim_board(const struct sim *sim);
struct dmn_ctx *sim_ctx(struct sim *sim);
const struct dt_instance *sim_instance(const struct sim *sim);

/**
 * typedef sim_event_fn - called as each event is recorded (live output)
 */
typedef void (*sim_event_fn)(void *user, const struct rpt_event *ev);

/**
 * struct sim_result - what a run found
 * @commands: commands executed
 * @expect_failed: `expect` lines that did not hold
 * @commands_failed: commands whose operation returned an error
 */
struct sim_result {
	unsigned commands;
	unsigned expect_failed;
	unsigned commands_failed;
};

/**
 * sim_run - execute @script on the simulation
 * @live, @user: optional, called for every event as it is recorded
 * @diag: on a name-resolution error, filled as scn_parse fills it (line,
 *   column, message with a "did you mean" where one is close)
 * @res: receives the counts
 *
 * An `expect` failure is recorded as an RPT_EV_EXPECT_FAILED event whose
 * message reads "WANT, got GOT"; the run goes on. A command whose operation
 * fails is recorded as RPT_EV_COMMAND_ERROR and the run goes on.
 * returns: 0 (see @res for expectations), -EINVAL (a name that is not on
 *   the board, a vote without a domain name on a multi-domain device, a
 *   domain name not attached to the device, an idle state the domain does
 *   not have; nothing was run), -ENOMEM.
 */
int sim_run(struct sim *sim, const struct scn_script *script,
	    sim_event_fn live, void *user, struct sim_result *res,
	    struct scn_diag *diag);

/**
 * sim_report - describe the current state for the writers
 * @with_events: 1 to include the events, statistics and end time (simulate),
 *   0 for a summary
 * The model and everything it points to stay valid until the next call of
 * sim_report, sim_run or sim_free.
 * returns: 0, -EINVAL, -ENOMEM.
 */
int sim_report(struct sim *sim, int with_events, const struct rpt_model **out);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_SIM_H */
