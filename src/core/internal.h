/* SPDX-License-Identifier: MIT */
/*
 * Internal structures of the core. Only src/core and src/opp include this.
 */
#ifndef DOMINO_CORE_INTERNAL_H
#define DOMINO_CORE_INTERNAL_H

#include <domino/domain.h>
#include <domino/idle.h>
#include <errno.h>
#include <stdbool.h>

#include "handle.h"
#include "level_hist.h"
#include "multiset.h"

struct dmn_link;
struct dmn_attachment;

/* Time a domain spent during system sleep, on and in each state (the last
 * slot: plain off), and the totals when sleep began. */
struct dmn_sleep_data {
	unsigned n; /* idle states + 1 */
	uint64_t on, snap_on;
	uint64_t *idle, *snap_idle;
};

/* DMN_FIRMWARE: defined by a firmware build (bench/firmware_size.sh,
 * tests/firmware), which trades speed-ups for size: what it leaves out
 * only ever decides as the code it keeps does (docs/architecture.md,
 * Firmware units). */
#if defined(DMN_FIRMWARE) || defined(__OPTIMIZE_SIZE__)
#define DMN_FAST_PATHS 0 /* every vote takes the general engine */
#else
#define DMN_FAST_PATHS 1 /* the vote fast paths in txn.c */
#endif

/* Invariants the headers promise, checked live (DMN_CHECKS, check.c) in
 * debug builds (no NDEBUG) and wherever DMN_DEBUG asks for them, as in the
 * library the tests link (domino_checked); off in Release and in builds
 * optimized for size (firmware) unless DMN_DEBUG is defined. */
#if defined(DMN_DEBUG) || (!defined(NDEBUG) && !defined(__OPTIMIZE_SIZE__))
#define DMN_CHECKS 1
#undef NDEBUG
#include <assert.h>
#define DMN_ASSERT(cond) assert(cond)
#else
#define DMN_CHECKS 0
#define DMN_ASSERT(cond) ((void)0)
#endif

/* A static helper with several callers kept as one out-of-line copy in
 * size-optimized (firmware) builds, where -Os would inline it at each
 * (issue 15); hosted builds leave the choice to the compiler. */
#if defined(__OPTIMIZE_SIZE__) && defined(__GNUC__)
#define DMN_SIZE_NOINLINE __attribute__((noinline))
#else
#define DMN_SIZE_NOINLINE
#endif

#if defined(__GNUC__)
#define DMN_MUST_CHECK __attribute__((warn_unused_result))
#else
#define DMN_MUST_CHECK
#endif

/* The statistics of one idle state. */
struct dmn_idle_counts {
	uint64_t usage, rejected, time_ns;
};

/* Idle states, as many as memory allows: the descriptions in one array
 * (what a governor reads), their statistics in another. */
struct dmn_idle_data {
	struct dmn_idle_state_desc *desc; /* names owned */
	struct dmn_idle_counts *counts;
	unsigned n, cap_desc, cap_counts;
};

/* Time spent at one pstate level. */
struct dmn_level_time {
	uint32_t level;
	uint64_t ns;
};

struct dmn_stats {
	uint64_t created;
	uint64_t since;        /* start of the current power period */
	uint64_t pstate_since; /* start of the current pstate period */
	uint64_t time_on, time_off;
	uint64_t on_count, off_count, pstate_transitions;
	/* In the order first seen, level 0 first. Room for every level of
	 * the domain's inputs is reserved as they come (dmn__txn_hist_add), so
	 * recording a new pstate never allocates. */
	struct dmn_level_time *levels;
	unsigned n_levels, cap_levels;
#ifndef DMN_FIRMWARE
	/* Hosted builds, from DMN_STATS_INDEX_MIN levels (stats.c): each
	 * level's slot by hash, for the first n_indexed slots (a cache: the
	 * rest are scanned), so a table of 100,000 levels is not quadratic. */
	uint32_t *index; /* slot + 1 per bucket, 0 empty */
	unsigned index_mask, n_indexed;
#endif
};

/* What few domains use, or use rarely: statistics (from the first state
 * change), governor, constraints below, boot hold, system sleep, power-off
 * vetoes, rounding. Allocated by dmn__pd_domain_cold before the operation
 * that first needs it changes anything; until then every field reads as
 * zero (dom_cold) and the statistics as "off at level 0 since created"
 * (inspect.c). Keeps a plain domain small (issue 21). */
struct dmn_domain_cold {
	struct dmn_stats stats;
	dmn_round_fn round;
	void *round_user;
	dmn_governor_fn gov_fn;
	void *gov_user;
	enum dmn_governor_kind gov;
	struct u64_multiset qos_set;  /* resume latencies (ns) below */
	struct u64_multiset wake_set; /* next wakeups (ns) below */
	/* The idle states (idle.c): dmn_domain.idle points here once the
	 * first is added; the arrays may hold room before that. */
	struct dmn_idle_data idle;

	/* Boot hold (lifecycle.c): while held, boot_level counts in votes
	 * and the domain wants to be on; awaiting counts the unprobed
	 * devices attached to it. */
	bool held, released;
	uint32_t boot_level;
	unsigned awaiting;
	uint64_t hold_mark; /* the epoch of the probe that last changed it */
	unsigned awaiting_saved; /* dmn_probe_all's, to restore on failure */
	/* How boot left it (dmn_domain_boot): booted, with boot_flags
	 * (DMN_BOOT_*). A DMN_BOOT_NO_STAY_ON domain is on since boot while
	 * its off_count is still boot_off_count: a probe re-evaluates it. */
	bool booted;
	uint8_t boot_flags;
	uint64_t boot_off_count;
	/* Its last system-sleep power-off chose under the system wakeup
	 * latency (a CPU domain): sleep_qos, of sleep_qos_ns. */
	bool sleep_qos;
	uint64_t sleep_qos_ns;

	/* The governor's inputs when it last decided (explain.c replays its
	 * rules on them): valid once gov_decided. */
	bool gov_decided;
	bool gov_sys_qos; /* gov_qos was the system wakeup latency */
	uint64_t gov_now, gov_qos, gov_wakeup;

	/* System sleep (lifecycle.c). sleep_keep: on, active-wakeup, with a
	 * wakeup-path device: kept on through sleep (domain_wants_on sees it).
	 * off_by_sleep: switched off by dmn_system_suspend, into its
	 * deepest state. sleep: time spent during system sleep. */
	bool active_wakeup, sleep_keep, off_by_sleep;
	struct dmn_sleep_data *sleep;

	/* Power-off vetoes (lifecycle.c, DESIGN §7): attachments in HW mode,
	 * attached devices with always_on; neither counts while sleeping
	 * (set from dmn_system_suspend to dmn_system_resume). */
	unsigned hw_count, ao_devs;
	bool sleeping;

	/* Scratch of qos.c's count_paths: paths from the domain it starts
	 * at (only domains that hold constraints take part). */
	uint64_t paths;
};

/* Hot fields first: what a vote and the engine read (issue 21). */
struct dmn_domain {
	uint32_t handle;
	uint32_t flags;
	const struct dmn_domain_ops *ops;
	void *user;

	/* Inputs of the aggregate. */
	struct level_hist votes; /* counted device votes + child requirements */
	unsigned active_devices;
	unsigned on_children;

	/* What the callbacks last accepted. */
	uint32_t pstate;
	int idle_state;
	bool on;
	bool was_on; /* on before dmn__txn_commit's callbacks */
	/* Held by a fast path on this domain (dmn__dom_trylock); only
	 * fast paths touch it, and only on striped contexts. */
	unsigned char fast_lock;
	/* Set while a transaction runs when the domain may have become
	 * unused (touched, or it lost an active device or an on child): only
	 * then does settle ask the governor (txn.c; DESIGN §1: "only when a
	 * domain becomes unused"). Cleared when the transaction ends. */
	unsigned char due;

	/* Parents and children, as arrays of link pointers, in link order
	 * (capacity: see links_room in domain.c). */
	unsigned n_parents;
	unsigned n_children;
#if DMN_FAST_PATHS
	/* The one-voter path's shape, checked once (device.c vote_solo):
	 * valid while solo_epoch is the striped context's shape_epoch (no
	 * exclusive call since), then solo_slot is the statistics slot of
	 * pstate and solo_alt a level the statistics list (the pstate
	 * before: a vote toggling between two levels finds both without
	 * reading the statistics). In the hole after n_children, and 8
	 * bytes more. */
	unsigned solo_slot;
	uint32_t solo_epoch;
	uint32_t solo_alt;
#endif
	struct dmn_link **parents;
	struct dmn_link **children;

	/* Attachments, as an intrusive list in attach order. */
	struct dmn_attachment *att_head, *att_tail;
	unsigned n_attachments;

	uint32_t was_pstate; /* pstate before dmn__txn_commit's callbacks */
	int was_idle;        /* idle state before them (while off) */
	/* Scratch of the graph walks in walk.c (valid while walk_mark is the
	 * walk's epoch): next link to follow, pending children. */
	unsigned dfs_next;
	unsigned pending;
	uint32_t walk_level;
	/* Scratch for one operation (valid while visit == ctx->epoch). */
	uint64_t visit;
	uint64_t walk_mark;

	struct dmn_idle_data *idle; /* idle states (idle.c); NULL: none */
	void *opp_state; /* owned by the OPP layer: the domain's level table */
	struct dmn_domain_cold *cold; /* NULL: see struct dmn_domain_cold */
	uint64_t created; /* dmn_now at dmn_domain_create */
	char name[];
};

/* Every field of a domain without its cold part: zero. Not const, so it is
 * zero-filled storage rather than read-only data; nothing writes it. */
extern struct dmn_domain_cold dmn__cold_none;
/* Whether @ctx times pstate residency (struct dmn_config). A firmware
 * build calls its pstate clock every time: without a time source that
 * is default_now, which reads 0 without clock_gettime, so each level
 * reads 0 ns there as untimed, and the test costs no flash. */
#ifdef DMN_FIRMWARE
#define dmn__pstate_timed(ctx) ((void)(ctx), 1)
#else
#define dmn__pstate_timed(ctx) ((ctx)->pstate_now != 0)
#endif

/* @d's cold part to read: its own, or dmn__cold_none (all zero). */
static inline const struct dmn_domain_cold *dom_cold(const struct dmn_domain *d)
{
	return d->cold ? d->cold : &dmn__cold_none;
}
/* @d's cold part, allocated on first use (statistics started at creation):
 * NULL if out of memory, @d unchanged. */
struct dmn_domain_cold *dmn__pd_domain_cold(struct dmn_ctx *ctx,
					   struct dmn_domain *d);
/* The cold part of @d and of every domain above it (uses ctx->walk): for
 * a call whose commit may power them on after a change it cannot take
 * back. -ENOMEM: some may have theirs, nothing else changed. */
int dmn__pd_domain_cold_up(struct dmn_ctx *ctx, struct dmn_domain *d);
/* Start @s as a domain created at @created has it until its first state
 * change: off at level 0 (its one level, in @slot) since then. The
 * statistics readers (inspect.c) show a domain without its cold part so. */
void dmn__stats_start(struct dmn_stats *s, uint64_t created,
		      struct dmn_level_time *slot);

struct dmn_link {
	struct dmn_domain *parent, *child;
	dmn_map_fn map;
	void *map_user;
	uint32_t floor; /* required of the parent while the child is on */
	bool child_on;  /* counted in parent->on_children */
	uint32_t req;   /* counted in parent->votes (0 = nothing) */
};

/* The object there are most of (one per voter): 40 bytes on LP64. Its
 * handle's kind bits are always HK_ATTACH, so they hold the flag instead:
 * read the handle with att_handle(). */
struct dmn_attachment {
	struct dmn_device *dev;
	struct dmn_domain *dom;
	struct dmn_attachment *dom_prev, *dom_next;
	uint32_t vote;
	uint32_t handle_bits : 30; /* the handle without its kind */
	uint32_t counted : 1; /* vote counted in dom->votes, dom->active_devices */
	uint32_t hw : 1; /* in HW mode (lifecycle.c): counted in dom->cold->hw_count */
};

static inline uint32_t att_handle(const struct dmn_attachment *a)
{
	return a->handle_bits | ((uint32_t)HK_ATTACH << 30);
}

/* What few devices have: constraints and an OPP binding. Allocated by the
 * first setter (dmn__pd_device_cold), so a plain device is its header and
 * its name (issue 21). */
struct dmn_device_cold {
	uint64_t wakeup_ns; /* DMN_WAKEUP_NONE if unset */
	uint32_t qos_us;    /* DMN_QOS_NONE if unset */
	uint32_t parent;    /* devparent.c: the parent device's handle, or 0 */
	void *opp_state;    /* owned by the OPP layer */
	/* devparent.c: its active children, each one count of usage (a
	 * put never takes usage below it). */
	unsigned kids;
};

/* 31 bytes and the name on LP64. Attachments in attach order: a single
 * one (most devices) inline, several in an array whose capacity is the
 * power of two at or above n_atts (read them with dev_att()). */
struct dmn_device {
	union {
		struct dmn_attachment *one;    /* n_atts == 1 */
		struct dmn_attachment **many; /* n_atts >= 2 */
	} atts;
	struct dmn_device_cold *cold; /* NULL: no constraint, not bound */
	uint32_t handle;
	unsigned usage;
	unsigned sleep_usage; /* its usage when dmn_system_suspend suspended it */
	unsigned n_atts;
	bool probed : 1; /* lifecycle.c: a driver bound (held domains await it) */
	bool wakeup : 1; /* wakeup-enabled (DT wakeup-source, or set) */
	bool always_on : 1; /* rpm_always_on: counted in each domain's ao_devs */
	char name[];
};

static inline struct dmn_attachment *dev_att(const struct dmn_device *dev,
					    unsigned i)
{
	return dev->n_atts == 1 ? dev->atts.one : dev->atts.many[i];
}
static inline void *dev_opp_state(const struct dmn_device *dev)
{
	return dev->cold ? dev->cold->opp_state : 0;
}
static inline uint32_t dev_qos_us(const struct dmn_device *dev)
{
	return dev->cold ? dev->cold->qos_us : DMN_QOS_NONE;
}
/* Its active children (devparent.c): a put never takes usage below. */
static inline unsigned dev_kids(const struct dmn_device *dev)
{
	return dev->cold ? dev->cold->kids : 0;
}
static inline uint64_t dev_wakeup_ns(const struct dmn_device *dev)
{
	return dev->cold ? dev->cold->wakeup_ns : DMN_WAKEUP_NONE;
}
/* @dev's cold part, allocated (unset) on first use: NULL if out of
 * memory. */
struct dmn_device_cold *dmn__pd_device_cold(struct dmn_ctx *ctx,
					   struct dmn_device *dev);

/* One entry of the undo log: an address and the value it held, replayed
 * newest first. Most entries are a plain store back of @width bytes; a
 * histogram's count (an add taken back by a decrement, so a fix-up after
 * the commit point finds the bin) and an attachment's counted bit (not
 * addressable, and a restored vote is published again) are their own
 * kinds. */
enum undo_kind {
	UNDO_HIST_ADD,    /* undo by removing level @old from the histogram */
	UNDO_HIST_REMOVE, /* undo by adding it back */
	UNDO_COUNTED,     /* attachment's counted bit was @old */
	UNDO_BOOL,        /* a bool was @old */
	UNDO_U32,         /* a uint32_t / unsigned was @old */
	UNDO_WORD,        /* a pointer-sized word (a pointer) was @old */
};

struct undo_entry {
	void *addr;
	uintptr_t old;
	enum undo_kind kind;
};

struct dmn_ctx {
	struct dmn_alloc_ops alloc;
	struct dmn_lock_ops lock_ops;
	void *lock;
	dmn_time_fn now;
	dmn_time_fn pstate_now; /* now, a coarse default, or NULL: untimed
				 * (context.c, dmn__pstate_timed) */
	void *now_user;

	struct dmn_listener {
		dmn_listener_fn fn;
		void *user;
	} *listeners;
	unsigned n_listeners, cap_listeners;

	/* dmn_vote_many's validated changes, grown to the largest call. */
	struct dmn_vote_plan {
		struct dmn_attachment *att;
		uint32_t level; /* rounded */
	} *vote_plan;
	unsigned cap_vote_plan;

	struct handle_table domains;
	struct handle_table devices;
	struct handle_table attachments;

	/* Scratch of one operation: affected domains, parents first, and
	 * the order C and D of dmn__txn_commit visit them in (children first).
	 * Every scratch array holds at least one entry per live domain,
	 * reserved by dmn_domain_create, so no walk can fail. */
	struct dmn_domain **order;
	unsigned n_order, cap_order;
	struct dmn_domain **off_order;
	unsigned cap_off_order;
	uint64_t epoch;
	struct dmn_domain **stack; /* explicit DFS stacks: no recursion */
	unsigned cap_stack;
	/* dmn__walk_up's output: off_order's array, never live with it. */
	struct dmn_domain **walk;
	struct chain_step *chain; /* dmn__txn_vote_chain's, past 8 domains */
	unsigned cap_chain;
	uint64_t walk_epoch;

	struct undo_entry *undo;
	unsigned n_undo, cap_undo;

	/* Set while lifecycle.c records what boot left on: the commit then
	 * changes the records without calling the hardware. */
	bool record_only;
	/* Set during dmn_system_suspend's commit: power-offs go to the
	 * deepest idle state without asking the governor. */
	bool sleep_deepest;
	/* dmn_system_set_wakeup_latency: for CPU domains, in ns. */
	bool sys_qos_set;
	uint64_t sys_qos_ns;
	bool asleep;
	uint64_t sleep_since, sleep_time, sleep_count;
	/* A device was resumed: the boot state can no longer be recorded. */
	bool runtime_started;

	int last_error;
	int op_error; /* first callback error of the running operation */
	const struct dmn_domain *fail_dom; /* where an unsafe failure hit */
#ifdef DMN_FIRMWARE
	/* The attachment (device, domain) or link (parent, child) whose
	 * constraints left last (qos.c, firmware build). */
	const void *qos_gone[2];
#endif

	void *opp; /* owned by the OPP layer */
	void (*opp_fini)(struct dmn_ctx *ctx);
	/* Set by the OPP layer around a change that moves other devices in
	 * the same transaction (src/opp/devreq.c): dmn__txn_commit calls it
	 * first (!@mid: more inputs; a negative errno aborts) and between
	 * its raises and its lowerings (@mid: those devices' clocks and
	 * supplies; an error rolls back, ROLLBACK naming ctx->fail_dom). */
	int (*txn_hook)(struct dmn_ctx *ctx, bool mid);
	/* The lifecycle unit's hooks (NULL until it is used): see
	 * struct dmn_lifecycle_hooks. */
	const struct dmn_lifecycle_hooks *life;
	/* The devparent unit's hook (NULL until dmn_device_set_parent): first
	 * in a runtime resume (@resume) or suspend of @dev, it changes the
	 * inputs of the parents that change with @dev. */
	int (*dev_parent)(struct dmn_ctx *ctx, struct dmn_device *dev,
			  bool resume);

	/* The next context the same thread holds (see dmn__lock). */
	struct dmn_ctx *held_next;

	/* Lock striping (default pthread lock only, see dmn__lock): NULL,
	 * or DMN_STRIPES cache-line-sized mutexes; stripes_mem is the block
	 * they were carved from. internal_listeners counts the listeners
	 * added by the OPP layer's follow unit, which read other
	 * domains and so keep every call on the exclusive path. */
	struct dmn_stripe *stripes;
	void *stripes_mem;
	unsigned internal_listeners;
	/* Odd while an exclusive call runs on a striped context (dmn__lock
	 * to dmn__unlock): dmn_vote's lock-free unchanged check trusts a
	 * published vote only if this was even and the same around its
	 * read (a sequence lock; device.c vote_published). */
	unsigned excl_seq;
	/* Exclusive calls on a striped context so far (dmn__lock), 1 to
	 * 2^32 - 1 (at the wrap every domain's check is dropped:
	 * dmn__shape_epoch_wrap): a domain whose one-voter shape was
	 * checked at this count has not changed since but for votes on its
	 * stripe (struct dmn_domain, solo_epoch; 0 there: not checked).
	 * Written with every stripe held. */
#if DMN_FAST_PATHS
	uint32_t shape_epoch;
#endif
	/* Non-zero once a link was added or removed above a device holding
	 * a non-zero vote (domain.c): that vote may now reach no callback
	 * or a smaller table, so an unchanged non-zero vote is checked again
	 * (DESIGN §1: checked when a vote is cast) instead of answering 0.
	 * Written by exclusive calls only; never cleared. */
	unsigned relinked;
};

/* context.c */
void *dmn__alloc(struct dmn_ctx *ctx, size_t size);
void dmn__free(struct dmn_ctx *ctx, void *ptr);
char *dmn__strdup(struct dmn_ctx *ctx, const char *s);
/* Speed or size: hosted builds inline the few functions every public call
 * runs (the lock pair, the handle lookup); size-optimized (firmware) builds
 * keep one out-of-line copy, defined where DMN_LOCK_HERE / DMN_LOOKUP_HERE
 * is set (context.c, handle.c). */
#if !defined(__OPTIMIZE_SIZE__)
#define DMN_HOT_LOCK static inline
#define DMN_DEFINE_LOCK 1
#else
#define DMN_HOT_LOCK
#if defined(DMN_LOCK_HERE)
#define DMN_DEFINE_LOCK 1
#else
#define DMN_DEFINE_LOCK 0
#endif
#endif

#if DMN_CHECKS
/* check.c: the invariants, each a DMN_ASSERT. Does this thread hold
 * @ctx's lock? */
bool dmn__lock_held(const struct dmn_ctx *ctx);
/* @d's usage counts (active devices, on children) and its aggregate (the
 * max of its counted votes, child requirements and boot hold). @settled:
 * a committed transaction or a fast-path vote; false after a rollback or
 * an abort, whose caller may still be restoring the boot hold. */
void dmn__check_domain(const struct dmn_ctx *ctx, const struct dmn_domain *d,
		       bool settled);
/* Every domain the ending transaction touched (ctx->order). */
void dmn__check_txn_end(const struct dmn_ctx *ctx, bool committed);
/* A public call about to release the lock: no transaction left open. */
void dmn__check_call_end(const struct dmn_ctx *ctx);
#endif

/*
 * Locking (the order is in docs/design-notes.md, "Locking"):
 *
 * - exclusive: dmn__lock takes the context lock and then, on a striped
 *   context, every stripe in ascending index order. Every public call
 *   that is not a fast path runs so, alone in the context.
 * - fast: a vote or get/put whose effect stays inside one domain (or one
 *   device) takes ONE stripe, chosen by the slot of the handle it was
 *   given (dmn__fast_enter), which pins every object and the structure
 *   (no exclusive call can run), and then the fast_lock of each domain
 *   it changes, child before parent, each with a bounded spin: on a busy
 *   domain it lets go of everything and takes the exclusive path. So the
 *   only blocking waits are for the context lock holding nothing, or for
 *   a stripe holding the context lock and lower stripes only; the spins
 *   point up the tree and end: no cycle, no deadlock.
 *
 * Only contexts on the default pthread lock are striped: with the user's
 * lock hook (or dmn_lock_none, firmware) the one user lock is all there
 * is, and every call, fast paths included, runs under it.
 */
#if defined(DMN_HAVE_PTHREAD) && !defined(__STDC_NO_THREADS__)
#define DMN_STRIPED 1
#else
#define DMN_STRIPED 0
#endif

/* Whether dmn__alloc gives @ctx's blocks whole 64-byte lines of their own
 * (striped, default allocator; context.c). */
#if DMN_STRIPED
int dmn__alloc_whole_lines(const struct dmn_ctx *ctx);
#else
#define dmn__alloc_whole_lines(ctx) ((void)(ctx), 0)
#endif

/* The contexts whose lock this thread holds exclusively, innermost first,
 * linked through held_next (a context is held by one thread at a time),
 * and the fast paths it is in, innermost first, in nodes on its stack. A
 * call from a callback or listener into a context of either list would
 * deadlock on the default lock and corrupt state without one. */
struct dmn_fast_hold {
	struct dmn_ctx *ctx;
	struct dmn_fast_hold *next;
	unsigned stripe;
};
#if DMN_STRIPED
#if defined(__GNUC__)
#define DMN_TLS _Thread_local __attribute__((tls_model("initial-exec")))
#else
#define DMN_TLS _Thread_local
#endif
extern DMN_TLS struct dmn_ctx *dmn__held_by_thread;
extern DMN_TLS struct dmn_fast_hold *dmn__fast_held;
#else
extern struct dmn_ctx *dmn__held_by_thread;
#endif
typedef void (*dmn_lock_fn)(void *user, void *lock);
#if defined(DMN_HAVE_PTHREAD)
#include <pthread.h>
/* The default lock's hooks: dmn__lock calls pthread directly for them. */
extern const dmn_lock_fn dmn__pthread_acquire, dmn__pthread_release;
#endif

#if DMN_STRIPED
/* How many stripes a striped context has: enough that a few threads on
 * disjoint handles rarely meet, few enough that the exclusive path's
 * extra lock pairs stay small (16 uncontended pairs). */
#define DMN_STRIPES 16u
#include "stripe.h"
#endif

/* Take the context lock: 0, or -EDEADLK (and an assertion failure in
 * debug builds) when this thread already holds it, i.e. a callback or a
 * listener called back into its own context. Every public call starts
 * here, so a re-entrant call fails before it touches anything. Inline,
 * with the default pthread lock called directly: an unchanged vote is
 * little more than this lock pair (issue 21). */
DMN_HOT_LOCK int dmn__lock(struct dmn_ctx *ctx) DMN_MUST_CHECK;
DMN_HOT_LOCK void dmn__unlock(struct dmn_ctx *ctx);
/* Whether this thread is inside @ctx already (exclusive or fast). */
#if DMN_FAST_PATHS && DMN_STRIPED
/* ctx->shape_epoch wrapped to 0: every domain's one-voter check is
 * dropped and the count starts again at 1 (device.c). */
void dmn__shape_epoch_wrap(struct dmn_ctx *ctx);
#endif
DMN_HOT_LOCK int dmn__reentered(const struct dmn_ctx *ctx);
#if DMN_DEFINE_LOCK
DMN_HOT_LOCK int dmn__reentered(const struct dmn_ctx *ctx)
{
	for (const struct dmn_ctx *c = dmn__held_by_thread; c;
	     c = c->held_next)
		if (c == ctx)
			return 1;
#if DMN_STRIPED
	for (const struct dmn_fast_hold *h = dmn__fast_held; h; h = h->next)
		if (h->ctx == ctx)
			return 1;
#endif
	return 0;
}

DMN_HOT_LOCK int dmn__lock(struct dmn_ctx *ctx)
{
	if (dmn__reentered(ctx)) {
		DMN_ASSERT(!"re-entrant call into a domino context "
			    "from its own callback or listener");
		return -EDEADLK;
	}
#if defined(DMN_HAVE_PTHREAD)
	if (ctx->lock_ops.acquire == dmn__pthread_acquire)
		pthread_mutex_lock(ctx->lock);
	else
#endif
		ctx->lock_ops.acquire(ctx->lock_ops.user, ctx->lock);
#if DMN_STRIPED
	/* Ascending, after the context lock: see the order above. */
	if (ctx->stripes) {
		for (unsigned i = 0; i < DMN_STRIPES; i++)
			dmn__stripe_lock(&ctx->stripes[i]);
#if DMN_FAST_PATHS
		if (!++ctx->shape_epoch)
			dmn__shape_epoch_wrap(ctx);
#endif
		/* Odd, before anything this call writes (the fence). */
		__atomic_store_n(&ctx->excl_seq, ctx->excl_seq + 1,
				 __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
	}
#endif
	ctx->held_next = dmn__held_by_thread;
	dmn__held_by_thread = ctx;
	return 0;
}

DMN_HOT_LOCK void dmn__unlock(struct dmn_ctx *ctx)
{
#if DMN_CHECKS
	dmn__check_call_end(ctx);
#endif
	dmn__held_by_thread = ctx->held_next;
	ctx->held_next = 0;
#if DMN_STRIPED
	if (ctx->stripes) {
		/* Even, after everything this call wrote. */
		__atomic_store_n(&ctx->excl_seq, ctx->excl_seq + 1,
				 __ATOMIC_RELEASE);
		for (unsigned i = DMN_STRIPES; i > 0; i--)
			dmn__stripe_unlock(&ctx->stripes[i - 1]);
	}
#endif
#if defined(DMN_HAVE_PTHREAD)
	if (ctx->lock_ops.release == dmn__pthread_release)
		pthread_mutex_unlock(ctx->lock);
	else
#endif
		ctx->lock_ops.release(ctx->lock_ops.user, ctx->lock);
}
#endif

#if DMN_STRIPED
/* Enter a fast path of a striped context on the stripe of @slot: 0, or
 * -EDEADLK as dmn__lock. @h lives on the caller's stack until
 * dmn__fast_leave. Holding a stripe, nothing is created, removed or
 * relinked, and no exclusive call runs; fast paths on other stripes do. */
static inline int dmn__fast_enter(struct dmn_ctx *ctx, uint32_t slot,
				  struct dmn_fast_hold *h)
{
	if (dmn__reentered(ctx)) {
		DMN_ASSERT(!"re-entrant call into a domino context "
			    "from its own callback or listener");
		return -EDEADLK;
	}
	h->ctx = ctx;
	h->stripe = slot % DMN_STRIPES;
	dmn__stripe_lock(&ctx->stripes[h->stripe]);
	return 0;
}

/* Around anything that may run a callback or a listener: from there on a
 * call back into @h's context is refused (dmn__reentered). A fast path
 * that runs none (an unchanged vote) skips the two stores. */
static inline void dmn__fast_push(struct dmn_fast_hold *h)
{
	h->next = dmn__fast_held;
	dmn__fast_held = h;
}

static inline void dmn__fast_pop(struct dmn_fast_hold *h)
{
	dmn__fast_held = h->next;
}

static inline void dmn__fast_leave(struct dmn_ctx *ctx,
				   struct dmn_fast_hold *h)
{
	dmn__stripe_unlock(&ctx->stripes[h->stripe]);
}

/* A domain's own lock among fast paths. Taken child before parent along
 * a chain, so a wait only ever points up the tree (no cycle), and only
 * for a bounded spin: a holder is a fast path that waits for nothing
 * else and lets go within one callback. After the spin the caller falls
 * back to the exclusive path, which blocks properly. */
#define DMN_DOM_SPIN 256
static inline bool dmn__dom_trylock(struct dmn_domain *d)
{
	/* One thread: nobody else holds it (a call from a callback is
	 * refused before it gets here), so no atomic, as the stripes. */
	if (dmn__one_thread()) {
		if (__atomic_load_n(&d->fast_lock, __ATOMIC_RELAXED))
			return false;
		__atomic_store_n(&d->fast_lock, 1, __ATOMIC_RELAXED);
		return true;
	}
	for (unsigned i = 0; i < DMN_DOM_SPIN; i++) {
		if (!__atomic_load_n(&d->fast_lock, __ATOMIC_RELAXED) &&
		    !__atomic_exchange_n(&d->fast_lock, 1, __ATOMIC_ACQUIRE))
			return true;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	return false;
}

static inline void dmn__dom_unlock(struct dmn_domain *d)
{
	__atomic_store_n(&d->fast_lock, 0, __ATOMIC_RELEASE);
}

/* Publish @vote as the vote of the live attachment @h (its table @t):
 * every call whose outcome changed a vote, once it is final (handle.h,
 * struct handle_pub). Nothing without stripes. */
/* The word of the attachment in slot index @slot: its stripe's group
 * (the stripe is (slot + 1) % DMN_STRIPES, as dmn__fast_enter picks). */
static inline uint64_t *dmn__pub_word(const struct handle_pub *p,
				      uint32_t slot)
{
	return &p->w[(size_t)((slot + 1u) % DMN_STRIPES) * p->per +
		     (slot + 1u) / DMN_STRIPES];
}

/* The word that says handle @h is live and its vote is @vote. */
static inline uint64_t dmn__pub_value(uint32_t h, uint32_t vote)
{
	return ((uint64_t)((h >> 20) & HANDLE_GEN_MASK) << 33) |
	       HANDLE_PUB_LIVE | vote;
}
static inline void dmn__handle_publish(struct handle_table *t, uint32_t h,
				       uint32_t vote)
{
	if (!t->pub)
		return;
	uint32_t slot = (h & HANDLE_SLOT_MASK) - 1u;
	__atomic_store_n(dmn__pub_word(t->pub, slot), dmn__pub_value(h, vote),
			 __ATOMIC_RELAXED);
}

/* dmn_last_error() from a fast path: fast paths on other stripes write it
 * too, so atomically, and only when it changes, so that two threads whose
 * calls succeed do not pass its cache line back and forth. The exclusive
 * path reads and writes it plainly: it runs alone. */
static inline void dmn__fast_result(struct dmn_ctx *ctx, int err)
{
	if (__atomic_load_n(&ctx->last_error, __ATOMIC_RELAXED) != err)
		__atomic_store_n(&ctx->last_error, err, __ATOMIC_RELAXED);
}
#else
#define dmn__handle_publish(t, h, vote) ((void)0)
#endif

/* Take the lock again in a public call that took and released it a moment
 * ago (around a nested public call): a re-entrant caller was refused by
 * that first dmn__lock, so this cannot fail. */
static inline void dmn_relock(struct dmn_ctx *ctx)
{
	int err = dmn__lock(ctx);
	DMN_ASSERT(!err);
	(void)err;
}
void dmn__emit(struct dmn_ctx *ctx, const struct dmn_event *ev);
/* Add the listener (@fn, @user) with the lock held: 0, or -ENOMEM. The
 * OPP layer's follow unit counts its own in internal_listeners. */
int dmn__listen_add(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user);
/* Remove the listener (@fn, @user): 0, or -ENOENT. */
int dmn__listen_remove(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user);
int dmn__grow_slow(struct dmn_ctx *ctx, void **array, unsigned *cap,
		  unsigned need, size_t elem);
/* Make *@array hold at least @need elements of @elem bytes: 0, or -ENOMEM
 * with the array unchanged. Inline because nearly every call already has
 * room (each vote reserves its undo log, histogram and statistics). */
#if defined(__OPTIMIZE_SIZE__)
#define dmn_grow dmn__grow_slow /* one copy of the check in -Os builds */
#else
static inline int dmn_grow(struct dmn_ctx *ctx, void **array, unsigned *cap,
			   unsigned need, size_t elem)
{
	return need <= *cap ? 0 : dmn__grow_slow(ctx, array, cap, need, elem);
}
#endif

/* dmn_device_get, dmn_device_put and dmn_vote with the lock already held (the
 * OPP layer's dmn_opp_device_get/put/vote, which must not release the lock
 * around them: a concurrent destroy of the device or its OPP state could
 * run in the gap). Same results; they set dmn_last_error(). */
int dmn__pd_device_get_locked(struct dmn_ctx *ctx, dmn_device_t h);
int dmn__pd_device_put_locked(struct dmn_ctx *ctx, dmn_device_t h);
int dmn__pd_vote_locked(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level);

void dmn__pd_domain_free(struct dmn_ctx *ctx, struct dmn_domain *d);
/* Free the context's lock stripes (context.c; dmn_ctx_destroy). */
void dmn__stripes_destroy(struct dmn_ctx *ctx);

/* Look handles up; NULL if stale or of another kind. */
struct dmn_domain *dmn__pd_domain_get(struct dmn_ctx *ctx, dmn_domain_t h);
/* dmn_link_add, and with @map every parent link of @child (the new one's
 * included) mapped by (@map, @map_user) and its requirement passed up
 * again, all in the one transaction: on failure nothing changed (the OPP
 * layer's dmn_opp_link_add). */
int dmn__link_add_map(struct dmn_ctx *ctx, dmn_domain_t parent,
		      dmn_domain_t child, dmn_map_fn map, void *map_user);

/* What powers @d on and keeps it on. */
static inline bool domain_needs_on(const struct dmn_domain *d)
{
	return (d->flags & DMN_FLAG_ALWAYS_ON) || d->active_devices ||
	       d->on_children ||
	       (d->cold && (d->cold->held || d->cold->sleep_keep));
}

/* What only keeps an on @d on, a veto of its runtime power-off (Linux
 * genpd_power_off's rpm_always_on and HW-mode cases): it powers nothing on,
 * and system sleep ignores it. */
static inline bool domain_kept_on(const struct dmn_domain *d)
{
	const struct dmn_domain_cold *c = d->cold;
	return d->on && c && (c->hw_count || c->ao_devs) && !c->sleeping;
}

/* Whether anything requires @d on: the one rule the transaction engine
 * powers domains on and off by, and that explain reports against. */
static inline bool domain_wants_on(const struct dmn_domain *d)
{
	return domain_needs_on(d) || domain_kept_on(d);
}
struct dmn_device *dmn__pd_device_get_ptr(struct dmn_ctx *ctx, dmn_device_t h);
struct dmn_attachment *dmn__pd_attach_get(struct dmn_ctx *ctx, dmn_attach_t h);

/* The entry of a public call on one object (issue 19): -EINVAL without
 * @ctx or with @args_ok false, -EDEADLK from a callback, then the object @h
 * names in the handle table at @table (DMN_DOMAINS, DMN_DEVICES or
 * DMN_ATTACHMENTS), or -EBADF; DMN_ENTER_RECORD or-ed into @table also
 * records that -EBADF as the call's result (pd_last_error) for the calls that
 * run a transaction. Returns the object with the lock held and *@err 0, or
 * NULL with *@err set and the lock not held. One out-of-line copy instead of a
 * preamble in every call keeps the firmware core small (issue 15). */
void *dmn__enter(struct dmn_ctx *ctx, bool args_ok, size_t table, uint32_t h,
		 int *err);
/* Its first half, for tables outside struct dmn_ctx (OPP tables) and for
 * calls on the context (create calls, walkers): 0 with the lock held, or
 * -EINVAL / -EDEADLK without it. */
int dmn__enter_ctx(struct dmn_ctx *ctx, bool args_ok);
/* Its second half, for the second object of a call on two (dmn_attach,
 * dmn_link_add): the object @h names at @table with the lock still held,
 * or NULL with *@err -EBADF (recorded with DMN_ENTER_RECORD) and the lock
 * released. */
void *dmn__enter_more(struct dmn_ctx *ctx, size_t table, uint32_t h,
		      int *err);
/* Leave a call the entry let in, before it changed anything: *@out = @err,
 * recorded as the call's result if @record has DMN_ENTER_RECORD, the lock
 * released. Returns NULL (for the entry helpers' failures). */
void *dmn__enter_leave(struct dmn_ctx *ctx, size_t record, int err, int *out);
/* Leave a state-changing call: its result recorded as dmn_last_error()
 * (txn_result), the lock released. Returns @err. */
int dmn__leave(struct dmn_ctx *ctx, int err);
/* The entry of a call on the link from @child up to @parent: as dmn__enter
 * (@record: DMN_ENTER_RECORD or 0), then -EBADF for a stale handle or
 * -ENOENT without such a link. */
/* Free the OPP layer's state of @ctx, whatever the reference counts say
 * (src/opp/teardown.c; dmn_ctx_destroy calls it directly in a firmware
 * build, through ctx->opp_fini otherwise). */
void dmn__opp_ctx_fini(struct dmn_ctx *ctx);
/* Make @l pass up (on, requirement(level)) now, as one transaction;
 * sets dmn_last_error(). */
int dmn__link_update(struct dmn_ctx *ctx, struct dmn_link *l, bool on,
		     uint32_t level);
/* After a link to or from @c was added or removed: unchanged non-zero
 * votes are checked again where one may sit below @c (ctx->relinked). */
void dmn__note_relink(struct dmn_ctx *ctx, struct dmn_domain *c);
struct dmn_link *dmn__enter_link(struct dmn_ctx *ctx, bool args_ok,
				size_t record, dmn_domain_t parent,
				dmn_domain_t child, int *err);
/* @dev's attachment to @d, or NULL. */
/* Take @a out of its domain's list and its device's array (it stays
 * allocated and keeps its handle). */
void dmn__att_unlink(struct dmn_ctx *ctx, struct dmn_attachment *a);
struct dmn_attachment *dmn__attach_find(const struct dmn_device *dev,
				       const struct dmn_domain *d);
#define DMN_DOMAINS offsetof(struct dmn_ctx, domains)
#define DMN_DEVICES offsetof(struct dmn_ctx, devices)
#define DMN_ATTACHMENTS offsetof(struct dmn_ctx, attachments)
/* Table offsets are pointer-aligned, so bit 0 is free for the flag. */
#define DMN_ENTER_RECORD ((size_t)1)

/* txn.c: the engine every state change goes through. */
void dmn__txn_begin(struct dmn_ctx *ctx);
int dmn__txn_hist_add(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t level);
void dmn__txn_hist_remove(struct dmn_ctx *ctx, struct dmn_domain *d,
		     uint32_t level);
int dmn__txn_set_vote(struct dmn_ctx *ctx, struct dmn_attachment *a, uint32_t vote,
		 bool counted);
int dmn__txn_touch(struct dmn_ctx *ctx, struct dmn_domain *d);
int dmn__txn_commit(struct dmn_ctx *ctx);
/* The engine's power-on step for @d (nothing if on or nothing wants it
 * on): the callback, statistics, DMN_EV_POWER_ON or an unsafe
 * DMN_EV_FAILURE and ctx->op_error; 0 or the callback's error (-EIO for
 * a positive one). dmn__txn_commit's, and an always-on domain's at its
 * creation. */
int dmn__txn_power_on(struct dmn_ctx *ctx, struct dmn_domain *d);
/* dmn_vote's path for a counted vote on an on domain whose ancestry is a
 * single-parent chain of on domains (txn.c says which): 1 if it handled
 * the vote (result in *@err, the first callback error in *@op_error; same
 * callbacks, events, statistics and errors as the general engine), 0 if
 * the caller must take the general path (nothing changed). Alone in the
 * context (@shared false) it takes a chain of any depth and may allocate
 * (a level new to a histogram, ctx->chain past 8 domains); with @shared
 * (a striped context's fast path) at most 8 domains, each one's fast_lock
 * taken (falls back if one is taken), and it never allocates. O(depth *
 * log L) in the distinct levels L, plus the callbacks of the domains whose
 * level moves. */
int dmn__txn_vote_chain(struct dmn_ctx *ctx, struct dmn_attachment *a,
			uint32_t level, int *err, int *op_error, bool shared);
/* One event for the listeners, as the engine builds it: for the one-voter
 * path (device.c vote_solo), which calls it only when someone listens. */
void dmn__txn_emit(struct dmn_ctx *ctx, enum dmn_event_kind kind,
		   enum dmn_op op, const struct dmn_domain *d, int error,
		   int safe, uint32_t old_v, uint32_t new_v);
void dmn__txn_abort(struct dmn_ctx *ctx);
/* device.c: set @a's vote to @level (checked) and whether it counts in
 * an open transaction, and touch its domain if it counts (nothing if
 * both are as they were); on an error the transaction is aborted. For
 * dmn_vote, dmn_attach and dmn_vote_many (extend.c). */
int dmn__vote_set(struct dmn_ctx *ctx, struct dmn_attachment *a,
		  uint32_t level, bool counted);
int dmn__txn_check_level(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t level,
		    uint32_t *rounded);
int dmn__txn_link_set(struct dmn_ctx *ctx, struct dmn_link *l, bool on,
		 uint32_t level);
/* Store @v in the 32-bit field at @field, logging the old value: a
 * failed commit puts it back (a device's usage, devparent.c's counts). */
int dmn__txn_set_u32(struct dmn_ctx *ctx, unsigned *field, unsigned v);
static inline int dmn__txn_set_usage(struct dmn_ctx *ctx,
				     struct dmn_device *dev, unsigned usage)
{
	return dmn__txn_set_u32(ctx, &dev->usage, usage);
}
/* Give @l a new map and floor; a failed commit puts the old ones back
 * before its rollback recomputes what the child requires. */
int dmn__txn_link_config(struct dmn_ctx *ctx, struct dmn_link *l, dmn_map_fn map,
		    void *map_user, uint32_t floor);
/* The lifecycle (lifecycle.c, sleep.c) is an optional unit of a firmware
 * image (issue 15): the core reaches it only through these hooks, which its
 * first call that makes lifecycle state (a boot hold, a probe, system
 * sleep) installs in ctx->life. Until then no domain is held, none has
 * sleep statistics and a resume's probe only marks the device probed, so
 * an image that never calls the lifecycle links without it. */
struct dmn_lifecycle_hooks {
	/* Probe @dev (the lock held) and commit; @begun: inside
	 * dmn_device_get, whose resume began the transaction and set its
	 * inputs (one commit for both). */
	int (*probe_locked)(struct dmn_ctx *ctx, struct dmn_device *dev,
			    bool begun);
	/* dmn_attach / dmn_detach: @dev's attachment to @d comes or goes. */
	void (*attach)(struct dmn_domain *d, const struct dmn_device *dev,
		       bool attach);
	/* Free @d's system-sleep statistics. */
	void (*domain_free)(struct dmn_ctx *ctx, struct dmn_domain *d);
	/* Add (@delta 1) or take away (-1) the power-off vetoes an
	 * attachment gives its domain (dmn__lifecycle_vetoes). */
	bool (*vetoes)(struct dmn_attachment *a, int delta);
	/* System sleep's idle state for @d (dmn__idle_choose_sleep): only
	 * dmn_system_suspend, which installs these hooks, asks. */
	int (*sleep_choose)(struct dmn_ctx *ctx, struct dmn_domain *d,
			    unsigned *rejected_from);
};
/* lifecycle.c: the start of every lifecycle and sleep call, once the
 * entry let it in: install the hooks (idempotent) and clear the call's
 * first safe-direction error (ctx->op_error). */
void dmn__lifecycle_begin(struct dmn_ctx *ctx);
/* sleep.c: system sleep's choice for @d: its deepest state, or for a CPU
 * domain the deepest within the system wakeup latency (DMN_GOV_STAY_ON if
 * none fits), recorded for explain; *@rejected_from as for
 * dmn__stats_power. */
int dmn__sleep_choose(struct dmn_ctx *ctx, struct dmn_domain *d,
		      unsigned *rejected_from);
int dmn__lifecycle_probe_locked(struct dmn_ctx *ctx, struct dmn_device *dev,
				bool begun);
void dmn__lifecycle_attach(struct dmn_domain *d, const struct dmn_device *dev,
		      bool attach);
/* Add (@delta 1) or take away (-1) the power-off vetoes @a gives its
 * domain (HW mode, an always-on device); true if it gives any. dmn_attach
 * adds them, dmn_detach takes them away in its transaction (and puts them
 * back if that fails). */
bool dmn__lifecycle_vetoes(struct dmn_attachment *a, int delta);

/* sleep.c: free @d's system-sleep statistics. */
void dmn__sleep_free(struct dmn_ctx *ctx, struct dmn_domain *d);

/* walk.c: iterative graph walks; cost O(domains + links visited). */
/* Put @from and every domain above it into ctx->walk, each after all its
 * parents (parents in link order); returns how many. Marks them with a new
 * walk epoch: walk_mark == ctx->walk_epoch. */
unsigned dmn__walk_up(struct dmn_ctx *ctx, struct dmn_domain *from);
/* The same with @from and every domain below it, each after all its
 * children. */
unsigned dmn__walk_down(struct dmn_ctx *ctx, struct dmn_domain *from);
/* Append @from and every domain above it not yet marked with ctx->epoch to
 * ctx->order, each after all its parents, marking them. */
void dmn__walk_touch(struct dmn_ctx *ctx, struct dmn_domain *from);
/* Is @target @from or below it? Searches up from @target and down from
 * @from in turns, so the cost is about twice the smaller side. */
bool dmn__walk_reaches_down(struct dmn_ctx *ctx, struct dmn_domain *from,
		       struct dmn_domain *target);
/* Grow every scratch array to hold ctx->domains.live + @extra domains. */
int dmn__walk_reserve(struct dmn_ctx *ctx, unsigned extra);

/* idle.c, qos.c, stats.c */
/* The governor's choice for @d; *@rejected_from as for dmn__stats_power. */
int dmn__idle_choose(struct dmn_ctx *ctx, struct dmn_domain *d, uint64_t now,
		unsigned *rejected_from);
void dmn__idle_free(struct dmn_ctx *ctx, struct dmn_domain *d);
int dmn__qos_attach(struct dmn_ctx *ctx, struct dmn_device *dev, struct dmn_domain *d,
	       bool attach);
int dmn__qos_link(struct dmn_ctx *ctx, struct dmn_domain *parent,
	     struct dmn_domain *child, bool link);
void dmn__qos_effective(struct dmn_ctx *ctx, const struct dmn_domain *d,
		   uint64_t now, uint64_t *qos_ns, uint64_t *wakeup_ns);
void dmn__stats_free(struct dmn_ctx *ctx, struct dmn_domain *d);
/* Room for @extra levels not seen yet; -ENOMEM changes nothing. */
int dmn__stats_reserve(struct dmn_ctx *ctx, struct dmn_domain *d, unsigned extra);
void dmn__stats_account(struct dmn_domain *d, uint64_t now);
/* @rejected_from: the governor ruled out every idle state at or after this
 * index (UINT_MAX: none). */
void dmn__stats_power(struct dmn_ctx *ctx, struct dmn_domain *d, bool on, int idle,
		 unsigned rejected_from);
void dmn__stats_rejected(struct dmn_domain *d, unsigned rejected_from);
void dmn__stats_pstate(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t new_level);
#ifndef DMN_FIRMWARE
/* The slot of @level in @s, or s->n_levels if none: O(1) on average (the
 * index of stats.c, which slots appended without it join here). */
unsigned dmn__stats_find(struct dmn_stats *s, uint32_t level);
#endif
/* The same, for the vote paths: a scan, inline, while @s holds too few
 * levels for an index (every domain with a small table: no call and no
 * hash), dmn__stats_find once it has one (hosted builds). */
static inline unsigned dmn__stats_slot(struct dmn_stats *s, uint32_t level)
{
#ifndef DMN_FIRMWARE
	if (s->index)
		return dmn__stats_find(s, level);
#endif
	unsigned i = 0;
	while (i < s->n_levels && s->levels[i].level != level)
		i++;
	return i;
}

/* Finish a public state-changing call: record dmn_last_error() (an atomic
 * store: dmn_vote's lock-free unchanged check reads it, device.c). Inline
 * unless size-optimized, then one copy in handle.c. */
#if defined(__OPTIMIZE_SIZE__)
int dmn__txn_result(struct dmn_ctx *ctx, int err);
#define txn_result dmn__txn_result
#define DMN_TXN_RESULT
#else
#define DMN_TXN_RESULT static inline
#endif
#if !defined(__OPTIMIZE_SIZE__) || defined(DMN_LOOKUP_HERE)
DMN_TXN_RESULT int txn_result(struct dmn_ctx *ctx, int err)
{
	__atomic_store_n(&ctx->last_error, err ? err : ctx->op_error,
			 __ATOMIC_RELAXED);
	return err;
}
#endif

#endif /* DOMINO_CORE_INTERNAL_H */
