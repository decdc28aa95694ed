/* SPDX-License-Identifier: MIT */
/*
 * Providers and their domains: #power-domain-cells nodes, Rockchip-style
 * nested power-domain@N children, the indices consumers reference, the
 * subdomain links (without cycles) and the providers' required-opps floors.
 */
#include "dt_internal.h"
#include "../core/bsearch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Does @node define a domain of an enclosing one-cell provider? */
static bool nested_candidate(const struct dmn_dt_loader *ld, int32_t node)
{
	int32_t parent = ld->nodes[node].parent;
	if (parent < 0 || !dmn__dt_has_prop(ld, node, "reg"))
		return false;
	const struct dmn_dt_node *p = &ld->nodes[parent];
	if (p->nested)
		return true;
	return p->provider >= 0 && ld->board->providers[p->provider].cells == 1;
}

static int add_provider(struct dmn_dt_loader *ld, int32_t node, uint32_t cells)
{
	struct dmn_dt_board *b = ld->board;
	struct dmn_dt_provider *p =
	    dmn__dt_vec_push(ld->pool, (void **)&b->providers, &b->n_providers,
			&ld->cap_providers, sizeof(*p));
	if (!p)
		return -ENOMEM;
	struct dmn_dt_node *n = &ld->nodes[node];
	const char *compat = dmn__dt_prop_string(ld, node, "compatible", 0, NULL);
	unsigned ns;
	const char *status = dmn__dt_prop_string(ld, node, "status", 0, &ns);
	if (dmn__dt_node_seg(ld, node, &p->path_seg) ||
	    (n->label && !(p->label = dmn__dt_pool_strdup(ld->pool, n->label))) ||
	    (compat && !(p->compatible = dmn__dt_pool_strdup(ld->pool, compat))) ||
	    (status && !(p->status = dmn__dt_pool_strdup(ld->pool, status))))
		return -ENOMEM;
	p->labels = n->labels;
	p->n_labels = n->n_labels;
	p->cells = cells;
	/* PSCI's power-domain-* nodes: Linux's cpuidle-psci-domain makes
	 * every domain it finds under the PSCI node a CPU domain. */
	const char *pc = n->parent >= 0 ? dmn__dt_prop_string(ld, n->parent,
							       "compatible", 0,
							       NULL)
					 : NULL;
	p->cpu = pc && !strncmp(pc, "arm,psci", 8);
	p->opp_table = -1;
	p->first_domain = -1;
	n->provider = (int32_t)b->n_providers - 1;

	int err = dmn__dt_opp_table_resolve(ld, node, &p->opp_table);
	if (err == -ENOMEM)
		return err;
	/* Domain levels are opp-level values: a table without any gives the
	 * domains nothing to round to. */
	if (p->opp_table >= 0 && !b->opp_tables[p->opp_table].has_level) {
		if (DT_WARN(ld, "opp-table-no-level", node,
			    "operating-points-v2",
			    "%s has no opp-level entries to give this "
			    "provider's domains levels: ignored",
			    b->opp_tables[p->opp_table].path))
			return -ENOMEM;
		p->opp_table = -1;
	}
	err = dmn__dt_opp_ref_resolve(ld, node, "required-opps", &p->required,
				 &p->n_required);
	return err == -ENOMEM ? err : 0;
}

int dmn__dt_providers_scan(struct dmn_dt_loader *ld)
{
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		int32_t node = (int32_t)i;
		struct dmn_dt_node *n = &ld->nodes[i];
		int len;
		const void *v = dmn__dt_prop(ld, node, "#power-domain-cells", &len);
		if (!v || !n->enabled)
			continue;
		if (len != 4) {
			if (DT_ERR(ld, -EINVAL, "prop-length", node,
				   "#power-domain-cells",
				   "must be one 32-bit cell, is %d bytes", len))
				return -ENOMEM;
			continue;
		}
		if (nested_candidate(ld, node)) {
			uint32_t reg;
			int r = dmn__dt_prop_u32(ld, node, "reg", &reg);
			if (r <= 0) {
				/* reg with address/size cells: the domain id is
				 * its first cell */
				int rl;
				const void *rv = dmn__dt_prop(ld, node, "reg", &rl);
				if (rl < 4) {
					if (DT_ERR(ld, -EINVAL, "prop-length",
						   node, "reg",
						   "too short for a domain id"))
						return -ENOMEM;
					continue;
				}
				reg = dmn__dt_cell(rv, 0);
			}
			int32_t parent = n->parent;
			n->nested = true;
			n->nested_index = reg;
			if (ld->nodes[parent].nested) {
				n->nested_owner =
				    ld->nodes[parent].nested_owner;
				n->nested_parent_node = parent;
			} else {
				n->nested_owner = ld->nodes[parent].provider;
			}
			continue;
		}
		/* Any number of cells: the first is the domain's index, the
		 * others are the consumer's arguments (TI K3's
		 * ti,sci-pm-domain has 2: id, then flags). */
		uint32_t cells = dmn__dt_cell(v, 0);
		int err = add_provider(ld, node, cells);
		if (err)
			return err;
	}
	return 0;
}

static bool domain_index_before(const void *base, size_t i, const void *key)
{
	const struct dmn_dt_domain *d = base;
	return d[i].index < *(const int64_t *)key;
}

int32_t dmn__dt_spec_domain(const struct dmn_dt_loader *ld, const struct dmn_dt_pd_spec *s)
{
	const struct dmn_dt_board *b = ld->board;
	if (s->node >= 0 && ld->nodes[s->node].nested)
		return ld->nodes[s->node].nested_domain;
	if (s->provider < 0)
		return -1;
	const struct dmn_dt_provider *p = &b->providers[s->provider];
	if (p->first_domain < 0)
		return -1;
	/* the provider's domains, by index */
	size_t lo = dmn__lower_bound(p->n_domains, &b->domains[p->first_domain],
				     &s->index, domain_index_before);
	if (lo < p->n_domains &&
	    b->domains[p->first_domain + (int32_t)lo].index == s->index)
		return p->first_domain + (int32_t)lo;
	return -1;
}

static int add_key(struct dmn_dt_loader *ld, int32_t provider, int64_t index,
		   int32_t node)
{
	struct dmn_dt_domain_key *k =
	    dmn__dt_vec_push(ld->pool, (void **)&ld->keys, &ld->n_keys,
			&ld->cap_keys, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->provider = provider;
	k->index = index;
	k->node = node;
	return 0;
}

/* Sort by (provider, index); for equal keys a nested definition first, then
 * in discovery order (first definition wins). */
static int cmp_key(const void *a, const void *b)
{
	const struct dmn_dt_domain_key *x = a, *y = b;
	if (x->provider != y->provider)
		return x->provider < y->provider ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	bool xn = x->node >= 0, yn = y->node >= 0;
	if (xn != yn)
		return xn ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

int dmn__dt_domain_link(struct dmn_dt_loader *ld, int32_t child, int32_t parent,
		   int32_t node, const char *property)
{
	DMN_ASSERT(child >= 0 && (unsigned)child < ld->board->n_domains &&
		   parent >= 0 && (unsigned)parent < ld->board->n_domains);
	struct dmn_dt_domain *c = &ld->board->domains[child];
	for (unsigned i = 0; i < c->n_parents; i++)
		if (c->parents[i] == parent)
			return 0;
	int cycle = dmn__dt_link_would_cycle(ld, child, parent);
	if (cycle < 0)
		return cycle;
	if (cycle)
		return DT_WARN(ld, "graph-cycle", node, property,
			       "making %s a subdomain of %s would close a "
			       "cycle: link dropped",
			       c->name, ld->board->domains[parent].name);
	c->parents[c->n_parents++] = parent;
	return dmn__dt_link_record(ld, child, parent);
}

static int create_domains(struct dmn_dt_loader *ld, const int32_t *pnode)
{
	struct dmn_dt_board *b = ld->board;
	if (ld->n_keys)
		qsort(ld->keys, ld->n_keys, sizeof(*ld->keys), cmp_key);
	unsigned distinct = 0;
	for (unsigned i = 0; i < ld->n_keys; i++)
		distinct += i == 0 ||
			    ld->keys[i - 1].provider != ld->keys[i].provider ||
			    ld->keys[i - 1].index != ld->keys[i].index;
	if (distinct) {
		b->domains =
		    dmn__dt_pool_alloc(ld->pool, distinct * sizeof(*b->domains));
		if (!b->domains)
			return -ENOMEM;
	}
	for (unsigned i = 0; i < ld->n_keys; i++) {
		const struct dmn_dt_domain_key *k = &ld->keys[i];
		bool repeat = i > 0 &&
			      ld->keys[i - 1].provider == k->provider &&
			      ld->keys[i - 1].index == k->index;
		int32_t dom = (int32_t)b->n_domains - (repeat ? 1 : 0);
		if (repeat) {
			if (k->node >= 0) {
				const char *first = dmn__dt_domain_path_tmp(ld, dom);
				const char *ppath =
				    dmn__dt_node_path(ld, pnode[k->provider]);
				if (!first || !ppath ||
				    DT_NOTE(ld, "domain-defined-twice", k->node,
					    "reg",
					    "domain %lld of %s is already "
					    "defined by %s, whose properties "
					    "win; the domain enclosing each "
					    "definition is a parent (two "
					    "where they differ, as Linux's "
					    "Rockchip driver links RK3588's "
					    "RKVDEC0/1)",
					    (long long)k->index,
					    ppath, first))
					return -ENOMEM;
				ld->nodes[k->node].nested_domain = dom;
			}
			continue;
		}
		struct dmn_dt_provider *p = &b->providers[k->provider];
		struct dmn_dt_domain *d = &b->domains[b->n_domains++];
		if (p->first_domain < 0)
			p->first_domain = dom;
		p->n_domains++;
		d->provider = k->provider;
		d->index = p->cells ? k->index : -1;
		d->opp_table = p->opp_table;
		if (dmn__dt_node_seg(ld, k->node >= 0 ? k->node : pnode[k->provider],
				&d->path_seg) ||
		    !(d->name = dmn__dt_domain_name(ld, p, pnode[k->provider],
						    d->index)))
			return -ENOMEM;
		if (k->node >= 0) {
			d->labels = ld->nodes[k->node].labels;
			d->n_labels = ld->nodes[k->node].n_labels;
		} else if (d->index < 0) {
			d->labels = p->labels;
			d->n_labels = p->n_labels;
		}
		if (k->node >= 0)
			ld->nodes[k->node].nested_domain = dom;
	}
	return 0;
}

/* Whether node @node has domain @d's path (O(1): equal paths share a
 * segment; a node without one is on no domain's path). */
static bool same_path_as(const struct dmn_dt_loader *ld, int32_t node,
			 const struct dmn_dt_domain *d)
{
	int32_t seg = ld->nodes[ld->nodes[node].same_path].path_seg;
	return seg >= -1 && seg == d->path_seg;
}

/* Idle states: a nested node's own domain-idle-states, else its provider's
 * (resolved once per provider so its diagnostics are not repeated). */
static int assign_idle_states(struct dmn_dt_loader *ld, const int32_t *pnode)
{
	struct dmn_dt_board *b = ld->board;
	for (unsigned pi = 0; pi < b->n_providers; pi++) {
		struct dmn_dt_provider *p = &b->providers[pi];
		int32_t *states;
		unsigned n;
		int err = dmn__dt_idle_refs_resolve(ld, pnode[pi], &states, &n);
		if (err == -ENOMEM)
			return err;
		for (unsigned k = 0; k < p->n_domains; k++) {
			struct dmn_dt_domain *d =
			    &b->domains[p->first_domain + (int32_t)k];
			d->idle_states = states;
			d->n_idle_states = n;
		}
	}
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		struct dmn_dt_node *n = &ld->nodes[i];
		if (!n->nested || n->nested_domain < 0 ||
		    !dmn__dt_has_prop(ld, (int32_t)i, "domain-idle-states"))
			continue;
		struct dmn_dt_domain *d = &b->domains[n->nested_domain];
		if (!same_path_as(ld, (int32_t)i, d))
			continue; /* a repeated definition: the first wins */
		int err = dmn__dt_idle_refs_resolve(ld, (int32_t)i, &d->idle_states,
					       &d->n_idle_states);
		if (err == -ENOMEM)
			return err;
	}
	return 0;
}

static int provider_parents(struct dmn_dt_loader *ld, int32_t pi, int32_t node)
{
	struct dmn_dt_provider *p = &ld->board->providers[pi];
	struct dmn_dt_node *n = &ld->nodes[node];
	if (!n->n_specs)
		return 0;
	p->parents = dmn__dt_pool_alloc(ld->pool, n->n_specs * sizeof(*p->parents));
	if (!p->parents)
		return -ENOMEM;
	for (unsigned i = 0; i < n->n_specs; i++) {
		int32_t dom =
		    n->specs[i].usable ? dmn__dt_spec_domain(ld, &n->specs[i]) : -1;
		bool seen = dom < 0;
		for (unsigned j = 0; !seen && j < p->n_parents; j++)
			seen = p->parents[j] == dom;
		if (!seen)
			p->parents[p->n_parents++] = dom;
	}
	return 0;
}

/*
 * power-domains-child-ids (Linux 7.2, of_genpd_add_child_ids): a provider
 * with cells says which of its domains each entry of its own power-domains
 * parents, entry i to domain ids[i]. It is all or nothing, as in Linux:
 * when the two counts differ, an entry cannot be used, or a pair repeats,
 * no link is made (warned); the property on a provider without cells means
 * nothing (warned, ignored). docs/decisions/lint-check-families.md states
 * the rule.
 */
enum child_ids_state { CHILD_IDS_NONE, CHILD_IDS_VALID, CHILD_IDS_INVALID };

struct child_ids {
	const void *ids; /* the property's cells, in the blob */
	unsigned n;
	enum child_ids_state state;
};

/* The state of provider @pi's child ids; 0 or -ENOMEM (a warning). */
static int child_ids_read(struct dmn_dt_loader *ld, int32_t pi, int32_t node,
			  struct child_ids *c)
{
	const struct dmn_dt_provider *p = &ld->board->providers[pi];
	const struct dmn_dt_node *n = &ld->nodes[node];
	int len;
	c->ids = dmn__dt_prop(ld, node, "power-domains-child-ids", &len);
	c->n = c->ids ? (unsigned)len / 4 : 0;
	c->state = CHILD_IDS_NONE;
	if (!c->ids)
		return 0;
	if (!p->cells)
		return DT_WARN(ld, "pd-child-ids", node, "power-domains-child-ids",
			       "this provider has no cells (one domain): the "
			       "property is ignored");
	c->state = CHILD_IDS_INVALID;
	if (len % 4 || !len)
		return DT_WARN(ld, "pd-child-ids", node, "power-domains-child-ids",
			       "length %d is not a whole, non-zero number of "
			       "cells: no domain of this provider gets a parent",
			       len);
	if (n->pd_state != 1)
		return DT_WARN(ld, "pd-child-ids", node, "power-domains-child-ids",
			       "an entry of power-domains cannot be used: no "
			       "domain of this provider gets a parent (Linux "
			       "links them all or none)");
	if (c->n != n->n_specs)
		return DT_WARN(ld, "pd-child-ids", node, "power-domains-child-ids",
			       "%u child ids for %u power-domains entries: no "
			       "domain of this provider gets a parent (Linux "
			       "links them all or none)",
			       c->n, n->n_specs);
	for (unsigned i = 0; i < c->n; i++)
		for (unsigned j = 0; j < i; j++)
			if (dmn__dt_cell(c->ids, i) == dmn__dt_cell(c->ids, j) &&
			    n->specs[i].node == n->specs[j].node &&
			    n->specs[i].index == n->specs[j].index)
				return DT_WARN(
				    ld, "pd-child-ids", node,
				    "power-domains-child-ids",
				    "entries %u and %u link domain %u to the "
				    "same parent twice: no domain of this "
				    "provider gets a parent (Linux links them "
				    "all or none)",
				    j, i, dmn__dt_cell(c->ids, i));
	/* where Linux's driver is known, every id must be a domain of it */
	const struct dmn__dt_pd_binding *t = dmn__dt_pd_binding_of(ld, node);
	for (unsigned i = 0; t && i < c->n; i++)
		if (!dmn__dt_pd_binding_name(t, dmn__dt_cell(c->ids, i)))
			return DT_WARN(ld, "pd-child-ids", node,
				       "power-domains-child-ids",
				       "entry %u: %s registers no domain %u "
				       "(%s): no domain of this provider gets a "
				       "parent (Linux links them all or none)",
				       i, t->driver, dmn__dt_cell(c->ids, i),
				       t->header);
	c->state = CHILD_IDS_VALID;
	return 0;
}

/* The domain of @provider with index @index, or -1 (a provider's domains
 * are consecutive, in index order). */
static int32_t provider_domain(const struct dmn_dt_board *b, int32_t provider,
			       int64_t index)
{
	const struct dmn_dt_provider *p = &b->providers[provider];
	for (unsigned k = 0; k < p->n_domains; k++)
		if (b->domains[p->first_domain + (int32_t)k].index == index)
			return p->first_domain + (int32_t)k;
	return -1;
}

static int link_domains(struct dmn_dt_loader *ld, const int32_t *pnode,
			const struct driver_parents *const *dp,
			const struct child_ids *cids)
{
	struct dmn_dt_board *b = ld->board;
	for (unsigned pi = 0; pi < b->n_providers; pi++) {
		int err = provider_parents(ld, (int32_t)pi, pnode[pi]);
		if (err)
			return err;
	}
	/* Room for every parent a domain can get: one per nested node that
	 * defines it inside another (a number defined twice, as RK3588's
	 * RKVDEC0/1 under VCODEC and VDPU, is a subdomain of both enclosing
	 * domains, as Linux's Rockchip driver links it), or its provider's
	 * parents. */
	unsigned *nestings = NULL;
	if (b->n_domains &&
	    !(nestings = dmn__dt_pool_alloc(ld->pool,
					    b->n_domains * sizeof(*nestings))))
		return -ENOMEM;
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		const struct dmn_dt_node *n = &ld->nodes[i];
		if (n->nested && n->nested_domain >= 0 &&
		    n->nested_parent_node >= 0)
			nestings[n->nested_domain]++;
	}
	for (unsigned di = 0; di < b->n_domains; di++) {
		struct dmn_dt_domain *d = &b->domains[di];
		unsigned room = b->providers[d->provider].n_parents +
				(nestings[di] ? nestings[di] : 1) +
				(dmn__dt_driver_parent(dp[d->provider], d->index) >= 0);
		d->parents =
		    dmn__dt_pool_alloc(ld->pool, room * sizeof(*d->parents));
		if (!d->parents)
			return -ENOMEM;
	}
	dmn__dt_pool_free(ld->pool, nestings);
	bool *nested_child = NULL;
	if (b->n_domains &&
	    !(nested_child = dmn__dt_pool_alloc(ld->pool, b->n_domains)))
		return -ENOMEM;
	/* nesting first (it is the hardware's own tree), in node order, so a
	 * domain's first definition gives its first parent; then the
	 * providers' power-domains, in provider order. Two sibling nodes
	 * with one name (one path) give one link: dmn__dt_domain_link skips
	 * a parent it already has. */
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		struct dmn_dt_node *n = &ld->nodes[i];
		if (!n->nested || n->nested_domain < 0 ||
		    n->nested_parent_node < 0)
			continue;
		int32_t parent = ld->nodes[n->nested_parent_node].nested_domain;
		nested_child[n->nested_domain] = true;
		if (parent >= 0 && dmn__dt_domain_link(ld, n->nested_domain, parent,
						  (int32_t)i, "reg"))
			return -ENOMEM;
	}
	bool *named = NULL;
	if (b->n_providers &&
	    !(named = dmn__dt_pool_alloc(ld->pool, b->n_providers)))
		return -ENOMEM;
	for (unsigned pi = 0; pi < b->n_providers; pi++)
		if (cids[pi].state == CHILD_IDS_NONE &&
		    dmn__dt_provider_parents_plan(ld, (int32_t)pi, pnode[pi],
					     &named[pi]))
			return -ENOMEM;
	/* child ids say which domain each parent serves: entry i's parent
	 * to domain ids[i], and no other link from power-domains */
	for (unsigned pi = 0; pi < b->n_providers; pi++) {
		const struct dmn_dt_node *n = &ld->nodes[pnode[pi]];
		for (unsigned i = 0; cids[pi].state == CHILD_IDS_VALID &&
				     i < cids[pi].n; i++) {
			int32_t child = provider_domain(
			    b, (int32_t)pi, dmn__dt_cell(cids[pi].ids, i));
			int32_t parent = dmn__dt_spec_domain(ld, &n->specs[i]);
			if (child >= 0 && parent >= 0 &&
			    dmn__dt_domain_link(ld, child, parent, pnode[pi],
					   "power-domains-child-ids"))
				return -ENOMEM;
		}
	}
	for (unsigned di = 0; di < b->n_domains; di++) {
		struct dmn_dt_domain *d = &b->domains[di];
		const struct dmn_dt_provider *p = &b->providers[d->provider];
		if (nested_child[di] || cids[d->provider].state != CHILD_IDS_NONE)
			continue; /* its parent is the nesting, or child ids
				   * placed the provider's links */
		const int32_t *parents = p->parents;
		unsigned n = p->n_parents;
		int32_t pair[2];
		if (named[d->provider]) {
			int err = dmn__dt_domain_named_parents(ld, pnode[d->provider],
							  d, pair, &n);
			if (err == -ENOMEM)
				return err;
			if (err)
				n = p->n_parents;
			else
				parents = pair;
		}
		for (unsigned k = 0; k < n; k++)
			if (dmn__dt_domain_link(ld, (int32_t)di, parents[k],
					   pnode[d->provider], "power-domains"))
				return -ENOMEM;
	}
	dmn__dt_pool_free(ld->pool, named);
	dmn__dt_pool_free(ld->pool, nested_child);
	/* last, the links the providers' drivers make (rpmhpd's CX under MX) */
	for (unsigned di = 0; di < b->n_domains; di++) {
		const struct dmn_dt_domain *d = &b->domains[di];
		int64_t pi = dmn__dt_driver_parent(dp[d->provider], d->index);
		int32_t parent = pi >= 0 ? provider_domain(b, d->provider, pi) : -1;
		if (parent >= 0 &&
		    dmn__dt_domain_link(ld, (int32_t)di, parent,
				   pnode[d->provider], "compatible"))
			return -ENOMEM;
	}
	for (unsigned pi = 0; pi < b->n_providers; pi++)
		if (dp[pi] && dmn__dt_driver_parents_note(ld, (int32_t)pi,
							  pnode[pi], dp[pi]))
			return -ENOMEM;
	return 0;
}

static int provider_floors(struct dmn_dt_loader *ld, int32_t pi, int32_t node)
{
	struct dmn_dt_board *b = ld->board;
	struct dmn_dt_provider *p = &b->providers[pi];
	if (!p->n_required)
		return 0;
	/* the parents its links made: one a dropped link (a cycle) names
	 * is no parent, and takes no entry (docs/device-tree.md, Links and
	 * cycles); a provider without
	 * domains made no links and keeps them all */
	int32_t *parents = dmn__dt_pool_alloc(ld->pool,
					      (p->n_parents + 1) * sizeof(*parents));
	if (!parents)
		return -ENOMEM;
	unsigned n = 0;
	for (unsigned i = 0; i < p->n_parents; i++) {
		bool linked = !p->n_domains;
		for (unsigned k = 0; k < p->n_domains && !linked; k++) {
			const struct dmn_dt_domain *d =
			    &b->domains[p->first_domain + (int32_t)k];
			for (unsigned q = 0; q < d->n_parents; q++)
				linked = linked || d->parents[q] == p->parents[i];
		}
		if (linked)
			parents[n++] = p->parents[i];
	}
	int32_t *assign = dmn__dt_pool_alloc(ld->pool, (n + 1) * sizeof(*assign));
	if (!assign)
		return -ENOMEM;
	int taken = n ? dmn_dt_match_required(b, parents, n, p->required,
					  p->n_required, assign)
		      : 0;
	if (taken == -ENOMEM)
		return -ENOMEM;
	if (taken < 0)
		taken = 0;
	if (taken) {
		p->floors = dmn__dt_pool_alloc(ld->pool,
					  (unsigned)taken * sizeof(*p->floors));
		if (!p->floors)
			return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		if (assign[i] < 0)
			continue;
		const struct dmn_dt_opp_ref *r = &p->required[assign[i]];
		struct dmn_dt_floor *f = &p->floors[p->n_floors++];
		f->parent = parents[i];
		f->ref = *r;
		f->level = b->opp_tables[r->table].entries[r->entry].level;
	}
	dmn__dt_pool_free(ld->pool, assign);
	dmn__dt_pool_free(ld->pool, parents);
	if ((unsigned)taken < p->n_required &&
	    DT_WARN(ld, "opp-required-unmatched", node, "required-opps",
		    "%u of %u required OPPs match none of the provider's "
		    "parent domains: ignored",
		    p->n_required - (unsigned)taken, p->n_required))
		return -ENOMEM;
	return 0;
}

int dmn__dt_domains_build(struct dmn_dt_loader *ld)
{
	struct dmn_dt_board *b = ld->board;
	int err;
	int32_t *pnode = NULL;
	if (b->n_providers &&
	    !(pnode = dmn__dt_pool_alloc(ld->pool, b->n_providers * sizeof(*pnode))))
		return -ENOMEM;
	/* each provider's node, in one pass over the nodes (a search per
	 * provider was quadratic on a board of many providers) */
	for (unsigned pi = 0; pi < b->n_providers; pi++)
		pnode[pi] = -1;
	for (unsigned i = ld->n_nodes; i-- > 0;)
		if (ld->nodes[i].provider >= 0)
			pnode[ld->nodes[i].provider] = (int32_t)i;

	/* parse every enabled node's power-domains once */
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		struct dmn_dt_node *n = &ld->nodes[i];
		if (!n->enabled ||
		    !dmn__dt_has_prop(ld, (int32_t)i, "power-domains"))
			continue;
		err = dmn__dt_pd_parse(ld, (int32_t)i, &n->specs, &n->n_specs);
		if (err == -ENOMEM)
			return err;
		n->pd_state = err ? -1 : 1;
	}

	/* the keys: every zero-cell provider, every nested definition, every
	 * referenced index of a provider with cells */
	for (unsigned pi = 0; pi < b->n_providers; pi++)
		if (b->providers[pi].cells == 0 &&
		    (err = add_key(ld, (int32_t)pi, -1, -1)))
			return err;
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		const struct dmn_dt_node *n = &ld->nodes[i];
		if (n->nested && n->nested_owner >= 0 &&
		    (err = add_key(ld, n->nested_owner, n->nested_index,
				   (int32_t)i)))
			return err;
	}
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		const struct dmn_dt_node *n = &ld->nodes[i];
		bool is_provider = n->provider >= 0 || n->nested;
		if (n->pd_state != 1 && !is_provider)
			continue; /* a skipped consumer creates nothing */
		for (unsigned k = 0; k < n->n_specs; k++) {
			const struct dmn_dt_pd_spec *s = &n->specs[k];
			if (s->usable && s->provider >= 0 && s->index >= 0 &&
			    !ld->nodes[s->node].nested &&
			    (err = add_key(ld, s->provider, s->index, -1)))
				return err;
		}
	}
	/* a provider's child ids name domains its driver creates and links:
	 * each exists, referenced or not */
	struct child_ids *cids = NULL;
	if (b->n_providers &&
	    !(cids = dmn__dt_pool_alloc(ld->pool, b->n_providers * sizeof(*cids))))
		return -ENOMEM;
	for (unsigned pi = 0; pi < b->n_providers; pi++) {
		if ((err = child_ids_read(ld, (int32_t)pi, pnode[pi], &cids[pi])))
			return err;
		for (unsigned i = 0; cids[pi].state == CHILD_IDS_VALID &&
				     i < cids[pi].n; i++)
			if ((err = add_key(ld, (int32_t)pi,
					   dmn__dt_cell(cids[pi].ids, i), -1)))
				return err;
	}
	/* a domain whose provider's driver gives it a parent (rpmhpd's CX
	 * under MX) brings that parent, as Linux's driver creates every
	 * domain it knows */
	const struct driver_parents **dp = NULL;
	if (b->n_providers &&
	    !(dp = dmn__dt_pool_alloc(ld->pool, b->n_providers * sizeof(*dp))))
		return -ENOMEM;
	for (unsigned pi = 0; pi < b->n_providers; pi++)
		if (b->providers[pi].cells >= 1)
			dp[pi] = dmn__dt_driver_parents(ld, pnode[pi]);
	for (unsigned i = 0, n = ld->n_keys; i < n; i++) {
		struct dmn_dt_domain_key k = ld->keys[i];
		int64_t parent = dmn__dt_driver_parent(dp[k.provider], k.index);
		if (parent >= 0 && (err = add_key(ld, k.provider, parent, -1)))
			return err;
	}
	if ((err = create_domains(ld, pnode)))
		return err;
	if ((err = assign_idle_states(ld, pnode)))
		return err;
	if ((err = link_domains(ld, pnode, dp, cids)))
		return err;
	dmn__dt_pool_free(ld->pool, dp);
	dmn__dt_pool_free(ld->pool, cids);
	for (unsigned pi = 0; pi < b->n_providers; pi++) {
		if ((err = provider_floors(ld, (int32_t)pi, pnode[pi])))
			return err;
		if (b->providers[pi].cells >= 1 &&
		    !b->providers[pi].n_domains &&
		    DT_NOTE(ld, "pd-provider-unused", pnode[pi],
			    "#power-domain-cells",
			    "no enabled node references a domain of this "
			    "provider"))
			return -ENOMEM;
	}
	return 0;
}
