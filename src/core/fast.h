/* SPDX-License-Identifier: MIT */
/*
 * The fast unit (src/core/fast/), built when CMake's DOMINO_FAST_PATHS is
 * on (DMN_FAST_PATHS): on a striped context (lock.h) it takes a vote, a
 * get or a put on one stripe, without the exclusive lock, when its effect
 * stays inside one device or one chain of domains that are on. It decides
 * exactly as the engine (txn.c) would: the same callbacks, events,
 * statistics and errors (tests/core: every equivalence test runs against
 * a build with the unit and one without).
 *
 * One entry: dmn__fast_call answers the call (0 or a negative errno) or
 * says DMN_FAST_UNHANDLED, having changed nothing, and the caller takes the
 * exclusive lock and the engine.
 */
#ifndef DOMINO_CORE_FAST_H
#define DOMINO_CORE_FAST_H

#include <stdint.h>

struct dmn_ctx;

#define DMN_FAST_UNHANDLED 1

enum dmn_fast_op {
	DMN_FAST_VOTE, /* dmn_vote(@h, @level) */
	DMN_FAST_GET,  /* dmn_device_get(@h) */
	DMN_FAST_PUT,  /* dmn_device_put(@h) */
};

#if DMN_FAST_PATHS
/* ctx->fast_epoch wrapped to 0 (dmn__lock): every domain's mark is
 * dropped and the count starts again at 1. */
void dmn__fast_epoch_wrap(struct dmn_ctx *ctx);
/* The entry itself: fast/fast_call.h, inline where it is called. */
#else
static inline int dmn__fast_call(struct dmn_ctx *ctx, enum dmn_fast_op op,
				 uint32_t h, uint32_t level)
{
	(void)ctx, (void)op, (void)h, (void)level;
	return DMN_FAST_UNHANDLED;
}
#endif

/* A file of the library (DMN_HAVE_PTHREAD: striped) gets the entry
 * itself; a test that includes internal.h for the object model only does
 * not need it. */
#if DMN_STRIPED
#include "fast/fast_call.h"
#endif

#endif /* DOMINO_CORE_FAST_H */
