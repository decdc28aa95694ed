/* SPDX-License-Identifier: MIT */
/*
 * The fast unit's vote on a driver's own rail (a domain with no parent, no
 * child and one attachment), inline in dmn_vote (fast_call.h) so that it
 * costs no call more than genpd's; and what the rail of several voters
 * and the chain (fast.c) share with it: a domain's own lock, the room for
 * and the move of an input, the rail's shape check. Included by
 * fast_call.h only.
 */
#ifndef DOMINO_CORE_FAST_RAIL_H
#define DOMINO_CORE_FAST_RAIL_H

#include <errno.h>

/* fast.c */
bool dmn__fast_rail_shape(const struct dmn_ctx *ctx,
			  const struct dmn_domain *d);

/* A domain's own lock among fast paths. Taken child before parent along
 * a chain, so a wait only ever points up the tree (no cycle), and only
 * for a bounded spin: a holder is a fast path that waits for nothing
 * else and lets go within one callback. After the spin the call goes the
 * exclusive way, which blocks properly. */
#define DOM_SPIN 256
static inline bool dom_trylock(struct dmn_domain *d)
{
	/* One thread: nobody else holds it (a call from a callback is
	 * refused before it gets here), so no atomic, as the stripes. */
	if (dmn__one_thread()) {
		if (__atomic_load_n(&d->fast_lock, __ATOMIC_RELAXED))
			return false;
		__atomic_store_n(&d->fast_lock, 1, __ATOMIC_RELAXED);
		return true;
	}
	for (unsigned i = 0; i < DOM_SPIN; i++) {
		if (!__atomic_load_n(&d->fast_lock, __ATOMIC_RELAXED) &&
		    !__atomic_exchange_n(&d->fast_lock, 1, __ATOMIC_ACQUIRE))
			return true;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
	return false;
}

static inline void dom_unlock(struct dmn_domain *d)
{
	__atomic_store_n(&d->fast_lock, 0, __ATOMIC_RELEASE);
}

/* Room among @h's bins for one more count at @level: its bin, or room
 * for one (the engine would not allocate). */
static inline bool bin_room(const struct level_hist *h, uint32_t level)
{
	if (h->n < h->cap)
		return true;
	unsigned i = dmn__level_hist_find(h, level);
	return i < h->n && h->bins[i].level == level;
}

/* Room for @level among @d's inputs and for one more level in its
 * statistics (as dmn__txn_hist_add reserves). */
static inline bool input_room(const struct dmn_domain *d, uint32_t level)
{
	return d->cold &&
	       d->cold->stats.n_levels + d->votes.n < d->cold->stats.cap_levels &&
	       bin_room(&d->votes, level);
}

/* One count of @h from @old to @new (0: none), with room for @new
 * (bin_room, or @old's bin that empties): the histogram the engine's add
 * and remove would leave, an emptied bin gone (the engine's compaction at
 * the end of its transaction). An emptied bin takes @new in place where
 * the order allows: a driver's own rail, its vote the only input, moves
 * its one bin. */
static inline void hist_move(struct level_hist *h, uint32_t old,
			     uint32_t new)
{
	struct level_count *b = h->bins;
	if (old == new)
		return;
	if (old) {
		unsigned o = dmn__level_hist_find(h, old);
		/* A level not counted is ignored, as the engine's
		 * decrement. */
		if (o < h->n && b[o].level == old && b[o].count &&
		    !--b[o].count) {
			if (new && (!o || b[o - 1].level < new) &&
			    (o + 1 == h->n || new < b[o + 1].level)) {
				b[o].level = new;
				b[o].count = 1;
				return;
			}
			for (h->n--; o < h->n; o++)
				b[o] = b[o + 1];
		}
	}
	if (!new)
		return;
	unsigned i = dmn__level_hist_find(h, new);
	if (i < h->n && b[i].level == new) {
		b[i].count++;
		return;
	}
	DMN_ASSERT(h->n < h->cap && "room for the new level");
	for (unsigned j = h->n; j > i; j--)
		b[j] = b[j - 1];
	b[i].level = new;
	b[i].count = 1;
	h->n++;
}

/* Replace input @old of @d by @new (0: none), in room input_room found. */
static inline void swap_input(struct dmn_domain *d, uint32_t old,
			      uint32_t new)
{
	hist_move(&d->votes, old, new);
}

/* Each of the @n bins at @b once: one count from @old to @new, and the
 * highest counted level in *@top. Whether @new has a bin: if not, only
 * @old's count went (the caller puts it back). */
static inline bool counts_move(struct level_count *b, unsigned n,
			       uint32_t old, uint32_t new, uint32_t *top)
{
	unsigned found = 0;
	uint32_t max = 0;
	for (unsigned i = 0; i < n; i++) {
		uint32_t l = b[i].level;
		DMN_ASSERT((l != old || b[i].count) &&
			   "a counted vote is an input of its domain");
		found |= l == new;
		b[i].count += (l == new) - (l == old);
		max = b[i].count ? l : max;
	}
	*top = max;
	return found;
}

/* One count of a rail's histogram @h from @old (0: none) to @new (> 0),
 * its maximum in *@top; false (nothing changed) without room for @new.
 * Up to LEVEL_HIST_SCAN bins, the counts move and the bins stay (an
 * emptied bin is kept, level_hist.h): every bin is visited once whatever
 * the levels, so a driver going back and forth between its levels takes
 * the same steps each time, with no branch for the predictor to guess (a
 * bin inserted and removed on alternate votes cost a mispredicted branch
 * a vote). A level without a bin gets one, empty, first. Past that many
 * bins, hist_move. */
static inline bool rail_move(struct level_hist *h, uint32_t old,
			     uint32_t new, uint32_t *top)
{
	struct level_count *b = h->bins;
	unsigned n = h->n;
	if (n <= LEVEL_HIST_SCAN) {
		if (counts_move(b, n, old, new, top))
			return true;
		counts_move(b, n, new, old, top); /* @old's count back */
		if (n < h->cap && n < LEVEL_HIST_SCAN) {
			unsigned at = dmn__level_hist_find(h, new);
			for (unsigned j = n; j > at; j--)
				b[j] = b[j - 1];
			b[at].level = new;
			b[at].count = 0;
			h->n = n + 1;
			return counts_move(b, n + 1, old, new, top);
		}
	}
	if (!bin_room(h, new)) {
		/* The vote's own bin, emptied, may take the level. */
		unsigned o = dmn__level_hist_find(h, old);
		if (!old || o == h->n || b[o].level != old || b[o].count != 1)
			return false;
	}
	hist_move(h, old, new);
	*top = level_hist_max(h);
	return true;
}

/* The pstate callback of @d (none: success), a positive error as -EIO. */
static inline int call_set_pstate(struct dmn_domain *d, uint32_t level)
{
	if (!(d->ops && d->ops->set_performance_state))
		return 0;
	int err = d->ops->set_performance_state(d->user, d->handle, level);
	return err > 0 ? -EIO : err;
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
