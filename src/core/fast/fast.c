/* SPDX-License-Identifier: MIT */
/*
 * The fast unit (fast.h): on a striped context (lock.h), a vote, a get or
 * a put on one stripe, without the exclusive lock, when its effect stays
 * inside one device or one chain of domains that are on. One idea, three
 * calls:
 *
 * - an unchanged vote: read without any lock from the attachment's
 *   published word (fast_vote_published);
 * - a vote that moves pstates along a chain (the voter's domain and its
 *   ancestors, one parent each, every one on and wanted on, at most
 *   FAST_CHAIN of them): dmn__fast_vote_chain runs the engine's steps over the
 *   chain, in the engine's order, with the same callbacks, events,
 *   statistics and errors; on a rail (a chain of one) with nothing to
 *   report, those steps come down to a histogram update and a callback
 *   (vote_rail, rail.h, inline in dmn_vote);
 * - a get or put that only moves a count (dmn__fast_usage).
 *
 * Anything else (a power state to change, a domain another fast path
 * holds, memory to allocate, a listener of the OPP layer's follow unit)
 * is DMN_FAST_UNHANDLED before anything changed, and the caller takes the
 * exclusive lock and the engine.
 */
#include "../internal.h"

#include <errno.h>
#include <limits.h>

/* ---- a domain's lock, inputs and callback ---------------------------------- */

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
	return h->n < h->cap || dmn__level_hist_index(h, level) < h->n;
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
 * the order allows: a domain whose one input moves keeps its one bin. */
static inline void hist_move(struct level_hist *h, uint32_t old,
			     uint32_t new)
{
	struct level_count *b = h->bins;
	if (old == new)
		return;
	if (old) {
		unsigned o = dmn__level_hist_index(h, old);
		/* A level not counted is ignored, as the engine's
		 * decrement. */
		if (o < h->n && b[o].count && !--b[o].count) {
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
	dmn__level_hist_insert(h, i, new, 1);
}

/* Replace input @old of @d by @new (0: none), in room input_room found. */
static inline void swap_input(struct dmn_domain *d, uint32_t old,
			      uint32_t new)
{
	hist_move(&d->votes, old, new);
}

/* The pstate callback of @d (none: success), a positive error as -EIO. */
static inline int call_set_pstate(struct dmn_domain *d, uint32_t level)
{
	if (!(d->ops && d->ops->set_performance_state))
		return 0;
	int err = d->ops->set_performance_state(d->user, d->handle, level);
	return err > 0 ? -EIO : err;
}

/* ---- a vote along a chain ------------------------------------------------ */

/* The engine's steps for a counted vote on a chain of domains that are
 * on and stay on (each holds an active device or an on child), leaf
 * first. The engine would validate up the ancestry by a depth-first walk,
 * log every input change for an undo, collect the touched domains, order
 * the power-off pass, walk them three times and compact the histograms;
 * on a chain every one of those is the chain itself. So the same steps
 * run over it, in the same order, with the same events and statistics,
 * each link's old requirement and each domain's old pstate kept beside
 * the chain instead of in the undo log:
 *   validate as dmn__txn_check_level (rounding, maps, -ENODEV);
 *   phase 0: the vote, then each link's requirement of its target;
 *   A: raise, parents first; a failure puts the inputs back and lowers
 *      what was raised, as the engine's rollback;
 *   C, D: lower children first, each link then following what its
 *      child really is; a failed lowering is kept and reported.
 * No power state changes, so the governor, QoS and power statistics are
 * not involved, and nothing allocates: a vote that would need memory is
 * the engine's. */
#define FAST_CHAIN 32
/* The chain's steps are written once for any depth and compiled twice,
 * for a rail (@rail: one domain, known where it is called) and for a
 * longer chain: inline into dmn__fast_vote_chain's two copies. */
#if defined(__GNUC__)
#define CHAIN_STEP static inline __attribute__((always_inline))
#else
#define CHAIN_STEP static inline
#endif

struct chain {
	unsigned n;
	bool first_locked; /* false: the stripe alone guards s[0] */
	bool reaches_cb;   /* some domain of it has a pstate callback */
	int op_error;      /* the first callback error */
	struct {
		struct dmn_domain *x; /* the next one is this one's parent */
		uint32_t old_req;     /* x's link before phase 0 */
		uint32_t was;         /* x's pstate before phase A */
	} s[FAST_CHAIN];
};

/* One event for the listeners, built only when there are some. */
static inline void emit(struct dmn_ctx *ctx, enum dmn_event_kind kind,
			enum dmn_op op, const struct dmn_domain *d, int error,
			int safe, uint32_t old_v, uint32_t new_v)
{
	if (ctx->n_listeners)
		dmn__txn_emit(ctx, DMN_EV(kind, op, safe), d, error, old_v,
			      new_v);
}

/* Point the link above @d at what @d really is (the engine's
 * links_follow_actual on a chain). */
static inline void chain_follow(struct dmn_domain *d)
{
	if (!d->n_parents)
		return;
	struct dmn_link *l = d->parents[0];
	uint32_t req;
	if (dmn__requirement(l, d->pstate, &req) || req == l->req)
		return;
	swap_input(l->parent, l->req, req);
	l->req = req;
}

/* Phase A for one domain: raise @x to its inputs' maximum. On a failure
 * (1) the error is in *@err and c->op_error, FAILURE and ROLLBACK are
 * out, and the caller rolls back. */
static inline int chain_raise(struct dmn_ctx *ctx, struct chain *c,
			      struct dmn_domain *x, int *err)
{
	uint32_t want = level_hist_max(&x->votes), old = x->pstate;
	if (want <= old)
		return 0;
	int cb = call_set_pstate(x, want);
	if (cb) {
		if (!c->op_error)
			c->op_error = cb;
		*err = cb;
		emit(ctx, DMN_EV_FAILURE, DMN_OP_SET_PSTATE, x, cb, 0, old, want);
		emit(ctx, DMN_EV_ROLLBACK, DMN_OP_NONE, x, cb, 0, 0, 0);
		return 1;
	}
	dmn__stats_pstate(ctx, x, want);
	x->pstate = want;
	emit(ctx, DMN_EV_PSTATE, DMN_OP_SET_PSTATE, x, 0, 0, old, want);
	return 0;
}

/* Phase D for one domain: lower @x to its inputs' maximum, not below
 * @floor; a failure is kept and reported. */
static inline void chain_lower(struct dmn_ctx *ctx, struct chain *c,
			       struct dmn_domain *x, uint32_t floor)
{
	uint32_t want = level_hist_max(&x->votes), old = x->pstate;
	if (want < floor)
		want = floor;
	if (want >= old)
		return;
	emit(ctx, DMN_EV_PSTATE_LOWERING, DMN_OP_SET_PSTATE, x, 0, 1, old,
	     want);
	int cb = call_set_pstate(x, want);
	if (cb) {
		if (!c->op_error)
			c->op_error = cb;
		emit(ctx, DMN_EV_FAILURE, DMN_OP_SET_PSTATE, x, cb, 1, old,
		     want);
		return;
	}
	dmn__stats_pstate(ctx, x, want);
	x->pstate = want;
	emit(ctx, DMN_EV_PSTATE, DMN_OP_SET_PSTATE, x, 0, 0, old, want);
}

static inline void chain_release(struct chain *c)
{
	for (unsigned i = !c->first_locked; i < c->n; i++)
		dom_unlock(c->s[i].x);
}

/* Collect @d's chain, at most FAST_CHAIN domains, each on and wanted on,
 * taking each one's fast_lock, but @d's only when another fast path can
 * reach it: a domain with no children changes on a fast path only through
 * votes on its attachments, which all take its stripe (dmn__pub_stripe),
 * held here (structure changes hold every stripe). So a vote on a rail
 * pays one lock pair, as genpd's mutex. false (nothing held) if the chain
 * is not one. */
CHAIN_STEP bool chain_take(struct chain *c, struct dmn_domain *d, bool rail)
{
	c->n = 0;
	c->first_locked = d->n_children;
	c->reaches_cb = false;
	for (struct dmn_domain *x = d; c->n < (rail ? 1 : FAST_CHAIN);
	     x = x->parents[0]->parent) {
		if (x->n_parents > 1 ||
		    ((x != d || c->first_locked) && !dom_trylock(x)))
			break;
		/* Where a rollback goes back to: the pstate before phase A. */
		c->s[c->n].was = x->pstate;
		c->s[c->n++].x = x;
		c->reaches_cb |= x->ops && x->ops->set_performance_state;
		if (!x->on || !domain_wants_on(x))
			break;
		if (!x->n_parents)
			return true;
	}
	chain_release(c);
	return false;
}

/* dmn__txn_check_level over the chain: -ENODEV, rounding, each
 * ancestor's requirement at the level this vote asks of it. */
CHAIN_STEP int chain_check(const struct chain *c, uint32_t level,
			   uint32_t *rounded, bool rail)
{
	*rounded = 0;
	if (!level)
		return 0;
	if (!c->reaches_cb)
		return -ENODEV;
	struct dmn_domain *d = c->s[0].x;
	uint32_t r = level;
	if (dom_cold(d)->round) {
		int err = d->cold->round(d->cold->round_user, d->handle, level,
					 &r);
		if (err)
			return err;
	}
	uint32_t asked = r;
	for (unsigned i = 0; !rail && i + 1 < c->n; i++) {
		int err = dmn__requirement(c->s[i].x->parents[0], asked, &asked);
		if (err)
			return err;
	}
	*rounded = r;
	return 0;
}

/* Phase 0's input changes undone, newest first. */
static void chain_undo(struct chain *c, unsigned links,
		       struct dmn_attachment *a, uint32_t old_vote)
{
	while (links--) {
		struct dmn_link *l = c->s[links].x->parents[0];
		swap_input(l->parent, l->req, c->s[links].old_req);
		l->req = c->s[links].old_req;
	}
	swap_input(a->dom, a->vote, old_vote);
	a->vote = old_vote;
}

/* The vote of @a for @level as the engine would make it, on @a's chain
 * (@rail: of one domain): the result (0 or a negative errno; the first
 * callback error in c->op_error), or DMN_FAST_UNHANDLED with nothing
 * changed. */
CHAIN_STEP int vote_chain_at(struct dmn_ctx *ctx, struct chain *c,
			     struct dmn_attachment *a, uint32_t level,
			     bool rail)
{
	struct dmn_domain *d = a->dom;
	/* Set only inside an exclusive call, which no stripe runs beside. */
	DMN_ASSERT(!ctx->record_only);
	if (!chain_take(c, d, rail))
		return DMN_FAST_UNHANDLED;
	const unsigned n = rail ? 1 : c->n;
	uint32_t r;
	int err = chain_check(c, level, &r, rail);
	if (err || r == a->vote)
		goto out;
	err = DMN_FAST_UNHANDLED;
	if (r && !input_room(d, r))
		goto out;
	/* Phase 0: the vote, then each link asks its target of the parent. */
	uint32_t old_vote = a->vote;
	swap_input(d, old_vote, r);
	a->vote = r;
	unsigned links = 0;
	for (; links + 1 < n; links++) {
		struct dmn_domain *x = c->s[links].x;
		struct dmn_link *l = x->parents[0];
		uint32_t req;
		int e = dmn__requirement(l, level_hist_max(&x->votes), &req);
		if (e || (req && req != l->req &&
			  !input_room(l->parent, req))) {
			chain_undo(c, links, a, old_vote);
			err = e ? e : DMN_FAST_UNHANDLED;
			goto out;
		}
		c->s[links].old_req = l->req;
		swap_input(l->parent, l->req, req);
		l->req = req;
	}
	err = 0;
	/* A: raise, parents first. */
	for (unsigned i = n; i > 0; i--) {
		if (!chain_raise(ctx, c, c->s[i - 1].x, &err))
			continue;
		/* As the engine's rollback: inputs back, then each raised
		 * domain lowered to where it was, children first. */
		chain_undo(c, links, a, old_vote);
		for (unsigned k = 0; k < n; k++)
			chain_follow(c->s[k].x);
		for (unsigned k = 0; k < n; k++) {
			chain_lower(ctx, c, c->s[k].x, c->s[k].was);
			chain_follow(c->s[k].x);
		}
		goto out;
	}
	/* C and D: nothing powers off; lower children first, each link
	 * then following what its child really is. The engine first points
	 * every link at its child's actual pstate and then at the lowered
	 * one; on a chain a child comes right before its parent, so one
	 * step per domain does both. */
	for (unsigned i = 0; i < n; i++) {
		struct dmn_domain *x = c->s[i].x;
		if (level_hist_max(&x->votes) < x->pstate)
			chain_lower(ctx, c, x, 0);
		if (!rail)
			chain_follow(x);
	}
out:
	chain_release(c);
	return err;
}

/* ---- a vote on a rail ------------------------------------------------------ */

bool dmn__fast_rail_bin(struct dmn_domain *d, uint32_t level, uint32_t old,
			unsigned *i, unsigned *o)
{
	struct level_hist *h = &d->votes;
	struct dmn_stats *s = &d->cold->stats;
	/* The domain's stripe guards its histogram and no transaction is
	 * open (an exclusive call holds every stripe): the rail may drop the
	 * bins it emptied, as the engine's next operation would. */
	if (h->n == h->cap || h->n == LEVEL_HIST_SCAN)
		dmn__level_hist_compact(h);
	unsigned n = h->n;
	/* The level's slot in the statistics, as dmn__txn_hist_add
	 * reserves: room for every bin's level. */
	if (n == h->cap || n == LEVEL_HIST_SCAN || !rail_stats_room(s, n))
		return false;
	DMN_ASSERT(dmn__level_hist_index(h, level) == n &&
		   "a level without a bin");
	*i = dmn__level_hist_find(h, level);
	dmn__level_hist_insert(h, *i, level, 0);
	/* @old (0: none) is counted, so its bin outlived the compaction. */
	*o = dmn__level_hist_index(h, old);
	return true;
}

void dmn__fast_rail_put_back(struct dmn_domain *d, uint32_t level,
			     uint32_t old)
{
	struct level_hist *h = &d->votes;
	struct level_count *b = h->bins;
	unsigned i = dmn__level_hist_index(h, level);
	unsigned o = dmn__level_hist_index(h, old);
	DMN_ASSERT(i < h->n && b[i].count && "the vote's new bin");
	if (o < h->n) {
		b[o].count++;
		b[i].count--;
	} else if (old) { /* the one input's bin took the level in place */
		DMN_ASSERT(h->n == 1 && b[0].count == 1);
		b[0].level = old;
	} else {
		b[i].count--;
	}
}

/* ---- the entry ------------------------------------------------------------ */

/* Out of line, with its own frame: the rail (rail.h), inline in
 * dmn_vote, keeps a small one. */
int dmn__fast_vote_chain(struct dmn_ctx *ctx, struct dmn_attachment *a,
			 uint32_t level, int *op_error)
{
	/* The OPP layer's follow unit listens to read other domains: the
	 * exclusive way. */
	if (!a->counted || ctx->internal_listeners)
		return DMN_FAST_UNHANDLED;
	struct dmn_domain *d = a->dom;
	struct chain c;
	c.op_error = 0;
	int err = d->n_parents ? vote_chain_at(ctx, &c, a, level, false)
			       : vote_chain_at(ctx, &c, a, level, true);
	/* The domain is this stripe's alone on a rail. */
	if (err != DMN_FAST_UNHANDLED && c.n == 1 && !c.first_locked)
		dmn__check_votes(ctx, d);
	*op_error = c.op_error;
	return err;
}

/* Whether @d is a rail the vote of a counted attachment may move without
 * the chain's checks: no parent, no child; on, with a pstate callback and
 * no rounding hook; nobody listens and pstates are untimed. Only
 * exclusive calls change any of that, so it holds until the next one
 * (struct dmn_domain, fast_epoch). */
bool dmn__fast_rail_shape(const struct dmn_ctx *ctx,
			  const struct dmn_domain *d)
{
	return !d->n_parents && !d->n_children && d->on && d->cold &&
	       !d->cold->round && d->ops && d->ops->set_performance_state &&
	       !ctx->n_listeners && !ctx->internal_listeners &&
	       !dmn__pstate_timed(ctx);
}

void dmn__fast_epoch_wrap(struct dmn_ctx *ctx)
{
	for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h;
	     h = dmn__handle_next(&ctx->domains, h)) {
		struct dmn_domain *d = dmn__handle_lookup(&ctx->domains, h);
		if (d)
			__atomic_store_n(&d->fast_epoch, 0,
					 __ATOMIC_RELAXED);
	}
	ctx->fast_epoch = 1;
}

/* dmn_device_get (@get) and dmn_device_put: a stale handle, or a nested
 * count that changes no domain (+1 from usage >= 1 on a probed device, -1
 * from usage >= 2), on the stripe of the device's slot (calls on one
 * device meet there). */
int dmn__fast_usage(struct dmn_ctx *ctx, dmn_device_t h, bool get)
{
	struct dmn_fast_hold hold;
	fast_stripe_enter(ctx, dmn__slot_stripe(h), &hold);
	struct dmn_device *dev = dmn__device_get(ctx, h);
	int err = 0;
	if (!dev)
		err = -EBADF;
	else if (get && dev->usage && dev->usage < UINT_MAX && dev->probed)
		dev->usage++;
	else if (!get && dev->usage > 1 && dev->usage > dev_kids(dev))
		dev->usage--;
	else
		err = DMN_FAST_UNHANDLED;
	if (err != DMN_FAST_UNHANDLED)
		fast_result(ctx, err);
	fast_stripe_leave(ctx, &hold);
	return err;
}
