/* SPDX-License-Identifier: MIT */
/* domino scmi-serve BOARD.dtb --agents FILE: the board, the agents, the
 * signals and --trace; the I/O is src/serve/ (one event loop for the
 * Unix-socket and vhost-user transports). */
#include "scmi_serve.h"

#include <domino/scenario.h>
#include <domino/scmi.h>
#include <domino/sim.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* --trace: the simulation's clock follows the wall clock */
struct trace_clock {
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

/* For --trace: move the simulation's clock to now with a command that
 * changes nothing (`fail D on 0` disarms what nobody armed). */
static void advance_clock(void *user)
{
	struct trace_clock *t = user;
	if (!t->sim || !t->clock_domain)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint64_t ns = (uint64_t)(now.tv_sec - t->start.tv_sec) * 1000000000u +
		      (uint64_t)now.tv_nsec - (uint64_t)t->start.tv_nsec;
	char line[256];
	int n = snprintf(line, sizeof(line), "@%lluns fail %s on 0\n",
			 (unsigned long long)ns, t->clock_domain);
	struct dmn_scn_script *script;
	struct dmn_scn_diag diag;
	if (n < 0 || (size_t)n >= sizeof(line) ||
	    dmn_scn_parse(line, (size_t)n, "scmi", NULL, &script, &diag))
		return;
	struct dmn_sim_result res = {0, 0, 0};
	int op_error;
	dmn_sim_step(t->sim, script, 0, &res, &op_error, &diag);
	dmn_scn_free(script);
}

/* --scenario FILE: its commands, in order, on the board before serving
 * (their times are not waited for). Returns 0 or EXIT_INPUT (said). */
static int run_scenario(const char *path, struct dmn_sim *sim)
{
	char *text;
	size_t size;
	int rc = cli_read_file(path, 0, &text, &size);
	if (rc)
		return rc;
	struct dmn_scn_script *script = NULL;
	struct dmn_scn_diag diag;
	int err = dmn_scn_parse(text, size, path, NULL, &script, &diag);
	struct dmn_sim_result res = {0, 0, 0};
	for (size_t i = 0; !err && i < script->count; i++) {
		int op_error;
		err = dmn_sim_step(sim, script, i, &res, &op_error, &diag);
	}
	if (err == -EINVAL) {
		char line[512];
		dmn_scn_diag_format(&diag, 0, line, sizeof(line));
		cli_text(stderr, line); /* it may quote the scenario */
		fputc('\n', stderr);
	} else if (err) {
		fprintf(stderr, "domino scmi-serve: error: %s\n", dmn_strerror(err));
	}
	dmn_scn_free(script);
	free(text);
	return err ? EXIT_INPUT : EXIT_OK;
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

/* The agent a --vhost-user AGENT names: its id or its name. */
static int find_agent(const struct dmn_scmi_agents *agents, const char *word)
{
	for (unsigned i = 0; i < agents->n_agents; i++) {
		char id[16];
		snprintf(id, sizeof(id), "%u", agents->agents[i].id);
		if (!strcmp(word, id) || !strcmp(word, agents->agents[i].name))
			return (int)i;
	}
	return -1;
}

/* Each agent's socket path, or its vhost-user path (@vhost[i] set). */
static int agent_paths(const struct serve_args *args,
		       const struct dmn_scmi_agents *agents, char **socket,
		       const char **vhost)
{
	for (unsigned k = 0; k < args->n_vhost; k++) {
		int i = find_agent(agents, args->vhost[k].agent);
		if (i < 0 || vhost[i]) {
			fputs("domino scmi-serve: error: --vhost-user '", stderr);
			cli_text(stderr, args->vhost[k].agent);
			fprintf(stderr, "=...': %s\n",
				i < 0 ? "no such agent id or name in the agents "
					"file"
				      : "the agent is given twice");
			return EXIT_INPUT;
		}
		vhost[i] = args->vhost[k].path;
	}
	for (unsigned i = 0; i < agents->n_agents; i++) {
		if (vhost[i])
			continue;
		size_t n = strlen(args->dir) + 32;
		socket[i] = malloc(n);
		if (!socket[i]) {
			fputs("domino scmi-serve: error: out of memory\n", stderr);
			return EXIT_INPUT;
		}
		snprintf(socket[i], n, "%s/agent%u.sock", args->dir,
			 agents->agents[i].id);
	}
	return 0;
}

static void agent_line(const struct dmn_scmi_agent *a, const char *path)
{
	cli_printf("agent %u ", a->id);
	cli_text(stdout, a->name);
	cli_printf(" %s\n", path);
}

static void list(const struct dmn_scmi_board_map *map,
		 const struct dmn_scmi_agents *agents, char **socket,
		 const char **vhost)
{
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
	for (unsigned k = 0; k < agents->n_agents; k++)
		agent_line(&agents->agents[k], vhost[k] ? vhost[k] : socket[k]);
}

/* Serve until SIGINT or SIGTERM. */
static int serve_until_signal(struct dmn__serve *srv)
{
	if (pipe(stop_pipe)) {
		perror("domino scmi-serve: pipe");
		return EXIT_INPUT;
	}
	fcntl(stop_pipe[1], F_SETFL, O_NONBLOCK);
	struct sigaction sa, old_int, old_term, old_pipe;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);
	int rc = dmn__serve_run(srv, stop_pipe[0]) ? EXIT_INPUT : EXIT_OK;
	struct dmn__serve_stats st;
	dmn__serve_get_stats(srv, &st);
	if (st.dropped_notes || st.dropped_conns || st.refused_conns)
		fprintf(stderr,
			"domino scmi-serve: %lu commands answered; %lu "
			"notifications dropped, %lu connections dropped, %lu "
			"refused\n",
			st.commands, st.dropped_notes, st.dropped_conns,
			st.refused_conns);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	close(stop_pipe[0]);
	close(stop_pipe[1]);
	stop_pipe[0] = stop_pipe[1] = -1;
	return rc;
}

static int run(struct serve_args *args, struct dmn_sim *sim,
	       const struct dmn_scmi_board_map *map,
	       const struct dmn_scmi_agents *agents, char **socket,
	       const char **vhost)
{
	if (args->list) {
		list(map, agents, socket, vhost);
		return EXIT_OK;
	}
	/* before any socket exists: a bad scenario leaves nothing behind */
	if (args->scenario && run_scenario(args->scenario, sim))
		return EXIT_INPUT;
	struct trace_clock clock = {0};
	if (args->trace) {
		clock.sim = sim;
		clock.clock_domain = dmn_sim_board(sim)->n_domains
					 ? dmn_sim_board(sim)->domains[0].name
					 : NULL;
		clock_gettime(CLOCK_MONOTONIC, &clock.start);
	}
	struct dmn__serve_config scfg = {
	    .agents = agents,
	    .max_msg = args->max_msg,
	    .verbose = args->verbose,
	    .limits = args->limits,
	    .socket_path = (const char *const *)socket,
	    .vhost_path = vhost,
	    .before_command = advance_clock,
	    .user = &clock,
	};
	struct dmn__serve *srv;
	if (dmn__serve_open(&scfg, &srv))
		return EXIT_INPUT;
	struct dmn_scmi_config cfg = {
	    .ctx = dmn_sim_ctx(sim),
	    .power = map->power,
	    .n_power = map->n_power,
	    .perf = map->perf,
	    .n_perf = map->n_perf,
	    .agents = agents->agents,
	    .n_agents = agents->n_agents,
	    .max_msg = args->max_msg,
	    .send = dmn__serve_send,
	    .send_user = srv,
	};
	struct dmn_scmi_server *scmi;
	int err = dmn_scmi_server_create(&cfg, &scmi);
	if (err) {
		fprintf(stderr, "domino scmi-serve: error: %s\n",
			dmn_strerror(err));
		dmn__serve_close(srv);
		return EXIT_INPUT;
	}
	dmn__serve_set_scmi(srv, scmi);
	for (unsigned k = 0; k < agents->n_agents; k++)
		agent_line(&agents->agents[k], vhost[k] ? vhost[k] : socket[k]);
	fflush(stdout);
	int rc = serve_until_signal(srv);
	dmn__serve_close(srv);
	dmn_scmi_server_destroy(scmi);
	if (rc == EXIT_OK && args->trace) {
		advance_clock(&clock);
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

static int serve_board(struct serve_args *args, struct cli_board *board,
		       struct dmn_sim *sim)
{
	struct dmn_scmi_board_map map;
	struct dmn_scmi_agents agents = {0};
	char **socket = NULL;
	const char **vhost = NULL;
	int rc = EXIT_INPUT;
	int err = dmn_scmi_board_map(dmn_sim_board(sim), dmn_sim_instance(sim), &map);
	if (err) {
		fprintf(stderr, "domino scmi-serve: error: %s\n",
			dmn_strerror(err));
		return EXIT_INPUT;
	}
	if (map.n_power > 0xffff || map.n_perf > 0xffff) {
		/* SCMI domain ids are 16 bits (the attributes' domain count) */
		fprintf(stderr,
			"%s: error: the board has %u %s domains; SCMI numbers "
			"at most 65535\n",
			board->name, map.n_power > 0xffff ? map.n_power : map.n_perf,
			map.n_power > 0xffff ? "power" : "performance");
	} else if (!(rc = load_agents(args->agents, &map, &agents))) {
		socket = calloc(agents.n_agents, sizeof(*socket));
		vhost = calloc(agents.n_agents, sizeof(*vhost));
		rc = !socket || !vhost ? EXIT_INPUT
				       : agent_paths(args, &agents, socket, vhost);
		if (!rc)
			rc = run(args, sim, &map, &agents, socket, vhost);
	}
	for (unsigned i = 0; socket && i < agents.n_agents; i++)
		free(socket[i]);
	free(socket);
	free(vhost);
	dmn_scmi_agents_free(&agents);
	dmn_scmi_board_map_free(&map);
	return rc;
}

int cmd_scmi_serve(int argc, char **argv)
{
	struct serve_args args;
	int rc = serve_args_parse(argc, argv, &args);
	if (rc || args.help) {
		if (!rc)
			fputs(serve_help, stdout);
		serve_args_free(&args);
		return rc;
	}
	struct cli_board board;
	rc = cli_board_open(&args.opt, args.board, &board);
	if (rc) {
		serve_args_free(&args);
		return rc;
	}
	struct dmn_sim *sim;
	/* a server runs without end: only --trace needs the event log */
	if (!args.trace)
		args.opt.sim_flags |= DMN_SIM_NO_EVENTS;
	if (cli_sim_open(&args.opt, &board, &sim)) {
		rc = EXIT_INPUT;
	} else {
		rc = serve_board(&args, &board, sim);
		dmn_sim_free(sim);
	}
	cli_board_close(&board);
	serve_args_free(&args);
	return rc;
}
