/* SPDX-License-Identifier: MIT */
/*
 * Chrome trace-event JSON (the "JSON Array/Object Format" that Perfetto UI
 * and chrome://tracing open); the mapping is documented in docs/trace.md.
 * One process is the board, one thread per domain carries its on / off /
 * idle periods as complete events, and a counter per domain its pstate.
 * Trace times are microseconds; ours are ns, written with three decimals.
 */
#include "report_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PID 1

struct trace {
	struct dmn_report_out *o;
	const struct dmn_report_model *m;
	int first;
};

/* Opens one trace event: the separator, "ph", "pid", and "ts" if given. */
static void begin(struct trace *t, const char *ph, int tid, int has_ts,
		  uint64_t ts)
{
	char us[RPT_NUM_LEN];

	dmn__rpt_out_puts(t->o,
		     t->first ? "\n    {\"ph\": \"" : ",\n    {\"ph\": \"");
	t->first = 0;
	dmn__rpt_out_puts(t->o, ph);
	dmn__rpt_out_printf(t->o, "\", \"pid\": %d", PID);
	if (tid >= 0)
		dmn__rpt_out_printf(t->o, ", \"tid\": %d", tid);
	if (has_ts)
		dmn__rpt_out_printf(t->o, ", \"ts\": %s", dmn__rpt_fmt_us(us, ts));
}

static void name(struct trace *t, const char *n)
{
	dmn__rpt_out_puts(t->o, ", \"name\": ");
	dmn__rpt_out_json_str(t->o, n);
}

static void metadata(struct trace *t, int tid, const char *what,
		     const char *value)
{
	begin(t, "M", tid, 0, 0);
	name(t, what);
	dmn__rpt_out_puts(t->o, ", \"args\": {\"name\": ");
	dmn__rpt_out_json_str(t->o, value);
	dmn__rpt_out_puts(t->o, "}}");
}

static void sort_index(struct trace *t, int tid, unsigned index)
{
	begin(t, "M", tid, 0, 0);
	name(t, "thread_sort_index");
	dmn__rpt_out_printf(t->o, ", \"args\": {\"sort_index\": %u}}", index);
}

static void periods(struct trace *t, const struct tl_domain *d, int tid)
{
	char us[RPT_NUM_LEN];

	for (unsigned i = 0; i < d->n_periods; i++) {
		const struct tl_period *p = &d->periods[i];
		const char *state = p->on	    ? "on"
				    : p->idle_state ? p->idle_state
						    : "off";
		begin(t, "X", tid, 1, p->start);
		dmn__rpt_out_printf(t->o, ", \"dur\": %s",
			       dmn__rpt_fmt_us(us, p->end - p->start));
		dmn__rpt_out_printf(t->o, ", \"cat\": \"%s\"",
			       p->on	       ? "on"
			       : p->idle_state ? "idle"
					       : "off");
		name(t, state);
		dmn__rpt_out_printf(t->o, ", \"args\": {\"power\": \"%s\"",
			       p->on ? "on" : "off");
		dmn__rpt_out_puts(t->o, ", \"idle_state\": ");
		dmn__rpt_out_json_str(t->o, p->idle_state);
		dmn__rpt_out_puts(t->o, "}}");
	}
}

static void pstate_counter(struct trace *t, const struct dmn_report_domain *dom,
			   const struct tl_domain *d)
{
	/* Counters are keyed by name within the process: one per domain. */
	for (unsigned i = 0; i < d->n_steps; i++) {
		begin(t, "C", -1, 1, d->steps[i].time);
		dmn__rpt_out_puts(t->o, ", \"name\": \"");
		dmn__rpt_out_json_chars(t->o, dom->name);
		dmn__rpt_out_printf(
		    t->o, " pstate\", \"args\": {\"pstate\": %" PRIu32 "}}",
		    d->steps[i].level);
	}
}

/* HW mode as a 0/1 counter, for a domain that was ever in it: a span on
 * the domain's own track would cut across its on / off periods. */
static void hw_counter(struct trace *t, const struct dmn_report_domain *dom,
		       const struct tl_domain *d)
{
	for (unsigned i = 0; i < d->n_hw; i++) {
		for (int edge = (i || d->hw[0].start == 0) ? 1 : 0; edge < 3;
		     edge++) {
			uint64_t ts = edge == 0	  ? 0
				      : edge == 1 ? d->hw[i].start
						  : d->hw[i].end;
			if (edge == 2 && i + 1 < d->n_hw &&
			    d->hw[i + 1].start == ts)
				continue;
			begin(t, "C", -1, 1, ts);
			dmn__rpt_out_puts(t->o, ", \"name\": \"");
			dmn__rpt_out_json_chars(t->o, dom->name);
			dmn__rpt_out_printf(t->o,
					    " hw\", \"args\": {\"hw\": %d}}",
					    edge == 1);
		}
	}
}

/* The system's sleep, one complete event per period on its own track. */
static void sleep_spans(struct trace *t, const struct dmn_report_timeline *tl,
			int tid)
{
	char us[RPT_NUM_LEN];
	for (unsigned i = 0; i < tl->n_sleep; i++) {
		begin(t, "X", tid, 1, tl->sleep[i].start);
		dmn__rpt_out_printf(
		    t->o, ", \"dur\": %s, \"cat\": \"sleep\"",
		    dmn__rpt_fmt_us(us, tl->sleep[i].end - tl->sleep[i].start));
		name(t, "asleep");
		dmn__rpt_out_puts(t->o, ", \"args\": {\"system\": \"asleep\"}}");
	}
}

/* Optional members common to the instant events. */
static void event_args(struct trace *t, const struct dmn_report_event *e)
{
	dmn__rpt_out_puts(t->o, ", \"args\": {\"kind\": ");
	dmn__rpt_out_json_str(t->o, dmn__rpt_event_kind_name(e->kind));
	dmn__rpt_out_puts(t->o, ", \"domain\": ");
	dmn__rpt_out_json_str(t->o, e->domain);
	dmn__rpt_out_puts(t->o, ", \"device\": ");
	dmn__rpt_out_json_str(t->o, e->device);
	if (e->kind == DMN_REPORT_EV_FAILURE) {
		dmn__rpt_out_puts(t->o, ", \"op\": ");
		dmn__rpt_out_json_str(t->o, e->op);
		dmn__rpt_out_printf(t->o,
			       ", \"old\": %" PRIu32 ", \"new\": %" PRIu32
			       ", \"safe\": %s",
			       e->old_level, e->new_level,
			       e->safe ? "true" : "false");
	}
	if (e->kind == DMN_REPORT_EV_FAILURE || e->kind == DMN_REPORT_EV_COMMAND_ERROR) {
		dmn__rpt_out_puts(t->o, ", \"error\": ");
		dmn__rpt_out_json_str(t->o, dmn__rpt_error_name(e->error));
	}
	if ((e->message && (e->kind == DMN_REPORT_EV_EXPECT_FAILED ||
			    e->kind == DMN_REPORT_EV_COMMAND_ERROR)) ||
	    e->kind == DMN_REPORT_EV_EXPLAIN) {
		dmn__rpt_out_puts(t->o, ", \"message\": ");
		dmn__rpt_out_json_str(t->o, e->message);
	}
	dmn__rpt_out_puts(t->o, ", \"cause\": ");
	dmn__rpt_out_json_str(t->o, e->cause);
	if (e->line)
		dmn__rpt_out_printf(t->o, ", \"line\": %u", e->line);
	dmn__rpt_out_puts(t->o, "}}");
}

static int is_instant(enum dmn_report_event_kind k)
{
	return k == DMN_REPORT_EV_FAILURE || k == DMN_REPORT_EV_STAY_ON ||
	       k == DMN_REPORT_EV_COMMAND_ERROR || k == DMN_REPORT_EV_EXPECT_FAILED ||
	       k == DMN_REPORT_EV_EXPLAIN;
}

static void instant(struct trace *t, const struct dmn_report_event *e, int tid)
{
	char label[96];

	switch (e->kind) {
	case DMN_REPORT_EV_FAILURE:
		snprintf(label, sizeof(label), "%s FAILED: %s",
			 e->op ? e->op : "operation", dmn__rpt_error_name(e->error));
		break;
	case DMN_REPORT_EV_STAY_ON:
		snprintf(label, sizeof(label), "stays on");
		break;
	case DMN_REPORT_EV_COMMAND_ERROR:
		snprintf(label, sizeof(label), "command failed: %s",
			 dmn__rpt_error_name(e->error));
		break;
	case DMN_REPORT_EV_EXPLAIN:
		snprintf(label, sizeof(label), "explain");
		break;
	default:
		snprintf(label, sizeof(label), "expect failed");
		break;
	}
	begin(t, "i", tid, 1, e->time_ns);
	dmn__rpt_out_puts(t->o, ", \"s\": \"t\"");
	dmn__rpt_out_printf(t->o, ", \"cat\": \"%s\"", dmn__rpt_event_kind_name(e->kind));
	name(t, label);
	event_args(t, e);
}

/* A clock counter per device that changes rate; its first sample (at 0)
 * is the rate before the first change. */
static int rate_counters(struct trace *t, const struct dmn_report_model *m,
			 uint64_t end)
{
	const char **seen;
	unsigned n_seen = 0;

	unsigned ne = m->events ? m->n_events : 0;

	seen = malloc((ne ? ne : 1) * sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	for (unsigned i = 0; i < ne; i++) {
		const struct dmn_report_event *e = &m->events[i];
		const char *dev = e->device ? e->device : "?";
		unsigned k;

		if (e->kind != DMN_REPORT_EV_RATE || e->time_ns > end)
			continue;
		for (k = 0; k < n_seen; k++)
			if (!strcmp(seen[k], dev))
				break;
		for (int pass = k == n_seen ? 0 : 1; pass < 2; pass++) {
			begin(t, "C", -1, 1, pass ? e->time_ns : 0);
			dmn__rpt_out_puts(t->o, ", \"name\": \"");
			dmn__rpt_out_json_chars(t->o, dev);
			dmn__rpt_out_puts(t->o, " clock\"");
			dmn__rpt_out_printf(t->o,
				       ", \"args\": {\"hz\": %" PRIu64 "}}",
				       pass ? e->new_hz : e->old_hz);
		}
		if (k == n_seen)
			seen[n_seen++] = dev;
	}
	free(seen);
	return 0;
}

/* Energy (docs/energy.md): a counter per domain and device that draws
 * power at some time of the run, in mW, from the start of metering and at
 * each change up to @end. Returns 0 or -ENOMEM. */
static int power_counters(struct trace *t, const struct dmn_report_model *m, uint64_t end)
{
	const struct dmn_report_energy *e = m->energy;
	if (!e || !e->has_times || !e->steps)
		return 0;
	unsigned char *drawn = calloc(e->n_parts ? e->n_parts : 1, 1);
	if (!drawn)
		return -ENOMEM;
	for (unsigned i = 0; i < e->n_steps; i++)
		if (e->steps[i].part < e->n_parts && e->steps[i].power_uw &&
		    (e->steps[i].time_ns < end || e->steps[i].time_ns == e->start_ns))
			drawn[e->steps[i].part] = 1;
	for (unsigned i = 0; i < e->n_steps; i++) {
		const struct dmn_report_power_step *s = &e->steps[i];
		if (s->part >= e->n_parts || !drawn[s->part] ||
		    (s->time_ns >= end && s->time_ns != e->start_ns))
			continue;
		begin(t, "C", -1, 1, s->time_ns);
		dmn__rpt_out_puts(t->o, ", \"name\": \"");
		dmn__rpt_out_json_chars(t->o, e->parts[s->part].name);
		dmn__rpt_out_printf(t->o, " power\", \"args\": {\"mW\": %" PRIu64 ".%03u}}",
				    s->power_uw / 1000, (unsigned)(s->power_uw % 1000));
	}
	free(drawn);
	return 0;
}

/* What a bounded trace left out, for its metadata. */
struct trace_cut {
	uint64_t max_events;
	unsigned kept, total;
	uint64_t at_ns; /* the trace ends here */
};

static int write_trace(const struct dmn_report_model *m, const struct trace_cut *cut,
		       const struct dmn_report_sink *sink)
{
	struct dmn_report_out o;
	struct dmn_report_index ix;
	struct dmn_report_timeline tl;
	struct trace t;
	int rc, scenario_tid, need_scenario = 0;
	unsigned ne;

	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	if (!m || (m->n_domains && !m->domains))
		return -EINVAL;
	if (dmn__rpt_index_build(&ix, m))
		return -ENOMEM;
	rc = dmn__rpt_timeline_build(&tl, m, &ix);
	dmn__rpt_index_free(&ix);
	if (rc)
		return rc;
	ne = m->events ? m->n_events : 0;
	t.o = &o;
	t.m = m;
	t.first = 1;
	scenario_tid = (int)m->n_domains + 1;

	dmn__rpt_out_puts(&o, "{\n  \"displayTimeUnit\": \"ns\",\n"
			 "  \"otherData\": {\"board\": ");
	dmn__rpt_out_json_str(&o, m->board);
	dmn__rpt_out_puts(&o, ", \"model\": ");
	dmn__rpt_out_json_str(&o, m->model);
	dmn__rpt_out_printf(&o, ", \"end_ns\": %" PRIu64, tl.end);
	if (cut)
		dmn__rpt_out_printf(&o,
			       ", \"truncated\": {\"max_events\": %" PRIu64
			       ", \"events_kept\": %u, \"events_total\": %u"
			       ", \"end_ns\": %" PRIu64 "}",
			       cut->max_events, cut->kept, cut->total,
			       cut->at_ns);
	dmn__rpt_out_puts(&o, "},\n");
	dmn__rpt_out_puts(&o, "  \"traceEvents\": [");

	metadata(&t, -1, "process_name", m->board ? m->board : "domino");
	for (unsigned i = 0; i < m->n_domains; i++) {
		metadata(&t, (int)i + 1, "thread_name",
			 m->domains[i].name ? m->domains[i].name : "?");
		sort_index(&t, (int)i + 1, i);
	}
	for (unsigned i = 0; i < ne; i++)
		if (is_instant(m->events[i].kind) && tl.event_domain[i] < 0)
			need_scenario = 1;
	if (need_scenario) {
		metadata(&t, scenario_tid, "thread_name", "scenario");
		sort_index(&t, scenario_tid, m->n_domains);
	}

	if (tl.n_sleep) {
		metadata(&t, scenario_tid + 1, "thread_name", "system sleep");
		sort_index(&t, scenario_tid + 1, m->n_domains + 1);
		sleep_spans(&t, &tl, scenario_tid + 1);
	}
	for (unsigned i = 0; i < m->n_domains; i++) {
		periods(&t, &tl.domains[i], (int)i + 1);
		pstate_counter(&t, &m->domains[i], &tl.domains[i]);
		hw_counter(&t, &m->domains[i], &tl.domains[i]);
	}
	for (unsigned i = 0; i < ne; i++) {
		const struct dmn_report_event *e = &m->events[i];
		if (!is_instant(e->kind) || e->time_ns > tl.end)
			continue;
		instant(&t, e,
			tl.event_domain[i] >= 0 ? tl.event_domain[i] + 1
						: scenario_tid);
	}
	rc = rate_counters(&t, m, tl.end);
	if (!rc)
		rc = power_counters(&t, m, tl.end);
	dmn__rpt_timeline_free(&tl);
	if (rc)
		return rc;
	dmn__rpt_out_puts(&o, "\n  ]\n}\n");
	return dmn__rpt_out_finish(&o);
}

int dmn_report_write_trace(const struct dmn_report_model *m, const struct dmn_report_sink *sink)
{
	return write_trace(m, NULL, sink);
}

int dmn_report_write_trace_max(const struct dmn_report_model *m, uint64_t max_events,
			const struct dmn_report_sink *sink, int *cut_out)
{
	if (cut_out)
		*cut_out = 0;
	if (!m || !m->events || m->n_events <= max_events)
		return write_trace(m, NULL, sink);
	/* Cut at a time, not an index: every event of an instant stays or
	 * goes together, so the periods up to the cut are whole. */
	uint64_t at = m->events[max_events].time_ns;
	unsigned kept = (unsigned)max_events;
	while (kept && m->events[kept - 1].time_ns >= at)
		kept--;
	struct dmn_report_model part = *m;
	part.n_events = kept;
	part.end_ns = at;
	struct trace_cut cut = {max_events, kept, m->n_events, at};
	if (cut_out)
		*cut_out = 1;
	return write_trace(&part, &cut, sink);
}
