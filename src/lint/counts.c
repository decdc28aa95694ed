/* SPDX-License-Identifier: MIT */
/*
 * Count checks: required-opps against the entries Linux reads them with
 * (docs/lint-corpus.md, "Wiring checks").
 *
 *  opp-required-count  an OPP entry whose required-opps count differs from
 *                      the table's first entry's: Linux 6.12 sizes every
 *                      entry's requirements by the first available entry
 *                      (drivers/opp/of.c), so an entry with fewer fails to
 *                      be added, and the table with it; more are ignored
 *  opp-required-index  a device's own required-opps are applied by index:
 *                      Linux's genpd sets entry i on the domain of
 *                      power-domains entry i when it attaches the device
 *                      (drivers/pmdomain/core.c), so an entry past the
 *                      domains is never used, and one at a domain whose
 *                      chain has no levels is lost even where domino's
 *                      two-pass rule finds it a rail
 *
 * power-domains-child-ids is checked by the loader (pd-child-ids), which
 * honours it: a finding lint passes on.
 */
#include "lint_internal.h"
#include <domino/dt.h>

#include <libfdt.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- opp-required-count ---------------------------------------------------- */

static void check_table_counts(struct linter *l, const struct dmn_dt_board *b)
{
	for (unsigned t = 0; t < b->n_opp_tables; t++) {
		const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
		const struct dmn_dt_opp *first = NULL;
		for (unsigned e = 0; e < tab->n_entries && !first; e++)
			if (tab->entries[e].enabled)
				first = &tab->entries[e];
		if (!first)
			continue;
		unsigned fewer = 0, more = 0;
		const struct dmn_dt_opp *example = NULL;
		for (unsigned e = 0; e < tab->n_entries; e++) {
			const struct dmn_dt_opp *o = &tab->entries[e];
			if (!o->enabled || o->n_required == first->n_required)
				continue;
			if (o->n_required < first->n_required)
				fewer++;
			else
				more++;
			if (!example)
				example = o;
		}
		if (!example)
			continue;
		char node[512];
		snprintf(node, sizeof(node), "%s/%s", tab->path, example->name);
		if (fewer)
			dmn__lint_report(
			    l, DMN_DT_SEV_WARNING, "opp-required-count", node,
			    "required-opps",
			    "%u entr%s of this table require%s fewer OPPs than "
			    "its first entry %s (%u): Linux reads that many "
			    "from every entry, fails to add one that has fewer, "
			    "and with it the whole table",
			    fewer, fewer == 1 ? "y" : "ies", fewer == 1 ? "s" : "",
			    first->name,
			    first->n_required);
		else
			dmn__lint_report(
			    l, DMN_DT_SEV_WARNING, "opp-required-count", node,
			    "required-opps",
			    "%u entr%s of this table require%s more OPPs than "
			    "its first entry %s (%u): Linux reads only that "
			    "many from every entry and ignores the rest",
			    more, more == 1 ? "y" : "ies", more == 1 ? "s" : "",
			    first->name,
			    first->n_required);
	}
}

/* ---- opp-required-index ---------------------------------------------------- */

/* Whether domain @dom or an ancestor has levels. Iterative, with a visited
 * stamp per call: O(ancestors). */
static bool domain_has_levels(const struct dmn_dt_board *b, int32_t dom,
			      unsigned stamp, unsigned *seen, int32_t *stack)
{
	unsigned top = 0;
	stack[top++] = dom;
	seen[dom] = stamp;
	while (top) {
		const struct dmn_dt_domain *d = &b->domains[stack[--top]];
		if (d->opp_table >= 0)
			return true;
		for (unsigned k = 0; k < d->n_parents; k++)
			if (seen[d->parents[k]] != stamp) {
				seen[d->parents[k]] = stamp;
				stack[top++] = d->parents[k];
			}
	}
	return false;
}

/* The number of entries of node @node's power-domains (phandle plus the
 * provider's cells each), or 0 when it cannot be counted. */
static unsigned pd_entries(const struct lint_blob *bi, int32_t node)
{
	int len;
	const fdt32_t *v = dmn__lint_prop(bi, node, "power-domains", &len);
	unsigned n = v ? (unsigned)len / 4 : 0, count = 0;
	for (unsigned pos = 0; pos < n; count++) {
		int32_t p = dmn__lint_phandle(bi, fdt32_to_cpu(v[pos]));
		int cl;
		const fdt32_t *c =
		    p >= 0 ? dmn__lint_prop(bi, p, "#power-domain-cells", &cl) : NULL;
		if (!c || cl != 4)
			return 0;
		pos += 1 + fdt32_to_cpu(*c);
	}
	return count;
}

static int check_device_index(struct linter *l, const struct lint_blob *bi,
			      const struct dmn_dt_board *b)
{
	if (!b->n_domains)
		return 0;
	int err = 0;
	unsigned *seen = dmn__lint_calloc(l, b->n_domains, sizeof(*seen));
	int32_t *stack = dmn__lint_calloc(l, b->n_domains, sizeof(*stack));
	if (!seen || !stack) {
		err = -ENOMEM;
		goto out;
	}
	unsigned stamp = 0;
	for (unsigned di = 0; di < b->n_devices; di++) {
		const struct dmn_dt_device *d = &b->devices[di];
		if (!d->n_required)
			continue;
		/* the attachments are the power-domains entries in order
		 * unless the loader merged a repeated one */
		int32_t node = bi->device_node[di];
		if (node < 0 || pd_entries(bi, node) != d->n_attachments)
			continue;
		for (unsigned i = 0; i < d->n_required; i++) {
			const struct dmn_dt_opp_ref *r = &d->required[i];
			if (!b->opp_tables[r->table].entries[r->entry].has_level)
				continue;
			if (i >= d->n_attachments) {
				dmn__lint_report(
				    l, DMN_DT_SEV_WARNING, "opp-required-index",
				    d->path, "required-opps",
				    "entry %u has no power-domains entry at its "
				    "index (%u domain%s): Linux applies a device's "
				    "required-opps entry i to its domain i only, so "
				    "this one is never used",
				    i, d->n_attachments,
				    d->n_attachments == 1 ? "" : "s");
				break;
			}
			int32_t dom = d->attachments[i].domain;
			if (domain_has_levels(b, dom, ++stamp, seen, stack))
				continue;
			/* lost in Linux; say so when another domain of the
			 * device has levels (else provider-no-rail or
			 * opp-required-unmatched already tell) */
			int32_t other = -1;
			for (unsigned a = 0; a < d->n_attachments && other < 0; a++)
				if (a != i &&
				    domain_has_levels(b, d->attachments[a].domain,
						      ++stamp, seen, stack))
					other = d->attachments[a].domain;
			if (other < 0)
				continue;
			dmn__lint_report(
			    l, DMN_DT_SEV_WARNING, "opp-required-index", d->path,
			    "required-opps",
			    "entry %u goes, in Linux, to power-domains entry %u "
			    "(%s), whose domains have no levels: the vote is "
			    "lost there, though %s has levels; list required-opps "
			    "in the order of power-domains",
			    i, i, b->domains[dom].name, b->domains[other].name);
		}
	}
out:
	dmn__lint_free(l, seen);
	dmn__lint_free(l, stack);
	return err;
}

int dmn__lint_counts(struct linter *l, const struct lint_blob *bi,
		     const struct dmn_dt_board *b)
{
	check_table_counts(l, b);
	return check_device_index(l, bi, b);
}
