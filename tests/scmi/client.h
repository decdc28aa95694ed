/* SPDX-License-Identifier: MIT */
/*
 * A small SCMI client for the tests: the same calls over the in-process
 * handler (dmn_scmi_handle + dmn_scmi_deliver) or over a served agent socket
 * (32-bit little-endian length, then the message; docs/scmi.md).
 */
#ifndef DOMINO_TESTS_SCMI_CLIENT_H
#define DOMINO_TESTS_SCMI_CLIENT_H

#include <domino/scmi.h>
#include <stddef.h>
#include <stdint.h>

#define CLIENT_QUEUE 256
#define CLIENT_MAX_MSG 4096

/* A platform-initiated message: delayed response or notification. */
struct client_msg {
	uint32_t header;
	uint32_t words[16];
	unsigned n_words;
};

struct client {
	int fd;			 /* socket, or -1 for in-process */
	struct dmn_scmi_server *srv; /* in-process */
	uint32_t agent;
	uint32_t token;
	size_t last_len; /* length of the last reply, header included */
	struct client_msg queue[CLIENT_QUEUE];
	unsigned q_head, q_count;
};

/* In-process: route what dmn_scmi_deliver sends to the clients registered. */
void client_inproc_init(struct client *c, struct dmn_scmi_server *srv,
			uint32_t agent);
/* The dmn_scmi_send_fn to put in dmn_scmi_config (user: NULL). */
void client_inproc_send(void *user, uint32_t agent, const void *msg,
			size_t len);
void client_inproc_reset(void);

/* In-process: create the server of @cfg with client_inproc_send as its
 * send callback, and route agent i (cfg->agents[i]) to @clients[i]; aborts
 * the test if creation fails. */
struct dmn_scmi_server *client_inproc_serve(struct dmn_scmi_config *cfg,
					struct client *const *clients);

/* Socket: connect to PATH; returns 0 or -errno. */
int client_connect(struct client *c, const char *path, uint32_t agent);
void client_close(struct client *c);

/*
 * Send one command with @n_args payload words; store up to @max_out reply
 * words after the status into @out (and their count into *@n_out if not
 * NULL). Returns the status; aborts the test on transport errors and on a
 * reply whose token or header does not match.
 */
int32_t client_call(struct client *c, uint32_t protocol, uint32_t msg,
		    const uint32_t *args, unsigned n_args, uint32_t *out,
		    unsigned max_out, unsigned *n_out);

/* Send raw bytes as one frame (socket) or one message (in-process) and
 * read the reply into @reply (max @cap bytes); returns its length. */
size_t client_raw(struct client *c, const void *msg, size_t len, uint8_t *reply,
		  size_t cap);

/* The next platform-initiated message, waiting up to @timeout_ms on a
 * socket; returns 1 and *@m, or 0 if none came. */
int client_next(struct client *c, struct client_msg *m, int timeout_ms);

/* Drop everything queued. */
void client_drain(struct client *c);

#endif
