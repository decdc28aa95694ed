/* SPDX-License-Identifier: MIT */
/*
 * Number formatting for the reports. Everything is done in integers (or
 * rounded to integers first) so that the output never depends on the
 * process's LC_NUMERIC: a decimal comma would break JSON and SVG.
 */
#include "report_internal.h"
#include "../core/debug.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* @v / @div (a power of ten) with as many decimals as @div has zeros,
 * trailing zeros dropped when @trim, followed by @suffix. */
static const char *fmt_scaled(char buf[RPT_NUM_LEN], uint64_t v, uint64_t div,
			      int decimals, int trim, const char *suffix)
{
	uint64_t whole = v / div, frac = v % div;
	int digits = 0;
	char fbuf[24];

	DMN_ASSERT(div >= 1 && decimals >= 0);
	for (uint64_t d = div; d > 1; d /= 10)
		digits++;
	DMN_ASSERT(digits < (int)sizeof(fbuf) && "a 64-bit power of ten has 19 zeros");
	/* Keep only @decimals leading digits of the fraction (truncating). */
	while (digits > decimals) {
		frac /= 10;
		digits--;
	}
	snprintf(fbuf, sizeof(fbuf), "%0*" PRIu64, digits, frac);
	if (trim) {
		size_t n = strlen(fbuf);
		while (n > 0 && fbuf[n - 1] == '0')
			fbuf[--n] = '\0';
	}
	if (digits == 0 || fbuf[0] == '\0')
		snprintf(buf, RPT_NUM_LEN, "%" PRIu64 "%s", whole, suffix);
	else
		snprintf(buf, RPT_NUM_LEN, "%" PRIu64 ".%s%s", whole, fbuf,
			 suffix);
	return buf;
}

struct unit {
	uint64_t div;
	const char *name;
};

static const struct unit time_units[] = {
    {1000000000u, " s"}, {1000000u, " ms"}, {1000u, " us"}, {1u, " ns"}};

static const struct unit *time_unit(uint64_t ns)
{
	for (size_t i = 0; i < 3; i++)
		if (ns >= time_units[i].div)
			return &time_units[i];
	return &time_units[3];
}

const char *dmn__rpt_fmt_time(char buf[RPT_NUM_LEN], uint64_t ns)
{
	const struct unit *u = time_unit(ns);
	return fmt_scaled(buf, ns, u->div, u->div > 1 ? 3 : 0, 0, u->name);
}

const char *dmn__rpt_fmt_time_short(char buf[RPT_NUM_LEN], uint64_t ns)
{
	const struct unit *u = time_unit(ns);
	if (ns == 0) {
		snprintf(buf, RPT_NUM_LEN, "0");
		return buf;
	}
	return fmt_scaled(buf, ns, u->div, 3, 1, u->name);
}

const char *dmn__rpt_fmt_time_as(char buf[RPT_NUM_LEN], uint64_t ns, uint64_t ref)
{
	const struct unit *u = time_unit(ref);
	if (ns == 0) {
		snprintf(buf, RPT_NUM_LEN, "0");
		return buf;
	}
	return fmt_scaled(buf, ns, u->div, 3, 1, u->name);
}

const char *dmn__rpt_fmt_hz(char buf[RPT_NUM_LEN], uint64_t hz)
{
	static const struct unit hz_units[] = {{1000000000u, " GHz"},
					       {1000000u, " MHz"},
					       {1000u, " kHz"},
					       {1u, " Hz"}};
	size_t i = 0;
	while (i < 3 && hz < hz_units[i].div)
		i++;
	return fmt_scaled(buf, hz, hz_units[i].div, 6, 1, hz_units[i].name);
}

const char *dmn__rpt_fmt_us(char buf[RPT_NUM_LEN], uint64_t ns)
{
	return fmt_scaled(buf, ns, 1000, 3, 1, "");
}

const char *dmn__rpt_fmt_coord(char buf[RPT_NUM_LEN], double v)
{
	int neg = v < 0;
	double a = neg ? -v : v;
	uint64_t hundredths;

	if (!(a < 1e15)) /* also catches NaN: never write it into a document */
		a = 0;
	hundredths = (uint64_t)(a * 100.0 + 0.5);
	if (hundredths == 0)
		neg = 0;
	fmt_scaled(buf, hundredths, 100, 2, 1, "");
	if (neg) { /* at most 16 digits and a fraction: room for the sign */
		memmove(buf + 1, buf, strlen(buf) + 1);
		buf[0] = '-';
	}
	return buf;
}

const char *dmn__rpt_fmt_pct(char buf[RPT_NUM_LEN], uint64_t part, uint64_t whole)
{
	uint64_t permille;

	if (whole == 0) {
		snprintf(buf, RPT_NUM_LEN, "-");
		return buf;
	}
	permille = (uint64_t)((double)part * 1000.0 / (double)whole + 0.5);
	snprintf(buf, RPT_NUM_LEN, "%" PRIu64 ".%" PRIu64 "%%", permille / 10,
		 permille % 10);
	return buf;
}
