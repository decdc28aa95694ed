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
#include <stdint.h>
#include <string.h>

void dmn__opp_note(struct dmn_ctx *ctx, int err)
{
	if (err && !ctx->op_error)
		ctx->op_error = err;
}

void dmn__opp_emit_dev(struct dmn_ctx *ctx, enum dmn_event_kind kind, enum dmn_op op,
		  const struct dmn_opp_dev *od, int err, int safe,
		  uint64_t old_value, uint64_t new_value)
{
	struct dmn_event ev = {kind, op,   0,	      od->pdev->handle,
			       err,  safe, old_value, new_value};
	dmn__emit(ctx, &ev);
}

/* ---- providers ------------------------------------------------------------
 */

/* The outcome of one provider call (@err as the provider returned it, a
 * positive value taken as -EIO; the records already updated on success):
 * the event, and a failure noted (dmn__opp_note). Returns 0 or the error. */
static int step_done(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		     int err, enum dmn_event_kind kind,
		     enum dmn_op op, int safe, uint64_t old, uint64_t new)
{
	if (err) {
		err = err > 0 ? -EIO : err;
		dmn__opp_note(ctx, err);
		kind = DMN_EV_FAILURE;
	} else {
		safe = 0;
	}
	dmn__opp_emit_dev(ctx, kind, op, od, err, safe, old, new);
	return err;
}

int dmn__opp_clock_step(struct dmn_ctx *ctx, struct dmn_opp_dev *od, uint64_t hz,
		   int safe)
{
	if (od->clock_known && od->clock_hz == hz)
		return 0;
	uint64_t old = od->clock_known ? od->clock_hz : 0;
	int err = 0;
	if (od->clk && od->clk->set_rate)
		err = od->clk->set_rate(od->clk_user, od->pdev->handle, hz);
	if (!err) {
		od->clock_hz = hz;
		od->clock_known = true;
	}
	return step_done(ctx, od, err, DMN_EV_RATE, DMN_OP_CLOCK, safe, old,
			 hz);
}

/* Where @s takes supply @k from what its provider last accepted: 1 up
 * (or not known), 0 nowhere, -1 down. */
static int supply_dir(const struct dmn_opp_dev *od, unsigned k,
		      const struct dmn_opp_supply *s)
{
	const struct dmn_opp_supply_rec *c = &od->supply[k];
	if (!c->known)
		return 1;
	if (c->s.microvolt == s->microvolt && c->s.microvolt_min == s->microvolt_min &&
	    c->s.microvolt_max == s->microvolt_max)
		return 0;
	return s->microvolt > c->s.microvolt ||
			       (s->microvolt == c->s.microvolt &&
				s->microvolt_min > c->s.microvolt_min)
		   ? 1
		   : -1;
}

static void supply_record(struct dmn_opp_dev *od, unsigned k,
			  const struct dmn_opp_supply *s)
{
	od->supply[k].s = *s;
	od->supply[k].known = true;
}

/* How a supply is called: towards the target going up (unsafe) or down
 * (safe), or back to its recorded window (safe; the event says from the
 * target). */
enum { SUP_UP, SUP_DOWN, SUP_BACK };

/* Supply @k towards @s as @how says; the records are the caller's to
 * update. */
static int supply_call(struct dmn_ctx *ctx, struct dmn_opp_dev *od, unsigned k,
		       const struct dmn_opp_supply *s, int how)
{
	uint64_t old_uv = how == SUP_BACK ? s->microvolt
			: od->supply[k].known ? od->supply[k].s.microvolt : 0;
	if (how == SUP_BACK)
		s = &od->supply[k].s;
	int err = od->reg->set_voltage(od->reg_user, od->pdev->handle, k,
				       s->microvolt_min, s->microvolt,
				       s->microvolt_max);
	return step_done(ctx, od, err, DMN_EV_VOLTAGE, DMN_OP_REGULATOR,
			 how != SUP_UP, old_uv, s->microvolt);
}

int dmn__opp_dev_reserve(struct dmn_ctx *ctx, struct dmn_opp_dev *od, unsigned n)
{
	if (n <= od->cap_supply)
		return 0;
	/* n <= 255 (an entry's supplies): the size cannot overflow */
	size_t old = od->cap_supply * sizeof(*od->supply);
	char *block = dmn__alloc(ctx, n * sizeof(*od->supply));
	if (!block)
		return -ENOMEM;
	memset(block + old, 0, n * sizeof(*od->supply) - old);
	if (old)
		memcpy(block, od->supply, old);
	dmn__free(ctx, od->supply);
	od->supply = (struct dmn_opp_supply_rec *)(void *)block;
	od->cap_supply = n;
	return 0;
}

/* The supplies going up are called first with their records kept as they
 * were, so the records still say which ones went up: the undo calls those
 * back in reverse, and once the clock stands they take their new windows
 * in the pass that lowers the others. */
int dmn__opp_hw_move(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		const struct dmn_opp_entry *to)
{
	bool has_reg = od->reg && od->reg->set_voltage;
	unsigned n_sup = has_reg ? to->n_supplies : 0, k;
	const struct dmn_opp_supply *s = oe_supplies(to);
	enum dmn_op failed_op = DMN_OP_REGULATOR;
	int err = 0;
	for (k = 0; k < n_sup && !err; k++)
		if (supply_dir(od, k, &s[k]) > 0)
			err = supply_call(ctx, od, k, &s[k], SUP_UP);
	if (err) {
		k--; /* the one that failed */
	} else if (to->n_hz) {
		failed_op = DMN_OP_CLOCK;
		err = dmn__opp_clock_step(ctx, od, oe_hz(to)[0], 0);
	}
	if (err) {
		dmn__opp_emit_dev(ctx, DMN_EV_ROLLBACK, failed_op, od, err, 0, 0, 0);
		/* Back to the old windows, in reverse. A supply whose old state
		 * was never known has nothing to go back to; one that fails
		 * to go back stays where it went. */
		while (k--)
			if (supply_dir(od, k, &s[k]) > 0 &&
			    (!od->supply[k].known ||
			     supply_call(ctx, od, k, &s[k], SUP_BACK)))
				supply_record(od, k, &s[k]);
		return err;
	}
	for (k = 0; k < n_sup; k++) {
		int dir = supply_dir(od, k, &s[k]);
		if (dir > 0 ||
		    (dir < 0 && !supply_call(ctx, od, k, &s[k], SUP_DOWN)))
			supply_record(od, k, &s[k]);
	}
	return 0;
}

/* ---- votes ------------------------------------------------------------------
 */

/* Grow, before anything changes, what the core transactions of one move
 * can need: the undo log (4 entries per attachment and per link passed),
 * and in each domain on the way up room for a new level from the device
 * and from each child, twice (a move runs two transactions). The core's
 * walk visits the ancestors (no depth limit, no allocation); the visit
 * marks, free outside a transaction, count each domain once. */
static int reserve_move(struct dmn_ctx *ctx, struct dmn_device *pdev, unsigned n)
{
	unsigned links = 0;
	ctx->epoch++;
	for (unsigned i = 0; i < n; i++) {
		unsigned up = dmn__walk_up(ctx, dev_att(pdev, i)->dom);
		for (unsigned k = 0; k < up; k++) {
			struct dmn_domain *d = ctx->walk[k];
			if (d->visit == ctx->epoch)
				continue;
			d->visit = ctx->epoch;
			links += d->n_parents;
			if (dmn__grow(ctx, (void **)&d->votes.bins, &d->votes.cap,
				     d->votes.n + 2 * (d->n_children + 1),
				     sizeof(*d->votes.bins)))
				return -ENOMEM;
		}
	}
	return dmn__grow(ctx, (void **)&ctx->undo, &ctx->cap_undo,
			4 * (n + links) + 8, sizeof(*ctx->undo));
}

/* The per-attachment arrays of one move, in one block: the new votes
 * (@new_v where @new_d; rounded in place before anything changes), the
 * votes now (@cur, first the scratch of the own rate's entry's votes, on
 * @own_d), the raised ones of step 1 (@up, first the scratch of the old
 * entry's votes), the attachments vote_txn takes first, and which
 * attachments the move touches. */
struct move_plan {
	uint32_t *new_v, *cur, *up, *order;
	bool *new_d, *touch, *own_d;
	unsigned m; /* how many of @order move_planned filled */
};

/* Set the attachments @p touches to @levels (already rounded) as inputs
 * of the open core transaction, as dmn_vote_many does: first the @p->m of
 * @p->order (plan_votes), then the others in attachment order. The core
 * raises in the order domains were touched and lowers in the reverse.
 * *@began says whether it is open (begun here at the first change). 0, or
 * the error (the caller aborts). */
static int vote_inputs(struct dmn_ctx *ctx, struct dmn_device *pdev,
		       const struct move_plan *p, const uint32_t *levels,
		       unsigned n, bool *began)
{
	unsigned m = p->m;
	for (unsigned k = 0; k < m + n; k++) {
		/* one taken first has its level: skipped below */
		unsigned i = k < m ? p->order[k] : k - m;
		struct dmn_attachment *a = dev_att(pdev, i);
		if (!p->touch[i] || a->vote == levels[i])
			continue;
		if (!*began)
			dmn__txn_begin(ctx);
		*began = true;
		int err = dmn__txn_set_vote(ctx, a, levels[i], a->counted);
		if (err)
			return err;
		if (a->counted)
			dmn__txn_touch(ctx, a->dom);
	}
	return 0;
}

/* vote_inputs as one core transaction of its own. */
static int vote_txn(struct dmn_ctx *ctx, struct dmn_device *pdev,
		    const struct move_plan *p, const uint32_t *levels,
		    unsigned n)
{
	/* The operation's first error so far: dmn__txn_begin clears it. */
	int first = ctx->op_error;
	/* no transaction when no vote changes, unless devreq.c's hook
	 * moves owners with it */
	bool began = false;
	int err = vote_inputs(ctx, pdev, p, levels, n, &began);
	if (!err && !began && ctx->txn_hook) {
		dmn__txn_begin(ctx);
		began = true;
	}
	if (err) {
		dmn__txn_abort(ctx);
		ctx->op_error = first;
		return err;
	}
	if (!began)
		return 0;
	err = dmn__txn_commit(ctx);
	if (first)
		ctx->op_error = first;
	return err;
}

static void *plan_alloc(struct dmn_ctx *ctx, struct move_plan *p, unsigned n)
{
	char *block = dmn__alloc(ctx, n * (4 * sizeof(uint32_t) + 3) + 1);
	if (!block)
		return 0;
	p->new_v = (uint32_t *)(void *)block;
	p->cur = p->new_v + n;
	p->up = p->cur + n;
	p->order = p->up + n;
	p->new_d = (bool *)(p->order + n);
	p->touch = p->new_d + n;
	p->own_d = p->touch + n;
	memset(p->new_d, 0, 3 * n);
	return block;
}

/* The votes of @od's move to @target into @p (rounded, validated: 0,
 * -ENODEV, -ERANGE or -ENOMEM); *@same: the move changes no vote. */
static int plan_votes(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		      const struct dmn_opp_entry *target, struct move_plan *p,
		      bool *same)
{
	struct dmn_device *pdev = od->pdev;
	const struct dmn_opp_table *t = od->table;
	const struct dmn_opp_entry *was_vote = dmn__opp_entry_by_id(t, od->vote_id);
	/* A device-to-device requirement may hold the device above the entry
	 * of its own rate: it then votes the higher of both per attachment
	 * (docs/device-tree.md, Device-to-device requirements). */
	const struct dmn_opp_entry *own = dmn__opp_entry_by_id(t, od->own_id);
	if (own == target)
		own = 0;
	unsigned n = pdev->n_atts;
	int err = 0;
	/* The new votes (new_d, touch and own_d start all false): the
	 * target's, raised on each attachment by an owner's own latest word
	 * there, whatever its entry: a direct vote, or else the entry of its
	 * own rate (p->cur its scratch); what the old entry drives is
	 * touched. */
	const struct dmn_opp_entry *raise[3] = {was_vote, target ? own : 0, target};
	uint32_t *lv[3] = {p->up, p->cur, p->new_v};
	bool *dr[3] = {p->touch, p->own_d, p->new_d};
	const struct dmn_opp_entry *last = 0;
	for (unsigned k = 0; k < 3 && err >= 0; k++)
		if (raise[k])
			err = dmn__opp_entry_raise(ctx, last = raise[k], pdev,
						   lv[k], dr[k], n);
	for (unsigned i = 0; err >= 0 && i < n; i++) {
		uint64_t w = i < od->cap_own_vote ? od->own_vote[i] : 0;
		if (w & DMN__OWN_DIRECT)
			opp_raise_vote(p->new_v, p->new_d, i, (uint32_t)w);
		else if (p->own_d[i])
			opp_raise_vote(p->new_v, p->new_d, i, p->cur[i]);
	}
	if (err < 0)
		return err;
	err = 0;
	/* Linux sets an OPP's required OPPs in the order the entry lists
	 * them going up, in the reverse going down (_set_required_opps):
	 * vote_txn takes first the attachments they vote on, those of the
	 * last entry matched above (the target; was_vote for none), each
	 * once (the matching gives a domain one entry). A helper's entry is
	 * not matched: its slots are stale, the order then immaterial, and
	 * the bound check keeps them in range. */
	const int *slot = ((struct dmn_opp_ctx *)ctx->opp)->req_slot;
	unsigned m = 0, nr = last ? last->n_required : 0;
	for (unsigned j = 0; j < nr && m < n; j++)
		if ((unsigned)slot[j] < n)
			p->order[m++] = (uint32_t)slot[j];
	p->m = m;

	/* Validate every vote before anything changes (-ENODEV, -ERANGE). */
	for (unsigned i = 0; i < n && !err; i++) {
		struct dmn_attachment *a = dev_att(pdev, i);
		p->touch[i] |= p->new_d[i];
		uint32_t want = a->vote;
		p->cur[i] = want;
		if (p->touch[i])
			err = dmn__txn_check_level(ctx, a->dom,
					      p->new_d[i] ? p->new_v[i] : 0, &want);
		p->new_v[i] = want;
		p->up[i] = want > a->vote ? want : a->vote;
		/* A dmn_vote() since the OPP was set changed its vote: the
		 * latest call wins, so the OPP's vote is written again. */
		*same = *same && want == a->vote;
	}
	return err;
}

/* dmn__opp_move_locked with the plan's arrays in @p. */
static int move_planned(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
			const struct dmn_opp_entry *target, uint64_t hz,
			struct move_plan *p)
{
	struct dmn_device *pdev = od->pdev;
	const struct dmn_opp_table *t = od->table;
	const struct dmn_opp_entry *was_run = dmn__opp_entry_by_id(t, od->run_id);
	unsigned n = pdev->n_atts;
	bool same = dmn__opp_entry_by_id(t, od->vote_id) == target &&
		    (od->follow || target == was_run);
	int err = plan_votes(ctx, od, target, p, &same);
	if (!err && same) {
		od->requested_hz = hz; /* the same OPP: nothing is called */
		return 0;
	}
	if (!err)
		err = reserve_move(ctx, pdev, n);
	if (!err)
		err = dmn__opp_dev_reserve(ctx, od, t->max_supplies);
	if (err)
		return err;

	od->busy = true;
	err = vote_txn(ctx, pdev, p, p->up, n); /* 1 */
	if (err) {
		od->busy = false;
		return err; /* the core transaction undid itself */
	}
	const struct dmn_opp_entry *run = target;
	if (target && od->follow) {
		const struct dmn_opp_entry *f = opp_follow_permitted(ctx, od, target);
		if (f && dmn__opp_entry_cmp(f, target) > 0)
			run = f;
	}
	if (run && run != was_run) {
		err = dmn__opp_hw_move(ctx, od, run); /* 2, 3, 4 */
		if (err) {
			vote_txn(ctx, pdev, p, p->cur, n);
			od->busy = false;
			return err;
		}
	}
	od->vote_id = target ? target->id : DMN_OPP_ID_NONE;
	od->run_id = run ? run->id : DMN_OPP_ID_NONE;
	od->requested_hz = hz;
	/* 5: a follower may move down with its domains from here on. */
	od->busy = false;
	int low = vote_txn(ctx, pdev, p, p->new_v, n);
	if (low) {
		/* Only memory (a level the domain's statistics have not seen
		 * needs a slot: dmn__txn_hist_add; test_inject_sim_alloc
		 * reaches it): the votes stay higher, the safe direction, and
		 * the failure is reported as a lowering's
		 * (docs/semantics.md). */
		dmn__opp_note(ctx, low);
		dmn__opp_emit_dev(ctx, DMN_EV_FAILURE, DMN_OP_SET_PSTATE, od, low, 1,
			     0, 0);
	}
	return 0;
}

int dmn__opp_move_inputs(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
			 const struct dmn_opp_entry *target)
{
	struct move_plan p;
	unsigned n = od->pdev->n_atts;
	void *block = plan_alloc(ctx, &p, n);
	if (!block)
		return -ENOMEM;
	bool same = false, began = true;
	int err = plan_votes(ctx, od, target, &p, &same);
	if (!err)
		err = dmn__opp_dev_reserve(ctx, od, od->table->max_supplies);
	if (!err)
		err = vote_inputs(ctx, od->pdev, &p, p.new_v, n, &began);
	dmn__free(ctx, block);
	return err;
}

int dmn__opp_move_locked(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		    const struct dmn_opp_entry *target, uint64_t hz)
{
	struct move_plan p;
	void *block = plan_alloc(ctx, &p, od->pdev->n_atts);
	if (!block)
		return -ENOMEM;
	int err = move_planned(ctx, od, target, hz, &p);
	dmn__free(ctx, block);
	return err;
}

/* ---- device-to-device requirements (docs/device-tree.md) ----------------
 * Counted here, in the core: a walk of table.c needs it, and without
 * requirements (devreq.c not installed) a rate takes the effective entry
 * too. */

/* A requirer's requirements count while it is active (in a transaction:
 * as its inputs say, devreq.c's txn_hook). */
static bool counts(const struct dmn_opp_dev *r)
{
	return r->pdev->usage > 0;
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

const struct dmn_opp_entry *dmn__opp_effective(const struct dmn_opp_dev *b)
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

int dmn__opp_rate_locked(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		    const struct dmn_opp_entry *target, uint64_t hz)
{
	const struct dmn_opp_ctx *oc = ctx->opp;
	if (oc->devreq)
		return oc->devreq->rate(ctx, od, target, hz);
	/* devreq.c's rate with no owner anywhere: no owner moves, and only
	 * an owner has words of its own (own_vote) */
	uint32_t old_own = od->own_id;
	od->own_id = target ? target->id : DMN_OPP_ID_NONE;
	int err = dmn__opp_move_locked(ctx, od, dmn__opp_effective(od), hz);
	if (err)
		od->own_id = old_own;
	else if (target && target->n_hz) /* its own clock: see devreq.c */
		od->undo_clock_hz = oe_hz(target)[0];
	return err;
}

int dmn_opp_set_rate(struct dmn_ctx *ctx, dmn_device_t dev, uint64_t hz)
{
	int err;
	struct dmn_opp_dev *od = dmn__opp_dev_enter(ctx, true, dev, true, &err);
	if (!od)
		return err;
	ctx->op_error = 0;
	const struct dmn_opp_entry *target = 0;
	if (hz) {
		int pos = dmn__opp_pos_freq_ceil(od->table, hz);
		if (pos < 0)
			err = -ERANGE;
		else
			target = opp_sorted_at(od->table, pos);
	}
	if (!err)
		err = dmn__opp_rate_locked(ctx, od, target, hz);
	err = dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}
