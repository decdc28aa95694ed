/* SPDX-License-Identifier: MIT */
/* The context lock and, on a striped context, its stripes (lock.h). */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>

static int nolock_create(void *user, void **lock)
{
	(void)user;
	*lock = 0;
	return 0;
}

static void nolock_op(void *user, void *lock)
{
	(void)user;
	(void)lock;
}

const struct dmn_lock_ops dmn_lock_none = {
	nolock_create, nolock_op, nolock_op, nolock_op, 0,
};

#if defined(DMN_HAVE_PTHREAD)
#include <pthread.h>

static int pthread_lock_create(void *user, void **lock)
{
	(void)user;
	pthread_mutex_t *m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	if (pthread_mutex_init(m, 0)) {
		free(m);
		return -EAGAIN;
	}
	*lock = m;
	return 0;
}

static void pthread_lock_acquire(void *user, void *lock)
{
	(void)user;
	pthread_mutex_lock(lock);
}

static void pthread_lock_release(void *user, void *lock)
{
	(void)user;
	pthread_mutex_unlock(lock);
}

static void pthread_lock_destroy(void *user, void *lock)
{
	(void)user;
	pthread_mutex_destroy(lock);
	free(lock);
}

const struct dmn_lock_ops dmn__default_lock = {
	pthread_lock_create, pthread_lock_acquire, pthread_lock_release,
	pthread_lock_destroy, 0,
};
#define pthread_default(ctx) ((ctx)->lock_ops.acquire == pthread_lock_acquire)

/* The default lock called directly: no indirect call. */
static inline void lock_acquire(struct dmn_ctx *ctx)
{
	if (pthread_default(ctx))
		pthread_mutex_lock(ctx->lock);
	else
		ctx->lock_ops.acquire(ctx->lock_ops.user, ctx->lock);
}

static inline void lock_release(struct dmn_ctx *ctx)
{
	if (pthread_default(ctx))
		pthread_mutex_unlock(ctx->lock);
	else
		ctx->lock_ops.release(ctx->lock_ops.user, ctx->lock);
}
#else
const struct dmn_lock_ops dmn__default_lock = {
	nolock_create, nolock_op, nolock_op, nolock_op, 0,
};

static inline void lock_acquire(struct dmn_ctx *ctx)
{
	ctx->lock_ops.acquire(ctx->lock_ops.user, ctx->lock);
}

static inline void lock_release(struct dmn_ctx *ctx)
{
	ctx->lock_ops.release(ctx->lock_ops.user, ctx->lock);
}
#endif

DMN_TLS struct dmn_ctx *dmn__held_by_thread;
DMN_TLS struct dmn_fast_hold *dmn__fast_held;

int dmn__reentered(const struct dmn_ctx *ctx)
{
	for (const struct dmn_ctx *c = dmn__held_by_thread; c;
	     c = c->held_next)
		if (c == ctx)
			return 1;
	for (const struct dmn_fast_hold *h = dmn__fast_held; h; h = h->next)
		if (h->ctx == ctx)
			return 1;
	return 0;
}

int dmn__lock(struct dmn_ctx *ctx)
{
	if (dmn__reentered(ctx)) {
		DMN_ASSERT(!"re-entrant call into a domino context "
			    "from its own callback or listener");
		return -EDEADLK;
	}
	lock_acquire(ctx);
#if DMN_STRIPED
	/* Ascending, after the context lock: see the order in lock.h. */
	if (ctx->stripes) {
		for (unsigned i = 0; i < DMN_STRIPES; i++)
			dmn__stripe_lock(&ctx->stripes[i]);
		if (!++ctx->fast_epoch)
			dmn__fast_epoch_wrap(ctx);
		/* Odd, before anything this call writes (the fence). */
		__atomic_store_n(&ctx->excl_seq, ctx->excl_seq + 1,
				 __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
	}
#endif
	ctx->held_next = dmn__held_by_thread;
	dmn__held_by_thread = ctx;
	return 0;
}

void dmn__unlock(struct dmn_ctx *ctx)
{
	dmn__check_call_end(ctx);
	dmn__held_by_thread = ctx->held_next;
	ctx->held_next = 0;
#if DMN_STRIPED
	if (ctx->stripes) {
		/* Even, after everything this call wrote. */
		__atomic_store_n(&ctx->excl_seq, ctx->excl_seq + 1,
				 __ATOMIC_RELEASE);
		for (unsigned i = DMN_STRIPES; i > 0; i--)
			dmn__stripe_unlock(&ctx->stripes[i - 1]);
	}
#endif
	lock_release(ctx);
}

/* Stripes for a context on the default lock: a block of DMN_STRIPES + 1
 * lines, the stripes starting on a line boundary. With the user's lock
 * hook there is only the user's lock. */
int dmn__stripes_create(struct dmn_ctx *ctx)
{
#if DMN_STRIPED
	if (!pthread_default(ctx))
		return 0;
	size_t line = sizeof(struct dmn_stripe);
	void *mem = dmn__alloc(ctx, (DMN_STRIPES + 1) * line);
	if (!mem)
		return -ENOMEM;
	uintptr_t at = ((uintptr_t)mem + line - 1) / line * line;
	struct dmn_stripe *s = (struct dmn_stripe *)at;
	for (unsigned i = 0; i < DMN_STRIPES; i++) {
		if (dmn__stripe_init(&s[i])) {
			while (i--)
				dmn__stripe_destroy(&s[i]);
			dmn__free(ctx, mem);
			return -EAGAIN;
		}
	}
	ctx->stripes = s;
	ctx->stripes_mem = mem;
#else
	(void)ctx;
#endif
	return 0;
}

void dmn__stripes_destroy(struct dmn_ctx *ctx)
{
#if DMN_STRIPED
	for (unsigned i = 0; ctx->stripes && i < DMN_STRIPES; i++)
		dmn__stripe_destroy(&ctx->stripes[i]);
	dmn__free(ctx, ctx->stripes_mem);
#else
	(void)ctx;
#endif
}
