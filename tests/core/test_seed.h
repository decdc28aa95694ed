/* SPDX-License-Identifier: MIT */
/* The seed of the multi-threaded stress tests. */
#ifndef DOMINO_TESTS_CORE_TEST_SEED_H
#define DOMINO_TESTS_CORE_TEST_SEED_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* 0 (the fixed run ctest makes) unless DOMINO_SEED=N replays another, or
 * DOMINO_RANDOM=1 asks for one from the clock; printed either way. The
 * thread interleaving still varies from run to run. */
static inline uint64_t stress_seed(void)
{
	static int known;
	static uint64_t seed;
	if (!known) {
		const char *env = getenv("DOMINO_SEED");
		if (env)
			seed = strtoull(env, 0, 0);
		else if (getenv("DOMINO_RANDOM"))
			seed = (uint64_t)time(0) ^ (uint64_t)clock();
		printf("seed=%llu\n", (unsigned long long)seed);
		known = 1;
	}
	return seed;
}

/* xorshift64: each worker's own sequence from the seed. */
static inline unsigned stress_rnd(uint64_t *rng, unsigned n)
{
	*rng ^= *rng << 13;
	*rng ^= *rng >> 7;
	*rng ^= *rng << 17;
	return (unsigned)(*rng % n);
}

/* A watchdog thread that aborts the test (naming @who) if it still runs
 * after 60 s: a deadlock. stress_watchdog_stop() ends it. */
static pthread_mutex_t stress_wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stress_wd_cond = PTHREAD_COND_INITIALIZER;
static bool stress_wd_stop;
static pthread_t stress_wd_thread;

static inline void *stress_watchdog_main(void *who)
{
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 60;
	pthread_mutex_lock(&stress_wd_lock);
	while (!stress_wd_stop) {
		if (pthread_cond_timedwait(&stress_wd_cond, &stress_wd_lock,
					   &deadline) == ETIMEDOUT) {
			fprintf(stderr, "%s: still running after 60 s: "
					"deadlock? aborting\n", (char *)who);
			abort();
		}
	}
	pthread_mutex_unlock(&stress_wd_lock);
	return 0;
}

static inline void stress_watchdog_start(const char *who)
{
	pthread_create(&stress_wd_thread, 0, stress_watchdog_main, (void *)who);
}

static inline void stress_watchdog_stop(void)
{
	pthread_mutex_lock(&stress_wd_lock);
	stress_wd_stop = true;
	pthread_cond_signal(&stress_wd_cond);
	pthread_mutex_unlock(&stress_wd_lock);
	pthread_join(stress_wd_thread, 0);
}

#endif
