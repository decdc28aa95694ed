/* SPDX-License-Identifier: MIT */
/*
 * The object model of the core: domains, links, devices, attachments and
 * the parts few of them use (allocated on first use). Layout matters: a
 * domain's hot fields come first, and an attachment (one per voter) is
 * kept to 40 bytes on LP64.
 */
#ifndef DOMINO_CORE_OBJECT_H
#define DOMINO_CORE_OBJECT_H

#include <domino/domain.h>
#include <domino/idle.h>
#include <stdbool.h>
#include <stdint.h>

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
	/* Hints, checked before use: the slot of the pstate and of the one
	 * before it (dmn__stats_pstate keeps them; the fast unit's rail
	 * votes between the two without a search). */
	unsigned slot_cur, slot_prev;
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
 * vetoes, rounding. Allocated by dmn__domain_cold before the operation
 * that first needs it changes anything; until then every field reads as
 * zero (dom_cold) and the statistics as "off at level 0 since created"
 * (inspect.c). Keeps a plain domain small. */
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

	/* Power-off vetoes (lifecycle.c; docs/lifecycle.md): attachments in HW mode,
	 * attached devices with always_on; neither counts while sleeping
	 * (set from dmn_system_suspend to dmn_system_resume). */
	unsigned hw_count, ao_devs;
	bool sleeping;

	/* Scratch of qos.c's count_paths: paths from the domain it starts
	 * at (only domains that hold constraints take part). */
	uint64_t paths;
};

/* Hot fields first: what a vote and the engine read. */
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
	/* Held by a fast path on this domain (fast/fast.c, dom_trylock):
	 * only the fast unit touches it, and only on striped contexts. */
	unsigned char fast_lock;
	/* Set while a transaction runs when the domain may have become
	 * unused (touched, or it lost an active device or an on child): only
	 * then does settle ask the governor (txn.c; docs/semantics.md: "only when a
	 * domain becomes unused"). Cleared when the transaction ends. */
	unsigned char due;

	/* Parents and children, as arrays of link pointers, in link order
	 * (capacity: see links_room in domain.c). */
	unsigned n_parents;
	unsigned n_children;
	/* The fast unit's (src/core/fast/; unused without it): the value of
	 * ctx->fast_epoch when it last found this domain a rail it may vote
	 * on without checking again (0: not found since). */
	uint32_t fast_epoch;
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
/* @d's cold part to read: its own, or dmn__cold_none (all zero). */
static inline const struct dmn_domain_cold *dom_cold(const struct dmn_domain *d)
{
	return d->cold ? d->cold : &dmn__cold_none;
}
/* @d's cold part, allocated on first use (statistics started at creation):
 * NULL if out of memory, @d unchanged. */
struct dmn_domain_cold *dmn__domain_cold(struct dmn_ctx *ctx,
					   struct dmn_domain *d);
/* The cold part of @d and of every domain above it (uses ctx->walk): for
 * a call whose commit may power them on after a change it cannot take
 * back. -ENOMEM: some may have theirs, nothing else changed. */
int dmn__domain_cold_up(struct dmn_ctx *ctx, struct dmn_domain *d);
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
 * first setter (dmn__device_cold), so a plain device is its header and
 * its name. */
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
struct dmn_device_cold *dmn__device_cold(struct dmn_ctx *ctx,
					   struct dmn_device *dev);

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

#endif /* DOMINO_CORE_OBJECT_H */
