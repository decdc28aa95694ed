/* SPDX-License-Identifier: MIT */
/*
 * Shared between the scenario_*.c files; not installed.
 */
#ifndef DOMINO_SIM_SCENARIO_INTERNAL_H
#define DOMINO_SIM_SCENARIO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * A unit suffix and the power of ten it multiplies by. Every unit the
 * language knows is a power of ten of its base unit, which is what makes
 * exact decimal parsing simple: `D.F` with f fraction digits (trailing zeros
 * removed) is a whole number of base units exactly when f <= exp10.
 */
struct dmn_scn_unit {
	const char *name;
	unsigned exp10;
};

/* Why dmn__scn_parse_scaled() refused a number. */
enum dmn_scn_num_status {
	SCN_NUM_OK,
	SCN_NUM_EMPTY,	   /* nothing at all */
	SCN_NUM_NOT_DIGIT, /* does not start with a digit, or "1." / "1.x" */
	SCN_NUM_BAD_UNIT,  /* digits fine, suffix not in the table */
	SCN_NUM_PRECISION, /* finer than the base unit */
	SCN_NUM_OVERFLOW,  /* more than UINT64_MAX base units */
};

/*
 * dmn__scn_parse_scaled - DIGITS [. DIGITS] [UNIT], exactly, into base units
 * @units:     the accepted suffixes; "" (an empty name) allows a bare number
 * @fold_case: compare suffixes ASCII-case-insensitively (frequencies)
 * @unit_off:  receives the offset of the suffix in @s (for BAD_UNIT
 *             diagnostics); may be NULL
 * returns: the status; *@out is written only for SCN_NUM_OK.
 */
enum dmn_scn_num_status dmn__scn_parse_scaled(const char *s, size_t len,
				     const struct dmn_scn_unit *units,
				     size_t n_units, int fold_case,
				     uint64_t *out, size_t *unit_off);

/*
 * dmn__scn_format_hz - @hz as the reports print a rate: in the largest of
 * GHz, MHz, kHz, Hz it reaches, at most six decimals (truncated), trailing
 * zeros dropped, e.g. "1.2 GHz"; returns @buf (DMN_SCN_HZ_LEN bytes).
 */
#define DMN_SCN_HZ_LEN 40
const char *dmn__scn_format_hz(char buf[DMN_SCN_HZ_LEN], uint64_t hz);

extern const struct dmn_scn_unit dmn__scn_time_units[];
extern const size_t dmn__scn_n_time_units;
extern const struct dmn_scn_unit dmn__scn_freq_units[];
extern const size_t dmn__scn_n_freq_units;

#endif /* DOMINO_SIM_SCENARIO_INTERNAL_H */
