/* SPDX-License-Identifier: MIT */
/*
 * Consumers: parsing `power-domains` specifiers, and the devices (enabled
 * non-provider nodes with power-domains) with their attachments, OPP table
 * and device-level required-opps.
 */
#include "dt_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int dmn__dt_pd_parse(struct dmn_dt_loader *ld, int32_t node, struct dmn_dt_pd_spec **specs,
		unsigned *n_specs)
{
	/* a consumer that cannot use one of its domains is skipped whole; a
	 * provider only loses that parent link */
	const char *skip =
	    ld->nodes[node].provider >= 0 || ld->nodes[node].nested
		? "link dropped"
		: "node skipped";
	int len;
	const void *v = dmn__dt_prop(ld, node, "power-domains", &len);
	*specs = NULL;
	*n_specs = 0;
	if (!v || len == 0)
		return 0;
	if (len % 4)
		return DT_ERR_OR_SKIP(DT_ERR(ld, -EINVAL, "pd-cells-mismatch",
					  node, "power-domains",
					  "length %d is not a whole number of "
					  "cells",
					  len));
	unsigned ncells = (unsigned)len / 4;
	/* at most one specifier per cell */
	struct dmn_dt_pd_spec *out = dmn__dt_pool_alloc(ld->pool, ncells * sizeof(*out));
	if (!out)
		return -ENOMEM;
	unsigned n = 0;
	int ret = 0;
	*specs = out;
	for (unsigned pos = 0; pos < ncells; *n_specs = ++n) {
		uint32_t ph = dmn__dt_cell(v, pos);
		int32_t target = dmn__dt_phandle_node(ld, ph);
		if (target < 0)
			return DT_ERR_OR_SKIP(DT_WARN(
			    ld, "pd-dangling-phandle", node, "power-domains",
			    "entry %u: phandle 0x%x points to no node; %s", n,
			    ph, skip));
		const char *tpath = dmn__dt_node_path(ld, target);
		if (!tpath)
			return -ENOMEM;
		uint32_t cells;
		int r = dmn__dt_prop_u32(ld, target, "#power-domain-cells", &cells);
		if (r == 0)
			return DT_ERR_OR_SKIP(DT_WARN(
			    ld, "pd-not-provider", node, "power-domains",
			    "entry %u: %s has no #power-domain-cells; %s", n,
			    tpath, skip));
		if (r < 0)
			/* the provider's own error names it; here the consumer
			 * is merely unusable */
			return DT_ERR_OR_SKIP(DT_WARN(
			    ld, "pd-not-provider", node, "power-domains",
			    "entry %u: %s is not a usable provider "
			    "(#power-domain-cells is invalid); %s",
			    n, tpath, skip));
		if (cells > ncells - pos - 1)
			return DT_ERR_OR_SKIP(
			    DT_ERR(ld, -EINVAL, "pd-cells-mismatch", node,
				   "power-domains",
				   "entry %u: %s takes %u argument cell(s) but "
				   "only %u remain",
				   n, tpath, cells, ncells - pos - 1));
		struct dmn_dt_pd_spec *s = &out[n];
		s->node = target;
		s->provider = ld->nodes[target].provider;
		s->index = cells ? (int64_t)dmn__dt_cell(v, pos + 1) : -1;
		s->n_args = cells > 1 ? cells - 1 : 0;
		s->args = (const char *)v + 4 * (pos + 2);
		if (ld->nodes[target].nested) {
			s->provider = ld->nodes[target].nested_owner;
			s->index = ld->nodes[target].nested_index;
		}
		s->usable = false;
		if (!ld->nodes[target].enabled) {
			if (DT_WARN(ld, "consumer-of-disabled-provider", node,
				    "power-domains",
				    "entry %u: provider %s is disabled; %s", n,
				    tpath, skip))
				return -ENOMEM;
			ret = DT_SKIP;
		} else if (s->provider < 0) {
			/* enabled, with valid cells, yet not a provider: a
			 * nested-looking child whose enclosing provider failed
			 */
			if (DT_WARN(ld, "pd-not-provider", node,
				    "power-domains",
				    "entry %u: %s is not a usable provider; %s",
				    n, tpath, skip))
				return -ENOMEM;
			ret = DT_SKIP;
		} else {
			s->usable = true;
		}
		pos += 1 + cells;
	}
	return ret;
}

/* @seen[dom] is the number (index + 1) of the last device attached to
 * domain dom: a repeated entry is found in O(1), not by a scan of the
 * device's attachments (quadratic in its power-domains). */
static int add_device(struct dmn_dt_loader *ld, int32_t node, unsigned *seen)
{
	struct dmn_dt_board *b = ld->board;
	struct dmn_dt_node *n = &ld->nodes[node];
	struct dmn_dt_device *d =
	    dmn__dt_vec_push(ld->pool, (void **)&b->devices, &b->n_devices,
			&ld->cap_devices, sizeof(*d));
	if (!d)
		return -ENOMEM;
	const char *path = dmn__dt_node_path(ld, node);
	if (!path || !(d->path = dmn__dt_pool_strdup(ld->pool, path)) ||
	    !(d->node_name = dmn__dt_pool_strdup(ld->pool, n->name)) ||
	    !(d->name = dmn__dt_device_name(ld, node)))
		return -ENOMEM;
	d->wakeup_source = dmn__dt_has_prop(ld, node, "wakeup-source");
	d->labels = n->labels; /* the board's pool holds both */
	d->n_labels = n->n_labels;
	d->opp_table = -1;
	d->parent = -1;

	unsigned n_names;
	const char *names =
	    dmn__dt_prop_string(ld, node, "power-domain-names", 0, &n_names);
	if (dmn__dt_has_prop(ld, node, "power-domain-names") &&
	    n_names != n->n_specs &&
	    DT_WARN(ld, "pd-names-count", node, "power-domain-names",
		    "%u names for %u power domains", n_names, n->n_specs))
		return -ENOMEM;

	d->attachments =
	    dmn__dt_pool_alloc(ld->pool, n->n_specs * sizeof(*d->attachments));
	if (!d->attachments)
		return -ENOMEM;
	/* entry i's name is the i-th string: @names walks them in step (a
	 * look-up from the first per entry was quadratic) */
	for (unsigned i = 0; i < n->n_specs; i++) {
		const char *name = i < n_names ? names : NULL;
		if (name)
			names += strlen(names) + 1;
		int32_t dom = dmn__dt_spec_domain(ld, &n->specs[i]);
		if (dom < 0)
			continue; /* cannot happen: keys cover every spec */
		bool repeat = seen[dom] == b->n_devices;
		seen[dom] = b->n_devices;
		if (repeat) {
			if (DT_WARN(ld, "pd-duplicate-domain", node,
				    "power-domains",
				    "entry %u repeats domain %s; attached once",
				    i, b->domains[dom].name))
				return -ENOMEM;
			continue;
		}
		struct dmn_dt_attachment *a = &d->attachments[d->n_attachments++];
		a->domain = dom;
		if (n->specs[i].n_args) {
			a->n_args = n->specs[i].n_args;
			a->args = dmn__dt_pool_alloc(ld->pool,
						a->n_args * sizeof(*a->args));
			if (!a->args)
				return -ENOMEM;
			for (unsigned k = 0; k < a->n_args; k++)
				a->args[k] = dmn__dt_cell(n->specs[i].args, k);
		}
		if (name && !(a->name = dmn__dt_pool_strdup(ld->pool, name)))
			return -ENOMEM;
	}

	int err = dmn__dt_opp_table_resolve(ld, node, &d->opp_table);
	if (err == -ENOMEM)
		return err;
	if (d->opp_table >= 0 &&
	    dmn__dt_dynamic_power(ld, node, &d->dynamic_power_coefficient))
		return -ENOMEM;
	err = dmn__dt_opp_ref_resolve(ld, node, "required-opps", &d->required,
				 &d->n_required);
	if (err == -ENOMEM)
		return err;
	return 0;
}

/* Refs that vote a level (those into device tables are requirements of
 * another device, not of a domain). */
static unsigned level_refs(const struct dmn_dt_board *b,
			   const struct dmn_dt_opp_ref *refs, unsigned n)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++)
		k += b->opp_tables[refs[i].table].entries[refs[i].entry].has_level;
	return k;
}

static int check_refs(struct dmn_dt_loader *ld, int32_t node, const int32_t *doms,
		      unsigned n, int32_t *assign,
		      const struct dmn_dt_opp_ref *refs, unsigned n_refs)
{
	if (!n_refs)
		return 0;
	const struct dmn_dt_board *b = ld->board;
	int taken = dmn_dt_match_required(b, doms, n, refs, n_refs, assign);
	if (taken == -ENOMEM)
		return -ENOMEM;
	unsigned want = level_refs(b, refs, n_refs);
	if (want < n_refs &&
	    DT_WARN(ld, "opp-required-unmodelled", node, "required-opps",
		    "%u required OPPs point into device tables: a device "
		    "requires another's OPP only from its own OPP table "
		    "(operating-points-v2); ignored",
		    n_refs - want))
		return -ENOMEM;
	if (taken >= 0 && (unsigned)taken < want &&
	    DT_WARN(ld, "opp-required-unmatched", node, "required-opps",
		    "%u of %u required OPPs match none of the device's "
		    "domains: ignored",
		    want - (unsigned)taken, want))
		return -ENOMEM;
	return 0;
}

/* Report required OPPs the two-pass rule gives to none of the device's
 * domains: once for its own required-opps, once for its OPP table. */
static int check_matching(struct dmn_dt_loader *ld, int32_t node, unsigned di)
{
	const struct dmn_dt_board *b = ld->board;
	const struct dmn_dt_device *d = &b->devices[di];
	unsigned n = d->n_attachments;
	int32_t *doms = dmn__dt_pool_alloc(ld->pool, (n + 1) * sizeof(*doms));
	int32_t *assign = dmn__dt_pool_alloc(ld->pool, (n + 1) * sizeof(*assign));
	if (!doms || !assign)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		doms[i] = d->attachments[i].domain;
	int err = check_refs(ld, node, doms, n, assign, d->required,
			     d->n_required);
	if (err || d->opp_table < 0) {
		dmn__dt_pool_free(ld->pool, doms);
		dmn__dt_pool_free(ld->pool, assign);
		return err;
	}
	const struct dmn_dt_opp_table *t = &b->opp_tables[d->opp_table];
	unsigned bad = 0, first = 0;
	for (unsigned e = 0; e < t->n_entries; e++) {
		const struct dmn_dt_opp *o = &t->entries[e];
		if (!o->n_required)
			continue;
		int taken = dmn_dt_match_required(b, doms, n, o->required,
					      o->n_required, assign);
		if (taken == -ENOMEM)
			return -ENOMEM;
		if (taken >= 0 && (unsigned)taken < level_refs(b, o->required,
							      o->n_required) &&
		    !bad++)
			first = e;
	}
	dmn__dt_pool_free(ld->pool, doms);
	dmn__dt_pool_free(ld->pool, assign);
	if (bad &&
	    DT_WARN(ld, "opp-required-unmatched", node, "operating-points-v2",
		    "in %u entries of %s (first: %s) a required OPP "
		    "matches none of the device's domains: ignored",
		    bad, t->path, t->entries[first].name))
		return -ENOMEM;
	return 0;
}

/* Which tables take part in device-to-device requirements: @requires[t]
 * when an entry of t requires into a table without levels, @required[t]
 * when t is such a table and something requires into it. */
static void device_table_roles(const struct dmn_dt_board *b, bool *requires,
			       bool *required)
{
	for (unsigned t = 0; t < b->n_opp_tables; t++) {
		const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
		for (unsigned e = 0; e < tab->n_entries; e++)
			for (unsigned r = 0; r < tab->entries[e].n_required;
			     r++) {
				int32_t u = tab->entries[e].required[r].table;
				if (b->opp_tables[u].has_level)
					continue;
				requires[t] = true;
				required[u] = true;
			}
	}
}

/* A node with operating-points-v2 but no power-domains is a device (with
 * no domains) when its table requires or is required as a device's
 * (docs/device-tree.md, Device-to-device requirements: MediaTek's CPUs
 * and CCI). */
static bool requirement_device(struct dmn_dt_loader *ld, int32_t node,
			       const bool *requires, const bool *required)
{
	const struct dmn_dt_node *n = &ld->nodes[node];
	if (!n->enabled || n->pd_state != 0 || n->provider >= 0 || n->nested ||
	    n->opp_table >= 0 || n->opp_table_of_entry >= 0 ||
	    !dmn__dt_has_prop(ld, node, "operating-points-v2") ||
	    dmn__dt_has_prop(ld, node, "#power-domain-cells"))
		return false;
	int len;
	const void *v = dmn__dt_prop(ld, node, "operating-points-v2", &len);
	if (!v || len < 4)
		return false;
	int32_t target = dmn__dt_phandle_node(ld, dmn__dt_cell(v, 0));
	int32_t t = target >= 0 ? ld->nodes[target].opp_table : -1;
	return t >= 0 && (requires[t] || required[t]);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* A table without an owner, and a requiring table's node, to warn about. */
struct no_owner {
	int32_t table, node;
};

static int cmp_no_owner(const void *a, const void *b)
{
	const struct no_owner *x = a, *y = b;
	if (x->table != y->table)
		return (x->table > y->table) - (x->table < y->table);
	return (x->node > y->node) - (x->node < y->node);
}

/* For each table t, the device tables (@required) its entries require,
 * each once, ascending: (*@list)[(*@start)[t] .. (*@start)[t + 1]).
 * O(references log references): a scan of every table per device was
 * quadratic in a chain of device tables. */
static int required_lists(struct dmn_dt_loader *ld, const bool *required,
			  unsigned **start, int32_t **list)
{
	const struct dmn_dt_board *b = ld->board;
	unsigned nt = b->n_opp_tables;
	size_t refs = 0;
	for (unsigned t = 0; t < nt; t++)
		for (unsigned e = 0; e < b->opp_tables[t].n_entries; e++)
			refs += b->opp_tables[t].entries[e].n_required;
	unsigned *seen = dmn__dt_pool_alloc(ld->pool, (nt + 1) * sizeof(*seen));
	*start = dmn__dt_pool_alloc(ld->pool, (nt + 1) * sizeof(**start));
	*list = dmn__dt_pool_alloc(ld->pool, (refs + 1) * sizeof(**list));
	if (!seen || !*start || !*list) {
		dmn__dt_pool_free(ld->pool, seen);
		return -ENOMEM;
	}
	unsigned n = 0;
	for (unsigned t = 0; t < nt; t++) {
		const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
		(*start)[t] = n;
		for (unsigned e = 0; e < tab->n_entries; e++)
			for (unsigned r = 0; r < tab->entries[e].n_required;
			     r++) {
				int32_t u = tab->entries[e].required[r].table;
				if (!required[u] || seen[u] == t + 1)
					continue;
				seen[u] = t + 1;
				(*list)[n++] = u;
			}
		qsort(*list + (*start)[t], n - (*start)[t], sizeof(**list),
		      cmp_i32);
	}
	(*start)[nt] = n;
	dmn__dt_pool_free(ld->pool, seen);
	return 0;
}

/* The requirements of the board's devices, and the tables they point into
 * that no device owns (warned once per requiring table). */
static int list_requirements(struct dmn_dt_loader *ld, const bool *required)
{
	struct dmn_dt_board *b = ld->board;
	unsigned cap = 0, *start;
	int32_t *list;
	int err = required_lists(ld, required, &start, &list);
	if (err)
		return err;
	bool *owned = dmn__dt_pool_alloc(ld->pool, b->n_opp_tables + 1);
	if (!owned)
		err = -ENOMEM;
	for (unsigned d = 0; d < b->n_devices && !err; d++) {
		int32_t t = b->devices[d].opp_table;
		if (t < 0)
			continue;
		owned[t] = true;
		for (unsigned k = start[t]; k < start[t + 1]; k++) {
			struct dmn_dt_requirement *q = dmn__dt_vec_push(
			    ld->pool, (void **)&b->requirements,
			    &b->n_requirements, &cap, sizeof(*q));
			if (!q) {
				err = -ENOMEM;
				break;
			}
			q->device = (int32_t)d;
			q->table = list[k];
		}
	}
	/* a required device table that no device uses has nothing to raise:
	 * each requiring table's node warned, by required table, then node */
	struct no_owner *warn = NULL;
	unsigned n_warn = 0, warn_cap = 0;
	for (unsigned i = 0; i < ld->n_nodes && !err; i++) {
		int32_t t = ld->nodes[i].opp_table;
		for (unsigned k = t < 0 ? 0 : start[t];
		     t >= 0 && k < start[t + 1] && !err; k++) {
			if (owned[list[k]])
				continue;
			struct no_owner *w = dmn__dt_vec_push(
			    ld->pool, (void **)&warn, &n_warn, &warn_cap,
			    sizeof(*w));
			if (!w)
				err = -ENOMEM;
			else
				*w = (struct no_owner){list[k], (int32_t)i};
		}
	}
	if (!err && n_warn)
		qsort(warn, n_warn, sizeof(*warn), cmp_no_owner);
	for (unsigned k = 0; k < n_warn && !err; k++)
		if (DT_WARN(ld, "opp-table-no-owner", warn[k].node,
			    "required-opps",
			    "its entries require OPPs of %s, which no "
			    "device uses (operating-points-v2): nothing "
			    "to raise",
			    b->opp_tables[warn[k].table].path))
			err = -ENOMEM;
	dmn__dt_pool_free(ld->pool, warn);
	dmn__dt_pool_free(ld->pool, owned);
	dmn__dt_pool_free(ld->pool, list);
	dmn__dt_pool_free(ld->pool, start);
	return err;
}

/* What a device at a child of node @node gets as its runtime-PM parent
 * (dmn_dt_device.parent), given @holder of the nodes before it: Linux's
 * simple-pm-bus driver enables runtime PM on the bus and populates its
 * children below it, so an active child keeps the bus active. A bus that
 * is a device here is the parent; one that is not (no power-domains) is
 * still a runtime-PM device in Linux, itself held by its own bus, so its
 * children get what it would get. A `simple-bus` (and any other node)
 * enables no runtime PM: its children hold nothing through it. Nodes come
 * parents first, so one pass is linear in the blob. */
static int32_t bus_holder(struct dmn_dt_loader *ld, int32_t node,
			  const int32_t *holder, int32_t device)
{
	if (!dmn__dt_prop_has_string(ld, node, "compatible", "simple-pm-bus"))
		return -1;
	if (device >= 0)
		return device;
	int32_t up = ld->nodes[node].parent;
	return up >= 0 ? holder[up] : -1;
}

int dmn__dt_consumers_scan(struct dmn_dt_loader *ld)
{
	unsigned nt = ld->board->n_opp_tables;
	bool *requires = dmn__dt_pool_alloc(ld->pool, nt + 1);
	bool *required = dmn__dt_pool_alloc(ld->pool, nt + 1);
	unsigned *seen = dmn__dt_pool_alloc(
	    ld->pool, (ld->board->n_domains + 1) * sizeof(*seen));
	int32_t *holder =
	    dmn__dt_pool_alloc(ld->pool, (ld->n_nodes + 1) * sizeof(*holder));
	if (!requires || !required || !seen || !holder)
		return -ENOMEM;
	device_table_roles(ld->board, requires, required);
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		const struct dmn_dt_node *n = &ld->nodes[i];
		/* a provider's power-domains and required-opps are its
		 * domains' parents and floors, not a device */
		bool consumer = n->pd_state == 1 && n->provider < 0 &&
				!n->nested &&
				!dmn__dt_has_prop(ld, (int32_t)i,
					     "#power-domain-cells");
		int32_t up = n->parent >= 0 ? holder[n->parent] : -1;
		if (!consumer &&
		    !requirement_device(ld, (int32_t)i, requires, required)) {
			holder[i] = bus_holder(ld, (int32_t)i, holder, -1);
			continue;
		}
		int err = add_device(ld, (int32_t)i, seen);
		if (!err) {
			int32_t di = (int32_t)ld->board->n_devices - 1;
			ld->board->devices[di].parent = up;
			holder[i] = bus_holder(ld, (int32_t)i, holder, di);
			err = check_matching(ld, (int32_t)i, (unsigned)di);
		}
		if (err) {
			dmn__dt_pool_free(ld->pool, holder);
			dmn__dt_pool_free(ld->pool, seen);
			return err;
		}
	}
	dmn__dt_pool_free(ld->pool, holder);
	dmn__dt_pool_free(ld->pool, seen);
	return list_requirements(ld, required);
}
