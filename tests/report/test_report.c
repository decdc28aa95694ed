/* SPDX-License-Identifier: MIT */
/*
 * The report writers against a hand-made model (sample_model.h): the JSON
 * and trace parse with jansson and carry every docs/json.md key with the right
 * type, the SVG parses as XML with one lane per domain, the text outputs
 * hold the lines a user looks for, a failing sink stops every writer with
 * its error, and hostile names are escaped everywhere.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sample_model.h"

#include <domino/report.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBXML2
#include <libxml/parser.h>
#include <libxml/tree.h>
#endif

/* ---- a sink that collects everything, or fails after N bytes ---------- */

struct buf {
	char *data;
	size_t len, cap;
	size_t fail_after; /* SIZE_MAX: never */
	unsigned calls_after_failure;
	int failed;
};

static int buf_write(void *user, const char *bytes, size_t len)
{
	struct buf *b = user;

	if (b->failed) {
		b->calls_after_failure++;
		return -EIO;
	}
	if (b->len + len > b->fail_after) {
		b->failed = 1;
		return -EIO;
	}
	if (b->len + len + 1 > b->cap) {
		size_t cap = (b->len + len + 1) * 2;
		char *p = realloc(b->data, cap);
		assert_non_null(p);
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, bytes, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

static void buf_init(struct buf *b)
{
	memset(b, 0, sizeof(*b));
	b->fail_after = SIZE_MAX;
}

enum writer { W_SUMMARY, W_EVENTS, W_STATS, W_JSON, W_TRACE, W_SVG, N_WRITERS };

static const char *const writer_names[N_WRITERS] = {
    "summary", "events", "stats", "json", "trace", "svg"};

static int run(enum writer w, const struct dmn_report_model *m, int color,
	       struct buf *b)
{
	struct dmn_report_sink sink = {buf_write, b};
	struct dmn_report_text_options opt = {color, 0};

	switch (w) {
	case W_SUMMARY:
		return dmn_report_write_summary_text(m, &opt, &sink);
	case W_EVENTS:
		return dmn_report_write_events_text(m, &opt, &sink);
	case W_STATS:
		return dmn_report_write_stats_text(m, &opt, &sink);
	case W_JSON:
		return dmn_report_write_json(m, &sink);
	case W_TRACE:
		return dmn_report_write_trace(m, &sink);
	case W_SVG:
		return dmn_report_write_svg(m, &sink);
	default:
		return -1;
	}
}

/* The writer's whole output, as a NUL-terminated string to free(). */
static char *output(enum writer w, const struct dmn_report_model *m, int color)
{
	struct buf b;
	buf_init(&b);
	assert_int_equal(run(w, m, color, &b), 0);
	assert_non_null(b.data);
	return b.data;
}

/* The sample's outputs, for a reader to open: into the build folder
 * (REPORT_SAMPLE_DIR, set by CMake) wherever the test runs from, never
 * into the source tree. */
static void save(const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", REPORT_SAMPLE_DIR, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return; /* a read-only build tree only loses the samples */
	fputs(text, f);
	fclose(f);
}

static json_t *parse_json(const char *text)
{
	json_error_t err;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		fail_msg("invalid JSON at line %d: %s", err.line, err.text);
	return root;
}

static void assert_contains(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("missing \"%s\" in:\n%s", want, text);
}

static json_t *member(json_t *obj, const char *key, json_type type)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		fail_msg("missing key \"%s\"", key);
	if (json_typeof(v) != type)
		fail_msg("key \"%s\" has type %d, want %d", key,
			 (int)json_typeof(v), type);
	return v;
}

static void assert_string_or_null(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (!v || !(json_is_string(v) || json_is_null(v)))
		fail_msg("key \"%s\" is not a string or null", key);
}

static void assert_name_array(json_t *obj, const char *key)
{
	json_t *a = member(obj, key, JSON_ARRAY), *v;
	size_t i;
	json_array_foreach(a, i, v) assert_true(json_is_string(v));
}

/* ---- JSON ------------------------------------------------------------- */

static void test_json_sample(void **state)
{
	char *text = output(W_JSON, &sample_model, 0);
	json_t *root = parse_json(text), *domains, *d, *events, *e, *stats;
	size_t i, j;
	uint64_t prev = 0;
	unsigned failures = 0;
	(void)state;

	save("report_sample.json", text);
	assert_string_equal(
	    json_string_value(member(root, "board", JSON_STRING)),
	    "sample.dtb");
	domains = member(root, "domains", JSON_ARRAY);
	assert_int_equal(json_array_size(domains), N_SAMPLE_DOMAINS);
	json_array_foreach(domains, i, d)
	{
		const struct dmn_report_domain *want = &sample_domains[i];
		json_t *devices, *dev, *index = json_object_get(d, "index");
		const char *status;

		assert_string_equal(
		    json_string_value(member(d, "name", JSON_STRING)),
		    want->name);
		member(d, "provider", JSON_STRING);
		assert_non_null(index);
		if (want->index < 0)
			assert_true(json_is_null(index));
		else
			assert_int_equal(json_integer_value(index),
					 want->index);
		status = json_string_value(member(d, "status", JSON_STRING));
		assert_string_equal(status, want->on ? "on" : "off");
		assert_int_equal(
		    json_integer_value(member(d, "pstate", JSON_INTEGER)),
		    want->pstate);
		assert_string_or_null(d, "pstate_name");
		assert_string_or_null(d, "idle_state");
		if (want->on)
			assert_true(
			    json_is_null(json_object_get(d, "idle_state")));
		assert_name_array(d, "parents");
		assert_name_array(d, "children");
		assert_int_equal(json_array_size(json_object_get(d, "parents")),
				 want->n_parents);
		devices = member(d, "devices", JSON_ARRAY);
		assert_int_equal(json_array_size(devices), want->n_devices);
		json_array_foreach(devices, j, dev)
		{
			member(dev, "name", JSON_STRING);
			member(dev, "path", JSON_STRING);
			assert_true(
			    json_is_boolean(json_object_get(dev, "active")));
			assert_true(
			    json_is_boolean(json_object_get(dev, "counts")));
			member(dev, "vote", JSON_INTEGER);
			assert_string_or_null(dev, "via");
		}
	}
	d = json_array_get(domains, D_CLUSTER);
	assert_true(json_is_null(json_object_get(d, "index")));
	d = json_array_get(domains, D_CPU0);
	assert_string_equal(json_string_value(json_object_get(d, "idle_state")),
			    "cpu-sleep-0");
	d = json_array_get(domains, D_CX);
	assert_string_equal(
	    json_string_value(json_object_get(d, "pstate_name")), "min_svs");
	assert_int_equal(json_array_size(member(root, "warnings", JSON_ARRAY)),
			 1);

	events = member(root, "events", JSON_ARRAY);
	assert_int_equal(json_array_size(events), sample_model.n_events);
	json_array_foreach(events, i, e)
	{
		uint64_t t = (uint64_t)json_integer_value(
		    member(e, "time_ns", JSON_INTEGER));
		const char *kind =
		    json_string_value(member(e, "kind", JSON_STRING));
		assert_true(t >= prev);
		prev = t;
		assert_string_or_null(e, "domain");
		assert_string_or_null(e, "device");
		assert_string_or_null(e, "cause");
		assert_non_null(json_object_get(e, "line"));
		if (!strcmp(kind, "pstate")) {
			member(e, "old", JSON_INTEGER);
			member(e, "new", JSON_INTEGER);
		}
		if (!strcmp(kind, "failure")) {
			assert_string_equal(
			    json_string_value(member(e, "error", JSON_STRING)),
			    "EIO");
			assert_true(
			    json_is_boolean(json_object_get(e, "safe")));
			failures++;
		}
	}
	assert_int_equal(failures, 2);
	e = json_array_get(events, 18); /* the safe pstate failure on mx */
	assert_string_equal(json_string_value(json_object_get(e, "kind")),
			    "failure");
	assert_true(json_is_true(json_object_get(e, "safe")));
	assert_int_equal(json_integer_value(json_object_get(e, "line")), 17);

	stats = member(root, "stats", JSON_OBJECT);
	assert_int_equal(json_object_size(stats), N_SAMPLE_DOMAINS);
	for (i = 0; i < N_SAMPLE_DOMAINS; i++) {
		json_t *s = member(stats, sample_domains[i].name, JSON_OBJECT);
		json_t *idle = member(s, "idle_states", JSON_ARRAY);
		json_t *pstates = member(s, "pstates", JSON_ARRAY), *v;
		uint64_t total = (uint64_t)json_integer_value(
				     member(s, "time_on_ns", JSON_INTEGER)) +
				 (uint64_t)json_integer_value(
				     member(s, "time_off_ns", JSON_INTEGER));
		uint64_t at_levels = 0;
		json_array_foreach(idle, j, v)
		{
			member(v, "name", JSON_STRING);
			member(v, "usage", JSON_INTEGER);
			member(v, "rejected", JSON_INTEGER);
			total += (uint64_t)json_integer_value(
			    member(v, "time_ns", JSON_INTEGER));
		}
		json_array_foreach(pstates, j, v)
		{
			member(v, "level", JSON_INTEGER);
			at_levels += (uint64_t)json_integer_value(
			    member(v, "time_ns", JSON_INTEGER));
		}
		assert_int_equal(total, SAMPLE_END);
		assert_int_equal(at_levels, SAMPLE_END);
		member(s, "on_count", JSON_INTEGER);
		member(s, "off_count", JSON_INTEGER);
		member(s, "pstate_transitions", JSON_INTEGER);
	}
	assert_int_equal(json_integer_value(json_object_get(
			     json_object_get(stats, "cluster"), "time_on_ns")),
			 2500 * US);
	json_decref(root);
	free(text);
}

/* A summary model (no simulation): no events, no stats, no warnings. */
static void test_json_summary_only(void **state)
{
	struct dmn_report_model m = sample_model;
	struct dmn_report_domain domains[N_SAMPLE_DOMAINS];
	char *text;
	json_t *root;
	(void)state;

	memcpy(domains, sample_domains, sizeof(domains));
	for (unsigned i = 0; i < N_SAMPLE_DOMAINS; i++)
		domains[i].has_stats = 0;
	m.domains = domains;
	m.events = NULL;
	m.n_events = 0;
	m.end_ns = 0;
	m.warnings = NULL;
	m.n_warnings = 0;
	text = output(W_JSON, &m, 0);
	root = parse_json(text);
	assert_null(json_object_get(root, "events"));
	assert_null(json_object_get(root, "stats"));
	assert_null(json_object_get(root, "warnings"));
	assert_int_equal(json_array_size(json_object_get(root, "domains")),
			 N_SAMPLE_DOMAINS);
	json_decref(root);
	free(text);
}

/* ---- trace ------------------------------------------------------------ */

/* Trace times are numbers: integers where whole ("250"), else reals. */
static double number(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (!v || !json_is_number(v))
		fail_msg("key \"%s\" is not a number", key);
	return json_number_value(v);
}

struct lane_check {
	double covered_us, next_us;
	unsigned periods;
};

/* @names: the domains' names as JSON decodes them (NULL: as in @m). */
static void check_trace(const struct dmn_report_model *m, const char *text,
			double end_us, const char *const *names)
{
	json_t *root = parse_json(text), *events, *e;
	struct lane_check lanes[16] = {{0}};
	const char *counters[16] = {0};
	unsigned n_counters = 0, threads = 0, process = 0;
	size_t i;

	assert_true(m->n_domains <= 16);
	assert_string_equal(
	    json_string_value(member(root, "displayTimeUnit", JSON_STRING)),
	    "ns");
	events = member(root, "traceEvents", JSON_ARRAY);
	json_array_foreach(events, i, e)
	{
		const char *ph =
		    json_string_value(member(e, "ph", JSON_STRING));
		const char *name =
		    json_string_value(member(e, "name", JSON_STRING));
		json_t *tid = json_object_get(e, "tid");

		member(e, "pid", JSON_INTEGER);
		if (!strcmp(ph, "M")) {
			json_t *args = member(e, "args", JSON_OBJECT);
			if (!strcmp(name, "process_name"))
				process++;
			if (!strcmp(name, "thread_name") &&
			    json_integer_value(tid) <= m->n_domains) {
				unsigned d =
				    (unsigned)json_integer_value(tid) - 1;
				assert_string_equal(
				    json_string_value(
					json_object_get(args, "name")),
				    names ? names[d] : m->domains[d].name);
				threads++;
			}
		} else if (!strcmp(ph, "X")) {
			double ts = number(e, "ts"), dur = number(e, "dur");
			unsigned d = (unsigned)json_integer_value(tid) - 1;
			assert_true(d < m->n_domains);
			/* Periods tile the run: each starts where the last
			 * ended. */
			assert_true(fabs(ts - lanes[d].next_us) < 1e-6);
			assert_true(dur >= 0);
			lanes[d].covered_us += dur;
			lanes[d].next_us = ts + dur;
			lanes[d].periods++;
		} else if (!strcmp(ph, "C")) {
			json_t *args = member(e, "args", JSON_OBJECT);
			size_t len = strlen(name);
			unsigned k;
			if (len < 7 || strcmp(name + len - 7, " pstate"))
				continue; /* a device's clock */
			member(args, "pstate", JSON_INTEGER);
			for (k = 0; k < n_counters; k++)
				if (!strcmp(counters[k], name))
					break;
			if (k == n_counters) {
				/* A track's first sample is at time 0. */
				assert_true(number(e, "ts") == 0);
				assert_true(n_counters < 16);
				counters[n_counters++] = name;
			}
		} else if (!strcmp(ph, "i")) {
			member(e, "s", JSON_STRING);
			member(e, "args", JSON_OBJECT);
		} else {
			fail_msg("unexpected phase %s", ph);
		}
	}
	assert_int_equal(process, 1);
	assert_int_equal(threads, m->n_domains);
	assert_int_equal(n_counters, m->n_domains);
	for (unsigned d = 0; d < m->n_domains; d++) {
		assert_true(lanes[d].periods >= 1);
		if (fabs(lanes[d].covered_us - end_us) > 1e-6)
			fail_msg("domain %u: periods cover %f us of %f", d,
				 lanes[d].covered_us, end_us);
	}
	json_decref(root);
}

static void test_trace_sample(void **state)
{
	char *text = output(W_TRACE, &sample_model, 0);
	json_t *root, *events, *e;
	unsigned failures = 0, cluster_periods = 0;
	size_t i;
	(void)state;

	save("report_sample.trace.json", text);
	check_trace(&sample_model, text, SAMPLE_END / 1000.0, NULL);

	root = parse_json(text);
	events = json_object_get(root, "traceEvents");
	json_array_foreach(events, i, e)
	{
		const char *ph = json_string_value(json_object_get(e, "ph"));
		const char *name =
		    json_string_value(json_object_get(e, "name"));
		if (!strcmp(ph, "i") && strstr(name, "FAILED"))
			failures++;
		if (!strcmp(ph, "X") && json_integer_value(json_object_get(
					    e, "tid")) == D_CLUSTER + 1) {
			static const char *const want[] = {
			    "cluster-sleep-1", "on", "cluster-ret", "on"};
			assert_true(cluster_periods < 4);
			assert_string_equal(name, want[cluster_periods]);
			cluster_periods++;
		}
		/* 1.5 ms is written as 1500 us, with ns precision. */
		if (!strcmp(ph, "i") && strstr(name, "FAILED") &&
		    !strcmp(json_string_value(json_object_get(
				json_object_get(e, "args"), "domain")),
			    "cx"))
			assert_true(number(e, "ts") == 1500.0);
	}
	assert_int_equal(failures, 2);
	assert_int_equal(cluster_periods, 4);
	json_decref(root);
	free(text);
}

/* Sub-microsecond times keep their nanoseconds; events after end_ns are
 * left out; with end_ns 0 the run ends at the last event. */
static void test_trace_edges(void **state)
{
	struct dmn_report_domain d = {.name = "solo", .provider = "/p", .index = -1};
	struct dmn_report_event ev[] = {
	    {.time_ns = 1501, .kind = DMN_REPORT_EV_POWER_ON, .domain = "solo"},
	    {.time_ns = 2000,
	     .kind = DMN_REPORT_EV_PSTATE,
	     .domain = "solo",
	     .new_level = 5},
	    /* Off and on again at the same instant: no empty period. */
	    {.time_ns = 2000, .kind = DMN_REPORT_EV_POWER_OFF, .domain = "solo"},
	    {.time_ns = 2000, .kind = DMN_REPORT_EV_POWER_ON, .domain = "solo"},
	    {.time_ns = 3000, .kind = DMN_REPORT_EV_POWER_OFF, .domain = "solo"},
	    {.time_ns = 9000, .kind = DMN_REPORT_EV_POWER_ON, .domain = "solo"},
	    {.time_ns = 9500, .kind = DMN_REPORT_EV_POWER_ON, .domain = "ghost"},
	};
	struct dmn_report_model m = {.board = "edge",
			      .domains = &d,
			      .n_domains = 1,
			      .events = ev,
			      .n_events = 7,
			      .end_ns = 4000};
	char *text;
	json_t *root, *events, *e;
	size_t i;
	unsigned x = 0;
	(void)state;

	text = output(W_TRACE, &m, 0);
	check_trace(&m, text, 4.0, NULL);
	root = parse_json(text);
	events = json_object_get(root, "traceEvents");
	json_array_foreach(events, i, e)
	{
		if (strcmp(json_string_value(json_object_get(e, "ph")), "X"))
			continue;
		if (x == 1)
			assert_true(fabs(number(e, "ts") - 1.501) < 1e-9);
		x++;
	}
	assert_int_equal(x, 3); /* off, on 1.501-3, off */
	json_decref(root);
	free(text);

	m.end_ns = 0; /* ends at the last event, 9.5 us */
	text = output(W_TRACE, &m, 0);
	check_trace(&m, text, 9.5, NULL);
	free(text);

	/* Every writer accepts the same edge cases. */
	for (int w = 0; w < N_WRITERS; w++)
		free(output((enum writer)w, &m, 0));
}

/* docs/lifecycle.md: system sleep is a span on its own track and a band in the
 * SVG; HW mode a 0/1 counter per domain and a strip in its lane, while
 * any attachment is in it. */
static void test_sleep_and_hwmode(void **state)
{
	struct dmn_report_domain d = {.name = "gdsc", .provider = "/p", .index = -1};
	struct dmn_report_event ev[] = {
	    {.time_ns = 1000, .kind = DMN_REPORT_EV_POWER_ON, .domain = "gdsc"},
	    {.time_ns = 1000, .kind = DMN_REPORT_EV_HWMODE, .domain = "gdsc",
	     .device = "a", .new_level = 1},
	    {.time_ns = 1500, .kind = DMN_REPORT_EV_HWMODE, .domain = "gdsc",
	     .device = "b", .new_level = 1},
	    /* b leaves, a stays: still in HW mode */
	    {.time_ns = 1800, .kind = DMN_REPORT_EV_HWMODE, .domain = "gdsc",
	     .device = "b", .old_level = 1},
	    {.time_ns = 2000, .kind = DMN_REPORT_EV_POWER_OFF, .domain = "gdsc"},
	    {.time_ns = 2000, .kind = DMN_REPORT_EV_SYSTEM_SLEEP},
	    {.time_ns = 3000, .kind = DMN_REPORT_EV_SYSTEM_WAKE},
	    {.time_ns = 3500, .kind = DMN_REPORT_EV_HWMODE, .domain = "gdsc",
	     .device = "a", .old_level = 1},
	    {.time_ns = 3800, .kind = DMN_REPORT_EV_SYSTEM_SLEEP},
	};
	struct dmn_report_model m = {.board = "life",
			      .domains = &d,
			      .n_domains = 1,
			      .events = ev,
			      .n_events = sizeof(ev) / sizeof(ev[0]),
			      .end_ns = 4000};
	(void)state;

	char *text = output(W_TRACE, &m, 0);
	json_t *root = parse_json(text), *e;
	size_t i;
	unsigned sleeps = 0, hw = 0;
	int hw_at[8] = {0};
	double hw_ts[8] = {0};
	json_array_foreach(json_object_get(root, "traceEvents"), i, e)
	{
		const char *name = json_string_value(json_object_get(e, "name"));
		if (name && !strcmp(name, "asleep")) {
			assert_true(sleeps < 2);
			double ts = number(e, "ts"), dur = number(e, "dur");
			/* 2-3 us, then 3.8 us to the end */
			assert_true(fabs(ts - (sleeps ? 3.8 : 2.0)) < 1e-9);
			assert_true(fabs(dur - (sleeps ? 0.2 : 1.0)) < 1e-9);
			sleeps++;
		}
		if (name && !strcmp(name, "gdsc hw") && hw < 8) {
			hw_ts[hw] = number(e, "ts");
			hw_at[hw++] = (int)json_integer_value(json_object_get(
			    json_object_get(e, "args"), "hw"));
		}
	}
	assert_int_equal(sleeps, 2);
	/* 0 from the start, 1 from 1 us, 0 from 3.5 us: one period */
	assert_int_equal(hw, 3);
	assert_int_equal(hw_at[0], 0);
	assert_int_equal(hw_at[1], 1);
	assert_true(fabs(hw_ts[1] - 1.0) < 1e-9);
	assert_int_equal(hw_at[2], 0);
	assert_true(fabs(hw_ts[2] - 3.5) < 1e-9);
	assert_contains(text, "\"system sleep\"");
	json_decref(root);
	free(text);

	text = output(W_SVG, &m, 0);
	assert_contains(text, "hw mode, 1 us \u2013 3.5 us");
	assert_contains(text, "system asleep, 2 us \u2013 3 us");
	assert_contains(text, "system asleep, 3.8 us \u2013 4 us");
	assert_contains(text, ">hw mode</text>");
	assert_contains(text, ">system asleep</text>");
	free(text);

	text = output(W_JSON, &m, 0);
	root = parse_json(text);
	json_t *events = json_object_get(root, "events");
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(events, 1), "kind")),
			    "hwmode");
	assert_true(json_is_true(
	    json_object_get(json_array_get(events, 1), "hw")));
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(events, 5), "kind")),
			    "system_sleep");
	json_decref(root);
	free(text);

	text = output(W_EVENTS, &m, 0);
	assert_contains(text, "sw mode -> hw (dev a)");
	assert_contains(text, "system asleep");
	assert_contains(text, "system awake");
	free(text);
}

/* ---- SVG -------------------------------------------------------------- */

#ifdef HAVE_LIBXML2
static unsigned count_lanes(xmlNode *node)
{
	unsigned n = 0;
	for (; node; node = node->next) {
		if (node->type != XML_ELEMENT_NODE)
			continue;
		if (!xmlStrcmp(node->name, (const xmlChar *)"g")) {
			xmlChar *cls =
			    xmlGetProp(node, (const xmlChar *)"class");
			if (cls && !xmlStrcmp(cls, (const xmlChar *)"lane"))
				n++;
			xmlFree(cls);
		}
		n += count_lanes(node->children);
	}
	return n;
}
#endif

/* Parses @svg as XML and returns its number of lanes (or the number of
 * lane markers when libxml2 is not available). */
static unsigned svg_lanes(const char *svg)
{
#ifdef HAVE_LIBXML2
	xmlDoc *doc = xmlReadMemory(svg, (int)strlen(svg), "report.svg", NULL,
				    XML_PARSE_NONET | XML_PARSE_NOERROR |
					XML_PARSE_NOWARNING);
	xmlNode *root;
	unsigned n;

	if (!doc)
		fail_msg("SVG is not well-formed XML");
	root = xmlDocGetRootElement(doc);
	assert_non_null(root);
	assert_string_equal((const char *)root->name, "svg");
	assert_non_null(root->ns);
	assert_string_equal((const char *)root->ns->href,
			    "http://www.w3.org/2000/svg");
	n = count_lanes(root->children);
	xmlFreeDoc(doc);
	return n;
#else
	unsigned n = 0;
	for (const char *p = svg; (p = strstr(p, "class=\"lane\"")); p++)
		n++;
	return n;
#endif
}

/*
 * A long run draws what a screen shows. 200,000 power and pstate
 * changes 1 ns apart on one domain, and a device's rate changing as often,
 * make an SVG whose size does not grow with them; lanes come in tree order
 * (the child, listed first, under its parent), a domain that never changes
 * is counted and left out, a device's rate gets a lane, and the plot goes
 * past the end, which is marked.
 */
static void test_svg_at_scale(void **state)
{
	enum { N = 200000 };
	static const char *const kids[] = {"parent_dom"};
	static const char *const parents[] = {"top"};
	static const char *const levels[] = {"low", "high"};
	static const uint32_t values[] = {64, 256};
	struct dmn_report_domain doms[3] = {
	    {.name = "parent_dom", .provider = "/p", .index = 0,
	     .parents = parents, .n_parents = 1, .levels = levels,
	     .level_values = values, .n_levels = 2, .has_stats = 1},
	    {.name = "top", .provider = "/t", .index = -1, .children = kids,
	     .n_children = 1, .has_stats = 1},
	    {.name = "still", .provider = "/s", .index = -1, .has_stats = 1},
	};
	struct dmn_report_event *ev = calloc(2 * N + 1, sizeof(*ev));
	assert_non_null(ev);
	unsigned n = 0;
	for (unsigned i = 0; i < N; i++) {
		ev[n].time_ns = 2 * i + 1;
		ev[n].kind = i % 2 ? DMN_REPORT_EV_POWER_OFF : DMN_REPORT_EV_POWER_ON;
		ev[n++].domain = i % 4 < 2 ? "parent_dom" : "top";
		ev[n].time_ns = 2 * i + 2;
		ev[n].kind = DMN_REPORT_EV_RATE;
		ev[n].device = "codec";
		ev[n].old_hz = i % 2 ? 2000000 : 1000000;
		ev[n++].new_hz = i % 2 ? 1000000 : 2000000;
	}
	ev[n].time_ns = 2 * N + 1;
	ev[n].kind = DMN_REPORT_EV_PSTATE;
	ev[n].domain = "parent_dom";
	ev[n].old_level = 0;
	ev[n++].new_level = 256;
	struct dmn_report_model m = {.board = "scale.dtb", .domains = doms,
			      .n_domains = 3, .events = ev, .n_events = n,
			      .end_ns = 2 * N + 1};
	(void)state;

	char *text = output(W_SVG, &m, 0);
	size_t size = strlen(text);
	/* ~13 MB before: a rect per period and a segment per step */
	assert_true(size < 64 * 1024);
	assert_int_equal(svg_lanes(text), 2);
	assert_contains(text, "1 domain that never changed not drawn");
	assert_contains(text, "shorter than a pixel merged");
	assert_null(strstr(text, ">still<"));
	/* tree order: top before its child, the child indented */
	const char *top = strstr(text, ">top<"), *child = strstr(text, ">parent_dom<");
	assert_non_null(top);
	assert_non_null(child);
	assert_true(top < child);
	assert_contains(text, "<text x=\"26\"");
	assert_contains(text, ">codec clock<");
	assert_contains(text, "class=\"end\"");
	free(text);
	free(ev);
}

static void test_svg_sample(void **state)
{
	char *text = output(W_SVG, &sample_model, 0);
	(void)state;

	save("report_sample.svg", text);
	assert_int_equal(svg_lanes(text), N_SAMPLE_DOMAINS);
	for (unsigned i = 0; i < N_SAMPLE_DOMAINS; i++)
		assert_contains(text, sample_domains[i].name);
	/* Legend entries for every idle state, the failure marker, a
	 * labelled time axis. */
	assert_contains(text, "idle: cluster-ret");
	assert_contains(text, "idle: cluster-sleep-1");
	assert_contains(text, "idle: cpu-sleep-0");
	assert_contains(text, "class=\"failure\"");
	assert_contains(text, ">2 ms</text>");
	assert_contains(text, ">0</text>");
	assert_contains(text, "<title>sample.dtb");
	free(text);
}

/* ---- text ------------------------------------------------------------- */

static void test_summary_text(void **state)
{
	char *text = output(W_SUMMARY, &sample_model, 0);
	const char *cx, *mx, *cluster;
	(void)state;

	save("report_sample.summary.txt", text);
	assert_null(strchr(text, '\033'));
	assert_contains(text, "sample.dtb: Domino sample SoC");
	assert_contains(text, "48 (min_svs)");
	assert_contains(text, "64 (low_svs)");
	assert_contains(text, "off (cpu-sleep-0)");
	assert_contains(text, "vote 48 (counts)");
	assert_contains(text, "vote 128 (parked: suspended)");
	assert_contains(text, "no vote");
	assert_contains(text, "via \"mx\"");
	assert_contains(text, "/soc/mmc@8804000");
	assert_contains(text, "(also under mx)");
	assert_contains(text, "(also under cx");
	assert_contains(text, "provider disabled");
	/* Roots in model order, children indented beneath their parents. */
	cx = strstr(text, "\ncx ");
	mx = strstr(text, "\nmx ");
	cluster = strstr(text, "\ncluster ");
	assert_non_null(cx);
	assert_non_null(mx);
	assert_non_null(cluster);
	assert_true(cx < mx && mx < cluster);
	assert_non_null(strstr(cx, "\u2514\u2500 venus_gdsc"));
	assert_non_null(strstr(cluster, "\u2514\u2500 cpu0"));
	/* Columns line up: "on" starts in the same column on both roots. */
	assert_int_equal(strstr(cx, " on ") - cx, strstr(mx, " on ") - mx);
	free(text);

	text = output(W_SUMMARY, &sample_model, 1);
	assert_non_null(strchr(text, '\033'));
	free(text);
}

/* A model of @n domains: each d(K+1) a child of dK, or, with @wide, d0
 * a child of every other domain. The caller frees the one block. */
struct shape {
	struct dmn_report_model m;
	struct dmn_report_domain *domains;
	char (*names)[16];
	const char **links;
};

static void shape_build(struct shape *sh, unsigned n, int wide)
{
	memset(sh, 0, sizeof(*sh));
	sh->domains = calloc(n, sizeof(*sh->domains));
	sh->names = calloc(n, sizeof(*sh->names));
	sh->links = calloc(n, sizeof(*sh->links));
	assert_non_null(sh->domains);
	assert_non_null(sh->names);
	assert_non_null(sh->links);
	for (unsigned k = 0; k < n; k++) {
		snprintf(sh->names[k], sizeof(sh->names[k]), "d%u", k);
		sh->links[k] = sh->names[k];
		sh->domains[k].name = sh->names[k];
		sh->domains[k].index = -1;
	}
	for (unsigned k = 0; k < n; k++) {
		struct dmn_report_domain *d = &sh->domains[k];
		if (wide && k == 0) {
			d->parents = sh->links + 1;
			d->n_parents = n - 1;
		} else if (wide) {
			d->children = sh->links;
			d->n_children = 1;
		} else {
			d->parents = k ? sh->links + k - 1 : NULL;
			d->n_parents = k ? 1 : 0;
			d->children = k + 1 < n ? sh->links + k + 1 : NULL;
			d->n_children = k + 1 < n ? 1 : 0;
		}
	}
	sh->m.board = "shape";
	sh->m.domains = sh->domains;
	sh->m.n_domains = n;
}

static void shape_free(struct shape *sh)
{
	free(sh->domains);
	free(sh->names);
	free(sh->links);
}

/* A 100,000-deep chain neither overflows the stack (the walk
 * recursed) nor writes output quadratic in the depth (the indentation
 * grew with it); past the cap each row carries its depth. A domain with
 * thousands of parents appears under each, naming a bounded few others. */
static void test_summary_text_deep_and_wide(void **state)
{
	struct shape sh;
	char *text;
	(void)state;

	shape_build(&sh, 100000, 0);
	text = output(W_SUMMARY, &sh.m, 0);
	assert_true(strlen(text) < 200u * 100000);
	assert_contains(text, "\u2514\u2500 d1 ");
	assert_contains(text, "\u2514\u2500 [99999] d99999 ");
	free(text);
	shape_free(&sh);

	shape_build(&sh, 5000, 1);
	text = output(W_SUMMARY, &sh.m, 0);
	assert_true(strlen(text) < 300u * 5000);
	assert_contains(text, "(also under d2, d3, d4, d5, d6, d7, d8, d9 and 4990 more)");
	free(text);
	shape_free(&sh);
}

static void test_events_text(void **state)
{
	char *text = output(W_EVENTS, &sample_model, 0);
	unsigned lines = 0;
	(void)state;

	save("report_sample.events.txt", text);
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, sample_model.n_events);
	assert_null(strchr(text, '\033'));
	assert_contains(text, "   1.500 ms  cx ");
	assert_contains(text, " 250.000 us  cx ");
	assert_contains(text, "off -> on");
	assert_contains(text, "pstate 0 -> 256 (nom)");
	assert_contains(text, "pstate 256 -> 64 (nom -> low_svs)");
	assert_contains(text, "on -> off (cluster-ret)");
	assert_contains(text, "pstate 64 -> 256 FAILED: EIO (rolled back)");
	assert_contains(text,
			"pstate 64 -> 48 FAILED: EIO (safe: stays at 64)");
	assert_contains(text, "[line 12: vote venus 256]");
	assert_contains(text, "rate 100 MHz -> 240 MHz");
	assert_contains(text, "command failed: EIO");
	assert_contains(text, "stays on");
	assert_contains(text,
			"expect failed: cluster idle cluster-sleep-1, got on");
	free(text);

	text = output(W_EVENTS, &sample_model, 1);
	assert_contains(text, "\033[1;31mpstate 64 -> 256 FAILED");
	free(text);
}

static void test_stats_text(void **state)
{
	char *text = output(W_STATS, &sample_model, 0);
	(void)state;

	save("report_sample.stats.txt", text);
	assert_contains(text, "Statistics over 4.000 ms");
	assert_contains(text, "\ncluster\n");
	assert_contains(text, "  power   on ");
	assert_contains(text, "2.500 ms   62.5%");
	assert_contains(text, "cluster-ret ");
	assert_contains(text, "usage 1, rejected 0");
	assert_contains(text, "usage 0, rejected 1");
	assert_contains(text, "256 (nom) ");
	assert_contains(text, "1.500 ms   37.5%");
	assert_contains(text, "transitions: 2 on, 1 off, 0 pstate");
	free(text);
}

/* ---- errors ----------------------------------------------------------- */

/* The sink's error comes back from every writer, whichever write fails,
 * and the sink is not called again once it has failed. */
static void test_sink_failure(void **state)
{
	(void)state;
	for (int w = 0; w < N_WRITERS; w++) {
		char *full = output((enum writer)w, &sample_model, 1);
		size_t len = strlen(full);
		size_t points[] = {0,	 1,    17,	4095,
				   4096, 4097, len / 2, len - 1};
		free(full);
		for (size_t k = 0; k < sizeof(points) / sizeof(points[0]);
		     k++) {
			struct buf b;
			int rc;
			if (points[k] >= len)
				continue;
			buf_init(&b);
			b.fail_after = points[k];
			rc = run((enum writer)w, &sample_model, 1, &b);
			if (rc != -EIO)
				fail_msg("%s writer failing after %zu bytes "
					 "returned %d",
					 writer_names[w], points[k], rc);
			assert_int_equal(b.calls_after_failure, 0);
			free(b.data);
		}
	}
}

static void test_bad_arguments(void **state)
{
	struct dmn_report_sink none = {NULL, NULL};
	struct buf b;
	struct dmn_report_sink sink = {buf_write, &b};
	(void)state;

	buf_init(&b);
	assert_int_equal(dmn_report_write_json(&sample_model, NULL), -EINVAL);
	assert_int_equal(dmn_report_write_json(&sample_model, &none), -EINVAL);
	assert_int_equal(dmn_report_write_json(NULL, &sink), -EINVAL);
	assert_int_equal(dmn_report_write_trace(NULL, &sink), -EINVAL);
	assert_int_equal(dmn_report_write_svg(NULL, &sink), -EINVAL);
	assert_int_equal(dmn_report_write_summary_text(NULL, NULL, &sink), -EINVAL);
	assert_int_equal(dmn_report_write_events_text(NULL, NULL, &sink), -EINVAL);
	assert_int_equal(dmn_report_write_stats_text(NULL, NULL, &sink), -EINVAL);
	assert_int_equal(dmn_report_json_escape(NULL, "x"), -EINVAL);
	assert_int_equal(b.len, 0);
}

/* ---- escaping --------------------------------------------------------- */

#define NASTY "q\"b\\s\n\t\x01<&>'\xff\xc3\xa9"
/* The same after a JSON round trip: the stray 0xff byte becomes U+FFFD. */
#define NASTY_DECODED "q\"b\\s\n\t\x01<&>'\xef\xbf\xbd\xc3\xa9"

static void test_escaping(void **state)
{
	static const char *const parents[] = {NASTY};
	static const char *const children[] = {"child"};
	static const char *const warnings[] = {"bad \"quote\" \x02"};
	static const char *const decoded_names[] = {NASTY_DECODED, "child"};
	static const uint32_t args[] = {3, 1};
	struct dmn_report_device dev = {NASTY, "/soc/" NASTY, NASTY, 1, 7, 1, args, 2, 0, 0, 0, 0};
	struct dmn_report_domain doms[2] = {
	    {.name = NASTY,
	     .provider = "/" NASTY,
	     .index = 2,
	     .pstate_name = NASTY,
	     .children = children,
	     .n_children = 1,
	     .devices = &dev,
	     .n_devices = 1,
	     .idle_state = NASTY,
	     .initial_idle_state = NASTY,
	     .has_stats = 1},
	    {.name = "child",
	     .provider = "/c",
	     .index = -1,
	     .on = 1,
	     .parents = parents,
	     .n_parents = 1,
	     .has_stats = 1},
	};
	struct dmn_report_idle_stats idle = {.name = NASTY, .time_ns = 10};
	struct dmn_report_event ev[] = {
	    {.time_ns = 5,
	     .kind = DMN_REPORT_EV_POWER_ON,
	     .domain = NASTY,
	     .cause = NASTY,
	     .line = 1},
	    {.time_ns = 6,
	     .kind = DMN_REPORT_EV_FAILURE,
	     .domain = NASTY,
	     .op = NASTY,
	     .error = -ERANGE,
	     .cause = NASTY,
	     .line = 2},
	    {.time_ns = 7,
	     .kind = DMN_REPORT_EV_POWER_OFF,
	     .domain = NASTY,
	     .idle_state = NASTY},
	    {.time_ns = 8, .kind = DMN_REPORT_EV_EXPECT_FAILED, .message = NASTY},
	};
	static const char *const owners[] = {NASTY, "cci"};
	static const struct dmn_report_requirement reqs[] = {{NASTY, "/" NASTY,
						       owners, 2}};
	struct dmn_report_model m = {.board = NASTY,
			      .model = NASTY,
			      .domains = doms,
			      .n_domains = 2,
			      .warnings = warnings,
			      .n_warnings = 1,
			      .events = ev,
			      .n_events = 4,
			      .end_ns = 10,
			      .requirements = reqs,
			      .n_requirements = 1};
	char *text;
	json_t *root, *d;
	struct buf b;
	struct dmn_report_sink sink = {buf_write, &b};
	(void)state;

	doms[0].idle = &idle;
	doms[0].n_idle = 1;

	text = output(W_JSON, &m, 0);
	root = parse_json(text);
	assert_string_equal(json_string_value(json_object_get(root, "board")),
			    NASTY_DECODED);
	d = json_array_get(json_object_get(root, "domains"), 0);
	assert_string_equal(json_string_value(json_object_get(d, "name")),
			    NASTY_DECODED);
	assert_string_equal(
	    json_string_value(json_object_get(
		json_array_get(json_object_get(d, "devices"), 0), "via")),
	    NASTY_DECODED);
	/* the consumer's further specifier cells, and the requirements */
	json_t *jargs = json_object_get(
	    json_array_get(json_object_get(d, "devices"), 0), "args");
	assert_int_equal(json_array_size(jargs), 2);
	assert_int_equal(json_integer_value(json_array_get(jargs, 0)), 3);
	assert_int_equal(json_integer_value(json_array_get(jargs, 1)), 1);
	json_t *q = json_array_get(json_object_get(root, "requirements"), 0);
	assert_string_equal(json_string_value(json_object_get(q, "device")),
			    NASTY_DECODED);
	assert_string_equal(json_string_value(json_object_get(q, "table")),
			    "/" NASTY_DECODED);
	assert_string_equal(json_string_value(json_array_get(
				json_object_get(q, "owners"), 1)),
			    "cci");
	assert_non_null(
	    json_object_get(json_object_get(root, "stats"), NASTY_DECODED));
	assert_string_equal(
	    json_string_value(json_object_get(
		json_array_get(json_object_get(root, "events"), 1), "error")),
	    "ERANGE");
	json_decref(root);
	free(text);

	text = output(W_TRACE, &m, 0);
	check_trace(&m, text, 0.01, decoded_names);
	free(text);

	text = output(W_SVG, &m, 0);
	/* "child" stays on throughout: counted, not drawn */
	assert_int_equal(svg_lanes(text), 1);
	assert_contains(text, "1 domain that never changed not drawn");
	assert_null(strstr(text, "<&>"));
	assert_null(strchr(text, '\x01'));
	free(text);

	/* Text goes to terminals: no name may smuggle control characters. */
	for (int w = W_SUMMARY; w <= W_STATS; w++) {
		text = output((enum writer)w, &m, 0);
		for (const char *p = text; *p; p++)
			if ((unsigned char)*p < 0x20 && *p != '\n')
				fail_msg("%s: control character 0x%02x",
					 writer_names[w], (unsigned char)*p);
		assert_contains(text, "q\"b\\s??");
		if (w == W_SUMMARY) {
			assert_contains(text, "args 3 1");
			assert_contains(text, "requires /q\"b\\s??");
		}
		free(text);
	}

	/* The public escaper, byte for byte. */
	buf_init(&b);
	assert_int_equal(dmn_report_json_escape(&sink, "a\"b\\c\n\x1f\x7f\xff"), 0);
	assert_string_equal(b.data, "\"a\\\"b\\\\c\\n\\u001f\\u007f\\ufffd\"");
	free(b.data);
	buf_init(&b);
	assert_int_equal(dmn_report_json_escape(&sink, NULL), 0);
	assert_string_equal(b.data, "null");
	free(b.data);
	/* ...and the terminal one: C0, DEL, C1 (U+009B is CSI on terminals
	 * that take 8-bit controls) and invalid bytes become '?'. */
	buf_init(&b);
	assert_int_equal(dmn_report_text_escape(&sink, "a\033[2J\r\x7f\xc2\x9b" "1A\xff\xc3\xa9"), 0);
	assert_string_equal(b.data, "a?[2J???1A?\xc3\xa9");
	free(b.data);
	/* bidirectional overrides and isolates, the line separator: '?' */
	buf_init(&b);
	assert_int_equal(dmn_report_text_escape(&sink, "a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xe2\x80\xa8" "d\xd8\x9c" "e\xe2\x80\x8f" "f\xe2\x80\x8b"), 0);
	assert_string_equal(b.data, "a?b?c?d?e?f\xe2\x80\x8b");
	free(b.data);
}

/* No domains, no events: every writer still writes a valid document. */
static void test_empty_model(void **state)
{
	struct dmn_report_model m = {.board = "empty"};
	char *text;
	json_t *root;
	(void)state;

	text = output(W_JSON, &m, 0);
	root = parse_json(text);
	assert_int_equal(json_array_size(json_object_get(root, "domains")), 0);
	json_decref(root);
	free(text);
	text = output(W_TRACE, &m, 0);
	check_trace(&m, text, 0, NULL);
	free(text);
	text = output(W_SVG, &m, 0);
	assert_int_equal(svg_lanes(text), 0);
	free(text);
	text = output(W_SUMMARY, &m, 0);
	assert_contains(text, "0 domains");
	free(text);
	text = output(W_EVENTS, &m, 0);
	assert_contains(text, "no events");
	free(text);
	text = output(W_STATS, &m, 0);
	assert_contains(text, "no statistics");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json_sample),
	    cmocka_unit_test(test_json_summary_only),
	    cmocka_unit_test(test_trace_sample),
	    cmocka_unit_test(test_trace_edges),
	    cmocka_unit_test(test_svg_sample),
	    cmocka_unit_test(test_svg_at_scale),
	    cmocka_unit_test(test_summary_text),
	    cmocka_unit_test(test_summary_text_deep_and_wide),
	    cmocka_unit_test(test_events_text),
	    cmocka_unit_test(test_stats_text),
	    cmocka_unit_test(test_sink_failure),
	    cmocka_unit_test(test_bad_arguments),
	    cmocka_unit_test(test_escaping),
	    cmocka_unit_test(test_empty_model),
	    cmocka_unit_test(test_sleep_and_hwmode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
