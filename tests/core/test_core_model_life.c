/* SPDX-License-Identifier: MIT */
/*
 * Model-based randomized test of what docs/semantics.md says about idle
 * states and QoS, and of docs/lifecycle.md (boot holds and probe, system sleep
 * with wakeup
 * paths, HW mode, always-on devices and domains).
 *
 * Random worlds: roots with or without a pstate callback (those with one
 * round votes up to a few levels, -ERANGE above), subdomains with one or
 * two parents (callback-less: they aggregate and pass their level up, and
 * have set_hwmode), idle states (entry / exit / residency) on any domain,
 * devices on one or two domains. Random operations run on the library and
 * on a reference model written from those two texts alone: get/put (no
 * nesting, as
 * in scenarios), vote, QoS, next wakeup, the passing of time, probe, probe
 * all, system suspend / resume, wakeup-enable, active-wakeup, HW mode, the
 * always-on device flag, dmn_domain_release, link removal and re-adding
 * (only with DOMINO_LINK_OPS=1, see below), detaching and attaching
 * devices (only with DOMINO_WIDE=1), a floor on a link
 * (dmn_link_set_floor: what a child requires of its parent while on), and
 * at time 0 boot-on and
 * always-on domains. One
 * callback failure (power_on, power_off, set_performance_state or
 * set_hwmode of one domain) may be armed for the next operation only
 * (DOMINO_LINGER=1: until a call meets it, so a call the model does not
 * make shows in a later operation); after every operation both sides
 * must have met it or neither.
 *
 * The model keeps only what those rules make history: which domains are on (the
 * governor's stay-on and a failed power-off are decisions that last), the
 * idle state each off domain sits in, the level each pstate callback last
 * accepted; everything else (aggregates, holders, vetoes, governor inputs)
 * is recomputed from scratch after every operation. Compared after every
 * operation: the return code, dmn_last_error(), and for every domain on /
 * off, pstate, idle state, HW mode, boot hold, and what the fake hardware
 * was last told.
 *
 * Rules the model takes from what we ship where the specification is open
 * (see docs/decisions/retry-rule.md): a failed lowering is
 * retried when an input of that domain (a counted vote, a child's
 * requirement or power state, the boot level) or its power state changes;
 * at system resume a domain the wakeup path kept on follows its votes.
 *
 * Fixed seeds 1..8 (ctest; more with the switches, tests/core/
 * CMakeLists.txt); DOMINO_SEED=N replays one, DOMINO_RANDOM=1 adds
 * one from the clock (printed), DOMINO_OPS=N sets operations per seed.
 */
#include <domino/context.h>
#include <domino/domain.h>
#include <domino/idle.h>
#include <domino/lifecycle.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model_main.h"

#define MAXD 7
#define MAXV 6
#define MAXST 3
#define MAXLV 4
#define NONE_U64 UINT64_MAX

enum op { OP_ON, OP_OFF, OP_PSTATE, OP_HWMODE, OP_N };
static const char *const op_name[OP_N] = {"on", "off", "pstate", "hwmode"};

struct m_state {
	uint32_t e, x, r; /* entry, exit latency, min residency (us) */
};

struct m_dom {
	dmn_domain_t h;
	int np, nc;
	int par[2], kid[MAXD];
	uint32_t floor[2]; /* dmn_link_set_floor on the link to par[i] */
	int nlv;
	uint32_t lv[MAXLV]; /* a table: the domain has a pstate callback */
	int nst;
	struct m_state st[MAXST];
	bool always_on, active_wakeup, sleep_keep, held;
	uint32_t boot_level;
	/* history */
	bool on;
	int idle; /* while off: state index, -1 for plain off */
	uint32_t cur;
};

struct m_dev {
	dmn_device_t h;
	int na;
	int dom[2];
	dmn_attach_t att[2];
	uint32_t vote[2];
	bool hw[2];
	bool active, probed, wakeup, always_on, saved;
	bool removed; /* dmn_device_remove (DOMINO_WIDE): a stale handle */
	uint32_t qos;	 /* us, DMN_QOS_NONE */
	uint64_t wake_at; /* ns, NONE_U64 */
};

struct model {
	int nd, nv;
	struct m_dom d[MAXD];
	struct m_dev v[MAXV];
	bool asleep;
	uint64_t now;
	int armed_dom, armed_op; /* one-shot failure, -1 none */
	int err;		 /* first callback error of the operation */
	bool touched[MAXD];	 /* what the operation settles */
	bool off_failed[MAXD];	 /* its power-off failed in this operation */
	int n_cut, cut[2 * MAXD][2]; /* links removed: (parent, child) */
};

static struct model M;
static struct dmn_ctx *ctx;
static uint64_t seed;
static unsigned long op_index;
static char op_desc[160];

/* The fake hardware: what each callback last accepted. */
static struct {
	bool on;
	uint32_t pstate;
} HW[MAXD];
static int hw_armed_dom = -1, hw_armed_op = -1;
static bool linger; /* DOMINO_LINGER: an armed failure lasts until met */

static uint64_t rng;
static uint32_t rn(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (uint32_t)(rng % n) : 0;
}

static void dump(void);
static void diverge(const char *fmt, ...)
{
	va_list ap;
	dump();
	va_start(ap, fmt);
	model_diverged(seed, op_index, op_desc, fmt, ap);
}

/* ---- the library's side: callbacks and hooks ------------------------- */

static int dom_index(void *user)
{
	return (int)((struct m_dom *)user - M.d);
}

static int hw_fail(int i, int op)
{
	if (hw_armed_dom == i && hw_armed_op == op) {
		hw_armed_dom = hw_armed_op = -1;
		return -EIO;
	}
	return 0;
}

static int cb_on(void *user, dmn_domain_t dom)
{
	(void)dom;
	int i = dom_index(user);
	int err = hw_fail(i, OP_ON);
	if (!err)
		HW[i].on = true;
	return err;
}

static int cb_off(void *user, dmn_domain_t dom, int idle)
{
	(void)dom;
	int i = dom_index(user);
	if (idle >= M.d[i].nst || (M.d[i].nst && idle < 0))
		diverge("%d powered off into idle state %d of %d", i, idle,
			M.d[i].nst);
	int err = hw_fail(i, OP_OFF);
	if (!err)
		HW[i].on = false;
	return err;
}

static int cb_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)dom;
	int i = dom_index(user);
	int err = hw_fail(i, OP_PSTATE);
	if (!err)
		HW[i].pstate = level;
	return err;
}

static int cb_hwmode(void *user, dmn_domain_t dom, dmn_device_t dev, int hw)
{
	(void)dom;
	(void)dev;
	(void)hw;
	return hw_fail(dom_index(user), OP_HWMODE);
}

static const struct dmn_domain_ops ops_table = {
	.power_on = cb_on,
	.power_off = cb_off,
	.set_performance_state = cb_pstate,
};
static const struct dmn_domain_ops ops_plain = {
	.power_on = cb_on,
	.power_off = cb_off,
	.set_hwmode = cb_hwmode,
};

static int round_table(void *user, dmn_domain_t dom, uint32_t level,
		       uint32_t *out)
{
	(void)dom;
	const struct m_dom *d = user;
	for (int i = 0; i < d->nlv; i++)
		if (d->lv[i] >= level) {
			*out = d->lv[i];
			return 0;
		}
	return -ERANGE;
}

static uint64_t clock_now(void *user)
{
	(void)user;
	return M.now;
}

/* ---- the model ------------------------------------------------------- */

static uint32_t rnd_up(const struct m_dom *d, uint32_t level)
{
	if (!d->nlv || !level)
		return level;
	for (int i = 0; i < d->nlv; i++)
		if (d->lv[i] >= level)
			return d->lv[i];
	return level;
}

/* Every domain @i reaches upwards (itself included) into @mark. */
static void reach(int i, bool *mark)
{
	mark[i] = true;
	for (int p = 0; p < M.d[i].np; p++)
		reach(M.d[i].par[p], mark);
}

static void below(int i, bool *mark)
{
	mark[i] = true;
	for (int c = 0; c < M.d[i].nc; c++)
		below(M.d[i].kid[c], mark);
}

/* -ENODEV / -ERANGE of a vote of @level on @i (docs/semantics.md, Votes
 * and pstates), or 0. */
static int check_level(int i, uint32_t level)
{
	if (!level)
		return 0;
	bool mark[MAXD] = {0};
	reach(i, mark);
	bool any = false;
	for (int k = 0; k < M.nd; k++) {
		if (!mark[k] || !M.d[k].nlv)
			continue;
		any = true;
		if (level > M.d[k].lv[M.d[k].nlv - 1])
			return -ERANGE;
	}
	return any ? 0 : -ENODEV;
}

static uint32_t m_pstate(int i);

/* The aggregate the domain asks for now (0 while off). */
static uint32_t target(int i)
{
	const struct m_dom *d = &M.d[i];
	if (!d->on)
		return 0;
	uint32_t raw = d->held ? d->boot_level : 0;
	for (int k = 0; k < M.nv; k++)
		for (int a = 0; a < M.v[k].na; a++)
			if (M.v[k].dom[a] == i && M.v[k].active &&
			    M.v[k].vote[a] > raw)
				raw = M.v[k].vote[a];
	for (int c = 0; c < d->nc; c++) {
		int k = d->kid[c];
		if (!M.d[k].on)
			continue;
		uint32_t req = m_pstate(k);
		for (int p = 0; p < M.d[k].np; p++)
			if (M.d[k].par[p] == i && M.d[k].floor[p] > req)
				req = M.d[k].floor[p];
		if (req > raw)
			raw = req;
	}
	return rnd_up(d, raw);
}

/* What the library reports: the callback's level, or the aggregate a
 * callback-less domain passes up. */
static uint32_t m_pstate(int i)
{
	return M.d[i].nlv ? M.d[i].cur : target(i);
}

static bool m_hwmode(int i)
{
	for (int k = 0; k < M.nv; k++)
		for (int a = 0; a < M.v[k].na; a++)
			if (M.v[k].dom[a] == i && M.v[k].hw[a])
				return true;
	return false;
}

static bool wake_path(const struct m_dev *v)
{
	if (!v->wakeup)
		return false;
	for (int a = 0; a < v->na; a++)
		if (M.d[v->dom[a]].active_wakeup)
			return true;
	return false;
}

static bool attached(const struct m_dev *v, int i)
{
	for (int a = 0; a < v->na; a++)
		if (v->dom[a] == i)
			return true;
	return false;
}

static bool needs_on(int i)
{
	const struct m_dom *d = &M.d[i];
	if (d->always_on || d->held || d->sleep_keep)
		return true;
	for (int k = 0; k < M.nv; k++)
		if (M.v[k].active && attached(&M.v[k], i))
			return true;
	for (int c = 0; c < d->nc; c++)
		if (M.d[d->kid[c]].on)
			return true;
	return false;
}

static bool vetoed(int i)
{
	if (M.asleep)
		return false;
	if (m_hwmode(i))
		return true;
	for (int k = 0; k < M.nv; k++)
		if (M.v[k].always_on && attached(&M.v[k], i))
			return true;
	return false;
}

static bool call_fails(int i, int op)
{
	if (M.armed_dom == i && M.armed_op == op) {
		M.armed_dom = M.armed_op = -1;
		if (!M.err)
			M.err = -EIO;
		return true;
	}
	return false;
}

/* The governor (docs/semantics.md, Idle states and the governor): the deepest
 * state that fits, -1 plain off,
 * -2 stay on. */
static int governor(int i)
{
	const struct m_dom *d = &M.d[i];
	if (!d->nst)
		return -1;
	bool mark[MAXD] = {0};
	below(i, mark);
	uint64_t limit = NONE_U64, wake = NONE_U64;
	for (int k = 0; k < M.nv; k++) {
		const struct m_dev *v = &M.v[k];
		bool in = false;
		for (int a = 0; a < v->na; a++)
			in |= mark[v->dom[a]];
		if (!in)
			continue;
		if (v->qos != DMN_QOS_NONE && v->qos < limit)
			limit = v->qos;
		if (v->wake_at != NONE_U64 && v->wake_at >= M.now &&
		    v->wake_at < wake)
			wake = v->wake_at;
	}
	for (int s = d->nst - 1; s >= 0; s--) {
		const struct m_state *st = &d->st[s];
		if (limit != NONE_U64 && (uint64_t)st->e + st->x > limit)
			continue;
		if (wake != NONE_U64 &&
		    M.now + ((uint64_t)st->e + st->r) * 1000 > wake)
			continue;
		return s;
	}
	return -2;
}

/* The runtime power-off path of a domain that may have become unused. */
static void try_off(int i)
{
	struct m_dom *d = &M.d[i];
	if (!d->on || needs_on(i) || vetoed(i))
		return;
	int st = governor(i);
	if (st == -2 || M.off_failed[i])
		return;
	if (call_fails(i, OP_OFF)) {
		M.off_failed[i] = true; /* one power-off call an operation */
		return;
	}
	d->on = false;
	d->idle = st;
	for (int p = 0; p < d->np; p++)
		try_off(d->par[p]);
}

static bool rolled_back; /* an unsafe failure: the operation is undone */

/* DOMINO_LINK_OPS=1: also dmn_link_remove and dmn_link_add at run time.
 * DOMINO_WIDE=1: also dmn_detach and dmn_attach while awake (a device may
 * end up on no domain, or on two others), and votes above the top of one
 * table a vote reaches but not of another. Each is a switch of its own so
 * that the seeds without it keep their random sequence (the ctest seeds
 * keep hitting what they found). */
static bool link_ops, wide;
static dmn_attach_t stale_att; /* DOMINO_WIDE: the last one detached */

static void power_on(int i)
{
	struct m_dom *d = &M.d[i];
	for (int p = 0; p < d->np && !rolled_back; p++)
		power_on(d->par[p]);
	if (rolled_back || d->on)
		return;
	if (call_fails(i, OP_ON)) {
		rolled_back = true;
		return;
	}
	d->on = true;
	d->idle = -1;
}

/* @i's inputs or state changed: the operation settles it and its
 * ancestors. */
static void touch(int i)
{
	reach(i, M.touched);
}

/* Pstate calls of one operation: a raise whenever the aggregate is above
 * the level; a lowering (or the retry of one that failed) for each domain
 * the operation settles (see docs/decisions/retry-rule.md). Parents are roots
 * here, so one pass in any order sees
 * final children. */
static void settle(bool calls)
{
	for (int i = 0; i < M.nd && !rolled_back; i++) {
		struct m_dom *d = &M.d[i];
		if (!d->nlv)
			continue;
		uint32_t t = target(i);
		if (t == d->cur || (t < d->cur && calls && !M.touched[i]))
			continue;
		if (calls && call_fails(i, OP_PSTATE)) {
			if (t > d->cur)
				rolled_back = true;
			continue;
		}
		d->cur = t;
	}
}

/* ---- operations -------------------------------------------------------- */

/* A probe of @k releases each hold on its domains that awaits no other
 * attached device. An attached device is awaited only until it probes,
 * and one detached before it did no longer is: a hold whose awaited
 * devices all went waits for a release (include/domino/lifecycle.h), so
 * only the probe of an awaited device releases. */
static void m_probe(int k)
{
	if (M.v[k].probed)
		return;
	M.v[k].probed = true;
	for (int a = 0; a < M.v[k].na; a++) {
		int i = M.v[k].dom[a];
		if (!M.d[i].held)
			continue;
		bool all = true;
		for (int u = 0; u < M.nv; u++)
			if (attached(&M.v[u], i) && !M.v[u].probed)
				all = false;
		if (all) {
			M.d[i].held = false;
			touch(i);
			try_off(i);
		}
	}
}

/* Resume a set of devices as one operation (a `resume`, or system resume's
 * restoration). */
static void m_resume(const bool *which)
{
	for (int k = 0; k < M.nv && !rolled_back; k++) {
		if (!which[k] || M.v[k].active)
			continue;
		M.v[k].active = true;
		for (int a = 0; a < M.v[k].na && !rolled_back; a++) {
			touch(M.v[k].dom[a]);
			power_on(M.v[k].dom[a]);
		}
	}
	for (int k = 0; k < M.nv && !rolled_back; k++)
		if (which[k])
			m_probe(k);
}

static void m_system_suspend(void)
{
	for (int k = 0; k < M.nv; k++) {
		M.v[k].saved = M.v[k].active;
		if (M.v[k].active && !wake_path(&M.v[k]))
			M.v[k].active = false;
	}
	M.asleep = true;
	for (int i = 0; i < M.nd; i++) {
		if (M.d[i].on)
			touch(i);
		bool w = false;
		for (int k = 0; k < M.nv; k++)
			w |= M.v[k].wakeup && attached(&M.v[k], i);
		M.d[i].sleep_keep = M.d[i].on && M.d[i].active_wakeup && w;
	}
	bool tried[MAXD] = {0}, changed = true;
	while (changed) {
		changed = false;
		for (int i = M.nd - 1; i >= 0; i--) {
			struct m_dom *d = &M.d[i];
			if (!d->on || needs_on(i) || tried[i])
				continue;
			tried[i] = true;
			if (call_fails(i, OP_OFF))
				continue;
			d->on = false;
			d->idle = d->nst ? d->nst - 1 : -1;
			changed = true;
		}
	}
}

/* -ERANGE if an operation would ask a table above its top level. A vote
 * is checked when cast (check_level), but a link added since may put it
 * under a smaller table: the library passes every requirement up before
 * any callback and refuses the operation there (nothing called, nothing
 * changed), as a vote above the top (docs/semantics.md, Votes and
 * pstates). @apply makes the
 * operation's changes on the model, its failure disarmed; the model is
 * then put back. */
static int range_first(void (*apply)(const void *), const void *arg)
{
	struct model keep = M;
	M.armed_dom = M.armed_op = -1;
	apply(arg);
	int err = 0;
	for (int i = 0; i < M.nd; i++)
		if (M.d[i].nlv && M.d[i].on &&
		    target(i) > M.d[i].lv[M.d[i].nlv - 1])
			err = -ERANGE;
	M = keep;
	rolled_back = false;
	return err;
}

static void apply_resume(const void *which)
{
	m_resume(which);
}

/* dmn_link_add of removed link @j (M.cut): the child, if on, powers the
 * parent on and raises it. */
static void m_link(const void *arg)
{
	int j = *(const int *)arg;
	int p = M.cut[j][0], c = M.cut[j][1];
	M.cut[j][0] = M.cut[--M.n_cut][0];
	M.cut[j][1] = M.cut[M.n_cut][1];
	struct m_dom *d = &M.d[c];
	d->floor[d->np] = 0;
	d->par[d->np++] = p;
	M.d[p].kid[M.d[p].nc++] = c;
	if (d->on) {
		touch(p);
		power_on(p);
		if (!rolled_back)
			settle(true);
	}
}

/* ---- state save / restore for rollbacks ---------------------------------- */

static struct model saved_model;

static void snapshot(void)
{
	saved_model = M;
}

static void restore(void)
{
	int armed_dom = M.armed_dom, armed_op = M.armed_op, err = M.err;
	M = saved_model;
	M.armed_dom = armed_dom;
	M.armed_op = armed_op;
	M.err = err;
}

/* ---- comparison ------------------------------------------------------- */

static void dump(void)
{
	fprintf(stderr, "model (now %" PRIu64 " ns, %s):\n", M.now,
		M.asleep ? "asleep" : "awake");
	for (int i = 0; i < M.nd; i++) {
		const struct m_dom *d = &M.d[i];
		struct dmn_domain_info in = {0};
		int ie = dmn_domain_info(ctx, d->h, &in);
		if (ie)
			fprintf(stderr, "  d%d: dmn_domain_info %d\n", i, ie);
		fprintf(stderr,
			"  d%d %s%s idle %d pstate %" PRIu32 " (lib %s idle %d "
			"pstate %" PRIu32 ")%s%s%s parents",
			i, d->on ? "on" : "off", d->held ? " held" : "", d->idle,
			m_pstate(i), in.on ? "on" : "off", in.idle_state,
			in.pstate, d->nlv ? " table" : "",
			d->always_on ? " always-on" : "",
			d->active_wakeup ? " active-wakeup" : "");
		for (int p = 0; p < d->np; p++)
			fprintf(stderr, d->floor[p] ? " d%d(floor %u)" : " d%d",
				d->par[p], d->floor[p]);
		fprintf(stderr, "; levels");
		for (int l = 0; l < d->nlv; l++)
			fprintf(stderr, " %u", d->lv[l]);
		fprintf(stderr, "; states");
		for (int s = 0; s < d->nst; s++)
			fprintf(stderr, " %u/%u/%u", d->st[s].e, d->st[s].x,
				d->st[s].r);
		fprintf(stderr, "\n");
	}
	for (int k = 0; k < M.nv; k++) {
		const struct m_dev *v = &M.v[k];
		fprintf(stderr, "  v%d %s%s%s%s qos %u wake %" PRIu64 " on", k,
			v->active ? "active" : "suspended",
			v->probed ? " probed" : "", v->wakeup ? " wakeup" : "",
			v->always_on ? " always-on" : "", v->qos, v->wake_at);
		for (int a = 0; a < v->na; a++)
			fprintf(stderr, " d%d(vote %u%s)", v->dom[a], v->vote[a],
				v->hw[a] ? " hw" : "");
		fprintf(stderr, "\n");
	}
}

static void compare(int got, int want)
{
	static int trace = -1;
	if (trace < 0)
		trace = getenv("DOMINO_TRACE") != 0;
	if (trace)
		fprintf(stderr, "%lu %s -> %d\n", op_index, op_desc, got);
	if (trace) {
		for (int i = 0; i < M.nd; i++) {
			struct dmn_domain_info in;
			dmn_domain_info(ctx, M.d[i].h, &in);
			fprintf(stderr, "   d%d %s/%s %u/%u(t%u)", i,
				M.d[i].on ? "on" : "off", in.on ? "on" : "off",
				m_pstate(i), in.pstate, in.target_pstate);
		}
		fprintf(stderr, "\n");
	}
	if (got != want)
		diverge("returned %d, model %d", got, want);
	int last = dmn_last_error(ctx), want_last = want ? want : M.err;
	if (last != want_last)
		diverge("dmn_last_error %d, model %d", last, want_last);
	for (int i = 0; i < M.nd; i++) {
		const struct m_dom *d = &M.d[i];
		struct dmn_domain_info in;
		if (dmn_domain_info(ctx, d->h, &in))
			diverge("dmn_domain_info d%d failed", i);
		if (!!in.on != d->on)
			diverge("d%d is %s, model %s", i, in.on ? "on" : "off",
				d->on ? "on" : "off");
		if (in.pstate != m_pstate(i))
			diverge("d%d pstate %" PRIu32 ", model %" PRIu32, i,
				in.pstate, m_pstate(i));
		if (!d->on && in.idle_state != d->idle)
			diverge("d%d idle state %d, model %d", i, in.idle_state,
				d->idle);
		if (dmn_domain_hwmode(ctx, d->h) != m_hwmode(i))
			diverge("d%d hw mode %d, model %d", i,
				dmn_domain_hwmode(ctx, d->h), m_hwmode(i));
		struct dmn_hold_info hold;
		if (dmn_domain_hold(ctx, d->h, &hold) || !!hold.held != d->held)
			diverge("d%d hold %d, model %d", i, hold.held, d->held);
		if (HW[i].on != d->on)
			diverge("d%d hardware %s, model %s", i,
				HW[i].on ? "on" : "off", d->on ? "on" : "off");
		if (d->nlv && HW[i].pstate != d->cur)
			diverge("d%d hardware pstate %" PRIu32 ", model %" PRIu32,
				i, HW[i].pstate, d->cur);
	}
	if (dmn_system_asleep(ctx) != M.asleep)
		diverge("asleep %d, model %d", dmn_system_asleep(ctx), M.asleep);
}

/* ---- the world ---------------------------------------------------------- */

static const uint32_t LEVELS[] = {16, 32, 48, 64, 128, 192, 256, 384};

static void must(int err, const char *what)
{
	if (err)
		diverge("%s: %d", what, err);
}

static void build(void)
{
	memset(&M, 0, sizeof(M));
	stale_att = 0;
	memset(HW, 0, sizeof(HW));
	M.armed_dom = M.armed_op = hw_armed_dom = hw_armed_op = -1;
	struct dmn_config cfg = {.now = clock_now};
	must(dmn_ctx_create(&cfg, &ctx), "dmn_ctx_create");
	M.nd = 2 + (int)rn(MAXD - 1);
	int roots = M.nd < 3 ? 1 : 1 + (int)rn(2);
	for (int i = 0; i < M.nd; i++) {
		struct m_dom *d = &M.d[i];
		char name[16];
		snprintf(name, sizeof(name), "d%d", i);
		if (i < roots && rn(10) < 7) {
			/* a table: 1..4 increasing levels */
			uint32_t lo = 0;
			d->nlv = 1 + (int)rn(MAXLV);
			for (int k = 0; k < d->nlv; k++) {
				unsigned j = 0;
				while (LEVELS[j] <= lo && j < 7)
					j++;
				j += rn(8 - j);
				if (LEVELS[j] <= lo) {
					d->nlv = k;
					break;
				}
				d->lv[k] = lo = LEVELS[j];
			}
		}
		struct dmn_domain_desc desc = {
			.name = name,
			.ops = d->nlv ? &ops_table : &ops_plain,
			.user = d,
		};
		must(dmn_domain_create(ctx, &desc, &d->h), "dmn_domain_create");
		if (d->nlv)
			must(dmn_domain_set_rounding(ctx, d->h, round_table, d),
			     "dmn_domain_set_rounding");
		if (i >= roots) {
			d->np = i >= 2 && rn(4) == 0 ? 2 : 1;
			d->par[0] = (int)rn((uint32_t)i);
			if (d->np == 2) {
				d->par[1] = (int)rn((uint32_t)i);
				if (d->par[1] == d->par[0])
					d->np = 1;
			}
			for (int p = 0; p < d->np; p++) {
				struct m_dom *pd = &M.d[d->par[p]];
				must(dmn_link_add(ctx, pd->h, d->h), "dmn_link_add");
				pd->kid[pd->nc++] = i;
			}
		}
		if (rn(3)) {
			d->nst = 1 + (int)rn(MAXST);
			for (int s = 0; s < d->nst; s++) {
				struct m_state *st = &d->st[s];
				st->e = rn(300);
				st->x = rn(300);
				st->r = rn(900);
				char sn[16];
				snprintf(sn, sizeof(sn), "s%d", s);
				struct dmn_idle_state_desc sd = {sn, st->e, st->x,
								st->r, 0};
				must(dmn_domain_add_idle_state(ctx, d->h, &sd, 0),
				     "dmn_domain_add_idle_state");
			}
		}
		d->idle = d->nst ? d->nst - 1 : -1;
	}
	M.nv = 2 + (int)rn(MAXV - 1);
	for (int k = 0; k < M.nv; k++) {
		struct m_dev *v = &M.v[k];
		char name[16];
		snprintf(name, sizeof(name), "v%d", k);
		must(dmn_device_create(ctx, name, &v->h), "dmn_device_create");
		v->na = M.nd >= 2 && rn(10) < 3 ? 2 : 1;
		v->dom[0] = (int)rn((uint32_t)M.nd);
		if (v->na == 2) {
			v->dom[1] = (int)rn((uint32_t)M.nd);
			if (v->dom[1] == v->dom[0])
				v->na = 1;
		}
		for (int a = 0; a < v->na; a++)
			must(dmn_attach(ctx, v->h, M.d[v->dom[a]].h, &v->att[a]),
			     "dmn_attach");
		v->qos = DMN_QOS_NONE;
		v->wake_at = NONE_U64;
		if (rn(10) < 3) {
			v->wakeup = true;
			must(dmn_device_set_wakeup_enable(ctx, v->h, 1),
			     "dmn_device_set_wakeup_enable");
		}
	}
	/* Time 0: boot holds and always-on domains, recorded without a
	 * callback (the hardware is already so). The last operation of the
	 * previous world may have rolled back: that is over. */
	rolled_back = false;
	for (int i = 0; i < M.nd; i++) {
		struct m_dom *d = &M.d[i];
		uint32_t r = rn(10);
		if (r < 2) {
			uint32_t lv = rn(3) ? 0 : 1 + rn(200);
			int want = check_level(i, lv);
			snprintf(op_desc, sizeof(op_desc), "boot-on d%d %u", i, lv);
			int got = dmn_domain_boot_on(ctx, d->h, lv);
			if (got != want)
				diverge("dmn_domain_boot_on %d, model %d", got, want);
			if (got)
				continue;
			d->held = true;
			d->boot_level = rnd_up(d, lv);
			power_on(i);
		} else if (r < 3) {
			snprintf(op_desc, sizeof(op_desc), "always-on d%d", i);
			must(dmn_domain_set_always_on(ctx, d->h),
			     "dmn_domain_set_always_on");
			d->always_on = true;
			power_on(i);
		}
	}
	settle(false);
	for (int i = 0; i < M.nd; i++) {
		HW[i].on = M.d[i].on;
		HW[i].pstate = M.d[i].cur;
	}
	snprintf(op_desc, sizeof(op_desc), "build");
	M.err = dmn_last_error(ctx); /* a refused boot-on was checked above */
	compare(0, 0);
}

/* A random link: child *@c and its parent slot *@s; false (and op_desc
 * says so) when the domain drawn has no parent. */
static bool pick_link(int *c, int *s)
{
	*c = (int)rn((uint32_t)M.nd);
	if (!M.d[*c].np) {
		snprintf(op_desc, sizeof(op_desc), "nothing (d%d has no parent)",
			 *c);
		return false;
	}
	*s = (int)rn((uint32_t)M.d[*c].np);
	return true;
}

/* A vote level for domain @i: mostly valid, sometimes 0,
 * sometimes above every table it reaches, sometimes where none listens. */
static uint32_t pick_level(int i)
{
	bool mark[MAXD] = {0};
	reach(i, mark);
	uint32_t lo = UINT32_MAX, hi = 0;
	for (int k = 0; k < M.nd; k++)
		if (mark[k] && M.d[k].nlv) {
			uint32_t top = M.d[k].lv[M.d[k].nlv - 1];
			lo = top < lo ? top : lo;
			hi = top > hi ? top : hi;
		}
	uint32_t r = rn(20);
	if (!hi)
		return r < 14 ? 0 : 1 + rn(100);
	if (r < 3)
		return 0;
	if (r < 5)
		return hi + 1 + rn(50);
	if (wide && r == 5 && lo < hi) /* above one top, not another */
		return lo + 1 + rn(hi - lo);
	return 1 + rn(lo);
}

/* dmn_detach of attachment @a of device @k: its vote, its use of the
 * domain and its vetoes (HW mode, always-on) go, safe direction; nothing
 * else happens to a suspended device without a veto. */
static void m_detach(int k, int a)
{
	struct m_dev *v = &M.v[k];
	int i = v->dom[a];
	bool veto = v->hw[a] || v->always_on;
	for (int x = a; x + 1 < v->na; x++) {
		v->dom[x] = v->dom[x + 1];
		v->att[x] = v->att[x + 1];
		v->vote[x] = v->vote[x + 1];
		v->hw[x] = v->hw[x + 1];
	}
	v->na--;
	if (v->active || veto) {
		touch(i);
		try_off(i);
		settle(true);
	}
}

/* dmn_attach of device @k to domain @i (after its others), with no
 * vote: an active device powers the domain on, unsafe direction. */
static void m_attach(int k, int i, dmn_attach_t h)
{
	struct m_dev *v = &M.v[k];
	v->dom[v->na] = i;
	v->att[v->na] = h;
	v->vote[v->na] = 0;
	v->hw[v->na++] = false;
	if (v->active) {
		touch(i);
		power_on(i);
		if (!rolled_back)
			settle(true);
	}
}

static void apply_attach(const void *ki)
{
	const int *x = ki;
	m_attach(x[0], x[1], 0);
}

/* DOMINO_WIDE's operations on device @k: detach one of its attachments or
 * attach it to a domain it is not on. false: nothing was done (asleep). */
static bool wide_op(int k, const char *armed, int *got, int *want)
{
	struct m_dev *v = &M.v[k];
	uint32_t r = rn(8);
	if (r == 0) {
		/* Only a suspended device on no domain can go. A structural
		 * call: dmn_last_error() stays (as for qos). */
		snprintf(op_desc, sizeof(op_desc), "remove v%d", k);
		int err = dmn_device_remove(ctx, v->h);
		int w = v->na || v->active ? -EBUSY : 0;
		if (err != w)
			diverge("dmn_device_remove %d, model %d", err, w);
		v->removed = !w;
		M.err = dmn_last_error(ctx);
		return true;
	}
	if (r == 1 && stale_att) {
		snprintf(op_desc, sizeof(op_desc), "vote on a detached one");
		*got = dmn_vote(ctx, stale_att, 1);
		*want = -EBADF;
		return true;
	}
	bool detach = v->na && (v->na == 2 || rn(2));
	if (M.asleep) {
		snprintf(op_desc, sizeof(op_desc), "nothing (asleep)");
		return false;
	}
	if (detach) {
		int a = (int)rn((uint32_t)v->na);
		snprintf(op_desc, sizeof(op_desc), "detach v%d d%d%s", k,
			 v->dom[a], armed);
		*got = dmn_detach(ctx, v->att[a]);
		stale_att = v->att[a];
		m_detach(k, a);
		return true;
	}
	int i = (int)rn((uint32_t)M.nd);
	if (attached(v, i)) {
		snprintf(op_desc, sizeof(op_desc), "attach v%d d%d again%s", k,
			 i, armed);
		dmn_attach_t h = 0;
		*got = dmn_attach(ctx, v->h, M.d[i].h, &h);
		*want = -EEXIST;
		return true;
	}
	snprintf(op_desc, sizeof(op_desc), "attach v%d d%d%s", k, i, armed);
	dmn_attach_t h = 0;
	*got = dmn_attach(ctx, v->h, M.d[i].h, &h);
	/* An active device powers the domain on, and that power-on may
	 * pass a link's floor up under a table a re-added link put above
	 * it (seed 347 of DOMINO_LINK_OPS=1 DOMINO_WIDE=1): refused as a
	 * `get` is, -ERANGE and nothing attached (Linux's
	 * __genpd_dev_pm_attach fails the attach when its power-on or
	 * default performance state fails). */
	int ki[3] = {k, i, 0};
	if (!v->active || !(*want = range_first(apply_attach, ki)))
		m_attach(k, i, h);
	return true;
}

/* One random operation on the library and on the model, then compare. */
static void one_op(void)
{
	static const uint64_t steps[] = {0, 0, 0, 1000, 20000, 150000, 700000};
	M.now += steps[rn(7)];
	int k = (int)rn((uint32_t)M.nv);
	struct m_dev *v = &M.v[k];
	if (rn(100) < 15) {
		M.armed_dom = hw_armed_dom = (int)rn((uint32_t)M.nd);
		M.armed_op = hw_armed_op = (int)rn(OP_N);
	}
	char armed[32] = "";
	if (M.armed_dom >= 0)
		snprintf(armed, sizeof(armed), " [fail d%d %s]", M.armed_dom,
			 op_name[M.armed_op]);
	snapshot();
	M.err = 0;
	rolled_back = false;
	memset(M.touched, 0, sizeof(M.touched));
	memset(M.off_failed, 0, sizeof(M.off_failed));
	int got = 0, want = 0;
	uint32_t r = rn(100);
	if (v->removed) {
		/* Every call on a removed device's handle (DOMINO_WIDE). */
		static const char *const what[] = {"get", "put", "qos", "probe"};
		uint32_t x = rn(4);
		snprintf(op_desc, sizeof(op_desc), "%s removed v%d", what[x], k);
		got = x == 0   ? dmn_device_get(ctx, v->h)
		      : x == 1 ? dmn_device_put(ctx, v->h)
		      : x == 2 ? dmn_device_set_qos(ctx, v->h, 5)
			       : dmn_device_probe(ctx, v->h);
		want = -EBADF;
	} else if (wide && rn(16) == 0) {
		if (!wide_op(k, armed, &got, &want)) {
			M.err = dmn_last_error(ctx);
			goto compare;
		}
	} else if (r < 22) {
		snprintf(op_desc, sizeof(op_desc), "get v%d%s", k, armed);
		if (v->active) {
			/* no nesting, as scenarios: a resume of an active
			 * device does nothing (and calls nothing) */
			M.err = dmn_last_error(ctx);
			goto compare;
		}
		got = dmn_device_get(ctx, v->h);
		bool which[MAXV] = {0};
		which[k] = true;
		if (M.asleep) {
			want = -EACCES;
		} else if (!(want = range_first(apply_resume, which))) {
			m_resume(which);
			if (!rolled_back)
				settle(true);
		}
	} else if (r < 42) {
		snprintf(op_desc, sizeof(op_desc), "put v%d%s", k, armed);
		if (!v->active) {
			M.err = dmn_last_error(ctx);
			goto compare;
		}
		got = dmn_device_put(ctx, v->h);
		if (M.asleep) {
			want = -EACCES;
		} else {
			v->active = false;
			for (int a = 0; a < v->na; a++) {
				touch(v->dom[a]);
				try_off(v->dom[a]);
			}
			settle(true);
		}
	} else if (r < 55) {
		if (!v->na) { /* detached from all (DOMINO_WIDE) */
			snprintf(op_desc, sizeof(op_desc), "nothing (v%d)", k);
			M.err = dmn_last_error(ctx);
			goto compare;
		}
		int a = (int)rn((uint32_t)v->na);
		uint32_t lv = pick_level(v->dom[a]);
		snprintf(op_desc, sizeof(op_desc), "vote v%d d%d %u%s", k,
			 v->dom[a], lv, armed);
		got = dmn_vote(ctx, v->att[a], lv);
		want = check_level(v->dom[a], lv);
		if (!want) {
			const struct m_dom *d = &M.d[v->dom[a]];
			if (v->active && rnd_up(d, lv) != rnd_up(d, v->vote[a]))
				touch(v->dom[a]);
			v->vote[a] = lv;
			settle(true);
		}
	} else if (r < 61) {
		static const uint32_t q[] = {0, 50, 200, 400, 700, 100000,
					     DMN_QOS_NONE};
		v->qos = q[rn(7)];
		snprintf(op_desc, sizeof(op_desc), "qos v%d %u", k, v->qos);
		got = dmn_device_set_qos(ctx, v->h, v->qos);
		M.err = dmn_last_error(ctx); /* leaves it (not state) */
	} else if (r < 67) {
		uint32_t x = rn(10);
		v->wake_at = x < 2   ? NONE_U64
			     : x < 3 ? (M.now ? rn((uint32_t)(M.now / 1000)) * 1000
					     : 0)
				     : M.now + rn(1500) * 1000;
		snprintf(op_desc, sizeof(op_desc), "wakeup v%d %" PRIu64, k,
			 v->wake_at);
		got = dmn_device_set_wakeup(ctx, v->h, v->wake_at);
		M.err = dmn_last_error(ctx);
	} else if (r < 72) {
		if (rn(4) == 0) {
			snprintf(op_desc, sizeof(op_desc), "probe all%s", armed);
			got = dmn_probe_all(ctx);
			bool was[MAXD];
			for (int u = 0; u < M.nv; u++)
				M.v[u].probed = true;
			for (int i = 0; i < M.nd; i++) {
				was[i] = M.d[i].held;
				M.d[i].held = false;
				if (was[i])
					touch(i);
			}
			for (int i = M.nd - 1; i >= 0; i--)
				if (was[i])
					try_off(i);
		} else {
			snprintf(op_desc, sizeof(op_desc), "probe v%d%s", k,
				 armed);
			got = dmn_device_probe(ctx, v->h);
			m_probe(k);
		}
		settle(true);
	} else if (r < 77) {
		snprintf(op_desc, sizeof(op_desc), "system suspend%s", armed);
		got = dmn_system_suspend(ctx);
		if (!M.asleep) {
			m_system_suspend();
			settle(true);
		}
	} else if (r < 83) {
		snprintf(op_desc, sizeof(op_desc), "system resume%s", armed);
		got = dmn_system_resume(ctx);
		if (M.asleep) {
			M.asleep = false;
			bool which[MAXV];
			for (int u = 0; u < M.nv; u++)
				which[u] = M.v[u].saved && !M.v[u].active;
			/* the restoration is one transaction of its own */
			struct model before = M;
			int range = range_first(apply_resume, which);
			if (!range) {
				m_resume(which);
				if (!rolled_back)
					settle(true);
			}
			if (rolled_back || range) {
				int ad = M.armed_dom, ao = M.armed_op;
				M = before;
				M.armed_dom = ad;
				M.armed_op = ao;
				M.err = want = range ? range : -EIO;
				rolled_back = false;
			}
			/* then the wakeup path lets go, in a
			 * transaction of its own */
			memset(M.touched, 0, sizeof(M.touched));
			bool kept[MAXD];
			for (int i = 0; i < M.nd; i++) {
				kept[i] = M.d[i].sleep_keep;
				M.d[i].sleep_keep = false;
				if (kept[i])
					touch(i);
			}
			for (int i = M.nd - 1; i >= 0; i--)
				if (kept[i])
					try_off(i);
			settle(true);
		}
	} else if (r < 86) {
		bool on = rn(10) < 6;
		snprintf(op_desc, sizeof(op_desc), "wakeup-enable v%d %d", k, on);
		got = dmn_device_set_wakeup_enable(ctx, v->h, on);
		v->wakeup = on;
		M.err = dmn_last_error(ctx);
	} else if (r < 89) {
		int i = (int)rn((uint32_t)M.nd);
		bool on = rn(10) < 7;
		snprintf(op_desc, sizeof(op_desc), "active-wakeup d%d %d", i, on);
		got = dmn_domain_set_active_wakeup(ctx, M.d[i].h, on);
		M.d[i].active_wakeup = on;
		M.err = dmn_last_error(ctx);
	} else if (r < 95 && !v->na) {
		snprintf(op_desc, sizeof(op_desc), "nothing (v%d)", k);
		M.err = dmn_last_error(ctx);
		goto compare;
	} else if (r < 95) {
		int a = (int)rn((uint32_t)v->na), i = v->dom[a];
		bool on = rn(20) < 11;
		snprintf(op_desc, sizeof(op_desc), "hwmode v%d d%d %d%s", k, i,
			 on, armed);
		got = dmn_attach_set_hwmode(ctx, v->att[a], on);
		if (M.d[i].nlv) {
			want = -EOPNOTSUPP;
		} else if (v->hw[a] != on) {
			if (call_fails(i, OP_HWMODE)) {
				want = -EIO;
			} else {
				v->hw[a] = on;
				if (!on) {
					touch(i);
					try_off(i);
				}
				settle(true);
			}
		}
	} else if (r < 97) {
		bool on = rn(2);
		snprintf(op_desc, sizeof(op_desc), "always-on v%d %d%s", k, on,
			 armed);
		got = dmn_device_set_always_on(ctx, v->h, on);
		bool was = v->always_on;
		v->always_on = on;
		if (was && !on) {
			for (int a = 0; a < v->na; a++) {
				touch(v->dom[a]);
				try_off(v->dom[a]);
			}
			settle(true);
		}
	} else if (r < 98 && link_ops && M.n_cut && rn(2)) {
		/* dmn_link_add of a link removed before: the child (if on)
		 * powers the parent on and raises it, as a transaction. */
		int j = (int)rn((uint32_t)M.n_cut);
		int p = M.cut[j][0], c = M.cut[j][1];
		snprintf(op_desc, sizeof(op_desc), "link d%d->d%d%s", c, p,
			 armed);
		got = dmn_link_add(ctx, M.d[p].h, M.d[c].h);
		if (!(want = range_first(m_link, &j)))
			m_link(&j);
	} else if (r < 98 && link_ops) {
		/* dmn_link_remove: the parent loses the child's use and
		 * requirement (safe direction). */
		int c, s;
		if (!pick_link(&c, &s)) {
			M.err = dmn_last_error(ctx);
			goto compare;
		}
		struct m_dom *d = &M.d[c];
		int p = d->par[s];
		snprintf(op_desc, sizeof(op_desc), "unlink d%d->d%d%s", c, p,
			 armed);
		got = dmn_link_remove(ctx, M.d[p].h, d->h);
		for (int x = s; x + 1 < d->np; x++) {
			d->par[x] = d->par[x + 1];
			d->floor[x] = d->floor[x + 1];
		}
		d->np--;
		struct m_dom *pd = &M.d[p];
		for (int x = 0; x < pd->nc; x++)
			if (pd->kid[x] == c) {
				for (; x + 1 < pd->nc; x++)
					pd->kid[x] = pd->kid[x + 1];
				pd->nc--;
				break;
			}
		M.cut[M.n_cut][0] = p;
		M.cut[M.n_cut++][1] = c;
		if (d->on) {
			touch(p);
			try_off(p);
			settle(true);
		}
	} else if (r < 99) {
		/* dmn_domain_release: one hold ends whatever it awaits (a
		 * no-op on a domain that is not held). */
		int i = (int)rn((uint32_t)M.nd);
		snprintf(op_desc, sizeof(op_desc), "release d%d%s", i, armed);
		got = dmn_domain_release(ctx, M.d[i].h);
		if (M.d[i].held) {
			M.d[i].held = false;
			touch(i);
			try_off(i);
			settle(true);
		}
	} else {
		/* A floor on a link (a provider's own required-opps,
		 * docs/semantics.md, Subdomains and propagation): the child
		 * requires it of the parent while on, validated
		 * as a vote on the parent; set as a transaction. */
		int c, s;
		if (!pick_link(&c, &s)) {
			M.err = dmn_last_error(ctx);
			goto compare;
		}
		struct m_dom *d = &M.d[c];
		int p = d->par[s];
		uint32_t lv = rn(4) ? pick_level(p) : 0;
		snprintf(op_desc, sizeof(op_desc), "floor d%d->d%d %u%s", c, p,
			 lv, armed);
		got = dmn_link_set_floor(ctx, M.d[p].h, d->h, lv);
		want = check_level(p, lv);
		if (!want) {
			/* The parent is settled (a failed lowering retried)
			 * even when the floor stays as it was: the operation
			 * touches it (docs/decisions/retry-rule.md: when a
			 * failed lowering is retried). */
			d->floor[s] = lv;
			if (d->on) {
				touch(p);
				settle(true);
			}
		}
	}
	if (rolled_back) {
		restore();
		want = -EIO;
	}
compare:
	/* Both sides made the armed call, or neither did. */
	if ((M.armed_dom >= 0) != (hw_armed_dom >= 0))
		diverge("the armed failure was %s by the library only",
			M.armed_dom >= 0 ? "met" : "not met");
	/* The armed failure is for this operation only, or (linger) until
	 * a call meets it: a call the model does not make shows later. */
	if (!linger)
		M.armed_dom = M.armed_op = hw_armed_dom = hw_armed_op = -1;
	compare(got, want);
}

static void run(unsigned long n_ops)
{
	rng = model_start(seed);
	link_ops = getenv("DOMINO_LINK_OPS") != NULL;
	linger = getenv("DOMINO_LINGER") != NULL;
	wide = getenv("DOMINO_WIDE") != NULL;
	unsigned long done = 0;
	unsigned worlds = 0;
	op_index = 0;
	while (done < n_ops) {
		build();
		worlds++;
		unsigned long per_world = 50 + rn(400);
		for (unsigned long i = 0; i < per_world && done < n_ops; i++) {
			one_op();
			op_index++;
			done++;
		}
		dmn_ctx_destroy(ctx);
		ctx = 0;
	}
	printf("ok: %lu operations in %u worlds\n", done, worlds);
}

int main(void)
{
	return model_main(run, &seed, 20000, 8);
}
