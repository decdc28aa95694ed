/* SPDX-License-Identifier: MIT */
/*
 * dmn_opp_device_vote: an owner's (docs/device-tree.md) direct vote on one
 * attachment, combined with what its effective entry votes there. An optional
 * unit (bench/firmware_size.sh): the core reads an owner's direct votes
 * (dmn_opp_dev->own_vote) but never calls this file.
 */
#include "opp_internal.h"

#include <errno.h>

/* An owner: a device bound to a table others require into. */
static bool is_owner(const struct dmn_opp_dev *od)
{
	return !od->table->has_level && od->table->n_users;
}

/* The level @e votes on attachment @i of @pdev into *@level (0: none), as
 * dmn__opp_entry_raise() says, straight from the matching: 0 or -ENOMEM. */
static int vote_at(struct dmn_ctx *ctx, const struct dmn_opp_entry *e,
		   const struct dmn_device *pdev, unsigned i, uint32_t *level)
{
	if (oe_has_pstate(e)) {
		/* A get-pstate helper: the device's single domain. */
		*level = i ? 0 : oe_pstate(e);
		return 0;
	}
	int err = dmn__opp_match(ctx, e, dmn__opp_att_dom, pdev, pdev->n_atts);
	const int *slot = ((struct dmn_opp_ctx *)ctx->opp)->req_slot;
	for (unsigned j = 0; !err && j < e->n_required; j++)
		if (slot[j] == (int)i)
			*level = oe_req_entry(e)[j]->level;
	return err;
}

int dmn_opp_device_vote(struct dmn_ctx *ctx, dmn_device_t dev, unsigned i,
		    uint32_t level)
{
	int err;
	struct dmn_device *pdev = dmn__enter(ctx, true, DMN_DEVICES, dev, &err);
	if (!pdev)
		return err;
	if (i >= pdev->n_atts) {
		dmn__unlock(ctx);
		return -ENOENT;
	}
	struct dmn_opp_dev *od = dev_opp_state(pdev);
	dmn_attach_t att = att_handle(dev_att(pdev, i));
	uint32_t cast = level;
	bool owner = od && is_owner(od);
	unsigned had = owner ? od->cap_own_vote : 0;
	if (owner && dmn__grow(ctx, (void **)&od->own_vote, &od->cap_own_vote,
			      pdev->n_atts, sizeof(*od->own_vote)))
		err = -ENOMEM;
	for (unsigned k = had; owner && k < od->cap_own_vote; k++)
		od->own_vote[k] = 0;
	const struct dmn_opp_entry *eff =
	    owner ? dmn__opp_entry_by_id(od->table, od->vote_id) : 0;
	if (!err && eff) {
		/* the effective entry's vote on this attachment, if any */
		uint32_t own = 0;
		err = vote_at(ctx, eff, pdev, i, &own);
		if (own > cast)
			cast = own;
	}
	if (!err)
		err = dmn__vote_locked(ctx, att, cast);
	if (!err && owner && i < od->cap_own_vote)
		od->own_vote[i] = DMN__OWN_DIRECT | level;
	dmn__unlock(ctx);
	return err;
}
