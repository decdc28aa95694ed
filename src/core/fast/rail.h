/* SPDX-License-Identifier: MIT */
/*
 * The fast unit's vote on a rail (a domain with no parent and no child),
 * inline in dmn_vote (fast_call.h) so that it costs no call more than
 * genpd's, whatever its number of voters. Included by fast_call.h only.
 */
#ifndef DOMINO_CORE_FAST_RAIL_H
#define DOMINO_CORE_FAST_RAIL_H

#include <errno.h>

/* fast.c */
bool dmn__fast_rail_shape(const struct dmn_ctx *ctx,
			  const struct dmn_domain *d);
/* An empty bin for @level (which has none) among @d's bins, at most
 * LEVEL_HIST_SCAN of them: its index in *@i, and @old's bin's (votes.n if
 * none) in *@o. Drops the bins votes emptied first when they are full
 * (only the representation changes). false without room for it in the
 * histogram or in the statistics. O(LEVEL_HIST_SCAN). */
bool dmn__fast_rail_bin(struct dmn_domain *d, uint32_t level, uint32_t old,
			unsigned *i, unsigned *o);
/* After a failed raise, a vote's count in @d's histogram moved back from
 * @level to @old (0: none), or its bin's level back when the bin took
 * @level in place: the histogram as it was, but for a bin the vote added,
 * kept empty (level_hist.h). Out of line, off the vote's way.
 * O(LEVEL_HIST_SCAN). */
void dmn__fast_rail_put_back(struct dmn_domain *d, uint32_t level,
			     uint32_t old);

/* Room in the statistics @s for one more level beside a histogram of @n
 * bins: dmn__txn_hist_add reserves a slot for every bin's level, and the
 * rail asks the same before a level gets a bin (dmn__fast_rail_bin) or
 * takes one in place. */
static inline bool rail_stats_room(const struct dmn_stats *s, unsigned n)
{
	return s->n_levels + n < s->cap_levels;
}

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

/* A vote on a rail (rail_shaped) of any number of voters, inline in
 * dmn_vote: the chain's steps (fast.c), which on a rail with nothing to
 * report come down to moving one count of the domain's histogram from
 * the old vote's bin to the new one's, the domain going to the top
 * counted level (a failed raise puts the count back, a failed lowering is
 * kept and reported), and the statistics counting the move. The
 * domain's stripe, held, guards all of it: every vote on the domain takes
 * that stripe, and no other fast path reaches a rail.
 *
 * Up to LEVEL_HIST_SCAN bins, the counts move and the bins stay (an
 * emptied bin is kept, level_hist.h): one pass finds both bins with no
 * branch on what it reads, so a driver going back and forth between its
 * levels takes the same steps each time, whatever the number of voters.
 * A level without a bin gets one, empty, first (dmn__fast_rail_bin, which
 * drops the emptied bins when all LEVEL_HIST_SCAN are taken).
 * The result, or DMN_FAST_UNHANDLED with nothing changed (then the
 * chain, dmn__fast_vote_chain, which takes any number of bins). */
static inline int vote_rail(struct dmn_ctx *ctx, struct dmn_attachment *a,
			    uint32_t level, int *op_error)
{
	struct dmn_domain *d = a->dom;
	/* The shape first: a chain's domain's histogram is not this
	 * stripe's to read (the chain's domain locks guard it). */
	if (!level || !a->counted || !rail_shaped(ctx, d))
		return DMN_FAST_UNHANDLED;
	struct level_hist *h = &d->votes;
	unsigned n = h->n;
	if (n > LEVEL_HIST_SCAN)
		return DMN_FAST_UNHANDLED;
	struct level_count *b = h->bins;
	struct dmn_stats *s = &d->cold->stats;
	uint32_t old = d->pstate, old_vote = a->vote, want;
	/* back: the pstate the vote leads to is the one before (the
	 * statistics' slot hints, struct dmn_stats). */
	bool own = n == 1 && b[0].level == old_vote && b[0].count == 1;
	bool back = own && dmn__stats_is_back(s, level);
	if (own && (back || level == old || rail_stats_room(s, n))) {
		/* The vote is the one input (a driver's own rail): its bin
		 * takes the level in place, which has a slot in the
		 * statistics or room for one, as dmn__fast_rail_bin asks of
		 * a new bin. */
		b[0].level = level;
		want = level;
	} else {
		unsigned o = n, i = n; /* the old vote's bin, the new one's */
		for (unsigned k = 0; k < n; k++) {
			o = b[k].level == old_vote ? k : o;
			i = b[k].level == level ? k : i;
		}
		if (i == n) {
			if (!dmn__fast_rail_bin(d, level, old_vote, &i, &o))
				return DMN_FAST_UNHANDLED;
			n = h->n;
		}
		/* o == n: the old vote was 0, no input. */
		DMN_ASSERT((o == n || b[o].count) && "a counted vote is an input");
		b[i].count++;
		if (o < n)
			b[o].count--;
		/* A vote at or above the pstate is the maximum (genpd's
		 * rise); below it, the top counted bin. */
		want = level >= old ? level : level_hist_max(h);
		back = dmn__stats_is_back(s, want);
	}
	if (want != old) {
		/* The shape has the callback. */
		int cb = d->ops->set_performance_state(d->user, d->handle, want);
		if (cb) {
			*op_error = cb = cb > 0 ? -EIO : cb;
			/* A failed raise puts the vote back; a failed
			 * lowering is kept and reported. */
			if (want > old) {
				dmn__fast_rail_put_back(d, level, a->vote);
				return cb;
			}
		} else {
			/* Untimed (the shape): a vote that goes up and comes
			 * back moves the statistics' slot hints. */
			if (back)
				dmn__stats_pstate_back(s);
			else
				dmn__stats_pstate_slow(ctx, d, want);
			d->pstate = want;
		}
	}
	a->vote = level;
	dmn__check_votes(ctx, d);
	return 0;
}

#endif /* DOMINO_CORE_FAST_RAIL_H */
