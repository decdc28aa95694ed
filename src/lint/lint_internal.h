/* SPDX-License-Identifier: MIT */
/*
 * Private to src/lint: the linter's state, the finding sink its checks
 * report through, and a read-only index of the blob that the wiring checks
 * share (docs/lint-corpus.md says what each check looks for and why).
 */
#ifndef DOMINO_LINT_INTERNAL_H
#define DOMINO_LINT_INTERNAL_H

#include <domino/lint.h>

#include <stddef.h>

#include <stdbool.h>
#include <stdint.h>

struct linter {
	dmn_lint_fn emit;
	void *user;
	struct dmn_lint_counts counts;
	struct dmn_alloc_ops alloc;
	/* the blob, or an aligned copy of it (libfdt wants 8-byte
	 * alignment); read only after the loader validated it */
	const void *fdt;
};

/* @n elements of @size bytes, zeroed, through the caller's allocator
 * (struct dmn_lint_options.alloc); NULL when it fails or n * size
 * overflows. n or size 0 counts as 1. */
void *dmn__lint_calloc(struct linter *l, size_t n, size_t size);
void dmn__lint_free(struct linter *l, void *p); /* NULL ok */

/*
 * Report one finding of lint's own checks (no errno): counted by severity
 * and handed to the caller's sink, like every other finding. @node is a
 * full node path, @property the property the finding is about or NULL.
 */
void dmn__lint_report(struct linter *l, enum dmn_dt_severity sev,
		      const char *check, const char *node, const char *property,
		      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* ---- lint_blob.c: the blob's nodes, parents and phandles ------------------ */

struct lint_node {
	int offset;	  /* libfdt offset */
	int32_t parent;	  /* index, -1 for the root */
	int32_t end;	  /* one past its last descendant: the subtree is
			   * [index, end) in structure-block order */
	uint32_t phandle; /* 0 if none */
	bool enabled;	  /* neither it nor an ancestor is disabled */
};

struct lint_phandle {
	uint32_t phandle;
	int32_t node;
};

struct lint_blob {
	const void *fdt;
	int32_t *provider_node; /* by model provider: its node, or -1 */
	struct lint_node *nodes; /* in structure-block order */
	unsigned n_nodes;
	struct lint_phandle *phandles; /* sorted; the first node of a repeated
					* phandle only, as the loader takes it */
	unsigned n_phandles;
};

/* Index @fdt (already validated by the loader) and find board @b's
 * providers in it, allocating through @l. 0, or -ENOMEM (nothing to
 * free). O(N log N) for N nodes, plus the providers' path lengths. */
int dmn__lint_blob_index(struct linter *l, const void *fdt,
			 const struct dmn_dt_board *b, struct lint_blob *bi);
void dmn__lint_blob_free(struct linter *l, struct lint_blob *bi);
/* The node at libfdt offset @offset, or -1. O(log N). */
int32_t dmn__lint_node_at(const struct lint_blob *bi, int offset);
/* The node with full path @path, or -1. O(length + log N). */
int32_t dmn__lint_node_by_path(const struct lint_blob *bi, const char *path);
/* The node with @phandle, or -1. O(log N). */
int32_t dmn__lint_phandle(const struct lint_blob *bi, uint32_t phandle);
/* A property of node @node, or NULL (*@len 0 then). */
const void *dmn__lint_prop(const struct lint_blob *bi, int32_t node,
			   const char *name, int *len);
/* Its first compatible string, or NULL. */
const char *dmn__lint_compatible(const struct lint_blob *bi, int32_t node);
/* The node name without the unit address equals @base ("port" matches
 * "port" and "port@1"). */
bool dmn__lint_name_is(const struct lint_blob *bi, int32_t node,
		       const char *base);
/* Full path of @node into @buf (always terminated; "?" when it does not
 * fit). */
const char *dmn__lint_path(const struct lint_blob *bi, int32_t node, char *buf,
			   int size);

/* ---- the check families (docs/lint-corpus.md) ------------------------------ */

/* Index the blob once and run the three families below on it; 0 or
 * -ENOMEM (from any of them: the rest are skipped). */
int dmn__lint_families(struct linter *l, const struct dmn_dt_board *b);
/* wiring.c: provider-no-rail, pd-missing, opp-required-missing */
int dmn__lint_wiring(struct linter *l, const struct lint_blob *bi,
		     const struct dmn_dt_board *b);
/* counts.c: opp-required-count, opp-required-index */
int dmn__lint_counts(struct linter *l, const struct lint_blob *bi,
		     const struct dmn_dt_board *b);
/* bindings.c: pd-index-range, pd-name-mismatch */
int dmn__lint_bindings(struct linter *l, const struct lint_blob *bi,
		       const struct dmn_dt_board *b);

#endif /* DOMINO_LINT_INTERNAL_H */
