/* SPDX-License-Identifier: MIT */
/*
 * Locking (docs/architecture.md, Locking):
 *
 * - exclusive: dmn__lock takes the context lock and then, on a striped
 *   context, every stripe in ascending index order. Every public call
 *   the fast unit does not take runs so, alone in the context.
 * - fast (the fast unit, src/core/fast/, on a striped context): a vote or
 *   get/put whose effect stays inside one chain of domains (or one
 *   device) takes ONE stripe (dmn__slot_stripe: a vote its domain's,
 *   named in the attachment's published word; a get or put its
 *   device's), which pins every object and the structure (no exclusive
 *   call can run), and then the fast_lock of each other domain of the
 *   chain it changes (of its own too when that has children), child
 *   before parent, each with a bounded spin: on a busy domain it lets go
 *   of everything and the call takes the exclusive path. So the only
 *   blocking waits are for the context lock holding nothing, or for a
 *   stripe holding the context lock and lower stripes only; the spins
 *   point up the tree and end: no cycle, no deadlock.
 *
 * Only contexts on the default pthread lock of a build with the fast unit
 * are striped: with the user's lock hook (or dmn_lock_none, firmware) the
 * one user lock is all there is, and every call runs under it.
 */
#ifndef DOMINO_CORE_LOCK_H
#define DOMINO_CORE_LOCK_H

#include "ctx.h"

#if DMN_FAST_PATHS && defined(DMN_HAVE_PTHREAD) && !defined(__STDC_NO_THREADS__)
#define DMN_STRIPED 1
#else
#define DMN_STRIPED 0
#endif

/* The contexts whose lock this thread holds exclusively, innermost first,
 * linked through held_next (a context is held by one thread at a time),
 * and the fast paths it is in, innermost first, in nodes on its stack. A
 * call from a callback or listener into a context of either list would
 * deadlock on the default lock and corrupt state without one. */
struct dmn_fast_hold {
	struct dmn_ctx *ctx;
	struct dmn_fast_hold *next;
	unsigned stripe;
};
#if defined(DMN_HAVE_PTHREAD)
#if defined(__GNUC__)
#define DMN_TLS _Thread_local __attribute__((tls_model("initial-exec")))
#else
#define DMN_TLS _Thread_local
#endif
#else
#define DMN_TLS /* one thread (firmware) */
#endif
extern DMN_TLS struct dmn_ctx *dmn__held_by_thread;
extern DMN_TLS struct dmn_fast_hold *dmn__fast_held;

/* The default lock's hooks (lock.c): the pthread mutex, called directly
 * by dmn__lock, or dmn_lock_none where there are no threads. */
extern const struct dmn_lock_ops dmn__default_lock;

/* Make @ctx striped if it is on the default lock (context creation), and
 * free its stripes (dmn_ctx_destroy): 0, -ENOMEM or -EAGAIN. */
int dmn__stripes_create(struct dmn_ctx *ctx);
void dmn__stripes_destroy(struct dmn_ctx *ctx);

#if DMN_STRIPED
/* How many stripes a striped context has: enough that a few threads on
 * disjoint handles rarely meet, few enough that the exclusive path's
 * extra lock pairs stay small (16 uncontended pairs). */
#define DMN_STRIPES 16u
#include "stripe.h"

/* The word of the attachment in slot index @slot among a striped
 * context's published votes (handle.h, struct handle_pub), in the group
 * of (slot + 1) % DMN_STRIPES: neighbouring slots, written by votes on
 * different domains and so on different stripes, fall on different
 * cache lines. */
static inline uint64_t *dmn__pub_word(const struct handle_pub *p,
				      uint32_t slot)
{
	return &p->w[(size_t)((slot + 1u) % DMN_STRIPES) * p->per +
		     (slot + 1u) / DMN_STRIPES];
}

/* The word that says handle @h is live and its vote is @vote. */
static inline uint64_t dmn__pub_value(uint32_t h, uint32_t vote)
{
	return ((uint64_t)((h >> 20) & HANDLE_GEN_MASK) << 33) |
	       HANDLE_PUB_LIVE | vote;
}

/* The stripe a vote through handle @h takes: the one of @h's domain,
 * read from its published word @word (the stripe bits). Every vote on a
 * domain meets there, so a domain that no other fast path reaches (no
 * parent, no child) needs no lock of its own. */
static inline unsigned dmn__pub_stripe(uint64_t word)
{
	return (unsigned)(word >> HANDLE_PUB_STRIPE_SHIFT) & (DMN_STRIPES - 1u);
}

/* The stripe of handle @h's slot: a device's get and put take it, and
 * a domain's is the one every vote on the domain takes. */
static inline unsigned dmn__slot_stripe(uint32_t h)
{
	return (h & HANDLE_SLOT_MASK) % DMN_STRIPES;
}

/* The published word of the attachment handle @h (its table @t). */
static inline uint64_t *dmn__pub_word_of(struct handle_table *t, uint32_t h)
{
	return dmn__pub_word(t->pub, (h & HANDLE_SLOT_MASK) - 1u);
}

/* Publish @vote as the vote of the live attachment @h (its table @t),
 * from an exclusive call (no fast path writes the word meanwhile): every
 * call whose outcome changed a vote, once it is final. The word keeps
 * its domain's stripe. */
static inline void dmn__handle_publish(struct handle_table *t, uint32_t h,
				       uint32_t vote)
{
	if (!t->pub)
		return;
	uint64_t *w = dmn__pub_word_of(t, h);
	uint64_t stripe = __atomic_load_n(w, __ATOMIC_RELAXED) &
			  HANDLE_PUB_STRIPE_MASK;
	__atomic_store_n(w, stripe | dmn__pub_value(h, vote), __ATOMIC_RELAXED);
}

/* Mark the new attachment @h (its table @t) as a vote on the domain whose
 * stripe is @stripe (dmn__slot_stripe of the domain), from the exclusive
 * call that creates it, before anyone has the handle. */
static inline void dmn__handle_publish_stripe(struct handle_table *t,
					      uint32_t h, unsigned stripe)
{
	if (!t->pub)
		return;
	uint64_t *w = dmn__pub_word_of(t, h);
	__atomic_store_n(w, (__atomic_load_n(w, __ATOMIC_RELAXED) &
			     ~HANDLE_PUB_STRIPE_MASK) |
			 (uint64_t)stripe << HANDLE_PUB_STRIPE_SHIFT,
			 __ATOMIC_RELAXED);
}
#else
/* Without stripes nothing reads published votes. */
#define dmn__handle_publish(t, h, vote) ((void)0)
#define dmn__handle_publish_stripe(t, h, stripe) ((void)0)
#endif

#endif /* DOMINO_CORE_LOCK_H */
