/* SPDX-License-Identifier: MIT */
/*
 * domino - energy: exact integer energy, Linux's Energy Model formula, the
 * power model file and a meter that integrates power over simulated time.
 *
 * Everything here is integer arithmetic (no floating point): power in
 * microwatts (µW), time in nanoseconds, energy in femtojoules (1 ns × 1 µW
 * = 1 fJ) held in 128 bits, so an integral is exact for any run and any
 * power a model may give. Reports show it in µJ with nine decimals, which
 * is the same number. The rules (where each power comes from, what counts
 * as unknown) are in docs/energy.md; the simulator applies them
 * (dmn_sim_energy in sim.h), this unit only computes.
 *
 * Functions return 0 or a negative errno and never print.
 */
#ifndef DOMINO_ENERGY_H
#define DOMINO_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest power a model may give, in µW: 1 MW. A power model file's
 * value above it is an error, a device tree's value above it unknown. */
#define DMN_ENERGY_MAX_UW 1000000000000ull

/** struct dmn_energy - an amount of energy in femtojoules, hi * 2^64 + lo */
struct dmn_energy {
	uint64_t hi, lo;
};

/**
 * dmn_energy_of - the energy of @uw microwatts during @ns nanoseconds
 * returns: @ns × @uw fJ, exact. cost: O(1).
 */
struct dmn_energy dmn_energy_of(uint64_t ns, uint64_t uw);

/**
 * dmn_energy_add - *@acc += @e, exact (the sum wraps only past 2^128 fJ,
 * 3.4 × 10^23 J, which no sum of products of 64-bit times and powers up
 * to DMN_ENERGY_MAX_UW reaches below 2^24 terms). cost: O(1).
 */
void dmn_energy_add(struct dmn_energy *acc, struct dmn_energy e);

/**
 * dmn_energy_diff - |@a - @b|, with *@negative set to 1 when @b > @a (may
 * be NULL): a difference of two energies and its sign, exact. cost: O(1).
 */
struct dmn_energy dmn_energy_diff(struct dmn_energy a, struct dmn_energy b, int *negative);

/** dmn_energy_cmp - -1, 0 or 1 as @a is below, equal to or above @b */
int dmn_energy_cmp(struct dmn_energy a, struct dmn_energy b);

/** dmn_energy_is_zero - 1 if @e is 0 fJ */
int dmn_energy_is_zero(struct dmn_energy e);

/* Enough for every formatter below, with its NUL. */
#define DMN_ENERGY_TEXT_LEN 64

/**
 * dmn_energy_format_uj - @e in µJ with exactly nine decimals ("1.000000000",
 * "0.000000001" for 1 fJ): the exact value, as JSON writes it
 * returns: @buf. cost: O(1).
 */
const char *dmn_energy_format_uj(struct dmn_energy e, char buf[DMN_ENERGY_TEXT_LEN]);

/**
 * dmn_energy_format_short - @e for a person: three decimals, truncated, in
 * the largest of µJ, mJ, J that keeps the integer part non-zero ("12.345
 * mJ", "0.001 µJ" down to 1 nJ, "0 µJ" for 0); @ascii 1 writes "uJ"
 * returns: @buf. cost: O(1).
 */
const char *dmn_energy_format_short(struct dmn_energy e, int ascii,
				    char buf[DMN_ENERGY_TEXT_LEN]);

/**
 * dmn_energy_average_uw - the average power of @e over @ns: @e / @ns in µW,
 * truncated, with the thousandths in *@milli (may be NULL)
 * returns: the whole µW (UINT64_MAX if it does not fit), 0 when @ns is 0.
 * cost: O(1).
 */
uint64_t dmn_energy_average_uw(struct dmn_energy e, uint64_t ns, unsigned *milli);

/**
 * dmn_energy_format_power - @uw for a person, three decimals truncated in
 * the largest of µW, mW, W that keeps the integer part non-zero ("1.500 mW",
 * "250 µW", "0 µW"); @milli adds thousandths of a µW (as
 * dmn_energy_average_uw gives them; 0 for a whole value); @ascii 1 writes "uW"
 * returns: @buf. cost: O(1).
 */
const char *dmn_energy_format_power(uint64_t uw, unsigned milli, int ascii,
				    char buf[DMN_ENERGY_TEXT_LEN]);

/**
 * dmn_energy_dpc_uw - Linux's Energy Model power of an OPP from the node's
 * dynamic-power-coefficient (drivers/opp/of.c, dev_pm_opp_calc_power):
 *   µW = coefficient × mV × mV × MHz / 1,000,000
 * with mV = @microvolt / 1000 and MHz = @hz / 1,000,000, each division
 * truncating, in that order, as Linux computes it.
 * @coefficient: the property's value; @microvolt: the entry's nominal
 *   (first) opp-microvolt of its first supply; @hz: its first opp-hz
 * returns: 0 and *@uw; -EINVAL when @coefficient or mV is 0 (Linux then
 *   registers no Energy Model); -EOVERFLOW when the product passes 64 bits
 *   (Linux's u64 would wrap silently) or the power DMN_ENERGY_MAX_UW.
 * cost: O(1).
 */
int dmn_energy_dpc_uw(uint32_t coefficient, uint32_t microvolt, uint64_t hz,
		      uint64_t *uw);

/* ---- the power model file ------------------------------------------------ */

/** enum dmn_pm_state - what a power model line gives power for */
enum dmn_pm_state {
	DMN_PM_ON,        /* domain NAME on POWER: on, at any level without a line */
	DMN_PM_PSTATE,    /* domain NAME pstate LEVEL POWER: on at that level */
	DMN_PM_IDLE,      /* domain NAME idle [STATE] POWER: off in that idle state
			     (without STATE: in any without a line) */
	DMN_PM_OFF,       /* domain NAME off POWER: plain off (no idle states) */
	DMN_PM_ACTIVE,    /* device NAME active POWER: active, at any OPP without a
			     line, or without an OPP */
	DMN_PM_OPP,       /* device NAME opp ENTRY POWER [at DOMAIN LEVEL]: active at
			     that entry (while DOMAIN sits at LEVEL) */
	DMN_PM_RATE,      /* device NAME rate FREQ POWER [at DOMAIN LEVEL]: active at
			     that rate's entry (while DOMAIN sits at LEVEL) */
	DMN_PM_SUSPENDED, /* device NAME suspended POWER */
};

/**
 * struct dmn_pm_line - one line of a power model file, as written
 * @line: its line number (from 1)
 * @device: 1 for `device`, 0 for `domain`
 * @name: the domain or device; "*" for every one (on, idle without a
 *   state, off, active, suspended only)
 * @state: the keyword
 * @arg: the level, idle state, entry or frequency as written, or NULL
 * @uw: the power in µW
 * @at_domain, @at_level: for opp and rate, `at DOMAIN LEVEL` as written
 *   (the entry's power while that domain sits at that level), else NULL
 */
struct dmn_pm_line {
	unsigned line;
	int device;
	const char *name;
	enum dmn_pm_state state;
	const char *arg;
	uint64_t uw;
	const char *at_domain;
	const char *at_level;
};

/**
 * struct dmn_power_model - a parsed power model file; every string points
 * into the model's own copy of the text
 */
struct dmn_power_model {
	const char *file;
	struct dmn_pm_line *lines;
	size_t n_lines;
	char *text; /* private */
};

/* Longest message of a struct dmn_energy_diag, with its NUL. */
#define DMN_ENERGY_DIAG_MESSAGE_MAX 256

/**
 * struct dmn_energy_diag - where a power model is wrong: @file, @line (0 when
 * the error concerns no line) and the reason, e.g. "power -5mW is negative"
 */
struct dmn_energy_diag {
	const char *file;
	unsigned line;
	char message[DMN_ENERGY_DIAG_MESSAGE_MAX];
};

/**
 * dmn_power_model_parse - read a power model file (syntax in docs/energy.md)
 * @text, @len: the file (need not be NUL-terminated; a NUL byte is an error)
 * @file: its name for messages (kept by pointer: it must outlive the model)
 * @out: receives the model (free with dmn_power_model_free)
 * @diag: filled on -EINVAL (may be NULL)
 *
 * Checks the syntax and the values: a keyword other than domain, device
 * and their states, a missing or extra word, a `*` with a state that
 * names a level, idle state, entry or rate, a power that is negative, not
 * a number, finer than 1 µW, in an unknown unit, or above
 * DMN_ENERGY_MAX_UW. Names, levels and entries are checked against a board
 * by dmn_sim_energy.
 * returns: 0; -EINVAL (bad input, @diag says where); -ENOMEM.
 * cost: O(@len).
 */
int dmn_power_model_parse(const char *text, size_t len, const char *file,
			  struct dmn_power_model **out, struct dmn_energy_diag *diag);

/** dmn_power_model_free - free a model; NULL is a no-op */
void dmn_power_model_free(struct dmn_power_model *pm);

/**
 * dmn_power_parse - one power value: an unsigned decimal with an optional
 * unit uW (or µW), mW or W; none means µW ("1.5mW" is 1500)
 * returns: 0 and *@uw; -EINVAL (empty, not a number, negative, unknown
 *   unit, finer than 1 µW); -EOVERFLOW (above DMN_ENERGY_MAX_UW).
 * cost: O(@len).
 */
int dmn_power_parse(const char *s, size_t len, uint64_t *uw);

/**
 * dmn_energy_diag_format - "FILE:LINE: error: MESSAGE" ("FILE: error: ..."
 * when @d->line is 0) into @buf, NUL-terminated when @size > 0
 * returns: the full length, as snprintf.
 */
int dmn_energy_diag_format(const struct dmn_energy_diag *d, char *buf, size_t size);

/* ---- the meter ----------------------------------------------------------- */

/**
 * struct dmn_energy_slot - one state a part can be in: its power (@known 0:
 * unknown, counted as 0 and reported) and the time spent in it
 */
struct dmn_energy_slot {
	uint64_t uw;
	int known;
	uint64_t time_ns;
};

/**
 * struct dmn_energy_step - from @time_ns on, part @part is in slot @slot
 * (the meter logs a step only when the part's power changes; several at
 * one instant leave the last)
 */
struct dmn_energy_step {
	uint64_t time_ns;
	unsigned part;
	unsigned slot;
};

/**
 * struct dmn_energy_meter - parts (domains, devices), each in one of its
 * slots at a time. Slots of part p are slots[first[p] .. first[p+1]-1];
 * @at[p] is the slot it is in (absolute index), since @since[p].
 */
struct dmn_energy_meter {
	struct dmn_energy_slot *slots;
	size_t n_slots;
	size_t *first; /* [n_parts + 1] */
	size_t *at;
	uint64_t *since;
	unsigned n_parts;
	struct dmn_energy_step *steps;
	size_t n_steps, cap_steps;
	size_t *last_step; /* per part: its latest step + 1, 0 if none */
	int oom; /* a step could not be logged */
};

/**
 * dmn_energy_meter_init - a meter of @n_parts parts, part p with
 * @n_slots[p] >= 1 slots, every slot of power 0 (known), every part in its
 * first slot since @now; the caller then sets each slot's power and moves
 * each part to its state with dmn_energy_meter_move()
 * returns: 0, -EINVAL (a part without slots), -ENOMEM (nothing kept).
 * cost: O(parts + slots).
 */
int dmn_energy_meter_init(struct dmn_energy_meter *m, const unsigned *n_slots,
			  unsigned n_parts, uint64_t now);

/** dmn_energy_meter_free - free the meter's arrays (the struct is the caller's) */
void dmn_energy_meter_free(struct dmn_energy_meter *m);

/**
 * dmn_energy_meter_move - part @part is in its slot @slot (0-based within
 * the part) from @now on: the time since its last move goes to the slot
 * it leaves. A move to the slot it is in changes nothing. When the power
 * changes, a step is logged. @now must not go back in time.
 * returns: 0; -EINVAL (@part or @slot out of range, @now before the last
 *   move); -ENOMEM (the step log could not grow: the move is made, the
 *   step is lost, and every later call returns -ENOMEM too).
 * cost: O(1) amortized.
 */
int dmn_energy_meter_move(struct dmn_energy_meter *m, unsigned part, unsigned slot,
			  uint64_t now);

/**
 * dmn_energy_meter_close - every part's time up to @now goes to its slot
 * (as a move to the slot it is in would, without a step): then each
 * slot's time_ns is complete up to @now. cost: O(parts).
 */
void dmn_energy_meter_close(struct dmn_energy_meter *m, uint64_t now);

/**
 * dmn_energy_meter_restart - start counting from @now with every part in
 * the slot it is in: slot times and the step log are cleared (after the
 * moves that put each part in its initial state). cost: O(parts + slots).
 */
void dmn_energy_meter_restart(struct dmn_energy_meter *m, uint64_t now);

/**
 * dmn_energy_slot_energy - a slot's energy: its time × its power (0 when
 * the power is unknown). cost: O(1).
 */
struct dmn_energy dmn_energy_slot_energy(const struct dmn_energy_slot *s);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_ENERGY_H */
