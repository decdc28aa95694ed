/* SPDX-License-Identifier: MIT */
/* Domains and the subdomain graph. */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

void dmn__domain_free(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	if (ctx->life)
		ctx->life->domain_free(ctx, d);
	dmn__idle_free(ctx, d);
	dmn__stats_free(ctx, d);
#ifndef DMN_FIRMWARE /* a firmware build keeps no sets (qos.c) */
	if (d->cold) {
		dmn__ms_fini(ctx, &d->cold->qos_set);
		dmn__ms_fini(ctx, &d->cold->wake_set);
	}
#endif
	dmn__free(ctx, d->cold);
	dmn__level_hist_fini(ctx, &d->votes);
	dmn__free(ctx, d->parents);
	dmn__free(ctx, d->children);
	dmn__free(ctx, d);
}

int dmn_domain_create(struct dmn_ctx *ctx, const struct dmn_domain_desc *desc,
		     dmn_domain_t *out)
{
	int err = dmn__enter_ctx(ctx, desc && desc->name && out);
	if (err)
		return err;
	ctx->op_error = 0;
	err = dmn__walk_reserve(ctx, 1);
	struct dmn_domain *d = 0;
	/* The name inside the allocation (docs/decisions/memory-layout.md). */
	if (!err)
		d = dmn__obj_new(ctx, &ctx->domains,
				 offsetof(struct dmn_domain, name), desc->name,
				 &err);
	if (!err) {
		/* All zero: no votes, no links, off at level 0. */
		d->ops = desc->ops;
		d->user = desc->user;
		d->flags = desc->flags;
		d->idle_state = -1;
		d->created = dmn_now(ctx);
		/* An always-on domain changes state now: its statistics
		 * start here. */
		if (d->flags & DMN_FLAG_ALWAYS_ON && !dmn__domain_cold(ctx, d))
			err = -ENOMEM;
	}
	if (!err)
		d->handle = dmn__handle_alloc(&ctx->domains, d);
	/* The engine's power-on step: DMN_EV_POWER_ON, or DMN_EV_FAILURE
	 * (unsafe) and the operation's error; a failure then takes the
	 * handle back (the engine's note of where it hit is read only by
	 * the transaction that makes it). */
	if (!err && (d->flags & DMN_FLAG_ALWAYS_ON)) {
		err = dmn__txn_power_on(ctx, d);
		if (err)
			dmn__handle_release(&ctx->domains, d->handle);
	}
	if (err) {
		if (d)
			dmn__domain_free(ctx, d);
	} else {
		*out = d->handle;
	}
	return dmn__leave(ctx, err);
}

/* ---- links -------------------------------------------------------------- */

/* Room for one more entry in a link array of @n: its capacity is not kept
 * (docs/decisions/memory-layout.md) but is always at least the power of two at
 * or above @n, as this grows it (removals never shrink it), so only a full
 * power of two (or an empty array) needs more. */
DMN_NOINLINE static int links_room(struct dmn_ctx *ctx, struct dmn_link ***array,
		      unsigned n)
{
	if (n & (n - 1))
		return 0;
	unsigned cap = n;
	return dmn__grow(ctx, (void **)array, &cap, n + 1, sizeof(**array));
}

DMN_NOINLINE static struct dmn_link *link_find(const struct dmn_domain *parent,
				 const struct dmn_domain *child)
{
	for (unsigned i = 0; i < child->n_parents; i++)
		if (child->parents[i]->parent == parent)
			return child->parents[i];
	return 0;
}

/* The domains of a call on two: as dmn__enter, the parent in *@p. */
static struct dmn_domain *enter_pair(struct dmn_ctx *ctx, bool args_ok,
				    size_t record, dmn_domain_t parent,
				    dmn_domain_t child, struct dmn_domain **p,
				    int *err)
{
	*p = dmn__enter(ctx, args_ok, DMN_DOMAINS | record, parent, err);
	return *p ? dmn__enter_more(ctx, DMN_DOMAINS | record, child, err) : 0;
}

struct dmn_link *dmn__enter_link(struct dmn_ctx *ctx, bool args_ok,
				size_t record, dmn_domain_t parent,
				dmn_domain_t child, int *err)
{
	struct dmn_domain *p;
	struct dmn_domain *c = enter_pair(ctx, args_ok, record, parent, child,
					 &p, err);
	struct dmn_link *l = c ? link_find(p, c) : 0;
	if (c && !l)
		dmn__enter_leave(ctx, record, -ENOENT, err);
	return l;
}

/* Make @l pass up (on, requirement(level)) now, as one transaction. */
int dmn__link_update(struct dmn_ctx *ctx, struct dmn_link *l, bool on,
		      uint32_t level)
{
	int err = dmn__txn_link_set(ctx, l, on, level);
	if (err) {
		dmn__txn_abort(ctx);
		return err;
	}
	dmn__txn_touch(ctx, l->parent);
	return dmn__txn_commit(ctx);
}

#ifndef DMN_FIRMWARE
/* Whether a device at or below @c holds a non-zero vote. */
static bool vote_below(struct dmn_ctx *ctx, struct dmn_domain *c)
{
	unsigned n = dmn__walk_down(ctx, c);
	for (unsigned i = 0; i < n; i++)
		for (const struct dmn_attachment *a = ctx->walk[i]->att_head;
		     a; a = a->dom_next)
			if (a->vote)
				return true;
	return false;
}
#endif

/* After a link to or from @c changed: if a device at or below @c holds a
 * non-zero vote (counted or stored), that vote may now reach no callback
 * or a smaller table, so dmn_vote checks an unchanged non-zero vote again
 * from now on (ctx->relinked). A structural call: it walks the domains
 * below @c, then their attachments until the first vote, and nothing
 * while the context has no attachment (a board links its domains before
 * it attaches devices, so a chain built upwards stays linear). */
void dmn__note_relink(struct dmn_ctx *ctx, struct dmn_domain *c)
{
	if (ctx->relinked || !ctx->attachments.live)
		return;
#ifdef DMN_FIRMWARE
	/* A firmware build checks every unchanged non-zero vote again from
	 * the first link moved with devices attached: the same answers (the
	 * walk only spares the check where no vote sits below). */
	(void)c;
#else
	if (!vote_below(ctx, c))
		return;
#endif
	/* dmn_vote's lock-free check reads it. */
#if DMN_STRIPED
	__atomic_store_n(&ctx->relinked, 1u, __ATOMIC_RELAXED);
#else
	ctx->relinked = 1;
#endif
}

int dmn__link_add_map(struct dmn_ctx *ctx, dmn_domain_t parent,
		      dmn_domain_t child, dmn_map_fn map, void *map_user)
{
	int err;
	struct dmn_domain *p;
	struct dmn_domain *c = enter_pair(ctx, true, DMN_ENTER_RECORD, parent,
					 child, &p, &err);
	if (!c)
		return err;
	struct dmn_link *l = 0;
	if (link_find(p, c))
		err = -EEXIST;
	else if (dmn__walk_reaches_down(ctx, c, p))
		err = -ELOOP;
	if (!err)
		err = links_room(ctx, &c->parents, c->n_parents);
	if (!err)
		err = links_room(ctx, &p->children, p->n_children);
	if (!err) {
		l = dmn__alloc(ctx, sizeof(*l));
		err = l ? 0 : -ENOMEM;
	}
	bool counted_qos = false;
	if (!err) {
		err = dmn__qos_link(ctx, p, c, true);
		counted_qos = !err;
	}
	if (!err) {
		memset(l, 0, sizeof(*l));
		l->parent = p;
		l->child = c;
		c->parents[c->n_parents++] = l;
		p->children[p->n_children++] = l;
		dmn__txn_begin(ctx);
		/* the new link (last) passes up @c's level if @c is on; with
		 * @map, every parent link of @c takes it first and passes up
		 * its requirement again: one transaction (an abort restores the
		 * others' maps and requirements) */
		for (unsigned i = map ? 0 : c->n_parents - 1;
		     !err && i < c->n_parents; i++) {
			struct dmn_link *x = c->parents[i];
			if (map)
				err = dmn__txn_link_config(ctx, x, map,
							   map_user, x->floor);
			if (!err && c->on) {
				err = dmn__txn_link_set(ctx, x, true,
							c->pstate);
				dmn__txn_touch(ctx, x->parent);
			}
		}
		if (err)
			dmn__txn_abort(ctx);
		else if (c->on)
			err = dmn__txn_commit(ctx);
		if (err) { /* last in both arrays: the engine moves no link */
			c->n_parents--;
			p->n_children--;
		}
	}
	if (err) {
		dmn__free(ctx, l);
		if (counted_qos)
			dmn__qos_link(ctx, p, c, false);
	} else {
		dmn__note_relink(ctx, c);
	}
	return dmn__leave(ctx, err);
}

int dmn_link_add(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child)
{
	return dmn__link_add_map(ctx, parent, child, 0, 0);
}

/* Give @l a new map and floor and recompute what the child requires
 * through them, as one transaction: a raise may fail, and the undo then
 * restores the old ones too. Sets dmn_last_error(). */
static int link_configure(struct dmn_ctx *ctx, struct dmn_link *l,
			  dmn_map_fn map, void *map_user, uint32_t floor)
{
	dmn__txn_begin(ctx);
	int err = dmn__txn_link_config(ctx, l, map, map_user, floor);
	if (!err && l->child->on)
		err = dmn__link_update(ctx, l, true, l->child->pstate);
	return dmn__txn_result(ctx, err);
}

int dmn_link_set_map(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child,
		    dmn_map_fn fn, void *user)
{
	int err;
	struct dmn_link *l =
	    dmn__enter_link(ctx, true, DMN_ENTER_RECORD, parent, child, &err);
	if (!l)
		return err;
	err = link_configure(ctx, l, fn, fn ? user : 0, l->floor);
	dmn__unlock(ctx);
	return err;
}

int dmn_link_set_floor(struct dmn_ctx *ctx, dmn_domain_t parent,
		      dmn_domain_t child, uint32_t level)
{
	int err;
	struct dmn_link *l =
	    dmn__enter_link(ctx, true, DMN_ENTER_RECORD, parent, child, &err);
	if (!l)
		return err;
	uint32_t rounded; /* 0 for level 0 */
	err = dmn__txn_check_level(ctx, l->parent, level, &rounded);
	err = err ? dmn__txn_result(ctx, err)
		  : link_configure(ctx, l, l->map, l->map_user, rounded);
	dmn__unlock(ctx);
	return err;
}
