/* SPDX-License-Identifier: MIT */
/* Devices bound to tables, and their clock and regulator providers. */
#include "opp_internal.h"

#include <errno.h>
#include <string.h>

int dmn_opp_device_bind(struct dmn_ctx *ctx, dmn_device_t dev, dmn_opp_table_t table)
{
	int err;
	struct dmn_device *pdev = dmn__enter(ctx, true, DMN_DEVICES, dev, &err);
	if (!pdev)
		return err;
	struct dmn_opp_table *t = dmn__opp_table_lookup(ctx, table);
	struct dmn_opp_dev *od = 0;
	err = t ? 0 : -EBADF;
	if (!err && dev_opp_state(pdev))
		err = -EEXIST;
	if (!err && !dmn__device_cold(ctx, pdev))
		err = -ENOMEM;
	if (!err) {
		od = dmn__alloc(ctx, sizeof(*od));
		err = od ? 0 : -ENOMEM;
	}
	if (!err) {
		memset(od, 0, sizeof(*od));
		od->pdev = pdev;
		od->table = t;
		od->vote_id = od->run_id = od->own_id = DMN_OPP_ID_NONE;
		od->next = t->devices;
		t->devices = od;
		dmn__opp_table_ref(t);
		pdev->cold->opp_state = od;
	}
	dmn__unlock(ctx);
	return err;
}

struct dmn_opp_dev *dmn__opp_dev_enter(struct dmn_ctx *ctx, bool args_ok,
				  dmn_device_t dev, bool record, int *err)
{
	int e = dmn__enter_ctx(ctx, args_ok);
	struct dmn_device *pdev = e ? 0 : dmn__device_get(ctx, dev);
	struct dmn_opp_dev *od = pdev ? dev_opp_state(pdev) : 0;
	*err = e ? e : !pdev ? -EBADF : !od ? -ENOENT : 0;
	if (!e && !od) {
		if (record) {
			ctx->op_error = 0;
			dmn__txn_result(ctx, *err);
		}
		dmn__unlock(ctx);
	}
	return od;
}

int dmn_opp_device_set_clock(struct dmn_ctx *ctx, dmn_device_t dev,
			 const struct dmn_opp_clock_ops *ops, void *user)
{
	int err;
	struct dmn_opp_dev *od = dmn__opp_dev_enter(ctx, true, dev, false, &err);
	if (!od)
		return err;
	od->clk = ops;
	od->clk_user = ops ? user : 0;
	/* A new provider: what it runs at is known only if it says. */
	od->clock_known = ops && ops->get_rate;
	od->clock_hz = od->clock_known ? ops->get_rate(user, dev) : 0;
	dmn__unlock(ctx);
	return 0;
}

int dmn_opp_device_set_regulators(struct dmn_ctx *ctx, dmn_device_t dev,
			      const struct dmn_opp_regulator_ops *ops, void *user)
{
	int err;
	struct dmn_opp_dev *od = dmn__opp_dev_enter(ctx, true, dev, false, &err);
	if (!od)
		return err;
	od->reg = ops;
	od->reg_user = ops ? user : 0;
	for (unsigned i = 0; i < od->cap_supply; i++)
		od->supply[i].known = false;
	dmn__unlock(ctx);
	return 0;
}
