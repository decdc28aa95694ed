/* SPDX-License-Identifier: MIT */
/*
 * Randomized invariants under failing callbacks.
 *
 * Random DAGs (several parents per domain, level maps), random devices,
 * and every callback failing at random in both directions, so that one call
 * often meets two or more failures: a power-on and the power-off that undoes
 * it, a raise and its undo, several lowerings. After every call:
 *  - records match what the callbacks last accepted (on, pstate);
 *  - every on domain's parents are on, at or above what it requires, and
 *    each link says what its child really is;
 *  - every domain of an active device is on;
 *  - a call that failed with no safe-direction failure on the way (a clean
 *    rollback) left the whole snapshot as it was;
 *  - callbacks never power a child on under an off parent, nor a parent off
 *    under an on child.
 *
 * Usage: test_core_invariants [SEED...]  (none: the fixed seeds 1..24)
 *   DOMINO_SEED=N  replays one seed;  DOMINO_RANDOM=1  adds a clock seed
 *   (printed);  DOMINO_OPS=N  operations per seed (default 4000).
 */
#include <domino/domain.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXD 14
#define MAXV 8
#define MAXA 3

struct dom {
	dmn_domain_t h;
	bool cb;         /* has a pstate callback */
	bool on;         /* what the callbacks last accepted */
	uint32_t pstate;
	int parents[MAXD], map[MAXD]; /* link order */
	unsigned np;
};

struct dev {
	dmn_device_t h;
	unsigned usage;
	dmn_attach_t att[MAXA];
	int dom[MAXA];
	unsigned na;
};

static struct dom D[MAXD];
static struct dev V[MAXV];
static unsigned nd, nv;
static struct dmn_ctx *ctx;
static uint64_t rng;
static uint64_t seed;
static unsigned long op_no;
static unsigned fail_pct; /* chance of each callback failing, in % */
static unsigned safe_failures, failures_in_call;
static unsigned long stat_calls_with_2plus, stat_unsafe, stat_safe;
static char what[128];

static unsigned rn(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void fail(const char *fmt, const char *a, unsigned x, unsigned y)
{
	fprintf(stderr, "INVARIANT seed=%" PRIu64 " op=%lu (%s): ", seed,
		op_no, what);
	fprintf(stderr, fmt, a, x, y);
	fprintf(stderr, "\nreplay with DOMINO_SEED=%" PRIu64 "\n", seed);
	exit(1);
}

static uint32_t map_apply(int kind, uint32_t level)
{
	switch (kind) {
	case 1: return level * 2;
	case 2: return level + 3;
	default: return level;
	}
}

static int map_cb(void *user, dmn_domain_t child, dmn_domain_t parent,
		  uint32_t level, uint32_t *out)
{
	(void)child;
	(void)parent;
	*out = map_apply(*(const int *)user, level);
	return 0;
}
static const int map_kinds[3] = {0, 1, 2};

static int maybe_fail(void)
{
	if (rn(100) >= fail_pct)
		return 0;
	failures_in_call++;
	const int errs[] = {-EIO, -ETIMEDOUT, -EBUSY};
	return errs[rn(3)];
}

static int cb_on(void *user, dmn_domain_t h)
{
	struct dom *d = user;
	(void)h;
	for (unsigned i = 0; i < d->np; i++)
		if (!D[d->parents[i]].on)
			fail("%spower_on of %u under off parent %u", "",
			     (unsigned)(d - D), (unsigned)d->parents[i]);
	int err = maybe_fail();
	if (!err)
		d->on = true;
	return err;
}

static int cb_off(void *user, dmn_domain_t h, int idle)
{
	struct dom *d = user;
	(void)h;
	(void)idle;
	unsigned me = (unsigned)(d - D);
	for (unsigned c = 0; c < nd; c++)
		for (unsigned i = 0; i < D[c].np; i++)
			if (D[c].parents[i] == (int)me && D[c].on)
				fail("%spower_off of %u under on child %u", "",
				     me, c);
	int err = maybe_fail();
	if (!err)
		d->on = false;
	return err;
}

static int cb_pstate(void *user, dmn_domain_t h, uint32_t level)
{
	struct dom *d = user;
	(void)h;
	int err = maybe_fail();
	if (!err)
		d->pstate = level;
	return err;
}

static const struct dmn_domain_ops ops_full = {cb_on, cb_off, cb_pstate, 0};
static const struct dmn_domain_ops ops_power = {cb_on, cb_off, 0, 0};

static void listener(void *user, struct dmn_ctx *c, const struct dmn_event *ev)
{
	(void)user;
	(void)c;
	if (ev->kind == DMN_EV_FAILURE && ev->safe)
		safe_failures++;
}

/* ---- snapshot ---------------------------------------------------------- */

struct snap {
	struct dmn_domain_info dom[MAXD];
	struct dmn_attach_info att[MAXV][MAXA];
	unsigned usage[MAXV];
};

static void take(struct snap *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < nd; i++)
		if (dmn_domain_info(ctx, D[i].h, &s->dom[i]))
			fail("%sinfo of %u failed%u", "", i, 0);
	for (unsigned v = 0; v < nv; v++) {
		struct dmn_device_info di;
		if (dmn_device_info(ctx, V[v].h, &di))
			fail("%sdevice info %u%u", "", v, 0);
		s->usage[v] = di.usage;
		for (unsigned a = 0; a < V[v].na; a++)
			if (dmn_attach_info(ctx, V[v].att[a], &s->att[v][a]))
				fail("%sattach info %u %u", "", v, a);
	}
}

static bool same(const struct snap *a, const struct snap *b)
{
	for (unsigned i = 0; i < nd; i++) {
		const struct dmn_domain_info *x = &a->dom[i], *y = &b->dom[i];
		if (x->on != y->on || x->pstate != y->pstate ||
		    x->idle_state != y->idle_state ||
		    x->target_pstate != y->target_pstate ||
		    x->active_devices != y->active_devices ||
		    x->on_children != y->on_children)
			return false;
	}
	for (unsigned v = 0; v < nv; v++) {
		if (a->usage[v] != b->usage[v])
			return false;
		for (unsigned k = 0; k < V[v].na; k++)
			if (a->att[v][k].vote != b->att[v][k].vote ||
			    a->att[v][k].counts != b->att[v][k].counts)
				return false;
	}
	return true;
}

static void check(int ret, const struct snap *before)
{
	struct snap now;
	take(&now);
	for (unsigned i = 0; i < nd; i++) {
		const struct dmn_domain_info *x = &now.dom[i];
		if ((bool)x->on != D[i].on)
			fail("%sdomain %u: record on=%u, hardware differs", "",
			     i, (unsigned)x->on);
		if (D[i].cb && x->pstate != D[i].pstate)
			fail("%sdomain %u: record pstate %u, hardware differs",
			     "", i, x->pstate);
		for (unsigned p = 0; p < D[i].np; p++) {
			unsigned pi = (unsigned)D[i].parents[p];
			/* A map is asked only for a level: 0 stays 0. */
			uint32_t req = x->on && x->pstate
					       ? map_apply(D[i].map[p], x->pstate)
					       : 0;
			uint32_t lreq;
			int lon;
			if (dmn_link_info(ctx, D[pi].h, D[i].h, &lreq, &lon))
				fail("%slink %u > %u missing", "", pi, i);
			if ((bool)lon != (bool)x->on || lreq != req)
				fail("%slink %u > %u says other than the child",
				     "", pi, i);
			if (x->on && !now.dom[pi].on)
				fail("%son domain %u under off parent %u", "", i,
				     pi);
			if (x->on && now.dom[pi].pstate < req)
				fail("%sparent %u below what child %u requires",
				     "", pi, i);
		}
	}
	for (unsigned v = 0; v < nv; v++)
		for (unsigned a = 0; now.usage[v] && a < V[v].na; a++)
			if (!now.dom[V[v].dom[a]].on)
				fail("%sdevice %u active, its domain %u off", "",
				     v, (unsigned)V[v].dom[a]);
	if (ret && ret != -ERANGE && ret != -ENODEV && !safe_failures &&
	    !same(before, &now))
		fail("%sfailed call %d changed state (no undo failed)%u", "",
		     (unsigned)ret, 0);
	if (failures_in_call >= 2)
		stat_calls_with_2plus++;
	if (ret && failures_in_call)
		stat_unsafe++;
	if (safe_failures)
		stat_safe++;
}

/* ---- world ------------------------------------------------------------- */

static void build(void)
{
	nd = 3 + rn(MAXD - 2);
	nv = 1 + rn(MAXV);
	memset(D, 0, sizeof(D));
	memset(V, 0, sizeof(V));
	fail_pct = 0; /* the world is built without failures */
	if (dmn_ctx_create(0, &ctx) || dmn_listen(ctx, listener, 0))
		fail("%scannot create a context%u%u", "", 0, 0);
	for (unsigned i = 0; i < nd; i++) {
		char name[8];
		snprintf(name, sizeof(name), "d%u", i);
		D[i].cb = rn(3) != 0;
		struct dmn_domain_desc desc = {name,
					      D[i].cb ? &ops_full : &ops_power,
					      &D[i], 0};
		if (dmn_domain_create(ctx, &desc, &D[i].h))
			fail("%scannot create domain %u%u", "", i, 0);
	}
	/* A lower index is always the parent: acyclic by construction. Links
	 * are added in random order, so link order varies too. */
	for (unsigned k = 0; k < nd * 2; k++) {
		unsigned c = 1 + rn(nd - 1), p = rn(c);
		if (dmn_link_add(ctx, D[p].h, D[c].h))
			continue;
		int kind = (int)rn(3);
		D[c].parents[D[c].np] = (int)p;
		D[c].map[D[c].np++] = kind;
		if (kind && dmn_link_set_map(ctx, D[p].h, D[c].h, map_cb,
					    (void *)&map_kinds[kind]))
			fail("%sset_map failed%u%u", "", 0, 0);
	}
	for (unsigned v = 0; v < nv; v++) {
		char name[16];
		snprintf(name, sizeof(name), "v%u", v);
		if (dmn_device_create(ctx, name, &V[v].h))
			fail("%scannot create device%u%u", "", 0, 0);
		unsigned n = 1 + rn(MAXA);
		for (unsigned a = 0; a < n; a++) {
			unsigned d = rn(nd);
			dmn_attach_t h;
			if (dmn_attach(ctx, V[v].h, D[d].h, &h))
				continue; /* already attached there */
			V[v].att[V[v].na] = h;
			V[v].dom[V[v].na++] = (int)d;
		}
	}
}

static void one_op(void)
{
	struct snap before;
	take(&before);
	safe_failures = failures_in_call = 0;
	fail_pct = 5 + rn(30);
	unsigned v = rn(nv);
	int ret;
	unsigned kind = rn(10);
	if (kind < 4) {
		snprintf(what, sizeof(what), "get v%u", v);
		ret = dmn_device_get(ctx, V[v].h);
		if (!ret)
			V[v].usage++;
	} else if (kind < 7 || !V[v].na) {
		snprintf(what, sizeof(what), "put v%u", v);
		ret = dmn_device_put(ctx, V[v].h);
		if (!ret)
			V[v].usage--;
		else if (ret == -EALREADY && !V[v].usage)
			ret = 0;
	} else if (kind < 9) {
		unsigned a = rn(V[v].na);
		uint32_t level = rn(4) ? 1 + rn(12) : 0;
		snprintf(what, sizeof(what), "vote v%u.%u %u", v, a, level);
		ret = dmn_vote(ctx, V[v].att[a], level);
	} else {
		/* Move a link: remove one, or add one (lower index above). */
		unsigned c = 1 + rn(nd - 1);
		if (D[c].np && rn(2)) {
			unsigned i = rn(D[c].np);
			unsigned p = (unsigned)D[c].parents[i];
			snprintf(what, sizeof(what), "unlink %u > %u", p, c);
			/* Out of the graph the callbacks check first. */
			int map = D[c].map[i];
			memmove(&D[c].parents[i], &D[c].parents[i + 1],
				(D[c].np - i - 1) * sizeof(int));
			memmove(&D[c].map[i], &D[c].map[i + 1],
				(D[c].np - i - 1) * sizeof(int));
			D[c].np--;
			ret = dmn_link_remove(ctx, D[p].h, D[c].h);
			if (ret) {
				memmove(&D[c].parents[i + 1], &D[c].parents[i],
					(D[c].np - i) * sizeof(int));
				memmove(&D[c].map[i + 1], &D[c].map[i],
					(D[c].np - i) * sizeof(int));
				D[c].parents[i] = (int)p;
				D[c].map[i] = map;
				D[c].np++;
			}
		} else {
			unsigned p = rn(c);
			snprintf(what, sizeof(what), "link %u > %u", p, c);
			bool linked = false;
			for (unsigned i = 0; i < D[c].np; i++)
				linked |= D[c].parents[i] == (int)p;
			if (!linked) {
				D[c].parents[D[c].np] = (int)p;
				D[c].map[D[c].np++] = 0;
			}
			ret = dmn_link_add(ctx, D[p].h, D[c].h);
			if (linked && ret == -EEXIST)
				ret = 0;
			else if (ret)
				D[c].np--;
		}
	}
	fail_pct = 0;
	check(ret, &before);
	if (ret && ret != -ERANGE && ret != -ENODEV &&
	    dmn_last_error(ctx) != ret)
		fail("%slast_error is not the call's error %d%u", "",
		     (unsigned)ret, 0);
}

static void run(uint64_t s, unsigned long n_ops)
{
	seed = s;
	rng = s * 0x9E3779B97F4A7C15ULL + 1;
	if (!rng)
		rng = 1;
	unsigned long done = 0;
	while (done < n_ops) {
		build();
		for (unsigned i = 0; i < 400 && done < n_ops; i++, done++) {
			op_no = done;
			one_op();
		}
		dmn_ctx_destroy(ctx);
	}
}

int main(int argc, char **argv)
{
	const char *ops_env = getenv("DOMINO_OPS");
	unsigned long n_ops = ops_env ? strtoul(ops_env, 0, 0) : 4000;
	const char *env = getenv("DOMINO_SEED");
	unsigned runs = 0;
	if (env) {
		run(strtoull(env, 0, 0), n_ops);
		runs++;
	} else {
		for (int i = 1; i < argc; i++, runs++)
			run(strtoull(argv[i], 0, 0), n_ops);
	}
	if (!env && getenv("DOMINO_RANDOM")) {
		uint64_t s = (uint64_t)time(0) ^ (uint64_t)clock();
		printf("random seed=%" PRIu64 "\n", s);
		fflush(stdout);
		run(s, n_ops);
	}
	if (!runs) {
		/* The fixed set ctest runs. */
		for (uint64_t s = 1; s <= 24; s++, runs++)
			run(s, n_ops);
	}
	printf("ok: %u seeds x %lu operations; %lu calls met 2+ failures, "
	       "%lu failed calls, %lu calls with safe failures\n",
	       runs, n_ops, stat_calls_with_2plus, stat_unsafe, stat_safe);
	return 0;
}
