/* SPDX-License-Identifier: MIT */
/*
 * Introspection of the OPP layer (an optional unit of a firmware image,
 * docs/architecture.md): what an entry holds, a table's entries in order, what
 * a bound device runs at and votes, a domain's level table. Reads only; the OPP
 * layer never calls these.
 */
#include "opp_internal.h"

#include <errno.h>
#include <string.h>

int dmn_opp_entry_info(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t id,
		   struct dmn_opp_info *out)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, out, table, &err);
	if (!t)
		return err;
	struct dmn_opp_entry *e = dmn__opp_entry_by_id(t, id);
	err = e ? 0 : -ENOENT;
	if (e) {
		out->name = oe_name(e);
		out->hz = oe_hz(e);
		out->n_hz = e->n_hz;
		out->level = e->level;
		out->supplies = oe_supplies(e);
		out->n_supplies = e->n_supplies;
		out->microwatt = oe_microwatt(e);
		out->required = oe_required(e);
		out->n_required = e->n_required;
		out->flags = e->flags;
		out->available = oe_available(e);
		out->pstate = oe_pstate(e);
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_table_count(struct dmn_ctx *ctx, dmn_opp_table_t table, unsigned *total,
		    unsigned *usable)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, true, table, &err);
	if (!t)
		return err;
	unsigned n = 0;
	for (unsigned i = 0; i < t->n; i++)
		n += dmn__opp_entry_usable(t, t->by_id[i]);
	if (total)
		*total = t->n;
	if (usable)
		*usable = n;
	dmn__unlock(ctx);
	return 0;
}

int dmn_opp_table_entry(struct dmn_ctx *ctx, dmn_opp_table_t table, unsigned i,
		    uint32_t *id)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, id, table, &err);
	if (!t)
		return err;
	err = i >= t->n ? -ENOENT : 0;
	if (!err)
		*id = opp_sorted_at(t, i)->id;
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_device_table(struct dmn_ctx *ctx, dmn_device_t dev, dmn_opp_table_t *out)
{
	int err;
	struct dmn_opp_dev *od = dmn__opp_dev_enter(ctx, out, dev, false, &err);
	if (!od)
		return err;
	*out = od->table->handle;
	dmn__unlock(ctx);
	return 0;
}

int dmn_opp_device_current(struct dmn_ctx *ctx, dmn_device_t dev, uint32_t *id,
		       uint64_t *requested_hz)
{
	int err;
	struct dmn_opp_dev *od = dmn__opp_dev_enter(ctx, true, dev, false, &err);
	if (!od)
		return err;
	if (id)
		*id = od->run_id;
	if (requested_hz)
		*requested_hz = od->requested_hz;
	dmn__unlock(ctx);
	return 0;
}

int dmn_opp_device_votes(struct dmn_ctx *ctx, dmn_device_t dev, uint32_t id,
		     uint32_t *levels, unsigned max)
{
	int err;
	struct dmn_opp_dev *od =
	    dmn__opp_dev_enter(ctx, levels || !max, dev, false, &err);
	if (!od)
		return err;
	const struct dmn_opp_entry *e = dmn__opp_entry_by_id(od->table, id);
	err = e ? 0 : -ENOENT;
	if (e) {
		unsigned n = od->pdev->n_atts;
		uint32_t *lv = dmn__alloc(ctx, (n + 1) * sizeof(*lv));
		bool *driven = dmn__alloc(ctx, n + 1);
		if (lv && driven) {
			memset(lv, 0, (n + 1) * sizeof(*lv));
			memset(driven, 0, n + 1);
		}
		err = lv && driven ? dmn__opp_entry_raise(ctx, e, od->pdev, lv,
						     driven, n)
				   : -ENOMEM;
		for (unsigned i = 0; err >= 0 && i < max && i < n; i++)
			levels[i] = lv[i];
		if (err >= 0)
			err = (int)n;
		dmn__free(ctx, lv);
		dmn__free(ctx, driven);
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_domain_table(struct dmn_ctx *ctx, dmn_domain_t dom, dmn_opp_table_t *out)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, out, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	const struct dmn_opp_table *t = dmn__opp_domain_level_table(d);
	err = t ? 0 : -ENOENT;
	if (t)
		*out = t->handle;
	dmn__unlock(ctx);
	return err;
}
