/* SPDX-License-Identifier: MIT */
/*
 * Model-based randomized test of the core.
 *
 * Random operations (attach, detach, link add/remove, level maps, get, put,
 * vote, vote_many, stale handles, and arming an injected failure of the
 * next power_on / power_off / set_performance_state of one domain) run on
 * the library and on a small reference model written from docs/semantics.md.
 * The
 * model recomputes each operation's outcome from scratch (no aggregation
 * state of its own): the domains an operation settles are the ones whose
 * inputs it changed and their ancestors; for each, children first,
 *   on     = always-on || an active device || a child that ends up on
 *   pstate = max(votes of active devices, map(pstate) of every child that
 *            ends up on, rounded by the parent's hook)
 * A failure in the unsafe direction (power-on, raise) makes the call fail
 * and leaves everything as before; one in the safe direction (power-off,
 * lowering) keeps only that domain where it was, and its parents then keep
 * what it still requires. After every operation the whole observable state
 * is compared: return code, on/pstate/target of every domain, what the fake
 * hardware was last told, every link's requirement, every vote and whether
 * it counts, dmn_last_error(), failure events, and callback ordering
 * invariants (parents on before children, children off before parents,
 * parents raised before children need it, lowered only after).
 *
 * Runs the fixed seeds 1..6 (ctest); DOMINO_SEED=N replays one seed,
 * DOMINO_RANDOM=1 adds a clock seed (printed); DOMINO_OPS=N sets the number
 * of operations per seed.
 */
#include <domino/domain.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model_main.h"

#define MAXD 20
#define MAXV 50
#define MAXATT 8
#define MAXSTALE 64

enum op_kind { OP_ON, OP_OFF, OP_PSTATE, OP_NONE };

struct m_dom {
	unsigned idx;
	dmn_domain_t h;
	bool cb, ao;
	unsigned n_round;
	uint32_t round[6];
	int parents[MAXD], pmap[MAXD]; /* link order; pmap: map kind */
	unsigned np;
	int children[MAXD];
	unsigned nc;
	bool on;         /* what the library must report */
	uint32_t pstate;
};

/* The fake hardware: what the callbacks last accepted, kept apart from the
 * model so that restoring the model after a failed call cannot hide what
 * the library really did. */
struct hw_dom {
	bool on;
	uint32_t pstate;
	unsigned calls[3]; /* in the current operation */
};
static struct hw_dom HW[MAXD];

struct m_att {
	int dom;
	uint32_t vote;
	dmn_attach_t h;
};

struct m_dev {
	dmn_device_t h;
	unsigned usage;
	struct m_att att[MAXATT];
	unsigned na;
};

struct model {
	unsigned nd, nv;
	struct m_dom d[MAXD];
	struct m_dev v[MAXV];
	int armed_dom, armed_op; /* the model's idea of the pending failure */
	dmn_attach_t stale[MAXSTALE];
	unsigned n_stale;
};

static struct model M;       /* the reference */
static struct dmn_ctx *ctx;
/* What the fake hardware holds independently of the model's prediction. */
static int hw_armed_dom = -1, hw_armed_op = OP_NONE;
static int fired_dom = -1, fired_op = OP_NONE;
static char violation[256];
static bool level_violation;
static unsigned n_failure_events, n_safe_events, n_rollback_events;
static uint64_t seed;
static unsigned long op_index;
static char op_desc[256];
static unsigned long stat_unsafe, stat_safe, stat_erange, stat_errors;

static uint64_t rng_state;
static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}
static unsigned rn(unsigned n)
{
	return n ? (unsigned)(rnd() % n) : 0;
}

static void dump(void);
static void diverge(const char *fmt, ...)
{
	va_list ap;
	dump();
	va_start(ap, fmt);
	model_diverged(seed, op_index, op_desc, fmt, ap);
}

/* ---- levels: rounding hooks and link maps -------------------------------- */

static int m_round(const struct m_dom *d, uint32_t level, uint32_t *out)
{
	if (!d->n_round) {
		*out = level;
		return 0;
	}
	for (unsigned i = 0; i < d->n_round; i++) {
		if (level <= d->round[i]) {
			*out = d->round[i];
			return 0;
		}
	}
	return -ERANGE;
}

static uint32_t map_apply(int kind, uint32_t level)
{
	switch (kind) {
	case 1: return level * 2;
	case 2: return level / 2;
	case 3: return level + 3;
	case 4: return (level * 3 + 1) / 2;
	default: return level;
	}
}

static int round_cb(void *user, dmn_domain_t dom, uint32_t level,
		    uint32_t *rounded)
{
	(void)dom;
	return m_round(user, level, rounded);
}

static const int map_kinds[5] = {0, 1, 2, 3, 4};
static int map_cb(void *user, dmn_domain_t child, dmn_domain_t parent,
		  uint32_t level, uint32_t *out)
{
	(void)child;
	(void)parent;
	if (!level) {
		snprintf(violation, sizeof(violation), "map called for 0");
		*out = 0;
		return 0;
	}
	*out = map_apply(*(const int *)user, level);
	return 0;
}

static int link_index(const struct model *m, int c, int p)
{
	for (unsigned i = 0; i < m->d[c].np; i++)
		if (m->d[c].parents[i] == p)
			return (int)i;
	return -1;
}

/* What child @c at @level requires of its i-th parent. */
static int m_req(const struct model *m, int c, unsigned i, uint32_t level,
		 uint32_t *out)
{
	uint32_t r = level;
	if (level && m->d[c].pmap[i])
		r = map_apply(m->d[c].pmap[i], level);
	if (r) {
		int err = m_round(&m->d[m->d[c].parents[i]], r, &r);
		if (err)
			return err;
	}
	*out = r;
	return 0;
}

/* Every path up from @d, as docs/semantics.md words it (the graph is
 * acyclic). */
static int m_check_up(const struct model *m, int d, uint32_t level)
{
	for (unsigned i = 0; i < m->d[d].np; i++) {
		uint32_t r;
		int err = m_req(m, d, i, level, &r);
		if (!err)
			err = m_check_up(m, m->d[d].parents[i], r);
		if (err)
			return err;
	}
	return 0;
}

/* Can a vote on @d land on a domain with a pstate callback? */
static bool m_reaches_cb(const struct model *m, int d)
{
	if (m->d[d].cb)
		return true;
	for (unsigned i = 0; i < m->d[d].np; i++)
		if (m_reaches_cb(m, m->d[d].parents[i]))
			return true;
	return false;
}

static int m_check_level(const struct model *m, int d, uint32_t level,
			 uint32_t *rounded)
{
	*rounded = 0;
	if (!level)
		return 0;
	if (!m_reaches_cb(m, d))
		return -ENODEV;
	uint32_t r;
	int err = m_round(&m->d[d], level, &r);
	if (!err)
		err = m_check_up(m, d, r);
	if (!err)
		*rounded = r;
	return err;
}

/* ---- the fake hardware ----------------------------------------------------- */

static void violate(const char *fmt, ...)
{
	if (violation[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(violation, sizeof(violation), fmt, ap);
	va_end(ap);
}

static int hw_call(struct m_dom *d, int op)
{
	HW[d->idx].calls[op]++;
	if (hw_armed_dom == (int)d->idx && hw_armed_op == op) {
		hw_armed_dom = -1;
		hw_armed_op = OP_NONE;
		if (fired_dom >= 0)
			violate("two injected failures in one call");
		fired_dom = (int)d->idx;
		fired_op = op;
		return -EIO;
	}
	return 0;
}

static int cb_on(void *user, dmn_domain_t dom)
{
	struct m_dom *d = user;
	(void)dom;
	if (HW[d->idx].on)
		violate("power_on of %u while on", d->idx);
	for (unsigned i = 0; i < d->np; i++)
		if (!HW[d->parents[i]].on)
			violate("power_on of %u before its parent %d", d->idx,
				d->parents[i]);
	int err = hw_call(d, OP_ON);
	if (!err)
		HW[d->idx].on = true;
	return err;
}

static int cb_off(void *user, dmn_domain_t dom, int idle)
{
	struct m_dom *d = user;
	(void)dom;
	if (idle != -1)
		violate("power_off of %u with idle state %d", d->idx, idle);
	if (!HW[d->idx].on)
		violate("power_off of %u while off", d->idx);
	if (d->ao)
		violate("power_off of always-on %u", d->idx);
	for (unsigned i = 0; i < d->nc; i++)
		if (HW[d->children[i]].on)
			violate("power_off of %u before its child %d", d->idx,
				d->children[i]);
	int err = hw_call(d, OP_OFF);
	if (!err)
		HW[d->idx].on = false;
	return err;
}

static int cb_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	struct m_dom *d = user;
	(void)dom;
	if (level == HW[d->idx].pstate)
		violate("set_performance_state of %u to its level %u", d->idx,
			(unsigned)level);
	if (level > HW[d->idx].pstate) {
		/* Raising: every parent with a callback already allows it. */
		for (unsigned i = 0; i < d->np; i++) {
			const struct m_dom *p = &M.d[d->parents[i]];
			uint32_t r;
			if (p->cb && !m_req(&M, (int)d->idx, i, level, &r) &&
			    HW[p->idx].pstate < r && !level_violation) {
				level_violation = true;
				snprintf(violation + 128, 128,
					 "%u raised to %u before parent %u "
					 "(at %u, needs %u)",
					 d->idx, (unsigned)level, p->idx,
					 (unsigned)HW[p->idx].pstate, (unsigned)r);
			}
		}
	} else {
		/* Lowering: no child that is on still needs more. */
		for (unsigned i = 0; i < d->nc; i++) {
			const struct m_dom *c = &M.d[d->children[i]];
			int li = link_index(&M, (int)c->idx, (int)d->idx);
			uint32_t r;
			if (c->cb && HW[c->idx].on && li >= 0 &&
			    !m_req(&M, (int)c->idx, (unsigned)li, HW[c->idx].pstate,
				   &r) &&
			    r > level && !level_violation) {
				level_violation = true;
				snprintf(violation + 128, 128,
					 "%u lowered to %u under child %u "
					 "(needs %u)",
					 d->idx, (unsigned)level, c->idx,
					 (unsigned)r);
			}
		}
	}
	int err = hw_call(d, OP_PSTATE);
	if (!err)
		HW[d->idx].pstate = level;
	return err;
}

static const struct dmn_domain_ops ops_full = {cb_on, cb_off, cb_pstate, 0};
static const struct dmn_domain_ops ops_power = {cb_on, cb_off, 0, 0};

static void listener(void *user, struct dmn_ctx *c, const struct dmn_event *ev)
{
	(void)user;
	(void)c;
	if (ev->kind == DMN_EV_FAILURE) {
		n_failure_events++;
		n_safe_events += ev->safe ? 1u : 0u;
	} else if (ev->kind == DMN_EV_ROLLBACK) {
		n_rollback_events++;
	}
}

/* The model's domains next to what the library reports, for a replay. */
static void dump(void)
{
	if (!ctx)
		return;
	fprintf(stderr, "state after the operation (model | library):\n");
	for (unsigned d = 0; d < M.nd; d++) {
		const struct m_dom *x = &M.d[d];
		struct dmn_domain_info info;
		memset(&info, 0, sizeof(info));
		dmn_domain_info(ctx, x->h, &info);
		fprintf(stderr, "  d%u%s%s on=%d ps=%u | on=%d ps=%u tgt=%u", d,
			x->cb ? " cb" : "", x->ao ? " ao" : "", x->on,
			(unsigned)x->pstate, info.on, (unsigned)info.pstate,
			(unsigned)info.target_pstate);
		if (x->n_round) {
			fprintf(stderr, " round{");
			for (unsigned i = 0; i < x->n_round; i++)
				fprintf(stderr, "%s%u", i ? "," : "",
					(unsigned)x->round[i]);
			fprintf(stderr, "}");
		}
		fprintf(stderr, " parents:");
		for (unsigned i = 0; i < x->np; i++) {
			uint32_t req = 0;
			int on = 0;
			dmn_link_info(ctx, M.d[x->parents[i]].h, x->h, &req, &on);
			fprintf(stderr, " d%d(map%d req=%u)", x->parents[i],
				x->pmap[i], (unsigned)req);
		}
		fprintf(stderr, " votes:");
		for (unsigned v = 0; v < M.nv; v++)
			for (unsigned a = 0; a < M.v[v].na; a++)
				if (M.v[v].att[a].dom == (int)d)
					fprintf(stderr, " dev%u=%u%s", v,
						(unsigned)M.v[v].att[a].vote,
						M.v[v].usage ? "" : "(s)");
		fprintf(stderr, "\n");
	}
}

/* ---- the reference model ---------------------------------------------------- */

struct settle {
	bool in[MAXD];
	bool tgt_done[MAXD], tgt_on[MAXD];
	uint32_t tgt_lvl[MAXD];  /* what its own inputs ask */
	uint32_t pass_lvl[MAXD]; /* the level it passes up to its parents */
	unsigned calls[MAXD][3]; /* callbacks the library must make */
	int tgt_err;
	bool fin_done[MAXD], fin_on[MAXD];
	uint32_t fin_lvl[MAXD];
	bool fired_safe;
	bool broken;
};

static void mark_up(const struct model *m, struct settle *s, int d)
{
	if (s->in[d])
		return;
	s->in[d] = true;
	for (unsigned i = 0; i < m->d[d].np; i++)
		mark_up(m, s, m->d[d].parents[i]);
}

static unsigned active_devices(const struct model *m, int d, uint32_t *max)
{
	unsigned n = 0;
	*max = 0;
	for (unsigned v = 0; v < m->nv; v++) {
		if (!m->v[v].usage)
			continue;
		for (unsigned a = 0; a < m->v[v].na; a++) {
			if (m->v[v].att[a].dom != d)
				continue;
			n++;
			if (m->v[v].att[a].vote > *max)
				*max = m->v[v].att[a].vote;
		}
	}
	return n;
}

/* Phase-0 targets: what each settled domain's inputs ask for, children
 * outside the settled set counting as they really are. */
static void target(const struct model *m, struct settle *s, int d)
{
	if (s->tgt_done[d])
		return;
	s->tgt_done[d] = true;
	const struct m_dom *x = &m->d[d];
	uint32_t lvl;
	bool on = active_devices(m, d, &lvl) > 0 || x->ao;
	for (unsigned i = 0; i < x->nc; i++) {
		int c = x->children[i];
		bool c_on;
		uint32_t c_lvl;
		if (s->in[c]) {
			target(m, s, c);
			c_on = s->tgt_on[c];
			c_lvl = s->pass_lvl[c];
		} else {
			c_on = m->d[c].on;
			c_lvl = m->d[c].pstate;
		}
		if (!c_on)
			continue;
		on = true;
		uint32_t r;
		int err = m_req(m, c, (unsigned)link_index(m, c, d), c_lvl, &r);
		if (err) {
			if (!s->tgt_err)
				s->tgt_err = err;
			continue;
		}
		if (r > lvl)
			lvl = r;
	}
	s->tgt_on[d] = on;
	s->tgt_lvl[d] = lvl;
	/* Off at a level left by a failed lowering, it powers on at that
	 * level and is lowered after: its parents must allow it first. */
	s->pass_lvl[d] = on && !x->on && x->pstate > lvl ? x->pstate : lvl;
}

/* Final states after the callbacks, children first: a safe failure keeps
 * only the failing domain where it was. */
static void final(struct model *m, struct settle *s, int d)
{
	if (s->fin_done[d])
		return;
	s->fin_done[d] = true;
	struct m_dom *x = &m->d[d];
	uint32_t lvl;
	bool want = active_devices(m, d, &lvl) > 0 || x->ao;
	for (unsigned i = 0; i < x->nc; i++) {
		int c = x->children[i];
		if (s->in[c])
			final(m, s, c);
		bool c_on = s->in[c] ? s->fin_on[c] : m->d[c].on;
		uint32_t c_lvl = s->in[c] ? s->fin_lvl[c] : m->d[c].pstate;
		if (!c_on)
			continue;
		want = true;
		uint32_t r = 0;
		if (m_req(m, c, (unsigned)link_index(m, c, d), c_lvl, &r))
			s->broken = true;
		if (r > lvl)
			lvl = r;
	}
	bool on;
	if (want) {
		if (!x->on && !s->tgt_on[d])
			s->broken = true; /* would need a power-on not planned */
		if (!x->on)
			s->calls[d][OP_ON]++;
		on = true;
	} else if (x->on) {
		on = false;
		s->calls[d][OP_OFF]++;
		if (m->armed_dom == d && m->armed_op == OP_OFF) {
			m->armed_dom = -1;
			m->armed_op = OP_NONE;
			s->fired_safe = true;
			on = true;
		}
	} else {
		on = false;
	}
	/* Raised (parents first) to its target before any power change,
	 * lowered (children first) to what it finally needs after. */
	uint32_t after_raise = x->pstate;
	if (s->tgt_lvl[d] > x->pstate) {
		after_raise = s->tgt_lvl[d];
		s->calls[d][OP_PSTATE] += x->cb;
	}
	uint32_t ps = after_raise;
	if (lvl > after_raise) {
		s->broken = true; /* would need a raise after the raise phase */
	} else if (lvl < after_raise) {
		ps = lvl;
		s->calls[d][OP_PSTATE] += x->cb;
		if (x->cb && m->armed_dom == d && m->armed_op == OP_PSTATE) {
			m->armed_dom = -1;
			m->armed_op = OP_NONE;
			s->fired_safe = true;
			ps = after_raise;
		}
	}
	s->fin_on[d] = on;
	s->fin_lvl[d] = ps;
}

static int last_error_expected;

/* Settle the domains marked in @s (plus their ancestors); returns the call's
 * result. On failure the caller restores the inputs. */
static int m_settle(struct model *m, struct settle *s)
{
	bool touched[MAXD];
	memcpy(touched, s->in, sizeof(touched));
	memset(s->in, 0, sizeof(s->in));
	for (unsigned d = 0; d < m->nd; d++)
		if (touched[d])
			mark_up(m, s, (int)d);
	for (unsigned d = 0; d < m->nd; d++)
		if (s->in[d])
			target(m, s, (int)d);
	if (s->tgt_err)
		return s->tgt_err;
	/* Unsafe direction: a planned raise or power-on that fails. */
	for (unsigned d = 0; d < m->nd; d++) {
		if (!s->in[d] || m->armed_dom != (int)d)
			continue;
		bool raise = s->tgt_lvl[d] > m->d[d].pstate && m->d[d].cb;
		bool power = s->tgt_on[d] && !m->d[d].on;
		if ((m->armed_op == OP_PSTATE && raise) ||
		    (m->armed_op == OP_ON && power)) {
			m->armed_dom = -1;
			m->armed_op = OP_NONE;
			return -EIO;
		}
	}
	for (unsigned d = 0; d < m->nd; d++)
		if (s->in[d])
			final(m, s, (int)d);
	if (s->broken)
		diverge("model assumption broken (a rule the model relies on)");
	for (unsigned d = 0; d < m->nd; d++) {
		if (!s->in[d])
			continue;
		m->d[d].on = s->fin_on[d];
		m->d[d].pstate = s->fin_lvl[d];
	}
	return 0;
}

/* Run @s on a copy of the model; commit or roll back the inputs. */
static struct model saved;
static int m_commit(struct settle *s, bool any)
{
	int err = any ? m_settle(&M, s) : 0;
	if (err) {
		int armed_dom = M.armed_dom, armed_op = M.armed_op;
		M = saved;
		M.armed_dom = armed_dom;
		M.armed_op = armed_op;
		if (err == -EIO)
			stat_unsafe++;
		else
			stat_erange++;
	}
	if (s->fired_safe)
		stat_safe++;
	last_error_expected = err ? err : s->fired_safe ? -EIO : 0;
	return err;
}

/* ---- comparison ---------------------------------------------------------------- */

static void compare(int got, int want, bool unsafe_fired, bool safe_fired,
		    const struct settle *st)
{
	if (got != want)
		diverge("returned %d, model says %d", got, want);
	if (violation[0])
		diverge("callback order: %s", violation);
	if (level_violation && !got)
		diverge("callback levels: %s", violation + 128);
	if (M.armed_dom != hw_armed_dom || M.armed_op != hw_armed_op)
		diverge("pending failure: model dom %d op %d, hardware dom %d "
			"op %d",
			M.armed_dom, M.armed_op, hw_armed_dom, hw_armed_op);
	int le = dmn_last_error(ctx);
	if (le != last_error_expected)
		diverge("dmn_last_error %d, model says %d", le,
			last_error_expected);
	unsigned want_fail = (unsigned)(unsafe_fired || safe_fired);
	if (n_failure_events != want_fail || n_safe_events != (unsigned)safe_fired ||
	    n_rollback_events != (unsigned)unsafe_fired)
		diverge("events: %u failures (%u safe), %u rollbacks; model: "
			"unsafe %d safe %d",
			n_failure_events, n_safe_events, n_rollback_events,
			unsafe_fired, safe_fired);
	for (unsigned d = 0; d < M.nd; d++) {
		const struct m_dom *x = &M.d[d];
		if (!unsafe_fired && memcmp(HW[d].calls, st->calls[d],
					    sizeof(HW[d].calls)))
			diverge("domain %u: %u pstate, %u on, %u off calls; "
				"model %u %u %u",
				d, HW[d].calls[OP_PSTATE], HW[d].calls[OP_ON],
				HW[d].calls[OP_OFF], st->calls[d][OP_PSTATE],
				st->calls[d][OP_ON], st->calls[d][OP_OFF]);
		struct dmn_domain_info info;
		if (dmn_domain_info(ctx, x->h, &info))
			diverge("dmn_domain_info(%u) failed", d);
		uint32_t max;
		unsigned active = active_devices(&M, (int)d, &max);
		unsigned on_children = 0;
		for (unsigned i = 0; i < x->nc; i++) {
			int c = x->children[i];
			if (!M.d[c].on)
				continue;
			on_children++;
			uint32_t r = 0;
			m_req(&M, c, (unsigned)link_index(&M, c, (int)d),
			      M.d[c].pstate, &r);
			if (r > max)
				max = r;
		}
		if (info.on != x->on || info.pstate != x->pstate)
			diverge("domain %u: library on=%d pstate=%u, model "
				"on=%d pstate=%u",
				d, info.on, (unsigned)info.pstate, x->on,
				(unsigned)x->pstate);
		if (HW[d].on != x->on || (x->cb && HW[d].pstate != x->pstate))
			diverge("domain %u: hardware on=%d pstate=%u, records "
				"on=%d pstate=%u",
				d, HW[d].on, (unsigned)HW[d].pstate, x->on,
				(unsigned)x->pstate);
		if (info.target_pstate != max)
			diverge("domain %u: target_pstate %u, model %u", d,
				(unsigned)info.target_pstate, (unsigned)max);
		if (info.active_devices != active ||
		    info.on_children != on_children)
			diverge("domain %u: active %u on_children %u, model %u %u",
				d, info.active_devices, info.on_children, active,
				on_children);
		if (info.n_parents != x->np || info.n_children != x->nc ||
		    info.has_pstate_cb != x->cb ||
		    info.flags != (x->ao ? DMN_FLAG_ALWAYS_ON : 0u))
			diverge("domain %u: shape differs", d);
		for (unsigned i = 0; i < x->np; i++) {
			dmn_domain_t p;
			if (dmn_domain_parent(ctx, x->h, i, &p) ||
			    p != M.d[x->parents[i]].h)
				diverge("domain %u: parent %u differs", d, i);
			uint32_t req, want_req = 0;
			int on;
			if (dmn_link_info(ctx, p, x->h, &req, &on))
				diverge("dmn_link_info failed");
			if (x->on)
				m_req(&M, (int)d, i, x->pstate, &want_req);
			if (on != x->on || req != want_req)
				diverge("link %d->%u: on=%d req=%u, model on=%d "
					"req=%u",
					x->parents[i], d, on, (unsigned)req, x->on,
					(unsigned)want_req);
		}
		for (unsigned i = 0; i < x->nc; i++) {
			dmn_domain_t c;
			if (dmn_domain_child(ctx, x->h, i, &c) ||
			    c != M.d[x->children[i]].h)
				diverge("domain %u: child %u differs", d, i);
		}
	}
	unsigned n_att_total[MAXD] = {0};
	for (unsigned v = 0; v < M.nv; v++) {
		const struct m_dev *x = &M.v[v];
		struct dmn_device_info info;
		if (dmn_device_info(ctx, x->h, &info))
			diverge("dmn_device_info(%u) failed", v);
		if (info.usage != x->usage || info.n_attachments != x->na)
			diverge("device %u: usage %u atts %u, model %u %u", v,
				info.usage, info.n_attachments, x->usage, x->na);
		for (unsigned a = 0; a < x->na; a++) {
			dmn_attach_t h;
			struct dmn_attach_info ai;
			if (dmn_device_attachment(ctx, x->h, a, &h) ||
			    h != x->att[a].h || dmn_attach_info(ctx, h, &ai))
				diverge("device %u: attachment %u differs", v, a);
			n_att_total[x->att[a].dom]++;
			if (ai.vote != x->att[a].vote ||
			    ai.counts != (x->usage > 0) ||
			    ai.domain != M.d[x->att[a].dom].h ||
			    ai.device != x->h)
				diverge("device %u attachment %u: vote %u counts "
					"%d, model vote %u counts %d",
					v, a, (unsigned)ai.vote, ai.counts,
					(unsigned)x->att[a].vote, x->usage > 0);
		}
	}
	for (unsigned d = 0; d < M.nd; d++) {
		struct dmn_domain_info info;
		dmn_domain_info(ctx, M.d[d].h, &info);
		if (info.n_attachments != n_att_total[d])
			diverge("domain %u: %u attachments, model %u", d,
				info.n_attachments, n_att_total[d]);
	}
}

/* ---- operations ------------------------------------------------------------------ */

static bool below(const struct model *m, int from, int target)
{
	if (from == target)
		return true;
	for (unsigned i = 0; i < m->d[from].nc; i++)
		if (below(m, m->d[from].children[i], target))
			return true;
	return false;
}

static void remove_int(int *arr, unsigned *n, unsigned i)
{
	memmove(&arr[i], &arr[i + 1], (*n - i - 1) * sizeof(arr[0]));
	(*n)--;
}

static int do_get(unsigned v, struct settle *s, bool *any)
{
	snprintf(op_desc, sizeof(op_desc), "get dev%u", v);
	struct m_dev *x = &M.v[v];
	int err = dmn_device_get(ctx, x->h);
	if (x->usage) {
		x->usage++;
		return err;
	}
	x->usage = 1;
	for (unsigned a = 0; a < x->na; a++)
		s->in[x->att[a].dom] = true;
	*any = true;
	return err;
}

static int do_put(unsigned v, struct settle *s, bool *any, int *model_err)
{
	snprintf(op_desc, sizeof(op_desc), "put dev%u", v);
	struct m_dev *x = &M.v[v];
	int err = dmn_device_put(ctx, x->h);
	if (!x->usage) {
		*model_err = -EALREADY;
	} else if (x->usage > 1) {
		x->usage--;
	} else {
		x->usage = 0;
		for (unsigned a = 0; a < x->na; a++)
			s->in[x->att[a].dom] = true;
		*any = true;
	}
	return err;
}

static int do_attach(unsigned v, int d, struct settle *s, bool *any,
		     int *model_err)
{
	snprintf(op_desc, sizeof(op_desc), "attach dev%u to %d", v, d);
	struct m_dev *x = &M.v[v];
	dmn_attach_t h = 0;
	int err = dmn_attach(ctx, x->h, M.d[d].h, &h);
	for (unsigned a = 0; a < x->na; a++)
		if (x->att[a].dom == d)
			*model_err = -EEXIST;
	if (*model_err)
		return err;
	struct m_att na = {d, 0, h};
	x->att[x->na++] = na;
	if (x->usage) {
		s->in[d] = true;
		*any = true;
	}
	return err;
}

static int do_detach(unsigned v, unsigned a, struct settle *s, bool *any)
{
	struct m_dev *x = &M.v[v];
	snprintf(op_desc, sizeof(op_desc), "detach dev%u from %d", v,
		 x->att[a].dom);
	int err = dmn_detach(ctx, x->att[a].h);
	if (M.n_stale < MAXSTALE)
		M.stale[M.n_stale++] = x->att[a].h;
	else
		M.stale[rn(MAXSTALE)] = x->att[a].h;
	if (x->usage) {
		s->in[x->att[a].dom] = true;
		*any = true;
	}
	memmove(&x->att[a], &x->att[a + 1], (x->na - a - 1) * sizeof(x->att[0]));
	x->na--;
	return err;
}

struct vchange {
	int dev, att; /* att < 0: a stale handle */
	dmn_attach_t h;
	uint32_t level;
};

static int do_votes(const struct vchange *ch, unsigned n, struct settle *s,
		    bool *any, int *model_err)
{
	int off = snprintf(op_desc, sizeof(op_desc), "vote_many");
	struct dmn_vote_change lc[8];
	for (unsigned i = 0; i < n; i++) {
		lc[i].att = ch[i].h;
		lc[i].level = ch[i].level;
		if (off < (int)sizeof(op_desc))
			off += snprintf(op_desc + off, sizeof(op_desc) - (size_t)off,
					" dev%d.att%d=%u", ch[i].dev, ch[i].att,
					(unsigned)ch[i].level);
	}
	int err = dmn_vote_many(ctx, lc, n);
	uint32_t rounded[8];
	int dev = -1;
	for (unsigned i = 0; i < n; i++) {
		if (ch[i].att < 0) {
			*model_err = -EBADF;
			return err;
		}
		if (dev >= 0 && dev != ch[i].dev) {
			*model_err = -EINVAL;
			return err;
		}
		dev = ch[i].dev;
		int e = m_check_level(&M, M.v[dev].att[ch[i].att].dom,
				      ch[i].level, &rounded[i]);
		if (e) {
			*model_err = e;
			if (e == -ERANGE)
				stat_erange++;
			return err;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		struct m_att *a = &M.v[dev].att[ch[i].att];
		if (a->vote == rounded[i])
			continue;
		a->vote = rounded[i];
		if (M.v[dev].usage) {
			s->in[a->dom] = true;
			*any = true;
		}
	}
	return err;
}

static int do_link_add(int p, int c, struct settle *s, bool *any,
		       int *model_err)
{
	snprintf(op_desc, sizeof(op_desc), "link_add %d > %d", p, c);
	struct m_dom *cd = &M.d[c], *pd = &M.d[p];
	if (link_index(&M, c, p) >= 0) {
		*model_err = -EEXIST;
		return dmn_link_add(ctx, pd->h, cd->h);
	}
	if (below(&M, c, p)) {
		*model_err = -ELOOP;
		return dmn_link_add(ctx, pd->h, cd->h);
	}
	/* Into the model's graph first: the callbacks check against it. */
	cd->parents[cd->np] = p;
	cd->pmap[cd->np++] = 0;
	pd->children[pd->nc++] = c;
	if (cd->on) {
		uint32_t r;
		int e = m_req(&M, c, cd->np - 1, cd->pstate, &r);
		if (e) {
			*model_err = e;
			stat_erange++;
		}
		s->in[p] = true;
		*any = !e;
	}
	return dmn_link_add(ctx, pd->h, cd->h);
}

static int do_link_remove(int p, int c, struct settle *s, bool *any,
			  int *model_err)
{
	snprintf(op_desc, sizeof(op_desc), "link_remove %d > %d", p, c);
	struct m_dom *cd = &M.d[c], *pd = &M.d[p];
	int li = link_index(&M, c, p);
	if (li < 0) {
		*model_err = -ENOENT;
		return dmn_link_remove(ctx, pd->h, cd->h);
	}
	remove_int(cd->parents, &cd->np, (unsigned)li);
	memmove(&cd->pmap[li], &cd->pmap[li + 1],
		(cd->np - (unsigned)li) * sizeof(cd->pmap[0]));
	for (unsigned i = 0; i < pd->nc; i++) {
		if (pd->children[i] == c) {
			remove_int(pd->children, &pd->nc, i);
			break;
		}
	}
	if (cd->on) {
		s->in[p] = true;
		*any = true;
	}
	return dmn_link_remove(ctx, pd->h, cd->h);
}

static int do_set_map(int p, int c, int kind, struct settle *s, bool *any,
		      int *model_err)
{
	snprintf(op_desc, sizeof(op_desc), "set_map %d > %d kind %d", p, c,
		 kind);
	struct m_dom *cd = &M.d[c], *pd = &M.d[p];
	int li = link_index(&M, c, p);
	if (li < 0) {
		*model_err = -ENOENT;
	} else {
		cd->pmap[li] = kind;
		if (cd->on) {
			uint32_t r;
			int e = m_req(&M, c, (unsigned)li, cd->pstate, &r);
			if (e) {
				*model_err = e;
				stat_erange++;
			}
			s->in[p] = true;
			*any = !e;
		}
	}
	return dmn_link_set_map(ctx, pd->h, cd->h,
			       kind ? map_cb : 0, (void *)&map_kinds[kind]);
}

static uint32_t rand_level(void)
{
	unsigned r = rn(10);
	if (r < 2)
		return 0;
	if (r < 8)
		return 1 + rn(40);
	return 1 + rn(80);
}

static void one_op(void)
{
	saved = M;
	struct settle s;
	memset(&s, 0, sizeof(s));
	bool any = false;
	int model_err = 0;
	int got;
	violation[0] = 0;
	violation[128] = 0;
	level_violation = false;
	fired_dom = -1;
	fired_op = OP_NONE;
	n_failure_events = n_safe_events = n_rollback_events = 0;
	for (unsigned d = 0; d < M.nd; d++)
		memset(HW[d].calls, 0, sizeof(HW[d].calls));

	unsigned kind = rn(100);
	if (kind < 6) {
		/* Arm one failure (replacing any pending one). */
		int d = (int)rn(M.nd);
		int op = (int)rn(3);
		if (op == OP_PSTATE && !M.d[d].cb)
			op = OP_ON;
		if (op == OP_OFF && M.d[d].ao)
			op = OP_PSTATE;
		if (op == OP_PSTATE && !M.d[d].cb)
			op = OP_ON;
		snprintf(op_desc, sizeof(op_desc), "arm %s failure of %d",
			 op == OP_ON ? "power_on" : op == OP_OFF ? "power_off"
								 : "pstate",
			 d);
		M.armed_dom = hw_armed_dom = d;
		M.armed_op = hw_armed_op = op;
		last_error_expected = dmn_last_error(ctx);
		struct settle none;
		memset(&none, 0, sizeof(none));
		compare(0, 0, false, false, &none);
		return;
	} else if (kind < 22) {
		got = do_get(rn(M.nv), &s, &any);
	} else if (kind < 40) {
		unsigned v = rn(M.nv);
		/* Keep usage small so puts often reach 0. */
		got = do_put(v, &s, &any, &model_err);
	} else if (kind < 50) {
		unsigned v = rn(M.nv);
		if (M.v[v].na >= MAXATT)
			return;
		got = do_attach(v, (int)rn(M.nd), &s, &any, &model_err);
	} else if (kind < 57) {
		unsigned v = rn(M.nv);
		if (!M.v[v].na)
			return;
		got = do_detach(v, rn(M.v[v].na), &s, &any);
	} else if (kind < 63) {
		int p = (int)rn(M.nd), c = (int)rn(M.nd);
		got = do_link_add(p, c, &s, &any, &model_err);
	} else if (kind < 67) {
		int c = (int)rn(M.nd);
		int p = M.d[c].np && rn(8) ? M.d[c].parents[rn(M.d[c].np)]
					   : (int)rn(M.nd);
		got = do_link_remove(p, c, &s, &any, &model_err);
	} else if (kind < 70) {
		int c = (int)rn(M.nd);
		int p = M.d[c].np && rn(8) ? M.d[c].parents[rn(M.d[c].np)]
					   : (int)rn(M.nd);
		got = do_set_map(p, c, rn(3) ? 0 : 1 + (int)rn(4), &s, &any,
				 &model_err);
	} else {
		/* Votes: single or many, now and then a stale or foreign
		 * handle. */
		unsigned v = rn(M.nv);
		if (!M.v[v].na)
			return;
		struct vchange ch[8];
		unsigned n = kind < 88 ? 1 : 1 + rn(4);
		for (unsigned i = 0; i < n; i++) {
			ch[i].dev = (int)v;
			ch[i].att = (int)rn(M.v[v].na);
			ch[i].h = M.v[v].att[ch[i].att].h;
			ch[i].level = rand_level();
		}
		unsigned odd = rn(60);
		if (odd == 0 && M.n_stale) {
			unsigned i = rn(n);
			ch[i].att = -1;
			ch[i].h = M.stale[rn(M.n_stale)];
		} else if (odd == 1) {
			unsigned w = rn(M.nv);
			if (w != v && M.v[w].na) {
				unsigned i = rn(n);
				ch[i].dev = (int)w;
				ch[i].att = (int)rn(M.v[w].na);
				ch[i].h = M.v[w].att[ch[i].att].h;
			}
		}
		got = do_votes(ch, n, &s, &any, &model_err);
	}

	int want;
	struct settle none;
	memset(&none, 0, sizeof(none));
	if (model_err) {
		want = model_err;
		int armed_dom = M.armed_dom, armed_op = M.armed_op;
		M = saved;
		M.armed_dom = armed_dom;
		M.armed_op = armed_op;
		last_error_expected = model_err;
		stat_errors++;
	} else {
		want = m_commit(&s, any);
	}
	/* Handles of new attachments come from the library. */
	if (!want && strncmp(op_desc, "attach", 6) == 0) {
		/* do_attach stored the handle the library returned */
	}
	bool unsafe = want == -EIO;
	compare(got, want, unsafe, s.fired_safe, want ? &none : &s);
}

static void setup(void)
{
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.lock = dmn_lock_none;
	if (dmn_ctx_create(&cfg, &ctx) || dmn_listen(ctx, listener, 0)) {
		fprintf(stderr, "cannot create a context\n");
		exit(2);
	}
	memset(&M, 0, sizeof(M));
	memset(HW, 0, sizeof(HW));
	M.armed_dom = -1;
	M.armed_op = OP_NONE;
	hw_armed_dom = -1;
	hw_armed_op = OP_NONE;
	M.nd = 2 + rn(MAXD - 1);
	M.nv = 1 + rn(MAXV);
	for (unsigned d = 0; d < M.nd; d++) {
		struct m_dom *x = &M.d[d];
		x->idx = d;
		x->cb = rn(10) < 6;
		x->ao = rn(10) == 0;
		if (rn(10) < 3) {
			x->n_round = 2 + rn(4);
			uint32_t lvl = 0;
			for (unsigned i = 0; i < x->n_round; i++) {
				lvl += 1 + rn(15);
				x->round[i] = lvl;
			}
		}
		char name[16];
		snprintf(name, sizeof(name), "d%u", d);
		struct dmn_domain_desc desc = {name, x->cb ? &ops_full : &ops_power,
					      x, x->ao ? DMN_FLAG_ALWAYS_ON : 0};
		if (dmn_domain_create(ctx, &desc, &x->h)) {
			fprintf(stderr, "cannot create domain\n");
			exit(2);
		}
		x->on = x->ao;
		memset(HW[d].calls, 0, sizeof(HW[d].calls));
		if (HW[d].on != x->on)
			diverge("always-on domain %u not powered on", d);
		if (x->n_round && dmn_domain_set_rounding(ctx, x->h, round_cb, x))
			diverge("set_rounding failed");
	}
	for (unsigned v = 0; v < M.nv; v++) {
		char name[16];
		snprintf(name, sizeof(name), "dev%u", v);
		if (dmn_device_create(ctx, name, &M.v[v].h)) {
			fprintf(stderr, "cannot create device\n");
			exit(2);
		}
	}
}

/* An initial random DAG and attachments, through the ordinary operations. */
static void grow(void)
{
	for (unsigned i = 0; i < M.nd * 2; i++) {
		saved = M;
		struct settle s;
		memset(&s, 0, sizeof(s));
		bool any = false;
		int model_err = 0;
		int p = (int)rn(M.nd), c = (int)rn(M.nd);
		n_failure_events = n_safe_events = n_rollback_events = 0;
		for (unsigned d = 0; d < M.nd; d++)
			memset(HW[d].calls, 0, sizeof(HW[d].calls));
		int got = do_link_add(p, c, &s, &any, &model_err);
		int want = model_err;
		if (model_err) {
			M = saved;
			last_error_expected = model_err;
		} else {
			want = m_commit(&s, any);
		}
		compare(got, want, false, false, &s);
		op_index++;
	}
}

static void run(unsigned long n_ops)
{
	rng_state = model_start(seed);
	unsigned long done = 0;
	unsigned worlds = 0;
	op_index = 0;
	/* Several worlds per run, so one seed sees several DAG shapes. */
	while (done < n_ops) {
		setup();
		worlds++;
		grow();
		unsigned long per_world = 5000 + rn(20000);
		for (unsigned long i = 0; i < per_world && done < n_ops; i++) {
			one_op();
			op_index++;
			done++;
		}
		dmn_ctx_destroy(ctx);
		ctx = 0;
	}
	printf("ok: %lu operations in %u worlds; %lu unsafe failures rolled "
	       "back, %lu safe failures, %lu -ERANGE, %lu other errors\n",
	       done, worlds, stat_unsafe, stat_safe, stat_erange, stat_errors);
}

/* A fixed set of seeds, so that ctest runs reproduce; DOMINO_SEED=N runs
 * one seed instead, DOMINO_RANDOM=1 adds one from the clock (printed). */
int main(void)
{
	return model_main(run, &seed, 25000, 6);
}
