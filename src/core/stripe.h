/* SPDX-License-Identifier: MIT */
/* A striped context's stripe lock (internal.h, "Locking"): one word per cache
 * line, taken and released inline with one atomic each when nobody waits, as
 * the kernel mutex genpd votes under is, and with none while the process has
 * one thread (glibc's __libc_single_threaded, which its own mutexes ask too).
 * glibc's pthread_mutex_lock/unlock pair was a quarter of the instructions of a
 * vote that moves a level (docs/decisions/locking.md). Waiters sleep on the
 * word (futex) on Linux; elsewhere the stripe is a pthread mutex. */
#ifndef DMN_STRIPE_H
#define DMN_STRIPE_H

#include <pthread.h>

#if defined(__linux__) && defined(__GNUC__)
#define DMN_STRIPE_FUTEX 1
#else
#define DMN_STRIPE_FUTEX 0
#endif

/* Whether this process has one thread for sure. It only ever goes from
 * true to false, in pthread_create, before the new thread runs: a word
 * taken without an atomic is released with one if a thread came since
 * (a waiter may have marked it 2). */
#if DMN_STRIPE_FUTEX && defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define dmn__one_thread() (__libc_single_threaded != 0)
#endif
#endif
#ifndef dmn__one_thread
#define dmn__one_thread() 0
#endif

/* ThreadSanitizer does not see the futex word as a lock: tell it. */
#if defined(__SANITIZE_THREAD__)
#define DMN_STRIPE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DMN_STRIPE_TSAN 1
#endif
#endif
#if DMN_STRIPE_FUTEX && defined(DMN_STRIPE_TSAN)
#include <sanitizer/tsan_interface.h>
#define DMN_STRIPE_NOTE(what, s) __tsan_mutex_##what((void *)(s), 0)
#define DMN_STRIPE_NOTE_LOCKED(s) __tsan_mutex_post_lock((void *)(s), 0, 0)
#else
#define DMN_STRIPE_NOTE(what, s) ((void)0)
#define DMN_STRIPE_NOTE_LOCKED(s) ((void)0)
#endif

/* One per cache line, so two threads on two stripes never share one. */
struct dmn_stripe {
#if DMN_STRIPE_FUTEX
	/* 0 free, 1 held, 2 held and maybe waited for. */
	unsigned word;
	unsigned char pad[64 - sizeof(unsigned)];
#else
	pthread_mutex_t m;
	unsigned char pad[64 - sizeof(pthread_mutex_t) % 64];
#endif
};

#if DMN_STRIPE_FUTEX
/* The contended halves (stripe.c). */
void dmn__stripe_wait(struct dmn_stripe *s);
void dmn__stripe_wake(struct dmn_stripe *s);
#endif

/* 0, or a positive error number as pthread_mutex_init. */
static inline int dmn__stripe_init(struct dmn_stripe *s)
{
#if DMN_STRIPE_FUTEX
	s->word = 0;
	DMN_STRIPE_NOTE(create, s);
	return 0;
#else
	return pthread_mutex_init(&s->m, 0);
#endif
}

static inline void dmn__stripe_destroy(struct dmn_stripe *s)
{
#if DMN_STRIPE_FUTEX
	DMN_STRIPE_NOTE(destroy, s);
	(void)s;
#else
	pthread_mutex_destroy(&s->m);
#endif
}

static inline void dmn__stripe_lock(struct dmn_stripe *s)
{
#if DMN_STRIPE_FUTEX
	unsigned free_word = 0;
	DMN_STRIPE_NOTE(pre_lock, s);
	if (dmn__one_thread() && !__atomic_load_n(&s->word, __ATOMIC_RELAXED))
		__atomic_store_n(&s->word, 1, __ATOMIC_RELAXED);
	else if (!__atomic_compare_exchange_n(&s->word, &free_word, 1, 0,
					      __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED))
		dmn__stripe_wait(s);
	DMN_STRIPE_NOTE_LOCKED(s);
#else
	pthread_mutex_lock(&s->m);
#endif
}

static inline void dmn__stripe_unlock(struct dmn_stripe *s)
{
#if DMN_STRIPE_FUTEX
	DMN_STRIPE_NOTE(pre_unlock, s);
	if (dmn__one_thread())
		__atomic_store_n(&s->word, 0, __ATOMIC_RELAXED);
	else if (__atomic_exchange_n(&s->word, 0, __ATOMIC_RELEASE) != 1)
		dmn__stripe_wake(s);
	DMN_STRIPE_NOTE(post_unlock, s);
#else
	pthread_mutex_unlock(&s->m);
#endif
}

#endif
