/* check_json KIND FILE: the JSON outputs parse and carry docs/json.md's keys.
 * KIND: summary | simulate | trace | lint | empty (a summary, no domains) */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int fails;

#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, __VA_ARGS__);                         \
			fputc('\n', stderr);                                  \
			fails++;                                              \
		}                                                             \
	} while (0)

static void check_domain(json_t *d)
{
	const char *name = json_string_value(json_object_get(d, "name"));
	CHECK(name, "domain without a name");
	if (!name)
		name = "?";
	CHECK(json_is_string(json_object_get(d, "provider")), "%s: provider", name);
	json_t *index = json_object_get(d, "index");
	CHECK(index && (json_is_integer(index) || json_is_null(index)), "%s: index", name);
	const char *status = json_string_value(json_object_get(d, "status"));
	CHECK(status && (!strcmp(status, "on") || !strcmp(status, "off")), "%s: status", name);
	CHECK(json_is_integer(json_object_get(d, "pstate")), "%s: pstate", name);
	json_t *idle = json_object_get(d, "idle_state");
	CHECK(idle && (json_is_string(idle) || json_is_null(idle)), "%s: idle_state", name);
	CHECK(json_is_array(json_object_get(d, "parents")), "%s: parents", name);
	json_t *states = json_object_get(d, "idle_states");
	CHECK(json_is_array(states), "%s: idle_states", name);
	size_t k;
	json_t *st;
	json_array_foreach(states, k, st) {
		CHECK(json_is_string(json_object_get(st, "name")), "%s: idle state name", name);
		CHECK(json_is_integer(json_object_get(st, "entry_latency_us")) &&
			      json_is_integer(json_object_get(st, "exit_latency_us")) &&
			      json_is_integer(json_object_get(st, "min_residency_us")),
		      "%s: idle state latencies", name);
	}
	CHECK(json_is_array(json_object_get(d, "children")), "%s: children", name);
	/* The lifecycle keys come together (docs/lifecycle.md, JSON). */
	if (json_object_get(d, "held"))
		CHECK(json_is_boolean(json_object_get(d, "hw")) &&
			      json_is_boolean(json_object_get(d, "always_on")) &&
			      json_is_boolean(json_object_get(d, "active_wakeup")),
		      "%s: hw, always_on, active_wakeup", name);
	/* The provider's boot choices: present only as false. */
	json_t *stay = json_object_get(d, "stay_on");
	CHECK(!stay || json_is_false(stay), "%s: stay_on, where present, false",
	      name);
	json_t *sync = json_object_get(d, "sync_state");
	CHECK(!sync || json_is_false(sync),
	      "%s: sync_state, where present, false", name);
	json_t *devices = json_object_get(d, "devices");
	CHECK(json_is_array(devices), "%s: devices", name);
	size_t i;
	json_t *dev;
	json_array_foreach(devices, i, dev) {
		CHECK(json_is_string(json_object_get(dev, "name")), "%s: device name", name);
		CHECK(json_is_string(json_object_get(dev, "path")), "%s: device path", name);
		CHECK(json_is_boolean(json_object_get(dev, "active")), "%s: device active", name);
		CHECK(json_is_integer(json_object_get(dev, "vote")), "%s: device vote", name);
	}
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: check_json summary|simulate|trace|lint|empty FILE [SIMULATE.json]\n");
		return 2;
	}
	json_error_t error;
	json_t *root = json_load_file(argv[2], 0, &error);
	if (!root) {
		fprintf(stderr, "%s:%d: %s\n", argv[2], error.line, error.text);
		return 1;
	}
	const char *kind = argv[1];
	/* "empty": a summary of a board without domains */
	int empty = !strcmp(kind, "empty");
	if (empty)
		kind = "summary";
	/* docs/json.md: every --json (lint's too) is one object with `board`,
	 * `domains` and, where there are any, `warnings` (strings) */
	json_t *warnings = json_object_get(root, "warnings");
	if (warnings) {
		size_t i;
		json_t *w;
		CHECK(json_is_array(warnings) && json_array_size(warnings) > 0,
		      "warnings: a non-empty array where present");
		json_array_foreach(warnings, i, w)
			CHECK(json_is_string(w), "warnings[%zu]: a string", i);
	}
	if (!strcmp(kind, "lint")) {
		json_t *domains = json_object_get(root, "domains");
		CHECK(json_is_array(domains), "lint: domains");
		size_t i;
		json_t *d;
		json_array_foreach(domains, i, d)
			check_domain(d);
		json_t *counts = json_object_get(root, "counts");
		CHECK(json_is_integer(json_object_get(counts, "errors")) &&
			      json_is_integer(json_object_get(counts, "warnings")) &&
			      json_is_integer(json_object_get(counts, "notes")),
		      "lint: counts");
		CHECK(json_integer_value(json_object_get(counts, "errors")) ==
			      json_integer_value(json_object_get(root, "errors")),
		      "lint: counts.errors != errors");
	}
	if (!strcmp(kind, "summary") || !strcmp(kind, "simulate")) {
		CHECK(json_is_string(json_object_get(root, "board")), "board");
		json_t *domains = json_object_get(root, "domains");
		CHECK(json_is_array(domains) &&
			      (empty ? json_array_size(domains) == 0
				     : json_array_size(domains) > 0),
		      "domains");
		size_t i;
		json_t *d;
		json_array_foreach(domains, i, d)
			check_domain(d);
		json_t *sq = json_object_get(root, "system_qos_us");
		CHECK(!sq || json_is_integer(sq),
		      "system_qos_us, where present, an integer");
		if (!strcmp(kind, "simulate")) {
			CHECK(json_is_array(json_object_get(root, "events")), "events");
			json_t *stats = json_object_get(root, "stats");
			CHECK(json_is_object(stats), "stats");
			json_int_t end = json_integer_value(json_object_get(root, "end_ns"));
			const char *dname;
			json_t *st;
			/* every instant is on, off, or in one idle state; and at one
			 * pstate: both sums are the elapsed time, exactly */
			json_t *sys = json_object_get(stats, "system_sleep");
			json_int_t slept = json_integer_value(json_object_get(sys, "time_ns"));
			json_object_foreach(stats, dname, st) {
				/* The system's sleep, not a domain;
				 * no domain can sleep longer than the system. */
				if (!strcmp(dname, "system_sleep")) {
					CHECK(json_is_integer(json_object_get(st, "count")) &&
					      json_integer_value(json_object_get(st, "time_ns")) <= end,
					      "stats.system_sleep");
					continue;
				}
				json_int_t power = json_integer_value(json_object_get(st, "time_on_ns")) +
						   json_integer_value(json_object_get(st, "time_off_ns"));
				json_int_t levels = 0;
				size_t k;
				json_t *x;
				json_array_foreach(json_object_get(st, "idle_states"), k, x)
					power += json_integer_value(json_object_get(x, "time_ns"));
				json_int_t prev = -1;
				json_array_foreach(json_object_get(st, "pstates"), k, x) {
					levels += json_integer_value(json_object_get(x, "time_ns"));
					/* in level order, whatever was reached first */
					json_int_t level = json_integer_value(json_object_get(x, "level"));
					CHECK(level > prev, "%s: pstate %lld listed after %lld", dname,
					      (long long)level, (long long)prev);
					prev = level;
				}
				CHECK(power == end, "%s: power residency %lld != end %lld", dname,
				      (long long)power, (long long)end);
				/* every instant of sleep is on or in one state */
				if (sys) {
					json_int_t in_sleep = json_integer_value(
						json_object_get(st, "sleep_on_ns"));
					const char *k2;
					json_t *v;
					json_object_foreach(json_object_get(st, "sleep_idle_ns"), k2, v)
						in_sleep += json_integer_value(v);
					CHECK(in_sleep == slept, "%s: sleep residency %lld != %lld",
					      dname, (long long)in_sleep, (long long)slept);
				}
				CHECK(levels == end, "%s: pstate residency %lld != end %lld", dname,
				      (long long)levels, (long long)end);
			}
		}
		printf("%zu domains\n", json_array_size(domains));
	} else if (!strcmp(kind, "trace")) {
		json_t *events = json_object_get(root, "traceEvents");
		CHECK(json_is_array(events), "traceEvents");
		size_t i, counters = 0, spans = 0;
		json_t *e;
		json_t *seen = json_object();
		json_array_foreach(events, i, e) {
			const char *ph = json_string_value(json_object_get(e, "ph"));
			const char *name = json_string_value(json_object_get(e, "name"));
			size_t len = name ? strlen(name) : 0;
			int pstate_track = len > 7 && !strcmp(name + len - 7, " pstate");
			if (ph && !strcmp(ph, "C") && pstate_track &&
			    !json_object_get(seen, name)) {
				json_object_set_new(seen, name, json_true());
				counters++;
			}
			if (ph && !strcmp(ph, "X"))
				spans++;
		}
		json_decref(seen);
		CHECK(spans > 0, "no spans");
		if (argc > 3) {
			/* one counter track per domain of the matching simulate JSON */
			json_t *sim = json_load_file(argv[3], 0, &error);
			size_t n = sim ? json_array_size(json_object_get(sim, "domains")) : 0;
			CHECK(sim && counters == n, "%zu counter tracks for %zu domains",
			      counters, n);
			json_decref(sim);
		}
		printf("%zu counter tracks, %zu spans\n", counters, spans);
	} else if (!strcmp(kind, "lint")) {
		CHECK(json_is_string(json_object_get(root, "board")), "board");
		CHECK(json_is_array(json_object_get(root, "findings")), "findings");
		CHECK(json_is_integer(json_object_get(root, "errors")), "errors");
		printf("%zu findings\n", json_array_size(json_object_get(root, "findings")));
	} else {
		fprintf(stderr, "unknown kind %s\n", kind);
		return 2;
	}
	json_decref(root);
	return fails ? 1 : 0;
}
