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

static uint64_t device_value(const struct dmn_device *dev, int which)
{
	if (which)
		return dev_wakeup_ns(dev);
	return dev_qos_us(dev) == DMN_QOS_NONE
		       ? UINT64_MAX
		       : (uint64_t)dev_qos_us(dev) * 1000u;
}

#ifdef DMN_FIRMWARE
/*
 * A firmware build keeps no constraint sets: the governor's two values are
 * found when it asks, by a walk down from the domain (the same values: the
 * smallest constraint of the devices at or below it, and the first wakeup
 * not past; O(domains and attachments below) per decision instead of
 * O(log V), and no memory). What a removal takes away leaves first, as
 * the sets lose it before the removal's power-off (docs/semantics.md): the
 * attachment or link removed last is skipped until its pair is added
 * again (after a successful removal it no longer exists).
 */
static void gone(struct dmn_ctx *ctx, const void *a, const void *b, bool add)
{
	ctx->qos_gone[0] = add ? 0 : a;
	ctx->qos_gone[1] = b;
}

int dmn__qos_attach(struct dmn_ctx *ctx, struct dmn_device *dev,
		    struct dmn_domain *d, bool attach)
{
	gone(ctx, dev, d, attach);
	return 0;
}

int dmn__qos_link(struct dmn_ctx *ctx, struct dmn_domain *parent,
		  struct dmn_domain *child, bool link)
{
	gone(ctx, parent, child, link);
	return 0;
}

static int device_change(struct dmn_ctx *ctx, struct dmn_device *dev,
			 int which, uint64_t new_value)
{
	(void)ctx;
	(void)dev;
	(void)which;
	(void)new_value;
	return 0; /* no set to update */
}

void dmn__qos_effective(struct dmn_ctx *ctx, const struct dmn_domain *d,
			uint64_t now, uint64_t *qos_ns, uint64_t *wakeup_ns)
{
	uint64_t q = UINT64_MAX, w = UINT64_MAX;
	const void *g0 = ctx->qos_gone[0], *g1 = ctx->qos_gone[1];
	/* Outside any other walk: the governor runs in a commit's settle,
	 * which holds its domains in ctx->order and ctx->off_order. */
	struct dmn_domain **stack = ctx->stack;
	unsigned top = 0;
	uint64_t mark = ctx->walk_epoch += 2;
	stack[top++] = (struct dmn_domain *)d;
	stack[0]->walk_mark = mark;
	while (top) {
		struct dmn_domain *x = stack[--top];
		for (const struct dmn_attachment *a = x->att_head; a;
		     a = a->dom_next) {
			/* A device without its cold part has neither. */
			if (!a->dev->cold || (a->dev == g0 && x == g1))
				continue;
			uint64_t v = device_value(a->dev, 0);
			q = v < q ? v : q;
			v = a->dev->cold->wakeup_ns;
			w = v >= now && v < w ? v : w;
		}
		for (unsigned i = 0; i < x->n_children; i++) {
			struct dmn_domain *c = x->children[i]->child;
			if ((x == g0 && c == g1) || c->walk_mark == mark)
				continue;
			c->walk_mark = mark;
			stack[top++] = c;
		}
	}
	*qos_ns = q;
	*wakeup_ns = w;
}
#else
/* A domain's constraint set: in its cold part, which RESERVE allocates
 * (a domain holding a value has it). */
static struct u64_multiset *cset(struct dmn_domain *d, int which)
{
	return which ? &d->cold->wake_set : &d->cold->qos_set;
}

/* Leave in @d and every domain above it, ctx->walk's @n (->cold->paths)
 * the number of paths from @d up to it, modulo 2^64. A constraint is
 * counted once per path, so adding a link or an attachment adds exactly
 * what removing it takes away, whatever else shares the ancestors. The
 * counts wrap only in graphs with 2^64 paths between two domains (64
 * stacked diamonds); there a value might leave a set early. */
static void count_paths(struct dmn_ctx *ctx, struct dmn_domain *d, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		ctx->walk[i]->cold->paths = 0;
	d->cold->paths = 1;
	/* ctx->walk has parents first: backwards, a domain's paths are
	 * complete before they pass up. */
	for (unsigned i = n; i > 0; i--) {
		struct dmn_domain *x = ctx->walk[i - 1];
		for (unsigned p = 0; p < x->n_parents; p++)
			x->parents[p]->parent->cold->paths += x->cold->paths;
	}
}

enum { RESERVE, ADD, REMOVE };

/* At @d and every domain above it, in constraint set @which: room for
 * @nb more values (RESERVE), or @bins added or removed once per path
 * (ADD, REMOVE: count_paths' counts). Only RESERVE can fail (-ENOMEM). */
static int apply(struct dmn_ctx *ctx, struct dmn_domain *d, int which,
		 const struct u64_bin *bins, unsigned nb, int mode)
{
	if (!nb)
		return 0; /* most links and devices carry no constraint */
	/* Each domain on the way holds the values: its cold part (the
	 * ones a value is removed from have it). */
	if (mode == RESERVE && dmn__domain_cold_up(ctx, d))
		return -ENOMEM;
	unsigned n = dmn__walk_up(ctx, d);
	count_paths(ctx, d, n);
	for (unsigned i = 0; i < n; i++) {
		struct dmn_domain *x = ctx->walk[i];
		struct u64_multiset *set = cset(x, which);
		if (mode == RESERVE && dmn__ms_reserve(ctx, set, nb))
			return -ENOMEM;
		for (unsigned b = 0; mode != RESERVE && b < nb; b++) {
			uint64_t count = bins[b].count * x->cold->paths;
			dmn__ms_add(set, bins[b].value, count, mode == REMOVE);
		}
	}
	return 0;
}

/* Add (@add) or remove both constraint sets' @bins at @d and above; an
 * addition reserves all its room first, so it fails whole or not at all. */
static int update(struct dmn_ctx *ctx, struct dmn_domain *d,
		  const struct u64_bin *const bins[2], const unsigned nb[2],
		  bool add)
{
	for (int mode = add ? RESERVE : REMOVE;; mode = ADD) {
		for (int which = 0; which < 2; which++) {
			int err = apply(ctx, d, which, bins[which], nb[which],
					mode);
			if (err)
				return err;
		}
		if (mode != RESERVE)
			return 0;
	}
}

int dmn__qos_attach(struct dmn_ctx *ctx, struct dmn_device *dev, struct dmn_domain *d,
	       bool attach)
{
	struct u64_bin own[2];
	unsigned nb[2];
	for (int which = 0; which < 2; which++) {
		own[which].value = device_value(dev, which);
		own[which].count = 1;
		nb[which] = own[which].value != UINT64_MAX;
	}
	const struct u64_bin *const bins[2] = {&own[0], &own[1]};
	return update(ctx, d, bins, nb, attach);
}

int dmn__qos_link(struct dmn_ctx *ctx, struct dmn_domain *parent,
	     struct dmn_domain *child, bool link)
{
	/* What the child holds passes up, with its counts, through the new
	 * link's paths. */
	const struct dmn_domain_cold *c = dom_cold(child);
	const struct u64_bin *const bins[2] = {c->qos_set.bins,
					       c->wake_set.bins};
	const unsigned nb[2] = {c->qos_set.n, c->wake_set.n};
	return update(ctx, parent, bins, nb, link);
}

static int device_change(struct dmn_ctx *ctx, struct dmn_device *dev, int which,
			 uint64_t new_value)
{
	uint64_t old = device_value(dev, which);
	if (old == new_value)
		return 0;
	/* The new value, the old one: none is UINT64_MAX. */
	const struct u64_bin bins[2] = {{new_value, 1}, {old, 1}};
	/* Room at every attachment first: a failure changes nothing. Then
	 * the new value in, the old one out (only RESERVE can fail). */
	for (int mode = RESERVE; mode <= REMOVE; mode++) {
		const struct u64_bin *b = &bins[mode == REMOVE];
		for (unsigned i = 0; i < dev->n_atts; i++)
			if (apply(ctx, dev_att(dev, i)->dom, which, b,
				  b->value != UINT64_MAX, mode))
				return -ENOMEM;
	}
	return 0;
}

void dmn__qos_effective(struct dmn_ctx *ctx, const struct dmn_domain *d,
		   uint64_t now, uint64_t *qos_ns, uint64_t *wakeup_ns)
{
	(void)ctx;
	const struct dmn_domain_cold *c = dom_cold(d);
	*qos_ns = dmn__ms_first_at_or_after(&c->qos_set, 0);
	*wakeup_ns = dmn__ms_first_at_or_after(&c->wake_set, now);
}
#endif

/* Set constraint @which (0 QoS, 1 wakeup) of device @h to @value, in the
 * units device_value() returns, as one locked call. */
static int set_constraint(struct dmn_ctx *ctx, dmn_device_t h, int which,
			  uint64_t value, uint32_t qos_us)
{
	int err;
	struct dmn_device *dev = dmn__enter(
	    ctx, true, DMN_DEVICES | DMN_ENTER_RECORD, h, &err);
	if (!dev)
		return err;
	/* Room for the value first: a failed change leaves it as it was. */
	if (!dmn__device_cold(ctx, dev))
		err = -ENOMEM;
	if (!err)
		err = device_change(ctx, dev, which, value);
	if (!err && which)
		dev->cold->wakeup_ns = value;
	else if (!err)
		dev->cold->qos_us = qos_us;
	ctx->op_error = 0;
	return dmn__leave(ctx, err);
}

int dmn_device_set_qos(struct dmn_ctx *ctx, dmn_device_t h, uint32_t latency_us)
{
	uint64_t ns = latency_us == DMN_QOS_NONE ? UINT64_MAX
						: (uint64_t)latency_us * 1000u;
	return set_constraint(ctx, h, 0, ns, latency_us);
}

int dmn_device_set_wakeup(struct dmn_ctx *ctx, dmn_device_t h, uint64_t wakeup_ns)
{
	return set_constraint(ctx, h, 1, wakeup_ns, 0);
}

