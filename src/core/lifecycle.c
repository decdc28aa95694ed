/* SPDX-License-Identifier: MIT */
/*
 * Boot holds (docs/lifecycle.md; Linux 6.17 genpd sync_state): a domain boot
 * left on stays on, at least at its boot level, until every consumer attached
 * to it has probed.
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

static const struct dmn_lifecycle_hooks hooks = {
	dmn__lifecycle_probe_locked, dmn__lifecycle_attach, dmn__sleep_free,
	dmn__lifecycle_vetoes, dmn__sleep_choose,
};

void dmn__lifecycle_begin(struct dmn_ctx *ctx)
{
	ctx->life = &hooks;
	ctx->op_error = 0;
}

static int reserve_undo(struct dmn_ctx *ctx, unsigned extra)
{
	return dmn__grow(ctx, (void **)&ctx->undo, &ctx->cap_undo,
			ctx->n_undo + extra, sizeof(*ctx->undo));
}

/* Take the boot level out of @d's inputs and mark it released; the caller
 * reserved the undo entry and commits. */
static void release_inputs(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	dmn__txn_hist_remove(ctx, d, dom_cold(d)->boot_level);
	d->cold->held = false;
	d->cold->released = true;
	d->cold->awaiting = 0;
	dmn__txn_touch(ctx, d);
}

/* A DMN_BOOT_NO_STAY_ON domain still on since boot: nothing holds it, and
 * a consumer's probe or the end of boot re-evaluates it. */
static bool boot_unheld(const struct dmn_domain *d)
{
	const struct dmn_domain_cold *c = dom_cold(d);
	return (c->boot_flags & DMN_BOOT_NO_STAY_ON) && d->on &&
	       c->stats.off_count == c->boot_off_count;
}

int dmn_domain_boot_on(struct dmn_ctx *ctx, dmn_domain_t dom, uint32_t level)
{
	return dmn_domain_boot(ctx, dom, level, 0);
}

int dmn_domain_boot(struct dmn_ctx *ctx, dmn_domain_t dom, uint32_t level,
		    unsigned flags)
{
	int err;
	bool no_stay_on = flags & DMN_BOOT_NO_STAY_ON;
	/* One flag at most, and only a hold keeps a level. */
	unsigned both = DMN_BOOT_NO_STAY_ON | DMN_BOOT_NO_SYNC_STATE;
	bool args_ok = !(flags & ~both) && flags != both &&
		       !(no_stay_on && level);
	struct dmn_domain *d =
	    dmn__enter(ctx, args_ok, DMN_DOMAINS | DMN_ENTER_RECORD, dom, &err);
	if (!d)
		return err;
	dmn__lifecycle_begin(ctx);
	uint32_t rounded = 0;
	if (dom_cold(d)->held || dom_cold(d)->released || dom_cold(d)->booted)
		err = -EALREADY;
	/* Once a device was resumed, domains went on through their
	 * callbacks: recording a boot level without one would set the
	 * records apart from the hardware. */
	else if (ctx->runtime_started)
		err = -EBUSY;
	if (!err)
		err = dmn__txn_check_level(ctx, d, level, &rounded);
	/* The hold lives in the domain's cold part. */
	if (!err && !dmn__domain_cold(ctx, d))
		err = -ENOMEM;
	if (err) {
		dmn__txn_result(ctx, err);
		dmn__unlock(ctx);
		return err;
	}
	dmn__txn_begin(ctx);
	err = dmn__txn_hist_add(ctx, d, rounded);
	if (err) {
		dmn__txn_abort(ctx);
	} else {
		unsigned awaiting = 0;
		for (struct dmn_attachment *a = d->att_head; a; a = a->dom_next)
			awaiting += !a->dev->probed;
		/* A domain without a hold is recorded on through one all the
		 * same, for the commit only: nothing then keeps it on. */
		d->cold->held = true;
		d->cold->boot_level = rounded;
		d->cold->awaiting = awaiting;
		dmn__txn_touch(ctx, d);
		ctx->record_only = true;
		err = dmn__txn_commit(ctx);
		ctx->record_only = false;
		if (err) {
			d->cold->held = false;
			d->cold->boot_level = 0;
			d->cold->awaiting = 0;
		} else {
			d->cold->booted = true;
			d->cold->boot_flags = (uint8_t)flags;
			d->cold->boot_off_count = d->cold->stats.off_count;
			if (no_stay_on) {
				d->cold->held = false;
				d->cold->awaiting = 0;
			}
		}
	}
	dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int dmn__lifecycle_probe_locked(struct dmn_ctx *ctx, struct dmn_device *dev,
				bool begun)
{
	if (dev->probed)
		return begun ? dmn__txn_commit(ctx) : 0;
	if (!begun)
		dmn__txn_begin(ctx);
	int err = reserve_undo(ctx, dev->n_atts);
	if (err) {
		dmn__txn_abort(ctx);
		return err;
	}
	/* dmn__txn_begin gave this operation its own epoch: it marks the domains
	 * whose hold this probe changed, so a failed commit restores exactly
	 * those (a device is attached to a domain at most once). */
	uint64_t mark = ctx->epoch;
	dev->probed = true;
	for (unsigned i = 0; i < dev->n_atts; i++) {
		struct dmn_domain *d = dev_att(dev, i)->dom;
		/* genpd's sync after a consumer probed: a domain on since
		 * boot without a hold powers off if nothing needs it. */
		if (boot_unheld(d))
			dmn__txn_touch(ctx, d);
		if (!dom_cold(d)->held)
			continue;
		d->cold->hold_mark = mark;
		if (--d->cold->awaiting == 0 &&
		    !(d->cold->boot_flags & DMN_BOOT_NO_SYNC_STATE))
			release_inputs(ctx, d);
	}
	err = dmn__txn_commit(ctx);
	if (!err)
		return 0;
	dev->probed = false;
	for (unsigned i = 0; i < dev->n_atts; i++) {
		struct dmn_domain *d = dev_att(dev, i)->dom;
		if (dom_cold(d)->hold_mark != mark)
			continue;
		if (!dom_cold(d)->held) {
			d->cold->held = true;
			d->cold->released = false;
		}
		d->cold->awaiting++;
	}
	return err;
}

int dmn_device_probe(struct dmn_ctx *ctx, dmn_device_t h)
{
	int err;
	struct dmn_device *dev =
	    dmn__enter(ctx, true, DMN_DEVICES | DMN_ENTER_RECORD, h, &err);
	if (!dev)
		return err;
	dmn__lifecycle_begin(ctx);
	err = dmn__lifecycle_probe_locked(ctx, dev, false);
	dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int dmn_domain_release(struct dmn_ctx *ctx, dmn_domain_t dom)
{
	return dmn_sync_state(ctx, &dom, 1);
}

int dmn_sync_state(struct dmn_ctx *ctx, const dmn_domain_t *doms, unsigned n)
{
	int err = dmn__enter_ctx(ctx, doms || !n);
	if (err)
		return err;
	ctx->op_error = 0;
	for (unsigned i = 0; i < n && !err; i++)
		if (!dmn__domain_get(ctx, doms[i]))
			err = -EBADF;
	if (err)
		return dmn__leave(ctx, err);
	dmn__txn_begin(ctx);
	err = reserve_undo(ctx, n);
	if (err) {
		dmn__txn_abort(ctx);
		return dmn__leave(ctx, err);
	}
	/* The epoch marks the domains this call releases, so a failed
	 * commit restores exactly those (a handle given twice once). */
	uint64_t mark = ctx->epoch;
	for (unsigned i = 0; i < n; i++) {
		struct dmn_domain *d = dmn__domain_get(ctx, doms[i]);
		if (!dom_cold(d)->held)
			continue;
		d->cold->hold_mark = mark;
		d->cold->awaiting_saved = dom_cold(d)->awaiting;
		release_inputs(ctx, d);
	}
	err = dmn__txn_commit(ctx);
	for (unsigned i = 0; i < n && err; i++) {
		struct dmn_domain *d = dmn__domain_get(ctx, doms[i]);
		if (dom_cold(d)->hold_mark != mark || !dom_cold(d)->released)
			continue;
		d->cold->held = true;
		d->cold->released = false;
		d->cold->awaiting = dom_cold(d)->awaiting_saved;
	}
	return dmn__leave(ctx, err);
}

int dmn_probe_all(struct dmn_ctx *ctx)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	dmn__lifecycle_begin(ctx);
	dmn__txn_begin(ctx);
	unsigned held = 0;
	for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h;
	     h = dmn__handle_next(&ctx->domains, h))
		held += dom_cold(dmn__domain_get(ctx, h))->held;
	err = reserve_undo(ctx, held);
	/* Every hold goes in one transaction; devices are marked probed only
	 * once it committed, so a failure leaves both as they were. */
	uint64_t mark = ctx->epoch;
	for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h && !err;
	     h = dmn__handle_next(&ctx->domains, h)) {
		struct dmn_domain *d = dmn__domain_get(ctx, h);
		/* The end of boot powers off what nothing uses
		 * (genpd_power_off_unused). */
		if (boot_unheld(d))
			dmn__txn_touch(ctx, d);
		if (!dom_cold(d)->held)
			continue;
		d->cold->hold_mark = mark;
		d->cold->awaiting_saved = dom_cold(d)->awaiting;
		release_inputs(ctx, d);
	}
	if (!err)
		err = dmn__txn_commit(ctx);
	if (err) {
		for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h;
		     h = dmn__handle_next(&ctx->domains, h)) {
			struct dmn_domain *d = dmn__domain_get(ctx, h);
			if (dom_cold(d)->hold_mark != mark || !dom_cold(d)->released)
				continue;
			d->cold->held = true;
			d->cold->released = false;
			d->cold->awaiting = dom_cold(d)->awaiting_saved;
		}
	} else {
		for (uint32_t h = dmn__handle_next(&ctx->devices, 0); h;
		     h = dmn__handle_next(&ctx->devices, h))
			dmn__device_get(ctx, h)->probed = true;
	}
	dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

void dmn__lifecycle_attach(struct dmn_domain *d, const struct dmn_device *dev,
		      bool attach)
{
	/* A consumer attached while the domain is held is awaited too; one
	 * detached before it probed is no longer. A hold whose last awaited
	 * consumer went away waits for dmn_domain_release(), as one that
	 * never had any. */
	if (!dom_cold(d)->held || dev->probed)
		return;
	if (attach)
		d->cold->awaiting++;
	else if (dom_cold(d)->awaiting)
		d->cold->awaiting--;
}

int dmn_domain_boot_flags(struct dmn_ctx *ctx, dmn_domain_t dom)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, true, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	int r = dom_cold(d)->booted ? dom_cold(d)->boot_flags : -ENOENT;
	dmn__unlock(ctx);
	return r;
}

int dmn_domain_hold(struct dmn_ctx *ctx, dmn_domain_t dom,
		   struct dmn_hold_info *out)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, out, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	out->held = dom_cold(d)->held;
	out->released = dom_cold(d)->released;
	out->level = dom_cold(d)->boot_level;
	out->awaiting = dom_cold(d)->held ? dom_cold(d)->awaiting : 0;
	dmn__unlock(ctx);
	return err;
}

/* A flag of device @h, read under the lock: 1 or 0, -EINVAL, -EBADF. */
static int device_flag(struct dmn_ctx *ctx, dmn_device_t h,
		       bool (*flag)(const struct dmn_device *))
{
	int err;
	struct dmn_device *dev = dmn__enter(ctx, true, DMN_DEVICES, h, &err);
	if (!dev)
		return err;
	int r = flag(dev);
	dmn__unlock(ctx);
	return r;
}

static bool probed(const struct dmn_device *dev)
{
	return dev->probed;
}

static bool always_on(const struct dmn_device *dev)
{
	return dev->always_on;
}

int dmn_device_probed(struct dmn_ctx *ctx, dmn_device_t h)
{
	return device_flag(ctx, h, probed);
}

/* ---- power-off vetoes: HW mode, always-on devices, always-on domains ---- */

bool dmn__lifecycle_vetoes(struct dmn_attachment *a, int delta)
{
	struct dmn_domain *d = a->dom;
	bool any = false;
	if (a->hw) {
		d->cold->hw_count += (unsigned)delta;
		any = true;
	}
	if (a->dev->always_on) {
		d->cold->ao_devs += (unsigned)delta;
		any = true;
	}
	return any;
}

static void emit_hwmode(struct dmn_ctx *ctx, enum dmn_event_kind kind,
			const struct dmn_attachment *a, int err, bool hw)
{
	struct dmn_event ev = {.kind = kind,
			       .op = DMN_OP_SET_HWMODE,
			       .domain = a->dom->handle,
			       .device = a->dev->handle,
			       .error = err,
			       .old_value = !hw,
			       .new_value = hw};
	dmn__emit(ctx, &ev);
}

/* The callback, then the records; leaving HW mode then re-evaluates the
 * domain, a safe-direction settle (it can only power off and lower). */
static int set_hwmode(struct dmn_ctx *ctx, struct dmn_attachment *a, bool hw)
{
	struct dmn_domain *d = a->dom;
	dmn__txn_begin(ctx);
	/* hw_count lives in the domain's cold part. */
	int err = dmn__domain_cold(ctx, d) ? 0 : -ENOMEM;
	if (!hw && !err) {
		/* Room for every link the settle can change, so that after the
		 * callback only a new level's bin or a level map can fail it. */
		unsigned n = dmn__walk_up(ctx, d), links = 0;
		for (unsigned i = 0; i < n; i++)
			links += ctx->walk[i]->n_parents;
		err = reserve_undo(ctx, 4 * links + 4);
	}
	if (err)
		return err;
	err = d->ops->set_hwmode(d->user, d->handle, a->dev->handle, hw);
	if (err) {
		err = err > 0 ? -EIO : err;
		if (!ctx->op_error)
			ctx->op_error = err;
		emit_hwmode(ctx, DMN_EV_FAILURE, a, err, hw);
		return err;
	}
	a->hw = hw;
	d->cold->hw_count += hw ? 1u : (unsigned)-1;
	emit_hwmode(ctx, DMN_EV_HWMODE, a, 0, hw);
	if (hw)
		return 0;
	dmn__txn_touch(ctx, d);
	/* The mode changed with the callback: a settle that cannot run
	 * leaves the domain on, in SW mode, until its next change, and is
	 * reported as a safe-direction failure is. */
	int settle = dmn__txn_commit(ctx);
	if (settle && !ctx->op_error)
		ctx->op_error = settle;
	return 0;
}

int dmn_attach_set_hwmode(struct dmn_ctx *ctx, dmn_attach_t h, int hw)
{
	int err;
	struct dmn_attachment *a =
	    dmn__enter(ctx, true, DMN_ATTACHMENTS | DMN_ENTER_RECORD, h, &err);
	if (!a)
		return err;
	dmn__lifecycle_begin(ctx);
	if (!a->dom->ops || !a->dom->ops->set_hwmode)
		err = -EOPNOTSUPP;
	else if (a->hw != (hw != 0))
		err = set_hwmode(ctx, a, hw != 0);
	dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int dmn_attach_hwmode(struct dmn_ctx *ctx, dmn_attach_t h)
{
	int err;
	struct dmn_attachment *a = dmn__enter(ctx, true, DMN_ATTACHMENTS, h, &err);
	if (!a)
		return err;
	int r = a->hw;
	dmn__unlock(ctx);
	return r;
}

int dmn_domain_hwmode(struct dmn_ctx *ctx, dmn_domain_t dom)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, true, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	int r = dom_cold(d)->hw_count > 0;
	dmn__unlock(ctx);
	return r;
}

/* Count @dev in (@delta 1) or out of (-1) its domains' ao_devs. */
static void count_always_on(struct dmn_device *dev, int delta)
{
	for (unsigned i = 0; i < dev->n_atts; i++)
		dev_att(dev, i)->dom->cold->ao_devs += (unsigned)delta;
	dev->always_on = delta > 0;
}

int dmn_device_set_always_on(struct dmn_ctx *ctx, dmn_device_t h, int on)
{
	int err;
	struct dmn_device *dev =
	    dmn__enter(ctx, true, DMN_DEVICES | DMN_ENTER_RECORD, h, &err);
	if (!dev)
		return err;
	dmn__lifecycle_begin(ctx);
	/* ao_devs lives in each domain's cold part. */
	for (unsigned i = 0; on && !dev->always_on && i < dev->n_atts && !err;
	     i++)
		if (!dmn__domain_cold(ctx, dev_att(dev, i)->dom))
			err = -ENOMEM;
	if (err) {
		/* Nothing changed. */
	} else if (on && !dev->always_on) {
		/* Only a veto of a power-off: nothing to settle. */
		count_always_on(dev, 1);
	} else if (!on && dev->always_on) {
		/* The domains nothing else keeps power off now. Only memory
		 * can fail that, before any callback: then nothing changed. */
		dmn__txn_begin(ctx);
		count_always_on(dev, -1);
		for (unsigned i = 0; i < dev->n_atts; i++)
			dmn__txn_touch(ctx, dev_att(dev, i)->dom);
		err = dmn__txn_commit(ctx);
		if (err)
			count_always_on(dev, 1);
	}
	dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int dmn_device_always_on(struct dmn_ctx *ctx, dmn_device_t h)
{
	return device_flag(ctx, h, always_on);
}

int dmn_domain_set_always_on(struct dmn_ctx *ctx, dmn_domain_t dom)
{
	int err;
	struct dmn_domain *d =
	    dmn__enter(ctx, true, DMN_DOMAINS | DMN_ENTER_RECORD, dom, &err);
	if (!d)
		return err;
	ctx->op_error = 0;
	if (!(d->flags & DMN_FLAG_ALWAYS_ON)) {
		/* As dmn_domain_boot_on: boot state comes before runtime PM. */
		if (ctx->runtime_started)
			err = -EBUSY;
	}
	if (!err && !(d->flags & DMN_FLAG_ALWAYS_ON)) {
		dmn__txn_begin(ctx);
		d->flags |= DMN_FLAG_ALWAYS_ON;
		dmn__txn_touch(ctx, d);
		ctx->record_only = true;
		err = dmn__txn_commit(ctx);
		ctx->record_only = false;
		if (err)
			d->flags &= ~DMN_FLAG_ALWAYS_ON;
	}
	dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}
