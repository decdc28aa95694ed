/* SPDX-License-Identifier: MIT */
/*
 * Test helpers shared by the core tests:
 *  - a recording fake backend: a thin adapter over the simulated hardware
 *    (dmn_sim_providers: call numbers, failures, log) whose ops carry one
 *    struct fake_domain each as @user, so a test reads per domain what
 *    the "hardware" last accepted and how often each op was called; it
 *    can be told to fail the k-th callback overall or the next N calls of
 *    one op on one domain;
 *  - an allocation hook that fails the k-th allocation and counts live
 *    blocks (leak detection);
 *  - an event recorder;
 *  - a full snapshot of the observable state through the introspection API,
 *    and a comparison that names the first difference.
 */
#ifndef DOMINO_TESTS_CORE_FAKE_H
#define DOMINO_TESTS_CORE_FAKE_H

#include <domino/domain.h>
#include <domino/sim_providers.h>
#include <stdbool.h>
#include <stddef.h>

#define FAKE_MAX_DOMAINS 64
#define FAKE_MAX_LOG 1024

/* The simulated hardware's ops, so a log entry's op compares with them. */
enum fake_op {
	FAKE_ON = DMN_SIM_PROVIDERS_POWER_ON,
	FAKE_OFF = DMN_SIM_PROVIDERS_POWER_OFF,
	FAKE_PSTATE = DMN_SIM_PROVIDERS_PSTATE,
	FAKE_N_OPS
};

struct fake;

struct fake_domain {
	struct fake *fake;
	unsigned index;
	dmn_domain_t handle;
	const char *name;
	bool on;         /* what the hardware last accepted */
	uint32_t pstate; /* idem, for domains with a pstate callback */
	unsigned calls[FAKE_N_OPS];
};

/*
 * @hw: the backend; hw.n_log calls are in @log (op, object = the domain
 *   handle, value = the level of a pstate call, result), hw.n_calls counts
 *   the callbacks since fake_clear_log.
 */
struct fake {
	struct fake_domain dom[FAKE_MAX_DOMAINS];
	unsigned n_dom;
	struct dmn_sim_providers hw;
	struct dmn_sim_providers_call log[FAKE_MAX_LOG];
	int fail_err; /* error of the failures fake_fail* arm from now on */
};

extern const struct dmn_domain_ops fake_ops_full;   /* on, off, pstate */
extern const struct dmn_domain_ops fake_ops_power;  /* on, off */
extern const struct dmn_domain_ops fake_ops_pstate; /* pstate only */

void fake_init(struct fake *f);
/* Create a domain backed by @ops; asserts success; returns its handle. */
dmn_domain_t fake_domain(struct fake *f, struct dmn_ctx *ctx, const char *name,
			const struct dmn_domain_ops *ops, uint32_t flags);
struct fake_domain *fake_find(struct fake *f, dmn_domain_t h);
void fake_clear_log(struct fake *f);
/* Fail the next @n calls of @op on domain @h with f->fail_err. */
void fake_fail(struct fake *f, dmn_domain_t h, enum fake_op op, unsigned n);
/* Fail callback number @k (1-based since fake_clear_log; 0 = none) with
 * f->fail_err. */
void fake_fail_call(struct fake *f, unsigned long k);
/* The fake_domain index of handle @h, or -1. */
int fake_index(const struct fake *f, dmn_domain_t h);
/* Does the log, from its start, equal @n calls given as (op, handle, level)
 * triples? Prints both logs on mismatch. */
bool fake_log_is(const struct fake *f, unsigned n, const uint32_t *triples);
void fake_log_print(const struct fake *f);
/* Index in the log of the first call (op, h), or -1. */
int fake_log_find(const struct fake *f, enum fake_op op, dmn_domain_t h);
unsigned fake_log_count(const struct fake *f, enum fake_op op, dmn_domain_t h);

/* ---- allocation hook ---------------------------------------------------- */

struct fake_alloc {
	long live;      /* blocks allocated and not freed */
	long count;     /* allocations since the last fake_alloc_fail_at */
	long fail_at;   /* fail allocation number fail_at (1-based), 0 = never */
	long failed;    /* allocations refused */
};

void *fake_alloc_fn(void *user, size_t size);
void fake_free_fn(void *user, void *ptr);
void fake_alloc_fail_at(struct fake_alloc *a, long k);
/* A config using @a for allocation and no locking. */
struct dmn_config fake_config(struct fake_alloc *a);

/* ---- events -------------------------------------------------------------- */

#define EVREC_MAX 512
struct evrec {
	struct dmn_event ev[EVREC_MAX];
	unsigned n;
};
void evrec_fn(void *user, struct dmn_ctx *ctx, const struct dmn_event *ev);
unsigned evrec_count(const struct evrec *r, enum dmn_event_kind kind);
/* The first event of @kind, or NULL. */
const struct dmn_event *evrec_first(const struct evrec *r,
				    enum dmn_event_kind kind);

/* ---- snapshots ----------------------------------------------------------- */

#define SNAP_MAX 64
#define SNAP_MAX_LINKS 16
#define SNAP_MAX_ATTS 32

struct snap_domain {
	dmn_domain_t handle;
	struct dmn_domain_info info;
	char name[32];
	dmn_domain_t parents[SNAP_MAX_LINKS];
	dmn_domain_t children[SNAP_MAX_LINKS];
	uint32_t child_req[SNAP_MAX_LINKS];
	int child_on[SNAP_MAX_LINKS];
	dmn_attach_t atts[SNAP_MAX_ATTS];
	unsigned n_atts; /* by dmn_domain_next_attachment */
	bool hw_known;
	bool hw_on;
	uint32_t hw_pstate;
};

struct snap_device {
	dmn_device_t handle;
	struct dmn_device_info info;
	char name[32];
	dmn_attach_t atts[SNAP_MAX_ATTS];
	struct dmn_attach_info att_info[SNAP_MAX_ATTS];
};

struct snapshot {
	unsigned n_dom, n_dev;
	struct snap_domain dom[SNAP_MAX];
	struct snap_device dev[SNAP_MAX];
};

/* Take a full snapshot; @f (may be NULL) adds what the hardware holds. */
void snap_take(struct dmn_ctx *ctx, const struct fake *f, struct snapshot *s);
/* 0 if equal, else 1 and a description of the first difference in @why. */
int snap_diff(const struct snapshot *a, const struct snapshot *b, char *why,
	      size_t n);

#endif
