/* SPDX-License-Identifier: MIT */
/*
 * domino-bench: measured side by side in one run, printed as ratios, because
 * these machines are noisy. Prints `NAME: VALUE UNIT` lines, then a summary.
 *
 *   domino-bench [--quick] [--boards DIR]
 */
#define _GNU_SOURCE /* RUSAGE_THREAD: the thread figures' clean batches */
#include "bench_util.h"
#include "genpd_baseline.h"

#include <domino/domain.h>
#include <domino/idle.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static int quick;
/* --only WORD: run only the groups whose name holds WORD (pair, sweep, fall,
 * flatness, noop, propagation, fanin, link, threads, memory, extra), for
 * looking at one figure; bench/run runs them all. */
static const char *only;

static int want(const char *group)
{
	return !only || strstr(group, only);
}


static int noop_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return 0;
}

static const struct dmn_domain_ops noop_ops = {0, 0, noop_pstate, 0};

static int bl_noop(struct bl_domain *d, uint32_t level)
{
	(void)d;
	(void)level;
	return 0;
}

static void must(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "domino-bench: %s failed: %d\n", what, err);
		exit(1);
	}
}

/* ---- 1. the subjects: batches of whole calls -------------------------------- */

/* A voter toggling between two levels: one operation is the pair
 * vote(@hi) then vote(@lo); with @hi == @lo, one operation is one vote. */
struct domino_voter {
	struct dmn_ctx *ctx;
	dmn_attach_t att;
	uint32_t hi, lo;
};

static void domino_pairs(void *arg, unsigned calls)
{
	struct domino_voter *v = arg;
	for (unsigned i = 0; i < calls; i++) {
		dmn_vote(v->ctx, v->att, v->hi);
		dmn_vote(v->ctx, v->att, v->lo);
	}
}

static void domino_singles(void *arg, unsigned calls)
{
	struct domino_voter *v = arg;
	for (unsigned i = 0; i < calls; i++)
		dmn_vote(v->ctx, v->att, v->lo);
}

struct baseline_voter {
	struct bl_device *dev;
	uint32_t hi, lo;
};

static void baseline_pairs(void *arg, unsigned calls)
{
	struct baseline_voter *v = arg;
	for (unsigned i = 0; i < calls; i++) {
		bl_vote(v->dev, v->hi);
		bl_vote(v->dev, v->lo);
	}
}

static void lock_pairs(void *arg, unsigned calls)
{
	pthread_mutex_t *m = arg;
	for (unsigned i = 0; i < calls; i++) {
		pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
	}
}

/* One domain, @n voters at 10 (the first is returned in @v) and, with
 * @holder, one more at 30 that holds the max: then the toggling voter's
 * votes never raise the domain. */
static struct dmn_ctx *domino_domain(unsigned n, int holder,
				     struct domino_voter *v)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	dmn_domain_t dom;
	struct dmn_domain_desc desc = {"rail", &noop_ops, 0, 0};
	must(dmn_domain_create(ctx, &desc, &dom), "domain");
	v->ctx = ctx;
	for (unsigned i = 0; i < n + (holder != 0); i++) {
		char name[32];
		dmn_device_t dev;
		dmn_attach_t att;
		snprintf(name, sizeof(name), "dev%u", i);
		must(dmn_device_create(ctx, name, &dev), "device");
		must(dmn_attach(ctx, dev, dom, &att), "attach");
		must(dmn_device_get(ctx, dev), "get");
		must(dmn_vote(ctx, att, i < n ? 10 : 30), "vote");
		if (!i)
			v->att = att;
	}
	return ctx;
}

static void baseline_domain(struct bl_domain *d, unsigned n, int holder,
			    int nolock, struct baseline_voter *v)
{
	bl_domain_init(d, bl_noop);
	d->nolock = nolock;
	for (unsigned i = 0; i < n + (holder != 0); i++) {
		struct bl_device *dev = bl_attach(d);
		bl_vote(dev, i < n ? 10 : 30);
		if (!i)
			v->dev = dev;
	}
}

/* ---- 2. the figures ------------------------------------------------------------ */

struct method {
	unsigned rounds, batch; /* batch: the fewest operations in a sample */
	double resolution; /* ns */
};

static unsigned fewest_calls = UINT32_MAX; /* in any sample of the run */

/* bench_interleave, noting the fewest calls a sample held (@calls_per_op:
 * 2 for a pair). */
static void interleave(struct bench_subject *s, unsigned k,
		       const struct method *m, unsigned calls_per_op)
{
	unsigned ops = bench_interleave(s, k, m->rounds, m->batch);
	if (ops * calls_per_op < fewest_calls)
		fewest_calls = ops * calls_per_op;
}

/* Report a time (ns per operation) as NAME (median) and NAME_min; marks
 * both unreliable when within 5x of the timer's resolution. Returns 1 if
 * the median was marked. */
static int report_time(struct bench_table *t, const struct method *m,
		       const char *name, unsigned arg, const double *ns)
{
	char min_name[64];
	snprintf(min_name, sizeof(min_name), "%s_min", name);
	double med = bench_median_of(ns, m->rounds), lo = bench_min(ns, m->rounds);
	bench_result(t, name, arg, med, "ns");
	int bad = med < 5 * m->resolution;
	if (bad)
		bench_mark_unreliable(t);
	bench_result(t, min_name, arg, lo, "ns");
	if (lo < 5 * m->resolution)
		bench_mark_unreliable(t);
	return bad;
}

static void report_ratio(struct bench_table *t, const char *name,
			 unsigned arg, double value, int unreliable)
{
	bench_result(t, name, arg, value, "x");
	if (unreliable)
		bench_mark_unreliable(t);
}

/* A rise+fall pair by the voter that holds the max, against genpd's whole
 * call (mutex included) and its aggregation alone, all three interleaved.
 * @tag goes after "pair" in each figure's name ("_mt": measured once the
 * process has a second thread, see bench_pair_threaded). */
static void bench_pair(struct bench_table *t, const struct method *m,
		       unsigned n, const char *tag)
{
	char f_vote[64], f_genpd[64], f_agg[64], f_ratio[64], f_ratio_agg[64];
	snprintf(f_vote, sizeof(f_vote), "vote_pair%s_ns_n%%u", tag);
	snprintf(f_genpd, sizeof(f_genpd), "genpd_pair%s_ns_n%%u", tag);
	snprintf(f_agg, sizeof(f_agg), "genpd_agg_pair%s_ns_n%%u", tag);
	snprintf(f_ratio, sizeof(f_ratio), "vote_pair%s_vs_genpd_n%%u", tag);
	snprintf(f_ratio_agg, sizeof(f_ratio_agg),
		 "vote_pair%s_vs_genpd_agg_n%%u", tag);
	struct domino_voter v = {0, 0, 20, 10};
	struct dmn_ctx *ctx = domino_domain(n, 0, &v);
	struct bl_domain locked, bare;
	struct baseline_voter bl = {NULL, 20, 10}, ba = {NULL, 20, 10};
	baseline_domain(&locked, n, 0, 0, &bl);
	baseline_domain(&bare, n, 0, 1, &ba);
	double *ns = calloc(3 * (size_t)m->rounds, sizeof(double));
	struct bench_subject s[3] = {{domino_pairs, &v, ns, 0},
				     {baseline_pairs, &bl, ns + m->rounds, 0},
				     {baseline_pairs, &ba, ns + 2 * m->rounds, 0}};
	interleave(s, 3, m, 2);
	int u0 = report_time(t, m, f_vote, n, s[0].ns);
	int u1 = report_time(t, m, f_genpd, n, s[1].ns);
	int u2 = report_time(t, m, f_agg, n, s[2].ns);
	report_ratio(t, f_ratio, n,
		     bench_paired_ratio(s[0].ns, s[1].ns, m->rounds), u0 || u1);
	report_ratio(t, f_ratio_agg, n,
		     bench_paired_ratio(s[0].ns, s[2].ns, m->rounds), u0 || u2);
	free(ns);
	bl_domain_free(&locked);
	bl_domain_free(&bare);
	dmn_ctx_destroy(ctx);
}

static void *idle_thread(void *arg)
{
	return arg;
}

/* The pair again once the process has had a second thread. While a
 * process has one thread, glibc's mutexes (genpd-style baseline) and
 * domino's stripes (stripe.h) both skip their atomic instructions; a
 * daemon with threads pays them on every lock and unlock, as the kernel
 * does. A thread that has come and gone is enough (glibc never goes back
 * to its single-threaded path), so this runs after every other figure of
 * the single-threaded process. */
static void bench_pair_threaded(struct bench_table *t, const struct method *m)
{
	pthread_t th;
	if (pthread_create(&th, NULL, idle_thread, NULL) == 0)
		pthread_join(th, NULL);
	bench_pair(t, m, 1, "_mt");
	bench_pair(t, m, 100, "_mt");
}

/* Two votes that do not raise the domain (another voter holds 30): genpd
 * walks every device on each; the speedup is genpd's pair over domino's. */
static void bench_fall(struct bench_table *t, const struct method *m,
		       unsigned n)
{
	struct domino_voter v = {0, 0, 20, 10};
	struct dmn_ctx *ctx = domino_domain(n, 1, &v);
	struct bl_domain locked;
	struct baseline_voter bl = {NULL, 20, 10};
	baseline_domain(&locked, n, 1, 0, &bl);
	double *ns = calloc(2 * (size_t)m->rounds, sizeof(double));
	struct bench_subject s[2] = {{domino_pairs, &v, ns, 0},
				     {baseline_pairs, &bl, ns + m->rounds, 0}};
	interleave(s, 2, m, 2);
	int u0 = report_time(t, m, "vote_fall_pair_ns_n%u", n, s[0].ns);
	int u1 = report_time(t, m, "genpd_fall_pair_ns_n%u", n, s[1].ns);
	report_ratio(t, "vote_fall_speedup_n%u", n,
		     bench_paired_ratio(s[1].ns, s[0].ns, m->rounds), u0 || u1);
	free(ns);
	bl_domain_free(&locked);
	dmn_ctx_destroy(ctx);
}

/* The rise+fall pair with 100,000 voters over the same with two: the cost
 * of the aggregate against the number of voters. Two, not one: a rail
 * with one voter and no child needs no domain lock (the attachment's
 * stripe guards it, docs/decisions/locking.md), a cheaper regime
 * than any shared rail, so the ratio to one (vote_flatness_vs_n1, beside
 * it) measures that lock, not the voters. */
static void bench_flatness(struct bench_table *t, const struct method *m,
			   unsigned big)
{
	struct domino_voter one = {0, 0, 20, 10}, two = {0, 0, 20, 10},
			    many = {0, 0, 20, 10};
	struct dmn_ctx *c1 = domino_domain(1, 0, &one);
	struct dmn_ctx *c2 = domino_domain(2, 0, &two);
	struct dmn_ctx *c3 = domino_domain(big, 0, &many);
	double *ns = calloc(3 * (size_t)m->rounds, sizeof(double));
	struct bench_subject s[3] = {{domino_pairs, &many, ns, 0},
				     {domino_pairs, &two, ns + m->rounds, 0},
				     {domino_pairs, &one, ns + 2 * m->rounds, 0}};
	interleave(s, 3, m, 2);
	int u0 = report_time(t, m, "flat_pair_ns_n%u", big, s[0].ns);
	int u1 = report_time(t, m, "flat_pair_ns_n%u", 2, s[1].ns);
	int u2 = report_time(t, m, "flat_pair_ns_n%u", 1, s[2].ns);
	report_ratio(t, "vote_flatness", 0,
		     bench_paired_ratio(s[0].ns, s[1].ns, m->rounds), u0 || u1);
	report_ratio(t, "vote_flatness_vs_n1", 0,
		     bench_paired_ratio(s[0].ns, s[2].ns, m->rounds), u0 || u2);
	free(ns);
	dmn_ctx_destroy(c1);
	dmn_ctx_destroy(c2);
	dmn_ctx_destroy(c3);
}

/* A vote equal to the stored one against an uncontended lock+unlock. */
static void bench_noop(struct bench_table *t, const struct method *m)
{
	struct domino_voter v = {0, 0, 10, 10};
	struct dmn_ctx *ctx = domino_domain(1, 0, &v);
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	double *ns = calloc(2 * (size_t)m->rounds, sizeof(double));
	struct bench_subject s[2] = {{domino_singles, &v, ns, 0},
				     {lock_pairs, &lock, ns + m->rounds, 0}};
	interleave(s, 2, m, 1);
	int u0 = report_time(t, m, "vote_noop_ns", 0, s[0].ns);
	int u1 = report_time(t, m, "lock_unlock_pair_ns", 0, s[1].ns);
	report_ratio(t, "vote_noop_vs_lock_pair", 0,
		     bench_paired_ratio(s[0].ns, s[1].ns, m->rounds), u0 || u1);
	free(ns);
	dmn_ctx_destroy(ctx);
}

/* A chain of @depth domains, the voter on the leaf; every vote moves the
 * whole chain. */
static struct dmn_ctx *domino_chain(unsigned depth, struct domino_voter *v)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	dmn_domain_t prev = 0, dom = 0;
	for (unsigned i = 0; i < depth; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%u", i);
		struct dmn_domain_desc desc = {name, &noop_ops, 0, 0};
		must(dmn_domain_create(ctx, &desc, &dom), "domain");
		if (prev)
			must(dmn_link_add(ctx, prev, dom), "link");
		prev = dom;
	}
	dmn_device_t dev;
	must(dmn_device_create(ctx, "dev", &dev), "device");
	must(dmn_attach(ctx, dev, dom, &v->att), "attach");
	must(dmn_device_get(ctx, dev), "get");
	v->ctx = ctx;
	return ctx;
}

/* Propagation per level: the slope between a chain of 1 and of @deep
 * domains, per vote (a pair is two votes that each move every level). */
static void bench_propagation(struct bench_table *t, const struct method *m,
			      unsigned deep)
{
	struct domino_voter a = {0, 0, 20, 10}, b = {0, 0, 20, 10};
	struct dmn_ctx *c1 = domino_chain(1, &a), *c2 = domino_chain(deep, &b);
	double *ns = calloc(2 * (size_t)m->rounds, sizeof(double));
	struct bench_subject s[2] = {{domino_pairs, &a, ns, 0},
				     {domino_pairs, &b, ns + m->rounds, 0}};
	interleave(s, 2, m, 2);
	int u0 = report_time(t, m, "chain_pair_ns_depth%u", 1, s[0].ns);
	int u1 = report_time(t, m, "chain_pair_ns_depth%u", deep, s[1].ns);
	double *d = malloc(m->rounds * sizeof(double));
	for (unsigned r = 0; r < m->rounds; r++)
		d[r] = (s[1].ns[r] - s[0].ns[r]) / 2 / (deep - 1);
	double per = bench_median(d, m->rounds);
	bench_result(t, "propagation_ns_per_level", 0, per, "ns");
	if (u0 || u1 || per < 5 * m->resolution)
		bench_mark_unreliable(t);
	free(d);
	free(ns);
	dmn_ctx_destroy(c1);
	dmn_ctx_destroy(c2);
}

/* Link-add cost per link when building an n-deep chain through the API,
 * top-down (each new domain below the last) or bottom-up (each new domain
 * above the last): the cycle check must not walk the whole chain. */
static double bench_link_add(unsigned n, int bottom_up)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	dmn_domain_t *dom = malloc(n * sizeof(*dom));
	if (!dom)
		must(-1, "malloc");
	for (unsigned i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%u", i);
		struct dmn_domain_desc desc = {name, &noop_ops, 0, 0};
		must(dmn_domain_create(ctx, &desc, &dom[i]), "domain");
	}
	uint64_t t0 = bench_now();
	for (unsigned k = 1; k < n; k++) {
		unsigned i = bottom_up ? n - k : k;
		must(dmn_link_add(ctx, dom[i - 1], dom[i]), "link");
	}
	uint64_t t1 = bench_now();
	free(dom);
	dmn_ctx_destroy(ctx);
	return (double)(t1 - t0) / (n - 1);
}

/* A leaf's vote through a parent of @width subdomains, against genpd's
 * (which walks the parent's @width child links when the leaf falls). */
static void bench_fanin(struct bench_table *t, const struct method *m,
			unsigned width)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	dmn_domain_t parent;
	struct dmn_domain_desc pdesc = {"parent", &noop_ops, 0, 0};
	must(dmn_domain_create(ctx, &pdesc, &parent), "domain");
	struct domino_voter v = {ctx, 0, 20, 10};
	for (unsigned i = 0; i < width; i++) {
		char name[16];
		dmn_domain_t child;
		dmn_device_t dev;
		dmn_attach_t att;
		snprintf(name, sizeof(name), "c%u", i);
		struct dmn_domain_desc desc = {name, 0, 0, 0};
		must(dmn_domain_create(ctx, &desc, &child), "domain");
		must(dmn_link_add(ctx, parent, child), "link");
		must(dmn_device_create(ctx, name, &dev), "device");
		must(dmn_attach(ctx, dev, child, &att), "attach");
		must(dmn_device_get(ctx, dev), "get");
		must(dmn_vote(ctx, att, 10), "vote");
		if (!v.att)
			v.att = att;
	}
	struct bl_domain bparent;
	bl_domain_init(&bparent, bl_noop);
	struct bl_domain *kids = calloc(width, sizeof(*kids));
	struct baseline_voter bl = {NULL, 20, 10};
	for (unsigned i = 0; i < width; i++) {
		bl_domain_init(&kids[i], NULL);
		bl_link(&bparent, &kids[i]);
		struct bl_device *dev = bl_attach(&kids[i]);
		bl_vote(dev, 10);
		if (!bl.dev)
			bl.dev = dev;
	}
	double *ns = calloc(2 * (size_t)m->rounds, sizeof(double));
	struct bench_subject s[2] = {{domino_pairs, &v, ns, 0},
				     {baseline_pairs, &bl, ns + m->rounds, 0}};
	interleave(s, 2, m, 2);
	report_time(t, m, "fanin%u_pair_ns", width, s[0].ns);
	report_time(t, m, "genpd_fanin%u_pair_ns", width, s[1].ns);
	free(ns);
	for (unsigned i = 0; i < width; i++)
		bl_domain_free(&kids[i]);
	free(kids);
	bl_domain_free(&bparent);
	dmn_ctx_destroy(ctx);
}

/* ---- 3. concurrency -------------------------------------------------------- */

/* Two leaves, each with one device, under one parent (@shared) or two
 * disjoint parents. One run is two threads, each voting rise+fall pairs
 * on its own leaf in batches of fixed work, in phases of PHASE_NS: the
 * second thread alone, both, the first alone, both, and again. A thread
 * out of its phase sleeps (its core is free: where two vCPUs share one
 * host core, or two SMT threads one core, its alone batches run faster,
 * as one thread would). So each
 * thread has batches alone and batches beside the other's votes a few ms
 * apart on the same core: their ratio is what the other thread's votes
 * cost it (locks, cache lines) and cancels what a shared machine changes
 * from run to run and from core to core (other jobs, the speed of the
 * vCPU). A batch counts only if its thread kept its core throughout,
 * and a batch beside only if the other thread did too (bench/README.md,
 * Threads). */
#define PHASE_NS 2000000u
#define PHASES 16
#define BATCHES 2048

struct batch {
	uint64_t t0, t1; /* bench_now */
	int clean; /* no involuntary context switch during it */
};

struct worker {
	struct dmn_ctx *ctx;
	dmn_attach_t att;
	unsigned long pairs; /* per batch */
	const uint64_t *start; /* __atomic: the run's start, 0 until set */
	unsigned second; /* sits out phase 2 of every 4 (the first: phase 0) */
	unsigned n; /* batches recorded */
	struct batch b[BATCHES];
	pthread_t thread;
};

/* Involuntary context switches of the calling thread so far (the OS took
 * its core away), or -1 where that is not known (no batch is then clean). */
static long preemptions(void)
{
#if defined(RUSAGE_THREAD)
	struct rusage ru;
	if (!getrusage(RUSAGE_THREAD, &ru))
		return ru.ru_nivcsw;
#endif
	return -1;
}

static void *vote_worker(void *arg)
{
	struct worker *w = arg;
	uint64_t start;
	while (!(start = __atomic_load_n(w->start, __ATOMIC_ACQUIRE)))
		;
	w->n = 0;
	for (;;) {
		uint64_t now = bench_now();
		if (now >= start + (uint64_t)PHASES * PHASE_NS)
			break;
		unsigned phase = now < start ? 2 * w->second
				 : (unsigned)((now - start) / PHASE_NS) % 4;
		if (w->n == BATCHES)
			continue;
		if (phase == 2 * w->second) {
			/* The other thread's phase alone: sleep to its end,
			 * leaving the core free (bench/README.md, Threads). */
			uint64_t end = now < start ? start
				       : start + ((now - start) / PHASE_NS + 1) *
							 PHASE_NS;
			struct timespec ts = {(time_t)(end / 1000000000u),
					      (long)(end % 1000000000u)};
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			continue;
		}
		struct batch *b = &w->b[w->n++];
		long p0 = preemptions();
		b->t0 = bench_now();
		for (unsigned long i = 0; i < w->pairs; i++) {
			dmn_vote(w->ctx, w->att, 20);
			dmn_vote(w->ctx, w->att, 10);
		}
		b->t1 = bench_now();
		b->clean = p0 >= 0 && preemptions() == p0;
	}
	return NULL;
}

struct thread_setup {
	struct dmn_ctx *ctx;
	dmn_attach_t att[2];
};

static void threads_setup(struct thread_setup *ts, int shared)
{
	must(dmn_ctx_create(NULL, &ts->ctx), "ctx");
	dmn_domain_t parents[2], leaves[2];
	for (unsigned i = 0; i < 2; i++) {
		char name[16];
		snprintf(name, sizeof(name), "p%u", i);
		struct dmn_domain_desc pd = {name, &noop_ops, 0, 0};
		if (i == 0 || !shared)
			must(dmn_domain_create(ts->ctx, &pd, &parents[i]), "domain");
		else
			parents[i] = parents[0];
		snprintf(name, sizeof(name), "l%u", i);
		struct dmn_domain_desc ld = {name, &noop_ops, 0, 0};
		must(dmn_domain_create(ts->ctx, &ld, &leaves[i]), "domain");
		must(dmn_link_add(ts->ctx, parents[i], leaves[i]), "link");
		dmn_device_t dev;
		must(dmn_device_create(ts->ctx, name, &dev), "device");
		must(dmn_attach(ts->ctx, dev, leaves[i], &ts->att[i]), "attach");
		must(dmn_device_get(ts->ctx, dev), "get");
		/* Warm: the histograms and statistics have their room, so
		 * the timed votes are the steady state. */
		must(dmn_vote(ts->ctx, ts->att[i], 20), "vote");
		must(dmn_vote(ts->ctx, ts->att[i], 10), "vote");
	}
}

/* Whether the other thread's batches (@o) cover batch @b, clean and
 * back to back (no phase gap in between): it held a core, voting or
 * waiting for a lock, all that time. */
static int beside(const struct worker *o, const struct batch *b)
{
	unsigned k = 0;
	while (k < o->n && o->b[k].t1 < b->t0)
		k++;
	if (k == o->n || o->b[k].t0 > b->t0)
		return 0;
	for (; k < o->n && o->b[k].t0 <= b->t1; k++) {
		const struct batch *x = &o->b[k];
		if (!x->clean || (x->t1 < b->t1 && k + 1 < o->n &&
				  o->b[k + 1].t0 - x->t1 > (x->t1 - x->t0) / 4))
			return 0; /* preempted, or a phase gap began */
	}
	return o->b[k - 1].t1 >= b->t1;
}

static int alone(const struct worker *o, const struct batch *b)
{
	for (unsigned k = 0; k < o->n; k++)
		if (o->b[k].t1 >= b->t0 && o->b[k].t0 <= b->t1)
			return 0;
	return 1;
}

/* @w's median clean batch alone ÷ beside @o's votes: the share of its
 * own speed it keeps beside the other thread; NAN with fewer than 5 of
 * either kind. */
static double kept_speed(const struct worker *w, const struct worker *o,
			 double *alone_ns)
{
	static double with[BATCHES], by_itself[BATCHES];
	unsigned n_with = 0, n_alone = 0;
	for (unsigned k = 0; k < w->n; k++) {
		const struct batch *b = &w->b[k];
		double ns = (double)(b->t1 - b->t0);
		if (b->clean && beside(o, b))
			with[n_with++] = ns;
		else if (b->clean && alone(o, b))
			by_itself[n_alone++] = ns;
	}
	*alone_ns = n_alone >= 5 ? bench_median_of(by_itself, n_alone) : NAN;
	/* Beside: the mean, not the median, as a lock shared by the two
	 * makes some batches wait long and leaves others at full speed;
	 * together they are the rate (alone batches don't wait). */
	double sum = 0;
	for (unsigned k = 0; k < n_with; k++)
		sum += with[k];
	return n_with < 5 ? NAN : *alone_ns * n_with / sum;
}

/* One run: the sum of the two threads' kept speeds, the votes per second
 * two threads do ÷ one (NAN if the machine gave too few batches both
 * cores); *@alone_ns the first thread's median batch alone. */
static double threads_run(const struct thread_setup *ts, unsigned long pairs,
			  double *alone_ns)
{
	static struct worker w[2];
	uint64_t start = 0;
	for (unsigned i = 0; i < 2; i++) {
		w[i].ctx = ts->ctx;
		w[i].att = ts->att[i];
		w[i].pairs = pairs;
		w[i].start = &start;
		w[i].second = i;
		pthread_create(&w[i].thread, NULL, vote_worker, &w[i]);
	}
	/* A little ahead: both threads are waiting when it comes. */
	__atomic_store_n(&start, bench_now() + PHASE_NS / 4, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < 2; i++)
		pthread_join(w[i].thread, NULL);
	double other;
	return kept_speed(&w[0], &w[1], alone_ns) +
	       kept_speed(&w[1], &w[0], &other);
}

/* Scaling over @runs phased runs (threads_run), same context throughout. NAME: the median of the runs' figures over the runs
 * that had enough batches side by side, NAME_min / NAME_max their spread,
 * NAME_runs how many counted of NAME_runs_total. */
static void bench_scaling(struct bench_table *t, int shared, unsigned runs,
			  unsigned long pairs)
{
	struct thread_setup ts;
	threads_setup(&ts, shared);
	double *fig = calloc(2 * (size_t)runs, sizeof(double));
	double *alone = fig + runs;
	unsigned n = 0, n_alone = 0;
	for (unsigned r = 0; r < runs; r++) {
		double a, x = threads_run(&ts, pairs, &a);
		if (!isnan(a))
			alone[n_alone++] = 2.0 * (double)pairs / (a / 1e9);
		if (!isnan(x))
			fig[n++] = x;
	}
	const char *kind = shared ? "_shared" : "";
	char name[64];
	if (!shared && n_alone)
		bench_result(t, "vote_throughput_1thread", 0,
			     bench_median_of(alone, n_alone), "ops/s");
	snprintf(name, sizeof(name), "vote_scaling_2threads%s", kind);
	bench_result(t, name, 0, n ? bench_median_of(fig, n) : NAN, "x");
	double hi = 0;
	for (unsigned r = 0; r < n; r++)
		hi = fig[r] > hi ? fig[r] : hi;
	snprintf(name, sizeof(name), "vote_scaling_2threads%s_min", kind);
	bench_result(t, name, 0, n ? bench_min(fig, n) : NAN, "x");
	snprintf(name, sizeof(name), "vote_scaling_2threads%s_max", kind);
	bench_result(t, name, 0, n ? hi : NAN, "x");
	snprintf(name, sizeof(name), "vote_scaling_2threads%s_runs", kind);
	bench_result(t, name, 0, n, "");
	snprintf(name, sizeof(name), "vote_scaling_2threads%s_runs_total", kind);
	bench_result(t, name, 0, runs, "");
	free(fig);
	dmn_ctx_destroy(ts.ctx);
}

/* ---- 5. memory -------------------------------------------------------------- */

struct memory_result {
	double per_domain, per_device, per_attachment;
};

static struct memory_result bench_memory(unsigned n)
{
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.alloc = bench_counting;
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(&cfg, &ctx), "ctx");
	size_t base = bench_live_bytes;
	dmn_domain_t dom = 0;
	for (unsigned i = 0; i < n; i++) {
		struct dmn_domain_desc desc = {"domain", &noop_ops, 0, 0};
		must(dmn_domain_create(ctx, &desc, &dom), "domain");
	}
	size_t after_domains = bench_live_bytes;
	dmn_device_t *devs = calloc(n, sizeof(*devs));
	for (unsigned i = 0; i < n; i++)
		must(dmn_device_create(ctx, "device", &devs[i]), "device");
	size_t after_devices = bench_live_bytes;
	for (unsigned i = 0; i < n; i++) {
		dmn_attach_t att;
		must(dmn_attach(ctx, devs[i], dom, &att), "attach");
		must(dmn_vote(ctx, att, 1 + i % 8), "vote");
	}
	size_t after_atts = bench_live_bytes;
	struct memory_result r = {
		(double)(after_domains - base) / n,
		(double)(after_devices - after_domains) / n,
		(double)(after_atts - after_devices) / n,
	};
	free(devs);
	dmn_ctx_destroy(ctx);
	return r;
}

/* ---- targets ------------------------------------------------------------------ */

/* The targets of docs/decisions/vote-speed.md and of the firmware core
 * (docs/architecture.md, Firmware units); the figure passes when
 * lo <= value <= hi (either bound may be open). */
static const struct target {
	const char *name, *what;
	double lo, hi;
} targets[] = {
	{"vote_pair_vs_genpd_n1", "rise+fall pair / genpd's, N = 1", -INFINITY, 1.5},
	{"vote_pair_vs_genpd_n100", "rise+fall pair / genpd's, N = 100", -INFINITY, 1.0},
	{"vote_pair_vs_genpd_n10000", "rise+fall pair / genpd's, N = 10,000", -INFINITY, INFINITY},
	{"vote_pair_mt_vs_genpd_n1", "the same, N = 1, process with threads", -INFINITY, 1.5},
	{"vote_pair_mt_vs_genpd_n100", "the same, N = 100, with threads", -INFINITY, 1.0},
	{"vote_fall_speedup_n10000", "genpd / domino, falling votes, N = 10,000", 200, INFINITY},
	{"vote_flatness", "pair at N = 100,000 / N = 2", 0.9, 1.1},
	{"vote_noop_vs_lock_pair", "unchanged vote / lock+unlock", -INFINITY, 1.5},
	{"propagation_ns_per_level", "ns per level of a chain", -INFINITY, 60},
	{"bytes_per_domain", "bytes per domain", -INFINITY, 256},
	{"bytes_per_device", "bytes per device", -INFINITY, 64},
	{"bytes_per_opp_entry", "bytes per OPP entry", -INFINITY, 64},
	{"vote_scaling_2threads", "2 threads / 1, disjoint subtrees", 1.7, INFINITY},
	{"core_text_bytes_cortex_m4", "core + OPP text, Cortex-M4 -Os", -INFINITY, 16384},
	{"scmi_hostile_ratio", "SCMI round trip, hostile agent beside / alone", -INFINITY, 2},
};

static void print_targets(const struct bench_table *t, double resolution)
{
	printf("\n%-28s %-42s %12s  %-12s %s\n", "figure", "what", "value",
	       "target", "verdict");
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		const struct target *g = &targets[i];
		int bad;
		double v = bench_lookup(t, g->name, &bad);
		char goal[32];
		if (isinf(g->lo) && isinf(g->hi))
			snprintf(goal, sizeof(goal), "(none)");
		else if (isinf(g->lo))
			snprintf(goal, sizeof(goal), "<= %g", g->hi);
		else if (isinf(g->hi))
			snprintf(goal, sizeof(goal), ">= %g", g->lo);
		else
			snprintf(goal, sizeof(goal), "%g-%g", g->lo, g->hi);
		const char *verdict = isnan(v) ? "not measured"
				      : isinf(g->lo) && isinf(g->hi) ? "-"
				      : v >= g->lo && v <= g->hi ? "PASS" : "MISS";
		printf("%-28s %-42s %12.5g  %-12s %s%s\n", g->name, g->what, v,
		       goal, verdict, bad ? " (unreliable)" : "");
	}
	printf("timer resolution %.1f ns; times within 5x of it (< %.1f ns) "
	       "are marked unreliable\n", resolution, 5 * resolution);
}

static void print_verdicts(const struct bench_table *t)
{
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		const struct target *g = &targets[i];
		double v = bench_lookup(t, g->name, NULL);
		if (isnan(v) || (isinf(g->lo) && isinf(g->hi)))
			continue;
		printf("target_%s %s\n", g->name,
		       v >= g->lo && v <= g->hi ? "PASS" : "MISS");
	}
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	const char *boards = NULL, *domino = NULL;
	double firmware_text = NAN;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else if (!strcmp(argv[i], "--boards") && i + 1 < argc)
			boards = argv[++i];
		else if (!strcmp(argv[i], "--domino") && i + 1 < argc)
			domino = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--firmware-text") && i + 1 < argc)
			firmware_text = atof(argv[++i]);
		else {
			fprintf(stderr, "usage: domino-bench [--quick] [--boards DIR] "
					"[--domino PATH] [--firmware-text BYTES] "
					"[--only GROUP]\n");
			return 2;
		}
	}
	struct method m = {quick ? 21 : 101, 1000, bench_timer_resolution()};
	/* Walks over 10,000 devices run 1,000 times slower than a vote: fewer
	 * operations a sample and fewer samples keep the run short. */
	struct method slow = m;
	slow.batch = 500; /* pairs: still 1,000 calls a sample */
	slow.rounds = quick ? 11 : 31;
	static struct bench_table table;
	bench_table_init(&table);
	bench_result(&table, "timer_resolution_ns", 0, m.resolution, "ns");
	bench_result(&table, "timer_read_ns", 0, bench_timer_read_ns(), "ns");

	if (want("pair")) {
		bench_pair(&table, &m, 1, "");
		bench_pair(&table, &m, 100, "");
		bench_pair(&table, &slow, 10000, "");
	}
	/* Where domino's pair overtakes genpd's (no target: the crossover). */
	if (want("sweep"))
		for (unsigned n = 2; n <= 32; n *= 2)
			bench_pair(&table, &m, n, "");
	if (want("fall"))
		bench_fall(&table, &slow, 10000);
	if (want("flatness"))
		bench_flatness(&table, &m, quick ? 10000 : 100000);
	if (want("noop"))
		bench_noop(&table, &m);
	if (want("propagation"))
		bench_propagation(&table, &m, 16);
	if (want("fanin"))
		bench_fanin(&table, &m, 1000);
	for (int up = 0; up < 2 && want("link"); up++) {
		const char *fmt = up ? "link_add_chain_bottom_up_ns_n%u"
				     : "link_add_chain_top_down_ns_n%u";
		bench_result(&table, fmt, 1000, bench_link_add(1000, up), "ns");
		bench_result(&table, fmt, 100000, bench_link_add(100000, up),
			     "ns");
	}

	/* Every figure above in a process with one thread; from here on it
	 * has had two. */
	if (want("pair_mt"))
		bench_pair_threaded(&table, &m);

	/* Fixed work, short runs (about 2 ms here: most are not preempted
	 * even on a busy machine), many rounds interleaved. */
	if (want("threads")) {
		bench_scaling(&table, 0, quick ? 41 : 201, 500);
		bench_scaling(&table, 1, quick ? 41 : 201, 500);
	}

	if (want("memory")) {
		/* 100,000 in both modes (a fifth of a second): the handle
		 * tables grow by doubling, so a smaller count would weigh
		 * another share of empty slots. */
		struct memory_result mem = bench_memory(100000);
		bench_result(&table, "bytes_per_domain", 0, mem.per_domain, "B");
		bench_result(&table, "bytes_per_device", 0, mem.per_device, "B");
		bench_result(&table, "bytes_per_attachment", 0,
			     mem.per_attachment, "B");
	}
	if (!isnan(firmware_text))
		bench_result(&table, "core_text_bytes_cortex_m4", 0, firmware_text, "B");

	bench_result(&table, "samples_per_figure", 0, m.rounds, "");
	bench_result(&table, "samples_per_figure_n10000", 0, slow.rounds, "");
	bench_result(&table, "calls_per_sample_min", 0, fewest_calls, "");

	if (want("extra")) {
		bench_extra(&table, boards, quick);
		bench_scmi(&table, domino, quick);
	}
	printf("# domino-bench: one figure a line, `key value` (times: ns per "
	       "operation, the median of the samples, _min the fastest; thread "
	       "CPU time; `unreliable`: within 5x of the timer's resolution)\n");
	bench_table_print_kv(&table);
	print_verdicts(&table);
	print_targets(&table, m.resolution);
	/* A figure the table dropped would read "not measured". */
	return table.dropped ? 1 : 0;
}
