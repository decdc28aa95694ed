/* SPDX-License-Identifier: MIT */
/*
 * Opportunistic scaling: a following device votes for the OPP of its
 * requested rate but runs at the fastest entry its domains' current
 * pstates already permit.
 *
 * It works from the core's events, through one listener per context
 * (registered while any device follows): after a domain's pstate rises
 * (DMN_EV_PSTATE) the followers on it move up, supplies then clock; before
 * it is lowered (DMN_EV_PSTATE_LOWERING, which names the level it goes to)
 * they move down, clock then supplies, never below their requested OPP.
 * The listener runs under the context lock in the middle of a core
 * transaction, so it calls the providers directly and never a public
 * function. A failed move leaves the device where it was and is reported
 * (an event, and the operation's dmn_last_error()); it cannot stop the
 * domain's change.
 *
 * Cost per event: O(F * (A + n * R * A)) for F followers with A
 * attachments on tables of n entries with R required OPPs each; the
 * voters of the domain are never walked.
 */
#include "opp_internal.h"

#include <errno.h>
#include <string.h>

static bool level_met(const struct dmn_domain *d, uint32_t level,
		      dmn_domain_t dom, uint32_t dom_level)
{
	uint32_t have = (dom && d->handle == dom) ? dom_level : d->pstate;
	return !level || level <= have;
}

/* Each attachment takes at most one required OPP, so the entry's votes are
 * checked straight from the matching, without a per-attachment array. An
 * entry whose matching cannot be computed (memory) does not fit. */
static bool fits(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
		 const struct dmn_opp_entry *e, dmn_domain_t dom, uint32_t dom_level)
{
	const struct dmn_device *pdev = od->pdev;
	if (oe_has_pstate(e))
		return !pdev->n_atts ||
		       level_met(dev_att(pdev, 0)->dom, oe_pstate(e), dom, dom_level);
	if (dmn__opp_match(ctx, e, dmn__opp_att_dom, pdev, pdev->n_atts))
		return false;
	const int *slot = ((struct dmn_opp_ctx *)ctx->opp)->req_slot;
	for (unsigned j = 0; j < e->n_required; j++)
		if (slot[j] >= 0 && !level_met(dev_att(pdev, (unsigned)slot[j])->dom,
					       oe_req_entry(e)[j]->level, dom,
					       dom_level))
			return false;
	return true;
}

const struct dmn_opp_entry *dmn__opp_permitted(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
				      const struct dmn_opp_entry *floor,
				      dmn_domain_t dom, uint32_t dom_level)
{
	const struct dmn_opp_table *t = od->table;
	unsigned start = floor ? dmn__opp_entry_pos(t, floor) : 0;
	for (unsigned pos = t->n; pos-- > start;) {
		const struct dmn_opp_entry *e = opp_sorted_at(t, pos);
		if (dmn__opp_entry_usable(t, e) && fits(ctx, od, e, dom, dom_level))
			return e;
	}
	return 0;
}

/* An automatic move: reported, never returned. */
static void follow_move(struct dmn_ctx *ctx, struct dmn_opp_dev *od,
			const struct dmn_opp_entry *to)
{
	/* the records first: nothing is called without them */
	if (!dmn__opp_dev_reserve(ctx, od, to->n_supplies) &&
	    !dmn__opp_hw_move(ctx, od, to))
		od->run_id = to->id;
}

static bool attached_to(const struct dmn_opp_dev *od, uint32_t dom)
{
	for (unsigned i = 0; i < od->pdev->n_atts; i++)
		if (dev_att(od->pdev, i)->dom->handle == dom)
			return true;
	return false;
}

static void listener(void *user, struct dmn_ctx *ctx,
		     const struct dmn_event *ev)
{
	struct dmn_opp_ctx *oc = user;
	bool lowering = ev->kind == DMN_EV_PSTATE_LOWERING;
	if (!lowering &&
	    !(ev->kind == DMN_EV_PSTATE && ev->new_value > ev->old_value))
		return;
	for (struct dmn_opp_dev *od = oc->followers; od; od = od->fnext) {
		if (od->busy || !attached_to(od, ev->domain))
			continue;
		const struct dmn_opp_entry *vote =
		    dmn__opp_entry_by_id(od->table, od->vote_id);
		const struct dmn_opp_entry *run =
		    dmn__opp_entry_by_id(od->table, od->run_id);
		if (!vote || !run)
			continue; /* no requested OPP: nothing to follow from */
		if (lowering) {
			const struct dmn_opp_entry *to = dmn__opp_permitted(
			    ctx, od, vote, ev->domain, (uint32_t)ev->new_value);
			if (!to)
				to = vote;
			if (dmn__opp_entry_cmp(to, run) < 0)
				follow_move(ctx, od, to);
		} else {
			const struct dmn_opp_entry *to =
			    dmn__opp_permitted(ctx, od, vote, 0, 0);
			if (to && dmn__opp_entry_cmp(to, run) > 0)
				follow_move(ctx, od, to);
		}
	}
}

static int listen_locked(struct dmn_ctx *ctx, struct dmn_opp_ctx *oc)
{
	if (oc->listening)
		return 0;
	int err = dmn__listen_add(ctx, listener, oc);
	oc->listening = !err;
	ctx->internal_listeners += !err;
	return err;
}

static void unlisten_locked(struct dmn_ctx *ctx, struct dmn_opp_ctx *oc)
{
	if (!oc->listening)
		return;
	if (!dmn__listen_remove(ctx, listener, oc))
		ctx->internal_listeners--;
	oc->listening = false;
}

void dmn__opp_follow_drop(struct dmn_ctx *ctx, struct dmn_opp_dev *od)
{
	struct dmn_opp_ctx *oc = ctx->opp;
	if (!od->follow)
		return;
	if (od->fprev)
		od->fprev->fnext = od->fnext;
	else
		oc->followers = od->fnext;
	if (od->fnext)
		od->fnext->fprev = od->fprev;
	od->fprev = od->fnext = 0;
	od->follow = false;
	if (!oc->followers)
		unlisten_locked(ctx, oc);
}

void dmn__opp_follow_fini(struct dmn_ctx *ctx, struct dmn_opp_ctx *oc)
{
	unlisten_locked(ctx, oc);
	oc->followers = 0;
}

int dmn_opp_find_max_permitted(struct dmn_ctx *ctx, dmn_device_t dev, uint32_t *id)
{
	int err;
	struct dmn_device *pdev = dmn__enter(ctx, id, DMN_DEVICES, dev, &err);
	if (!pdev)
		return err;
	struct dmn_opp_dev *od = dev_opp_state(pdev);
	if (!od) {
		err = -ENOENT;
	} else {
		const struct dmn_opp_entry *p = dmn__opp_permitted(
		    ctx, od, dmn__opp_entry_by_id(od->table, od->vote_id), 0, 0);
		if (p)
			*id = p->id;
		else
			err = -ENOENT;
	}
	dmn__unlock(ctx);
	return err;
}

static const struct dmn_opp_follow_ops follow_ops = {
	dmn__opp_permitted, dmn__opp_follow_drop, dmn__opp_follow_fini,
};

int dmn_opp_device_follow(struct dmn_ctx *ctx, dmn_device_t dev, bool follow)
{
	int err;
	struct dmn_opp_dev *od = dmn__opp_dev_enter(ctx, true, dev, true, &err);
	if (!od)
		return err;
	ctx->op_error = 0;
	const struct dmn_opp_entry *vote = dmn__opp_entry_by_id(od->table, od->vote_id);
	const struct dmn_opp_entry *run = dmn__opp_entry_by_id(od->table, od->run_id);
	if (follow && !od->follow) {
		struct dmn_opp_ctx *oc = ctx->opp;
		oc->follow = &follow_ops;
		err = listen_locked(ctx, oc);
		if (!err) {
			od->follow = true;
			od->fprev = 0;
			od->fnext = oc->followers;
			if (oc->followers)
				oc->followers->fprev = od;
			oc->followers = od;
			const struct dmn_opp_entry *to =
			    vote ? dmn__opp_permitted(ctx, od, vote, 0, 0) : 0;
			if (to && run && dmn__opp_entry_cmp(to, run) > 0)
				follow_move(ctx, od, to);
		}
	} else if (!follow && od->follow) {
		dmn__opp_follow_drop(ctx, od);
		if (vote && run && run != vote)
			follow_move(ctx, od, vote);
	}
	err = dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}
