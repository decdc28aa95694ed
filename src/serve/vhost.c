/* SPDX-License-Identifier: MIT */
/*
 * The vhost-user transport: one listening socket per agent it serves, one
 * front end at a time. Requests come on the command queue (ring 0: a
 * device-readable request, a device-writable response); delayed responses
 * and notifications go on the event queue (ring 1) when the front end
 * negotiated VIRTIO_SCMI_F_P2A_CHANNELS, and wait in a bounded queue for
 * its buffers. Without it none are sent and an asynchronous
 * POWER_STATE_SET is answered as a synchronous one. A front end that
 * breaks the vhost-user or virtqueue rules is logged and dropped; the
 * socket stays for the next one and the other agents go on.
 */
#include "serve.h"
#include "vu.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSGS_PER_TURN 64 /* vhost-user messages read per turn */
#define REPLY_ROOM 64	 /* the largest reply (20 bytes), and then some */

enum { PFD_LISTEN, PFD_SOCKET, PFD_KICK0, PFD_KICK1 };

struct vdev {
	struct dmn__ep ep;
	int listen_fd;
	char *path;
	uint64_t dev, ino;
	int fd; /* the front end, or -1 */
	struct dmn__vu vu;
	struct dmn__vu_msg msg; /* being read */
	uint8_t head[DMN__VU_HEADER];
	size_t have; /* bytes of it read */
	uint64_t msg_start, progress;
	struct dmn__outq out;	 /* replies to the front end */
	struct dmn__outq events; /* waiting for event-queue buffers */
	unsigned long dropped;	 /* events, since the last log line */
	unsigned long refused;	 /* second front ends, since the last log */
	uint8_t *req, *reply, *event; /* max_msg bytes each */
	int kinds[4];		      /* what each poll entry is */
	char err[200];
};

static size_t max_msg(const struct vdev *v)
{
	return dmn__serve_cfg(v->ep.srv)->max_msg;
}

static void log_drops(struct vdev *v)
{
	if (v->dropped > 1)
		dmn__serve_log(v->ep.srv, v->ep.agent,
			       "%lu event-queue messages dropped in all",
			       v->dropped);
	v->dropped = 0;
}

static void clear_msg(struct vdev *v)
{
	for (unsigned i = 0; i < v->msg.n_fds; i++)
		close(v->msg.fds[i]);
	v->msg.n_fds = 0;
	v->have = 0;
}

/* The front end is gone or broke a rule: say so, forget its state. */
static void front_end_drop(struct vdev *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void front_end_drop(struct vdev *v, const char *fmt, ...)
{
	if (v->fd < 0)
		return;
	if (fmt) {
		char why[300];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
		dmn__serve_log(v->ep.srv, v->ep.agent, "vhost-user: %s", why);
	}
	if (v->dropped)
		log_drops(v);
	clear_msg(v);
	dmn__vu_reset(&v->vu);
	close(v->fd);
	v->fd = -1;
	while (v->out.frames)
		dmn__outq_pop(&v->out);
	while (v->events.frames)
		dmn__outq_pop(&v->events);
	dmn__serve_trace_event(v->ep.srv, v->ep.agent,
			       "vhost-user front end disconnected");
}

static unsigned vdev_poll_front_end(struct vdev *v, struct pollfd *pfd);

static unsigned vdev_poll(struct dmn__ep *ep, struct pollfd *pfd, unsigned max)
{
	struct vdev *v = (struct vdev *)ep;
	unsigned n = 0;
	(void)max;
	if (v->fd >= 0)
		n = vdev_poll_front_end(v, pfd);
	/* after the front end's socket: a new one is taken once the old
	 * one's end is read in the same turn */
	v->kinds[n] = PFD_LISTEN;
	pfd[n++] = (struct pollfd){v->listen_fd, POLLIN, 0};
	return n;
}

static unsigned vdev_poll_front_end(struct vdev *v, struct pollfd *pfd)
{
	unsigned n = 0;
	short ev = dmn__outq_fits(&v->out, REPLY_ROOM, 0, 1) ? POLLIN : 0;
	if (v->out.len)
		ev |= POLLOUT;
	v->kinds[n] = PFD_SOCKET;
	pfd[n++] = (struct pollfd){v->fd, ev, 0};
	for (unsigned i = 0; i < DMN__VU_RINGS; i++)
		if (v->vu.ring[i].kick_fd >= 0) {
			v->kinds[n] = PFD_KICK0 + (int)i;
			pfd[n++] = (struct pollfd){v->vu.ring[i].kick_fd, POLLIN, 0};
		}
	return n;
}

static void accept_front_end(struct vdev *v, uint64_t now)
{
	int fd = accept4(v->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (v->fd >= 0) {
		close(fd);
		if (!v->refused++)
			dmn__serve_log(v->ep.srv, v->ep.agent,
				       "vhost-user: a second front end refused "
				       "(one is connected)");
		dmn__serve_count_refused(v->ep.srv);
		return;
	}
	v->refused = 0;
	v->fd = fd;
	v->progress = now;
	dmn__vu_init(&v->vu);
	dmn__serve_trace_event(v->ep.srv, v->ep.agent,
			       "vhost-user front end connected");
}

static void carry_out(struct vdev *v, uint64_t now)
{
	uint8_t reply[DMN__VU_HEADER + 16];
	size_t rlen;
	int rc = dmn__vu_message(&v->vu, &v->msg, reply, &rlen, v->err,
				 sizeof(v->err));
	v->have = 0;
	if (rc < 0) {
		/* the refusal it asked for, if the socket takes it at once */
		if (rlen)
			send(v->fd, reply, rlen, MSG_DONTWAIT | MSG_NOSIGNAL);
		front_end_drop(v, "front end dropped: %s", v->err);
		return;
	}
	if (rc > 0)
		dmn__serve_log(v->ep.srv, v->ep.agent, "vhost-user: %s", v->err);
	if (rlen) {
		if (!v->out.len)
			v->progress = now;
		if (dmn__outq_push(&v->out, reply, rlen, NULL, 0))
			front_end_drop(v, "front end dropped: it reads no "
					  "replies");
	}
	v->ep.pending = 1; /* a ring may have started */
}

/* Take the fds a read brought; they belong to the message being read. */
static int take_fds(struct vdev *v, struct msghdr *mh)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (v->msg.n_fds < DMN__VU_MAX_FDS)
				v->msg.fds[v->msg.n_fds++] = fd;
			else
				close(fd);
		}
	}
	return (mh->msg_flags & MSG_CTRUNC) ? -1 : 0;
}

static void read_messages(struct vdev *v, uint64_t now)
{
	for (unsigned k = 0; k < MSGS_PER_TURN && v->fd >= 0;) {
		if (!dmn__outq_fits(&v->out, REPLY_ROOM, 0, 1))
			return;
		uint8_t *dst;
		size_t want;
		if (v->have < DMN__VU_HEADER) {
			dst = v->head + v->have;
			want = DMN__VU_HEADER - v->have;
		} else {
			dst = v->msg.payload + (v->have - DMN__VU_HEADER);
			want = DMN__VU_HEADER + v->msg.size - v->have;
		}
		struct iovec iov = {dst, want};
		union {
			char buf[CMSG_SPACE(sizeof(int) * DMN__VU_MAX_FDS)];
			struct cmsghdr align;
		} cm;
		struct msghdr mh;
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = cm.buf;
		mh.msg_controllen = sizeof(cm.buf);
		ssize_t r = recvmsg(v->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (r <= 0) {
			front_end_drop(v, "front end gone (%s)",
				       r ? strerror(errno)
					 : "it closed its socket");
			return;
		}
		if (take_fds(v, &mh)) {
			front_end_drop(v, "front end dropped: it sent more "
					  "fds than a message carries");
			return;
		}
		if (!v->have)
			v->msg_start = now;
		v->have += (size_t)r;
		if (v->have == DMN__VU_HEADER) {
			v->msg.request = dmn__get32(v->head);
			v->msg.flags = dmn__get32(v->head + 4);
			v->msg.size = dmn__get32(v->head + 8);
			if (v->msg.size > DMN__VU_MAX_PAYLOAD) {
				front_end_drop(v,
					       "front end dropped: request %u "
					       "carries %u bytes (at most %u)",
					       v->msg.request, v->msg.size,
					       DMN__VU_MAX_PAYLOAD);
				return;
			}
		}
		if (v->have == DMN__VU_HEADER + (size_t)v->msg.size) {
			carry_out(v, now);
			k++;
		}
	}
}

static void read_kick(struct vdev *v, unsigned ring, short revents)
{
	uint64_t count;
	ssize_t r = read(v->vu.ring[ring].kick_fd, &count, sizeof(count));
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r <= 0 || (revents & (POLLERR | POLLHUP | POLLNVAL)))
		front_end_drop(v, "front end dropped: ring %u's kick fd %s",
			       ring, r < 0 ? strerror(errno) : "is closed");
	else
		v->ep.pending = 1;
}

static int vdev_io(struct dmn__ep *ep, const struct pollfd *pfd, unsigned n,
		   uint64_t now)
{
	struct vdev *v = (struct vdev *)ep;
	int fd_before = v->fd;
	for (unsigned i = 0; i < n; i++) {
		if (!pfd[i].revents)
			continue;
		switch (v->kinds[i]) {
		case PFD_LISTEN:
			accept_front_end(v, now);
			break;
		case PFD_SOCKET:
			if (v->fd != fd_before)
				break;
			if (pfd[i].revents & POLLOUT) {
				long w = dmn__outq_flush(&v->out, v->fd);
				if (w < 0) {
					front_end_drop(v, "front end gone (%s)",
						       strerror((int)-w));
					break;
				}
				if (w > 0)
					v->progress = now;
			}
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
				read_messages(v, now);
			break;
		default:
			if (v->fd == fd_before && v->fd >= 0)
				read_kick(v, (unsigned)(v->kinds[i] - PFD_KICK0),
					  pfd[i].revents);
			break;
		}
	}
	if (v->fd >= 0 && v->out.len) {
		long w = dmn__outq_flush(&v->out, v->fd);
		if (w > 0)
			v->progress = now;
	}
	return 0;
}

/* Without VIRTIO_SCMI_F_P2A_CHANNELS no delayed response can be sent, so
 * an asynchronous POWER_STATE_SET is carried out as a synchronous one. */
static void async_to_sync(uint8_t *req, size_t len)
{
	if (len < 8)
		return;
	uint32_t h = dmn__get32(req);
	if (dmn_scmi_header_protocol(h) == DMN_SCMI_PROTOCOL_POWER &&
	    dmn_scmi_header_msg(h) == 0x4 &&
	    dmn_scmi_header_type(h) == DMN_SCMI_TYPE_COMMAND)
		dmn__put32(req + 4, dmn__get32(req + 4) & ~1u);
}

static void command(struct vdev *v, struct dmn__vring *vr,
		    const struct dmn__vchain *ch)
{
	size_t max = max_msg(v);
	size_t got = dmn__vchain_read(ch, v->req, max);
	size_t len = ch->rd_len > max ? max + 1 : (size_t)ch->rd_len;
	if (len < 4)
		memset(v->req + got, 0, 4 - got);
	if (!dmn__vu_p2a(&v->vu))
		async_to_sync(v->req, got);
	size_t cap = ch->wr_len < max && ch->wr_len >= DMN_SCMI_MIN_MSG
			 ? (size_t)ch->wr_len
			 : max;
	size_t rlen = dmn__serve_command(v->ep.srv, &v->ep, v->req, len,
					 v->reply, cap);
	uint32_t written;
	if (rlen <= ch->wr_len) {
		written = (uint32_t)dmn__vchain_write(ch, v->reply, rlen);
	} else {
		dmn__serve_log(v->ep.srv, v->ep.agent,
			       "vhost-user: a reply of %zu bytes does not fit "
			       "the %llu-byte response buffer; answered "
			       "COMMS_ERROR",
			       rlen, (unsigned long long)ch->wr_len);
		dmn__put32(v->reply + 4, (uint32_t)DMN_SCMI_COMMS_ERROR);
		written = (uint32_t)dmn__vchain_write(ch, v->reply,
						      ch->wr_len >= 8 ? 8 : 0);
	}
	dmn__vring_push(vr, ch->head, written);
	dmn__vring_notify(vr);
	dmn__serve_deliver(v->ep.srv, &v->ep);
}

static const char *const ring_name[DMN__VU_RINGS] = {"command queue",
						      "event queue"};

/* The next chain of ring @i, its directions checked (a command needs a
 * buffer for the response; an event buffer is written only): 1 and
 * *@ch; 0 when there is none or the ring is not ready; 0 and the front
 * end dropped when it broke a rule. */
static int next_chain(struct vdev *v, unsigned i, struct dmn__vchain *ch)
{
	if (v->fd < 0)
		return 0;
	int got = dmn__vu_ring_ready(&v->vu, i, v->err, sizeof(v->err));
	if (got > 0)
		got = dmn__vring_pop(&v->vu.ring[i], &v->vu.mem, ch, v->err,
				     sizeof(v->err));
	if (got > 0 && i == 0 && !ch->n_wr) {
		snprintf(v->err, sizeof(v->err),
			 "the chain from descriptor %u has no buffer for the "
			 "response",
			 ch->head);
		got = -1;
	} else if (got > 0 && i == 1 && ch->n_rd) {
		snprintf(v->err, sizeof(v->err),
			 "the chain from descriptor %u has a device-readable "
			 "buffer",
			 ch->head);
		got = -1;
	}
	if (got < 0)
		front_end_drop(v, "front end dropped: %s: %s", ring_name[i],
			       v->err);
	return got > 0;
}

static int take_commands(struct vdev *v, unsigned budget)
{
	struct dmn__vchain ch;
	unsigned done = 0;
	while (done < budget && next_chain(v, 0, &ch)) {
		command(v, &v->vu.ring[0], &ch);
		done++;
	}
	return done == budget;
}

/* Events wait in order for the driver's buffers (its kick says when). */
static int send_events(struct vdev *v, unsigned budget)
{
	struct dmn__vring *vr = &v->vu.ring[1];
	struct dmn__vchain ch;
	unsigned sent = 0;
	while (v->events.frames && sent < budget && next_chain(v, 1, &ch)) {
		size_t len = dmn__outq_front(&v->events, v->event, max_msg(v));
		uint32_t written = 0;
		if (len > ch.wr_len) {
			dmn__serve_log(v->ep.srv, v->ep.agent,
				       "vhost-user: an event buffer of %llu "
				       "bytes is smaller than the %zu-byte "
				       "message; message dropped",
				       (unsigned long long)ch.wr_len, len);
			dmn__serve_count_drop(v->ep.srv);
		} else {
			dmn__serve_trace_msg(v->ep.srv, v->ep.agent, "<=",
					     v->event, len);
			written = (uint32_t)dmn__vchain_write(&ch,
							       v->event, len);
		}
		dmn__vring_push(vr, ch.head, written);
		dmn__outq_pop(&v->events);
		sent++;
	}
	if (sent && v->fd >= 0)
		dmn__vring_notify(vr);
	return v->events.frames && sent == budget;
}

static int vdev_work(struct dmn__ep *ep, unsigned budget, uint64_t now)
{
	struct vdev *v = (struct vdev *)ep;
	(void)now;
	if (v->fd < 0)
		return 0;
	/* guest memory is touched only in here (the rings and buffers) */
	sigjmp_buf env;
	if (sigsetjmp(env, 0)) {
		dmn__gmem_guard = NULL;
		front_end_drop(v, "front end dropped: its memory file shrank "
				  "under the mapping (SIGBUS)");
		return 0;
	}
	dmn__gmem_guard = &env;
	int more = take_commands(v, budget);
	if (v->fd >= 0)
		more |= send_events(v, budget);
	dmn__gmem_guard = NULL;
	return more;
}

static void vdev_post(struct dmn__ep *ep, const uint8_t *msg, size_t len)
{
	struct vdev *v = (struct vdev *)ep;
	if (v->fd < 0 || !dmn__vu_p2a(&v->vu))
		return; /* no event queue: nothing is sent */
	if (dmn__outq_push(&v->events, msg, len, NULL, 0)) {
		if (!v->dropped++)
			dmn__serve_log(ep->srv, ep->agent,
				       "vhost-user: a %s dropped: %u event-queue "
				       "messages wait for the driver's buffers",
				       dmn_scmi_header_type(dmn__get32(msg)) ==
					       DMN_SCMI_TYPE_DELAYED_RESPONSE
					   ? "delayed response"
					   : "notification",
				       v->events.frames);
		dmn__serve_count_drop(ep->srv);
		return;
	}
	if (v->dropped)
		log_drops(v);
	ep->pending = 1;
}

static uint64_t vdev_deadline(const struct dmn__ep *ep)
{
	const struct vdev *v = (const struct vdev *)ep;
	const struct dmn__serve_limits *l = &dmn__serve_cfg(ep->srv)->limits;
	uint64_t d = UINT64_MAX;
	if (v->fd >= 0 && v->have)
		d = v->msg_start + l->frame_ms;
	if (v->fd >= 0 && v->out.len && v->progress + l->stall_ms < d)
		d = v->progress + l->stall_ms;
	return d;
}

static int vdev_expire(struct dmn__ep *ep, uint64_t now)
{
	struct vdev *v = (struct vdev *)ep;
	const struct dmn__serve_limits *l = &dmn__serve_cfg(ep->srv)->limits;
	if (v->fd >= 0 && v->have && now >= v->msg_start + l->frame_ms)
		front_end_drop(v,
			       "front end dropped: a message begun %u ms ago "
			       "is not complete",
			       l->frame_ms);
	if (v->fd >= 0 && v->out.len && now >= v->progress + l->stall_ms)
		front_end_drop(v,
			       "front end dropped: it read no reply for %u ms",
			       l->stall_ms);
	return 0;
}

static void vdev_destroy(struct dmn__ep *ep)
{
	struct vdev *v = (struct vdev *)ep;
	front_end_drop(v, NULL);
	if (v->listen_fd >= 0) {
		close(v->listen_fd);
		dmn__sockdir_remove(v->path, v->dev, v->ino);
	}
	dmn__outq_free(&v->out);
	dmn__outq_free(&v->events);
	free(v->req);
	free(v->reply);
	free(v->event);
	free(v->path);
	free(v);
}

static const struct dmn__ep_ops vdev_ops = {
    .poll_fds = vdev_poll,
    .io = vdev_io,
    .work = vdev_work,
    .post = vdev_post,
    .deadline = vdev_deadline,
    .expire = vdev_expire,
    .destroy = vdev_destroy,
};

int dmn__vhost_listener(struct dmn__serve *s, int agent, const char *path)
{
	const struct dmn__serve_config *cfg = dmn__serve_cfg(s);
	struct vdev *v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->ep.ops = &vdev_ops;
	v->ep.agent = agent;
	v->ep.serves = 1;
	v->ep.srv = s;
	v->fd = v->listen_fd = -1;
	dmn__vu_init(&v->vu);
	v->path = strdup(path);
	v->req = malloc(cfg->max_msg + 4);
	v->reply = malloc(cfg->max_msg);
	v->event = malloc(cfg->max_msg);
	if (!v->path || !v->req || !v->reply || !v->event ||
	    dmn__outq_init(&v->out, 4096, 64) ||
	    dmn__outq_init(&v->events, cfg->limits.max_queue,
			   cfg->limits.max_frames)) {
		vdev_destroy(&v->ep);
		return -ENOMEM;
	}
	if (dmn__gmem_guard_install()) {
		vdev_destroy(&v->ep);
		return -1;
	}
	v->listen_fd = dmn__sockdir_listen(path, 4, &v->dev, &v->ino);
	if (v->listen_fd < 0 || dmn__serve_add(s, &v->ep)) {
		vdev_destroy(&v->ep);
		return -1;
	}
	return 0;
}
