/* SPDX-License-Identifier: MIT */
/*
 * Device-to-device requirements (DESIGN §2): a required OPP into a table
 * without levels is an OPP of every device bound to that table (its
 * owners; MediaTek's CPU tables require their CCI's). While the requiring
 * device is active, each owner runs at least at the required entry: its
 * effective entry is the highest (by the first opp-hz) of its own rate's
 * entry and what active requirers ask of its table, and that effective
 * entry is what it votes and requires in turn, so requirements chain.
 *
 * Tables reference each other without cycles (dmn_opp_add refuses one), so the
 * tables a change reaches are ordered requirers first and each owner is
 * settled once per step. A change is made as the votes of one device are:
 * the owners are raised first (counting the requirer's old and new entry),
 * then the requirer moves, then the owners settle down to what is left.
 * A failure in the raise fails the requirer's command and every owner
 * moved so far goes back, in reverse; a failure on the way down is safe
 * (that owner stays higher, the failure is reported).
 */
#include "opp_internal.h"

#include <errno.h>

/* A requirer's requirements count while it is active, or while its resume
 * is being checked. */
static bool counts(const struct dmn_opp_dev *r)
{
	return r->pdev->usage > 0 || r->req_active;
}

bool dmn__opp_counted(const struct dmn_opp_table *t)
{
	for (const struct dmn_opp_dev *r = t->devices; r; r = r->next)
		if (counts(r))
			return true;
	return false;
}

static const struct dmn_opp_entry *higher(const struct dmn_opp_entry *a,
				      const struct dmn_opp_entry *b)
{
	return !a || (b && dmn__opp_entry_cmp(b, a) > 0) ? b : a;
}

/* What @e requires of table @t: the highest such entry, or NULL. */
static const struct dmn_opp_entry *asks(const struct dmn_opp_entry *e,
				    const struct dmn_opp_table *t)
{
	const struct dmn_opp_entry *best = 0;
	for (unsigned j = 0; e && j < e->n_required; j++)
		if (oe_required(e)[j].table == t->handle)
			best = higher(best, oe_req_entry(e)[j]);
	return best;
}

/* The entry owner @b runs at: the highest of its own rate's entry and
 * what active requirers ask of its table. */
static const struct dmn_opp_entry *effective(const struct dmn_opp_dev *b)
{
	const struct dmn_opp_table *t = b->table;
	const struct dmn_opp_entry *best = dmn__opp_entry_by_id(t, b->own_id);
	for (unsigned u = 0; u < t->n_users; u++) {
		const struct dmn_opp_table *ut = t->users[u];
		for (const struct dmn_opp_dev *r = ut->devices; r; r = r->next) {
			if (!counts(r))
				continue;
			best = higher(best,
				      asks(dmn__opp_entry_by_id(ut, r->vote_id), t));
			best = higher(best, asks(r->req_extra, t));
		}
	}
	return best;
}

/* Owner @b down to @to (a requirement gone or undone). Moving to no OPP
 * only drops votes, so an owner left with none gets back the clock it had
 * when a raise took it from none (undo_clock_hz: 0 Hz if it had none, as
 * a device never clocked shows): a requirement that no longer counts
 * leaves no trace (DESIGN §2), along a chain too. */
static int move_back(struct dmn_ctx *ctx,
				       struct dmn_opp_dev *b,
				       const struct dmn_opp_entry *to)
{
	int err = dmn__opp_move_locked(ctx, b, to, b->requested_hz);
	if (!err && !to)
		err = dmn__opp_clock_step(ctx, b, b->undo_clock_hz, 1);
	return err;
}

/* Settling down: every owner of @order to its effective entry, requirers
 * first (a requirer lowers before what it required). Safe: a failure is
 * noted, that owner stays higher. */
static void settle_down(struct dmn_ctx *ctx, struct dmn_opp_table *order)
{
	for (; order; order = order->order_next)
		for (struct dmn_opp_dev *b = order->devices; b; b = b->next) {
			const struct dmn_opp_entry *eff = effective(b);
			if (eff == dmn__opp_entry_by_id(b->table, b->vote_id))
				continue;
			dmn__opp_note(ctx, move_back(ctx, b, eff));
		}
}

/* Raising: first every owner's new entry, requirers first (each counting
 * what its requirers have and are about to have: req_extra), then the
 * moves in reverse, so what is required rises before what requires it.
 * The first failure is returned; rs->moved is what moved. */
static int settle_up(struct dmn_ctx *ctx, struct dmn__opp_raise *rs,
		     struct dmn_opp_table *order)
{
	struct dmn_opp_dev *pending = 0, *b;
	for (struct dmn_opp_table *t = order; t; t = t->order_next)
		for (b = t->devices; b; b = b->next) {
			const struct dmn_opp_entry *eff = effective(b);
			const struct dmn_opp_entry *was =
			    dmn__opp_entry_by_id(b->table, b->vote_id);
			if (eff == was)
				continue;
			b->req_extra = eff;
			b->undo_was = was;
			if (!was) /* its own clock: see move_back */
				b->undo_clock_hz = b->clock_known ? b->clock_hz : 0;
			b->undo_next = pending;
			pending = b;
		}
	/* req_extra is read by effective() only: no move reads it */
	int err = 0;
	while (pending) {
		b = pending;
		pending = b->undo_next;
		const struct dmn_opp_entry *to = b->req_extra;
		b->req_extra = 0;
		if (!err)
			err = dmn__opp_move_locked(ctx, b, to, b->requested_hz);
		if (!err) {
			b->undo_next = rs->moved;
			rs->moved = b;
		}
	}
	return err;
}

/* Undo calls are calls like any other: a failing one leaves that owner
 * where it is (records match) and is reported. An owner that ran at no
 * OPP before gets its clock back too (moving to no OPP only drops votes). */
static void roll_back(struct dmn_ctx *ctx, struct dmn__opp_raise *rs)
{
	for (struct dmn_opp_dev *b = rs->moved; b; b = b->undo_next)
		dmn__opp_note(ctx, move_back(ctx, b, b->undo_was));
}

/* Whether a change of a device of @t (already counted) moves an owner
 * of a device table @t requires. If none moves, what those owners
 * require stays, so no owner further down moves either: resuming or
 * suspending each of N chained devices checks its own owners, not the
 * rest of the chain (that walk made it quadratic). */
static bool moves_owner(const struct dmn_opp_table *t)
{
	for (unsigned i = 0; i < t->n_deps; i++)
		for (const struct dmn_opp_dev *b = t->deps[i]->devices;
		     b && !t->deps[i]->has_level; b = b->next)
			if (effective(b) !=
			    dmn__opp_entry_by_id(b->table, b->vote_id))
				return true;
	return false;
}

/* The tables of the owners a change of a device of @t reaches, requirers
 * first (none when @t is NULL or, unless @all, the change moves no owner
 * of its). */
static struct dmn_opp_table *owners(struct dmn_ctx *ctx,
				    struct dmn_opp_table *t, bool all)
{
	return t && (all || moves_owner(t)) ? dmn__opp_reach(ctx, t, true) : 0;
}

/* A change of one device of table @t with its owners raised around it
 * (the caller counts the device's new state first: req_extra or
 * req_active). raise_begin: the raise: 0, or the first failure. */
DMN_SIZE_NOINLINE int dmn__opp_raise_begin(struct dmn_ctx *ctx,
					 struct dmn_opp_table *t,
					 struct dmn__opp_raise *rs)
{
	rs->moved = 0;
	rs->t = t;
	return settle_up(ctx, rs, owners(ctx, t, false));
}

/* After the change (@err: its result or raise_begin's, the caller's count
 * undone): the owners settle to what is left (found again: those the
 * raise moved none of may lower now), or go back on failure. An owner the
 * raise moved up no longer asks what its old entry asked of the owners
 * below it, which the raise counted too: then the whole reach settles
 * (the shortcut of owners() would stop at the owner already in place). */
void dmn__opp_raise_end(struct dmn_ctx *ctx, struct dmn__opp_raise *rs, int err)
{
	if (err)
		roll_back(ctx, rs);
	else
		settle_down(ctx, owners(ctx, rs->t, rs->moved));
}

int dmn__opp_rate_locked(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		    const struct dmn_opp_entry *target, uint64_t hz)
{
	uint32_t old_own = od->own_id;
	/* its own rate is now its latest own word on every attachment */
	for (unsigned i = 0; i < od->cap_own_vote; i++)
		od->own_vote[i] = 0;
	od->own_id = target ? target->id : DMN_OPP_ID_NONE;
	const struct dmn_opp_entry *eff = effective(od);
	struct dmn__opp_raise rs;
	od->req_extra = eff; /* counted with the old entry: a raise */
	int err = dmn__opp_raise_begin(ctx, od->table, &rs);
	if (!err)
		err = dmn__opp_move_locked(ctx, od, eff, hz);
	od->req_extra = 0;
	dmn__opp_raise_end(ctx, &rs, err);
	if (err)
		od->own_id = old_own;
	else if (target && target->n_hz) /* its own clock: see move_back */
		od->undo_clock_hz = oe_hz(target)[0];
	return err;
}

/* ---- resume and suspend ------------------------------------------------ */

int dmn_opp_device_get(struct dmn_ctx *ctx, dmn_device_t dev)
{
	int err;
	struct dmn_device *pdev =
	    dmn__enter(ctx, true, DMN_DEVICES | DMN_ENTER_RECORD, dev, &err);
	if (!pdev)
		return err;
	struct dmn_opp_dev *od = dev_opp_state(pdev);
	struct dmn__opp_raise rs;
	/* a first get: what it requires counts while the resume is checked */
	bool resume = od && !pdev->usage;
	ctx->op_error = 0;
	if (resume)
		od->req_active = true;
	/* asleep, the core refuses the resume (-EACCES): nothing to raise */
	err = dmn__opp_raise_begin(ctx, resume && !ctx->asleep ? od->table : 0, &rs);
	if (!err) {
		int first = ctx->op_error; /* the core's call clears it */
		err = dmn__pd_device_get_locked(ctx, dev);
		ctx->op_error = first;
	}
	if (resume)
		od->req_active = false;
	dmn__opp_raise_end(ctx, &rs, err); /* active now: settling moves none */
	if (ctx->op_error || err) /* atomic: see txn_result */
		txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_device_put(struct dmn_ctx *ctx, dmn_device_t dev)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	err = dmn__pd_device_put_locked(ctx, dev);
	if (err) {
		dmn__unlock(ctx);
		return err;
	}
	struct dmn_device *pdev = dmn__pd_device_get_ptr(ctx, dev);
	struct dmn_opp_dev *od = pdev ? dev_opp_state(pdev) : 0;
	if (od && !pdev->usage) {
		ctx->op_error = 0;
		dmn__opp_requirements_settle(ctx, od->table);
		if (ctx->op_error && !ctx->last_error)
			txn_result(ctx, 0);
	}
	dmn__unlock(ctx);
	return 0;
}

void dmn__opp_requirements_settle(struct dmn_ctx *ctx, struct dmn_opp_table *t)
{
	settle_down(ctx, owners(ctx, t, false));
}
