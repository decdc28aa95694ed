/* SPDX-License-Identifier: MIT */
/*
 * Invariants checked live, SQLite's way: DMN_ASSERT inside the functions
 * that keep them, and check.c's whole-domain checks where the engine has
 * just settled a transaction. On in debug builds (no NDEBUG) and wherever
 * DMN_DEBUG asks for them (the library the tests link, domino_checked);
 * off in Release and in the firmware build (-DNDEBUG).
 */
#ifndef DOMINO_CORE_DEBUG_H
#define DOMINO_CORE_DEBUG_H

#include <stdbool.h>

#if defined(DMN_DEBUG) || !defined(NDEBUG)
#define DMN_CHECKS 1
#undef NDEBUG
#include <assert.h>
#define DMN_ASSERT(cond) assert(cond)
#else
#define DMN_CHECKS 0
#define DMN_ASSERT(cond) ((void)0)
#endif

#if defined(__GNUC__)
#define DMN_MUST_CHECK __attribute__((warn_unused_result))
/* One out-of-line copy of a helper with several callers: -Os would inline
 * it at each, and the firmware core's budget is counted in bytes. */
#define DMN_NOINLINE __attribute__((noinline))
#else
#define DMN_MUST_CHECK
#define DMN_NOINLINE
#endif

struct dmn_ctx;
struct dmn_domain;

#if DMN_CHECKS
/* check.c. Does this thread hold @ctx's lock (exclusive or a fast path)? */
bool dmn__lock_held(const struct dmn_ctx *ctx);
/* @d's usage counts (active devices, on children) and its aggregate (the
 * max of its counted votes, child requirements and boot hold). @settled:
 * a committed transaction or a fast-path vote; false after a rollback or
 * an abort, whose caller may still be restoring the boot hold. */
void dmn__check_domain(const struct dmn_ctx *ctx, const struct dmn_domain *d,
		       bool settled);
/* @d's aggregate against its counted votes, child requirements and boot
 * hold, from a fast path holding @d's stripe: what that stripe guards
 * (the devices' counts are their own stripes'). */
void dmn__check_votes(const struct dmn_ctx *ctx, const struct dmn_domain *d);
/* Every domain the ending transaction touched (ctx->order). */
void dmn__check_txn_end(const struct dmn_ctx *ctx, bool committed);
/* A public call about to release the lock: no transaction left open. */
void dmn__check_call_end(const struct dmn_ctx *ctx);
#else
#define dmn__check_domain(ctx, d, settled) ((void)0)
#define dmn__check_votes(ctx, d) ((void)0)
#define dmn__check_txn_end(ctx, committed) ((void)0)
#define dmn__check_call_end(ctx) ((void)0)
#endif

#endif /* DOMINO_CORE_DEBUG_H */
