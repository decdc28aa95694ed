/* SPDX-License-Identifier: MIT */
/*
 * The loader's cycle check on subdomain links. Adding child -> parent
 * closes a cycle iff the child is an ancestor of the parent, i.e. the
 * parent a descendant of the child. Searching one way only is quadratic on
 * some board: upwards when parents come first in the blob (each new link
 * walks the whole chain above), downwards when children do. So both
 * searches run in lock step and the first to finish answers: the cost of
 * a link is twice the smaller of the two, O(1) per link for chains built
 * in either order and for nested domains. The walks keep their own stacks:
 * the C stack never grows with the board's depth.
 */
#include "dt_internal.h"

#include <errno.h>

struct dmn_dt_link_walk {
	unsigned n;
	uint32_t gen;
	uint32_t *seen_up, *seen_down; /* == gen: visited in this check */
	int32_t *stack_up, *stack_down;
	int32_t *first_child; /* per domain: its first child edge, or -1 */
	struct dmn_dt_link_edge {
		int32_t child, next; /* next: the parent's next edge, or -1 */
	} *edges;
	unsigned n_edges, cap_edges;
};

static struct dmn_dt_link_walk *walk_get(struct dmn_dt_loader *ld)
{
	if (ld->walk)
		return ld->walk;
	unsigned n = ld->board->n_domains;
	struct dmn_dt_link_walk *w = dmn__dt_pool_alloc(ld->pool, sizeof(*w));
	if (!w)
		return NULL;
	w->n = n;
	w->seen_up = dmn__dt_pool_alloc(ld->pool, (n + 1) * sizeof(uint32_t));
	w->seen_down = dmn__dt_pool_alloc(ld->pool, (n + 1) * sizeof(uint32_t));
	w->stack_up = dmn__dt_pool_alloc(ld->pool, (n + 1) * sizeof(int32_t));
	w->stack_down = dmn__dt_pool_alloc(ld->pool, (n + 1) * sizeof(int32_t));
	w->first_child = dmn__dt_pool_alloc(ld->pool, (n + 1) * sizeof(int32_t));
	if (!w->seen_up || !w->seen_down || !w->stack_up || !w->stack_down ||
	    !w->first_child)
		return NULL; /* the pool frees the pieces with the board */
	for (unsigned i = 0; i < n; i++)
		w->first_child[i] = -1;
	ld->walk = w;
	return w;
}

/* One step of the upward search: pop a domain, push its unseen parents.
 * Returns 1 if @target was reached, -1 if the search is exhausted. */
static int step_up(const struct dmn_dt_loader *ld, struct dmn_dt_link_walk *w,
		   unsigned *top, int32_t target)
{
	if (!*top)
		return -1;
	const struct dmn_dt_domain *d = &ld->board->domains[w->stack_up[--*top]];
	for (unsigned i = 0; i < d->n_parents; i++) {
		int32_t p = d->parents[i];
		if (p == target)
			return 1;
		DMN_ASSERT(p >= 0 && (unsigned)p < w->n);
		if (w->seen_up[p] != w->gen) {
			/* each domain is pushed once a search: n at most */
			DMN_ASSERT(*top < w->n);
			w->seen_up[p] = w->gen;
			w->stack_up[(*top)++] = p;
		}
	}
	return 0;
}

static int step_down(struct dmn_dt_link_walk *w, unsigned *top, int32_t target)
{
	if (!*top)
		return -1;
	int32_t d = w->stack_down[--*top];
	for (int32_t e = w->first_child[d]; e >= 0; e = w->edges[e].next) {
		int32_t c = w->edges[e].child;
		if (c == target)
			return 1;
		DMN_ASSERT(c >= 0 && (unsigned)c < w->n);
		if (w->seen_down[c] != w->gen) {
			DMN_ASSERT(*top < w->n);
			w->seen_down[c] = w->gen;
			w->stack_down[(*top)++] = c;
		}
	}
	return 0;
}

int dmn__dt_link_would_cycle(struct dmn_dt_loader *ld, int32_t child, int32_t parent)
{
	if (child == parent)
		return 1;
	struct dmn_dt_link_walk *w = walk_get(ld);
	if (!w)
		return -ENOMEM;
	if (++w->gen == 0) { /* wrapped: forget every old mark */
		for (unsigned i = 0; i < w->n; i++)
			w->seen_up[i] = w->seen_down[i] = 0;
		w->gen = 1;
	}
	unsigned up = 0, down = 0;
	w->seen_up[parent] = w->gen;
	w->stack_up[up++] = parent;
	w->seen_down[child] = w->gen;
	w->stack_down[down++] = child;
	for (;;) {
		int r = step_up(ld, w, &up, child);
		if (r)
			return r > 0;
		r = step_down(w, &down, parent);
		if (r)
			return r > 0;
	}
}

int dmn__dt_link_record(struct dmn_dt_loader *ld, int32_t child, int32_t parent)
{
	struct dmn_dt_link_walk *w = walk_get(ld);
	if (!w)
		return -ENOMEM;
	struct dmn_dt_link_edge *e =
	    dmn__dt_vec_push(ld->pool, (void **)&w->edges, &w->n_edges,
			&w->cap_edges, sizeof(*e));
	if (!e)
		return -ENOMEM;
	DMN_ASSERT(child >= 0 && (unsigned)child < w->n && parent >= 0 &&
		   (unsigned)parent < w->n && "the board's domains, all made first");
	e->child = child;
	e->next = w->first_child[parent];
	w->first_child[parent] = (int32_t)w->n_edges - 1;
	return 0;
}
