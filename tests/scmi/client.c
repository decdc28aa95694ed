/* SPDX-License-Identifier: MIT */
#include "client.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static struct client *inproc[DMN_SCMI_MAX_AGENTS + 1];

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "scmi client: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	abort();
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void enqueue(struct client *c, const uint8_t *msg, size_t len)
{
	if (c->q_count == CLIENT_QUEUE)
		die("agent %u: queue full", c->agent);
	struct client_msg *m =
	    &c->queue[(c->q_head + c->q_count++) % CLIENT_QUEUE];
	memset(m, 0, sizeof(*m));
	m->header = len >= 4 ? get32(msg) : 0;
	for (size_t i = 4; i + 4 <= len && m->n_words < 16; i += 4)
		m->words[m->n_words++] = get32(msg + i);
}

void client_inproc_reset(void)
{
	memset(inproc, 0, sizeof(inproc));
}

void client_inproc_init(struct client *c, struct dmn_scmi_server *srv,
			uint32_t agent)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->srv = srv;
	c->agent = agent;
	c->token = 1;
	if (agent <= DMN_SCMI_MAX_AGENTS)
		inproc[agent] = c;
}

void client_inproc_send(void *user, uint32_t agent, const void *msg, size_t len)
{
	(void)user;
	if (agent > DMN_SCMI_MAX_AGENTS || !inproc[agent])
		return;
	enqueue(inproc[agent], msg, len);
}

struct dmn_scmi_server *client_inproc_serve(struct dmn_scmi_config *cfg,
					struct client *const *clients)
{
	struct dmn_scmi_server *srv;
	cfg->send = client_inproc_send;
	client_inproc_reset();
	int err = dmn_scmi_server_create(cfg, &srv);
	if (err)
		die("dmn_scmi_server_create: %d", err);
	for (unsigned i = 0; i < cfg->n_agents; i++)
		client_inproc_init(clients[i], srv, cfg->agents[i].id);
	return srv;
}

int client_connect(struct client *c, const char *path, uint32_t agent)
{
	memset(c, 0, sizeof(*c));
	c->agent = agent;
	c->token = 1;
	c->fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c->fd < 0)
		return -errno;
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		close(c->fd);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;
		close(c->fd);
		c->fd = -1;
		return err;
	}
	return 0;
}

void client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

static void write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("write: %s", strerror(errno));
		p += w;
		n -= (size_t)w;
	}
}

/* 1 and the bytes, or 0 after @timeout_ms with nothing (only before the
 * first byte: a frame once started must finish). */
static int read_all(int fd, uint8_t *p, size_t n, int timeout_ms)
{
	size_t got = 0;
	while (got < n) {
		struct pollfd pfd = {fd, POLLIN, 0};
		int r = poll(&pfd, 1, got ? 20000 : timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			if (!got)
				return 0;
			die("timed out inside a frame");
		}
		ssize_t k = read(fd, p + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			die("read: %s",
			    k ? strerror(errno) : "connection closed");
		got += (size_t)k;
	}
	return 1;
}

/* Read one frame; returns its length (0 if nothing within @timeout_ms). */
static size_t read_frame(struct client *c, uint8_t *buf, size_t cap,
			 int timeout_ms)
{
	uint8_t lenb[4];
	if (!read_all(c->fd, lenb, 4, timeout_ms))
		return 0;
	uint32_t len = get32(lenb);
	if (len > cap || len < 4)
		die("frame of %u bytes", len);
	read_all(c->fd, buf, len, 5000);
	return len;
}

size_t client_raw(struct client *c, const void *msg, size_t len, uint8_t *reply,
		  size_t cap)
{
	if (c->fd < 0) {
		size_t rlen = 0;
		int err =
		    dmn_scmi_handle(c->srv, c->agent, msg, len, reply, cap, &rlen);
		if (err)
			die("dmn_scmi_handle: %d", err);
		dmn_scmi_deliver(c->srv);
		return rlen;
	}
	uint8_t lenb[4];
	put32(lenb, (uint32_t)len);
	write_all(c->fd, lenb, 4);
	write_all(c->fd, msg, len);
	for (;;) {
		uint8_t buf[CLIENT_MAX_MSG];
		size_t n = read_frame(c, buf, sizeof(buf), 20000);
		if (!n)
			die("no reply");
		if (dmn_scmi_header_type(get32(buf)) == DMN_SCMI_TYPE_COMMAND) {
			if (n > cap)
				die("reply of %zu bytes", n);
			memcpy(reply, buf, n);
			return n;
		}
		enqueue(c, buf, n);
	}
}

int32_t client_call(struct client *c, uint32_t protocol, uint32_t msg,
		    const uint32_t *args, unsigned n_args, uint32_t *out,
		    unsigned max_out, unsigned *n_out)
{
	uint8_t req[4 + 4 * 16];
	if (n_args > 16)
		die("too many arguments");
	uint32_t token = c->token++ & 0x3ff;
	uint32_t header = dmn_scmi_header(protocol, msg, DMN_SCMI_TYPE_COMMAND, token);
	put32(req, header);
	for (unsigned i = 0; i < n_args; i++)
		put32(req + 4 + 4 * i, args[i]);
	uint8_t reply[CLIENT_MAX_MSG];
	size_t len = client_raw(c, req, 4 + 4 * n_args, reply, sizeof(reply));
	c->last_len = len;
	if (len < 8 || len % 4)
		die("reply of %zu bytes to 0x%x/0x%x", len, protocol, msg);
	if (get32(reply) != header)
		die("reply header 0x%08x to 0x%08x", get32(reply), header);
	int32_t status = (int32_t)get32(reply + 4);
	unsigned n = 0;
	for (size_t i = 8; i + 4 <= len && n < max_out; i += 4)
		out[n++] = get32(reply + i);
	if (n_out)
		*n_out = n;
	return status;
}

int client_next(struct client *c, struct client_msg *m, int timeout_ms)
{
	if (!c->q_count && c->fd >= 0) {
		uint8_t buf[CLIENT_MAX_MSG];
		size_t n = read_frame(c, buf, sizeof(buf), timeout_ms);
		if (n)
			enqueue(c, buf, n);
	}
	if (!c->q_count)
		return 0;
	*m = c->queue[c->q_head];
	c->q_head = (c->q_head + 1) % CLIENT_QUEUE;
	c->q_count--;
	return 1;
}

void client_drain(struct client *c)
{
	struct client_msg m;
	while (client_next(c, &m, c->fd >= 0 ? 50 : 0))
		;
}
