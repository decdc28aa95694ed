/* SPDX-License-Identifier: MIT */
/*
 * The statistics table, one block per domain:
 *   cx
 *     power   on             2.500 ms   62.5%
 *             cluster-ret    1.000 ms   25.0%   usage 2, rejected 1
 *     pstate  256 (nom)      2.500 ms   62.5%
 *     transitions: 3 on, 3 off, 5 pstate
 * Shares are of the whole run (end_ns), so each group adds up to 100%.
 * Pstates are in level order. Unless opt->all, the domains whose state
 * never changed share one last line: a board has hundreds, a scenario
 * moves a few.
 */
#include "report_internal.h"
#include "text_style.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define LABEL_LEN 96

static void pstate_label(char *buf, const struct dmn_report_levels *lv,
			 const struct dmn_report_domain *d,
			 const struct dmn_report_pstate_time *p)
{
	const char *name = p->level_name ? p->level_name
					 : dmn__rpt_level_name(lv, d, p->level);
	if (name)
		snprintf(buf, LABEL_LEN, "%" PRIu32 " (%s)", p->level, name);
	else
		snprintf(buf, LABEL_LEN, "%" PRIu32, p->level);
}

static int shows_off(const struct dmn_report_domain *d)
{
	return !d->idle || !d->n_idle || d->time_off_ns;
}

/* Nothing happened to it: no power or pstate transition, no idle entry. */
static int never_changed(const struct dmn_report_domain *d)
{
	if (d->on_count || d->off_count || d->pstate_transitions)
		return 0;
	for (unsigned k = 0; d->idle && k < d->n_idle; k++)
		if (d->idle[k].usage || d->idle[k].rejected)
			return 0;
	return 1;
}

static void row(struct dmn_report_out *o, const char *group, const char *label,
		size_t w_label, uint64_t ns, uint64_t end)
{
	char t[RPT_NUM_LEN], pct[RPT_NUM_LEN];

	dmn__rpt_out_printf(o, "  %-7s ", group);
	size_t w = dmn__rpt_text_width(label);
	dmn__rpt_out_text(o, label);
	dmn__rpt_out_pad(o, w < w_label ? w_label - w : 0);
	dmn__rpt_out_printf(o, "  %11s  %6s", dmn__rpt_fmt_time(t, ns),
		       dmn__rpt_fmt_pct(pct, ns, end));
}

int dmn_report_write_stats_text(const struct dmn_report_model *m,
			 const struct dmn_report_text_options *opt,
			 const struct dmn_report_sink *sink)
{
	struct dmn_report_style st = rpt_style_get(opt);
	struct dmn_report_out o;
	struct dmn_report_levels lv;
	char label[LABEL_LEN], t[RPT_NUM_LEN];
	size_t w_label = strlen("off");
	unsigned shown = 0, folded = 0;
	int fold = !opt || !opt->all;

	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	if (!m || (m->n_domains && !m->domains))
		return -EINVAL;
	if (dmn__rpt_levels_build(&lv, m))
		return -ENOMEM;

	/* One label width for the whole report, so blocks line up. */
	for (unsigned i = 0; i < m->n_domains; i++) {
		const struct dmn_report_domain *d = &m->domains[i];
		if (!d->has_stats)
			continue;
		for (unsigned k = 0; d->idle && k < d->n_idle; k++) {
			size_t w = dmn__rpt_text_width(d->idle[k].name);
			if (w <= RPT_ALIGN_MAX && w > w_label)
				w_label = w;
		}
		for (unsigned k = 0; d->pstates && k < d->n_pstates; k++) {
			size_t w;
			pstate_label(label, &lv, d, &d->pstates[k]);
			w = dmn__rpt_text_width(label);
			if (w <= RPT_ALIGN_MAX && w > w_label)
				w_label = w;
		}
	}

	dmn__rpt_out_printf(&o, "%sStatistics over %s%s (shares of the whole run)\n",
		       st.bold, dmn__rpt_fmt_time(t, m->end_ns), st.reset);
	for (unsigned i = 0; i < m->n_domains; i++) {
		const struct dmn_report_domain *d = &m->domains[i];
		const char *group = "power";
		if (!d->has_stats)
			continue;
		shown++;
		if (fold && never_changed(d)) {
			folded++;
			continue;
		}
		dmn__rpt_out_printf(&o, "\n%s", st.bold);
		dmn__rpt_out_text(&o, d->name ? d->name : "?");
		dmn__rpt_out_printf(&o, "%s\n", st.reset);

		row(&o, group, "on", w_label, d->time_on_ns, m->end_ns);
		dmn__rpt_out_putc(&o, '\n');
		group = "";
		if (shows_off(d)) {
			row(&o, group, "off", w_label, d->time_off_ns,
			    m->end_ns);
			dmn__rpt_out_putc(&o, '\n');
		}
		for (unsigned k = 0; d->idle && k < d->n_idle; k++) {
			const struct dmn_report_idle_stats *s = &d->idle[k];
			row(&o, group, s->name ? s->name : "?", w_label,
			    s->time_ns, m->end_ns);
			dmn__rpt_out_printf(
			    &o,
			    "  %susage %" PRIu64 ", rejected %" PRIu64 "%s\n",
			    s->rejected ? st.warn : "", s->usage, s->rejected,
			    s->rejected ? st.reset : "");
		}
		group = "pstate";
		for (unsigned k = 0; d->pstates && k < d->n_pstates; k++) {
			pstate_label(label, &lv, d, &d->pstates[k]);
			row(&o, group, label, w_label, d->pstates[k].time_ns,
			    m->end_ns);
			dmn__rpt_out_putc(&o, '\n');
			group = "";
		}
		dmn__rpt_out_printf(&o,
			       "  %stransitions: %" PRIu64 " on, %" PRIu64
			       " off, %" PRIu64 " pstate%s\n",
			       st.dim, d->on_count, d->off_count,
			       d->pstate_transitions, st.reset);
	}
	if (!shown)
		dmn__rpt_out_puts(&o, "\nno statistics (nothing was simulated)\n");
	if (folded) {
		const char *sep = ": ";
		dmn__rpt_out_printf(&o, "\n%s%u domain%s never changed (--all lists them)",
			       st.dim, folded, folded == 1 ? "" : "s");
		for (unsigned i = 0; i < m->n_domains; i++) {
			const struct dmn_report_domain *d = &m->domains[i];
			if (!d->has_stats || !never_changed(d))
				continue;
			dmn__rpt_out_puts(&o, sep);
			dmn__rpt_out_text(&o, d->name ? d->name : "?");
			dmn__rpt_out_puts(&o, d->time_on_ns ? " (on)" : " (off)");
			sep = ", ";
		}
		dmn__rpt_out_printf(&o, "%s\n", st.reset);
	}
	dmn__rpt_levels_free(&lv);
	return dmn__rpt_out_finish(&o);
}
