/* SPDX-License-Identifier: MIT */
/* The seed of the multi-threaded stress tests. */
#ifndef DOMINO_TESTS_CORE_TEST_SEED_H
#define DOMINO_TESTS_CORE_TEST_SEED_H

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

#endif
