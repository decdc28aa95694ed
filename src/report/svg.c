/* SPDX-License-Identifier: MIT */
/*
 * The SVG timeline: a title, a legend, one lane per domain and a time axis.
 * In a lane, on periods are a filled bar, idle periods are shaded by state
 * (one shade per idle-state name across the document), plain off is left
 * light, and the pstate is a step line scaled to the lane's highest level,
 * labelled where it changes. Failures are red markers with a tooltip.
 * Plain SVG 1.1 with presentation attributes only (no CSS, no scripts), so
 * browsers, rsvg and Inkscape render it alike.
 *
 * At scale (a 600k-line scenario once made 146 MB) it draws what a
 * screen shows: lanes in tree order (a child under its first parent,
 * indented), lanes that never change left out and counted, periods and
 * steps shorter than a pixel merged into one mark per pixel (counted in
 * a note under the axis), so the size depends on lanes and width, not on
 * events. Devices whose rate changes get a lane of their own. The plot
 * runs a little past the end (marked) so the last instant has width.
 */
#include "report_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 1200.0
#define MARGIN 16.0
#define PLOT_X 232.0
#define PLOT_RIGHT (WIDTH - 28.0)
#define PLOT_W (PLOT_RIGHT - PLOT_X)
#define LANE_H 44.0
#define LANE_PITCH 52.0
#define BAR_PAD 4.0	  /* bar inset from the lane's top and bottom */
#define STEP_TOP 15.0	  /* the highest level's line, from the lane top */
#define STEP_BOTTOM 6.0	  /* level 0, from the lane bottom */
#define LABEL_CHARS 28	  /* longer domain names are shortened */
#define CHAR_W 6.2	  /* average width of a 12px sans-serif character */
#define STEP_LABEL_GAP 26 /* px between two pstate labels in a lane */
#define STEP_CHAR_W 5.6	  /* average width of a 10px character */

#define FONT "DejaVu Sans, Helvetica, Arial, sans-serif"
#define C_TEXT "#1f2328"
#define C_MUTED "#656d76"
#define C_LANE "#f3f4f6"
#define C_LANE_EDGE "#d0d7de"
#define C_ON "#6cc07a"
#define C_ON_EDGE "#3d8b4b"
#define C_STEP "#0b3d2e"
#define C_FAIL "#d1242f" /* failed and rolled back */
#define C_SAFE "#e07b00" /* failed in the safe direction: left as it was */
#define C_GRID "#8c959f"
#define C_HW "#7b3fb5"    /* HW mode: a strip under the domain's bar */
#define C_SLEEP "#1f3a93" /* system sleep: a band across every lane */
#define HW_STRIP 5.0

/* Idle states: muted, clearly different from the green of "on". */
static const char *const idle_shades[] = {
    "#a9bde8", "#c7b3e5", "#9fd3d6", "#e7c59f", "#e3a9c1",
    "#bfc99a", "#b0b7c3", "#d8d08a", "#9fb4c7", "#d5b7a4",
};
#define N_SHADES (sizeof(idle_shades) / sizeof(idle_shades[0]))

struct svg {
	struct dmn_report_out *o;
	uint64_t end;		 /* the run's end; span reaches a little past */
	unsigned merged;	 /* sub-pixel periods and steps drawn merged */
	unsigned *order;	 /* the lanes drawn: domains in tree order */
	unsigned *depth;	 /* per domain, its depth in that order */
	unsigned n_order;
	unsigned hidden;	 /* domains that never changed, not drawn */
	struct rate_lane *rates; /* devices whose rate changes */
	unsigned n_rates;
	const struct dmn_report_model *m;
	struct dmn_report_timeline tl;
	struct dmn_report_levels lv; /* names of the steps' levels */
	uint64_t span;		 /* the plotted time range, never 0 */
	const char **idle_names; /* distinct idle-state names, first seen */
	unsigned n_idle_names;
	int any_plain_off, any_failure, any_safe_failure, any_hw;
	double lanes_top;
	struct tl_step_hz *power; /* the total power (energy), or NULL */
	unsigned n_power;
	uint64_t max_power;
};

/* A device's clock over the run: its rate from each change on. */
struct tl_step_hz {
	uint64_t time, hz;
};
struct rate_lane {
	const char *device;
	struct tl_step_hz *steps;
	unsigned n_steps, cap;
	uint64_t max_hz;
};

static double x_of(const struct svg *s, uint64_t t)
{
	if (t > s->span)
		t = s->span;
	return PLOT_X + PLOT_W * ((double)t / (double)s->span);
}

/* Coordinates, via a locale-independent formatter. */
static void num(struct svg *s, double v)
{
	char b[RPT_NUM_LEN];
	dmn__rpt_out_puts(s->o, dmn__rpt_fmt_coord(b, v));
}

static void attr_num(struct svg *s, const char *name, double v)
{
	dmn__rpt_out_printf(s->o, " %s=\"", name);
	num(s, v);
	dmn__rpt_out_putc(s->o, '"');
}

static void text(struct svg *s, double x, double y, const char *attrs,
		 const char *content)
{
	dmn__rpt_out_puts(s->o, "<text");
	attr_num(s, "x", x);
	attr_num(s, "y", y);
	dmn__rpt_out_printf(s->o, " %s>", attrs);
	dmn__rpt_out_xml_str(s->o, content);
	dmn__rpt_out_puts(s->o, "</text>\n");
}

static int idle_index(const struct svg *s, const char *name)
{
	for (unsigned i = 0; i < s->n_idle_names; i++)
		if (!strcmp(s->idle_names[i], name))
			return (int)i;
	return -1;
}

static const char *idle_shade(const struct svg *s, const char *name)
{
	int i = idle_index(s, name);
	return idle_shades[(i < 0 ? 0 : (unsigned)i) % N_SHADES];
}

/* Distinct idle-state names in lane order, so the legend reads top-down. */
static int collect_idle_names(struct svg *s)
{
	size_t cap = 0;

	for (unsigned d = 0; d < s->m->n_domains; d++)
		cap += s->tl.domains[d].n_periods;
	s->idle_names = malloc((cap ? cap : 1) * sizeof(*s->idle_names));
	if (!s->idle_names)
		return -ENOMEM;
	for (unsigned d = 0; d < s->m->n_domains; d++) {
		const struct tl_domain *t = &s->tl.domains[d];
		for (unsigned i = 0; i < t->n_periods; i++) {
			const struct tl_period *p = &t->periods[i];
			if (p->on)
				continue;
			if (!p->idle_state) {
				s->any_plain_off = 1;
				continue;
			}
			if (idle_index(s, p->idle_state) < 0)
				s->idle_names[s->n_idle_names++] =
				    p->idle_state;
		}
	}
	return 0;
}

static void swatch(struct svg *s, double *x, double *y, const char *fill,
		   const char *stroke, const char *label)
{
	double w = 16 + 6 + CHAR_W * (double)dmn__rpt_text_width(label) + 18;

	if (*x + w > WIDTH - MARGIN) {
		*x = MARGIN;
		*y += 20;
	}
	dmn__rpt_out_puts(s->o, "<rect");
	attr_num(s, "x", *x);
	attr_num(s, "y", *y - 10);
	dmn__rpt_out_printf(s->o,
		       " width=\"16\" height=\"12\" rx=\"2\" fill=\"%s\""
		       " stroke=\"%s\"/>\n",
		       fill, stroke);
	text(s, *x + 22, *y, "font-size=\"12\" fill=\"" C_MUTED "\"", label);
	*x += w;
}

static void marker_legend(struct svg *s, double *x, double *y, const char *fill,
			  const char *label)
{
	double w = 22 + CHAR_W * (double)dmn__rpt_text_width(label) + 24;

	if (*x + w > WIDTH - MARGIN) {
		*x = MARGIN;
		*y += 20;
	}
	dmn__rpt_out_puts(s->o, "<path d=\"M");
	num(s, *x + 2);
	dmn__rpt_out_putc(s->o, ' ');
	num(s, *y - 10);
	dmn__rpt_out_printf(s->o, " h12 l-6 10 z\" fill=\"%s\"/>\n", fill);
	text(s, *x + 22, *y, "font-size=\"12\" fill=\"" C_MUTED "\"", label);
	*x += w;
}

/* The legend; returns the y below it. Drawing is skipped when @draw is 0
 * (the lanes' position depends on how many rows it needs). */
static double legend(struct svg *s, double y, int draw)
{
	struct dmn_report_out *real = s->o, sink_null;
	double x = MARGIN;

	if (!draw) {
		/* Measure by drawing into an output that is already failed. */
		sink_null.err = -EAGAIN;
		sink_null.len = 0;
		s->o = &sink_null;
	}
	swatch(s, &x, &y, C_ON, C_ON_EDGE, "on");
	for (unsigned i = 0; i < s->n_idle_names; i++) {
		char label[96];
		snprintf(label, sizeof(label), "idle: %s", s->idle_names[i]);
		swatch(s, &x, &y, idle_shades[i % N_SHADES], C_LANE_EDGE,
		       label);
	}
	if (s->any_plain_off || !s->n_idle_names)
		swatch(s, &x, &y, C_LANE, C_LANE_EDGE, "off");
	if (s->any_hw)
		swatch(s, &x, &y, C_HW, C_HW, "hw mode");
	if (s->tl.n_sleep)
		swatch(s, &x, &y, "#d2d8ea", C_SLEEP, "system asleep");

	/* The step line and the failure marker, drawn as what they are. */
	if (x + 22 + CHAR_W * 24 > WIDTH - MARGIN) {
		x = MARGIN;
		y += 20;
	}
	dmn__rpt_out_puts(s->o, "<path d=\"M");
	num(s, x);
	dmn__rpt_out_putc(s->o, ' ');
	num(s, y - 1);
	dmn__rpt_out_puts(s->o, " h6 v-8 h10\" fill=\"none\" stroke=\"" C_STEP
			   "\" stroke-width=\"1.5\"/>\n");
	text(s, x + 22, y, "font-size=\"12\" fill=\"" C_MUTED "\"",
	     "pstate (scaled per lane)");
	x += 22 + CHAR_W * 24 + 24;
	if (s->any_failure)
		marker_legend(s, &x, &y, C_FAIL, "failed, rolled back");
	if (s->any_safe_failure)
		marker_legend(s, &x, &y, C_SAFE,
			      "failed, safe (left as it was)");
	s->o = real;
	return y + 16;
}

/* A tick step of 1, 2 or 5 times a power of ten giving 6 to 12 ticks. */
static uint64_t tick_step(uint64_t span)
{
	uint64_t mag = 1;

	while (mag <= UINT64_MAX / 10 && mag * 10 <= span / 6)
		mag *= 10;
	if (span / (mag * 5) >= 6)
		return mag * 5;
	if (span / (mag * 2) >= 6)
		return mag * 2;
	return mag;
}

static void axis(struct svg *s, double top, double bottom)
{
	uint64_t step = tick_step(s->span);
	char label[RPT_NUM_LEN];

	/* Grid lines over the lanes: light enough to read the bars through. */
	for (uint64_t t = 0; t <= s->span; t += step) {
		double x = x_of(s, t);
		dmn__rpt_out_puts(s->o, "<line");
		attr_num(s, "x1", x);
		attr_num(s, "y1", top);
		attr_num(s, "x2", x);
		attr_num(s, "y2", bottom + 5);
		dmn__rpt_out_puts(
		    s->o, " stroke=\"" C_GRID "\" stroke-opacity=\"0.35\""
			  " stroke-width=\"1\" stroke-dasharray=\"2,3\"/>\n");
		text(s, x, bottom + 19,
		     "font-size=\"11\" text-anchor=\"middle\" fill=\"" C_MUTED
		     "\"",
		     dmn__rpt_fmt_time_as(label, t, s->span));
		if (s->span - t < step)
			break;
	}
	dmn__rpt_out_puts(s->o, "<line");
	attr_num(s, "x1", PLOT_X);
	attr_num(s, "y1", bottom);
	attr_num(s, "x2", PLOT_RIGHT);
	attr_num(s, "y2", bottom);
	dmn__rpt_out_puts(s->o, " stroke=\"" C_MUTED "\" stroke-width=\"1\"/>\n");
	text(s, PLOT_RIGHT, bottom + 36,
	     "font-size=\"11\" text-anchor=\"end\" fill=\"" C_MUTED "\"",
	     "time");
}

static void tooltip(struct svg *s, const char *a, const char *b)
{
	dmn__rpt_out_puts(s->o, "<title>");
	dmn__rpt_out_xml_str(s->o, a);
	dmn__rpt_out_xml_str(s->o, b);
	dmn__rpt_out_puts(s->o, "</title>");
}

static void lane_label(struct svg *s, const struct dmn_report_domain *d,
		       const struct tl_domain *t, double y, unsigned depth)
{
	char shortened[LABEL_CHARS * 4 + 4], sub[RPT_PHRASE_LEN];
	const char *name = d->name ? d->name : "?";

	/* Cut at a character boundary; the full name is in the tooltip. */
	if (dmn__rpt_text_width(name) > LABEL_CHARS) {
		size_t i = 0, chars = 0;
		while (name[i] && chars < LABEL_CHARS - 1) {
			i++;
			while ((name[i] & 0xC0) == 0x80)
				i++;
			chars++;
		}
		memcpy(shortened, name, i);
		memcpy(shortened + i, "\u2026", sizeof("\u2026"));
	} else {
		snprintf(shortened, sizeof(shortened), "%s", name);
	}
	/* a subdomain sits under its parent, indented (capped: deep trees
	 * keep their names readable) */
	double indent = 10.0 * (depth < 8 ? depth : 8);
	dmn__rpt_out_puts(s->o, "<g>");
	tooltip(s, name, "");
	text(s, MARGIN + indent, y + 19,
	     "font-size=\"13\" font-weight=\"bold\" fill=\"" C_TEXT "\"",
	     shortened);
	if (t->max_level)
		snprintf(sub, sizeof(sub), "pstate 0\u2013%" PRIu32,
			 t->max_level);
	else
		snprintf(sub, sizeof(sub), "no pstate");
	text(s, MARGIN + indent, y + 34, "font-size=\"10\" fill=\"" C_MUTED "\"",
	     sub);
	dmn__rpt_out_puts(s->o, "</g>\n");
}

/* A step plot's samples, whatever they hold (levels, rates). */
typedef void (*sample_fn)(const void *arr, unsigned i, uint64_t *t,
			  uint64_t *v);

static double value_y(double lane_y, uint64_t v, uint64_t max)
{
	double top = lane_y + STEP_TOP, bottom = lane_y + LANE_H - STEP_BOTTOM;
	return bottom - (bottom - top) * ((double)v / (double)(max ? max : 1));
}

/*
 * The step line: steps less than a pixel after the last one drawn are
 * merged into one vertical stroke over the range they covered, ending at
 * the last value, so the path has at most a few commands per pixel.
 */
static void step_path(struct svg *s, double y, const void *arr, unsigned n,
		      sample_fn at, uint64_t max)
{
	uint64_t t, v, lo, hi, last;
	unsigned pending = 0;
	double px;

	if (!n)
		return;
	at(arr, 0, &t, &v);
	px = x_of(s, t);
	lo = hi = last = v;
	dmn__rpt_out_puts(s->o, "<path d=\"M");
	num(s, px);
	dmn__rpt_out_putc(s->o, ' ');
	num(s, value_y(y, v, max));
	for (unsigned i = 1; i <= n; i++) {
		double x = PLOT_RIGHT;
		if (i < n) {
			at(arr, i, &t, &v);
			x = x_of(s, t);
			if (x - px < 1.0) {
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
				last = v;
				pending++;
				continue;
			}
		}
		if (pending) {
			dmn__rpt_out_puts(s->o, " V");
			num(s, value_y(y, lo, max));
			dmn__rpt_out_puts(s->o, " V");
			num(s, value_y(y, hi, max));
			dmn__rpt_out_puts(s->o, " V");
			num(s, value_y(y, last, max));
			s->merged += pending;
			pending = 0;
		}
		dmn__rpt_out_puts(s->o, " H");
		num(s, x);
		if (i < n) {
			dmn__rpt_out_puts(s->o, " V");
			num(s, value_y(y, v, max));
		}
		px = x;
		lo = hi = last = v;
	}
	dmn__rpt_out_puts(s->o, "\" fill=\"none\" stroke=\"" C_STEP
			   "\" stroke-width=\"1.5\""
			   " stroke-linejoin=\"round\"/>\n");
}

static void level_sample(const void *arr, unsigned i, uint64_t *t,
			 uint64_t *v)
{
	const struct tl_step *st = arr;
	*t = st[i].time;
	*v = st[i].level;
}

static void hz_sample(const void *arr, unsigned i, uint64_t *t, uint64_t *v)
{
	const struct tl_step_hz *st = arr;
	*t = st[i].time;
	*v = st[i].hz;
}

/* A tick at the plot's left edge for each level of the domain's table up
 * to the lane's top (the top alone where it has no table). */
static void level_ticks(struct svg *s, const struct dmn_report_domain *d,
			const struct tl_domain *t, double y)
{
	int any = 0;
	dmn__rpt_out_puts(s->o, "<path d=\"");
	for (unsigned k = 0; d->level_values && k < d->n_levels; k++) {
		if (d->level_values[k] > t->max_level)
			continue;
		dmn__rpt_out_puts(s->o, any++ ? " M" : "M");
		num(s, PLOT_X - 5);
		dmn__rpt_out_putc(s->o, ' ');
		num(s, value_y(y, d->level_values[k], t->max_level));
		dmn__rpt_out_puts(s->o, " h5");
	}
	if (!any) {
		dmn__rpt_out_puts(s->o, "M");
		num(s, PLOT_X - 5);
		dmn__rpt_out_putc(s->o, ' ');
		num(s, value_y(y, t->max_level, t->max_level));
		dmn__rpt_out_puts(s->o, " h5");
	}
	dmn__rpt_out_puts(s->o, "\" stroke=\"" C_STEP "\" stroke-width=\"1\"/>\n");
}

/* Periods shorter than a pixel, gathered into one mark. */
struct merge {
	double x0, x1;
	const char *fill; /* NULL once states mix */
	unsigned n;
	uint64_t start, end;
};

static void merge_flush(struct svg *s, struct merge *g, double y,
			const char *name)
{
	char a[RPT_NUM_LEN], b[RPT_NUM_LEN], tip[160];
	if (!g->n)
		return;
	dmn__rpt_out_puts(s->o, "<rect");
	attr_num(s, "x", g->x0);
	attr_num(s, "y", y + BAR_PAD);
	attr_num(s, "width", g->x1 - g->x0 < 1.0 ? 1.0 : g->x1 - g->x0);
	attr_num(s, "height", LANE_H - 2 * BAR_PAD);
	/* several states within a pixel: a paler mark */
	dmn__rpt_out_printf(s->o, " fill=\"%s\"%s>", g->fill ? g->fill : C_ON,
		       g->fill ? "" : " fill-opacity=\"0.5\"");
	snprintf(tip, sizeof(tip),
		 ": %u period%s shorter than a pixel, %s \u2013 %s", g->n,
		 g->n == 1 ? "" : "s", dmn__rpt_fmt_time_short(a, g->start),
		 dmn__rpt_fmt_time_short(b, g->end));
	tooltip(s, name, tip);
	dmn__rpt_out_puts(s->o, "</rect>\n");
	if (g->n > 1)
		s->merged += g->n - 1;
	g->n = 0;
}

/* Width a pstate label needs, with its margins. */
static double label_w(const char *label)
{
	return STEP_CHAR_W * (double)dmn__rpt_text_width(label) + 6;
}

static double level_y(const struct tl_domain *t, double lane_y, uint32_t lvl)
{
	double top = lane_y + STEP_TOP, bottom = lane_y + LANE_H - STEP_BOTTOM;
	return bottom - (bottom - top) * ((double)lvl / (double)t->max_level);
}

/* A lane's background across the plot. */
static void lane_box(struct svg *s, double y, const char *fill)
{
	dmn__rpt_out_puts(s->o, "<rect");
	attr_num(s, "x", PLOT_X);
	attr_num(s, "y", y);
	attr_num(s, "width", PLOT_W);
	attr_num(s, "height", LANE_H);
	dmn__rpt_out_printf(s->o, " fill=\"%s\" stroke=\"" C_LANE_EDGE "\"/>\n",
		       fill);
}

/* The right edge of a period ending at @end: the last runs to the plot's
 * edge, so the last instant has width. */
static double x_end(const struct svg *s, uint64_t end)
{
	return end >= s->end ? PLOT_RIGHT : x_of(s, end);
}

/* HW-mode periods: a strip along the bottom of the lane's bar. */
static void hw_strips(struct svg *s, const struct dmn_report_domain *d,
		      const struct tl_domain *t, double y)
{
	char a[RPT_NUM_LEN], b[RPT_NUM_LEN], tip[96];
	for (unsigned i = 0; i < t->n_hw; i++) {
		double x0 = x_of(s, t->hw[i].start), x1 = x_end(s, t->hw[i].end);
		dmn__rpt_out_puts(s->o, "<rect class=\"hw\"");
		attr_num(s, "x", x0);
		attr_num(s, "y", y + LANE_H - BAR_PAD - HW_STRIP);
		attr_num(s, "width", x1 - x0 < 1.0 ? 1.0 : x1 - x0);
		attr_num(s, "height", HW_STRIP);
		dmn__rpt_out_puts(s->o, " fill=\"" C_HW "\">");
		snprintf(tip, sizeof(tip), ": hw mode, %s \u2013 %s",
			 dmn__rpt_fmt_time_short(a, t->hw[i].start),
			 dmn__rpt_fmt_time_short(b, t->hw[i].end));
		tooltip(s, d->name, tip);
		dmn__rpt_out_puts(s->o, "</rect>\n");
	}
}

/* System sleep: a band across every lane, drawn over them, translucent. */
static void sleep_bands(struct svg *s, double top, double bottom)
{
	char a[RPT_NUM_LEN], b[RPT_NUM_LEN], tip[96];
	for (unsigned i = 0; i < s->tl.n_sleep; i++) {
		const struct tl_span *p = &s->tl.sleep[i];
		double x0 = x_of(s, p->start), x1 = x_end(s, p->end);
		dmn__rpt_out_puts(s->o, "<g class=\"sleep\"><rect");
		attr_num(s, "x", x0);
		attr_num(s, "y", top);
		attr_num(s, "width", x1 - x0 < 1.0 ? 1.0 : x1 - x0);
		attr_num(s, "height", bottom - top);
		dmn__rpt_out_puts(s->o, " fill=\"" C_SLEEP "\" fill-opacity=\"0.12\""
				   " stroke=\"" C_SLEEP "\" stroke-opacity=\"0.5\""
				   " stroke-dasharray=\"4,3\">");
		snprintf(tip, sizeof(tip), "system asleep, %s \u2013 %s",
			 dmn__rpt_fmt_time_short(a, p->start),
			 dmn__rpt_fmt_time_short(b, p->end));
		tooltip(s, tip, "");
		dmn__rpt_out_puts(s->o, "</rect>");
		text(s, x0 + 3, top + 10,
		     "font-size=\"10\" fill=\"" C_SLEEP "\"", "asleep");
		dmn__rpt_out_puts(s->o, "</g>\n");
	}
}

static void lane(struct svg *s, unsigned di, double y, unsigned depth)
{
	const struct dmn_report_domain *d = &s->m->domains[di];
	const struct tl_domain *t = &s->tl.domains[di];
	char a[RPT_NUM_LEN], b[RPT_NUM_LEN], c[RPT_NUM_LEN], tip[160];

	dmn__rpt_out_printf(s->o, "<g id=\"lane-%u\" class=\"lane\">\n", di);
	lane_label(s, d, t, y, depth);
	lane_box(s, y, C_LANE);

	struct merge g = {0};
	for (unsigned i = 0; i < t->n_periods; i++) {
		const struct tl_period *p = &t->periods[i];
		/* the last period runs to the plot's edge: the last
		 * instant has width */
		double x0 = x_of(s, p->start),
		       x1 = p->end >= s->end ? PLOT_RIGHT : x_of(s, p->end);
		const char *fill = p->on ? C_ON
				   : p->idle_state
				       ? idle_shade(s, p->idle_state)
				       : NULL;
		if (!fill || (p->end <= p->start && p->end < s->end))
			continue; /* plain off is the lane itself */
		if (x1 - x0 < 1.0) {
			if (g.n && x0 - g.x1 < 1.0) {
				g.x1 = x1 > g.x1 ? x1 : g.x1;
				g.end = p->end;
				if (g.fill != fill)
					g.fill = NULL;
				g.n++;
				continue;
			}
			merge_flush(s, &g, y, d->name);
			g = (struct merge){x0, x1, fill, 1, p->start, p->end};
			continue;
		}
		merge_flush(s, &g, y, d->name);
		dmn__rpt_out_puts(s->o, "<rect");
		attr_num(s, "x", x0);
		attr_num(s, "y", y + BAR_PAD);
		attr_num(s, "width", x1 - x0 < 0.5 ? 0.5 : x1 - x0);
		attr_num(s, "height", LANE_H - 2 * BAR_PAD);
		dmn__rpt_out_printf(s->o, " fill=\"%s\"%s>", fill,
			       p->on ? " stroke=\"" C_ON_EDGE
				       "\" stroke-width=\"0.5\""
				     : "");
		snprintf(tip, sizeof(tip), ": %s, %s \u2013 %s (%s)",
			 p->on ? "on" : p->idle_state,
			 dmn__rpt_fmt_time_short(a, p->start),
			 dmn__rpt_fmt_time_short(b, p->end),
			 dmn__rpt_fmt_time_short(c, p->end - p->start));
		tooltip(s, d->name, tip);
		dmn__rpt_out_puts(s->o, "</rect>\n");
	}
	merge_flush(s, &g, y, d->name);
	hw_strips(s, d, t, y);

	if (t->max_level) {
		double last_label = -1e9;
		level_ticks(s, d, t, y);
		step_path(s, y, t->steps, t->n_steps, level_sample,
			  t->max_level);
		for (unsigned i = 0; i < t->n_steps; i++) {
			double x = x_of(s, t->steps[i].time);
			double room =
			    (i + 1 < t->n_steps ? x_of(s, t->steps[i + 1].time)
						: PLOT_RIGHT) -
			    x;
			const char *lname =
			    dmn__rpt_level_name(&s->lv, d, t->steps[i].level);
			char lvl[48];
			if (i && x - last_label < STEP_LABEL_GAP)
				continue;
			/* "256 nom" where the level has a name and there is
			 * room before the next step, else just "256". */
			snprintf(lvl, sizeof(lvl), "%" PRIu32 "%s%.32s",
				 t->steps[i].level, lname ? " " : "",
				 lname ? lname : "");
			if (lname && label_w(lvl) > room)
				snprintf(lvl, sizeof(lvl), "%" PRIu32,
					 t->steps[i].level);
			/* A level held too briefly for its number stays
			 * unlabelled: labels must not pile up. */
			if (label_w(lvl) > room)
				continue;
			text(s, x + 3, level_y(t, y, t->steps[i].level) - 3,
			     "font-size=\"10\" fill=\"" C_STEP "\"", lvl);
			last_label = x;
		}
	}
	dmn__rpt_out_puts(s->o, "</g>\n");
}

static void failures(struct svg *s, const unsigned *pos, double *last_x)
{
	const struct dmn_report_model *m = s->m;
	char what[320], why[320];
	const char *colour;

	for (unsigned i = 0; m->events && i < m->n_events; i++) {
		const struct dmn_report_event *e = &m->events[i];
		int di = s->tl.event_domain[i];
		double x, y;
		if (e->kind != DMN_REPORT_EV_FAILURE || di < 0 ||
		    e->time_ns > s->tl.end || pos[di] == UINT32_MAX)
			continue;
		x = x_of(s, e->time_ns);
		/* one marker a pixel: its tooltip tells the first */
		if (x - last_x[di] < 1.0) {
			s->merged++;
			continue;
		}
		last_x[di] = x;
		y = s->lanes_top + LANE_PITCH * pos[di];
		colour = e->safe ? C_SAFE : C_FAIL;
		dmn__rpt_describe_event(what, sizeof(what), e, &s->lv,
					&m->domains[di]);
		why[0] = ' ';
		dmn__rpt_describe_cause(why + 1, sizeof(why) - 1, e);
		dmn__rpt_out_puts(s->o, "<g class=\"failure\">");
		tooltip(s, what, why[1] ? why : "");
		dmn__rpt_out_puts(s->o, "<line");
		attr_num(s, "x1", x);
		attr_num(s, "y1", y);
		attr_num(s, "x2", x);
		attr_num(s, "y2", y + LANE_H);
		dmn__rpt_out_printf(s->o, " stroke=\"%s\" stroke-width=\"1.5\"/>",
			       colour);
		dmn__rpt_out_puts(s->o, "<path d=\"M");
		num(s, x - 6);
		dmn__rpt_out_putc(s->o, ' ');
		num(s, y - 1);
		dmn__rpt_out_printf(s->o, " h12 l-6 9 z\" fill=\"%s\"/>", colour);
		dmn__rpt_out_puts(s->o, "</g>\n");
	}
}

/* Did anything happen to the domain: a power or pstate change, a
 * failure? One that never changed is left out of the picture. */
static int lane_changes(const struct svg *s, unsigned di, const char *failed)
{
	const struct tl_domain *t = &s->tl.domains[di];
	return t->n_periods > 1 || t->n_steps > 1 || t->n_hw || failed[di];
}

/*
 * The lanes in tree order: each root, then its subdomains depth first (a
 * child of several parents under the first that reaches it), then any
 * domain a cycle left unreached. Lanes that never change are counted in
 * s->hidden and left out. 0 or -ENOMEM.
 */
static int lane_order(struct svg *s, const struct dmn_report_index *ix)
{
	const struct dmn_report_model *m = s->m;
	unsigned n = m->n_domains, top = 0;
	size_t cap = n;
	char *seen = NULL, *failed = NULL;
	unsigned *stack = NULL, *sdepth = NULL;
	int rc = -ENOMEM;

	for (unsigned i = 0; i < n; i++)
		cap += m->domains[i].n_children;
	s->order = malloc((n ? n : 1) * sizeof(*s->order));
	s->depth = calloc(n ? n : 1, sizeof(*s->depth));
	seen = calloc(n ? n : 1, 1);
	failed = calloc(n ? n : 1, 1);
	stack = malloc((cap ? cap : 1) * sizeof(*stack));
	sdepth = malloc((cap ? cap : 1) * sizeof(*sdepth));
	if (!s->order || !s->depth || !seen || !failed || !stack || !sdepth)
		goto out;
	for (unsigned i = 0; m->events && i < m->n_events; i++)
		if (m->events[i].kind == DMN_REPORT_EV_FAILURE &&
		    s->tl.event_domain[i] >= 0)
			failed[s->tl.event_domain[i]] = 1;
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned r = 0; r < n; r++) {
			if (seen[r] || (!pass && m->domains[r].n_parents))
				continue;
			stack[top] = r;
			sdepth[top++] = 0;
			while (top) {
				unsigned d = stack[--top], dep = sdepth[top];
				const struct dmn_report_domain *dm = &m->domains[d];
				if (seen[d])
					continue;
				seen[d] = 1;
				s->depth[d] = dep;
				if (lane_changes(s, d, failed))
					s->order[s->n_order++] = d;
				else
					s->hidden++;
				/* pushed last first, so they come out in order */
				for (unsigned k = dm->n_children; k-- > 0;) {
					int c = dmn__rpt_index_find(ix, dm->children[k]);
					if (c >= 0 && !seen[c] && top < cap) {
						stack[top] = (unsigned)c;
						sdepth[top++] = dep + 1;
					}
				}
			}
		}
	}
	rc = 0;
out:
	free(seen);
	free(failed);
	free(stack);
	free(sdepth);
	return rc;
}

/* A lane per device whose rate changes, from the rate events. */
static int rate_lanes(struct svg *s)
{
	const struct dmn_report_model *m = s->m;
	for (unsigned i = 0; m->events && i < m->n_events; i++) {
		const struct dmn_report_event *e = &m->events[i];
		const char *dev = e->device ? e->device : "?";
		struct rate_lane *r = NULL;
		if (e->kind != DMN_REPORT_EV_RATE || e->time_ns > s->end)
			continue;
		/* few devices change rate: a scan of them is cheap */
		for (unsigned k = 0; k < s->n_rates && !r; k++)
			if (!strcmp(s->rates[k].device, dev))
				r = &s->rates[k];
		if (!r) {
			struct rate_lane *bigger =
			    realloc(s->rates, (s->n_rates + 1) * sizeof(*bigger));
			if (!bigger)
				return -ENOMEM;
			s->rates = bigger;
			r = &s->rates[s->n_rates++];
			memset(r, 0, sizeof(*r));
			r->device = dev;
		}
		for (int first = !r->n_steps; first >= 0; first--) {
			if (r->n_steps == r->cap) {
				unsigned cap = r->cap ? r->cap * 2 : 16;
				struct tl_step_hz *more =
				    realloc(r->steps, cap * sizeof(*more));
				if (!more)
					return -ENOMEM;
				r->steps = more;
				r->cap = cap;
			}
			/* the first change also gives the rate before it */
			struct tl_step_hz st = {first ? 0 : e->time_ns,
						first ? e->old_hz : e->new_hz};
			r->steps[r->n_steps++] = st;
			if (st.hz > r->max_hz)
				r->max_hz = st.hz;
		}
	}
	return 0;
}

static void rate_lane(struct svg *s, const struct rate_lane *r, double y)
{
	char label[LABEL_CHARS * 4 + 16], hz[RPT_NUM_LEN], sub[RPT_PHRASE_LEN];
	snprintf(label, sizeof(label), "%.*s clock", LABEL_CHARS * 3,
		 r->device);
	dmn__rpt_out_puts(s->o, "<g class=\"rate\">\n<g>");
	tooltip(s, r->device, " clock rate");
	text(s, MARGIN, y + 19,
	     "font-size=\"13\" font-style=\"italic\" fill=\"" C_TEXT "\"",
	     label);
	snprintf(sub, sizeof(sub), "rate 0\u2013%s", dmn__rpt_fmt_hz(hz, r->max_hz));
	text(s, MARGIN, y + 34, "font-size=\"10\" fill=\"" C_MUTED "\"", sub);
	dmn__rpt_out_puts(s->o, "</g>\n");
	lane_box(s, y, "#ffffff");
	step_path(s, y, r->steps, r->n_steps, hz_sample, r->max_hz);
	dmn__rpt_out_puts(s->o, "</g>\n");
}

/* Energy (docs/energy.md): the sum of every part's power over the run,
 * one sample per instant it changes. */
static int power_steps(struct svg *s)
{
	const struct dmn_report_energy *e = s->m->energy;
	if (!e || !e->has_times || !e->steps || !e->n_steps)
		return 0;
	uint64_t *now = calloc(e->n_parts ? e->n_parts : 1, sizeof(*now));
	s->power = malloc(e->n_steps * sizeof(*s->power));
	if (!now || !s->power) {
		free(now);
		return -ENOMEM;
	}
	uint64_t total = 0;
	for (unsigned i = 0; i < e->n_steps; i++) {
		const struct dmn_report_power_step *st = &e->steps[i];
		if (st->part >= e->n_parts || (st->time_ns >= s->end && st->time_ns != e->start_ns))
			continue;
		total = total - now[st->part] + st->power_uw;
		now[st->part] = st->power_uw;
		if (s->n_power && s->power[s->n_power - 1].time == st->time_ns)
			s->n_power--;
		s->power[s->n_power++] = (struct tl_step_hz){st->time_ns, total};
		if (total > s->max_power)
			s->max_power = total;
	}
	free(now);
	return 0;
}

static void power_lane(struct svg *s, double y)
{
	const struct dmn_report_energy *e = s->m->energy;
	char sub[RPT_PHRASE_LEN * 2], pw[DMN_ENERGY_TEXT_LEN], en[DMN_ENERGY_TEXT_LEN];
	dmn__rpt_out_puts(s->o, "<g class=\"power\">\n<g>");
	tooltip(s, "power", e->lower_bound ? " drawn by every domain and device (a lower "
					     "bound: some states have no power)"
					   : " drawn by every domain and device");
	text(s, MARGIN, y + 19,
	     "font-size=\"13\" font-style=\"italic\" fill=\"" C_TEXT "\"", "power (total)");
	snprintf(sub, sizeof(sub), "0\u2013%s, %s%s",
		 dmn_energy_format_power(s->max_power, 0, 0, pw),
		 dmn_energy_format_short(e->total, 0, en), e->lower_bound ? " (lower bound)" : "");
	text(s, MARGIN, y + 34, "font-size=\"10\" fill=\"" C_MUTED "\"", sub);
	dmn__rpt_out_puts(s->o, "</g>\n");
	lane_box(s, y, "#ffffff");
	step_path(s, y, s->power, s->n_power, hz_sample, s->max_power);
	dmn__rpt_out_puts(s->o, "</g>\n");
}

int dmn_report_write_svg(const struct dmn_report_model *m, const struct dmn_report_sink *sink)
{
	struct dmn_report_out o;
	struct dmn_report_index ix;
	struct svg s = {0};
	char t_end[RPT_NUM_LEN], sub[160];
	double height, lanes_bottom, *last_x = NULL;
	unsigned *pos = NULL, n_lanes;
	int rc;

	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	if (!m || (m->n_domains && !m->domains))
		return -EINVAL;
	if (dmn__rpt_index_build(&ix, m))
		return -ENOMEM;
	rc = dmn__rpt_timeline_build(&s.tl, m, &ix);
	if (rc) {
		dmn__rpt_index_free(&ix);
		return rc;
	}
	rc = dmn__rpt_levels_build(&s.lv, m);
	if (rc) {
		dmn__rpt_timeline_free(&s.tl);
		dmn__rpt_index_free(&ix);
		return rc;
	}
	s.o = &o;
	s.m = m;
	s.end = s.tl.end;
	/* past the end by 2.5%: what happens at the last instant shows
	 * (no further than UINT64_MAX: a run that ends near it wrapped to
	 * an axis 1/40 as long) */
	uint64_t pad = s.end / 40 ? s.end / 40 : 1;
	s.span = s.end > UINT64_MAX - pad ? UINT64_MAX : s.end + pad;
	rc = lane_order(&s, &ix);
	dmn__rpt_index_free(&ix);
	if (!rc)
		rc = rate_lanes(&s);
	if (!rc)
		rc = power_steps(&s);
	if (!rc)
		rc = collect_idle_names(&s);
	if (rc)
		goto out;
	pos = malloc((m->n_domains ? m->n_domains : 1) * sizeof(*pos));
	last_x = malloc((m->n_domains ? m->n_domains : 1) * sizeof(*last_x));
	if (!pos || !last_x) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < m->n_domains; i++) {
		pos[i] = UINT32_MAX;
		last_x[i] = -1e9;
		if (s.tl.domains[i].n_hw)
			s.any_hw = 1;
	}
	for (unsigned i = 0; i < s.n_order; i++)
		pos[s.order[i]] = i;
	n_lanes = s.n_order + s.n_rates + (s.n_power > 0);
	for (unsigned i = 0; m->events && i < m->n_events; i++)
		if (m->events[i].kind == DMN_REPORT_EV_FAILURE &&
		    s.tl.event_domain[i] >= 0) {
			if (m->events[i].safe)
				s.any_safe_failure = 1;
			else
				s.any_failure = 1;
		}

	s.lanes_top = legend(&s, 78, 0) + 12;
	lanes_bottom = s.lanes_top + LANE_PITCH * n_lanes - (LANE_PITCH - LANE_H);
	if (!n_lanes)
		lanes_bottom = s.lanes_top;
	height = lanes_bottom + 48 + 18; /* the axis, then the note */

	dmn__rpt_out_puts(
	    &o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
	attr_num(&s, "width", WIDTH);
	attr_num(&s, "height", height);
	dmn__rpt_out_puts(&o, " viewBox=\"0 0 ");
	num(&s, WIDTH);
	dmn__rpt_out_putc(&o, ' ');
	num(&s, height);
	dmn__rpt_out_puts(&o, "\" font-family=\"" FONT "\">\n<title>");
	dmn__rpt_out_xml_str(&o, m->board ? m->board : "domino");
	dmn__rpt_out_puts(&o, " \u2014 power-domain timeline</title>\n<desc>");
	dmn__rpt_out_xml_str(&o, "Generated by domino: one lane per power domain.");
	dmn__rpt_out_puts(&o, "</desc>\n");
	dmn__rpt_out_puts(&o, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\""
			 " fill=\"#ffffff\"/>\n");

	{
		char title[256];
		snprintf(title, sizeof(title),
			 "%s \u2014 power-domain timeline",
			 m->board ? m->board : "domino");
		text(&s, MARGIN, 30,
		     "font-size=\"18\" font-weight=\"bold\" fill=\"" C_TEXT
		     "\"",
		     title);
	}
	snprintf(sub, sizeof(sub), "%s%s%u domain%s, 0 \u2013 %s",
		 m->model ? m->model : "", m->model ? " \u00b7 " : "",
		 m->n_domains, m->n_domains == 1 ? "" : "s",
		 dmn__rpt_fmt_time_short(t_end, s.tl.end));
	text(&s, MARGIN, 50, "font-size=\"12\" fill=\"" C_MUTED "\"", sub);
	legend(&s, 78, 1);

	for (unsigned i = 0; i < s.n_order; i++)
		lane(&s, s.order[i], s.lanes_top + LANE_PITCH * i,
		     s.depth[s.order[i]]);
	for (unsigned i = 0; i < s.n_rates; i++)
		rate_lane(&s, &s.rates[i],
			  s.lanes_top + LANE_PITCH * (s.n_order + i));
	if (s.n_power)
		power_lane(&s, s.lanes_top + LANE_PITCH * (s.n_order + s.n_rates));
	axis(&s, s.lanes_top - 4, lanes_bottom + 4);
	sleep_bands(&s, s.lanes_top - 4, lanes_bottom + 4);
	failures(&s, pos, last_x);
	/* the run's end, inside the plot: the margin after it is no time */
	{
		double x = x_of(&s, s.end);
		dmn__rpt_out_puts(&o, "<line class=\"end\"");
		attr_num(&s, "x1", x);
		attr_num(&s, "y1", s.lanes_top - 8);
		attr_num(&s, "x2", x);
		attr_num(&s, "y2", lanes_bottom + 4);
		dmn__rpt_out_puts(&o, " stroke=\"" C_TEXT "\" stroke-width=\"1\"/>\n");
		text(&s, x, s.lanes_top - 10,
		     "font-size=\"10\" text-anchor=\"middle\" fill=\"" C_MUTED "\"",
		     "end");
	}
	{
		char note[200];
		snprintf(note, sizeof(note),
			 "%u domain%s that never changed not drawn; %u change%s "
			 "shorter than a pixel merged into the marks around them",
			 s.hidden, s.hidden == 1 ? "" : "s", s.merged,
			 s.merged == 1 ? "" : "s");
		dmn__rpt_out_puts(&o, "<g class=\"note\">");
		text(&s, MARGIN, lanes_bottom + 58,
		     "font-size=\"11\" fill=\"" C_MUTED "\"", note);
		dmn__rpt_out_puts(&o, "</g>\n");
	}
	dmn__rpt_out_puts(&o, "</svg>\n");
	rc = dmn__rpt_out_finish(&o);
out:
	free(pos);
	free(last_x);
	free(s.order);
	free(s.depth);
	for (unsigned i = 0; i < s.n_rates; i++)
		free(s.rates[i].steps);
	free(s.rates);
	free(s.power);
	free(s.idle_names);
	dmn__rpt_timeline_free(&s.tl);
	dmn__rpt_levels_free(&s.lv);
	return rc;
}
