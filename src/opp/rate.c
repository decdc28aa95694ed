/* SPDX-License-Identifier: MIT */
/*
 * set_rate sequencing.
 *
 * A move from what the hardware is at now (the attachments' votes, the
 * supplies and clock as their providers last accepted them) to entry T is
 * done in five steps, each skipped when it changes nothing:
 *
 *   1. raise votes   every attachment to max(its vote, T's)  unsafe
 *   2. raise supplies whose target goes up (or is unknown)   unsafe
 *   3. clock         to T's first opp-hz                     unsafe
 *   4. lower supplies whose target goes down                 safe
 *   5. lower votes   to T's                                  safe
 *
 * For a table that rises monotonically this is exactly "up: votes,
 * supplies, clock; down: clock, supplies, votes", and an entry that raises
 * one domain while lowering another is still never run above what its
 * rails give it. A failure in 1-3 undoes the steps already done, in
 * reverse (a supply back to its old window, the votes back through a core
 * transaction), so the device stays at its old OPP. A failure in 4 or 5
 * leaves that supply or domain higher, the move stands, and the failure is
 * reported; a later move retries.
 *
 * Memory: everything the core transactions of steps 1 and 5 (and of the
 * undo) may need is reserved before step 1, so a move never fails for
 * memory once the hardware has started to change.
 */
#include "opp_internal.h"

#include <errno.h>
#include <string.h>

void opp_note(struct dmn_ctx *ctx, struct opp_report *rep, int err)
{
	(void)ctx;
	if (err && !rep->first_error)
		rep->first_error = err;
}

int opp_result(struct dmn_ctx *ctx, const struct opp_report *rep, int err)
{
	ctx->op_error = rep->first_error;
	return txn_result(ctx, err);
}

void opp_emit_dev(struct dmn_ctx *ctx, enum dmn_event_kind kind, enum dmn_op op,
		  const struct opp_dev *od, int err, int safe,
		  uint64_t old_value, uint64_t new_value)
{
	struct dmn_event ev = {kind, op,   0,	      od->pdev->handle,
			       err,  safe, old_value, new_value};
	dmn_emit(ctx, &ev);
}

/* ---- providers ------------------------------------------------------------
 */

static int clock_step(struct dmn_ctx *ctx, struct opp_dev *od, uint64_t hz,
		      int safe, struct opp_report *rep)
{
	if (od->clock_known && od->clock_hz == hz)
		return 0;
	uint64_t old = od->clock_known ? od->clock_hz : 0;
	int err = 0;
	if (od->clk && od->clk->set_rate)
		err = od->clk->set_rate(od->clk_user, od->pdev->handle, hz);
	if (err) {
		err = err > 0 ? -EIO : err;
		opp_note(ctx, rep, err);
		opp_emit_dev(ctx, DMN_EV_FAILURE, DMN_OP_CLOCK, od, err, safe,
			     old, hz);
		return err;
	}
	od->clock_hz = hz;
	od->clock_known = true;
	opp_emit_dev(ctx, DMN_EV_RATE, DMN_OP_CLOCK, od, 0, 0, old, hz);
	return 0;
}

static bool supply_same(const struct opp_dev *od, unsigned k,
			const struct opp_supply *s)
{
	const struct opp_supply *c = &od->supply[k];
	return od->supply_known[k] && c->microvolt == s->microvolt &&
	       c->microvolt_min == s->microvolt_min &&
	       c->microvolt_max == s->microvolt_max;
}

static bool supply_raises(const struct opp_dev *od, unsigned k,
			  const struct opp_supply *s)
{
	const struct opp_supply *c = &od->supply[k];
	if (!od->supply_known[k] || s->microvolt > c->microvolt)
		return true;
	return s->microvolt == c->microvolt &&
	       s->microvolt_min > c->microvolt_min;
}

static int supply_step(struct dmn_ctx *ctx, struct opp_dev *od, unsigned k,
		       const struct opp_supply *s, int safe,
		       struct opp_report *rep)
{
	uint64_t old = od->supply_known[k] ? od->supply[k].microvolt : 0;
	int err = od->reg->set_voltage(od->reg_user, od->pdev->handle, k,
				       s->microvolt_min, s->microvolt,
				       s->microvolt_max);
	if (err) {
		err = err > 0 ? -EIO : err;
		opp_note(ctx, rep, err);
		opp_emit_dev(ctx, DMN_EV_FAILURE, DMN_OP_REGULATOR, od, err,
			     safe, old, s->microvolt);
		return err;
	}
	od->supply[k] = *s;
	od->supply_known[k] = true;
	opp_emit_dev(ctx, DMN_EV_VOLTAGE, DMN_OP_REGULATOR, od, 0, 0, old,
		     s->microvolt);
	return 0;
}

int opp_hw_move(struct dmn_ctx *ctx, struct opp_dev *od,
		const struct opp_entry *to, struct opp_report *rep)
{
	struct opp_supply saved[OPP_MAX_SUPPLIES];
	bool saved_known[OPP_MAX_SUPPLIES];
	unsigned done[OPP_MAX_SUPPLIES], n_done = 0;
	bool has_reg = od->reg && od->reg->set_voltage;
	unsigned n_sup = has_reg ? to->n_supplies : 0;
	enum dmn_op failed_op = DMN_OP_REGULATOR;
	int err = 0;
	for (unsigned k = 0; k < n_sup && !err; k++) {
		const struct opp_supply *s = &to->supplies[k];
		if (supply_same(od, k, s) || !supply_raises(od, k, s))
			continue;
		saved[k] = od->supply[k];
		saved_known[k] = od->supply_known[k];
		err = supply_step(ctx, od, k, s, 0, rep);
		if (!err)
			done[n_done++] = k;
	}
	if (!err && to->n_hz) {
		failed_op = DMN_OP_CLOCK;
		err = clock_step(ctx, od, to->hz[0], 0, rep);
	}
	if (err) {
		opp_emit_dev(ctx, DMN_EV_ROLLBACK, failed_op, od, err, 0, 0, 0);
		/* Back to the old windows, in reverse. A supply whose old state
		 * was never known has nothing to go back to. */
		while (n_done--) {
			unsigned k = done[n_done];
			if (saved_known[k])
				supply_step(ctx, od, k, &saved[k], 1, rep);
		}
		return err;
	}
	for (unsigned k = 0; k < n_sup; k++) {
		const struct opp_supply *s = &to->supplies[k];
		if (!supply_same(od, k, s) && !supply_raises(od, k, s))
			supply_step(ctx, od, k, s, 1, rep); /* safe: reported */
	}
	return 0;
}

/* ---- votes ------------------------------------------------------------------
 */

/* Grow, before anything changes, what the core transactions of one move
 * can need: the undo log (4 entries per attachment and per link passed),
 * and in each domain on the way up room for a new level from the device
 * and from each child, twice (a move runs two transactions). */
static int reserve_domain(struct dmn_ctx *ctx, struct pd_domain *d,
			  unsigned *links, unsigned depth)
{
	if (d->visit == ctx->epoch || depth > 64)
		return 0;
	d->visit = ctx->epoch;
	int err = dmn_grow(ctx, (void **)&d->votes.bins, &d->votes.cap,
			   d->votes.n + 2 * (d->n_children + 1),
			   sizeof(*d->votes.bins));
	*links += d->n_parents;
	for (unsigned i = 0; i < d->n_parents && !err; i++)
		err = reserve_domain(ctx, d->parents[i]->parent, links,
				     depth + 1);
	return err;
}

static int reserve_move(struct dmn_ctx *ctx, struct pd_device *pdev, unsigned n)
{
	unsigned links = 0;
	int err = 0;
	/* Outside a transaction the visit marks are free: each core operation
	 * starts a new epoch before it uses them. */
	ctx->epoch++;
	for (unsigned i = 0; i < n && !err; i++)
		err = reserve_domain(ctx, pdev->atts[i]->dom, &links, 0);
	if (!err)
		err = dmn_grow(ctx, (void **)&ctx->undo, &ctx->cap_undo,
			       4 * (n + links) + 8, sizeof(*ctx->undo));
	return err;
}

/* Set the touched attachments to @levels (already rounded) as one core
 * transaction, as pd_vote_many does. */
static int vote_txn(struct dmn_ctx *ctx, struct pd_device *pdev,
		    const bool *touch, const uint32_t *levels, unsigned n,
		    struct opp_report *rep)
{
	bool any = false;
	for (unsigned i = 0; i < n; i++)
		any |= touch[i] && pdev->atts[i]->vote != levels[i];
	if (!any)
		return 0;
	txn_begin(ctx);
	for (unsigned i = 0; i < n; i++) {
		struct pd_attachment *a = pdev->atts[i];
		if (!touch[i] || a->vote == levels[i])
			continue;
		int err = txn_set_vote(ctx, a, levels[i], a->counted);
		if (err) {
			txn_abort(ctx);
			return err;
		}
		if (a->counted)
			txn_touch(ctx, a->dom);
	}
	int err = txn_commit(ctx);
	opp_note(ctx, rep, ctx->op_error);
	return err;
}

int opp_move_locked(struct dmn_ctx *ctx, struct opp_dev *od,
		    const struct opp_entry *target, uint64_t hz,
		    struct opp_report *rep)
{
	struct pd_device *pdev = od->pdev;
	const struct opp_table *t = od->table;
	const struct opp_entry *was_vote = opp_entry_by_id(t, od->vote_id);
	const struct opp_entry *was_run = opp_entry_by_id(t, od->run_id);
	bool same = target == was_vote && (od->follow || target == was_run);
	uint32_t new_v[OPP_MAX_ATTACH], old_v[OPP_MAX_ATTACH];
	bool new_d[OPP_MAX_ATTACH], old_d[OPP_MAX_ATTACH];
	unsigned n =
	    pdev->n_atts < OPP_MAX_ATTACH ? pdev->n_atts : OPP_MAX_ATTACH;
	memset(new_d, 0, sizeof(new_d));
	memset(old_d, 0, sizeof(old_d));
	if (target)
		opp_entry_votes(target, pdev, new_v, new_d, n);
	if (was_vote)
		opp_entry_votes(was_vote, pdev, old_v, old_d, n);

	/* Validate every vote before anything changes (-ENODEV, -ERANGE). */
	uint32_t want[OPP_MAX_ATTACH], cur[OPP_MAX_ATTACH], up[OPP_MAX_ATTACH];
	bool touch[OPP_MAX_ATTACH];
	for (unsigned i = 0; i < n; i++) {
		struct pd_attachment *a = pdev->atts[i];
		touch[i] = new_d[i] || old_d[i];
		cur[i] = up[i] = want[i] = a->vote;
		if (!touch[i])
			continue;
		int err = txn_check_level(ctx, a->dom, new_d[i] ? new_v[i] : 0,
					  &want[i]);
		if (err)
			return err;
		up[i] = want[i] > cur[i] ? want[i] : cur[i];
		/* A pd_vote() since the OPP was set changed its vote: the
		 * latest call wins, so the OPP's vote is written again. */
		same = same && want[i] == cur[i];
	}
	if (same) {
		od->requested_hz = hz; /* the same OPP: nothing is called */
		return 0;
	}
	int err = reserve_move(ctx, pdev, n);
	if (err)
		return err;

	od->busy = true;
	err = vote_txn(ctx, pdev, touch, up, n, rep); /* 1 */
	if (err) {
		od->busy = false;
		return err; /* the core transaction undid itself */
	}
	const struct opp_entry *run = target;
	if (target && od->follow) {
		const struct opp_entry *p = opp_permitted(od, target, 0, 0);
		if (p && p->pos > target->pos)
			run = p;
	}
	if (run && run != was_run) {
		err = opp_hw_move(ctx, od, run, rep); /* 2, 3, 4 */
		if (err) {
			vote_txn(ctx, pdev, touch, cur, n, rep);
			od->busy = false;
			return err;
		}
	}
	od->vote_id = target ? target->id : OPP_ID_NONE;
	od->run_id = run ? run->id : OPP_ID_NONE;
	od->requested_hz = hz;
	/* 5: a follower may move down with its domains from here on. */
	od->busy = false;
	int low = vote_txn(ctx, pdev, touch, want, n, rep);
	if (low) {
		/* Cannot happen for memory (reserved above); if it does, the
		 * votes simply stay higher: the safe direction. */
		opp_note(ctx, rep, low);
		opp_emit_dev(ctx, DMN_EV_FAILURE, DMN_OP_SET_PSTATE, od, low, 1,
			     0, 0);
	}
	return 0;
}

int opp_set_rate(struct dmn_ctx *ctx, pd_device_t dev, uint64_t hz)
{
	if (!ctx)
		return -EINVAL;
	dmn_lock(ctx);
	struct pd_device *pdev = pd_device_get_ptr(ctx, dev);
	struct opp_dev *od = pdev ? pdev->opp_state : 0;
	struct opp_report rep = {0};
	ctx->op_error = 0;
	int err = !pdev ? -EBADF : !od ? -ENODEV : 0;
	const struct opp_entry *target = 0;
	if (!err && hz) {
		int pos = opp_pos_freq_ceil(od->table, hz);
		if (pos < 0)
			err = -ERANGE;
		else
			target = od->table->sorted[pos];
	}
	if (!err)
		err = opp_move_locked(ctx, od, target, hz, &rep);
	err = opp_result(ctx, &rep, err);
	dmn_unlock(ctx);
	return err;
}

/* ---- availability
 * ------------------------------------------------------------ */

static const struct opp_entry *usable_above(const struct opp_table *t,
					    const struct opp_entry *e)
{
	for (unsigned pos = e->pos + 1; pos < t->n; pos++)
		if (opp_entry_usable(t, t->sorted[pos]))
			return t->sorted[pos];
	return 0;
}

int opp_set_available(struct dmn_ctx *ctx, opp_table_t table, uint32_t id,
		      bool available)
{
	if (!ctx)
		return -EINVAL;
	dmn_lock(ctx);
	struct opp_table *t = opp_table_lookup(ctx, table);
	struct opp_entry *e = t ? opp_entry_by_id(t, id) : 0;
	struct opp_report rep = {0};
	int err = !t ? -EBADF : !e ? -ENOENT : 0;
	if (err || available || !e->available) {
		if (!err)
			e->available = available;
		dmn_unlock(ctx);
		return err;
	}
	ctx->op_error = 0;
	e->available = false;
	/* Check every device first: -EBUSY changes nothing. */
	for (struct opp_dev *od = t->devices; od && !err; od = od->next)
		if (od->vote_id == id && !usable_above(t, e))
			err = -EBUSY;
	for (struct opp_dev *od = t->devices; od && !err; od = od->next) {
		if (od->vote_id == id) {
			err = opp_move_locked(ctx, od, usable_above(t, e),
					      od->requested_hz, &rep);
		} else if (od->run_id == id) {
			/* A follower running above its own OPP: where it may.
			 */
			const struct opp_entry *v =
			    opp_entry_by_id(t, od->vote_id);
			const struct opp_entry *p = opp_permitted(od, v, 0, 0);
			if (!p)
				p = v;
			err = opp_hw_move(ctx, od, p, &rep);
			if (!err)
				od->run_id = p->id;
		}
	}
	if (err)
		e->available = true; /* devices already moved stay moved */
	err = opp_result(ctx, &rep, err);
	dmn_unlock(ctx);
	return err;
}
