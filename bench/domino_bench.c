/* SPDX-License-Identifier: MIT */
/*
 * domino-bench: measured side by side in one run, printed as ratios, because
 * these machines are noisy. Prints `NAME: VALUE UNIT` lines, then a summary.
 *
 *   domino-bench [--quick] [--boards DIR]
 */
#include "bench_util.h"
#include "genpd_baseline.h"

#include <domino/domain.h>
#include <domino/idle.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int quick;


static int noop_pstate(void *user, pd_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return 0;
}

static const struct pd_domain_ops noop_ops = {0, 0, noop_pstate};

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

/* ---- 1. vote cost versus the number of voters ----------------------------- */

struct vote_result {
	double rise, fall_same, fall_lower; /* median ns */
};

/* Both implementations are timed by the same loop, so the ratio compares
 * aggregation and nothing else. @voter toggles 10 <-> 20 over voters at 10;
 * then @holder votes 30 and 20 -> 10 is a falling vote that changes
 * nothing. */
typedef void (*vote_fn)(void *who, uint32_t level);

static struct vote_result measure_votes(vote_fn vote, void *voter,
					void *holder, unsigned samples)
{
	double *rise = malloc(samples * sizeof(double));
	double *lower = malloc(samples * sizeof(double));
	double *same = malloc(samples * sizeof(double));
	for (unsigned s = 0; s < samples; s++) {
		uint64_t t0 = bench_now();
		vote(voter, 20);
		uint64_t t1 = bench_now();
		vote(voter, 10);
		uint64_t t2 = bench_now();
		rise[s] = (double)(t1 - t0);
		lower[s] = (double)(t2 - t1);
	}
	vote(holder, 30);
	for (unsigned s = 0; s < samples; s++) {
		vote(voter, 20);
		uint64_t t0 = bench_now();
		vote(voter, 10);
		same[s] = (double)(bench_now() - t0);
	}
	double overhead = bench_timer_overhead();
	struct vote_result r = {
		bench_median(rise, samples) - overhead,
		bench_median(same, samples) - overhead,
		bench_median(lower, samples) - overhead,
	};
	free(rise);
	free(lower);
	free(same);
	return r;
}

struct domino_voter {
	struct dmn_ctx *ctx;
	pd_attach_t att;
};

static void domino_vote(void *who, uint32_t level)
{
	struct domino_voter *v = who;
	pd_vote(v->ctx, v->att, level);
}

static void baseline_vote(void *who, uint32_t level)
{
	bl_vote(who, level);
}

static struct vote_result bench_domino_votes(unsigned n, unsigned samples)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	pd_domain_t dom;
	struct pd_domain_desc desc = {"rail", &noop_ops, 0, 0};
	must(pd_domain_create(ctx, &desc, &dom), "domain");
	struct domino_voter first = {ctx, 0}, holder = {ctx, 0};
	for (unsigned i = 0; i <= n; i++) {
		char name[32];
		pd_device_t dev;
		pd_attach_t att;
		snprintf(name, sizeof(name), "dev%u", i);
		must(pd_device_create(ctx, name, &dev), "device");
		must(pd_attach(ctx, dev, dom, &att), "attach");
		must(pd_device_get(ctx, dev), "get");
		if (i == n) {
			holder.att = att; /* for the unchanged-falling case */
			continue;
		}
		must(pd_vote(ctx, att, 10), "vote");
		if (!i)
			first.att = att;
	}
	struct vote_result r = measure_votes(domino_vote, &first, &holder, samples);
	dmn_ctx_destroy(ctx);
	return r;
}

static struct vote_result bench_baseline_votes(unsigned n, unsigned samples)
{
	struct bl_domain d;
	bl_domain_init(&d, bl_noop);
	struct bl_device *first = NULL, *holder = bl_attach(&d);
	for (unsigned i = 0; i < n; i++) {
		struct bl_device *dev = bl_attach(&d);
		bl_vote(dev, 10);
		if (!first)
			first = dev;
	}
	struct vote_result r = measure_votes(baseline_vote, first, holder, samples);
	bl_domain_free(&d);
	return r;
}

static double bench_lock_pair(unsigned samples)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	double *t = malloc(samples * sizeof(double));
	for (unsigned s = 0; s < samples; s++) {
		uint64_t t0 = bench_now();
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
		t[s] = (double)(bench_now() - t0);
	}
	double r = bench_median(t, samples) - bench_timer_overhead();
	free(t);
	return r;
}

/* A vote equal to the stored one: the cost of the call itself. */
static double bench_noop_vote(unsigned samples)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	pd_domain_t dom;
	struct pd_domain_desc desc = {"rail", &noop_ops, 0, 0};
	must(pd_domain_create(ctx, &desc, &dom), "domain");
	pd_device_t dev;
	pd_attach_t att;
	must(pd_device_create(ctx, "dev", &dev), "device");
	must(pd_attach(ctx, dev, dom, &att), "attach");
	must(pd_device_get(ctx, dev), "get");
	must(pd_vote(ctx, att, 10), "vote");
	double *t = malloc(samples * sizeof(double));
	for (unsigned s = 0; s < samples; s++) {
		uint64_t t0 = bench_now();
		pd_vote(ctx, att, 10);
		t[s] = (double)(bench_now() - t0);
	}
	double r = bench_median(t, samples) - bench_timer_overhead();
	free(t);
	dmn_ctx_destroy(ctx);
	return r;
}

/* ---- 2. propagation --------------------------------------------------------- */

static double bench_chain(unsigned depth, unsigned samples)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	pd_domain_t prev = 0, dom = 0;
	for (unsigned i = 0; i < depth; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%u", i);
		struct pd_domain_desc desc = {name, &noop_ops, 0, 0};
		must(pd_domain_create(ctx, &desc, &dom), "domain");
		if (prev)
			must(pd_link_add(ctx, prev, dom), "link");
		prev = dom;
	}
	pd_device_t dev;
	pd_attach_t att;
	must(pd_device_create(ctx, "dev", &dev), "device");
	must(pd_attach(ctx, dev, dom, &att), "attach");
	must(pd_device_get(ctx, dev), "get");
	double *t = malloc(2 * samples * sizeof(double));
	for (unsigned s = 0; s < samples; s++) {
		uint64_t t0 = bench_now();
		pd_vote(ctx, att, 20);
		uint64_t t1 = bench_now();
		pd_vote(ctx, att, 10);
		uint64_t t2 = bench_now();
		t[2 * s] = (double)(t1 - t0);
		t[2 * s + 1] = (double)(t2 - t1);
	}
	double r = bench_median(t, 2 * samples) - bench_timer_overhead();
	free(t);
	dmn_ctx_destroy(ctx);
	return r;
}

/* Link-add cost per link when building an n-deep chain through the API,
 * top-down (each new domain below the last) or bottom-up (each new domain
 * above the last): the cycle check must not walk the whole chain. */
static double bench_link_add(unsigned n, int bottom_up)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	pd_domain_t *dom = malloc(n * sizeof(*dom));
	if (!dom)
		must(-1, "malloc");
	for (unsigned i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%u", i);
		struct pd_domain_desc desc = {name, &noop_ops, 0, 0};
		must(pd_domain_create(ctx, &desc, &dom[i]), "domain");
	}
	uint64_t t0 = bench_now();
	for (unsigned k = 1; k < n; k++) {
		unsigned i = bottom_up ? n - k : k;
		must(pd_link_add(ctx, dom[i - 1], dom[i]), "link");
	}
	uint64_t t1 = bench_now();
	free(dom);
	dmn_ctx_destroy(ctx);
	return (double)(t1 - t0) / (n - 1);
}

struct fanin_result {
	double domino, baseline;
};

static struct fanin_result bench_fanin(unsigned width, unsigned samples)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	pd_domain_t parent;
	struct pd_domain_desc pdesc = {"parent", &noop_ops, 0, 0};
	must(pd_domain_create(ctx, &pdesc, &parent), "domain");
	pd_attach_t first = 0;
	for (unsigned i = 0; i < width; i++) {
		char name[16];
		pd_domain_t child;
		pd_device_t dev;
		pd_attach_t att;
		snprintf(name, sizeof(name), "c%u", i);
		struct pd_domain_desc desc = {name, 0, 0, 0};
		must(pd_domain_create(ctx, &desc, &child), "domain");
		must(pd_link_add(ctx, parent, child), "link");
		must(pd_device_create(ctx, name, &dev), "device");
		must(pd_attach(ctx, dev, child, &att), "attach");
		must(pd_device_get(ctx, dev), "get");
		must(pd_vote(ctx, att, 10), "vote");
		if (!first)
			first = att;
	}
	/* the baseline: the same fan-in, genpd-style */
	struct bl_domain bparent;
	bl_domain_init(&bparent, bl_noop);
	struct bl_domain *kids = calloc(width, sizeof(*kids));
	struct bl_device *bfirst = NULL;
	for (unsigned i = 0; i < width; i++) {
		bl_domain_init(&kids[i], NULL);
		bl_link(&bparent, &kids[i]);
		struct bl_device *dev = bl_attach(&kids[i]);
		bl_vote(dev, 10);
		if (!bfirst)
			bfirst = dev;
	}
	double *t = malloc(2 * samples * sizeof(double));
	double *b = malloc(2 * samples * sizeof(double));
	for (unsigned s = 0; s < samples; s++) {
		uint64_t t0 = bench_now();
		pd_vote(ctx, first, 20);
		uint64_t t1 = bench_now();
		pd_vote(ctx, first, 10);
		uint64_t t2 = bench_now();
		bl_vote(bfirst, 20);
		uint64_t t3 = bench_now();
		bl_vote(bfirst, 10);
		uint64_t t4 = bench_now();
		t[2 * s] = (double)(t1 - t0);
		t[2 * s + 1] = (double)(t2 - t1);
		b[2 * s] = (double)(t3 - t2);
		b[2 * s + 1] = (double)(t4 - t3);
	}
	double overhead = bench_timer_overhead();
	struct fanin_result r = {bench_median(t, 2 * samples) - overhead,
				 bench_median(b, 2 * samples) - overhead};
	free(t);
	free(b);
	for (unsigned i = 0; i < width; i++)
		bl_domain_free(&kids[i]);
	free(kids);
	bl_domain_free(&bparent);
	dmn_ctx_destroy(ctx);
	return r;
}

/* ---- 3. concurrency -------------------------------------------------------- */

struct worker {
	struct dmn_ctx *ctx;
	pd_attach_t att;
	volatile int *stop;
	unsigned long ops;
	pthread_t thread;
};

static void *vote_worker(void *arg)
{
	struct worker *w = arg;
	unsigned long ops = 0;
	while (!*w->stop) {
		pd_vote(w->ctx, w->att, 20);
		pd_vote(w->ctx, w->att, 10);
		ops += 2;
	}
	w->ops = ops;
	return NULL;
}

/* Two leaves; @shared: under one parent, else under two disjoint parents. */
static double bench_threads(unsigned threads, int shared, double seconds)
{
	struct dmn_ctx *ctx;
	must(dmn_ctx_create(NULL, &ctx), "ctx");
	pd_domain_t parents[2], leaves[2];
	struct worker w[2];
	volatile int stop = 0;
	for (unsigned i = 0; i < 2; i++) {
		char name[16];
		snprintf(name, sizeof(name), "p%u", i);
		struct pd_domain_desc pd = {name, &noop_ops, 0, 0};
		if (i == 0 || !shared)
			must(pd_domain_create(ctx, &pd, &parents[i]), "domain");
		else
			parents[i] = parents[0];
		snprintf(name, sizeof(name), "l%u", i);
		struct pd_domain_desc ld = {name, &noop_ops, 0, 0};
		must(pd_domain_create(ctx, &ld, &leaves[i]), "domain");
		must(pd_link_add(ctx, parents[i], leaves[i]), "link");
		pd_device_t dev;
		must(pd_device_create(ctx, name, &dev), "device");
		must(pd_attach(ctx, dev, leaves[i], &w[i].att), "attach");
		must(pd_device_get(ctx, dev), "get");
		w[i].ctx = ctx;
		w[i].stop = &stop;
		w[i].ops = 0;
	}
	uint64_t t0 = bench_now();
	for (unsigned i = 0; i < threads; i++)
		pthread_create(&w[i].thread, NULL, vote_worker, &w[i]);
	bench_sleep(seconds);
	stop = 1;
	unsigned long total = 0;
	for (unsigned i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		total += w[i].ops;
	}
	double elapsed = (double)(bench_now() - t0) / 1e9;
	dmn_ctx_destroy(ctx);
	return (double)total / elapsed;
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
	pd_domain_t dom = 0;
	for (unsigned i = 0; i < n; i++) {
		struct pd_domain_desc desc = {"domain", &noop_ops, 0, 0};
		must(pd_domain_create(ctx, &desc, &dom), "domain");
	}
	size_t after_domains = bench_live_bytes;
	pd_device_t *devs = calloc(n, sizeof(*devs));
	for (unsigned i = 0; i < n; i++)
		must(pd_device_create(ctx, "device", &devs[i]), "device");
	size_t after_devices = bench_live_bytes;
	for (unsigned i = 0; i < n; i++) {
		pd_attach_t att;
		must(pd_attach(ctx, devs[i], dom, &att), "attach");
		must(pd_vote(ctx, att, 1 + i % 8), "vote");
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

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	const char *boards = NULL, *domino = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else if (!strcmp(argv[i], "--boards") && i + 1 < argc)
			boards = argv[++i];
		else if (!strcmp(argv[i], "--domino") && i + 1 < argc)
			domino = argv[++i];
		else {
			fprintf(stderr, "usage: domino-bench [--quick] [--boards DIR] "
					"[--domino PATH]\n");
			return 2;
		}
	}
	unsigned samples = quick ? 2001 : 20001;
	static const unsigned ns[] = {1, 100, 10000, 100000};
	struct vote_result dom[4], base[4];
	struct bench_table table;
	bench_table_init(&table);

	for (unsigned i = 0; i < 4; i++) {
		unsigned s = ns[i] >= 10000 ? samples / 4 : samples;
		dom[i] = bench_domino_votes(ns[i], s);
		base[i] = bench_baseline_votes(ns[i], s);
		bench_result(&table, "vote_rise_ns_n%u", ns[i], dom[i].rise, "ns");
		bench_result(&table, "vote_fall_same_ns_n%u", ns[i], dom[i].fall_same, "ns");
		bench_result(&table, "vote_fall_lower_ns_n%u", ns[i], dom[i].fall_lower, "ns");
		bench_result(&table, "baseline_vote_rise_ns_n%u", ns[i], base[i].rise, "ns");
		bench_result(&table, "baseline_vote_fall_same_ns_n%u", ns[i], base[i].fall_same, "ns");
		bench_result(&table, "baseline_vote_fall_lower_ns_n%u", ns[i], base[i].fall_lower, "ns");
	}
	/* falling votes at N=10,000: the worse of the two falling kinds */
	double sp_same = base[2].fall_same / dom[2].fall_same;
	double sp_lower = base[2].fall_lower / dom[2].fall_lower;
	bench_result(&table, "vote_speedup_n10000", 0,
		     sp_same < sp_lower ? sp_same : sp_lower, "x");
	double flat = 0;
	double kinds[3][2] = {{dom[3].rise, dom[0].rise},
			      {dom[3].fall_same, dom[0].fall_same},
			      {dom[3].fall_lower, dom[0].fall_lower}};
	for (unsigned k = 0; k < 3; k++)
		if (kinds[k][0] / kinds[k][1] > flat)
			flat = kinds[k][0] / kinds[k][1];
	bench_result(&table, "vote_flatness", 0, flat, "x");

	double lock = bench_lock_pair(samples);
	double noop = bench_noop_vote(samples);
	bench_result(&table, "lock_unlock_pair_ns", 0, lock, "ns");
	bench_result(&table, "vote_noop_ns", 0, noop, "ns");
	bench_result(&table, "vote_noop_vs_lock_pair", 0, noop / lock, "x");

	for (unsigned depth = 1; depth <= 8; depth++)
		bench_result(&table, "propagation_chain_depth%u_ns", depth,
			     bench_chain(depth, samples / 2), "ns");
	for (int up = 0; up < 2; up++) {
		const char *fmt = up ? "link_add_chain_bottom_up_ns_n%u"
				     : "link_add_chain_top_down_ns_n%u";
		bench_result(&table, fmt, 1000, bench_link_add(1000, up), "ns");
		bench_result(&table, fmt, 100000, bench_link_add(100000, up),
			     "ns");
	}
	struct fanin_result fan = bench_fanin(1000, samples / 4);
	bench_result(&table, "propagation_fanin1000_ns", 0, fan.domino, "ns");
	bench_result(&table, "baseline_propagation_fanin1000_ns", 0, fan.baseline, "ns");

	double secs = quick ? 0.2 : 0.5;
	double one = bench_threads(1, 0, secs);
	double two = bench_threads(2, 0, secs);
	double one_shared = bench_threads(1, 1, secs);
	double two_shared = bench_threads(2, 1, secs);
	bench_result(&table, "vote_throughput_1thread", 0, one, "ops/s");
	bench_result(&table, "vote_throughput_2threads_disjoint", 0, two, "ops/s");
	bench_result(&table, "vote_throughput_2threads_shared", 0, two_shared, "ops/s");
	bench_result(&table, "vote_scaling_2threads", 0, two / one, "x");
	bench_result(&table, "vote_scaling_2threads_shared", 0, two_shared / one_shared, "x");

	struct memory_result mem = bench_memory(quick ? 10000 : 100000);
	bench_result(&table, "bytes_per_domain", 0, mem.per_domain, "B");
	bench_result(&table, "bytes_per_device", 0, mem.per_device, "B");
	bench_result(&table, "bytes_per_attachment", 0, mem.per_attachment, "B");

	bench_extra(&table, boards, quick);
	bench_scmi(&table, domino, quick);
	bench_table_print(&table);
	return 0;
}
