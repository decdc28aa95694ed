/* SPDX-License-Identifier: MIT */
/* The contended halves of the stripe lock (stripe.h): the classic
 * three-state futex mutex. A thread that finds the word held marks it
 * 2 ("someone may sleep") and sleeps while it stays 2; the holder that
 * releases a 2 wakes one sleeper, which takes the word as 2 again (it
 * cannot know whether others still sleep). */
/* syscall() is not POSIX. */
#define _DEFAULT_SOURCE 1
#include "internal.h"

#if DMN_STRIPED && DMN_STRIPE_FUTEX
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void dmn__stripe_wait(struct dmn_stripe *s)
{
	while (__atomic_exchange_n(&s->word, 2, __ATOMIC_ACQUIRE) != 0)
		syscall(SYS_futex, &s->word, FUTEX_WAIT_PRIVATE, 2, 0, 0, 0);
}

void dmn__stripe_wake(struct dmn_stripe *s)
{
	syscall(SYS_futex, &s->word, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
}
#else
typedef int dmn__stripe_unused;
#endif
