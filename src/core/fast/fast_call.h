/* SPDX-License-Identifier: MIT */
/*
 * The fast unit's entry (fast.h), inline in the public calls that ask it
 * (runtime.c) so that a driver's vote costs no call more than genpd's:
 * the stripe, the published unchanged vote and the rail (rail.h); a
 * chain and the counts are fast.c's. Included by fast.h only, after the
 * rest of internal.h.
 */
#ifndef DOMINO_CORE_FAST_CALL_H
#define DOMINO_CORE_FAST_CALL_H

#include <errno.h>

#include "rail.h"

/* fast.c */
int dmn__fast_vote_chain(struct dmn_ctx *ctx, struct dmn_attachment *a,
			 uint32_t level, int *op_error);
int dmn__fast_usage(struct dmn_ctx *ctx, dmn_device_t h, bool get);

/* ---- the stripe --------------------------------------------------------- */

/* Enter stripe @stripe. @hold lives on the caller's stack until
 * fast_stripe_leave. Holding a stripe, nothing is created, removed or
 * relinked, and no exclusive call runs; fast paths on other stripes do. */
static inline void fast_stripe_enter(struct dmn_ctx *ctx, unsigned stripe,
				     struct dmn_fast_hold *hold)
{
	hold->ctx = ctx;
	hold->stripe = stripe;
	dmn__stripe_lock(&ctx->stripes[stripe]);
}

static inline void fast_stripe_leave(struct dmn_ctx *ctx,
				const struct dmn_fast_hold *hold)
{
	dmn__stripe_unlock(&ctx->stripes[hold->stripe]);
}

/* Around anything that may run a callback or a listener: from there on a
 * call back into @hold's context is refused (dmn__reentered). */
static inline void fast_hold_push(struct dmn_fast_hold *hold)
{
	hold->next = dmn__fast_held;
	dmn__fast_held = hold;
}

static inline void fast_hold_pop(const struct dmn_fast_hold *hold)
{
	dmn__fast_held = hold->next;
}

/* dmn_last_error() from a fast path: fast paths on other stripes write it
 * too, so atomically, and only when it changes, so that two threads whose
 * calls succeed do not pass its cache line back and forth. */
static inline void fast_result(struct dmn_ctx *ctx, int err)
{
	if (__atomic_load_n(&ctx->last_error, __ATOMIC_RELAXED) != err)
		__atomic_store_n(&ctx->last_error, err, __ATOMIC_RELAXED);
}

/* ---- published votes ----------------------------------------------------- */

/* What dmn_vote read of an attachment's published word before taking its
 * stripe: the word (NULL if the handle names no slot of the block), its
 * value, and ctx->excl_seq before it. */
struct fast_seen {
	uint64_t *word;
	uint64_t value;
	unsigned seq;
};

/* Whether @att is a live attachment whose vote is @level, read without a
 * lock from its published word (handle.h, struct handle_pub),
 * dmn_last_error() is 0 already, and no link moved above a non-zero vote
 * (ctx->relinked): then dmn_vote has nothing to do and nothing to record.
 * What it read is left in *@seen for the stripe's lookup and the publish
 * that follow a change. Correct under concurrent writers because
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
 * false means "take the stripe", never an error. */
static inline bool fast_vote_published(struct dmn_ctx *ctx, dmn_attach_t att,
				       uint32_t level, uint64_t want,
				       struct fast_seen *seen)
{
	seen->seq = __atomic_load_n(&ctx->excl_seq, __ATOMIC_ACQUIRE);
	const struct handle_pub *p =
		__atomic_load_n(&ctx->attachments.pub, __ATOMIC_ACQUIRE);
	uint32_t slot = att & HANDLE_SLOT_MASK;
	seen->word = 0;
	if (!p || (att >> 30) != HK_ATTACH || slot - 1u >= p->cap)
		return false;
	seen->word = dmn__pub_word(p, slot - 1);
	seen->value = __atomic_load_n(seen->word, __ATOMIC_RELAXED);
	/* A vote that changes something (half of every pair) leaves here,
	 * with the word for the publish to come. */
	if ((seen->seq & 1u) ||
	    (seen->value & ~HANDLE_PUB_STRIPE_MASK) != want)
		return false;
	int last = __atomic_load_n(&ctx->last_error, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	/* ctx->relinked last, and only for an unchanged non-zero vote: it is
	 * set by exclusive calls and never cleared, so a read after the
	 * sequence's acquire load sees every store an earlier exclusive
	 * call made, and a later one only sends this call the locked way. */
	return __atomic_load_n(&ctx->excl_seq, __ATOMIC_RELAXED) == seen->seq &&
	       !last &&
	       !(level && __atomic_load_n(&ctx->relinked, __ATOMIC_RELAXED));
}

/* Whether what @seen read still holds on the stripe it named (held): no
 * exclusive call ran since (ctx->excl_seq did not move: each takes every
 * stripe, moves the sequence twice and lets go, before this stripe was
 * taken), so the block, the word and the slot are as read, and the word's
 * generation and liveness (@want: @att's word with any vote) name @att.
 * Then the stripe is the one of @att's domain, and the word is this
 * attachment's to publish to. */
static inline bool fast_seen_holds(const struct dmn_ctx *ctx,
				   const struct fast_seen *seen, uint64_t want)
{
	return __atomic_load_n(&ctx->excl_seq, __ATOMIC_RELAXED) == seen->seq &&
	       !((seen->value ^ want) & HANDLE_PUB_ID);
}

/* Publish @a's vote, final, from its domain's stripe (@stripe, held) to
 * its word @word, found before the stripe was taken (an address known
 * from the start, which the next vote's load of it must not be guessed
 * past: a slower vote otherwise). Recomputed here rather than kept from
 * before the vote, which would hold registers across the callback. */
static inline void fast_publish(dmn_attach_t att, const struct dmn_attachment *a,
				uint64_t *word, unsigned stripe)
{
	__atomic_store_n(word,
			 (uint64_t)stripe << HANDLE_PUB_STRIPE_SHIFT |
				 dmn__pub_value(att, a->vote),
			 __ATOMIC_RELAXED);
}

/* dmn_vote: an unchanged vote, or a vote the rail (vote_rail) or the
 * chain (dmn__fast_vote_chain) takes. On the stripe of the attachment's
 * domain, which its published word names: a handle whose word says
 * otherwise (stale, or read while an exclusive call ran) goes the
 * exclusive way, which says -EBADF. */
static inline int fast_vote(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level)
{
	struct fast_seen seen;
	uint64_t want = dmn__pub_value(att, level);
	if (fast_vote_published(ctx, att, level, want, &seen))
		return 0;
	if (!seen.word)
		return DMN_FAST_UNHANDLED;
	struct dmn_fast_hold hold;
	fast_stripe_enter(ctx, dmn__pub_stripe(seen.value), &hold);
	struct dmn_attachment *a = 0;
	if (fast_seen_holds(ctx, &seen, want)) {
		a = ctx->attachments.objs[(att & HANDLE_SLOT_MASK) - 1u];
		DMN_ASSERT(!((uintptr_t)a & 1u) && "a live word, a live slot");
		DMN_ASSERT(hold.stripe == dmn__slot_stripe(a->dom->handle) &&
			   "a vote takes its domain's stripe");
	}
	int err = 0, op_error = 0;
	if (!a) {
		err = DMN_FAST_UNHANDLED;
	} else if (a->vote != level || (level && ctx->relinked)) {
		fast_hold_push(&hold);
		err = vote_rail(ctx, a, level, &op_error);
		if (err == DMN_FAST_UNHANDLED)
			err = dmn__fast_vote_chain(ctx, a, level, &op_error);
		if (err != DMN_FAST_UNHANDLED)
			fast_publish(att, a, seen.word, hold.stripe);
		fast_hold_pop(&hold);
	}
	if (err != DMN_FAST_UNHANDLED)
		fast_result(ctx, err ? err : op_error);
	fast_stripe_leave(ctx, &hold);
	return err;
}

static inline int dmn__fast_call(struct dmn_ctx *ctx, enum dmn_fast_op op,
				 uint32_t h, uint32_t level)
{
	if (!ctx->stripes)
		return DMN_FAST_UNHANDLED;
	/* From a callback or a listener: -EDEADLK, as every call. */
	if ((dmn__held_by_thread || dmn__fast_held) && dmn__reentered(ctx)) {
		DMN_ASSERT(!"re-entrant call into a domino context "
			    "from its own callback or listener");
		return -EDEADLK;
	}
	return op == DMN_FAST_VOTE ? fast_vote(ctx, h, level)
				   : dmn__fast_usage(ctx, h, op == DMN_FAST_GET);
}

#endif /* DOMINO_CORE_FAST_CALL_H */
