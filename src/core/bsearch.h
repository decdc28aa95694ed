/* SPDX-License-Identifier: MIT */
/*
 * The one binary search of the library: every sorted array in every layer
 * (a domain's levels, an OPP table, a blob's nodes, a model's names) is
 * searched with it. A private core header every layer may include
 * (docs/architecture.md, Layers).
 */
#ifndef DOMINO_CORE_BSEARCH_H
#define DOMINO_CORE_BSEARCH_H

#include <stdbool.h>
#include <stddef.h>

/* The first index in [0, @n) whose element does not sort before @key, or
 * @n if none: @before(@base, i, @key) says whether element i sorts before
 * the key, and is true for a prefix of the indexes only. O(log n) calls
 * of @before. */
static inline size_t dmn__lower_bound(size_t n, const void *base,
				      const void *key,
				      bool (*before)(const void *base,
						     size_t i,
						     const void *key))
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (before(base, mid, key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif /* DOMINO_CORE_BSEARCH_H */
