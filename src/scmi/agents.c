/* SPDX-License-Identifier: MIT */
/* The agents file of `domino scmi-serve` (format: docs/scmi.md). */
#include <domino/scmi.h>
#include "../core/bsearch.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A domain's name for look-ups by name: sorted by (bytes, index). */
struct name_ix {
	const char *name;
	size_t len;
	unsigned index;
};

struct parser {
	const struct dmn_scmi_board_map *map;
	char *err;
	size_t err_size;
	unsigned line;
	/* power and perf names, sorted at the first look-up by name: a scan
	 * of the board per list item was items x domains */
	struct name_ix *names[2];
};

static int fail(struct parser *p, const char *fmt, ...)
{
	if (p->err && p->err_size) {
		int n = snprintf(p->err, p->err_size, "%u: error: ", p->line);
		if (n >= 0 && (size_t)n < p->err_size) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(p->err + n, p->err_size - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return -EINVAL;
}

/* A decimal number filling the whole token, at most @max. Checked at
 * every digit: with a 32-bit unsigned long, ten digits could wrap
 * ("4294967297" read as 1). */
static int number(const char *s, size_t len, unsigned long max,
		  unsigned long *out)
{
	if (!len || len > 10)
		return -1;
	unsigned long v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v > max)
			return -1;
	}
	*out = v;
	return 0;
}

static int name_cmp(const void *x, const void *y)
{
	const struct name_ix *a = x, *b = y;
	int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);
	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

/* The first domain of kind @perf named @s (@len bytes) into *@out:
 * 1 found, 0 not, -ENOMEM. */
static bool name_before(const void *base, size_t i, const void *key)
{
	return name_cmp(&((const struct name_ix *)base)[i], key) < 0;
}

static int find_name(struct parser *p, int perf, const char *s, size_t len,
		     unsigned *out)
{
	unsigned n = perf ? p->map->n_perf : p->map->n_power;
	struct name_ix *v = p->names[perf];
	if (!v) {
		v = malloc((n ? n : 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		for (unsigned i = 0; i < n; i++) {
			const char *name = perf ? p->map->perf[i].name
						: p->map->power[i].name;
			v[i] = (struct name_ix){name, strlen(name), i};
		}
		qsort(v, n, sizeof(*v), name_cmp);
		p->names[perf] = v;
	}
	struct name_ix probe = {s, len, 0};
	size_t lo = dmn__lower_bound(n, v, &probe, name_before);
	if (lo == n || v[lo].len != len || memcmp(v[lo].name, s, len))
		return 0;
	*out = v[lo].index;
	return 1;
}

static void set_range(uint8_t *bits, unsigned long lo, unsigned long hi)
{
	for (unsigned long i = lo; i <= hi; i++)
		bits[i / 8] |= (uint8_t)(1u << (i % 8));
}

/* LIST: `all`, `none`, or items separated by commas: N, N-M, or a domain
 * name as `--list` prints it. */
static int parse_list(struct parser *p, const char *kind, const char *s,
		      size_t len, uint8_t *bits)
{
	int perf = !strcmp(kind, "perf");
	unsigned n = perf ? p->map->n_perf : p->map->n_power;
	if (len == 3 && !memcmp(s, "all", 3)) {
		if (n)
			set_range(bits, 0, n - 1);
		return 0;
	}
	if (len == 4 && !memcmp(s, "none", 4))
		return 0;
	while (len) {
		size_t item = 0;
		while (item < len && s[item] != ',')
			item++;
		unsigned long lo, hi;
		const char *dash = memchr(s, '-', item);
		unsigned at;
		int found = find_name(p, perf, s, item, &at);
		if (found < 0)
			return found;
		if (found)
			set_range(bits, at, at);
		else if (!number(s, item, 0xffff, &lo)) {
			if (lo >= n)
				return fail(
				    p, "no %s domain %lu (the board has %u)",
				    kind, lo, n);
			set_range(bits, lo, lo);
		} else if (dash &&
			   !number(s, (size_t)(dash - s), 0xffff, &lo) &&
			   !number(dash + 1, item - (size_t)(dash - s) - 1,
				   0xffff, &hi)) {
			if (lo > hi)
				return fail(p, "%s range %lu-%lu is backwards",
					    kind, lo, hi);
			if (hi >= n)
				return fail(
				    p, "no %s domain %lu (the board has %u)",
				    kind, hi, n);
			set_range(bits, lo, hi);
		} else {
			return fail(p,
				    "no %s domain '%.*s' (give a number, "
				    "N-M, all, none or a name from --list)",
				    kind, (int)item, s);
		}
		if (item == len)
			break;
		if (item + 1 == len)
			return fail(p, "%s list ends with ','", kind);
		s += item + 1;
		len -= item + 1;
	}
	return 0;
}

struct storage {
	struct dmn_scmi_agent *agents;
	char (*names)[DMN_SCMI_NAME_SIZE];
	uint8_t *bits;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* agent ID NAME power LIST perf LIST version V reads own */
#define MAX_TOKENS 11

/* Split the line into at most MAX_TOKENS tokens; returns their number, or
 * MAX_TOKENS + 1. */
static unsigned tokens(const char *s, size_t len, const char **tok,
		       size_t *tlen)
{
	unsigned n = 0;
	size_t i = 0;
	while (i < len) {
		while (i < len && is_space(s[i]))
			i++;
		if (i == len || s[i] == '#')
			break;
		if (n == MAX_TOKENS)
			return MAX_TOKENS + 1;
		tok[n] = s + i;
		while (i < len && !is_space(s[i]) && s[i] != '#')
			i++;
		tlen[n] = (size_t)(s + i - tok[n]);
		n++;
	}
	return n;
}

static int parse_line(struct parser *p, const char *s, size_t len,
		      struct storage *st, unsigned *n_agents, size_t pbytes,
		      size_t fbytes)
{
	const char *tok[MAX_TOKENS];
	size_t tl[MAX_TOKENS];
	unsigned n = tokens(s, len, tok, tl);
	if (!n)
		return 0;
	if (n > MAX_TOKENS)
		return fail(p, "too many words (agent ID NAME [power LIST] "
			       "[perf LIST] [version 2.0] [reads own])");
	if (tl[0] != 5 || memcmp(tok[0], "agent", 5))
		return fail(p,
			    "expected 'agent ID NAME [power LIST] [perf "
			    "LIST] [version 2.0] [reads own]', got '%.*s'",
			    (int)tl[0], tok[0]);
	if (n < 3)
		return fail(p, "'agent' needs an id and a name");
	unsigned long id;
	if (number(tok[1], tl[1], DMN_SCMI_MAX_AGENTS, &id) || !id)
		return fail(p, "agent id '%.*s' is not a number in 1..%u",
			    (int)tl[1], tok[1], DMN_SCMI_MAX_AGENTS);
	if (tl[2] >= DMN_SCMI_NAME_SIZE)
		return fail(p, "agent name '%.*s' is longer than %u bytes",
			    (int)tl[2], tok[2], DMN_SCMI_NAME_SIZE - 1);
	for (unsigned i = 0; i < *n_agents; i++) {
		if (st->agents[i].id == id)
			return fail(p, "agent id %lu is used twice", id);
		if (strlen(st->names[i]) == tl[2] &&
		    !memcmp(st->names[i], tok[2], tl[2]))
			return fail(p, "agent name '%.*s' is used twice",
				    (int)tl[2], tok[2]);
	}
	unsigned k = *n_agents;
	uint8_t *power = st->bits + k * (pbytes + fbytes);
	uint8_t *perf = power + pbytes;
	int seen_power = 0, seen_perf = 0, seen_version = 0, seen_reads = 0;
	uint32_t version = 0, flags = 0;
	for (unsigned i = 3; i < n; i += 2) {
		int is_power = tl[i] == 5 && !memcmp(tok[i], "power", 5);
		int is_perf = tl[i] == 4 && !memcmp(tok[i], "perf", 4);
		int is_version = tl[i] == 7 && !memcmp(tok[i], "version", 7);
		int is_reads = tl[i] == 5 && !memcmp(tok[i], "reads", 5);
		if (!is_power && !is_perf && !is_version && !is_reads)
			return fail(p,
				    "expected 'power', 'perf', 'version' or "
				    "'reads', got '%.*s'",
				    (int)tl[i], tok[i]);
		if ((is_power && seen_power) || (is_perf && seen_perf) ||
		    (is_version && seen_version) || (is_reads && seen_reads))
			return fail(p, "'%.*s' given twice", (int)tl[i],
				    tok[i]);
		if (i + 1 == n)
			return fail(p, "'%.*s' needs a %s", (int)tl[i], tok[i],
				    is_version ? "version"
				    : is_reads ? "kind (own)"
					       : "list");
		seen_power |= is_power;
		seen_perf |= is_perf;
		seen_version |= is_version;
		seen_reads |= is_reads;
		if (is_reads) {
			/* the one choice there is: POWER_STATE_GET reads the
			 * agent's own request (docs/scmi.md, Own reads) */
			if (tl[i + 1] != 3 || memcmp(tok[i + 1], "own", 3))
				return fail(p,
					    "reads '%.*s' is not a kind of read "
					    "(own)",
					    (int)tl[i + 1], tok[i + 1]);
			flags |= DMN_SCMI_AGENT_OWN_READS;
			continue;
		}
		if (is_version) {
			/* the one cap there is: every protocol at 2.0 */
			if (tl[i + 1] != 3 || memcmp(tok[i + 1], "2.0", 3))
				return fail(
				    p,
				    "version '%.*s' is not one an agent "
				    "can be capped to (2.0)",
				    (int)tl[i + 1], tok[i + 1]);
			version = DMN_SCMI_PROTOCOL_VERSION_2_0;
			continue;
		}
		int err = parse_list(p, is_power ? "power" : "perf", tok[i + 1],
				     tl[i + 1], is_power ? power : perf);
		if (err)
			return err;
	}
	memcpy(st->names[k], tok[2], tl[2]);
	st->agents[k].id = (uint32_t)id;
	st->agents[k].name = st->names[k];
	st->agents[k].power = power;
	st->agents[k].perf = perf;
	st->agents[k].version = version;
	st->agents[k].flags = flags;
	(*n_agents)++;
	return 0;
}

static int parse_text(struct parser *p, const char *text, size_t len,
		      struct dmn_scmi_agents *out)
{
	const struct dmn_scmi_board_map *map = p->map;
	/* Room for one agent a line, up to the most ids there are: a line
	 * past them repeats an id, which is an error before it is stored
	 * (one slot a line was lines x domains bytes: 16 GB for a
	 * 1,000,000-line file on 65,535 domains). */
	unsigned lines = 1;
	for (size_t i = 0; i < len && lines < DMN_SCMI_MAX_AGENTS; i++)
		lines += text[i] == '\n';
	size_t pbytes = (map->n_power + 7) / 8, fbytes = (map->n_perf + 7) / 8;
	struct storage *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->agents = calloc(lines, sizeof(*st->agents));
	st->names = calloc(lines, sizeof(*st->names));
	st->bits = calloc(lines, pbytes + fbytes + 1);
	if (!st->agents || !st->names || !st->bits) {
		out->storage = st;
		dmn_scmi_agents_free(out);
		return -ENOMEM;
	}
	out->storage = st;
	unsigned n = 0;
	size_t start = 0;
	while (start < len) {
		size_t end = start;
		while (end < len && text[end] != '\n')
			end++;
		p->line++;
		if (memchr(text + start, 0, end - start)) {
			dmn_scmi_agents_free(out);
			return fail(p, "NUL byte in the line");
		}
		int rc = parse_line(p, text + start, end - start, st, &n,
				    pbytes, fbytes);
		if (rc) {
			dmn_scmi_agents_free(out);
			return rc;
		}
		start = end + 1;
	}
	if (!n) {
		p->line = p->line ? p->line : 1;
		dmn_scmi_agents_free(out);
		return fail(p, "no agent (a line 'agent ID NAME [power LIST] "
				"[perf LIST]')");
	}
	out->agents = st->agents;
	out->n_agents = n;
	return 0;
}

int dmn_scmi_agents_parse(const char *text, size_t len,
		      const struct dmn_scmi_board_map *map, struct dmn_scmi_agents *out,
		      char *err, size_t err_size)
{
	if ((!text && len) || !map || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	struct parser p = {map, err, err_size, 0, {NULL, NULL}};
	int rc = parse_text(&p, text, len, out);
	free(p.names[0]);
	free(p.names[1]);
	return rc;
}

void dmn_scmi_agents_free(struct dmn_scmi_agents *agents)
{
	if (!agents)
		return;
	struct storage *st = agents->storage;
	if (st) {
		free(st->agents);
		free(st->names);
		free(st->bits);
		free(st);
	}
	memset(agents, 0, sizeof(*agents));
}
