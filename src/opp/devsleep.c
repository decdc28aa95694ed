/* SPDX-License-Identifier: MIT */
/*
 * System sleep with device-to-device requirements (docs/device-tree.md,
 * docs/lifecycle.md): a requirement counts only while its requirer is active,
 * and system sleep suspends devices. dmn_opp_system_suspend and
 * dmn_opp_system_resume run the core's sleep and restoration with the owners of
 * every requirer they suspend or bring back moved in the same transaction
 * (opp_with_owners), as dmn_opp_device_get and _put do: a restoration that
 * rolls back (an owner's raise failed too) puts them back with it. An optional
 * unit: it calls the core's sleep and devreq.c's hook (none until a requirement
 * exists: then no owner moves), nothing in the core calls it.
 */
#include "opp_internal.h"

static int suspend_op(struct dmn_ctx *ctx, void *arg)
{
	(void)arg;
	return dmn__system_suspend_locked(ctx);
}

static int resume_op(struct dmn_ctx *ctx, void *arg)
{
	(void)arg;
	return dmn__system_resume_locked(ctx);
}

/* dmn_opp_system_suspend (@op suspend_op) and dmn_opp_system_resume. */
static int sleep_op(struct dmn_ctx *ctx, int (*op)(struct dmn_ctx *, void *))
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	err = opp_with_owners(ctx, 0, true, op, 0);
	/* a safe failure of the owners after the core's call */
	if (ctx->op_error && !ctx->last_error)
		dmn__txn_result(ctx, 0);
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_system_suspend(struct dmn_ctx *ctx)
{
	return sleep_op(ctx, suspend_op);
}

int dmn_opp_system_resume(struct dmn_ctx *ctx)
{
	return sleep_op(ctx, resume_op);
}
