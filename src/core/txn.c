/* SPDX-License-Identifier: MIT */
/*
 * The transaction engine: every state change goes through here.
 *
 * An operation first changes the inputs of some domains (device usage,
 * votes, links) through the txn_* primitives, which log how to undo each
 * change, and touches those domains. dmn__txn_commit() then:
 *
 *   0. walks the touched domains and their ancestors children-first and
 *      passes each one's target (on, level) up its links, so every parent's
 *      inputs hold what its children will need;
 *   A. raises pstates, parents first;            (unsafe: may fail)
 *   B. powers domains on, parents first;         (unsafe: may fail)
 *   C. powers unused domains off, children first; (safe)
 *   D. lowers pstates, children first.           (safe)
 *
 * If A or B fails, the inputs are put back from the undo log and C and D run
 * instead over what A and B did: undoing a raise is a lowering and undoing a
 * power-on is a power-off, so a rollback is itself a safe-direction settle,
 * done in the reverse order of what was done, back to each domain's state
 * before the call (not further: see roll_back). In C and D a failing domain keeps its
 * state and its links are set back to what it really is, so its parents
 * keep what it still needs.
 *
 * Invariant between operations: each link holds (child on, child on ?
 * requirement(child pstate) : 0), i.e. what the child really is.
 *
 * Bins of a level_hist are not deleted while an operation runs (a level
 * whose count falls to 0 keeps its bin until finish(): dmn__level_hist_dec),
 * so the fix-ups of C and D, which only restore levels that were counted
 * before, never allocate.
 */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* ---- inputs ------------------------------------------------------------ */

/* dmn_domain.due: DUE_OFF, the domain may have become unused in this
 * operation (touched, or it lost an active device or an on child): only
 * then does settle ask the governor. Cleared when the operation ends. */
#define DUE_OFF 1u
/* DUE_HIGH: lowering the domain before it powered on failed in this
 * operation; settle does not call it again until a later one. */
#define DUE_HIGH 2u

void dmn__txn_begin(struct dmn_ctx *ctx)
{
	DMN_ASSERT(dmn__lock_held(ctx) && "a transaction runs under the lock");
	ctx->n_undo = 0;
	ctx->n_order = 0;
	ctx->epoch++;
	ctx->op_error = 0;
}

/* Log how to undo one change, in room reserved before (every caller
 * reserves: a change that must not fail finds it there). */
static void log_undo(struct dmn_ctx *ctx, enum undo_kind kind, void *addr,
		     uintptr_t old)
{
	if (ctx->n_undo < ctx->cap_undo)
		ctx->undo[ctx->n_undo++] =
		    (struct undo_entry){.addr = addr, .old = old, .kind = kind};
}

/* Store @v in the 32-bit field at @addr (a uint32_t or an unsigned),
 * logging the old value (room reserved before). */
_Static_assert(sizeof(unsigned) == sizeof(uint32_t), "UNDO_U32 fields");
static void set_u32(struct dmn_ctx *ctx, void *addr, uint32_t v)
{
	uint32_t old;
	memcpy(&old, addr, sizeof(old));
	log_undo(ctx, UNDO_U32, addr, old);
	memcpy(addr, &v, sizeof(v));
}

/* Log the pointer-sized field at @addr (a pointer, a function pointer) as
 * its bytes: ISO C promises no conversion of a function pointer to an
 * integer. */
_Static_assert(sizeof(dmn_map_fn) == sizeof(uintptr_t), "UNDO_WORD fields");
static void log_word(struct dmn_ctx *ctx, void *addr)
{
	uintptr_t old;
	memcpy(&old, addr, sizeof(old));
	log_undo(ctx, UNDO_WORD, addr, old);
}

static int reserve_log(struct dmn_ctx *ctx, unsigned extra)
{
	return dmn_grow(ctx, (void **)&ctx->undo, &ctx->cap_undo,
			ctx->n_undo + extra, sizeof(*ctx->undo));
}

/* Room for one more level in @d's statistics: a domain's pstate is always
 * a level of its inputs, so with room for each of those, recording a new
 * pstate after a callback never needs memory. */
DMN_SIZE_NOINLINE static int stats_room(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	return dmn__stats_reserve(ctx, d, d->votes.n + 1);
}

/* Has @level a slot in @d's statistics, or a bin among its inputs (whose
 * slot dmn__txn_hist_add reserved)? */
static bool stats_seen(const struct dmn_domain *d, uint32_t level)
{
	for (unsigned i = 0; i < d->votes.n; i++)
		if (d->votes.bins[i].level == level)
			return true;
	const struct dmn_stats *s = d->cold ? &d->cold->stats : 0;
	for (unsigned i = 0; s && i < s->n_levels; i++)
		if (s->levels[i].level == level)
			return true;
	return false;
}

int dmn__txn_hist_add(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t level)
{
	if (!level)
		return 0;
	int err = stats_room(ctx, d);
	if (!err)
		err = reserve_log(ctx, 1);
	if (!err)
		err = dmn__level_hist_add(ctx, &d->votes, level);
	if (!err)
		log_undo(ctx, UNDO_HIST_ADD, &d->votes, level);
	return err;
}

void dmn__txn_hist_remove(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t level)
{
	if (!level)
		return;
	/* Removal must not fail: callers reserve log space first. */
	log_undo(ctx, UNDO_HIST_REMOVE, &d->votes, level);
	dmn__level_hist_dec(&d->votes, level);
}

/* Add @on ? 1 : -1 to @d's count *@n (active devices or on children). */
DMN_SIZE_NOINLINE static void count(struct dmn_ctx *ctx, struct dmn_domain *d, unsigned *n,
		  bool on)
{
	set_u32(ctx, n, *n + (on ? 1u : (unsigned)-1));
	if (!on)
		d->due |= DUE_OFF;
}

int dmn__txn_set_vote(struct dmn_ctx *ctx, struct dmn_attachment *a, uint32_t vote,
		 bool counted)
{
	int err = reserve_log(ctx, 5);
	if (err)
		return err;
	struct dmn_domain *d = a->dom;
	if (counted && vote) {
		err = dmn__txn_hist_add(ctx, d, vote);
		if (err)
			return err;
	}
	if (a->counted)
		dmn__txn_hist_remove(ctx, d, a->vote);
	if (counted != a->counted)
		count(ctx, d, &d->active_devices, counted);
	/* Replayed newest first: the vote is back before the bit's entry
	 * publishes it. */
	log_undo(ctx, UNDO_COUNTED, a, a->counted);
	set_u32(ctx, &a->vote, vote);
	a->counted = counted;
	/* Exclusive: dmn_vote's lock-free check ignores it until unlock. */
	dmn__handle_publish(&ctx->attachments, att_handle(a), vote);
	return 0;
}

/* ---- requirements ------------------------------------------------------ */

/* *@level through @d's rounding hook, if it has one (in place: a failed
 * hook's output is never used). */
DMN_SIZE_NOINLINE static int round_at(const struct dmn_domain *d,
				      uint32_t *level)
{
	const struct dmn_domain_cold *c = dom_cold(d);
	return c->round ? c->round(c->round_user, d->handle, *level, level)
			: 0;
}

/* requirement() through the callbacks of a map or a rounding hook. */
static int requirement_slow(const struct dmn_link *l, uint32_t child_level,
			    uint32_t floor, uint32_t *out)
{
	uint32_t req = child_level;
	if (child_level && l->map) {
		int err = l->map(l->map_user, l->child->handle,
				 l->parent->handle, child_level, &req);
		if (err)
			return err;
	}
	/* A provider's own required-opps hold the parent up while on. */
	if (req < floor)
		req = floor;
	int err = req ? round_at(l->parent, &req) : 0;
	*out = req;
	return err;
}

/* The level a child at @child_level requires of the parent of @l. Inline
 * for the common link without a map whose parent does not round: every
 * level of a chain asks it several times per vote. */
static inline int requirement(struct dmn_ctx *ctx, const struct dmn_link *l,
			      uint32_t child_level, uint32_t *out)
{
	(void)ctx;
	/* Size-optimized builds keep only the general computation: it
	 * gives the same level. */
	if (DMN_FAST_PATHS && !l->map && !dom_cold(l->parent)->round) {
		*out = child_level > l->floor ? child_level : l->floor;
		return 0;
	}
	return requirement_slow(l, child_level, l->floor, out);
}

int dmn__txn_check_level(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t level,
		    uint32_t *rounded)
{
	*rounded = 0;
	if (!level)
		return 0;
	/* A vote can land on @d and on every domain above it; -ENODEV only
	 * when none of them has a callback (DESIGN §1), whatever the shape. */
	unsigned n = dmn__walk_up(ctx, d);
	bool reaches_cb = false;
	for (unsigned i = 0; i < n; i++) {
		struct dmn_domain *x = ctx->walk[i];
		reaches_cb |= x->ops && x->ops->set_performance_state;
		x->walk_level = 0;
	}
	if (!reaches_cb)
		return -ENODEV;
	uint32_t r = level;
	int err = round_at(d, &r);
	if (err)
		return err;
	/* Rounding and -ERANGE at every ancestor, children first. Each
	 * ancestor is checked at the highest level this vote can ask of it
	 * through any path: maps and rounding only ever raise with their
	 * input, so a path that fails fails there too. */
	d->walk_level = r;
	for (unsigned i = n; i > 0; i--) {
		struct dmn_domain *x = ctx->walk[i - 1];
		for (unsigned p = 0; p < x->n_parents; p++) {
			/* The vote's own level: a link's floor is
			 * no part of it (it holds while the child is
			 * on, whatever the vote; a resume checks it). */
			uint32_t req;
			err = requirement_slow(x->parents[p], x->walk_level, 0,
					       &req);
			if (err)
				return err;
			struct dmn_domain *parent = x->parents[p]->parent;
			if (req > parent->walk_level)
				parent->walk_level = req;
		}
	}
	*rounded = r;
	return 0;
}

/* Point @l at (on, requirement(level)), logging the change. Without
 * @logged, a fix-up after the commit point (settle): it restores levels
 * that were counted before, whose bins still exist, and reserves no log
 * room, so what it logs goes into whatever room is left and is never
 * replayed (the undo, if any, already ran, and finish() drops the log). A
 * level new to both the parent's inputs and its statistics needs room in
 * the statistics, as every input has. */
static int link_set(struct dmn_ctx *ctx, struct dmn_link *l, bool on,
		    uint32_t level, bool logged)
{
	struct dmn_domain *p = l->parent;
	uint32_t req = 0;
	int err = 0;
	if (on)
		err = requirement(ctx, l, level, &req);
	if (err || (req == l->req && on == l->child_on))
		return err;
	if (logged)
		err = reserve_log(ctx, 5);
	if (!err && req && (logged || !stats_seen(p, req)))
		err = stats_room(ctx, p);
	if (!err && req)
		err = dmn__level_hist_add(ctx, &p->votes, req);
	if (err)
		return err;
	if (req)
		log_undo(ctx, UNDO_HIST_ADD, &p->votes, req);
	dmn__txn_hist_remove(ctx, p, l->req);
	if (on != l->child_on)
		count(ctx, p, &p->on_children, on);
	set_u32(ctx, &l->req, req);
	log_undo(ctx, UNDO_BOOL, &l->child_on, l->child_on);
	l->child_on = on;
	return 0;
}

int dmn__txn_link_set(struct dmn_ctx *ctx, struct dmn_link *l, bool on,
		 uint32_t level)
{
	return link_set(ctx, l, on, level, true);
}

/* ---- touched set ------------------------------------------------------- */

int dmn__txn_touch(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	d->due |= DUE_OFF;
	dmn__walk_touch(ctx, d);
	return 0;
}

/* ---- callbacks ---------------------------------------------------------- */

/* An event's kind, callback and safe flag in one word (fewer arguments at
 * each of the engine's emit sites): EV(kind, op, safe). */
#define EV(kind, op, safe) \
	((unsigned)(kind) | (unsigned)(op) << 8 | (unsigned)(safe) << 16)

/* Tell the listeners about @d: what @ev packs, @error, and a move from
 * @old_v to @new_v (levels, idle states, 0/1: 32 bits). */
static void emit_ev(struct dmn_ctx *ctx, unsigned ev, const struct dmn_domain *d,
		    int error, uint32_t old_v, uint32_t new_v)
{
#if DMN_FAST_PATHS
	if (!ctx->n_listeners) /* the common case: no event to build */
		return;
#endif
	struct dmn_event e = {.kind = (enum dmn_event_kind)(ev & 0xffu),
			      .op = (enum dmn_op)((ev >> 8) & 0xffu),
			      .domain = d->handle,
			      .error = error,
			      .safe = (int)(ev >> 16),
			      .old_value = old_v,
			      .new_value = new_v};
	dmn__emit(ctx, &e);
}

#if DMN_FAST_PATHS
static inline void emit(struct dmn_ctx *ctx, enum dmn_event_kind kind,
			enum dmn_op op, const struct dmn_domain *d, int error,
			int safe, uint32_t old_v, uint32_t new_v)
{
	emit_ev(ctx, EV(kind, op, safe), d, error, old_v, new_v);
}
#endif

/* Run one callback's result through the engine: a failure (a positive
 * value is -EIO) is noted as the operation's first error, as where an
 * unsafe one hit, and reported; success reports the event @ev packs with
 * the failure's op and safe flag (the event itself says safe 0). */
DMN_SIZE_NOINLINE static int outcome(struct dmn_ctx *ctx, int err,
				     unsigned ev, const struct dmn_domain *d,
				     uint32_t old_v, uint32_t new_v)
{
	if (err > 0)
		err = -EIO;
	if (err) {
		if (!ctx->op_error)
			ctx->op_error = err;
		if (!(ev >> 16))
			ctx->fail_dom = d;
		ev = (ev & ~0xffu) | DMN_EV_FAILURE;
	} else {
		ev &= 0xffffu;
	}
	emit_ev(ctx, ev, d, err, old_v, new_v);
	return err;
}

/* Move @d's pstate to @want (@safe: a lowering, announced first). */
static int set_pstate(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t want,
		      int safe)
{
	uint32_t old = d->pstate;
	if (safe)
		emit_ev(ctx, EV(DMN_EV_PSTATE_LOWERING, DMN_OP_SET_PSTATE, 1),
			d, 0, old, want);
	int err = 0;
	if (!ctx->record_only && d->ops && d->ops->set_performance_state)
		err = d->ops->set_performance_state(d->user, d->handle, want);
	if (!err) {
		dmn__stats_pstate(ctx, d, want);
		d->pstate = want;
	}
	return outcome(ctx, err, EV(DMN_EV_PSTATE, DMN_OP_SET_PSTATE, safe), d,
		       old, want);
}

#if DMN_FAST_PATHS
static int call_set_pstate(struct dmn_ctx *ctx, struct dmn_domain *d,
			   uint32_t level)
{
	if (ctx->record_only || !(d->ops && d->ops->set_performance_state))
		return 0;
	int err = d->ops->set_performance_state(d->user, d->handle, level);
	return err > 0 ? -EIO : err;
}
#endif

static int raise_pstate(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	uint32_t want = level_hist_max(&d->votes);
	return want > d->pstate ? set_pstate(ctx, d, want, 0) : 0;
}

int dmn__txn_power_on(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	if (d->on || !domain_wants_on(d))
		return 0;
	int err = 0;
	if (!ctx->record_only && d->ops && d->ops->power_on)
		err = d->ops->power_on(d->user, d->handle);
	if (!err) {
		dmn__stats_power(ctx, d, true, -1, UINT_MAX);
		d->on = true;
	}
	return outcome(ctx, err, EV(DMN_EV_POWER_ON, DMN_OP_POWER_ON, 0), d, 0,
		       1);
}

/* Make every parent link of @d say what @d really is now. */
static void links_follow_actual(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	for (unsigned i = 0; i < d->n_parents; i++)
		link_set(ctx, d->parents[i], d->on, d->pstate, false);
}

#define ASK_GOVERNOR (-2)

/* Power @d off if unused, into the state the governor picks, or into
 * @forced (a rollback goes back to where the domain was, governor or not).
 * The caller then makes @d's links follow what it is. */
static void power_off(struct dmn_ctx *ctx, struct dmn_domain *d, int forced)
{
	/* A rollback (@forced) takes back this call's power-on: the vetoes,
	 * which keep only what is on, did not hold the domain before. */
	if (!d->on || (forced == ASK_GOVERNOR ? domain_wants_on(d)
					      : domain_needs_on(d)))
		return;
	/* A domain that did not become unused in this operation stays as
	 * the governor or a failed power-off left it (DESIGN §1). */
	if (forced == ASK_GOVERNOR && !(d->due & DUE_OFF))
		return;
	unsigned rejected = UINT_MAX;
	int choice = forced;
	if (forced == ASK_GOVERNOR && ctx->sleep_deepest)
		choice = ctx->life->sleep_choose(ctx, d, &rejected);
	else if (forced == ASK_GOVERNOR)
		choice = dmn__idle_choose(ctx, d, dmn_now(ctx), &rejected);
	else if (forced < 0)
		choice = 0;
	if (choice == DMN_GOV_STAY_ON) {
		/* Not a failure: the governor found no state worth it. */
		dmn__stats_rejected(d, rejected);
		emit_ev(ctx, EV(DMN_EV_STAY_ON, DMN_OP_POWER_OFF, 1), d, 0, 1,
			1);
		return;
	}
	int idle = d->idle ? choice : -1;
	int err = 0;
	if (d->ops && d->ops->power_off)
		err = d->ops->power_off(d->user, d->handle, idle);
	if (!err) {
		dmn__stats_power(ctx, d, false, idle, rejected);
		d->on = false;
		d->idle_state = idle;
		/* A rollback's power-off puts the domain back as it was,
		 * down to why it sits there (explain). */
		if (forced == ASK_GOVERNOR)
			d->cold->off_by_sleep = ctx->sleep_deepest;
	}
	if (!outcome(ctx, err, EV(DMN_EV_POWER_OFF, DMN_OP_POWER_OFF, 1), d, 1,
		     0) &&
	    idle >= 0)
		emit_ev(ctx, EV(DMN_EV_IDLE, DMN_OP_POWER_OFF, 0), d, 0, 0,
			(uint32_t)idle);
}

/* ---- the chain path ------------------------------------------------------ */

/* A counted vote on an on domain whose ancestry is a chain (one parent
 * each up to the root), every domain on it on and wanted on. The general
 * engine would validate up the ancestry by a depth-first walk, log every
 * input change for an undo, collect the touched domains, order the
 * power-off pass with a pending count per domain, walk them three times
 * and compact the histograms; on a chain every one of those is the chain
 * itself, leaf to root. So here the same steps run over the chain, in the
 * same order, with the same events and statistics, keeping each link's old
 * requirement and each domain's old pstate beside the chain instead of in
 * the undo log:
 *   validate as dmn__txn_check_level (rounding, maps, -ENODEV);
 *   phase 0: the vote, then each link's requirement of its target;
 *   A: raise, parents first; a failure puts the inputs back and undoes
 *      the raises as roll_back does;
 *   C, D: links follow what each domain really is, then lower, children
 *      first, a failed lowering kept and reported.
 * No power state changes (every domain stays on), so the governor, QoS and
 * power statistics are not involved.
 *
 * One function, two callers:
 * - alone in the context (@shared false: the exclusive lock, or the only
 *   lock): any depth (a chain longer than FAST_CHAIN keeps its steps in
 *   ctx->chain); a histogram or the statistics grow before anything
 *   changes, as the engine reserves;
 * - on a striped context's fast path (@shared): at most FAST_CHAIN
 *   domains, each held by its fast_lock (falls back if another fast path
 *   has one), and it never allocates: a vote that would need memory falls
 *   back before changing anything.
 * Either way it writes nothing outside the attachment and the chain's
 * domains (and ctx->chain when alone): the first callback error goes to
 * *@op_error. */
#if DMN_FAST_PATHS
#define FAST_CHAIN 8
/* The steps of the one-domain path: inline into it (hosted builds only:
 * size-optimized builds leave the fast paths out). */
#if defined(__GNUC__)
#define FAST_STEP static inline __attribute__((always_inline))
#else
#define FAST_STEP static inline
#endif

struct chain_step {
	struct dmn_domain *x; /* the next step's x is this one's parent */
	uint32_t old_req;    /* x's link before phase 0 */
	uint32_t was;        /* x's pstate before phase A */
};

struct chain {
	struct chain_step *s; /* local, or ctx->chain past FAST_CHAIN */
	unsigned n;
	unsigned first_locked; /* 0: the stripe alone guards s[0] (chain_take) */
	struct chain_step local[FAST_CHAIN];
};

/* Room for @level in @d's inputs, and for one more level in its
 * statistics (as dmn__txn_hist_add reserves): alone, made if missing. */
FAST_STEP bool input_room(struct dmn_ctx *ctx, struct dmn_domain *d,
		       uint32_t level, bool shared)
{
	struct level_hist *h = &d->votes;
	/* Statistics live in the cold part, which a shared fast path never
	 * allocates (stats_room does, alone). */
	if ((!d->cold ||
	     d->cold->stats.n_levels + h->n + 1 > d->cold->stats.cap_levels) &&
	    (shared || stats_room(ctx, d)))
		return false;
	/* A free bin first: the search of dmn__level_hist_fits only when
	 * the histogram is full. */
	return h->n < h->cap || dmn__level_hist_fits(h, level) ||
	       (!shared && !dmn__level_hist_reserve(ctx, h));
}

/* dmn__level_hist_add(@new) then dmn__level_hist_remove(@old) (both
 * > 0) by linear scans, for a histogram of a few bins (a rail's devices
 * vote a handful of levels): the same histogram without two binary
 * searches and two calls. false, nothing changed, when @new needs a bin
 * and there is no room for it (the add would allocate). */
#define SMALL_HIST 8
FAST_STEP bool hist_move_small(struct level_hist *h, uint32_t old,
			       uint32_t new)
{
	struct level_count *b = h->bins;
	unsigned n = h->n, j = 0;
	while (j < n && b[j].level < new)
		j++;
	if (j < n && b[j].level == new) {
		b[j].count++;
	} else {
		if (n == h->cap)
			return false;
		for (unsigned k = n; k > j; k--)
			b[k] = b[k - 1];
		b[j].level = new;
		b[j].count = 1;
		h->n = ++n;
	}
	unsigned i = 0;
	while (i < n && b[i].level != old)
		i++;
	/* As dmn__level_hist_remove: a level not counted is ignored, an
	 * emptied bin goes. */
	if (i == n || !b[i].count || --b[i].count)
		return true;
	for (h->n = --n; i < n; i++)
		b[i] = b[i + 1];
	return true;
}

/* Replace input @old of @d by @new (0: none). The bin of a level removed
 * here is freed, so putting @old back later always has room. */
FAST_STEP void swap_input(struct dmn_ctx *ctx, struct dmn_domain *d,
		       uint32_t old, uint32_t new)
{
	struct level_hist *h = &d->votes;
	/* A domain's only input moving (one voter, no child): its bin takes
	 * the new level in place, where an add and a remove would insert one
	 * bin and shift the other out. The same histogram either way. */
	if (old && new && h->n == 1 && h->bins[0].count == 1 &&
	    h->bins[0].level == old) {
		h->bins[0].level = new;
		return;
	}
	if (old && new && h->n <= SMALL_HIST && hist_move_small(h, old, new))
		return;
	if (new)
		(void)dmn__level_hist_add(ctx, &d->votes, new);
	if (old)
		dmn__level_hist_remove(&d->votes, old);
}

/* links_follow_actual for a chain domain. */
static inline void chain_follow(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	if (!d->n_parents)
		return;
	struct dmn_link *l = d->parents[0];
	uint32_t req;
	if (requirement(ctx, l, d->pstate, &req) || req == l->req)
		return;
	swap_input(ctx, l->parent, l->req, req);
	l->req = req;
}

/* lower_pstate without its links_follow_actual (callers follow), its
 * failure in *@op_error. */
FAST_STEP void chain_lower(struct dmn_ctx *ctx, struct dmn_domain *d,
			uint32_t floor, int *op_error)
{
	uint32_t want = level_hist_max(&d->votes);
	if (want < floor)
		want = floor;
	uint32_t old = d->pstate;
	if (want >= old)
		return;
	emit(ctx, DMN_EV_PSTATE_LOWERING, DMN_OP_SET_PSTATE, d, 0, 1, old,
	     want);
	int err = call_set_pstate(ctx, d, want);
	if (err) {
		if (!*op_error)
			*op_error = err;
		emit(ctx, DMN_EV_FAILURE, DMN_OP_SET_PSTATE, d, err, 1, old,
		     want);
	} else {
		dmn__stats_pstate(ctx, d, want);
		d->pstate = want;
		emit(ctx, DMN_EV_PSTATE, DMN_OP_SET_PSTATE, d, 0, 0, old, want);
	}
}

/* Phase A for one domain: raise @x to its inputs' maximum. On a failure
 * (1) the error is in *@err and *@op_error, FAILURE and ROLLBACK are
 * out, and the caller rolls back. */
FAST_STEP int chain_raise(struct dmn_ctx *ctx, struct dmn_domain *x, int *err,
		       int *op_error)
{
	uint32_t want = level_hist_max(&x->votes), old = x->pstate;
	if (want <= old)
		return 0;
	int cb = call_set_pstate(ctx, x, want);
	if (cb) {
		if (!*op_error)
			*op_error = cb;
		*err = cb;
		emit(ctx, DMN_EV_FAILURE, DMN_OP_SET_PSTATE, x, cb, 0, old, want);
		emit(ctx, DMN_EV_ROLLBACK, DMN_OP_NONE, x, cb, 0, 0, 0);
		return 1;
	}
	dmn__stats_pstate(ctx, x, want);
	x->pstate = want;
	emit(ctx, DMN_EV_PSTATE, DMN_OP_SET_PSTATE, x, 0, 0, old, want);
	return 0;
}

static void chain_release(struct chain *c, bool shared)
{
#if DMN_STRIPED
	for (unsigned i = !c->first_locked; shared && i < c->n; i++)
		dmn__dom_unlock(c->s[i].x);
#endif
	(void)c;
	(void)shared;
}

/* Room for step @n of a chain alone in the context: past FAST_CHAIN the
 * steps move to ctx->chain, which only grows. */
static bool chain_room(struct dmn_ctx *ctx, struct chain *c, unsigned n)
{
	if (n < FAST_CHAIN)
		return true;
	if (dmn_grow(ctx, (void **)&ctx->chain, &ctx->cap_chain, n + 1,
		     sizeof(*ctx->chain)))
		return false;
	if (c->s == c->local)
		memcpy(ctx->chain, c->local, sizeof(c->local));
	c->s = ctx->chain;
	return true;
}

/* Collect @d's chain; with @shared, at most FAST_CHAIN domains, taking
 * each one's fast_lock, but @d's only when another fast path can reach
 * it. A domain with no children and one attachment changes on a fast
 * path only through votes on that attachment, and those all take the
 * stripe of its slot, which the caller holds (structure changes are
 * exclusive: they hold every stripe). So @d is already its own, and the
 * common rail with one voter pays one lock pair a vote, as genpd's
 * mutex. */
static bool chain_take(struct dmn_ctx *ctx, struct chain *c,
		       struct dmn_domain *d, bool shared)
{
	c->s = c->local;
	c->n = 0;
	c->first_locked = d->n_children || d->n_attachments != 1;
	for (struct dmn_domain *x = d;; x = x->parents[0]->parent) {
		if (x->n_parents > 1 ||
		    (shared ? c->n == FAST_CHAIN : !chain_room(ctx, c, c->n)))
			break;
#if DMN_STRIPED
		if (shared && (x != d || c->first_locked) &&
		    !dmn__dom_trylock(x))
			break;
#endif
		c->s[c->n++].x = x;
		if (!x->n_parents)
			return true;
	}
	chain_release(c, shared);
	return false;
}

/* dmn__txn_check_level over the chain: -ENODEV, rounding, each
 * ancestor's requirement at the level this vote asks of it. */
static int chain_check(struct dmn_ctx *ctx, const struct chain *c,
		       uint32_t level, uint32_t *rounded)
{
	*rounded = 0;
	if (!level)
		return 0;
	bool reaches_cb = false;
	for (unsigned i = 0; i < c->n && !reaches_cb; i++)
		reaches_cb = c->s[i].x->ops &&
			     c->s[i].x->ops->set_performance_state;
	if (!reaches_cb)
		return -ENODEV;
	struct dmn_domain *d = c->s[0].x;
	uint32_t r = level;
	if (dom_cold(d)->round) {
		int err = d->cold->round(d->cold->round_user, d->handle, level,
					 &r);
		if (err)
			return err;
	}
	uint32_t asked = r;
	for (unsigned i = 0; i + 1 < c->n; i++) {
		int err = requirement(ctx, c->s[i].x->parents[0], asked, &asked);
		if (err)
			return err;
	}
	*rounded = r;
	return 0;
}

/* Phase 0's input changes undone, newest first. */
static void chain_undo(struct dmn_ctx *ctx, struct chain *c, unsigned links,
		       struct dmn_attachment *a, uint32_t old_vote)
{
	while (links--) {
		struct dmn_link *l = c->s[links].x->parents[0];
		swap_input(ctx, l->parent, l->req, c->s[links].old_req);
		l->req = c->s[links].old_req;
	}
	swap_input(ctx, a->dom, a->vote, old_vote);
	a->vote = old_vote;
}

/* vote_alone's steps when nobody listens (no event to build), the vote
 * moves between two non-zero levels of a small histogram with room for
 * the move, and the statistics have room for a new level: the move, at
 * most one callback, the statistics. The same histogram, callback,
 * statistics, return code and first error as chain_raise/chain_lower.
 * -1 (nothing changed) for the general steps. */
FAST_STEP int vote_alone_quiet(struct dmn_ctx *ctx, struct dmn_attachment *a,
			       uint32_t level, int *err, int *op_error)
{
	struct dmn_domain *d = a->dom;
	struct level_hist *h = &d->votes;
	uint32_t old_vote = a->vote;
	if (ctx->n_listeners || ctx->internal_listeners || ctx->record_only ||
	    !level || !old_vote || h->n > SMALL_HIST || !d->cold ||
	    d->cold->stats.n_levels + h->n + 1 > d->cold->stats.cap_levels ||
	    !hist_move_small(h, old_vote, level))
		return -1;
	a->vote = level;
	uint32_t want = level_hist_max(h), old = d->pstate;
	if (want == old)
		return 1;
	int cb = d->ops->set_performance_state(d->user, d->handle, want);
	if (cb) {
		cb = cb > 0 ? -EIO : cb;
		if (!*op_error)
			*op_error = cb;
		/* A failed lowering is kept and reported; a failed raise
		 * raised nothing: the input back is the rollback. */
		if (want > old) {
			*err = cb;
			swap_input(ctx, d, level, old_vote);
			a->vote = old_vote;
		}
		return 1;
	}
	/* dmn__stats_pstate, inline for an untimed level already listed:
	 * only the count moves. */
	struct dmn_stats *st = &d->cold->stats;
	if (!dmn__pstate_timed(ctx) && dmn__stats_slot(st, want) < st->n_levels)
		st->pstate_transitions++;
	else
		dmn__stats_pstate(ctx, d, want);
	d->pstate = want;
	return 1;
}

/* dmn__txn_vote_chain on a chain of one domain (no parent), the
 * commonest shape (a rail and its devices), without the chain: the same
 * steps in the same order. -1 if it has to go the general way (a
 * rounding hook), nothing changed. */
static int vote_alone(struct dmn_ctx *ctx, struct dmn_attachment *a,
		      uint32_t level, int *err, int *op_error, bool shared)
{
	struct dmn_domain *d = a->dom;
	if (d->cold && d->cold->round)
		return -1;
	if (!d->on || !domain_wants_on(d))
		return 0;
	if (level && !(d->ops && d->ops->set_performance_state)) {
		*err = -ENODEV;
		return 1;
	}
	if (level == a->vote)
		return 1;
	bool locked = false;
#if DMN_STRIPED
	/* See chain_take: one attachment and no child, the stripe guards. */
	locked = shared && (d->n_children || d->n_attachments != 1);
	if (locked && !dmn__dom_trylock(d))
		return 0; /* busy: the exclusive path, as chain_take */
#endif
	int handled = vote_alone_quiet(ctx, a, level, err, op_error) >= 0;
	if (!handled && (!level || input_room(ctx, d, level, shared))) {
		handled = 1;
		uint32_t old_vote = a->vote;
		swap_input(ctx, d, old_vote, level);
		a->vote = level;
		if (chain_raise(ctx, d, err, op_error)) {
			/* Nothing was raised: the input back is the rollback. */
			swap_input(ctx, d, level, old_vote);
			a->vote = old_vote;
		} else if (level_hist_max(&d->votes) < d->pstate) {
			chain_lower(ctx, d, 0, op_error);
		}
	}
#if DMN_CHECKS
	if (handled && !shared)
		dmn__check_domain(ctx, d, true);
#endif
#if DMN_STRIPED
	if (locked)
		dmn__dom_unlock(d);
#endif
	return handled;
}

void dmn__txn_emit(struct dmn_ctx *ctx, enum dmn_event_kind kind,
		   enum dmn_op op, const struct dmn_domain *d, int error,
		   int safe, uint32_t old_v, uint32_t new_v)
{
	emit(ctx, kind, op, d, error, safe, old_v, new_v);
}

int dmn__txn_vote_chain(struct dmn_ctx *ctx, struct dmn_attachment *a,
			uint32_t level, int *err, int *op_error, bool shared)
{
	struct chain c;
	if (!a->counted)
		return 0;
	if (!a->dom->n_parents) {
		int alone = vote_alone(ctx, a, level, err, op_error, shared);
		if (alone >= 0)
			return alone;
	}
	if (!chain_take(ctx, &c, a->dom, shared))
		return 0;
	int handled = 0;
	for (unsigned i = 0; i < c.n; i++)
		if (!c.s[i].x->on || !domain_wants_on(c.s[i].x))
			goto out;
	uint32_t r;
	*err = chain_check(ctx, &c, level, &r);
	handled = 1;
	if (*err || r == a->vote)
		goto out;
	struct dmn_domain *d = a->dom;
	handled = 0;
	if (r && !input_room(ctx, d, r, shared))
		goto out;
	/* Phase 0: the vote, then each link asks its target of the parent. */
	uint32_t old_vote = a->vote;
	swap_input(ctx, d, old_vote, r);
	a->vote = r;
	unsigned links = 0;
	for (; links + 1 < c.n; links++) {
		struct dmn_domain *x = c.s[links].x;
		struct dmn_link *l = x->parents[0];
		uint32_t req;
		int e = requirement(ctx, l, level_hist_max(&x->votes), &req);
		if (e || (req && req != l->req &&
			  !input_room(ctx, l->parent, req, shared))) {
			chain_undo(ctx, &c, links, a, old_vote);
			handled = e != 0;
			*err = e;
			goto out;
		}
		c.s[links].old_req = l->req;
		swap_input(ctx, l->parent, l->req, req);
		l->req = req;
	}
	handled = 1;
	/* A: raise, parents first. */
	for (unsigned i = c.n; i > 0; i--)
		c.s[i - 1].was = c.s[i - 1].x->pstate;
	for (unsigned i = c.n; i > 0; i--) {
		if (!chain_raise(ctx, c.s[i - 1].x, err, op_error))
			continue;
		/* As roll_back: inputs back, then each raised domain lowered
		 * to where it was, children first. */
		chain_undo(ctx, &c, links, a, old_vote);
		for (unsigned k = 0; k < c.n; k++)
			chain_follow(ctx, c.s[k].x);
		for (unsigned k = 0; k < c.n; k++) {
			chain_lower(ctx, c.s[k].x, c.s[k].was, op_error);
			chain_follow(ctx, c.s[k].x);
		}
		goto out;
	}
	/* C and D: nothing powers off (each domain holds an active device
	 * or an on child); lower children first, each link then following
	 * what its child really is. settle() first points every link at its
	 * child's actual pstate and then at the lowered one; on a chain a
	 * child comes right before its parent, so one step per domain does
	 * both (and saves two histogram updates per level of a falling
	 * vote). */
	for (unsigned i = 0; i < c.n; i++) {
		struct dmn_domain *x = c.s[i].x;
		if (level_hist_max(&x->votes) < x->pstate)
			chain_lower(ctx, x, 0, op_error);
		chain_follow(ctx, x);
	}
out:
#if DMN_CHECKS
	/* Alone in the context only: a shared fast path's neighbours (a
	 * device's nested get/put) may move what the check reads. */
	for (unsigned i = 0; handled && !shared && i < c.n; i++)
		dmn__check_domain(ctx, c.s[i].x, true);
#endif
	chain_release(&c, shared);
	return handled;
}
#endif /* DMN_FAST_PATHS */

/* ---- commit ------------------------------------------------------------- */

static void undo_inputs(struct dmn_ctx *ctx)
{
	while (ctx->n_undo) {
		struct undo_entry *e = &ctx->undo[--ctx->n_undo];
		uint32_t old = (uint32_t)e->old;
		switch (e->kind) {
		case UNDO_HIST_ADD:
			dmn__level_hist_dec(e->addr, old);
			break;
		case UNDO_HIST_REMOVE:
			/* The bin is still there: cannot fail. */
			(void)dmn__level_hist_add(ctx, e->addr, old);
			break;
		case UNDO_COUNTED: {
			struct dmn_attachment *a = e->addr;
			a->counted = old & 1u;
			dmn__handle_publish(&ctx->attachments, att_handle(a),
					    a->vote);
			break;
		}
		case UNDO_BOOL:
			*(bool *)e->addr = old;
			break;
		case UNDO_U32:
#if UINTPTR_MAX == UINT32_MAX /* a 32-bit word (a Cortex-M): the same */
		case UNDO_WORD:
#endif
			memcpy(e->addr, &old, sizeof(old));
			break;
#if UINTPTR_MAX != UINT32_MAX
		case UNDO_WORD:
			memcpy(e->addr, &e->old, sizeof(e->old));
			break;
#endif
		}
	}
}

/* The order of phase C (@lowering false) or D, children first, as Linux's
 * genpd walks it: a domain goes once every child in the operation has gone,
 * and right after it, depth first, each parent it freed: powering off in
 * the order the links were added (C, then P and what P frees, then Q:
 * DESIGN §1 "Order inside one command"), lowering in the reverse order
 * (C, Q, then P and what P frees), as genpd's pstate lowering walks a
 * domain's parent links backwards. Domains nothing below them holds start
 * it, the last touched first. */
static void build_off_order(struct dmn_ctx *ctx, bool lowering)
{
	for (unsigned i = 0; i < ctx->n_order; i++)
		ctx->order[i]->pending = 0;
	/* Every parent of a domain in the operation is in it too. */
	for (unsigned i = 0; i < ctx->n_order; i++) {
		struct dmn_domain *d = ctx->order[i];
		for (unsigned p = 0; p < d->n_parents; p++)
			d->parents[p]->parent->pending++;
	}
	struct dmn_domain **stack = ctx->stack;
	unsigned n = 0;
	for (unsigned i = ctx->n_order; i > 0; i--) {
		struct dmn_domain *start = ctx->order[i - 1];
		if (start->pending)
			continue;
		/* Never reached again: marked by a count no parent uses. */
		start->pending = ~0u;
		unsigned top = 0;
		stack[top++] = start;
		while (top) {
			struct dmn_domain *d = stack[--top];
			ctx->off_order[n++] = d;
			/* Pushed last, the first link's parent comes next
			 * (lowering: the last link's). */
			for (unsigned k = d->n_parents; k > 0; k--) {
				unsigned p = lowering ? d->n_parents - k : k - 1;
				struct dmn_domain *parent =
					d->parents[p]->parent;
				if (--parent->pending == 0) {
					parent->pending = ~0u;
					stack[top++] = parent;
				}
			}
		}
	}
}

/* Phases C and D, or their rollback (@rollback: A or B failed and the
 * inputs are back from the undo log). Phase C powers unused domains off,
 * D lowers pstates, each over ctx->off_order, children first.
 *
 * After each step, every domain's links say what it really is, not the
 * target phase 0 passed up: a domain that did not change (say, kept on or
 * high by a child whose power-off or lowering failed) must still hold its
 * parents where it needs them before they are powered off or lowered.
 *
 * A rollback undoes phases A and B only, in the reverse order of what they
 * did (ctx->order backwards): each domain goes back to how it was before
 * the call. A domain that an earlier safe-direction failure left on or
 * high is not retried here, or the failed call would change what it must
 * not. Its links too then say what it really is: the undo put them back to
 * before the call, but a domain that an undo could not power off or lower
 * (or that a child kept so) still holds its parents, even one it shares
 * with other children. */
static void settle(struct dmn_ctx *ctx, bool rollback)
{
	unsigned n = ctx->n_order;
	if (rollback)
		for (unsigned i = 0; i < n; i++)
			ctx->off_order[i] = ctx->order[n - 1 - i];
	for (unsigned phase = 0; phase < 2; phase++) {
		if (!rollback)
			build_off_order(ctx, phase);
		for (unsigned i = 0; i < n; i++) {
			struct dmn_domain *d = ctx->off_order[i];
			if (phase) {
				/* Lower to what the inputs ask, but not
				 * below where a rollback goes back to. */
				uint32_t want = level_hist_max(&d->votes);
				uint32_t floor = rollback ? d->was_pstate : 0;
				if (want < floor)
					want = floor;
				if (want < d->pstate && !(d->due & DUE_HIGH))
					(void)set_pstate(ctx, d, want, 1);
				/* An off domain lowered before a power-on
				 * that was undone goes back up. */
				else if (rollback && !d->on &&
					 d->was_pstate > d->pstate)
					(void)set_pstate(ctx, d, d->was_pstate, 1);
			} else if (!rollback) {
				power_off(ctx, d, ASK_GOVERNOR);
			} else if (!d->was_on) {
				power_off(ctx, d, d->was_idle);
			}
			links_follow_actual(ctx, d);
		}
	}
}

static void finish(struct dmn_ctx *ctx, bool committed)
{
	for (unsigned i = 0; i < ctx->n_order; i++) {
		dmn__level_hist_compact(&ctx->order[i]->votes);
		ctx->order[i]->due = 0;
	}
#if DMN_CHECKS
	dmn__check_txn_end(ctx, committed);
#else
	(void)committed;
#endif
	ctx->n_undo = 0;
	ctx->n_order = 0;
}

/* Set the links of every domain of the operation to where it goes, children
 * first: 0 or a negative errno, 1 when an off domain that powers on sits
 * above its target (a failed lowering left it high). With @lower, such a
 * domain is lowered first, while off (DESIGN §1: at most one pstate call
 * a domain a command, and no rail on below what it feeds needs); one that
 * stays high powers on at that level, which its parents allow first.
 * That second pass cannot fail: a link with no room for its new level
 * keeps the higher one it had (safe; settle lowers the parent after). */
static int propagate_targets(struct dmn_ctx *ctx, bool lower)
{
	int high = 0;
	for (unsigned i = ctx->n_order; i > 0; i--) {
		struct dmn_domain *d = ctx->order[i - 1];
		/* Where a rollback goes back to. */
		if (!lower) {
			d->was_on = d->on;
			d->was_pstate = d->pstate;
			d->was_idle = d->idle_state;
		}
		bool on = domain_wants_on(d);
		uint32_t level = on ? level_hist_max(&d->votes) : 0;
		if (on && !d->on && d->pstate > level) {
			if (lower && set_pstate(ctx, d, level, 1))
				d->due |= DUE_HIGH;
			if (d->pstate > level) {
				level = d->pstate;
				high = 1;
			}
		}
		/* Powering on starts its statistics (before any callback). */
		if (on && !dmn__pd_domain_cold(ctx, d))
			return -ENOMEM;
		for (unsigned p = 0; p < d->n_parents; p++) {
			int err = link_set(ctx, d->parents[p], on, level, true);
			if (err && !lower)
				return err;
		}
	}
	return high;
}

int dmn__txn_commit(struct dmn_ctx *ctx)
{
	int err = ctx->txn_hook ? ctx->txn_hook(ctx, false) : 0;
	if (!err)
		err = propagate_targets(ctx, false);
	if (err < 0) {
		undo_inputs(ctx);
		finish(ctx, false);
		return err;
	}
	if (err)
		(void)propagate_targets(ctx, true);
	err = 0;
	for (unsigned i = 0; i < ctx->n_order && !err; i++)
		err = raise_pstate(ctx, ctx->order[i]);
	for (unsigned i = 0; i < ctx->n_order && !err; i++)
		err = dmn__txn_power_on(ctx, ctx->order[i]);
	if (!err && ctx->txn_hook)
		err = ctx->txn_hook(ctx, true);
	if (err) {
		if (ctx->fail_dom)
			emit_ev(ctx, EV(DMN_EV_ROLLBACK, DMN_OP_NONE, 0),
				ctx->fail_dom, err, 0, 0);
		undo_inputs(ctx);
	}
	settle(ctx, err != 0);
	finish(ctx, !err);
	return err;
}

int dmn__txn_set_u32(struct dmn_ctx *ctx, unsigned *field, unsigned v)
{
	int err = reserve_log(ctx, 1);
	if (!err)
		set_u32(ctx, field, v);
	return err;
}

int dmn__txn_link_config(struct dmn_ctx *ctx, struct dmn_link *l, dmn_map_fn map,
		    void *map_user, uint32_t floor)
{
	int err = reserve_log(ctx, 3);
	if (err)
		return err;
	log_word(ctx, &l->map);
	log_word(ctx, &l->map_user);
	set_u32(ctx, &l->floor, floor);
	l->map = map;
	l->map_user = map_user;
	return 0;
}

void dmn__txn_abort(struct dmn_ctx *ctx)
{
	undo_inputs(ctx);
	finish(ctx, false);
}
