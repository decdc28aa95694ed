/* SPDX-License-Identifier: MIT */
/*
 * The event log: one aligned line per change, e.g.
 *      1.500 ms  cx        pstate 64 -> 256 (low_svs -> nom)  [line 12: resume
 * venus] Columns are measured first so that causes line up; a very long change
 * (an expect message) does not push every other line to the right.
 */
#include "report_internal.h"
#include "text_style.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define CHANGE_ALIGN_MAX 44
#define CHANGE_LEN 320

/* What the line is about: the domain, else the device. */
static const char *subject(const struct dmn_report_event *e)
{
	return e->domain ? e->domain : e->device ? e->device : "-";
}

int dmn_report_write_events_text(const struct dmn_report_model *m,
			  const struct dmn_report_text_options *opt,
			  const struct dmn_report_sink *sink)
{
	struct dmn_report_style st = rpt_style_get(opt);
	struct dmn_report_index ix;
	struct dmn_report_levels lv;
	struct dmn_report_out o;
	size_t w_subject = 0, w_change = 0;
	char change[CHANGE_LEN], why[CHANGE_LEN];
	unsigned n;

	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	if (!m)
		return -EINVAL;
	n = m->events ? m->n_events : 0;
	if (!n) {
		dmn__rpt_out_puts(&o, "no events\n");
		return dmn__rpt_out_finish(&o);
	}
	if (dmn__rpt_index_build(&ix, m))
		return -ENOMEM;
	if (dmn__rpt_levels_build(&lv, m)) {
		dmn__rpt_index_free(&ix);
		return -ENOMEM;
	}

	for (unsigned i = 0; i < n; i++) {
		const struct dmn_report_event *e = &m->events[i];
		int d = dmn__rpt_index_find(&ix, e->domain);
		size_t w = dmn__rpt_text_width(subject(e));
		if (w <= RPT_ALIGN_MAX && w > w_subject)
			w_subject = w;
		dmn__rpt_describe_event(change, sizeof(change), e, &lv,
				   d >= 0 ? &m->domains[d] : NULL);
		w = dmn__rpt_text_width(change);
		if (w <= CHANGE_ALIGN_MAX && w > w_change)
			w_change = w;
	}

	for (unsigned i = 0; i < n; i++) {
		const struct dmn_report_event *e = &m->events[i];
		int d = dmn__rpt_index_find(&ix, e->domain);
		char tbuf[RPT_NUM_LEN];
		const char *t = dmn__rpt_fmt_time(tbuf, e->time_ns);
		const char *unit = strchr(t, ' ');
		size_t w;
		int bad;

		/* Number right-aligned, unit left-aligned: "  250.000 us". */
		dmn__rpt_out_pad(&o, 8 > unit - t ? (size_t)(8 - (unit - t)) : 0);
		dmn__rpt_out_write(&o, t, (size_t)(unit - t));
		dmn__rpt_out_printf(&o, " %-2s  ", unit + 1);

		dmn__rpt_out_puts(&o, st.bold);
		dmn__rpt_out_text(&o, subject(e));
		dmn__rpt_out_puts(&o, st.reset);
		w = dmn__rpt_text_width(subject(e));
		dmn__rpt_out_pad(&o, w < w_subject ? w_subject - w + 2 : 2);

		bad = dmn__rpt_describe_event(change, sizeof(change), e, &lv,
					 d >= 0 ? &m->domains[d] : NULL);
		dmn__rpt_out_puts(&o, bad ? st.bad : "");
		dmn__rpt_out_text(&o, change);
		dmn__rpt_out_puts(&o, bad ? st.reset : "");
		dmn__rpt_describe_cause(why, sizeof(why), e);
		if (why[0]) {
			w = dmn__rpt_text_width(change);
			dmn__rpt_out_pad(&o, w < w_change ? w_change - w + 2 : 2);
			dmn__rpt_out_puts(&o, st.dim);
			dmn__rpt_out_text(&o, why);
			dmn__rpt_out_puts(&o, st.reset);
		}
		dmn__rpt_out_putc(&o, '\n');
	}
	dmn__rpt_levels_free(&lv);
	dmn__rpt_index_free(&ix);
	return dmn__rpt_out_finish(&o);
}
