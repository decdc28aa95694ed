/* SPDX-License-Identifier: MIT */
/*
 * Buffered output over a caller-supplied sink. Writers format many small
 * pieces; batching them keeps the sink (often fwrite or a socket) cheap,
 * and keeping the first error sticky lets writers stay linear.
 */
#include "report_internal.h"
#include "../core/debug.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dmn__rpt_out_init(struct dmn_report_out *o, const struct dmn_report_sink *sink)
{
	o->sink = sink;
	o->len = 0;
	o->err = (sink && sink->write) ? 0 : -EINVAL;
	return o->err;
}

static void flush(struct dmn_report_out *o)
{
	DMN_ASSERT(o->len <= sizeof(o->buf));
	if (!o->err && o->len) {
		int rc = o->sink->write(o->sink->user, o->buf, o->len);
		if (rc)
			o->err = rc < 0 ? rc : -EIO;
	}
	o->len = 0;
}

void dmn__rpt_out_write(struct dmn_report_out *o, const char *bytes, size_t len)
{
	if (o->err)
		return;
	if (len > sizeof(o->buf) - o->len) {
		flush(o);
		if (o->err)
			return;
		if (len > sizeof(o->buf)) {
			int rc = o->sink->write(o->sink->user, bytes, len);
			if (rc)
				o->err = rc < 0 ? rc : -EIO;
			return;
		}
	}
	DMN_ASSERT(o->len + len <= sizeof(o->buf) && "flushed to make room");
	memcpy(o->buf + o->len, bytes, len);
	o->len += len;
}

void dmn__rpt_out_puts(struct dmn_report_out *o, const char *s)
{
	if (s)
		dmn__rpt_out_write(o, s, strlen(s));
}

void dmn__rpt_out_putc(struct dmn_report_out *o, char c)
{
	dmn__rpt_out_write(o, &c, 1);
}

void dmn__rpt_out_pad(struct dmn_report_out *o, size_t n)
{
	static const char spaces[] = "                                ";
	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		dmn__rpt_out_write(o, spaces, k);
		n -= k;
	}
}

void dmn__rpt_out_printf(struct dmn_report_out *o, const char *fmt, ...)
{
	char local[256];
	va_list ap;
	int n;

	if (o->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(local, sizeof(local), fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->err = -EINVAL;
		return;
	}
	if ((size_t)n < sizeof(local)) {
		dmn__rpt_out_write(o, local, (size_t)n);
		return;
	}
	/* Rare: a long formatted piece (the writers pass long strings through
	 * dmn__rpt_out_puts, so this is only a fallback). */
	char *big = malloc((size_t)n + 1);
	if (!big) {
		o->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	dmn__rpt_out_write(o, big, (size_t)n);
	free(big);
}

int dmn__rpt_out_finish(struct dmn_report_out *o)
{
	flush(o);
	return o->err;
}
