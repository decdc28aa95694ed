/* SPDX-License-Identifier: MIT */
/* Devices bound to tables, and their clock and regulator providers. */
#include "opp_internal.h"

#include <errno.h>
#include <string.h>

int opp_device_bind(struct dmn_ctx *ctx, pd_device_t dev, opp_table_t table)
{
	if (!ctx)
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	struct pd_device *pdev = pd_device_get_ptr(ctx, dev);
	struct opp_table *t = opp_table_lookup(ctx, table);
	struct opp_dev *od = 0;
	int err = (pdev && t) ? 0 : -EBADF;
	if (!err && pdev->opp_state)
		err = -EEXIST;
	if (!err) {
		od = dmn_alloc(ctx, sizeof(*od));
		err = od ? 0 : -ENOMEM;
	}
	if (!err) {
		memset(od, 0, sizeof(*od));
		od->pdev = pdev;
		od->table = t;
		od->vote_id = od->run_id = OPP_ID_NONE;
		od->next = t->devices;
		if (t->devices)
			t->devices->prev = od;
		t->devices = od;
		opp_table_ref(t);
		pdev->opp_state = od;
	}
	dmn_unlock(ctx);
	return err;
}

int opp_device_unbind(struct dmn_ctx *ctx, pd_device_t dev)
{
	if (!ctx)
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	struct pd_device *pdev = pd_device_get_ptr(ctx, dev);
	struct opp_dev *od = pdev ? pdev->opp_state : 0;
	struct opp_report rep = {0};
	ctx->op_error = 0;
	int err = !pdev ? -EBADF : !od ? -ENOENT : 0;
	if (!err)
		err = opp_move_locked(ctx, od, 0, 0, &rep);
	if (!err) {
		opp_follow_drop(ctx, od);
		struct opp_table *t = od->table;
		if (od->prev)
			od->prev->next = od->next;
		else
			t->devices = od->next;
		if (od->next)
			od->next->prev = od->prev;
		pdev->opp_state = 0;
		dmn_free(ctx, od);
		opp_table_unref(ctx, t);
	}
	err = opp_result(ctx, &rep, err);
	dmn_unlock(ctx);
	return err;
}

static struct opp_dev *bound(struct dmn_ctx *ctx, pd_device_t dev, int *err)
{
	struct pd_device *pdev = pd_device_get_ptr(ctx, dev);
	struct opp_dev *od = pdev ? pdev->opp_state : 0;
	*err = !pdev ? -EBADF : !od ? -ENOENT : 0;
	return od;
}

int opp_device_table(struct dmn_ctx *ctx, pd_device_t dev, opp_table_t *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	int err;
	struct opp_dev *od = bound(ctx, dev, &err);
	if (od)
		*out = od->table->handle;
	dmn_unlock(ctx);
	return err;
}

int opp_device_set_clock(struct dmn_ctx *ctx, pd_device_t dev,
			 const struct opp_clock_ops *ops, void *user)
{
	if (!ctx)
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	int err;
	struct opp_dev *od = bound(ctx, dev, &err);
	if (od) {
		od->clk = ops;
		od->clk_user = ops ? user : 0;
		/* A new provider: what it runs at is known only if it says. */
		od->clock_known = ops && ops->get_rate;
		od->clock_hz = od->clock_known ? ops->get_rate(user, dev) : 0;
	}
	dmn_unlock(ctx);
	return err;
}

int opp_device_set_regulators(struct dmn_ctx *ctx, pd_device_t dev,
			      const struct opp_regulator_ops *ops, void *user)
{
	if (!ctx)
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	int err;
	struct opp_dev *od = bound(ctx, dev, &err);
	if (od) {
		od->reg = ops;
		od->reg_user = ops ? user : 0;
		for (unsigned i = 0; i < OPP_MAX_SUPPLIES; i++)
			od->supply_known[i] = false;
	}
	dmn_unlock(ctx);
	return err;
}

int opp_device_current(struct dmn_ctx *ctx, pd_device_t dev, uint32_t *id,
		       uint64_t *requested_hz)
{
	if (!ctx)
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	int err;
	struct opp_dev *od = bound(ctx, dev, &err);
	if (od && id)
		*id = od->run_id;
	if (od && requested_hz)
		*requested_hz = od->requested_hz;
	dmn_unlock(ctx);
	return err;
}

int opp_device_votes(struct dmn_ctx *ctx, pd_device_t dev, uint32_t id,
		     uint32_t *levels, unsigned max)
{
	if (!ctx || (!levels && max))
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	int err;
	struct opp_dev *od = bound(ctx, dev, &err);
	const struct opp_entry *e = od ? opp_entry_by_id(od->table, id) : 0;
	if (od && !e)
		err = -ENOENT;
	if (e) {
		uint32_t lv[OPP_MAX_ATTACH];
		bool driven[OPP_MAX_ATTACH];
		unsigned n =
		    opp_entry_votes(e, od->pdev, lv, driven, OPP_MAX_ATTACH);
		for (unsigned i = 0; i < max && i < od->pdev->n_atts; i++)
			levels[i] = i < n ? lv[i] : 0;
		err = (int)od->pdev->n_atts;
	}
	dmn_unlock(ctx);
	return err;
}
