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
	return dmn__grow(ctx, (void **)&ctx->undo, &ctx->cap_undo,
			ctx->n_undo + extra, sizeof(*ctx->undo));
}

/* Room for one more level in @d's statistics: a domain's pstate is always
 * a level of its inputs, so with room for each of those, recording a new
 * pstate after a callback never needs memory. */
DMN_NOINLINE static int stats_room(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	return dmn__stats_reserve(ctx, d, d->votes.n + 1);
}

/* Has @level a slot in @d's statistics, or a bin among its inputs (whose
 * slot dmn__txn_hist_add reserved)? */
static bool stats_seen(const struct dmn_domain *d, uint32_t level)
{
	if (dmn__level_hist_index(&d->votes, level) < d->votes.n)
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
DMN_NOINLINE static void count(struct dmn_ctx *ctx, struct dmn_domain *d, unsigned *n,
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
DMN_NOINLINE static int round_at(const struct dmn_domain *d,
				      uint32_t *level)
{
	const struct dmn_domain_cold *c = dom_cold(d);
	return c->round ? c->round(c->round_user, d->handle, *level, level)
			: 0;
}

/* requirement() through the callbacks of a map or a rounding hook. */
int dmn__requirement_slow(const struct dmn_link *l, uint32_t child_level,
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

int dmn__txn_check_level(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t level,
		    uint32_t *rounded)
{
	*rounded = 0;
	if (!level)
		return 0;
	/* A vote can land on @d and on every domain above it; -ENODEV only
	 * when none of them has a callback (docs/semantics.md), whatever the
	 * shape. */
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
			err = dmn__requirement_slow(x->parents[p], x->walk_level, 0,
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
		err = dmn__requirement(l, level, &req);
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

void dmn__txn_touch(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	d->due |= DUE_OFF;
	dmn__walk_touch(ctx, d);
}

/* ---- callbacks ---------------------------------------------------------- */

void dmn__txn_emit(struct dmn_ctx *ctx, unsigned ev, const struct dmn_domain *d,
		    int error, uint32_t old_v, uint32_t new_v)
{
	if (!ctx->n_listeners) /* the common case: no event to build */
		return;
	struct dmn_event e = {.kind = (enum dmn_event_kind)(ev & 0xffu),
			      .op = (enum dmn_op)((ev >> 8) & 0xffu),
			      .domain = d->handle,
			      .error = error,
			      .safe = (int)(ev >> 16),
			      .old_value = old_v,
			      .new_value = new_v};
	dmn__emit(ctx, &e);
}


/* Run one callback's result through the engine: a failure (a positive
 * value is -EIO) is noted as the operation's first error, as where an
 * unsafe one hit, and reported; success reports the event @ev packs with
 * the failure's op and safe flag (the event itself says safe 0). */
DMN_NOINLINE static int outcome(struct dmn_ctx *ctx, int err,
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
	dmn__txn_emit(ctx, ev, d, err, old_v, new_v);
	return err;
}

/* Move @d's pstate to @want (@safe: a lowering, announced first). */
static int set_pstate(struct dmn_ctx *ctx, struct dmn_domain *d, uint32_t want,
		      int safe)
{
	uint32_t old = d->pstate;
	if (safe)
		dmn__txn_emit(ctx, DMN_EV(DMN_EV_PSTATE_LOWERING, DMN_OP_SET_PSTATE, 1),
			d, 0, old, want);
	int err = 0;
	if (!ctx->record_only && d->ops && d->ops->set_performance_state)
		err = d->ops->set_performance_state(d->user, d->handle, want);
	if (!err) {
		dmn__stats_pstate(ctx, d, want);
		d->pstate = want;
	}
	return outcome(ctx, err, DMN_EV(DMN_EV_PSTATE, DMN_OP_SET_PSTATE, safe), d,
		       old, want);
}


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
	return outcome(ctx, err, DMN_EV(DMN_EV_POWER_ON, DMN_OP_POWER_ON, 0), d, 0,
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
	 * the governor or a failed power-off left it (docs/semantics.md). */
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
		dmn__txn_emit(ctx, DMN_EV(DMN_EV_STAY_ON, DMN_OP_POWER_OFF, 1), d, 0, 1,
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
	if (!outcome(ctx, err, DMN_EV(DMN_EV_POWER_OFF, DMN_OP_POWER_OFF, 1), d, 1,
		     0) &&
	    idle >= 0)
		dmn__txn_emit(ctx, DMN_EV(DMN_EV_IDLE, DMN_OP_POWER_OFF, 0), d, 0, 0,
			(uint32_t)idle);
}


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
 * docs/semantics.md, Ordering), lowering in the reverse order
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
	dmn__check_txn_end(ctx, committed);
	(void)committed;
	ctx->n_undo = 0;
	ctx->n_order = 0;
}

/* Set the links of every domain of the operation to where it goes, children
 * first: 0 or a negative errno, 1 when an off domain that powers on sits above
 * its target (a failed lowering left it high). With @lower, such a domain is
 * lowered first, while off (docs/semantics.md: at most one pstate call a domain
 * a command, and no rail on below what it feeds needs); one that stays high
 * powers on at that level, which its parents allow first. That second pass
 * cannot fail: a link with no room for its new level keeps the higher one it
 * had (safe; settle lowers the parent after). */
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
		if (on && !dmn__domain_cold(ctx, d))
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
			dmn__txn_emit(ctx, DMN_EV(DMN_EV_ROLLBACK, DMN_OP_NONE, 0),
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
