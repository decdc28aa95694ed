/* SPDX-License-Identifier: MIT */
/*
 * `domino scmi-serve` as a child process for the tests: a fresh directory,
 * an agents file, the server's stdout and stderr in files there, start
 * (ready when it printed its `agent ID NAME PATH` lines) and stop (SIGTERM,
 * timed). The binary is DOMINO_SERVE_BIN when set (to run a test against
 * another build, e.g. main's), else the one given.
 */
#ifndef DOMINO_TESTS_SERVE_HARNESS_H
#define DOMINO_TESTS_SERVE_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

struct served {
	pid_t pid;
	char dir[96];
	char path[8][160]; /* agent<ID>.sock or the vhost-user path, by line */
	unsigned n_paths;
	int exited, status; /* reaped already, and how */
};

/* Start: @bin BOARD --agents DIR/agents.txt --socket-dir DIR ARGS...;
 * @agents_text is the agents file. Waits up to 5 s for @n_agents ready
 * lines. In @args, "@DIR" is replaced by the directory. 0, or -1 (the
 * server exited or never got ready: its stderr is printed). */
int served_start(struct served *s, const char *bin, const char *board,
		 const char *agents_text, unsigned n_agents,
		 const char *const *args);
/* SIGTERM; waits up to @limit_ms. Returns the exit status (0..255), -1
 * if it did not exit in time (then it is killed), -2 if a signal ended
 * it. *@ms: how long it took. */
int served_stop(struct served *s, int limit_ms, double *ms);
/* Is it still running? */
int served_alive(struct served *s);
/* Does its stderr hold @needle? */
int served_log_has(const struct served *s, const char *needle);
/* Print its stderr (for a failing test). */
void served_dump_log(const struct served *s);
/* Remove the directory and everything in it. */
void served_cleanup(struct served *s);
/* The resident set of the process in KiB (/proc/PID/status), or 0. */
long served_rss_kib(const struct served *s);

/* The binary to run: DOMINO_SERVE_BIN, else @fallback. */
const char *served_bin(const char *fallback);

/* Connect a socket client (non-blocking if @nonblock); the fd or -1. */
int served_connect(const char *path, int nonblock);

#endif
