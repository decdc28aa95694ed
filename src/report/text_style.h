/* SPDX-License-Identifier: MIT */
/* ANSI styling shared by the text writers; empty strings without colour. */
#ifndef DOMINO_REPORT_TEXT_STYLE_H
#define DOMINO_REPORT_TEXT_STYLE_H

#include <domino/report.h>

struct dmn_report_style {
	const char *bold, *dim, *on, *off, *bad, *warn, *reset;
};

static inline struct dmn_report_style rpt_style_get(const struct dmn_report_text_options *opt)
{
	struct dmn_report_style s = {"", "", "", "", "", "", ""};
	if (opt && opt->color) {
		s.bold = "\033[1m";
		s.dim = "\033[2m";
		s.on = "\033[32m";
		s.off = "\033[34m";
		s.bad = "\033[1;31m";
		s.warn = "\033[33m";
		s.reset = "\033[0m";
	}
	return s;
}

#endif /* DOMINO_REPORT_TEXT_STYLE_H */
