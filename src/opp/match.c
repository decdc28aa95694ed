/* SPDX-License-Identifier: MIT */
/*
 * Which required OPP of an entry went to which domain (an optional unit of
 * a firmware image, issue 15): lint reports the matching rule's outcome;
 * the OPP layer applies the rule (dmn__opp_match) without these.
 */
#include "opp_internal.h"

#include <errno.h>

static int report_match(struct dmn_ctx *ctx, const struct opp_entry *e,
			opp_dom_at_fn at, const void *src, unsigned n,
			int *slot, unsigned max)
{
	int err = dmn__opp_match(ctx, e, at, src, n);
	if (err)
		return err;
	const int *dom_of_req = ((struct opp_ctx *)ctx->opp)->req_slot;
	for (unsigned j = 0; j < e->n_required && j < max; j++)
		slot[j] = dom_of_req[j];
	return (int)e->n_required;
}

int opp_device_required_match(struct dmn_ctx *ctx, pd_device_t dev, uint32_t id,
			      int *slot, unsigned max)
{
	if (!ctx || (!slot && max))
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *pdev = dmn__pd_device_get_ptr(ctx, dev);
	const struct opp_dev *od = pdev ? dev_opp_state(pdev) : 0;
	const struct opp_entry *e = od ? dmn__opp_entry_by_id(od->table, id) : 0;
	int ret = !pdev ? -EBADF : !e ? -ENOENT : 0;
	if (e)
		ret = report_match(ctx, e, dmn__opp_att_dom, pdev, pdev->n_atts, slot,
				   max);
	dmn__unlock(ctx);
	return ret;
}

int opp_domain_required_match(struct dmn_ctx *ctx, pd_domain_t dom, uint32_t id,
			      int *slot, unsigned max)
{
	if (!ctx || (!slot && max))
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	const struct opp_table *t = d ? dmn__opp_domain_level_table(d) : 0;
	const struct opp_entry *e = t ? dmn__opp_entry_by_id(t, id) : 0;
	int ret = !d ? -EBADF : !e ? -ENOENT : 0;
	if (e)
		ret = report_match(ctx, e, dmn__opp_parent_dom, d, d->n_parents, slot,
				   max);
	dmn__unlock(ctx);
	return ret;
}
