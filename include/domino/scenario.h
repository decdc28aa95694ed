/* SPDX-License-Identifier: MIT */
/*
 * domino - the scenario language (docs/scenario.md): parser and helpers.
 *
 * A scenario is UTF-8 text, one command a line:
 *
 *     @TIME  VERB ARGS...     absolute time        (@0  @250us  @1.5ms  @2s)
 *     +TIME  VERB ARGS...     relative to the previous command's time
 *     VERB ARGS...            same time as the previous command
 *     # comment               anywhere; blank lines are fine
 *
 * dmn_scn_parse() turns a memory buffer into a struct dmn_scn_script: an array of
 * commands with absolute times in nanoseconds and typed arguments. Names of
 * devices and domains are kept as strings; the simulator resolves them
 * against a board later and can use dmn_scn_suggest() for a "did you mean".
 *
 * The parser does no file I/O and never prints. It stops at the first error
 * and describes it in a struct dmn_scn_diag (line, column, message), which
 * dmn_scn_diag_format() renders as the CLI prints it.
 *
 * Numbers are parsed with exact integer arithmetic: `1.5ms` is 1500000 ns,
 * `1.2GHz` is 1200000000 Hz; a value that is not a whole number of the base
 * unit (`1.5ns`, `0.5Hz`) or does not fit in 64 bits is an error, never a
 * rounding.
 */
#ifndef DOMINO_SCENARIO_H
#define DOMINO_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include <domino/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/** enum dmn_scn_verb - the command of one scenario line */
enum dmn_scn_verb {
	DMN_SCN_RESUME,  /* resume DEV */
	DMN_SCN_SUSPEND, /* suspend DEV */
	DMN_SCN_RATE,    /* rate DEV FREQ */
	DMN_SCN_VOTE,    /* vote DEV [DOMAIN-NAME] LEVEL */
	DMN_SCN_QOS,     /* qos DEV LATENCY_US|none */
	DMN_SCN_WAKEUP,  /* wakeup DEV TIME|+TIME|none */
	DMN_SCN_FAIL,    /* fail DOMAIN OP [COUNT] */
	DMN_SCN_EXPECT,  /* expect ... (see enum dmn_scn_expect_kind) */
	DMN_SCN_BOOT_ON, /* boot-on DOMAIN [LEVEL] [no-stay-on|no-sync-state]
			   (docs/lifecycle.md; time 0 only) */
	DMN_SCN_PROBE,   /* probe DEV|all */
	DMN_SCN_EXPLAIN, /* explain DOMAIN */
	DMN_SCN_SYSTEM_SUSPEND, /* system-suspend */
	DMN_SCN_SYSTEM_RESUME,  /* system-resume */
	DMN_SCN_WAKEUP_ENABLE,  /* wakeup-enable DEV on|off */
	DMN_SCN_ACTIVE_WAKEUP,  /* active-wakeup DOMAIN [on|off] */
	DMN_SCN_HWMODE,         /* hwmode DEV [DOMAIN-NAME] on|off */
	DMN_SCN_ALWAYS_ON,      /* always-on DEV on|off, or always-on DOMAIN
			       (time 0 only) */
	DMN_SCN_SYNC_STATE,     /* sync-state DOMAIN|PROVIDER */
	DMN_SCN_SYSTEM_QOS,     /* system-qos LATENCY_US|none */
};
#define DMN_SCN_VERB_COUNT 19

/* boot.flags of `boot-on`: the provider's choices (lifecycle.h
 * DMN_BOOT_NO_STAY_ON and DMN_BOOT_NO_SYNC_STATE, same values). */
#define DMN_SCN_BOOT_NO_STAY_ON 1u
#define DMN_SCN_BOOT_NO_SYNC_STATE 2u

/** enum dmn_scn_fail_op - which domain callback a `fail` command arms */
enum dmn_scn_fail_op {
	DMN_SCN_FAIL_PSTATE, /* set_performance_state */
	DMN_SCN_FAIL_ON,	 /* power_on */
	DMN_SCN_FAIL_OFF,	 /* power_off */
	DMN_SCN_FAIL_HWMODE, /* set_hwmode */
};

/** enum dmn_scn_expect_kind - the assertion of an `expect` command */
enum dmn_scn_expect_kind {
	DMN_SCN_EXPECT_PSTATE,     /* expect DOMAIN pstate N */
	DMN_SCN_EXPECT_ON,	       /* expect DOMAIN on */
	DMN_SCN_EXPECT_OFF,	       /* expect DOMAIN off */
	DMN_SCN_EXPECT_IDLE,       /* expect DOMAIN idle NAME */
	DMN_SCN_EXPECT_RATE,       /* expect DEV rate HZ */
	DMN_SCN_EXPECT_LAST_ERROR, /* expect last-error ERRNO-NAME */
	DMN_SCN_EXPECT_HELD,       /* expect DOMAIN held (a boot hold) */
	DMN_SCN_EXPECT_RELEASED,   /* expect DOMAIN released (not held) */
	DMN_SCN_EXPECT_HW,         /* expect DOMAIN hw (in HW mode) */
	DMN_SCN_EXPECT_SW,         /* expect DOMAIN sw (not in HW mode) */
};

/* qos.latency_us value of `qos DEV none` (same value as DMN_QOS_NONE). */
#define DMN_SCN_QOS_NONE UINT32_MAX
/* wakeup.at_ns value of `wakeup DEV none` (same value as DMN_WAKEUP_NONE). */
#define DMN_SCN_WAKEUP_NONE UINT64_MAX

/**
 * struct dmn_scn_cmd - one parsed command
 * @time_ns: absolute time of the command, in ns; never less than the
 *           previous command's
 * @line:    1-based line number in the text
 * @column:  1-based column (in characters) of the verb
 * @verb:    which member of the union is valid
 * @target:  the DEV (resume, suspend, rate, vote, qos, wakeup, expect rate)
 *           or DOMAIN (fail, expect pstate/on/off/idle) name; NULL for
 *           `expect last-error`. NUL-terminated, owned by the script.
 *
 * Per verb:
 * @rate.hz:            requested frequency in Hz (0 drops the OPP's votes)
 * @vote.domain:        the DOMAIN-NAME argument, or NULL when omitted
 * @vote.level:         the pstate level voted (0 = no vote); 0 when
 *                      @vote.level_name is set
 * @vote.level_name:    the level given by name (a word starting with a
 *                      letter or `_`, e.g. "rpmhpd_opp_svs"), resolved
 *                      against the domain's OPP entries by the simulator;
 *                      NULL when the level was a number
 * @qos.latency_us:     resume-latency limit in µs; DMN_SCN_QOS_NONE for `none`
 *                      (qos, and system-qos: the system wakeup latency)
 * @wakeup.at_ns:       absolute wakeup time in ns (`+5ms` already resolved
 *                      against @time_ns; may be in the past);
 *                      DMN_SCN_WAKEUP_NONE for `none`, which clears it
 * @fail.op, @fail.count: callback and number of calls to fail (0 disarms)
 * @expect.kind:        which assertion
 * @expect.level:       DMN_SCN_EXPECT_PSTATE: the level
 * @expect.level_name:  DMN_SCN_EXPECT_PSTATE: the level by name, as
 *                      @vote.level_name; NULL for a number
 * @expect.hz:          DMN_SCN_EXPECT_RATE: the frequency in Hz
 * @expect.idle_state:  DMN_SCN_EXPECT_IDLE: the idle state's name
 * @expect.error:       DMN_SCN_EXPECT_LAST_ERROR: 0 for OK, else a negative errno
 * @boot.level:         boot-on: the boot level (0 when omitted or when
 *                      @boot.level_name is set)
 * @boot.level_name:    boot-on: the level by name, as @vote.level_name
 * @boot.flags:         boot-on: 0, DMN_SCN_BOOT_NO_STAY_ON (`no-stay-on`,
 *                      which takes no LEVEL) or DMN_SCN_BOOT_NO_SYNC_STATE
 *                      (`no-sync-state`)
 * @probe.all:          probe: 1 for `probe all` (then @target is NULL)
 * @toggle.on:          wakeup-enable, active-wakeup, always-on DEV: 1 for
 *                      on (the default of active-wakeup), 0 for off
 * @toggle.domain:      always-on: 1 for the `always-on DOMAIN` form (then
 *                      @target names a domain and @toggle.on is 1)
 * @hwmode.domain:      hwmode: the DOMAIN-NAME argument, or NULL (as
 *                      @vote.domain)
 * @hwmode.on:          hwmode: 1 for on (HW mode), 0 for off
 * sync-state: @target names a domain or a provider (its label or path).
 * system-suspend, system-resume and system-qos have no target (NULL).
 * boot-on and always-on DOMAIN come only at time 0, before any other kind
 * of command.
 */
struct dmn_scn_cmd {
	uint64_t time_ns;
	uint32_t line;
	uint32_t column;
	enum dmn_scn_verb verb;
	const char *target;
	union {
		struct {
			uint64_t hz;
		} rate;
		struct {
			const char *domain;
			uint32_t level;
			const char *level_name;
		} vote;
		struct {
			uint32_t latency_us;
		} qos;
		struct {
			uint64_t at_ns;
		} wakeup;
		struct {
			enum dmn_scn_fail_op op;
			uint32_t count;
		} fail;
		struct {
			enum dmn_scn_expect_kind kind;
			uint32_t level;
			const char *level_name;
			uint64_t hz;
			const char *idle_state;
			int error;
		} expect;
		struct {
			uint32_t level;
			const char *level_name;
			unsigned flags;
		} boot;
		struct {
			int all;
		} probe;
		struct {
			int on;
			int domain;
		} toggle;
		struct {
			const char *domain;
			int on;
		} hwmode;
	};
};

/**
 * struct dmn_scn_script - a parsed scenario; free with dmn_scn_free()
 * @filename: copy of the name given to dmn_scn_parse() (never NULL)
 * @cmds:     the commands, in file order (hence in time order)
 * @count:    number of commands; 0 for an empty or comment-only text
 * @end_ns:   time of the last command (0 when @count is 0)
 *
 * Everything the script points to lives in allocations it owns; the text
 * passed to dmn_scn_parse() may be freed as soon as it returns.
 */
struct dmn_scn_script {
	const char *filename;
	const struct dmn_scn_cmd *cmds;
	size_t count;
	uint64_t end_ns;
	/* private to the parser */
	struct dmn_alloc_ops priv_alloc;
	void *priv_text;
	void *priv_cmds;
};

#define DMN_SCN_DIAG_MESSAGE_MAX 256

/**
 * struct dmn_scn_diag - what went wrong, filled in by dmn_scn_parse() on failure
 * @file:    the filename passed to dmn_scn_parse() (borrowed, not copied)
 * @line:    1-based line of the error; 0 if the error is not about a line
 *           (-ENOMEM, -EINVAL for bad arguments)
 * @column:  1-based column, counted in characters (UTF-8 code points) on
 *           that line; for invalid UTF-8, the column of the offending byte
 * @error:   the negative errno dmn_scn_parse() returned
 * @message: NUL-terminated English message without location or "error:",
 *           e.g. "unknown verb 'resme'; did you mean 'resume'?"
 */
struct dmn_scn_diag {
	const char *file;
	uint32_t line;
	uint32_t column;
	int error;
	char message[DMN_SCN_DIAG_MESSAGE_MAX];
};

/**
 * dmn_scn_parse - parse a scenario held in memory
 * @text:     the scenario; need not be NUL-terminated; may be NULL if @len
 *            is 0
 * @len:      its length in bytes
 * @filename: name used in diagnostics and copied into the script; NULL
 *            means "<scenario>"
 * @alloc:    allocation hook (struct dmn_alloc_ops); NULL, or NULL members,
 *            mean malloc/free. The same hook frees the script.
 * @out:      receives the script on success; set to NULL on failure
 * @diag:     filled in on failure; may be NULL. Untouched on success.
 *
 * A leading UTF-8 byte-order mark is skipped. Lines end at LF; a CR before
 * it is whitespace. Separators are spaces and tabs. A `#` ends the line's
 * content wherever it appears, even inside a word.
 *
 * returns: 0 on success, or
 *   -EINVAL  if @out is NULL, or @text is NULL with @len > 0 (@diag->line
 *            is 0), or a line is malformed: unknown verb or keyword, wrong
 *            number of arguments, a level that is neither an unsigned
 *            integer nor a name (a name starts with a letter or `_`),
 *            bad number or unit, sub-unit precision,
 *            unknown errno name, unknown fail op, a time earlier than the
 *            previous command's, a control character;
 *   -EOVERFLOW if a time, frequency, level, latency or count does not fit
 *            its type (64 bits for times and frequencies, 32 for the rest),
 *            including a relative time whose sum overflows;
 *   -EILSEQ  if a line holds invalid UTF-8 (overlong forms, surrogates and
 *            code points above U+10FFFF included) or a NUL byte;
 *   -E2BIG   if the text has more than UINT32_MAX - 1 lines;
 *   -ENOMEM  if the allocation hook failed (nothing is leaked).
 *   Parsing stops at the first error; nothing is allocated on failure.
 * cost: O(@len) time; O(@len) memory (one copy of the text plus the
 *   command array).
 */
int dmn_scn_parse(const char *text, size_t len, const char *filename,
	      const struct dmn_alloc_ops *alloc, struct dmn_scn_script **out,
	      struct dmn_scn_diag *diag);

/**
 * dmn_scn_free - free a script returned by dmn_scn_parse(); NULL is a no-op
 * cost: O(1).
 */
void dmn_scn_free(struct dmn_scn_script *script);

/**
 * dmn_scn_diag_format - render a diagnostic as the CLI prints it
 * @diag:        as filled in by dmn_scn_parse()
 * @with_column: 0 for `FILE:LINE: error: MESSAGE` (docs/command-line.md), 1 for
 *               `FILE:LINE:COL: error: MESSAGE`; a diagnostic with line 0
 *               prints `FILE: error: MESSAGE`
 * @buf, @size:  output buffer; always NUL-terminated when @size > 0
 *
 * FILE is @diag->file, or "<scenario>" when that is NULL. No newline is
 * appended.
 * returns: the length the full text has (as snprintf), so a result >= @size
 *   means it was truncated; -EINVAL if @diag is NULL or @buf is NULL with
 *   @size > 0.
 * cost: O(length of the message).
 */
int dmn_scn_diag_format(const struct dmn_scn_diag *diag, int with_column, char *buf,
		    size_t size);

/**
 * dmn_scn_parse_time - parse one duration such as `250us`, `1.5ms`, `2s`, `42`
 * @s, @len: the text (no sign, no `@`/`+`, no spaces)
 * @out:     receives nanoseconds
 *
 * Units: ns, us (or µs), ms, s; none means ns. Decimals are exact.
 * returns: 0, -EINVAL (empty, not a number, unknown unit, precision finer
 *   than 1 ns), -EOVERFLOW (more than UINT64_MAX ns).
 * cost: O(@len).
 */
int dmn_scn_parse_time(const char *s, size_t len, uint64_t *out);

/**
 * dmn_scn_parse_freq - parse one frequency such as `19.2MHz`, `1.2GHz`, `300000`
 * @s, @len: the text
 * @out:     receives Hz
 *
 * Units: Hz, kHz, MHz, GHz in any letter case; none means Hz.
 * returns: 0, -EINVAL (empty, not a number, unknown unit, a fraction of a
 *   Hz), -EOVERFLOW (more than UINT64_MAX Hz).
 * cost: O(@len).
 */
int dmn_scn_parse_freq(const char *s, size_t len, uint64_t *out);

/**
 * dmn_scn_format_time - write @ns in the shortest exact unit, e.g. "1.5ms"
 * @buf, @size: output buffer, NUL-terminated when @size > 0
 *
 * The output parses back to @ns with dmn_scn_parse_time(). 0 prints "0".
 * returns: the full length, as snprintf.
 * cost: O(1).
 */
int dmn_scn_format_time(uint64_t ns, char *buf, size_t size);

/**
 * dmn_scn_verb_name - the keyword of @verb ("resume", ...); "?" if out of range
 * dmn_scn_fail_op_name - "pstate", "on", "off" or "hwmode"; "?" if out of
 * range
 */
const char *dmn_scn_verb_name(enum dmn_scn_verb verb);
const char *dmn_scn_fail_op_name(enum dmn_scn_fail_op op);

/**
 * dmn_scn_edit_distance - Damerau-Levenshtein distance (optimal string
 * alignment: insert, delete, substitute, swap two neighbours, each 1)
 * @a, @b: NUL-terminated byte strings; bytes are compared exactly
 *
 * No allocation: of strings longer than DMN_SCN_EDIT_MAX bytes only the first
 * DMN_SCN_EDIT_MAX bytes are compared, and the difference between the lengths
 * of the parts left over is added.
 * returns: the distance; 0 means equal (within those limits).
 * cost: O(strlen(a) * strlen(b)) time, O(DMN_SCN_EDIT_MAX) stack.
 */
#define DMN_SCN_EDIT_MAX 128
size_t dmn_scn_edit_distance(const char *a, const char *b);

/**
 * typedef dmn_scn_name_fn - returns the @i-th candidate name, or NULL to skip it
 */
typedef const char *(*dmn_scn_name_fn)(void *user, size_t i);

/**
 * dmn_scn_suggest - the candidate closest to a misspelt @name, for
 * "did you mean" messages
 * @name:       what the user wrote
 * @candidates: @n names; NULL entries are skipped
 *
 * A candidate is close enough when its distance to @name is at most
 * max(1, strlen(@name) / 3) (so one typo in a short word, more in a long
 * one), or when the two differ only in letter case. Among several the
 * smallest distance wins, then the earliest in the list.
 * returns: a pointer to the chosen candidate string, or NULL if none is
 *   close enough (or @name is NULL, or @name is itself a candidate).
 * cost: O(@n * strlen(@name) * average candidate length).
 */
const char *dmn_scn_suggest(const char *name, const char *const *candidates,
			size_t n);

/**
 * dmn_scn_suggest_fn - dmn_scn_suggest() over candidates produced by @name_at(@user,
 * i) for i in [0, @n), for callers whose names live in their own structures
 * returns and cost: as dmn_scn_suggest().
 */
const char *dmn_scn_suggest_fn(const char *name, dmn_scn_name_fn name_at, void *user,
			   size_t n);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_SCENARIO_H */
