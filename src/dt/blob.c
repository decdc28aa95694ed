/* SPDX-License-Identifier: MIT */
/*
 * The blob: validation, the node index (parents, status, phandles, labels)
 * and bounds-checked property helpers. After dmn__dt_blob_index() succeeds every
 * libfdt call the loader makes is on a blob fdt_check_full() accepted, and
 * every property value is read only within the length libfdt returned.
 */
#include "dt_internal.h"
#include "../core/bsearch.h"

#include <errno.h>
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>

/*
 * A property of the node at @offset by name, read straight from the
 * structure block. The loader runs only on a blob precheck() and
 * fdt_check_full() accepted (version 16 or later, so values are 4-aligned;
 * every tag, value length and name offset in bounds, every name
 * terminated), so the checks fdt_getprop() repeats on each property of
 * each call are not needed: they were two thirds of the time loading the
 * Linux corpus, where every node is searched for a dozen names.
 */
static const void *raw_getprop(const void *fdt, int offset, const char *name,
			       int *len)
{
	const char *base = (const char *)fdt + fdt_off_dt_struct(fdt);
	const char *strings = (const char *)fdt + fdt_off_dt_strings(fdt);
	/* Only a node's offset starts a walk fdt_check_full() vouched for;
	 * anything else would read tags out of the strings block. */
	if (fdt32_ld((const fdt32_t *)(base + offset)) != FDT_BEGIN_NODE)
		return NULL;
	/* skip FDT_BEGIN_NODE and the NUL-terminated name, padded to 4 */
	size_t pos = (size_t)offset + 4;
	pos += strlen(base + pos) + 1;
	pos = (pos + 3) & ~(size_t)3;
	for (;;) {
		uint32_t tag = fdt32_ld((const fdt32_t *)(base + pos));
		if (tag == FDT_NOP) {
			pos += 4;
			continue;
		}
		if (tag != FDT_PROP)
			return NULL; /* a child node or the node's end */
		uint32_t vlen = fdt32_ld((const fdt32_t *)(base + pos + 4));
		uint32_t nameoff = fdt32_ld((const fdt32_t *)(base + pos + 8));
		if (strcmp(strings + nameoff, name) == 0) {
			*len = (int)vlen;
			return base + pos + 12;
		}
		pos += 12 + (((size_t)vlen + 3) & ~(size_t)3);
	}
}

static bool status_enabled(const void *fdt, int offset)
{
	int len;
	const char *s = raw_getprop(fdt, offset, "status", &len);
	if (!s)
		return true;
	/* Only "okay" and "ok" enable, as in Linux; a malformed value
	 * (no NUL) counts as disabled rather than being read past its end. */
	return (len == 5 && memcmp(s, "okay", 5) == 0) ||
	       (len == 3 && memcmp(s, "ok", 3) == 0);
}

static int cmp_phandle(const void *a, const void *b)
{
	const struct dmn_dt_phandle_slot *x = a, *y = b;
	if (x->phandle != y->phandle)
		return x->phandle < y->phandle ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static bool phandle_before(const void *base, size_t i, const void *key)
{
	const struct dmn_dt_phandle_slot *v = base;
	return v[i].phandle < *(const uint32_t *)key;
}

int32_t dmn__dt_phandle_node(const struct dmn_dt_loader *ld, uint32_t phandle)
{
	if (phandle == 0 || phandle == UINT32_MAX)
		return -1;
	size_t lo = dmn__lower_bound(ld->n_phandles, ld->phandles, &phandle,
				     phandle_before);
	if (lo < ld->n_phandles && ld->phandles[lo].phandle == phandle)
		return ld->phandles[lo].node;
	return -1;
}

/* Orders node indices by (parent, name, index): a node's children are
 * then one sorted run, and the first of two same-named siblings (the one
 * libfdt would find) comes first. */
struct child_key {
	int32_t parent, node;
	const char *name;
};

static int cmp_child(const void *a, const void *b)
{
	const struct child_key *x = a, *y = b;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->node < y->node ? -1 : 1;
}

/* A child looked for: @name[0..@len) under @parent. */
struct child_probe {
	int32_t parent;
	const char *name;
	size_t len;
};

static bool child_before(const void *base, size_t i, const void *key)
{
	const struct child_key *m = &((const struct child_key *)base)[i];
	const struct child_probe *p = key;
	if (m->parent != p->parent)
		return m->parent < p->parent;
	/* a name longer than the probe's, with it as prefix, sorts after */
	return strncmp(m->name, p->name, p->len) < 0;
}

/* The child of @parent named exactly @name[0..@len), or -1. O(log N). */
static int32_t find_child(const struct dmn_dt_loader *ld,
			  const struct child_key *by_parent, int32_t parent,
			  const char *name, size_t len)
{
	/* the first entry not below (parent, name) */
	struct child_probe p = {parent, name, len};
	size_t lo = dmn__lower_bound(ld->n_nodes, by_parent, &p, child_before);
	if (lo == ld->n_nodes)
		return -1;
	const struct child_key *m = &by_parent[lo];
	if (m->parent != parent || strncmp(m->name, name, len) || m->name[len])
		return -1;
	return m->node;
}

/* Every label names its node (sc7180's spi@880000 is both ap_h1_spi and
 * spi0); the first one found is the node's name. Nodes have a label or
 * two, so the array is simply copied one longer each time. */
static int add_label(struct dmn_dt_loader *ld, struct dmn_dt_node *n, const char *label)
{
	char **labels =
	    dmn__dt_pool_alloc(ld->pool, (n->n_labels + 1) * sizeof(*labels));
	char *copy = dmn__dt_pool_strdup(ld->pool, label);
	if (!labels || !copy)
		return -ENOMEM;
	if (n->n_labels)
		memcpy(labels, n->labels, n->n_labels * sizeof(*labels));
	labels[n->n_labels++] = copy;
	dmn__dt_pool_free(ld->pool, n->labels);
	n->labels = labels;
	n->label = labels[0];
	return 0;
}

/*
 * Labels come from /__symbols__ (label = "/full/path"). Resolving each path
 * with fdt_path_offset walks whole sibling subtrees, quadratic on a real
 * board, and building every node's full path is quadratic in memory on a
 * deep one; instead each path is followed component by component through
 * an index of the nodes by (parent, name): O(path length * log N).
 */
static int index_labels(struct dmn_dt_loader *ld)
{
	const void *fdt = ld->fdt;
	struct child_key *by_parent =
	    dmn__dt_pool_alloc(ld->pool, ld->n_nodes * sizeof(*by_parent));
	if (!by_parent)
		return -ENOMEM;
	for (unsigned i = 0; i < ld->n_nodes; i++)
		by_parent[i] = (struct child_key){ld->nodes[i].parent,
						  (int32_t)i, ld->nodes[i].name};
	qsort(by_parent, ld->n_nodes, sizeof(*by_parent), cmp_child);
	/* Equal paths (same-named siblings, a hostile blob's) by the same
	 * index, parents first in preorder: a node's path is its parent's
	 * first equal's child of that name. Children found only under a later
	 * equal parent keep their own: not merged, never merged wrongly. */
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		struct dmn_dt_node *n = &ld->nodes[i];
		n->same_path = (int32_t)i;
		n->path_seg = -2;
		if (n->parent < 0)
			continue;
		int32_t first = find_child(ld, by_parent,
					   ld->nodes[n->parent].same_path,
					   n->name, strlen(n->name));
		if (first >= 0 && first < (int32_t)i)
			n->same_path = ld->nodes[first].same_path;
		/* dtc refuses same-named siblings: the second cannot be told
		 * from the first by its path, so lint says which is which */
		if (first >= 0 && first < (int32_t)i &&
		    ld->nodes[first].parent == n->parent &&
		    DT_WARN(ld, "duplicate-node-name", (int32_t)i, NULL,
			    "an earlier sibling has the same name: this "
			    "node's path names that one"))
			return -ENOMEM;
	}
	/* by the index: fdt_subnode_offset() walks the whole blob to get past
	 * the root's other children (15 % of loading the Linux corpus) */
	int32_t sym_node = ld->n_nodes ? find_child(ld, by_parent, 0,
						    "__symbols__", 11)
				       : -1;
	int sym = sym_node >= 0 ? ld->nodes[sym_node].offset : -1;
	if (sym < 0) {
		dmn__dt_pool_free(ld->pool, by_parent);
		return 0;
	}
	int prop;
	fdt_for_each_property_offset(prop, fdt, sym)
	{
		const char *label;
		int len;
		const char *value =
		    fdt_getprop_by_offset(fdt, prop, &label, &len);
		if (!value || !label || len < 2 || value[0] != '/' ||
		    memchr(value, '\0', (size_t)len) != value + len - 1)
			continue;
		int32_t node = 0;
		for (const char *c = value + 1; node >= 0 && *c;) {
			size_t clen = strcspn(c, "/");
			node = clen ? find_child(ld, by_parent, node, c, clen)
				    : -1; /* "//": no such node */
			c += clen;
			if (*c == '/' && c[1])
				c++;
			else if (*c == '/')
				node = -1; /* a trailing '/' names no node */
		}
		int err = node >= 0 ? add_label(ld, &ld->nodes[node], label) : 0;
		if (err)
			return err;
	}
	dmn__dt_pool_free(ld->pool, by_parent);
	return 0;
}

/* fdt_get_phandle() on a checked blob: "phandle", else "linux,phandle";
 * 0 if neither is one cell. */
static uint32_t node_phandle(const void *fdt, int offset)
{
	int len;
	const void *v = raw_getprop(fdt, offset, "phandle", &len);
	if (!v || len != 4)
		v = raw_getprop(fdt, offset, "linux,phandle", &len);
	if (!v || len != 4)
		return 0;
	return fdt32_ld((const fdt32_t *)v);
}

int dmn__dt_blob_index(struct dmn_dt_loader *ld)
{
	const void *fdt = ld->fdt;
	int depth = 0;
	/* fdt_next_node returns the offset after the root's end (FDT_END)
	 * with depth -1: that is no node, and the walk stops there. */
	for (int off = 0; off >= 0 && depth >= 0;
	     off = fdt_next_node(fdt, off, &depth)) {
		struct dmn_dt_node *n =
		    dmn__dt_vec_push(ld->pool, (void **)&ld->nodes, &ld->n_nodes,
				&ld->cap_nodes, sizeof(*n));
		if (!n)
			return -ENOMEM;
		int32_t self = (int32_t)ld->n_nodes - 1;
		n->offset = off;
		n->depth = depth;
		n->parent = -1;
		if (self > 0) {
			/* preorder: the parent is the nearest earlier node one
			 * level up */
			int32_t p = self - 1;
			while (p >= 0 && ld->nodes[p].depth >= depth)
				p = ld->nodes[p].parent;
			n->parent = p;
		}
		int len;
		n->name = fdt_get_name(fdt, off, &len);
		if (!n->name)
			n->name = "";
		n->own_enabled = status_enabled(fdt, off);
		n->enabled = n->own_enabled &&
			     (n->parent < 0 || ld->nodes[n->parent].enabled);
		n->phandle = node_phandle(fdt, off);
		n->provider = n->nested_domain = n->opp_table = -1;
		n->opp_table_of_entry = n->opp_entry = n->idle_state = -1;
		n->nested_owner = n->nested_parent_node = -1;
	}

	unsigned count = 0;
	for (unsigned i = 0; i < ld->n_nodes; i++)
		count += ld->nodes[i].phandle != 0;
	if (count) {
		ld->phandles =
		    dmn__dt_pool_alloc(ld->pool, count * sizeof(*ld->phandles));
		if (!ld->phandles)
			return -ENOMEM;
	}
	for (unsigned i = 0; i < ld->n_nodes; i++)
		if (ld->nodes[i].phandle) {
			ld->phandles[ld->n_phandles].phandle =
			    ld->nodes[i].phandle;
			ld->phandles[ld->n_phandles++].node = (int32_t)i;
		}
	DMN_ASSERT(ld->n_phandles == count);
	if (ld->n_phandles)
		qsort(ld->phandles, ld->n_phandles, sizeof(*ld->phandles),
		      cmp_phandle);
	/* A phandle given to two nodes resolves to the first (lowest index):
	 * drop the later ones so the binary search is unambiguous, and say
	 * so (dtc refuses such a tree unless forced; a reference meant for
	 * the later node silently went to the first). The first is named by
	 * its node name: a path per duplicate is quadratic in a deep blob. */
	unsigned w = 0;
	for (unsigned r = 0; r < ld->n_phandles; r++) {
		const struct dmn_dt_phandle_slot *kept =
		    w ? &ld->phandles[w - 1] : NULL;
		if (!kept || kept->phandle != ld->phandles[r].phandle) {
			ld->phandles[w++] = ld->phandles[r];
			continue;
		}
		if (DT_WARN(ld, "phandle-duplicate", ld->phandles[r].node,
			    "phandle",
			    "phandle 0x%x is also an earlier node's (%s): "
			    "references to it go there",
			    (unsigned)kept->phandle,
			    ld->nodes[kept->node].name[0]
				? ld->nodes[kept->node].name
				: "/") == -ENOMEM)
			return -ENOMEM;
	}
	ld->n_phandles = w;
	/* dmn__dt_phandle_node's binary search relies on it */
	for (unsigned i = 1; DMN_CHECKS && i < w; i++)
		DMN_ASSERT(ld->phandles[i - 1].phandle < ld->phandles[i].phandle);

	return index_labels(ld);
}

/* One of four buffers used in turn, at least @len + 1 bytes: caching
 * every node's path (as this did once) costs memory quadratic in the
 * depth of a deeply nested blob. NULL on -ENOMEM. */
static char *path_slot(struct dmn_dt_loader *ld, size_t len)
{
	unsigned slot = ld->path_next++ % 4;
	if (ld->path_cap[slot] < len + 1) {
		size_t cap = ld->path_cap[slot] ? ld->path_cap[slot] : 64;
		while (cap < len + 1)
			cap *= 2;
		char *grown = dmn__dt_pool_alloc(ld->pool, cap);
		if (!grown)
			return NULL;
		dmn__dt_pool_free(ld->pool, ld->path_buf[slot]);
		ld->path_buf[slot] = grown;
		ld->path_cap[slot] = cap;
	}
	return ld->path_buf[slot];
}

/* Built on each call by walking up the parents. */
const char *dmn__dt_node_path(struct dmn_dt_loader *ld, int32_t node)
{
	DMN_ASSERT(node >= 0 && (unsigned)node < ld->n_nodes);
	size_t len = 0;
	for (int32_t i = node; ld->nodes[i].parent >= 0; i = ld->nodes[i].parent)
		len += 1 + strlen(ld->nodes[i].name);
	if (len == 0)
		len = 1; /* the root: "/" */
	char *p = path_slot(ld, len);
	if (!p)
		return NULL;
	size_t end = len;
	p[end] = 0;
	p[0] = '/';
	for (int32_t i = node; ld->nodes[i].parent >= 0; i = ld->nodes[i].parent) {
		size_t nl = strlen(ld->nodes[i].name);
		end -= nl;
		memcpy(p + end, ld->nodes[i].name, nl);
		p[--end] = '/';
	}
	/* the second walk wrote exactly what the first one measured */
	DMN_ASSERT(end == (ld->nodes[node].parent < 0 ? 1u : 0u));
	return p;
}

const char *dmn__dt_domain_path_tmp(struct dmn_dt_loader *ld, int32_t dom)
{
	size_t len = dmn_dt_domain_path(ld->board, (unsigned)dom, NULL, 0);
	char *p = path_slot(ld, len);
	if (p)
		dmn_dt_domain_path(ld->board, (unsigned)dom, p, len + 1);
	return p;
}

int dmn__dt_node_seg(struct dmn_dt_loader *ld, int32_t node, int32_t *seg)
{
	struct dmn_dt_board *b = ld->board;
	/* climb to the first ancestor with a segment (or the root), then
	 * make the missing ones top-down, each node's parent link reversed
	 * into a stack on the way up: no recursion on depth */
	int32_t top = -1, x = ld->nodes[node].same_path;
	while (ld->nodes[x].path_seg == -2) {
		if (ld->nodes[x].parent < 0) {
			ld->nodes[x].path_seg = -1; /* the root */
			break;
		}
		int32_t up = ld->nodes[ld->nodes[x].parent].same_path;
		ld->nodes[x].path_seg = -4 - top; /* pending: made before top */
		top = x;
		x = up;
	}
	int32_t parent_seg = ld->nodes[x].path_seg;
	while (top >= 0) {
		struct dmn_dt_node *n = &ld->nodes[top];
		int32_t below = -4 - n->path_seg;
		struct dmn_dt_path_seg *s =
		    dmn__dt_vec_push(ld->pool, (void **)&b->path_segs,
				&b->n_path_segs, &ld->cap_path_segs, sizeof(*s));
		if (!s)
			return -ENOMEM;
		s->parent = parent_seg;
		if (!(s->name = dmn__dt_pool_strdup(ld->pool, n->name))) {
			b->n_path_segs--;
			return -ENOMEM;
		}
		n->path_seg = parent_seg = (int32_t)b->n_path_segs - 1;
		top = below;
	}
	*seg = ld->nodes[ld->nodes[node].same_path].path_seg;
	return 0;
}

const void *dmn__dt_prop(const struct dmn_dt_loader *ld, int32_t node, const char *name,
		    int *len)
{
	DMN_ASSERT(node >= 0 && (unsigned)node < ld->n_nodes);
	int l = 0;
	const void *v = raw_getprop(ld->fdt, ld->nodes[node].offset, name, &l);
	if (!v || l < 0)
		l = 0;
	if (len)
		*len = l;
	return v;
}

bool dmn__dt_has_prop(const struct dmn_dt_loader *ld, int32_t node, const char *name)
{
	return dmn__dt_prop(ld, node, name, NULL) != NULL;
}

uint32_t dmn__dt_cell(const void *prop, unsigned i)
{
	return fdt32_ld((const fdt32_t *)prop + i);
}

int dmn__dt_prop_u32(const struct dmn_dt_loader *ld, int32_t node, const char *name,
		uint32_t *value)
{
	int len;
	const void *v = dmn__dt_prop(ld, node, name, &len);
	if (!v)
		return 0;
	if (len != 4)
		return -1;
	*value = dmn__dt_cell(v, 0);
	return 1;
}

const char *dmn__dt_prop_string(const struct dmn_dt_loader *ld, int32_t node,
			   const char *name, unsigned i, unsigned *n)
{
	int len;
	const char *v = dmn__dt_prop(ld, node, name, &len);
	const char *found = NULL;
	unsigned count = 0;
	/* Walk NUL-terminated strings; an unterminated tail is ignored. */
	for (int pos = 0; v && pos < len;) {
		const char *end = memchr(v + pos, '\0', (size_t)(len - pos));
		if (!end)
			break;
		if (count == i)
			found = v + pos;
		count++;
		pos = (int)(end - v) + 1;
	}
	if (n)
		*n = count;
	return found;
}

bool dmn__dt_prop_has_string(const struct dmn_dt_loader *ld, int32_t node,
			const char *name, const char *s)
{
	int len;
	const char *v = dmn__dt_prop(ld, node, name, &len);
	/* as dmn__dt_prop_string: NUL-terminated strings, an unterminated tail
	 * ignored; one lookup, not one per string */
	for (int pos = 0; v && pos < len;) {
		const char *end = memchr(v + pos, '\0', (size_t)(len - pos));
		if (!end)
			break;
		if (strcmp(v + pos, s) == 0)
			return true;
		pos = (int)(end - v) + 1;
	}
	return false;
}
