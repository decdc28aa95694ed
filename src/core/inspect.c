/* SPDX-License-Identifier: MIT */
/*
 * Introspection (an optional unit of a firmware image, docs/architecture.md):
 * what a domain, device, attachment or link holds, the walks over them, the
 * idle states' and statistics' readers and the constraints below a domain.
 * Reads only; the core never calls these, so an image that does not want them
 * links without this file (bench/firmware_size.sh checks it).
 */
#include "internal.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* @d's statistics to read: its cold part's, or (none yet) off at level 0
 * since creation, built in @tmp and @slot. */
static const struct dmn_stats *stats_view(const struct dmn_domain *d,
					 struct dmn_stats *tmp,
					 struct dmn_level_time *slot)
{
	if (d->cold)
		return &d->cold->stats;
	memset(tmp, 0, sizeof(*tmp));
	dmn__stats_start(tmp, d->created, slot);
	return tmp;
}

int dmn_domain_info(struct dmn_ctx *ctx, dmn_domain_t dom,
		   struct dmn_domain_info *out)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, out, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
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
	dmn__unlock(ctx);
	return 0;
}

/* The walkers: the live object after @prev (0: the first) in the table
 * at @table, or -ENOENT past the last; -EBADF for a stale @prev. */
static int next_of(struct dmn_ctx *ctx, size_t table, uint32_t prev,
		   uint32_t *next)
{
	int err = dmn__enter_ctx(ctx, next);
	if (err)
		return err;
	const struct handle_table *t =
	    (const struct handle_table *)((char *)ctx + table);
	if (prev && !dmn__handle_lookup(t, prev))
		err = -EBADF;
	if (!err) {
		*next = dmn__handle_next(t, prev);
		err = *next ? 0 : -ENOENT;
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_domain_next(struct dmn_ctx *ctx, dmn_domain_t prev, dmn_domain_t *next)
{
	return next_of(ctx, DMN_DOMAINS, prev, next);
}

static int domain_neighbour(struct dmn_ctx *ctx, dmn_domain_t dom, unsigned i,
			    dmn_domain_t *out, bool parent)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, out, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	err = i < (parent ? d->n_parents : d->n_children) ? 0 : -ENOENT;
	if (!err)
		*out = parent ? d->parents[i]->parent->handle
			      : d->children[i]->child->handle;
	dmn__unlock(ctx);
	return err;
}

int dmn_domain_parent(struct dmn_ctx *ctx, dmn_domain_t dom, unsigned i,
		     dmn_domain_t *out)
{
	return domain_neighbour(ctx, dom, i, out, true);
}

int dmn_domain_child(struct dmn_ctx *ctx, dmn_domain_t dom, unsigned i,
		    dmn_domain_t *out)
{
	return domain_neighbour(ctx, dom, i, out, false);
}

int dmn_link_info(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child,
		 uint32_t *req, int *child_on)
{
	int err;
	struct dmn_link *l =
	    dmn__enter_link(ctx, req && child_on, 0, parent, child, &err);
	if (!l)
		return err;
	*req = l->req;
	*child_on = l->child_on;
	dmn__unlock(ctx);
	return 0;
}

int dmn_domain_next_attachment(struct dmn_ctx *ctx, dmn_domain_t dom,
			      dmn_attach_t prev, dmn_attach_t *next)
{
	int err = 0;
	struct dmn_domain *d = dmn__enter(ctx, next, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	struct dmn_attachment *a = d->att_head;
	if (prev) {
		a = dmn__attach_get(ctx, prev);
		if (!a || a->dom != d)
			err = -EBADF;
		else
			a = a->dom_next;
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

int dmn_device_info(struct dmn_ctx *ctx, dmn_device_t h,
		   struct dmn_device_info *out)
{
	int err;
	struct dmn_device *dev = dmn__enter(ctx, out, DMN_DEVICES, h, &err);
	if (!dev)
		return err;
	out->name = dev->name;
	out->usage = dev->usage;
	out->n_attachments = dev->n_atts;
	dmn__unlock(ctx);
	return 0;
}

int dmn_device_next(struct dmn_ctx *ctx, dmn_device_t prev, dmn_device_t *next)
{
	return next_of(ctx, DMN_DEVICES, prev, next);
}

int dmn_device_attachment(struct dmn_ctx *ctx, dmn_device_t h, unsigned i,
			 dmn_attach_t *out)
{
	int err;
	struct dmn_device *dev = dmn__enter(ctx, out, DMN_DEVICES, h, &err);
	if (!dev)
		return err;
	err = i < dev->n_atts ? 0 : -ENOENT;
	if (!err)
		*out = att_handle(dev_att(dev, i));
	dmn__unlock(ctx);
	return err;
}

int dmn_attach_info(struct dmn_ctx *ctx, dmn_attach_t h,
		   struct dmn_attach_info *out)
{
	int err;
	struct dmn_attachment *a = dmn__enter(ctx, out, DMN_ATTACHMENTS, h, &err);
	if (!a)
		return err;
	out->device = a->dev->handle;
	out->domain = a->dom->handle;
	out->vote = a->vote;
	out->counts = a->counted;
	dmn__unlock(ctx);
	return 0;
}

int dmn_attach_find(struct dmn_ctx *ctx, dmn_device_t dev_h, dmn_domain_t dom,
		   dmn_attach_t *out)
{
	int err;
	struct dmn_device *dev = dmn__enter(ctx, out, DMN_DEVICES, dev_h, &err);
	struct dmn_domain *d = dev ? dmn__enter_more(ctx, DMN_DOMAINS, dom, &err)
				  : 0;
	if (!d)
		return err;
	struct dmn_attachment *a = dmn__attach_find(dev, d);
	if (a)
		*out = att_handle(a);
	dmn__unlock(ctx);
	return a ? 0 : -ENOENT;
}

int dmn_domain_n_idle_states(struct dmn_ctx *ctx, dmn_domain_t dom)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, true, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	int n = d->idle ? (int)d->idle->n : 0;
	dmn__unlock(ctx);
	return n;
}

int dmn_domain_idle_state(struct dmn_ctx *ctx, dmn_domain_t dom, unsigned i,
			 struct dmn_idle_state_info *out)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, out, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	err = d->idle && i < d->idle->n ? 0 : -ENOENT;
	if (!err) {
		out->desc = d->idle->desc[i];
		out->usage = d->idle->counts[i].usage;
		out->rejected = d->idle->counts[i].rejected;
		out->time_ns = d->idle->counts[i].time_ns;
		struct dmn_stats tmp;
		struct dmn_level_time slot;
		if (!d->on && d->idle_state == (int)i)
			out->time_ns += dmn_now(ctx) -
					stats_view(d, &tmp, &slot)->since;
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_device_constraints(struct dmn_ctx *ctx, dmn_device_t h,
			  uint32_t *latency_us, uint64_t *wakeup_ns)
{
	int err;
	struct dmn_device *dev =
	    dmn__enter(ctx, latency_us && wakeup_ns, DMN_DEVICES, h, &err);
	if (!dev)
		return err;
	*latency_us = dev_qos_us(dev);
	*wakeup_ns = dev_wakeup_ns(dev);
	dmn__unlock(ctx);
	return 0;
}

int dmn_domain_constraints(struct dmn_ctx *ctx, dmn_domain_t dom,
			  uint64_t *qos_ns, uint64_t *next_wakeup_ns)
{
	int err;
	struct dmn_domain *d =
	    dmn__enter(ctx, qos_ns && next_wakeup_ns, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	dmn__qos_effective(ctx, d, dmn_now(ctx), qos_ns, next_wakeup_ns);
	dmn__unlock(ctx);
	return 0;
}

int dmn_domain_stats(struct dmn_ctx *ctx, dmn_domain_t dom,
		    struct dmn_domain_stats *out)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, out, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	struct dmn_stats tmp;
	struct dmn_level_time slot;
	const struct dmn_stats *st = stats_view(d, &tmp, &slot);
	uint64_t now = dmn_now(ctx);
	uint64_t span = now > st->since ? now - st->since : 0;
	out->time_on_ns = st->time_on + (d->on ? span : 0);
	out->time_off_ns = st->time_off +
		(!d->on && !(d->idle && d->idle_state >= 0) ? span : 0);
	out->on_count = st->on_count;
	out->off_count = st->off_count;
	out->pstate_transitions = st->pstate_transitions;
	out->n_pstates = st->n_levels;
	out->created_ns = st->created;
	dmn__unlock(ctx);
	return 0;
}

int dmn_domain_pstate_residency(struct dmn_ctx *ctx, dmn_domain_t dom,
			       unsigned i, uint32_t *level, uint64_t *time_ns)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, level && time_ns, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	struct dmn_stats tmp;
	struct dmn_level_time slot;
	const struct dmn_stats *st = stats_view(d, &tmp, &slot);
	err = i < st->n_levels ? 0 : -ENOENT;
	if (!err) {
		*level = st->levels[i].level;
		*time_ns = st->levels[i].ns;
		/* The levels are distinct and hold the pstate (every change
		 * of it is recorded), so slot i is open iff it holds it;
		 * untimed, none is. */
		uint64_t now = dmn_now(ctx);
		if (dmn__pstate_timed(ctx) && st->levels[i].level == d->pstate &&
		    now > st->pstate_since)
			*time_ns += now - st->pstate_since;
	}
	dmn__unlock(ctx);
	return err;
}
