/* SPDX-License-Identifier: MIT */
/*
 * Scenario parser: every verb and form, every diagnostic (message, line,
 * column), time and frequency arithmetic, the helpers, allocation failure.
 */
#include <domino/scenario.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- helpers --------------------------------------------------------------
 */

static struct dmn_scn_script *parse_ok(const char *text)
{
	struct dmn_scn_script *s = NULL;
	struct dmn_scn_diag d;
	memset(&d, 0, sizeof(d));
	int rc = dmn_scn_parse(text, strlen(text), "t.scn", NULL, &s, &d);
	if (rc != 0)
		fail_msg("unexpected error %d at %u:%u: %s", rc, d.line,
			 d.column, d.message);
	assert_non_null(s);
	return s;
}

/* One command from a one-command text. */
static struct dmn_scn_cmd one(const char *text)
{
	struct dmn_scn_script *s = parse_ok(text);
	assert_int_equal(s->count, 1);
	struct dmn_scn_cmd c = s->cmds[0];
	/* Strings live in the script; tests compare them before freeing. */
	static char target[64], extra[64];
	target[0] = extra[0] = '\0';
	if (c.target) {
		snprintf(target, sizeof(target), "%s", c.target);
		c.target = target;
	}
	if (c.verb == DMN_SCN_VOTE && c.vote.domain) {
		snprintf(extra, sizeof(extra), "%s", c.vote.domain);
		c.vote.domain = extra;
	}
	if (c.verb == DMN_SCN_HWMODE && c.hwmode.domain) {
		snprintf(extra, sizeof(extra), "%s", c.hwmode.domain);
		c.hwmode.domain = extra;
	}
	if (c.verb == DMN_SCN_EXPECT && c.expect.kind == DMN_SCN_EXPECT_IDLE) {
		snprintf(extra, sizeof(extra), "%s", c.expect.idle_state);
		c.expect.idle_state = extra;
	}
	dmn_scn_free(s);
	return c;
}

static void check_err_n(const char *text, size_t len, int err, unsigned line,
			unsigned col, const char *msg)
{
	struct dmn_scn_script *s = (struct dmn_scn_script *)1;
	struct dmn_scn_diag d;
	memset(&d, 0, sizeof(d));
	int rc = dmn_scn_parse(text, len, "t.scn", NULL, &s, &d);
	if (rc != err || d.line != line || d.column != col ||
	    (msg && strcmp(d.message, msg)))
		fail_msg(
		    "for %.60s\n  want %d at %u:%u: %s\n  got  %d at %u:%u: "
		    "%s",
		    text, err, line, col, msg ? msg : "(any)", rc, d.line,
		    d.column, d.message);
	assert_null(s);
	assert_int_equal(d.error, err);
	assert_string_equal(d.file, "t.scn");
}

static void check_err(const char *text, int err, unsigned line, unsigned col,
		      const char *msg)
{
	check_err_n(text, strlen(text), err, line, col, msg);
}

/* ---- verbs ----------------------------------------------------------------
 */

static void test_resume_suspend(void **state)
{
	(void)state;
	struct dmn_scn_cmd c = one("resume venus");
	assert_int_equal(c.verb, DMN_SCN_RESUME);
	assert_string_equal(c.target, "venus");
	assert_int_equal(c.time_ns, 0);
	assert_int_equal(c.line, 1);
	assert_int_equal(c.column, 1);

	c = one("  \t@3ms  suspend   /soc@0/video-codec@aa00000   # done\n");
	assert_int_equal(c.verb, DMN_SCN_SUSPEND);
	assert_string_equal(c.target, "/soc@0/video-codec@aa00000");
	assert_int_equal(c.time_ns, 3000000);
	assert_int_equal(c.column, 10);
}

static void test_rate(void **state)
{
	(void)state;
	struct dmn_scn_cmd c = one("rate gpu 587MHz");
	assert_int_equal(c.verb, DMN_SCN_RATE);
	assert_string_equal(c.target, "gpu");
	assert_int_equal(c.rate.hz, 587000000);
	assert_int_equal(one("rate gpu 0").rate.hz, 0);
	assert_int_equal(one("rate cpu0 1.2GHz").rate.hz, 1200000000u);
	assert_int_equal(one("rate cpu0 1.2ghz").rate.hz, 1200000000u);
	assert_int_equal(one("rate cpu0 19.2mhz").rate.hz, 19200000);
	assert_int_equal(one("rate cpu0 19.2MHZ").rate.hz, 19200000);
	assert_int_equal(one("rate i2c 400kHz").rate.hz, 400000);
	assert_int_equal(one("rate i2c 400KHZ").rate.hz, 400000);
	assert_int_equal(one("rate i2c 32768Hz").rate.hz, 32768);
	assert_int_equal(one("rate i2c 32768hz").rate.hz, 32768);
	assert_int_equal(one("rate i2c 32768").rate.hz, 32768);
	assert_int_equal(one("rate x 0.000000001GHz").rate.hz, 1);
	assert_int_equal(one("rate x 18446744073709551615").rate.hz,
			 UINT64_MAX);
	assert_int_equal(one("rate x 18446744073.709551615GHz").rate.hz,
			 UINT64_MAX);
	assert_int_equal(one("rate x 1.50000000000000000000000kHz").rate.hz,
			 1500);
}

static void test_vote(void **state)
{
	(void)state;
	struct dmn_scn_cmd c = one("vote venus 256");
	assert_int_equal(c.verb, DMN_SCN_VOTE);
	assert_string_equal(c.target, "venus");
	assert_null(c.vote.domain);
	assert_int_equal(c.vote.level, 256);

	c = one("vote venus mx 384");
	assert_string_equal(c.target, "venus");
	assert_string_equal(c.vote.domain, "mx");
	assert_int_equal(c.vote.level, 384);

	assert_int_equal(one("vote d 0").vote.level, 0);
	assert_int_equal(one("vote d 4294967295").vote.level, UINT32_MAX);
	assert_int_equal(one("vote d 007").vote.level, 7);
	assert_null(c.vote.level_name);

	/* A level by name is kept for the simulator to resolve. */
	struct dmn_scn_script *s =
	    parse_ok("vote venus mx rpmhpd_opp_svs\n"
		     "vote venus _x\n"
		     "expect rpmhpd:8 pstate rpmhpd_opp_nom\n");
	assert_string_equal(s->cmds[0].vote.domain, "mx");
	assert_string_equal(s->cmds[0].vote.level_name, "rpmhpd_opp_svs");
	assert_int_equal(s->cmds[0].vote.level, 0);
	assert_null(s->cmds[1].vote.domain);
	assert_string_equal(s->cmds[1].vote.level_name, "_x");
	assert_int_equal(s->cmds[2].expect.kind, DMN_SCN_EXPECT_PSTATE);
	assert_string_equal(s->cmds[2].expect.level_name, "rpmhpd_opp_nom");
	dmn_scn_free(s);
}

static void test_qos(void **state)
{
	(void)state;
	struct dmn_scn_cmd c = one("qos cpu0 500");
	assert_int_equal(c.verb, DMN_SCN_QOS);
	assert_string_equal(c.target, "cpu0");
	assert_int_equal(c.qos.latency_us, 500);
	assert_int_equal(one("qos cpu0 0").qos.latency_us, 0);
	assert_int_equal(one("qos cpu0 250us").qos.latency_us, 250);
	assert_int_equal(one("qos cpu0 250\xc2\xb5s").qos.latency_us, 250);
	assert_int_equal(one("qos cpu0 none").qos.latency_us, DMN_SCN_QOS_NONE);
	/* the time units, as everywhere else */
	assert_int_equal(one("qos cpu0 1ms").qos.latency_us, 1000);
	assert_int_equal(one("qos cpu0 1.5ms").qos.latency_us, 1500);
	assert_int_equal(one("qos cpu0 2s").qos.latency_us, 2000000);
	assert_int_equal(one("qos cpu0 4294967294").qos.latency_us,
			 UINT32_MAX - 1);
}

static void test_wakeup(void **state)
{
	(void)state;
	struct dmn_scn_script *s = parse_ok("@10ms wakeup cpu0 20ms\n"
					"wakeup cpu1 +5ms\n"
					"+1ms wakeup cpu2 @1ms\n"
					"wakeup cpu3 +0\n"
					"wakeup cpu3 7\n");
	assert_int_equal(s->count, 5);
	assert_int_equal(s->cmds[0].verb, DMN_SCN_WAKEUP);
	assert_string_equal(s->cmds[0].target, "cpu0");
	assert_int_equal(s->cmds[0].wakeup.at_ns, 20000000);
	assert_int_equal(s->cmds[1].time_ns, 10000000);
	assert_int_equal(s->cmds[1].wakeup.at_ns, 15000000);
	/* An absolute wakeup in the past is kept: the governor ignores it. */
	assert_int_equal(s->cmds[2].time_ns, 11000000);
	assert_int_equal(s->cmds[2].wakeup.at_ns, 1000000);
	assert_int_equal(s->cmds[3].wakeup.at_ns, 11000000);
	assert_int_equal(s->cmds[4].wakeup.at_ns, 7);
	dmn_scn_free(s);
	/* `none` clears the wakeup; no time can take its value. */
	assert_int_equal(one("wakeup cpu0 none").wakeup.at_ns, DMN_SCN_WAKEUP_NONE);
	check_err("wakeup a 18446744073709551615", -EOVERFLOW, 1, 10,
		  "wakeup time is too large (use 'none' to clear it)");
}

static void test_fail(void **state)
{
	(void)state;
	struct dmn_scn_cmd c = one("fail mmcx pstate");
	assert_int_equal(c.verb, DMN_SCN_FAIL);
	assert_string_equal(c.target, "mmcx");
	assert_int_equal(c.fail.op, DMN_SCN_FAIL_PSTATE);
	assert_int_equal(c.fail.count, 1);
	c = one("fail rpmhpd:9 on 3");
	assert_string_equal(c.target, "rpmhpd:9");
	assert_int_equal(c.fail.op, DMN_SCN_FAIL_ON);
	assert_int_equal(c.fail.count, 3);
	c = one("fail gpu_gdsc off 0");
	assert_int_equal(c.fail.op, DMN_SCN_FAIL_OFF);
	assert_int_equal(c.fail.count, 0);
}

static void test_expect(void **state)
{
	(void)state;
	struct dmn_scn_cmd c = one("expect cx pstate 256");
	assert_int_equal(c.verb, DMN_SCN_EXPECT);
	assert_int_equal(c.expect.kind, DMN_SCN_EXPECT_PSTATE);
	assert_string_equal(c.target, "cx");
	assert_int_equal(c.expect.level, 256);

	c = one("expect mmcx on");
	assert_int_equal(c.expect.kind, DMN_SCN_EXPECT_ON);
	assert_string_equal(c.target, "mmcx");
	c = one("expect mmcx off");
	assert_int_equal(c.expect.kind, DMN_SCN_EXPECT_OFF);

	c = one("expect /psci/power-domain-cluster idle cluster-sleep-1");
	assert_int_equal(c.expect.kind, DMN_SCN_EXPECT_IDLE);
	assert_string_equal(c.target, "/psci/power-domain-cluster");
	assert_string_equal(c.expect.idle_state, "cluster-sleep-1");

	c = one("expect gpu rate 1.2GHz");
	assert_int_equal(c.expect.kind, DMN_SCN_EXPECT_RATE);
	assert_string_equal(c.target, "gpu");
	assert_int_equal(c.expect.hz, 1200000000u);

	c = one("expect last-error OK");
	assert_int_equal(c.expect.kind, DMN_SCN_EXPECT_LAST_ERROR);
	assert_null(c.target);
	assert_int_equal(c.expect.error, 0);
	assert_int_equal(one("expect last-error EIO").expect.error, -EIO);
	assert_int_equal(one("expect last-error ERANGE").expect.error, -ERANGE);
	assert_int_equal(one("expect last-error ENODEV").expect.error, -ENODEV);
	/* A device may be named like a keyword; position decides. */
	c = one("expect on on");
	assert_int_equal(c.expect.kind, DMN_SCN_EXPECT_ON);
	assert_string_equal(c.target, "on");
}

/* ---- times ----------------------------------------------------------------
 */

static void test_time_forms(void **state)
{
	(void)state;
	struct dmn_scn_script *s = parse_ok("# a comment\n"
					"\n"
					"resume a\n"	    /* 0 */
					"@250us resume b\n" /* 250000 */
					"+1.5ms resume c\n" /* 1750000 */
					"suspend c\n"	    /* same */
					"   # only a comment\n"
					"@2s suspend b\n" /* 2e9 */
					"+0 suspend a\n"  /* same */
					"+7 suspend a\n"  /* +7 ns */
					"@2000000007ns resume a\n"
					"+1us resume a\n"
					"+1\xc2\xb5s resume a\n"
					"@2.000003s resume a\n"
					"+0.5s resume a\n");
	static const uint64_t want[] = {
	    0,		 250000,      1750000,	   1750000,
	    2000000000u, 2000000000u, 2000000007u, 2000000007u,
	    2000001007u, 2000002007u, 2000003000u, 2500003000u,
	};
	static const uint32_t lines[] = {3,  4,	 5,  6,	 8,  9,
					 10, 11, 12, 13, 14, 15};
	assert_int_equal(s->count, 12);
	for (size_t i = 0; i < s->count; i++) {
		assert_int_equal(s->cmds[i].time_ns, want[i]);
		assert_int_equal(s->cmds[i].line, lines[i]);
	}
	assert_int_equal(s->end_ns, 2500003000u);
	assert_string_equal(s->filename, "t.scn");
	dmn_scn_free(s);
}

static void test_time_exact(void **state)
{
	(void)state;
	uint64_t t;
	struct {
		const char *s;
		uint64_t ns;
	} ok[] = {
	    {"0", 0},
	    {"1.5ms", 1500000},
	    {"0.1s", 100000000},
	    {"0.3s", 300000000}, /* 0.3 has no exact binary form */
	    {"1.000000001s", 1000000001},
	    {"2.5us", 2500},
	    {"0.001us", 1},
	    {"1.0ns", 1},
	    {"1.000ns", 1},
	    {"18446744073709551615", UINT64_MAX},
	    {"18446744073709551615ns", UINT64_MAX},
	    {"18446744073.709551615s", UINT64_MAX},
	    {"18446744073709551.615us", UINT64_MAX},
	    {"000000000000000000000000000001ns", 1},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(dmn_scn_parse_time(ok[i].s, strlen(ok[i].s), &t),
				 0);
		assert_int_equal(t, ok[i].ns);
	}
	const char *precision[] = {"1.5ns", "0.0001us", "1.0000000001s", "0.5",
				   "1.0000000000000000000001ms"};
	for (size_t i = 0; i < sizeof(precision) / sizeof(precision[0]); i++)
		assert_int_equal(
		    dmn_scn_parse_time(precision[i], strlen(precision[i]), &t),
		    -EINVAL);
	const char *overflow[] = {"18446744073709551616",
				  "18446744073.709551616s", "18446744074s",
				  "99999999999999999999999999ms"};
	for (size_t i = 0; i < sizeof(overflow) / sizeof(overflow[0]); i++)
		assert_int_equal(
		    dmn_scn_parse_time(overflow[i], strlen(overflow[i]), &t),
		    -EOVERFLOW);
	const char *bad[] = {"",     "ms",   "1.",  ".5ms", "1.ms", "-1",
			     "1 ms", "1min", "1MS", "1e3",  "0x10", "1..5"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dmn_scn_parse_time(bad[i], strlen(bad[i]), &t),
				 -EINVAL);
	assert_int_equal(dmn_scn_parse_time(NULL, 0, &t), -EINVAL);
}

static void test_freq_exact(void **state)
{
	(void)state;
	uint64_t hz;
	assert_int_equal(dmn_scn_parse_freq("1.2GHz", 6, &hz), 0);
	assert_int_equal(hz, 1200000000u);
	assert_int_equal(dmn_scn_parse_freq("2.4192GHz", 9, &hz), 0);
	assert_int_equal(hz, 2419200000u);
	assert_int_equal(dmn_scn_parse_freq("0.5Hz", 5, &hz), -EINVAL);
	assert_int_equal(dmn_scn_parse_freq("1.0005kHz", 9, &hz), -EINVAL);
	assert_int_equal(dmn_scn_parse_freq("18446744073.709551616GHz", 24, &hz),
			 -EOVERFLOW);
	assert_int_equal(dmn_scn_parse_freq("5THz", 4, &hz), -EINVAL);
	assert_int_equal(dmn_scn_parse_freq("1GHz", 4, NULL), -EINVAL);
}

static void test_format_time(void **state)
{
	(void)state;
	char buf[40];
	struct {
		uint64_t ns;
		const char *s;
	} cases[] = {
	    {0, "0"},
	    {7, "7ns"},
	    {999, "999ns"},
	    {1000, "1us"},
	    {1500, "1.5us"},
	    {1500000, "1.5ms"},
	    {1234567, "1.234567ms"},
	    {2000000000u, "2s"},
	    {2000000007u, "2.000000007s"},
	    {UINT64_MAX, "18446744073.709551615s"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = dmn_scn_format_time(cases[i].ns, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].s);
		assert_int_equal(n, strlen(cases[i].s));
		uint64_t back;
		assert_int_equal(dmn_scn_parse_time(buf, strlen(buf), &back), 0);
		assert_int_equal(back, cases[i].ns);
	}
	assert_int_equal(dmn_scn_format_time(1500000, buf, 3), 5);
	assert_string_equal(buf, "1.");
}

static void test_time_errors(void **state)
{
	(void)state;
	check_err("@2ms resume a\n@1ms resume a\n", -EINVAL, 2, 1,
		  "time goes backwards: @1ms is before the previous line's "
		  "time 2ms");
	check_err("@1.5ns resume a", -EINVAL, 1, 2,
		  "time '@1.5ns' is not a whole number of nanoseconds");
	check_err("@18446744073709551616 resume a", -EOVERFLOW, 1, 2,
		  "time '@18446744073709551616' does not fit in 64 bits");
	check_err("@18446744073709551615 resume a\n+1 resume a", -EOVERFLOW, 2,
		  1,
		  "time '+1' overflows 64 bits when added to the previous "
		  "line's time");
	check_err("@18446744073709551615 resume a\nwakeup a +1", -EOVERFLOW, 2,
		  10, "wakeup time overflows 64 bits");
	check_err("@ resume a", -EINVAL, 1, 1, "expected a time after '@'");
	check_err("+ resume a", -EINVAL, 1, 1, "expected a time after '+'");
	check_err("@x resume a", -EINVAL, 1, 2,
		  "bad time '@x': expected digits, e.g. 250us or 1.5ms");
	check_err("@1.ms resume a", -EINVAL, 1, 2,
		  "bad time '@1.ms': expected digits, e.g. 250us or 1.5ms");
	check_err("@5MS resume a", -EINVAL, 1, 3,
		  "unknown time unit 'MS' in '@5MS'; did you mean 'ms'?");
	check_err("@5min resume a", -EINVAL, 1, 3,
		  "unknown time unit 'min' in '@5min' (use ns, us, ms or s)");
	check_err("@5ms", -EINVAL, 1, 5, "expected a command after the time");
	check_err("@5ms   # nothing", -EINVAL, 1, 5,
		  "expected a command after the time");
	check_err("resume a @5ms", -EINVAL, 1, 10, NULL); /* too many args */
	check_err("@1ms @2ms resume a", -EINVAL, 1, 6,
		  "a time must be the first word of the line");
	check_err("@3ms resume a\nwakeup a 1.5ns", -EINVAL, 2, 10,
		  "time '1.5ns' is not a whole number of nanoseconds");
	check_err("wakeup a ++5ms", -EINVAL, 1, 11,
		  "bad time '++5ms': expected digits, e.g. 250us or 1.5ms");
	/* Equal absolute times are fine; a failed line sets no time. */
	struct dmn_scn_script *s = parse_ok("@1ms resume a\n@1ms resume b\n");
	assert_int_equal(s->cmds[1].time_ns, 1000000);
	dmn_scn_free(s);
}

/* ---- every other diagnostic -----------------------------------------------
 */

static void test_verb_errors(void **state)
{
	(void)state;
	check_err("resme gpu", -EINVAL, 1, 1,
		  "unknown verb 'resme'; did you mean 'resume'?");
	check_err("\n\n  @1ms supsend gpu", -EINVAL, 3, 8,
		  "unknown verb 'supsend'; did you mean 'suspend'?");
	check_err("Resume gpu", -EINVAL, 1, 1,
		  "unknown verb 'Resume'; did you mean 'resume'?");
	check_err("expcet cx on", -EINVAL, 1, 1,
		  "unknown verb 'expcet'; did you mean 'expect'?");
	check_err("frobnicate gpu", -EINVAL, 1, 1,
		  "unknown verb 'frobnicate' (verbs: resume, suspend, rate, "
		  "vote, qos, wakeup, fail, expect, boot-on, probe, explain, system-suspend, system-resume, wakeup-enable, active-wakeup, hwmode, always-on, sync-state, system-qos)");
	check_err("resume", -EINVAL, 1, 7,
		  "'resume' needs 1 argument, got 0 (usage: resume DEV)");
	check_err("resume a b", -EINVAL, 1, 10,
		  "'resume' takes 1 argument, got 2 (unexpected 'b'; usage: "
		  "resume DEV)");
	check_err("suspend", -EINVAL, 1, 8,
		  "'suspend' needs 1 argument, got 0 (usage: suspend DEV)");
	check_err("rate gpu", -EINVAL, 1, 9,
		  "'rate' needs 2 arguments, got 1 (usage: rate DEV FREQ)");
	check_err("rate gpu 1 2 3 4 5 6 7 8 9 10", -EINVAL, 1, 12,
		  "'rate' takes 2 arguments, got 11 (unexpected '2'; usage: "
		  "rate DEV FREQ)");
	check_err("vote gpu", -EINVAL, 1, 9,
		  "'vote' needs at least 2 arguments, got 1 (usage: vote DEV "
		  "[DOMAIN-NAME] LEVEL)");
	check_err(
	    "vote gpu cx 1 2", -EINVAL, 1, 15,
	    "'vote' takes 2 to 3 arguments, got 4 (unexpected '2'; usage: "
	    "vote DEV [DOMAIN-NAME] LEVEL)");
	check_err("qos cpu0", -EINVAL, 1, 9, NULL);
	check_err("wakeup cpu0", -EINVAL, 1, 12, NULL);
	check_err(
	    "fail cx", -EINVAL, 1, 8,
	    "'fail' needs at least 2 arguments, got 1 (usage: fail DOMAIN "
	    "pstate|on|off|hwmode [COUNT])");
	check_err("fail cx on 1 2", -EINVAL, 1, 14, NULL);
}

static void test_number_errors(void **state)
{
	(void)state;
	check_err(
	    "rate gpu fast", -EINVAL, 1, 10,
	    "bad frequency 'fast': expected digits, e.g. 800MHz or 1.2GHz");
	check_err("rate gpu 5THz", -EINVAL, 1, 11,
		  "unknown frequency unit 'THz' in '5THz' (use Hz, kHz, MHz or "
		  "GHz)");
	check_err("rate gpu 0.5Hz", -EINVAL, 1, 10,
		  "frequency '0.5Hz' is not a whole number of Hz");
	check_err("rate gpu 18446744073709551616", -EOVERFLOW, 1, 10,
		  "frequency '18446744073709551616' does not fit in 64 bits");
	check_err("rate gpu 18446744074GHz", -EOVERFLOW, 1, 10, NULL);
	check_err("vote gpu %high", -EINVAL, 1, 10,
		  "bad level '%high': expected an unsigned integer");
	check_err("vote gpu 1.5", -EINVAL, 1, 10,
		  "bad level '1.5': expected an unsigned integer");
	check_err("vote gpu 5.0", -EINVAL, 1, 10,
		  "bad level '5.0': expected an unsigned integer");
	check_err("vote gpu -1", -EINVAL, 1, 10,
		  "bad level '-1': expected an unsigned integer");
	check_err("vote gpu cx 4294967296", -EOVERFLOW, 1, 13,
		  "level '4294967296' is too large (at most 4294967295)");
	check_err("vote gpu cx 99999999999999999999999", -EOVERFLOW, 1, 13,
		  NULL);
	check_err("qos cpu0 soon", -EINVAL, 1, 10,
		  "bad latency 'soon': expected whole microseconds (a bare "
		  "number, or with us, ms or s) or 'none'");
	check_err("qos cpu0 1.0005ms", -EINVAL, 1, 10, NULL);
	check_err("qos cpu0 1min", -EINVAL, 1, 10, NULL);
	check_err("qos cpu0 1.5", -EINVAL, 1, 10, NULL);
	check_err("qos cpu0 4294967295", -EOVERFLOW, 1, 10,
		  "latency '4294967295' is too large (at most 4294967294 us)");
	check_err("fail cx on many", -EINVAL, 1, 12,
		  "bad count 'many': expected an unsigned integer");
	check_err("fail cx on 4294967296", -EOVERFLOW, 1, 12, NULL);
	check_err("fail cx of", -EINVAL, 1, 9,
		  "unknown fail op 'of'; did you mean 'on'?");
	check_err("fail cx power", -EINVAL, 1, 9,
		  "unknown fail op 'power' (use pstate, on, off or hwmode)");
	check_err("fail cx pstat 2", -EINVAL, 1, 9,
		  "unknown fail op 'pstat'; did you mean 'pstate'?");
	check_err("expect gpu rate 1.2XHz", -EINVAL, 1, 20, NULL);
	check_err("expect cx pstate 1x", -EINVAL, 1, 18,
		  "bad level '1x': expected an unsigned integer");
}

/* docs/lifecycle.md, Boot holds: boot-on (time 0, before anything else),
 * probe, and the
 * expect forms of a boot hold. */
static void test_lifecycle_forms(void **state)
{
	(void)state;
	struct dmn_scn_cmd c = one("boot-on mmcx");
	assert_int_equal(c.verb, DMN_SCN_BOOT_ON);
	assert_string_equal(c.target, "mmcx");
	assert_int_equal(c.boot.level, 0);
	assert_null(c.boot.level_name);
	c = one("@0 boot-on mmcx 128");
	assert_int_equal(c.boot.level, 128);
	struct dmn_scn_script *s =
	    parse_ok("boot-on mmcx rpmhpd_opp_svs\nboot-on cx\n@1ms probe all\n"
		     "probe mdp\nexpect mmcx held\nexpect cx released\n");
	assert_int_equal(s->count, 6);
	assert_string_equal(s->cmds[0].boot.level_name, "rpmhpd_opp_svs");
	assert_int_equal(s->cmds[1].verb, DMN_SCN_BOOT_ON);
	assert_int_equal(s->cmds[2].verb, DMN_SCN_PROBE);
	assert_int_equal(s->cmds[2].probe.all, 1);
	assert_null(s->cmds[2].target);
	assert_int_equal(s->cmds[3].probe.all, 0);
	assert_string_equal(s->cmds[3].target, "mdp");
	assert_int_equal(s->cmds[4].expect.kind, DMN_SCN_EXPECT_HELD);
	assert_int_equal(s->cmds[5].expect.kind, DMN_SCN_EXPECT_RELEASED);
	dmn_scn_free(s);
	check_err("@1ms boot-on mmcx", -EINVAL, 1, 6,
		  "'boot-on' must come at time 0, before any other command");
	check_err("resume mdp\nboot-on mmcx", -EINVAL, 2, 1,
		  "'boot-on' must come at time 0, before any other command");
	check_err("boot-on", -EINVAL, 1, 8,
		  "'boot-on' needs at least 1 argument, got 0 (usage: boot-on "
		  "DOMAIN [LEVEL] [no-stay-on|no-sync-state])");
	c = one("boot-on mmcx no-stay-on");
	assert_int_equal(c.verb, DMN_SCN_BOOT_ON);
	assert_string_equal(c.target, "mmcx");
	assert_int_equal(c.boot.flags, DMN_SCN_BOOT_NO_STAY_ON);
	assert_int_equal(c.boot.level, 0);
	assert_null(c.boot.level_name);
	s = parse_ok("boot-on mmcx svs no-sync-state");
	assert_int_equal(s->cmds[0].boot.flags, DMN_SCN_BOOT_NO_SYNC_STATE);
	assert_string_equal(s->cmds[0].boot.level_name, "svs");
	dmn_scn_free(s);
	c = one("boot-on mmcx 64 no-sync-state");
	assert_int_equal(c.boot.level, 64);
	c = one("boot-on mmcx no-sync-state");
	assert_int_equal(c.boot.flags, DMN_SCN_BOOT_NO_SYNC_STATE);
	assert_int_equal(c.boot.level, 0);
	c = one("boot-on mmcx 64");
	assert_int_equal(c.boot.flags, 0);
	/* Only a hold keeps a level; the option comes last. */
	check_err("boot-on mmcx 64 no-stay-on", -EINVAL, 1, 14,
		  "'no-stay-on' takes no level: nothing holds the domain, so "
		  "no boot level counts (drop '64', or the option)");
	check_err("boot-on mmcx no-stay-on 64", -EINVAL, 1, 25, NULL);
	check_err("boot-on mmcx 1 2 no-sync-state", -EINVAL, 1, 16,
		  "'boot-on' takes 1 to 2 arguments, got 3 (unexpected '2'; "
		  "usage: boot-on DOMAIN [LEVEL] [no-stay-on|no-sync-state])");
	check_err("@1ms boot-on mmcx no-stay-on", -EINVAL, 1, 6,
		  "'boot-on' must come at time 0, before any other command");
	c = one("sync-state rpmhpd");
	assert_int_equal(c.verb, DMN_SCN_SYNC_STATE);
	assert_string_equal(c.target, "rpmhpd");
	check_err("sync-state", -EINVAL, 1, 11,
		  "'sync-state' needs 1 argument, got 0 (usage: sync-state "
		  "DOMAIN|PROVIDER)");
	check_err("sync-state a b", -EINVAL, 1, 14, NULL);
	c = one("system-qos 150");
	assert_int_equal(c.verb, DMN_SCN_SYSTEM_QOS);
	assert_null(c.target);
	assert_int_equal(c.qos.latency_us, 150);
	c = one("system-qos 2ms");
	assert_int_equal(c.qos.latency_us, 2000);
	c = one("system-qos none");
	assert_int_equal(c.qos.latency_us, DMN_SCN_QOS_NONE);
	check_err("system-qos", -EINVAL, 1, 11,
		  "'system-qos' needs 1 argument, got 0 (usage: system-qos "
		  "LATENCY_US|none)");
	check_err("system-qos cpu0 5", -EINVAL, 1, 17, NULL);
	check_err("system-qos 5x", -EINVAL, 1, 12, NULL);
	check_err("system-qos 4294967295", -EOVERFLOW, 1, 12, NULL);
	check_err("boot-on mmcx 1 2", -EINVAL, 1, 16, NULL);
	check_err("boot-on mmcx 1x", -EINVAL, 1, 14, NULL);
	check_err("probe", -EINVAL, 1, 6,
		  "'probe' needs 1 argument, got 0 (usage: probe DEV|all)");
	check_err("probe a b", -EINVAL, 1, 9, NULL);
	c = one("explain mmcx");
	assert_int_equal(c.verb, DMN_SCN_EXPLAIN);
	assert_string_equal(c.target, "mmcx");
	check_err("explain", -EINVAL, 1, 8,
		  "'explain' needs 1 argument, got 0 (usage: explain DOMAIN)");
	check_err("explain a b", -EINVAL, 1, 11, NULL);
	c = one("system-suspend");
	assert_int_equal(c.verb, DMN_SCN_SYSTEM_SUSPEND);
	assert_null(c.target);
	c = one("system-resume");
	assert_int_equal(c.verb, DMN_SCN_SYSTEM_RESUME);
	c = one("wakeup-enable usb off");
	assert_int_equal(c.verb, DMN_SCN_WAKEUP_ENABLE);
	assert_string_equal(c.target, "usb");
	assert_int_equal(c.toggle.on, 0);
	c = one("active-wakeup cx");
	assert_int_equal(c.verb, DMN_SCN_ACTIVE_WAKEUP);
	assert_int_equal(c.toggle.on, 1);
	c = one("active-wakeup cx off");
	assert_int_equal(c.toggle.on, 0);
	check_err("system-suspend now", -EINVAL, 1, 16,
		  "'system-suspend' takes 0 arguments, got 1 (unexpected "
		  "'now'; usage: system-suspend)");
	check_err("wakeup-enable usb", -EINVAL, 1, 18,
		  "'wakeup-enable' needs 2 arguments, got 1 (usage: "
		  "wakeup-enable DEV on|off)");
	check_err("wakeup-enable usb of", -EINVAL, 1, 19,
		  "unknown switch 'of'; did you mean 'on'?");
	check_err("expect mmcx held now", -EINVAL, 1, 18,
		  "'expect' takes 2 arguments, got 3 (unexpected 'now'; usage: "
		  "expect DOMAIN held)");
	/* hwmode DEV [DOMAIN-NAME] on|off, always-on DEV on|off, always-on
	 * DOMAIN (time 0 only), expect DOMAIN hw|sw, fail DOMAIN hwmode. */
	c = one("hwmode venus on");
	assert_int_equal(c.verb, DMN_SCN_HWMODE);
	assert_string_equal(c.target, "venus");
	assert_null(c.hwmode.domain);
	assert_int_equal(c.hwmode.on, 1);
	c = one("hwmode venus vcodec0 off");
	assert_string_equal(c.hwmode.domain, "vcodec0");
	assert_int_equal(c.hwmode.on, 0);
	check_err("hwmode venus", -EINVAL, 1, 13,
		  "'hwmode' needs at least 2 arguments, got 1 (usage: hwmode "
		  "DEV [DOMAIN-NAME] on|off)");
	check_err("hwmode venus vcodec0 onn", -EINVAL, 1, 22,
		  "unknown switch 'onn'; did you mean 'on'?");
	check_err("hwmode a b c d", -EINVAL, 1, 14, NULL);
	c = one("always-on mdp off");
	assert_int_equal(c.verb, DMN_SCN_ALWAYS_ON);
	assert_int_equal(c.toggle.on, 0);
	assert_int_equal(c.toggle.domain, 0);
	s = parse_ok("always-on cx\nboot-on mx\nalways-on mmcx\n@1ms resume a\n"
		     "always-on a on\nexpect cx hw\nexpect cx sw\n"
		     "fail cx hwmode 2\n");
	assert_int_equal(s->cmds[0].toggle.domain, 1);
	assert_int_equal(s->cmds[0].toggle.on, 1);
	assert_int_equal(s->cmds[2].toggle.domain, 1);
	assert_int_equal(s->cmds[4].toggle.domain, 0);
	assert_int_equal(s->cmds[4].toggle.on, 1);
	assert_int_equal(s->cmds[5].expect.kind, DMN_SCN_EXPECT_HW);
	assert_int_equal(s->cmds[6].expect.kind, DMN_SCN_EXPECT_SW);
	assert_int_equal(s->cmds[7].fail.op, DMN_SCN_FAIL_HWMODE);
	assert_int_equal(s->cmds[7].fail.count, 2);
	assert_string_equal(dmn_scn_fail_op_name(DMN_SCN_FAIL_HWMODE), "hwmode");
	dmn_scn_free(s);
	check_err("resume a\nalways-on cx", -EINVAL, 2, 1,
		  "'always-on DOMAIN' must come at time 0, before any other "
		  "command (a device takes on or off: always-on DEV on|off)");
	check_err("@2ms always-on cx", -EINVAL, 1, 6, NULL);
	check_err("always-on", -EINVAL, 1, 10, NULL);
	check_err("always-on a on x", -EINVAL, 1, 16, NULL);
	check_err("always-on a of", -EINVAL, 1, 13,
		  "unknown switch 'of'; did you mean 'on'?");
	check_err("expect cx hw now", -EINVAL, 1, 14,
		  "'expect' takes 2 arguments, got 3 (unexpected 'now'; usage: "
		  "expect DOMAIN hw)");
}

static void test_expect_errors(void **state)
{
	(void)state;
	check_err(
	    "expect", -EINVAL, 1, 7,
	    "'expect' needs at least 2 arguments, got 0 (usage: expect "
	    "DOMAIN pstate N | DOMAIN on | DOMAIN off | DOMAIN idle NAME | "
	    "DOMAIN held | DOMAIN released | DOMAIN hw | DOMAIN sw | "
	    "DEV rate HZ | last-error ERRNO)");
	check_err("expect cx", -EINVAL, 1, 10, NULL);
	check_err("expect cx pstat 3", -EINVAL, 1, 11,
		  "unknown expect form 'pstat'; did you mean 'pstate'?");
	check_err(
	    "expect cx sleeping", -EINVAL, 1, 11,
	    "unknown expect form 'sleeping' (use pstate, on, off, idle, "
	    "rate, held, released, hw or sw after the name, or "
	    "last-error)");
	check_err(
	    "expect last-eror EIO", -EINVAL, 1, 8,
	    "unknown expect form 'last-eror'; did you mean 'last-error'?");
	check_err("expect cx pstate", -EINVAL, 1, 17,
		  "'expect' needs 3 arguments, got 2 (usage: expect DOMAIN "
		  "pstate N)");
	check_err("expect cx on now", -EINVAL, 1, 14,
		  "'expect' takes 2 arguments, got 3 (unexpected 'now'; usage: "
		  "expect DOMAIN on)");
	check_err("expect cx off now", -EINVAL, 1, 15, NULL);
	check_err("expect cx idle", -EINVAL, 1, 15, NULL);
	check_err("expect gpu rate", -EINVAL, 1, 16, NULL);
	check_err("expect last-error", -EINVAL, 1, 18,
		  "'expect' needs 2 arguments, got 1 (usage: expect last-error "
		  "ERRNO)");
	check_err("expect last-error EIO x", -EINVAL, 1, 23, NULL);
	check_err("expect last-error eio", -EINVAL, 1, 19,
		  "unknown errno name 'eio'; did you mean 'EIO'?");
	check_err("expect last-error IO", -EINVAL, 1, 19,
		  "unknown errno name 'IO'; did you mean 'EIO'?");
	check_err("expect last-error ok", -EINVAL, 1, 19,
		  "unknown errno name 'ok'; did you mean 'OK'?");
	check_err(
	    "expect last-error EWHATEVER", -EINVAL, 1, 19,
	    "unknown errno name 'EWHATEVER' (use OK or a name such as EIO, "
	    "ERANGE, ENODEV)");
}

static void test_text_errors(void **state)
{
	(void)state;
	check_err_n("resume a\nresume \0b\n", 19, -EILSEQ, 2, 8,
		    "NUL byte in scenario text");
	check_err("resume a\n# caf\xc3\n", -EILSEQ, 2, 6,
		  "invalid UTF-8 (byte 0xc3)");
	check_err("resume \xc3\xa9t\xe9", -EILSEQ, 1, 10,
		  "invalid UTF-8 (byte 0xe9)");
	check_err("resume \xc0\xaf", -EILSEQ, 1, 8, NULL);     /* overlong / */
	check_err("resume \xe0\x80\xaf", -EILSEQ, 1, 8, NULL); /* overlong */
	check_err("resume \xed\xa0\x80", -EILSEQ, 1, 8, NULL); /* surrogate */
	check_err("resume \xf4\x90\x80\x80", -EILSEQ, 1, 8, NULL); /* >10FFFF */
	check_err("resume \xf5\x80\x80\x80", -EILSEQ, 1, 8, NULL);
	check_err("resume \x80", -EILSEQ, 1, 8, NULL);
	check_err("resume \xe2\x82", -EILSEQ, 1, 8, NULL); /* truncated */
	check_err("resume \xe2\x82\nresume a", -EILSEQ, 1, 8, NULL);
	check_err("resume a\x07", -EINVAL, 1, 9,
		  "control character U+0007 not allowed");
	check_err("resume a\x7f", -EINVAL, 1, 9,
		  "control character U+007F not allowed");
	/* The first bad line wins, whatever the kind of error. */
	check_err("resme a\nresume \xff\n", -EINVAL, 1, 1, NULL);
	check_err("resume \xff\nresme a\n", -EILSEQ, 1, 8, NULL);
	/* Columns count characters, not bytes. */
	check_err("resume \xc3\xa9\xe2\x82\xac\xf0\x9f\x94\x8b x", -EINVAL, 1,
		  12, NULL);
	/* Long words are quoted cut at a character boundary. */
	char text[256];
	size_t n = 0;
	for (int i = 0; i < 30; i++) {
		memcpy(text + n, "\xc3\xa9", 2); /* é: 2 bytes */
		n += 2;
	}
	strcpy(text + n, " x");
	check_err(
	    text, -EINVAL, 1, 1,
	    "unknown verb '\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9...' (verbs: resume, suspend, rate, vote, qos, "
	    "wakeup, fail, expect, boot-on, probe, explain, system-suspend, system-resume, wakeup-enable, active-wakeup, hwmode, always-on, sync-state, system-");
	/* Odd offset: byte 48 is a continuation byte, so the cut backs off. */
	memmove(text + 1, text, strlen(text) + 1);
	text[0] = 'a';
	check_err(text, -EINVAL, 1, 1,
		  "unknown verb 'a"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...' (verbs: "
		  "resume, suspend, rate, vote, qos, "
		  "wakeup, fail, expect, boot-on, probe, explain, system-suspend, system-resume, wakeup-enable, active-wakeup, hwmode, always-on, sync-state, system-q");
}

/* Every edge of RFC 3629's table is accepted, and the byte just past each
 * is refused: lead bytes C2/DF/E0/EF/F0/F4, the narrowed second-byte
 * ranges of E0, ED, F0 and F4, continuation bytes 80 and BF. */
static void test_utf8_edges(void **state)
{
	(void)state;
	static const char *const good[] = {
		"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xe0\xbf\xbf",
		"\xe1\x80\x80", "\xe1\xbf\xbf", "\xed\x80\x80", "\xed\x9f\xbf",
		"\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80",
		"\xf0\xbf\xbf\xbf", "\xf1\x80\x80\x80", "\xf3\xbf\xbf\xbf",
		"\xf4\x80\x80\x80", "\xf4\x8f\xbf\xbf",
	};
	static const char *const bad[] = {
		"\xc1\xbf", "\xc2\x7f", "\xc2\xc0", "\xe0\x9f\xbf",
		"\xe0\xc0\x80", "\xe1\x7f\x80", "\xe1\x80\xc0",
		"\xed\xa0\x80", "\xed\x7f\x80", "\xf0\x8f\xbf\xbf",
		"\xf0\xc0\x80\x80", "\xf1\x80\x80\xc0", "\xf4\x90\x80\x80",
		"\xf4\x7f\x80\x80", "\xf5\x80\x80\x80", "\xe1\x80",
		"\xf1\x80\x80",
	};
	char text[32];
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(text, sizeof(text), "resume a # %s\n", good[i]);
		struct dmn_scn_script *s = parse_ok(text);
		assert_int_equal(s->count, 1);
		dmn_scn_free(s);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "resume a # %s", bad[i]);
		check_err(text, -EILSEQ, 1, 12, NULL);
	}
}

static void test_text_forms(void **state)
{
	(void)state;
	/* Empty and comment-only input. */
	struct dmn_scn_script *s = NULL;
	struct dmn_scn_diag d;
	assert_int_equal(dmn_scn_parse(NULL, 0, NULL, NULL, &s, &d), 0);
	assert_int_equal(s->count, 0);
	assert_int_equal(s->end_ns, 0);
	assert_null(s->cmds);
	assert_string_equal(s->filename, "<scenario>");
	dmn_scn_free(s);
	s = parse_ok("");
	assert_int_equal(s->count, 0);
	dmn_scn_free(s);
	s = parse_ok("\n\n# nothing\n   \t\n#");
	assert_int_equal(s->count, 0);
	dmn_scn_free(s);

	/* BOM, CRLF, tabs, `#` glued to a word, UTF-8 names, no final LF. */
	s = parse_ok("\xef\xbb\xbfresume gpu\r\n"
		     "\t@1ms\tresume\tcam\xc3\xa9ra#comment\r\n"
		     "expect x on#y\n"
		     "rate gpu 1GHz");
	assert_int_equal(s->count, 4);
	assert_string_equal(s->cmds[0].target, "gpu");
	assert_int_equal(s->cmds[0].column, 1);
	assert_string_equal(s->cmds[1].target, "cam\xc3\xa9ra");
	assert_int_equal(s->cmds[1].column, 7);
	assert_int_equal(s->cmds[2].verb, DMN_SCN_EXPECT);
	dmn_scn_free(s);
	/* `expect x#y on` is `expect x`: the # starts the comment. */
	check_err("expect x#y on", -EINVAL, 1, 9, NULL);

	/* The input need not be NUL-terminated: only len bytes count. */
	const char buf[] = {'r', 'e', 's', 'u', 'm', 'e', ' ', 'a', 'X'};
	assert_int_equal(dmn_scn_parse(buf, 8, "b", NULL, &s, &d), 0);
	assert_string_equal(s->cmds[0].target, "a");
	dmn_scn_free(s);

	/* The script owns its strings. */
	char *text = strdup("resume venus\n");
	assert_int_equal(dmn_scn_parse(text, strlen(text), "x", NULL, &s, &d), 0);
	memset(text, 'z', strlen(text));
	free(text);
	assert_string_equal(s->cmds[0].target, "venus");
	dmn_scn_free(s);

	/* Bad arguments. */
	assert_int_equal(dmn_scn_parse("a", 1, "f", NULL, NULL, &d), -EINVAL);
	assert_int_equal(d.line, 0);
	s = (struct dmn_scn_script *)1;
	assert_int_equal(dmn_scn_parse(NULL, 3, "f", NULL, &s, NULL), -EINVAL);
	assert_null(s);
	dmn_scn_free(NULL);
}

static void test_many_commands(void **state)
{
	(void)state;
	size_t n = 5000, len = 0;
	char *text = malloc(n * 32);
	for (size_t i = 0; i < n; i++)
		len +=
		    (size_t)sprintf(text + len, "+1us vote d%zu %zu\n", i, i);
	struct dmn_scn_script *s = parse_ok(text);
	assert_int_equal(s->count, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(s->cmds[i].time_ns, (i + 1) * 1000);
		assert_int_equal(s->cmds[i].vote.level, i);
		assert_int_equal(s->cmds[i].line, i + 1);
	}
	dmn_scn_free(s);
	free(text);
}

/* ---- diag formatting ------------------------------------------------------
 */

static void test_diag_format(void **state)
{
	(void)state;
	struct dmn_scn_script *s;
	struct dmn_scn_diag d;
	char buf[300];
	const char *text = "resume a\n  resme b\n";
	assert_int_equal(
	    dmn_scn_parse(text, strlen(text), "demo.scn", NULL, &s, &d), -EINVAL);
	int n = dmn_scn_diag_format(&d, 0, buf, sizeof(buf));
	assert_string_equal(buf, "demo.scn:2: error: unknown verb 'resme'; did "
				 "you mean 'resume'?");
	assert_int_equal(n, strlen(buf));
	dmn_scn_diag_format(&d, 1, buf, sizeof(buf));
	assert_string_equal(buf, "demo.scn:2:3: error: unknown verb 'resme'; "
				 "did you mean 'resume'?");
	/* Truncation reports the full length, like snprintf. */
	assert_int_equal(dmn_scn_diag_format(&d, 0, buf, 5), n);
	assert_string_equal(buf, "demo");
	assert_int_equal(dmn_scn_diag_format(&d, 0, NULL, 0), n);
	d.file = NULL;
	dmn_scn_diag_format(&d, 0, buf, sizeof(buf));
	assert_string_equal(buf, "<scenario>:2: error: unknown verb 'resme'; "
				 "did you mean 'resume'?");
	d.line = 0;
	snprintf(d.message, sizeof(d.message), "out of memory");
	dmn_scn_diag_format(&d, 1, buf, sizeof(buf));
	assert_string_equal(buf, "<scenario>: error: out of memory");
	assert_int_equal(dmn_scn_diag_format(NULL, 0, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(dmn_scn_diag_format(&d, 0, NULL, 4), -EINVAL);
}

/* ---- helpers: names, distance, suggestions --------------------------------
 */

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(dmn_scn_verb_name(DMN_SCN_RESUME), "resume");
	assert_string_equal(dmn_scn_verb_name(DMN_SCN_EXPECT), "expect");
	assert_string_equal(dmn_scn_verb_name((enum dmn_scn_verb)99), "?");
	assert_string_equal(dmn_scn_fail_op_name(DMN_SCN_FAIL_PSTATE), "pstate");
	assert_string_equal(dmn_scn_fail_op_name(DMN_SCN_FAIL_OFF), "off");
	assert_string_equal(dmn_scn_fail_op_name((enum dmn_scn_fail_op)7), "?");
}

static void test_edit_distance(void **state)
{
	(void)state;
	assert_int_equal(dmn_scn_edit_distance("", ""), 0);
	assert_int_equal(dmn_scn_edit_distance("abc", ""), 3);
	assert_int_equal(dmn_scn_edit_distance("", "abc"), 3);
	assert_int_equal(dmn_scn_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(dmn_scn_edit_distance("resume", "resume"), 0);
	assert_int_equal(dmn_scn_edit_distance("resmue", "resume"), 1); /* swap */
	assert_int_equal(dmn_scn_edit_distance("ca", "abc"), 3); /* OSA, not DL */
	assert_int_equal(dmn_scn_edit_distance(NULL, "ab"), 2);
	char a[300], b[300];
	memset(a, 'x', 299);
	a[299] = '\0';
	memset(b, 'x', 299);
	b[299] = '\0';
	assert_int_equal(dmn_scn_edit_distance(a, b), 0);
	b[298] = '\0';
	assert_int_equal(dmn_scn_edit_distance(a, b), 1);
	b[0] = 'y';
	assert_int_equal(dmn_scn_edit_distance(a, b), 2);
}

static const char *const domains[] = {
    "cx",
    "mx",
    "mmcx",
    "gpu_gdsc",
    "mdss_gdsc",
    "venus_gdsc",
    "/psci/power-domain-cluster",
    NULL,
    "rpmhpd:9",
};
#define N_DOMAINS (sizeof(domains) / sizeof(domains[0]))

static const char *domain_at(void *user, size_t i)
{
	assert_ptr_equal(user, domains);
	return domains[i];
}

static void test_suggest(void **state)
{
	(void)state;
	assert_string_equal(dmn_scn_suggest("gpu_gsdc", domains, N_DOMAINS),
			    "gpu_gdsc");
	assert_string_equal(dmn_scn_suggest("mmxc", domains, N_DOMAINS), "mmcx");
	assert_string_equal(dmn_scn_suggest("CX", domains, N_DOMAINS), "cx");
	assert_string_equal(dmn_scn_suggest("cz", domains, N_DOMAINS), "cx");
	assert_string_equal(
	    dmn_scn_suggest("/psci/power-domain-clustr", domains, N_DOMAINS),
	    "/psci/power-domain-cluster");
	assert_string_equal(dmn_scn_suggest("rpmhpd:8", domains, N_DOMAINS),
			    "rpmhpd:9");
	/* Too far, exact, empty, NULL. */
	assert_null(dmn_scn_suggest("camera", domains, N_DOMAINS));
	assert_null(dmn_scn_suggest("cx", domains, N_DOMAINS));
	assert_null(dmn_scn_suggest("ab", domains, N_DOMAINS));
	assert_null(dmn_scn_suggest(NULL, domains, N_DOMAINS));
	assert_null(dmn_scn_suggest("cx", NULL, 3));
	assert_null(dmn_scn_suggest("cx", domains, 0));
	/* Ties go to the earliest candidate. */
	assert_string_equal(dmn_scn_suggest("xx", domains, N_DOMAINS), "cx");
	assert_string_equal(dmn_scn_suggest_fn("venus-gdsc", domain_at,
					   (void *)(uintptr_t)domains,
					   N_DOMAINS),
			    "venus_gdsc");
	assert_null(dmn_scn_suggest_fn("x", NULL, NULL, 3));
}

/* ---- allocation failure ---------------------------------------------------
 */

struct counting_alloc {
	int fail_at; /* fail the Nth allocation (1-based); 0 never */
	int calls;
	int live;
};

static void *count_alloc(void *user, size_t size)
{
	struct counting_alloc *c = user;
	if (++c->calls == c->fail_at)
		return NULL;
	c->live++;
	return malloc(size);
}

static void count_free(void *user, void *ptr)
{
	struct counting_alloc *c = user;
	assert_non_null(ptr);
	c->live--;
	free(ptr);
}

static void test_alloc_failure(void **state)
{
	(void)state;
	/* 40 commands: the array grows from 16 to 32 to 64. */
	char text[2048];
	size_t len = 0;
	for (int i = 0; i < 40; i++)
		len += (size_t)sprintf(text + len, "+1ms resume d%d\n", i);

	for (int k = 1;; k++) {
		struct counting_alloc c = {k, 0, 0};
		struct dmn_alloc_ops ops = {count_alloc, count_free, &c};
		struct dmn_scn_script *s = (struct dmn_scn_script *)1;
		struct dmn_scn_diag d;
		int rc = dmn_scn_parse(text, len, "a.scn", &ops, &s, &d);
		if (rc == 0) {
			assert_true(k > 3);
			assert_int_equal(s->count, 40);
			assert_string_equal(s->cmds[39].target, "d39");
			dmn_scn_free(s);
			assert_int_equal(c.live, 0);
			break;
		}
		assert_int_equal(rc, -ENOMEM);
		assert_int_equal(d.error, -ENOMEM);
		assert_int_equal(d.line, 0);
		assert_string_equal(d.message, "out of memory");
		assert_null(s);
		assert_int_equal(c.live, 0);
	}

	/* A hook with only one of alloc/free means the default. */
	struct dmn_alloc_ops half = {count_alloc, NULL, NULL};
	struct dmn_scn_script *s;
	assert_int_equal(dmn_scn_parse("resume a", 8, "h", &half, &s, NULL), 0);
	dmn_scn_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_resume_suspend),
	    cmocka_unit_test(test_rate),
	    cmocka_unit_test(test_vote),
	    cmocka_unit_test(test_qos),
	    cmocka_unit_test(test_wakeup),
	    cmocka_unit_test(test_fail),
	    cmocka_unit_test(test_expect),
	    cmocka_unit_test(test_time_forms),
	    cmocka_unit_test(test_time_exact),
	    cmocka_unit_test(test_freq_exact),
	    cmocka_unit_test(test_format_time),
	    cmocka_unit_test(test_time_errors),
	    cmocka_unit_test(test_verb_errors),
	    cmocka_unit_test(test_number_errors),
	    cmocka_unit_test(test_expect_errors),
	    cmocka_unit_test(test_lifecycle_forms),
	    cmocka_unit_test(test_text_errors),
	    cmocka_unit_test(test_utf8_edges),
	    cmocka_unit_test(test_text_forms),
	    cmocka_unit_test(test_many_commands),
	    cmocka_unit_test(test_diag_format),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_edit_distance),
	    cmocka_unit_test(test_suggest),
	    cmocka_unit_test(test_alloc_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
