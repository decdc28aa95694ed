/* SPDX-License-Identifier: MIT */
/*
 * Extensions: calls a power controller built on the core does without (an
 * optional firmware unit, see docs/architecture.md "Firmware units"). No
 * core code calls them; the core reads what they store (a custom
 * governor, a rounding hook) and works the same when they are not linked:
 * - dmn_vote_many, a batch of one device's votes in one transaction:
 *   dmn_vote is the vote the core needs;
 * - dmn_domain_set_governor, a custom governor or none: without it every
 *   domain keeps the default QoS governor;
 * - dmn_domain_set_rounding, a custom rounding hook: without it a level
 *   stands as voted.
 */
#include "internal.h"

#include <errno.h>
#include <stdint.h>

int dmn_vote_many(struct dmn_ctx *ctx, const struct dmn_vote_change *changes,
		  unsigned n)
{
	int err = dmn__enter_ctx(ctx, changes && n);
	if (err)
		return err;
	ctx->op_error = 0;
	err = dmn__grow(ctx, (void **)&ctx->vote_plan, &ctx->cap_vote_plan, n,
		       sizeof(*ctx->vote_plan));
	struct dmn_vote_plan *plan = ctx->vote_plan;
	struct dmn_device *dev = 0;
	/* Every change checked before any is made: all or nothing. */
	for (unsigned i = 0; !err && i < n; i++) {
		struct dmn_attachment *a =
		    dmn__attach_get(ctx, changes[i].att);
		if (!a)
			err = -EBADF;
		else if (dev && a->dev != dev)
			err = -EINVAL;
		else
			err = dmn__txn_check_level(ctx, a->dom,
						   changes[i].level,
						   &plan[i].level);
		if (a)
			dev = a->dev;
		plan[i].att = a;
	}
	if (!err) {
		dmn__txn_begin(ctx);
		for (unsigned i = 0; !err && i < n; i++)
			err = dmn__vote_set(ctx, plan[i].att, plan[i].level,
					    plan[i].att->counted);
		if (!err)
			err = dmn__txn_commit(ctx);
	}
	return dmn__leave(ctx, err);
}

int dmn_domain_set_governor(struct dmn_ctx *ctx, dmn_domain_t dom,
			    enum dmn_governor_kind kind, dmn_governor_fn fn,
			    void *user)
{
	/* The three kinds are 0, 1, 2; whatever the enum's type, the cast
	 * makes a negative value large. */
	int err;
	struct dmn_domain *d =
	    dmn__enter(ctx,
		       (unsigned)kind <= DMN_GOVERNOR_CUSTOM &&
			   (kind == DMN_GOVERNOR_CUSTOM) == (fn != 0),
		       DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	if (!dmn__domain_cold(ctx, d))
		err = -ENOMEM;
	if (!err) {
		d->cold->gov = kind;
		d->cold->gov_fn = fn;
		d->cold->gov_user = fn ? user : 0;
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_domain_set_rounding(struct dmn_ctx *ctx, dmn_domain_t dom,
			    dmn_round_fn fn, void *user)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, true, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	if (d->pstate || d->votes.n)
		err = -EBUSY;
	else if ((fn || d->cold) && !dmn__domain_cold(ctx, d))
		err = -ENOMEM;
	if (!err && d->cold) {
		d->cold->round = fn;
		d->cold->round_user = fn ? user : 0;
	}
	dmn__unlock(ctx);
	return err;
}
