/* SPDX-License-Identifier: MIT */
/*
 * domino compare A.json B.json [--json] [--all]
 *
 * Two `simulate --json` runs with energy (--energy or --power-model), side
 * by side per domain and device: energy, average power, time on (active),
 * time in each state (pstate, idle state, OPP entry, ...), and B - A with
 * its sign. Energies are recomputed exactly from each state's time_ns and
 * power_uw (integers in the JSON: time x power is the state's energy in
 * fJ, docs/energy.md), so the differences are exact, not rounded doubles.
 */
#include "cli.h"

#include <domino/energy.h>
#include <domino/scenario.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifdef DMN_HAVE_JANSSON
#include <jansson.h>
#endif

static const char compare_help[] =
	"usage: domino compare A.json B.json [--json] [--all]\n"
	"\n"
	"Compare two runs of one scenario under different choices (a board\n"
	"overlay, idle states, --supported-hw, --follow, a power model): each is\n"
	"the output of 'domino simulate ... --json' with --energy or\n"
	"--power-model. Prints the total and, per domain and device, the energy,\n"
	"average power, time on (active) and the time in each state (pstate,\n"
	"idle state, OPP entry, suspended), with B - A and its sign; a domain or\n"
	"device in one run only is listed as such (docs/energy.md).\n"
	"\n"
	"  -j, --json           the comparison as one JSON object\n"
	"  -a, --all            list parts that are the same in both runs too\n"
	"\n"
	"exit status: 0 ok, 2 an unreadable file or a run without energy\n";

#ifndef DMN_HAVE_JANSSON
static int compare(const struct cli_options *opt)
{
	(void)opt;
	fputs("domino compare: error: this domino was built without jansson\n", stderr);
	return EXIT_INPUT;
}
#else

/* One state of a part in one run. */
struct cmp_state {
	char label[160];
	uint64_t time_ns;
	uint64_t power_uw;
	int known;
};

/* One domain or device in one run. */
struct cmp_part {
	const char *name;
	int device;
	struct dmn_energy energy; /* recomputed: sum of time x power */
	uint64_t time_on_ns, unknown_ns;
	struct cmp_state *states;
	size_t n_states;
};

struct cmp_run {
	const char *file;
	json_t *root;
	const char *board, *power_model;
	uint64_t span;
	struct cmp_part *parts;
	size_t n_parts;
	struct dmn_energy total;
	int lower_bound;
};

static uint64_t u64_of(json_t *v)
{
	json_int_t i = json_integer_value(v);
	return i > 0 ? (uint64_t)i : 0;
}

/* "on 128 (rpmhpd_opp_svs)", "idle retention", "opp-300000000", as
 * simulate's text names them; also the key that pairs A's with B's. */
static void state_label(json_t *st, char *buf, size_t size)
{
	const char *state = json_string_value(json_object_get(st, "state"));
	const char *name = json_string_value(json_object_get(st, "name"));
	json_t *level = json_object_get(st, "level");
	if (!state)
		state = "?";
	if (!strcmp(state, "on") && json_is_integer(level))
		snprintf(buf, size, "on %" PRIu64 "%s%.100s%s", u64_of(level),
			 name ? " (" : "", name ? name : "", name ? ")" : "");
	else if (!strcmp(state, "opp") || !strcmp(state, "idle"))
		snprintf(buf, size, "%s%s%.100s", !strcmp(state, "idle") ? "idle" : "",
			 !strcmp(state, "idle") ? " " : "", name ? name : "?");
	else
		snprintf(buf, size, "%s", state);
	json_t *at = json_object_get(st, "at");
	const char *at_domain = json_string_value(json_object_get(at, "domain"));
	size_t n = strlen(buf);
	if (at_domain && n < size)
		snprintf(buf + n, size - n, " at %.40s %" PRIu64, at_domain,
			 u64_of(json_object_get(at, "level")));
}

static int read_part(json_t *p, int device, struct cmp_part *out)
{
	memset(out, 0, sizeof(*out));
	out->name = json_string_value(json_object_get(p, "name"));
	out->device = device;
	json_t *states = json_object_get(p, "states");
	if (!out->name || !json_is_array(states))
		return -EINVAL;
	out->n_states = json_array_size(states);
	out->states = calloc(out->n_states ? out->n_states : 1, sizeof(*out->states));
	if (!out->states)
		return -ENOMEM;
	size_t k;
	json_t *st;
	json_array_foreach(states, k, st) {
		struct cmp_state *s = &out->states[k];
		json_t *t = json_object_get(st, "time_ns"), *pw = json_object_get(st, "power_uw");
		if (!json_is_integer(t) || !(json_is_integer(pw) || json_is_null(pw)))
			return -EINVAL;
		state_label(st, s->label, sizeof(s->label));
		s->time_ns = u64_of(t);
		s->known = json_is_integer(pw);
		s->power_uw = u64_of(pw);
		if (s->known)
			dmn_energy_add(&out->energy, dmn_energy_of(s->time_ns, s->power_uw));
		else
			out->unknown_ns += s->time_ns;
	}
	out->time_on_ns = u64_of(json_object_get(p, device ? "time_active_ns" : "time_on_ns"));
	return 0;
}

static int read_run(const char *file, struct cmp_run *r)
{
	memset(r, 0, sizeof(*r));
	r->file = file;
	char *text;
	size_t len;
	int rc = cli_read_file(file, 0, &text, &len);
	if (rc)
		return rc;
	json_error_t err;
	r->root = json_loadb(text, len, 0, &err);
	free(text);
	if (!r->root) {
		cli_path_msg(file, ":%d: error: not JSON: %s\n", err.line, err.text);
		return EXIT_INPUT;
	}
	json_t *e = json_object_get(r->root, "energy");
	json_t *total = json_object_get(e, "total");
	if (!json_is_object(e) || !json_is_object(total)) {
		cli_path_msg(file, ": error: no energy of a run: give the output of 'domino "
				   "simulate ... --json' with --energy or --power-model\n");
		return EXIT_INPUT;
	}
	r->board = json_string_value(json_object_get(r->root, "board"));
	r->power_model = json_string_value(json_object_get(e, "power_model"));
	uint64_t start = u64_of(json_object_get(e, "start_ns"));
	uint64_t end = u64_of(json_object_get(e, "end_ns"));
	r->span = end > start ? end - start : 0;
	r->lower_bound = json_is_true(json_object_get(total, "lower_bound"));
	json_t *doms = json_object_get(e, "domains"), *devs = json_object_get(e, "devices");
	r->n_parts = json_array_size(doms) + json_array_size(devs);
	r->parts = calloc(r->n_parts ? r->n_parts : 1, sizeof(*r->parts));
	if (!r->parts) {
		cli_path_msg(file, ": error: out of memory\n");
		return EXIT_INPUT;
	}
	size_t n = 0, k;
	json_t *p;
	for (int device = 0; device < 2; device++)
		json_array_foreach(device ? devs : doms, k, p) {
			int err2 = read_part(p, device, &r->parts[n]);
			n++;
			if (err2) {
				cli_path_msg(file, ": error: energy.%s[%zu]: %s\n",
					     device ? "devices" : "domains", k,
					     err2 == -ENOMEM ? "out of memory"
							     : "expected name and states with "
							       "time_ns and power_uw");
				r->n_parts = n;
				return EXIT_INPUT;
			}
			dmn_energy_add(&r->total, r->parts[n - 1].energy);
		}
	return EXIT_OK;
}

static void free_run(struct cmp_run *r)
{
	for (size_t i = 0; i < r->n_parts; i++)
		free(r->parts[i].states);
	free(r->parts);
	json_decref(r->root);
}

static const struct cmp_part *find_part(const struct cmp_run *r, const struct cmp_part *p)
{
	for (size_t i = 0; i < r->n_parts; i++)
		if (r->parts[i].device == p->device && !strcmp(r->parts[i].name, p->name))
			return &r->parts[i];
	return NULL;
}

static const struct cmp_state *find_state(const struct cmp_part *p, const char *label)
{
	for (size_t i = 0; p && i < p->n_states; i++)
		if (!strcmp(p->states[i].label, label))
			return &p->states[i];
	return NULL;
}

/* "+1.806 mJ (+5.0%)", "-250 us", "0" */
static void energy_diff_text(struct dmn_energy a, struct dmn_energy b, char *buf, size_t size)
{
	int neg;
	char e[DMN_ENERGY_TEXT_LEN];
	struct dmn_energy d = dmn_energy_diff(b, a, &neg);
	if (dmn_energy_is_zero(d)) {
		snprintf(buf, size, "0");
		return;
	}
	dmn_energy_format_short(d, 1, e);
	if (dmn_energy_is_zero(a)) {
		snprintf(buf, size, "%c%s", neg ? '-' : '+', e);
		return;
	}
	/* the share for reading only: the difference itself is exact */
	double da = (double)a.hi * 18446744073709551616.0 + (double)a.lo;
	double dd = (double)d.hi * 18446744073709551616.0 + (double)d.lo;
	snprintf(buf, size, "%c%s (%c%.1f%%)", neg ? '-' : '+', e, neg ? '-' : '+',
		 100.0 * dd / da);
}

static void time_text(uint64_t ns, char *buf, size_t size)
{
	dmn_scn_format_time(ns, buf, size);
}

static void time_diff_text(uint64_t a, uint64_t b, char *buf, size_t size)
{
	char t[48];
	if (a == b) {
		snprintf(buf, size, "0");
		return;
	}
	time_text(b > a ? b - a : a - b, t, sizeof(t));
	snprintf(buf, size, "%c%s", b > a ? '+' : '-', t);
}

static void power_text(struct dmn_energy e, uint64_t span, char *buf)
{
	unsigned milli;
	uint64_t uw = dmn_energy_average_uw(e, span, &milli);
	dmn_energy_format_power(uw, milli, 1, buf);
}

static void power_diff_text(struct dmn_energy a, uint64_t sa, struct dmn_energy b,
			    uint64_t sb, char *buf, size_t size)
{
	unsigned ma, mb;
	uint64_t ua = dmn_energy_average_uw(a, sa, &ma), ub = dmn_energy_average_uw(b, sb, &mb);
	/* in thousandths of a µW: exact to the averages' own truncation */
	struct dmn_energy ta = dmn_energy_of(ua, 1000), tb = dmn_energy_of(ub, 1000);
	dmn_energy_add(&ta, (struct dmn_energy){0, ma});
	dmn_energy_add(&tb, (struct dmn_energy){0, mb});
	int neg;
	struct dmn_energy d = dmn_energy_diff(tb, ta, &neg);
	if (dmn_energy_is_zero(d)) {
		snprintf(buf, size, "0");
		return;
	}
	char p[DMN_ENERGY_TEXT_LEN];
	unsigned milli;
	uint64_t uw = dmn_energy_average_uw(d, 1000, &milli);
	snprintf(buf, size, "%c%s", neg ? '-' : '+', dmn_energy_format_power(uw, milli, 1, p));
}

static int same_part(const struct cmp_part *a, const struct cmp_part *b)
{
	if (dmn_energy_cmp(a->energy, b->energy) || a->time_on_ns != b->time_on_ns ||
	    a->n_states != b->n_states)
		return 0;
	for (size_t i = 0; i < a->n_states; i++) {
		const struct cmp_state *s = find_state(b, a->states[i].label);
		if (!s || s->time_ns != a->states[i].time_ns || s->known != a->states[i].known ||
		    s->power_uw != a->states[i].power_uw)
			return 0;
	}
	return 1;
}

#define ROW "  %-*s %16s %16s   %s\n"

/* The label column of a part's rows: its longest state label, at least
 * as wide as the fixed rows' ("average power"). */
static int label_width(const struct cmp_part *a, const struct cmp_part *b)
{
	size_t w = 28;
	for (int pass = 0; pass < 2; pass++) {
		const struct cmp_part *p = pass ? b : a;
		for (size_t i = 0; i < p->n_states; i++)
			if (strlen(p->states[i].label) + 2 > w)
				w = strlen(p->states[i].label) + 2;
	}
	return (int)(w < 100 ? w : 100);
}

static void text_part(const struct cmp_run *ra, const struct cmp_run *rb,
		      const struct cmp_part *a, const struct cmp_part *b)
{
	char x[DMN_ENERGY_TEXT_LEN], y[DMN_ENERGY_TEXT_LEN], d[96];
	int w = label_width(a, b);
	cli_printf("\n%s ", a->device ? "device" : "domain");
	cli_text(stdout, a->name);
	cli_puts("\n");
	energy_diff_text(a->energy, b->energy, d, sizeof(d));
	cli_printf(ROW, w, "energy", dmn_energy_format_short(a->energy, 1, x),
		   dmn_energy_format_short(b->energy, 1, y), d);
	power_text(a->energy, ra->span, x);
	power_text(b->energy, rb->span, y);
	power_diff_text(a->energy, ra->span, b->energy, rb->span, d, sizeof(d));
	cli_printf(ROW, w, "average power", x, y, d);
	time_text(a->time_on_ns, x, sizeof(x));
	time_text(b->time_on_ns, y, sizeof(y));
	time_diff_text(a->time_on_ns, b->time_on_ns, d, sizeof(d));
	cli_printf(ROW, w, a->device ? "time active" : "time on", x, y, d);
	/* each state either run spent time in, A's order first */
	for (int pass = 0; pass < 2; pass++) {
		const struct cmp_part *p = pass ? b : a, *o = pass ? a : b;
		for (size_t i = 0; i < p->n_states; i++) {
			const struct cmp_state *s = &p->states[i];
			const struct cmp_state *t = find_state(o, s->label);
			if (pass && t)
				continue;
			uint64_t ta = pass ? (t ? t->time_ns : 0) : s->time_ns;
			uint64_t tb = pass ? s->time_ns : (t ? t->time_ns : 0);
			if (!ta && !tb)
				continue;
			char label[200];
			snprintf(label, sizeof(label), "  %s", s->label);
			time_text(ta, x, sizeof(x));
			time_text(tb, y, sizeof(y));
			time_diff_text(ta, tb, d, sizeof(d));
			cli_printf("  ");
			cli_text(stdout, label);
			size_t n = strlen(label);
			cli_printf("%*s %16s %16s   %s\n", (int)((size_t)w > n ? (size_t)w - n : 0), "",
				   x, y, d);
		}
	}
}

static void json_str(const char *s)
{
	struct dmn_report_sink out = cli_file_sink(stdout);
	dmn_report_json_escape(&out, s);
}

/* "-1.234000000": a signed exact difference in µJ */
static void json_energy_diff(struct dmn_energy a, struct dmn_energy b)
{
	int neg;
	char e[DMN_ENERGY_TEXT_LEN];
	struct dmn_energy d = dmn_energy_diff(b, a, &neg);
	cli_printf("%s%s", neg && !dmn_energy_is_zero(d) ? "-" : "", dmn_energy_format_uj(d, e));
}

static void json_part(const struct cmp_run *ra, const struct cmp_run *rb,
		      const struct cmp_part *a, const struct cmp_part *b, int first)
{
	const struct cmp_part *p = a ? a : b;
	char x[DMN_ENERGY_TEXT_LEN];
	cli_puts(first ? "\n    {\"name\": " : ",\n    {\"name\": ");
	json_str(p->name);
	cli_printf(", \"in\": \"%s\"", a && b ? "both" : a ? "a" : "b");
	if (a)
		cli_printf(", \"a_uj\": %s", dmn_energy_format_uj(a->energy, x));
	if (b)
		cli_printf(", \"b_uj\": %s", dmn_energy_format_uj(b->energy, x));
	if (a && b) {
		cli_puts(", \"diff_uj\": ");
		json_energy_diff(a->energy, b->energy);
	}
	unsigned m;
	uint64_t uw;
	if (a) {
		uw = dmn_energy_average_uw(a->energy, ra->span, &m);
		cli_printf(", \"a_average_uw\": %" PRIu64 ".%03u", uw, m);
	}
	if (b) {
		uw = dmn_energy_average_uw(b->energy, rb->span, &m);
		cli_printf(", \"b_average_uw\": %" PRIu64 ".%03u", uw, m);
	}
	if (a)
		cli_printf(", \"a_time_on_ns\": %" PRIu64, a->time_on_ns);
	if (b)
		cli_printf(", \"b_time_on_ns\": %" PRIu64, b->time_on_ns);
	cli_puts(", \"states\": [");
	int any = 0;
	for (int pass = 0; pass < 2; pass++) {
		const struct cmp_part *q = pass ? b : a, *o = pass ? a : b;
		for (size_t i = 0; q && i < q->n_states; i++) {
			const struct cmp_state *s = &q->states[i];
			const struct cmp_state *t = find_state(o, s->label);
			if (pass && t)
				continue;
			uint64_t ta = pass ? (t ? t->time_ns : 0) : s->time_ns;
			uint64_t tb = pass ? s->time_ns : (t ? t->time_ns : 0);
			cli_puts(any ? ",\n      {\"state\": " : "\n      {\"state\": ");
			any = 1;
			json_str(s->label);
			cli_printf(", \"a_ns\": %" PRIu64 ", \"b_ns\": %" PRIu64
				   ", \"diff_ns\": %s%" PRIu64 "}",
				   ta, tb, tb < ta ? "-" : "", tb < ta ? ta - tb : tb - ta);
		}
	}
	cli_puts(any ? "\n    ]}" : "]}");
}

static int compare(const struct cli_options *opt)
{
	int rc;
	struct cmp_run a, b;
	rc = read_run(opt->positional[0], &a);
	if (!rc)
		rc = read_run(opt->positional[1], &b);
	else
		memset(&b, 0, sizeof(b));
	if (rc)
		goto out;
	if (a.board && b.board && strcmp(a.board, b.board)) {
		fputs("domino compare: warning: the runs are of different boards (", stderr);
		cli_text(stderr, a.board);
		fputs(", ", stderr);
		cli_text(stderr, b.board);
		fputs(")\n", stderr);
	}
	if (opt->json) {
		char x[DMN_ENERGY_TEXT_LEN];
		cli_puts("{\n  \"a\": ");
		json_str(a.file);
		cli_puts(", \"b\": ");
		json_str(b.file);
		cli_printf(",\n  \"total\": {\"a_uj\": %s", dmn_energy_format_uj(a.total, x));
		cli_printf(", \"b_uj\": %s, \"diff_uj\": ", dmn_energy_format_uj(b.total, x));
		json_energy_diff(a.total, b.total);
		unsigned m;
		uint64_t uw = dmn_energy_average_uw(a.total, a.span, &m);
		cli_printf(", \"a_average_uw\": %" PRIu64 ".%03u", uw, m);
		uw = dmn_energy_average_uw(b.total, b.span, &m);
		cli_printf(", \"b_average_uw\": %" PRIu64 ".%03u", uw, m);
		cli_printf(", \"a_lower_bound\": %s, \"b_lower_bound\": %s}",
			   a.lower_bound ? "true" : "false", b.lower_bound ? "true" : "false");
		for (int device = 0; device < 2; device++) {
			cli_printf(",\n  \"%s\": [", device ? "devices" : "domains");
			int first = 1;
			for (size_t i = 0; i < a.n_parts; i++)
				if (a.parts[i].device == device) {
					json_part(&a, &b, &a.parts[i], find_part(&b, &a.parts[i]),
						  first);
					first = 0;
				}
			for (size_t i = 0; i < b.n_parts; i++)
				if (b.parts[i].device == device && !find_part(&a, &b.parts[i])) {
					json_part(&a, &b, NULL, &b.parts[i], first);
					first = 0;
				}
			cli_puts(first ? "]" : "\n  ]");
		}
		cli_puts("\n}\n");
		goto out;
	}
	char x[DMN_ENERGY_TEXT_LEN], y[DMN_ENERGY_TEXT_LEN], d[96];
	for (int k = 0; k < 2; k++) {
		const struct cmp_run *r = k ? &b : &a;
		char span[48];
		time_text(r->span, span, sizeof(span));
		cli_printf("%c: ", k ? 'B' : 'A');
		cli_text(stdout, r->file);
		cli_puts(" (");
		cli_text(stdout, r->board ? r->board : "?");
		cli_printf(", %s, power model ", span);
		cli_text(stdout, r->power_model ? r->power_model : "of the device tree alone");
		cli_printf(")%s\n", r->lower_bound ? ": a lower bound (some states have no power)"
						   : "");
	}
	cli_printf("\n%-30s %16s %16s   %s\n", "", "A", "B", "B - A");
	energy_diff_text(a.total, b.total, d, sizeof(d));
	cli_printf("%-30s %16s %16s   %s\n", "total energy", dmn_energy_format_short(a.total, 1, x),
		   dmn_energy_format_short(b.total, 1, y), d);
	power_text(a.total, a.span, x);
	power_text(b.total, b.span, y);
	power_diff_text(a.total, a.span, b.total, b.span, d, sizeof(d));
	cli_printf("%-30s %16s %16s   %s\n", "average power", x, y, d);
	unsigned same = 0;
	for (int device = 0; device < 2; device++)
		for (size_t i = 0; i < a.n_parts; i++) {
			const struct cmp_part *p = &a.parts[i], *q = find_part(&b, p);
			if (p->device != device || !q)
				continue;
			if (!opt->all && same_part(p, q)) {
				same++;
				continue;
			}
			text_part(&a, &b, p, q);
		}
	for (int k = 0; k < 2; k++) {
		const struct cmp_run *r = k ? &b : &a, *o = k ? &a : &b;
		for (size_t i = 0; i < r->n_parts; i++) {
			if (find_part(o, &r->parts[i]))
				continue;
			cli_printf("\nonly in %c: %s ", k ? 'B' : 'A',
				   r->parts[i].device ? "device" : "domain");
			cli_text(stdout, r->parts[i].name);
			cli_printf(", %s\n", dmn_energy_format_short(r->parts[i].energy, 1, x));
		}
	}
	if (same)
		cli_printf("\n%u domain%s and device%s the same in both runs (--all lists them)\n",
			   same, same == 1 ? "" : "s", same == 1 ? "" : "s");
out:
	free_run(&a);
	free_run(&b);
	return rc;
}
#endif

int cmd_compare(int argc, char **argv)
{
	struct cli_options opt;
	int rc = cli_parse(argc, argv, "compare", "ja", 2, &opt);
	if (rc)
		return rc;
	if (opt.help) {
		cli_puts(compare_help);
		return EXIT_OK;
	}
	if (opt.n_positional != 2) {
		fputs("domino compare: error: give two runs: domino compare A.json B.json\n",
		      stderr);
		return EXIT_INPUT;
	}
	return compare(&opt);
}
