/* SPDX-License-Identifier: MIT */
/*
 * Teardown of the OPP layer: the calls that only take apart (an optional
 * firmware unit with src/core/teardown.c, see docs/architecture.md
 * "Firmware units"). A power controller binds its devices and builds its
 * tables once and keeps them until reset; the context's own teardown
 * (dmn_ctx_destroy, through ctx->opp_fini) frees whatever is left.
 */
#include "opp_internal.h"

int dmn_opp_table_put(struct dmn_ctx *ctx, dmn_opp_table_t table)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, true, table, &err);
	if (!t)
		return err;
	dmn__opp_table_unref(ctx, t);
	dmn__unlock(ctx);
	return 0;
}

int dmn_opp_device_unbind(struct dmn_ctx *ctx, dmn_device_t dev)
{
	int err;
	struct dmn_opp_dev *od = dmn__opp_dev_enter(ctx, true, dev, true, &err);
	if (!od)
		return err;
	ctx->op_error = 0;
	err = dmn__opp_rate_locked(ctx, od, 0, 0);
	if (!err && od->vote_id != DMN_OPP_ID_NONE) /* held up as an owner */
		err = dmn__opp_move_locked(ctx, od, 0, 0);
	if (!err) {
		if (od->follow) /* then the hooks are there */
			((struct dmn_opp_ctx *)ctx->opp)->follow->drop(ctx, od);
		struct dmn_opp_table *t = od->table;
		struct dmn_opp_dev **link = &t->devices;
		while (*link != od)
			link = &(*link)->next;
		*link = od->next;
		od->pdev->cold->opp_state = 0;
		dmn__opp_dev_free(ctx, od);
		/* what it required counts no more */
		dmn__opp_requirements_settle(ctx, t);
		dmn__opp_table_unref(ctx, t);
	}
	err = txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}
