/* SPDX-License-Identifier: MIT */
/*
 * Invariants checked live, SQLite's way: DMN_ASSERT inside the functions
 * that keep them, and check.c's whole-domain checks where the engine has
 * just settled a transaction. On in debug builds (no NDEBUG) and wherever
 * DMN_DEBUG asks for them (the library the tests link, domino_checked);
 * off in Release and in the firmware build (-DNDEBUG).
 */
#ifndef DOMINO_CORE_DEBUG_H
#define DOMINO_CORE_DEBUG_H

#include <stdbool.h>

#if defined(DMN_DEBUG) || !defined(NDEBUG)
#define DMN_CHECKS 1
#undef NDEBUG
#include <assert.h>
#define DMN_ASSERT(cond) assert(cond)
#else
#define DMN_CHECKS 0
#define DMN_ASSERT(cond) ((void)0)
#endif

#endif /* DOMINO_CORE_DEBUG_H */
