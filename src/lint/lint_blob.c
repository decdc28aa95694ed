/* SPDX-License-Identifier: MIT */
/* A read-only index of the blob for lint's wiring checks: every node's
 * parent and status, and the phandles sorted, so a reference costs
 * O(log N) instead of libfdt's linear search. */
#include "lint_internal.h"
#include "../core/bsearch.h"
#include <domino/dt.h>

#include <errno.h>
#include <libfdt.h>
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

/* FNV-1a over a node's parent and name: the key of the child table. */
static uint32_t child_key(int32_t parent, const char *name, size_t len)
{
	uint32_t h = 2166136261u ^ (uint32_t)parent;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return h;
}

/* The child of @parent named @name (@len bytes, not terminated), or -1.
 * O(1) expected: an open-addressing table of twice the nodes. */
static int32_t child_named(const struct lint_blob *bi, int32_t parent,
			   const char *name, size_t len)
{
	/* a power of two above the node count: a free slot ends each probe */
	DMN_ASSERT(bi->child_cap > bi->n_nodes &&
		   !(bi->child_cap & (bi->child_cap - 1)));
	uint32_t mask = bi->child_cap - 1;
	for (uint32_t h = child_key(parent, name, len) & mask;; h = (h + 1) & mask) {
		int32_t c = bi->children[h];
		if (c < 0)
			return -1;
		int nl;
		const char *cn = fdt_get_name(bi->fdt, bi->nodes[c].offset, &nl);
		if (bi->nodes[c].parent == parent && cn && (size_t)nl == len &&
		    !memcmp(cn, name, len))
			return c;
	}
}

static int index_children(struct linter *l, struct lint_blob *bi)
{
	uint32_t cap = 2;
	while (cap < 2 * bi->n_nodes)
		cap *= 2;
	bi->children = dmn__lint_calloc(l, cap, sizeof(*bi->children));
	if (!bi->children)
		return -ENOMEM;
	bi->child_cap = cap;
	for (uint32_t i = 0; i < cap; i++)
		bi->children[i] = -1;
	for (unsigned i = 1; i < bi->n_nodes; i++) {
		int nl;
		const char *name = fdt_get_name(bi->fdt, bi->nodes[i].offset, &nl);
		uint32_t h = child_key(bi->nodes[i].parent, name ? name : "",
				       name ? (size_t)nl : 0) &
			     (cap - 1);
		while (bi->children[h] >= 0)
			h = (h + 1) & (cap - 1);
		bi->children[h] = (int32_t)i;
	}
	return 0;
}

/*
 * Each model provider's and device's node. A provider's path is a chain of
 * the model's path segments: each segment is resolved once, after its
 * parent (O(segments) in all); a device's stored path is walked component
 * by component (O(its length)). libfdt's path look-up, one per object,
 * was quadratic on a deep nest.
 */
static int find_model_nodes(struct linter *l, const struct dmn_dt_board *b,
			    struct lint_blob *bi)
{
	unsigned ns = b->n_path_segs;
	int32_t *seg_node = dmn__lint_calloc(l, ns, sizeof(*seg_node));
	int32_t *stack = dmn__lint_calloc(l, ns, sizeof(*stack));
	bi->provider_node = dmn__lint_calloc(l, b->n_providers,
					     sizeof(*bi->provider_node));
	bi->device_node = dmn__lint_calloc(l, b->n_devices, sizeof(*bi->device_node));
	if (!seg_node || !stack || !bi->provider_node || !bi->device_node) {
		dmn__lint_free(l, seg_node);
		dmn__lint_free(l, stack);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < ns; i++)
		seg_node[i] = -2; /* not resolved yet */
	for (unsigned i = 0; i < ns; i++) {
		unsigned top = 0;
		for (int32_t k = (int32_t)i; k >= 0 && seg_node[k] == -2;
		     k = b->path_segs[k].parent) {
			DMN_ASSERT(top < ns && "a segment's chain visits each once");
			stack[top++] = k;
		}
		while (top) {
			int32_t k = stack[--top];
			int32_t up = b->path_segs[k].parent;
			int32_t pn = up < 0 ? 0 : seg_node[up];
			const char *name = b->path_segs[k].name;
			seg_node[k] = pn < 0 || !name
					  ? -1
					  : child_named(bi, pn, name, strlen(name));
		}
	}
	for (unsigned p = 0; p < b->n_providers; p++) {
		int32_t seg = b->providers[p].path_seg;
		bi->provider_node[p] = seg < 0 ? 0 : seg < (int32_t)ns ? seg_node[seg] : -1;
	}
	for (unsigned d = 0; d < b->n_devices; d++)
		bi->device_node[d] = dmn__lint_node_by_path(bi, b->devices[d].path);
	dmn__lint_free(l, seg_node);
	dmn__lint_free(l, stack);
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
		DMN_ASSERT(depth <= max_depth);
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
	DMN_ASSERT(bi->n_nodes == n && "both walks see the same nodes");
	/* dmn__lint_node_at's binary search: preorder is offset order */
	for (unsigned i = 1; DMN_CHECKS && i < bi->n_nodes; i++)
		DMN_ASSERT(bi->nodes[i - 1].offset < bi->nodes[i].offset &&
			   bi->nodes[i].parent < (int32_t)i);
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
	for (unsigned i = 1; DMN_CHECKS && i < k; i++) /* dmn__lint_phandle */
		DMN_ASSERT(bi->phandles[i - 1].phandle < bi->phandles[i].phandle);
	if (index_children(l, bi) || find_model_nodes(l, b, bi)) {
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
	dmn__lint_free(l, bi->device_node);
	dmn__lint_free(l, bi->children);
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

static bool offset_before(const void *base, size_t i, const void *key)
{
	const struct lint_node *v = base;
	return v[i].offset < *(const int *)key;
}

int32_t dmn__lint_node_at(const struct lint_blob *bi, int offset)
{
	size_t lo = dmn__lower_bound(bi->n_nodes, bi->nodes, &offset,
				     offset_before);
	return lo < bi->n_nodes && bi->nodes[lo].offset == offset ? (int32_t)lo
								    : -1;
}

int32_t dmn__lint_node_by_path(const struct lint_blob *bi, const char *path)
{
	if (!path || path[0] != '/' || !bi->n_nodes)
		return -1;
	int32_t node = 0;
	for (const char *p = path + 1; *p && node >= 0;) {
		size_t n = strcspn(p, "/");
		if (n)
			node = child_named(bi, node, p, n);
		p += n + (p[n] == '/');
	}
	return node;
}

static bool phandle_before(const void *base, size_t i, const void *key)
{
	const struct lint_phandle *v = base;
	return v[i].phandle < *(const uint32_t *)key;
}

int32_t dmn__lint_phandle(const struct lint_blob *bi, uint32_t phandle)
{
	size_t lo = dmn__lower_bound(bi->n_phandles, bi->phandles, &phandle,
				     phandle_before);
	return lo < bi->n_phandles && bi->phandles[lo].phandle == phandle
		   ? bi->phandles[lo].node
		   : -1;
}

const void *dmn__lint_prop(const struct lint_blob *bi, int32_t node,
			   const char *name, int *len)
{
	DMN_ASSERT(node >= 0 && (unsigned)node < bi->n_nodes);
	int l = 0;
	const void *v = fdt_getprop(bi->fdt, bi->nodes[node].offset, name, &l);
	if (len)
		*len = v ? l : 0;
	return v;
}

const char *dmn__lint_compatible_next(const struct lint_blob *bi, int32_t node,
				      int *pos)
{
	int len;
	const char *c = dmn__lint_prop(bi, node, "compatible", &len);
	if (!c || *pos < 0 || *pos >= len)
		return NULL;
	/* a string list: each string ends inside the property */
	const char *s = c + *pos;
	size_t n = strnlen(s, (size_t)(len - *pos));
	if ((int)n == len - *pos)
		return NULL;
	*pos += (int)n + 1;
	return s;
}

const char *dmn__lint_compatible(const struct lint_blob *bi, int32_t node)
{
	int pos = 0;
	const char *c = dmn__lint_compatible_next(bi, node, &pos);
	return c && c[0] ? c : NULL;
}

bool dmn__lint_name_is(const struct lint_blob *bi, int32_t node, const char *base)
{
	const char *name = fdt_get_name(bi->fdt, bi->nodes[node].offset, NULL);
	size_t n = strlen(base);
	return name && !strncmp(name, base, n) && (!name[n] || name[n] == '@');
}

/* The length of @node's path, and its name's. O(depth). */
static size_t path_len(const struct lint_blob *bi, int32_t node)
{
	size_t n = 0;
	for (int32_t k = node; k > 0; k = bi->nodes[k].parent) {
		int nl;
		const char *name = fdt_get_name(bi->fdt, bi->nodes[k].offset, &nl);
		n += 1 + (name ? (size_t)nl : 0);
	}
	return n ? n : 1;
}

/* Write @node's path ending at @end (exclusive), backwards, whole
 * components only, never before @start: returns where it begins. */
static char *path_back(const struct lint_blob *bi, int32_t node, char *start,
		       char *end)
{
	char *p = end;
	if (node <= 0 && p > start)
		*--p = '/';
	for (int32_t k = node; k > 0 && p > start; k = bi->nodes[k].parent) {
		int nl;
		const char *name = fdt_get_name(bi->fdt, bi->nodes[k].offset, &nl);
		size_t n = name ? (size_t)nl : 0;
		if ((size_t)(p - start) < n + 1)
			break; /* what is written so far is the tail */
		p -= n;
		memcpy(p, name, n);
		*--p = '/';
	}
	return p;
}

const char *dmn__lint_path(const struct lint_blob *bi, int32_t node, char *buf,
			   int size)
{
	DMN_ASSERT(size > 4 && "room for \"...\" and a component");
	size_t n = path_len(bi, node);
	if (n < (size_t)size) {
		char *at = path_back(bi, node, buf, buf + n);
		DMN_ASSERT(at == buf && "path_len measured what path_back writes");
		(void)at;
		buf[n] = '\0';
		return buf;
	}
	/* too long for a message: its tail, after "..." */
	char *p = path_back(bi, node, buf + 3, buf + size - 1);
	memcpy(p - 3, "...", 3);
	buf[size - 1] = '\0';
	return p - 3;
}

char *dmn__lint_path_alloc(struct linter *l, const struct lint_blob *bi,
			   int32_t node)
{
	size_t n = path_len(bi, node);
	char *s = dmn__lint_calloc(l, n + 1, 1);
	if (s) {
		char *at = path_back(bi, node, s, s + n);
		DMN_ASSERT(at == s && "path_len measured what path_back writes");
		(void)at;
	}
	return s;
}
