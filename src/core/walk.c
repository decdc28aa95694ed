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
	int err = dmn__grow(ctx, (void **)&ctx->order, &ctx->cap_order, need,
			   sizeof(*ctx->order));
	if (!err)
		err = dmn__grow(ctx, (void **)&ctx->off_order,
			       &ctx->cap_off_order, need,
			       sizeof(*ctx->off_order));
	/* dmn__walk_up's output and the off-order of a commit are never
	 * live together: one array (docs/decisions/memory-layout.md). */
	ctx->walk = ctx->off_order;
	if (!err)
		err = dmn__grow(ctx, (void **)&ctx->stack, &ctx->cap_stack, need,
			       sizeof(*ctx->stack));
	return err;
}

/* One depth-first search: its stack (the path from where it started), its
 * direction, the mark field it sets (dmn_domain.visit, the operation's,
 * or walk_mark, the walk's: offsetof), its own mark and the other
 * search's, and where it appends each domain once all of those it goes
 * to are there (NULL: nowhere). */
struct dfs {
	struct dmn_domain **stack;
	unsigned top;
	bool up;
	size_t mark;
	uint64_t mine, theirs;
	struct dmn_domain **out;
	unsigned n;
};

static uint64_t *mark_of(const struct dfs *s, struct dmn_domain *d)
{
	return (uint64_t *)(void *)((char *)d + s->mark);
}

/* Start @s at @from, unless @from is marked already. */
static void dfs_push(struct dfs *s, struct dmn_domain *from)
{
	if (*mark_of(s, from) == s->mine)
		return;
	*mark_of(s, from) = s->mine;
	from->dfs_next = 0;
	s->stack[s->top++] = from;
}

/* One step: follow the next link of the domain on top of the stack (up:
 * to a parent; down: to a child), or finish that domain. Returns 1 if it
 * meets a domain the other search marked, -1 once the stack is empty,
 * else 0. */
static int dfs_step(struct dfs *s)
{
	if (!s->top)
		return -1;
	struct dmn_domain *d = s->stack[s->top - 1];
	if (d->dfs_next >= (s->up ? d->n_parents : d->n_children)) {
		s->top--;
		if (s->out)
			s->out[s->n++] = d;
		return 0;
	}
	struct dmn_domain *x = s->up ? d->parents[d->dfs_next]->parent
				     : d->children[d->dfs_next]->child;
	d->dfs_next++;
	if (*mark_of(s, x) == s->theirs)
		return 1;
	dfs_push(s, x);
	return 0;
}

/* Up (@up) or down from @from over domains not marked @mine in the field
 * at @mark, appending each to @out after @n others once all those it goes
 * to are there; returns the new count. */
DMN_NOINLINE static unsigned dfs_all(struct dmn_ctx *ctx,
					  struct dmn_domain *from, bool up,
					  size_t mark, uint64_t mine,
					  struct dmn_domain **out, unsigned n)
{
	/* No domain is ever marked UINT64_MAX: the search meets no other. */
	struct dfs s = {ctx->stack, 0, up, mark, mine, UINT64_MAX, out, n};
	dfs_push(&s, from);
	while (dfs_step(&s) >= 0)
		;
	return s.n;
}

unsigned dmn__walk_up(struct dmn_ctx *ctx, struct dmn_domain *from)
{
	ctx->walk_epoch += 2;
	return dfs_all(ctx, from, true, offsetof(struct dmn_domain, walk_mark),
		       ctx->walk_epoch, ctx->walk, 0);
}

unsigned dmn__walk_down(struct dmn_ctx *ctx, struct dmn_domain *from)
{
	ctx->walk_epoch += 2;
	return dfs_all(ctx, from, false, offsetof(struct dmn_domain, walk_mark),
		       ctx->walk_epoch, ctx->walk, 0);
}

void dmn__walk_touch(struct dmn_ctx *ctx, struct dmn_domain *from)
{
	ctx->n_order = dfs_all(ctx, from, true,
			       offsetof(struct dmn_domain, visit), ctx->epoch,
			       ctx->order, ctx->n_order);
}

bool dmn__walk_reaches_down(struct dmn_ctx *ctx, struct dmn_domain *from,
		       struct dmn_domain *target)
{
#ifdef DMN_FIRMWARE
	/* A firmware build searches down from @from alone, to the end: the
	 * same answer, without the hosted build's second search (which
	 * keeps a chain built upwards, one link on top of the other, linear
	 * instead of quadratic). */
	dmn__walk_down(ctx, from);
	return target->walk_mark == ctx->walk_epoch;
#else
	if (from == target)
		return true;
	/* Up on the stack array, down on the off-order array, free outside
	 * a commit (dmn_link_add asks before it touches anything); each
	 * holds a domain at most once. */
	ctx->walk_epoch += 2;
	uint64_t up = ctx->walk_epoch;
	size_t mark = offsetof(struct dmn_domain, walk_mark);
	struct dfs s[2] = {{ctx->stack, 0, true, mark, up, up + 1, 0, 0},
			   {ctx->off_order, 0, false, mark, up + 1, up, 0, 0}};
	dfs_push(&s[0], target);
	dfs_push(&s[1], from);
	/* Alternate single steps: whichever side is smaller finishes first,
	 * and a search that finishes without meeting the other proves there
	 * is no path. */
	for (unsigned i = 0;; i ^= 1) {
		int r = dfs_step(&s[i]);
		if (r)
			return r > 0;
	}
#endif
}
