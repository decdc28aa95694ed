/* SPDX-License-Identifier: MIT */
/*
 * Exact decimal numbers with unit suffixes: times and frequencies.
 *
 * No floating point anywhere: `1.2GHz` must be 1200000000 Hz on every host,
 * and a scenario that says `1.5ns` is a mistake to report, not a value to
 * round.
 */
#include <domino/scenario.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scenario_internal.h"

const struct dmn_scn_unit dmn__scn_time_units[] = {
    {"", 0},	      {"ns", 0},
    {"us", 3},	      {"\xc2\xb5s", 3}, /* µs, U+00B5 MICRO SIGN */
    {"\xce\xbcs", 3}, /* μs, U+03BC GREEK SMALL LETTER MU, same look */
    {"ms", 6},	      {"s", 9},
};
const size_t dmn__scn_n_time_units =
    sizeof(dmn__scn_time_units) / sizeof(dmn__scn_time_units[0]);

const struct dmn_scn_unit dmn__scn_freq_units[] = {
    {"", 0}, {"hz", 0}, {"khz", 3}, {"mhz", 6}, {"ghz", 9},
};
const size_t dmn__scn_n_freq_units =
    sizeof(dmn__scn_freq_units) / sizeof(dmn__scn_freq_units[0]);

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char ascii_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static int unit_equal(const char *s, size_t len, const char *name,
		      int fold_case)
{
	if (strlen(name) != len)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char a = fold_case ? ascii_lower(s[i]) : s[i];
		if (a != name[i])
			return 0;
	}
	return 1;
}

/* *acc = *acc * 10^exp10 + add, or 0 on overflow. */
static int scale_add(uint64_t *acc, unsigned exp10, uint64_t add)
{
	uint64_t v = *acc;
	for (unsigned i = 0; i < exp10; i++) {
		if (v > UINT64_MAX / 10)
			return 0;
		v *= 10;
	}
	if (v > UINT64_MAX - add)
		return 0;
	*acc = v + add;
	return 1;
}

enum dmn_scn_num_status dmn__scn_parse_scaled(const char *s, size_t len,
				     const struct dmn_scn_unit *units,
				     size_t n_units, int fold_case,
				     uint64_t *out, size_t *unit_off)
{
	size_t i = 0;
	uint64_t whole = 0;
	int whole_overflow = 0;

	if (len == 0)
		return SCN_NUM_EMPTY;
	if (!is_digit(s[0]))
		return SCN_NUM_NOT_DIGIT;
	for (; i < len && is_digit(s[i]); i++) {
		/* Keep scanning after an overflow: a bad unit or a bad
		 * fraction further on is the more useful message. */
		if (!whole_overflow &&
		    !scale_add(&whole, 1, (uint64_t)(s[i] - '0')))
			whole_overflow = 1;
	}

	const char *frac = NULL;
	size_t frac_len = 0;
	if (i < len && s[i] == '.') {
		i++;
		frac = s + i;
		for (; i < len && is_digit(s[i]); i++)
			frac_len++;
		if (frac_len == 0)
			return SCN_NUM_NOT_DIGIT;
	}

	if (unit_off)
		*unit_off = i;
	const struct dmn_scn_unit *unit = NULL;
	for (size_t u = 0; u < n_units; u++) {
		if (unit_equal(s + i, len - i, units[u].name, fold_case)) {
			unit = &units[u];
			break;
		}
	}
	if (!unit)
		return SCN_NUM_BAD_UNIT;

	/* Trailing zeros of the fraction carry no precision. */
	while (frac_len > 0 && frac[frac_len - 1] == '0')
		frac_len--;
	if (frac_len > unit->exp10)
		return SCN_NUM_PRECISION;
	if (whole_overflow)
		return SCN_NUM_OVERFLOW;

	uint64_t frac_value = 0;
	for (size_t k = 0; k < frac_len; k++)
		frac_value = frac_value * 10 + (uint64_t)(frac[k] - '0');
	/* frac_len <= 9 here, so frac_value * 10^(exp10 - frac_len) < 10^9. */
	for (size_t k = frac_len; k < unit->exp10; k++)
		frac_value *= 10;

	uint64_t value = whole;
	if (!scale_add(&value, unit->exp10, frac_value))
		return SCN_NUM_OVERFLOW;
	*out = value;
	return SCN_NUM_OK;
}

static int status_to_errno(enum dmn_scn_num_status st)
{
	switch (st) {
	case SCN_NUM_OK:
		return 0;
	case SCN_NUM_OVERFLOW:
		return -EOVERFLOW;
	default:
		return -EINVAL;
	}
}

int dmn_scn_parse_time(const char *s, size_t len, uint64_t *out)
{
	uint64_t v;
	if (!s || !out)
		return -EINVAL;
	enum dmn_scn_num_status st = dmn__scn_parse_scaled(
	    s, len, dmn__scn_time_units, dmn__scn_n_time_units, 0, &v, NULL);
	if (st == SCN_NUM_OK)
		*out = v;
	return status_to_errno(st);
}

int dmn_scn_parse_freq(const char *s, size_t len, uint64_t *out)
{
	uint64_t v;
	if (!s || !out)
		return -EINVAL;
	enum dmn_scn_num_status st = dmn__scn_parse_scaled(
	    s, len, dmn__scn_freq_units, dmn__scn_n_freq_units, 1, &v, NULL);
	if (st == SCN_NUM_OK)
		*out = v;
	return status_to_errno(st);
}

int dmn_scn_format_time(uint64_t ns, char *buf, size_t size)
{
	static const struct {
		const char *name;
		uint64_t scale;
		int digits;
	} units[] = {
	    {"s", 1000000000u, 9},
	    {"ms", 1000000u, 6},
	    {"us", 1000u, 3},
	};
	char tmp[48];

	if (ns == 0)
		return snprintf(buf, size, "0");
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		if (ns < units[u].scale)
			continue;
		uint64_t whole = ns / units[u].scale;
		uint64_t rem = ns % units[u].scale;
		if (rem == 0)
			return snprintf(buf, size, "%llu%s",
					(unsigned long long)whole,
					units[u].name);
		int digits = units[u].digits;
		while (rem % 10 == 0) {
			rem /= 10;
			digits--;
		}
		snprintf(tmp, sizeof(tmp), "%0*llu", digits,
			 (unsigned long long)rem);
		return snprintf(buf, size, "%llu.%s%s",
				(unsigned long long)whole, tmp, units[u].name);
	}
	return snprintf(buf, size, "%lluns", (unsigned long long)ns);
}

const char *dmn__scn_format_hz(char buf[DMN_SCN_HZ_LEN], uint64_t hz)
{
	static const struct {
		uint64_t div;
		unsigned decimals;
		const char *name;
	} units[] = {{1000000000u, 6, " GHz"},
		     {1000000u, 6, " MHz"},
		     {1000u, 3, " kHz"},
		     {1u, 0, " Hz"}};
	size_t u = 0;
	while (u < 3 && hz < units[u].div)
		u++;
	/* Six decimals at most: the fraction's leading digits, truncated. */
	uint64_t frac = hz % units[u].div, div = units[u].div;
	unsigned decimals = units[u].decimals;
	for (; div > 1000000u; div /= 10)
		frac /= 10;
	char digits[24];
	snprintf(digits, sizeof(digits), "%0*llu", (int)decimals,
		 (unsigned long long)frac);
	while (decimals && digits[decimals - 1] == '0')
		digits[--decimals] = '\0';
	snprintf(buf, DMN_SCN_HZ_LEN, "%llu%s%s%s",
		 (unsigned long long)(hz / units[u].div), decimals ? "." : "",
		 decimals ? digits : "", units[u].name);
	return buf;
}
