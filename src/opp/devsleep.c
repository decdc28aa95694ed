/* SPDX-License-Identifier: MIT */
/*
 * System sleep with device-to-device requirements (DESIGN §2, §7): a
 * requirement counts only while its requirer is active, and system sleep
 * suspends devices. dmn_opp_system_suspend lets the owners of every
 * requirer sleep suspended settle down after the core's sleep, as
 * dmn_opp_device_put does after a runtime suspend; dmn_opp_system_resume
 * raises the owners of every requirer the restoration brings back before
 * it, as dmn_opp_device_get does, and puts them back when the
 * restoration rolls back. An optional unit: it calls the core's sleep and
 * devreq.c, nothing in the core calls it.
 */
#include "opp_internal.h"
#include "../core/sleep.h"

/* Each device's OPP state with its core device, in handle order. */
#define FOR_OPP_DEVICES(ctx, v, od)                                           \
	for (uint32_t h_ = dmn__handle_next(&(ctx)->devices, 0); h_;          \
	     h_ = dmn__handle_next(&(ctx)->devices, h_))                      \
		if (((v) = dmn__pd_device_get_ptr((ctx), h_)) &&              \
		    ((od) = dev_opp_state(v)))

/* The owners a change of a device of @t reaches raised, what moved put in
 * front of *@moved (to be put back first): the raises of several devices
 * in one step (the restoration). */
static int owners_raise(struct dmn_ctx *ctx, struct dmn_opp_table *t,
			struct dmn_opp_dev **moved)
{
	struct dmn__opp_raise rs;
	int err = dmn__opp_raise_begin(ctx, t, &rs);
	struct dmn_opp_dev **tail = &rs.moved;
	while (*tail)
		tail = &(*tail)->undo_next;
	*tail = *moved;
	*moved = rs.moved;
	return err;
}

/* Then, @err: all of @moved back; else the owners of @t settle. */
static void owners_end(struct dmn_ctx *ctx, struct dmn_opp_table *t,
		       struct dmn_opp_dev *moved, int err)
{
	struct dmn__opp_raise rs = {.t = t, .moved = moved};
	dmn__opp_raise_end(ctx, &rs, err);
}

int dmn_opp_system_suspend(struct dmn_ctx *ctx)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	bool was = ctx->asleep;
	err = dmn__system_suspend_locked(ctx);
	if (!err && !was) {
		struct dmn_device *v;
		struct dmn_opp_dev *od;
		int first = ctx->op_error;
		ctx->op_error = 0;
		FOR_OPP_DEVICES(ctx, v, od)
			if (v->sleep_usage)
				dmn__opp_requirements_settle(ctx, od->table);
		if (ctx->op_error && !ctx->last_error)
			txn_result(ctx, 0);
		if (first)
			ctx->op_error = first;
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_system_resume(struct dmn_ctx *ctx)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	struct dmn_device *v;
	struct dmn_opp_dev *od, *moved = 0;
	bool restore = ctx->asleep;
	int raise = 0;
	/* what the restoration brings back counts while it is checked */
	if (restore)
		FOR_OPP_DEVICES(ctx, v, od)
			od->req_active = v->sleep_usage && !v->usage;
	if (restore)
		FOR_OPP_DEVICES(ctx, v, od)
			if (od->req_active && !raise)
				raise = owners_raise(ctx, od->table,
							      &moved);
	if (raise) { /* given up: the system wakes, nothing is restored */
		owners_end(ctx, 0, moved, raise);
		for (uint32_t h = dmn__handle_next(&ctx->devices, 0); h;
		     h = dmn__handle_next(&ctx->devices, h))
			if ((v = dmn__pd_device_get_ptr(ctx, h)))
				v->sleep_usage = 0;
	}
	err = dmn__system_resume_locked(ctx);
	if (restore)
		FOR_OPP_DEVICES(ctx, v, od)
			od->req_active = false;
	if (err && !raise) {
		owners_end(ctx, 0, moved, err);
	} else if (restore && !raise) {
		/* active now: the owners settle to what is left */
		FOR_OPP_DEVICES(ctx, v, od)
			if (v->usage)
				owners_end(ctx, od->table, moved, 0);
	}
	if (raise)
		err = txn_result(ctx, raise);
	dmn__unlock(ctx);
	return err;
}
