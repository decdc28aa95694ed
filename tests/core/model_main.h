/* SPDX-License-Identifier: MIT */
/* The seeds of the randomized model tests (test_core_model*.c): the fixed
 * seeds 1..@n_seeds (ctest), DOMINO_SEED=N one seed instead, DOMINO_RANDOM=1
 * one more from the clock; DOMINO_OPS=N operations per seed. */
#ifndef DOMINO_TESTS_CORE_MODEL_MAIN_H
#define DOMINO_TESTS_CORE_MODEL_MAIN_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

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
