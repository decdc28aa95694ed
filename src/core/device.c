/* SPDX-License-Identifier: MIT */
/* Devices, attachments, runtime get/put and pstate votes. */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct dmn_device *dmn__pd_device_get_ptr(struct dmn_ctx *ctx, dmn_device_t h)
{
	return dmn__handle_lookup(&ctx->devices, h);
}

struct dmn_attachment *dmn__pd_attach_get(struct dmn_ctx *ctx, dmn_attach_t h)
{
	return dmn__handle_lookup(&ctx->attachments, h);
}

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

struct dmn_device_cold *dmn__pd_device_cold(struct dmn_ctx *ctx,
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
	return dmn_grow(ctx, n == 1 ? (void **)grown : (void **)&dev->atts.many,
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
	if (!err && dev->always_on && !dmn__pd_domain_cold(ctx, d))
		err = -ENOMEM;
	if (!err && dev->usage)
		err = dmn__pd_domain_cold_up(ctx, d);
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

/* ---- runtime PM --------------------------------------------------------- */

/* Count or stop counting every vote of @dev: the inputs of a transaction
 * begun here (aborted on failure); the caller commits. */
static int device_switch_inputs(struct dmn_ctx *ctx, struct dmn_device *dev,
				unsigned usage, bool counted)
{
	dmn__txn_begin(ctx);
	/* devparent.c: the parents first, so their domains power on before
	 * the device's and off after them. */
	int err = ctx->dev_parent ? ctx->dev_parent(ctx, dev, counted) : 0;
	if (!err)
		err = dmn__txn_set_usage(ctx, dev, usage);
	for (unsigned i = 0; i < dev->n_atts && !err; i++) {
		struct dmn_attachment *a = dev_att(dev, i);
		err = dmn__txn_set_vote(ctx, a, a->vote, counted);
		if (!err)
			dmn__txn_touch(ctx, a->dom);
	}
	if (err)
		dmn__txn_abort(ctx);
	return err;
}

/* Count or stop counting every vote of @dev, as one transaction. */
static int device_switch(struct dmn_ctx *ctx, struct dmn_device *dev,
			 unsigned usage, bool counted)
{
	int err = device_switch_inputs(ctx, dev, usage, counted);
	return err ? err : dmn__txn_commit(ctx);
}

/* A runtime resume (usage 0 -> 1) and the probe it brings (DESIGN §7), as
 * one transaction: a hold the probe releases lets go in this command, a
 * rolled-back resume undoes its probe and release, and each domain gets
 * at most one pstate call (DESIGN §1; two commits made two when a domain
 * a failed lowering had left high was also released). */
static int device_resume(struct dmn_ctx *ctx, struct dmn_device *dev)
{
	int err = device_switch_inputs(ctx, dev, 1, true);
	if (err)
		return err;
	if (!dev->probed && ctx->life)
		return ctx->life->probe_locked(ctx, dev, true);
	err = dmn__txn_commit(ctx);
	if (!err)
		dev->probed = true; /* no hold awaits it */
	return err;
}

/* dmn__pd_device_get_locked (@get) and dmn__pd_device_put_locked: a
 * nested count moves only the usage; the first get resumes the device
 * and the last put suspends it, as one transaction. */
DMN_SIZE_NOINLINE static int usage_locked(struct dmn_ctx *ctx, dmn_device_t h,
					bool get)
{
	struct dmn_device *dev = dmn__pd_device_get_ptr(ctx, h);
	int err = 0;
	ctx->op_error = 0;
	if (!dev)
		err = -EBADF;
	else if (get ? dev->usage == UINT_MAX : dev->usage <= dev_kids(dev))
		err = get ? -EOVERFLOW : -EALREADY;
	else if (dev->usage != !get)
		dev->usage += get ? 1u : (unsigned)-1;
	else if (ctx->asleep)
		err = -EACCES; /* the system sleeps: no runtime PM */
	else
		err = get ? device_resume(ctx, dev)
			  : device_switch(ctx, dev, 0, false);
	if (!err && get)
		ctx->runtime_started = true;
	return txn_result(ctx, err);
}

int dmn__pd_device_get_locked(struct dmn_ctx *ctx, dmn_device_t h)
{
	return usage_locked(ctx, h, true);
}

#if DMN_STRIPED
/* dmn_device_get / dmn_device_put on a striped context, on the stripe of the
 * device's slot (calls on one device meet there): a stale handle, or a
 * nested count that changes no domain (@delta +1 from usage >= 1 on a
 * probed device, -1 from usage >= 2). 1 if handled (result in *@err), 0
 * to take the exclusive path (nothing changed). */
static int usage_striped(struct dmn_ctx *ctx, dmn_device_t h, int delta,
			 int *err)
{
	struct dmn_fast_hold hold;
	if (dmn__fast_enter(ctx, h & HANDLE_SLOT_MASK, &hold)) {
		*err = -EDEADLK;
		return 1;
	}
	struct dmn_device *dev = dmn__pd_device_get_ptr(ctx, h);
	int handled = 1;
	*err = 0;
	if (!dev)
		*err = -EBADF;
	else if (delta > 0 && dev->usage && dev->usage < UINT_MAX &&
		 dev->probed)
		dev->usage++;
	else if (delta < 0 && dev->usage > 1 && dev->usage > dev_kids(dev))
		dev->usage--;
	else
		handled = 0;
	if (handled)
		dmn__fast_result(ctx, *err);
	dmn__fast_leave(ctx, &hold);
	return handled;
}
#endif

/* dmn_device_get (@get) and dmn_device_put. */
static int device_usage(struct dmn_ctx *ctx, dmn_device_t h, bool get)
{
	if (!ctx)
		return -EINVAL;
#if DMN_STRIPED
	int fast_err;
	if (ctx->stripes && usage_striped(ctx, h, get ? 1 : -1, &fast_err))
		return fast_err;
#endif
	if (dmn__lock(ctx))
		return -EDEADLK;
	int err = usage_locked(ctx, h, get);
	dmn__unlock(ctx);
	return err;
}

int dmn_device_get(struct dmn_ctx *ctx, dmn_device_t h)
{
	return device_usage(ctx, h, true);
}

int dmn__pd_device_put_locked(struct dmn_ctx *ctx, dmn_device_t h)
{
	return usage_locked(ctx, h, false);
}

int dmn_device_put(struct dmn_ctx *ctx, dmn_device_t h)
{
	return device_usage(ctx, h, false);
}

/* ---- votes -------------------------------------------------------------- */

int dmn__vote_set(struct dmn_ctx *ctx, struct dmn_attachment *a,
		  uint32_t level, bool counted)
{
	if (a->vote == level && a->counted == counted)
		return 0;
	int err = dmn__txn_set_vote(ctx, a, level, counted);
	if (err)
		dmn__txn_abort(ctx);
	/* An uncounted vote is stored for the next resume: it touches
	 * nothing, and a commit of nothing touched only ends the
	 * transaction. */
	else if (counted)
		dmn__txn_touch(ctx, a->dom);
	return err;
}

/* dmn_vote's general path: @a the attachment of @att, or 0. */
static int vote_one_locked(struct dmn_ctx *ctx, struct dmn_attachment *a,
			   uint32_t level)
{
	if (!a)
		return -EBADF;
	int err = dmn__txn_check_level(ctx, a->dom, level, &level);
	if (err)
		return err;
	dmn__txn_begin(ctx);
	err = dmn__vote_set(ctx, a, level, a->counted);
	return err ? err : dmn__txn_commit(ctx);
}

#if DMN_FAST_PATHS
/* The one-voter path (vote_solo) inline in both of dmn_vote's paths
 * (hosted builds only: size-optimized builds leave the fast paths out). */
#if defined(__GNUC__)
#define SOLO_INLINE static inline __attribute__((always_inline))
#define SOLO_OUTLINE static __attribute__((noinline))
#else
#define SOLO_INLINE static inline
#define SOLO_OUTLINE static
#endif

/* Whether vote_solo may take @a's vote: its first test, so that a domain
 * with several voters goes on to the chain path at once. */
static inline bool vote_solo_maybe(const struct dmn_attachment *a)
{
	return a->dom->n_attachments == 1;
}

/* Whether @d, @a's domain, has the one-voter shape, checked in full: @a
 * is the domain's one attachment, no child, no parent (so on a striped
 * context its stripe guards the domain, as in chain_take, txn.c), and
 * its vote the domain's only input (one bin, counted once, at its vote:
 * no boot hold either); counted, so the domain needs to be on, and it
 * is; no rounding hook, a pstate callback, and the statistics hold the
 * pstate (its slot in *@from). Out of line: a striped context checks it
 * once per exclusive call. */
SOLO_OUTLINE bool solo_shape(const struct dmn_ctx *ctx,
			     const struct dmn_attachment *a,
			     struct dmn_domain *d, unsigned *from)
{
	const struct level_hist *h = &d->votes;
	struct dmn_domain_cold *c = d->cold;
	/* The pstate and the histogram only once the shape has made the
	 * domain this stripe's: with a child or a parent, a chain vote on
	 * another stripe may be writing them. */
	if (!a->counted || d->n_parents || d->n_children ||
	    d->n_attachments != 1 || !d->on || !c || c->round || h->n != 1 ||
	    h->bins[0].count != 1 || h->bins[0].level != a->vote ||
	    ctx->record_only || !d->ops || !d->ops->set_performance_state)
		return false;
	*from = dmn__stats_slot(&c->stats, d->pstate);
	return *from < c->stats.n_levels;
}

/* An event of vote_solo: built only when someone listens (@heard). */
SOLO_INLINE void solo_emit(bool heard, struct dmn_ctx *ctx,
			   enum dmn_event_kind kind, enum dmn_op op,
			   const struct dmn_domain *d, int error, int safe,
			   uint32_t old_v, uint32_t new_v)
{
	if (heard)
		dmn__txn_emit(ctx, kind, op, d, error, safe, old_v, new_v);
}

/* dmn__txn_vote_chain (txn.c) when @a's vote is its domain's only input
 * and the domain has no parent (a rail and its one device), @from the
 * statistics slot of its pstate: the level is the vote, no aggregation,
 * no room to make (it says no unless the statistics have room for two
 * more levels, as input_room asks), the bin moves in place, one
 * callback, and the statistics stamp with both slots known. The same
 * callbacks, events, statistics, return codes and first error (in
 * *@op_error) as the chain path. 1 if handled (result in *@err), 0 if
 * the general path must take it (nothing changed, the shape no longer
 * taken as checked). O(1) on average (dmn__stats_slot) plus the
 * callback. @heard: whether to tell the listeners; a constant in each
 * copy, so that the one a driver's context runs has no event code.
 * @alt: d->solo_alt is a level the statistics list (a checked shape):
 * then a context whose pstates are untimed reads nothing of them for a
 * vote between the pstate and that level. */
SOLO_INLINE int solo_body(struct dmn_ctx *ctx, struct dmn_attachment *a,
			  uint32_t level, unsigned from, int *err,
			  int *op_error, bool heard, bool alt)
{
	struct dmn_domain *d = a->dom;
	uint32_t old = d->pstate, old_vote = a->vote;
	bool timed = dmn__pstate_timed(ctx), fresh = false;
	unsigned to = from;
	/* Vote 0 (the domain's input goes) and a level new to the
	 * statistics without room for it and one more: the general path. */
	if (!level) {
		d->solo_epoch = 0;
		return 0;
	}
	if (level != old && (timed || !alt || level != d->solo_alt)) {
		struct dmn_stats *s = &d->cold->stats;
		to = dmn__stats_slot(s, level);
		fresh = to == s->n_levels;
		if (fresh && s->n_levels + 2 > s->cap_levels) {
			d->solo_epoch = 0;
			return 0;
		}
	}
	/* The domain's level is this vote: the histogram's one bin moves in
	 * place, as swap_input does. */
	d->votes.bins[0].level = level;
	a->vote = level;
	if (level == old)
		return 1;
	bool lower = level < old;
	if (lower)
		solo_emit(heard, ctx, DMN_EV_PSTATE_LOWERING, DMN_OP_SET_PSTATE,
			  d, 0, 1, old, level);
	int cb = d->ops->set_performance_state(d->user, d->handle, level);
	if (cb) {
		cb = cb > 0 ? -EIO : cb;
		if (!*op_error)
			*op_error = cb;
		solo_emit(heard, ctx, DMN_EV_FAILURE, DMN_OP_SET_PSTATE, d, cb,
			  lower, old, level);
		if (lower) /* a failed lowering is kept and reported */
			return 1;
		/* A failed raise: nothing was raised, the input goes back. */
		*err = cb;
		solo_emit(heard, ctx, DMN_EV_ROLLBACK, DMN_OP_NONE, d, cb, 0, 0,
			  0);
		d->votes.bins[0].level = old_vote;
		a->vote = old_vote;
		return 1;
	}
	/* dmn__stats_pstate with the two slots found (untimed: no clock,
	 * and no slot but a new level's). */
	struct dmn_stats *s = &d->cold->stats;
	if (timed) {
		uint64_t now = ctx->pstate_now(ctx->now_user);
		uint64_t span =
		    now > s->pstate_since ? now - s->pstate_since : 0;
		s->pstate_since += span;
		s->levels[from].ns += span;
		d->solo_slot = to;
	}
	s->pstate_transitions++;
	if (fresh) {
		s->levels[to].level = level;
		s->levels[to].ns = 0;
		s->n_levels++;
	}
	d->solo_alt = old;
	d->pstate = level;
	solo_emit(heard, ctx, DMN_EV_PSTATE, DMN_OP_SET_PSTATE, d, 0, 0, old,
		  level);
	return 1;
}

/* vote_solo when the shape is to be checked, or someone listens. */
SOLO_OUTLINE int vote_solo_checked(struct dmn_ctx *ctx,
				   struct dmn_attachment *a, uint32_t level,
				   int *err, int *op_error, bool shared)
{
	struct dmn_domain *d = a->dom;
	unsigned from;
	bool alt = false;
	if (shared && d->solo_epoch == ctx->shape_epoch) {
		from = d->solo_slot;
		alt = true;
	} else if (!level || !solo_shape(ctx, a, d, &from)) {
		return 0;
	} else if (shared && !ctx->n_listeners && !ctx->internal_listeners) {
		/* Cached only with no listener: listeners, like attachments
		 * and links, change only in exclusive calls, so a match of
		 * the epoch in vote_striped says all of solo_shape's and
		 * that no event is to be built. */
		d->solo_epoch = ctx->shape_epoch;
		d->solo_slot = from;
		d->solo_alt = d->pstate;
		alt = true;
	}
	return solo_body(ctx, a, level, from, err, op_error, true, alt);
}

/* The one-voter path: 1 if it handled @a's vote (solo_body), 0 if the
 * shape differs (nothing changed). On a striped context's fast path
 * (@shared) the shape is checked once per exclusive call
 * (ctx->shape_epoch, which dmn__lock counts): between two, only votes on
 * this attachment's stripe change the domain, and they come here (which
 * keeps the shape, d->solo_slot and d->solo_alt) or, when this says no,
 * to the chain path, which may change it: the check is dropped first
 * (solo_body). Alone in the context, the whole check every time. */
SOLO_INLINE int vote_solo(struct dmn_ctx *ctx, struct dmn_attachment *a,
			  uint32_t level, int *err, int *op_error, bool shared)
{
	/* A checked shape (cached with no listener): the one test of the
	 * common case. */
	if (shared && a->dom->solo_epoch == ctx->shape_epoch)
		return solo_body(ctx, a, level, a->dom->solo_slot, err,
				 op_error, false, true);
	/* The OPP layer's listener reads other domains' state; a domain
	 * with several voters goes on to the chain path at once. */
	return !ctx->internal_listeners && vote_solo_maybe(a) &&
	       vote_solo_checked(ctx, a, level, err, op_error, shared);
}

#if DMN_STRIPED
void dmn__shape_epoch_wrap(struct dmn_ctx *ctx)
{
	for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h;
	     h = dmn__handle_next(&ctx->domains, h)) {
		struct dmn_domain *d = dmn__handle_lookup(&ctx->domains, h);
		if (d)
			d->solo_epoch = 0;
	}
	ctx->shape_epoch = 1;
}
#endif
#endif

/* dmn_vote's work once the level differs: out of line, so that the common
 * unchanged vote stays a lock pair around a lookup and a compare. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int vote_changed(struct dmn_ctx *ctx, struct dmn_attachment *a,
			dmn_attach_t att, uint32_t level)
{
#if DMN_FAST_PATHS
	int err = 0;
	/* Alone in the context: the first error goes where the OPP layer's
	 * listener puts its own, as in the engine. */
	if (a && vote_solo(ctx, a, level, &err, &ctx->op_error, false)) {
#if DMN_CHECKS
		/* What the chain path checks after a vote alone. */
		dmn__check_domain(ctx, a->dom, true);
#endif
		dmn__handle_publish(&ctx->attachments, att, a->vote);
		return err;
	}
	if (a && dmn__txn_vote_chain(ctx, a, level, &err, &ctx->op_error,
				     false)) {
		dmn__handle_publish(&ctx->attachments, att, a->vote);
		return err;
	}
#else
	(void)att;
#endif
	return vote_one_locked(ctx, a, level);
}

int dmn__pd_vote_locked(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level)
{
	/* The same level again: validated when it was stored, nothing to do
	 * (unless a link moved above it since: ctx->relinked). This is the
	 * common case of a driver re-asserting its vote. */
	struct dmn_attachment *a = dmn__pd_attach_get(ctx, att);
	ctx->op_error = 0;
	int err = 0;
	if (!a || a->vote != level || (level && ctx->relinked))
		err = vote_changed(ctx, a, att, level);
	return txn_result(ctx, err);
}

#if DMN_STRIPED
/* Whether @att is a live attachment whose vote is @level, read without a
 * lock from its published word (handle.h, struct handle_pub),
 * dmn_last_error() is 0 already, and no link moved above a non-zero vote
 * (ctx->relinked, read as last_error): then dmn_vote has nothing to do and
 * nothing to record. The block and the word it read are left in *@seen
 * and *@word (untouched if @att names no slot of it), for the publish
 * that follows a change. Correct under concurrent writers because
 * - every word is one atomic load or store, of the slot's generation,
 *   liveness and vote together: a handle whose slot was released or
 *   reused since fails the compare (as the handle lookup would);
 * - a fast path (one stripe) publishes a vote only once its call's
 *   outcome is final, so a word is always a committed vote: a reader
 *   that sees it is ordered before or after that call, as it would be
 *   on the stripe;
 * - an exclusive call may publish values it later rolls back; it runs
 *   with ctx->excl_seq odd, and a word read while the sequence was odd
 *   or moved is not trusted (the lock's release fence, this function's
 *   acquire fence);
 * - a block of words is never freed while the context lives, so an old
 *   one a reader still holds is memory it may read: its words were the
 *   committed votes when the table grew, during the reader's call.
 * 0 means "take the locked path", never an error. */
static inline int vote_published(struct dmn_ctx *ctx, dmn_attach_t att,
				  uint32_t level, uint64_t want,
				  const struct handle_pub **seen, uint64_t **word)
{
	unsigned seq = __atomic_load_n(&ctx->excl_seq, __ATOMIC_ACQUIRE);
	const struct handle_pub *p =
		__atomic_load_n(&ctx->attachments.pub, __ATOMIC_ACQUIRE);
	uint32_t slot = att & HANDLE_SLOT_MASK;
	if (!p || (att >> 30) != HK_ATTACH || slot - 1u >= p->cap)
		return 0;
	*seen = p;
	*word = dmn__pub_word(p, slot - 1);
	/* A vote that changes something (half of every pair) leaves here,
	 * with the word for the publish to come (see vote_striped). */
	if ((seq & 1u) || __atomic_load_n(*word, __ATOMIC_RELAXED) != want)
		return 0;
	int last = __atomic_load_n(&ctx->last_error, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	/* ctx->relinked last, and only for an unchanged non-zero vote: it is
	 * set by exclusive calls and never cleared, so a read after the
	 * sequence's acquire load sees every store an earlier exclusive
	 * call made, and a later one only sends this call the locked way. */
	return __atomic_load_n(&ctx->excl_seq, __ATOMIC_RELAXED) == seq &&
	       !last &&
	       !(level && __atomic_load_n(&ctx->relinked, __ATOMIC_RELAXED));
}

#if DMN_FAST_PATHS
/* Whether @a's vote for @level is the common vote of a driver on its own
 * rail, alone: a non-zero level that moves the vote between the two
 * levels its domain's one-voter shape knows (the pstate and the one it
 * left, d->solo_alt), on a checked shape (solo_epoch: no listener),
 * untimed. Then solo_body takes it whole (it never says no to it), with
 * no event to build and nothing of the statistics to read. */
static inline bool vote_on_rail(const struct dmn_ctx *ctx,
				const struct dmn_attachment *a, uint32_t level)
{
	const struct dmn_domain *d = a->dom;
	return level && a->vote != level &&
	       d->solo_epoch == ctx->shape_epoch && !dmn__pstate_timed(ctx) &&
	       (level == d->pstate || level == d->solo_alt);
}
#endif

/* @att's attachment, or 0 if it names none, on @att's stripe (held): by
 * the word vote_published read of it (@word, in the block @seen; 0 if it
 * read none), whose generation and liveness are the slot's while the
 * stripe is held (no exclusive call runs: each sets them with the slot,
 * dmn__handle_alloc and dmn__handle_release), else by the handle lookup.
 * @want: the word of @att with any vote. */
static inline struct dmn_attachment *
attach_on_stripe(struct dmn_ctx *ctx, dmn_attach_t att, uint64_t want,
		 const struct handle_pub *seen, const uint64_t *word)
{
	const struct handle_table *t = &ctx->attachments;
	if (word && t->pub == seen &&
	    (__atomic_load_n(word, __ATOMIC_RELAXED) >> 32) == (want >> 32)) {
		void *obj = t->objs[(att & HANDLE_SLOT_MASK) - 1u];
		/* A free slot's tag: never with a live word, but cheap. */
		if (!((uintptr_t)obj & 1u))
			return obj;
	}
	return dmn__pd_attach_get(ctx, att);
}

#if DMN_FAST_PATHS
/* Publish @a's vote, final, from @att's stripe (held): to the word
 * vote_published found (@word in the block @seen), unless an exclusive
 * call replaced its block since (holding a stripe, none can now), stored
 * to at an address known from the start, which the next vote's load of
 * it must not be guessed past (a slower vote otherwise); @want is that
 * word for a vote of @level. Else through the table. */
static inline void publish_on_stripe(struct dmn_ctx *ctx, dmn_attach_t att,
				     const struct dmn_attachment *a,
				     uint32_t level, uint64_t want,
				     const struct handle_pub *seen,
				     uint64_t *word)
{
	if (word && ctx->attachments.pub == seen)
		__atomic_store_n(word,
				 a->vote == level ? want
						  : dmn__pub_value(att, a->vote),
				 __ATOMIC_RELAXED);
	else
		dmn__handle_publish(&ctx->attachments, att, a->vote);
}
#endif

/* dmn_vote on a striped context, on the stripe of @att's slot (votes on
 * one attachment meet there; see internal.h): an unchanged vote, a stale
 * handle, or a vote that dmn__txn_vote_chain takes on a chain no other
 * fast path holds. 1 if handled (result in *@err), 0 to take the
 * exclusive path (nothing changed). */
static int vote_striped(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level,
			int *err)
{
	/* From a callback the same vote still gets -EDEADLK: checked
	 * first, as every call does (once: dmn__fast_enter checks again
	 * only for its assertion and error). */
	struct dmn_fast_hold h;
	if ((dmn__held_by_thread || dmn__fast_held) && dmn__reentered(ctx)) {
		*err = dmn__fast_enter(ctx, 0, &h);
		return 1;
	}
	uint64_t *word = 0;
	const struct handle_pub *seen = 0;
	uint64_t want = dmn__pub_value(att, level);
	if (vote_published(ctx, att, level, want, &seen, &word)) {
		*err = 0;
		return 1;
	}
	h.ctx = ctx;
	h.stripe = (att & HANDLE_SLOT_MASK) % DMN_STRIPES;
	dmn__stripe_lock(&ctx->stripes[h.stripe]);
	struct dmn_attachment *a = attach_on_stripe(ctx, att, want, seen, word);
	int handled = 1, op_error = 0;
	*err = 0;
#if DMN_FAST_PATHS
	if (a && vote_on_rail(ctx, a, level)) {
		/* vote_solo's checked path, less what the rail rules out. */
		dmn__fast_push(&h);
		solo_body(ctx, a, level, a->dom->solo_slot, err, &op_error,
			  false, true);
#if DMN_CHECKS
		dmn__check_domain(ctx, a->dom, true);
#endif
		publish_on_stripe(ctx, att, a, level, want, seen, word);
		dmn__fast_pop(&h);
		dmn__fast_result(ctx, *err ? *err : op_error);
		dmn__fast_leave(ctx, &h);
		return 1;
	}
#endif
	if (!a) {
		*err = -EBADF;
	} else if (a->vote != level || (level && ctx->relinked)) {
#if DMN_FAST_PATHS
		dmn__fast_push(&h);
		handled = vote_solo(ctx, a, level, err, &op_error, true);
#if DMN_CHECKS
		/* The domain is this stripe's alone: as vote_changed. */
		if (handled)
			dmn__check_domain(ctx, a->dom, true);
#endif
		handled = handled ||
			  (!ctx->internal_listeners &&
			   dmn__txn_vote_chain(ctx, a, level, err, &op_error,
					       true));
		/* Final: the chain path is done with it. */
		if (handled)
			publish_on_stripe(ctx, att, a, level, want, seen, word);
		dmn__fast_pop(&h);
#else
		handled = 0;
#endif
	}
	if (handled)
		dmn__fast_result(ctx, *err ? *err : op_error);
	dmn__fast_leave(ctx, &h);
	return handled;
}
#endif

int dmn_vote(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level)
{
	if (!ctx)
		return -EINVAL;
#if DMN_STRIPED
	int fast_err;
	if (ctx->stripes && vote_striped(ctx, att, level, &fast_err))
		return fast_err;
#endif
	if (dmn__lock(ctx))
		return -EDEADLK;
	int err = dmn__pd_vote_locked(ctx, att, level);
	dmn__unlock(ctx);
	return err;
}
