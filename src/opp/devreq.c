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
 * Tables reference each other without cycles (opp_add refuses one), so the
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
#include <string.h>

/* A requirer's requirements count while it is active, or while its resume
 * is being checked. */
static bool counts(const struct opp_dev *r)
{
	return r->pdev->usage > 0 || r->req_active;
}

static const struct opp_entry *higher(const struct opp_entry *a,
				      const struct opp_entry *b)
{
	return !a || (b && dmn__opp_entry_cmp(b, a) > 0) ? b : a;
}

/* What @e requires of table @t: the highest such entry, or NULL. */
static const struct opp_entry *asks(const struct opp_entry *e,
				    const struct opp_table *t)
{
	const struct opp_entry *best = 0;
	for (unsigned j = 0; e && j < e->n_required; j++)
		if (oe_req_table(e)[j] == t)
			best = higher(best, oe_req_entry(e)[j]);
	return best;
}

/* The entry owner @b runs at: the highest of its own rate's entry and
 * what active requirers ask of its table. */
static const struct opp_entry *effective(const struct opp_dev *b)
{
	const struct opp_table *t = b->table;
	const struct opp_entry *best = dmn__opp_entry_by_id(t, b->own_id);
	for (unsigned u = 0; u < t->n_users; u++) {
		const struct opp_table *ut = t->users[u];
		for (const struct opp_dev *r = ut->devices; r; r = r->next) {
			if (!counts(r))
				continue;
			best = higher(best,
				      asks(dmn__opp_entry_by_id(ut, r->vote_id), t));
			best = higher(best, asks(r->req_extra, t));
		}
	}
	return best;
}

/* The device tables reachable from @from through required OPPs, in an
 * order where every table comes after the tables requiring it (@from
 * itself excluded): a depth-first post-order on an explicit stack,
 * reversed. */
struct reach {
	struct opp_table **order;
	unsigned n, cap;
};

struct frame {
	struct opp_table *t;
	unsigned next;
};

static int reach_build(struct dmn_ctx *ctx, struct opp_table *from,
		       struct reach *out)
{
	struct opp_ctx *oc = ctx->opp;
	struct frame *stack = 0;
	unsigned n = 0, cap = 0;
	uint32_t gen = ++oc->table_gen;
	memset(out, 0, sizeof(*out));
	int err = dmn_grow(ctx, (void **)&stack, &cap, 1, sizeof(*stack));
	if (!err) {
		from->mark = gen;
		stack[n++] = (struct frame){from, 0};
	}
	while (!err && n) {
		struct frame *f = &stack[n - 1];
		if (f->next < f->t->n_deps) {
			struct opp_table *d = f->t->deps[f->next++];
			if (d->has_level || d->mark == gen)
				continue; /* a domain's levels, or seen */
			d->mark = gen;
			err = dmn_grow(ctx, (void **)&stack, &cap, n + 1,
				       sizeof(*stack));
			if (!err)
				stack[n++] = (struct frame){d, 0};
			continue;
		}
		struct opp_table *done = f->t;
		n--;
		if (done == from)
			continue;
		err = dmn_grow(ctx, (void **)&out->order, &out->cap,
			       out->n + 1, sizeof(*out->order));
		if (!err)
			out->order[out->n++] = done;
	}
	dmn__free(ctx, stack);
	if (err) {
		dmn__free(ctx, out->order);
		memset(out, 0, sizeof(*out));
	}
	return err;
}

/* Owners moved by a raise, to put back in reverse on failure. */
struct moved {
	struct {
		struct opp_dev *od;
		const struct opp_entry *was;
		uint64_t clock_hz; /* what its clock was at, if known */
		bool clock_known;
	} *log;
	unsigned n, cap;
	unsigned first; /* log[first..n) moved: the later ones first */
};

/* Settling down: every owner in @r to its effective entry, requirers
 * first (a requirer lowers before what it required). Safe: a failure is
 * noted, that owner stays higher. */
static void settle_down(struct dmn_ctx *ctx, const struct reach *r,
			struct opp_report *rep)
{
	for (unsigned i = r->n; i-- > 0;)
		for (struct opp_dev *b = r->order[i]->devices; b; b = b->next) {
			const struct opp_entry *eff = effective(b);
			if (eff == dmn__opp_entry_by_id(b->table, b->vote_id))
				continue;
			dmn__opp_note(ctx, rep,
				 dmn__opp_move_locked(ctx, b, eff, b->requested_hz,
						 rep));
		}
}

/* Raising: first every owner's new entry, requirers first (each counting
 * what its requirers have and are about to have: req_extra), then the
 * moves in reverse, so what is required rises before what requires it.
 * The first failure is returned; log[first..n) is what moved. */
static int settle_up(struct dmn_ctx *ctx, const struct reach *r,
		     struct moved *undo, struct opp_report *rep)
{
	undo->n = undo->first = 0;
	for (unsigned i = r->n; i-- > 0;)
		for (struct opp_dev *b = r->order[i]->devices; b; b = b->next) {
			const struct opp_entry *eff = effective(b);
			const struct opp_entry *was =
			    dmn__opp_entry_by_id(b->table, b->vote_id);
			if (eff == was)
				continue;
			if (dmn_grow(ctx, (void **)&undo->log, &undo->cap,
				     undo->n + 1, sizeof(*undo->log))) {
				for (unsigned k = 0; k < undo->n; k++)
					undo->log[k].od->req_extra = 0;
				undo->n = 0;
				return -ENOMEM; /* nothing moved yet */
			}
			b->req_extra = eff;
			undo->log[undo->n].od = b;
			undo->log[undo->n].was = was;
			undo->log[undo->n].clock_hz = b->clock_hz;
			undo->log[undo->n++].clock_known = b->clock_known;
		}
	int err = 0;
	undo->first = undo->n;
	while (undo->first > 0 && !err) {
		struct opp_dev *b = undo->log[undo->first - 1].od;
		err = dmn__opp_move_locked(ctx, b, b->req_extra, b->requested_hz,
				      rep);
		if (!err)
			undo->first--;
	}
	for (unsigned k = 0; k < undo->n; k++)
		undo->log[k].od->req_extra = 0;
	return err;
}

/* Undo calls are calls like any other: a failing one leaves that owner
 * where it is (records match) and is reported. An owner that ran at no
 * OPP before gets its clock back too (moving to no OPP only drops votes). */
static void roll_back(struct dmn_ctx *ctx, struct moved *undo,
		      struct opp_report *rep)
{
	for (unsigned k = undo->first; k < undo->n; k++) {
		struct opp_dev *b = undo->log[k].od;
		int err = dmn__opp_move_locked(ctx, b, undo->log[k].was,
					  b->requested_hz, rep);
		if (!err && !undo->log[k].was && undo->log[k].clock_known)
			err = dmn__opp_clock_step(ctx, b, undo->log[k].clock_hz, 1,
					     rep);
		dmn__opp_note(ctx, rep, err);
	}
	undo->n = undo->first = 0;
}

static bool has_device_deps(const struct opp_table *t)
{
	for (unsigned i = 0; i < t->n_deps; i++)
		if (!t->deps[i]->has_level)
			return true;
	return false;
}

/* An owner: a device bound to a table others require into. */
static bool is_owner(const struct opp_dev *od)
{
	return !od->table->has_level && od->table->n_users;
}

int dmn__opp_rate_locked(struct dmn_ctx *ctx, struct opp_dev *od,
		    const struct opp_entry *target, uint64_t hz,
		    struct opp_report *rep)
{
	uint32_t old_own = od->own_id;
	/* its own rate is now its latest own word on every attachment */
	for (unsigned i = 0; i < od->cap_own_vote; i++)
		od->own_vote[i] = 0;
	od->own_id = target ? target->id : OPP_ID_NONE;
	const struct opp_entry *eff = effective(od);
	if (!has_device_deps(od->table)) {
		int err = dmn__opp_move_locked(ctx, od, eff, hz, rep);
		if (err)
			od->own_id = old_own;
		return err;
	}
	struct reach r;
	struct moved undo = {0, 0, 0, 0};
	int err = reach_build(ctx, od->table, &r);
	if (!err) {
		od->req_extra = eff; /* counted with the old entry: a raise */
		err = settle_up(ctx, &r, &undo, rep);
		if (!err)
			err = dmn__opp_move_locked(ctx, od, eff, hz, rep);
		od->req_extra = 0;
		if (err)
			roll_back(ctx, &undo, rep);
		else
			settle_down(ctx, &r, rep);
	}
	if (err)
		od->own_id = old_own;
	dmn__free(ctx, undo.log);
	dmn__free(ctx, r.order);
	return err;
}

/* ---- resume and suspend ------------------------------------------------ */

int opp_device_get(struct dmn_ctx *ctx, pd_device_t dev)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *pdev = dmn__pd_device_get_ptr(ctx, dev);
	struct opp_dev *od = pdev ? dev_opp_state(pdev) : 0;
	struct opp_report rep = {0};
	struct reach r = {0, 0, 0};
	struct moved undo = {0, 0, 0, 0};
	int err = 0;
	bool raised = false;
	if (od && !pdev->usage && has_device_deps(od->table)) {
		err = reach_build(ctx, od->table, &r);
		if (!err) {
			od->req_active = true;
			raised = true;
			err = settle_up(ctx, &r, &undo, &rep);
		}
		if (err) {
			roll_back(ctx, &undo, &rep);
			od->req_active = false;
		}
	}
	if (!err)
		err = dmn__pd_device_get_locked(ctx, dev);
	if (raised) {
		od->req_active = false;
		if (err)
			roll_back(ctx, &undo, &rep);
	}
	if (rep.first_error || err) /* atomic: see txn_result */
		__atomic_store_n(&ctx->last_error,
				 err ? err : rep.first_error, __ATOMIC_RELAXED);
	dmn__free(ctx, undo.log);
	dmn__free(ctx, r.order);
	dmn__unlock(ctx);
	return err;
}

int opp_device_put(struct dmn_ctx *ctx, pd_device_t dev)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	int err = dmn__pd_device_put_locked(ctx, dev);
	if (err) {
		dmn__unlock(ctx);
		return err;
	}
	struct pd_device *pdev = dmn__pd_device_get_ptr(ctx, dev);
	struct opp_dev *od = pdev ? dev_opp_state(pdev) : 0;
	if (od && !pdev->usage && has_device_deps(od->table)) {
		struct opp_report rep = {0};
		struct reach r;
		int low = reach_build(ctx, od->table, &r);
		if (!low)
			settle_down(ctx, &r, &rep);
		else
			dmn__opp_note(ctx, &rep, low);
		if (rep.first_error && !ctx->last_error)
			__atomic_store_n(&ctx->last_error, rep.first_error,
					 __ATOMIC_RELAXED);
		dmn__free(ctx, r.order);
	}
	dmn__unlock(ctx);
	return 0;
}

void dmn__opp_requirements_settle(struct dmn_ctx *ctx, struct opp_table *t,
			     struct opp_report *rep)
{
	if (!has_device_deps(t))
		return;
	struct reach r;
	int err = reach_build(ctx, t, &r);
	if (err) {
		dmn__opp_note(ctx, rep, err);
		return;
	}
	settle_down(ctx, &r, rep);
	dmn__free(ctx, r.order);
}

/* The level @e votes on attachment @i of @pdev into *@level (0: none), as
 * dmn__opp_entry_votes() says, straight from the matching: 0 or -ENOMEM. */
static int vote_at(struct dmn_ctx *ctx, const struct opp_entry *e,
		   const struct pd_device *pdev, unsigned i, uint32_t *level)
{
	if (oe_has_pstate(e)) {
		/* A get-pstate helper: the device's single domain. */
		*level = i ? 0 : oe_pstate(e);
		return 0;
	}
	int err = dmn__opp_match(ctx, e, dmn__opp_att_dom, pdev, pdev->n_atts);
	const int *slot = ((struct opp_ctx *)ctx->opp)->req_slot;
	for (unsigned j = 0; !err && j < e->n_required; j++)
		if (slot[j] == (int)i)
			*level = oe_req_entry(e)[j]->level;
	return err;
}

int opp_device_vote(struct dmn_ctx *ctx, pd_device_t dev, unsigned i,
		    uint32_t level)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *pdev = dmn__pd_device_get_ptr(ctx, dev);
	struct opp_dev *od = pdev ? dev_opp_state(pdev) : 0;
	int err = !pdev ? -EBADF : i >= pdev->n_atts ? -ENOENT : 0;
	pd_attach_t att = err ? 0 : att_handle(dev_att(pdev, i));
	uint32_t cast = level;
	bool owner = !err && od && is_owner(od);
	unsigned had = owner ? od->cap_own_vote : 0;
	if (owner && dmn_grow(ctx, (void **)&od->own_vote, &od->cap_own_vote,
			      pdev->n_atts, sizeof(*od->own_vote)))
		err = -ENOMEM;
	for (unsigned k = had; owner && k < od->cap_own_vote; k++)
		od->own_vote[k] = 0;
	const struct opp_entry *eff =
	    owner ? dmn__opp_entry_by_id(od->table, od->vote_id) : 0;
	if (!err && eff) {
		/* the effective entry's vote on this attachment, if any */
		uint32_t own = 0;
		err = vote_at(ctx, eff, pdev, i, &own);
		if (own > cast)
			cast = own;
	}
	if (!err)
		err = dmn__pd_vote_locked(ctx, att, cast);
	if (!err && owner && i < od->cap_own_vote)
		od->own_vote[i] = level;
	dmn__unlock(ctx);
	return err;
}
