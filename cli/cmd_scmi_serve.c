/* SPDX-License-Identifier: MIT */
/* domino scmi-serve BOARD.dtb --agents FILE: SCMI over Unix sockets. */
#include "cli.h"

#include <domino/scenario.h>
#include <domino/scmi.h>
#include <domino/sim.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char serve_help[] =
    "usage: domino scmi-serve BOARD.dtb --agents FILE [--socket-dir DIR]\n"
    "                         [--max-msg BYTES] [--list] [-v] [--trace "
    "OUT.json]\n"
    "                         [--supported-hw V[,V...]]\n"
    "\n"
    "Serve the board's power domains to SCMI agents (Arm DEN0056: Base 0x10,\n"
    "Power Domain 0x11, Performance 0x13, v2.0), one Unix stream socket per\n"
    "agent, DIR/agent<ID>.sock. Each frame is a 32-bit little-endian length "
    "and\n"
    "the SCMI message. SIGINT or SIGTERM stops the server and removes the\n"
    "sockets. docs/scmi.md describes the numbering, framing and every status.\n"
    "\n"
    "  --agents FILE        agents and what they may act on (docs/scmi.md)\n"
    "  --socket-dir DIR     where the sockets go (default: .)\n"
    "  --max-msg BYTES      largest message, header included (default 128,\n"
    "                       at least 40); paged replies fit it\n"
    "  --list               print `power I NAME`, `perf J NAME` and\n"
    "                       `agent ID NAME PATH` lines, then exit\n"
    "  -v                   a line per message on stdout\n"
    "  --trace OUT.json     at exit, the Perfetto trace `simulate` writes\n"
    "  --supported-hw V,..  hardware version for opp-supported-hw entries\n";

#define MAX_CONNS 64

/* One accepted connection: a frame is read as its 4-byte length, then its
 * body; a body longer than --max-msg is read and thrown away (the first 4
 * bytes are kept for the reply's header). */
struct conn {
	int fd;
	unsigned agent; /* index */
	uint8_t len_bytes[4];
	size_t have_len;
	uint32_t frame_len;
	size_t have_body;
	uint8_t *body; /* max_msg bytes */
	int dead;      /* a send failed: closed by the poll loop */
};

struct server {
	const char *prog;
	struct dmn_scmi_server *scmi;
	const struct dmn_scmi_agents *agents;
	size_t max_msg;
	int verbose;
	int listen_fd[DMN_SCMI_MAX_AGENTS];
	char (*paths)[108];
	struct conn conns[MAX_CONNS];
	unsigned n_conns;
	struct conn *current; /* whose command dmn_scmi_deliver follows */
	/* --trace: the simulation's clock follows the wall clock */
	struct dmn_sim *sim;
	const char *clock_domain;
	struct timespec start;
};

static int stop_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
	(void)sig;
	int saved = errno;
	if (write(stop_pipe[1], "x", 1) < 0) {
		/* the pipe is full: a stop is already pending */
	}
	errno = saved;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void conn_close(struct server *s, struct conn *c)
{
	close(c->fd);
	free(c->body);
	if (s->current == c)
		s->current = NULL;
	*c = s->conns[--s->n_conns];
	if (s->current == &s->conns[s->n_conns])
		s->current = c;
}

/* A blocking write with a timeout (SO_SNDTIMEO): a client that stops
 * reading loses its connection instead of stalling every agent. */
static int send_frame(struct conn *c, const void *msg, size_t len)
{
	uint8_t head[4];
	put32(head, (uint32_t)len);
	struct iovec iov[2] = {{head, 4}, {(void *)msg, len}};
	size_t total = 4 + len, done = 0;
	while (done < total) {
		struct msghdr mh;
		memset(&mh, 0, sizeof(mh));
		struct iovec part[2];
		unsigned n = 0;
		size_t skip = done;
		for (unsigned i = 0; i < 2; i++) {
			if (skip >= iov[i].iov_len) {
				skip -= iov[i].iov_len;
				continue;
			}
			part[n].iov_base = (uint8_t *)iov[i].iov_base + skip;
			part[n].iov_len = iov[i].iov_len - skip;
			skip = 0;
			n++;
		}
		mh.msg_iov = part;
		mh.msg_iovlen = n;
		ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

static const char *protocol_name(uint32_t p)
{
	return p == DMN_SCMI_PROTOCOL_BASE	  ? "base"
	       : p == DMN_SCMI_PROTOCOL_POWER ? "power"
	       : p == DMN_SCMI_PROTOCOL_PERF  ? "perf"
					  : "?";
}

/* "agent ID NAME": the name from the agents file, escaped as every name
 * from a file is (cli_text), so it cannot move the terminal's cursor. */
static void agent_words(const struct dmn_scmi_agent *a)
{
	cli_printf("agent %u ", a->id);
	cli_text(stdout, a->name);
}

static void log_message(const struct server *s, unsigned agent, const char *dir,
			const uint8_t *msg, size_t len)
{
	if (!s->verbose)
		return;
	const struct dmn_scmi_agent *a = &s->agents->agents[agent];
	uint32_t h = len >= 4 ? get32(msg) : 0;
	agent_words(a);
	printf(" %s %s 0x%02x msg 0x%02x type %u token %u", dir,
	       protocol_name(dmn_scmi_header_protocol(h)),
	       dmn_scmi_header_protocol(h), dmn_scmi_header_msg(h), dmn_scmi_header_type(h),
	       dmn_scmi_header_token(h));
	if (!strcmp(dir, "->") && len >= 8)
		printf(" %s", dmn_scmi_status_name((int32_t)get32(msg + 4)));
	else if (dmn_scmi_header_type(h) == DMN_SCMI_TYPE_DELAYED_RESPONSE && len >= 8)
		printf(" %s", dmn_scmi_status_name((int32_t)get32(msg + 4)));
	printf(" (%zu bytes)\n", len);
	fflush(stdout);
}

/* Delayed responses go to the connection that asked; notifications to
 * every connection of the agent. */
static void on_send(void *user, uint32_t agent_id, const void *msg, size_t len)
{
	struct server *s = user;
	uint32_t type = dmn_scmi_header_type(get32(msg));
	for (unsigned i = 0; i < s->n_conns; i++) {
		struct conn *c = &s->conns[i];
		const struct dmn_scmi_agent *a = &s->agents->agents[c->agent];
		if (a->id != agent_id)
			continue;
		if (c->dead ||
		    (type == DMN_SCMI_TYPE_DELAYED_RESPONSE && c != s->current))
			continue;
		log_message(s, c->agent, "<=", msg, len);
		/* one timeout per dead client, not one per notification */
		if (send_frame(c, msg, len))
			c->dead = 1;
	}
}

/* For --trace: move the simulation's clock to now with a command that
 * changes nothing (`fail D on 0` disarms what nobody armed). */
static void advance_clock(struct server *s)
{
	if (!s->sim || !s->clock_domain)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t ns = (uint64_t)(now.tv_sec - s->start.tv_sec) * 1000000000u +
		      (uint64_t)now.tv_nsec - (uint64_t)s->start.tv_nsec;
	char line[256];
	int n = snprintf(line, sizeof(line), "@%lluns fail %s on 0\n",
			 (unsigned long long)ns, s->clock_domain);
	struct dmn_scn_script *script;
	struct dmn_scn_diag diag;
	if (n < 0 || (size_t)n >= sizeof(line) ||
	    dmn_scn_parse(line, (size_t)n, "scmi", NULL, &script, &diag))
		return;
	struct dmn_sim_result res = {0, 0, 0};
	int op_error;
	dmn_sim_step(s->sim, script, 0, &res, &op_error, &diag);
	dmn_scn_free(script);
}

/* Answer one frame; returns -1 if the reply could not be sent (the caller
 * closes the connection). */
static int handle_frame(struct server *s, struct conn *c)
{
	size_t len = c->frame_len <= s->max_msg ? c->frame_len : 0;
	uint8_t
	    reply[DMN_SCMI_DEFAULT_MAX_MSG > 4096 ? DMN_SCMI_DEFAULT_MAX_MSG : 4096];
	uint8_t *out = reply;
	size_t cap = sizeof(reply), rlen = 0;
	if (s->max_msg > cap) {
		out = malloc(s->max_msg);
		if (!out)
			return -1;
		cap = s->max_msg;
	}
	advance_clock(s);
	const struct dmn_scmi_agent *a = &s->agents->agents[c->agent];
	if (c->frame_len > s->max_msg) {
		/* Oversized: answer PROTOCOL_ERROR under its header. */
		log_message(s, c->agent, "<-", c->body, 4);
		put32(out, get32(c->body) & ~(3u << 8)); /* a response */
		put32(out + 4, (uint32_t)DMN_SCMI_PROTOCOL_ERROR);
		rlen = 8;
	} else {
		log_message(s, c->agent, "<-", c->body, len);
		dmn_scmi_handle(s->scmi, a->id, c->body, len, out, cap, &rlen);
	}
	log_message(s, c->agent, "->", out, rlen);
	s->current = c;
	int failed = send_frame(c, out, rlen);
	dmn_scmi_deliver(s->scmi);
	s->current = NULL;
	if (out != reply)
		free(out);
	return failed || c->dead ? -1 : 0;
}

/* Read what is there; returns -1 when the connection is gone. */
static int conn_read(struct server *s, struct conn *c)
{
	uint8_t buf[4096];
	ssize_t n = read(c->fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		return -1;
	size_t i = 0;
	while (i < (size_t)n) {
		if (c->have_len < 4) {
			c->len_bytes[c->have_len++] = buf[i++];
			if (c->have_len == 4) {
				c->frame_len = get32(c->len_bytes);
				c->have_body = 0;
				memset(c->body, 0, 4);
			}
		} else {
			size_t want = c->frame_len - c->have_body;
			size_t take =
			    (size_t)n - i < want ? (size_t)n - i : want;
			for (size_t k = 0; k < take; k++) {
				size_t at = c->have_body + k;
				if (at < s->max_msg)
					c->body[at] = buf[i + k];
			}
			c->have_body += take;
			i += take;
		}
		if (c->have_len == 4 && c->have_body == c->frame_len) {
			c->have_len = 0;
			if (handle_frame(s, c))
				return -1;
		}
	}
	return 0;
}

/* A socket left by a server that was killed: replace it. */
static void unlink_socket(const char *path)
{
	struct stat st;
	if (!lstat(path, &st) && S_ISSOCK(st.st_mode))
		unlink(path);
}

/* The socket is bound under PATH~ and renamed to PATH once it listens, so
 * a client that sees PATH can connect (docs/scmi.md, Transport and
 * framing: clients find their socket by name, without reading the log);
 * bound at PATH itself, it was refused between bind and listen. A path with no
 * room for the '~' is
 * bound directly. */
static int open_socket(const char *path)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	size_t len = strlen(path);
	if (len >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int staged = len + 1 < sizeof(sa.sun_path);
	memcpy(sa.sun_path, path, len);
	if (staged)
		sa.sun_path[len] = '~';
	unlink_socket(path);
	unlink_socket(sa.sun_path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 8) ||
	    (staged && rename(sa.sun_path, path))) {
		int saved = errno;
		close(fd);
		if (staged)
			unlink_socket(sa.sun_path);
		errno = saved;
		return -1;
	}
	return fd;
}

static void accept_conn(struct server *s, unsigned agent)
{
	int fd = accept(s->listen_fd[agent], NULL, NULL);
	if (fd < 0)
		return;
	if (s->n_conns == MAX_CONNS) {
		close(fd);
		return;
	}
	struct timeval tv = {1, 0};
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	struct conn *c = &s->conns[s->n_conns];
	memset(c, 0, sizeof(*c));
	c->body = malloc(s->max_msg);
	if (!c->body) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->agent = agent;
	s->n_conns++;
	if (s->verbose) {
		agent_words(&s->agents->agents[agent]);
		cli_puts(" connected\n");
		fflush(stdout);
	}
}

static int serve(struct server *s)
{
	unsigned n_agents = s->agents->n_agents;
	struct pollfd pfd[1 + DMN_SCMI_MAX_AGENTS + MAX_CONNS];
	for (;;) {
		unsigned n = 0;
		pfd[n++] = (struct pollfd){stop_pipe[0], POLLIN, 0};
		for (unsigned i = 0; i < n_agents; i++)
			pfd[n++] = (struct pollfd){s->listen_fd[i], POLLIN, 0};
		unsigned n_conns = s->n_conns;
		for (unsigned i = 0; i < n_conns; i++)
			pfd[n++] = (struct pollfd){s->conns[i].fd, POLLIN, 0};
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("domino scmi-serve: poll");
			return EXIT_INPUT;
		}
		if (pfd[0].revents)
			return EXIT_OK;
		/* Connections first, from the last: closing one moves the
		 * last into its place, which was already served. */
		for (unsigned i = n_conns; i-- > 0;) {
			if (!pfd[1 + n_agents + i].revents && !s->conns[i].dead)
				continue;
			if (s->conns[i].dead ||
			    conn_read(s, &s->conns[i]) < 0) {
				if (s->verbose) {
					const struct dmn_scmi_agent *a =
					    &s->agents
						 ->agents[s->conns[i].agent];
					agent_words(a);
					cli_puts(" disconnected\n");
					fflush(stdout);
				}
				conn_close(s, &s->conns[i]);
			}
		}
		for (unsigned i = 0; i < n_agents; i++)
			if (pfd[1 + i].revents & POLLIN)
				accept_conn(s, i);
	}
}

static int parse_max_msg(const char *text, size_t *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(text, &end, 10);
	if (errno || end == text || *end || text[0] == '-' ||
	    v < DMN_SCMI_MIN_MSG || v > 65536)
		return -1;
	*out = v;
	return 0;
}

struct serve_args {
	const char *board, *agents, *dir, *trace;
	size_t max_msg;
	int list, verbose, help;
	struct cli_options opt;
};

/* As cli_parse (the conventions `domino --help` states): options go
 * anywhere, `--opt=VALUE` or `--opt VALUE`, and `--` ends them. */
static int parse_args(int argc, char **argv, struct serve_args *a)
{
	memset(a, 0, sizeof(*a));
	a->dir = ".";
	a->max_msg = DMN_SCMI_DEFAULT_MAX_MSG;
	const char *max_msg = NULL, *hw = NULL;
	int options_end = 0;
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		const char **value = NULL;
		size_t name_len = strcspn(arg, "=");
		char name[24] = "";
		if (name_len < sizeof(name)) {
			memcpy(name, arg, name_len);
			name[name_len] = 0;
		}
		if (!options_end && !strcmp(arg, "--")) {
			options_end = 1;
			continue;
		} else if (options_end || arg[0] != '-' || !arg[1]) {
			if (a->board) {
				fputs("domino scmi-serve: error: unexpected argument '",
				      stderr);
				cli_text(stderr, arg);
				fputs("'\n", stderr);
				return EXIT_INPUT;
			}
			a->board = arg;
			continue;
		} else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			a->help = 1;
			return 0;
		} else if (!strcmp(arg, "--list")) {
			a->list = 1;
		} else if (!strcmp(arg, "-v") || !strcmp(arg, "--verbose")) {
			a->verbose = 1;
		} else if (!strcmp(name, "--agents")) {
			value = &a->agents;
		} else if (!strcmp(name, "--socket-dir")) {
			value = &a->dir;
		} else if (!strcmp(name, "--trace")) {
			value = &a->trace;
		} else if (!strcmp(name, "--max-msg")) {
			value = &max_msg;
		} else if (!strcmp(name, "--supported-hw")) {
			value = &hw;
		} else {
			fputs("domino scmi-serve: error: unknown option '", stderr);
			cli_text(stderr, arg);
			fputs("' (try --help)\n", stderr);
			return EXIT_INPUT;
		}
		if (value && arg[name_len] == '=') {
			*value = arg + name_len + 1;
		} else if (value) {
			if (i + 1 == argc) {
				fprintf(stderr,
					"domino scmi-serve: error: %s needs a "
					"value\n",
					name);
				return EXIT_INPUT;
			}
			*value = argv[++i];
		}
	}
	if (max_msg && parse_max_msg(max_msg, &a->max_msg)) {
		fputs("domino scmi-serve: error: --max-msg '", stderr);
		cli_text(stderr, max_msg);
		fprintf(stderr, "' is not a number of bytes in %u..65536\n",
			DMN_SCMI_MIN_MSG);
		return EXIT_INPUT;
	}
	if (hw && cli_parse_supported_hw("scmi-serve", hw, &a->opt))
		return EXIT_INPUT;
	if (!a->board || !a->agents) {
		fprintf(stderr, "domino scmi-serve: error: %s\n%s",
			!a->board ? "no BOARD.dtb given"
				  : "--agents FILE is required",
			serve_help);
		return EXIT_INPUT;
	}
	return 0;
}

static int load_agents(const char *path, const struct dmn_scmi_board_map *map,
		       struct dmn_scmi_agents *out)
{
	char *text;
	size_t size;
	int rc = cli_read_file(path, 0, &text, &size);
	if (rc)
		return rc;
	char err[512];
	int e = dmn_scmi_agents_parse(text, size, map, out, err, sizeof(err));
	free(text);
	if (e == -ENOMEM) {
		cli_path_msg(path, ": error: out of memory\n");
		return EXIT_INPUT;
	}
	if (e) {
		cli_path_msg(path, ":");
		cli_text(stderr, err); /* quotes the file's words */
		fputc('\n', stderr);
		return EXIT_INPUT;
	}
	return 0;
}

static void socket_path(char *buf, size_t size, const char *dir, uint32_t id)
{
	snprintf(buf, size, "%s/agent%u.sock", dir, id);
}

static int run(struct serve_args *args, struct dmn_sim *sim,
	       const struct dmn_scmi_board_map *map,
	       const struct dmn_scmi_agents *agents)
{
	if (args->list) {
		for (unsigned i = 0; i < map->n_power; i++) {
			cli_printf("power %u ", i);
			cli_text(stdout, map->power[i].name);
			cli_puts("\n");
		}
		for (unsigned j = 0; j < map->n_perf; j++) {
			cli_printf("perf %u ", j);
			cli_text(stdout, map->perf[j].name);
			cli_puts("\n");
		}
		for (unsigned k = 0; k < agents->n_agents; k++) {
			char path[4096];
			socket_path(path, sizeof(path), args->dir,
				    agents->agents[k].id);
			agent_words(&agents->agents[k]);
			cli_printf(" %s\n", path);
		}
		return EXIT_OK;
	}
	static struct server s;
	memset(&s, 0, sizeof(s));
	s.prog = "domino scmi-serve";
	s.agents = agents;
	s.max_msg = args->max_msg;
	s.verbose = args->verbose;
	if (args->trace) {
		s.sim = sim;
		s.clock_domain = dmn_sim_board(sim)->n_domains
				     ? dmn_sim_board(sim)->domains[0].name
				     : NULL;
		clock_gettime(CLOCK_MONOTONIC, &s.start);
	}
	struct dmn_scmi_config cfg = {
	    .ctx = dmn_sim_ctx(sim),
	    .power = map->power,
	    .n_power = map->n_power,
	    .perf = map->perf,
	    .n_perf = map->n_perf,
	    .agents = agents->agents,
	    .n_agents = agents->n_agents,
	    .max_msg = args->max_msg,
	    .send = on_send,
	    .send_user = &s,
	};
	int err = dmn_scmi_server_create(&cfg, &s.scmi);
	if (err) {
		fprintf(stderr, "domino scmi-serve: error: %s\n",
			dmn_strerror(err));
		return EXIT_INPUT;
	}
	s.paths = calloc(agents->n_agents, sizeof(*s.paths));
	int rc = s.paths ? EXIT_OK : EXIT_INPUT;
	unsigned opened = 0;
	for (; rc == EXIT_OK && opened < agents->n_agents; opened++) {
		char path[4096];
		socket_path(path, sizeof(path), args->dir,
			    agents->agents[opened].id);
		s.listen_fd[opened] = open_socket(path);
		if (s.listen_fd[opened] < 0) {
			cli_path_msg(path, ": error: cannot listen: %s\n",
				     strerror(errno));
			rc = EXIT_INPUT;
			break;
		}
		strcpy(s.paths[opened], path);
	}
	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (rc == EXIT_OK) {
		if (pipe(stop_pipe)) {
			perror("domino scmi-serve: pipe");
			rc = EXIT_INPUT;
		} else {
			fcntl(stop_pipe[1], F_SETFL, O_NONBLOCK);
			sigaction(SIGINT, &sa, &old_int);
			sigaction(SIGTERM, &sa, &old_term);
			signal(SIGPIPE, SIG_IGN);
			for (unsigned k = 0; k < agents->n_agents; k++) {
				agent_words(&agents->agents[k]);
				cli_printf(" %s\n", s.paths[k]);
			}
			fflush(stdout);
			rc = serve(&s);
			sigaction(SIGINT, &old_int, NULL);
			sigaction(SIGTERM, &old_term, NULL);
			close(stop_pipe[0]);
			close(stop_pipe[1]);
			stop_pipe[0] = stop_pipe[1] = -1;
		}
	}
	while (s.n_conns)
		conn_close(&s, &s.conns[s.n_conns - 1]);
	for (unsigned k = 0; k < opened; k++) {
		close(s.listen_fd[k]);
		unlink(s.paths[k]);
	}
	free(s.paths);
	dmn_scmi_server_destroy(s.scmi);
	if (rc == EXIT_OK && args->trace) {
		advance_clock(&s);
		const struct dmn_report_model *m;
		err = dmn_sim_report(sim, 1, &m);
		if (err) {
			fprintf(stderr, "domino scmi-serve: error: %s\n",
				dmn_strerror(err));
			rc = EXIT_INPUT;
		} else {
			rc = cli_write_file(args->trace, m, dmn_report_write_trace);
		}
	}
	return rc;
}

int cmd_scmi_serve(int argc, char **argv)
{
	struct serve_args args;
	int rc = parse_args(argc, argv, &args);
	if (rc)
		return rc;
	if (args.help) {
		fputs(serve_help, stdout);
		return EXIT_OK;
	}
	struct cli_board board;
	rc = cli_board_open(args.board, &board);
	if (rc)
		return rc;
	struct dmn_sim *sim;
	if (cli_sim_open(&args.opt, &board, &sim)) {
		cli_board_close(&board);
		return EXIT_INPUT;
	}
	struct dmn_scmi_board_map map;
	struct dmn_scmi_agents agents = {0};
	int err = dmn_scmi_board_map(dmn_sim_board(sim), dmn_sim_instance(sim), &map);
	if (err) {
		fprintf(stderr, "domino scmi-serve: error: %s\n",
			dmn_strerror(err));
		rc = EXIT_INPUT;
	} else if (map.n_power > 0xffff || map.n_perf > 0xffff) {
		/* SCMI domain ids are 16 bits (the attributes' domain count) */
		fprintf(stderr,
			"%s: error: the board has %u %s domains; SCMI numbers "
			"at most 65535\n",
			board.name, map.n_power > 0xffff ? map.n_power : map.n_perf,
			map.n_power > 0xffff ? "power" : "performance");
		rc = EXIT_INPUT;
	} else {
		rc = load_agents(args.agents, &map, &agents);
		if (!rc)
			rc = run(&args, sim, &map, &agents);
	}
	dmn_scmi_agents_free(&agents);
	dmn_scmi_board_map_free(&map);
	dmn_sim_free(sim);
	cli_board_close(&board);
	return rc;
}
