/* SPDX-License-Identifier: MIT */
/* A read-only index of the blob for lint's wiring checks: every node's
 * parent and status, and the phandles sorted, so a reference costs
 * O(log N) instead of libfdt's linear search. */
#include "lint_internal.h"
#include <domino/dt.h>

#include <errno.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h> /* qsort */
#include <string.h>

static bool status_ok(const void *fdt, int offset)
{
	int len;
	const char *s = fdt_getprop(fdt, offset, "status", &len);
	return !s || !strcmp(s, "okay") || !strcmp(s, "ok");
}

static int cmp_phandle(const void *a, const void *b)
{
	const struct lint_phandle *x = a, *y = b;
	if (x->phandle != y->phandle)
		return x->phandle < y->phandle ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Each model provider's node: one buffer sized for the longest path. */
static int find_providers(struct linter *l, const struct dmn_dt_board *b,
			  struct lint_blob *bi)
{
	size_t longest = 0;
	for (unsigned p = 0; p < b->n_providers; p++) {
		size_t n = dmn_dt_provider_path(b, p, NULL, 0);
		if (n > longest)
			longest = n;
	}
	char *path = dmn__lint_calloc(l, longest + 1, 1);
	bi->provider_node = dmn__lint_calloc(l, b->n_providers,
					     sizeof(*bi->provider_node));
	if (!path || !bi->provider_node) {
		dmn__lint_free(l, path);
		return -ENOMEM;
	}
	for (unsigned p = 0; p < b->n_providers; p++) {
		dmn_dt_provider_path(b, p, path, longest + 1);
		bi->provider_node[p] = dmn__lint_node_by_path(bi, path);
	}
	dmn__lint_free(l, path);
	return 0;
}

int dmn__lint_blob_index(struct linter *l, const void *fdt,
			 const struct dmn_dt_board *b, struct lint_blob *bi)
{
	memset(bi, 0, sizeof(*bi));
	bi->fdt = fdt;
	unsigned n = 0;
	int depth = 0, max_depth = 0;
	for (int off = 0; off >= 0 && depth >= 0;
	     off = fdt_next_node(fdt, off, &depth)) {
		n++;
		if (depth > max_depth)
			max_depth = depth;
	}
	bi->nodes = dmn__lint_calloc(l, n, sizeof(*bi->nodes));
	bi->phandles = dmn__lint_calloc(l, n, sizeof(*bi->phandles));
	int32_t *stack = dmn__lint_calloc(l, (size_t)max_depth + 1, sizeof(*stack));
	if (!bi->nodes || !bi->phandles || !stack) {
		dmn__lint_free(l, stack);
		dmn__lint_blob_free(l, bi);
		return -ENOMEM;
	}
	depth = 0;
	for (int off = 0; off >= 0 && depth >= 0 && bi->n_nodes < n;
	     off = fdt_next_node(fdt, off, &depth)) {
		int32_t i = (int32_t)bi->n_nodes++;
		struct lint_node *nd = &bi->nodes[i];
		stack[depth] = i;
		nd->offset = off;
		nd->end = i + 1;
		nd->parent = depth > 0 ? stack[depth - 1] : -1;
		nd->enabled = status_ok(fdt, off) &&
			      (nd->parent < 0 || bi->nodes[nd->parent].enabled);
		nd->phandle = fdt_get_phandle(fdt, off);
		if (nd->phandle)
			bi->phandles[bi->n_phandles++] =
			    (struct lint_phandle){nd->phandle, i};
	}
	dmn__lint_free(l, stack);
	for (unsigned i = bi->n_nodes; i-- > 1;) {
		struct lint_node *up = &bi->nodes[bi->nodes[i].parent];
		if (up->end < bi->nodes[i].end)
			up->end = bi->nodes[i].end;
	}
	qsort(bi->phandles, bi->n_phandles, sizeof(*bi->phandles), cmp_phandle);
	/* keep the first node of each phandle */
	unsigned k = 0;
	for (unsigned i = 0; i < bi->n_phandles; i++)
		if (!k || bi->phandles[k - 1].phandle != bi->phandles[i].phandle)
			bi->phandles[k++] = bi->phandles[i];
	bi->n_phandles = k;
	if (find_providers(l, b, bi)) {
		dmn__lint_blob_free(l, bi);
		return -ENOMEM;
	}
	return 0;
}

void dmn__lint_blob_free(struct linter *l, struct lint_blob *bi)
{
	dmn__lint_free(l, bi->nodes);
	dmn__lint_free(l, bi->phandles);
	dmn__lint_free(l, bi->provider_node);
	memset(bi, 0, sizeof(*bi));
}

int dmn__lint_families(struct linter *l, const struct dmn_dt_board *b)
{
	struct lint_blob bi;
	int err = dmn__lint_blob_index(l, l->fdt, b, &bi);
	if (err)
		return err;
	err = dmn__lint_wiring(l, &bi, b);
	if (!err)
		err = dmn__lint_counts(l, &bi, b);
	if (!err)
		err = dmn__lint_bindings(l, &bi, b);
	dmn__lint_blob_free(l, &bi);
	return err;
}

int32_t dmn__lint_node_at(const struct lint_blob *bi, int offset)
{
	unsigned lo = 0, hi = bi->n_nodes;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (bi->nodes[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < bi->n_nodes && bi->nodes[lo].offset == offset ? (int32_t)lo
								    : -1;
}

int32_t dmn__lint_node_by_path(const struct lint_blob *bi, const char *path)
{
	int off = fdt_path_offset(bi->fdt, path);
	return off < 0 ? -1 : dmn__lint_node_at(bi, off);
}

int32_t dmn__lint_phandle(const struct lint_blob *bi, uint32_t phandle)
{
	unsigned lo = 0, hi = bi->n_phandles;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (bi->phandles[mid].phandle < phandle)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < bi->n_phandles && bi->phandles[lo].phandle == phandle
		   ? bi->phandles[lo].node
		   : -1;
}

const void *dmn__lint_prop(const struct lint_blob *bi, int32_t node,
			   const char *name, int *len)
{
	int l = 0;
	const void *v = fdt_getprop(bi->fdt, bi->nodes[node].offset, name, &l);
	if (len)
		*len = v ? l : 0;
	return v;
}

const char *dmn__lint_compatible(const struct lint_blob *bi, int32_t node)
{
	int len;
	const char *c = dmn__lint_prop(bi, node, "compatible", &len);
	/* a string list: the first string ends inside the property */
	return c && len > 0 && memchr(c, '\0', (size_t)len) && c[0] ? c : NULL;
}

bool dmn__lint_name_is(const struct lint_blob *bi, int32_t node, const char *base)
{
	const char *name = fdt_get_name(bi->fdt, bi->nodes[node].offset, NULL);
	size_t n = strlen(base);
	return name && !strncmp(name, base, n) && (!name[n] || name[n] == '@');
}

const char *dmn__lint_path(const struct lint_blob *bi, int32_t node, char *buf,
			   int size)
{
	if (fdt_get_path(bi->fdt, bi->nodes[node].offset, buf, size) < 0)
		snprintf(buf, (size_t)size, "?");
	return buf;
}
