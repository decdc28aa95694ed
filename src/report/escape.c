/* SPDX-License-Identifier: MIT */
/*
 * JSON and XML escaping. Names come from device trees and scenario files,
 * which we do not control, so every byte is checked: a quote, a control
 * character or a stray non-UTF-8 byte must never break a document.
 */
#include "report_internal.h"
#include "../core/debug.h"

#include <string.h>

#define REPLACEMENT_UTF8 "\xEF\xBF\xBD" /* U+FFFD */

/*
 * Decode one UTF-8 sequence at @s. Returns the code point and sets *@len to
 * its length, or returns -1 with *@len = 1 for a byte that does not start a
 * well-formed sequence (overlong forms, surrogates and values above U+10FFFF
 * are rejected, as RFC 3629 requires).
 */
static long decode_utf8(const unsigned char *s, size_t *len)
{
	unsigned char c = s[0];
	size_t n;
	long cp, min;

	*len = 1;
	if (c < 0x80)
		return c;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		cp = c & 0x1F;
		min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		cp = c & 0x0F;
		min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		cp = c & 0x07;
		min = 0x10000;
	} else {
		return -1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) !=
		    0x80) /* also stops at the terminating NUL */
			return -1;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	*len = n;
	return cp;
}

/* What code point @cp (-1: an invalid byte) becomes, or NULL to copy it as
 * it is; @buf has room for a generated escape. */
typedef const char *(*escape_fn)(long cp, char buf[8]);

/* Copy @str to @o, replacing what @escape says; unchanged runs are written
 * in one piece. */
static void write_escaped(struct dmn_report_out *o, const char *str, escape_fn escape)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *run;
	char buf[8];

	if (!str)
		return;
	run = s;
	while (*s) {
		size_t len;
		const char *esc = escape(decode_utf8(s, &len), buf);
		/* a sequence never takes the terminating NUL, so s stays in str */
		DMN_ASSERT(len >= 1 && len <= 4 && s[len - 1]);
		if (esc) {
			dmn__rpt_out_write(o, (const char *)run, (size_t)(s - run));
			dmn__rpt_out_puts(o, esc);
			run = s + len;
		}
		s += len;
	}
	dmn__rpt_out_write(o, (const char *)run, (size_t)(s - run));
}

static const char *json_escape(long cp, char buf[8])
{
	static const char hex[] = "0123456789abcdef";

	switch (cp) {
	case -1:
		return "\\ufffd";
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	}
	if (cp < 0x20 || cp == 0x7F) {
		memcpy(buf, "\\u00", 4);
		buf[4] = hex[(cp >> 4) & 0xF];
		buf[5] = hex[cp & 0xF];
		buf[6] = '\0';
		return buf;
	}
	return NULL;
}

void dmn__rpt_out_json_chars(struct dmn_report_out *o, const char *str)
{
	write_escaped(o, str, json_escape);
}

void dmn__rpt_out_json_str(struct dmn_report_out *o, const char *str)
{
	if (!str) {
		dmn__rpt_out_puts(o, "null");
		return;
	}
	dmn__rpt_out_putc(o, '"');
	dmn__rpt_out_json_chars(o, str);
	dmn__rpt_out_putc(o, '"');
}

/* XML 1.0 §2.2: the characters a document may contain at all. */
static int xml_char_ok(long cp)
{
	return cp == 0x9 || cp == 0xA || cp == 0xD ||
	       (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
	       (cp >= 0x10000 && cp <= 0x10FFFF);
}

static const char *xml_escape(long cp, char buf[8])
{
	(void)buf;
	if (cp < 0 || !xml_char_ok(cp))
		return REPLACEMENT_UTF8;
	switch (cp) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&apos;";
	}
	return NULL;
}

void dmn__rpt_out_xml_str(struct dmn_report_out *o, const char *str)
{
	write_escaped(o, str, xml_escape);
}

/* Unicode's bidirectional controls (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069) and its line and paragraph separators (U+2028-U+2029):
 * printed, a name holding one reorders or breaks the rest of the line
 * ("Trojan Source"), so a board could make its output lie. */
static int text_format_char(long cp)
{
	return cp == 0x061C || cp == 0x200E || cp == 0x200F ||
	       (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Terminals: control characters (C0, DEL and C1, whose U+009B is CSI on
 * terminals that take 8-bit controls), the format characters above and
 * invalid bytes become '?'. */
static const char *text_escape(long cp, char buf[8])
{
	(void)buf;
	return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || text_format_char(cp)
		       ? "?"
		       : NULL;
}

void dmn__rpt_out_text(struct dmn_report_out *o, const char *str)
{
	write_escaped(o, str, text_escape);
}

size_t dmn__rpt_text_width(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t width = 0;

	if (!s)
		return 0;
	/* One column per code point, and one per byte dmn__rpt_out_text replaces
	 * (East Asian wide characters are rare enough in DT names to ignore).
	 */
	while (*s) {
		size_t len;
		decode_utf8(s, &len);
		s += len;
		width++;
	}
	return width;
}

int dmn_report_json_escape(const struct dmn_report_sink *sink, const char *s)
{
	struct dmn_report_out o;

	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	dmn__rpt_out_json_str(&o, s);
	return dmn__rpt_out_finish(&o);
}

int dmn_report_text_escape(const struct dmn_report_sink *sink, const char *s)
{
	struct dmn_report_out o;

	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	dmn__rpt_out_text(&o, s);
	return dmn__rpt_out_finish(&o);
}
