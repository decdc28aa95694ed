/* SPDX-License-Identifier: MIT */
/*
 * The default allocation hook: the one private core header every layer may
 * include (docs/architecture.md). A context, a board's pool, a scenario and
 * an SCMI server all take a struct dmn_alloc_ops from their caller and fall
 * back to malloc/free the same way, through this one function.
 */
#ifndef DOMINO_CORE_ALLOC_H
#define DOMINO_CORE_ALLOC_H

#include <domino/context.h>

#include <stdlib.h>

static inline void *dmn__default_alloc(void *user, size_t size)
{
	(void)user;
	return malloc(size);
}

static inline void dmn__default_free(void *user, void *ptr)
{
	(void)user;
	free(ptr);
}

/* @ops when it names both functions; else malloc and free (user NULL).
 * Callers that refuse a hook with only one of the two check that first.
 * Inline, so that libdomino-tools, which reaches libdomino.so through its
 * exported functions alone, has it too (README, What links what). */
static inline struct dmn_alloc_ops
dmn__alloc_ops_or_default(const struct dmn_alloc_ops *ops)
{
	if (ops && ops->alloc && ops->free)
		return *ops;
	struct dmn_alloc_ops use = {dmn__default_alloc, dmn__default_free, 0};
	return use;
}

#endif /* DOMINO_CORE_ALLOC_H */
