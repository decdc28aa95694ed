/* SPDX-License-Identifier: MIT */
/*
 * Teardown: the calls that take apart what the core built (an optional
 * firmware unit, see docs/architecture.md "Firmware units"). A power
 * controller builds its domains, devices and attachments once and never
 * removes them; the failure paths of the adds undo their own work with
 * the helpers that stay in the core (dmn__att_unlink,
 * dmn__domain_free; dmn_opp_link_add adds a link and its maps in one
 * step that cannot half-fail, so it needs no dmn_link_remove). Nor does a
 * firmware destroy its context.
 */
#include "internal.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Take @l out of the link array @links of *@n entries. */
DMN_NOINLINE static void links_remove(struct dmn_link **links,
					   unsigned *n, const struct dmn_link *l)
{
	unsigned i = 0;
	while (i < *n && links[i] != l)
		i++;
	if (i == *n)
		return;
	memmove(&links[i], &links[i + 1], (*n - i - 1) * sizeof(*links));
	(*n)--;
}

static void link_detach_arrays(struct dmn_link *l)
{
	links_remove(l->child->parents, &l->child->n_parents, l);
	links_remove(l->parent->children, &l->parent->n_children, l);
}

int dmn_link_remove(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child)
{
	int err;
	struct dmn_link *l =
	    dmn__enter_link(ctx, true, DMN_ENTER_RECORD, parent, child, &err);
	if (!l)
		return err;
	struct dmn_domain *p = l->parent, *c = l->child;
	/* The child's constraints leave the parent first, so the power-off the
	 * link's end may bring sees only what still reaches the parent
	 * (docs/semantics.md: the governor weighs the devices below it).
	 * Removing never fails; putting them back finds the room they left. */
	dmn__qos_link(ctx, p, c, false);
	dmn__txn_begin(ctx);
	if (l->child_on || l->req)
		err = dmn__link_update(ctx, l, false, 0);
	if (err) {
		dmn__qos_link(ctx, p, c, true);
	} else {
		link_detach_arrays(l);
		dmn__free(ctx, l);
		dmn__note_relink(ctx, c);
	}
	return dmn__leave(ctx, err);
}

/* Free a device (and, with @attachments, the attachments it holds). */
static void device_free(struct dmn_ctx *ctx, struct dmn_device *dev,
			bool attachments)
{
	for (unsigned i = 0; attachments && i < dev->n_atts; i++)
		dmn__free(ctx, dev_att(dev, i));
	if (dev->n_atts > 1)
		dmn__free(ctx, dev->atts.many);
	dmn__free(ctx, dev->cold);
	dmn__free(ctx, dev);
}

int dmn_domain_remove(struct dmn_ctx *ctx, dmn_domain_t dom)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, true, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	err = d->n_attachments || d->n_parents || d->n_children ? -EBUSY : 0;
	if (!err) {
		dmn__handle_release(&ctx->domains, dom);
		dmn__domain_free(ctx, d);
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_device_remove(struct dmn_ctx *ctx, dmn_device_t h)
{
	int err;
	struct dmn_device *dev = dmn__enter(ctx, true, DMN_DEVICES, h, &err);
	if (!dev)
		return err;
	err = dev->n_atts || dev->usage || dev_opp_state(dev) ? -EBUSY : 0;
	if (!err) {
		dmn__handle_release(&ctx->devices, h);
		device_free(ctx, dev, false);
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_detach(struct dmn_ctx *ctx, dmn_attach_t h)
{
	int err;
	struct dmn_attachment *a = dmn__enter(
	    ctx, true, DMN_ATTACHMENTS | DMN_ENTER_RECORD, h, &err);
	if (!a)
		return err;
	/* The device's constraints leave the domain first, so a power-off
	 * the detach brings sees only the devices still below it (as
	 * dmn_link_remove). Removing never fails; putting them back
	 * finds the room they left. */
	dmn__qos_attach(ctx, a->dev, a->dom, false);
	dmn__txn_begin(ctx);
	bool vetoes = ctx->life && ctx->life->vetoes(a, -1);
	if (a->counted || vetoes) {
		if (a->counted)
			err = dmn__txn_set_vote(ctx, a, a->vote, false);
		if (!err)
			dmn__txn_touch(ctx, a->dom);
		err = err ? (dmn__txn_abort(ctx), err) : dmn__txn_commit(ctx);
	}
	if (err && vetoes)
		ctx->life->vetoes(a, 1);
	if (err)
		dmn__qos_attach(ctx, a->dev, a->dom, true);
	if (!err) {
		if (ctx->life)
			ctx->life->attach(a->dom, a->dev, false);
		dmn__att_unlink(ctx, a);
		dmn__handle_release(&ctx->attachments, h);
		dmn__free(ctx, a);
	}
	return dmn__leave(ctx, err);
}

int dmn_unlisten(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user)
{
	int err = dmn__enter_ctx(ctx, fn);
	if (err)
		return err;
	err = dmn__listen_remove(ctx, fn, user);
	dmn__unlock(ctx);
	return err;
}

void dmn__handle_table_fini(struct dmn_ctx *ctx, struct handle_table *t)
{
	while (DMN_STRIPED && t->pub) {
		struct handle_pub *older = t->pub->older;
		dmn__free(ctx, t->pub);
		t->pub = older;
	}
	dmn__free(ctx, t->objs);
	dmn__handle_table_init(t, t->kind);
}

void dmn_ctx_destroy(struct dmn_ctx *ctx)
{
	if (!ctx)
		return;
#ifdef DMN_FIRMWARE
	dmn__opp_ctx_fini(ctx);
#else
	if (ctx->opp_fini)
		ctx->opp_fini(ctx);
#endif
	/* Every attachment belongs to exactly one device. */
	for (uint32_t h = dmn__handle_next(&ctx->devices, 0); h;
	     h = dmn__handle_next(&ctx->devices, h))
		device_free(ctx, dmn__device_get(ctx, h), true);
	for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h;
	     h = dmn__handle_next(&ctx->domains, h)) {
		struct dmn_domain *d = dmn__domain_get(ctx, h);
		/* Each link is owned by its child's parent list. */
		for (unsigned i = 0; i < d->n_parents; i++)
			dmn__free(ctx, d->parents[i]);
		dmn__domain_free(ctx, d);
	}
	dmn__handle_table_fini(ctx, &ctx->attachments);
	dmn__handle_table_fini(ctx, &ctx->devices);
	dmn__handle_table_fini(ctx, &ctx->domains);
	dmn__free(ctx, ctx->order);
	dmn__free(ctx, ctx->off_order);
	dmn__free(ctx, ctx->stack);
	dmn__free(ctx, ctx->listeners);
	dmn__free(ctx, ctx->vote_plan);
	dmn__free(ctx, ctx->undo);
	dmn__stripes_destroy(ctx);
	ctx->lock_ops.destroy(ctx->lock_ops.user, ctx->lock);
	struct dmn_alloc_ops alloc = ctx->alloc;
	alloc.free(alloc.user, ctx);
}
