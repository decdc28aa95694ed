/* SPDX-License-Identifier: MIT */
/*
 * The fast unit's vote on a driver's own rail (a domain with no parent, no
 * child and one attachment), inline in dmn_vote (fast_call.h) so that it
 * costs no call more than genpd's, and the rail's shape check it shares
 * with the rail of several voters (fast.c). Included by fast_call.h only.
 */
#ifndef DOMINO_CORE_FAST_RAIL_H
#define DOMINO_CORE_FAST_RAIL_H

#include <errno.h>

/* fast.c */
bool dmn__fast_rail_shape(const struct dmn_ctx *ctx,
			  const struct dmn_domain *d);

/* A rail (a domain with no parent and no child) whose shape
 * (dmn__fast_rail_shape: on, untimed, nobody listening, a pstate callback,
 * no rounding hook) is read from fields only exclusive calls write, so it
 * is checked once between two of them (ctx->fast_epoch; the mark is
 * atomic as fast paths on several stripes may set it). */
static inline bool rail_shaped(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	if (__atomic_load_n(&d->fast_epoch, __ATOMIC_RELAXED) ==
	    ctx->fast_epoch)
		return true;
	/* A chain's domain says no at once, every time. */
	if (d->n_parents || d->n_children || !dmn__fast_rail_shape(ctx, d))
		return false;
	__atomic_store_n(&d->fast_epoch, ctx->fast_epoch, __ATOMIC_RELAXED);
	return true;
}

/* A driver's own rail, inline in dmn_vote: a rail with one attachment,
 * whose counted vote is the only input (one bin, counted once), the
 * pstate and the level it goes to both in the statistics' slot hints. The
 * chain's steps come down to the bin taking the level in place, one
 * callback (a failed raise puts the input back, a failed lowering is kept
 * and reported) and the statistics' count; the rail's stripe, held,
 * guards it. The result, or DMN_FAST_UNHANDLED with nothing changed (then
 * dmn__fast_vote_rail, a rail of several voters; dmn__fast_vote_chain). */
static inline int vote_own_rail(struct dmn_ctx *ctx, struct dmn_attachment *a,
				uint32_t level, int *op_error)
{
	struct dmn_domain *d = a->dom;
	if (!level || !a->counted || d->n_attachments != 1 ||
	    !rail_shaped(ctx, d))
		return DMN_FAST_UNHANDLED;
	struct level_count *b = d->votes.bins;
	struct dmn_stats *s = &d->cold->stats;
	uint32_t old = d->pstate, old_vote = a->vote;
	if (d->votes.n != 1 || b[0].count != 1 || b[0].level != old_vote ||
	    s->slot_cur >= s->n_levels || s->levels[s->slot_cur].level != old ||
	    (level != old && !dmn__stats_is_back(s, level)))
		return DMN_FAST_UNHANDLED;
	b[0].level = level;
	a->vote = level;
	if (level == old)
		return 0;
	int cb = d->ops->set_performance_state(d->user, d->handle, level);
	if (cb) {
		*op_error = cb = cb > 0 ? -EIO : cb;
		if (level < old) /* a failed lowering is kept and reported */
			return 0;
		b[0].level = old_vote;
		a->vote = old_vote;
		return cb;
	}
	dmn__stats_pstate_back(s);
	d->pstate = level;
	dmn__check_votes(ctx, d);
	return 0;
}

#endif /* DOMINO_CORE_FAST_RAIL_H */
