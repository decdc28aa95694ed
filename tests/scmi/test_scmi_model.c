/* SPDX-License-Identifier: MIT */
/*
 * Random differential test of the SCMI platform server (docs/scmi.md, the
 * wire contract and its semantics) against a reference model written from
 * the contract alone, not from src/scmi.
 *
 * Random small worlds: 1-6 domains (rails with levels, rails without,
 * gates; a DAG: each domain may have one or two parents of lower index), 0-3
 * library devices on them, 1-4 agents with random ids, names and
 * permission sets, --max-msg 40..256 (below 40 the server must refuse to
 * be built). Random steps: a message through dmn_scmi_handle (every message
 * of Base / Power / Perf, unknown protocols and ids, other message types,
 * short and long payloads, bad flags and states, paging past the end,
 * limits min > max, levels outside the limits, sync and async state set,
 * notify on / off, a small reply buffer), or a device get / put / vote
 * through the library; then, mostly, dmn_scmi_deliver (sometimes not, so
 * asynchronous requests pile up: BUSY; one world in 8 seldom delivers,
 * so the notification queue overflows and drops). Sometimes one power-on
 * or one pstate raise the step would make is made to fail (sim
 * providers): the whole step is rolled back and nothing is notified. At
 * the end of a world, dmn_scmi_server_destroy must leave the domains as
 * the library devices alone keep them.
 *
 * Versions (docs/scmi.md, Versions): a third of the agents are capped to
 * 2.0; the others speak Base 2.1, Power 3.0 and Performance 3.0 and may
 * negotiate any protocol down to 2.0 at any step. 2.0's answers are the
 * model as it was before the newer versions (every message, status and
 * size); the newer ones add NEGOTIATE_PROTOCOL_VERSION, DOMAIN_NAME_GET
 * (when --max-msg fits its 76 bytes), the extended-name flags and power in
 * uW (when a level has it).
 *
 * The model predicts every reply byte for byte, every delayed response and
 * notification (recipient, order, agent id, payload), and every domain's
 * on/off state and level; all are compared after every step.
 *
 * The model's rules, from docs/semantics.md and docs/scmi.md: a domain is
 * on while an agent holds it on, an agent's level is non-zero, an active
 * device is attached, or a child is on; its level is the max of what those
 * ask (agents' levels clamped to the effective range), rounded up to its
 * levels, passed up 1:1. One command moves each domain at most once
 * (docs/semantics.md, Ordering: "at most one pstate call per command"),
 * so one LEVEL_CHANGED per domain per command. Raising commands notify
 * levels then power states, parents first; lowering ones power states then
 * levels, children first (a domain's parents in the order their links were
 * added).
 *
 * Safe-direction failures (a failed power-off or lowering, docs/semantics.md,
 * Failures: the step succeeds and that domain stays) are checked for one
 * step: the reply as the model says, and exactly the notifications of the
 * changes the library made; then the world ends, as the model does not follow a
 * stuck domain and its retry (test_core_model_life's subject).
 *
 * Fixed seeds 1..32 (ctest); DOMINO_SEED=N replays one, DOMINO_RANDOM=1
 * adds one from the clock, DOMINO_OPS=N sets steps per seed,
 * DOMINO_TRACE=1 prints every step.
 */
#include "../core/model_main.h"

#include <domino/context.h>
#include <domino/domain.h>
#include <domino/scmi.h>
#include <domino/sim_providers.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXD 6
#define MAXDEV 3
#define MAXA 4
#define MAXL 8
#define TOP 1000u /* every levelled domain's highest level */
#define MAXNOTES 256
#define MAXOUT 512
#define BIGCAP 4096

enum kind { RAIL_LV, RAIL, GATE };

/* ---- the world, fixed for its life ------------------------------------- */

static uint64_t seed, rng;
static unsigned long step_index;
static int trace;

static uint32_t rn(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (uint32_t)(rng % n) : 0;
}

static struct {
	struct dmn_ctx *ctx;
	struct dmn_sim_providers sp;
	struct dmn_scmi_server *srv;
	unsigned n_dom;
	dmn_domain_t dom[MAXD];
	enum kind kind[MAXD];
	int parent[MAXD][2]; /* in the order the links were added; -1 none */
	char name[MAXD][24];
	uint32_t levels[MAXD][MAXL];
	unsigned n_levels[MAXD];
	struct dmn_scmi_perf_level plev[MAXD][MAXL];
	int perf_of[MAXD]; /* wire perf index of a domain, or -1 */
	unsigned perf_dom[MAXD], n_perf;
	unsigned n_dev;
	dmn_device_t dev[MAXDEV];
	dmn_attach_t att[MAXDEV];
	unsigned dev_dom[MAXDEV];
	unsigned n_agents;
	uint32_t agent_id[MAXA];
	char agent_name[MAXA][24];
	uint8_t power_perm[MAXA], perf_perm[MAXA];
	int capped[MAXA]; /* to 2.0 */
	int own[MAXA];	  /* DMN_SCMI_AGENT_OWN_READS */
	int uw;		  /* a level has a power in uW */
	size_t max_msg;
	int lazy; /* delivers seldom: the notification queue overflows */
} W;

/* ---- the model's state ---------------------------------------------------- */

struct note {
	int kind; /* 0 power, 1 level, 2 limits */
	uint32_t agent, domain, a, b;
};

struct model {
	uint8_t newer[MAXA][3]; /* per agent, Base / Power / Perf: not 2.0 */
	uint8_t dev_active[MAXDEV];
	uint32_t dev_vote[MAXDEV];
	uint8_t pon[MAXA][MAXD];
	uint32_t req[MAXA][MAXD], amin[MAXA][MAXD], amax[MAXA][MAXD];
	uint8_t sub_power[MAXA][MAXD], sub_level[MAXA][MAXD],
	    sub_limits[MAXA][MAXD];
	struct {
		int pending;
		uint32_t token, domain, state;
	} async[MAXA];
	unsigned fifo[MAXA], n_fifo;
	struct note notes[MAXNOTES];
	unsigned n_notes;
	unsigned long dropped; /* beyond the server's queue */
	int fail_armed; /* this step's raises / power-ons fail */
};

static struct model M;

/* What the plan of a step saw: domains that would switch on or raise. */
static struct {
	int on[MAXD], up[MAXD];
	int off[MAXD], low[MAXD]; /* would switch off; rail would lower */
	int down;
	int outside; /* a change off the focus chain: the model is lost */
} plan;

/* Messages sent (by the server: got; predicted: want). */
struct out {
	uint32_t agent;
	size_t len;
	uint8_t bytes[64];
};
static struct out got[MAXOUT], want[MAXOUT];
static unsigned n_got, n_want;
static int recording = 1; /* 0 while planning */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static const char *desc_now = "";
static unsigned long n_safe; /* steps with a safe-direction failure */

static void diverge(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	model_diverged(seed, step_index, desc_now, fmt, ap);
}

static void on_send(void *user, uint32_t agent, const void *msg, size_t len)
{
	(void)user;
	if (n_got == MAXOUT || len > sizeof(got[0].bytes))
		diverge("server sent %zu bytes to agent %u (or too many)", len,
			agent);
	got[n_got].agent = agent;
	got[n_got].len = len;
	memcpy(got[n_got].bytes, msg, len);
	n_got++;
}

static void expect_out(uint32_t agent, const uint32_t *words, unsigned n)
{
	if (!recording)
		return;
	if (n_want == MAXOUT)
		diverge("model outbox full");
	want[n_want].agent = agent;
	want[n_want].len = 4 * n;
	for (unsigned i = 0; i < n; i++)
		put32(want[n_want].bytes + 4 * i, words[i]);
	n_want++;
}

/* ---- the model's semantics ---------------------------------------------------
 */

static int is_perf(unsigned d)
{
	return W.perf_of[d] >= 0;
}

/* The effective range of perf domain @j: [max of mins, min of maxes];
 * crossed, the lowest max wins (docs/scmi.md). */
static void eff(const struct model *m, unsigned j, uint32_t *lo, uint32_t *hi)
{
	unsigned d = W.perf_dom[j];
	uint32_t l = W.levels[d][0], h = W.levels[d][W.n_levels[d] - 1];
	for (unsigned a = 0; a < W.n_agents; a++) {
		if (m->amin[a][j] > l)
			l = m->amin[a][j];
		if (m->amax[a][j] < h)
			h = m->amax[a][j];
	}
	*lo = l > h ? h : l;
	*hi = h;
}

static uint32_t applied(const struct model *m, unsigned a, unsigned j)
{
	if (!(W.perf_perm[a] >> j & 1) || !m->req[a][j])
		return 0;
	uint32_t lo, hi, r = m->req[a][j];
	eff(m, j, &lo, &hi);
	return r < lo ? lo : r > hi ? hi : r;
}

static uint32_t round_level(unsigned d, uint32_t v)
{
	if (W.kind[d] != RAIL_LV || !v)
		return v;
	for (unsigned k = 0; k < W.n_levels[d]; k++)
		if (W.levels[d][k] >= v)
			return W.levels[d][k];
	return v; /* above the top: never reached (votes are checked) */
}

static void derive(const struct model *m, int on[MAXD], uint32_t ps[MAXD])
{
	int local[MAXD] = {0}, child_on[MAXD] = {0};
	uint32_t vote[MAXD] = {0}, child_req[MAXD] = {0};
	for (unsigned i = 0; i < W.n_dev; i++)
		if (m->dev_active[i]) {
			unsigned d = W.dev_dom[i];
			local[d] = 1;
			if (m->dev_vote[i] > vote[d])
				vote[d] = m->dev_vote[i];
		}
	for (unsigned a = 0; a < W.n_agents; a++) {
		for (unsigned d = 0; d < W.n_dom; d++)
			if (m->pon[a][d])
				local[d] = 1;
		for (unsigned j = 0; j < W.n_perf; j++) {
			uint32_t v = applied(m, a, j);
			unsigned d = W.perf_dom[j];
			if (v) {
				local[d] = 1;
				if (v > vote[d])
					vote[d] = v;
			}
		}
	}
	for (unsigned d = W.n_dom; d-- > 0;) {
		on[d] = local[d] || child_on[d];
		uint32_t agg = vote[d] > child_req[d] ? vote[d] : child_req[d];
		ps[d] = on[d] ? round_level(d, agg) : 0;
		for (int k = 0; k < 2 && on[d]; k++) {
			int p = W.parent[d][k];
			if (p < 0)
				continue;
			child_on[p] = 1;
			if (ps[d] > child_req[p])
				child_req[p] = ps[d];
		}
	}
}

static void note(struct model *m, int kind, uint32_t agent, uint32_t domain,
		 uint32_t a, uint32_t b)
{
	/* the server queues 4 per domain plus 64 (scmi.h) */
	if (m->n_notes == 4 * (W.n_dom + W.n_perf) + 64) {
		m->dropped++;
		return;
	}
	m->notes[m->n_notes++] = (struct note){kind, agent, domain, a, b};
}

static void ancestors(int d, int in[MAXD])
{
	in[d] = 1;
	for (int k = 0; k < 2; k++)
		if (W.parent[d][k] >= 0)
			ancestors(W.parent[d][k], in);
}

static void order_up(int d, int seen[MAXD], int *order, int *n)
{
	if (seen[d])
		return;
	seen[d] = 1;
	for (int k = 0; k < 2; k++)
		if (W.parent[d][k] >= 0)
			order_up(W.parent[d][k], seen, order, n);
	order[(*n)++] = d;
}

/* @d, then each parent in link order (@reverse: the reverse order, as
 * genpd lowers levels, docs/semantics.md) once no child of it in @in is
 * left to go. */
static void order_down(int d, const int in[MAXD], int seen[MAXD], int *order,
		       int *n, int reverse)
{
	seen[d] = 1;
	order[(*n)++] = d;
	for (int i = 0; i < 2; i++) {
		int k = reverse ? 1 - i : i;
		int p = W.parent[d][k];
		if (p < 0 || seen[p])
			continue;
		int ready = 1;
		for (unsigned c = 0; c < W.n_dom; c++)
			for (int j = 0; j < 2; j++)
				if (W.parent[c][j] == p && in[c] && !seen[c])
					ready = 0;
		if (ready)
			order_down(p, in, seen, order, n, reverse);
	}
}

/* The inputs of @m changed from @before, by a command focused on domain
 * @focus: derive both states, fail the change if a failure is armed and it
 * raises, else queue its notifications. Returns the SCMI status. */
static int32_t commit(struct model *m, const struct model *before,
		      unsigned focus, uint32_t cause, uint32_t level_cause)
{
	int on0[MAXD], on1[MAXD];
	uint32_t ps0[MAXD], ps1[MAXD];
	derive(before, on0, ps0);
	derive(m, on1, ps1);
	int in_chain[MAXD] = {0};
	ancestors((int)focus, in_chain);
	int up = 0, down = 0;
	for (unsigned d = 0; d < W.n_dom; d++) {
		int changed = on0[d] != on1[d] || ps0[d] != ps1[d];
		if (changed && !in_chain[d])
			plan.outside = 1;
		if (!on0[d] && on1[d]) {
			up = 1;
			plan.on[d] = 1;
		}
		if (on0[d] && !on1[d]) {
			down = 1;
			plan.off[d] = 1;
		}
		if (ps1[d] > ps0[d]) {
			up = 1;
			if (W.kind[d] != GATE)
				plan.up[d] = 1;
		}
		if (ps1[d] < ps0[d]) {
			down = 1;
			if (W.kind[d] != GATE)
				plan.low[d] = 1;
		}
	}
	plan.down |= down;
	if (up && m->fail_armed) {
		*m = *before;
		return DMN_SCMI_HARDWARE_ERROR;
	}
	if (up && down)
		plan.outside = 1; /* no command here both raises and lowers */
	/* Raising: levels then power, parents first (each parent's own
	 * parents before it, in link order); lowering: power then levels,
	 * children first (a domain, then each parent in link order once its
	 * last child below went) - docs/semantics.md, Ordering. */
	int order[2][MAXD], n_order = 0, seen[2][MAXD] = {{0}};
	if (up) {
		order_up((int)focus, seen[0], order[0], &n_order);
		memcpy(order[1], order[0], sizeof(order[0]));
	} else {
		/* power off in link order, levels lowered in reverse */
		order_down((int)focus, in_chain, seen[0], order[0], &n_order,
			   0);
		n_order = 0;
		order_down((int)focus, in_chain, seen[1], order[1], &n_order,
			   1);
	}
	for (int pass = 0; pass < 2; pass++) {
		int levels = up ? pass == 0 : pass == 1;
		for (int k = 0; k < n_order; k++) {
			int d = order[levels][k];
			if (levels && is_perf((unsigned)d) && ps0[d] != ps1[d])
				note(m, 1, level_cause, (uint32_t)W.perf_of[d],
				     ps1[d], 0);
			if (!levels && on0[d] != on1[d])
				note(m, 0, cause, (uint32_t)d,
				     on1[d] ? DMN_SCMI_POWER_ON
					    : DMN_SCMI_POWER_OFF,
				     0);
		}
	}
	return DMN_SCMI_SUCCESS;
}

static void flush_notes(struct model *m)
{
	for (unsigned i = 0; i < m->n_notes; i++) {
		const struct note *n = &m->notes[i];
		uint32_t proto = n->kind == 0 ? DMN_SCMI_PROTOCOL_POWER
					      : DMN_SCMI_PROTOCOL_PERF;
		uint32_t w[5] = {
		    dmn_scmi_header(proto, n->kind == 1 ? 1 : 0,
				    DMN_SCMI_TYPE_NOTIFICATION, 0),
		    n->agent, n->domain, n->a, n->b};
		for (unsigned a = 0; a < W.n_agents; a++) {
			const uint8_t *sub = n->kind == 0   ? m->sub_power[a]
					     : n->kind == 1 ? m->sub_level[a]
							    : m->sub_limits[a];
			if (sub[n->domain])
				expect_out(W.agent_id[a], w,
					   n->kind == 2 ? 5 : 4);
		}
	}
	m->n_notes = 0;
}

static void model_deliver(struct model *m)
{
	flush_notes(m);
	for (unsigned k = 0; k < m->n_fifo; k++) {
		unsigned a = m->fifo[k];
		m->async[a].pending = 0;
		unsigned d = m->async[a].domain;
		int on = m->async[a].state == DMN_SCMI_POWER_ON;
		int32_t st = DMN_SCMI_SUCCESS;
		if (m->pon[a][d] != on) {
			struct model before = *m;
			m->pon[a][d] = (uint8_t)on;
			st = commit(m, &before, d, W.agent_id[a],
				    W.agent_id[a]);
		}
		uint32_t w[4] = {dmn_scmi_header(DMN_SCMI_PROTOCOL_POWER, 4,
						 DMN_SCMI_TYPE_DELAYED_RESPONSE,
						 m->async[a].token),
				 (uint32_t)st, d, m->async[a].state};
		expect_out(W.agent_id[a], w, 4);
		flush_notes(m);
	}
	m->n_fifo = 0;
}

/* ---- the model's messages ---------------------------------------------------
 */

struct reply {
	uint32_t w[BIGCAP / 4];
	unsigned n; /* payload words after the status */
	size_t cap; /* bytes a reply may take */
};

static void add(struct reply *r, uint32_t v)
{
	r->w[r->n++] = v;
}

/* @name cut to @size - 1 bytes, NUL-padded to @size (16 or 64). */
static void add_name_n(struct reply *r, const char *name, unsigned size)
{
	uint8_t b[64] = {0};
	for (unsigned i = 0; i < size - 1 && name[i]; i++)
		b[i] = (uint8_t)name[i];
	for (unsigned i = 0; i < size / 4; i++)
		add(r, get32(b + 4 * i));
}

static void add_name(struct reply *r, const char *name)
{
	add_name_n(r, name, 16);
}

/* 2.0's messages: ids below the table's size; the newer versions add
 * 0x10 to each and DOMAIN_NAME_GET (power 0x8, perf 0xC) when --max-msg
 * holds its reply. */
static const uint8_t payload_base[] = {0, 0, 4, 0, 0, 0, 4, 4};
static const uint8_t payload_power[] = {0, 0, 4, 4, 12, 4, 8};
static const uint8_t payload_perf[] = {0, 0, 4, 4, 8, 12, 4, 8, 4, 8, 8, 8};
static const uint32_t served[3] = {0x20001, 0x30000, 0x30000};

/* The payload size of message @id of protocol slot @pi for agent @a, or
 * -1: the agent has no such message. */
static int payload_of(const struct model *m, unsigned a, unsigned pi,
		      uint32_t id)
{
	static const uint8_t *const sizes[3] = {payload_base, payload_power,
						payload_perf};
	static const unsigned n_ids[3] = {
	    sizeof(payload_base), sizeof(payload_power), sizeof(payload_perf)};
	if (id < n_ids[pi])
		return sizes[pi][id];
	if (!m->newer[a][pi])
		return -1;
	if (id == 0x10)
		return 4;
	if ((pi == 1 && id == 8) || (pi == 2 && id == 0xC))
		return W.max_msg >= 76 ? 4 : -1;
	return -1;
}

/* Messages every protocol answers alike: NEGOTIATE_PROTOCOL_VERSION and
 * the message attributes; 1 if @id was one (status in *@st). */
static int m_common(struct model *m, unsigned a, unsigned pi, uint32_t id,
		    const uint8_t *pl, struct reply *r, int32_t *st)
{
	if (id == 0) {
		add(r, m->newer[a][pi] ? served[pi] : 0x20000);
		*st = 0;
		return 1;
	}
	if (id == 2) {
		*st = payload_of(m, a, pi, get32(pl)) < 0 ? DMN_SCMI_NOT_FOUND
							  : 0;
		if (!*st)
			add(r, 0);
		return 1;
	}
	if (id == 0x10) {
		uint32_t v = get32(pl);
		*st = v == served[pi] || v == 0x20000 ? 0
						      : DMN_SCMI_NOT_SUPPORTED;
		if (v == 0x20000)
			m->newer[a][pi] = 0;
		return 1;
	}
	return 0;
}

/* DOMAIN_NAME_GET's reply: flags 0, the name in 64 bytes; a caller's
 * buffer below 76 bytes: GENERIC_ERROR. */
static int32_t m_name_get(struct reply *r, const char *name)
{
	if (r->cap < 76)
		return DMN_SCMI_GENERIC_ERROR;
	add(r, 0);
	add_name_n(r, name, 64);
	return 0;
}

static int ext_name(const char *name)
{
	return W.max_msg >= 76 && strlen(name) > 15;
}

static int32_t m_base(struct model *m, unsigned a, uint32_t id,
		      const uint8_t *pl, struct reply *r)
{
	uint32_t x;
	int32_t st;
	if (m_common(m, a, 0, id, pl, r, &st))
		return st;
	switch (id) {
	case 1:
		add(r, W.n_agents << 8 | 2);
		return 0;
	case 3:
	case 4:
		add_name(r, "domino");
		return 0;
	case 5:
		add(r, DMN_VERSION_MAJOR << 16 | DMN_VERSION_MINOR << 8 |
			   DMN_VERSION_PATCH);
		return 0;
	case 6:
		x = get32(pl);
		if (x > 2)
			return DMN_SCMI_INVALID_PARAMETERS;
		add(r, 2 - x);
		if (x < 2)
			add(r, x == 0 ? 0x11u | 0x13u << 8 : 0x13u);
		return 0;
	default:
		x = get32(pl);
		if (x == 0xffffffffu)
			x = W.agent_id[a];
		if (x == 0) {
			add(r, 0);
			add_name(r, "platform");
			return 0;
		}
		for (unsigned b = 0; b < W.n_agents; b++)
			if (W.agent_id[b] == x) {
				add(r, x);
				add_name(r, W.agent_name[b]);
				return 0;
			}
		return DMN_SCMI_NOT_FOUND;
	}
}

static int32_t m_power(struct model *m, unsigned a, uint32_t id,
		       const uint8_t *pl, struct reply *r, uint32_t token)
{
	uint32_t dom = id >= 3 ? get32(pl + (id == 4 ? 4 : 0)) : 0;
	int on[MAXD];
	uint32_t ps[MAXD];
	int32_t st;
	if (m_common(m, a, 1, id, pl, r, &st))
		return st;
	switch (id) {
	case 1:
		add(r, W.n_dom);
		add(r, 0);
		add(r, 0);
		add(r, 0);
		return 0;
	case 3:
		if (dom >= W.n_dom)
			return DMN_SCMI_NOT_FOUND;
		add(r, 1u << 31 |
			   ((W.power_perm[a] >> dom & 1) ? 3u << 29 : 0) |
			   (m->newer[a][1] && ext_name(W.name[dom]) ? 1u << 27
								    : 0));
		add_name(r, W.name[dom]);
		return 0;
	case 8:
		if (dom >= W.n_dom)
			return DMN_SCMI_NOT_FOUND;
		return m_name_get(r, W.name[dom]);
	case 4: {
		uint32_t flags = get32(pl), state = get32(pl + 8);
		if (flags & ~1u)
			return DMN_SCMI_INVALID_PARAMETERS;
		if (dom >= W.n_dom)
			return DMN_SCMI_NOT_FOUND;
		if (!(W.power_perm[a] >> dom & 1))
			return DMN_SCMI_DENIED;
		if (state != DMN_SCMI_POWER_ON && state != DMN_SCMI_POWER_OFF)
			return DMN_SCMI_INVALID_PARAMETERS;
		if (flags & 1) {
			if (m->async[a].pending)
				return DMN_SCMI_BUSY;
			m->async[a].pending = 1;
			m->async[a].token = token;
			m->async[a].domain = dom;
			m->async[a].state = state;
			m->fifo[m->n_fifo++] = a;
			return 0;
		}
		int want_on = state == DMN_SCMI_POWER_ON;
		if (m->pon[a][dom] == want_on)
			return 0;
		struct model before = *m;
		m->pon[a][dom] = (uint8_t)want_on;
		return commit(m, &before, dom, W.agent_id[a], W.agent_id[a]);
	}
	case 5:
		if (dom >= W.n_dom)
			return DMN_SCMI_NOT_FOUND;
		derive(m, on, ps);
		/* own reads: the agent's request where it may act */
		if (W.own[a] && (W.power_perm[a] >> dom & 1))
			add(r, m->pon[a][dom] ? DMN_SCMI_POWER_ON
					      : DMN_SCMI_POWER_OFF);
		else
			add(r, on[dom] ? DMN_SCMI_POWER_ON
				       : DMN_SCMI_POWER_OFF);
		return 0;
	default:
		if (dom >= W.n_dom)
			return DMN_SCMI_NOT_FOUND;
		if (get32(pl + 4) & ~1u)
			return DMN_SCMI_INVALID_PARAMETERS;
		m->sub_power[a][dom] = (uint8_t)(get32(pl + 4) & 1);
		return 0;
	}
}

static int32_t m_perf(struct model *m, unsigned a, uint32_t id,
		      const uint8_t *pl, struct reply *r)
{
	uint32_t j = id >= 3 ? get32(pl) : 0;
	unsigned d = j < W.n_perf ? W.perf_dom[j] : 0;
	int may = j < W.n_perf && (W.perf_perm[a] >> j & 1);
	int on[MAXD];
	uint32_t ps[MAXD], lo, hi;
	int32_t st;
	int uw = W.uw && m->newer[a][2];
	if (m_common(m, a, 2, id, pl, r, &st))
		return st;
	if (id >= 3 && j >= W.n_perf)
		return DMN_SCMI_NOT_FOUND;
	switch (id) {
	case 1:
		add(r, (uw ? 1u << 17 : 1u << 16) | W.n_perf);
		add(r, 0);
		add(r, 0);
		add(r, 0);
		return 0;
	case 0xC:
		return m_name_get(r, W.name[d]);
	case 3:
		add(r,
		    3u << 28 | (may ? 3u << 30 : 0) |
			(m->newer[a][2] && ext_name(W.name[d]) ? 1u << 26 : 0));
		add(r, 0);
		add(r, 0);
		add(r, W.levels[d][W.n_levels[d] - 1]);
		add_name(r, W.name[d]);
		return 0;
	case 4: {
		uint32_t first = get32(pl + 4);
		if (first >= W.n_levels[d])
			return DMN_SCMI_INVALID_PARAMETERS;
		uint32_t left = W.n_levels[d] - first;
		uint32_t fit = (uint32_t)((r->cap - 12) / 12);
		uint32_t n = left < fit ? left : fit;
		add(r, (left - n) << 16 | n);
		for (uint32_t k = 0; k < n; k++) {
			add(r, W.plev[d][first + k].level);
			add(r, uw ? W.plev[d][first + k].power_uw
				  : W.plev[d][first + k].power_cost);
			add(r, W.plev[d][first + k].latency_us);
		}
		return 0;
	}
	case 5: {
		uint32_t max = get32(pl + 4), min = get32(pl + 8);
		if (!may)
			return DMN_SCMI_DENIED;
		if (min > max)
			return DMN_SCMI_INVALID_PARAMETERS;
		if (min < W.levels[d][0] ||
		    max > W.levels[d][W.n_levels[d] - 1])
			return DMN_SCMI_OUT_OF_RANGE;
		struct model before = *m;
		uint32_t lo0, hi0;
		eff(m, j, &lo0, &hi0);
		m->amin[a][j] = min;
		m->amax[a][j] = max;
		eff(m, j, &lo, &hi);
		if (lo == lo0 && hi == hi0)
			return 0;
		note(m, 2, W.agent_id[a], j, hi, lo);
		return commit(m, &before, d, W.agent_id[a], 0);
	}
	case 6:
		eff(m, j, &lo, &hi);
		add(r, hi);
		add(r, lo);
		return 0;
	case 7: {
		uint32_t level = get32(pl + 4);
		if (!may)
			return DMN_SCMI_DENIED;
		if (level && (level < m->amin[a][j] || level > m->amax[a][j]))
			return DMN_SCMI_OUT_OF_RANGE;
		struct model before = *m;
		m->req[a][j] = level;
		return commit(m, &before, d, W.agent_id[a], W.agent_id[a]);
	}
	case 8:
		derive(m, on, ps);
		add(r, ps[d]);
		return 0;
	case 9:
	case 10:
		if (get32(pl + 4) & ~1u)
			return DMN_SCMI_INVALID_PARAMETERS;
		(id == 9 ? m->sub_limits : m->sub_level)[a][j] =
		    (uint8_t)(get32(pl + 4) & 1);
		return 0;
	default:
		return DMN_SCMI_NOT_SUPPORTED;
	}
}

/* The reply to @len bytes from agent @a, into @out (bytes). */
static size_t model_handle(struct model *m, unsigned a, const uint8_t *msg,
			   size_t len, size_t cap, uint8_t *out)
{
	static struct reply r;
	r.n = 0;
	r.cap = cap < W.max_msg ? cap : W.max_msg;
	uint32_t header = len >= 4 ? get32(msg) : 0;
	int32_t st;
	uint32_t proto = header >> 10 & 0xff, id = header & 0xff;
	int pi = proto == 0x10 ? 0 : proto == 0x11 ? 1 : proto == 0x13 ? 2 : -1;
	int size = pi >= 0 ? payload_of(m, a, (unsigned)pi, id) : -1;
	if (len < 4 || (header >> 8 & 3))
		st = DMN_SCMI_PROTOCOL_ERROR;
	else if (pi < 0)
		st = DMN_SCMI_NOT_SUPPORTED;
	else if (size < 0)
		st = DMN_SCMI_NOT_FOUND;
	else if (len - 4 != (size_t)size)
		st = DMN_SCMI_PROTOCOL_ERROR;
	else if (proto == 0x10)
		st = m_base(m, a, id, msg + 4, &r);
	else if (proto == 0x11)
		st = m_power(m, a, id, msg + 4, &r, header >> 18 & 0x3ff);
	else
		st = m_perf(m, a, id, msg + 4, &r);
	if (st)
		r.n = 0;
	put32(out, header & ~(3u << 8));
	put32(out + 4, (uint32_t)st);
	for (unsigned i = 0; i < r.n; i++)
		put32(out + 8 + 4 * i, r.w[i]);
	return 8 + 4 * (size_t)r.n;
}

/* ---- building a world ------------------------------------------------------
 */

static int round_hook(void *user, dmn_domain_t dom, uint32_t level,
		      uint32_t *rounded)
{
	(void)dom;
	unsigned d = (unsigned)(uintptr_t)user;
	for (unsigned k = 0; k < W.n_levels[d]; k++)
		if (W.levels[d][k] >= level) {
			*rounded = W.levels[d][k];
			return 0;
		}
	return -ERANGE;
}

static void check(int cond, const char *what)
{
	if (!cond)
		diverge("%s", what);
}

static int build(void)
{
	memset(&W, 0, sizeof(W));
	memset(&M, 0, sizeof(M));
	check(dmn_ctx_create(NULL, &W.ctx) == 0, "ctx");
	dmn_sim_providers_init(&W.sp, W.ctx, NULL, 0);
	W.n_dom = 1 + rn(MAXD);
	for (unsigned d = 0; d < W.n_dom; d++) {
		W.kind[d] = rn(5) < 3 ? RAIL_LV : rn(2) ? RAIL : GATE;
		W.parent[d][0] = d && rn(5) < 2 ? (int)rn(d) : -1;
		W.parent[d][1] = -1;
		if (W.parent[d][0] >= 0 && d > 1 && rn(4) == 0)
			while ((W.parent[d][1] = (int)rn(d)) == W.parent[d][0])
				;
		snprintf(W.name[d], sizeof(W.name[d]),
			 rn(4) ? "d%u" : "a_long_domain_name_%u", d);
		W.perf_of[d] = -1;
		struct dmn_domain_desc desc = {
		    W.name[d],
		    W.kind[d] == GATE ? &dmn_sim_providers_gate
				      : &dmn_sim_providers_rail,
		    &W.sp, 0};
		check(dmn_domain_create(W.ctx, &desc, &W.dom[d]) == 0,
		      "domain");
		for (int k = 0; k < 2; k++)
			if (W.parent[d][k] >= 0)
				check(dmn_link_add(W.ctx, W.dom[W.parent[d][k]],
						   W.dom[d]) == 0,
				      "link");
		if (W.kind[d] != RAIL_LV)
			continue;
		/* ascending levels below TOP, then TOP */
		unsigned n = rn(MAXL);
		uint32_t v = 0;
		for (unsigned k = 0; k < n && v < TOP - 200; k++) {
			v += 1 + rn(150);
			W.levels[d][W.n_levels[d]++] = v;
		}
		W.levels[d][W.n_levels[d]++] = TOP;
		for (unsigned k = 0; k < W.n_levels[d]; k++)
			W.plev[d][k] = (struct dmn_scmi_perf_level){
			    W.levels[d][k], rn(3) ? rn(5000) : 0,
			    (uint16_t)rn(100), rn(4) ? 0 : rn(5000000)};
		check(dmn_domain_set_rounding(W.ctx, W.dom[d], round_hook,
					      (void *)(uintptr_t)d) == 0,
		      "rounding");
		W.perf_of[d] = (int)W.n_perf;
		W.perf_dom[W.n_perf++] = d;
	}
	W.n_dev = rn(MAXDEV + 1);
	for (unsigned i = 0; i < W.n_dev; i++) {
		char name[16];
		snprintf(name, sizeof(name), "dev%u", i);
		W.dev_dom[i] = rn(W.n_dom);
		check(dmn_device_create(W.ctx, name, &W.dev[i]) == 0, "dev");
		check(dmn_attach(W.ctx, W.dev[i], W.dom[W.dev_dom[i]],
				 &W.att[i]) == 0,
		      "attach");
	}
	W.n_agents = 1 + rn(MAXA);
	struct dmn_scmi_agent ag[MAXA];
	for (unsigned a = 0; a < W.n_agents; a++) {
		uint32_t id;
		int dup;
		do {
			id = rn(4) ? 1 + rn(8) : 1 + rn(255);
			dup = 0;
			for (unsigned b = 0; b < a; b++)
				dup |= W.agent_id[b] == id;
		} while (dup);
		W.agent_id[a] = id;
		snprintf(W.agent_name[a], sizeof(W.agent_name[a]),
			 rn(4) ? "agent%u" : "a-very-long-agent-%u", a);
		W.power_perm[a] = (uint8_t)(rn(3) ? rn(256) : rn(2) ? 0xff : 0);
		W.perf_perm[a] = (uint8_t)(rn(3) ? rn(256) : rn(2) ? 0xff : 0);
		W.power_perm[a] &= (uint8_t)((1u << W.n_dom) - 1);
		W.perf_perm[a] &= (uint8_t)((1u << W.n_perf) - 1);
		W.capped[a] = rn(3) == 0;
		W.own[a] = rn(3) == 0;
		ag[a] = (struct dmn_scmi_agent){
		    id, W.agent_name[a], &W.power_perm[a], &W.perf_perm[a],
		    W.capped[a] ? DMN_SCMI_PROTOCOL_VERSION_2_0 : 0,
		    W.own[a] ? DMN_SCMI_AGENT_OWN_READS : 0};
		for (unsigned j = 0; j < W.n_perf; j++) {
			unsigned d = W.perf_dom[j];
			M.amin[a][j] = W.levels[d][0];
			M.amax[a][j] = W.levels[d][W.n_levels[d] - 1];
		}
	}
	for (unsigned a = 0; a < W.n_agents; a++)
		for (unsigned p = 0; p < 3; p++)
			M.newer[a][p] = (uint8_t)!W.capped[a];
	for (unsigned j = 0; j < W.n_perf; j++)
		for (unsigned k = 0; k < W.n_levels[W.perf_dom[j]]; k++)
			W.uw |= W.plev[W.perf_dom[j]][k].power_uw != 0;
	struct dmn_scmi_power_domain pw[MAXD];
	struct dmn_scmi_perf_domain pf[MAXD];
	for (unsigned d = 0; d < W.n_dom; d++)
		pw[d] = (struct dmn_scmi_power_domain){W.dom[d], W.name[d]};
	for (unsigned j = 0; j < W.n_perf; j++) {
		unsigned d = W.perf_dom[j];
		pf[j] = (struct dmn_scmi_perf_domain){W.dom[d], W.name[d],
						      W.plev[d], W.n_levels[d]};
	}
	struct dmn_scmi_config cfg = {.ctx = W.ctx,
				      .power = pw,
				      .n_power = W.n_dom,
				      .perf = pf,
				      .n_perf = W.n_perf,
				      .agents = ag,
				      .n_agents = W.n_agents,
				      .send = on_send};
	/* --max-msg 28..256; below the largest fixed reply it is refused */
	W.lazy = rn(8) == 0;
	W.max_msg = 28 + rn(229);
	if (rn(4) == 0)
		W.max_msg = DMN_SCMI_DEFAULT_MAX_MSG;
	cfg.max_msg = W.max_msg;
	int err = dmn_scmi_server_create(&cfg, &W.srv);
	if (W.max_msg < DMN_SCMI_MIN_MSG) {
		check(err == -EINVAL, "max_msg below 40 must be -EINVAL");
		dmn_ctx_destroy(W.ctx);
		return 0;
	}
	check(err == 0, "server create");
	return 1;
}

/* ---- steps ------------------------------------------------------------------
 */

static uint32_t pick_dom(unsigned n)
{
	switch (rn(12)) {
	case 0:
		return n;
	case 1:
		return rn(2) ? 0xffffffffu : 0x10000u + rn(10);
	default:
		return rn(n ? n : 1);
	}
}

static uint32_t pick_level(unsigned j)
{
	if (j >= W.n_perf)
		return rn(TOP + 10);
	unsigned d = W.perf_dom[j];
	switch (rn(8)) {
	case 0:
		return 0;
	case 1:
		return rn(TOP + 50);
	case 2:
		return W.levels[d][0] ? W.levels[d][0] - 1 : 0;
	default:
		return W.levels[d][rn(W.n_levels[d])];
	}
}

/* A random message into @msg; returns its length. */
static size_t gen_message(uint8_t *msg, char *desc, size_t dsize)
{
	static const uint32_t protos[] = {0x10, 0x11, 0x13};
	static const unsigned n_ids[] = {8, 7, 12};
	unsigned pi = rn(3);
	uint32_t proto = protos[pi];
	uint32_t id = rn(n_ids[pi]);
	if (rn(20) == 0)
		proto = rn(2) ? 0x12 + rn(2) * 2 : rn(256);
	if (rn(20) == 0)
		id = n_ids[pi] + rn(rn(2) ? 4 : 250);
	/* the newer versions' messages (and their neighbours) */
	if (rn(12) == 0)
		id = rn(3)     ? 0x10
		     : pi == 1 ? 7 + rn(3)
		     : pi == 2 ? 0xC + rn(2)
			       : 0x10;
	/* favour the state-changing messages */
	if (rn(3) == 0) {
		proto = rn(2) ? 0x11 : 0x13;
		id = proto == 0x11 ? 4 : (rn(3) ? 7 : 5);
	}
	uint32_t type = rn(25) == 0 ? 1 + rn(3) : 0;
	uint32_t header = dmn_scmi_header(proto, id, type, rn(1024));
	if (rn(20) == 0)
		header |= rn(16) << 28;
	uint32_t w[4] = {0, 0, 0, 0};
	unsigned nw = 0;
	uint32_t dom;
	if (id == 0x10 && proto >= 0x10 && proto <= 0x13) {
		static const uint32_t versions[] = {0x20000, 0x20001, 0x30000,
						    0x10000, 0x30001, 0x40000};
		nw = 1;
		w[0] = rn(8) ? versions[rn(6)] : rn(0xffffffffu);
	} else if (proto == 0x10) {
		nw = id == 2 || id == 6 || id == 7;
		w[0] = id == 2	 ? rn(10)
		       : id == 6 ? rn(4)
		       : rn(3)	 ? W.agent_id[rn(W.n_agents)]
		       : rn(2)	 ? 0xffffffffu
				 : rn(256);
	} else if (proto == 0x11) {
		nw = id == 2 || id == 3 || id == 5 || id == 8 ? 1
		     : id == 4				      ? 3
		     : id == 6				      ? 2
							      : 0;
		dom = pick_dom(W.n_dom);
		if (id == 2)
			w[0] = rn(4) ? rn(9) : 0x10;
		else if (id == 4) {
			w[0] = rn(8) ? rn(2) : 1u << rn(32);
			w[1] = dom;
			w[2] = rn(8) ? (rn(2) ? DMN_SCMI_POWER_ON : DMN_SCMI_POWER_OFF)
				     : rn(3) ? 0x40000001u : rn(0xffffffffu);
		} else {
			w[0] = dom;
			w[1] = rn(8) ? rn(2) : 2 + rn(7);
		}
	} else if (proto == 0x13) {
		static const uint8_t nws[] = {0, 0, 1, 1, 2, 3, 1,
					      2, 1, 2, 2, 2, 1};
		nw = id < 13 ? nws[id] : 0;
		dom = pick_dom(W.n_perf);
		w[0] = id == 2 ? (rn(4) ? rn(14) : 0x10) : dom;
		if (id == 4)
			w[1] = rn(4) ? rn(MAXL + 1) : 0xffffffffu;
		else if (id == 5) {
			uint32_t x = pick_level(dom), y = pick_level(dom);
			if (rn(4))
				w[1] = x > y ? x : y, w[2] = x > y ? y : x;
			else
				w[1] = x, w[2] = y;
			if (rn(6) == 0) /* back to the full range */
				w[1] = TOP, w[2] = dom < W.n_perf ? W.levels[W.perf_dom[dom]][0] : 0;
		} else if (id == 7)
			w[1] = pick_level(dom);
		else if (id == 9 || id == 10)
			w[1] = rn(8) ? rn(2) : 2 + rn(5);
		else if (id == 11)
			w[1] = rn(12);
	}
	size_t len = 4 + 4 * (size_t)nw;
	if (rn(25) == 0) /* short or long payload */
		len = rn(2) ? len + 1 + rn(8) : (len > 4 ? len - 1 - rn((uint32_t)len - 4) : 4 + 4);
	if (rn(60) == 0)
		len = rn(4); /* shorter than a header */
	memset(msg, 0, 64);
	put32(msg, header);
	for (unsigned i = 0; i < 4; i++)
		put32(msg + 4 + 4 * i, w[i]);
	for (size_t i = 20; i < len; i++)
		msg[i] = (uint8_t)rn(256);
	snprintf(desc, dsize, "msg %#x/%#x type %u len %zu [%#x %#x %#x]",
		 proto, id, type, len, w[0], w[1], w[2]);
	return len;
}

static void compare_state(void)
{
	int on[MAXD];
	uint32_t ps[MAXD];
	derive(&M, on, ps);
	for (unsigned d = 0; d < W.n_dom; d++) {
		struct dmn_domain_info info;
		check(dmn_domain_info(W.ctx, W.dom[d], &info) == 0, "info");
		if (info.on != on[d] || info.pstate != ps[d])
			diverge("domain %u (%s): library on %d pstate %u, "
				"model on %d pstate %u",
				d, W.name[d], info.on, info.pstate, on[d],
				ps[d]);
	}
	if (dmn_scmi_dropped(W.srv) != M.dropped)
		diverge("%lu notifications dropped, model %lu",
			dmn_scmi_dropped(W.srv), M.dropped);
}

static void dump_out(const char *who, const struct out *o, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		fprintf(stderr, "  %s[%u] agent %u:", who, i, o[i].agent);
		for (size_t k = 0; k + 4 <= o[i].len; k += 4)
			fprintf(stderr, " %#x", get32(o[i].bytes + k));
		fprintf(stderr, "\n");
	}
}

static void compare_out(void)
{
	int same = n_got == n_want;
	for (unsigned i = 0; same && i < n_got; i++)
		same = got[i].agent == want[i].agent &&
		       got[i].len == want[i].len &&
		       !memcmp(got[i].bytes, want[i].bytes, got[i].len);
	if (!same) {
		dump_out("got", got, n_got);
		dump_out("want", want, n_want);
		diverge("sent messages differ (%u sent, %u predicted)", n_got,
			n_want);
	}
	n_got = n_want = 0;
}

/* Arm a failure of one raise or power-on this step would make. */
static void arm(void)
{
	unsigned cand[2 * MAXD], n = 0;
	for (unsigned d = 0; d < W.n_dom; d++) {
		if (plan.on[d])
			cand[n++] = d;
		if (plan.up[d])
			cand[n++] = MAXD + d;
	}
	unsigned c = cand[rn(n)];
	unsigned d = c % MAXD;
	check(dmn_sim_providers_fail(&W.sp,
				     c >= MAXD ? DMN_SIM_PROVIDERS_PSTATE
					       : DMN_SIM_PROVIDERS_POWER_ON,
				     W.dom[d], 1, -EIO) == 0,
	      "arm");
	M.fail_armed = 1;
}

/* Arm a failure of one power-off or lowering this step would make (the
 * safe direction, docs/semantics.md, Failures: the step succeeds, that
 * domain stays). */
static void arm_safe(void)
{
	unsigned cand[2 * MAXD], n = 0;
	for (unsigned d = 0; d < W.n_dom; d++) {
		if (plan.off[d])
			cand[n++] = d;
		if (plan.low[d])
			cand[n++] = MAXD + d;
	}
	unsigned c = cand[rn(n)];
	check(dmn_sim_providers_fail(&W.sp,
				     c >= MAXD ? DMN_SIM_PROVIDERS_PSTATE
					       : DMN_SIM_PROVIDERS_POWER_OFF,
				     W.dom[c % MAXD], 1, -EIO) == 0,
	      "arm");
}

/* After a safe-direction failure the model (which knows no stuck domain)
 * no longer says where the domains are; the library does. Keep of the
 * model's notifications those of changes that happened (@on0, @ps0:
 * before the step; the library: after) and expect no others. */
static void keep_what_happened(const int on0[MAXD], const uint32_t ps0[MAXD])
{
	unsigned k = 0;
	for (unsigned i = 0; i < n_want; i++) {
		const uint8_t *b = want[i].bytes;
		uint32_t h = get32(b), dom = get32(b + 8), v = get32(b + 12);
		int keep = 1;
		if ((h >> 8 & 3) == DMN_SCMI_TYPE_NOTIFICATION &&
		    (h & 0xff) == ((h >> 10 & 0xff) == 0x11 ? 0u : 1u)) {
			unsigned d = (h >> 10 & 0xff) == 0x11 ? dom
							      : W.perf_dom[dom];
			struct dmn_domain_info info;
			check(dmn_domain_info(W.ctx, W.dom[d], &info) == 0,
			      "info");
			if ((h >> 10 & 0xff) == 0x11)
				keep = info.on != on0[d] &&
				       info.on == (v == DMN_SCMI_POWER_ON);
			else
				keep = info.pstate != ps0[d] &&
				       info.pstate == v;
		}
		if (keep)
			want[k++] = want[i];
	}
	n_want = k;
}

static void disarm(void)
{
	dmn_sim_providers_fail(&W.sp, DMN_SIM_PROVIDERS_PSTATE, 0, 0, 0);
	dmn_sim_providers_fail(&W.sp, DMN_SIM_PROVIDERS_POWER_ON, 0, 0, 0);
	dmn_sim_providers_fail(&W.sp, DMN_SIM_PROVIDERS_POWER_OFF, 0, 0, 0);
	for (unsigned d = 0; d < W.n_dom; d++) {
		dmn_sim_providers_fail(&W.sp, DMN_SIM_PROVIDERS_PSTATE,
				       W.dom[d], 0, 0);
		dmn_sim_providers_fail(&W.sp, DMN_SIM_PROVIDERS_POWER_ON,
				       W.dom[d], 0, 0);
		dmn_sim_providers_fail(&W.sp, DMN_SIM_PROVIDERS_POWER_OFF,
				       W.dom[d], 0, 0);
	}
	M.fail_armed = 0;
}

/* A library operation on device @i: 0 get, 1 put, 2 vote. The model's
 * answer (a negative errno). */
static int model_dev(struct model *m, unsigned i, int op, uint32_t level)
{
	struct model before = *m;
	unsigned d = W.dev_dom[i];
	if (op == 2) {
		if (level) {
			int cb = 0, lv = 0, in[MAXD] = {0};
			ancestors((int)d, in);
			for (unsigned e = 0; e < W.n_dom; e++) {
				cb |= in[e] && W.kind[e] != GATE;
				lv |= in[e] && W.kind[e] == RAIL_LV;
			}
			if (!cb)
				return -ENODEV;
			if (lv && level > TOP)
				return -ERANGE;
		}
		m->dev_vote[i] = level;
	} else {
		m->dev_active[i] = op == 0;
	}
	return commit(m, &before, d, 0, 0) ? -EIO : 0;
}

static int lib_dev(unsigned i, int op, uint32_t level)
{
	switch (op) {
	case 0:
		return dmn_device_get(W.ctx, W.dev[i]);
	case 1:
		return dmn_device_put(W.ctx, W.dev[i]);
	default:
		return dmn_vote(W.ctx, W.att[i], level);
	}
}

/* Returns 0 when the world must end (a safe-direction failure left the
 * library where the model cannot follow). */
static int one_step(void)
{
	char desc[160];
	desc_now = desc;
	uint8_t msg[64], rep[BIGCAP], mrep[BIGCAP];
	unsigned a = rn(W.n_agents);
	int is_dev = W.n_dev && rn(5) == 0;
	unsigned di = rn(W.n_dev ? W.n_dev : 1);
	int dop = 0;
	uint32_t dlevel = 0;
	size_t len = 0, cap = rn(4) ? BIGCAP : DMN_SCMI_MIN_MSG + rn(120);
	if (is_dev) {
		dop = rn(3) == 0 ? 2 : M.dev_active[di] ? 1 : 0;
		dlevel = rn(10) == 0 ? rn(TOP + 200) : rn(6) == 0 ? 0 : 1 + rn(TOP);
		snprintf(desc, sizeof(desc), "dev%u %s %u", di,
			 dop == 0 ? "get" : dop == 1 ? "put" : "vote", dlevel);
	} else {
		len = gen_message(msg, desc, sizeof(desc));
	}
	int deliver = W.lazy ? rn(600) == 0 : rn(6) != 0 || M.n_notes > 40;
	int quiet = M.n_fifo == 0; /* nothing earlier would run now */

	/* plan on a copy; maybe arm a failure of what it raises */
	memset(&plan, 0, sizeof(plan));
	struct model p = M;
	recording = 0;
	if (is_dev)
		model_dev(&p, di, dop, dlevel);
	else
		model_handle(&p, a, msg, len, cap, mrep);
	if (deliver)
		model_deliver(&p);
	recording = 1;
	if (plan.outside)
		diverge("the model's plan changed a domain off the chain");
	int any_up = 0;
	for (unsigned d = 0; d < W.n_dom; d++)
		any_up |= plan.on[d] || plan.up[d];
	int armed = any_up && !plan.down && quiet && deliver && !W.lazy &&
		    rn(4) == 0;
	int safe = !any_up && plan.down && quiet && !M.n_notes && deliver &&
		   !W.lazy && rn(8) == 0;
	int on0[MAXD];
	uint32_t ps0[MAXD];
	derive(&M, on0, ps0);
	if (armed)
		arm();
	if (safe)
		arm_safe();
	if (trace)
		fprintf(stderr, "%lu agent %u: %s%s%s\n", step_index,
			W.agent_id[a], desc, deliver ? " +deliver" : "",
			armed ? " +fail" : safe ? " +safe-fail" : "");

	if (is_dev) {
		int w = model_dev(&M, di, dop, dlevel);
		int g = lib_dev(di, dop, dlevel);
		if (g != w)
			diverge("library returned %d, model %d", g, w);
	} else {
		size_t rlen = 0;
		size_t mlen = model_handle(&M, a, msg, len, cap, mrep);
		int err = dmn_scmi_handle(W.srv, W.agent_id[a], msg, len, rep,
					  cap, &rlen);
		if (err)
			diverge("dmn_scmi_handle returned %d", err);
		if (rlen != mlen || memcmp(rep, mrep, mlen)) {
			fprintf(stderr, "  got ");
			for (size_t k = 0; k + 4 <= rlen; k += 4)
				fprintf(stderr, " %#x", get32(rep + k));
			fprintf(stderr, "\n  want");
			for (size_t k = 0; k + 4 <= mlen; k += 4)
				fprintf(stderr, " %#x", get32(mrep + k));
			fprintf(stderr, "\n");
			diverge("reply differs (%zu bytes, model %zu)", rlen,
				mlen);
		}
		if (rlen > W.max_msg || rlen > cap)
			diverge("reply of %zu bytes above the cap", rlen);
	}
	if (deliver) {
		model_deliver(&M);
		int n = dmn_scmi_deliver(W.srv);
		if (n < 0 || (unsigned)n != n_got)
			diverge("deliver returned %d, sent %u", n, n_got);
	}
	disarm();
	if (safe) {
		n_safe++;
		keep_what_happened(on0, ps0);
		compare_out();
		return 0;
	}
	compare_out();
	compare_state();
	return 1;
}

/* The API's own refusals: no agent, a small buffer, NULL. */
static void api_edges(void)
{
	uint8_t msg[8] = {0}, rep[64];
	size_t rlen = 0;
	uint32_t nobody = 0;
	for (int tries = 0; tries < 300 && !nobody; tries++) {
		uint32_t id = rn(300);
		int used = 0;
		for (unsigned a = 0; a < W.n_agents; a++)
			used |= W.agent_id[a] == id;
		if (!used)
			nobody = id;
	}
	desc_now = "api edges";
	check(dmn_scmi_handle(W.srv, nobody, msg, 4, rep, sizeof(rep), &rlen) ==
		  -ENOENT,
	      "unknown agent is -ENOENT");
	check(dmn_scmi_handle(W.srv, W.agent_id[0], msg, 4, rep,
			      DMN_SCMI_MIN_MSG - 1, &rlen) == -ENOSPC,
	      "small buffer is -ENOSPC");
	check(dmn_scmi_handle(W.srv, W.agent_id[0], msg, 4, NULL, 64, &rlen) ==
		  -EINVAL,
	      "NULL reply is -EINVAL");
	/* no bytes at all: PROTOCOL_ERROR under a zero header */
	memset(rep, 0xaa, sizeof(rep));
	check(dmn_scmi_handle(W.srv, W.agent_id[0], NULL, 0, rep, sizeof(rep),
			      &rlen) == 0 &&
		  rlen == 8 && get32(rep) == 0 &&
		  get32(rep + 4) == (uint32_t)DMN_SCMI_PROTOCOL_ERROR,
	      "an empty message is PROTOCOL_ERROR under a zero header");
}

static void run(unsigned long n_ops)
{
	rng = model_start(seed);
	trace = getenv("DOMINO_TRACE") != NULL;
	unsigned long done = 0;
	unsigned worlds = 0;
	unsigned long dropped = 0;
	step_index = 0;
	n_safe = 0;
	while (done < n_ops) {
		desc_now = "build";
		if (!build())
			continue;
		worlds++;
		api_edges();
		if (trace)
			fprintf(stderr, "world %u: %u domains, %u perf, %u "
					"devices, %u agents, max_msg %zu\n",
				worlds, W.n_dom, W.n_perf, W.n_dev, W.n_agents,
				W.max_msg);
		for (unsigned d = 0; trace && d < W.n_dom; d++)
			fprintf(stderr,
				"  domain %u %s: kind %d, parents %d %d, "
				"perf %d\n",
				d, W.name[d], W.kind[d], W.parent[d][0],
				W.parent[d][1], W.perf_of[d]);
		for (unsigned i = 0; trace && i < W.n_dev; i++)
			fprintf(stderr, "  dev%u on domain %u\n", i,
				W.dev_dom[i]);
		unsigned long per_world = 30 + rn(300);
		int going = 1;
		for (unsigned long i = 0; i < per_world && done < n_ops && going;
		     i++) {
			going = one_step();
			step_index++;
			done++;
		}
		/* destroy withdraws every agent's request: devices remain */
		desc_now = "destroy";
		dropped += M.dropped;
		dmn_scmi_server_destroy(W.srv);
		if (!going) { /* the model lost track: no state to compare */
			check(n_got == 0, "destroy sends nothing");
			dmn_ctx_destroy(W.ctx);
			continue;
		}
		memset(M.pon, 0, sizeof(M.pon));
		memset(M.req, 0, sizeof(M.req));
		int on[MAXD];
		uint32_t ps[MAXD];
		derive(&M, on, ps);
		for (unsigned d = 0; d < W.n_dom; d++) {
			struct dmn_domain_info info;
			check(dmn_domain_info(W.ctx, W.dom[d], &info) == 0,
			      "info");
			if (info.on != on[d] || info.pstate != ps[d])
				diverge("after destroy, domain %u: on %d "
					"pstate %u, model on %d pstate %u",
					d, info.on, info.pstate, on[d], ps[d]);
		}
		check(n_got == 0, "destroy sends nothing");
		dmn_ctx_destroy(W.ctx);
	}
	printf("ok: %lu steps in %u worlds (%lu notifications dropped, %lu "
	       "safe-direction failures)\n",
	       done, worlds, dropped, n_safe);
}

int main(void)
{
	return model_main(run, &seed, 20000, 32);
}
