/* SPDX-License-Identifier: MIT */
/*
 * One event in words, shared by the event log and the SVG's tooltips:
 * "pstate 64 -> 256 FAILED: EIO (rolled back)", "on -> off (ret)".
 */
#include "report_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int is_op(const struct dmn_report_event *e, const char *op)
{
	return e->op && !strcmp(e->op, op);
}

/* " (low_svs -> nom)" when the domain's levels have names, " (nom)" when
 * only the new one has (level 0 usually has none). */
static void level_names(char *buf, size_t len, const struct dmn_report_levels *lv,
			const struct dmn_report_domain *d, uint32_t from,
			uint32_t to)
{
	const char *a = d ? dmn__rpt_level_name(lv, d, from) : NULL;
	const char *b = d ? dmn__rpt_level_name(lv, d, to) : NULL;

	buf[0] = '\0';
	if (a && b)
		snprintf(buf, len, " (%s -> %s)", a, b);
	else if (b)
		snprintf(buf, len, " (%s)", b);
	else if (a)
		snprintf(buf, len, " (from %s)", a);
}

int dmn__rpt_describe_event(char *buf, size_t len, const struct dmn_report_event *e,
		       const struct dmn_report_levels *lv,
		       const struct dmn_report_domain *d)
{
	char names[160], h1[RPT_NUM_LEN], h2[RPT_NUM_LEN];
	const char *err = dmn__rpt_error_name(e->error);

	switch (e->kind) {
	case DMN_REPORT_EV_POWER_ON:
		if (e->idle_state)
			snprintf(buf, len, "off (%s) -> on", e->idle_state);
		else
			snprintf(buf, len, "off -> on");
		return 0;
	case DMN_REPORT_EV_POWER_OFF:
		if (e->idle_state)
			snprintf(buf, len, "on -> off (%s)", e->idle_state);
		else
			snprintf(buf, len, "on -> off");
		return 0;
	case DMN_REPORT_EV_PSTATE:
		level_names(names, sizeof(names), lv, d, e->old_level,
			    e->new_level);
		snprintf(buf, len, "pstate %" PRIu32 " -> %" PRIu32 "%s",
			 e->old_level, e->new_level, names);
		return 0;
	case DMN_REPORT_EV_STAY_ON:
		snprintf(buf, len, "stays on (no idle state fits)");
		return 0;
	case DMN_REPORT_EV_RATE:
		snprintf(buf, len, "rate %s -> %s", dmn__rpt_fmt_hz(h1, e->old_hz),
			 dmn__rpt_fmt_hz(h2, e->new_hz));
		return 0;
	case DMN_REPORT_EV_COMMAND_ERROR:
		if (e->message)
			snprintf(buf, len, "command failed: %s (%s)", err,
				 e->message);
		else
			snprintf(buf, len, "command failed: %s", err);
		return 1;
	case DMN_REPORT_EV_EXPECT_FAILED:
		snprintf(buf, len, "expect failed: %s",
			 e->message ? e->message : "?");
		return 1;
	case DMN_REPORT_EV_EXPLAIN:
		snprintf(buf, len, "%s", e->message ? e->message : "?");
		return 0;
	case DMN_REPORT_EV_HWMODE:
		snprintf(buf, len, "%s mode -> %s (dev %s)",
			 e->old_level ? "hw" : "sw", e->new_level ? "hw" : "sw",
			 e->device ? e->device : "?");
		return 0;
	case DMN_REPORT_EV_SYSTEM_SLEEP:
		snprintf(buf, len, "system asleep");
		return 0;
	case DMN_REPORT_EV_SYSTEM_WAKE:
		snprintf(buf, len, "system awake");
		return 0;
	case DMN_REPORT_EV_FAILURE:
		break;
	}

	/* Failures: what was attempted, the error, and how it ended. An undo
	 * step of a rollback says so: why a resume powers something off. */
	const char *undo = e->undo ? "undoing a rollback; " : "";
	if (is_op(e, "pstate")) {
		char what[RPT_PHRASE_LEN];
		if (e->safe)
			snprintf(what, sizeof(what), "%ssafe: stays at %" PRIu32,
				 undo, e->old_level);
		else
			snprintf(what, sizeof(what), "rolled back");
		snprintf(buf, len,
			 "pstate %" PRIu32 " -> %" PRIu32 " FAILED: %s (%s)",
			 e->old_level, e->new_level, err, what);
	} else if (is_op(e, "on")) {
		snprintf(buf, len, "off -> on FAILED: %s (%s)", err,
			 e->safe ? "safe" : "rolled back");
	} else if (is_op(e, "off")) {
		snprintf(buf, len, "on -> off FAILED: %s (%s%s)", err, undo,
			 e->safe ? "safe: stays on" : "rolled back");
	} else if (is_op(e, "hwmode")) {
		snprintf(buf, len, "%s mode -> %s FAILED: %s (mode unchanged)",
			 e->new_level ? "sw" : "hw", e->new_level ? "hw" : "sw",
			 err);
	} else if (is_op(e, "clock")) {
		snprintf(buf, len, "clock %s -> %s FAILED: %s (%s)",
			 dmn__rpt_fmt_hz(h1, e->old_hz), dmn__rpt_fmt_hz(h2, e->new_hz),
			 err, e->safe ? "safe" : "rolled back");
	} else {
		snprintf(buf, len, "%s FAILED: %s (%s%s)",
			 e->op ? e->op : "operation", err, undo,
			 e->safe ? "safe: left as it was" : "rolled back");
	}
	return 1;
}

void dmn__rpt_describe_cause(char *buf, size_t len, const struct dmn_report_event *e)
{
	if (e->line && e->cause)
		snprintf(buf, len, "[line %u: %s]", e->line, e->cause);
	else if (e->line)
		snprintf(buf, len, "[line %u]", e->line);
	else if (e->cause)
		snprintf(buf, len, "[%s]", e->cause);
	else
		buf[0] = '\0';
}
