/* SPDX-License-Identifier: MIT */
/*
 * The engine's public calls: runtime get and put, and votes. Each is one
 * transaction (txn.c): open it, change the inputs, commit. On a striped
 * context the fast unit (fast.h) may answer first, deciding as this would.
 *
 *   dmn_vote        -> vote_locked   -> check the level, set the vote,
 *                                       commit
 *   dmn_device_get  -> usage_locked  -> resume: count the device's votes
 *   dmn_device_put                      (and probe it), commit; suspend:
 *                                       stop counting them, commit
 */
#include "internal.h"

#include <errno.h>
#include <limits.h>

/* ---- runtime PM ---------------------------------------------------------- */

/* Count or stop counting every vote of @dev: the inputs of a transaction
 * begun here (aborted on failure); the caller commits. */
static int device_switch_inputs(struct dmn_ctx *ctx, struct dmn_device *dev,
				unsigned usage, bool counted)
{
	dmn__txn_begin(ctx);
	/* devparent.c: the parents first, so their domains power on before
	 * the device's and off after them. */
	int err = ctx->dev_parent ? ctx->dev_parent(ctx, dev, counted) : 0;
	if (!err)
		err = dmn__txn_set_u32(ctx, &dev->usage, usage);
	for (unsigned i = 0; i < dev->n_atts && !err; i++) {
		struct dmn_attachment *a = dev_att(dev, i);
		err = dmn__txn_set_vote(ctx, a, a->vote, counted);
		if (!err)
			dmn__txn_touch(ctx, a->dom);
	}
	if (err)
		dmn__txn_abort(ctx);
	return err;
}

/* A runtime resume (usage 0 -> 1) and the probe it brings
 * (docs/lifecycle.md), as one transaction: a hold the probe releases lets
 * go in this command, a rolled-back resume undoes its probe and release,
 * and each domain gets at most one pstate call (docs/semantics.md). */
static int device_resume(struct dmn_ctx *ctx, struct dmn_device *dev)
{
	int err = device_switch_inputs(ctx, dev, 1, true);
	if (err)
		return err;
	if (!dev->probed && ctx->life)
		return ctx->life->probe_locked(ctx, dev, true);
	err = dmn__txn_commit(ctx);
	if (!err)
		dev->probed = true; /* no hold awaits it */
	return err;
}

/* Count or stop counting every vote of @dev, as one transaction. */
static int device_suspend(struct dmn_ctx *ctx, struct dmn_device *dev)
{
	int err = device_switch_inputs(ctx, dev, 0, false);
	return err ? err : dmn__txn_commit(ctx);
}

/* dmn__device_get_locked (@get) and dmn__device_put_locked: a nested
 * count moves only the usage; the first get resumes the device and the
 * last put suspends it, as one transaction. */
DMN_NOINLINE static int usage_locked(struct dmn_ctx *ctx, dmn_device_t h,
				     bool get)
{
	struct dmn_device *dev = dmn__device_get(ctx, h);
	int err = 0;
	ctx->op_error = 0;
	if (!dev)
		err = -EBADF;
	else if (get ? dev->usage == UINT_MAX : dev->usage <= dev_kids(dev))
		err = get ? -EOVERFLOW : -EALREADY;
	else if (dev->usage != !get)
		dev->usage += get ? 1u : (unsigned)-1;
	else if (ctx->asleep)
		err = -EACCES; /* the system sleeps: no runtime PM */
	else
		err = get ? device_resume(ctx, dev) : device_suspend(ctx, dev);
	if (!err && get)
		ctx->runtime_started = true;
	return dmn__txn_result(ctx, err);
}

int dmn__device_get_locked(struct dmn_ctx *ctx, dmn_device_t h)
{
	return usage_locked(ctx, h, true);
}

int dmn__device_put_locked(struct dmn_ctx *ctx, dmn_device_t h)
{
	return usage_locked(ctx, h, false);
}

/* dmn_device_get (@get) and dmn_device_put. */
static int device_usage(struct dmn_ctx *ctx, dmn_device_t h, bool get)
{
	if (!ctx)
		return -EINVAL;
	int err = dmn__fast_call(ctx, get ? DMN_FAST_GET : DMN_FAST_PUT, h, 0);
	if (err != DMN_FAST_UNHANDLED)
		return err;
	if (dmn__lock(ctx))
		return -EDEADLK;
	err = usage_locked(ctx, h, get);
	dmn__unlock(ctx);
	return err;
}

int dmn_device_get(struct dmn_ctx *ctx, dmn_device_t h)
{
	return device_usage(ctx, h, true);
}

int dmn_device_put(struct dmn_ctx *ctx, dmn_device_t h)
{
	return device_usage(ctx, h, false);
}

/* ---- votes --------------------------------------------------------------- */

int dmn__vote_set(struct dmn_ctx *ctx, struct dmn_attachment *a,
		  uint32_t level, bool counted)
{
	if (a->vote == level && a->counted == counted)
		return 0;
	int err = dmn__txn_set_vote(ctx, a, level, counted);
	if (err)
		dmn__txn_abort(ctx);
	/* An uncounted vote is stored for the next resume: it touches
	 * nothing, and a commit of nothing touched only ends the
	 * transaction. */
	else if (counted)
		dmn__txn_touch(ctx, a->dom);
	return err;
}

int dmn__vote_locked(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level)
{
	struct dmn_attachment *a = dmn__attach_get(ctx, att);
	ctx->op_error = 0;
	int err = a ? 0 : -EBADF;
	/* The same level again: validated when it was stored, nothing to do
	 * (unless a link moved above it since: ctx->relinked). This is the
	 * common case of a driver re-asserting its vote. */
	if (!err && (a->vote != level || (level && ctx->relinked))) {
		err = dmn__txn_check_level(ctx, a->dom, level, &level);
		if (err)
			return dmn__txn_result(ctx, err);
		dmn__txn_begin(ctx);
		err = dmn__vote_set(ctx, a, level, a->counted);
		if (!err)
			err = dmn__txn_commit(ctx);
	}
	return dmn__txn_result(ctx, err);
}

int dmn_vote(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level)
{
	if (!ctx)
		return -EINVAL;
	int err = dmn__fast_call(ctx, DMN_FAST_VOTE, att, level);
	if (err != DMN_FAST_UNHANDLED)
		return err;
	if (dmn__lock(ctx))
		return -EDEADLK;
	err = dmn__vote_locked(ctx, att, level);
	dmn__unlock(ctx);
	return err;
}
