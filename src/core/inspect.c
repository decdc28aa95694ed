/* SPDX-License-Identifier: MIT */
/*
 * Introspection (an optional unit of a firmware image, issue 15): what a
 * domain, device, attachment or link holds, the walks over them, the idle
 * states' and statistics' readers and the constraints below a domain. Reads
 * only; the core never calls these, so an image that does not want them
 * links without this file (bench/firmware_size.sh checks it).
 */
#include "internal.h"

#include <errno.h>

int pd_domain_info(struct dmn_ctx *ctx, pd_domain_t dom,
		   struct pd_domain_info *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d) {
		out->name = d->name;
		out->flags = d->flags;
		out->on = d->on;
		out->pstate = d->pstate;
		out->target_pstate = level_hist_max(&d->votes);
		out->active_devices = d->active_devices;
		out->on_children = d->on_children;
		out->n_parents = d->n_parents;
		out->n_children = d->n_children;
		out->n_attachments = d->n_attachments;
		out->idle_state = d->idle_state;
		out->has_pstate_cb = d->ops && d->ops->set_performance_state;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_domain_next(struct dmn_ctx *ctx, pd_domain_t prev, pd_domain_t *next)
{
	if (!ctx || !next)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	int err = 0;
	if (prev && !dmn__pd_domain_get(ctx, prev))
		err = -EBADF;
	if (!err) {
		*next = dmn__handle_next(&ctx->domains, prev);
		err = *next ? 0 : -ENOENT;
	}
	dmn__unlock(ctx);
	return err;
}

static int domain_neighbour(struct dmn_ctx *ctx, pd_domain_t dom, unsigned i,
			    pd_domain_t *out, bool parent)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d) {
		unsigned n = parent ? d->n_parents : d->n_children;
		if (i >= n)
			err = -ENOENT;
		else
			*out = parent ? d->parents[i]->parent->handle
				      : d->children[i]->child->handle;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_domain_parent(struct dmn_ctx *ctx, pd_domain_t dom, unsigned i,
		     pd_domain_t *out)
{
	return domain_neighbour(ctx, dom, i, out, true);
}

int pd_domain_child(struct dmn_ctx *ctx, pd_domain_t dom, unsigned i,
		    pd_domain_t *out)
{
	return domain_neighbour(ctx, dom, i, out, false);
}

int pd_link_info(struct dmn_ctx *ctx, pd_domain_t parent, pd_domain_t child,
		 uint32_t *req, int *child_on)
{
	if (!ctx || !req || !child_on)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_link *l = 0;
	int err = dmn__link_lookup(ctx, parent, child, &l);
	if (!err) {
		*req = l->req;
		*child_on = l->child_on;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_domain_next_attachment(struct dmn_ctx *ctx, pd_domain_t dom,
			      pd_attach_t prev, pd_attach_t *next)
{
	if (!ctx || !next)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	struct pd_attachment *a = 0;
	if (d && prev) {
		a = dmn__pd_attach_get(ctx, prev);
		if (!a || a->dom != d)
			err = -EBADF;
		else
			a = a->dom_next;
	} else if (d) {
		a = d->att_head;
	}
	if (!err) {
		if (a)
			*next = att_handle(a);
		else
			err = -ENOENT;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_device_info(struct dmn_ctx *ctx, pd_device_t h,
		   struct pd_device_info *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *dev = dmn__pd_device_get_ptr(ctx, h);
	int err = dev ? 0 : -EBADF;
	if (dev) {
		out->name = dev->name;
		out->usage = dev->usage;
		out->n_attachments = dev->n_atts;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_device_next(struct dmn_ctx *ctx, pd_device_t prev, pd_device_t *next)
{
	if (!ctx || !next)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	int err = 0;
	if (prev && !dmn__pd_device_get_ptr(ctx, prev))
		err = -EBADF;
	if (!err) {
		*next = dmn__handle_next(&ctx->devices, prev);
		err = *next ? 0 : -ENOENT;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_device_attachment(struct dmn_ctx *ctx, pd_device_t h, unsigned i,
			 pd_attach_t *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *dev = dmn__pd_device_get_ptr(ctx, h);
	int err = dev ? 0 : -EBADF;
	if (dev) {
		if (i >= dev->n_atts)
			err = -ENOENT;
		else
			*out = att_handle(dev->atts[i]);
	}
	dmn__unlock(ctx);
	return err;
}

int pd_attach_info(struct dmn_ctx *ctx, pd_attach_t h,
		   struct pd_attach_info *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_attachment *a = dmn__pd_attach_get(ctx, h);
	int err = a ? 0 : -EBADF;
	if (a) {
		out->device = a->dev->handle;
		out->domain = a->dom->handle;
		out->vote = a->vote;
		out->counts = a->counted;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_attach_find(struct dmn_ctx *ctx, pd_device_t dev_h, pd_domain_t dom,
		   pd_attach_t *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *dev = dmn__pd_device_get_ptr(ctx, dev_h);
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = (dev && d) ? -ENOENT : -EBADF;
	for (unsigned i = 0; dev && d && i < dev->n_atts; i++) {
		if (dev->atts[i]->dom == d) {
			*out = att_handle(dev->atts[i]);
			err = 0;
			break;
		}
	}
	dmn__unlock(ctx);
	return err;
}

int pd_domain_n_idle_states(struct dmn_ctx *ctx, pd_domain_t dom)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int n = d ? (d->idle ? (int)d->idle->n : 0) : -EBADF;
	dmn__unlock(ctx);
	return n;
}

int pd_domain_idle_state(struct dmn_ctx *ctx, pd_domain_t dom, unsigned i,
			 struct pd_idle_state_info *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d && (!d->idle || i >= d->idle->n))
		err = -ENOENT;
	if (!err) {
		out->desc = d->idle->desc[i];
		out->usage = d->idle->counts[i].usage;
		out->rejected = d->idle->counts[i].rejected;
		out->time_ns = d->idle->counts[i].time_ns;
		if (!d->on && d->idle_state == (int)i)
			out->time_ns += dmn_now(ctx) - d->stats.since;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_device_constraints(struct dmn_ctx *ctx, pd_device_t h,
			  uint32_t *latency_us, uint64_t *wakeup_ns)
{
	if (!ctx || !latency_us || !wakeup_ns)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *dev = dmn__pd_device_get_ptr(ctx, h);
	int err = dev ? 0 : -EBADF;
	if (dev) {
		*latency_us = dev->qos_us;
		*wakeup_ns = dev->wakeup_ns;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_domain_constraints(struct dmn_ctx *ctx, pd_domain_t dom,
			  uint64_t *qos_ns, uint64_t *next_wakeup_ns)
{
	if (!ctx || !qos_ns || !next_wakeup_ns)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d)
		dmn__qos_effective(ctx, d, dmn_now(ctx), qos_ns, next_wakeup_ns);
	dmn__unlock(ctx);
	return err;
}

int pd_domain_stats(struct dmn_ctx *ctx, pd_domain_t dom,
		    struct pd_domain_stats *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d) {
		uint64_t now = dmn_now(ctx);
		uint64_t span = now > d->stats.since ? now - d->stats.since : 0;
		out->time_on_ns = d->stats.time_on + (d->on ? span : 0);
		out->time_off_ns =
			d->stats.time_off +
			(!d->on && !(d->idle && d->idle_state >= 0) ? span : 0);
		out->on_count = d->stats.on_count;
		out->off_count = d->stats.off_count;
		out->pstate_transitions = d->stats.pstate_transitions;
		out->n_pstates = d->stats.n_levels;
		out->created_ns = d->stats.created;
	}
	dmn__unlock(ctx);
	return err;
}

int pd_domain_pstate_residency(struct dmn_ctx *ctx, pd_domain_t dom,
			       unsigned i, uint32_t *level, uint64_t *time_ns)
{
	if (!ctx || !level || !time_ns)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = dmn__pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	if (d && i >= d->stats.n_levels)
		err = -ENOENT;
	if (!err) {
		*level = d->stats.levels[i].level;
		*time_ns = d->stats.levels[i].ns;
		unsigned cur = 0;
		for (unsigned k = 0; k < d->stats.n_levels; k++)
			if (d->stats.levels[k].level == d->pstate)
				cur = k;
		uint64_t now = dmn_now(ctx);
		if (cur == i && now > d->stats.pstate_since)
			*time_ns += now - d->stats.pstate_since;
	}
	dmn__unlock(ctx);
	return err;
}
