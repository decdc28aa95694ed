/* SPDX-License-Identifier: MIT */
/*
 * Energy in words: the power model (summary) and what a run cost
 * (simulate), from the model's `energy` (docs/energy.md).
 *
 *   venus                        1.234 mJ   average 24.680 mW   active 40.000 ms
 *     opp-720000000 (720 MHz)   40.000 ms   at 30.000 mW          1.200 mJ
 *     suspended                 10.000 ms   at 0 µW               0 µJ
 */
#include "report_internal.h"
#include "text_style.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define LABEL_LEN 160

/* "on 128 (rpmhpd_opp_svs)", "idle retention", "opp-300000000 (300 MHz)" */
static const char *state_label(char *buf, const struct dmn_report_power_state *s)
{
	char hz[RPT_NUM_LEN];
	switch (s->kind) {
	case DMN_REPORT_POWER_ON:
		if (!s->has_level)
			return "on";
		if (s->name)
			snprintf(buf, LABEL_LEN, "on %" PRIu32 " (%.100s)", s->level, s->name);
		else
			snprintf(buf, LABEL_LEN, "on %" PRIu32, s->level);
		return buf;
	case DMN_REPORT_POWER_IDLE:
		snprintf(buf, LABEL_LEN, "idle %.140s", s->name ? s->name : "?");
		return buf;
	case DMN_REPORT_POWER_OFF:
		return "off";
	case DMN_REPORT_POWER_SUSPENDED:
		return "suspended";
	case DMN_REPORT_POWER_ACTIVE:
		return "active";
	case DMN_REPORT_POWER_OPP: {
		int n;
		if (s->hz)
			n = snprintf(buf, LABEL_LEN, "%.60s (%s)", s->name ? s->name : "?",
				     dmn__rpt_fmt_hz(hz, s->hz));
		else
			n = snprintf(buf, LABEL_LEN, "%.80s", s->name ? s->name : "?");
		if (s->at_domain && n > 0 && n < LABEL_LEN)
			snprintf(buf + n, LABEL_LEN - (size_t)n, " at %.30s %" PRIu32 "%s%.30s%s",
				 s->at_domain, s->at_level, s->at_level_name ? " (" : "",
				 s->at_level_name ? s->at_level_name : "",
				 s->at_level_name ? ")" : "");
		return buf;
	}
	}
	return "?";
}

static void source_text(struct dmn_report_out *o, const struct dmn_report_energy *e,
			const struct dmn_report_power_state *s)
{
	switch (s->source) {
	case DMN_REPORT_SOURCE_DT:
		dmn__rpt_out_puts(o, "opp-microwatt");
		break;
	case DMN_REPORT_SOURCE_DPC:
		dmn__rpt_out_puts(o, "dynamic-power-coefficient");
		break;
	case DMN_REPORT_SOURCE_FILE:
		dmn__rpt_out_text(o, e->power_model ? e->power_model : "power model");
		dmn__rpt_out_printf(o, ":%u", s->line);
		break;
	case DMN_REPORT_SOURCE_DEFAULT:
		dmn__rpt_out_puts(o, "default");
		break;
	case DMN_REPORT_SOURCE_NONE:
		dmn__rpt_out_puts(o, "none");
		if (s->why) {
			dmn__rpt_out_puts(o, ": ");
			dmn__rpt_out_text(o, s->why);
		}
		break;
	}
}

static size_t label_width(const struct dmn_report_energy *e, int times_only)
{
	char buf[LABEL_LEN];
	size_t w = strlen("suspended");
	for (unsigned p = 0; p < e->n_parts; p++)
		for (unsigned k = 0; k < e->parts[p].n_states; k++) {
			const struct dmn_report_power_state *s = &e->parts[p].states[k];
			if (times_only && !s->time_ns)
				continue;
			size_t x = dmn__rpt_text_width(state_label(buf, s)) + 2;
			if (x <= RPT_ALIGN_MAX && x > w)
				w = x;
		}
	return w;
}

static void pad_text(struct dmn_report_out *o, const char *s, size_t w)
{
	size_t n = dmn__rpt_text_width(s);
	dmn__rpt_out_text(o, s);
	dmn__rpt_out_pad(o, n < w ? w - n : 0);
}

static unsigned count_unknown(const struct dmn_report_energy *e, unsigned *parts)
{
	unsigned n = 0;
	*parts = 0;
	for (unsigned p = 0; p < e->n_parts; p++) {
		unsigned here = 0;
		for (unsigned k = 0; k < e->parts[p].n_states; k++)
			here += !e->parts[p].states[k].known;
		n += here;
		*parts += here > 0;
	}
	return n;
}

int dmn_report_write_power_text(const struct dmn_report_model *m,
				const struct dmn_report_text_options *opt,
				const struct dmn_report_sink *sink)
{
	struct dmn_report_style st = rpt_style_get(opt);
	struct dmn_report_out o;
	char buf[LABEL_LEN], pw[DMN_ENERGY_TEXT_LEN];
	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	if (!m || !m->energy || (m->energy->n_parts && !m->energy->parts))
		return -EINVAL;
	const struct dmn_report_energy *e = m->energy;
	size_t w = label_width(e, 0);
	dmn__rpt_out_printf(&o, "%spower model%s (device tree", st.bold, st.reset);
	if (e->power_model) {
		dmn__rpt_out_puts(&o, " and ");
		dmn__rpt_out_text(&o, e->power_model);
	}
	dmn__rpt_out_puts(&o, "; docs/energy.md says which wins):\n");
	for (unsigned p = 0; p < e->n_parts; p++) {
		const struct dmn_report_energy_part *part = &e->parts[p];
		dmn__rpt_out_printf(&o, "  %s", st.bold);
		dmn__rpt_out_text(&o, part->name ? part->name : "?");
		dmn__rpt_out_printf(&o, "%s%s\n", st.reset, part->device ? "" : " (domain)");
		for (unsigned k = 0; k < part->n_states; k++) {
			const struct dmn_report_power_state *s = &part->states[k];
			dmn__rpt_out_puts(&o, "    ");
			pad_text(&o, state_label(buf, s), w);
			if (s->known)
				dmn__rpt_out_printf(&o, "  %14s  ",
						    dmn_energy_format_power(s->power_uw, 0, 0, pw));
			else
				dmn__rpt_out_printf(&o, "  %s%14s%s  ", st.warn, "unknown",
						    st.reset);
			dmn__rpt_out_puts(&o, st.dim);
			source_text(&o, e, s);
			dmn__rpt_out_printf(&o, "%s\n", st.reset);
		}
	}
	unsigned parts, n = count_unknown(e, &parts);
	if (n)
		dmn__rpt_out_printf(&o,
				    "%s%u state%s of %u part%s have no power: a run that "
				    "spends time there reports a lower bound%s\n",
				    st.warn, n, n == 1 ? "" : "s", parts, parts == 1 ? "" : "s",
				    st.reset);
	else
		dmn__rpt_out_puts(&o, "every state has a power\n");
	return dmn__rpt_out_finish(&o);
}

/* Drew nothing and knew it: every state it spent time in costs 0. */
static int quiet(const struct dmn_report_energy_part *p)
{
	return dmn_energy_is_zero(p->energy) && !p->unknown_ns;
}

static void part_row(struct dmn_report_out *o, const struct dmn_report_style *st,
		     const struct dmn_report_energy_part *p, uint64_t span, size_t w)
{
	char en[DMN_ENERGY_TEXT_LEN], pw[DMN_ENERGY_TEXT_LEN], t[RPT_NUM_LEN];
	unsigned milli;
	uint64_t avg = dmn_energy_average_uw(p->energy, span, &milli);
	dmn__rpt_out_printf(o, "\n%s", st->bold);
	pad_text(o, p->name ? p->name : "?", w + 4);
	dmn__rpt_out_printf(o, "%s  %14s   average %s   %s %s\n", st->reset,
			    dmn_energy_format_short(p->energy, 0, en),
			    dmn_energy_format_power(avg, milli, 0, pw),
			    p->device ? "active" : "on", dmn__rpt_fmt_time(t, p->time_on_ns));
}

int dmn_report_write_energy_text(const struct dmn_report_model *m,
				 const struct dmn_report_text_options *opt,
				 const struct dmn_report_sink *sink)
{
	struct dmn_report_style st = rpt_style_get(opt);
	struct dmn_report_out o;
	char buf[LABEL_LEN], en[DMN_ENERGY_TEXT_LEN], pw[DMN_ENERGY_TEXT_LEN];
	char t[RPT_NUM_LEN];
	int fold = !opt || !opt->all;
	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	if (!m || !m->energy || (m->energy->n_parts && !m->energy->parts))
		return -EINVAL;
	const struct dmn_report_energy *e = m->energy;
	uint64_t end = m->end_ns > e->start_ns ? m->end_ns : e->start_ns;
	uint64_t span = end - e->start_ns;
	size_t w = label_width(e, 1);
	unsigned milli;
	uint64_t avg = dmn_energy_average_uw(e->total, span, &milli);
	dmn__rpt_out_printf(&o, "%sEnergy over %s%s", st.bold, dmn__rpt_fmt_time(t, span),
			    st.reset);
	dmn__rpt_out_puts(&o, " (device tree");
	if (e->power_model) {
		dmn__rpt_out_puts(&o, " and ");
		dmn__rpt_out_text(&o, e->power_model);
	}
	dmn__rpt_out_printf(&o, "): %s%s%s, average %s\n", st.bold,
			    dmn_energy_format_short(e->total, 0, en), st.reset,
			    dmn_energy_format_power(avg, milli, 0, pw));
	if (e->lower_bound)
		dmn__rpt_out_printf(&o,
				    "%sa lower bound: some parts spent time in states of "
				    "unknown power (listed at the end)%s\n",
				    st.warn, st.reset);
	unsigned folded = 0;
	for (unsigned p = 0; p < e->n_parts; p++) {
		const struct dmn_report_energy_part *part = &e->parts[p];
		if (fold && quiet(part)) {
			folded++;
			continue;
		}
		part_row(&o, &st, part, span, w);
		for (unsigned k = 0; k < part->n_states; k++) {
			const struct dmn_report_power_state *s = &part->states[k];
			if (!s->time_ns)
				continue;
			dmn__rpt_out_puts(&o, "  ");
			pad_text(&o, state_label(buf, s), w + 2);
			dmn__rpt_out_printf(&o, "  %11s   at ", dmn__rpt_fmt_time(t, s->time_ns));
			if (s->known)
				dmn__rpt_out_printf(&o, "%-14s  %14s\n",
						    dmn_energy_format_power(s->power_uw, 0, 0, pw),
						    dmn_energy_format_short(s->energy, 0, en));
			else
				dmn__rpt_out_printf(&o, "%s%-14s%s  %14s\n", st.warn, "unknown",
						    st.reset, "?");
		}
	}
	if (folded) {
		const char *sep = ": ";
		dmn__rpt_out_printf(&o, "\n%s%u part%s drew no energy (--all lists them)", st.dim,
				    folded, folded == 1 ? "" : "s");
		for (unsigned p = 0; p < e->n_parts; p++) {
			if (!quiet(&e->parts[p]))
				continue;
			dmn__rpt_out_puts(&o, sep);
			dmn__rpt_out_text(&o, e->parts[p].name ? e->parts[p].name : "?");
			sep = ", ";
		}
		dmn__rpt_out_printf(&o, "%s\n", st.reset);
	}
	if (e->lower_bound) {
		const char *sep = ": ";
		dmn__rpt_out_printf(&o, "\n%sunknown power (time left out of the total)", st.warn);
		for (unsigned p = 0; p < e->n_parts; p++)
			for (unsigned k = 0; k < e->parts[p].n_states; k++) {
				const struct dmn_report_power_state *s = &e->parts[p].states[k];
				if (s->known || !s->time_ns)
					continue;
				dmn__rpt_out_puts(&o, sep);
				dmn__rpt_out_text(&o, e->parts[p].name ? e->parts[p].name : "?");
				dmn__rpt_out_putc(&o, ' ');
				dmn__rpt_out_text(&o, state_label(buf, s));
				dmn__rpt_out_printf(&o, " %s", dmn__rpt_fmt_time(t, s->time_ns));
				sep = ", ";
			}
		dmn__rpt_out_printf(&o, "%s\n", st.reset);
	}
	return dmn__rpt_out_finish(&o);
}
