/* SPDX-License-Identifier: MIT */
/* Shared helpers of the OPP tests: a counting, failable allocator, the
 * simulated providers, and short builders. */
#ifndef OPP_TEST_H
#define OPP_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <domino/opp.h>
#include <domino/sim_providers.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define OK(x) assert_int_equal((x), 0)

/* Counts live blocks; fails the allocation numbered fail_at (1-based,
 * counting from the last reset) when fail_at is not 0. */
struct counting_alloc {
	long live;
	unsigned long calls;
	unsigned long fail_at;
	unsigned long failed;
};

static inline void *counting_alloc_fn(void *user, size_t size)
{
	struct counting_alloc *a = user;
	a->calls++;
	if (a->fail_at && a->calls == a->fail_at) {
		a->failed++;
		return NULL;
	}
	void *p = malloc(size);
	if (p)
		a->live++;
	return p;
}

static inline void counting_free_fn(void *user, void *ptr)
{
	struct counting_alloc *a = user;
	a->live--;
	free(ptr);
}

static inline void arm_alloc(struct counting_alloc *a, unsigned long k)
{
	a->calls = 0;
	a->failed = 0;
	a->fail_at = k;
}

static uint64_t test_now_ns;
static inline uint64_t test_now(void *user)
{
	(void)user;
	return test_now_ns;
}

/* The lock a world's context takes: none unless a test installs another
 * (test_opp_devreq counts acquisitions). */
static struct dmn_lock_ops world_lock;

struct world {
	struct counting_alloc alloc;
	struct dmn_ctx *ctx;
	struct dmn_sim_providers sp;
	struct dmn_sim_providers_call log[512];
};

static inline void world_init(struct world *w)
{
	memset(w, 0, sizeof(*w));
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.alloc.alloc = counting_alloc_fn;
	cfg.alloc.free = counting_free_fn;
	cfg.alloc.user = &w->alloc;
	cfg.lock = world_lock.create ? world_lock : dmn_lock_none;
	cfg.now = test_now;
	OK(dmn_ctx_create(&cfg, &w->ctx));
	dmn_sim_providers_init(&w->sp, w->ctx, w->log, 512);
}

static inline void world_fini(struct world *w)
{
	dmn_ctx_destroy(w->ctx);
	assert_int_equal(w->alloc.live, 0);
}

static inline dmn_domain_t mk_domain(struct world *w, const char *name, int rail)
{
	struct dmn_domain_desc d = {
	    name, rail ? &dmn_sim_providers_rail : &dmn_sim_providers_gate, &w->sp, 0};
	dmn_domain_t h;
	OK(dmn_domain_create(w->ctx, &d, &h));
	return h;
}

/* A frequency entry with one supply and up to two required OPPs. */
static inline uint32_t add_freq(struct world *w, dmn_opp_table_t t, uint64_t hz,
				uint32_t uv, unsigned n_req,
				const struct dmn_opp_required *req)
{
	struct dmn_opp_desc d;
	struct dmn_opp_supply supply = {uv, 0, 0, 0};
	memset(&d, 0, sizeof(d));
	d.hz = &hz;
	d.n_hz = 1;
	if (uv) {
		d.supplies = &supply;
		d.n_supplies = 1;
	}
	d.required = req;
	d.n_required = n_req;
	uint32_t id;
	OK(dmn_opp_add(w->ctx, t, &d, &id));
	return id;
}

static inline uint32_t add_level(struct world *w, dmn_opp_table_t t, uint32_t level,
				 unsigned n_req, const struct dmn_opp_required *req)
{
	struct dmn_opp_desc d;
	memset(&d, 0, sizeof(d));
	d.level = level;
	d.flags = DMN_OPP_FLAG_HAS_LEVEL;
	d.required = req;
	d.n_required = n_req;
	uint32_t id;
	OK(dmn_opp_add(w->ctx, t, &d, &id));
	return id;
}

static inline uint32_t dom_pstate(struct world *w, dmn_domain_t d)
{
	struct dmn_domain_info info;
	OK(dmn_domain_info(w->ctx, d, &info));
	return info.pstate;
}

static inline uint32_t att_vote(struct world *w, dmn_attach_t a)
{
	struct dmn_attach_info info;
	OK(dmn_attach_info(w->ctx, a, &info));
	return info.vote;
}

static inline uint32_t cur_id(struct world *w, dmn_device_t dev)
{
	uint32_t id;
	OK(dmn_opp_device_current(w->ctx, dev, &id, NULL));
	return id;
}

#endif
