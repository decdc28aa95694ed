/* SPDX-License-Identifier: MIT */
/*
 * Walks of the subdomain graph. None recurses: a chain of 100,000 domains
 * is as legal as a chain of 3, so each walk keeps its path on an explicit
 * stack (ctx->stack) sized by the number of live domains, reserved when a
 * domain is created, and a walk itself never allocates or fails.
 */
#include "internal.h"

#include <errno.h>

int dmn__walk_reserve(struct dmn_ctx *ctx, unsigned extra)
{
	unsigned need = ctx->domains.live + extra;
	int err = dmn_grow(ctx, (void **)&ctx->order, &ctx->cap_order, need,
			   sizeof(*ctx->order));
	if (!err)
		err = dmn_grow(ctx, (void **)&ctx->off_order,
			       &ctx->cap_off_order, need,
			       sizeof(*ctx->off_order));
	/* dmn__walk_up's output and the off-order of a commit are never
	 * live together: one array (issue 21). */
	ctx->walk = ctx->off_order;
	if (!err)
		err = dmn_grow(ctx, (void **)&ctx->stack, &ctx->cap_stack, need,
			       sizeof(*ctx->stack));
	return err;
}

/* Depth-first up from @from over unmarked domains, appending each to @out
 * once all its parents are there. @txn picks the mark: the operation's
 * (visit/epoch) or the walk's (walk_mark/walk_epoch). */
static unsigned dfs_up(struct dmn_ctx *ctx, struct dmn_domain *from, bool txn,
		       struct dmn_domain **out, unsigned n)
{
	uint64_t epoch = txn ? ctx->epoch : ctx->walk_epoch;
#define MARK(d) (*(txn ? &(d)->visit : &(d)->walk_mark))
	if (MARK(from) == epoch)
		return n;
	struct dmn_domain **stack = ctx->stack;
	unsigned top = 0;
	MARK(from) = epoch;
	from->dfs_next = 0;
	stack[top++] = from;
	while (top) {
		struct dmn_domain *d = stack[top - 1];
		if (d->dfs_next < d->n_parents) {
			struct dmn_domain *p = d->parents[d->dfs_next++]->parent;
			if (MARK(p) != epoch) {
				MARK(p) = epoch;
				p->dfs_next = 0;
				stack[top++] = p;
			}
		} else {
			top--;
			out[n++] = d;
		}
	}
#undef MARK
	return n;
}

unsigned dmn__walk_up(struct dmn_ctx *ctx, struct dmn_domain *from)
{
	ctx->walk_epoch += 2;
	return dfs_up(ctx, from, false, ctx->walk, 0);
}

void dmn__walk_touch(struct dmn_ctx *ctx, struct dmn_domain *from)
{
	ctx->n_order = dfs_up(ctx, from, true, ctx->order, ctx->n_order);
}

/* One step of a depth-first search: follow the next link of the domain on
 * top of @stack (up: to a parent; down: to a child). Returns 1 if it meets
 * a domain the other search marked, -1 when the stack empties, else 0. */
static int dfs_step(struct dmn_domain **stack, unsigned *top, bool up,
		    uint64_t mine, uint64_t theirs)
{
	struct dmn_domain *d = stack[*top - 1];
	unsigned n = up ? d->n_parents : d->n_children;
	if (d->dfs_next >= n) {
		(*top)--;
		return *top ? 0 : -1;
	}
	struct dmn_domain *x = up ? d->parents[d->dfs_next]->parent
				 : d->children[d->dfs_next]->child;
	d->dfs_next++;
	if (x->walk_mark == theirs)
		return 1;
	if (x->walk_mark != mine) {
		x->walk_mark = mine;
		x->dfs_next = 0;
		stack[*top] = x;
		(*top)++;
	}
	return 0;
}

bool dmn__walk_reaches_down(struct dmn_ctx *ctx, struct dmn_domain *from,
		       struct dmn_domain *target)
{
	if (from == target)
		return true;
	/* Up on the stack array, down on the off-order array, free outside
	 * a commit (dmn_link_add asks before it touches anything); each
	 * holds a domain at most once. */
	ctx->walk_epoch += 2;
	uint64_t up = ctx->walk_epoch, down = up + 1;
	struct dmn_domain **up_stack = ctx->stack;
	struct dmn_domain **down_stack = ctx->off_order;
	unsigned up_top = 1, down_top = 1;
	target->walk_mark = up;
	target->dfs_next = 0;
	up_stack[0] = target;
	from->walk_mark = down;
	from->dfs_next = 0;
	down_stack[0] = from;
	/* Alternate single steps: whichever side is smaller finishes first,
	 * and a search that finishes without meeting the other proves there
	 * is no path. */
	for (;;) {
		int r = dfs_step(up_stack, &up_top, true, up, down);
		if (r)
			return r > 0;
		r = dfs_step(down_stack, &down_top, false, down, up);
		if (r)
			return r > 0;
	}
}
