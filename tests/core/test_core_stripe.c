/* SPDX-License-Identifier: MIT */
/*
 * The stripe lock (src/core/stripe.h) across the process's change from
 * one thread to several. While the process has one thread a stripe is
 * taken and released without atomic instructions; a pstate callback
 * that runs under a stripe so taken may start a thread, which then waits
 * for that stripe: the release must see the waiter (the word it marked)
 * and wake it, or the waiter sleeps for ever and this test times out.
 * Then the lock under contention: two threads voting on attachments that
 * share a stripe, every vote counted; and threads whose voters share one
 * rail, none lost.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <domino/context.h>
#include <domino/domain.h>

#include "core/internal.h"

/* Domains whose slots share a stripe, slot 1 and slot 1 + 16, each with
 * one attachment: a vote takes its domain's stripe. */
#define N_ATT (DMN_STRIPES + 1)

struct world {
	struct dmn_ctx *ctx;
	dmn_domain_t dom[N_ATT];
	dmn_attach_t att[N_ATT];
	pthread_t waiter;
	int armed, started, waiter_err;
	unsigned calls;
};

static struct world w;

static void *vote_on_shared_stripe(void *arg)
{
	(void)arg;
	/* The last attachment shares the first one's stripe, held by the
	 * callback that started this thread. */
	w.waiter_err = dmn_vote(w.ctx, w.att[N_ATT - 1], 30);
	return 0;
}

static int start_waiter(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)level;
	w.calls++;
	if (dom == w.dom[0] && w.armed && !w.started) {
		w.started = 1;
		assert_int_equal(
		    pthread_create(&w.waiter, 0, vote_on_shared_stripe, 0), 0);
		/* Long enough that the waiter usually sleeps on the word. */
		struct timespec pause = {0, 50 * 1000 * 1000};
		nanosleep(&pause, 0);
	}
	return 0;
}

static const struct dmn_domain_ops ops = {
	.set_performance_state = start_waiter,
};

/* One rail per attachment (each its own domain and device), so that
 * every vote takes the one-voter rail. */
static void world_make(void)
{
	memset(&w, 0, sizeof(w));
	assert_int_equal(dmn_ctx_create(0, &w.ctx), 0);
	assert_non_null(w.ctx->stripes);
	for (unsigned i = 0; i < N_ATT; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%u", i);
		struct dmn_domain_desc desc = {.name = name, .ops = &ops};
		dmn_device_t dev;
		assert_int_equal(dmn_domain_create(w.ctx, &desc, &w.dom[i]), 0);
		assert_int_equal(dmn_device_create(w.ctx, name, &dev), 0);
		assert_int_equal(dmn_attach(w.ctx, dev, w.dom[i], &w.att[i]), 0);
		assert_int_equal(dmn_device_get(w.ctx, dev), 0);
		assert_int_equal(dmn_vote(w.ctx, w.att[i], 10), 0);
	}
	assert_int_equal(dmn__slot_stripe(w.dom[0]),
			 dmn__slot_stripe(w.dom[N_ATT - 1]));
}

static uint32_t pstate_of(dmn_domain_t dom)
{
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(w.ctx, dom, &info), 0);
	return info.pstate;
}

static void release_wakes_a_thread_born_under_the_stripe(void **state)
{
	(void)state;
	world_make();
	/* Toggle first, so the rail's shape is checked and known. */
	assert_int_equal(dmn_vote(w.ctx, w.att[0], 20), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att[0], 10), 0);
	assert_int_equal(dmn_vote(w.ctx, w.att[0], 20), 0);
	/* This vote's callback (on the rail: back to the level it left)
	 * starts the waiter with the stripe held. */
	w.armed = 1;
	assert_int_equal(dmn_vote(w.ctx, w.att[0], 10), 0);
	assert_true(w.started);
	assert_int_equal(pthread_join(w.waiter, 0), 0);
	assert_int_equal(w.waiter_err, 0);
	assert_int_equal(pstate_of(w.dom[0]), 10);
	assert_int_equal(pstate_of(w.dom[N_ATT - 1]), 30);
	dmn_ctx_destroy(w.ctx);
}

#define ROUNDS 20000

static void *toggle(void *arg)
{
	dmn_attach_t att = *(dmn_attach_t *)arg;
	for (unsigned i = 0; i < ROUNDS; i++) {
		if (dmn_vote(w.ctx, att, 20) || dmn_vote(w.ctx, att, 10))
			return (void *)1;
	}
	return 0;
}

static void contended_stripe_counts_every_vote(void **state)
{
	(void)state;
	world_make();
	w.started = 1; /* no waiter from the callback */
	pthread_t th;
	assert_int_equal(pthread_create(&th, 0, toggle, &w.att[N_ATT - 1]), 0);
	assert_null(toggle(&w.att[0]));
	void *res;
	assert_int_equal(pthread_join(th, &res), 0);
	assert_null(res);
	struct dmn_domain_stats st;
	for (unsigned k = 0; k < 2; k++) {
		dmn_domain_t dom = w.dom[k ? N_ATT - 1 : 0];
		assert_int_equal(dmn_domain_stats(w.ctx, dom, &st), 0);
		/* The first vote at 10 and then 2 * ROUNDS changes. */
		assert_int_equal(st.pstate_transitions, 1 + 2 * ROUNDS);
		assert_int_equal(pstate_of(dom), 10);
	}
	dmn_ctx_destroy(w.ctx);
}

/* ---- several threads on one rail ------------------------------------------ */

#define RAIL_VOTERS 4

struct shared_rail {
	struct dmn_ctx *ctx;
	dmn_domain_t dom;
	dmn_attach_t att[RAIL_VOTERS];
	/* Written by the callback, which runs under the domain's lock or
	 * the exclusive one: never two at once. */
	uint32_t hw_level;
	unsigned calls, repeats;
};

static int rail_set(void *user, dmn_domain_t dom, uint32_t level)
{
	struct shared_rail *r = user;
	(void)dom;
	if (level == r->hw_level)
		r->repeats++; /* a call that changes nothing: a lost update */
	r->hw_level = level;
	r->calls++;
	return 0;
}

static const struct dmn_domain_ops rail_ops = {
	.set_performance_state = rail_set,
};

struct rail_voter {
	struct shared_rail *r;
	unsigned i;
};

static void *rail_toggle(void *arg)
{
	struct rail_voter *v = arg;
	for (unsigned k = 0; k < ROUNDS; k++)
		if (dmn_vote(v->r->ctx, v->r->att[v->i], 20 + v->i) ||
		    dmn_vote(v->r->ctx, v->r->att[v->i], 10))
			return (void *)1;
	return 0;
}

/* One domain, a voter per thread, each on its own stripe: the votes meet
 * on the domain (its own lock on the fast path). None is lost: the
 * callbacks never repeat a level, the statistics count each of them, and
 * the domain ends at the maximum of the votes. */
static void threads_share_a_rail(void **state)
{
	(void)state;
	static struct shared_rail r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(dmn_ctx_create(0, &r.ctx), 0);
	struct dmn_domain_desc desc = {.name = "rail", .ops = &rail_ops,
				       .user = &r};
	assert_int_equal(dmn_domain_create(r.ctx, &desc, &r.dom), 0);
	for (unsigned i = 0; i < RAIL_VOTERS; i++) {
		char name[16];
		snprintf(name, sizeof(name), "v%u", i);
		dmn_device_t dev;
		assert_int_equal(dmn_device_create(r.ctx, name, &dev), 0);
		assert_int_equal(dmn_attach(r.ctx, dev, r.dom, &r.att[i]), 0);
		assert_int_equal(dmn_device_get(r.ctx, dev), 0);
		assert_int_equal(dmn_vote(r.ctx, r.att[i], 10), 0);
	}
	pthread_t th[RAIL_VOTERS];
	struct rail_voter v[RAIL_VOTERS];
	for (unsigned i = 0; i < RAIL_VOTERS; i++) {
		v[i] = (struct rail_voter){&r, i};
		assert_int_equal(pthread_create(&th[i], 0, rail_toggle, &v[i]),
				 0);
	}
	for (unsigned i = 0; i < RAIL_VOTERS; i++) {
		void *res;
		assert_int_equal(pthread_join(th[i], &res), 0);
		assert_null(res);
	}
	struct dmn_domain_stats st;
	assert_int_equal(dmn_domain_stats(r.ctx, r.dom, &st), 0);
	assert_int_equal(r.repeats, 0);
	assert_int_equal(st.pstate_transitions, r.calls);
	assert_int_equal(r.hw_level, 10);
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(r.ctx, r.dom, &info), 0);
	assert_int_equal(info.pstate, 10);
	/* The maximum, whoever votes last. */
	assert_int_equal(dmn_vote(r.ctx, r.att[2], 40), 0);
	assert_int_equal(dmn_vote(r.ctx, r.att[1], 30), 0);
	assert_int_equal(dmn_domain_info(r.ctx, r.dom, &info), 0);
	assert_int_equal(info.pstate, 40);
	assert_int_equal(dmn_vote(r.ctx, r.att[2], 10), 0);
	assert_int_equal(dmn_domain_info(r.ctx, r.dom, &info), 0);
	assert_int_equal(info.pstate, 30);
	assert_int_equal(r.hw_level, 30);
	dmn_ctx_destroy(r.ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    /* First: it needs the process to have one thread when it starts. */
	    cmocka_unit_test(release_wakes_a_thread_born_under_the_stripe),
	    cmocka_unit_test(contended_stripe_counts_every_vote),
	    cmocka_unit_test(threads_share_a_rail),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
