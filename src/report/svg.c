/* SPDX-License-Identifier: MIT */
/*
 * The SVG timeline: a title, a legend, one lane per domain and a time axis.
 * In a lane, on periods are a filled bar, idle periods are shaded by state
 * (one shade per idle-state name across the document), plain off is left
 * light, and the pstate is a step line scaled to the lane's highest level,
 * labelled where it changes. Failures are red markers with a tooltip.
 * Plain SVG 1.1 with presentation attributes only (no CSS, no scripts), so
 * browsers, rsvg and Inkscape render it alike.
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

/* Idle states: muted, clearly different from the green of "on". */
static const char *const idle_shades[] = {
    "#a9bde8", "#c7b3e5", "#9fd3d6", "#e7c59f", "#e3a9c1",
    "#bfc99a", "#b0b7c3", "#d8d08a", "#9fb4c7", "#d5b7a4",
};
#define N_SHADES (sizeof(idle_shades) / sizeof(idle_shades[0]))

struct svg {
	struct rpt_out *o;
	const struct rpt_model *m;
	struct rpt_timeline tl;
	uint64_t span;		 /* the plotted time range, never 0 */
	const char **idle_names; /* distinct idle-state names, first seen */
	unsigned n_idle_names;
	int any_plain_off, any_failure, any_safe_failure;
	double lanes_top;
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
	rpt_out_puts(s->o, rpt_fmt_coord(b, v));
}

static void attr_num(struct svg *s, const char *name, double v)
{
	rpt_out_printf(s->o, " %s=\"", name);
	num(s, v);
	rpt_out_putc(s->o, '"');
}

static void text(struct svg *s, double x, double y, const char *attrs,
		 const char *content)
{
	rpt_out_puts(s->o, "<text");
	attr_num(s, "x", x);
	attr_num(s, "y", y);
	rpt_out_printf(s->o, " %s>", attrs);
	rpt_out_xml_str(s->o, content);
	rpt_out_puts(s->o, "</text>\n");
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
	double w = 16 + 6 + CHAR_W * (double)rpt_text_width(label) + 18;

	if (*x + w > WIDTH - MARGIN) {
		*x = MARGIN;
		*y += 20;
	}
	rpt_out_puts(s->o, "<rect");
	attr_num(s, "x", *x);
	attr_num(s, "y", *y - 10);
	rpt_out_printf(s->o,
		       " width=\"16\" height=\"12\" rx=\"2\" fill=\"%s\""
		       " stroke=\"%s\"/>\n",
		       fill, stroke);
	text(s, *x + 22, *y, "font-size=\"12\" fill=\"" C_MUTED "\"", label);
	*x += w;
}

static void marker_legend(struct svg *s, double *x, double *y, const char *fill,
			  const char *label)
{
	double w = 22 + CHAR_W * (double)rpt_text_width(label) + 24;

	if (*x + w > WIDTH - MARGIN) {
		*x = MARGIN;
		*y += 20;
	}
	rpt_out_puts(s->o, "<path d=\"M");
	num(s, *x + 2);
	rpt_out_putc(s->o, ' ');
	num(s, *y - 10);
	rpt_out_printf(s->o, " h12 l-6 10 z\" fill=\"%s\"/>\n", fill);
	text(s, *x + 22, *y, "font-size=\"12\" fill=\"" C_MUTED "\"", label);
	*x += w;
}

/* The legend; returns the y below it. Drawing is skipped when @draw is 0
 * (the lanes' position depends on how many rows it needs). */
static double legend(struct svg *s, double y, int draw)
{
	struct rpt_out *real = s->o, sink_null;
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

	/* The step line and the failure marker, drawn as what they are. */
	if (x + 22 + CHAR_W * 24 > WIDTH - MARGIN) {
		x = MARGIN;
		y += 20;
	}
	rpt_out_puts(s->o, "<path d=\"M");
	num(s, x);
	rpt_out_putc(s->o, ' ');
	num(s, y - 1);
	rpt_out_puts(s->o, " h6 v-8 h10\" fill=\"none\" stroke=\"" C_STEP
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
		rpt_out_puts(s->o, "<line");
		attr_num(s, "x1", x);
		attr_num(s, "y1", top);
		attr_num(s, "x2", x);
		attr_num(s, "y2", bottom + 5);
		rpt_out_puts(
		    s->o, " stroke=\"" C_GRID "\" stroke-opacity=\"0.35\""
			  " stroke-width=\"1\" stroke-dasharray=\"2,3\"/>\n");
		text(s, x, bottom + 19,
		     "font-size=\"11\" text-anchor=\"middle\" fill=\"" C_MUTED
		     "\"",
		     rpt_fmt_time_as(label, t, s->span));
		if (s->span - t < step)
			break;
	}
	rpt_out_puts(s->o, "<line");
	attr_num(s, "x1", PLOT_X);
	attr_num(s, "y1", bottom);
	attr_num(s, "x2", PLOT_RIGHT);
	attr_num(s, "y2", bottom);
	rpt_out_puts(s->o, " stroke=\"" C_MUTED "\" stroke-width=\"1\"/>\n");
	text(s, PLOT_RIGHT, bottom + 36,
	     "font-size=\"11\" text-anchor=\"end\" fill=\"" C_MUTED "\"",
	     "time");
}

static void tooltip(struct svg *s, const char *a, const char *b)
{
	rpt_out_puts(s->o, "<title>");
	rpt_out_xml_str(s->o, a);
	rpt_out_xml_str(s->o, b);
	rpt_out_puts(s->o, "</title>");
}

static void lane_label(struct svg *s, const struct rpt_domain *d,
		       const struct tl_domain *t, double y)
{
	char shortened[LABEL_CHARS * 4 + 4], sub[64];
	const char *name = d->name ? d->name : "?";

	/* Cut at a character boundary; the full name is in the tooltip. */
	if (rpt_text_width(name) > LABEL_CHARS) {
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
	rpt_out_puts(s->o, "<g>");
	tooltip(s, name, "");
	text(s, MARGIN, y + 19,
	     "font-size=\"13\" font-weight=\"bold\" fill=\"" C_TEXT "\"",
	     shortened);
	if (t->max_level)
		snprintf(sub, sizeof(sub), "pstate 0\u2013%" PRIu32,
			 t->max_level);
	else
		snprintf(sub, sizeof(sub), "no pstate");
	text(s, MARGIN, y + 34, "font-size=\"10\" fill=\"" C_MUTED "\"", sub);
	rpt_out_puts(s->o, "</g>\n");
}

/* Width a pstate label needs, with its margins. */
static double label_w(const char *label)
{
	return STEP_CHAR_W * (double)rpt_text_width(label) + 6;
}

static double level_y(const struct tl_domain *t, double lane_y, uint32_t lvl)
{
	double top = lane_y + STEP_TOP, bottom = lane_y + LANE_H - STEP_BOTTOM;
	return bottom - (bottom - top) * ((double)lvl / (double)t->max_level);
}

static void lane(struct svg *s, unsigned di, double y)
{
	const struct rpt_domain *d = &s->m->domains[di];
	const struct tl_domain *t = &s->tl.domains[di];
	char a[RPT_NUM_LEN], b[RPT_NUM_LEN], c[RPT_NUM_LEN], tip[160];

	rpt_out_printf(s->o, "<g id=\"lane-%u\" class=\"lane\">\n", di);
	lane_label(s, d, t, y);
	rpt_out_puts(s->o, "<rect");
	attr_num(s, "x", PLOT_X);
	attr_num(s, "y", y);
	attr_num(s, "width", PLOT_W);
	attr_num(s, "height", LANE_H);
	rpt_out_puts(s->o,
		     " fill=\"" C_LANE "\" stroke=\"" C_LANE_EDGE "\"/>\n");

	for (unsigned i = 0; i < t->n_periods; i++) {
		const struct tl_period *p = &t->periods[i];
		double x0 = x_of(s, p->start), x1 = x_of(s, p->end);
		const char *fill = p->on ? C_ON
				   : p->idle_state
				       ? idle_shade(s, p->idle_state)
				       : NULL;
		if (!fill || p->end <= p->start)
			continue; /* plain off is the lane itself */
		rpt_out_puts(s->o, "<rect");
		attr_num(s, "x", x0);
		attr_num(s, "y", y + BAR_PAD);
		attr_num(s, "width", x1 - x0 < 0.5 ? 0.5 : x1 - x0);
		attr_num(s, "height", LANE_H - 2 * BAR_PAD);
		rpt_out_printf(s->o, " fill=\"%s\"%s>", fill,
			       p->on ? " stroke=\"" C_ON_EDGE
				       "\" stroke-width=\"0.5\""
				     : "");
		snprintf(tip, sizeof(tip), ": %s, %s \u2013 %s (%s)",
			 p->on ? "on" : p->idle_state,
			 rpt_fmt_time_short(a, p->start),
			 rpt_fmt_time_short(b, p->end),
			 rpt_fmt_time_short(c, p->end - p->start));
		tooltip(s, d->name, tip);
		rpt_out_puts(s->o, "</rect>\n");
	}

	if (t->max_level) {
		double last_label = -1e9;
		rpt_out_puts(s->o, "<path d=\"");
		for (unsigned i = 0; i < t->n_steps; i++) {
			double x = x_of(s, t->steps[i].time);
			double ly = level_y(t, y, t->steps[i].level);
			rpt_out_puts(s->o, i ? " V" : "M");
			if (i) {
				num(s, ly);
			} else {
				num(s, x);
				rpt_out_putc(s->o, ' ');
				num(s, ly);
			}
			rpt_out_puts(s->o, " H");
			num(s, i + 1 < t->n_steps
				   ? x_of(s, t->steps[i + 1].time)
				   : PLOT_RIGHT);
		}
		rpt_out_puts(s->o, "\" fill=\"none\" stroke=\"" C_STEP
				   "\" stroke-width=\"1.5\""
				   " stroke-linejoin=\"round\"/>\n");
		for (unsigned i = 0; i < t->n_steps; i++) {
			double x = x_of(s, t->steps[i].time);
			double room =
			    (i + 1 < t->n_steps ? x_of(s, t->steps[i + 1].time)
						: PLOT_RIGHT) -
			    x;
			const char *lname =
			    rpt_level_name(d, t->steps[i].level);
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
	rpt_out_puts(s->o, "</g>\n");
}

static void failures(struct svg *s)
{
	const struct rpt_model *m = s->m;
	char what[320], why[320];
	const char *colour;

	for (unsigned i = 0; m->events && i < m->n_events; i++) {
		const struct rpt_event *e = &m->events[i];
		int di = s->tl.event_domain[i];
		double x, y;
		if (e->kind != RPT_EV_FAILURE || di < 0 ||
		    e->time_ns > s->tl.end)
			continue;
		x = x_of(s, e->time_ns);
		y = s->lanes_top + LANE_PITCH * di;
		colour = e->safe ? C_SAFE : C_FAIL;
		rpt_describe_event(what, sizeof(what), e, &m->domains[di]);
		why[0] = ' ';
		rpt_describe_cause(why + 1, sizeof(why) - 1, e);
		rpt_out_puts(s->o, "<g class=\"failure\">");
		tooltip(s, what, why[1] ? why : "");
		rpt_out_puts(s->o, "<line");
		attr_num(s, "x1", x);
		attr_num(s, "y1", y);
		attr_num(s, "x2", x);
		attr_num(s, "y2", y + LANE_H);
		rpt_out_printf(s->o, " stroke=\"%s\" stroke-width=\"1.5\"/>",
			       colour);
		rpt_out_puts(s->o, "<path d=\"M");
		num(s, x - 6);
		rpt_out_putc(s->o, ' ');
		num(s, y - 1);
		rpt_out_printf(s->o, " h12 l-6 9 z\" fill=\"%s\"/>", colour);
		rpt_out_puts(s->o, "</g>\n");
	}
}

int rpt_write_svg(const struct rpt_model *m, const struct rpt_sink *sink)
{
	struct rpt_out o;
	struct rpt_index ix;
	struct svg s = {0};
	char t_end[RPT_NUM_LEN], sub[160];
	double height, lanes_bottom;
	int rc;

	if (rpt_out_init(&o, sink))
		return o.err;
	if (!m || (m->n_domains && !m->domains))
		return -EINVAL;
	if (rpt_index_build(&ix, m))
		return -ENOMEM;
	rc = rpt_timeline_build(&s.tl, m, &ix);
	rpt_index_free(&ix);
	if (rc)
		return rc;
	s.o = &o;
	s.m = m;
	s.span = s.tl.end ? s.tl.end : 1;
	rc = collect_idle_names(&s);
	if (rc)
		goto out;
	for (unsigned i = 0; m->events && i < m->n_events; i++)
		if (m->events[i].kind == RPT_EV_FAILURE &&
		    s.tl.event_domain[i] >= 0) {
			if (m->events[i].safe)
				s.any_safe_failure = 1;
			else
				s.any_failure = 1;
		}

	s.lanes_top = legend(&s, 78, 0) + 12;
	lanes_bottom =
	    s.lanes_top + LANE_PITCH * m->n_domains - (LANE_PITCH - LANE_H);
	if (!m->n_domains)
		lanes_bottom = s.lanes_top;
	height = lanes_bottom + 48;

	rpt_out_puts(
	    &o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
	attr_num(&s, "width", WIDTH);
	attr_num(&s, "height", height);
	rpt_out_puts(&o, " viewBox=\"0 0 ");
	num(&s, WIDTH);
	rpt_out_putc(&o, ' ');
	num(&s, height);
	rpt_out_puts(&o, "\" font-family=\"" FONT "\">\n<title>");
	rpt_out_xml_str(&o, m->board ? m->board : "domino");
	rpt_out_puts(&o, " \u2014 power-domain timeline</title>\n<desc>");
	rpt_out_xml_str(&o, "Generated by domino: one lane per power domain.");
	rpt_out_puts(&o, "</desc>\n");
	rpt_out_puts(&o, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\""
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
		 rpt_fmt_time_short(t_end, s.tl.end));
	text(&s, MARGIN, 50, "font-size=\"12\" fill=\"" C_MUTED "\"", sub);
	legend(&s, 78, 1);

	for (unsigned i = 0; i < m->n_domains; i++)
		lane(&s, i, s.lanes_top + LANE_PITCH * i);
	axis(&s, s.lanes_top - 4, lanes_bottom + 4);
	failures(&s);
	rpt_out_puts(&o, "</svg>\n");
	rc = rpt_out_finish(&o);
out:
	free(s.idle_names);
	rpt_timeline_free(&s.tl);
	return rc;
}
