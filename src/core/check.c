/* SPDX-License-Identifier: MIT */
/*
 * Live invariants (docs/testing.md): what the headers promise about a domain's
 * inputs, checked where the engine has just settled them. Compiled only
 * where DMN_CHECKS is set (internal.h: debug builds, and the library the
 * tests link, built with DMN_DEBUG); a broken invariant stops the program
 * through DMN_ASSERT, naming the rule in the assertion text.
 *
 * Each check costs O(attachments + children + distinct levels) of the
 * domain, so the engine calls them only for the domains a transaction
 * touched, and a vote on the fast path only for its domain.
 */
#include "internal.h"

#if DMN_CHECKS

bool dmn__lock_held(const struct dmn_ctx *ctx)
{
	for (const struct dmn_ctx *c = dmn__held_by_thread; c; c = c->held_next)
		if (c == ctx)
			return true;
#if DMN_STRIPED
	/* A fast path holds a stripe and its chain's domain locks. */
	for (const struct dmn_fast_hold *f = dmn__fast_held; f; f = f->next)
		if (f->ctx == ctx)
			return true;
#endif
	return false;
}

/* Whether @d's bins are sorted by level, one per level (a bin may be
 * empty: the engine's within an operation, the fast unit's rail's between
 * them, level_hist.h; the max is level_hist_max's). */
static bool bins_sorted(const struct dmn_domain *d)
{
	for (unsigned i = 1; i < d->votes.n; i++)
		if (d->votes.bins[i - 1].level >= d->votes.bins[i].level)
			return false;
	return true;
}

/* Whether the counted inputs of @d, plus @boot (0: none), are exactly the
 * multiset in d->votes: compared by count, maximum and per-level total. */
static bool votes_match(const struct dmn_domain *d, uint32_t boot)
{
	uint64_t inputs = boot ? 1 : 0, in_hist = 0;
	uint32_t max = boot;
	for (const struct dmn_attachment *a = d->att_head; a; a = a->dom_next) {
		if (!a->counted || !a->vote)
			continue;
		inputs++;
		if (a->vote > max)
			max = a->vote;
	}
	for (unsigned c = 0; c < d->n_children; c++) {
		const struct dmn_link *l = d->children[c];
		if (!l->req)
			continue;
		inputs++;
		if (l->req > max)
			max = l->req;
	}
	uint32_t hist_max = 0;
	for (unsigned i = 0; i < d->votes.n; i++) {
		in_hist += d->votes.bins[i].count;
		if (d->votes.bins[i].count)
			hist_max = d->votes.bins[i].level;
	}
	return inputs == in_hist && max == hist_max;
}

void dmn__check_domain(const struct dmn_ctx *ctx, const struct dmn_domain *d,
		       bool settled)
{
	DMN_ASSERT(dmn__lock_held(ctx) &&
		   "the engine runs with the context lock held");
	unsigned counted = 0, n_atts = 0;
	for (const struct dmn_attachment *a = d->att_head; a; a = a->dom_next) {
		n_atts++;
		DMN_ASSERT(a->dom == d && "an attachment lists its domain");
		if (!a->counted)
			continue;
		counted++;
		DMN_ASSERT(a->dev->usage > 0 &&
			   "only an active device's votes count");
	}
	DMN_ASSERT(n_atts == d->n_attachments &&
		   "n_attachments counts the domain's attachment list");
	DMN_ASSERT(d->active_devices == counted &&
		   "active_devices counts the counted attachments");
	unsigned on = 0;
	for (unsigned c = 0; c < d->n_children; c++) {
		const struct dmn_link *l = d->children[c];
		DMN_ASSERT(l->parent == d && "a child link names its parent");
		on += l->child_on;
	}
	DMN_ASSERT(d->on_children == on &&
		   "on_children counts the links whose child is on");
	DMN_ASSERT(bins_sorted(d) &&
		   "the aggregate's bins are sorted and distinct");
	/* The boot level counts while the domain is held. A commit that
	 * failed restored the inputs, but the caller (lifecycle.c) puts
	 * held back only after it returns: then either is right. */
	uint32_t boot = dom_cold(d)->held ? dom_cold(d)->boot_level : 0;
	DMN_ASSERT((votes_match(d, boot) ||
		    (!settled && votes_match(d, boot ? 0 : dom_cold(d)->boot_level))) &&
		   "the aggregate is the max of the counted votes, child "
		   "requirements and boot level, each counted once");
}

void dmn__check_votes(const struct dmn_ctx *ctx, const struct dmn_domain *d)
{
	DMN_ASSERT(dmn__lock_held(ctx) && "a fast path holds a stripe");
	DMN_ASSERT(bins_sorted(d) &&
		   "the aggregate's bins are sorted and distinct");
	DMN_ASSERT(votes_match(d, dom_cold(d)->held ? dom_cold(d)->boot_level
						      : 0) &&
		   "the aggregate is the max of the counted votes, child "
		   "requirements and boot level, each counted once");
}

void dmn__check_txn_end(const struct dmn_ctx *ctx, bool committed)
{
	DMN_ASSERT(dmn__lock_held(ctx) &&
		   "the engine runs with the context lock held");
	/* ctx->order still lists the domains the transaction touched. */
	for (unsigned i = 0; i < ctx->n_order; i++)
		dmn__check_domain(ctx, ctx->order[i], committed);
}

void dmn__check_call_end(const struct dmn_ctx *ctx)
{
	DMN_ASSERT(dmn__lock_held(ctx) &&
		   "a public call releases the lock it holds");
	/* Domains touched but never committed would keep inputs the
	 * hardware never saw. (An undo log may stay behind: a change that
	 * needs no commit, such as a new map on a link whose child is off,
	 * logs one, and the next transaction starts a fresh log.) */
	DMN_ASSERT(ctx->n_order == 0 &&
		   "a public call leaves no transaction open (commit or "
		   "abort)");
}

#else
/* ISO C wants a translation unit to declare something. */
typedef int dmn__check_unused;
#endif
