/* SPDX-License-Identifier: MIT */
/*
 * The energy unit (include/domino/energy.h) against independent answers:
 * the 128-bit arithmetic and its decimal forms against the compiler's own
 * unsigned __int128 over random operands; Linux's Energy Model formula
 * against values worked out by hand for RK3588's CPU tables (the numbers
 * of Linux 6.12's rk3588-base.dtsi); power values and the power model
 * file's syntax, each bad input with its line; and the meter's integral.
 */
#include <domino/energy.h>

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* xorshift64*: reproducible operands that reach every bit width */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

/* a value of a random width, so small and large operands both come */
static uint64_t rnd_wide(void)
{
	unsigned bits = (unsigned)(rnd() % 65);
	return bits == 64 ? rnd() : rnd() & ((1ull << bits) - 1);
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static u128 wide(struct dmn_energy e)
{
	return (u128)e.hi << 64 | e.lo;
}

static void u128_text(u128 v, char *buf)
{
	char tmp[48];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
}

static void arithmetic_matches_int128(void **state)
{
	(void)state;
	for (int i = 0; i < 200000; i++) {
		uint64_t a = rnd_wide(), b = rnd_wide(), c = rnd_wide(), d = rnd_wide();
		struct dmn_energy x = dmn_energy_of(a, b), y = dmn_energy_of(c, d);
		assert_true(wide(x) == (u128)a * b);
		struct dmn_energy s = x;
		dmn_energy_add(&s, y);
		assert_true(wide(s) == (u128)a * b + (u128)c * d);
		int neg;
		struct dmn_energy df = dmn_energy_diff(x, y, &neg);
		u128 wx = wide(x), wy = wide(y);
		assert_int_equal(neg, wx < wy);
		assert_true(wide(df) == (wx < wy ? wy - wx : wx - wy));
		assert_int_equal(dmn_energy_cmp(x, y), (wx > wy) - (wx < wy));
	}
	/* the extremes */
	struct dmn_energy m = dmn_energy_of(UINT64_MAX, UINT64_MAX);
	assert_true(m.hi == UINT64_MAX - 1 && m.lo == 1);
}

static void decimals_match_int128(void **state)
{
	(void)state;
	char got[DMN_ENERGY_TEXT_LEN], whole[48], want[96];
	for (int i = 0; i < 100000; i++) {
		uint64_t ns = rnd_wide(), uw = rnd_wide();
		struct dmn_energy e = dmn_energy_of(ns, uw);
		u128 v = (u128)ns * uw;
		u128_text(v / 1000000000u, whole);
		snprintf(want, sizeof(want), "%s.%09u", whole, (unsigned)(v % 1000000000u));
		assert_string_equal(dmn_energy_format_uj(e, got), want);
		uint64_t span = rnd_wide() | 1;
		unsigned milli;
		uint64_t avg = dmn_energy_average_uw(e, span, &milli);
		if (v / span <= UINT64_MAX) {
			assert_true(avg == (uint64_t)(v / span));
			assert_int_equal(milli, (unsigned)((v % span) * 1000 / span));
		} else {
			assert_true(avg == UINT64_MAX);
		}
	}
}
#endif

static void short_forms(void **state)
{
	(void)state;
	char b[DMN_ENERGY_TEXT_LEN];
	struct dmn_energy zero = {0, 0};
	assert_string_equal(dmn_energy_format_short(zero, 1, b), "0 uJ");
	/* 1 fJ shows as 0.000 uJ: three decimals, truncated */
	assert_string_equal(dmn_energy_format_short(dmn_energy_of(1, 1), 1, b), "0.000 uJ");
	assert_string_equal(dmn_energy_format_short(dmn_energy_of(1000000, 1), 1, b), "0.001 uJ");
	/* 1 ms at 1 mW = 1 uJ; 1.5 s at 2 W = 3 J; 12.3456 mJ truncates */
	assert_string_equal(dmn_energy_format_short(dmn_energy_of(1000000, 1000), 1, b), "1.000 uJ");
	assert_string_equal(dmn_energy_format_short(dmn_energy_of(1500000000, 2000000), 0, b), "3.000 J");
	assert_string_equal(dmn_energy_format_short(dmn_energy_of(123456, 100000000), 1, b), "12.345 mJ");
	assert_string_equal(dmn_energy_format_short(dmn_energy_of(999999999, 1000), 1, b), "999.999 uJ");
	assert_string_equal(dmn_energy_format_power(0, 0, 1, b), "0 uW");
	assert_string_equal(dmn_energy_format_power(250, 0, 1, b), "250.000 uW");
	assert_string_equal(dmn_energy_format_power(1500, 0, 1, b), "1.500 mW");
	assert_string_equal(dmn_energy_format_power(2345678, 999, 1, b), "2.345 W");
	assert_string_equal(dmn_energy_format_power(0, 7, 1, b), "0.007 uW");
	unsigned milli;
	assert_true(dmn_energy_average_uw(dmn_energy_of(3, 1), 0, &milli) == 0 && milli == 0);
}

/*
 * Linux's formula on RK3588's tables, worked by hand:
 *   A55 (coefficient 228) at 1008 MHz, 675000 uV:
 *     228 x 675 x 675 x 1008 = 104,713,560,000 / 10^6 = 104,713 (.56 cut)
 *   A76 (416) at 2400 MHz, 1000000 uV: 416 x 1000^2 x 2400 / 10^6 = 998,400
 *   A76 at 1608 MHz, 762500 uV: mV 762 (the .5 cut first): 416 x 580,644
 *     = 241,547,904; x 1608 = 388,409,029,632 / 10^6 = 388,409
 * and the truncations Linux makes: 1,999,999 Hz is 1 MHz, 999 uV is 0 mV
 * (no power: Linux registers no Energy Model).
 */
static void energy_model_formula(void **state)
{
	(void)state;
	uint64_t uw = 0;
	assert_int_equal(dmn_energy_dpc_uw(228, 675000, 1008000000, &uw), 0);
	assert_true(uw == 104713);
	assert_int_equal(dmn_energy_dpc_uw(416, 1000000, 2400000000ull, &uw), 0);
	assert_true(uw == 998400);
	assert_int_equal(dmn_energy_dpc_uw(416, 762500, 1608000000, &uw), 0);
	assert_true(uw == 388409);
	assert_int_equal(dmn_energy_dpc_uw(1000, 1000000, 1999999, &uw), 0);
	assert_true(uw == 1000); /* 1000 x 1000^2 x 1 / 10^6, not x 1.999999 */
	assert_int_equal(dmn_energy_dpc_uw(1000, 999, 1000000000, &uw), -EINVAL);
	assert_int_equal(dmn_energy_dpc_uw(0, 900000, 1000000000, &uw), -EINVAL);
	/* past 64 bits: Linux's u64 wraps, domino says so */
	assert_int_equal(dmn_energy_dpc_uw(UINT32_MAX, UINT32_MAX, UINT64_MAX, &uw), -EOVERFLOW);
#ifdef __SIZEOF_INT128__
	for (int i = 0; i < 100000; i++) {
		uint32_t c = (uint32_t)rnd(), v = (uint32_t)rnd() % 2000000;
		uint64_t hz = rnd() % 4000000000ull;
		u128 p = (u128)c * (v / 1000) * (v / 1000) * (hz / 1000000);
		int err = dmn_energy_dpc_uw(c, v, hz, &uw);
		if (!c || v < 1000)
			assert_int_equal(err, -EINVAL);
		else if (p >> 64 || p / 1000000 > DMN_ENERGY_MAX_UW)
			assert_int_equal(err, -EOVERFLOW);
		else
			assert_true(!err && uw == (uint64_t)(p / 1000000));
	}
#endif
}

static void power_values(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int err;
		uint64_t uw;
	} cases[] = {
	    {"0", 0, 0},
	    {"12", 0, 12},
	    {"12uW", 0, 12},
	    {"12\xc2\xb5W", 0, 12},
	    {"12\xce\xbcW", 0, 12},
	    {"1.5mW", 0, 1500},
	    {"1.500mW", 0, 1500},
	    {"0.001mW", 0, 1},
	    {"2W", 0, 2000000},
	    {"1.000001W", 0, 1000001},
	    {"1000000W", 0, 1000000000000ull},
	    {"1000000.000001W", -EOVERFLOW, 0},
	    {"1000000000001", -EOVERFLOW, 0},
	    {"99999999999999999999999", -EOVERFLOW, 0},
	    {"0.5uW", -EINVAL, 0},
	    {"1.0001mW", -EINVAL, 0},
	    {"-1", -EINVAL, 0},
	    {"1kW", -EINVAL, 0},
	    {"1MW", -EINVAL, 0},
	    {"1mw", -EINVAL, 0},
	    {"1.", -EINVAL, 0},
	    {".5mW", -EINVAL, 0},
	    {"", -EINVAL, 0},
	    {"mW", -EINVAL, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t uw = 77;
		int err = dmn_power_parse(cases[i].text, strlen(cases[i].text), &uw);
		if (err != cases[i].err)
			fail_msg("'%s': %d, expected %d", cases[i].text, err, cases[i].err);
		if (!err && uw != cases[i].uw)
			fail_msg("'%s': %" PRIu64 ", expected %" PRIu64, cases[i].text, uw,
				 cases[i].uw);
	}
}

static void model_file(void **state)
{
	(void)state;
	static const char text[] =
	    "# a comment\n"
	    "\n"
	    "domain rpmhpd:0 on 3mW   # trailing\n"
	    "\tdomain rpmhpd:0 pstate rpmhpd_opp_svs 4mW\r\n"
	    "domain cluster_pd idle 1uW\n"
	    "domain cluster_pd idle cluster-sleep-0 3mW\n"
	    "domain * off 0\n"
	    "device venus rate 1.332GHz 340mW\n"
	    "device venus opp opp-720000000 150mW\n"
	    "device * suspended 10\n"
	    "device camss active 0.2W"; /* no newline at the end */
	struct dmn_power_model *pm = NULL;
	struct dmn_energy_diag diag;
	assert_int_equal(dmn_power_model_parse(text, sizeof(text) - 1, "t.power", &pm, &diag), 0);
	assert_int_equal(pm->n_lines, 9);
	const struct dmn_pm_line *l = pm->lines;
	assert_int_equal(l[0].line, 3);
	assert_int_equal(l[0].device, 0);
	assert_string_equal(l[0].name, "rpmhpd:0");
	assert_int_equal(l[0].state, DMN_PM_ON);
	assert_null(l[0].arg);
	assert_true(l[0].uw == 3000);
	assert_int_equal(l[1].state, DMN_PM_PSTATE);
	assert_string_equal(l[1].arg, "rpmhpd_opp_svs");
	assert_int_equal(l[2].state, DMN_PM_IDLE);
	assert_null(l[2].arg);
	assert_string_equal(l[3].arg, "cluster-sleep-0");
	assert_string_equal(l[4].name, "*");
	assert_int_equal(l[4].state, DMN_PM_OFF);
	assert_int_equal(l[5].state, DMN_PM_RATE);
	assert_string_equal(l[5].arg, "1.332GHz");
	assert_int_equal(l[6].state, DMN_PM_OPP);
	assert_int_equal(l[7].state, DMN_PM_SUSPENDED);
	assert_true(l[7].uw == 10);
	assert_int_equal(l[8].line, 11);
	assert_true(l[8].uw == 200000);
	dmn_power_model_free(pm);

	/* empty and comment-only files are empty models */
	assert_int_equal(dmn_power_model_parse("", 0, "e", &pm, &diag), 0);
	assert_int_equal(pm->n_lines, 0);
	dmn_power_model_free(pm);
	assert_int_equal(dmn_power_model_parse("# x\n\n", 5, "e", &pm, &diag), 0);
	dmn_power_model_free(pm);
	assert_int_equal(dmn_power_model_parse(NULL, 0, "e", &pm, &diag), 0);
	dmn_power_model_free(pm);
	dmn_power_model_free(NULL);
	assert_int_equal(dmn_power_model_parse("x", 1, "e", NULL, &diag), -EINVAL);
}

/* Each bad line gives -EINVAL, its line, and words saying why; nothing
 * is returned. */
static void model_file_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		unsigned line;
		const char *words;
	} cases[] = {
	    {"domian x on 1", 1, "expected 'domain' or 'device', got 'domian'"},
	    {"\n\ndevice", 3, "device: expected a name"},
	    {"domain x", 1, "domain x: expected on, pstate, idle or off"},
	    {"domain x sleep 1", 1, "got 'sleep'"},
	    {"device x on 1", 1, "expected active, opp, rate or suspended, got 'on'"},
	    {"domain x pstate 2", 1, "domain x pstate: expected LEVEL POWER"},
	    {"device x opp\n", 1, "device x opp: expected ENTRY POWER"},
	    {"domain x on", 1, "domain x on: expected POWER"},
	    {"domain x on 1 2", 1, "unexpected '2' after the power '1'"},
	    {"domain x idle a b c", 1, "unexpected 'c' after the power 'b'"},
	    {"domain * pstate 1 1", 1, "'*' stands for every domain"},
	    {"domain * idle s 1", 1, "takes no STATE"},
	    {"device * rate 1GHz 1", 1, "'*' stands for every device"},
	    {"domain x on -1mW", 1, "power '-1mW' is negative"},
	    {"domain x on 5kW", 1, "unknown unit 'kW'"},
	    {"domain x on 0.5uW", 1, "finer than 1 uW"},
	    {"domain x on 1.2.3", 1, "is not a number"},
	    {"domain x on abc", 1, "is not a number"},
	    {"domain x on 1000001W", 1, "above the largest a model takes, 1000000 W"},
	    {"domain x on 1\ndomain y on 2\n\0domain z on 3", 3, "NUL byte"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dmn_power_model *pm = (struct dmn_power_model *)&pm;
		struct dmn_energy_diag diag;
		size_t len = strlen(cases[i].text);
		if (strstr(cases[i].words, "NUL"))
			len = 40;
		memset(&diag, 0, sizeof(diag));
		int err = dmn_power_model_parse(cases[i].text, len, "bad.power", &pm, &diag);
		if (err != -EINVAL || pm || diag.line != cases[i].line ||
		    !strstr(diag.message, cases[i].words))
			fail_msg("case %zu: %d, line %u '%s'; expected line %u '%s'", i, err,
				 diag.line, diag.message, cases[i].line, cases[i].words);
		char buf[512];
		dmn_energy_diag_format(&diag, buf, sizeof(buf));
		char head[64];
		snprintf(head, sizeof(head), "bad.power:%u: error: ", cases[i].line);
		assert_memory_equal(buf, head, strlen(head));
	}
}

static void meter_integrates(void **state)
{
	(void)state;
	struct dmn_energy_meter m;
	const unsigned slots[2] = {3, 1};
	assert_int_equal(dmn_energy_meter_init(&m, slots, 2, 100), 0);
	m.slots[0].uw = 1000;
	m.slots[1].uw = 5000;
	m.slots[2].known = 0;
	m.slots[3].uw = 7;
	/* part 0: slot 0 100-300, slot 1 300-350, slot 2 (unknown) 350-400,
	 * slot 0 400-1000 */
	assert_int_equal(dmn_energy_meter_move(&m, 0, 1, 300), 0);
	assert_int_equal(dmn_energy_meter_move(&m, 0, 2, 350), 0);
	assert_int_equal(dmn_energy_meter_move(&m, 0, 2, 360), 0); /* stays */
	assert_int_equal(dmn_energy_meter_move(&m, 0, 0, 400), 0);
	assert_int_equal(dmn_energy_meter_move(&m, 0, 3, 500), -EINVAL);
	assert_int_equal(dmn_energy_meter_move(&m, 2, 0, 500), -EINVAL);
	assert_int_equal(dmn_energy_meter_move(&m, 0, 1, 10), -EINVAL); /* back in time */
	dmn_energy_meter_close(&m, 1000);
	assert_true(m.slots[0].time_ns == 800 && m.slots[1].time_ns == 50 &&
		    m.slots[2].time_ns == 50 && m.slots[3].time_ns == 900);
	struct dmn_energy e = dmn_energy_slot_energy(&m.slots[0]);
	assert_true(e.lo == 800000 && !e.hi);
	e = dmn_energy_slot_energy(&m.slots[2]);
	assert_true(dmn_energy_is_zero(e));
	/* steps: each change of power (three), none for the stay */
	assert_int_equal(m.n_steps, 3);
	assert_true(m.steps[0].time_ns == 300 && m.steps[0].slot == 1);
	assert_true(m.steps[2].time_ns == 400 && m.steps[2].slot == 0);
	/* two moves at one instant leave one step, the last word */
	assert_int_equal(dmn_energy_meter_move(&m, 0, 1, 2000), 0);
	assert_int_equal(dmn_energy_meter_move(&m, 0, 2, 2000), 0);
	assert_int_equal(m.n_steps, 4);
	assert_int_equal(m.steps[3].slot, 2);
	dmn_energy_meter_restart(&m, 3000);
	assert_int_equal(m.n_steps, 0);
	assert_true(m.slots[0].time_ns == 0 && m.since[0] == 3000);
	dmn_energy_meter_free(&m);
	const unsigned none[1] = {0};
	assert_int_equal(dmn_energy_meter_init(&m, none, 1, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#ifdef __SIZEOF_INT128__
	    cmocka_unit_test(arithmetic_matches_int128),
	    cmocka_unit_test(decimals_match_int128),
#endif
	    cmocka_unit_test(short_forms),
	    cmocka_unit_test(energy_model_formula),
	    cmocka_unit_test(power_values),
	    cmocka_unit_test(model_file),
	    cmocka_unit_test(model_file_errors),
	    cmocka_unit_test(meter_integrates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
