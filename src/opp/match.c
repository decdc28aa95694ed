/* SPDX-License-Identifier: MIT */
/*
 * Which required OPP of an entry went to which domain (an optional unit of a
 * firmware image, docs/architecture.md): lint reports the matching rule's
 * outcome; the OPP layer applies the rule (dmn__opp_match) without these.
 */
#include "opp_internal.h"

#include <errno.h>

static int report_match(struct dmn_ctx *ctx, const struct dmn_opp_entry *e,
			dmn_opp_dom_at_fn at, const void *src, unsigned n,
			int *slot, unsigned max)
{
	int err = dmn__opp_match(ctx, e, at, src, n);
	if (err)
		return err;
	const int *dom_of_req = ((struct dmn_opp_ctx *)ctx->opp)->req_slot;
	for (unsigned j = 0; j < e->n_required && j < max; j++)
		slot[j] = dom_of_req[j];
	return (int)e->n_required;
}

int dmn_opp_device_required_match(struct dmn_ctx *ctx, dmn_device_t dev, uint32_t id,
			      int *slot, unsigned max)
{
	int ret;
	const struct dmn_opp_dev *od =
	    dmn__opp_dev_enter(ctx, slot || !max, dev, false, &ret);
	if (!od)
		return ret;
	const struct dmn_opp_entry *e = dmn__opp_entry_by_id(od->table, id);
	ret = -ENOENT;
	if (e)
		ret = report_match(ctx, e, dmn__opp_att_dom, od->pdev,
				   od->pdev->n_atts, slot, max);
	dmn__unlock(ctx);
	return ret;
}

int dmn_opp_domain_required_match(struct dmn_ctx *ctx, dmn_domain_t dom, uint32_t id,
			      int *slot, unsigned max)
{
	int ret;
	struct dmn_domain *d =
	    dmn__enter(ctx, slot || !max, DMN_DOMAINS, dom, &ret);
	if (!d)
		return ret;
	const struct dmn_opp_table *t = dmn__opp_domain_level_table(d);
	const struct dmn_opp_entry *e = t ? dmn__opp_entry_by_id(t, id) : 0;
	ret = -ENOENT;
	if (e)
		ret = report_match(ctx, e, dmn__opp_parent_dom, d, d->n_parents, slot,
				   max);
	dmn__unlock(ctx);
	return ret;
}
