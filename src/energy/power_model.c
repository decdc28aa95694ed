/* SPDX-License-Identifier: MIT */
/*
 * The power model file: one statement a line, `#` starts a comment.
 *
 *   domain NAME on POWER            domain NAME pstate LEVEL POWER
 *   domain NAME idle [STATE] POWER  domain NAME off POWER
 *   device NAME active POWER        device NAME opp ENTRY POWER
 *   device NAME rate FREQ POWER     device NAME suspended POWER
 *   device NAME opp ENTRY POWER at DOMAIN LEVEL   (also rate FREQ ...)
 *
 * This file checks the words and the numbers; whether a name, level, idle
 * state or entry exists is the board's question (the simulator's binding,
 * src/sim/engine_energy.c). docs/energy.md is the reference.
 */
#include <domino/energy.h>

#include "../core/debug.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 8

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int fail(struct dmn_energy_diag *diag, const char *file, unsigned line,
		const char *fmt, ...)
{
	if (diag) {
		va_list ap;
		diag->file = file;
		diag->line = line;
		va_start(ap, fmt);
		vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const struct {
	const char *name;
	unsigned exp10;
} units[] = {
    {"", 0}, {"uW", 0}, {"\xc2\xb5W", 0}, /* µW, MICRO SIGN */
    {"\xce\xbcW", 0},			   /* μW, GREEK SMALL LETTER MU */
    {"mW", 3}, {"W", 6},
};

int dmn_power_parse(const char *s, size_t len, uint64_t *uw)
{
	size_t i = 0;
	uint64_t whole = 0;
	int over = 0;
	if (!s || !uw || !len || !is_digit(s[0]))
		return -EINVAL;
	for (; i < len && is_digit(s[i]); i++) {
		if (whole > (UINT64_MAX - 9) / 10)
			over = 1;
		else
			whole = whole * 10 + (uint64_t)(s[i] - '0');
	}
	const char *frac = NULL;
	size_t n_frac = 0;
	if (i < len && s[i] == '.') {
		frac = s + ++i;
		for (; i < len && is_digit(s[i]); i++)
			n_frac++;
		if (!n_frac)
			return -EINVAL;
	}
	int unit = -1;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		if (strlen(units[u].name) == len - i &&
		    !memcmp(units[u].name, s + i, len - i))
			unit = (int)u;
	if (unit < 0)
		return -EINVAL;
	while (n_frac && frac[n_frac - 1] == '0')
		n_frac--;
	unsigned exp10 = units[unit].exp10;
	if (n_frac > exp10)
		return -EINVAL;
	if (over)
		return -EOVERFLOW;
	uint64_t v = whole;
	for (unsigned k = 0; k < exp10; k++) {
		if (v > DMN_ENERGY_MAX_UW)
			return -EOVERFLOW;
		v *= 10;
	}
	uint64_t f = 0;
	for (size_t k = 0; k < exp10; k++)
		f = f * 10 + (k < n_frac ? (uint64_t)(frac[k] - '0') : 0);
	v += f;
	if (v > DMN_ENERGY_MAX_UW)
		return -EOVERFLOW;
	DMN_ASSERT(f < 1000000 && "at most six fraction digits (W)");
	*uw = v;
	return 0;
}

/* Why dmn_power_parse refused @w, in words. */
static int bad_power(struct dmn_energy_diag *diag, const char *file, unsigned line,
		     const char *w)
{
	size_t len = strlen(w);
	uint64_t v;
	int err = dmn_power_parse(w, len, &v);
	if (err == -EOVERFLOW)
		return fail(diag, file, line,
			    "power '%s' is above the largest a model takes, 1000000 W",
			    w);
	if (w[0] == '-')
		return fail(diag, file, line, "power '%s' is negative", w);
	size_t i = 0;
	while (i < len && (is_digit(w[i]) || w[i] == '.'))
		i++;
	if (!i || !is_digit(w[0]))
		return fail(diag, file, line,
			    "power '%s' is not a number (e.g. 250uW, 1.5mW, 2W)", w);
	const char *dot = memchr(w, '.', i);
	int unit_ok = 0;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		unit_ok |= !strcmp(units[u].name, w + i);
	if (!unit_ok)
		return fail(diag, file, line,
			    "power '%s': unknown unit '%s' (uW, mW or W; none is uW)",
			    w, w + i);
	if (dot && (dot + 1 == w + i || memchr(dot + 1, '.', (size_t)(w + i - dot - 1))))
		return fail(diag, file, line, "power '%s' is not a number", w);
	return fail(diag, file, line, "power '%s' is finer than 1 uW", w);
}

static const char *const domain_states[] = {"on", "pstate", "idle", "off"};
static const enum dmn_pm_state domain_kinds[] = {DMN_PM_ON, DMN_PM_PSTATE,
						 DMN_PM_IDLE, DMN_PM_OFF};
static const char *const device_states[] = {"active", "opp", "rate", "suspended"};
static const enum dmn_pm_state device_kinds[] = {DMN_PM_ACTIVE, DMN_PM_OPP,
						 DMN_PM_RATE, DMN_PM_SUSPENDED};

/* The words the state takes between it and the power: 0, 1, or (idle)
 * either. */
static int takes_arg(enum dmn_pm_state s)
{
	return s == DMN_PM_PSTATE || s == DMN_PM_OPP || s == DMN_PM_RATE;
}

static int parse_line(char **w, unsigned n, unsigned line, const char *file,
		      struct dmn_pm_line *out, struct dmn_energy_diag *diag)
{
	DMN_ASSERT(n >= 1 && n <= MAX_WORDS + 1 && "the caller splits at most MAX_WORDS + 1 words");
	int device = !strcmp(w[0], "device");
	if (!device && strcmp(w[0], "domain"))
		return fail(diag, file, line, "expected 'domain' or 'device', got '%s'",
			    w[0]);
	const char *const *names = device ? device_states : domain_states;
	const enum dmn_pm_state *kinds = device ? device_kinds : domain_kinds;
	const char *what = device ? "device" : "domain";
	if (n < 2)
		return fail(diag, file, line, "%s: expected a name", what);
	if (n < 3)
		return fail(diag, file, line, "%s %s: expected %s", what, w[1],
			    device ? "active, opp, rate or suspended"
				   : "on, pstate, idle or off");
	int k = -1;
	for (int i = 0; i < 4; i++)
		if (!strcmp(w[2], names[i]))
			k = i;
	if (k < 0)
		return fail(diag, file, line, "%s %s: expected %s, got '%s'", what, w[1],
			    device ? "active, opp, rate or suspended"
				   : "on, pstate, idle or off",
			    w[2]);
	enum dmn_pm_state st = kinds[k];
	unsigned args = takes_arg(st) ? 1 : st == DMN_PM_IDLE && n >= 5 ? 1 : 0;
	static const char *const arg_name[] = {
	    [DMN_PM_PSTATE] = "LEVEL", [DMN_PM_IDLE] = "STATE",
	    [DMN_PM_OPP] = "ENTRY", [DMN_PM_RATE] = "FREQ"};
	if (n < 4 + args)
		return fail(diag, file, line, "%s %s %s: expected %s%sPOWER", what, w[1],
			    w[2], args ? arg_name[st] : "", args ? " " : "");
	/* `at DOMAIN LEVEL`: an entry's power while a domain sits at a level */
	int at = (st == DMN_PM_OPP || st == DMN_PM_RATE) && n > 5 && !strcmp(w[5], "at");
	if (at && n < 8)
		return fail(diag, file, line, "%s %s %s %s %s at: expected DOMAIN LEVEL", what,
			    w[1], w[2], w[3], w[4]);
	if (n > 4 + args + 3 * at)
		return fail(diag, file, line, "unexpected '%s' after %s '%s'%s",
			    w[4 + args + 3 * at], at ? "the level" : "the power",
			    w[3 + args + 3 * at],
			    (st == DMN_PM_OPP || st == DMN_PM_RATE) && !at
				? " (an entry's power at a domain's level: ... POWER at DOMAIN LEVEL)"
				: "");
	if (!strcmp(w[1], "*") && args)
		return fail(diag, file, line,
			    "'*' stands for every %s: %s %s takes no %s (name the %s)",
			    what, w[2], w[3], arg_name[st], what);
	const char *pw = w[3 + args];
	if (dmn_power_parse(pw, strlen(pw), &out->uw))
		return bad_power(diag, file, line, pw);
	out->line = line;
	out->device = device;
	out->name = w[1];
	out->state = st;
	out->arg = args ? w[3] : NULL;
	out->at_domain = at ? w[6] : NULL;
	out->at_level = at ? w[7] : NULL;
	return 0;
}

void dmn_power_model_free(struct dmn_power_model *pm)
{
	if (!pm)
		return;
	free(pm->lines);
	free(pm->text);
	free(pm);
}

int dmn_power_model_parse(const char *text, size_t len, const char *file,
			  struct dmn_power_model **out, struct dmn_energy_diag *diag)
{
	if (!out || (!text && len))
		return -EINVAL;
	*out = NULL;
	if (!file)
		file = "power model";
	if (len && memchr(text, 0, len)) {
		const char *nul = memchr(text, 0, len);
		unsigned line = 1;
		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		return fail(diag, file, line, "NUL byte: a power model is text");
	}
	struct dmn_power_model *pm = calloc(1, sizeof(*pm));
	if (!pm)
		return -ENOMEM;
	pm->file = file;
	pm->text = malloc(len + 1);
	if (!pm->text) {
		free(pm);
		return -ENOMEM;
	}
	if (len)
		memcpy(pm->text, text, len);
	pm->text[len] = 0;
	size_t cap = 0;
	unsigned line = 0;
	char *at = pm->text, *end = pm->text + len;
	while (at < end || (at == end && !line)) {
		line++;
		char *eol = memchr(at, '\n', (size_t)(end - at));
		if (!eol)
			eol = end;
		*eol = 0;
		char *w[MAX_WORDS + 1];
		unsigned n = 0;
		for (char *c = at; *c;) {
			while (is_space(*c))
				c++;
			if (!*c || *c == '#')
				break;
			char *start = c;
			while (*c && !is_space(*c))
				c++;
			if (n <= MAX_WORDS)
				w[n++] = start;
			if (*c)
				*c++ = 0;
		}
		at = eol + 1;
		if (!n)
			continue;
		if (pm->n_lines == cap) {
			size_t bigger = cap ? cap * 2 : 32;
			struct dmn_pm_line *l = realloc(pm->lines, bigger * sizeof(*l));
			if (!l) {
				dmn_power_model_free(pm);
				return -ENOMEM;
			}
			pm->lines = l;
			cap = bigger;
		}
		int err = parse_line(w, n, line, file, &pm->lines[pm->n_lines], diag);
		if (err) {
			dmn_power_model_free(pm);
			return err;
		}
		pm->n_lines++;
	}
	*out = pm;
	return 0;
}

int dmn_energy_diag_format(const struct dmn_energy_diag *d, char *buf, size_t size)
{
	if (!d)
		return snprintf(buf, size, "error");
	if (d->line)
		return snprintf(buf, size, "%s:%u: error: %s", d->file ? d->file : "?",
				d->line, d->message);
	return snprintf(buf, size, "%s: error: %s", d->file ? d->file : "?",
			d->message);
}
