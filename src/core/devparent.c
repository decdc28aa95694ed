/* SPDX-License-Identifier: MIT */
/*
 * Device parents (an optional firmware unit, see docs/architecture.md
 * "Firmware units"): Linux's runtime-PM parent, as a simple-pm-bus is to
 * the devices on it. While a device is active its parent is active: the
 * child's resume resumes the parent first, and the parent suspends after
 * its last active child.
 *
 * A parent's active children are counts of its usage (dmn_device.usage,
 * what every other part of the library reads as "active"), and its cold
 * part's kids says how many of them there are, so that a put of the
 * parent's own never takes it below them (device.c). The core calls this
 * unit through one hook, ctx->dev_parent, installed by the first
 * dmn_device_set_parent: until then no device has a parent.
 *
 * A device's parent is its cold part's handle (0: none). A removed parent
 * leaves a stale handle, which names no device: the child then has none.
 */
#include "internal.h"

#include <errno.h>
#include <limits.h>

static struct dmn_device *parent_of(struct dmn_ctx *ctx,
				    const struct dmn_device *dev)
{
	return dev->cold && dev->cold->parent
		   ? dmn__device_get(ctx, dev->cold->parent)
		   : 0;
}

/* Does @p change state with its child: resume, from inactive; suspend,
 * when that child is the last thing keeping it active. */
static bool moves(const struct dmn_device *p, bool resume)
{
	return resume ? p->usage == 0 : p->usage == 1;
}

/* ctx->dev_parent: @dev is about to go active (@resume) or inactive, in
 * a transaction begun by the caller, before @dev's own inputs change.
 * Its parent gains or loses an active child; if that changes the
 * parent's own state, so does the grandparent's, and so on. The parents
 * are changed from the top of that chain down, so the transaction
 * touches an ancestor's domains before its child's: on resume they power
 * on first, on suspend they go off after (txn.c orders unrelated domains
 * by when they were touched). The chain is the nesting of buses, a few
 * devices: each step walks up from @dev again (no scratch to fail). */
static int parent_inputs(struct dmn_ctx *ctx, struct dmn_device *dev,
			 bool resume)
{
	/* How many parents change: the chain up to and including the first
	 * one that does not change state. A loop cannot form
	 * (dmn_device_set_parent), the bound guards against a stale handle's
	 * slot reused by an ancestor. */
	unsigned n = 0, bound = ctx->devices.live;
	for (struct dmn_device *p = parent_of(ctx, dev); p && n <= bound;
	     p = parent_of(ctx, p)) {
		n++;
		if (resume && p->usage == UINT_MAX)
			return -EOVERFLOW;
		if (!moves(p, resume))
			break;
	}
	int err = 0;
	for (; n > 0 && !err; n--) {
		struct dmn_device *p = dev;
		for (unsigned i = 0; i < n; i++)
			p = parent_of(ctx, p);
		bool counted = resume;
		bool flips = moves(p, resume);
		/* dmn_device_set_parent gave the parent its cold part */
		err = dmn__txn_set_u32(
		    ctx, &p->cold->kids,
		    p->cold->kids + (resume ? 1u : (unsigned)-1));
		if (!err)
			err = dmn__txn_set_u32(
			    ctx, &p->usage, p->usage + (resume ? 1u : (unsigned)-1));
		for (unsigned i = 0; flips && i < p->n_atts && !err; i++) {
			struct dmn_attachment *a = dev_att(p, i);
			err = dmn__txn_set_vote(ctx, a, a->vote, counted);
			if (!err)
				dmn__txn_touch(ctx, a->dom);
		}
	}
	return err;
}

int dmn_device_set_parent(struct dmn_ctx *ctx, dmn_device_t dev,
			  dmn_device_t parent)
{
	int err;
	struct dmn_device *d =
	    dmn__enter(ctx, true, DMN_DEVICES | DMN_ENTER_RECORD, dev, &err);
	if (!d)
		return err;
	ctx->op_error = 0;
	struct dmn_device *p = 0;
	if (parent && !(p = dmn__enter_more(ctx, DMN_DEVICES | DMN_ENTER_RECORD,
					    parent, &err)))
		return err;
	/* Linux gives a device its parent before runtime PM starts; an
	 * active device (or one system sleep suspended) would have to move
	 * its hold. */
	if (d->usage || d->sleep_usage)
		err = -EBUSY;
	/* @dev must not be @parent or above it. */
	unsigned n = 0;
	for (struct dmn_device *up = p; !err && up && n <= ctx->devices.live;
	     up = parent_of(ctx, up), n++)
		if (up == d)
			err = -ELOOP;
	/* The child keeps its parent's handle there, the parent its count
	 * of active children. */
	if (!err && (!dmn__device_cold(ctx, d) ||
		     (parent && !dmn__device_cold(ctx, p))))
		err = -ENOMEM;
	if (!err) {
		d->cold->parent = parent;
		ctx->dev_parent = parent_inputs;
	}
	return dmn__leave(ctx, err);
}

int dmn_device_parent(struct dmn_ctx *ctx, dmn_device_t dev,
		      dmn_device_t *parent, unsigned *active_children)
{
	int err;
	struct dmn_device *d =
	    dmn__enter(ctx, parent || active_children, DMN_DEVICES, dev, &err);
	if (!d)
		return err;
	struct dmn_device *p = parent_of(ctx, d);
	if (parent)
		*parent = p ? p->handle : 0;
	if (active_children)
		*active_children = dev_kids(d);
	dmn__unlock(ctx);
	return 0;
}
