/* SPDX-License-Identifier: MIT */
/* The server's log: errors on stderr, -v message lines on stdout. Agent
 * names come from a file, so they are escaped (no terminal control). */
#include "serve.h"

#include <stdio.h>
#include <string.h>

void dmn__serve_text(FILE *f, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p >= 0x20 && *p != 0x7f)
			fputc(*p, f);
		else
			fprintf(f, "\\x%02x", *p);
	}
}

static void put_agent(FILE *f, const struct dmn__serve *s, int agent)
{
	const struct dmn_scmi_agent *a = &dmn__serve_cfg(s)->agents->agents[agent];
	fprintf(f, "agent %u ", a->id);
	dmn__serve_text(f, a->name);
}

void dmn__serve_log(const struct dmn__serve *s, int agent, const char *fmt,
		    ...)
{
	fputs("domino scmi-serve: ", stderr);
	if (agent >= 0) {
		put_agent(stderr, s, agent);
		fputs(": ", stderr);
	}
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *protocol_name(uint32_t p)
{
	return p == DMN_SCMI_PROTOCOL_BASE    ? "base"
	       : p == DMN_SCMI_PROTOCOL_POWER ? "power"
	       : p == DMN_SCMI_PROTOCOL_PERF  ? "perf"
					      : "?";
}

#define TRACE_WORDS 4

void dmn__serve_trace_msg(const struct dmn__serve *s, int agent,
			  const char *dir, const uint8_t *msg, size_t len)
{
	if (!dmn__serve_cfg(s)->verbose)
		return;
	uint32_t h = len >= 4 ? dmn__get32(msg) : 0;
	put_agent(stdout, s, agent);
	printf(" %s %s 0x%02x msg 0x%02x type %u token %u", dir,
	       protocol_name(dmn_scmi_header_protocol(h)),
	       dmn_scmi_header_protocol(h), dmn_scmi_header_msg(h),
	       dmn_scmi_header_type(h), dmn_scmi_header_token(h));
	int status = !strcmp(dir, "->") ||
		     dmn_scmi_header_type(h) == DMN_SCMI_TYPE_DELAYED_RESPONSE;
	if (status && len >= 8)
		printf(" %s", dmn_scmi_status_name((int32_t)dmn__get32(msg + 4)));
	printf(" (%zu bytes)", len);
	/* the payload's first words (after the status of a reply): which
	 * domain, state or level a line is about */
	size_t at = status ? 8 : 4, words = 0;
	for (; at + 4 <= len && words < TRACE_WORDS; at += 4, words++)
		printf("%s 0x%x", words ? "" : ":", dmn__get32(msg + at));
	if (at + 4 <= len)
		printf(" ...");
	printf("\n");
	fflush(stdout);
}

void dmn__serve_trace_event(const struct dmn__serve *s, int agent,
			    const char *what)
{
	if (!dmn__serve_cfg(s)->verbose)
		return;
	put_agent(stdout, s, agent);
	printf(" %s\n", what);
	fflush(stdout);
}
