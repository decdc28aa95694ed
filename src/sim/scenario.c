/* SPDX-License-Identifier: MIT */
/*
 * The scenario parser: text in memory -> struct dmn_scn_script.
 *
 * One pass, line by line. The text is copied once into a buffer the script
 * owns and every word is NUL-terminated in place (the byte after a word is
 * always a separator, a `#`, the line's LF or the extra byte at the end), so
 * names cost no allocation of their own and the script is two blocks: the
 * text and the command array.
 *
 * Each line is checked for UTF-8 and NUL bytes before it is split, so the
 * first error reported is always the first bad line, whatever the kind.
 */
#include <domino/scenario.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_internal.h"
#include "../core/alloc.h"

/* A command has at most 4 words after the verb; one more is enough to say
 * "too many" and point at it. */
#define MAX_WORDS 8
/* Longest word quoted back in a message, in bytes. */
#define QUOTE_MAX 48

struct word {
	char *s;
	size_t len;
	uint32_t column;
};

struct parser {
	struct dmn_alloc_ops alloc;
	struct dmn_scn_diag *diag;
	const char *filename;

	char *line_start;
	uint32_t line;

	uint64_t prev_time;
	int prev_nonboot; /* a command other than boot-on was read */
	struct dmn_scn_cmd *cmds;
	size_t count;
	size_t cap;
};

static const char *const verb_names[DMN_SCN_VERB_COUNT] = {
    [DMN_SCN_RESUME] = "resume", [DMN_SCN_SUSPEND] = "suspend", [DMN_SCN_RATE] = "rate",
    [DMN_SCN_VOTE] = "vote",     [DMN_SCN_QOS] = "qos",		[DMN_SCN_WAKEUP] = "wakeup",
    [DMN_SCN_FAIL] = "fail",     [DMN_SCN_EXPECT] = "expect",
    [DMN_SCN_BOOT_ON] = "boot-on", [DMN_SCN_PROBE] = "probe",
    [DMN_SCN_EXPLAIN] = "explain",
    [DMN_SCN_SYSTEM_SUSPEND] = "system-suspend",
    [DMN_SCN_SYSTEM_RESUME] = "system-resume",
    [DMN_SCN_WAKEUP_ENABLE] = "wakeup-enable",
    [DMN_SCN_ACTIVE_WAKEUP] = "active-wakeup",
    [DMN_SCN_HWMODE] = "hwmode",
    [DMN_SCN_ALWAYS_ON] = "always-on",
    [DMN_SCN_SYNC_STATE] = "sync-state",
    [DMN_SCN_SYSTEM_QOS] = "system-qos",
};

static const char *const fail_op_names[] = {
    [DMN_SCN_FAIL_PSTATE] = "pstate",
    [DMN_SCN_FAIL_ON] = "on",
    [DMN_SCN_FAIL_OFF] = "off",
    [DMN_SCN_FAIL_HWMODE] = "hwmode",
};
#define N_FAIL_OPS (sizeof(fail_op_names) / sizeof(fail_op_names[0]))

static const char *const expect_keywords[] = {
    "pstate", "on", "off", "idle", "rate", "held", "released", "hw", "sw"};
#define N_EXPECT_KEYWORDS (sizeof(expect_keywords) / sizeof(expect_keywords[0]))

#define EXPECT_USAGE                                                           \
	"expect DOMAIN pstate N | DOMAIN on | DOMAIN off | DOMAIN idle NAME "  \
	"| DOMAIN held | DOMAIN released | DOMAIN hw | DOMAIN sw | "           \
	"DEV rate HZ | last-error ERRNO"

const char *dmn_scn_verb_name(enum dmn_scn_verb verb)
{
	if ((unsigned)verb >= DMN_SCN_VERB_COUNT)
		return "?";
	return verb_names[verb];
}

const char *dmn_scn_fail_op_name(enum dmn_scn_fail_op op)
{
	if ((unsigned)op >= N_FAIL_OPS)
		return "?";
	return fail_op_names[op];
}

/* ---- diagnostics ----------------------------------------------------------
 */

/* Copy a word for quoting, cut at a UTF-8 character boundary. */
static void quote(char out[QUOTE_MAX + 4], const char *s, size_t len)
{
	if (len <= QUOTE_MAX) {
		memcpy(out, s, len);
		out[len] = '\0';
		return;
	}
	size_t cut = QUOTE_MAX;
	while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	memcpy(out, s, cut);
	memcpy(out + cut, "...", 4);
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int
error_at(struct parser *p, int err, uint32_t column, const char *fmt, ...)
{
	if (p->diag) {
		va_list ap;
		p->diag->file = p->filename;
		p->diag->line = p->line;
		p->diag->column = column;
		p->diag->error = err;
		va_start(ap, fmt);
		vsnprintf(p->diag->message, sizeof(p->diag->message), fmt, ap);
		va_end(ap);
	}
	return err;
}

int dmn_scn_diag_format(const struct dmn_scn_diag *diag, int with_column, char *buf,
		    size_t size)
{
	if (!diag || (!buf && size > 0))
		return -EINVAL;
	const char *file = diag->file ? diag->file : "<scenario>";
	if (diag->line == 0)
		return snprintf(buf, size, "%s: error: %s", file,
				diag->message);
	if (with_column)
		return snprintf(buf, size, "%s:%u:%u: error: %s", file,
				(unsigned)diag->line, (unsigned)diag->column,
				diag->message);
	return snprintf(buf, size, "%s:%u: error: %s", file,
			(unsigned)diag->line, diag->message);
}

/* ---- lines: UTF-8, control characters, words ----------------------------- */

/* Characters (code points) before @pos on the current line, plus one.
 * Only valid after the line passed check_line(). */
static uint32_t column_of(const struct parser *p, const char *pos)
{
	uint32_t col = 1;
	for (const char *c = p->line_start; c < pos; c++)
		if (((unsigned char)*c & 0xc0) != 0x80)
			col++;
	return col;
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), 0 if bad.
 * Ranges per RFC 3629: no overlong forms, no surrogates, <= U+10FFFF. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1;
	else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < need + 1)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t k = 2; k <= need; k++)
		if (s[k] < 0x80 || s[k] > 0xbf)
			return 0;
	return need + 1;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Reject NUL, invalid UTF-8 and control characters on [start, end). */
static int check_line(struct parser *p, char *end)
{
	const unsigned char *s = (const unsigned char *)p->line_start;
	const unsigned char *e = (const unsigned char *)end;
	uint32_t col = 1;

	while (s < e) {
		if (*s == 0)
			return error_at(p, -EILSEQ, col,
					"NUL byte in scenario text");
		size_t n = utf8_seq(s, (size_t)(e - s));
		if (n == 0)
			return error_at(p, -EILSEQ, col,
					"invalid UTF-8 (byte 0x%02x)", *s);
		if (n == 1 && (*s < 0x20 || *s == 0x7f) && !is_space((char)*s))
			return error_at(p, -EINVAL, col,
					"control character U+%04X not allowed",
					*s);
		s += n;
		col++;
	}
	return 0;
}

/* Split [start, end) into words up to a `#`; NUL-terminate each in place.
 * Returns the number of words on the line; the first MAX_WORDS are stored.
 * *@end_col receives the column just after the last character of content,
 * where a missing argument is reported. */
static size_t split_words(struct parser *p, char *end, struct word *w,
			  uint32_t *end_col)
{
	size_t n = 0;
	char *c = p->line_start;
	char *content_end = c;

	while (c < end && *c != '#') {
		if (is_space(*c)) {
			c++;
			continue;
		}
		char *start = c;
		while (c < end && *c != '#' && !is_space(*c))
			c++;
		content_end = c;
		if (n < MAX_WORDS) {
			w[n].s = start;
			w[n].len = (size_t)(c - start);
			w[n].column = column_of(p, start);
		}
		n++;
	}
	*end_col = column_of(p, content_end);
	/* Terminate after the columns are known; this overwrites only
	 * separators, the `#`, the LF or the spare byte at the end. */
	for (size_t i = 0; i < n && i < MAX_WORDS; i++)
		w[i].s[w[i].len] = '\0';
	return n;
}

static int word_is(const struct word *w, const char *s)
{
	return !strcmp(w->s, s);
}

/* ---- arguments ------------------------------------------------------------
 */

static const char *unit_list(int freq)
{
	return freq ? "Hz, kHz, MHz or GHz" : "ns, us, ms or s";
}

/* A time or frequency word starting @skip bytes in (after `@` or `+`). */
static int parse_scaled_word(struct parser *p, const struct word *w,
			     size_t skip, int freq, const char *what,
			     uint64_t *out)
{
	char q[QUOTE_MAX + 4];
	size_t unit_off = 0;
	const char *s = w->s + skip;
	size_t len = w->len - skip;
	uint32_t col = w->column + (uint32_t)skip;
	enum dmn_scn_num_status st = dmn__scn_parse_scaled(
	    s, len, freq ? dmn__scn_freq_units : dmn__scn_time_units,
	    freq ? dmn__scn_n_freq_units : dmn__scn_n_time_units, freq, out, &unit_off);

	quote(q, w->s, w->len);
	switch (st) {
	case SCN_NUM_OK:
		return 0;
	case SCN_NUM_EMPTY:
		return error_at(p, -EINVAL, w->column,
				"expected a %s after '%s'", what, q);
	case SCN_NUM_NOT_DIGIT:
		return error_at(
		    p, -EINVAL, col, "bad %s '%s': expected digits, e.g. %s",
		    what, q, freq ? "800MHz or 1.2GHz" : "250us or 1.5ms");
	case SCN_NUM_BAD_UNIT: {
		char u[QUOTE_MAX + 4];
		uint32_t ucol = column_of(p, s + unit_off);
		quote(u, s + unit_off, len - unit_off);
		if (!freq) {
			/* `MS`, `Us`: the case is the only thing wrong. */
			const char *names[] = {"ns", "us", "ms", "s"};
			const char *hint = dmn_scn_suggest(u, names, 4);
			if (hint && strlen(hint) == strlen(u))
				return error_at(
				    p, -EINVAL, ucol,
				    "unknown time unit '%s' in '%s'; "
				    "did you mean '%s'?",
				    u, q, hint);
		}
		return error_at(
		    p, -EINVAL, ucol, "unknown %s unit '%s' in '%s' (use %s)",
		    freq ? "frequency" : "time", u, q, unit_list(freq));
	}
	case SCN_NUM_PRECISION:
		return error_at(p, -EINVAL, col,
				"%s '%s' is not a whole number of %s", what, q,
				freq ? "Hz" : "nanoseconds");
	case SCN_NUM_OVERFLOW:
		return error_at(p, -EOVERFLOW, col,
				"%s '%s' does not fit in 64 bits", what, q);
	}
	return -EINVAL;
}

/* A plain unsigned 32-bit integer (levels, counts); @max is inclusive. */
static int parse_u32_word(struct parser *p, const struct word *w,
			  const char *what, uint64_t max, uint32_t *out)
{
	static const struct dmn_scn_unit bare[] = {{"", 0}};
	char q[QUOTE_MAX + 4];
	uint64_t v;
	enum dmn_scn_num_status st =
	    dmn__scn_parse_scaled(w->s, w->len, bare, 1, 0, &v, NULL);

	/* Levels and counts are integers: `5.0` is refused, not rounded. */
	for (size_t i = 0; i < w->len && st != SCN_NUM_NOT_DIGIT; i++)
		if (w->s[i] < '0' || w->s[i] > '9')
			st = SCN_NUM_NOT_DIGIT;

	quote(q, w->s, w->len);
	if (st == SCN_NUM_OK && v <= max) {
		*out = (uint32_t)v;
		return 0;
	}
	if (st == SCN_NUM_OK || st == SCN_NUM_OVERFLOW)
		return error_at(p, -EOVERFLOW, w->column,
				"%s '%s' is too large (at most %llu)", what, q,
				(unsigned long long)max);
	return error_at(p, -EINVAL, w->column,
			"bad %s '%s': expected an unsigned integer", what, q);
}

/* A level: a number, or a name (an OPP entry's label or node name) that
 * the simulator resolves against the board. */
static int parse_level_word(struct parser *p, const struct word *w,
			    uint32_t *level, const char **name)
{
	char c = w->s[0];
	*name = NULL;
	*level = 0;
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
		*name = w->s;
		return 0;
	}
	return parse_u32_word(p, w, "level", UINT32_MAX, level);
}

static int arg_count(struct parser *p, const struct word *verb, size_t got,
		     size_t min, size_t max, const struct word *words,
		     uint32_t end_col, const char *usage)
{
	if (got < min)
		return error_at(
		    p, -EINVAL, end_col,
		    "'%s' needs %s%zu argument%s, got %zu (usage: %s)", verb->s,
		    min == max ? "" : "at least ", min, min == 1 ? "" : "s",
		    got, usage);
	if (got > max) {
		const struct word *extra = &words[max];
		char q[QUOTE_MAX + 4];
		quote(q, extra->s, extra->len);
		if (min == max)
			return error_at(p, -EINVAL, extra->column,
					"'%s' takes %zu argument%s, got %zu "
					"(unexpected '%s'; usage: %s)",
					verb->s, max, max == 1 ? "" : "s", got,
					q, usage);
		return error_at(p, -EINVAL, extra->column,
				"'%s' takes %zu to %zu arguments, got %zu "
				"(unexpected '%s'; usage: %s)",
				verb->s, min, max, got, q, usage);
	}
	return 0;
}

static int parse_errno_word(struct parser *p, const struct word *w, int *out)
{
	char q[QUOTE_MAX + 4];
	int e = dmn_errno_parse(w->s);

	if (e <= 0) {
		*out = e;
		return 0;
	}
	quote(q, w->s, w->len);
	/* The likely slips: lower case (`eio`), the leading E left out
	 * (`IO`), or both. */
	if (w->len <= QUOTE_MAX) {
		char fixed[QUOTE_MAX + 2];
		fixed[0] = 'E';
		for (size_t i = 0; i <= w->len; i++) {
			char c = w->s[i];
			fixed[i + 1] =
			    (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
		}
		const char *hint = NULL;
		if (dmn_errno_parse(fixed + 1) <= 0)
			hint = fixed + 1;
		else if (dmn_errno_parse(fixed) < 0)
			hint = fixed;
		if (hint)
			return error_at(p, -EINVAL, w->column,
					"unknown errno name '%s'; did you mean "
					"'%s'?",
					q, hint);
	}
	return error_at(
	    p, -EINVAL, w->column,
	    "unknown errno name '%s' (use OK or a name such as EIO, "
	    "ERANGE, ENODEV)",
	    q);
}

static int unknown_word(struct parser *p, const struct word *w,
			const char *what, const char *const *names, size_t n,
			const char *list)
{
	char q[QUOTE_MAX + 4];
	const char *hint = dmn_scn_suggest(w->s, names, n);
	quote(q, w->s, w->len);
	if (hint)
		return error_at(p, -EINVAL, w->column,
				"unknown %s '%s'; did you mean '%s'?", what, q,
				hint);
	return error_at(p, -EINVAL, w->column, "unknown %s '%s' (%s)", what, q,
			list);
}

/* ---- one command ----------------------------------------------------------
 */

static int parse_expect(struct parser *p, struct dmn_scn_cmd *cmd,
			const struct word *verb, const struct word *a, size_t n,
			uint32_t end_col)
{
	int err;

	if (n == 0)
		return arg_count(p, verb, n, 2, 3, a, end_col, EXPECT_USAGE);
	if (word_is(&a[0], "last-error")) {
		err = arg_count(p, verb, n, 2, 2, a, end_col,
				"expect last-error ERRNO");
		if (err)
			return err;
		cmd->target = NULL;
		cmd->expect.kind = DMN_SCN_EXPECT_LAST_ERROR;
		return parse_errno_word(p, &a[1], &cmd->expect.error);
	}
	if (n == 1)
		return arg_count(p, verb, n, 2, 3, a, end_col, EXPECT_USAGE);

	cmd->target = a[0].s;
	const struct word *kw = &a[1];
	if (word_is(kw, "on") || word_is(kw, "off")) {
		err = arg_count(p, verb, n, 2, 2, a, end_col,
				word_is(kw, "on") ? "expect DOMAIN on"
						  : "expect DOMAIN off");
		if (err)
			return err;
		cmd->expect.kind =
		    word_is(kw, "on") ? DMN_SCN_EXPECT_ON : DMN_SCN_EXPECT_OFF;
		return 0;
	}
	if (word_is(kw, "held") || word_is(kw, "released")) {
		int held = word_is(kw, "held");
		err = arg_count(p, verb, n, 2, 2, a, end_col,
				held ? "expect DOMAIN held"
				     : "expect DOMAIN released");
		if (err)
			return err;
		cmd->expect.kind =
		    held ? DMN_SCN_EXPECT_HELD : DMN_SCN_EXPECT_RELEASED;
		return 0;
	}
	if (word_is(kw, "hw") || word_is(kw, "sw")) {
		int hw = word_is(kw, "hw");
		err = arg_count(p, verb, n, 2, 2, a, end_col,
				hw ? "expect DOMAIN hw" : "expect DOMAIN sw");
		if (err)
			return err;
		cmd->expect.kind = hw ? DMN_SCN_EXPECT_HW : DMN_SCN_EXPECT_SW;
		return 0;
	}
	if (word_is(kw, "pstate")) {
		err = arg_count(p, verb, n, 3, 3, a, end_col,
				"expect DOMAIN pstate N");
		if (err)
			return err;
		cmd->expect.kind = DMN_SCN_EXPECT_PSTATE;
		return parse_level_word(p, &a[2], &cmd->expect.level,
					&cmd->expect.level_name);
	}
	if (word_is(kw, "idle")) {
		err = arg_count(p, verb, n, 3, 3, a, end_col,
				"expect DOMAIN idle NAME");
		if (err)
			return err;
		cmd->expect.kind = DMN_SCN_EXPECT_IDLE;
		cmd->expect.idle_state = a[2].s;
		return 0;
	}
	if (word_is(kw, "rate")) {
		err = arg_count(p, verb, n, 3, 3, a, end_col,
				"expect DEV rate HZ");
		if (err)
			return err;
		cmd->expect.kind = DMN_SCN_EXPECT_RATE;
		return parse_scaled_word(p, &a[2], 0, 1, "frequency",
					 &cmd->expect.hz);
	}
	/* `expect last-eror EIO`: the first word was the misspelt keyword. */
	const char *le[] = {"last-error"};
	if (n == 2 && dmn_scn_suggest(a[0].s, le, 1))
		return unknown_word(p, &a[0], "expect form", le, 1, "");
	return unknown_word(p, kw, "expect form", expect_keywords,
			    N_EXPECT_KEYWORDS,
			    "use pstate, on, off, idle, rate, held, released, "
			    "hw or sw after the name, or last-error");
}

/* `on` or `off` into *@on. */
static int parse_switch(struct parser *p, const struct word *w, int *on)
{
	static const char *const onoff[] = {"on", "off"};
	if (word_is(w, "on") || word_is(w, "off")) {
		*on = word_is(w, "on");
		return 0;
	}
	return unknown_word(p, w, "switch", onoff, 2, "use on or off");
}

static int parse_args(struct parser *p, struct dmn_scn_cmd *cmd,
		      const struct word *verb, const struct word *a, size_t n,
		      uint32_t end_col)
{
	int err;

	switch (cmd->verb) {
	case DMN_SCN_RESUME:
	case DMN_SCN_SUSPEND:
		err = arg_count(p, verb, n, 1, 1, a, end_col,
				cmd->verb == DMN_SCN_RESUME ? "resume DEV"
							: "suspend DEV");
		if (err)
			return err;
		cmd->target = a[0].s;
		return 0;
	case DMN_SCN_RATE:
		err = arg_count(p, verb, n, 2, 2, a, end_col, "rate DEV FREQ");
		if (err)
			return err;
		cmd->target = a[0].s;
		return parse_scaled_word(p, &a[1], 0, 1, "frequency",
					 &cmd->rate.hz);
	case DMN_SCN_VOTE:
		err = arg_count(p, verb, n, 2, 3, a, end_col,
				"vote DEV [DOMAIN-NAME] LEVEL");
		if (err)
			return err;
		cmd->target = a[0].s;
		cmd->vote.domain = n == 3 ? a[1].s : NULL;
		return parse_level_word(p, &a[n - 1], &cmd->vote.level,
					&cmd->vote.level_name);
	case DMN_SCN_QOS:
	case DMN_SCN_SYSTEM_QOS: {
		static const struct dmn_scn_unit us_units[] = {
		    {"", 0}, {"us", 0}, {"\xc2\xb5s", 0}, {"ms", 3}, {"s", 6}};
		/* system-qos is qos for the whole system: no DEV. */
		unsigned want = cmd->verb == DMN_SCN_QOS ? 2 : 1;
		err = arg_count(p, verb, n, want, want, a, end_col,
				want == 2 ? "qos DEV LATENCY_US|none"
					  : "system-qos LATENCY_US|none");
		if (err)
			return err;
		cmd->target = want == 2 ? a[0].s : NULL;
		const struct word *lat = &a[want - 1];
		if (word_is(lat, "none")) {
			cmd->qos.latency_us = DMN_SCN_QOS_NONE;
			return 0;
		}
		uint64_t v;
		char q[QUOTE_MAX + 4];
		enum dmn_scn_num_status st = dmn__scn_parse_scaled(
		    lat->s, lat->len, us_units, 5, 0, &v, NULL);
		quote(q, lat->s, lat->len);
		if (st == SCN_NUM_OK && v < DMN_SCN_QOS_NONE) {
			cmd->qos.latency_us = (uint32_t)v;
			return 0;
		}
		if (st == SCN_NUM_OK || st == SCN_NUM_OVERFLOW)
			return error_at(p, -EOVERFLOW, lat->column,
					"latency '%s' is too large (at most "
					"%lu us)",
					q, (unsigned long)(DMN_SCN_QOS_NONE - 1));
		return error_at(p, -EINVAL, lat->column,
				"bad latency '%s': expected whole microseconds "
				"(a bare number, or with us, ms or s) "
				"or 'none'",
				q);
	}
	case DMN_SCN_WAKEUP: {
		err = arg_count(p, verb, n, 2, 2, a, end_col,
				"wakeup DEV TIME|+TIME|none");
		if (err)
			return err;
		cmd->target = a[0].s;
		if (word_is(&a[1], "none")) {
			cmd->wakeup.at_ns = DMN_SCN_WAKEUP_NONE;
			return 0;
		}
		int rel = a[1].s[0] == '+';
		size_t skip = (rel || a[1].s[0] == '@') ? 1 : 0;
		uint64_t t;
		err = parse_scaled_word(p, &a[1], skip, 0, "time", &t);
		if (err)
			return err;
		if (rel) {
			if (t > UINT64_MAX - cmd->time_ns)
				return error_at(
				    p, -EOVERFLOW, a[1].column,
				    "wakeup time overflows 64 bits");
			t += cmd->time_ns;
		}
		/* UINT64_MAX ns means `none`: a time cannot be that late. */
		if (t == DMN_SCN_WAKEUP_NONE)
			return error_at(p, -EOVERFLOW, a[1].column,
					"wakeup time is too large (use 'none' "
					"to clear it)");
		cmd->wakeup.at_ns = t;
		return 0;
	}
	case DMN_SCN_FAIL: {
		err = arg_count(p, verb, n, 2, 3, a, end_col,
				"fail DOMAIN pstate|on|off|hwmode [COUNT]");
		if (err)
			return err;
		cmd->target = a[0].s;
		size_t op;
		for (op = 0; op < N_FAIL_OPS; op++)
			if (word_is(&a[1], fail_op_names[op]))
				break;
		if (op == N_FAIL_OPS)
			return unknown_word(p, &a[1], "fail op", fail_op_names,
					    N_FAIL_OPS,
					    "use pstate, on, off or hwmode");
		cmd->fail.op = (enum dmn_scn_fail_op)op;
		cmd->fail.count = 1;
		if (n == 3)
			return parse_u32_word(p, &a[2], "count", UINT32_MAX,
					      &cmd->fail.count);
		return 0;
	}
	case DMN_SCN_EXPECT:
		return parse_expect(p, cmd, verb, a, n, end_col);
	case DMN_SCN_BOOT_ON: {
		/* The provider's choice, last: a level cannot be called so
		 * (a level name is a label or an OPP node name). */
		/* @n counts every word, @a holds those split_words kept
		 * (MAX_WORDS, less the verb and a time): a longer line is
		 * refused by arg_count without reading its last word. */
		unsigned flags = 0;
		int last_kept = n >= 2 && n <= MAX_WORDS - 2;
		if (last_kept && word_is(&a[n - 1], "no-stay-on"))
			flags = DMN_SCN_BOOT_NO_STAY_ON;
		else if (last_kept && word_is(&a[n - 1], "no-sync-state"))
			flags = DMN_SCN_BOOT_NO_SYNC_STATE;
		err = arg_count(p, verb, flags ? n - 1 : n, 1, 2, a, end_col,
				"boot-on DOMAIN [LEVEL] "
				"[no-stay-on|no-sync-state]");
		if (err)
			return err;
		/* Boot state is what the OS finds: it comes before the
		 * first thing the OS does (docs/lifecycle.md, Boot holds). */
		if (cmd->time_ns != 0 || p->prev_nonboot)
			return error_at(p, -EINVAL, verb->column,
					"'boot-on' must come at time 0, before "
					"any other command");
		cmd->target = a[0].s;
		cmd->boot.flags = flags;
		if (n == (flags ? 2u : 1u))
			return 0;
		/* Only a hold keeps a level. */
		if (flags == DMN_SCN_BOOT_NO_STAY_ON)
			return error_at(p, -EINVAL, a[1].column,
					"'no-stay-on' takes no level: nothing "
					"holds the domain, so no boot level "
					"counts (drop '%s', or the option)",
					a[1].s);
		return parse_level_word(p, &a[1], &cmd->boot.level,
					&cmd->boot.level_name);
	}
	case DMN_SCN_SYNC_STATE:
		err = arg_count(p, verb, n, 1, 1, a, end_col,
				"sync-state DOMAIN|PROVIDER");
		if (err)
			return err;
		cmd->target = a[0].s;
		return 0;
	case DMN_SCN_PROBE:
		err = arg_count(p, verb, n, 1, 1, a, end_col, "probe DEV|all");
		if (err)
			return err;
		cmd->probe.all = word_is(&a[0], "all");
		cmd->target = cmd->probe.all ? NULL : a[0].s;
		return 0;
	case DMN_SCN_SYSTEM_SUSPEND:
	case DMN_SCN_SYSTEM_RESUME:
		return arg_count(p, verb, n, 0, 0, a, end_col,
				 cmd->verb == DMN_SCN_SYSTEM_SUSPEND
				     ? "system-suspend"
				     : "system-resume");
	case DMN_SCN_WAKEUP_ENABLE:
	case DMN_SCN_ACTIVE_WAKEUP: {
		int dev = cmd->verb == DMN_SCN_WAKEUP_ENABLE;
		err = arg_count(p, verb, n, dev ? 2 : 1, 2, a, end_col,
				dev ? "wakeup-enable DEV on|off"
				    : "active-wakeup DOMAIN [on|off]");
		if (err)
			return err;
		cmd->target = a[0].s;
		cmd->toggle.on = 1;
		if (n == 1)
			return 0;
		return parse_switch(p, &a[1], &cmd->toggle.on);
	}
	case DMN_SCN_HWMODE:
		err = arg_count(p, verb, n, 2, 3, a, end_col,
				"hwmode DEV [DOMAIN-NAME] on|off");
		if (err)
			return err;
		cmd->target = a[0].s;
		cmd->hwmode.domain = n == 3 ? a[1].s : NULL;
		return parse_switch(p, &a[n - 1], &cmd->hwmode.on);
	case DMN_SCN_ALWAYS_ON:
		err = arg_count(p, verb, n, 1, 2, a, end_col,
				"always-on DEV on|off, or always-on DOMAIN");
		if (err)
			return err;
		cmd->target = a[0].s;
		if (n == 2)
			return parse_switch(p, &a[1], &cmd->toggle.on);
		/* The domain form is a create flag: like boot-on, it is
		 * what the OS finds (docs/lifecycle.md, Always-on). */
		if (cmd->time_ns != 0 || p->prev_nonboot)
			return error_at(p, -EINVAL, verb->column,
					"'always-on DOMAIN' must come at time "
					"0, before any other command (a device "
					"takes on or off: always-on DEV on|off)");
		cmd->toggle.on = 1;
		cmd->toggle.domain = 1;
		return 0;
	case DMN_SCN_EXPLAIN:
		err = arg_count(p, verb, n, 1, 1, a, end_col,
				"explain DOMAIN");
		if (err)
			return err;
		cmd->target = a[0].s;
		return 0;
	}
	return -EINVAL;
}

static int push_cmd(struct parser *p, struct dmn_scn_cmd **slot)
{
	if (p->count == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		if (cap > SIZE_MAX / sizeof(struct dmn_scn_cmd))
			return -ENOMEM;
		struct dmn_scn_cmd *grown =
		    p->alloc.alloc(p->alloc.user, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		if (p->count)
			memcpy(grown, p->cmds, p->count * sizeof(*grown));
		if (p->cmds)
			p->alloc.free(p->alloc.user, p->cmds);
		p->cmds = grown;
		p->cap = cap;
	}
	*slot = &p->cmds[p->count];
	memset(*slot, 0, sizeof(**slot));
	return 0;
}

static int parse_line(struct parser *p, char *end)
{
	struct word w[MAX_WORDS];
	uint32_t end_col;
	int err = check_line(p, end);
	if (err)
		return err;
	size_t n = split_words(p, end, w, &end_col);
	if (n == 0)
		return 0;

	size_t v = 0;
	uint64_t time = p->prev_time;
	if (w[0].s[0] == '@' || w[0].s[0] == '+') {
		uint64_t t;
		err = parse_scaled_word(p, &w[0], 1, 0, "time", &t);
		if (err)
			return err;
		if (w[0].s[0] == '+') {
			if (t > UINT64_MAX - p->prev_time)
				return error_at(p, -EOVERFLOW, w[0].column,
						"time '%s' overflows 64 bits "
						"when added to the previous "
						"line's time",
						w[0].s);
			time = p->prev_time + t;
		} else if (t < p->prev_time) {
			char now_s[32], prev_s[32];
			dmn_scn_format_time(t, now_s, sizeof(now_s));
			dmn_scn_format_time(p->prev_time, prev_s, sizeof(prev_s));
			return error_at(p, -EINVAL, w[0].column,
					"time goes backwards: @%s is before "
					"the previous line's time %s",
					now_s, prev_s);
		} else
			time = t;
		v = 1;
		if (n == 1)
			return error_at(p, -EINVAL, end_col,
					"expected a command after the time");
	}

	const struct word *verb = &w[v];
	size_t k;
	for (k = 0; k < DMN_SCN_VERB_COUNT; k++)
		if (word_is(verb, verb_names[k]))
			break;
	if (k == DMN_SCN_VERB_COUNT) {
		if (verb->s[0] == '@' || verb->s[0] == '+')
			return error_at(p, -EINVAL, verb->column,
					"a time must be the first word of the "
					"line");
		return unknown_word(p, verb, "verb", verb_names, DMN_SCN_VERB_COUNT,
				    "verbs: resume, suspend, rate, vote, qos, "
				    "wakeup, fail, expect, boot-on, probe, explain, "
				    "system-suspend, system-resume, "
				    "wakeup-enable, active-wakeup, hwmode, "
				    "always-on, sync-state, system-qos");
	}

	struct dmn_scn_cmd *cmd;
	err = push_cmd(p, &cmd);
	if (err) {
		p->line = 0;
		return error_at(p, err, 0, "out of memory");
	}
	cmd->time_ns = time;
	cmd->line = p->line;
	cmd->column = verb->column;
	cmd->verb = (enum dmn_scn_verb)k;
	err = parse_args(p, cmd, verb, &w[v + 1], n - v - 1, end_col);
	if (err)
		return err;
	p->count++;
	p->prev_time = time;
	if (cmd->verb != DMN_SCN_BOOT_ON &&
	    !(cmd->verb == DMN_SCN_ALWAYS_ON && cmd->toggle.domain))
		p->prev_nonboot = 1;
	return 0;
}

/* ---- entry points ---------------------------------------------------------
 */

int dmn_scn_parse(const char *text, size_t len, const char *filename,
	      const struct dmn_alloc_ops *alloc, struct dmn_scn_script **out,
	      struct dmn_scn_diag *diag)
{
	struct parser p;
	int err = 0;

	memset(&p, 0, sizeof(p));
	p.diag = diag;
	p.filename = filename;
	if (out)
		*out = NULL;
	if (!out || (!text && len > 0))
		return error_at(&p, -EINVAL, 0,
				"invalid arguments to dmn_scn_parse");
	p.alloc = dmn__alloc_ops_or_default(alloc);

	const char *name = filename ? filename : "<scenario>";
	size_t name_len = strlen(name);
	/* text + spare NUL + filename + NUL */
	if (len > SIZE_MAX - name_len - 2)
		return error_at(&p, -ENOMEM, 0, "out of memory");
	char *buf = p.alloc.alloc(p.alloc.user, len + name_len + 2);
	struct dmn_scn_script *script =
	    p.alloc.alloc(p.alloc.user, sizeof(*script));
	if (!buf || !script) {
		err = error_at(&p, -ENOMEM, 0, "out of memory");
		goto fail;
	}
	if (len)
		memcpy(buf, text, len);
	buf[len] = '\0';
	memcpy(buf + len + 1, name, name_len + 1);

	char *c = buf;
	char *end = buf + len;
	if (len >= 3 && !memcmp(c, "\xef\xbb\xbf", 3))
		c += 3;
	while (c <= end) {
		if (p.line == UINT32_MAX - 1) {
			p.line = 0;
			err = error_at(&p, -E2BIG, 0,
				       "scenario has too many lines");
			goto fail;
		}
		p.line++;
		p.line_start = c;
		char *nl = memchr(c, '\n', (size_t)(end - c));
		char *line_end = nl ? nl : end;
		err = parse_line(&p, line_end);
		if (err)
			goto fail;
		if (!nl)
			break;
		c = nl + 1;
	}

	script->filename = buf + len + 1;
	script->cmds = p.cmds;
	script->count = p.count;
	script->end_ns = p.count ? p.cmds[p.count - 1].time_ns : 0;
	script->priv_alloc = p.alloc;
	script->priv_text = buf;
	script->priv_cmds = p.cmds;
	*out = script;
	return 0;

fail:
	if (p.cmds)
		p.alloc.free(p.alloc.user, p.cmds);
	if (buf)
		p.alloc.free(p.alloc.user, buf);
	if (script)
		p.alloc.free(p.alloc.user, script);
	return err;
}

void dmn_scn_free(struct dmn_scn_script *script)
{
	if (!script)
		return;
	struct dmn_alloc_ops a = script->priv_alloc;
	if (script->priv_cmds)
		a.free(a.user, script->priv_cmds);
	if (script->priv_text)
		a.free(a.user, script->priv_text);
	a.free(a.user, script);
}
