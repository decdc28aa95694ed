/* SPDX-License-Identifier: MIT */
/*
 * domino - reports: the text summary, JSON, Chrome trace-event JSON
 * (Perfetto) and SVG timelines, written from a plain report model.
 *
 * The model (struct dmn_report_model) is filled in by the caller (the simulator or
 * the CLI) from a loaded board and its context; the writers know nothing of
 * device trees or of the core, and write through a caller-supplied sink, so
 * the library never touches files itself. All strings in the model are
 * borrowed: they must outlive the writer call.
 *
 * Times are nanoseconds of simulated (or real) time. Levels are pstates.
 *
 * Every writer returns 0 or a negative errno:
 *   -EINVAL, if the model, the sink or its write callback is NULL;
 *   -ENOMEM, if a working buffer could not be allocated (the model size);
 *   the sink's own error, the first time it fails: the writer stops there
 *   and does not call the sink again (a positive return counts as -EIO).
 * Output is buffered (4 KiB), so the sink sees few, large writes.
 * JSON and SVG are always well-formed: every string is escaped, and bytes
 * that are not UTF-8 become U+FFFD. The text writers replace control
 * characters in names with '?', so a name cannot drive the terminal.
 */
#ifndef DOMINO_REPORT_H
#define DOMINO_REPORT_H

#include <domino/energy.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * typedef dmn_report_sink_fn - receives output bytes
 * @bytes are not NUL-terminated. Return 0, or a negative errno to stop the
 * writer (it then returns it).
 */
typedef int (*dmn_report_sink_fn)(void *user, const char *bytes, size_t len);

struct dmn_report_sink {
	dmn_report_sink_fn write;
	void *user;
};

/** struct dmn_report_device - a device as seen from one of its domains */
struct dmn_report_device {
	const char *name;  /* as scenarios call it */
	const char *path;  /* DT node path */
	const char *via;   /* its power-domain-names entry, or NULL */
	int active;        /* 1 if runtime-active */
	uint32_t vote;     /* its vote on this domain as cast (0 = none) */
	int counts;        /* 1 if the vote currently counts */
	const uint32_t *args; /* its specifier's cells after the index, */
	unsigned n_args;      /* as given to a provider of 2+ cells */
	int probed;        /* lifecycle (docs/lifecycle.md): bound */
	int wakeup;        /* wakeup-enabled (DT wakeup-source or set) */
	int always_on;     /* `always-on DEV on` (rpm_always_on) */
	int hw;            /* this attachment is in HW mode (`hwmode`) */
};

/** struct dmn_report_idle_stats - one idle state of a domain, and its figures */
struct dmn_report_idle_stats {
	const char *name;
	uint32_t entry_latency_us, exit_latency_us, min_residency_us;
	uint64_t usage, rejected, time_ns;
};

/** struct dmn_report_pstate_time - residency at one level */
struct dmn_report_pstate_time {
	uint32_t level;
	const char *level_name; /* e.g. "nom" or an OPP node name, or NULL */
	uint64_t time_ns;
};

/**
 * struct dmn_report_domain - one domain in a report
 * @provider: the provider's node path; @index: the cell value, -1 if the
 *   provider has #power-domain-cells = 0 (printed as JSON null)
 * @pstate_name: the meaning of @pstate where known (OPP node or macro-like
 *   name, e.g. "opp-svs"), else NULL
 * @idle_state: name of the idle state while off, NULL while on or if none
 * @has_stats: 1 if the members from @time_on_ns on are filled (simulate)
 * @time_off_ns: time in plain off (domains without idle states)
 */
struct dmn_report_domain {
	const char *name;
	const char *provider;
	int index;
	int on;
	uint32_t pstate;
	const char *pstate_name;
	const char *idle_state;
	const char *const *parents;
	unsigned n_parents;
	const char *const *children;
	unsigned n_children;
	const struct dmn_report_device *devices;
	unsigned n_devices;
	const char *const *levels; /* names of the domain's levels, or NULL */
	const uint32_t *level_values;
	unsigned n_levels;

	/* State at time 0, where the events start from (simulate). */
	int initial_on;
	uint32_t initial_pstate;
	const char *initial_idle_state;

	int has_stats;
	uint64_t time_on_ns;
	uint64_t time_off_ns;
	uint64_t on_count, off_count, pstate_transitions;
	const struct dmn_report_idle_stats *idle;
	unsigned n_idle;
	const struct dmn_report_pstate_time *pstates;
	unsigned n_pstates;
	/* Lifecycle (docs/lifecycle.md), where the model's has_life is 1:
	 * @held: a boot hold keeps it on; @boot_level: the hold's level
	 * (kept after the release); @awaiting: the consumers it waits for. */
	int held;
	uint32_t boot_level;
	const char *const *awaiting;
	unsigned n_awaiting;
	int active_wakeup;
	/* Time during system sleep: on, and per idle state (@idle order;
	 * the slot after the last: plain off). */
	uint64_t sleep_on_ns;
	const uint64_t *sleep_idle_ns;
	/* @hw: in HW mode (an attachment is); @always_on: created or
	 * declared always-on (`always-on DOMAIN`). */
	int hw;
	int always_on;
	/* How the provider booted it (lifecycle.h DMN_BOOT_*): @no_stay_on,
	 * on from boot without a hold (JSON `"stay_on": false`);
	 * @no_sync_state, held until the provider's own sync (JSON
	 * `"sync_state": false`). Both 0 otherwise. */
	int no_stay_on;
	int no_sync_state;
};

/** enum dmn_report_event_kind - one change in a simulation's account */
enum dmn_report_event_kind {
	DMN_REPORT_EV_POWER_ON,  /* the domain went on */
	DMN_REPORT_EV_POWER_OFF, /* it went off (into @idle_state if it has states) */
	DMN_REPORT_EV_PSTATE,    /* @old_level -> @new_level */
	DMN_REPORT_EV_STAY_ON,   /* the governor kept an unused domain on */
	DMN_REPORT_EV_FAILURE,   /* a callback failed: @error, @safe */
	DMN_REPORT_EV_RATE,      /* a device's clock: @old_hz -> @new_hz */
	DMN_REPORT_EV_COMMAND_ERROR, /* a command failed as a whole: @error */
	DMN_REPORT_EV_EXPECT_FAILED, /* an expect line did not hold: @message */
	DMN_REPORT_EV_EXPLAIN,       /* one line of an `explain`: @message */
	DMN_REPORT_EV_HWMODE,        /* @device's attachment to @domain changed mode:
				 @new_level 1 = HW, 0 = SW (@old_level before) */
	DMN_REPORT_EV_SYSTEM_SLEEP,  /* the system went to sleep (no domain) */
	DMN_REPORT_EV_SYSTEM_WAKE,   /* the system woke up (no domain) */
};

/**
 * struct dmn_report_event - one change, in time order
 * @domain: the domain's name, or NULL (device events)
 * @device: the device's name, or NULL
 * @cause: the scenario command that caused it, e.g. "resume venus"
 * @line: its scenario line
 * @op: for failures, "on", "off", "pstate", "clock", "regulator"
 * @message: for expect failures, "WANT, got GOT"; for command errors, why
 *   (e.g. "no OPP >= 5 GHz; highest 1.332 GHz"), or NULL; for explain, the line
 */
struct dmn_report_event {
	uint64_t time_ns;
	enum dmn_report_event_kind kind;
	const char *domain;
	const char *device;
	const char *cause;
	unsigned line;
	uint32_t old_level, new_level;
	uint64_t old_hz, new_hz;
	const char *idle_state;
	const char *op;
	int error;
	int safe;
	int undo; /* failure: a call undoing a rollback (then always safe) */
	const char *message;
};

/**
 * struct dmn_report_requirement - a device-to-device requirement: @device's OPP
 * entries require OPPs of @table (a node path), so @owners (the devices
 * using that table; none: nothing is raised) run at least at the OPP
 * required while @device is active
 */
struct dmn_report_requirement {
	const char *device;
	const char *table;
	const char *const *owners;
	unsigned n_owners;
};

/**
 * struct dmn_report_device_rates - a device with an OPP table and the rates it
 * can be set to: the first clock's opp-hz of each available entry (turbo
 * included), ascending, each once
 */
struct dmn_report_device_rates {
	const char *device;
	const uint64_t *hz;
	unsigned n_hz;
};

/** enum dmn_report_power_kind - a state a power is given for */
enum dmn_report_power_kind {
	DMN_REPORT_POWER_ON,	    /* a domain on: at @level if @has_level,
				       else at any level without a state of
				       its own (level 0, or a domain without
				       levels) */
	DMN_REPORT_POWER_IDLE,	    /* a domain off in idle state @name */
	DMN_REPORT_POWER_OFF,	    /* a domain plain off (it has no idle states) */
	DMN_REPORT_POWER_SUSPENDED, /* a device suspended */
	DMN_REPORT_POWER_ACTIVE,    /* a device active at no OPP entry (none
				       selected, or it has no table) */
	DMN_REPORT_POWER_OPP,	    /* a device active at OPP entry @name (@hz,
				       @level where it has one) */
};

/** enum dmn_report_power_source - where a state's power comes from
 * (docs/energy.md, "Where each power comes from") */
enum dmn_report_power_source {
	DMN_REPORT_SOURCE_NONE,	   /* nothing gives it: unknown */
	DMN_REPORT_SOURCE_DT,	   /* the entry's opp-microwatt, summed over supplies */
	DMN_REPORT_SOURCE_DPC,	   /* dynamic-power-coefficient x mV^2 x MHz / 10^6 */
	DMN_REPORT_SOURCE_FILE,	   /* the power model file's line @line */
	DMN_REPORT_SOURCE_DEFAULT, /* 0 by rule (suspended device, plain-off domain) */
};

/**
 * struct dmn_report_power_state - one state of a domain or device, its
 * power and (simulate) the time and energy in it
 * @known: 0 when no source gives the power (@power_uw is then 0 and @why
 *   may say what is missing, e.g. "dynamic-power-coefficient without
 *   opp-microvolt")
 * @energy: @time_ns x @power_uw, in fJ
 * @at_domain: for an entry's power while a domain sits at a level (the
 *   power model's `at DOMAIN LEVEL`), that domain, @at_level and its name
 *   (@at_level_name, or NULL); NULL for every other state
 */
struct dmn_report_power_state {
	enum dmn_report_power_kind kind;
	const char *name;
	int has_level;
	uint32_t level;
	uint64_t hz;
	int known;
	uint64_t power_uw;
	enum dmn_report_power_source source;
	unsigned line;
	const char *why;
	uint64_t time_ns;
	struct dmn_energy energy;
	const char *at_domain;
	uint32_t at_level;
	const char *at_level_name;
};

/**
 * struct dmn_report_energy_part - a domain (its own leakage, by state) or a
 * device (its OPP power while active, its suspended power otherwise)
 * @time_on_ns: time on (domain) or active (device)
 * @energy: the sum of its states' energies
 * @unknown_ns: time in states of unknown power
 */
struct dmn_report_energy_part {
	const char *name;
	int device;
	const struct dmn_report_power_state *states;
	unsigned n_states;
	uint64_t time_on_ns;
	struct dmn_energy energy;
	uint64_t unknown_ns;
};

/** struct dmn_report_power_step - part @part draws @power_uw (0 and @known 0
 * when unknown) from @time_ns on */
struct dmn_report_power_step {
	uint64_t time_ns;
	unsigned part;
	uint64_t power_uw;
	int known;
};

/**
 * struct dmn_report_energy - the energy model and, for a simulation, what
 * the run cost (docs/energy.md)
 * @power_model: the power model file's name, NULL for the tree's alone
 * @parts: the domains (model order), then the devices (board order)
 * @has_times: 1 for a simulation (times, energies, steps are filled)
 * @start_ns: when metering started
 * @total: the sum of the parts' energies; @lower_bound: 1 when some part
 *   spent time in a state of unknown power (the total leaves it out)
 * @steps: every part's power at @start_ns, then each change, in time order
 */
struct dmn_report_energy {
	const char *power_model;
	const struct dmn_report_energy_part *parts;
	unsigned n_parts;
	unsigned n_domain_parts;
	int has_times;
	uint64_t start_ns;
	struct dmn_energy total;
	int lower_bound;
	const struct dmn_report_power_step *steps;
	unsigned n_steps;
};

/**
 * struct dmn_report_model - what every writer reads
 * @board: the board file name (or "demo"); @model: its DT model string
 * @warnings: loader warnings, already formatted
 * @events: NULL for summary; time-ordered for simulate
 * @end_ns: the simulation's end time (simulate)
 * @requirements: device-to-device requirements (may be NULL)
 * @device_rates: the devices with OPP tables, in board order (may be NULL)
 */
struct dmn_report_model {
	const char *board;
	const char *model;
	const struct dmn_report_domain *domains;
	unsigned n_domains;
	const char *const *warnings;
	unsigned n_warnings;
	const struct dmn_report_event *events;
	unsigned n_events;
	uint64_t end_ns;
	const struct dmn_report_requirement *requirements;
	unsigned n_requirements;
	const struct dmn_report_device_rates *device_rates;
	unsigned n_device_rates;
	/* 1 if the lifecycle members (docs/lifecycle.md) of the domains and
	 * devices are filled; @awaiting: every device a boot hold still waits
	 * for. */
	int has_life;
	const char *const *awaiting;
	unsigned n_awaiting;
	int asleep;                 /* `system`: "asleep" / "awake" */
	uint64_t sleep_count, sleep_ns; /* stats.system_sleep (simulate) */
	/* NULL unless energy was asked for: then every writer adds it */
	const struct dmn_report_energy *energy;
	/* The system wakeup latency in force (`system-qos`), in µs, when
	 * @has_system_qos (JSON `system_qos_us`). */
	int has_system_qos;
	uint32_t system_qos_us;
};

/**
 * struct dmn_report_text_options - how the text writers look
 * @color: 1 to use ANSI colours (the CLI decides: a terminal and no
 *   NO_COLOR)
 * @all: 1 to list in the statistics every domain; 0 folds those whose
 *   state never changed into one line ("N domains never changed: ...")
 */
struct dmn_report_text_options {
	int color;
	int all;
};

/**
 * dmn_report_write_summary_text - the domain tree, clearer than pm_genpd_summary
 * Roots first, children indented under each parent (a child of several
 * parents is shown under each, marked "(also under X)"; its devices and
 * subdomains are listed at the first place only), with status ("on", or
 * "off (IDLE-STATE)"), pstate and its meaning ("256 (nom)"), and the
 * devices with their votes ("vote 128 (counts)", "vote 64 (parked:
 * suspended)", "no vote"). Past 24 levels the tree stops indenting and
 * writes each deeper domain's depth before its name ("[25] pd25"), and the
 * "(also under ...)" note names at most 8 other parents ("and N more"), so
 * the output is linear in the model's size however deep or wide the graph.
 * The walk keeps its own stack: no recursion on the input's depth.
 * Loader warnings follow the tree.
 * returns: 0 or an error as above. cost: O(model size * log domains).
 */
int dmn_report_write_summary_text(const struct dmn_report_model *m,
			   const struct dmn_report_text_options *opt,
			   const struct dmn_report_sink *out);

/**
 * dmn_report_write_events_text - one line per event: time, domain, old -> new,
 * cause, e.g. "   1.500 ms  cx  pstate 64 -> 256 FAILED: EIO (rolled back)
 * [line 12: vote venus 256]". Prints "no events" for a model without any.
 * returns: 0 or an error as above. cost: O(events * log domains).
 */
int dmn_report_write_events_text(const struct dmn_report_model *m,
			  const struct dmn_report_text_options *opt,
			  const struct dmn_report_sink *out);

/**
 * dmn_report_write_stats_text - per-domain statistics table (time on, in each idle
 * state and each pstate, transitions) of the domains with @has_stats;
 * shares are of @end_ns. returns: 0 or an error as above.
 */
int dmn_report_write_stats_text(const struct dmn_report_model *m,
			 const struct dmn_report_text_options *opt,
			 const struct dmn_report_sink *out);

/**
 * dmn_report_write_json - one JSON object per docs/json.md: `board`,
 * `domains` (each with name, provider, index|null, status "on"/"off", pstate,
 * idle_state
 * |null, parents, children, devices [{name, path, active, vote}]), and
 * `warnings` and `requirements` when there are any; for a simulation
 * (events, stats or an
 * end time), also `end_ns`, `events` and `stats` (an object keyed by
 * domain name). Every key is listed in docs/json.md.
 * returns: 0 or an error as above. cost: O(model size).
 */
int dmn_report_write_json(const struct dmn_report_model *m, const struct dmn_report_sink *out);

/**
 * dmn_report_write_trace - Chrome trace-event JSON that Perfetto UI opens: one
 * process per board, one thread track per domain carrying a complete ("X")
 * event per on / off / idle period, and one counter ("C") track per domain's
 * pstate; failures are instant events; HW mode is a counter per domain
 * that was ever in it ("NAME hw"), system sleep complete events on a
 * "system" track. The timelines are rebuilt from each
 * domain's initial_* state and the events up to @end_ns (or the last
 * event's time if @end_ns is 0); the periods of a domain tile that range.
 * The mapping is in docs/trace.md.
 * returns: 0 or an error as above. cost: O(model size * log domains).
 */
int dmn_report_write_trace(const struct dmn_report_model *m, const struct dmn_report_sink *out);

/**
 * dmn_report_write_trace_max - dmn_report_write_trace() of at most @max_events of the
 * model's events: when it has more, the trace ends at the time of the
 * first event past @max_events (the events of that instant and later are
 * left out, so it may hold fewer) and its "otherData" gets a "truncated"
 * object (max_events, events_kept, events_total, end_ns; docs/trace.md).
 * The trace then holds about twice @max_events records plus a few per
 * domain. *@cut (may be NULL) is set to 1 when events were left out.
 * returns: as dmn_report_write_trace(). cost: O(model size * log domains).
 */
int dmn_report_write_trace_max(const struct dmn_report_model *m, uint64_t max_events,
			const struct dmn_report_sink *out, int *cut);

/**
 * dmn_report_write_svg - a timeline a person can read: one lane per domain, the
 * pstate as a step plot, idle periods shaded by state, HW-mode periods as
 * a strip under the bar, system sleep as a band across every lane, a
 * legend and a time axis. Standalone SVG 1.1 (parses as XML), the same timelines as the
 * trace; failures are markers (red: rolled back, orange: safe) with a
 * tooltip. returns: 0 or an error as above.
 */
int dmn_report_write_svg(const struct dmn_report_model *m, const struct dmn_report_sink *out);

/**
 * dmn_report_write_power_text - the energy model (m->energy): for each
 * domain and device, each state's power and where it comes from
 * ("opp-microwatt", "dynamic-power-coefficient", "FILE:LINE", "default",
 * "none" with what is missing), then how many states have none.
 * returns: 0, -EINVAL (also when m->energy is NULL), or an error as above.
 * cost: O(states).
 */
int dmn_report_write_power_text(const struct dmn_report_model *m,
				const struct dmn_report_text_options *opt,
				const struct dmn_report_sink *out);

/**
 * dmn_report_write_energy_text - what a run cost (m->energy with times):
 * the total and its average power, "a lower bound" when some part spent
 * time in a state of unknown power; then per part its energy, average
 * power and time on (active), and per state it spent time in, the time,
 * the power and the energy; parts that drew nothing share one line
 * unless opt->all; last, the states of unknown power with their time.
 * Energies: three decimals, truncated (docs/energy.md).
 * returns: 0, -EINVAL (also when m->energy is NULL), or an error as above.
 * cost: O(states).
 */
int dmn_report_write_energy_text(const struct dmn_report_model *m,
				 const struct dmn_report_text_options *opt,
				 const struct dmn_report_sink *out);

/**
 * dmn_report_json_escape - write @s as a JSON string literal (with quotes); NULL
 * is written as null. returns: 0 or an error as above.
 */
int dmn_report_json_escape(const struct dmn_report_sink *out, const char *s);

/**
 * dmn_report_text_escape - write @s for a terminal, as the text writers write
 * names: control characters (ESC, CR, ...) and invalid UTF-8 become '?',
 * so text taken from a board cannot move the cursor, clear the screen or
 * start a fake line. NULL writes nothing. returns: 0 or an error as above.
 */
int dmn_report_text_escape(const struct dmn_report_sink *out, const char *s);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_REPORT_H */
