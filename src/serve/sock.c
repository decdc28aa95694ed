/* SPDX-License-Identifier: MIT */
/*
 * The Unix-socket transport: one listening socket per agent, frames of a
 * 32-bit little-endian length and an SCMI message (docs/scmi.md,
 * Transport). A connection is read only while its outgoing queue has room
 * for a reply and a delayed response (back-pressure); notifications take
 * only what lies beyond that room and are dropped, counted and logged when
 * it is gone; a queue that does not move for stall_ms, a frame begun and
 * not finished within frame_ms, and (when set) a connection idle for
 * idle_ms are dropped.
 */
#include "serve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define IN_CAP 4096	    /* bytes read ahead of the parser */
#define ACCEPTS_PER_TURN 16 /* a connection flood cannot hold a turn */

struct listener {
	struct dmn__ep ep;
	int fd;
	char *path;
	uint64_t dev, ino;
	unsigned long refused; /* since the last log line */
	uint64_t refused_logged;
	uint64_t paused_until; /* out of fds: accept again after a pause */
	uint64_t pause_logged;
};

struct conn {
	struct dmn__ep ep;
	int fd;
	struct dmn__outq out;
	uint8_t in[IN_CAP];
	unsigned in_off, in_len;
	uint8_t len_bytes[4];
	unsigned have_len;
	uint32_t frame_len, have_body;
	uint8_t *body;	/* max_msg bytes: the first of the frame */
	uint8_t *reply; /* max_msg bytes */
	uint64_t frame_start, progress, active;
	unsigned long dropped; /* notifications, since the last log line */
	int eof;	       /* the client sends no more: answer, then close */
	int blocked;	       /* its socket is full: write when poll says */
};

static size_t max_msg(const struct dmn__ep *ep)
{
	return dmn__serve_cfg(ep->srv)->max_msg;
}

static const struct dmn__serve_limits *limits(const struct dmn__ep *ep)
{
	return &dmn__serve_cfg(ep->srv)->limits;
}

/* Room for a reply and a delayed response (an async POWER_STATE_SET) is
 * kept free before a request is taken. */
static int can_take(const struct conn *c)
{
	size_t frame = 4 + max_msg(&c->ep);
	return dmn__outq_fits(&c->out, frame, frame, 1);
}

static int in_frame(const struct conn *c)
{
	return c->have_len > 0;
}

static unsigned conn_poll(struct dmn__ep *ep, struct pollfd *pfd, unsigned max)
{
	struct conn *c = (struct conn *)ep;
	(void)max;
	short ev = 0;
	if (can_take(c) && c->in_len - c->in_off < IN_CAP && !c->eof)
		ev |= POLLIN;
	if (c->out.len)
		ev |= POLLOUT;
	pfd[0] = (struct pollfd){c->fd, ev, 0};
	return 1;
}

/* Write what is queued; a socket that takes less than all is written
 * again only once poll() says it has room (a reader that does not read
 * costs no system call per turn). */
static int flush(struct conn *c, uint64_t now)
{
	long w = dmn__outq_flush(&c->out, c->fd);
	if (w < 0)
		return -1; /* the peer is gone */
	if (w > 0)
		c->progress = c->active = now;
	c->blocked = c->out.len > 0;
	return 0;
}

static int conn_io(struct dmn__ep *ep, const struct pollfd *pfd, unsigned n,
		   uint64_t now)
{
	struct conn *c = (struct conn *)ep;
	(void)n;
	if (pfd->revents & POLLNVAL)
		return -1;
	if ((pfd->revents & POLLOUT) && flush(c, now))
		return -1;
	if (pfd->revents & (POLLIN | POLLHUP | POLLERR)) {
		if (!(pfd->events & POLLIN))
			return pfd->revents & POLLIN ? 0 : -1;
		if (c->in_off == c->in_len)
			c->in_off = c->in_len = 0;
		if (c->in_off && c->in_len == IN_CAP) {
			memmove(c->in, c->in + c->in_off, c->in_len - c->in_off);
			c->in_len -= c->in_off;
			c->in_off = 0;
		}
		ssize_t r = read(c->fd, c->in + c->in_len, IN_CAP - c->in_len);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			return 0;
		if (r < 0)
			return -1;
		if (r == 0)
			c->eof = 1; /* what it sent is still answered */
		c->in_len += (unsigned)r;
	}
	return 0;
}

/* Take bytes until one frame is complete; returns 1 then, 0 when the bytes
 * read so far end first. A body longer than max_msg is read through, its
 * first max_msg bytes kept. */
static int parse_frame(struct conn *c, uint64_t now)
{
	size_t max = max_msg(&c->ep);
	while (c->in_off < c->in_len) {
		if (c->have_len < 4) {
			if (c->have_len == 0)
				c->frame_start = now;
			c->len_bytes[c->have_len++] = c->in[c->in_off++];
			if (c->have_len == 4) {
				c->frame_len = dmn__get32(c->len_bytes);
				c->have_body = 0;
				memset(c->body, 0, 4);
			}
		} else {
			uint32_t want = c->frame_len - c->have_body;
			unsigned avail = c->in_len - c->in_off;
			uint32_t take = avail < want ? avail : want;
			if (c->have_body < max) {
				size_t keep = max - c->have_body;
				memcpy(c->body + c->have_body, c->in + c->in_off,
				       take < keep ? take : keep);
			}
			c->have_body += take;
			c->in_off += take;
		}
		if (c->have_len == 4 && c->have_body == c->frame_len) {
			c->have_len = 0;
			return 1;
		}
	}
	return 0;
}

static int conn_work(struct dmn__ep *ep, unsigned budget, uint64_t now)
{
	struct conn *c = (struct conn *)ep;
	unsigned done = 0;
	while (done < budget && can_take(c) && parse_frame(c, now)) {
		size_t len = c->frame_len;
		size_t rlen = dmn__serve_command(ep->srv, ep, c->body, len,
						 c->reply, max_msg(ep));
		uint8_t head[4];
		dmn__put32(head, (uint32_t)rlen);
		if (!c->out.len)
			c->progress = now;
		dmn__outq_push(&c->out, head, 4, c->reply, rlen);
		dmn__serve_deliver(ep->srv, ep);
		c->active = now;
		done++;
	}
	if (c->in_off == c->in_len)
		c->in_off = c->in_len = 0; /* all taken: read from the start */
	if (c->out.len && !c->blocked && flush(c, now))
		return -1;
	if (c->eof && c->in_off == c->in_len && !c->out.len)
		return -1;
	return done == budget && c->in_off < c->in_len && can_take(c);
}

static void log_drops(struct conn *c)
{
	if (c->dropped > 1)
		dmn__serve_log(c->ep.srv, c->ep.agent,
			       "%lu notifications dropped in all while its "
			       "queue was full",
			       c->dropped);
	c->dropped = 0;
}

static void conn_post(struct dmn__ep *ep, const uint8_t *msg, size_t len)
{
	struct conn *c = (struct conn *)ep;
	size_t frame = 4 + max_msg(ep);
	int delayed = dmn_scmi_header_type(dmn__get32(msg)) ==
		      DMN_SCMI_TYPE_DELAYED_RESPONSE;
	/* a delayed response uses the room kept for it; a notification
	 * leaves that room to the next request */
	if (!dmn__outq_fits(&c->out, 4 + len, delayed ? 0 : 2 * frame,
			    delayed ? 0 : 2)) {
		if (!c->dropped++)
			dmn__serve_log(ep->srv, ep->agent,
				       "%s dropped: its queue is full (%zu "
				       "bytes, %u frames not read)",
				       delayed ? "a delayed response"
					       : "a notification",
				       c->out.len, c->out.frames);
		dmn__serve_count_drop(ep->srv);
		return;
	}
	if (c->dropped)
		log_drops(c);
	dmn__serve_trace_msg(ep->srv, ep->agent, "<=", msg, len);
	uint8_t head[4];
	dmn__put32(head, (uint32_t)len);
	if (!c->out.len)
		c->progress = dmn__now_ms();
	dmn__outq_push(&c->out, head, 4, msg, len);
}

static uint64_t conn_deadline(const struct dmn__ep *ep)
{
	const struct conn *c = (const struct conn *)ep;
	const struct dmn__serve_limits *l = limits(ep);
	uint64_t d = UINT64_MAX;
	if (c->out.len)
		d = c->progress + l->stall_ms;
	if (in_frame(c) && can_take(c) && c->frame_start + l->frame_ms < d)
		d = c->frame_start + l->frame_ms;
	if (l->idle_ms && c->active + l->idle_ms < d)
		d = c->active + l->idle_ms;
	return d;
}

static int conn_expire(struct dmn__ep *ep, uint64_t now)
{
	struct conn *c = (struct conn *)ep;
	const struct dmn__serve_limits *l = limits(ep);
	if (c->out.len && now >= c->progress + l->stall_ms) {
		snprintf(ep->why, sizeof(ep->why),
			 "connection dropped: it read nothing for %u ms "
			 "(%zu bytes, %u frames queued)",
			 l->stall_ms, c->out.len, c->out.frames);
		return -1;
	}
	if (!can_take(c))
		c->frame_start = now; /* not read meanwhile: not its delay */
	else if (in_frame(c) && now >= c->frame_start + l->frame_ms) {
		snprintf(ep->why, sizeof(ep->why),
			 "connection dropped: a frame begun %u ms ago is not "
			 "complete (%u of %u bytes)",
			 l->frame_ms, c->have_len < 4 ? c->have_len : 4 + c->have_body,
			 c->have_len < 4 ? 4 : 4 + c->frame_len);
		return -1;
	}
	if (l->idle_ms && now >= c->active + l->idle_ms) {
		snprintf(ep->why, sizeof(ep->why),
			 "connection dropped: idle for %u ms", l->idle_ms);
		return -1;
	}
	return 0;
}

static void conn_destroy(struct dmn__ep *ep)
{
	struct conn *c = (struct conn *)ep;
	if (c->dropped)
		log_drops(c);
	dmn__serve_trace_event(ep->srv, ep->agent, "disconnected");
	--*dmn__serve_agent_conns(ep->srv, ep->agent);
	close(c->fd);
	dmn__outq_free(&c->out);
	free(c->body);
	free(c->reply);
	free(c);
}

static const struct dmn__ep_ops conn_ops = {
    .poll_fds = conn_poll,
    .io = conn_io,
    .work = conn_work,
    .post = conn_post,
    .deadline = conn_deadline,
    .expire = conn_expire,
    .destroy = conn_destroy,
};

static int conn_open(struct dmn__serve *s, int agent, int fd, uint64_t now)
{
	const struct dmn__serve_config *cfg = dmn__serve_cfg(s);
	struct conn *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ep.ops = &conn_ops;
	c->ep.agent = agent;
	c->ep.serves = 1;
	c->fd = fd;
	c->body = malloc(cfg->max_msg);
	c->reply = malloc(cfg->max_msg);
	c->active = c->progress = now;
	if (!c->body || !c->reply ||
	    dmn__outq_init(&c->out, cfg->limits.max_queue,
			   cfg->limits.max_frames) ||
	    dmn__serve_add(s, &c->ep)) {
		dmn__outq_free(&c->out);
		free(c->body);
		free(c->reply);
		free(c);
		return -ENOMEM;
	}
	++*dmn__serve_agent_conns(s, agent);
	dmn__serve_trace_event(s, agent, "connected");
	return 0;
}

static unsigned listen_poll(struct dmn__ep *ep, struct pollfd *pfd,
			    unsigned max)
{
	struct listener *l = (struct listener *)ep;
	(void)max;
	if (l->paused_until && dmn__now_ms() < l->paused_until)
		return 0; /* a listener it cannot accept from stays readable */
	l->paused_until = 0;
	pfd[0] = (struct pollfd){l->fd, POLLIN, 0};
	return 1;
}

static void log_refused(struct listener *l, uint64_t now, int force)
{
	if (!l->refused || (!force && now < l->refused_logged + 1000))
		return;
	dmn__serve_log(l->ep.srv, l->ep.agent,
		       "%lu connection%s refused: the agent has %u open "
		       "(--max-conns)",
		       l->refused, l->refused == 1 ? "" : "s",
		       *dmn__serve_agent_conns(l->ep.srv, l->ep.agent));
	l->refused = 0;
	l->refused_logged = now;
}

static int listen_io(struct dmn__ep *ep, const struct pollfd *pfd, unsigned n,
		     uint64_t now)
{
	struct listener *l = (struct listener *)ep;
	struct dmn__serve *s = ep->srv;
	for (unsigned k = 0; n && k < ACCEPTS_PER_TURN && (pfd->revents & POLLIN);
	     k++) {
		int fd = accept4(l->fd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE ||
			       errno == ENOBUFS || errno == ENOMEM)) {
			if (now >= l->pause_logged + 1000) {
				dmn__serve_log(s, ep->agent,
					       "cannot accept a connection: "
					       "%s; trying again every 100 ms",
					       strerror(errno));
				l->pause_logged = now;
			}
			l->paused_until = now + 100;
		}
		if (fd < 0)
			break;
		if (*dmn__serve_agent_conns(s, ep->agent) >=
			dmn__serve_cfg(s)->limits.max_conns ||
		    conn_open(s, ep->agent, fd, now)) {
			close(fd);
			l->refused++;
			dmn__serve_count_refused(s);
		}
	}
	log_refused(l, now, 0);
	return 0;
}

static int no_work(struct dmn__ep *ep, unsigned budget, uint64_t now)
{
	(void)ep;
	(void)budget;
	(void)now;
	return 0;
}

static void no_post(struct dmn__ep *ep, const uint8_t *msg, size_t len)
{
	(void)ep;
	(void)msg;
	(void)len;
}

static uint64_t listen_deadline(const struct dmn__ep *ep)
{
	const struct listener *l = (const struct listener *)ep;
	uint64_t d = l->refused ? l->refused_logged + 1000 : UINT64_MAX;
	return l->paused_until && l->paused_until < d ? l->paused_until : d;
}

static int listen_expire(struct dmn__ep *ep, uint64_t now)
{
	log_refused((struct listener *)ep, now, 0);
	return 0;
}

static void listen_destroy(struct dmn__ep *ep)
{
	struct listener *l = (struct listener *)ep;
	log_refused(l, 0, 1);
	close(l->fd);
	dmn__sockdir_remove(l->path, l->dev, l->ino);
	free(l->path);
	free(l);
}

static const struct dmn__ep_ops listen_ops = {
    .poll_fds = listen_poll,
    .io = listen_io,
    .work = no_work,
    .post = no_post,
    .deadline = listen_deadline,
    .expire = listen_expire,
    .destroy = listen_destroy,
};

int dmn__sock_listener(struct dmn__serve *s, int agent, const char *path)
{
	struct listener *l = calloc(1, sizeof(*l));
	char *copy = l ? strdup(path) : NULL;
	if (!copy) {
		free(l);
		return -ENOMEM;
	}
	l->fd = dmn__sockdir_listen(path, 64, &l->dev, &l->ino);
	if (l->fd < 0) {
		free(copy);
		free(l);
		return -1;
	}
	l->ep.ops = &listen_ops;
	l->ep.agent = agent;
	l->path = copy;
	if (dmn__serve_add(s, &l->ep)) {
		listen_destroy(&l->ep);
		return -ENOMEM;
	}
	return 0;
}
