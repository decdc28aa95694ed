/* SPDX-License-Identifier: MIT */
/*
 * Energy as a 128-bit count of femtojoules, and its decimal forms.
 *
 * 1 ns at 1 µW is 1 fJ, so an integral of integer powers over integer
 * times is an integer: no rounding until a person reads it, and then only
 * truncation, said where it happens. C11 has no 128-bit type; two 64-bit
 * halves and 32-bit digits keep the code portable to any C11 compiler.
 */
#include <domino/energy.h>

#include "../core/debug.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct dmn_energy dmn_energy_of(uint64_t ns, uint64_t uw)
{
	uint64_t a_lo = ns & 0xffffffffu, a_hi = ns >> 32;
	uint64_t b_lo = uw & 0xffffffffu, b_hi = uw >> 32;
	uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
	/* the middle column: its carry goes to the high word */
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	struct dmn_energy e;
	e.lo = (mid << 32) | (ll & 0xffffffffu);
	e.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return e;
}

void dmn_energy_add(struct dmn_energy *acc, struct dmn_energy e)
{
	uint64_t lo = acc->lo + e.lo;
	acc->hi += e.hi + (lo < e.lo);
	acc->lo = lo;
}

struct dmn_energy dmn_energy_diff(struct dmn_energy a, struct dmn_energy b, int *negative)
{
	int neg = dmn_energy_cmp(a, b) < 0;
	if (negative)
		*negative = neg;
	if (neg) {
		struct dmn_energy t = a;
		a = b;
		b = t;
	}
	struct dmn_energy d = {a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo};
	return d;
}

int dmn_energy_cmp(struct dmn_energy a, struct dmn_energy b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	return a.lo < b.lo ? -1 : a.lo > b.lo;
}

int dmn_energy_is_zero(struct dmn_energy e)
{
	return !e.hi && !e.lo;
}

/* *@e /= @d (d < 2^32), returning the remainder: four 32-bit digits, long
 * division as on paper. */
static uint32_t div_small(struct dmn_energy *e, uint32_t d)
{
	DMN_ASSERT(d != 0 && "callers divide by constants");
	uint32_t digit[4] = {(uint32_t)(e->hi >> 32), (uint32_t)e->hi,
			     (uint32_t)(e->lo >> 32), (uint32_t)e->lo};
	uint64_t rem = 0;
	for (int i = 0; i < 4; i++) {
		uint64_t cur = rem << 32 | digit[i];
		digit[i] = (uint32_t)(cur / d);
		rem = cur % d;
	}
	e->hi = (uint64_t)digit[0] << 32 | digit[1];
	e->lo = (uint64_t)digit[2] << 32 | digit[3];
	return (uint32_t)rem;
}

/* @e in decimal into @buf (at least 40 bytes: 2^128 has 39 digits). */
static char *decimal(struct dmn_energy e, char *buf)
{
	char tmp[48];
	size_t n = 0;
	do
		tmp[n++] = (char)('0' + div_small(&e, 10));
	while (!dmn_energy_is_zero(e));
	DMN_ASSERT(n <= 39 && "2^128 has 39 decimal digits");
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return buf;
}

const char *dmn_energy_format_uj(struct dmn_energy e, char buf[DMN_ENERGY_TEXT_LEN])
{
	uint32_t frac = div_small(&e, 1000000000u);
	char whole[40]; /* 39 digits at most, and the NUL */
	snprintf(buf, DMN_ENERGY_TEXT_LEN, "%s.%09u", decimal(e, whole), frac);
	return buf;
}

/* @thousandths / 1000 with three decimals and @unit: "12.345 mJ". */
static const char *with_unit(struct dmn_energy thousandths, const char *unit,
			     char buf[DMN_ENERGY_TEXT_LEN])
{
	uint32_t frac = div_small(&thousandths, 1000);
	char whole[40]; /* 39 digits at most, and the NUL */
	snprintf(buf, DMN_ENERGY_TEXT_LEN, "%s.%03u %s", decimal(thousandths, whole),
		 frac, unit);
	return buf;
}

const char *dmn_energy_format_short(struct dmn_energy e, int ascii,
				    char buf[DMN_ENERGY_TEXT_LEN])
{
	if (dmn_energy_is_zero(e)) {
		snprintf(buf, DMN_ENERGY_TEXT_LEN, "0 %s", ascii ? "uJ" : "\xc2\xb5J");
		return buf;
	}
	/* thousandths of a µJ are nJ (fJ / 10^6); of a mJ, µJ; of a J, mJ */
	struct dmn_energy t = e;
	div_small(&t, 1000000u);
	static const char *const units[] = {"\xc2\xb5J", "mJ", "J"};
	unsigned u = 0;
	while (u < 2 && (t.hi || t.lo >= 1000000u)) {
		div_small(&t, 1000u);
		u++;
	}
	DMN_ASSERT(u < sizeof(units) / sizeof(units[0]));
	return with_unit(t, u == 0 && ascii ? "uJ" : units[u], buf);
}

/* @n / @d for a 64-bit @d: the quotient if it fits 64 bits (else
 * UINT64_MAX and *@fits 0), the remainder in *@rem. Shift and subtract. */
static uint64_t div_wide(struct dmn_energy n, uint64_t d, uint64_t *rem, int *fits)
{
	DMN_ASSERT(d != 0 && "callers refuse a zero divisor");
	*fits = n.hi < d;
	if (!*fits) {
		*rem = 0;
		return UINT64_MAX;
	}
	uint64_t r = 0, q = 0;
	for (int i = 127; i >= 0; i--) {
		uint64_t bit = i >= 64 ? (n.hi >> (i - 64)) & 1 : (n.lo >> i) & 1;
		uint64_t carry = r >> 63;
		r = r << 1 | bit;
		if (carry || r >= d) {
			r -= d;
			if (i < 64)
				q |= (uint64_t)1 << i;
		}
	}
	DMN_ASSERT(r < d);
	*rem = r;
	return q;
}

uint64_t dmn_energy_average_uw(struct dmn_energy e, uint64_t ns, unsigned *milli)
{
	if (milli)
		*milli = 0;
	if (!ns)
		return 0;
	uint64_t rem;
	int fits;
	uint64_t uw = div_wide(e, ns, &rem, &fits);
	if (fits && milli) {
		uint64_t r2;
		*milli = (unsigned)div_wide(dmn_energy_of(rem, 1000), ns, &r2, &fits);
		DMN_ASSERT(fits && *milli < 1000 && "rem < ns, so rem * 1000 / ns < 1000");
	}
	return uw;
}

const char *dmn_energy_format_power(uint64_t uw, unsigned milli, int ascii,
				    char buf[DMN_ENERGY_TEXT_LEN])
{
	const char *micro = ascii ? "uW" : "\xc2\xb5W";
	if (!uw && !milli) {
		snprintf(buf, DMN_ENERGY_TEXT_LEN, "0 %s", micro);
		return buf;
	}
	struct dmn_energy t = dmn_energy_of(uw, 1000);
	dmn_energy_add(&t, (struct dmn_energy){0, milli % 1000});
	if (uw < 1000)
		return with_unit(t, micro, buf);
	div_small(&t, 1000u);
	if (uw < 1000000)
		return with_unit(t, "mW", buf);
	div_small(&t, 1000u);
	return with_unit(t, "W", buf);
}

int dmn_energy_dpc_uw(uint32_t coefficient, uint32_t microvolt, uint64_t hz,
		      uint64_t *uw)
{
	uint64_t mv = microvolt / 1000, mhz = hz / 1000000;
	if (!coefficient || !mv)
		return -EINVAL;
	/* coefficient × mV fits 64 bits (2^32 × 2^22); each further factor
	 * may not. */
	struct dmn_energy p = dmn_energy_of((uint64_t)coefficient * mv, mv);
	if (!p.hi)
		p = dmn_energy_of(p.lo, mhz);
	if (p.hi)
		return -EOVERFLOW;
	uint64_t v = p.lo / 1000000;
	if (v > DMN_ENERGY_MAX_UW)
		return -EOVERFLOW;
	*uw = v;
	return 0;
}

struct dmn_energy dmn_energy_slot_energy(const struct dmn_energy_slot *s)
{
	if (!s->known)
		return (struct dmn_energy){0, 0};
	return dmn_energy_of(s->time_ns, s->uw);
}
