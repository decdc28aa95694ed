/* SPDX-License-Identifier: MIT */
/*
 * The event loop: one poll() over every endpoint (listening sockets,
 * connections, vhost-user devices), then each endpoint's I/O, then at most
 * `turn` requests from each, starting one further along every turn
 * (round-robin), then the timeouts. Nothing in a turn waits for a client,
 * so a stop request is seen within one turn.
 */
#include "serve.h"
#include "../core/debug.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct dmn__serve {
	struct dmn__serve_config cfg;
	struct dmn_scmi_server *scmi;
	struct dmn__ep **eps;
	unsigned n_eps, cap_eps;
	unsigned rr; /* where the next turn starts */
	struct dmn__ep *current; /* whose command dmn_scmi_deliver follows */
	struct dmn__serve_stats stats;
	struct pollfd *pfd;
	unsigned pfd_cap;
	unsigned *agent_conns; /* open connections per agent */
	struct dmn__ep **agent_eps; /* per agent, its serving endpoints */
	int index_of_id[DMN_SCMI_MAX_AGENTS + 1]; /* agent id -> index, -1 */
};

void dmn__serve_limits_default(struct dmn__serve_limits *l)
{
	l->max_conns = 8;
	l->max_queue = 65536;
	l->max_frames = 256;
	l->turn = 8;
	l->stall_ms = 2000;
	l->frame_ms = 2000;
	l->idle_ms = 0;
}

uint64_t dmn__now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void dmn__serve_set_scmi(struct dmn__serve *s, struct dmn_scmi_server *scmi)
{
	s->scmi = scmi;
}

const struct dmn__serve_config *dmn__serve_cfg(const struct dmn__serve *s)
{
	return &s->cfg;
}

int dmn__serve_add(struct dmn__serve *s, struct dmn__ep *ep)
{
	if (s->n_eps == s->cap_eps) {
		unsigned cap = s->cap_eps ? 2 * s->cap_eps : 16;
		struct dmn__ep **eps = realloc(s->eps, cap * sizeof(*eps));
		if (!eps)
			return -ENOMEM;
		s->eps = eps;
		s->cap_eps = cap;
	}
	ep->srv = s;
	s->eps[s->n_eps++] = ep;
	if (ep->serves) {
		/* what an agent is sent goes to its endpoints alone */
		struct dmn__ep **head = &s->agent_eps[ep->agent];
		ep->prev_of_agent = NULL;
		ep->next_of_agent = *head;
		if (*head)
			(*head)->prev_of_agent = ep;
		*head = ep;
	}
	return 0;
}

static void destroy(struct dmn__serve *s, struct dmn__ep *ep)
{
	if (ep->serves) {
		if (ep->prev_of_agent)
			ep->prev_of_agent->next_of_agent = ep->next_of_agent;
		else
			s->agent_eps[ep->agent] = ep->next_of_agent;
		if (ep->next_of_agent)
			ep->next_of_agent->prev_of_agent = ep->prev_of_agent;
	}
	if (s->current == ep)
		s->current = NULL;
	ep->ops->destroy(ep);
}

void dmn__serve_count_drop(struct dmn__serve *s)
{
	s->stats.dropped_notes++;
}

void dmn__serve_count_refused(struct dmn__serve *s)
{
	s->stats.refused_conns++;
}

unsigned *dmn__serve_agent_conns(struct dmn__serve *s, int agent)
{
	return &s->agent_conns[agent];
}

void dmn__serve_get_stats(const struct dmn__serve *s,
			  struct dmn__serve_stats *out)
{
	*out = s->stats;
}

/* Endpoints closed in a phase leave the array at its end, keeping the
 * order of the others (the round-robin order). */
static void sweep(struct dmn__serve *s)
{
	unsigned kept = 0;
	for (unsigned i = 0; i < s->n_eps; i++) {
		struct dmn__ep *ep = s->eps[i];
		if (!ep->dead) {
			s->eps[kept++] = ep;
			continue;
		}
		if (ep->why[0]) {
			dmn__serve_log(s, ep->agent, "%s", ep->why);
			s->stats.dropped_conns++;
		}
		destroy(s, ep);
	}
	s->n_eps = kept;
	if (s->rr >= kept)
		s->rr = 0;
}

/* Every agent may hold --max-conns connections at once; a vhost-user
 * device holds a few fds more. Raise the soft limit that far (up to the
 * hard one); beyond it a listener pauses rather than spins (sock.c). */
static void raise_fd_limit(const struct dmn__serve_config *cfg)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)cfg->agents->n_agents * (cfg->limits.max_conns + 8) + 64;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = need < rl.rlim_max ? need : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

int dmn__serve_open(const struct dmn__serve_config *cfg,
		    struct dmn__serve **out)
{
	struct dmn__serve *s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "domino scmi-serve: error: out of memory\n");
		return -1;
	}
	s->cfg = *cfg;
	s->agent_conns = calloc(cfg->agents->n_agents, sizeof(unsigned));
	s->agent_eps = calloc(cfg->agents->n_agents, sizeof(*s->agent_eps));
	for (unsigned id = 0; id <= DMN_SCMI_MAX_AGENTS; id++)
		s->index_of_id[id] = -1;
	for (unsigned i = 0; i < cfg->agents->n_agents; i++)
		if (cfg->agents->agents[i].id <= DMN_SCMI_MAX_AGENTS)
			s->index_of_id[cfg->agents->agents[i].id] = (int)i;
	if (!s->agent_conns || !s->agent_eps) {
		free(s->agent_conns);
		free(s->agent_eps);
		free(s);
		fprintf(stderr, "domino scmi-serve: error: out of memory\n");
		return -1;
	}
	for (unsigned i = 0; i < cfg->agents->n_agents; i++) {
		int rc = 0;
		if (cfg->vhost_path && cfg->vhost_path[i])
			rc = dmn__vhost_listener(s, (int)i, cfg->vhost_path[i]);
		else if (cfg->socket_path && cfg->socket_path[i])
			rc = dmn__sock_listener(s, (int)i, cfg->socket_path[i]);
		if (rc) {
			dmn__serve_close(s);
			return -1;
		}
	}
	raise_fd_limit(cfg);
	*out = s;
	return 0;
}

void dmn__serve_close(struct dmn__serve *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->n_eps; i++)
		destroy(s, s->eps[i]);
	free(s->eps);
	free(s->pfd);
	free(s->agent_conns);
	free(s->agent_eps);
	free(s);
}

/* Delayed responses go to the endpoint whose command caused them;
 * notifications to every endpoint of the agent. Both only queue. */
void dmn__serve_send(void *user, uint32_t agent_id, const void *msg,
		     size_t len)
{
	struct dmn__serve *s = user;
	uint32_t type = dmn_scmi_header_type(dmn__get32(msg));
	if (agent_id > DMN_SCMI_MAX_AGENTS || s->index_of_id[agent_id] < 0)
		return;
	for (struct dmn__ep *ep = s->agent_eps[s->index_of_id[agent_id]]; ep;
	     ep = ep->next_of_agent) {
		if (ep->dead || (type == DMN_SCMI_TYPE_DELAYED_RESPONSE &&
				 ep != s->current))
			continue;
		ep->ops->post(ep, msg, len);
	}
}

size_t dmn__serve_command(struct dmn__serve *s, struct dmn__ep *ep,
			  const uint8_t *msg, size_t len, uint8_t *reply,
			  size_t cap)
{
	const struct dmn_scmi_agent *a = &s->cfg.agents->agents[ep->agent];
	size_t max = s->cfg.max_msg, rlen = 0;
	if (cap > max)
		cap = max;
	DMN_ASSERT(cap >= DMN_SCMI_MIN_MSG && "--max-msg and the callers keep it");
	if (s->cfg.before_command)
		s->cfg.before_command(s->cfg.user);
	s->stats.commands++;
	if (len > max) {
		/* oversized: PROTOCOL_ERROR under its own header, as a reply */
		dmn__serve_trace_msg(s, ep->agent, "<-", msg, 4);
		dmn__put32(reply, dmn__get32(msg) & ~(3u << 8));
		dmn__put32(reply + 4, (uint32_t)DMN_SCMI_PROTOCOL_ERROR);
		rlen = 8;
	} else {
		dmn__serve_trace_msg(s, ep->agent, "<-", msg, len);
		if (dmn_scmi_handle(s->scmi, a->id, msg, len, reply, cap,
				    &rlen))
			rlen = 0;
	}
	DMN_ASSERT(rlen <= cap && "a reply within --max-msg and the buffer");
	dmn__serve_trace_msg(s, ep->agent, "->", reply, rlen);
	return rlen;
}

void dmn__serve_deliver(struct dmn__serve *s, struct dmn__ep *ep)
{
	s->current = ep;
	dmn_scmi_deliver(s->scmi);
	s->current = NULL;
}

static int grow_pfd(struct dmn__serve *s, unsigned need)
{
	if (need <= s->pfd_cap)
		return 0;
	unsigned cap = s->pfd_cap ? s->pfd_cap : 64;
	while (cap < need)
		cap *= 2;
	struct pollfd *p = realloc(s->pfd, cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	s->pfd = p;
	s->pfd_cap = cap;
	return 0;
}

/* Poll entries per endpoint: a vhost-user device has its socket, the
 * listening socket and two kick fds; a connection one. */
#define EP_MAX_FDS 4

int dmn__serve_run(struct dmn__serve *s, int stop_fd)
{
	for (;;) {
		if (grow_pfd(s, 1 + EP_MAX_FDS * s->n_eps)) {
			fprintf(stderr, "domino scmi-serve: error: out of "
					"memory\n");
			return -1;
		}
		unsigned n = 0;
		s->pfd[n++] = (struct pollfd){stop_fd, POLLIN, 0};
		int busy = 0;
		uint64_t now = dmn__now_ms(), next = UINT64_MAX;
		for (unsigned i = 0; i < s->n_eps; i++) {
			struct dmn__ep *ep = s->eps[i];
			ep->pfd_at = n;
			ep->pfd_n = ep->ops->poll_fds(ep, s->pfd + n, EP_MAX_FDS);
			n += ep->pfd_n;
			busy |= ep->pending;
			uint64_t d = ep->ops->deadline(ep);
			if (d < next)
				next = d;
		}
		int timeout = -1;
		if (busy)
			timeout = 0;
		else if (next != UINT64_MAX)
			timeout = next <= now ? 0
				  : next - now > 60000 ? 60000
						       : (int)(next - now);
		if (poll(s->pfd, n, timeout) < 0) {
			if (errno == EINTR)
				continue;
			perror("domino scmi-serve: poll");
			return -1;
		}
		if (s->pfd[0].revents)
			return 0;
		now = dmn__now_ms();
		unsigned n_eps = s->n_eps; /* accepted ones wait a turn */
		for (unsigned i = 0; i < n_eps; i++) {
			struct dmn__ep *ep = s->eps[i];
			if (ep->ops->io(ep, s->pfd + ep->pfd_at, ep->pfd_n, now))
				ep->dead = 1;
		}
		for (unsigned k = 0; k < n_eps; k++) {
			struct dmn__ep *ep = s->eps[(s->rr + k) % n_eps];
			if (ep->dead)
				continue;
			int more = ep->ops->work(ep, s->cfg.limits.turn, now);
			if (more < 0)
				ep->dead = 1;
			ep->pending = more > 0;
		}
		if (n_eps)
			s->rr = (s->rr + 1) % n_eps;
		for (unsigned i = 0; i < s->n_eps; i++) {
			struct dmn__ep *ep = s->eps[i];
			if (!ep->dead && ep->ops->expire(ep, now))
				ep->dead = 1;
		}
		sweep(s);
	}
}

