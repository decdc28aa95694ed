/* SPDX-License-Identifier: MIT */
/*
 * domino - the simulator: a board's domains driven by a scenario on
 * simulated time, with simulated backends.
 *
 * dmn_sim_create() loads a blob (dmn_dt_load), builds it into a fresh context
 * (dmn_dt_instantiate) whose time source is the simulator's clock, and gives
 * every domain a simulated backend: power on/off always, and a
 * set_performance_state exactly when its provider has an OPP table
 * (docs/semantics.md, Votes and pstates), and a set_hwmode exactly when it
 * has no set_performance_state (docs/lifecycle.md, Hardware mode). A
 * non-zero `vote` that can reach no domain with that callback (the voted
 * domain, then its ancestors through every link) fails
 * with -ENODEV when it is cast, suspended or not. `fail DOMAIN OP COUNT`
 * arms the next COUNT calls of
 * that callback to fail with -EIO. Devices with an OPP table get a simulated
 * clock, so `rate` and `expect DEV rate` work. For tests, every backend
 * call can be observed and the k-th one made to fail (struct dmn_sim_options),
 * and a script can be run one command at a time (dmn_sim_step).
 *
 * dmn_sim_run() executes a parsed scenario in time order and records every
 * change (power, pstate, idle state, failures, clock rates) as report
 * events with the command that caused it. Names in the scenario are
 * resolved before anything runs, so a misspelt device is an error (with a
 * suggestion), not a half-run simulation. A device is named by any label,
 * its path, or its node name (with or without unit address) where unique;
 * a domain by the names dmn_dt_domain_find() accepts or as DEV:NAME (the
 * device's `power-domain-names` entry); a level by a number or an OPP
 * entry's label or node name. Reports show each device's vote as the
 * latest `vote` or `rate` cast it; an undo call of a rollback that fails
 * is a safe failure with dmn_report_event.undo set.
 *
 * dmn_sim_report() turns the current state, the events and the statistics into
 * a struct dmn_report_model for the report writers.
 */
#ifndef DOMINO_SIM_H
#define DOMINO_SIM_H

#include <domino/dt.h>
#include <domino/energy.h>
#include <domino/report.h>
#include <domino/scenario.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dmn_sim;

/**
 * enum dmn_sim_call_op - the calls of the simulated backends, as counted by
 * dmn_sim_options.fail_call and reported to dmn_sim_options.on_call
 */
enum dmn_sim_call_op {
	DMN_SIM_CALL_POWER_ON,  /* dmn_domain_ops.power_on */
	DMN_SIM_CALL_POWER_OFF, /* dmn_domain_ops.power_off */
	DMN_SIM_CALL_PSTATE,    /* dmn_domain_ops.set_performance_state */
	DMN_SIM_CALL_CLOCK,     /* dmn_opp_clock_ops.set_rate */
	DMN_SIM_CALL_REGULATOR, /* dmn_opp_regulator_ops.set_voltage (DMN_SIM_REGULATORS) */
	DMN_SIM_CALL_HWMODE,    /* dmn_domain_ops.set_hwmode: @value 1 = HW mode */
};

/**
 * struct dmn_sim_call - one call of a simulated backend
 * @index:  its number: every backend call of the simulation counts, from 1
 *          (calls made while dmn_sim_create builds the board included)
 * @op:     which call
 * @domain: board domain index (power and pstate calls), else -1
 * @device: board device index (clock and regulator calls), else -1
 * @supply: the supply index (regulator calls), else 0
 * @value:  the level, the rate in Hz, the target in uV, or for a power-off
 *          the idle state index (UINT64_MAX: the domain has none)
 * @min, @max: the voltage window (regulator calls), else 0
 * @result: what the call returns: 0, or -EIO when a `fail` command or
 *          dmn_sim_options.fail_call made it fail
 */
struct dmn_sim_call {
	unsigned long index;
	enum dmn_sim_call_op op;
	int domain;
	int device;
	unsigned supply;
	uint64_t value;
	uint32_t min, max;
	int result;
};

/**
 * typedef dmn_sim_call_fn - sees every backend call as it returns
 * Called with the context lock held (from inside a library call): it must
 * not call back into the context.
 */
typedef void (*dmn_sim_call_fn)(void *user, const struct dmn_sim_call *call);

#define DMN_SIM_REGULATORS (1u << 0) /* give devices simulated supplies */
/* load with DMN_DT_LOAD_PARENTS_ALL (--provider-parents=all) */
#define DMN_SIM_PARENTS_ALL (1u << 1)
/* Keep no event log: dmn_sim_report() then reports none (a live callback
 * still sees each event). For a context driven without end, as the SCMI
 * server's, whose log would otherwise grow with every state change. */
#define DMN_SIM_NO_EVENTS (1u << 2)

/**
 * struct dmn_sim_options - how to build a simulation; every member may be zero
 * @board_name: shown in reports (e.g. the file name), default "board"
 * @supported_hw, @n_supported_hw: the hardware version (--supported-hw)
 * @diag, @diag_user: loader diagnostics sink (see dmn_dt_load)
 * @flags: DMN_SIM_REGULATORS: every device whose OPP table has an entry with
 *   opp-microvolt gets a simulated regulator (set_voltage accepts any
 *   window), so dmn_opp_set_rate programs its supplies; without it supplies
 *   are skipped (what `domino simulate` does); DMN_SIM_PARENTS_ALL:
 *   every parent a provider lists applied to each of its domains, also
 *   where its driver maps them by name (see DMN_DT_LOAD_PARENTS_ALL)
 * @fail_call: failure injection for tests: when non-zero, backend call
 *   number @fail_call (as struct dmn_sim_call.index counts: every power_on,
 *   power_off, set_performance_state, clock set_rate and, with
 *   DMN_SIM_REGULATORS, set_voltage) fails with -EIO, once. Running the same
 *   scenario for every value from 1 to the number of calls of a clean run
 *   makes each call fail in turn.
 * @on_call, @call_user: optional, told of every backend call (see
 *   dmn_sim_call_fn), e.g. to count them or to know which call failed
 */
struct dmn_sim_options {
	const char *board_name;
	const uint32_t *supported_hw;
	unsigned n_supported_hw;
	dmn_dt_diag_fn diag;
	void *diag_user;
	unsigned flags;
	unsigned long fail_call;
	dmn_sim_call_fn on_call;
	void *call_user;
};

/**
 * dmn_sim_create - load @blob and build it into a new simulated context
 * returns: 0 and *@out, or -EINVAL (NULL argument), -ENOMEM, the error of
 *   dmn_dt_load (the diagnostics went to @opts->diag) or of dmn_dt_instantiate.
 * cost: O(model size).
 */
int dmn_sim_create(const void *blob, size_t size, const struct dmn_sim_options *opts,
	       struct dmn_sim **out);

/**
 * dmn_sim_create_board - build a board already loaded into a new simulated
 * context, as dmn_sim_create does after its load
 * @board: a board dmn_dt_load returned without error (or, lenient, without
 *   an error diagnostic); only read, and it must outlive the simulation
 *   (dmn_sim_free leaves it to the caller); several simulations may share it
 * @opts: as for dmn_sim_create, but the members that steer the load
 *   (@supported_hw, @n_supported_hw, DMN_SIM_PARENTS_ALL) are not used:
 *   the board was loaded with its own; @diag receives dmn_dt_instantiate's
 * returns: 0 and *@out, or -EINVAL (NULL argument, a board with load
 *   errors), -ENOMEM, or the error of dmn_dt_instantiate.
 * cost: O(model size); no parse of a blob.
 */
int dmn_sim_create_board(const struct dmn_dt_board *board,
			 const struct dmn_sim_options *opts, struct dmn_sim **out);

/** dmn_sim_free - free everything; NULL is a no-op */
void dmn_sim_free(struct dmn_sim *sim);

/** dmn_sim_board / dmn_sim_ctx / dmn_sim_instance - what the simulator built */
const struct dmn_dt_board *dmn_sim_board(const struct dmn_sim *sim);
struct dmn_ctx *dmn_sim_ctx(struct dmn_sim *sim);
const struct dmn_dt_instance *dmn_sim_instance(const struct dmn_sim *sim);

/**
 * typedef dmn_sim_event_fn - called as each event is recorded (live output)
 */
typedef void (*dmn_sim_event_fn)(void *user, const struct dmn_report_event *ev);

/**
 * struct dmn_sim_result - what a run found
 * @commands: commands executed
 * @expect_failed: `expect` lines that did not hold
 * @commands_failed: commands whose operation returned an error
 */
struct dmn_sim_result {
	unsigned commands;
	unsigned expect_failed;
	unsigned commands_failed;
};

/**
 * dmn_sim_run - execute @script on the simulation
 * @live, @user: optional, called for every event as it is recorded
 * @diag: on a name-resolution error, filled as dmn_scn_parse fills it (line,
 *   column, message with a "did you mean" where one is close)
 * @res: receives the counts
 *
 * An `expect` failure is recorded as an DMN_REPORT_EV_EXPECT_FAILED event whose
 * message reads "WANT, got GOT"; the run goes on. A command whose operation
 * fails is recorded as DMN_REPORT_EV_COMMAND_ERROR and the run goes on.
 * returns: 0 (see @res for expectations), -EINVAL (a name that is not on
 *   the board or that several devices or domains share, a vote without a
 *   domain name on a multi-domain device, a domain name not attached to
 *   the device, a level name the domain's OPP table does not have, an idle
 *   state the domain does not have; nothing was run), -ENOMEM.
 */
int dmn_sim_run(struct dmn_sim *sim, const struct dmn_scn_script *script,
	    dmn_sim_event_fn live, void *user, struct dmn_sim_result *res,
	    struct dmn_scn_diag *diag);

/**
 * dmn_sim_step - execute the one command @script->cmds[@i]
 * For callers that look at the state between commands (tests). The
 * command's names are resolved first (an error changes nothing); then it
 * runs exactly as inside dmn_sim_run: the time is set to the command's, its
 * events are recorded, and an `expect` is checked against the
 * latest command that dmn_sim_run or dmn_sim_step executed on this simulation.
 * Steps are meant to go through a script in order; the end time of the
 * script is not applied (dmn_sim_run does that).
 * @res: the counts of this command are added to it (it is not reset)
 * @op_error: receives the command's own result: 0, or the negative errno
 *   its operation returned (a failed unsafe-direction callback, -ERANGE, ...)
 * @diag: as for dmn_sim_run
 * returns: 0 (see @op_error), -EINVAL (NULL argument, @i out of range, or a
 *   name error as for dmn_sim_run; nothing was run), -ENOMEM.
 * cost: the command's, plus O(board) for resolving names.
 */
int dmn_sim_step(struct dmn_sim *sim, const struct dmn_scn_script *script, size_t i,
	     struct dmn_sim_result *res, int *op_error, struct dmn_scn_diag *diag);

/**
 * dmn_sim_calls - the number of backend calls made so far (struct
 * dmn_sim_call.index of the latest); 0 for NULL
 */
unsigned long dmn_sim_calls(const struct dmn_sim *sim);

/**
 * dmn_sim_report - describe the current state for the writers
 * @with_events: 1 to include the events, statistics and end time (simulate),
 *   0 for a summary
 * The model and everything it points to stay valid until the next call of
 * dmn_sim_report, dmn_sim_run or dmn_sim_free.
 * returns: 0, -EINVAL, -ENOMEM.
 */
int dmn_sim_report(struct dmn_sim *sim, int with_events, const struct dmn_report_model **out);

/**
 * dmn_sim_energy - meter energy from now on (docs/energy.md)
 * @pm: a power model file (dmn_power_model_parse), or NULL for what the
 *   device tree says alone; it is read during the call and may be freed
 *   after it
 * @diag: filled on -EINVAL (may be NULL)
 *
 * Binds the model to the board: every domain's and device's states get a
 * power from the file's lines, the tree (an OPP entry's opp-microwatt, or
 * the device's dynamic-power-coefficient with the entry's voltage and
 * frequency) and the defaults, in the order docs/energy.md gives; then
 * each domain and device is metered from its state now. From here on
 * dmn_sim_report() adds the model's `energy`: with events, each state's
 * time and energy, each part's and the total energy, and the power steps;
 * without, the powers alone (what summary shows). Call it before
 * dmn_sim_run: metering starts at the current simulated time.
 * returns: 0; -EINVAL (NULL @sim, or a line that names a domain, device,
 *   level, idle state, entry or rate the board does not have, a state the
 *   part cannot be in, or the same state twice: @diag says which line and
 *   why, with a suggestion for a misspelt name); -EBUSY (already metering);
 *   -ENOMEM. On failure nothing is metered.
 * cost: O(model size + board size x log).
 */
int dmn_sim_energy(struct dmn_sim *sim, const struct dmn_power_model *pm,
		   struct dmn_energy_diag *diag);

/**
 * dmn_sim_explain - why @domain is on or off, at its pstate, in its idle state
 * The text of the scenario verb `explain` (docs/lifecycle.md, explain),
 * one line per question, each ending in a newline: "explain D: on because:
 * ...",
 * "explain D: off in S because: ...", "explain D: pstate P because: ...".
 * @domain: a domain name as scenarios accept it
 * @out:    receives the text (free() it); NULL on failure
 * @why, @why_size: on -ENOENT, the reason and a suggestion
 * returns: 0, -EINVAL (NULL argument), -ENOENT (no such domain), -EEXIST
 *   (ambiguous name), -ENOMEM.
 * cost: O(attachments + children + idle states of the domain).
 */
int dmn_sim_explain(struct dmn_sim *sim, const char *domain, char **out, char *why,
		size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_SIM_H */
