/* SPDX-License-Identifier: MIT */
/*
 * Multi-threaded stress over a changing graph: 4 worker threads, each with
 * 3 devices on overlapping domains, get/put their devices, vote (one and
 * several at once), set QoS latencies and next wakeups, advance the
 * simulated clock, and add and remove subdomain links between shared
 * domains (some of which would close a cycle and must fail with -ELOOP),
 * for DURATION_MS of wall time.
 *
 * A checker thread meanwhile reads single domains (dmn_domain_info is
 * atomic) and, every 32 reads, holds the workers out between calls (a
 * test-level gate) to check the whole graph against a recomputation from
 * scratch through the introspection API:
 *  - every link says what its child is (child on, child's pstate: links
 *    here map 1:1 and have no floor);
 *  - every pstate is the max of its counted votes and on children's
 *    requirements, and equals the target (callbacks never fail here);
 *  - usage counts match the attachments and links; on iff used;
 *  - every domain's QoS and next wakeup equal the tightest latency and
 *    earliest wakeup at or after now of the devices attached to it or to
 *    any domain below it, walked over the current links.
 * The same check runs after the workers stop, with all devices suspended:
 * everything must be off at 0, and the fake hardware must match.
 *
 * A watchdog fails the test with a message naming what each worker was
 * doing if no operation completes for WATCHDOG_S seconds (a deadlock)
 * instead of letting it hang.
 */
#define _GNU_SOURCE /* writer-preferring rwlock where glibc has it */
#include <domino/domain.h>

#include "test_seed.h"
#include <domino/idle.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N_THREADS 4
#define DEVS_PER_THREAD 3
#define DURATION_MS 1500
#define WATCHDOG_S 20
#define N_DOMS 10
#define MAX_DEVS (N_THREADS * DEVS_PER_THREAD)

/*
 * Permanent links (every domain without a callback keeps a parent, so no
 * vote ever meets -ENODEV):
 *
 *                       root (cb)
 *               /           |           \
 *          mid0 (cb)    mid1 (no cb)    mid2 (cb)
 *          /  \    \    /    |    \      /    \
 *      leaf0  leaf1 leaf2  leaf3   leaf5    leaf4
 *      (cb)   (-)   (cb)   (-)      (-)     (cb)
 *                  leaf2 under mid0 and mid1, leaf5 under mid1 and mid2
 */
enum { ROOT, MID0, MID1, MID2, LEAF0, LEAF1, LEAF2, LEAF3, LEAF4, LEAF5 };
static const char *names[N_DOMS] = {"root",  "mid0",  "mid1",  "mid2",
				    "leaf0", "leaf1", "leaf2", "leaf3",
				    "leaf4", "leaf5"};
static const bool has_cb[N_DOMS] = {true,  true, false, true, true,
				    false, true, false, true, false};
static const int base_links[][2] = {
    {ROOT, MID0},  {ROOT, MID1},  {ROOT, MID2},	 {MID0, LEAF0},
    {MID0, LEAF1}, {MID0, LEAF2}, {MID1, LEAF2}, {MID1, LEAF3},
    {MID1, LEAF5}, {MID2, LEAF4}, {MID2, LEAF5},
};
#define N_BASE (sizeof(base_links) / sizeof(base_links[0]))
/* Links the workers add and remove (parent, child). Some pairs are each
 * other's reverse, and some point up the permanent tree: -ELOOP. */
static const int dyn_links[][2] = {
    {MID0, MID2},  {MID2, MID0},   {MID1, LEAF0},  {MID2, LEAF1},
    {ROOT, LEAF4}, {LEAF0, LEAF4}, {LEAF4, LEAF0}, {LEAF3, MID1},
    {MID0, LEAF3}, {LEAF2, LEAF1}, {LEAF1, LEAF2}, {MID2, MID1},
};
#define N_DYN (sizeof(dyn_links) / sizeof(dyn_links[0]))

struct hw {
	bool on;
	uint32_t pstate;
	unsigned long calls;
};
/* Written by callbacks under the context lock; read after the join. */
static struct hw hw[N_DOMS];
static dmn_domain_t dom[N_DOMS];
static struct dmn_ctx *ctx;
static dmn_device_t all_devs[MAX_DEVS];

static pthread_rwlock_t gate;
static atomic_bool stop, failed;
static atomic_ulong ops_done, snapshots, full_snapshots;
static atomic_ulong n_link_added, n_link_removed, n_eloop, n_eexist, n_enoent,
    n_qos, n_wakeup;
static _Atomic uint64_t sim_now = 1000000;

static uint64_t now_fn(void *user)
{
	(void)user;
	return atomic_load(&sim_now);
}

static void fail(const char *what, const char *name)
{
	if (!atomic_exchange(&failed, true))
		fprintf(stderr, "stress_graph: %s (%s)\n", what,
			name ? name : "");
}

static int idx_of(void *user)
{
	return (int)((struct hw *)user - hw);
}

/* Order checks over the permanent links only: the dynamic ones change
 * under the lock this runs with, and cannot be read back from here. */
static int cb_on(void *user, dmn_domain_t d)
{
	(void)d;
	int i = idx_of(user);
	if (hw[i].on)
		fail("power_on while on", names[i]);
	for (unsigned l = 0; l < N_BASE; l++)
		if (base_links[l][1] == i && !hw[base_links[l][0]].on)
			fail("power_on before a parent", names[i]);
	hw[i].on = true;
	hw[i].calls++;
	return 0;
}

static int cb_off(void *user, dmn_domain_t d, int idle)
{
	(void)d;
	(void)idle;
	int i = idx_of(user);
	if (!hw[i].on)
		fail("power_off while off", names[i]);
	for (unsigned l = 0; l < N_BASE; l++)
		if (base_links[l][0] == i && hw[base_links[l][1]].on)
			fail("power_off before a child", names[i]);
	hw[i].on = false;
	hw[i].calls++;
	return 0;
}

static int cb_pstate(void *user, dmn_domain_t d, uint32_t level)
{
	(void)d;
	int i = idx_of(user);
	if (hw[i].pstate == level)
		fail("set_performance_state to the same level", names[i]);
	hw[i].pstate = level;
	hw[i].calls++;
	return 0;
}

static const struct dmn_domain_ops ops_full = {cb_on, cb_off, cb_pstate, 0};
static const struct dmn_domain_ops ops_power = {cb_on, cb_off, 0, 0};

enum op_kind {
	OP_IDLE,
	OP_GET,
	OP_PUT,
	OP_VOTE,
	OP_VOTE_MANY,
	OP_QOS,
	OP_WAKEUP,
	OP_LINK_ADD,
	OP_LINK_REMOVE,
	OP_KINDS
};
static const char *op_names[OP_KINDS] = {
    "between calls", "dmn_device_get",	  "dmn_device_put",	  "dmn_vote",
    "dmn_vote_many",  "dmn_device_set_qos", "dmn_device_set_wakeup", "dmn_link_add",
    "dmn_link_remove"};

struct worker {
	unsigned id;
	dmn_device_t dev[DEVS_PER_THREAD];
	dmn_attach_t att[DEVS_PER_THREAD][2];
	unsigned n_att[DEVS_PER_THREAD];
	unsigned usage[DEVS_PER_THREAD];
	uint64_t rng;
	_Atomic int doing; /* enum op_kind, for the watchdog */
	unsigned long ops;
};

static unsigned rnd(struct worker *w, unsigned n)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return (unsigned)(w->rng % n);
}

static int one_op(struct worker *w)
{
	unsigned d = rnd(w, DEVS_PER_THREAD);
	unsigned kind = rnd(w, 20);
	int err;
	if (kind < 3 && w->usage[d] < 3) {
		atomic_store(&w->doing, OP_GET);
		err = dmn_device_get(ctx, w->dev[d]);
		w->usage[d]++;
	} else if (kind < 6 && w->usage[d]) {
		atomic_store(&w->doing, OP_PUT);
		err = dmn_device_put(ctx, w->dev[d]);
		w->usage[d]--;
	} else if (kind < 10) {
		atomic_store(&w->doing, OP_VOTE);
		uint32_t level = rnd(w, 4) ? rnd(w, 16) : 0;
		err = dmn_vote(ctx, w->att[d][rnd(w, w->n_att[d])], level);
	} else if (kind < 11) {
		atomic_store(&w->doing, OP_VOTE_MANY);
		struct dmn_vote_change ch[2];
		for (unsigned a = 0; a < w->n_att[d]; a++) {
			ch[a].att = w->att[d][a];
			ch[a].level = rnd(w, 16);
		}
		err = dmn_vote_many(ctx, ch, w->n_att[d]);
	} else if (kind < 13) {
		atomic_store(&w->doing, OP_QOS);
		uint32_t lat = rnd(w, 4) ? rnd(w, 10000) : DMN_QOS_NONE;
		err = dmn_device_set_qos(ctx, w->dev[d], lat);
		atomic_fetch_add(&n_qos, 1);
	} else if (kind < 15) {
		atomic_store(&w->doing, OP_WAKEUP);
		uint64_t now = atomic_load(&sim_now);
		uint64_t at =
		    rnd(w, 5) ? now - 5000 + rnd(w, 50000) : DMN_WAKEUP_NONE;
		err = dmn_device_set_wakeup(ctx, w->dev[d], at);
		atomic_fetch_add(&n_wakeup, 1);
		atomic_fetch_add(&sim_now, rnd(w, 3000));
	} else {
		const int *l = dyn_links[rnd(w, N_DYN)];
		if (rnd(w, 2)) {
			atomic_store(&w->doing, OP_LINK_ADD);
			err = dmn_link_add(ctx, dom[l[0]], dom[l[1]]);
			if (!err)
				atomic_fetch_add(&n_link_added, 1);
			else if (err == -ELOOP)
				atomic_fetch_add(&n_eloop, 1);
			else if (err == -EEXIST)
				atomic_fetch_add(&n_eexist, 1);
			if (err == -ELOOP || err == -EEXIST)
				err = 0;
		} else {
			atomic_store(&w->doing, OP_LINK_REMOVE);
			err = dmn_link_remove(ctx, dom[l[0]], dom[l[1]]);
			if (!err)
				atomic_fetch_add(&n_link_removed, 1);
			else if (err == -ENOENT)
				atomic_fetch_add(&n_enoent, 1), err = 0;
		}
	}
	atomic_store(&w->doing, OP_IDLE);
	return err;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	while (!atomic_load(&stop) && !atomic_load(&failed)) {
		pthread_rwlock_rdlock(&gate);
		int err = one_op(w);
		pthread_rwlock_unlock(&gate);
		w->ops++;
		atomic_fetch_add(&ops_done, 1);
		/* The context mutex is not fair: let the checker in. */
		if (w->ops % 64 == 0)
			sched_yield();
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

/* One domain, read atomically: what holds at any instant. */
static void check_one(int i)
{
	struct dmn_domain_info info;
	if (dmn_domain_info(ctx, dom[i], &info)) {
		fail("dmn_domain_info failed", names[i]);
		return;
	}
	if (info.on != (info.active_devices || info.on_children))
		fail("on does not match usage", names[i]);
	if (info.target_pstate != info.pstate)
		fail("pstate differs from its target without a failure",
		     names[i]);
	if (!info.on && info.pstate)
		fail("an off domain holds a pstate", names[i]);
}

static int index_of(dmn_domain_t h)
{
	for (int i = 0; i < N_DOMS; i++)
		if (dom[i] == h)
			return i;
	return -1;
}

/* The whole graph, recomputed from scratch, with the workers held out. */
static void check_full(bool final)
{
	struct dmn_domain_info info[N_DOMS];
	bool child[N_DOMS][N_DOMS] = {{false}}; /* [parent][child] */
	for (int i = 0; i < N_DOMS; i++) {
		if (dmn_domain_info(ctx, dom[i], &info[i])) {
			fail("dmn_domain_info failed", names[i]);
			return;
		}
		for (unsigned k = 0; k < info[i].n_children; k++) {
			dmn_domain_t c;
			int ci;
			if (dmn_domain_child(ctx, dom[i], k, &c) ||
			    (ci = index_of(c)) < 0) {
				fail("dmn_domain_child failed", names[i]);
				return;
			}
			child[i][ci] = true;
		}
	}
	/* Parents and children lists agree. */
	for (int i = 0; i < N_DOMS; i++) {
		unsigned n = 0;
		for (int p = 0; p < N_DOMS; p++)
			n += child[p][i];
		if (n != info[i].n_parents)
			fail("parent and child lists disagree", names[i]);
	}
	uint32_t max[N_DOMS] = {0};
	unsigned active[N_DOMS] = {0}, on_children[N_DOMS] = {0};
	/* Per domain, the devices attached to it directly. */
	bool attached[N_DOMS][MAX_DEVS] = {{false}};
	uint32_t lat[MAX_DEVS];
	uint64_t wake[MAX_DEVS];
	for (unsigned v = 0; v < MAX_DEVS; v++) {
		struct dmn_device_info di;
		if (dmn_device_info(ctx, all_devs[v], &di) ||
		    dmn_device_constraints(ctx, all_devs[v], &lat[v],
					  &wake[v])) {
			fail("device introspection failed", 0);
			return;
		}
		for (unsigned a = 0; a < di.n_attachments; a++) {
			dmn_attach_t att;
			struct dmn_attach_info ai;
			if (dmn_device_attachment(ctx, all_devs[v], a, &att) ||
			    dmn_attach_info(ctx, att, &ai)) {
				fail("attachment introspection failed", 0);
				return;
			}
			if (ai.counts != (di.usage > 0))
				fail("a vote counts while suspended", di.name);
			int i = index_of(ai.domain);
			attached[i][v] = true;
			if (!ai.counts)
				continue;
			active[i]++;
			if (ai.vote > max[i])
				max[i] = ai.vote;
		}
	}
	for (int p = 0; p < N_DOMS; p++)
		for (int c = 0; c < N_DOMS; c++) {
			if (!child[p][c])
				continue;
			uint32_t req;
			int child_on;
			if (dmn_link_info(ctx, dom[p], dom[c], &req,
					 &child_on)) {
				fail("dmn_link_info failed", names[c]);
				continue;
			}
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
	uint64_t now = atomic_load(&sim_now);
	for (int i = 0; i < N_DOMS; i++) {
		if (info[i].pstate != max[i])
			fail("pstate is not the max of votes and children",
			     names[i]);
		if (info[i].active_devices != active[i] ||
		    info[i].on_children != on_children[i])
			fail("usage counts differ", names[i]);
		if (info[i].on != (active[i] || on_children[i]))
			fail("on/off does not match usage", names[i]);
		/* Constraints: every device attached at or below i. */
		bool below[N_DOMS] = {false};
		int stack[N_DOMS], sp = 0;
		below[i] = true;
		stack[sp++] = i;
		while (sp) {
			int d = stack[--sp];
			for (int c = 0; c < N_DOMS; c++)
				if (child[d][c] && !below[c]) {
					below[c] = true;
					stack[sp++] = c;
				}
		}
		uint64_t want_qos = UINT64_MAX, want_wake = UINT64_MAX;
		for (int d = 0; d < N_DOMS; d++) {
			if (!below[d])
				continue;
			for (unsigned v = 0; v < MAX_DEVS; v++) {
				if (!attached[d][v])
					continue;
				if (lat[v] != DMN_QOS_NONE &&
				    (uint64_t)lat[v] * 1000u < want_qos)
					want_qos = (uint64_t)lat[v] * 1000u;
				if (wake[v] != DMN_WAKEUP_NONE &&
				    wake[v] >= now && wake[v] < want_wake)
					want_wake = wake[v];
			}
		}
		uint64_t qos, next;
		if (dmn_domain_constraints(ctx, dom[i], &qos, &next))
			fail("dmn_domain_constraints failed", names[i]);
		else if (qos != want_qos || next != want_wake)
			fail("constraints differ from a recomputation over the "
			     "devices below",
			     names[i]);
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
	while (!atomic_load(&stop) && !atomic_load(&failed)) {
		check_one((int)(n % N_DOMS));
		atomic_fetch_add(&snapshots, 1);
		if (++n % 32 == 0) {
			pthread_rwlock_wrlock(&gate);
			check_full(false);
			pthread_rwlock_unlock(&gate);
			atomic_fetch_add(&full_snapshots, 1);
		}
		/* Leave the workers most of the time. */
		struct timespec pause = {0, 20 * 1000};
		nanosleep(&pause, 0);
	}
	return 0;
}

static struct worker workers[N_THREADS];
static atomic_bool wd_stop;

/* No operation completing for WATCHDOG_S seconds is a deadlock: say what
 * every worker was in, and fail instead of hanging. */
static void *watchdog_main(void *arg)
{
	(void)arg;
	unsigned long last = (unsigned long)-1;
	unsigned still = 0;
	while (!atomic_load(&wd_stop)) {
		struct timespec tick = {0, 100 * 1000 * 1000};
		nanosleep(&tick, 0);
		unsigned long now = atomic_load(&ops_done);
		if (now != last) {
			last = now;
			still = 0;
			continue;
		}
		if (++still < WATCHDOG_S * 10)
			continue;
		fprintf(stderr,
			"stress_graph: no operation completed for %d s: "
			"deadlock\n",
			WATCHDOG_S);
		for (unsigned t = 0; t < N_THREADS; t++)
			fprintf(stderr, "  worker %u: in %s after %lu ops\n", t,
				op_names[atomic_load(&workers[t].doing)],
				workers[t].ops);
		fflush(stderr);
		_exit(1);
	}
	return 0;
}

static int setup(void)
{
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.now = now_fn;
	if (dmn_ctx_create(&cfg, &ctx))
		return -1;
	for (int i = 0; i < N_DOMS; i++) {
		struct dmn_domain_desc desc = {
		    names[i], has_cb[i] ? &ops_full : &ops_power, &hw[i], 0};
		if (dmn_domain_create(ctx, &desc, &dom[i]))
			return -1;
	}
	for (unsigned l = 0; l < N_BASE; l++)
		if (dmn_link_add(ctx, dom[base_links[l][0]],
				dom[base_links[l][1]]))
			return -1;
	/* Each thread's devices: one leaf each, some also on a mid. */
	for (unsigned t = 0; t < N_THREADS; t++) {
		struct worker *w = &workers[t];
		w->id = t;
		w->rng = 0x9E3779B97F4A7C15ULL * (t + 1) ^ stress_seed();
		for (unsigned d = 0; d < DEVS_PER_THREAD; d++) {
			char name[32];
			snprintf(name, sizeof(name), "t%u.dev%u", t, d);
			if (dmn_device_create(ctx, name, &w->dev[d]))
				return -1;
			all_devs[t * DEVS_PER_THREAD + d] = w->dev[d];
			int first =
			    LEAF0 + (int)((t * DEVS_PER_THREAD + d) % 6);
			int second =
			    (t + d) % 3 == 0 ? MID0 + (int)(t % 3) : -1;
			const int doms[2] = {first, second};
			for (int k = 0; k < 2; k++) {
				if (doms[k] < 0)
					continue;
				if (dmn_attach(ctx, w->dev[d], dom[doms[k]],
					      &w->att[d][w->n_att[d]++]))
					return -1;
			}
		}
	}
	return 0;
}

int main(void)
{
	pthread_rwlockattr_t attr;
	pthread_rwlockattr_init(&attr);
#ifdef PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP
	/* Else four readers in turn could keep the checker out for good. */
	pthread_rwlockattr_setkind_np(
	    &attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
	pthread_rwlock_init(&gate, &attr);
	pthread_rwlockattr_destroy(&attr);
	if (setup()) {
		fprintf(stderr, "stress_graph: setup failed\n");
		return 1;
	}
	pthread_t watchdog, checker, threads[N_THREADS];
	pthread_create(&watchdog, 0, watchdog_main, 0);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&checker, 0, checker_main, 0);
	for (unsigned t = 0; t < N_THREADS; t++)
		pthread_create(&threads[t], 0, worker_main, &workers[t]);
	struct timespec run = {DURATION_MS / 1000,
			       (DURATION_MS % 1000) * 1000L * 1000L};
	nanosleep(&run, 0);
	atomic_store(&stop, true);
	for (unsigned t = 0; t < N_THREADS; t++)
		pthread_join(threads[t], 0);
	pthread_join(checker, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	check_full(true);
	unsigned long calls = 0;
	for (int i = 0; i < N_DOMS; i++)
		calls += hw[i].calls;
	atomic_store(&wd_stop, true);
	pthread_join(watchdog, 0);
	dmn_ctx_destroy(ctx);
	pthread_rwlock_destroy(&gate);
	if (!atomic_load(&full_snapshots))
		fail("the checker never got a full snapshot", 0);
	double secs = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("stress_graph: %u threads, %lu ops in %.2f s (%lu link adds, "
	       "%lu removes, %lu ELOOP, %lu EEXIST, %lu ENOENT, %lu qos, %lu "
	       "wakeups), %lu callbacks, %lu snapshots (%lu full): %s\n",
	       N_THREADS, atomic_load(&ops_done), secs,
	       atomic_load(&n_link_added), atomic_load(&n_link_removed),
	       atomic_load(&n_eloop), atomic_load(&n_eexist),
	       atomic_load(&n_enoent), atomic_load(&n_qos),
	       atomic_load(&n_wakeup), calls, atomic_load(&snapshots),
	       atomic_load(&full_snapshots),
	       atomic_load(&failed) ? "FAILED" : "ok");
	return atomic_load(&failed) ? 1 : 0;
}
