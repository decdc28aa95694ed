/* SPDX-License-Identifier: MIT */
/*
 * 8 threads on 4 disjoint trees under one shared root
 * (docs/decisions/locking.md): two
 * threads per tree get/put their devices and vote on the tree's leaves and
 * top, and one device of each thread votes on the shared root directly.
 * Each tree also has a rail without parents that its two threads vote on:
 * with the default lock those votes, the nested gets and puts and the
 * votes on the root take the striped fast path (one stripe and the
 * domain's own lock) while the other threads' calls take the exclusive
 * path, so both run at once. A callback checks the order the hardware sees
 * (a parent on before its child, a child off before its parent; a pstate
 * set only while the domain's lock is held by no other callback); at the
 * end, with every device suspended, each domain must be off at level 0 and
 * the fake hardware must say so too. Meant for TSan (label tsan) as much
 * as for the plain build; a watchdog aborts after 60 s (a deadlock).
 * Each thread also owns a solo rail: one device, one attachment, no child,
 * which the fast path changes under the attachment's stripe alone (no
 * domain lock); the tree's other thread votes on that attachment too, so
 * two threads' votes on it meet, and the owner's get/put go exclusive.
 */
#include <domino/domain.h>

#include "test_seed.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_TREES 4
#define THREADS_PER_TREE 2
#define N_THREADS (N_TREES * THREADS_PER_TREE)
#define LEAVES 2
/* root, then per tree: its top and LEAVES leaves; then one rail per tree,
 * then one solo rail per thread */
#define N_TREE_DOMS (1 + N_TREES * (1 + LEAVES))
#define N_DOMS (N_TREE_DOMS + N_TREES + N_THREADS)
/* per thread: each leaf, the top, the root, the rail, the solo rail */
#define N_DEVS (LEAVES + 4)
#define SOLO (LEAVES + 3)
#define OPS 100000

struct hw {
	int parent; /* index, -1 for the root and the rails */
	bool on;
	uint32_t pstate;
	unsigned long calls;
	atomic_int inside; /* callbacks running on this domain now */
};
/* Written by callbacks under the context lock, or the domain's own lock
 * on the fast path; read after the join. */
static struct hw hw[N_DOMS];
static dmn_domain_t dom[N_DOMS];
static struct dmn_ctx *ctx;
static atomic_bool failed;

static void fail(const char *what, int i)
{
	fprintf(stderr, "stress_trees: %s (domain %d)\n", what, i);
	atomic_store(&failed, true);
}

static int cb_on(void *user, dmn_domain_t d)
{
	(void)d;
	struct hw *h = user;
	int i = (int)(h - hw);
	if (h->on)
		fail("power_on while on", i);
	if (h->parent >= 0 && !hw[h->parent].on)
		fail("power_on before its parent", i);
	h->on = true;
	h->calls++;
	return 0;
}

static int cb_off(void *user, dmn_domain_t d, int idle)
{
	(void)d;
	(void)idle;
	struct hw *h = user;
	int i = (int)(h - hw);
	if (!h->on)
		fail("power_off while off", i);
	for (int c = 0; c < N_DOMS; c++)
		if (hw[c].parent == i && hw[c].on)
			fail("power_off before a child", i);
	h->on = false;
	h->calls++;
	return 0;
}

static int cb_pstate(void *user, dmn_domain_t d, uint32_t level)
{
	(void)d;
	struct hw *h = user;
	if (atomic_fetch_add(&h->inside, 1))
		fail("two pstate callbacks at once", (int)(h - hw));
	h->pstate = level;
	h->calls++;
	atomic_fetch_sub(&h->inside, 1);
	return 0;
}

static const struct dmn_domain_ops ops = {cb_on, cb_off, cb_pstate, 0};

struct worker {
	pthread_t thread;
	dmn_device_t dev[N_DEVS];
	dmn_attach_t att[N_DEVS];
	unsigned usage[N_DEVS];
	dmn_attach_t peer_solo; /* the other thread's solo attachment */
	uint64_t rng;
	unsigned long ops;
};

static unsigned rnd(struct worker *w, unsigned n)
{
	return stress_rnd(&w->rng, n);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	for (unsigned op = 0; op < OPS && !atomic_load(&failed); op++) {
		unsigned d = rnd(w, N_DEVS);
		unsigned kind = rnd(w, 10);
		int err = 0;
		if (kind < 3 && w->usage[d] < 2) {
			err = dmn_device_get(ctx, w->dev[d]);
			w->usage[d]++;
		} else if (kind < 6 && w->usage[d]) {
			err = dmn_device_put(ctx, w->dev[d]);
			w->usage[d]--;
		} else {
			dmn_attach_t att = d == SOLO && rnd(w, 2) ? w->peer_solo
								 : w->att[d];
			err = dmn_vote(ctx, att, rnd(w, 8));
		}
		if (err)
			fail(dmn_errno_name(err), -1);
		w->ops++;
	}
	for (unsigned d = 0; d < N_DEVS; d++)
		while (w->usage[d]--)
			if (dmn_device_put(ctx, w->dev[d]))
				fail("final put failed", -1);
	return 0;
}

static void must(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "stress_trees: setup: %s: %s\n", what,
			dmn_errno_name(err));
		exit(1);
	}
}

int main(void)
{
	uint64_t seed = stress_seed();
	must(dmn_ctx_create(NULL, &ctx), "context");
	for (int i = 0; i < N_DOMS; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%d", i);
		/* 0 the root; 1 + t * (1 + LEAVES) tree t's top; then leaves */
		int pos = i ? (i - 1) % (1 + LEAVES) : -1;
		hw[i].parent = !i || i >= N_TREE_DOMS ? -1
			       : pos == 0 ? 0 : i - pos;
		struct dmn_domain_desc desc = {name, &ops, &hw[i], 0};
		must(dmn_domain_create(ctx, &desc, &dom[i]), "domain");
		if (hw[i].parent >= 0)
			must(dmn_link_add(ctx, dom[hw[i].parent], dom[i]), "link");
	}
	struct worker w[N_THREADS];
	memset(w, 0, sizeof(w));
	for (unsigned t = 0; t < N_THREADS; t++) {
		unsigned tree = t / THREADS_PER_TREE;
		int top = 1 + (int)tree * (1 + LEAVES);
		w[t].rng = seed * 2654435761u + t + 1;
		for (unsigned d = 0; d < N_DEVS; d++) {
			char name[24];
			snprintf(name, sizeof(name), "t%u.%u", t, d);
			int target = d < LEAVES ? top + 1 + (int)d
				     : d == LEAVES ? top
				     : d == LEAVES + 1 ? 0
				     : d == LEAVES + 2 ? N_TREE_DOMS + (int)tree
						       : N_TREE_DOMS + N_TREES + (int)t;
			must(dmn_device_create(ctx, name, &w[t].dev[d]), "device");
			must(dmn_attach(ctx, w[t].dev[d], dom[target],
				       &w[t].att[d]), "attach");
		}
	}
	for (unsigned t = 0; t < N_THREADS; t++)
		w[t].peer_solo = w[t ^ 1].att[SOLO];
	stress_watchdog_start("stress_trees");
	for (unsigned t = 0; t < N_THREADS; t++)
		pthread_create(&w[t].thread, 0, worker_main, &w[t]);
	unsigned long total = 0;
	for (unsigned t = 0; t < N_THREADS; t++) {
		pthread_join(w[t].thread, 0);
		total += w[t].ops;
	}
	stress_watchdog_stop();
	unsigned long calls = 0;
	for (int i = 0; i < N_DOMS; i++) {
		calls += hw[i].calls;
		struct dmn_domain_info info;
		must(dmn_domain_info(ctx, dom[i], &info), "info");
		if (info.on || info.pstate || info.active_devices ||
		    info.on_children)
			fail("not off at 0 after every put", i);
		if (hw[i].on || hw[i].pstate)
			fail("the hardware is not off at 0", i);
	}
	if (total != (unsigned long)N_THREADS * OPS)
		fail("a worker stopped early", -1);
	/* The shared root and every tree were really switched, many times. */
	if (calls < (unsigned long)N_THREADS * OPS / 10 || hw[0].calls < 100)
		fail("too few callbacks for a stress", -1);
	for (int i = N_TREE_DOMS; i < N_DOMS; i++)
		if (hw[i].calls < 100)
			fail("a rail was hardly switched", i);
	dmn_ctx_destroy(ctx);
	if (atomic_load(&failed))
		return 1;
	printf("stress_trees: %lu operations on %d threads, %lu callbacks\n",
	       total, N_THREADS, calls);
	return 0;
}
