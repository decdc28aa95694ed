/* SPDX-License-Identifier: MIT */
/*
 * Internal structures of the OPP layer. Only src/opp includes this.
 *
 * Ownership
 *  - struct dmn_opp_ctx hangs off dmn_ctx->opp, made on the first OPP call and
 *    freed by dmn_ctx_destroy() through dmn_ctx->opp_fini.
 *  - A table owns its entries. Entries never move in memory and are never
 *    removed while the table lives, so a pointer to one (from another
 *    table's required OPP, which holds a table reference) stays valid.
 *  - A bound device's state is dmn_device->cold->opp_state; the core refuses to
 *    remove a device while it is set.
 *  - A domain's level table is dmn_domain->opp_state (a struct dmn_opp_domain,
 *    also kept on dmn_opp_ctx->domains so that the context can free it).
 */
#ifndef DOMINO_OPP_INTERNAL_H
#define DOMINO_OPP_INTERNAL_H

#include <domino/opp.h>

#include "../core/opp_core.h"

struct dmn_opp_table;

/* One allocation per entry (docs/decisions/memory-layout.md: 16 bytes of header
 * on LP64, the bench's one-clock one-supply entry 40 bytes with its lists):
 * this header, then its lists, each sized from the description, in an order
 * that keeps each aligned (the header and each list before the pointers are
 * multiples of 8 bytes):
 *   uint64_t hz[n_hz];
 *   struct dmn_opp_supply supplies[n_supplies];
 *   struct dmn_opp_required required[n_required];      (as given)
 *   const struct dmn_opp_entry *req_entry[n_required]; (resolved)
 *   uint32_t microwatt;   (only with OE_MICROWATT)
 *   uint32_t pstate;      (only with OE_PSTATE_SLOT: the table had a helper)
 *   char name[];          (only with OE_NAME)
 * A required OPP's table is the one its handle, required[j].table, names:
 * the entry holds a reference on it, so the handle stays that table's.
 * Read them through the accessors below (req_off, set by dmn_opp_add,
 * finds req_entry[] directly: at most 16 + 255 * 32 bytes in). Counts are 8-bit and flags
 * 16-bit: dmn_opp_add refuses larger ones with -EOVERFLOW. An entry's place
 * in table->sorted is not stored: dmn__opp_entry_pos finds it (O(log n))
 * and dmn__opp_entry_cmp orders two entries of a table. */
#define OPP_ENTRY_MAX_COUNT UINT8_MAX
#define OPP_ENTRY_MAX_FLAGS UINT16_MAX
enum {
	OE_AVAILABLE = 1u << 0,
	OE_HAS_PSTATE = 1u << 1, /* pstate recorded by a get-pstate helper */
	OE_PSTATE_SLOT = 1u << 2,
	OE_MICROWATT = 1u << 3,
	OE_NAME = 1u << 4,
};
struct dmn_opp_entry {
	uint32_t id;
	uint32_t level;
	uint16_t flags; /* DMN_OPP_FLAG_* as given */
	uint8_t n_hz, n_supplies, n_required;
	uint8_t bits; /* OE_* */
	/* bytes from the entry to req_entry[] (in what was padding): the
	 * required OPPs, read on every move, cost no sum over the lists
	 * before them */
	uint16_t req_off;
};
_Static_assert(sizeof(struct dmn_opp_entry) == 16,
	       "an entry's header stays 16 bytes (hz[] follows it aligned)");

static inline uint64_t *oe_hz(const struct dmn_opp_entry *e)
{
	return (uint64_t *)(void *)(uintptr_t)(e + 1);
}
static inline struct dmn_opp_supply *oe_supplies(const struct dmn_opp_entry *e)
{
	return (struct dmn_opp_supply *)(void *)(oe_hz(e) + e->n_hz);
}
static inline struct dmn_opp_required *oe_required(const struct dmn_opp_entry *e)
{
	return (struct dmn_opp_required *)(void *)((uintptr_t)e + e->req_off) -
	       e->n_required;
}
static inline const struct dmn_opp_entry **oe_req_entry(const struct dmn_opp_entry *e)
{
	return (const struct dmn_opp_entry **)(void *)((uintptr_t)e + e->req_off);
}
static inline uint32_t *oe_tail(const struct dmn_opp_entry *e)
{
	return (uint32_t *)(void *)(oe_req_entry(e) + e->n_required);
}
static inline uint32_t oe_microwatt(const struct dmn_opp_entry *e)
{
	return (e->bits & OE_MICROWATT) ? oe_tail(e)[0] : 0;
}
/* The helper's pstate slot (OE_PSTATE_SLOT only). */
static inline uint32_t *oe_pstate_slot(const struct dmn_opp_entry *e)
{
	return oe_tail(e) + !!(e->bits & OE_MICROWATT);
}
static inline bool oe_has_pstate(const struct dmn_opp_entry *e)
{
	return e->bits & OE_HAS_PSTATE;
}
static inline uint32_t oe_pstate(const struct dmn_opp_entry *e)
{
	return oe_has_pstate(e) ? *oe_pstate_slot(e) : 0;
}
static inline const char *oe_name(const struct dmn_opp_entry *e)
{
	if (!(e->bits & OE_NAME))
		return 0;
	return (const char *)(oe_pstate_slot(e) +
			      !!(e->bits & OE_PSTATE_SLOT));
}
static inline bool oe_available(const struct dmn_opp_entry *e)
{
	return e->bits & OE_AVAILABLE;
}
static inline void oe_set_available(struct dmn_opp_entry *e, bool on)
{
	e->bits = (uint8_t)(on ? e->bits | OE_AVAILABLE : e->bits & ~OE_AVAILABLE);
}

struct dmn_opp_dev;
struct dmn_opp_ctx;

struct dmn_opp_table {
	dmn_opp_table_t handle;
	char *name;
	unsigned refs;
	struct dmn_opp_entry **by_id; /* index = id */
	uint32_t *sorted; /* ids, by (hz[0], level, hz[1..]) or level */
	unsigned n, cap_id, cap_sorted;
	bool has_freq; /* decided by the first entry */
	bool has_level; /* some entry has a level (else: a device table) */
	bool boost;
	unsigned max_supplies; /* over its entries */
	/* Tables this one's required OPPs point into: one reference each. */
	struct dmn_opp_table **deps;
	unsigned n_deps, cap_deps;
	/* Tables whose required OPPs point into this one (no reference): the
	 * requirers of a device table. */
	struct dmn_opp_table **users;
	unsigned n_users, cap_users;
	uint32_t mark;		      /* walks: visited when == dmn_opp_ctx mark */
	unsigned walk_next;	      /* dmn__opp_reach: the next of deps[] */
	struct dmn_opp_table *walk_up;	  /* dmn__opp_reach: the path back */
	struct dmn_opp_table *order_next; /* dmn__opp_reach's list */
	struct dmn_opp_table *free_next; /* dmn__opp_table_unref's work list */
	dmn_opp_get_pstate_fn helper;
	void *helper_user;
	unsigned helper_regs;
	struct dmn_opp_dev *devices; /* bound devices */
	unsigned n_domains;	 /* domains taking their levels from it */
};

/* What a device's regulator last accepted for one supply. */
struct dmn_opp_supply_rec {
	struct dmn_opp_supply s;
	bool known;
};

struct dmn_opp_dev {
	struct dmn_device *pdev;
	struct dmn_opp_table *table;
	struct dmn_opp_dev *next; /* table->devices (unbind walks it) */
	struct dmn_opp_dev *fprev, *fnext; /* dmn_opp_ctx->followers */
	uint32_t vote_id;	       /* entry whose votes the device casts */
	uint32_t run_id;	       /* entry its clock and supplies are at */
	uint64_t requested_hz;
	const struct dmn_opp_clock_ops *clk;
	void *clk_user;
	const struct dmn_opp_regulator_ops *reg;
	void *reg_user;
	/* What the providers last accepted. */
	uint64_t clock_hz;
	bool clock_known;
	struct dmn_opp_supply_rec *supply; /* [cap_supply] */
	unsigned cap_supply;
	/* Device-to-device requirements: the entry the device's own rate
	 * picked (vote_id is the effective one, at least this). */
	uint32_t own_id;
	/* An owner's own latest word per attachment: DMN__OWN_DIRECT | level
	 * where its latest was a direct vote (dmn_opp_device_vote), 0 where it
	 * was its own rate (own_id's entry counts there). Its vote is the
	 * higher of that and its effective entry's (docs/semantics.md: the
	 * latest of vote and rate wins; docs/device-tree.md). */
	uint64_t *own_vote;
	unsigned cap_own_vote;
	/* its new entry, counted too while its rate moves it (devreq.c) */
	const struct dmn_opp_entry *req_extra;
	/* An owner a requirer's change moves in the same core transaction
	 * (devreq.c txn_hook): the next of dmn_opp_ctx->txn_moving, where
	 * to and from (undo_was), whether its clock or supplies failed to go
	 * down, and whether owners_in listed it. */
	struct dmn_opp_dev *txn_next, *stay_next;
	const struct dmn_opp_entry *txn_to;
	const struct dmn_opp_entry *undo_was;
	uint64_t undo_clock_hz; /* its own clock before it had an entry */
	bool txn_stay;
	bool txn_in;
	bool follow;
	bool busy; /* in its own dmn_opp_set_rate: the follow listener keeps off */
};

#define DMN__OWN_DIRECT ((uint64_t)1 << 32)

struct dmn_opp_domain {
	struct dmn_ctx *ctx;
	struct dmn_domain *d; /* not dereferenced once the domain is removed */
	struct dmn_opp_table *table;
	struct dmn_opp_domain *next; /* dmn_opp_ctx->domains */
};

/* Opportunistic scaling (follow.c), an optional unit: the rest of the OPP
 * layer reaches it only through these, installed by the first
 * dmn_opp_device_follow(), so a firmware image without it links without
 * follow.c. Until then no device follows and each hook has nothing to do. */
struct dmn_opp_follow_ops {
	/* dmn__opp_permitted() of follow.c. */
	const struct dmn_opp_entry *(*permitted)(struct dmn_ctx *ctx,
					     struct dmn_opp_dev *od,
					     const struct dmn_opp_entry *floor,
					     dmn_domain_t dom, uint32_t dom_level);
	void (*drop)(struct dmn_ctx *ctx, struct dmn_opp_dev *od);
	void (*fini)(struct dmn_ctx *ctx, struct dmn_opp_ctx *oc);
};

/* Device-to-device requirements (devreq.c), an optional unit: the rest
 * of the OPP layer reaches it only through these (dmn_opp_ctx->devreq). */
struct dmn_opp_devreq_ops {
	/* dmn_opp_set_rate's move of @od with its owners (raised first,
	 * settled after); the core's dmn__opp_rate_locked calls it. */
	int (*rate)(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		    const struct dmn_opp_entry *target, uint64_t hz);
	/* See opp_with_owners. */
	int (*with_owners)(struct dmn_ctx *ctx, struct dmn_opp_table *t,
			   bool all, int (*op)(struct dmn_ctx *, void *),
			   void *arg);
	/* After a requirer left @t (unbound), its owners settle to what is
	 * left; failures are safe, noted (dmn__opp_note). */
	void (*settle)(struct dmn_ctx *ctx, struct dmn_opp_table *t);
};

/* devreq.c's hooks. A firmware build references them weakly (its core
 * links without devreq.c: then a device-to-device requirement is
 * refused, dmn_opp_add); a hosted library has every unit. */
#ifdef DMN_FIRMWARE
extern const struct dmn_opp_devreq_ops dmn__opp_devreq_ops
    __attribute__((weak));
#else
extern const struct dmn_opp_devreq_ops dmn__opp_devreq_ops;
#endif

struct dmn_opp_ctx {
	struct handle_table tables;
	struct dmn_opp_domain *domains;
	const struct dmn_opp_follow_ops *follow; /* NULL until a device follows */
	/* The get-pstate helper (helper.c, an optional unit) installs this
	 * with its first registration; dmn_opp_add calls it for a new entry
	 * @e of a table with a helper (its pstate slot is there): 0, or the
	 * helper's error (a positive one as -EIO). */
	int (*pstate_of)(struct dmn_opp_table *t, struct dmn_opp_entry *e);
	struct dmn_opp_dev *followers;
	bool listening;
	/* Scratch of the matching rule (dmn__opp_match), grown to fit; used and
	 * done with inside one call, never across a callback. */
	int *req_slot;
	unsigned cap_req_slot;
	/* The ancestor walk: its stack in walk[].d and, by domain slot, its
	 * visit marks in walk[].mark (one array, grown to every slot). */
	struct {
		struct dmn_domain *d;
		uint32_t mark;
	} *walk;
	unsigned cap_walk;
	uint32_t dom_gen;
	uint32_t table_gen; /* opp_table.mark */
	/* Device-to-device requirements (devreq.c, an optional unit):
	 * installed by the dmn_opp_add that makes the first one (a required
	 * OPP into a table without levels); NULL until then, when no device
	 * owns a table another requires into and the core moves a device
	 * alone (dmn__opp_rate_locked), as devreq.c would. */
	const struct dmn_opp_devreq_ops *devreq;
	/* devreq.c's ctx->txn_hook: the table of the requirer whose change
	 * the running core transaction makes, the owners it moves. */
	struct dmn_opp_table *txn_t;
	struct dmn_opp_dev *txn_moving;
	struct dmn_opp_dev *txn_stays; /* their clocks could not go down */
};


/* table.c */
struct dmn_opp_table *dmn__opp_table_lookup(struct dmn_ctx *ctx, dmn_opp_table_t h);
/* dmn__enter for an OPP table: -EINVAL, -EDEADLK, then table @h or -EBADF.
 * Returns the table with the lock held and *@err 0, or NULL with *@err set
 * and the lock not held. */
struct dmn_opp_table *dmn__opp_enter(struct dmn_ctx *ctx, bool args_ok,
				 dmn_opp_table_t h, int *err);
static inline void dmn__opp_table_ref(struct dmn_opp_table *t)
{
	t->refs++;
}
void dmn__opp_table_unref(struct dmn_ctx *ctx, struct dmn_opp_table *t);
/* Free @t and what it owns (its devices are gone or freed by the caller). */
void dmn__opp_table_free(struct dmn_ctx *ctx, struct dmn_opp_table *t);
struct dmn_opp_entry *dmn__opp_entry_by_id(const struct dmn_opp_table *t, uint32_t id);
/* The entry at @pos of t->sorted (pos < t->n). */
static inline struct dmn_opp_entry *opp_sorted_at(const struct dmn_opp_table *t,
					   unsigned pos)
{
	return t->by_id[t->sorted[pos]];
}
/* Sort order of two entries of one table (<0, 0, >0); O(clocks). */
int dmn__opp_entry_cmp(const struct dmn_opp_entry *a, const struct dmn_opp_entry *b);
/* @e's index in t->sorted: the first position whose entry does not sort
 * before @e (also for an @e of no table, a probe); O(log n). */
unsigned dmn__opp_entry_pos(const struct dmn_opp_table *t,
			    const struct dmn_opp_entry *e);
bool dmn__opp_entry_usable(const struct dmn_opp_table *t, const struct dmn_opp_entry *e);

/* rate.c: whether a device bound to @t counts as a requirer (it is
 * active): a walk with @devices goes past a table only then (none moves
 * what it requires). */
bool dmn__opp_counted(const struct dmn_opp_table *t);
/* rate.c: the entry @od runs at: the highest of its own rate's entry
 * (own_id) and what active requirers ask of its table (docs/device-tree.md). */
const struct dmn_opp_entry *dmn__opp_effective(const struct dmn_opp_dev *od);

/* The tables reachable from @from through required OPPs (@devices: only
 * through tables without levels, and past one only if it counts), each marked with a new
 * dmn_opp_ctx->table_gen; returned as a list through their order_next
 * (@from excluded) in which every table comes before the tables it
 * requires: a depth-first walk whose path is threaded through the tables
 * (walk_up, walk_next), so no recursion on a chain's length and no
 * allocation. The list lasts until the next walk. */
struct dmn_opp_table *dmn__opp_reach(struct dmn_ctx *ctx,
				     struct dmn_opp_table *from, bool devices);

/* lookup.c: positions in t->sorted; -1 if none */
/* The first usable position at or after @pos, or -1. */
int dmn__opp_usable_up(const struct dmn_opp_table *t, unsigned pos);
int dmn__opp_pos_freq_ceil(const struct dmn_opp_table *t, uint64_t hz);
int dmn__opp_pos_level_ceil_any(const struct dmn_opp_table *t, uint32_t level);

/* required.c */
struct dmn_opp_table *dmn__opp_domain_level_table(const struct dmn_domain *d);
/* Grow the matching scratch for @n_req required OPPs and every domain
 * slot of the context (its OPP state exists: every caller has a table):
 * 0 or -ENOMEM. */
int dmn__opp_scratch_reserve(struct dmn_ctx *ctx, unsigned n_req);
/* Domain @i of a matching: a device's attachment or a domain's parent. */
typedef struct dmn_domain *(*dmn_opp_dom_at_fn)(const void *src, unsigned i);
struct dmn_domain *dmn__opp_att_dom(const void *pdev, unsigned i);
struct dmn_domain *dmn__opp_parent_dom(const void *dom, unsigned i);
/* The two-pass rule over the @n domains at(@src, i): on 0 the context's
 * req_slot[j] is the index of the domain required OPP j of @e votes on,
 * or -1 (also for a requirement into a device table). -ENOMEM. */
int dmn__opp_match(struct dmn_ctx *ctx, const struct dmn_opp_entry *e, dmn_opp_dom_at_fn at,
	      const void *src, unsigned n);
/* Attachment @i is driven at @level at least. */
static inline void opp_raise_vote(uint32_t *levels, bool *driven, unsigned i,
				  uint32_t level)
{
	if (!driven[i] || level > levels[i])
		levels[i] = level;
	driven[i] = true;
}
/* The votes @e casts on @dev's attachments (n = min(n_atts, max)),
 * added to what levels[] and driven[] hold: each raises levels[i] (sets
 * it where !driven[i]) and sets driven[i]; from all-false driven[] and
 * zeroed levels[] they are the entry's votes, and an attachment not
 * driven by it stays at 0. Returns n, or -ENOMEM. */
int dmn__opp_entry_raise(struct dmn_ctx *ctx, const struct dmn_opp_entry *e,
			 const struct dmn_device *dev, uint32_t *levels,
			 bool *driven, unsigned max);

/* rate.c */
/* A callback failure of the running OPP operation: the first one is its
 * ctx->op_error (dmn_last_error() through dmn__txn_result), whatever core
 * transactions run in between (each of those clears it: the callers keep
 * the first around them). */
void dmn__opp_note(struct dmn_ctx *ctx, int err);
void dmn__opp_emit_dev(struct dmn_ctx *ctx, enum dmn_event_kind kind, enum dmn_op op,
		  const struct dmn_opp_dev *od, int err, int safe,
		  uint64_t old_value, uint64_t new_value);
int dmn__opp_move_locked(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		    const struct dmn_opp_entry *target, uint64_t hz);
/* The clock to @hz (nothing when already there); @safe for events. */
int dmn__opp_clock_step(struct dmn_ctx *ctx, struct dmn_opp_dev *od, uint64_t hz,
		   int safe);
/* Room for @n supplies in the device's provider records: 0, -ENOMEM.
 * Grown by a move before it calls anything (none at bind or add: a device
 * that never moves keeps none). */
int dmn__opp_dev_reserve(struct dmn_ctx *ctx, struct dmn_opp_dev *od, unsigned n);
/* Supplies up, clock, supplies down to @to, without votes; the device's
 * supply records have room for @to's supplies (dmn__opp_dev_reserve). An
 * unsafe failure undoes its own supply steps and is returned. */
int dmn__opp_hw_move(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		const struct dmn_opp_entry *to);

/* bind.c: dmn__enter for a device's OPP state: -EINVAL, -EDEADLK, -EBADF
 * (no such device), then -ENOENT (not bound). Returns the state with the
 * lock held and *@err 0, or NULL with *@err set and the lock not held;
 * @record: a -EBADF or -ENOENT is also the call's dmn_last_error(), as for
 * a state-changing call. */
struct dmn_opp_dev *dmn__opp_dev_enter(struct dmn_ctx *ctx, bool args_ok,
				  dmn_device_t dev, bool record, int *err);

/* rate.c: dmn_opp_set_rate's move of @od to its own rate's @target (hz
 * its request): through devreq.c's hook once requirements exist (owners
 * raised first, settled after), else the move of @od alone. */
int dmn__opp_rate_locked(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		    const struct dmn_opp_entry *target, uint64_t hz);

/* @op(@ctx, @arg) (a core call, or a move of a device of @t) with the
 * owners a change of a device of @t reaches (@all: of any device; neither:
 * none) moved in its core transactions (ctx->txn_hook); their safe
 * failures are noted. Returns @op's result. Without requirements (no
 * devreq hook) no owner moves: @op alone. */
static inline int opp_with_owners(struct dmn_ctx *ctx, struct dmn_opp_table *t,
				  bool all, int (*op)(struct dmn_ctx *, void *),
				  void *arg)
{
	const struct dmn_opp_ctx *oc = ctx->opp;
	return oc && oc->devreq ? oc->devreq->with_owners(ctx, t, all, op, arg)
				: op(ctx, arg);
}

/* Each device's OPP state @od with its core device @v, in handle order. */
#define FOR_OPP_DEVICES(ctx, v, od)                                           \
	for (uint32_t h_ = dmn__handle_next(&(ctx)->devices, 0); h_;          \
	     h_ = dmn__handle_next(&(ctx)->devices, h_))                      \
		if (((v) = dmn__device_get((ctx), h_)) &&              \
		    ((od) = dev_opp_state(v)))

/* rate.c: @od's votes for @target as inputs of the open core
 * transaction (devreq.c's hook), as a move sets them once its clock
 * stands: 0 or a negative errno (the caller aborts). */
int dmn__opp_move_inputs(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
			 const struct dmn_opp_entry *target);

/* follow.c */
/* The fastest usable entry, not below @floor (NULL: from the lowest), whose
 * votes the device's domains' pstates meet; @dom, if not 0, is taken to be
 * at @dom_level instead (a lowering about to happen). NULL if none. */
const struct dmn_opp_entry *dmn__opp_permitted(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
				      const struct dmn_opp_entry *floor,
				      dmn_domain_t dom, uint32_t dom_level);
void dmn__opp_follow_drop(struct dmn_ctx *ctx, struct dmn_opp_dev *od);
void dmn__opp_follow_fini(struct dmn_ctx *ctx, struct dmn_opp_ctx *oc);
/* dmn__opp_permitted(@od, @floor) through the hook: NULL (nothing better
 * than @floor) while no device ever followed. */
static inline const struct dmn_opp_entry *
opp_follow_permitted(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		     const struct dmn_opp_entry *floor)
{
	const struct dmn_opp_ctx *oc = ctx->opp;
	return oc->follow ? oc->follow->permitted(ctx, od, floor, 0, 0) : 0;
}

#endif
