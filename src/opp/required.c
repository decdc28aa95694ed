/* SPDX-License-Identifier: MIT */
/*
 * Required OPPs: which domain each one votes on (the two-pass rule of
 * docs/semantics.md), and domains with levels: the core rounding hook and the
 * per-link level map of a domain's table.
 */
#include "opp_internal.h"

#include <errno.h>
#include <string.h>

struct dmn_opp_table *dmn__opp_domain_level_table(const struct dmn_domain *d)
{
	const struct dmn_opp_domain *od = d->opp_state;
	return od ? od->table : 0;
}

int dmn__opp_scratch_reserve(struct dmn_ctx *ctx, unsigned n_req)
{
	struct dmn_opp_ctx *oc = ctx->opp; /* made with the first table */
	unsigned slots = ctx->domains.n_slots + 1;
	unsigned old = oc->cap_walk;
	if (dmn__grow(ctx, (void **)&oc->req_slot, &oc->cap_req_slot,
		     n_req + 1, sizeof(*oc->req_slot)) ||
	    dmn__grow(ctx, (void **)&oc->walk, &oc->cap_walk, slots,
		     sizeof(*oc->walk)))
		return -ENOMEM;
	for (unsigned i = old; i < oc->cap_walk; i++)
		oc->walk[i].mark = 0; /* below any generation in use */
	return 0;
}

static unsigned dom_slot(const struct dmn_domain *d)
{
	return d->handle & HANDLE_MAX_SLOTS;
}

/* The handle of @d's level table, 0 if none (0 is never a handle). */
static dmn_opp_table_t level_handle(const struct dmn_domain *d)
{
	const struct dmn_opp_domain *od = d->opp_state;
	return od ? od->table->handle : 0;
}

/* Is @t the table of a proper ancestor of @d? An explicit stack and marks
 * of the OPP layer's own (this runs inside core transactions, whose visit
 * marks must not be touched): each ancestor once, no depth limit.
 * 1 yes, 0 no, -ENOMEM. */
DMN_NOINLINE static int ancestor_has(struct dmn_ctx *ctx,
					  const struct dmn_domain *d,
					  dmn_opp_table_t t)
{
	struct dmn_opp_ctx *oc = ctx->opp;
	if (dmn__opp_scratch_reserve(ctx, 0))
		return -ENOMEM;
	uint32_t gen = ++oc->dom_gen;
	if (!gen) { /* wrapped: old marks could alias */
		for (unsigned i = 0; i < oc->cap_walk; i++)
			oc->walk[i].mark = 0;
		gen = oc->dom_gen = 1;
	}
	unsigned n = 0;
	const struct dmn_domain *cur = d;
	for (;;) {
		for (unsigned i = 0; i < cur->n_parents; i++) {
			struct dmn_domain *p = cur->parents[i]->parent;
			if (level_handle(p) == t)
				return 1;
			unsigned slot = dom_slot(p);
			/* the stack holds distinct slots below cap_walk: room */
			if (slot >= oc->cap_walk)
				return -ENOMEM; /* a domain made mid-call */
			if (oc->walk[slot].mark == gen)
				continue;
			oc->walk[slot].mark = gen;
			oc->walk[n++].d = p;
		}
		if (!n)
			return 0;
		cur = oc->walk[--n].d;
	}
}

struct dmn_domain *dmn__opp_att_dom(const void *pdev, unsigned i)
{
	return dev_att((const struct dmn_device *)pdev, i)->dom;
}

struct dmn_domain *dmn__opp_parent_dom(const void *dom, unsigned i)
{
	return ((const struct dmn_domain *)dom)->parents[i]->parent;
}

int dmn__opp_match(struct dmn_ctx *ctx, const struct dmn_opp_entry *e, dmn_opp_dom_at_fn at,
	      const void *src, unsigned n)
{
	int err = dmn__opp_scratch_reserve(ctx, e->n_required);
	if (err)
		return err;
	int *dom_of_req = ((struct dmn_opp_ctx *)ctx->opp)->req_slot;
	const struct dmn_opp_required *req = oe_required(e);
	unsigned n_req = e->n_required;
	for (unsigned j = 0; j < n_req; j++)
		dom_of_req[j] = -1;
	/* Pass 0: a domain takes the first untaken entry of its own table.
	 * Pass 1: a domain still without one takes the first untaken entry of
	 * an ancestor's table, at any distance (its level then passes up 1:1
	 * through the domains in between). A required entry without a level
	 * is in a device table (dmn_opp_add keeps the two apart). */
	for (unsigned pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < n; i++) {
			const struct dmn_domain *d = at(src, i);
			bool has = false;
			for (unsigned j = 0; j < n_req; j++)
				has |= dom_of_req[j] == (int)i;
			for (unsigned j = 0; !has && j < n_req; j++) {
				if (dom_of_req[j] >= 0)
					continue;
				int hit = req[j].table == level_handle(d);
				if (pass)
					hit = oe_req_entry(e)[j]->flags &
						      DMN_OPP_FLAG_HAS_LEVEL
						  ? ancestor_has(ctx, d, req[j].table)
						  : 0;
				if (hit < 0)
					return hit;
				if (hit) {
					dom_of_req[j] = (int)i;
					has = true;
				}
			}
		}
	}
	return 0;
}

int dmn__opp_entry_raise(struct dmn_ctx *ctx, const struct dmn_opp_entry *e,
			 const struct dmn_device *dev, uint32_t *levels,
			 bool *driven, unsigned max)
{
	unsigned n = dev->n_atts < max ? dev->n_atts : max;
	if (oe_has_pstate(e)) {
		/* A get-pstate helper: the device's single domain. */
		if (n)
			opp_raise_vote(levels, driven, 0, oe_pstate(e));
		return (int)n;
	}
	int err = dmn__opp_match(ctx, e, dmn__opp_att_dom, dev, dev->n_atts);
	if (err)
		return err;
	/* the matching gives each attachment one required OPP at most */
	const int *dom_of_req = ((struct dmn_opp_ctx *)ctx->opp)->req_slot;
	for (unsigned j = 0; j < e->n_required; j++) {
		int i = dom_of_req[j];
		if (i >= 0 && (unsigned)i < n)
			opp_raise_vote(levels, driven, (unsigned)i,
				  oe_req_entry(e)[j]->level);
	}
	return (int)n;
}

/* ---- domain hooks ------------------------------------------------------- */

/* Rounding over every entry with a level, whatever its availability: the
 * core requires a rounding hook never to refuse a level it accepted. */
static int domain_round(void *user, dmn_domain_t dom, uint32_t level,
			uint32_t *rounded)
{
	(void)dom;
	const struct dmn_opp_domain *od = user;
	int pos = dmn__opp_pos_level_ceil_any(od->table, level);
	if (pos < 0)
		return -ERANGE;
	*rounded = opp_sorted_at(od->table, pos)->level;
	return 0;
}

/* A child at @child_level requires of @parent the level of the required
 * OPP, of the child's entry for that level, that the matching rule gives
 * the parent among the child's parents; with none, the level itself. */
static int domain_map(void *user, dmn_domain_t child, dmn_domain_t parent,
		      uint32_t child_level, uint32_t *parent_level)
{
	(void)child;
	const struct dmn_opp_domain *od = user;
	const struct dmn_domain *c = od->d;
	*parent_level = child_level;
	int pos = dmn__opp_pos_level_ceil_any(od->table, child_level);
	if (pos < 0)
		return 0;
	const struct dmn_opp_entry *e = opp_sorted_at(od->table, pos);
	int idx = -1;
	for (unsigned i = 0; i < c->n_parents; i++)
		if (c->parents[i]->parent->handle == parent)
			idx = (int)i;
	if (idx < 0)
		return 0;
	/* The scratch was reserved when the link was made; should memory
	 * still fail here, the level passes 1:1 (never an error: the core
	 * wants the same answer every time). */
	if (dmn__opp_match(od->ctx, e, dmn__opp_parent_dom, c, c->n_parents))
		return 0;
	const int *dom_of_req = ((struct dmn_opp_ctx *)od->ctx->opp)->req_slot;
	for (unsigned j = 0; j < e->n_required; j++)
		if (dom_of_req[j] == idx)
			*parent_level = oe_req_entry(e)[j]->level;
	return 0;
}

static bool domain_busy(const struct dmn_domain *d)
{
	if (d->pstate || d->votes.n)
		return true;
	for (const struct dmn_attachment *a = d->att_head; a; a = a->dom_next)
		if (a->vote)
			return true; /* stored unrounded for a resume */
	return false;
}

int dmn_opp_domain_set_table(struct dmn_ctx *ctx, dmn_domain_t dom,
			 dmn_opp_table_t table)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, true, DMN_DOMAINS, dom, &err);
	if (!d)
		return err;
	struct dmn_opp_table *t = dmn__opp_table_lookup(ctx, table);
	struct dmn_opp_domain *od = 0;
	/* every entry has a level */
	bool levels = true;
	for (unsigned i = 0; t && i < t->n; i++)
		levels &= !!(t->by_id[i]->flags & DMN_OPP_FLAG_HAS_LEVEL);
	err = !t ? -EBADF : d->opp_state ? -EEXIST : !levels ? -EINVAL
	    : domain_busy(d) ? -EBUSY : 0;
	/* the map's ancestor walk over every domain slot (dmn_opp_add made
	 * the rest of the matching scratch fit each entry it added) */
	if (!err)
		err = dmn__opp_scratch_reserve(ctx, 0);
	/* The rounding hook lives in the domain's cold part. */
	if (!err && !dmn__domain_cold(ctx, d))
		err = -ENOMEM;
	if (!err) {
		od = dmn__alloc(ctx, sizeof(*od));
		err = od ? 0 : -ENOMEM;
	}
	if (!err) {
		struct dmn_opp_ctx *oc = ctx->opp;
		od->ctx = ctx;
		od->d = d;
		od->table = t;
		od->next = oc->domains;
		oc->domains = od;
		dmn__opp_table_ref(t);
		t->n_domains++;
		d->opp_state = od;
		/* The domain is at level 0 and nothing counts a level on it, so
		 * the hooks change no requirement now (the core never maps
		 * level 0): setting them directly is what
		 * dmn_domain_set_rounding and dmn_link_set_map would do, without
		 * a transaction. */
		d->cold->round = domain_round;
		d->cold->round_user = od;
		for (unsigned i = 0; i < d->n_parents; i++) {
			d->parents[i]->map = domain_map;
			d->parents[i]->map_user = od;
		}
	}
	dmn__unlock(ctx);
	return err;
}

/* ---- links --------------------------------------------------------------- */

/* The link and the maps in one core step that cannot half-fail: the map's
 * ancestor walk is made to fit first (nothing is added if it cannot), then
 * dmn__link_add_map sets the map on every parent link of a child that takes
 * its levels from a table (a new parent can take a required OPP from
 * another) and passes each requirement up again, in the link's own
 * transaction. */
int dmn_opp_link_add(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child)
{
	int err;
	struct dmn_domain *c = dmn__enter(ctx, true, DMN_DOMAINS | DMN_ENTER_RECORD,
					  child, &err);
	if (!c)
		return err;
	struct dmn_opp_domain *od = c->opp_state;
	if (od)
		err = dmn__opp_scratch_reserve(ctx, 0);
	dmn__unlock(ctx);
	return err ? err
		   : dmn__link_add_map(ctx, parent, child,
				       od ? domain_map : 0, od);
}

int dmn_opp_link_set_floor(struct dmn_ctx *ctx, dmn_domain_t parent,
		       dmn_domain_t child, uint32_t level)
{
	return dmn_link_set_floor(ctx, parent, child, level);
}
