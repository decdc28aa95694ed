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

/* @ops when it names both functions; else malloc and free (user NULL).
 * Callers that refuse a hook with only one of the two check that first. */
struct dmn_alloc_ops dmn__alloc_ops_or_default(const struct dmn_alloc_ops *ops);

#endif /* DOMINO_CORE_ALLOC_H */
