/* SPDX-License-Identifier: MIT */
/*
 * Boot holds (DESIGN §7, Linux 6.17 genpd sync_state): a domain boot left
 * on stays on, at least at its boot level, until every consumer attached to
 * it has probed.
 *
 * A hold is one more input of the aggregate: the boot level sits in the
 * domain's vote histogram and domain_wants_on() sees `held`, so the transaction
 * engine needs nothing else. Releasing is a safe-direction change (it only
 * removes an input), but its commit can still run out of memory before any
 * callback; the fields this file owns are then put back by hand, the inputs
 * by the engine's undo log.
 */
#include "internal.h"

#include <domino/lifecycle.h>
#include <errno.h>

static int reserve_undo(struct dmn_ctx *ctx, unsigned extra)
{
	return dmn_grow(ctx, (void **)&ctx->undo, &ctx->cap_undo,
			ctx->n_undo + extra, sizeof(*ctx->undo));
}

/* Take the boot level out of @d's inputs and mark it released; the caller
 * reserved the undo entry and commits. */
static void release_inputs(struct dmn_ctx *ctx, struct pd_domain *d)
{
	dmn__txn_hist_remove(ctx, d, d->boot_level);
	d->held = false;
	d->released = true;
	d->awaiting = 0;
	dmn__txn_touch(ctx, d);
}

int pd_domain_boot_on(struct dmn_ctx *ctx, pd_domain_t dom, uint32_t level)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = 0;
	uint32_t rounded = 0;
	ctx->op_error = 0;
	if (!d)
		err = -EBADF;
	else if (d->held || d->released)
		err = -EALREADY;
	/* Once a device was resumed, domains went on through their
	 * callbacks: recording a boot level without one would set the
	 * records apart from the hardware. */
	else if (ctx->runtime_started)
		err = -EBUSY;
	if (!err)
		err = dmn__txn_check_level(ctx, d, level, &rounded);
	if (err) {
		txn_result(ctx, err);
		dmn__unlock(ctx);
		return err;
	}
	dmn__txn_begin(ctx);
	err = dmn__txn_hist_add(ctx, d, rounded);
	if (err) {
		dmn__txn_abort(ctx);
	} else {
		unsigned awaiting = 0;
		for (struct pd_attachment *a = d->att_head; a; a = a->dom_next)
			awaiting += !a->dev->probed;
		d->held = true;
		d->boot_level = rounded;
		d->awaiting = awaiting;
		dmn__txn_touch(ctx, d);
		ctx->record_only = true;
		err = dmn__txn_commit(ctx);
		ctx->record_only = false;
		if (err) {
			d->held = false;
			d->boot_level = 0;
			d->awaiting = 0;
		}
	}
	txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int dmn__lifecycle_probe_locked(struct dmn_ctx *ctx, struct pd_device *dev)
{
	if (dev->probed)
		return 0;
	dmn__txn_begin(ctx);
	int err = reserve_undo(ctx, dev->n_atts);
	if (err)
		return err;
	/* dmn__txn_begin gave this operation its own epoch: it marks the domains
	 * whose hold this probe changed, so a failed commit restores exactly
	 * those (a device is attached to a domain at most once). */
	uint64_t mark = ctx->epoch;
	dev->probed = true;
	for (unsigned i = 0; i < dev->n_atts; i++) {
		struct pd_domain *d = dev_att(dev, i)->dom;
		if (!d->held)
			continue;
		d->hold_mark = mark;
		if (--d->awaiting == 0)
			release_inputs(ctx, d);
	}
	err = dmn__txn_commit(ctx);
	if (!err)
		return 0;
	dev->probed = false;
	for (unsigned i = 0; i < dev->n_atts; i++) {
		struct pd_domain *d = dev_att(dev, i)->dom;
		if (d->hold_mark != mark)
			continue;
		if (!d->held) {
			d->held = true;
			d->released = false;
		}
		d->awaiting++;
	}
	return err;
}

int pd_device_probe(struct dmn_ctx *ctx, pd_device_t h)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *dev = dmn__pd_device_get_ptr(ctx, h);
	ctx->op_error = 0;
	int err = dev ? dmn__lifecycle_probe_locked(ctx, dev) : -EBADF;
	txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int pd_domain_release(struct dmn_ctx *ctx, pd_domain_t dom)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	ctx->op_error = 0;
	if (d && d->held) {
		dmn__txn_begin(ctx);
		err = reserve_undo(ctx, 1);
		if (!err) {
			unsigned awaiting = d->awaiting;
			release_inputs(ctx, d);
			err = dmn__txn_commit(ctx);
			if (err) {
				d->held = true;
				d->released = false;
				d->awaiting = awaiting;
			}
		}
	}
	txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int pd_probe_all(struct dmn_ctx *ctx)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	ctx->op_error = 0;
	dmn__txn_begin(ctx);
	unsigned held = 0;
	for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h;
	     h = dmn__handle_next(&ctx->domains, h))
		held += dmn__pd_domain_get(ctx, h)->held;
	int err = reserve_undo(ctx, held);
	/* Every hold goes in one transaction; devices are marked probed only
	 * once it committed, so a failure leaves both as they were. */
	uint64_t mark = ctx->epoch;
	for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h && !err;
	     h = dmn__handle_next(&ctx->domains, h)) {
		struct pd_domain *d = dmn__pd_domain_get(ctx, h);
		if (!d->held)
			continue;
		d->hold_mark = mark;
		d->awaiting_saved = d->awaiting;
		release_inputs(ctx, d);
	}
	if (!err)
		err = dmn__txn_commit(ctx);
	if (err) {
		for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h;
		     h = dmn__handle_next(&ctx->domains, h)) {
			struct pd_domain *d = dmn__pd_domain_get(ctx, h);
			if (d->hold_mark != mark || !d->released)
				continue;
			d->held = true;
			d->released = false;
			d->awaiting = d->awaiting_saved;
		}
	} else {
		for (uint32_t h = dmn__handle_next(&ctx->devices, 0); h;
		     h = dmn__handle_next(&ctx->devices, h))
			dmn__pd_device_get_ptr(ctx, h)->probed = true;
	}
	txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

void dmn__lifecycle_attach(struct pd_domain *d, const struct pd_device *dev,
		      bool attach)
{
	/* A consumer attached while the domain is held is awaited too; one
	 * detached before it probed is no longer. A hold whose last awaited
	 * consumer went away waits for pd_domain_release(), as one that
	 * never had any. */
	if (!d->held || dev->probed)
		return;
	if (attach)
		d->awaiting++;
	else if (d->awaiting)
		d->awaiting--;
}

int pd_domain_hold(struct dmn_ctx *ctx, pd_domain_t dom,
		   struct pd_hold_info *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d) {
		out->held = d->held;
		out->released = d->released;
		out->level = d->boot_level;
		out->awaiting = d->held ? d->awaiting : 0;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_device_probed(struct dmn_ctx *ctx, pd_device_t h)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *dev = dmn__pd_device_get_ptr(ctx, h);
	int err = dev ? dev->probed : -EBADF;
	dmn__unlock(ctx);
	return err;
}
