/* SPDX-License-Identifier: MIT */
/*
 * Multi-threaded stress test: 4 threads vote and get/put their devices on
 * overlapping domain chains (shared parents) for a bounded number of
 * operations, while a checker thread takes snapshots through the
 * introspection API and checks each is self-consistent, and a watchdog
 * aborts if the whole run takes more than 60 s (a deadlock).
 *
 * Two kinds of snapshot: single dmn_domain_info() calls made concurrently
 * (each is atomic under the context lock), and full snapshots taken while
 * the workers are held out between calls by a test-level gate, so a whole
 * graph can be checked: every pstate is the max of its counted votes and
 * its on children's requirements, on/off matches usage, links say what the
 * children are. The same full check runs after the workers finish, and the
 * fake hardware must match the records.
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

#define N_THREADS 4
#define DEVS_PER_THREAD 3
#define OPS_PER_THREAD 100000
#define N_DOMS 9

/*
 *                 root (cb)
 *               /          \
 *          mid0 (cb)      mid1 (no cb)
 *         /   |   \      /    |     \
 *      leaf0 leaf1 leaf2 ... leaf2 is a child of both mids
 *                        leaf3 leaf4 (cb) leaf5
 */
static const char *names[N_DOMS] = {"root", "mid0", "mid1", "leaf0", "leaf1",
				    "leaf2", "leaf3", "leaf4", "leaf5"};
static const bool has_cb[N_DOMS] = {true, true, false, true, false,
				    true, false, true, false};
static const int parent_a[N_DOMS] = {-1, 0, 0, 1, 1, 1, 2, 2, 2};
static const int parent_b[N_DOMS] = {-1, -1, -1, -1, -1, 2, -1, -1, -1};

struct hw {
	bool on;
	uint32_t pstate;
	unsigned calls;
};
/* Written by callbacks under the context lock; read after the join. */
static struct hw hw[N_DOMS];
static dmn_domain_t dom[N_DOMS];
static struct dmn_ctx *ctx;

static pthread_rwlock_t gate = PTHREAD_RWLOCK_INITIALIZER;
static atomic_bool done;
static atomic_bool failed;
static atomic_ulong snapshots, full_snapshots;

static void fail(const char *what, const char *name)
{
	fprintf(stderr, "stress: %s (%s)\n", what, name ? name : "");
	atomic_store(&failed, true);
}

static int idx_of(void *user)
{
	return (int)((struct hw *)user - hw);
}

static int cb_on(void *user, dmn_domain_t d)
{
	(void)d;
	struct hw *h = user;
	int i = idx_of(user);
	if (h->on)
		fail("power_on while on", names[i]);
	if (parent_a[i] >= 0 && !hw[parent_a[i]].on)
		fail("power_on before parent", names[i]);
	if (parent_b[i] >= 0 && !hw[parent_b[i]].on)
		fail("power_on before parent", names[i]);
	h->on = true;
	h->calls++;
	return 0;
}

static int cb_off(void *user, dmn_domain_t d, int idle)
{
	(void)d;
	(void)idle;
	struct hw *h = user;
	int i = idx_of(user);
	if (!h->on)
		fail("power_off while off", names[i]);
	for (int c = 0; c < N_DOMS; c++)
		if ((parent_a[c] == i || parent_b[c] == i) && hw[c].on)
			fail("power_off before child", names[i]);
	h->on = false;
	h->calls++;
	return 0;
}

static int cb_pstate(void *user, dmn_domain_t d, uint32_t level)
{
	(void)d;
	struct hw *h = user;
	if (h->pstate == level)
		fail("set_performance_state to the same level",
		     names[idx_of(user)]);
	h->pstate = level;
	h->calls++;
	return 0;
}

static const struct dmn_domain_ops ops_full = {cb_on, cb_off, cb_pstate, 0};
static const struct dmn_domain_ops ops_power = {cb_on, cb_off, 0, 0};

struct worker {
	unsigned id;
	dmn_device_t dev[DEVS_PER_THREAD];
	dmn_attach_t att[DEVS_PER_THREAD][2];
	unsigned n_att[DEVS_PER_THREAD];
	unsigned usage[DEVS_PER_THREAD];
	uint64_t rng;
};

static unsigned rnd(struct worker *w, unsigned n)
{
	return stress_rnd(&w->rng, n);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	for (unsigned op = 0; op < OPS_PER_THREAD && !atomic_load(&failed);
	     op++) {
		unsigned d = rnd(w, DEVS_PER_THREAD);
		unsigned kind = rnd(w, 10);
		pthread_rwlock_rdlock(&gate);
		int err = 0;
		if (kind < 3 && w->usage[d] < 3) {
			err = dmn_device_get(ctx, w->dev[d]);
			w->usage[d]++;
		} else if (kind < 6 && w->usage[d]) {
			err = dmn_device_put(ctx, w->dev[d]);
			w->usage[d]--;
		} else if (kind < 9) {
			unsigned a = rnd(w, w->n_att[d]);
			uint32_t level = rnd(w, 4) ? rnd(w, 16) : 0;
			err = dmn_vote(ctx, w->att[d][a], level);
		} else {
			struct dmn_vote_change ch[2];
			for (unsigned a = 0; a < w->n_att[d]; a++) {
				ch[a].att = w->att[d][a];
				ch[a].level = rnd(w, 16);
			}
			err = dmn_vote_many(ctx, ch, w->n_att[d]);
		}
		pthread_rwlock_unlock(&gate);
		if (err) {
			fail("an operation failed", dmn_errno_name(err));
			break;
		}
	}
	/* Leave every device suspended for the final check of "all off". */
	pthread_rwlock_rdlock(&gate);
	for (unsigned d = 0; d < DEVS_PER_THREAD; d++)
		while (w->usage[d]--)
			if (dmn_device_put(ctx, w->dev[d]))
				fail("final put failed", 0);
	pthread_rwlock_unlock(&gate);
	return 0;
}

/* One domain, read atomically: checks that hold at any instant. */
static void check_one(int i)
{
	struct dmn_domain_info info;
	if (dmn_domain_info(ctx, dom[i], &info)) {
		fail("dmn_domain_info failed", names[i]);
		return;
	}
	bool used = info.active_devices || info.on_children;
	if (info.on != used)
		fail("on does not match usage", names[i]);
	if (info.target_pstate != info.pstate)
		fail("pstate differs from its target without a failure",
		     names[i]);
	if (!info.on && info.pstate)
		fail("an off domain holds a pstate", names[i]);
}

/* The whole graph, with the workers held between calls. */
static void check_full(bool final)
{
	uint32_t max[N_DOMS] = {0};
	unsigned active[N_DOMS] = {0};
	dmn_device_t dev = 0;
	while (!dmn_device_next(ctx, dev, &dev)) {
		struct dmn_device_info di;
		if (dmn_device_info(ctx, dev, &di))
			fail("dmn_device_info failed", 0);
		for (unsigned a = 0; a < di.n_attachments; a++) {
			dmn_attach_t att;
			struct dmn_attach_info ai;
			if (dmn_device_attachment(ctx, dev, a, &att) ||
			    dmn_attach_info(ctx, att, &ai))
				fail("attachment introspection failed", 0);
			if (ai.counts != (di.usage > 0))
				fail("a vote counts while suspended", di.name);
			for (int i = 0; i < N_DOMS; i++) {
				if (dom[i] != ai.domain || !ai.counts)
					continue;
				active[i]++;
				if (ai.vote > max[i])
					max[i] = ai.vote;
			}
		}
	}
	struct dmn_domain_info info[N_DOMS];
	for (int i = 0; i < N_DOMS; i++)
		if (dmn_domain_info(ctx, dom[i], &info[i]))
			fail("dmn_domain_info failed", names[i]);
	unsigned on_children[N_DOMS] = {0};
	for (int c = 0; c < N_DOMS; c++) {
		const int parents[2] = {parent_a[c], parent_b[c]};
		for (int k = 0; k < 2; k++) {
			int p = parents[k];
			if (p < 0)
				continue;
			uint32_t req;
			int child_on;
			if (dmn_link_info(ctx, dom[p], dom[c], &req, &child_on))
				fail("dmn_link_info failed", names[c]);
			if (child_on != info[c].on ||
			    req != (info[c].on ? info[c].pstate : 0))
				fail("a link does not say what its child is",
				     names[c]);
			if (info[c].on) {
				on_children[p]++;
				if (info[c].pstate > max[p])
					max[p] = info[c].pstate;
			}
		}
	}
	for (int i = 0; i < N_DOMS; i++) {
		if (info[i].pstate != max[i])
			fail("pstate is not the max of votes and children",
			     names[i]);
		if (info[i].active_devices != active[i] ||
		    info[i].on_children != on_children[i])
			fail("usage counts differ", names[i]);
		if (info[i].on != (active[i] || on_children[i]))
			fail("on/off does not match usage", names[i]);
		if (final) {
			if (hw[i].on != info[i].on ||
			    (has_cb[i] && hw[i].pstate != info[i].pstate))
				fail("the hardware differs from the records",
				     names[i]);
			if (info[i].on || info[i].pstate)
				fail("not off at 0 after every put", names[i]);
		}
	}
}

static void *checker_main(void *arg)
{
	(void)arg;
	unsigned n = 0;
	while (!atomic_load(&done) && !atomic_load(&failed)) {
		check_one((int)(n % N_DOMS));
		atomic_fetch_add(&snapshots, 1);
		if (++n % 64 == 0) {
			pthread_rwlock_wrlock(&gate);
			check_full(false);
			pthread_rwlock_unlock(&gate);
			atomic_fetch_add(&full_snapshots, 1);
		}
	}
	return 0;
}

int main(void)
{
	stress_watchdog_start("stress");
	if (dmn_ctx_create(0, &ctx)) {
		fprintf(stderr, "stress: no context\n");
		return 1;
	}
	for (int i = 0; i < N_DOMS; i++) {
		struct dmn_domain_desc desc = {names[i],
					      has_cb[i] ? &ops_full : &ops_power,
					      &hw[i], 0};
		if (dmn_domain_create(ctx, &desc, &dom[i]))
			return 1;
		if (parent_a[i] >= 0 && dmn_link_add(ctx, dom[parent_a[i]], dom[i]))
			return 1;
		if (parent_b[i] >= 0 && dmn_link_add(ctx, dom[parent_b[i]], dom[i]))
			return 1;
	}
	/* Each thread's devices sit on overlapping leaves and mids. */
	static struct worker workers[N_THREADS];
	for (unsigned t = 0; t < N_THREADS; t++) {
		struct worker *w = &workers[t];
		w->id = t;
		w->rng = 0x9E3779B97F4A7C15ULL * (t + 1) ^ stress_seed();
		for (unsigned d = 0; d < DEVS_PER_THREAD; d++) {
			char name[32];
			snprintf(name, sizeof(name), "t%u.dev%u", t, d);
			if (dmn_device_create(ctx, name, &w->dev[d]))
				return 1;
			int first = 3 + (int)((t * DEVS_PER_THREAD + d) % 6);
			int second = (t + d) % 3 == 0 ? 1 + (int)(t % 2) : -1;
			const int doms[2] = {first, second};
			for (int k = 0; k < 2; k++) {
				if (doms[k] < 0)
					continue;
				if (dmn_attach(ctx, w->dev[d], dom[doms[k]],
					      &w->att[d][w->n_att[d]++]))
					return 1;
			}
		}
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_t threads[N_THREADS], checker;
	pthread_create(&checker, 0, checker_main, 0);
	for (unsigned t = 0; t < N_THREADS; t++)
		pthread_create(&threads[t], 0, worker_main, &workers[t]);
	for (unsigned t = 0; t < N_THREADS; t++)
		pthread_join(threads[t], 0);
	atomic_store(&done, true);
	pthread_join(checker, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	check_full(true);
	unsigned long calls = 0;
	for (int i = 0; i < N_DOMS; i++)
		calls += hw[i].calls;
	dmn_ctx_destroy(ctx);
	stress_watchdog_stop();
	double secs = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("stress: %u threads x %u ops in %.2f s, %lu callbacks, %lu "
	       "snapshots (%lu full): %s\n",
	       N_THREADS, OPS_PER_THREAD, secs, calls,
	       atomic_load(&snapshots), atomic_load(&full_snapshots),
	       atomic_load(&failed) ? "FAILED" : "ok");
	return atomic_load(&failed) ? 1 : 0;
}
