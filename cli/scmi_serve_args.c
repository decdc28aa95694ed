/* SPDX-License-Identifier: MIT */
/* domino scmi-serve: the command line (docs/scmi.md has every option). */
#include "scmi_serve.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const char serve_help[] =
    "usage: domino scmi-serve BOARD.dtb --agents FILE [--socket-dir DIR]\n"
    "                         [--vhost-user AGENT=PATH]... [--max-msg BYTES]\n"
    "                         [LIMITS] [--list] [-v] [--trace OUT.json]\n"
    "                         [--scenario FILE] [--supported-hw V[,V...]]\n"
    "\n"
    "Serve the board's power domains to SCMI agents (Arm DEN0056: Base 0x10\n"
    "v2.1, Power Domain 0x11 and Performance 0x13 v3.0, or v2.0 to an agent\n"
    "capped so in the agents file), one Unix stream socket per agent,\n"
    "DIR/agent<ID>.sock, or the virtio SCMI device over vhost-user for an\n"
    "agent given --vhost-user. Each socket frame is a 32-bit little-endian\n"
    "length and the SCMI message. SIGINT or SIGTERM stops the server and\n"
    "removes its sockets. docs/scmi.md describes the numbering, framing, the\n"
    "limits and every status.\n"
    "\n"
    "  --agents FILE        agents and what they may act on (docs/scmi.md)\n"
    "  --socket-dir DIR     where the sockets go (default: .)\n"
    "  --vhost-user AGENT=PATH  serve agent AGENT (id or name) as a virtio\n"
    "                       SCMI device on the vhost-user socket PATH, not on\n"
    "                       DIR/agent<ID>.sock (repeatable, once per agent)\n"
    "  --max-msg BYTES      largest message, header included (default 128,\n"
    "                       at least 40); paged replies fit it\n"
    "  --list               print `power I NAME`, `perf J NAME` and\n"
    "                       `agent ID NAME PATH` lines, then exit\n"
    "  -v                   a line per message on stdout\n"
    "  --trace OUT.json     at exit, the Perfetto trace `simulate` writes\n"
    "  --scenario FILE      run these scenario commands (docs/scenario.md)\n"
    "                       before serving: `resume DEV` holds its domains\n"
    "                       on, `fail DOMAIN on|off|pstate [N]` arms failures\n"
    "  --supported-hw V,..  hardware version for opp-supported-hw entries\n"
    "\n"
    "LIMITS (one agent at its limit never holds up another):\n"
    "  --max-conns N        socket connections per agent (default 8)\n"
    "  --max-queue BYTES    bytes waiting to be read by one connection, or\n"
    "                       in one vhost-user event queue (default 65536)\n"
    "  --max-frames N       messages waiting likewise (default 256)\n"
    "  --turn N             requests taken from one connection per turn\n"
    "                       (default 8)\n"
    "  --stall-timeout MS   drop a connection that reads nothing queued for\n"
    "                       it for MS (default 2000)\n"
    "  --frame-timeout MS   drop a connection whose frame is not complete\n"
    "                       MS after it began (default 2000)\n"
    "  --idle-timeout MS    drop a connection that sends and reads nothing\n"
    "                       for MS (default 0: never)\n";

/* A number in [@lo, @hi]; -1 if @text is not one. */
static int parse_number(const char *text, unsigned long lo, unsigned long hi,
			unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(text, &end, 10);
	if (errno || end == text || *end || text[0] == '-' || text[0] == '+' ||
	    v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

struct number_option {
	const char *name;
	unsigned long lo, hi;
	const char *unit;
};

static const struct number_option numbers[] = {
    {"--max-msg", DMN_SCMI_MIN_MSG, 65536, "bytes"},
    {"--max-conns", 1, 4096, "connections"},
    {"--max-queue", 1024, 64ul << 20, "bytes"},
    {"--max-frames", 4, 65536, "messages"},
    {"--turn", 1, 4096, "requests"},
    {"--stall-timeout", 1, 3600000, "milliseconds"},
    {"--frame-timeout", 1, 3600000, "milliseconds"},
    {"--idle-timeout", 0, 86400000, "milliseconds"},
};
#define N_NUMBERS (sizeof(numbers) / sizeof(numbers[0]))

static void store_number(struct serve_args *a, unsigned i, unsigned long v)
{
	struct dmn__serve_limits *l = &a->limits;
	switch (i) {
	case 0: a->max_msg = v; break;
	case 1: l->max_conns = (unsigned)v; break;
	case 2: l->max_queue = v; break;
	case 3: l->max_frames = (unsigned)v; break;
	case 4: l->turn = (unsigned)v; break;
	case 5: l->stall_ms = (unsigned)v; break;
	case 6: l->frame_ms = (unsigned)v; break;
	default: l->idle_ms = (unsigned)v; break;
	}
}

static int bad_value(const char *name, const char *value, const char *expect)
{
	fprintf(stderr, "domino scmi-serve: error: %s '", name);
	cli_text(stderr, value);
	fprintf(stderr, "' %s\n", expect);
	return EXIT_INPUT;
}

static int add_vhost(struct serve_args *a, const char *value)
{
	const char *eq = strchr(value, '=');
	if (!eq || eq == value || !eq[1])
		return bad_value("--vhost-user", value, "is not AGENT=PATH");
	struct serve_vhost_arg *v = &a->vhost[a->n_vhost++];
	size_t n = (size_t)(eq - value);
	char *agent = malloc(n + 1);
	if (!agent) {
		fputs("domino scmi-serve: error: out of memory\n", stderr);
		return EXIT_INPUT;
	}
	memcpy(agent, value, n);
	agent[n] = 0;
	v->agent = agent;
	v->path = eq + 1;
	return 0;
}

/* The queue must hold a reply and a delayed response beside a
 * notification: the server keeps that room for each request. */
static int check_limits(const struct serve_args *a)
{
	size_t frame = 4 + a->max_msg;
	if (a->limits.max_queue < 3 * frame) {
		fprintf(stderr,
			"domino scmi-serve: error: --max-queue %zu is below 3 "
			"messages of --max-msg %zu and their lengths (%zu)\n",
			a->limits.max_queue, a->max_msg, 3 * frame);
		return EXIT_INPUT;
	}
	return 0;
}

/* scmi-serve's own options; the letters '0'.. index numbers[]. */
static const struct cli_option serve_options[] = {
    {"--agents", 'A', 0, 1},
    {"--socket-dir", 'D', 0, 1},
    {"--vhost-user", 'V', 0, 1},
    {"--list", 'L', 0, 0},
    {"--verbose", 'v', 'v', 0},
    {"--scenario", 'c', 0, 1},
    {"--max-msg", '0', 0, 1},
    {"--max-conns", '1', 0, 1},
    {"--max-queue", '2', 0, 1},
    {"--max-frames", '3', 0, 1},
    {"--turn", '4', 0, 1},
    {"--stall-timeout", '5', 0, 1},
    {"--frame-timeout", '6', 0, 1},
    {"--idle-timeout", '7', 0, 1},
};

static int set_serve_option(void *user, char letter, const char *value)
{
	struct serve_args *a = user;
	switch (letter) {
	case 'A':
		a->agents = value;
		return 0;
	case 'D':
		a->dir = value;
		return 0;
	case 'V':
		return add_vhost(a, value);
	case 'L':
		a->list = 1;
		return 0;
	case 'v':
		a->verbose = 1;
		return 0;
	case 'c':
		a->scenario = value;
		return 0;
	}
	unsigned k = (unsigned)(letter - '0');
	assert(k < N_NUMBERS && !strcmp(numbers[k].name, serve_options[6 + k].name));
	unsigned long v;
	if (parse_number(value, numbers[k].lo, numbers[k].hi, &v)) {
		char expect[96];
		snprintf(expect, sizeof(expect), "is not a number of %s in %lu..%lu",
			 numbers[k].unit, numbers[k].lo, numbers[k].hi);
		return bad_value(numbers[k].name, value, expect);
	}
	store_number(a, k, v);
	return 0;
}

int serve_args_parse(int argc, char **argv, struct serve_args *a)
{
	memset(a, 0, sizeof(*a));
	a->dir = ".";
	a->max_msg = DMN_SCMI_DEFAULT_MAX_MSG;
	dmn__serve_limits_default(&a->limits);
	a->vhost = calloc((size_t)argc + 1, sizeof(*a->vhost));
	if (!a->vhost) {
		fputs("domino scmi-serve: error: out of memory\n", stderr);
		return EXIT_INPUT;
	}
	const struct cli_own_options own = {
	    serve_options, sizeof(serve_options) / sizeof(serve_options[0]),
	    set_serve_option, a};
	/* the common ones: --trace, --supported-hw (and --help) */
	int rc = cli_parse_own(argc, argv, "scmi-serve", "th", &own, 1, &a->opt);
	if (rc)
		return rc;
	a->help = a->opt.help;
	if (a->help)
		return 0;
	a->board = a->opt.n_positional ? a->opt.positional[0] : NULL;
	a->trace = a->opt.trace_path;
	if (!a->board || !a->agents) {
		fprintf(stderr, "domino scmi-serve: error: %s\n%s",
			!a->board ? "no BOARD.dtb given"
				  : "--agents FILE is required",
			serve_help);
		return EXIT_INPUT;
	}
	return check_limits(a);
}

void serve_args_free(struct serve_args *a)
{
	for (unsigned i = 0; i < a->n_vhost; i++)
		free((char *)a->vhost[i].agent);
	free(a->vhost);
	a->vhost = NULL;
	a->n_vhost = 0;
}
