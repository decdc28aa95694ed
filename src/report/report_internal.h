/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the report writers: a buffered output over the caller's
 * sink, string escaping for JSON and XML, number formatting that does not
 * depend on the C locale, a name index over the model's domains, and the
 * per-domain timelines the trace and SVG writers draw.
 */
#ifndef DOMINO_REPORT_INTERNAL_H
#define DOMINO_REPORT_INTERNAL_H

#include <domino/report.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define RPT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RPT_PRINTF(f, a)
#endif

/* ---- out.c: buffered output ------------------------------------------- */

/*
 * struct dmn_report_out - a write buffer in front of a sink
 * The first sink error is kept and every later write is dropped, so a
 * writer can emit its whole document and return dmn__rpt_out_finish() once: the
 * caller still gets the sink's error, and the sink is not called again.
 */
struct dmn_report_out {
	const struct dmn_report_sink *sink;
	int err;
	size_t len;
	char buf[4096];
};

/* dmn__rpt_out_init - returns 0, or -EINVAL for a missing sink or callback. */
int dmn__rpt_out_init(struct dmn_report_out *o, const struct dmn_report_sink *sink);
void dmn__rpt_out_write(struct dmn_report_out *o, const char *bytes, size_t len);
void dmn__rpt_out_puts(struct dmn_report_out *o, const char *s);
void dmn__rpt_out_putc(struct dmn_report_out *o, char c);
void dmn__rpt_out_printf(struct dmn_report_out *o, const char *fmt, ...) RPT_PRINTF(2, 3);
/* dmn__rpt_out_pad - @n spaces */
void dmn__rpt_out_pad(struct dmn_report_out *o, size_t n);
/* dmn__rpt_out_finish - flush; returns 0 or the first error (sink or ENOMEM). */
int dmn__rpt_out_finish(struct dmn_report_out *o);

/* ---- escape.c: JSON and XML text -------------------------------------- */

/* A JSON string literal with quotes; NULL is written as null. Bytes that
 * are not valid UTF-8 become U+FFFD so the document always parses. */
void dmn__rpt_out_json_str(struct dmn_report_out *o, const char *s);
/* The same without the quotes (NULL writes nothing), to build a string
 * from pieces. */
void dmn__rpt_out_json_chars(struct dmn_report_out *o, const char *s);
/* XML character data / attribute text (without quotes); NULL writes
 * nothing. Characters XML 1.0 forbids and invalid UTF-8 become U+FFFD. */
void dmn__rpt_out_xml_str(struct dmn_report_out *o, const char *s);
/* Terminal text: control characters and invalid UTF-8 become '?', so a
 * name cannot move the cursor or change colours. NULL writes nothing. */
void dmn__rpt_out_text(struct dmn_report_out *o, const char *s);
/* Display width of @s as dmn__rpt_out_text writes it (one column per code
 * point; NULL is 0). */
size_t dmn__rpt_text_width(const char *s);

/* ---- format.c: numbers ------------------------------------------------ */

/* Buffer sizes large enough for every formatter below. */
#define RPT_NUM_LEN 40

/* The widest cell a text column aligns to. A wider one (a 20,000-byte
 * node name, a nested domain's full path) is written whole, followed by
 * the column's gap, and does not widen the column: every row padded to
 * the widest name was rows x width, 40 MB of summary from a 116 KB
 * blob. */
#define RPT_ALIGN_MAX 100
/* A short phrase of fixed words and a few numbers, each at most
 * RPT_NUM_LEN - 1 characters: "vote 4294967295 (parked: suspended)",
 * "undoing a rollback; safe: stays at 4294967295", "rate 0-1.332 GHz". */
#define RPT_PHRASE_LEN 64

/* "1.500 ms", "250 ns", "2.000 s": three decimals in the largest unit that
 * keeps the integer part non-zero. */
const char *dmn__rpt_fmt_time(char buf[RPT_NUM_LEN], uint64_t ns);
/* "1.5 ms", "250 us", "2 s": like dmn__rpt_fmt_time without trailing zeros. */
const char *dmn__rpt_fmt_time_short(char buf[RPT_NUM_LEN], uint64_t ns);
/* @ns in the unit dmn__rpt_fmt_time would pick for @ref, trailing zeros
 * dropped: an axis labels all its ticks alike ("0", "0.5 ms", "1 ms"). */
const char *dmn__rpt_fmt_time_as(char buf[RPT_NUM_LEN], uint64_t ns, uint64_t ref);
/* "300 MHz", "19.2 MHz", "32768 Hz" */
const char *dmn__rpt_fmt_hz(char buf[RPT_NUM_LEN], uint64_t hz);
/* ns as microseconds with ns precision and no trailing zeros: "1.5", "0" */
const char *dmn__rpt_fmt_us(char buf[RPT_NUM_LEN], uint64_t ns);
/* @v with two decimals, without trailing zeros ("12.5", "-3", "0.25"),
 * rounded; independent of LC_NUMERIC. */
const char *dmn__rpt_fmt_coord(char buf[RPT_NUM_LEN], double v);
/* @part as a percentage of @whole with one decimal: "62.5%"; "-" if
 * @whole is 0. */
const char *dmn__rpt_fmt_pct(char buf[RPT_NUM_LEN], uint64_t part, uint64_t whole);

/* ---- model.c: looking things up in the model -------------------------- */

/* struct dmn_report_index - the model's domains sorted by name, for bsearch */
struct dmn_report_index {
	const struct dmn_report_model *m;
	unsigned *by_name;
};

/* dmn__rpt_index_build - returns 0 or -ENOMEM. cost: O(n log n). */
int dmn__rpt_index_build(struct dmn_report_index *ix, const struct dmn_report_model *m);
void dmn__rpt_index_free(struct dmn_report_index *ix);
/* dmn__rpt_index_find - the domain's position in m->domains, or -1. O(log n). */
int dmn__rpt_index_find(const struct dmn_report_index *ix, const char *name);

/* struct dmn_report_levels - the model's level tables in value order: the
 * positions of each domain's levels sorted by (value, position), NULL for a
 * table whose values already ascend (the usual case, nothing allocated). */
struct dmn_report_levels {
	const struct dmn_report_model *m;
	unsigned **order; /* per domain, or NULL if no table needs one */
	unsigned *block;  /* what they point into */
};

/* dmn__rpt_levels_build - returns 0 or -ENOMEM. cost: O(L log L), L the
 * levels of the tables out of order. */
int dmn__rpt_levels_build(struct dmn_report_levels *lv,
			  const struct dmn_report_model *m);
void dmn__rpt_levels_free(struct dmn_report_levels *lv);
/* The name of @level in @d's level table (its first entry of that value),
 * else NULL. O(log n) when @d is a domain of @lv's model; a scan, O(n),
 * with @lv NULL (what is looked up once per domain). */
const char *dmn__rpt_level_name(const struct dmn_report_levels *lv,
				const struct dmn_report_domain *d, uint32_t level);
/* @d's current pstate name: pstate_name, else from the level table. */
const char *dmn__rpt_pstate_name(const struct dmn_report_domain *d);
/* 1 if the model comes from a simulation (events, stats or an end time). */
int dmn__rpt_is_simulation(const struct dmn_report_model *m);
/* "power_on", "pstate", ... as used in JSON and the trace */
const char *dmn__rpt_event_kind_name(enum dmn_report_event_kind kind);
/* The errno name of an event's error ("EIO"), whatever its sign. */
const char *dmn__rpt_error_name(int error);

/* ---- describe.c: events in words ------------------------------------ */

/*
 * dmn__rpt_describe_event - what happened, without time, subject or cause, e.g.
 * "pstate 64 -> 256 (low_svs -> nom)"; @d (or NULL) names the levels,
 * looked up in @lv (see dmn__rpt_level_name).
 * returns: 1 for failures (shown in the alarm colour), else 0.
 */
int dmn__rpt_describe_event(char *buf, size_t len, const struct dmn_report_event *e,
		       const struct dmn_report_levels *lv,
		       const struct dmn_report_domain *d);
/* "[line 12: resume venus]" into @buf, or "" without line and cause. */
void dmn__rpt_describe_cause(char *buf, size_t len, const struct dmn_report_event *e);

/* ---- timeline.c: per-domain periods and pstate steps ------------------ */

/* struct tl_period - [start, end) spent on, plain off, or in an idle state */
struct tl_period {
	uint64_t start, end;
	int on;
	const char *idle_state; /* off in this state; NULL = plain off */
};

/* struct tl_step - the pstate from @time on (until the next step) */
struct tl_step {
	uint64_t time;
	uint32_t level;
};

/* struct tl_span - [start, end): asleep (the system), or in HW mode */
struct tl_span {
	uint64_t start, end;
};

struct tl_domain {
	struct tl_period *periods; /* contiguous, covering [0, end) */
	unsigned n_periods;
	struct tl_span *hw; /* HW-mode periods, in time order */
	unsigned n_hw;
	unsigned hw_atts; /* attachments in HW mode while replaying */
	struct tl_step *steps; /* steps[0] is at time 0 */
	unsigned n_steps;
	uint32_t max_level; /* the highest level reached (or listed) */
};

/*
 * struct dmn_report_timeline - the model's events replayed per domain
 * @end: m->end_ns, or the last event's time if end_ns is 0
 * @event_domain: for each event, its domain's position or -1
 * @sleep: the system-sleep periods, in time order
 */
struct dmn_report_timeline {
	uint64_t end;
	struct tl_domain *domains;
	int *event_domain;
	struct tl_span *sleep;
	unsigned n_sleep;
	struct tl_span *hw_block; /* all domains' HW-mode periods */
	struct tl_period *period_block; /* all domains' periods, one block */
	struct tl_step *step_block;
};

/*
 * dmn__rpt_timeline_build - replay @m's events from each domain's initial state
 * Power events start a new period when the state (or idle state) changes;
 * pstate events add a step when the level changes; hwmode events open and
 * close a domain's HW-mode periods (in HW mode while any attachment is),
 * system_sleep / system_wake the system's sleep periods (an open one ends
 * at @end); failures change nothing
 * (an unsafe failure was rolled back, a safe one left the domain as it was).
 * Events after @end are ignored. returns: 0 or -ENOMEM. cost: O(E log D + D).
 */
int dmn__rpt_timeline_build(struct dmn_report_timeline *tl, const struct dmn_report_model *m,
		       const struct dmn_report_index *ix);
void dmn__rpt_timeline_free(struct dmn_report_timeline *tl);

#endif /* DOMINO_REPORT_INTERNAL_H */
