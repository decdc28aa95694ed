/* SPDX-License-Identifier: MIT */
#include "internal.h"
#include "alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(DMN_HAVE_CLOCK_GETTIME)
#include <time.h>
#endif

static uint64_t default_now(void *user)
{
	(void)user;
#if defined(DMN_HAVE_CLOCK_GETTIME)
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#else
	return 0;
#endif
}

/* The clock of pstate residency when the caller gave none and asked for
 * it (DMN_CFG_TIME_PSTATES; without, none is read at all): the monotonic
 * clock's tick-granular variant, a memory read where CLOCK_MONOTONIC is a
 * counter read and scaling (~20-55 ns on a KVM guest): a vote that moves
 * a level would otherwise spend most of its time here. Linux's cpufreq
 * and devfreq time their time_in_state in jiffies the same way; genpd
 * keeps no pstate residency at all. Same epoch as default_now, so the
 * residencies still add up to the elapsed time exactly (stats.c). */
#if defined(DMN_FIRMWARE)
/* (not used: see dmn_ctx_create) */
#elif defined(DMN_HAVE_CLOCK_GETTIME) && defined(CLOCK_MONOTONIC_COARSE)
static uint64_t default_pstate_now(void *user)
{
	(void)user;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#else
#define default_pstate_now default_now /* no coarse clock: the same one */
#endif

/* A striped context on the default allocator gives every block whole
 * cache lines of its own: two threads' fast paths write their own
 * domains, histograms, statistics, links and attachments, and blocks
 * handed out side by side (or into a hole another tree's growth left)
 * made them write one line, which cost two threads on disjoint domains
 * a third of their throughput (docs/decisions/locking.md). The
 * user's allocation hook has no alignment, so it gets the sizes asked. */
#define DMN_LINE 64u

int dmn__alloc_whole_lines(const struct dmn_ctx *ctx)
{
	return DMN_STRIPED && ctx->stripes && ctx->alloc.alloc == dmn__default_alloc;
}

void *dmn__alloc(struct dmn_ctx *ctx, size_t size)
{
	size = size ? size : 1;
#if DMN_STRIPED /* aligned_alloc: hosted C11 only */
	if (dmn__alloc_whole_lines(ctx))
		return size > (size_t)-1 - DMN_LINE
			       ? NULL
			       : aligned_alloc(DMN_LINE,
					       (size + DMN_LINE - 1) /
						       DMN_LINE * DMN_LINE);
#endif
	return ctx->alloc.alloc(ctx->alloc.user, size);
}

void dmn__free(struct dmn_ctx *ctx, void *ptr)
{
	if (ptr)
		ctx->alloc.free(ctx->alloc.user, ptr);
}

char *dmn__strdup(struct dmn_ctx *ctx, const char *s)
{
	size_t len = strlen(s) + 1;
	char *copy = dmn__alloc(ctx, len);
	if (copy)
		memcpy(copy, s, len);
	return copy;
}

int dmn__grow(struct dmn_ctx *ctx, void **array, unsigned *cap,
		  unsigned need, size_t elem)
{
	if (need <= *cap)
		return 0;
	/* Start at what is needed: most lists (a device's domains, a
	 * domain's parents) hold one or two. */
	unsigned new_cap = *cap ? *cap : need;
	while (new_cap < need) {
		if (new_cap > (~0u) / 2)
			return -ENOMEM;
		new_cap *= 2;
	}
	if ((size_t)new_cap > ((size_t)-1) / elem)
		return -ENOMEM;
	void *bigger = dmn__alloc(ctx, (size_t)new_cap * elem);
	if (!bigger)
		return -ENOMEM;
	if (*array) {
		memcpy(bigger, *array, (size_t)*cap * elem);
		dmn__free(ctx, *array);
	}
	*array = bigger;
	*cap = new_cap;
	return 0;
}

void dmn__emit(struct dmn_ctx *ctx, const struct dmn_event *ev)
{
	for (unsigned i = 0; i < ctx->n_listeners; i++)
		ctx->listeners[i].fn(ctx->listeners[i].user, ctx, ev);
}

int dmn_ctx_create(const struct dmn_config *cfg, struct dmn_ctx **out)
{
	struct dmn_config defaults;
	if (!out)
		return -EINVAL;
	*out = 0;
	if (!cfg) {
		memset(&defaults, 0, sizeof(defaults));
		cfg = &defaults;
	}
	if (!cfg->alloc.alloc != !cfg->alloc.free)
		return -EINVAL;
#ifndef DMN_FIRMWARE
	if (cfg->flags & ~DMN_CFG_TIME_PSTATES) /* firmware: ignored */
		return -EINVAL;
#endif
	struct dmn_alloc_ops alloc = dmn__alloc_ops_or_default(&cfg->alloc);
	struct dmn_lock_ops lock = cfg->lock;
	if (!lock.create)
		lock = dmn__default_lock;
	if (!lock.acquire || !lock.release || !lock.destroy)
		return -EINVAL;

	struct dmn_ctx *ctx = alloc.alloc(alloc.user, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	memset(ctx, 0, sizeof(*ctx));
	ctx->alloc = alloc;
	ctx->lock_ops = lock;
	ctx->now = cfg->now ? cfg->now : default_now;
	/* NULL: pstate residency is not timed (struct dmn_config). */
#ifdef DMN_FIRMWARE
	ctx->pstate_now = cfg->now ? cfg->now : default_now;
#else
	ctx->pstate_now = cfg->now ? cfg->now
		: cfg->flags & DMN_CFG_TIME_PSTATES ? default_pstate_now : 0;
#endif
	ctx->now_user = cfg->now ? cfg->now_user : 0;
	/* The tables' other fields are the memset's zeros. */
	ctx->domains.kind = HK_DOMAIN;
	ctx->devices.kind = HK_DEVICE;
	ctx->attachments.kind = HK_ATTACH;
	ctx->domains.ordered = ctx->devices.ordered = true;
	/* Room for a few listeners from the start, so that the usual ones
	 * (a trace, the OPP layer's follower) never need memory later. */
	int err = dmn__grow(ctx, (void **)&ctx->listeners, &ctx->cap_listeners,
			   8, sizeof(*ctx->listeners));
	if (!err)
		err = lock.create(lock.user, &ctx->lock);
	if (!err)
		err = dmn__stripes_create(ctx);
	if (err) {
		if (ctx->lock)
			lock.destroy(lock.user, ctx->lock);
		dmn__free(ctx, ctx->listeners);
		alloc.free(alloc.user, ctx);
		return err < 0 ? err : -EAGAIN;
	}
	*out = ctx;
	return 0;
}

int dmn__listen_add(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user)
{
	int err = dmn__grow(ctx, (void **)&ctx->listeners, &ctx->cap_listeners,
			   ctx->n_listeners + 1, sizeof(*ctx->listeners));
	if (err)
		return err;
	ctx->listeners[ctx->n_listeners].fn = fn;
	ctx->listeners[ctx->n_listeners].user = user;
	ctx->n_listeners++;
	return 0;
}

int dmn__listen_remove(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user)
{
	for (unsigned i = 0; i < ctx->n_listeners; i++) {
		if (ctx->listeners[i].fn != fn || ctx->listeners[i].user != user)
			continue;
		memmove(&ctx->listeners[i], &ctx->listeners[i + 1],
			(ctx->n_listeners - i - 1) * sizeof(ctx->listeners[0]));
		ctx->n_listeners--;
		return 0;
	}
	return -ENOENT;
}

int dmn_listen(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user)
{
	int err = dmn__enter_ctx(ctx, fn);
	if (err)
		return err;
	err = dmn__listen_add(ctx, fn, user);
	dmn__unlock(ctx);
	return err;
}

int dmn_last_error(struct dmn_ctx *ctx)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	err = ctx->last_error;
	dmn__unlock(ctx);
	return err;
}

uint64_t dmn_now(struct dmn_ctx *ctx)
{
	return ctx ? ctx->now(ctx->now_user) : 0;
}
