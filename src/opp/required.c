/* SPDX-License-Identifier: MIT */
/*
 * Required OPPs: which domain each one votes on (the two-pass rule of
 * DESIGN §1), and domains with levels: the core rounding hook and the
 * per-link level map of a domain's table.
 */
#include "opp_internal.h"

#include <errno.h>
#include <string.h>

struct opp_table *opp_domain_level_table(const struct pd_domain *d)
{
	const struct opp_domain *od = d->opp_state;
	return od ? od->table : 0;
}

/* Is @t the table of a proper ancestor of @d? Depth-first, unmarked (this
 * runs inside core transactions, whose visit marks must not be touched);
 * real hierarchies are a few levels deep, and 64 bounds a malformed one. */
static bool ancestor_has(const struct pd_domain *d, const struct opp_table *t,
			 unsigned depth)
{
	if (depth > 64)
		return false;
	for (unsigned i = 0; i < d->n_parents; i++) {
		const struct pd_domain *p = d->parents[i]->parent;
		if (opp_domain_level_table(p) == t ||
		    ancestor_has(p, t, depth + 1))
			return true;
	}
	return false;
}

void opp_match(const struct opp_entry *e, struct pd_domain *const *doms,
	       unsigned n, int dom_of_req[OPP_MAX_REQUIRED])
{
	bool has[OPP_MAX_ATTACH];
	if (n > OPP_MAX_ATTACH)
		n = OPP_MAX_ATTACH;
	for (unsigned j = 0; j < OPP_MAX_REQUIRED; j++)
		dom_of_req[j] = -1;
	for (unsigned i = 0; i < n; i++)
		has[i] = false;
	/* Pass 1: a domain takes the first untaken entry of its own table. */
	for (unsigned i = 0; i < n; i++) {
		const struct opp_table *own = opp_domain_level_table(doms[i]);
		for (unsigned j = 0; own && j < e->n_required; j++) {
			if (dom_of_req[j] < 0 && e->req_table[j] == own) {
				dom_of_req[j] = (int)i;
				has[i] = true;
				break;
			}
		}
	}
	/* Pass 2: a domain still without one takes the first untaken entry of
	 * an ancestor's table (its level then passes up 1:1). */
	for (unsigned i = 0; i < n; i++) {
		for (unsigned j = 0; !has[i] && j < e->n_required; j++) {
			if (dom_of_req[j] < 0 &&
			    ancestor_has(doms[i], e->req_table[j], 0)) {
				dom_of_req[j] = (int)i;
				has[i] = true;
			}
		}
	}
}

static unsigned device_domains(const struct pd_device *dev,
			       struct pd_domain **doms)
{
	unsigned n =
	    dev->n_atts < OPP_MAX_ATTACH ? dev->n_atts : OPP_MAX_ATTACH;
	for (unsigned i = 0; i < n; i++)
		doms[i] = dev->atts[i]->dom;
	return n;
}

unsigned opp_entry_votes(const struct opp_entry *e, const struct pd_device *dev,
			 uint32_t *levels, bool *driven, unsigned max)
{
	struct pd_domain *doms[OPP_MAX_ATTACH];
	unsigned n = device_domains(dev, doms);
	if (n > max)
		n = max;
	for (unsigned i = 0; i < n; i++) {
		levels[i] = 0;
		driven[i] = false;
	}
	if (e->has_pstate) {
		/* A get-pstate helper: the device's single domain. */
		if (n) {
			levels[0] = e->pstate;
			driven[0] = true;
		}
		return n;
	}
	int dom_of_req[OPP_MAX_REQUIRED];
	opp_match(e, doms, n, dom_of_req);
	for (unsigned j = 0; j < e->n_required; j++) {
		if (dom_of_req[j] < 0)
			continue;
		levels[dom_of_req[j]] = e->req_entry[j]->level;
		driven[dom_of_req[j]] = true;
	}
	return n;
}

/* ---- domain hooks ------------------------------------------------------- */

/* Rounding over every entry with a level, whatever its availability: the
 * core requires a rounding hook never to refuse a level it accepted. */
static int domain_round(void *user, pd_domain_t dom, uint32_t level,
			uint32_t *rounded)
{
	(void)dom;
	const struct opp_domain *od = user;
	int pos = opp_pos_level_ceil_any(od->table, level);
	if (pos < 0)
		return -ERANGE;
	*rounded = od->table->sorted[pos]->level;
	return 0;
}

/* A child at @child_level requires of @parent the level of the required
 * OPP, of the child's entry for that level, that the matching rule gives
 * the parent among the child's parents; with none, the level itself. */
static int domain_map(void *user, pd_domain_t child, pd_domain_t parent,
		      uint32_t child_level, uint32_t *parent_level)
{
	(void)child;
	const struct opp_domain *od = user;
	const struct pd_domain *c = od->d;
	*parent_level = child_level;
	int pos = opp_pos_level_ceil_any(od->table, child_level);
	if (pos < 0)
		return 0;
	const struct opp_entry *e = od->table->sorted[pos];
	struct pd_domain *doms[OPP_MAX_ATTACH];
	unsigned n =
	    c->n_parents < OPP_MAX_ATTACH ? c->n_parents : OPP_MAX_ATTACH;
	int idx = -1;
	for (unsigned i = 0; i < n; i++) {
		doms[i] = c->parents[i]->parent;
		if (doms[i]->handle == parent)
			idx = (int)i;
	}
	if (idx < 0)
		return 0;
	int dom_of_req[OPP_MAX_REQUIRED];
	opp_match(e, doms, n, dom_of_req);
	for (unsigned j = 0; j < e->n_required; j++)
		if (dom_of_req[j] == idx)
			*parent_level = e->req_entry[j]->level;
	return 0;
}

static bool domain_busy(const struct pd_domain *d)
{
	if (d->pstate || d->votes.n)
		return true;
	for (const struct pd_attachment *a = d->att_head; a; a = a->dom_next)
		if (a->vote)
			return true; /* stored unrounded for a resume */
	return false;
}

int opp_domain_set_table(struct dmn_ctx *ctx, pd_domain_t dom,
			 opp_table_t table)
{
	if (!ctx)
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = pd_domain_get(ctx, dom);
	struct opp_table *t = opp_table_lookup(ctx, table);
	struct opp_domain *od = 0;
	int err = (d && t) ? 0 : -EBADF;
	if (!err && d->opp_state)
		err = -EEXIST;
	for (unsigned i = 0; !err && i < t->n; i++)
		if (!(t->by_id[i]->flags & OPP_FLAG_HAS_LEVEL))
			err = -EINVAL;
	if (!err && domain_busy(d))
		err = -EBUSY;
	if (!err) {
		od = dmn_alloc(ctx, sizeof(*od));
		err = od ? 0 : -ENOMEM;
	}
	if (!err) {
		struct opp_ctx *oc = ctx->opp;
		od->d = d;
		od->table = t;
		od->next = oc->domains;
		oc->domains = od;
		opp_table_ref(t);
		t->n_domains++;
		d->opp_state = od;
		/* The domain is at level 0 and nothing counts a level on it, so
		 * the hooks change no requirement now (the core never maps
		 * level 0): setting them directly is what
		 * pd_domain_set_rounding and pd_link_set_map would do, without
		 * a transaction. */
		d->round = domain_round;
		d->round_user = od;
		for (unsigned i = 0; i < d->n_parents; i++) {
			d->parents[i]->map = domain_map;
			d->parents[i]->map_user = od;
		}
	}
	dmn_unlock(ctx);
	return err;
}

int opp_domain_table(struct dmn_ctx *ctx, pd_domain_t dom, opp_table_t *out)
{
	if (!ctx || !out)
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = pd_domain_get(ctx, dom);
	int err = d ? 0 : -EBADF;
	const struct opp_table *t = d ? opp_domain_level_table(d) : 0;
	if (d && !t)
		err = -ENOENT;
	if (t)
		*out = t->handle;
	dmn_unlock(ctx);
	return err;
}

void opp_domains_fini(struct dmn_ctx *ctx, struct opp_ctx *oc)
{
	for (struct opp_domain *od = oc->domains, *next; od; od = next) {
		next = od->next;
		dmn_free(ctx, od);
	}
	oc->domains = 0;
}

/* ---- links --------------------------------------------------------------- */

static struct opp_domain *binding_of(struct dmn_ctx *ctx, pd_domain_t dom)
{
	if (dmn_lock(ctx))
		return 0;
	struct pd_domain *d = pd_domain_get(ctx, dom);
	struct opp_domain *od = d ? d->opp_state : 0;
	dmn_unlock(ctx);
	return od;
}

/* Recompute the requirement of every parent link of @child but @skip
 * through the map (a new parent can take a required OPP from another). */
static int resync_parents(struct dmn_ctx *ctx, pd_domain_t child,
			  pd_domain_t skip, struct opp_domain *od)
{
	int first = 0;
	pd_domain_t p;
	for (unsigned i = 0; !pd_domain_parent(ctx, child, i, &p); i++) {
		if (p == skip)
			continue;
		int err = pd_link_set_map(ctx, p, child, domain_map, od);
		if (err && !first)
			first = err;
	}
	return first;
}

int opp_link_add(struct dmn_ctx *ctx, pd_domain_t parent, pd_domain_t child)
{
	if (!ctx)
		return -EINVAL;
	int err = pd_link_add(ctx, parent, child);
	if (err)
		return err;
	struct opp_domain *od = binding_of(ctx, child);
	if (!od)
		return 0;
	err = pd_link_set_map(ctx, parent, child, domain_map, od);
	if (!err)
		err = resync_parents(ctx, child, parent, od);
	if (err) {
		pd_link_remove(ctx, parent, child);
		resync_parents(ctx, child, 0, od);
	}
	return err;
}

int opp_link_set_floor(struct dmn_ctx *ctx, pd_domain_t parent,
		       pd_domain_t child, uint32_t level)
{
	return pd_link_set_floor(ctx, parent, child, level);
}

/* ---- which required OPP went where (lint) ------------------------------ */

static int report_match(const struct opp_entry *e,
			struct pd_domain *const *doms, unsigned n, int *slot,
			unsigned max)
{
	int dom_of_req[OPP_MAX_REQUIRED];
	opp_match(e, doms, n, dom_of_req);
	for (unsigned j = 0; j < e->n_required && j < max; j++)
		slot[j] = dom_of_req[j];
	return (int)e->n_required;
}

int opp_device_required_match(struct dmn_ctx *ctx, pd_device_t dev, uint32_t id,
			      int *slot, unsigned max)
{
	if (!ctx || (!slot && max))
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	struct pd_device *pdev = pd_device_get_ptr(ctx, dev);
	const struct opp_dev *od = pdev ? pdev->opp_state : 0;
	const struct opp_entry *e = od ? opp_entry_by_id(od->table, id) : 0;
	int ret = !pdev ? -EBADF : !e ? -ENOENT : 0;
	if (e) {
		struct pd_domain *doms[OPP_MAX_ATTACH];
		unsigned n = device_domains(pdev, doms);
		ret = report_match(e, doms, n, slot, max);
	}
	dmn_unlock(ctx);
	return ret;
}

int opp_domain_required_match(struct dmn_ctx *ctx, pd_domain_t dom, uint32_t id,
			      int *slot, unsigned max)
{
	if (!ctx || (!slot && max))
		return -EINVAL;
	if (dmn_lock(ctx))
		return -EDEADLK;
	struct pd_domain *d = pd_domain_get(ctx, dom);
	const struct opp_table *t = d ? opp_domain_level_table(d) : 0;
	const struct opp_entry *e = t ? opp_entry_by_id(t, id) : 0;
	int ret = !d ? -EBADF : !e ? -ENOENT : 0;
	if (e) {
		struct pd_domain *doms[OPP_MAX_ATTACH];
		unsigned n = d->n_parents < OPP_MAX_ATTACH ? d->n_parents
							   : OPP_MAX_ATTACH;
		for (unsigned i = 0; i < n; i++)
			doms[i] = d->parents[i]->parent;
		ret = report_match(e, doms, n, slot, max);
	}
	dmn_unlock(ctx);
	return ret;
}
