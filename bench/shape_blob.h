/* SPDX-License-Identifier: MIT */
/*
 * Generated boards of a given shape and size, for the scaling bench, the
 * bad-input tests and the fuzz seeds: the inputs are made when needed, so
 * no large blob is ever committed.
 */
#ifndef DOMINO_SHAPE_BLOB_H
#define DOMINO_SHAPE_BLOB_H

#include <stddef.h>

/*
 * shape_blob - a flattened device tree with @n power domains
 * @shape: "chain"  pdK's parent is pdK+1 (children first in node order),
 *                  a device on pd0, the deepest domain;
 *         "rchain" pdK's parent is pdK-1 (parents first), a device on the
 *                  last, deepest domain;
 *         "flat"   n parentless zero-cell providers, a device on each;
 *         "nest"   one one-cell provider whose power-domain@K children are
 *                  nested n deep (each the parent of the next), a device
 *                  on the deepest;
 *         "bus"    one provider, and a device at the bottom of n nested
 *                  plain nodes (deep paths, one domain);
 *         "oppchain" n OPP tables, each entry requiring the next table's,
 *                  on a chain of n providers (a deep required-opps chain).
 * On success *@blob (malloc'ed, the caller frees it) holds *@size bytes.
 * returns: 0, -EINVAL for an unknown shape or @n of 0 or above 10,000,000,
 * -ENOMEM. cost: O(n) time and bytes.
 */
int shape_blob(const char *shape, unsigned n, unsigned char **blob,
	       size_t *size);

/* The shapes shape_blob() knows, NULL-terminated. */
extern const char *const shape_names[];

#endif
