/* SPDX-License-Identifier: MIT */
/* Devices and attachments (runtime get/put and votes: runtime.c). */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int dmn_device_create(struct dmn_ctx *ctx, const char *name, dmn_device_t *out)
{
	int err = dmn__enter_ctx(ctx, name && out);
	if (err)
		return err;
	/* The name lives at the end of the device: one allocation. */
	struct dmn_device *dev = dmn__obj_new(
	    ctx, &ctx->devices, offsetof(struct dmn_device, name), name, &err);
	if (dev)
		*out = dev->handle = dmn__handle_alloc(&ctx->devices, dev);
	dmn__unlock(ctx);
	return err;
}

struct dmn_device_cold *dmn__device_cold(struct dmn_ctx *ctx,
					   struct dmn_device *dev)
{
	if (!dev->cold) {
		dev->cold = dmn__alloc(ctx, sizeof(*dev->cold));
		if (dev->cold) {
			memset(dev->cold, 0, sizeof(*dev->cold));
			dev->cold->qos_us = DMN_QOS_NONE;
			dev->cold->wakeup_ns = DMN_WAKEUP_NONE;
		}
	}
	return dev->cold;
}

/* Room for one more attachment: the first lives inside the device, the
 * array (capacity: the power of two at or above n_atts, not kept) doubles
 * when full. The second one's new array is handed back in *@grown for
 * att_push, so a later failure of the attach changes nothing but freeing
 * it; a bigger array replaces the old one at once (same entries). */
static int reserve_attachment(struct dmn_ctx *ctx, struct dmn_device *dev,
			      struct dmn_attachment ***grown)
{
	unsigned n = dev->n_atts, cap = n == 1 ? 0 : n;
	*grown = 0;
	if (n != 1 && (n < 2 || (n & (n - 1))))
		return 0;
	return dmn__grow(ctx, n == 1 ? (void **)grown : (void **)&dev->atts.many,
			&cap, n + 1, sizeof(**grown));
}

static void att_push(struct dmn_device *dev, struct dmn_attachment *a,
		     struct dmn_attachment **grown)
{
	if (!dev->n_atts) {
		dev->atts.one = a;
	} else {
		if (grown) {
			grown[0] = dev->atts.one;
			dev->atts.many = grown;
		}
		dev->atts.many[dev->n_atts] = a;
	}
	dev->n_atts++;
}

/* ---- attachments -------------------------------------------------------- */

void dmn__att_unlink(struct dmn_ctx *ctx, struct dmn_attachment *a)
{
	struct dmn_domain *d = a->dom;
	struct dmn_device *dev = a->dev;
	if (a->dom_prev)
		a->dom_prev->dom_next = a->dom_next;
	else
		d->att_head = a->dom_next;
	if (a->dom_next)
		a->dom_next->dom_prev = a->dom_prev;
	else
		d->att_tail = a->dom_prev;
	d->n_attachments--;
	unsigned n = dev->n_atts, i = 0;
	while (i < n && dev_att(dev, i) != a)
		i++;
	if (i == n)
		return;
	if (n == 1) {
		dev->atts.one = 0;
	} else if (n == 2) {
		/* Back inside the device. */
		struct dmn_attachment *keep = dev->atts.many[1 - i];
		dmn__free(ctx, dev->atts.many);
		dev->atts.one = keep;
	} else {
		memmove(&dev->atts.many[i], &dev->atts.many[i + 1],
			(n - i - 1) * sizeof(*dev->atts.many));
	}
	dev->n_atts--;
}

struct dmn_attachment *dmn__attach_find(const struct dmn_device *dev,
				       const struct dmn_domain *d)
{
	/* the device's list and the domain's in step: the shorter one ends
	 * the search (one device in N domains, or N devices in one domain,
	 * attached one by one was quadratic) */
	struct dmn_attachment *x = d->att_head;
	for (unsigned i = 0; i < dev->n_atts && x; i++, x = x->dom_next) {
		if (dev_att(dev, i)->dom == d)
			return dev_att(dev, i);
		if (x->dev == dev)
			return x;
	}
	return 0;
}

int dmn_attach(struct dmn_ctx *ctx, dmn_device_t dev_h, dmn_domain_t dom,
	      dmn_attach_t *out)
{
	int err;
	struct dmn_device *dev = dmn__enter(
	    ctx, out, DMN_DEVICES | DMN_ENTER_RECORD, dev_h, &err);
	struct dmn_domain *d =
	    dev ? dmn__enter_more(ctx, DMN_DOMAINS | DMN_ENTER_RECORD, dom, &err)
		: 0;
	if (!d)
		return err;
	struct dmn_attachment *a = 0;
	dmn__txn_begin(ctx);
	if (dmn__attach_find(dev, d))
		err = -EEXIST;
	/* An always-on device counts in the domain's cold part; an active
	 * one powers it and its parents on, which starts their statistics:
	 * room for both before the attachment exists. */
	if (!err && dev->always_on && !dmn__domain_cold(ctx, d))
		err = -ENOMEM;
	if (!err && dev->usage)
		err = dmn__domain_cold_up(ctx, d);
	struct dmn_attachment **grown = 0;
	if (!err)
		err = reserve_attachment(ctx, dev, &grown);
	if (!err)
		a = dmn__obj_new(ctx, &ctx->attachments, sizeof(*a), 0, &err);
	if (!err)
		err = dmn__qos_attach(ctx, dev, d, true);
	if (err) {
		dmn__free(ctx, grown);
		dmn__free(ctx, a);
		return dmn__leave(ctx, err);
	}
	a->handle_bits = dmn__handle_alloc(&ctx->attachments, a) & 0x3fffffffu;
	a->dev = dev;
	a->dom = d;
	dmn__handle_publish_stripe(&ctx->attachments, att_handle(a),
				   dmn__slot_stripe(d->handle));
	a->dom_prev = d->att_tail;
	if (d->att_tail)
		d->att_tail->dom_next = a;
	else
		d->att_head = a;
	d->att_tail = a;
	d->n_attachments++;
	att_push(dev, a, grown);

	if (dev->usage) {
		err = dmn__vote_set(ctx, a, 0, true);
		if (!err)
			err = dmn__txn_commit(ctx);
	}
	if (err) {
		dmn__att_unlink(ctx, a);
		dmn__handle_release(&ctx->attachments, att_handle(a));
		dmn__free(ctx, a);
		dmn__qos_attach(ctx, dev, d, false);
	} else {
		if (ctx->life) {
			ctx->life->attach(d, dev, true);
			ctx->life->vetoes(a, 1);
		}
		*out = att_handle(a);
	}
	return dmn__leave(ctx, err);
}
