/* SPDX-License-Identifier: MIT */
/* The seeds of the randomized model tests (test_core_model*.c): the fixed
 * seeds 1..@n_seeds (ctest), DOMINO_SEED=N one seed instead, DOMINO_RANDOM=1
 * one more from the clock; DOMINO_OPS=N operations per seed. */
#ifndef DOMINO_TESTS_CORE_MODEL_MAIN_H
#define DOMINO_TESTS_CORE_MODEL_MAIN_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Announce a run of @seed; the first state of its random sequence. */
static inline uint64_t model_start(uint64_t seed)
{
	printf("seed=%" PRIu64 "\n", seed);
	fflush(stdout);
	uint64_t state = seed * 2654435761u + 0x9E3779B97F4A7C15ULL;
	return state ? state : 1;
}

/* Report that the library left the model at operation @op (@desc) of
 * @seed, with how to replay it, and stop the test. */
static inline void model_diverged(uint64_t seed, unsigned long op,
				  const char *desc, const char *fmt,
				  va_list ap)
{
	fprintf(stderr, "DIVERGENCE seed=%" PRIu64 " op=%lu (%s): ", seed, op,
		desc);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nreplay with DOMINO_SEED=%" PRIu64 " DOMINO_OPS=%lu\n",
		seed, op + 1);
	exit(1);
}

static inline int model_main(void (*run)(unsigned long n_ops), uint64_t *seed,
			     unsigned long n_default, unsigned n_seeds)
{
	const char *ops_env = getenv("DOMINO_OPS");
	unsigned long n_ops = ops_env ? strtoul(ops_env, 0, 0) : n_default;
	const char *env = getenv("DOMINO_SEED");
	if (env) {
		*seed = strtoull(env, 0, 0);
		run(n_ops);
		return 0;
	}
	for (*seed = 1; *seed <= n_seeds; ++*seed)
		run(n_ops);
	if (getenv("DOMINO_RANDOM")) {
		*seed = (uint64_t)time(0) ^ (uint64_t)clock();
		run(n_ops);
	}
	return 0;
}

#endif
