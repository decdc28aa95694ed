/* SPDX-License-Identifier: MIT */
/*
 * Latency QoS and next-wakeup constraints. Each domain keeps two multisets:
 * the resume-latency constraints and the wakeup times of every attached
 * device below it, active or suspended, counted once per path through the
 * subdomain graph. A change updates the domain it reaches and each domain
 * above it, so the governor reads the tightest values in O(log V) without
 * walking the subtree.
 */
#include "internal.h"

#include <domino/idle.h>
#include <errno.h>

static struct u64_multiset *cset(struct pd_domain *d, int which)
{
	return which ? &d->wake_set : &d->qos_set;
}

/* Walk @d and every domain above it, leaving in each (->paths) the number
 * of paths from @d up to it, modulo 2^64; returns how many (ctx->walk). A
 * constraint is counted once per path, so adding a link or an attachment
 * adds exactly what removing it takes away, whatever else shares the
 * ancestors. The counts wrap only in graphs with 2^64 paths between two
 * domains (64 stacked diamonds); there a value might leave a set early. */
static unsigned count_paths(struct dmn_ctx *ctx, struct pd_domain *d)
{
	unsigned n = dmn__walk_up(ctx, d);
	for (unsigned i = 0; i < n; i++)
		ctx->walk[i]->paths = 0;
	d->paths = 1;
	/* ctx->walk has parents first: backwards, a domain's paths are
	 * complete before they pass up. */
	for (unsigned i = n; i > 0; i--) {
		struct pd_domain *x = ctx->walk[i - 1];
		for (unsigned p = 0; p < x->n_parents; p++)
			x->parents[p]->parent->paths += x->paths;
	}
	return n;
}

static int reserve_up(struct dmn_ctx *ctx, struct pd_domain *d, int which,
		      unsigned extra)
{
	unsigned n = count_paths(ctx, d);
	int err = 0;
	for (unsigned i = 0; i < n && !err; i++)
		err = dmn__ms_reserve(ctx, cset(ctx->walk[i], which), extra);
	return err;
}

/* After count_paths(@d): add or remove @count copies of @value per path. */
static void add_up(struct dmn_ctx *ctx, unsigned n, int which, uint64_t value,
		   uint64_t count, bool add)
{
	for (unsigned i = 0; i < n; i++) {
		struct pd_domain *x = ctx->walk[i];
		if (add)
			dmn__ms_add(cset(x, which), value, count * x->paths);
		else
			dmn__ms_remove(cset(x, which), value, count * x->paths);
	}
}

static uint64_t device_value(const struct pd_device *dev, int which)
{
	if (which)
		return dev_wakeup_ns(dev);
	return dev_qos_us(dev) == PD_QOS_NONE
		       ? UINT64_MAX
		       : (uint64_t)dev_qos_us(dev) * 1000u;
}

int dmn__qos_attach(struct dmn_ctx *ctx, struct pd_device *dev, struct pd_domain *d,
	       bool attach)
{
	for (int which = 0; which < 2 && attach; which++) {
		if (device_value(dev, which) == UINT64_MAX)
			continue;
		int err = reserve_up(ctx, d, which, 1);
		if (err)
			return err;
	}
	for (int which = 0; which < 2; which++) {
		uint64_t v = device_value(dev, which);
		if (v != UINT64_MAX)
			add_up(ctx, count_paths(ctx, d), which, v, 1, attach);
	}
	return 0;
}

int dmn__qos_link(struct dmn_ctx *ctx, struct pd_domain *parent,
	     struct pd_domain *child, bool link)
{
	/* Most links carry no constraint: no walk at all then, so building
	 * a deep chain top-down stays linear. */
	for (int which = 0; which < 2 && link; which++) {
		unsigned extra = cset(child, which)->n;
		int err = extra ? reserve_up(ctx, parent, which, extra) : 0;
		if (err)
			return err;
	}
	for (int which = 0; which < 2; which++) {
		struct u64_multiset *s = cset(child, which);
		if (!s->n)
			continue;
		unsigned n = count_paths(ctx, parent);
		for (unsigned i = 0; i < s->n; i++)
			add_up(ctx, n, which, s->bins[i].value,
			       s->bins[i].count, link);
	}
	return 0;
}

static int device_change(struct dmn_ctx *ctx, struct pd_device *dev, int which,
			 uint64_t new_value)
{
	uint64_t old = device_value(dev, which);
	if (old == new_value)
		return 0;
	if (new_value != UINT64_MAX) {
		for (unsigned i = 0; i < dev->n_atts; i++) {
			int err = reserve_up(ctx, dev_att(dev, i)->dom, which, 1);
			if (err)
				return err;
		}
	}
	for (unsigned i = 0; i < dev->n_atts; i++) {
		unsigned n = count_paths(ctx, dev_att(dev, i)->dom);
		if (new_value != UINT64_MAX)
			add_up(ctx, n, which, new_value, 1, true);
		if (old != UINT64_MAX)
			add_up(ctx, n, which, old, 1, false);
	}
	return 0;
}

/* Set constraint @which (0 QoS, 1 wakeup) of device @h to @value, in the
 * units device_value() returns, as one locked call. */
static int set_constraint(struct dmn_ctx *ctx, pd_device_t h, int which,
			  uint64_t value, uint32_t qos_us)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct pd_device *dev = dmn__pd_device_get_ptr(ctx, h);
	int err = dev ? 0 : -EBADF;
	/* Room for the value first: a failed change leaves it as it was. */
	if (!err && !dmn__pd_device_cold(ctx, dev))
		err = -ENOMEM;
	if (!err)
		err = device_change(ctx, dev, which, value);
	if (!err && which)
		dev->cold->wakeup_ns = value;
	else if (!err)
		dev->cold->qos_us = qos_us;
	ctx->op_error = 0;
	txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int pd_device_set_qos(struct dmn_ctx *ctx, pd_device_t h, uint32_t latency_us)
{
	uint64_t ns = latency_us == PD_QOS_NONE ? UINT64_MAX
						: (uint64_t)latency_us * 1000u;
	return set_constraint(ctx, h, 0, ns, latency_us);
}

int pd_device_set_wakeup(struct dmn_ctx *ctx, pd_device_t h, uint64_t wakeup_ns)
{
	return set_constraint(ctx, h, 1, wakeup_ns, 0);
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
		*latency_us = dev_qos_us(dev);
		*wakeup_ns = dev_wakeup_ns(dev);
	}
	dmn__unlock(ctx);
	return err;
}

void dmn__qos_effective(struct dmn_ctx *ctx, const struct pd_domain *d,
		   uint64_t now, uint64_t *qos_ns, uint64_t *wakeup_ns)
{
	(void)ctx;
	*qos_ns = dmn__ms_first_at_or_after(&d->qos_set, 0);
	*wakeup_ns = dmn__ms_first_at_or_after(&d->wake_set, now);
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
