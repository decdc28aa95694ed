/* SPDX-License-Identifier: MIT */
/*
 * The failure-injection harness (see inject.h).
 *
 * Observable state, snapshot after every command: each domain's on/off,
 * pstate, target pstate, idle state (while off) and usage counts; each
 * attachment's vote and whether it counts; each subdomain link's
 * requirement and child-on flag; each device's current OPP and requested
 * rate; and the simulated hardware as the backend calls left it (domain
 * on/pstate, device clock rate, supply voltages), tracked here from the
 * calls that were accepted.
 *
 * Direction of the failing call k, judged here from the call and the
 * hardware state before it (not from the library's own verdict, which is
 * cross-checked): power-on, a pstate raise, any clock change and a supply
 * raise (target up, window floor up, or never set) are unsafe; power-off
 * and lowerings are safe.
 *
 * With B the snapshot before the failing command, F the clean run's after
 * it, and A the injected run's after it:
 *  - unsafe: the command returned -EIO, dmn_last_error() says -EIO, and A
 *    equals B in everything (a supply voltage B never knew excepted: there
 *    is nothing to restore it to);
 *  - safe (domain X failed to power off or to lower its pstate): the
 *    command returned 0, dmn_last_error() says -EIO, and
 *      . every attachment, device, clock and supply equals F;
 *      . every domain that is neither X nor an ancestor of X equals F, and
 *        so does every link whose child is such a domain;
 *      . X: power-off failed -> X is on (it was on in B, off in F), at the
 *        pstate its own inputs ask (agg(X) below); lowering failed -> X
 *        keeps B's pstate and has F's on/off (and idle state);
 *      . each link from X or from an ancestor Y of X says what Y is in A:
 *        (Y on, Y on ? R(link, Y's pstate) : 0), where R is the link's
 *        requirement map as observed in the clean run (a level never seen
 *        there is counted as unverified, not guessed);
 *      . each ancestor P of X, children first: P's pstate = agg(P) =
 *        the max of its counted votes and of the requirements of its on
 *        children's links (the other contributions unchanged from F, X's
 *        branch at what X actually needs); P is on iff it is on in F or
 *        still used in A; off, it sits in F's idle state;
 *    and for a supply that failed to lower: everything equals F except
 *    that supply, which keeps B's voltage.
 *  - always, after every command of every run: each domain's target is
 *    agg; pstate >= agg, and a pstate above agg only on a domain with a
 *    callback whose lowering failed at some point, the level its callback
 *    last accepted; on iff used, except on-and-unused after a failed
 *    power-off or a governor stay-on; records equal the hardware; links
 *    say what their child is.
 */
#include "inject.h"

#include <domino/idle.h>
#include <domino/lifecycle.h>
#include <domino/opp.h>
#include <domino/sim.h>

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* supplies tracked per device: more than any board in tests/ has */
#define MAX_SUP 8
#define MAX_PRINTED 25

/* ---- the board's shape ----------------------------------------------------
 */

struct layout {
	const struct dmn_dt_board *board;
	unsigned n_doms, n_devs, n_atts, n_links;
	unsigned *att_base; /* [n_devs + 1] */
	int *att_dom;	    /* [n_atts] */
	unsigned
	    *link_base;	  /* [n_doms + 1]: the links to each domain's parents */
	int *link_parent; /* [n_links] */
	int *link_child;  /* [n_links] */
	bool *has_cb;	  /* [n_doms] */
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		fprintf(stderr, "inject: out of memory\n");
		abort();
	}
	return p;
}

static int dom_index(const struct layout *L, const struct dmn_dt_instance *inst,
		     uint32_t handle)
{
	for (unsigned i = 0; i < L->n_doms; i++)
		if (inst->domains[i] == handle)
			return (int)i;
	return -1;
}

static void layout_build(struct layout *L, struct dmn_sim *sim)
{
	const struct dmn_dt_board *b = dmn_sim_board(sim);
	const struct dmn_dt_instance *inst = dmn_sim_instance(sim);
	struct dmn_ctx *ctx = dmn_sim_ctx(sim);
	memset(L, 0, sizeof(*L));
	L->board = b;
	L->n_doms = b->n_domains;
	L->n_devs = b->n_devices;
	L->att_base = xcalloc(L->n_devs + 1, sizeof(unsigned));
	for (unsigned d = 0; d < L->n_devs; d++)
		L->att_base[d + 1] =
		    L->att_base[d] + b->devices[d].n_attachments;
	L->n_atts = L->att_base[L->n_devs];
	L->att_dom = xcalloc(L->n_atts, sizeof(int));
	for (unsigned d = 0; d < L->n_devs; d++)
		for (unsigned a = 0; a < b->devices[d].n_attachments; a++)
			L->att_dom[L->att_base[d] + a] =
			    b->devices[d].attachments[a].domain;
	L->link_base = xcalloc(L->n_doms + 1, sizeof(unsigned));
	L->has_cb = xcalloc(L->n_doms, sizeof(bool));
	for (unsigned i = 0; i < L->n_doms; i++) {
		struct dmn_domain_info info;
		if (dmn_domain_info(ctx, inst->domains[i], &info))
			abort();
		L->has_cb[i] = info.has_pstate_cb;
		L->link_base[i + 1] = L->link_base[i] + info.n_parents;
	}
	L->n_links = L->link_base[L->n_doms];
	L->link_parent = xcalloc(L->n_links, sizeof(int));
	L->link_child = xcalloc(L->n_links, sizeof(int));
	for (unsigned i = 0; i < L->n_doms; i++) {
		for (unsigned p = 0; p < L->link_base[i + 1] - L->link_base[i];
		     p++) {
			dmn_domain_t parent;
			if (dmn_domain_parent(ctx, inst->domains[i], p, &parent))
				abort();
			L->link_parent[L->link_base[i] + p] =
			    dom_index(L, inst, parent);
			L->link_child[L->link_base[i] + p] = (int)i;
		}
	}
}

static void layout_free(struct layout *L)
{
	free(L->att_base);
	free(L->att_dom);
	free(L->link_base);
	free(L->link_parent);
	free(L->link_child);
	free(L->has_cb);
}

/* ---- snapshots --------------------------------------------------------------
 */

struct dom_snap {
	int on;
	uint32_t pstate, target;
	int idle;
	unsigned active, on_children;
	int held;            /* a boot hold is one more input */
	uint32_t boot_level;
	int always_on;       /* DMN_FLAG_ALWAYS_ON (`always-on DOMAIN`) */
	int kept;            /* on, awake, in HW mode or with an always-on
				device: its runtime power-off is vetoed */
	int boot_unheld;     /* booted no-stay-on, on and never off since:
				unused until something re-evaluates it */
};
struct att_snap {
	uint32_t vote;
	int counts;
};
struct link_snap {
	uint32_t req;
	int child_on;
};
struct dev_snap {
	uint32_t opp;
	uint64_t requested_hz;
};
struct hw_dom {
	int on;
	uint32_t pstate;
};
struct hw_dev {
	uint64_t rate;
	uint32_t uv[MAX_SUP], uv_min[MAX_SUP];
	bool known[MAX_SUP];
};

struct snap {
	struct dom_snap *doms;
	struct att_snap *atts;
	struct link_snap *links;
	struct dev_snap *devs;
	struct hw_dom *hwd;
	struct hw_dev *hwv;
};

static void snap_alloc(const struct layout *L, struct snap *s)
{
	s->doms = xcalloc(L->n_doms, sizeof(*s->doms));
	s->atts = xcalloc(L->n_atts, sizeof(*s->atts));
	s->links = xcalloc(L->n_links, sizeof(*s->links));
	s->devs = xcalloc(L->n_devs, sizeof(*s->devs));
	s->hwd = xcalloc(L->n_doms, sizeof(*s->hwd));
	s->hwv = xcalloc(L->n_devs, sizeof(*s->hwv));
}

static void snap_free(struct snap *s)
{
	free(s->doms);
	free(s->atts);
	free(s->links);
	free(s->devs);
	free(s->hwd);
	free(s->hwv);
}

/* ---- one simulation run, with the hardware tracked from its calls -------- */

struct run {
	const struct layout *L;
	struct dmn_sim *sim;
	struct hw_dom *hwd;
	struct hw_dev *hwv;
	unsigned long fail_call;
	/* the injected call */
	bool fired, fired_unsafe;
	struct dmn_sim_call fired_call;
	/* per command */
	unsigned cmd_failures; /* calls that failed */
	unsigned lib_failures; /* DMN_EV_FAILURE events */
	int lib_first_safe;
	/* history, per domain */
	bool *ever_low_failed, *ever_off_failed, *ever_stay_on;
	bool *baseline_failed; /* [calls + 1] in the clean run: which failed */
	unsigned long n_baseline_failed;
	char violation[256];
};

static void violate(struct run *r, const char *fmt, ...)
{
	if (r->violation[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->violation, sizeof(r->violation), fmt, ap);
	va_end(ap);
}

static bool supply_raises(const struct hw_dev *h, const struct dmn_sim_call *c)
{
	return !h->known[c->supply] || c->value > h->uv[c->supply] ||
	       (c->value == h->uv[c->supply] && c->min > h->uv_min[c->supply]);
}

static void on_call(void *user, const struct dmn_sim_call *c)
{
	struct run *r = user;
	const struct layout *L = r->L;
	const char *dn =
	    c->domain >= 0 ? L->board->domains[c->domain].name : "";
	bool unsafe = false;
	switch (c->op) {
	case DMN_SIM_CALL_POWER_ON:
		unsafe = true;
		if (r->hwd[c->domain].on)
			violate(r, "power_on of %s while on", dn);
		for (unsigned l = L->link_base[c->domain];
		     l < L->link_base[c->domain + 1]; l++)
			if (!r->hwd[L->link_parent[l]].on)
				violate(
				    r, "power_on of %s before its parent %s",
				    dn,
				    L->board->domains[L->link_parent[l]].name);
		break;
	case DMN_SIM_CALL_POWER_OFF:
		if (!r->hwd[c->domain].on)
			violate(r, "power_off of %s while off", dn);
		for (unsigned l = 0; l < L->n_links; l++)
			if (L->link_parent[l] == c->domain &&
			    r->hwd[L->link_child[l]].on)
				violate(
				    r, "power_off of %s before its child %s",
				    dn,
				    L->board->domains[L->link_child[l]].name);
		break;
	case DMN_SIM_CALL_PSTATE:
		unsafe = c->value > r->hwd[c->domain].pstate;
		if (c->value == r->hwd[c->domain].pstate)
			violate(r, "set_performance_state of %s to its level",
				dn);
		break;
	case DMN_SIM_CALL_CLOCK:
		unsafe = true;
		break;
	case DMN_SIM_CALL_REGULATOR:
		unsafe = supply_raises(&r->hwv[c->device], c);
		break;
	case DMN_SIM_CALL_HWMODE:
		/* A failed mode change fails the command, changing nothing. */
		unsafe = true;
		break;
	}
	if (c->result) {
		r->cmd_failures++;
		if (c->index == r->fail_call) {
			r->fired = true;
			r->fired_call = *c;
			r->fired_unsafe = unsafe;
		}
		if (r->baseline_failed && !r->fail_call)
			r->baseline_failed[c->index] = true;
		if (c->op == DMN_SIM_CALL_POWER_OFF)
			r->ever_off_failed[c->domain] = true;
		if (c->op == DMN_SIM_CALL_PSTATE && !unsafe)
			r->ever_low_failed[c->domain] = true;
		return;
	}
	switch (c->op) {
	case DMN_SIM_CALL_POWER_ON:
		r->hwd[c->domain].on = 1;
		break;
	case DMN_SIM_CALL_POWER_OFF:
		r->hwd[c->domain].on = 0;
		break;
	case DMN_SIM_CALL_PSTATE:
		r->hwd[c->domain].pstate = (uint32_t)c->value;
		break;
	case DMN_SIM_CALL_CLOCK:
		r->hwv[c->device].rate = c->value;
		break;
	case DMN_SIM_CALL_REGULATOR:
		r->hwv[c->device].uv[c->supply] = (uint32_t)c->value;
		r->hwv[c->device].uv_min[c->supply] = c->min;
		r->hwv[c->device].known[c->supply] = true;
		break;
	case DMN_SIM_CALL_HWMODE:
		break;
	}
}

static void listener(void *user, struct dmn_ctx *ctx, const struct dmn_event *e)
{
	(void)ctx;
	struct run *r = user;
	if (e->kind == DMN_EV_FAILURE) {
		if (!r->lib_failures++)
			r->lib_first_safe = e->safe;
	} else if (e->kind == DMN_EV_STAY_ON) {
		int d = dom_index(r->L, dmn_sim_instance(r->sim), e->domain);
		if (d >= 0)
			r->ever_stay_on[d] = true;
	}
}

static int run_open(struct run *r, const struct layout *L,
		    const struct inject_scenario *sc, unsigned long fail_call,
		    bool *baseline_failed)
{
	memset(r, 0, sizeof(*r));
	r->L = L;
	r->fail_call = fail_call;
	r->baseline_failed = baseline_failed;
	unsigned n_doms = L ? L->n_doms : 0, n_devs = L ? L->n_devs : 0;
	struct dmn_sim_options o;
	memset(&o, 0, sizeof(o));
	o.board_name = sc->name;
	o.supported_hw = sc->supported_hw;
	o.n_supported_hw = sc->n_supported_hw;
	o.flags = DMN_SIM_REGULATORS;
	o.fail_call = fail_call;
	o.on_call = L ? on_call : NULL;
	o.call_user = r;
	int err = dmn_sim_create(sc->blob, sc->size, &o, &r->sim);
	if (err)
		return err;
	if (!L)
		return 0;
	r->hwd = xcalloc(n_doms, sizeof(*r->hwd));
	r->hwv = xcalloc(n_devs, sizeof(*r->hwv));
	r->ever_low_failed = xcalloc(n_doms, sizeof(bool));
	r->ever_off_failed = xcalloc(n_doms, sizeof(bool));
	r->ever_stay_on = xcalloc(n_doms, sizeof(bool));
	return dmn_listen(dmn_sim_ctx(r->sim), listener, r);
}

static void run_close(struct run *r)
{
	dmn_sim_free(r->sim);
	free(r->hwd);
	free(r->hwv);
	free(r->ever_low_failed);
	free(r->ever_off_failed);
	free(r->ever_stay_on);
}

static void snap_take(struct run *r, struct snap *s)
{
	const struct layout *L = r->L;
	struct dmn_ctx *ctx = dmn_sim_ctx(r->sim);
	const struct dmn_dt_instance *inst = dmn_sim_instance(r->sim);
	for (unsigned i = 0; i < L->n_doms; i++) {
		struct dmn_domain_info info;
		if (dmn_domain_info(ctx, inst->domains[i], &info))
			abort();
		struct dom_snap *d = &s->doms[i];
		d->on = info.on;
		d->pstate = info.pstate;
		d->target = info.target_pstate;
		d->idle = info.on ? -2 : info.idle_state;
		d->active = info.active_devices;
		d->on_children = info.on_children;
		struct dmn_hold_info h;
		if (dmn_domain_hold(ctx, inst->domains[i], &h))
			abort();
		d->held = h.held;
		d->boot_level = h.level;
		d->always_on = (info.flags & DMN_FLAG_ALWAYS_ON) != 0;
		int vetoed = dmn_domain_hwmode(ctx, inst->domains[i]) == 1;
		dmn_attach_t att = 0;
		while (!vetoed && !dmn_domain_next_attachment(
					ctx, inst->domains[i], att, &att)) {
			struct dmn_attach_info ai;
			if (dmn_attach_info(ctx, att, &ai))
				abort();
			vetoed = dmn_device_always_on(ctx, ai.device) == 1;
		}
		d->kept = info.on && vetoed && dmn_system_asleep(ctx) == 0;
		int flags = dmn_domain_boot_flags(ctx, inst->domains[i]);
		struct dmn_domain_stats st;
		if (dmn_domain_stats(ctx, inst->domains[i], &st))
			abort();
		d->boot_unheld = info.on && flags > 0 &&
				 (flags & DMN_BOOT_NO_STAY_ON) && !st.off_count;
		for (unsigned l = L->link_base[i]; l < L->link_base[i + 1]; l++)
			if (dmn_link_info(ctx, inst->domains[L->link_parent[l]],
					 inst->domains[i], &s->links[l].req,
					 &s->links[l].child_on))
				abort();
	}
	for (unsigned v = 0; v < L->n_devs; v++) {
		for (unsigned a = L->att_base[v]; a < L->att_base[v + 1]; a++) {
			struct dmn_attach_info ai;
			if (dmn_attach_info(
				ctx, inst->attachments[v][a - L->att_base[v]],
				&ai))
				abort();
			s->atts[a].vote = ai.vote;
			s->atts[a].counts = ai.counts;
		}
		uint32_t id = DMN_OPP_ID_NONE;
		uint64_t hz = 0;
		if (dmn_opp_device_current(ctx, inst->devices[v], &id, &hz)) {
			id = DMN_OPP_ID_NONE;
			hz = 0;
		}
		s->devs[v].opp = id;
		s->devs[v].requested_hz = hz;
	}
	memcpy(s->hwd, r->hwd, L->n_doms * sizeof(*s->hwd));
	memcpy(s->hwv, r->hwv, L->n_devs * sizeof(*s->hwv));
}

/* ---- the requirement maps seen in the clean run -------------------------- */

struct req_seen {
	unsigned link;
	uint32_t level, req;
};

struct req_map {
	struct req_seen *v;
	size_t n, cap;
	unsigned conflicts; /* the same level seen with two requirements */
	unsigned off_model; /* seen differing from model_req */
	const struct dmn_dt_instance *inst;
};

static int model_req(const struct layout *L, const struct dmn_dt_instance *inst,
		     unsigned l, uint32_t level, uint32_t *out);

static int req_lookup(const struct req_map *m, unsigned link, uint32_t level,
		      uint32_t *req)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].link == link && m->v[i].level == level) {
			*req = m->v[i].req;
			return 0;
		}
	return -ENOENT;
}

static void req_learn(struct req_map *m, const struct layout *L,
		      const struct snap *s)
{
	for (unsigned l = 0; l < L->n_links; l++) {
		const struct dom_snap *c = &s->doms[L->link_child[l]];
		if (!c->on)
			continue;
		uint32_t req;
		if (!model_req(L, m->inst, l, c->pstate, &req) &&
		    req != s->links[l].req)
			m->off_model++;
		if (!req_lookup(m, l, c->pstate, &req)) {
			if (req != s->links[l].req)
				m->conflicts++;
			continue;
		}
		if (m->n == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 64;
			m->v = realloc(m->v, m->cap * sizeof(*m->v));
			if (!m->v)
				abort();
		}
		m->v[m->n++] = (struct req_seen){l, c->pstate, s->links[l].req};
	}
}

/*
 * The requirement of link @l at child level @level where the board model
 * fixes it without the required-opps matching: at level 0 it is the
 * child's provider's floor on that parent (if any), and a child without a
 * table of its own passes max(level, floor) 1:1; both rounded up to the
 * parent's table (its entries that were added). Children with a table at
 * a level > 0: -ENOENT (the clean run's observations are used instead).
 */
static int model_req(const struct layout *L, const struct dmn_dt_instance *inst,
		     unsigned l, uint32_t level, uint32_t *out)
{
	const struct dmn_dt_board *b = L->board;
	int c = L->link_child[l], p = L->link_parent[l];
	if (level && b->domains[c].opp_table >= 0)
		return -ENOENT;
	uint32_t floor = 0;
	const struct dmn_dt_provider *pr = &b->providers[b->domains[c].provider];
	for (unsigned f = 0; f < pr->n_floors; f++)
		if (pr->floors[f].parent == p)
			floor = pr->floors[f].level;
	uint32_t req = level > floor ? level : floor;
	int t = b->domains[p].opp_table;
	if (req && t >= 0) {
		const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
		uint32_t best = UINT32_MAX;
		for (unsigned e = 0; e < tab->n_entries; e++)
			if (inst->opp_ids[t][e] != DMN_OPP_ID_NONE &&
			    tab->entries[e].has_level &&
			    tab->entries[e].level >= req &&
			    tab->entries[e].level < best)
				best = tab->entries[e].level;
		if (best == UINT32_MAX)
			return -ERANGE;
		req = best;
	}
	*out = req;
	return 0;
}

/* ---- checks
 * ------------------------------------------------------------------- */

struct judge {
	const struct inject_scenario *sc;
	const struct layout *L;
	const struct req_map *map;
	struct inject_totals *tot;
	unsigned long k;
	const struct dmn_scn_cmd *cmd;
	const char *phase;
};

static void mismatch(struct judge *j, const char *fmt, ...)
{
	if (j->tot->mismatches++ < MAX_PRINTED) {
		char msg[400];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		fprintf(stderr,
			"MISMATCH %s, call %lu failing, %s line %u (%s): %s\n",
			j->sc->name, j->k, j->phase, j->cmd ? j->cmd->line : 0,
			j->cmd ? dmn_scn_verb_name(j->cmd->verb) : "-", msg);
	}
}

/* Max of counted votes and on children's requirements; usage counts. */
static uint32_t agg(const struct layout *L, const struct snap *s, int d,
		    unsigned *active, unsigned *on_children)
{
	uint32_t max = 0;
	*active = *on_children = 0;
	for (unsigned a = 0; a < L->n_atts; a++) {
		if (L->att_dom[a] != d || !s->atts[a].counts)
			continue;
		(*active)++;
		if (s->atts[a].vote > max)
			max = s->atts[a].vote;
	}
	for (unsigned l = 0; l < L->n_links; l++) {
		if (L->link_parent[l] != d || !s->links[l].child_on)
			continue;
		(*on_children)++;
		if (s->links[l].req > max)
			max = s->links[l].req;
	}
	return max;
}

static const char *dname(const struct judge *j, int d)
{
	return j->L->board->domains[d].name;
}

/* A link says what its child is (as far as the clean run tells R). */
static void check_link(struct judge *j, const struct snap *s, unsigned l)
{
	const struct dom_snap *c = &s->doms[j->L->link_child[l]];
	const struct link_snap *k = &s->links[l];
	if (k->child_on != c->on) {
		mismatch(j, "link %s -> %s: child_on %d, child on %d",
			 dname(j, j->L->link_child[l]),
			 dname(j, j->L->link_parent[l]), k->child_on, c->on);
		return;
	}
	if (!c->on) {
		if (k->req)
			mismatch(j, "link %s -> %s requires %u of an off child",
				 dname(j, j->L->link_child[l]),
				 dname(j, j->L->link_parent[l]), k->req);
		return;
	}
	uint32_t want;
	if (model_req(j->L, j->map->inst, l, c->pstate, &want) &&
	    req_lookup(j->map, l, c->pstate, &want)) {
		j->tot->unverified++;
		if (getenv("INJECT_DEBUG"))
			fprintf(stderr,
				"unverified %s: %s -> %s at %u req %u (%s)\n",
				j->sc->name, dname(j, j->L->link_child[l]),
				dname(j, j->L->link_parent[l]), c->pstate,
				k->req, j->phase);
		return;
	}
	if (want != k->req)
		mismatch(
		    j, "link %s -> %s requires %u at level %u, expected %u",
		    dname(j, j->L->link_child[l]),
		    dname(j, j->L->link_parent[l]), k->req, c->pstate, want);
}

static void check_invariants(struct judge *j, const struct run *r,
			     const struct snap *s)
{
	const struct layout *L = j->L;
	for (unsigned d = 0; d < L->n_doms; d++) {
		const struct dom_snap *x = &s->doms[d];
		unsigned active, on_children;
		uint32_t want = agg(L, s, (int)d, &active, &on_children);
		bool used = active || on_children || x->held ||
			    x->always_on || x->kept || x->boot_unheld;
		if (x->held && x->boot_level > want)
			want = x->boot_level;
		if (x->active != active || x->on_children != on_children)
			mismatch(j,
				 "%s counts %u active / %u on children, "
				 "attachments and links say %u / %u",
				 dname(j, (int)d), x->active, x->on_children,
				 active, on_children);
		if (x->target != want)
			mismatch(j, "%s target %u, votes and children say %u",
				 dname(j, (int)d), x->target, want);
		if (x->pstate < want)
			mismatch(j, "%s at %u below what it must give, %u",
				 dname(j, (int)d), x->pstate, want);
		if (x->pstate > want &&
		    !(L->has_cb[d] && r->ever_low_failed[d]))
			mismatch(j,
				 "%s at %u above %u without a failed lowering",
				 dname(j, (int)d), x->pstate, want);
		if (x->on && !used && !r->ever_off_failed[d] &&
		    !r->ever_stay_on[d])
			mismatch(j,
				 "%s on but unused, without a failed "
				 "power-off or a governor stay-on",
				 dname(j, (int)d));
		if (!x->on && used)
			mismatch(j, "%s off but used", dname(j, (int)d));
		if (s->hwd[d].on != x->on)
			mismatch(j, "%s: records say %s, hardware %s",
				 dname(j, (int)d), x->on ? "on" : "off",
				 s->hwd[d].on ? "on" : "off");
		if (L->has_cb[d] && s->hwd[d].pstate != x->pstate)
			mismatch(j, "%s: records say pstate %u, hardware %u",
				 dname(j, (int)d), x->pstate, s->hwd[d].pstate);
	}
	for (unsigned l = 0; l < L->n_links; l++)
		check_link(j, s, l);
	if (r->violation[0])
		mismatch(j, "callback order: %s", r->violation);
}

static bool dom_equal(const struct dom_snap *a, const struct dom_snap *b)
{
	return a->on == b->on && a->pstate == b->pstate &&
	       a->target == b->target && a->idle == b->idle &&
	       a->active == b->active && a->on_children == b->on_children;
}

static void describe_dom(char *buf, size_t size, const struct dom_snap *d)
{
	snprintf(buf, size,
		 "%s pstate %u target %u idle %d active %u children %u",
		 d->on ? "on" : "off", d->pstate, d->target, d->idle, d->active,
		 d->on_children);
}

static void dom_differs(struct judge *j, int d, const char *what,
			const struct dom_snap *got, const struct dom_snap *want)
{
	char g[128], w[128];
	describe_dom(g, sizeof(g), got);
	describe_dom(w, sizeof(w), want);
	mismatch(j, "%s %s: got %s, expected %s", what, dname(j, d), g, w);
}

/* Attachments, devices, clocks and supplies; @skip_supply_dev/@sup: a
 * supply compared with @alt instead (a failed lowering keeps B's). */
static void devices_equal(struct judge *j, const struct snap *got,
			  const struct snap *want, bool only_known,
			  int skip_dev, unsigned skip_sup,
			  const struct snap *alt)
{
	const struct layout *L = j->L;
	for (unsigned a = 0; a < L->n_atts; a++)
		if (got->atts[a].vote != want->atts[a].vote ||
		    got->atts[a].counts != want->atts[a].counts)
			mismatch(
			    j,
			    "attachment %u (domain %s): vote %u counts %d, "
			    "expected %u / %d",
			    a, dname(j, L->att_dom[a]), got->atts[a].vote,
			    got->atts[a].counts, want->atts[a].vote,
			    want->atts[a].counts);
	for (unsigned v = 0; v < L->n_devs; v++) {
		const char *name = L->board->devices[v].name;
		if (got->devs[v].opp != want->devs[v].opp ||
		    got->devs[v].requested_hz != want->devs[v].requested_hz)
			mismatch(
			    j,
			    "device %s at OPP %u (asked %llu Hz), expected "
			    "%u (%llu Hz)",
			    name, got->devs[v].opp,
			    (unsigned long long)got->devs[v].requested_hz,
			    want->devs[v].opp,
			    (unsigned long long)want->devs[v].requested_hz);
		if (got->hwv[v].rate != want->hwv[v].rate)
			mismatch(j, "device %s clock at %llu Hz, expected %llu",
				 name, (unsigned long long)got->hwv[v].rate,
				 (unsigned long long)want->hwv[v].rate);
		for (unsigned k = 0; k < MAX_SUP; k++) {
			const struct hw_dev *w = &want->hwv[v];
			if ((int)v == skip_dev && k == skip_sup)
				w = &alt->hwv[v];
			if (only_known && !w->known[k])
				continue;
			if (got->hwv[v].known[k] != w->known[k] ||
			    got->hwv[v].uv[k] != w->uv[k] ||
			    got->hwv[v].uv_min[k] != w->uv_min[k])
				mismatch(j,
					 "device %s supply %u at %u uV, "
					 "expected %u uV",
					 name, k, got->hwv[v].uv[k], w->uv[k]);
		}
	}
}

static void check_unsafe(struct judge *j, const struct snap *B,
			 const struct snap *A)
{
	const struct layout *L = j->L;
	for (unsigned d = 0; d < L->n_doms; d++) {
		if (!dom_equal(&A->doms[d], &B->doms[d]))
			dom_differs(j, (int)d, "after an unsafe failure",
				    &A->doms[d], &B->doms[d]);
		if (A->hwd[d].on != B->hwd[d].on ||
		    A->hwd[d].pstate != B->hwd[d].pstate)
			mismatch(j, "hardware of %s not restored",
				 dname(j, (int)d));
	}
	for (unsigned l = 0; l < L->n_links; l++)
		if (A->links[l].req != B->links[l].req ||
		    A->links[l].child_on != B->links[l].child_on)
			mismatch(j, "link %s -> %s not restored",
				 dname(j, L->link_child[l]),
				 dname(j, L->link_parent[l]));
	devices_equal(j, A, B, true, -1, 0, NULL);
}

/* X and its ancestors, children first (reverse of parents-first DFS). */
static void ancestors(const struct layout *L, int d, bool *mark, int *order,
		      unsigned *n)
{
	if (mark[d])
		return;
	mark[d] = true;
	for (unsigned l = L->link_base[d]; l < L->link_base[d + 1]; l++)
		ancestors(L, L->link_parent[l], mark, order, n);
	order[(*n)++] = d;
}

static void check_safe(struct judge *j, const struct dmn_sim_call *c,
		       const struct snap *B, const struct snap *F,
		       const struct snap *A)
{
	const struct layout *L = j->L;
	if (c->op == DMN_SIM_CALL_REGULATOR) {
		for (unsigned d = 0; d < L->n_doms; d++)
			if (!dom_equal(&A->doms[d], &F->doms[d]))
				dom_differs(j, (int)d, "after a supply failure",
					    &A->doms[d], &F->doms[d]);
		for (unsigned l = 0; l < L->n_links; l++)
			check_link(j, A, l);
		devices_equal(j, A, F, false, c->device, c->supply, B);
		return;
	}
	int X = c->domain;
	bool *affected = xcalloc(L->n_doms, sizeof(bool));
	int *order = xcalloc(L->n_doms, sizeof(int));
	unsigned n = 0;
	ancestors(L, X, affected, order, &n);
	/* order[] is parents first; walk it backwards: children first. */
	for (unsigned d = 0; d < L->n_doms; d++)
		if (!affected[d] && !dom_equal(&A->doms[d], &F->doms[d]))
			dom_differs(j, (int)d, "unrelated domain", &A->doms[d],
				    &F->doms[d]);
	for (unsigned l = 0; l < L->n_links; l++) {
		if (affected[L->link_child[l]])
			check_link(j, A, l);
		else if (A->links[l].req != F->links[l].req ||
			 A->links[l].child_on != F->links[l].child_on)
			mismatch(j, "link %s -> %s differs from the clean run",
				 dname(j, L->link_child[l]),
				 dname(j, L->link_parent[l]));
	}
	devices_equal(j, A, F, false, -1, 0, NULL);
	for (unsigned i = n; i > 0; i--) {
		int d = order[i - 1];
		const struct dom_snap *a = &A->doms[d], *f = &F->doms[d];
		unsigned active, on_children;
		uint32_t want = agg(L, A, d, &active, &on_children);
		struct dom_snap e = *f;
		e.active = active;
		e.on_children = on_children;
		e.target = want;
		if (d == X && c->op == DMN_SIM_CALL_POWER_OFF) {
			if (!B->doms[d].on || f->on)
				mismatch(j,
					 "%s: the failed power-off was not a "
					 "power-off of the clean run",
					 dname(j, d));
			e.on = 1;
			e.idle = -2;
			e.pstate = want;
		} else if (d == X) {
			if (B->doms[d].pstate <= f->pstate)
				mismatch(j,
					 "%s: the failed lowering was not a "
					 "lowering of the clean run",
					 dname(j, d));
			e.pstate = B->doms[d].pstate;
		} else {
			e.pstate = want;
			e.on = f->on || active || on_children;
			e.idle = e.on ? -2 : f->idle;
		}
		if (!dom_equal(a, &e))
			dom_differs(j, d,
				    d == X ? "failing domain" : "ancestor", a,
				    &e);
	}
	free(affected);
	free(order);
}

/* ---- the driver -------------------------------------------------------------
 */

static int step(struct judge *j, struct run *r, size_t i, int *op_error)
{
	struct dmn_sim_result res;
	memset(&res, 0, sizeof(res));
	struct dmn_scn_diag diag;
	r->cmd_failures = 0;
	r->lib_failures = 0;
	j->tot->commands++;
	int err = dmn_sim_step(r->sim, j->sc->script, i, &res, op_error, &diag);
	if (err) {
		mismatch(j, "dmn_sim_step failed: %s (%s)", dmn_errno_name(err),
			 diag.message);
		return err;
	}
	/* boot-on and always-on DOMAIN call nothing: the hardware is where
	 * boot left it, which is what the records now say. */
	const struct dmn_scn_cmd *cmd = &j->sc->script->cmds[i];
	if (cmd->verb == DMN_SCN_BOOT_ON ||
	    (cmd->verb == DMN_SCN_ALWAYS_ON && cmd->toggle.domain)) {
		struct dmn_ctx *ctx = dmn_sim_ctx(r->sim);
		const struct dmn_dt_instance *inst = dmn_sim_instance(r->sim);
		for (unsigned d = 0; d < r->L->n_doms; d++) {
			struct dmn_domain_info info;
			if (dmn_domain_info(ctx, inst->domains[d], &info))
				abort();
			r->hwd[d].on = info.on;
			r->hwd[d].pstate = info.pstate;
		}
	}
	return 0;
}

/* Whether the clean run had a failing call in (@from, @to]. */
static bool failed_in(const bool *failed, unsigned long from, unsigned long to)
{
	for (unsigned long i = from + 1; i <= to; i++)
		if (failed[i])
			return true;
	return false;
}

void inject_scenario(const struct inject_scenario *sc,
		     struct inject_totals *tot)
{
	const struct dmn_scn_script *s = sc->script;
	size_t n_cmds = s->count;
	struct inject_totals before = *tot;
	struct judge j = {sc, NULL, NULL, tot, 0, NULL, "clean run"};

	/* The board's shape, from a first simulation. */
	struct run r;
	struct layout L;
	if (run_open(&r, NULL, sc, 0, NULL)) {
		mismatch(&j, "dmn_sim_create failed");
		return;
	}
	layout_build(&L, r.sim);
	struct dmn_sim *shape = r.sim;
	j.L = &L;

	/* Clean run: a snapshot and the call count after every command. */
	struct snap *F = xcalloc(n_cmds + 1, sizeof(*F));
	unsigned long *calls_after = xcalloc(n_cmds + 1, sizeof(*calls_after));
	struct req_map map = {0};
	map.inst = dmn_sim_instance(shape);
	j.map = &map;
	bool *baseline_failed = NULL;
	/* Twice: once to count the calls, once with the failure table. */
	for (int pass = 0; pass < 2; pass++) {
		struct run clean;
		if (run_open(&clean, &L, sc, 0, baseline_failed))
			abort();
		if (!pass)
			snap_alloc(&L, &F[0]);
		snap_take(&clean, &F[0]);
		calls_after[0] = dmn_sim_calls(clean.sim);
		for (size_t i = 0; i < n_cmds; i++) {
			int op_error;
			j.cmd = &s->cmds[i];
			if (step(&j, &clean, i, &op_error))
				break;
			if (!pass)
				snap_alloc(&L, &F[i + 1]);
			snap_take(&clean, &F[i + 1]);
			calls_after[i + 1] = dmn_sim_calls(clean.sim);
			if (pass) {
				req_learn(&map, &L, &F[i + 1]);
				check_invariants(&j, &clean, &F[i + 1]);
			}
		}
		if (!pass)
			baseline_failed =
			    xcalloc(calls_after[n_cmds] + 2, sizeof(bool));
		else
			req_learn(&map, &L, &F[0]);
		run_close(&clean);
	}
	j.cmd = NULL;
	if (map.conflicts)
		mismatch(&j,
			 "a link's requirement is not a function of the "
			 "child's level (%u conflicts)",
			 map.conflicts);
	if (map.off_model)
		mismatch(&j,
			 "a link's requirement differs from the board "
			 "model's floor and rounding (%u times)",
			 map.off_model);
	unsigned long N = calls_after[n_cmds];
	tot->calls += N;

	struct snap B, A, S;
	snap_alloc(&L, &B);
	snap_alloc(&L, &A);
	snap_alloc(&L, &S);
	size_t cmd = 0;
	for (unsigned long k = 1; k <= N; k++) {
		j.k = k;
		if (baseline_failed[k]) {
			tot->already++;
			continue;
		}
		while (calls_after[cmd + 1] < k)
			cmd++;
		if (k <= calls_after[0]) {
			tot->already++; /* a call of dmn_sim_create itself */
			continue;
		}
		struct run inj;
		if (run_open(&inj, &L, sc, k, NULL))
			abort();
		tot->injected++;
		int op_error = 0;
		j.phase = "before the failure";
		for (size_t i = 0; i < cmd; i++) {
			j.cmd = &s->cmds[i];
			step(&j, &inj, i, &op_error);
		}
		snap_take(&inj, &B);
		j.cmd = &s->cmds[cmd];
		for (unsigned d = 0; d < L.n_doms; d++)
			if (!dom_equal(&B.doms[d], &F[cmd].doms[d]))
				dom_differs(&j, (int)d,
					    "run diverged before the "
					    "failure:",
					    &B.doms[d], &F[cmd].doms[d]);
		j.phase = "failing command";
		step(&j, &inj, cmd, &op_error);
		snap_take(&inj, &A);
		int last = dmn_last_error(dmn_sim_ctx(inj.sim));
		if (!inj.fired) {
			mismatch(&j, "call %lu did not happen", k);
		} else if (inj.cmd_failures > 1 ||
			   failed_in(baseline_failed, calls_after[cmd],
				     calls_after[cmd + 1])) {
			tot->compound++;
		} else {
			const struct dmn_sim_call *c = &inj.fired_call;
			if (inj.lib_failures != 1 ||
			    inj.lib_first_safe != !inj.fired_unsafe)
				mismatch(&j,
					 "the library reported %u failures, "
					 "the first %s; the call was %s",
					 inj.lib_failures,
					 inj.lib_first_safe ? "safe" : "unsafe",
					 inj.fired_unsafe ? "unsafe" : "safe");
			if (last != -EIO)
				mismatch(&j, "dmn_last_error %s, expected EIO",
					 dmn_errno_name(last));
			tot->by_op[c->op][!inj.fired_unsafe]++;
			if (inj.fired_unsafe) {
				tot->unsafe++;
				if (op_error != -EIO)
					mismatch(&j,
						 "unsafe failure: the command "
						 "returned %s, expected EIO",
						 dmn_errno_name(op_error));
				check_unsafe(&j, &B, &A);
			} else {
				tot->safe++;
				if (op_error)
					mismatch(&j,
						 "safe failure: the command "
						 "returned %s, expected OK",
						 dmn_errno_name(op_error));
				check_safe(&j, c, &B, &F[cmd + 1], &A);
			}
		}
		check_invariants(&j, &inj, &A);
		j.phase = "after the failure";
		for (size_t i = cmd + 1; i < n_cmds; i++) {
			j.cmd = &s->cmds[i];
			if (step(&j, &inj, i, &op_error))
				break;
			snap_take(&inj, &S);
			check_invariants(&j, &inj, &S);
		}
		j.cmd = NULL;
		run_close(&inj);
	}
	printf("%s: %zu commands, %lu calls: injected %lu (%lu unsafe, %lu "
	       "safe, %lu compound), %lu already failing, %lu mismatches\n",
	       sc->name, n_cmds, N, tot->injected - before.injected,
	       tot->unsafe - before.unsafe, tot->safe - before.safe,
	       tot->compound - before.compound, tot->already - before.already,
	       tot->mismatches - before.mismatches);
	tot->scenarios++;
	snap_free(&B);
	snap_free(&A);
	snap_free(&S);
	for (size_t i = 0; i <= n_cmds; i++)
		snap_free(&F[i]);
	free(F);
	free(calls_after);
	free(baseline_failed);
	free(map.v);
	layout_free(&L);
	dmn_sim_free(shape);
}
