/* SPDX-License-Identifier: MIT */
/*
 * fuzz_scenario - arbitrary bytes into the scenario parser.
 *
 * A rejected text must come with a diagnostic that formats as
 * docs/command-line.md (Errors and output) prints it. An accepted script
 * is written back out, one absolute-time command a line, and must parse again
 * to the same commands; every time in
 * it must survive dmn_scn_format_time -> dmn_scn_parse_time. With the simulator
 * linked (FUZZ_HAVE_SIM), an accepted script then runs on the built-in
 * demo board and its report is rendered by every writer into a sink that
 * discards the bytes. ASan/UBSan/LSan catch memory errors and leaks; the
 * contract's promises are checked with __builtin_trap().
 */
#include <domino/context.h>
#include <domino/scenario.h>

#ifdef FUZZ_HAVE_SIM
#include "domino_demo_board.h"
#include <domino/report.h>
#include <domino/sim.h>
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FILE_NAME "fuzz.scn"

static void check_diag(const struct dmn_scn_diag *diag, int err)
{
	char buf[512];
	char prefix[64];
	if (diag->error != err || !memchr(diag->message, '\0', sizeof(diag->message)))
		__builtin_trap();
	if (err == -EINVAL && diag->line == 0)
		__builtin_trap(); /* only bad arguments lack a line, not text */
	for (int col = 0; col <= 1; col++) {
		int n = dmn_scn_diag_format(diag, col, buf, sizeof(buf));
		if (n < 0 || (size_t)n < strlen(buf))
			__builtin_trap();
		if ((size_t)n < sizeof(buf) && (size_t)n != strlen(buf))
			__builtin_trap();
		/* a tiny buffer truncates but still terminates */
		char tiny[8];
		if (dmn_scn_diag_format(diag, col, tiny, sizeof(tiny)) != n ||
		    strlen(tiny) != (size_t)(n < 7 ? n : 7))
			__builtin_trap();
	}
	int n = snprintf(prefix, sizeof(prefix), FILE_NAME ":%u: error: ",
			 (unsigned)diag->line);
	dmn_scn_diag_format(diag, 0, buf, sizeof(buf));
	if (diag->line && strncmp(buf, prefix, (size_t)n) != 0)
		__builtin_trap();
}

static void check_time(uint64_t ns)
{
	char buf[48];
	uint64_t back = 0;
	int n = dmn_scn_format_time(ns, buf, sizeof(buf));
	if (n <= 0 || (size_t)n >= sizeof(buf) ||
	    dmn_scn_parse_time(buf, (size_t)n, &back) || back != ns)
		__builtin_trap();
}

/* Appends to a growing buffer; the fuzzer's inputs are small. */
struct text {
	char *s;
	size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			__builtin_trap();
		if ((size_t)n < t->cap - t->len) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = (t->cap + (size_t)n + 1) * 2;
		char *s = realloc(t->s, cap);
		if (!s)
			abort();
		t->s = s;
		t->cap = cap;
	}
}

static void write_cmd(struct text *t, const struct dmn_scn_cmd *c)
{
	char when[48];
	dmn_scn_format_time(c->time_ns, when, sizeof(when));
	put(t, "@%s %s", when, dmn_scn_verb_name(c->verb));
	switch (c->verb) {
	case DMN_SCN_RESUME:
	case DMN_SCN_SUSPEND:
		put(t, " %s\n", c->target);
		return;
	case DMN_SCN_RATE:
		put(t, " %s %llu\n", c->target, (unsigned long long)c->rate.hz);
		return;
	case DMN_SCN_VOTE:
		put(t, " %s%s%s ", c->target, c->vote.domain ? " " : "",
		    c->vote.domain ? c->vote.domain : "");
		if (c->vote.level_name)
			put(t, "%s\n", c->vote.level_name);
		else
			put(t, "%u\n", (unsigned)c->vote.level);
		return;
	case DMN_SCN_QOS:
		if (c->qos.latency_us == DMN_SCN_QOS_NONE)
			put(t, " %s none\n", c->target);
		else
			put(t, " %s %u\n", c->target, (unsigned)c->qos.latency_us);
		return;
	case DMN_SCN_WAKEUP:
		if (c->wakeup.at_ns == DMN_SCN_WAKEUP_NONE) {
			put(t, " %s none\n", c->target);
			return;
		}
		dmn_scn_format_time(c->wakeup.at_ns, when, sizeof(when));
		put(t, " %s %s\n", c->target, when);
		return;
	case DMN_SCN_FAIL:
		put(t, " %s %s %u\n", c->target, dmn_scn_fail_op_name(c->fail.op),
		    (unsigned)c->fail.count);
		return;
	case DMN_SCN_BOOT_ON:
		if (c->boot.flags == DMN_SCN_BOOT_NO_STAY_ON) {
			/* no level: nothing holds the domain */
			put(t, " %s no-stay-on\n", c->target);
			return;
		}
		if (c->boot.level_name)
			put(t, " %s %s", c->target, c->boot.level_name);
		else
			put(t, " %s %u", c->target, (unsigned)c->boot.level);
		put(t, "%s\n", c->boot.flags ? " no-sync-state" : "");
		return;
	case DMN_SCN_SYNC_STATE:
		put(t, " %s\n", c->target);
		return;
	case DMN_SCN_SYSTEM_QOS:
		if (c->qos.latency_us == DMN_SCN_QOS_NONE)
			put(t, " none\n");
		else
			put(t, " %u\n", (unsigned)c->qos.latency_us);
		return;
	case DMN_SCN_PROBE:
		put(t, " %s\n", c->probe.all ? "all" : c->target);
		return;
	case DMN_SCN_EXPLAIN:
		put(t, " %s\n", c->target);
		return;
	case DMN_SCN_SYSTEM_SUSPEND:
	case DMN_SCN_SYSTEM_RESUME:
		put(t, "\n");
		return;
	case DMN_SCN_WAKEUP_ENABLE:
	case DMN_SCN_ACTIVE_WAKEUP:
		put(t, " %s %s\n", c->target, c->toggle.on ? "on" : "off");
		return;
	case DMN_SCN_ALWAYS_ON:
		if (c->toggle.domain)
			put(t, " %s\n", c->target);
		else
			put(t, " %s %s\n", c->target,
			    c->toggle.on ? "on" : "off");
		return;
	case DMN_SCN_HWMODE:
		put(t, " %s%s%s %s\n", c->target, c->hwmode.domain ? " " : "",
		    c->hwmode.domain ? c->hwmode.domain : "",
		    c->hwmode.on ? "on" : "off");
		return;
	case DMN_SCN_EXPECT:
		break;
	}
	switch (c->expect.kind) {
	case DMN_SCN_EXPECT_PSTATE:
		if (c->expect.level_name)
			put(t, " %s pstate %s\n", c->target, c->expect.level_name);
		else
			put(t, " %s pstate %u\n", c->target, (unsigned)c->expect.level);
		return;
	case DMN_SCN_EXPECT_ON:
	case DMN_SCN_EXPECT_OFF:
		put(t, " %s %s\n", c->target,
		    c->expect.kind == DMN_SCN_EXPECT_ON ? "on" : "off");
		return;
	case DMN_SCN_EXPECT_IDLE:
		put(t, " %s idle %s\n", c->target, c->expect.idle_state);
		return;
	case DMN_SCN_EXPECT_RATE:
		put(t, " %s rate %llu\n", c->target, (unsigned long long)c->expect.hz);
		return;
	case DMN_SCN_EXPECT_LAST_ERROR:
		put(t, " last-error %s\n", dmn_errno_name(c->expect.error));
		return;
	case DMN_SCN_EXPECT_HELD:
	case DMN_SCN_EXPECT_RELEASED:
		put(t, " %s %s\n", c->target,
		    c->expect.kind == DMN_SCN_EXPECT_HELD ? "held" : "released");
		return;
	case DMN_SCN_EXPECT_HW:
	case DMN_SCN_EXPECT_SW:
		put(t, " %s %s\n", c->target,
		    c->expect.kind == DMN_SCN_EXPECT_HW ? "hw" : "sw");
		return;
	}
	__builtin_trap();
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void check_same(const struct dmn_scn_cmd *a, const struct dmn_scn_cmd *b)
{
	if (a->time_ns != b->time_ns || a->verb != b->verb ||
	    !same_str(a->target, b->target))
		__builtin_trap();
	switch (a->verb) {
	case DMN_SCN_RESUME:
	case DMN_SCN_SUSPEND:
		return;
	case DMN_SCN_RATE:
		if (a->rate.hz != b->rate.hz)
			__builtin_trap();
		return;
	case DMN_SCN_VOTE:
		if (a->vote.level != b->vote.level ||
		    !same_str(a->vote.domain, b->vote.domain) ||
		    !same_str(a->vote.level_name, b->vote.level_name))
			__builtin_trap();
		return;
	case DMN_SCN_QOS:
	case DMN_SCN_SYSTEM_QOS:
		if (a->qos.latency_us != b->qos.latency_us)
			__builtin_trap();
		return;
	case DMN_SCN_WAKEUP:
		if (a->wakeup.at_ns != b->wakeup.at_ns)
			__builtin_trap();
		return;
	case DMN_SCN_FAIL:
		if (a->fail.op != b->fail.op || a->fail.count != b->fail.count)
			__builtin_trap();
		return;
	case DMN_SCN_BOOT_ON:
		if (a->boot.level != b->boot.level ||
		    a->boot.flags != b->boot.flags ||
		    !same_str(a->boot.level_name, b->boot.level_name))
			__builtin_trap();
		return;
	case DMN_SCN_SYNC_STATE:
		return;
	case DMN_SCN_PROBE:
		if (a->probe.all != b->probe.all)
			__builtin_trap();
		return;
	case DMN_SCN_EXPLAIN:
	case DMN_SCN_SYSTEM_SUSPEND:
	case DMN_SCN_SYSTEM_RESUME:
		return;
	case DMN_SCN_WAKEUP_ENABLE:
	case DMN_SCN_ACTIVE_WAKEUP:
		if (a->toggle.on != b->toggle.on)
			__builtin_trap();
		return;
	case DMN_SCN_ALWAYS_ON:
		if (a->toggle.on != b->toggle.on ||
		    a->toggle.domain != b->toggle.domain)
			__builtin_trap();
		return;
	case DMN_SCN_HWMODE:
		if (a->hwmode.on != b->hwmode.on ||
		    !same_str(a->hwmode.domain, b->hwmode.domain))
			__builtin_trap();
		return;
	case DMN_SCN_EXPECT:
		break;
	}
	if (a->expect.kind != b->expect.kind)
		__builtin_trap();
	switch (a->expect.kind) {
	case DMN_SCN_EXPECT_PSTATE:
		if (a->expect.level != b->expect.level ||
		    !same_str(a->expect.level_name, b->expect.level_name))
			__builtin_trap();
		return;
	case DMN_SCN_EXPECT_IDLE:
		if (!same_str(a->expect.idle_state, b->expect.idle_state))
			__builtin_trap();
		return;
	case DMN_SCN_EXPECT_RATE:
		if (a->expect.hz != b->expect.hz)
			__builtin_trap();
		return;
	case DMN_SCN_EXPECT_LAST_ERROR:
		if (a->expect.error != b->expect.error)
			__builtin_trap();
		return;
	default:
		return;
	}
}

static void round_trip(const struct dmn_scn_script *s)
{
	struct text t = {malloc(256), 0, 256};
	if (!t.s)
		abort();
	put(&t, "# written back by fuzz_scenario\n");
	for (size_t i = 0; i < s->count; i++) {
		check_time(s->cmds[i].time_ns);
		if (s->cmds[i].verb == DMN_SCN_WAKEUP &&
		    s->cmds[i].wakeup.at_ns != DMN_SCN_WAKEUP_NONE)
			check_time(s->cmds[i].wakeup.at_ns);
		write_cmd(&t, &s->cmds[i]);
	}
	struct dmn_scn_script *again = NULL;
	struct dmn_scn_diag diag;
	if (dmn_scn_parse(t.s, t.len, FILE_NAME, NULL, &again, &diag))
		__builtin_trap();
	if (again->count != s->count || again->end_ns != s->end_ns)
		__builtin_trap();
	for (size_t i = 0; i < s->count; i++)
		check_same(&s->cmds[i], &again->cmds[i]);
	dmn_scn_free(again);
	free(t.s);
}

#ifdef FUZZ_HAVE_SIM
static int discard(void *user, const char *bytes, size_t len)
{
	(void)user;
	(void)bytes;
	(void)len;
	return 0;
}

static void simulate(const struct dmn_scn_script *s)
{
	struct dmn_sim *sim = NULL;
	if (dmn_sim_create(domino_demo_dtb, domino_demo_dtb_len, NULL, &sim))
		__builtin_trap(); /* the demo board always loads */
	struct dmn_sim_result res;
	struct dmn_scn_diag diag;
	int err = dmn_sim_run(sim, s, NULL, NULL, &res, &diag);
	if (err && err != -EINVAL && err != -ENOMEM)
		__builtin_trap();
	if (err == -EINVAL)
		check_diag(&diag, -EINVAL); /* unknown device or domain */
	const struct dmn_report_model *m = NULL;
	if (!err && dmn_sim_report(sim, 1, &m) == 0) {
		struct dmn_report_sink out = {discard, NULL};
		struct dmn_report_text_options to = {0};
		dmn_report_write_events_text(m, &to, &out);
		dmn_report_write_summary_text(m, &to, &out);
		dmn_report_write_stats_text(m, &to, &out);
		dmn_report_write_json(m, &out);
		dmn_report_write_trace(m, &out);
		dmn_report_write_svg(m, &out);
	}
	dmn_sim_free(sim);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmn_scn_script *script = NULL;
	struct dmn_scn_diag diag;
	memset(&diag, 0xa5, sizeof(diag)); /* "filled in on failure" */
	int err = dmn_scn_parse((const char *)data, size, FILE_NAME, NULL, &script,
			    &diag);
	if (err) {
		if (script)
			__builtin_trap();
		check_diag(&diag, err);
		return 0;
	}
	if (!script || strcmp(script->filename, FILE_NAME) != 0)
		__builtin_trap();
	round_trip(script);
#ifdef FUZZ_HAVE_SIM
	/* Long scripts are the parser's business, not the engine's: keep
	 * the executions per second up. */
	if (script->count <= 64)
		simulate(script);
#endif
	dmn_scn_free(script);
	return 0;
}
