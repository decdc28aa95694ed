/* SPDX-License-Identifier: MIT */
/*
 * The SCMI server's I/O (hosted, POSIX + Linux): one event loop serving
 * agents over Unix sockets (length-prefixed frames) and over vhost-user
 * (the virtio SCMI device). docs/scmi.md, "Transport", "Limits" and
 * "vhost-user", is the contract; docs/decisions/scmi-serve-event-loop.md
 * says why it is built this way.
 *
 * The loop never blocks on a client: every socket is non-blocking, what a
 * client is sent waits in a bounded queue of its own, and each turn takes
 * at most `turn` requests from each endpoint, round-robin. Nothing here
 * allocates per message.
 *
 * Files: loop.c (the loop, endpoints, routing of what dmn_scmi_deliver
 * sends), outq.c (bounded outgoing queue), sock.c (the Unix-socket
 * transport), sockdir.c (creating and removing the listening sockets),
 * vhost.c (a vhost-user endpoint: socket, fds, event loop glue), vu.c (the
 * vhost-user protocol), vring.c (guest memory and the split virtqueue),
 * log.c (the server's log lines).
 */
#ifndef DOMINO_SERVE_H
#define DOMINO_SERVE_H

#include <domino/scmi.h>

#include "le.h"

#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- limits (docs/scmi.md, Limits) ------------------------------------- */

struct dmn__serve_limits {
	unsigned max_conns;  /* socket connections per agent */
	size_t max_queue;    /* bytes queued to one connection */
	unsigned max_frames; /* frames queued to one connection */
	unsigned turn;	     /* requests taken from an endpoint per turn */
	unsigned stall_ms;   /* a queue that does not move for this: dropped */
	unsigned frame_ms;   /* a frame begun and not finished: dropped */
	unsigned idle_ms;    /* nothing received or sent for this: dropped
				(0: never) */
};

void dmn__serve_limits_default(struct dmn__serve_limits *l);

/* ---- the outgoing queue (outq.c) -------------------------------------- */

/* A FIFO of frames in one byte ring, bounded in bytes and in frames. */
struct dmn__outq {
	uint8_t *buf;
	size_t cap, head, len;
	uint32_t *frame_len; /* ring of the queued frames' lengths */
	unsigned frame_cap, frame_head, frames;
	size_t front_sent; /* bytes of the first frame already written */
};

int dmn__outq_init(struct dmn__outq *q, size_t bytes, unsigned frames);
void dmn__outq_free(struct dmn__outq *q);
/* Could a frame of @len bytes be queued leaving @keep_bytes and
 * @keep_frames free? */
int dmn__outq_fits(const struct dmn__outq *q, size_t len, size_t keep_bytes,
		   unsigned keep_frames);
/* Queue one frame made of @a then @b (@b may be NULL); -ENOSPC if it does
 * not fit (nothing queued). */
int dmn__outq_push(struct dmn__outq *q, const void *a, size_t alen,
		   const void *b, size_t blen);
/* Write what is queued to @fd without blocking: the bytes written (0 when
 * the socket is full), or -errno when the socket is broken. */
long dmn__outq_flush(struct dmn__outq *q, int fd);
/* The first frame (what is left of it): copies up to @cap bytes to @dst
 * and returns its length, 0 when the queue is empty. */
size_t dmn__outq_front(const struct dmn__outq *q, uint8_t *dst, size_t cap);
/* Remove the first frame. */
void dmn__outq_pop(struct dmn__outq *q);

/* ---- endpoints and the loop (loop.c) ---------------------------------- */

struct dmn__serve;
struct dmn__ep;

struct dmn__ep_ops {
	/* Fill up to @max poll entries; returns how many. */
	unsigned (*poll_fds)(struct dmn__ep *ep, struct pollfd *pfd,
			     unsigned max);
	/* The poll results of those entries: read and write what is there.
	 * Returns 0, or -1 to close (ep->why says why). */
	int (*io)(struct dmn__ep *ep, const struct pollfd *pfd, unsigned n,
		  uint64_t now);
	/* Take up to @budget requests. Returns 1 if more are waiting, 0 if
	 * not, -1 to close. */
	int (*work)(struct dmn__ep *ep, unsigned budget, uint64_t now);
	/* Queue a delayed response or a notification; never blocks. */
	void (*post)(struct dmn__ep *ep, const uint8_t *msg, size_t len);
	/* The next time (ms) expire must run, or UINT64_MAX. */
	uint64_t (*deadline)(const struct dmn__ep *ep);
	/* Returns -1 to close when a timeout passed (ep->why says which). */
	int (*expire)(struct dmn__ep *ep, uint64_t now);
	void (*destroy)(struct dmn__ep *ep);
};

struct dmn__ep {
	const struct dmn__ep_ops *ops;
	struct dmn__serve *srv;
	int agent;	  /* index into the agents, -1 for none */
	int serves;	  /* takes commands (counted against the agent) */
	unsigned pfd_at;  /* where its poll entries start this turn */
	unsigned pfd_n;
	int pending;	  /* work left after its last turn */
	int dead;	  /* closed at the end of this phase */
	char why[160];	  /* why it is closed, for the log */
	struct dmn__ep *prev_of_agent, *next_of_agent; /* (serving ones) */
};

struct dmn__serve_config {
	const struct dmn_scmi_agents *agents;
	size_t max_msg;
	int verbose; /* a line per message on stdout */
	struct dmn__serve_limits limits;
	/* per agent index: its socket path, or NULL if not served so */
	const char *const *socket_path;
	/* per agent index: its vhost-user path, or NULL */
	const char *const *vhost_path;
	/* called before each command is answered (the CLI's --trace clock) */
	void (*before_command)(void *user);
	void *user;
};

/* Create every listening socket (sockdir.c's rules; an error names the
 * file and says why on stderr). Returns 0 and *@out, or -1. */
int dmn__serve_open(const struct dmn__serve_config *cfg,
		    struct dmn__serve **out);
/* The SCMI server the loop answers with (created after the sockets, with
 * dmn__serve_send as its send callback). */
void dmn__serve_set_scmi(struct dmn__serve *s, struct dmn_scmi_server *scmi);
/* Serve until @stop_fd is readable. Returns 0, or -1 on a poll error. */
int dmn__serve_run(struct dmn__serve *s, int stop_fd);
/* Close every connection, remove the sockets this server created (and
 * only those), free. NULL is a no-op. */
void dmn__serve_close(struct dmn__serve *s);
/* dmn_scmi_config.send for a server built on @user = the dmn__serve. */
void dmn__serve_send(void *user, uint32_t agent_id, const void *msg,
		     size_t len);
/* Counters for the tests and the log at exit. */
struct dmn__serve_stats {
	unsigned long commands;
	unsigned long dropped_notes; /* notifications an endpoint had no room for */
	unsigned long dropped_conns; /* closed by a limit or a protocol error */
	unsigned long refused_conns; /* beyond --max-conns */
};
void dmn__serve_get_stats(const struct dmn__serve *s,
			  struct dmn__serve_stats *out);

/* For the transports. */
const struct dmn__serve_config *dmn__serve_cfg(const struct dmn__serve *s);
int dmn__serve_add(struct dmn__serve *s, struct dmn__ep *ep);
uint64_t dmn__now_ms(void);
/* Answer one command from @ep's agent: @msg holds the first min(@len,
 * max_msg) bytes of a @len-byte message. Writes the reply (at most
 * min(@cap, max_msg) bytes; @cap at least DMN_SCMI_MIN_MSG) and returns
 * its length. Once the reply is queued, dmn__serve_deliver() sends what
 * the command caused (its delayed response to @ep). */
size_t dmn__serve_command(struct dmn__serve *s, struct dmn__ep *ep,
			  const uint8_t *msg, size_t len, uint8_t *reply,
			  size_t cap);
void dmn__serve_deliver(struct dmn__serve *s, struct dmn__ep *ep);
/* Count a notification that an endpoint had no room for, a connection
 * refused (beyond --max-conns). */
void dmn__serve_count_drop(struct dmn__serve *s);
void dmn__serve_count_refused(struct dmn__serve *s);
/* The number of open connections of agent @agent (the transports count). */
unsigned *dmn__serve_agent_conns(struct dmn__serve *s, int agent);

/* ---- the log (log.c) -------------------------------------------------- */

/* @text with control characters as \xNN (names and paths from users). */
void dmn__serve_text(FILE *f, const char *text);

/* "domino scmi-serve: agent ID NAME: MESSAGE" on stderr (@agent -1: no
 * agent part). */
void dmn__serve_log(const struct dmn__serve *s, int agent, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
/* -v: "agent ID NAME DIR proto ..." on stdout. */
void dmn__serve_trace_msg(const struct dmn__serve *s, int agent,
			  const char *dir, const uint8_t *msg, size_t len);
/* -v: "agent ID NAME WHAT" on stdout. */
void dmn__serve_trace_event(const struct dmn__serve *s, int agent,
			    const char *what);

/* ---- the transports ---------------------------------------------------- */

/* sockdir.c: a listening Unix socket at @path, by the directory rules.
 * Returns the fd, or -1 after printing "PATH: error: ..." on stderr.
 * *@ino and *@dev identify the file created (for dmn__sockdir_remove). */
int dmn__sockdir_listen(const char *path, int backlog, uint64_t *dev,
			uint64_t *ino);
/* Remove @path if it is still the socket this server created. */
void dmn__sockdir_remove(const char *path, uint64_t dev, uint64_t ino);

/* sock.c: the listening endpoint of agent @agent at @path. */
int dmn__sock_listener(struct dmn__serve *s, int agent, const char *path);
/* vhost.c: the vhost-user endpoint of agent @agent at @path. */
int dmn__vhost_listener(struct dmn__serve *s, int agent, const char *path);

#endif
