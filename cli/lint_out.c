/* SPDX-License-Identifier: MIT */
/*
 * domino lint's output: findings in GCC form (editors and CI annotate
 * FILE:LINE:COL: SEVERITY: MESSAGE), JSON, or SARIF 2.1.0 (what code
 * scanning services read), and, over many boards, folded: a finding that
 * many boards share (a shared .dtsi) is one line with its boards.
 */
#include "lint_out.h"

#include <domino/context.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- keeping findings ---------------------------------------------------------- */

int lint_rule(const struct cli_options *opt, const struct dmn_dt_diag *f,
	      enum dmn_dt_severity *out)
{
	*out = f->severity;
	/* An unreadable blob is no check to turn off. */
	if (!strcmp(f->check, "dt-corrupt"))
		return 1;
	enum cli_check_rule_kind rule = CLI_CHECK_DEFAULT;
	for (unsigned i = 0; i < opt->n_check_rules; i++)
		if (!strcmp(opt->check_rules[i].check, f->check))
			rule = opt->check_rules[i].rule;
	if (rule == CLI_CHECK_OFF)
		return 0;
	if (rule == CLI_CHECK_ERROR)
		*out = DMN_DT_SEV_ERROR;
	return 1;
}

static char *put(char **p, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *at = *p;
	memcpy(at, s, n);
	*p += n;
	return at;
}

void lint_board_add(struct lint_board *b, const struct dmn_dt_diag *f)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 16;
		struct lint_finding *bigger = realloc(b->v, cap * sizeof(*bigger));
		if (!bigger) {
			b->oom = 1;
			return;
		}
		b->v = bigger;
		b->cap = cap;
	}
	size_t len = strlen(f->check) + strlen(f->node) + strlen(f->message) + 3 +
		     (f->property ? strlen(f->property) + 1 : 0);
	char *block = malloc(len), *p = block;
	if (!block) {
		b->oom = 1;
		return;
	}
	struct lint_finding *k = &b->v[b->n++];
	memset(k, 0, sizeof(*k));
	k->severity = f->severity;
	k->check = put(&p, f->check); /* first: the block's start, to free */
	k->node = put(&p, f->node);
	k->property = put(&p, f->property);
	k->message = put(&p, f->message);
	k->error = f->error;
	if (f->severity == DMN_DT_SEV_ERROR)
		b->counts.errors++;
	else if (f->severity == DMN_DT_SEV_WARNING)
		b->counts.warnings++;
	else
		b->counts.notes++;
}

static char *dup_loc(struct cli_loc *l)
{
	if (l->file && !(l->file = strdup(l->file)))
		return NULL;
	return (char *)l->file;
}

void lint_board_place(struct lint_board *b, struct cli_srcmap *map)
{
	for (size_t i = 0; i < b->n; i++) {
		struct lint_finding *f = &b->v[i];
		if (cli_srcmap_find(map, f->node, f->property, &f->at, &f->first))
			continue;
		if (!dup_loc(&f->at) || (f->first.file && !dup_loc(&f->first))) {
			free((char *)f->at.file);
			memset(&f->at, 0, sizeof(f->at));
			memset(&f->first, 0, sizeof(f->first));
		}
	}
}

void lint_board_free_findings(struct lint_board *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free((char *)b->v[i].check);
		free((char *)b->v[i].at.file);
		free((char *)b->v[i].first.file);
	}
	free(b->v);
	b->v = NULL;
	b->n = b->cap = 0;
	memset(&b->counts, 0, sizeof(b->counts));
}

void lint_board_free(struct lint_board *b)
{
	lint_board_free_findings(b);
	free(b->failed);
	b->failed = NULL;
}

/* ---- GCC form ---------------------------------------------------------------------- */

static const char *const colors[] = {"\033[1;31m", "\033[1;33m", "\033[1;36m"};

static void print_sev(enum dmn_dt_severity sev, int color)
{
	const char *name = dmn_dt_severity_name(sev);
	if (color)
		cli_printf("%s%s\033[0m: ", colors[sev], name);
	else
		cli_printf("%s: ", name);
}

static void print_loc(const struct cli_loc *l)
{
	cli_text(stdout, l->file);
	cli_printf(":%u:%u: ", l->line, l->col);
}

void lint_print_gcc(const struct lint_finding *f, const char *file, int color)
{
	/* Names, properties and messages come from the board: escaped, so a
	 * name holding ESC[2J or CR cannot clear the screen or fake a line
	 * such as "0 errors". */
	if (f->at.file) {
		print_loc(&f->at);
	} else {
		cli_text(stdout, file);
		cli_puts(": ");
		cli_text(stdout, f->node);
		cli_puts(": ");
		if (f->property) {
			cli_text(stdout, f->property);
			cli_puts(": ");
		}
	}
	print_sev(f->severity, color);
	cli_text(stdout, f->message);
	cli_puts(" [");
	cli_text(stdout, f->check);
	cli_puts("]\n");
	if (f->first.file) {
		print_loc(&f->first);
		print_sev(DMN_DT_SEV_NOTE, color);
		cli_text(stdout, f->property);
		cli_puts(" was first set here\n");
	}
}

/* ---- JSON ---------------------------------------------------------------------------- */

static void json_str(const char *s)
{
	struct dmn_report_sink out = cli_file_sink(stdout);
	if (s)
		dmn_report_json_escape(&out, s);
	else
		cli_puts("null");
}

static void json_loc_members(const struct cli_loc *l)
{
	cli_puts("\"file\": ");
	json_str(l->file);
	cli_printf(", \"line\": %u, \"column\": %u", l->line, l->col);
}

void lint_json_finding(const struct lint_finding *f)
{
	cli_puts("\"severity\": ");
	json_str(dmn_dt_severity_name(f->severity));
	cli_puts(", \"check\": ");
	json_str(f->check);
	cli_puts(", \"node\": ");
	json_str(f->node);
	cli_puts(", \"property\": ");
	json_str(f->property);
	cli_puts(", \"message\": ");
	json_str(f->message);
	if (f->at.file) {
		cli_puts(", ");
		json_loc_members(&f->at);
	}
	if (f->first.file) {
		cli_puts(", \"first_set\": {");
		json_loc_members(&f->first);
		cli_puts("}");
	}
}

/* ---- folding ----------------------------------------------------------------------------- */

/* One folded finding: the first board's finding, and which boards. */
struct group {
	const struct lint_finding *f;
	size_t *boards;
	size_t n_boards, cap_boards;
};

/* a NULL-safe strcmp */
static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	return strcmp(a, b);
}

/* The order of the output and the key of folding: placed findings by
 * file, line, column, then unplaced by node and property; then check,
 * severity, message. */
static int cmp_finding(const struct lint_finding *a, const struct lint_finding *b)
{
	int c;
	if (!a->at.file != !b->at.file)
		return a->at.file ? -1 : 1;
	if (a->at.file) {
		if ((c = strcmp(a->at.file, b->at.file)))
			return c;
		if (a->at.line != b->at.line)
			return a->at.line < b->at.line ? -1 : 1;
		if (a->at.col != b->at.col)
			return a->at.col < b->at.col ? -1 : 1;
	} else {
		if ((c = strcmp(a->node, b->node)) || (c = cmp_str(a->property, b->property)))
			return c;
	}
	if ((c = strcmp(a->check, b->check)))
		return c;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	return strcmp(a->message, b->message);
}

struct ref {
	const struct lint_finding *f;
	size_t board;
};

static int cmp_ref(const void *x, const void *y)
{
	const struct ref *a = x, *b = y;
	int c = cmp_finding(a->f, b->f);
	if (c)
		return c;
	return a->board < b->board ? -1 : a->board > b->board;
}

/* Same place (for the table's count of distinct locations). */
static int same_place(const struct lint_finding *a, const struct lint_finding *b)
{
	if (!a->at.file != !b->at.file)
		return 0;
	if (a->at.file)
		return !strcmp(a->at.file, b->at.file) && a->at.line == b->at.line &&
		       a->at.col == b->at.col;
	return !strcmp(a->node, b->node) && !cmp_str(a->property, b->property);
}

/* A row of the per-check table. */
struct row {
	const char *check;
	enum dmn_dt_severity severity;
	size_t findings, places, boards;
	unsigned char *seen; /* a bit per board */
	const struct lint_finding *last_place;
};

static int cmp_row(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	if (a->places != b->places)
		return a->places > b->places ? -1 : 1;
	return strcmp(a->check, b->check);
}

/* The folded findings and the table of @boards; 0 or -ENOMEM. */
struct folded {
	struct group *g;
	size_t n_groups;
	struct row *rows;
	size_t n_rows;
	struct ref *refs;
	size_t *board_ix; /* the groups' board lists, one block */
	unsigned errors, warnings, notes;
	size_t failed;
};

static void folded_free(struct folded *x)
{
	for (size_t i = 0; i < x->n_rows; i++)
		free(x->rows[i].seen);
	free(x->rows);
	free(x->g);
	free(x->refs);
	free(x->board_ix);
}

static int fold(struct lint_board *boards, size_t n, struct folded *x)
{
	memset(x, 0, sizeof(*x));
	size_t total = 0;
	for (size_t b = 0; b < n; b++) {
		total += boards[b].n;
		x->failed += boards[b].failed != NULL;
	}
	x->refs = malloc((total ? total : 1) * sizeof(*x->refs));
	x->g = malloc((total ? total : 1) * sizeof(*x->g));
	x->board_ix = malloc((total ? total : 1) * sizeof(*x->board_ix));
	if (!x->refs || !x->g || !x->board_ix)
		return -ENOMEM;
	size_t k = 0;
	for (size_t b = 0; b < n; b++)
		for (size_t i = 0; i < boards[b].n; i++)
			x->refs[k++] = (struct ref){&boards[b].v[i], b};
	qsort(x->refs, total, sizeof(*x->refs), cmp_ref);
	for (size_t i = 0; i < total; i++) {
		const struct lint_finding *f = x->refs[i].f;
		if (f->severity == DMN_DT_SEV_ERROR)
			x->errors++;
		else if (f->severity == DMN_DT_SEV_WARNING)
			x->warnings++;
		else
			x->notes++;
		struct group *g = x->n_groups ? &x->g[x->n_groups - 1] : NULL;
		if (!g || cmp_finding(g->f, f)) {
			g = &x->g[x->n_groups++];
			*g = (struct group){f, x->board_ix + i, 0, 0};
		}
		/* one board twice at one place counts once */
		if (!g->n_boards || g->boards[g->n_boards - 1] != x->refs[i].board)
			g->boards[g->n_boards++] = x->refs[i].board;
		/* the table */
		struct row *r = NULL;
		for (size_t j = 0; j < x->n_rows; j++)
			if (!strcmp(x->rows[j].check, f->check) &&
			    x->rows[j].severity == f->severity)
				r = &x->rows[j];
		if (!r) {
			struct row *bigger = realloc(x->rows, (x->n_rows + 1) * sizeof(*bigger));
			if (!bigger)
				return -ENOMEM;
			x->rows = bigger;
			r = &x->rows[x->n_rows++];
			*r = (struct row){f->check, f->severity, 0, 0, 0,
					  calloc(n / 8 + 1, 1), NULL};
			if (!r->seen)
				return -ENOMEM;
		}
		r->findings++;
		if (!r->last_place || !same_place(r->last_place, f))
			r->places++;
		r->last_place = f;
		size_t b = x->refs[i].board;
		if (!(r->seen[b / 8] & (1u << (b % 8)))) {
			r->seen[b / 8] |= (unsigned char)(1u << (b % 8));
			r->boards++;
		}
	}
	qsort(x->rows, x->n_rows, sizeof(*x->rows), cmp_row);
	return 0;
}

/* "in 27 boards: a, b, c and 24 more" */
static void print_boards_note(const struct group *g, struct lint_board *boards,
			      int color)
{
	if (g->f->at.file)
		print_loc(&g->f->at);
	else
		cli_puts("  ");
	print_sev(DMN_DT_SEV_NOTE, color);
	cli_printf("in %zu board%s: ", g->n_boards, g->n_boards == 1 ? "" : "s");
	size_t show = g->n_boards <= 4 ? g->n_boards : 3;
	for (size_t i = 0; i < show; i++) {
		cli_puts(i ? ", " : "");
		cli_text(stdout, boards[g->boards[i]].name);
	}
	if (show < g->n_boards)
		cli_printf(" and %zu more", g->n_boards - show);
	cli_puts("\n");
}

static void write_gcc(const struct folded *x, struct lint_board *boards, size_t n,
		      int color)
{
	for (size_t i = 0; i < x->n_groups; i++) {
		const struct group *g = &x->g[i];
		lint_print_gcc(g->f, boards[g->boards[0]].file, color);
		if (n > 1)
			print_boards_note(g, boards, color);
	}
	cli_printf("%s%-32s %-8s %9s %10s %7s\n", x->n_groups ? "\n" : "", "check",
		   "severity", "findings", "locations", "boards");
	for (size_t i = 0; i < x->n_rows; i++) {
		const struct row *r = &x->rows[i];
		cli_text(stdout, r->check);
		size_t len = strlen(r->check);
		cli_printf("%*s %-8s %9zu %10zu %7zu\n", len < 32 ? (int)(32 - len) : 0, "",
			   dmn_dt_severity_name(r->severity), r->findings, r->places,
			   r->boards);
	}
	size_t places = 0;
	for (size_t i = 0; i < x->n_groups; i++)
		places += !i || !same_place(x->g[i - 1].f, x->g[i].f);
	cli_printf("%zu board%s", n, n == 1 ? "" : "s");
	if (x->failed)
		cli_printf(" (%zu could not be linted)", x->failed);
	cli_printf(": %u error%s, %u warning%s, %u note%s at %zu place%s\n",
		   x->errors, x->errors == 1 ? "" : "s", x->warnings,
		   x->warnings == 1 ? "" : "s", x->notes, x->notes == 1 ? "" : "s",
		   places, places == 1 ? "" : "s");
}

static void write_json(const struct folded *x, struct lint_board *boards, size_t n)
{
	cli_printf("{\n  \"boards\": %zu,\n  \"failed\": [", n);
	size_t k = 0;
	for (size_t b = 0; b < n; b++) {
		if (!boards[b].failed)
			continue;
		cli_puts(k++ ? ",\n    {\"board\": " : "\n    {\"board\": ");
		json_str(boards[b].name);
		cli_puts(", \"file\": ");
		json_str(boards[b].file);
		cli_puts(", \"message\": ");
		json_str(boards[b].failed);
		cli_puts("}");
	}
	cli_printf("%s],\n  \"findings\": [", k ? "\n  " : "");
	for (size_t i = 0; i < x->n_groups; i++) {
		const struct group *g = &x->g[i];
		cli_puts(i ? ",\n    {" : "\n    {");
		lint_json_finding(g->f);
		cli_printf(", \"count\": %zu, \"boards\": [", g->n_boards);
		for (size_t j = 0; j < g->n_boards; j++) {
			cli_puts(j ? ", " : "");
			json_str(boards[g->boards[j]].name);
		}
		cli_puts("]}");
	}
	cli_printf("%s],\n  \"checks\": [", x->n_groups ? "\n  " : "");
	for (size_t i = 0; i < x->n_rows; i++) {
		const struct row *r = &x->rows[i];
		cli_puts(i ? ",\n    {\"check\": " : "\n    {\"check\": ");
		json_str(r->check);
		cli_puts(", \"severity\": ");
		json_str(dmn_dt_severity_name(r->severity));
		cli_printf(", \"findings\": %zu, \"locations\": %zu, \"boards\": %zu}",
			   r->findings, r->places, r->boards);
	}
	cli_printf("%s],\n  \"counts\": {\"errors\": %u, \"warnings\": %u, \"notes\": %u}\n}\n",
		   x->n_rows ? "\n  " : "", x->errors, x->warnings, x->notes);
}

/* ---- SARIF 2.1.0 --------------------------------------------------------------------------
 * The members code scanning reads (docs/command-line.md, lint's SARIF): one
 * run, the tool "domino" with a rule per check, a result per folded
 * finding: ruleId, ruleIndex, level, message.text, a physical location
 * (artifactLocation.uri, and region startLine/startColumn when placed),
 * the place it was first set as a related location, and a logical
 * location naming the node and property. */

static const char *sarif_level(enum dmn_dt_severity s)
{
	return s == DMN_DT_SEV_ERROR ? "error" : s == DMN_DT_SEV_WARNING ? "warning" : "note";
}

static void sarif_physical(const struct cli_loc *l, const char *file)
{
	cli_puts("{\"artifactLocation\": {\"uri\": ");
	json_str(l->file ? l->file : file);
	cli_puts("}");
	if (l->file)
		cli_printf(", \"region\": {\"startLine\": %u, \"startColumn\": %u}",
			   l->line, l->col);
	cli_puts("}");
}

/* The checks seen, in order of first appearance: the rules. */
static size_t rule_index(const char **rules, size_t *n, const char *check)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(rules[i], check))
			return i;
	rules[*n] = check;
	return (*n)++;
}

static void write_sarif(const struct group *g, size_t n_groups,
			struct lint_board *boards, size_t n_boards)
{
	const char **rules = malloc((n_groups ? n_groups : 1) * sizeof(*rules));
	enum dmn_dt_severity *level = malloc((n_groups ? n_groups : 1) * sizeof(*level));
	size_t n_rules = 0;
	if (!rules || !level) {
		free(rules);
		free(level);
		return;
	}
	/* a rule's level: the most severe of its results */
	for (size_t i = 0; i < n_groups; i++) {
		size_t before = n_rules;
		size_t r = rule_index(rules, &n_rules, g[i].f->check);
		if (r == before || g[i].f->severity < level[r])
			level[r] = g[i].f->severity;
	}
	cli_puts("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
		 "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
		 "    \"tool\": {\"driver\": {\"name\": \"domino\", \"version\": ");
	json_str(DMN_VERSION_STRING);
	cli_puts(",\n      \"rules\": [");
	for (size_t i = 0; i < n_rules; i++) {
		cli_puts(i ? ",\n        {\"id\": " : "\n        {\"id\": ");
		json_str(rules[i]);
		cli_puts(", \"name\": ");
		json_str(rules[i]);
		cli_puts(", \"defaultConfiguration\": {\"level\": ");
		json_str(sarif_level(level[i]));
		cli_puts("}}");
	}
	cli_printf("%s]}},\n    \"columnKind\": \"utf16CodeUnits\",\n    \"results\": [",
		   n_rules ? "\n      " : "");
	for (size_t i = 0; i < n_groups; i++) {
		const struct lint_finding *f = g[i].f;
		const char *file = boards[g[i].boards[0]].file;
		cli_puts(i ? ",\n      {\"ruleId\": " : "\n      {\"ruleId\": ");
		json_str(f->check);
		cli_printf(", \"ruleIndex\": %zu, \"level\": ", rule_index(rules, &n_rules, f->check));
		json_str(sarif_level(f->severity));
		cli_puts(",\n       \"message\": {\"text\": ");
		json_str(f->message);
		cli_puts("},\n       \"locations\": [{\"physicalLocation\": ");
		sarif_physical(&f->at, file);
		cli_puts(", \"logicalLocations\": [{\"fullyQualifiedName\": ");
		size_t nl = strlen(f->node), pl = f->property ? strlen(f->property) : 0;
		char *fq = malloc(nl + pl + 2);
		if (fq) {
			memcpy(fq, f->node, nl + 1);
			if (f->property) {
				fq[nl] = ':';
				memcpy(fq + nl + 1, f->property, pl + 1);
			}
		}
		json_str(fq ? fq : f->node);
		free(fq);
		cli_puts(", \"kind\": \"element\"}]}]");
		if (f->first.file) {
			cli_puts(",\n       \"relatedLocations\": [{\"id\": 1, \"physicalLocation\": ");
			sarif_physical(&f->first, file);
			cli_puts(", \"message\": {\"text\": ");
			char text[512];
			snprintf(text, sizeof(text), "%s was first set here", f->property);
			json_str(text);
			cli_puts("}}]");
		}
		cli_printf(",\n       \"properties\": {\"count\": %zu, \"boards\": [", g[i].n_boards);
		for (size_t j = 0; j < g[i].n_boards; j++) {
			cli_puts(j ? ", " : "");
			json_str(boards[g[i].boards[j]].name);
		}
		cli_puts("]}}");
	}
	cli_printf("%s]\n  }]\n}\n", n_groups ? "\n    " : "");
	(void)n_boards;
	free(rules);
	free(level);
}

void lint_write_sarif_one(const struct lint_board *b)
{
	struct group *g = malloc((b->n ? b->n : 1) * sizeof(*g));
	size_t zero = 0;
	if (!g)
		return;
	for (size_t i = 0; i < b->n; i++)
		g[i] = (struct group){&b->v[i], &zero, 1, 1};
	write_sarif(g, b->n, (struct lint_board *)b, 1);
	free(g);
}

int lint_write_tree(enum lint_format fmt, struct lint_board *boards, size_t n,
		    int color)
{
	struct folded x;
	if (fold(boards, n, &x)) {
		folded_free(&x);
		fprintf(stderr, "domino lint: error: %s\n", dmn_strerror(-ENOMEM));
		return EXIT_INPUT;
	}
	if (fmt == LINT_GCC)
		write_gcc(&x, boards, n, color);
	else if (fmt == LINT_JSON)
		write_json(&x, boards, n);
	else
		write_sarif(x.g, x.n_groups, boards, n);
	int rc = x.failed ? EXIT_INPUT : x.errors ? EXIT_CHECK : EXIT_OK;
	folded_free(&x);
	return rc;
}
