/* SPDX-License-Identifier: MIT */
/* Helpers shared by the device-tree loader tests. */
#ifndef DT_TEST_UTIL_H
#define DT_TEST_UTIL_H

#include <domino/dt.h>
#include <stddef.h>

/* Read DT_CASES_DIR/NAME.dtb; fails the test if missing (it is built). */
void *dt_test_case(const char *name, size_t *size);
/* Read DOMINO_BOARDS_DIR/NAME.dtb; NULL (and a message) when absent. */
void *dt_test_board(const char *name, size_t *size);

/* A counting allocator that can fail its k-th allocation (k >= 1). */
struct dt_count_alloc {
	long allocs; /* successful allocations */
	long frees;
	long live_bytes; /* tracked with a size header */
	long fail_at;	 /* 0 = never */
	long calls;
};
void dt_count_init(struct dt_count_alloc *c, struct dmn_alloc_ops *ops);

/* The diagnostic with @check, the @nth (0-based) one; NULL if none. */
const struct dmn_dt_diag *dt_test_diag(const struct dmn_dt_board *b, const char *check,
				   unsigned nth);
unsigned dt_test_count(const struct dmn_dt_board *b, const char *check);

#endif
