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
#include <stdint.h>
#include <sys/types.h>

struct served {
	pid_t pid;
	char dir[96];
	char path[8][160]; /* the first 8 agents' socket or vhost-user paths */
	unsigned n_paths;
	int exited, status; /* reaped already, and how */
	unsigned run;	    /* its stdout and stderr are DIR/stdout.RUN ... */
};

/* A fresh directory holding agents.txt (@agents_text). 0 or -1. */
int served_mkdir(struct served *s, const char *agents_text);
/* Run @bin BOARD --agents DIR/agents.txt --socket-dir DIR ARGS... in the
 * directory served_mkdir made; waits as served_start does. */
int served_exec(struct served *s, const char *bin, const char *board,
		unsigned n_agents, const char *const *args);
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
/* Wait up to @limit_ms for it to exit by itself: its exit status, or -1
 * (still running). */
int served_wait(struct served *s, int limit_ms);
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

/* Milliseconds on the monotonic clock. */
double served_now_ms(void);
/* Connect to agent @agent's socket in the server's directory: fd or -1. */
int served_connect_agent(const struct served *s, unsigned agent);
/* Read exactly @n bytes before @deadline (served_now_ms): 0 or -1. */
int served_read_until(int fd, uint8_t *buf, size_t n, double deadline);
/* Send a command with @n_words payload words (at most 4) on a socket
 * and wait up to @timeout_ms for its reply (notifications before it are
 * skipped): the round trip in ms and the status in *@status, or -1. */
double served_call(int fd, uint32_t protocol, uint32_t msg,
		   const uint32_t *words, unsigned n_words, int timeout_ms,
		   int32_t *status);
/* A child process doing @behave on a connection of @agent until killed. */
pid_t served_child(const struct served *s, unsigned agent,
		   void (*behave)(int fd));
/* Kill and reap it. */
void served_reap(pid_t pid);

#endif
