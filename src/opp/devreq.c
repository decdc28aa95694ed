/* SPDX-License-Identifier: MIT */
/*
 * Device-to-device requirements (docs/device-tree.md): a required OPP into a
 * table without levels is an OPP of every device bound to that table (its
 * owners; MediaTek's CPU tables require their CCI's). While the requiring
 * device is active, each owner runs at least at the required entry: its
 * effective entry is the highest (by the first opp-hz) of its own rate's entry
 * and what active requirers ask of its table, and that effective entry is what
 * it votes and requires in turn, so requirements chain.
 *
 * Tables reference each other without cycles (dmn_opp_add refuses one), so the
 * tables a change reaches are ordered requirers first and each owner is
 * settled once per transaction. A requirer's change moves its owners in
 * its own core transaction (below), so each domain still gets one pstate
 * call; an owner whose new entry asks less of the table below than its
 * old one did lets what it required down in that same transaction.
 */
#include "opp_internal.h"

#include <errno.h>

/* An optional firmware unit (bench/firmware_size.sh "devreq"): the core
 * reaches it only through dmn_opp_ctx->devreq, which the dmn_opp_add that
 * makes the first requirement installs (table.c); until then no device
 * owns a table another requires into, so a rate moves its device alone
 * and nothing here would move anything. The effective entry (rate.c)
 * is the core's: a rate without requirements takes it too. */

/* Owner @b down to @to (a requirement gone or undone). Moving to no OPP
 * only drops votes, so an owner left with none gets back the clock it had
 * when a raise took it from none (undo_clock_hz: 0 Hz if it had none, as
 * a device never clocked shows): a requirement that no longer counts
 * leaves no trace (docs/device-tree.md), along a chain too. */
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
			const struct dmn_opp_entry *eff = dmn__opp_effective(b);
			if (eff == dmn__opp_entry_by_id(b->table, b->vote_id))
				continue;
			dmn__opp_note(ctx, move_back(ctx, b, eff));
		}
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
			if (dmn__opp_effective(b) !=
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

/* ---- the owners in the requirer's transaction ---------------------------
 *
 * A requirer's change (a resume, a suspend, a rate) moves its owners in
 * its own core transaction (docs/semantics.md: one pstate call a domain a
 * command, parents raised first, children lowered first): while it runs,
 * ctx->txn_hook is txn_hook. First (!mid, the requirer's new state among
 * the inputs, so dmn__opp_counted sees it) each owner the change reaches gets its
 * new entry, requirers first, and its votes join the inputs; between the
 * core's raises and its lowerings (mid) their clocks and supplies move,
 * those going up first (what is required before what requires it): up,
 * votes then supplies and clock; down, clock and supplies then votes, as
 * dmn_opp_set_rate moves one device. A failure going up rolls back the
 * whole transaction, the owners' clocks and supplies too; one going down
 * is safe: that owner's clock and supplies stay where they were, and its
 * votes, which the transaction's lowerings take down all the same, go
 * back up after it (with_owners), the failure reported.
 */

/* Owner @b's new entry, if it moves: listed in *@moving (once) and
 * counted as moved (vote_id, for a moment). True if it moved. */
static bool reach_one(struct dmn_opp_dev *b, struct dmn_opp_dev **moving)
{
	const struct dmn_opp_entry *eff = dmn__opp_effective(b);
	const struct dmn_opp_entry *cur = dmn__opp_entry_by_id(b->table, b->vote_id);
	if (eff == cur)
		return false;
	if (!b->txn_in) {
		b->txn_in = true;
		b->undo_was = cur;
		b->txn_stay = false;
		if (!cur) /* its own clock: see move_back */
			b->undo_clock_hz = b->clock_known ? b->clock_hz : 0;
		b->txn_next = *moving;
		*moving = b;
	}
	b->txn_to = eff;
	b->vote_id = eff ? eff->id : DMN_OPP_ID_NONE;
	return true;
}

/* The owners a change of a device of @t moves, requirers first. */
static bool reach_from(struct dmn_ctx *ctx, struct dmn_opp_table *t,
		       struct dmn_opp_dev **moving)
{
	bool moved = false;
	for (t = owners(ctx, t, false); t; t = t->order_next)
		for (struct dmn_opp_dev *b = t->devices; b; b = b->next)
			moved |= reach_one(b, moving);
	return moved;
}

/* The owners of the last transaction: no longer busy, those whose clock
 * could not go down kept in oc->txn_stays (with_owners). */
static void done_with(struct dmn_opp_ctx *oc)
{
	for (struct dmn_opp_dev *b = oc->txn_moving; b; b = b->txn_next) {
		b->busy = false;
		if (b->txn_stay) {
			b->txn_stay = false;
			b->stay_next = oc->txn_stays;
			oc->txn_stays = b;
		}
	}
	oc->txn_moving = 0;
}

/* The first: the new entries of every owner the change reaches (of one
 * table's devices, or with none of every device: system sleep), until
 * none moves (several tables may reach one owner), listed in
 * oc->txn_moving (the last reached first), then their votes as inputs. */
static int owners_in(struct dmn_ctx *ctx, struct dmn_opp_ctx *oc)
{
	struct dmn_opp_dev *b, *moving = 0;
	struct dmn_device *v;
	bool again = true;
	done_with(oc); /* an earlier transaction of the same change */
	while (again) {
		again = false;
		if (oc->txn_t)
			again = reach_from(ctx, oc->txn_t, &moving);
		else
			FOR_OPP_DEVICES(ctx, v, b)
				again |= reach_from(ctx, b->table, &moving);
	}
	oc->txn_moving = moving;
	for (b = moving; b; b = b->txn_next) {
		b->txn_in = false;
		b->vote_id = b->undo_was ? b->undo_was->id : DMN_OPP_ID_NONE;
		b->busy = true; /* the follow listener keeps off, as in a move */
	}
	int err = 0;
	for (b = moving; b && !err; b = b->txn_next)
		err = dmn__opp_move_inputs(ctx, b, b->txn_to);
	return err;
}

static bool goes_up(const struct dmn_opp_dev *b)
{
	return b->txn_to && (!b->undo_was ||
			     dmn__opp_entry_cmp(b->txn_to, b->undo_was) > 0);
}

/* The entry @b's clock and supplies run at for @to (a follower may run
 * higher: rate.c). */
static const struct dmn_opp_entry *run_of(struct dmn_ctx *ctx,
					  struct dmn_opp_dev *b,
					  const struct dmn_opp_entry *to)
{
	const struct dmn_opp_entry *f =
	    to && b->follow ? opp_follow_permitted(ctx, b, to) : 0;
	return f && dmn__opp_entry_cmp(f, to) > 0 ? f : to;
}

/* @b's clock and supplies to @to's (to no OPP: the clock it had before
 * a raise took it from none). */
static int owner_hw(struct dmn_ctx *ctx, struct dmn_opp_dev *b,
		    const struct dmn_opp_entry *to, int safe)
{
	const struct dmn_opp_entry *run = run_of(ctx, b, to);
	if (!run)
		return dmn__opp_clock_step(ctx, b, b->undo_clock_hz, safe);
	if (run == dmn__opp_entry_by_id(b->table, b->run_id))
		return 0;
	return dmn__opp_hw_move(ctx, b, run);
}

/* Between the raises and the lowerings: the clocks and supplies, those
 * going up first; then the records. */
static int owners_hw(struct dmn_ctx *ctx, struct dmn_opp_ctx *oc)
{
	struct dmn_opp_dev *b, *up = 0;
	int err = 0;
	for (b = oc->txn_moving; b && !err; b = b->txn_next)
		if (goes_up(b)) {
			err = owner_hw(ctx, b, b->txn_to, 0);
			if (!err)
				up = b;
		}
	if (err) {
		/* those moved go back, in the order they went (undo
		 * calls: a failing one is noted, that owner stays) */
		for (struct dmn_opp_dev *c = oc->txn_moving; up && c;
		     c = c->txn_next)
			if (goes_up(c)) {
				dmn__opp_note(ctx, owner_hw(ctx, c, c->undo_was, 1));
				if (c == up)
					break;
			}
		b = oc->txn_moving; /* the ROLLBACK names a domain of it */
		ctx->fail_dom = b->pdev->n_atts ? dev_att(b->pdev, 0)->dom
			      : ctx->n_order ? ctx->order[0] : 0;
		return err;
	}
	/* going down, requirers first: the list reversed */
	for (up = 0, b = oc->txn_moving; b; up = b, b = oc->txn_moving) {
		oc->txn_moving = b->txn_next;
		b->txn_next = up;
	}
	oc->txn_moving = up;
	for (b = up; b; b = b->txn_next)
		if (!goes_up(b) && owner_hw(ctx, b, b->txn_to, 1))
			b->txn_stay = true;
	for (b = oc->txn_moving; b; b = b->txn_next) {
		b->busy = false; /* it may follow its domains down from here */
		if (b->txn_stay)
			continue;
		const struct dmn_opp_entry *run = run_of(ctx, b, b->txn_to);
		b->vote_id = b->txn_to ? b->txn_to->id : DMN_OPP_ID_NONE;
		b->run_id = run ? run->id : DMN_OPP_ID_NONE;
	}
	return 0;
}

static int txn_hook(struct dmn_ctx *ctx, bool mid)
{
	struct dmn_opp_ctx *oc = ctx->opp;
	return mid ? owners_hw(ctx, oc) : owners_in(ctx, oc);
}

static int with_owners(struct dmn_ctx *ctx, struct dmn_opp_table *t,
		       bool all, int (*op)(struct dmn_ctx *, void *),
			 void *arg)
{
	struct dmn_opp_ctx *oc = ctx->opp;
	if (!oc || (!t && !all))
		return op(ctx, arg);
	oc->txn_t = t;
	oc->txn_moving = oc->txn_stays = 0;
	ctx->txn_hook = txn_hook;
	int err = op(ctx, arg);
	ctx->txn_hook = 0;
	int first = ctx->op_error;
	done_with(oc);
	for (struct dmn_opp_dev *b = oc->txn_stays; b; b = b->stay_next)
		dmn__opp_note(ctx, dmn__opp_move_locked(ctx, b, b->undo_was,
							b->requested_hz));
	oc->txn_stays = 0;
	if (first)
		ctx->op_error = first;
	return err;
}

struct rate_arg {
	struct dmn_opp_dev *od;
	const struct dmn_opp_entry *to;
	uint64_t hz;
};

static int rate_op(struct dmn_ctx *ctx, void *arg)
{
	struct rate_arg *r = arg;
	return dmn__opp_move_locked(ctx, r->od, r->to, r->hz);
}

/* Its own rate is now @od's latest own word on the attachments its old
 * or new own entry (@target) drives (docs/semantics.md: the latest of vote and
 * rate wins there; a direct vote elsewhere stays): their words cleared,
 * the old ones kept in *@saved (NULL: none, nothing cleared) for a
 * failure to put back. 0 or -ENOMEM (nothing changed). */
static int rate_words(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		      const struct dmn_opp_entry *target, uint64_t **saved)
{
	unsigned n = od->pdev->n_atts < od->cap_own_vote ? od->pdev->n_atts
							 : od->cap_own_vote;
	*saved = 0;
	if (!n)
		return 0;
	uint64_t *old = dmn__alloc(ctx, n * (sizeof(uint64_t) +
					       sizeof(uint32_t) + 1));
	if (!old)
		return -ENOMEM;
	uint32_t *lv = (uint32_t *)(void *)(old + n);
	bool *drv = (bool *)(lv + n);
	const struct dmn_opp_entry *e[2] = {
	    dmn__opp_entry_by_id(od->table, od->own_id), target};
	int err = 0;
	for (unsigned i = 0; i < n; i++) {
		old[i] = od->own_vote[i];
		drv[i] = false;
	}
	for (unsigned k = 0; k < 2 && err >= 0; k++)
		if (e[k])
			err = dmn__opp_entry_raise(ctx, e[k], od->pdev, lv, drv, n);
	if (err < 0) {
		dmn__free(ctx, old);
		return err;
	}
	for (unsigned i = 0; i < n; i++)
		if (drv[i])
			od->own_vote[i] = 0;
	*saved = old;
	return 0;
}

static int rate_locked(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		       const struct dmn_opp_entry *target, uint64_t hz)
{
	uint32_t old_own = od->own_id;
	uint64_t *saved;
	int err = rate_words(ctx, od, target, &saved);
	if (err)
		return err;
	od->own_id = target ? target->id : DMN_OPP_ID_NONE;
	struct rate_arg r = {od, dmn__opp_effective(od), hz};
	od->req_extra = r.to; /* counted with the old entry: a raise */
	err = with_owners(ctx, od->table, false, rate_op, &r);
	od->req_extra = 0;
	if (err) {
		od->own_id = old_own;
		for (unsigned i = 0; saved && i < od->pdev->n_atts &&
				     i < od->cap_own_vote; i++)
			od->own_vote[i] = saved[i];
		/* owners a raise left up go back */
		settle_down(ctx, owners(ctx, od->table, false));
	} else if (target && target->n_hz) { /* its own clock: see move_back */
		od->undo_clock_hz = oe_hz(target)[0];
	}
	dmn__free(ctx, saved);
	return err;
}

/* ---- resume and suspend ------------------------------------------------ */

static int get_op(struct dmn_ctx *ctx, void *dev)
{
	return dmn__device_get_locked(ctx, (dmn_device_t)(uintptr_t)dev);
}

static int put_op(struct dmn_ctx *ctx, void *dev)
{
	return dmn__device_put_locked(ctx, (dmn_device_t)(uintptr_t)dev);
}

/* dmn_opp_device_get (@op get_op) and dmn_opp_device_put: the core's,
 * with the owners of the device's table in its transaction. */
static int usage_op(struct dmn_ctx *ctx, dmn_device_t dev,
		    int (*op)(struct dmn_ctx *, void *))
{
	int err;
	struct dmn_device *pdev =
	    dmn__enter(ctx, true, DMN_DEVICES | DMN_ENTER_RECORD, dev, &err);
	if (!pdev)
		return err;
	struct dmn_opp_dev *od = dev_opp_state(pdev);
	ctx->op_error = 0;
	err = with_owners(ctx, od ? od->table : 0, false, op,
				   (void *)(uintptr_t)dev);
	if (ctx->op_error || err) /* atomic: see dmn__txn_result */
		dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_device_get(struct dmn_ctx *ctx, dmn_device_t dev)
{
	return usage_op(ctx, dev, get_op);
}

int dmn_opp_device_put(struct dmn_ctx *ctx, dmn_device_t dev)
{
	return usage_op(ctx, dev, put_op);
}

static void settle(struct dmn_ctx *ctx, struct dmn_opp_table *t)
{
	settle_down(ctx, owners(ctx, t, false));
}

/* Installed by the dmn_opp_add that makes the first requirement (table.c). */
const struct dmn_opp_devreq_ops dmn__opp_devreq_ops = {
	.rate = rate_locked,
	.with_owners = with_owners,
	.settle = settle,
};
