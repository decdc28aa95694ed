/* SPDX-License-Identifier: MIT */
/*
 * The one binary search of domino: every sorted array is searched with it,
 * the runtime's (a domain's levels, an OPP table) and those of the layers
 * above it (the loader's phandles and children, lint's nodes, the
 * simulator's names, the SCMI server's handles). One of the private core
 * headers every layer may include (docs/architecture.md, Layers): static
 * inline, so libdomino-tools needs no internal symbol of libdomino for it.
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
