/* SPDX-License-Identifier: MIT */
/*
 * domino - simulated providers: a clock, regulators and a domain backend
 * that record every call and can be told to fail.
 *
 * For tests and the simulator. One struct dmn_sim_providers serves any number
 * of devices and domains: pass it as the @user of the ops below. Each call
 * is appended to a log the caller owns (op, device or domain handle,
 * values, result, time from dmn_now() of the context given at init), and
 * the state each object was last put in is kept so a test can compare the
 * "hardware" with the library's records. Nothing is allocated: the log is
 * the caller's array and the state table has DMN_SIM_PROVIDERS_MAX_OBJECTS
 * slots.
 *
 * Failure injection: dmn_sim_providers_fail() makes the next N calls of one op
 * on one object (or on any object) fail with a given negative errno, and
 * dmn_sim_providers_fail_call() makes call number k fail (every op counts);
 * a failed call changes no state but is logged with its result.
 *
 * The ops below are thin: each builds a struct dmn_sim_providers_call and
 * runs it through dmn_sim_providers_call(). A backend whose ops need their own
 * @user (one per domain or device, as the simulator's and the core tests'
 * fakes) calls dmn_sim_providers_call() from its own ops the same way and so
 * shares the numbering, the failures, the log and the state.
 *
 * Not thread-safe by itself: the library calls providers with the context
 * lock held, so use one struct per context.
 */
#ifndef DOMINO_SIM_PROVIDERS_H
#define DOMINO_SIM_PROVIDERS_H

#include <domino/opp.h>

#ifdef __cplusplus
extern "C" {
#endif

/** enum dmn_sim_providers_op - the calls that are logged and can fail */
enum dmn_sim_providers_op {
	DMN_SIM_PROVIDERS_CLOCK,	 /* dmn_opp_clock_ops.set_rate */
	DMN_SIM_PROVIDERS_REGULATOR, /* dmn_opp_regulator_ops.set_voltage */
	DMN_SIM_PROVIDERS_POWER_ON,	 /* dmn_domain_ops.power_on */
	DMN_SIM_PROVIDERS_POWER_OFF, /* dmn_domain_ops.power_off */
	DMN_SIM_PROVIDERS_PSTATE,	 /* dmn_domain_ops.set_performance_state */
	DMN_SIM_PROVIDERS_HWMODE,	 /* dmn_domain_ops.set_hwmode */
};

/**
 * struct dmn_sim_providers_call - one logged call
 * @index:   its number, from 1 at dmn_sim_providers_init or _clear_log
 * @op:      which call
 * @object:  the device (clock, regulator) or domain handle
 * @supply:  the supply index (regulator calls), else 0
 * @value:   the rate in Hz, the target voltage in uV, the level, or the
 *           idle state index for a power-off (-1 as UINT64_MAX: none),
 *           1 for HW mode and 0 for SW mode (set_hwmode)
 * @min, @max: the voltage window (regulator calls), else 0
 * @result:  what the call returned (0 or a negative errno)
 * @time_ns: dmn_now() of the context at the call (0 without a context)
 */
struct dmn_sim_providers_call {
	unsigned long index;
	enum dmn_sim_providers_op op;
	uint32_t object;
	unsigned supply;
	uint64_t value;
	uint32_t min, max;
	int result;
	uint64_t time_ns;
};

#define DMN_SIM_PROVIDERS_MAX_FAILS 16
#define DMN_SIM_PROVIDERS_MAX_OBJECTS 64
/* Supplies whose voltage is tracked per object (calls on others are logged
 * only): a test fixture's limit, not the OPP layer's. */
#define DMN_SIM_PROVIDERS_MAX_SUPPLIES 4

/**
 * struct dmn_sim_providers - the simulated hardware; treat as opaque except
 * for reading @log[0..@n_log) and @n_dropped
 * @n_dropped: calls not logged because the log was full (their effect and
 *   failure injection still apply)
 */
struct dmn_sim_providers {
	struct dmn_ctx *ctx;
	struct dmn_sim_providers_call *log;
	unsigned log_cap, n_log, n_dropped;
	struct {
		enum dmn_sim_providers_op op;
		uint32_t object; /* 0 = any */
		unsigned count;
		int error;
	} fails[DMN_SIM_PROVIDERS_MAX_FAILS];
	unsigned n_fails;
	unsigned long n_calls, fail_call;
	int fail_call_error;
	struct {
		uint32_t object;
		uint64_t rate;
		uint32_t microvolt[DMN_SIM_PROVIDERS_MAX_SUPPLIES];
		uint32_t pstate;
		int on, hwmode;
	} objects[DMN_SIM_PROVIDERS_MAX_OBJECTS];
	unsigned n_objects;
	unsigned n_untracked; /* calls on objects beyond the state table */
};

/* The ops; pass a struct dmn_sim_providers * as their @user. */
extern const struct dmn_opp_clock_ops dmn_sim_providers_clock;
extern const struct dmn_opp_regulator_ops dmn_sim_providers_regulators;
/* A rail: power on/off and set_performance_state. */
extern const struct dmn_domain_ops dmn_sim_providers_rail;
/* A gate (GDSC, powergate): power on/off and set_hwmode, passes its level
 * up (set_hwmode exactly when no set_performance_state: docs/lifecycle.md,
 * Hardware mode). */
extern const struct dmn_domain_ops dmn_sim_providers_gate;

/**
 * dmn_sim_providers_init - reset @sp: empty log, no failures armed, no state
 * @ctx: time source for the log (may be NULL; may be set later in @sp->ctx)
 * @log, @log_cap: the caller's log array (may be NULL, 0)
 * Every object starts at rate 0, 0 uV, pstate 0, off.
 */
void dmn_sim_providers_init(struct dmn_sim_providers *sp, struct dmn_ctx *ctx,
			struct dmn_sim_providers_call *log, unsigned log_cap);

/**
 * dmn_sim_providers_clear_log - forget the logged calls and number the next
 * call 1 again (state and armed failures are kept)
 */
void dmn_sim_providers_clear_log(struct dmn_sim_providers *sp);

/**
 * dmn_sim_providers_fail - make the next @count calls of @op on @object fail
 * @object: a device or domain handle, or 0 for any object
 * @count:  0 disarms an earlier rule for the same (op, object)
 * @error:  a negative errno to return
 * A call is checked against the rules in the order they were armed; the
 * first that matches is used and counts down.
 * returns: 0, -EINVAL (@error >= 0 or NULL @sp), -ENOSPC (more than
 *   DMN_SIM_PROVIDERS_MAX_FAILS rules armed at once).
 */
int dmn_sim_providers_fail(struct dmn_sim_providers *sp, enum dmn_sim_providers_op op,
		       uint32_t object, unsigned count, int error);

/**
 * dmn_sim_providers_fail_call - make call number @k fail once with @error
 * @k:     as struct dmn_sim_providers_call.index counts (every op, from 1 at
 *         init or the latest clear_log); 0 disarms
 * @error: a negative errno to return
 * A call that a rule of dmn_sim_providers_fail or its caller (see
 * dmn_sim_providers_call) already failed keeps that error. Running a scenario
 * once per k from 1 to the number of calls of a clean run fails each call
 * in turn.
 * returns: 0, -EINVAL (NULL @sp, or @error >= 0 with @k non-zero).
 */
int dmn_sim_providers_fail_call(struct dmn_sim_providers *sp, unsigned long k,
			    int error);

/**
 * dmn_sim_providers_call - run one call through the simulated hardware
 * @call: @op, @object, @supply, @value, @min and @max as the ops fill them;
 *   @result on entry: 0, or a negative errno the caller's own layer (e.g.
 *   a scenario's `fail` command) decided the call returns
 * In order: numbers the call (@call->index); applies the first matching
 * rule of dmn_sim_providers_fail (counting it down), then the call-number
 * failure, to a call not failed yet; stamps @time_ns; logs a copy; and,
 * when the call succeeds, keeps the state it sets (table permitting).
 * For ops that need their own @user; the ops above call it with @sp.
 * returns: the call's result (@call->result), 0 or a negative errno.
 * cost: O(rules armed + DMN_SIM_PROVIDERS_MAX_OBJECTS); no allocation.
 */
int dmn_sim_providers_call(struct dmn_sim_providers *sp,
		       struct dmn_sim_providers_call *call);

/**
 * dmn_sim_providers_rate / _microvolt / _pstate / _on / _hwmode - the state
 * the object was last put in by a successful call (0 for an object never
 * called)
 */
uint64_t dmn_sim_providers_rate(const struct dmn_sim_providers *sp, uint32_t dev);
uint32_t dmn_sim_providers_microvolt(const struct dmn_sim_providers *sp, uint32_t dev,
				 unsigned supply);
uint32_t dmn_sim_providers_pstate(const struct dmn_sim_providers *sp, uint32_t dom);
int dmn_sim_providers_on(const struct dmn_sim_providers *sp, uint32_t dom);
int dmn_sim_providers_hwmode(const struct dmn_sim_providers *sp, uint32_t dom);

/**
 * dmn_sim_providers_op_name - "clock", "regulator", "on", "off", "pstate" or
 * "hwmode"
 */
const char *dmn_sim_providers_op_name(enum dmn_sim_providers_op op);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_SIM_PROVIDERS_H */
