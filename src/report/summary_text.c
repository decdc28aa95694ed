/* SPDX-License-Identifier: MIT */
/*
 * The text summary: the domain DAG drawn as a tree, roots first. A domain
 * with several parents appears under each; its devices and subdomains are
 * listed at its first appearance only, so a wide DAG cannot blow up the
 * output. The table is laid out in two passes: measure, then print.
 */
#include "report_internal.h"
#include "text_style.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tree drawing: every level is three columns wide. */
#define TREE_MID "\u251c\u2500 "  /* "├─ " */
#define TREE_LAST "\u2514\u2500 " /* "└─ " */
#define TREE_PIPE "\u2502  "	  /* "│  " */
#define TREE_NONE "   "
#define TREE_COLS 3
#define DEVICE_MARK "\u00b7 " /* "· " before a device name */
#define DEVICE_COLS 2
#define GAP 2

struct frame;

struct summary {
	struct dmn_report_out *o;
	const struct dmn_report_model *m;
	struct dmn_report_index ix;
	struct dmn_report_style st;
	unsigned char *more;	 /* per depth: siblings follow at that level */
	unsigned char *expanded; /* per domain: listed in full already */
	struct frame *stack;	 /* the walk's, one frame per level */
	int measuring;
	size_t w_name, w_status, w_value;
};

/* One printed row, in columns; the notes follow the last column. */
struct row {
	unsigned depth; /* tree depth of the domain (or the device's domain) */
	int device;	/* 1 for a device row */
	int last;	/* domain rows: last among its siblings */
	int has_children; /* device rows: the domain has subdomains below */
	const char *name, *name_style;
	const char *status, *status_style;
	const char *value, *value_style;
	const char *note1, *note2, *note3; /* NULL or text, printed dim */
};

/* Past this many levels the tree stops indenting and writes each row's
 * depth before its name instead, so a deep chain costs output linear in
 * its length, not quadratic. */
#define INDENT_MAX 24

static unsigned shown_depth(unsigned depth)
{
	return depth < INDENT_MAX ? depth : INDENT_MAX;
}

/* "[25] " before a domain drawn at the capped indentation; "" if none. */
static const char *depth_tag(const struct row *r, char buf[16])
{
	buf[0] = 0;
	if (!r->device && r->depth > INDENT_MAX)
		snprintf(buf, 16, "[%u] ", r->depth);
	return buf;
}

static void prefix(struct summary *s, const struct row *r)
{
	unsigned depth = shown_depth(r->depth);
	unsigned cont = r->device ? depth : (depth ? depth - 1 : 0);
	char tag[16];

	for (unsigned i = 0; i < cont; i++)
		dmn__rpt_out_puts(s->o, s->more[i] ? TREE_PIPE : TREE_NONE);
	if (r->device) {
		dmn__rpt_out_puts(s->o, r->has_children ? TREE_PIPE : TREE_NONE);
		dmn__rpt_out_puts(s->o, DEVICE_MARK);
	} else if (r->depth) {
		dmn__rpt_out_puts(s->o, r->last ? TREE_LAST : TREE_MID);
	}
	if (*depth_tag(r, tag)) {
		dmn__rpt_out_puts(s->o, s->st.dim);
		dmn__rpt_out_puts(s->o, tag);
		dmn__rpt_out_puts(s->o, s->st.reset);
	}
}

static size_t prefix_width(const struct row *r)
{
	unsigned depth = shown_depth(r->depth);
	char tag[16];

	if (r->device)
		return (depth + 1) * TREE_COLS + DEVICE_COLS;
	return depth * TREE_COLS + strlen(depth_tag(r, tag));
}

static void styled(struct summary *s, const char *style, const char *text,
		   size_t width)
{
	size_t w = dmn__rpt_text_width(text);

	if (*style)
		dmn__rpt_out_puts(s->o, style);
	dmn__rpt_out_text(s->o, text);
	if (*style)
		dmn__rpt_out_puts(s->o, s->st.reset);
	if (width > w)
		dmn__rpt_out_pad(s->o, width - w);
	else if (width) /* wider than RPT_ALIGN_MAX */
		dmn__rpt_out_pad(s->o, GAP);
}

static void emit(struct summary *s, const struct row *r)
{
	size_t wn = prefix_width(r) + dmn__rpt_text_width(r->name);
	size_t ws = dmn__rpt_text_width(r->status), wv = dmn__rpt_text_width(r->value);
	const char *notes[3] = {r->note1, r->note2, r->note3};
	int has_notes = r->note1 || r->note2 || r->note3;

	if (s->measuring) {
		if (wn <= RPT_ALIGN_MAX && wn > s->w_name)
			s->w_name = wn;
		if (ws <= RPT_ALIGN_MAX && ws > s->w_status)
			s->w_status = ws;
		if (wv <= RPT_ALIGN_MAX && wv > s->w_value)
			s->w_value = wv;
		return;
	}
	prefix(s, r);
	size_t pw = prefix_width(r);
	styled(s, r->name_style, r->name,
	       s->w_name > pw ? s->w_name - pw + GAP : GAP);
	styled(s, r->status_style, r->status, s->w_status + GAP);
	styled(s, r->value_style, r->value, has_notes ? s->w_value + GAP : 0);
	for (int i = 0, first = 1; i < 3; i++) {
		if (!notes[i])
			continue;
		if (!first)
			dmn__rpt_out_putc(s->o, ' ');
		styled(s, s->st.dim, notes[i], 0);
		first = 0;
	}
	dmn__rpt_out_putc(s->o, '\n');
}

static void device_row(struct summary *s, const struct dmn_report_domain *d,
		       const struct dmn_report_device *dev, unsigned depth)
{
	char value[RPT_PHRASE_LEN], via[96];
	struct row r = {0};

	if (!dev->vote)
		snprintf(value, sizeof(value), "no vote");
	else if (dev->counts)
		snprintf(value, sizeof(value), "vote %" PRIu32 " (counts)",
			 dev->vote);
	else if (!dev->active)
		snprintf(value, sizeof(value),
			 "vote %" PRIu32 " (parked: suspended)", dev->vote);
	else
		snprintf(value, sizeof(value), "vote %" PRIu32 " (not counted)",
			 dev->vote);
	r.depth = depth;
	r.device = 1;
	r.has_children = d->n_children > 0;
	r.name = dev->name ? dev->name : dev->path ? dev->path : "?";
	r.name_style = "";
	r.status = dev->active ? "active" : "suspended";
	r.status_style = dev->active ? s->st.on : s->st.dim;
	r.value = value;
	r.value_style = dev->vote && !dev->counts ? s->st.dim : "";
	if (dev->via || dev->n_args) {
		/* Truncation only shortens a note; the JSON has it whole. */
		size_t used = 0;
		via[0] = 0;
		if (dev->via)
			used = (size_t)snprintf(via, sizeof(via), "via \"%s\"",
						dev->via);
		for (unsigned i = 0; i < dev->n_args && used < sizeof(via); i++)
			used += (size_t)snprintf(via + used, sizeof(via) - used,
						 "%s%" PRIu32,
						 i ? " " : used ? ", args " : "args ",
						 dev->args[i]);
		r.note1 = via;
	}
	/* The path goes last: it is long, and only needed to find the node. */
	if (dev->path && dev->name && strcmp(dev->path, dev->name))
		r.note2 = dev->path;
	emit(s, &r);
}

/* "(also under a, b)": the parents other than the one we came from. At
 * most SHARED_NAMES are named, so a domain with many parents, shown under
 * each, still costs output linear in the number of links. */
#define SHARED_NAMES 8
/* Room for the note's fixed words: "(also under ", " and N more",
 * "; listed above)". */
#define SHARED_NOTE_WORDS 64
static char *shared_note(const struct dmn_report_domain *d, const char *from,
			 int repeat)
{
	size_t len = SHARED_NOTE_WORDS;
	char *note, *p;
	unsigned named = 0, others = 0;

	for (unsigned i = 0; i < d->n_parents && i <= SHARED_NAMES; i++)
		len += strlen(d->parents[i] ? d->parents[i] : "") + 2;
	note = malloc(len);
	if (!note)
		return NULL;
	p = note + sprintf(note, "(also under ");
	for (unsigned i = 0; i < d->n_parents; i++) {
		const char *parent = d->parents[i] ? d->parents[i] : "";
		if (from && !strcmp(parent, from)) {
			from = NULL; /* skip it once only */
			continue;
		}
		if (named == SHARED_NAMES) {
			others++;
			continue;
		}
		p += sprintf(p, "%s%s", named ? ", " : "", parent);
		named++;
	}
	if (others)
		p += sprintf(p, " and %u more", others);
	sprintf(p, "%s)", repeat ? "; listed above" : "");
	return note;
}

/* One domain row; returns 1 if its devices and children follow (its first
 * appearance), 0 if not, or -ENOMEM. */
static int domain_row(struct summary *s, unsigned di, const char *from,
		      unsigned depth, int last)
{
	const struct dmn_report_domain *d = &s->m->domains[di];
	const char *pname = dmn__rpt_pstate_name(d);
	char status[80], value[80];
	char *note = NULL;
	int repeat = s->expanded[di];
	struct row r = {0};

	/* What keeps it on or how it sleeps, then its HW mode
	 * (docs/lifecycle.md). */
	const char *hw = d->hw ? ", hw" : "";
	if (d->on && (d->held || d->hw))
		snprintf(status, sizeof(status), "on (%s%s)",
			 d->held ? "held" : "hw", d->held ? hw : "");
	else if (d->on)
		snprintf(status, sizeof(status), "on");
	else if (d->idle_state)
		snprintf(status, sizeof(status), "off (%s%s)", d->idle_state,
			 hw);
	else
		snprintf(status, sizeof(status), d->hw ? "off (hw)" : "off");
	if (pname)
		snprintf(value, sizeof(value), "%" PRIu32 " (%s)", d->pstate,
			 pname);
	else
		snprintf(value, sizeof(value), "%" PRIu32, d->pstate);
	if (d->n_parents > 1) {
		note = shared_note(d, from,
				   repeat && (d->n_devices || d->n_children));
		if (!note)
			return -ENOMEM;
	}
	r.depth = depth;
	r.last = last;
	r.name = d->name ? d->name : "?";
	r.name_style = s->st.bold;
	r.status = status;
	r.status_style = d->on ? s->st.on : s->st.off;
	r.value = value;
	r.value_style = "";
	r.note1 = note;
	emit(s, &r);
	free(note);

	/* Continuation lines below this row use more[depth - 1]. */
	if (depth)
		s->more[depth - 1] = !last;
	/* Listed in full once; expanding first also stops any cycle. */
	if (repeat)
		return 0;
	s->expanded[di] = 1;
	for (unsigned i = 0; d->devices && i < d->n_devices; i++)
		device_row(s, d, &d->devices[i], depth);
	return 1;
}

/* Where a domain's walk stands: the next child to look at. */
struct frame {
	unsigned di, next;
	int last_child; /* the last child in the model, -1 if none */
};

/*
 * A depth-first walk with its own stack: a chain of providers is as deep
 * as the board is large, and the C stack must not grow with the input.
 * s->stack holds one frame per level; a domain is expanded once, so the
 * walk is at most as deep as there are domains.
 */
static int visit(struct summary *s, unsigned root)
{
	unsigned top = 0;
	int rc = domain_row(s, root, NULL, 0, 1);

	if (rc <= 0)
		return rc;
	s->stack[0] = (struct frame){root, 0, -1};
	for (;;) {
		struct frame *f = &s->stack[top];
		const struct dmn_report_domain *d = &s->m->domains[f->di];
		if (f->next == 0) {
			/* Children that are not in the model are skipped;
			 * find the last one that is, so that its connector
			 * closes the branch. */
			for (unsigned i = 0; d->children && i < d->n_children;
			     i++)
				if (dmn__rpt_index_find(&s->ix, d->children[i]) >= 0)
					f->last_child = (int)i;
		}
		int ci = -1;
		unsigned i = f->next;
		while (d->children && i < d->n_children &&
		       (ci = dmn__rpt_index_find(&s->ix, d->children[i])) < 0)
			i++;
		if (!d->children || i >= d->n_children) {
			if (top == 0)
				return 0;
			top--;
			continue;
		}
		f->next = i + 1;
		rc = domain_row(s, (unsigned)ci, d->name, top + 1,
				(int)i == f->last_child);
		if (rc < 0)
			return rc;
		if (rc > 0)
			s->stack[++top] = (struct frame){(unsigned)ci, 0, -1};
	}
}

static int is_root(struct summary *s, const struct dmn_report_domain *d)
{
	for (unsigned i = 0; d->parents && i < d->n_parents; i++)
		if (dmn__rpt_index_find(&s->ix, d->parents[i]) >= 0)
			return 0;
	return 1;
}

static int tree(struct summary *s)
{
	unsigned n = s->m->n_domains;
	int rc;

	memset(s->expanded, 0, n);
	for (unsigned i = 0; i < n; i++)
		if (is_root(s, &s->m->domains[i]) && (rc = visit(s, i)))
			return rc;
	/* Whatever is left sits on a cycle the loader should have refused;
	 * show it rather than hide it. */
	for (unsigned i = 0; i < n; i++)
		if (!s->expanded[i] && (rc = visit(s, i)))
			return rc;
	return 0;
}

static void header(struct summary *s)
{
	const struct dmn_report_model *m = s->m;
	unsigned on = 0, devices = 0;

	for (unsigned i = 0; i < m->n_domains; i++) {
		on += m->domains[i].on ? 1 : 0;
		devices += m->domains[i].devices ? m->domains[i].n_devices : 0;
	}
	dmn__rpt_out_puts(s->o, s->st.bold);
	dmn__rpt_out_text(s->o, m->board ? m->board : "board");
	dmn__rpt_out_puts(s->o, s->st.reset);
	if (m->model) {
		dmn__rpt_out_puts(s->o, ": ");
		dmn__rpt_out_text(s->o, m->model);
	}
	dmn__rpt_out_printf(
	    s->o, "\n%u domain%s (%u on, %u off), %u device attachment%s\n",
	    m->n_domains, m->n_domains == 1 ? "" : "s", on, m->n_domains - on,
	    devices, devices == 1 ? "" : "s");
	if (!m->n_domains)
		return;
	dmn__rpt_out_putc(s->o, '\n');
	dmn__rpt_out_puts(s->o, s->st.bold);
	styled(s, "", "DOMAIN", s->w_name + GAP);
	styled(s, "", "STATUS", s->w_status + GAP);
	dmn__rpt_out_puts(s->o, "PSTATE / VOTE");
	dmn__rpt_out_puts(s->o, s->st.reset);
	dmn__rpt_out_putc(s->o, '\n');
}

/* Who a boot hold still waits for (docs/lifecycle.md, Boot holds): the
 * answer to "why is this rail on after boot". */
static void boot_holds(struct summary *s)
{
	const struct dmn_report_model *m = s->m;
	int any = 0;
	for (unsigned i = 0; m->has_life && i < m->n_domains; i++) {
		const struct dmn_report_domain *d = &m->domains[i];
		if (!d->held)
			continue;
		if (!any)
			dmn__rpt_out_printf(s->o, "\n%sboot holds%s (on until every "
				       "consumer has probed):\n", s->st.bold,
				       s->st.reset);
		any = 1;
		dmn__rpt_out_puts(s->o, "  ");
		dmn__rpt_out_text(s->o, d->name ? d->name : "?");
		dmn__rpt_out_printf(s->o, "  level %" PRIu32 ", ", d->boot_level);
		if (d->no_sync_state)
			dmn__rpt_out_puts(s->o, "no-sync-state: until "
						"`sync-state` or `probe all`");
		else if (!d->n_awaiting)
			dmn__rpt_out_puts(s->o, "no consumers: until `probe all`");
		else
			dmn__rpt_out_puts(s->o, "awaiting");
		for (unsigned k = 0; k < d->n_awaiting; k++) {
			dmn__rpt_out_putc(s->o, ' ');
			dmn__rpt_out_text(s->o, d->awaiting[k]);
		}
		dmn__rpt_out_putc(s->o, '\n');
	}
}

/* The governor's menu of each domain that has one, shallowest first. */
static void idle_states(struct summary *s)
{
	const struct dmn_report_model *m = s->m;
	int any = 0;
	for (unsigned i = 0; i < m->n_domains; i++) {
		const struct dmn_report_domain *d = &m->domains[i];
		if (!d->idle || !d->n_idle)
			continue;
		if (!any)
			dmn__rpt_out_printf(s->o, "\n%sidle states%s (entry / exit latency, "
				       "min residency):\n", s->st.bold, s->st.reset);
		any = 1;
		dmn__rpt_out_puts(s->o, "  ");
		dmn__rpt_out_text(s->o, d->name ? d->name : "?");
		dmn__rpt_out_putc(s->o, '\n');
		for (unsigned k = 0; k < d->n_idle; k++) {
			const struct dmn_report_idle_stats *st = &d->idle[k];
			dmn__rpt_out_puts(s->o, "    ");
			dmn__rpt_out_text(s->o, st->name ? st->name : "?");
			dmn__rpt_out_printf(s->o, "  %u / %u us, %u us%s\n",
				       st->entry_latency_us, st->exit_latency_us,
				       st->min_residency_us,
				       k + 1 == d->n_idle && d->n_idle > 1 ? "  (deepest)" : "");
		}
	}
}

static int same_levels(const struct dmn_report_domain *a, const struct dmn_report_domain *b)
{
	if (a->n_levels != b->n_levels)
		return 0;
	for (unsigned k = 0; k < a->n_levels; k++)
		if (a->level_values[k] != b->level_values[k] ||
		    strcmp(a->levels[k] ? a->levels[k] : "",
			   b->levels[k] ? b->levels[k] : ""))
			return 0;
	return 1;
}

/* Each domain's levels, one line per run of neighbours sharing a table
 * (a provider's domains come together), so `vote` and `expect pstate`
 * can be written from the summary alone. */
static void levels(struct summary *s)
{
	const struct dmn_report_model *m = s->m;
	int any = 0;
	for (unsigned i = 0; i < m->n_domains;) {
		const struct dmn_report_domain *d = &m->domains[i];
		unsigned j = i + 1;
		if (!d->n_levels || !d->level_values) {
			i++;
			continue;
		}
		while (j < m->n_domains && same_levels(d, &m->domains[j]))
			j++;
		if (!any)
			dmn__rpt_out_printf(s->o, "\n%slevels%s (LEVEL (NAME); a vote or "
				       "expect takes either):\n", s->st.bold,
				       s->st.reset);
		any = 1;
		dmn__rpt_out_puts(s->o, "  ");
		for (unsigned k = i; k < j; k++) {
			if (k > i)
				dmn__rpt_out_puts(s->o, ", ");
			dmn__rpt_out_text(s->o, m->domains[k].name ? m->domains[k].name : "?");
		}
		dmn__rpt_out_puts(s->o, ": ");
		for (unsigned k = 0; k < d->n_levels; k++) {
			dmn__rpt_out_printf(s->o, "%s%" PRIu32, k ? ", " : "",
				       d->level_values[k]);
			if (d->levels[k]) {
				dmn__rpt_out_puts(s->o, " (");
				dmn__rpt_out_text(s->o, d->levels[k]);
				dmn__rpt_out_putc(s->o, ')');
			}
		}
		dmn__rpt_out_putc(s->o, '\n');
		i = j;
	}
}

static int same_rates(const struct dmn_report_device_rates *a,
		      const struct dmn_report_device_rates *b)
{
	return a->n_hz == b->n_hz &&
	       (!a->n_hz || !memcmp(a->hz, b->hz, a->n_hz * sizeof(*a->hz)));
}

/* Each device's OPP rates, neighbours sharing a table on one line. */
static void rates(struct summary *s)
{
	const struct dmn_report_model *m = s->m;
	char hz[RPT_NUM_LEN];
	if (!m->device_rates || !m->n_device_rates)
		return;
	dmn__rpt_out_printf(s->o, "\n%sOPP rates%s (what `rate DEV HZ` rounds up to):\n",
		       s->st.bold, s->st.reset);
	for (unsigned i = 0; i < m->n_device_rates;) {
		const struct dmn_report_device_rates *r = &m->device_rates[i];
		unsigned j = i + 1;
		while (j < m->n_device_rates && same_rates(r, &m->device_rates[j]))
			j++;
		dmn__rpt_out_puts(s->o, "  ");
		for (unsigned k = i; k < j; k++) {
			if (k > i)
				dmn__rpt_out_puts(s->o, ", ");
			dmn__rpt_out_text(s->o, m->device_rates[k].device
					       ? m->device_rates[k].device : "?");
		}
		dmn__rpt_out_puts(s->o, ":");
		if (!r->n_hz)
			dmn__rpt_out_puts(s->o, " no rates (levels only)");
		for (unsigned k = 0; k < r->n_hz; k++)
			dmn__rpt_out_printf(s->o, "%s %s", k ? "," : "",
				       dmn__rpt_fmt_hz(hz, r->hz[k]));
		dmn__rpt_out_putc(s->o, '\n');
		i = j;
	}
}

/* The severity a formatted diagnostic ("FILE: NODE: PROP: SEV: MESSAGE")
 * carries: the earliest of the three words in it. */
static int diag_severity(const char *line)
{
	static const char *const words[] = {": error: ", ": warning: ",
					    ": note: "};
	const char *first = NULL;
	int sev = 1;

	for (int i = 0; i < 3; i++) {
		const char *at = strstr(line, words[i]);
		if (at && (!first || at < first)) {
			first = at;
			sev = i;
		}
	}
	return sev;
}

/* "2 warnings, 1 note:" above the loader's messages, counted by severity:
 * a note is not a warning. */
static void diag_header(struct summary *s)
{
	static const char *const names[] = {"error", "warning", "note"};
	unsigned count[3] = {0, 0, 0};
	int first = 1;

	for (unsigned i = 0; i < s->m->n_warnings; i++)
		count[diag_severity(s->m->warnings[i] ? s->m->warnings[i] : "")]++;
	dmn__rpt_out_printf(s->o, "\n%s", s->st.warn);
	for (int k = 0; k < 3; k++) {
		if (!count[k])
			continue;
		dmn__rpt_out_printf(s->o, "%s%u %s%s", first ? "" : ", ", count[k],
			       names[k], count[k] == 1 ? "" : "s");
		first = 0;
	}
	dmn__rpt_out_printf(s->o, ":%s\n", s->st.reset);
}

int dmn_report_write_summary_text(const struct dmn_report_model *m,
			   const struct dmn_report_text_options *opt,
			   const struct dmn_report_sink *sink)
{
	struct dmn_report_out o;
	struct summary s = {0};
	unsigned n;
	int rc;

	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	if (!m || (m->n_domains && !m->domains))
		return -EINVAL;
	n = m->n_domains;
	s.o = &o;
	s.m = m;
	s.st = rpt_style_get(opt);
	s.w_name = strlen("DOMAIN");
	s.w_status = strlen("STATUS");
	s.w_value = strlen("PSTATE / VOTE");
	rc = dmn__rpt_index_build(&s.ix, m);
	s.more = calloc(n + 1, 1);
	s.expanded = calloc(n + 1, 1);
	s.stack = calloc(n + 1, sizeof(*s.stack));
	if (rc || !s.more || !s.expanded || !s.stack) {
		rc = -ENOMEM;
		goto out;
	}

	s.measuring = 1;
	rc = tree(&s);
	if (rc)
		goto out;
	s.measuring = 0;
	header(&s);
	rc = tree(&s);
	if (rc)
		goto out;

	idle_states(&s);
	boot_holds(&s);
	levels(&s);
	rates(&s);
	if (m->requirements && m->n_requirements) {
		dmn__rpt_out_puts(&o, "\nDevice requirements (while a device is "
				 "active, the owners of the table run at least "
				 "at the OPP it requires):\n");
		for (unsigned i = 0; i < m->n_requirements; i++) {
			const struct dmn_report_requirement *q = &m->requirements[i];
			dmn__rpt_out_puts(&o, "  ");
			dmn__rpt_out_text(&o, q->device);
			dmn__rpt_out_puts(&o, " requires ");
			dmn__rpt_out_text(&o, q->table);
			dmn__rpt_out_puts(&o, q->n_owners ? " of " : " (no owner)");
			for (unsigned k = 0; k < q->n_owners; k++) {
				if (k)
					dmn__rpt_out_puts(&o, ", ");
				dmn__rpt_out_text(&o, q->owners[k]);
			}
			dmn__rpt_out_putc(&o, '\n');
		}
	}
	if (m->warnings && m->n_warnings) {
		diag_header(&s);
		for (unsigned i = 0; i < m->n_warnings; i++) {
			dmn__rpt_out_puts(&o, "  ");
			dmn__rpt_out_text(&o, m->warnings[i]);
			dmn__rpt_out_putc(&o, '\n');
		}
	}
	rc = dmn__rpt_out_finish(&o);
out:
	dmn__rpt_index_free(&s.ix);
	free(s.more);
	free(s.expanded);
	free(s.stack);
	return rc;
}
