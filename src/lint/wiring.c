/* SPDX-License-Identifier: MIT */
/*
 * Wiring checks: the mistakes upstream fixes in how devices reach their
 * rails (docs/lint-corpus.md, "Wiring checks", has each one's real
 * examples, corpus counts and false positives).
 *
 *  provider-no-rail      a provider whose domains carry level votes of
 *                        their consumers but that has no power-domains:
 *                        the votes reach no rail (fix: power-domains on
 *                        the provider, as sdm845's GCC got)
 *  pd-missing            a device without power-domains that a device in
 *                        a domain uses through `phys` or its OF graph,
 *                        while a node of the same compatible on the board
 *                        has power-domains (mt8195's dp_intf0)
 *  opp-required-missing  a device on a rail that votes no level there,
 *                        while a node of the same compatible on the board
 *                        does (qcs615's QUP serial engines)
 */
#include "lint_internal.h"
#include "../core/bsearch.h"
#include <domino/dt.h>

#include <errno.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h> /* qsort */
#include <string.h>

#define PATH_BUF 512

/* ---- shared helpers ---------------------------------------------------------- */

static bool ref_has_level(const struct dmn_dt_board *b,
			  const struct dmn_dt_opp_ref *r)
{
	return b->opp_tables[r->table].entries[r->entry].has_level;
}

/* The first required OPP with a level that device @d gives, from its own
 * required-opps or any enabled entry of its OPP table, or NULL. */
static const struct dmn_dt_opp_ref *first_level_ref(const struct dmn_dt_board *b,
						     const struct dmn_dt_device *d)
{
	for (unsigned i = 0; i < d->n_required; i++)
		if (ref_has_level(b, &d->required[i]))
			return &d->required[i];
	if (d->opp_table < 0)
		return NULL;
	const struct dmn_dt_opp_table *t = &b->opp_tables[d->opp_table];
	for (unsigned e = 0; e < t->n_entries; e++)
		for (unsigned i = 0; t->entries[e].enabled && i < t->entries[e].n_required; i++)
			if (ref_has_level(b, &t->entries[e].required[i]))
				return &t->entries[e].required[i];
	return NULL;
}

/*
 * reach[d]: whether domain d or one of its ancestors has levels (an OPP
 * table), so a level voted on d lands somewhere: 0 unknown, 1 yes, 2 no,
 * 3 on the walk's stack. Links are acyclic (the loader dropped cycles);
 * each domain is pushed once, so @stack needs n_domains slots. O(domains +
 * links) over all calls together.
 */
static bool reaches_levels(const struct dmn_dt_board *b, unsigned char *reach,
			   int32_t *stack, unsigned *next, int32_t dom)
{
	if (reach[dom] == 1 || reach[dom] == 2)
		return reach[dom] == 1;
	unsigned top = 0;
	stack[top++] = dom;
	reach[dom] = 3;
	next[dom] = 0;
	while (top) {
		int32_t d = stack[top - 1];
		const struct dmn_dt_domain *x = &b->domains[d];
		if (x->opp_table < 0 && next[d] < x->n_parents) {
			int32_t p = x->parents[next[d]++];
			if (!reach[p]) {
				reach[p] = 3;
				next[p] = 0;
				stack[top++] = p;
			}
			continue;
		}
		bool yes = x->opp_table >= 0;
		for (unsigned k = 0; k < x->n_parents && !yes; k++)
			yes = reach[x->parents[k]] == 1;
		reach[d] = yes ? 1 : 2;
		top--;
	}
	return reach[dom] == 1;
}

/* ---- provider-no-rail --------------------------------------------------------- */

struct blame {
	unsigned consumers;
	int32_t last_device; /* index + 1 of the last device counted */
	int32_t first_device;
	const struct dmn_dt_opp_ref *ref;
};

/* The provider whose OPP table is @table (the rail a vote was meant for),
 * or -1. */
static int32_t table_owner(const struct dmn_dt_board *b, int32_t table)
{
	for (unsigned p = 0; p < b->n_providers; p++)
		if (b->providers[p].opp_table == table)
			return (int32_t)p;
	return -1;
}

/* Blame the roots above domain @dom for device @dev's lost votes: each
 * root's provider without power-domains of its own. @seen holds the
 * device's stamp for roots already blamed for it. */
static void blame_roots(const struct lint_blob *bi, const struct dmn_dt_board *b,
			int32_t dom, unsigned stamp, unsigned *seen,
			int32_t *stack, struct blame *blame, int32_t dev,
			const struct dmn_dt_opp_ref *ref)
{
	if (seen[dom] == stamp)
		return;
	unsigned top = 0;
	stack[top++] = dom;
	seen[dom] = stamp; /* marked when pushed: at most once each */
	while (top) {
		const struct dmn_dt_domain *x = &b->domains[stack[--top]];
		for (unsigned k = 0; k < x->n_parents; k++)
			if (seen[x->parents[k]] != stamp) {
				seen[x->parents[k]] = stamp;
				stack[top++] = x->parents[k];
			}
		if (x->n_parents)
			continue;
		const struct dmn_dt_provider *p = &b->providers[x->provider];
		if (p->opp_table >= 0 || p->n_parents)
			continue;
		int32_t node = bi->provider_node[x->provider];
		/* a provider whose power-domains the loader could not use is
		 * another finding's (a disabled or missing parent) */
		if (node < 0 || dmn__lint_prop(bi, node, "power-domains", NULL))
			continue;
		struct blame *bl = &blame[x->provider];
		if (bl->last_device == dev + 1)
			continue; /* two roots of one provider, one device */
		bl->last_device = dev + 1;
		if (!bl->consumers++) {
			bl->first_device = dev;
			bl->ref = ref;
		}
	}
}

static int check_provider_rail(struct linter *l, const struct lint_blob *bi,
			       const struct dmn_dt_board *b)
{
	if (!b->n_domains || !b->n_providers)
		return 0;
	unsigned nd = b->n_domains;
	int err = 0;
	unsigned char *reach = dmn__lint_calloc(l, nd, 1);
	int32_t *stack = dmn__lint_calloc(l, nd, sizeof(*stack));
	unsigned *next = dmn__lint_calloc(l, nd, sizeof(*next));
	unsigned *seen = dmn__lint_calloc(l, nd, sizeof(*seen));
	struct blame *blame = dmn__lint_calloc(l, b->n_providers, sizeof(*blame));
	if (!reach || !stack || !next || !seen || !blame) {
		err = -ENOMEM;
		goto out;
	}
	for (unsigned di = 0; di < b->n_devices; di++) {
		const struct dmn_dt_device *d = &b->devices[di];
		const struct dmn_dt_opp_ref *ref = first_level_ref(b, d);
		if (!ref || !d->n_attachments)
			continue;
		bool lands = false;
		for (unsigned a = 0; a < d->n_attachments && !lands; a++)
			lands = reaches_levels(b, reach, stack, next,
					       d->attachments[a].domain);
		if (lands)
			continue;
		for (unsigned a = 0; a < d->n_attachments; a++)
			blame_roots(bi, b, d->attachments[a].domain, di + 1, seen,
				    stack, blame, (int32_t)di, ref);
	}
	for (unsigned p = 0; p < b->n_providers; p++) {
		const struct blame *bl = &blame[p];
		if (!bl->consumers)
			continue;
		int32_t node = bi->provider_node[p];
		if (node < 0)
			continue;
		char *path = dmn__lint_path_alloc(l, bi, node);
		if (!path) {
			err = -ENOMEM;
			goto out;
		}
		char rail[PATH_BUF];
		const struct dmn_dt_opp_table *t = &b->opp_tables[bl->ref->table];
		int32_t owner = table_owner(b, bl->ref->table);
		if (owner >= 0 && b->providers[owner].label)
			snprintf(rail, sizeof(rail), "%s", b->providers[owner].label);
		else if (owner >= 0)
			dmn_dt_provider_path(b, (unsigned)owner, rail, sizeof(rail));
		else
			snprintf(rail, sizeof(rail), "the domains of %s", t->path);
		dmn__lint_report(l, DMN_DT_SEV_WARNING, "provider-no-rail", path,
				 "#power-domain-cells",
				 "has no power-domains, so the levels that %u "
				 "consumer%s of its domains vote (first: %s, "
				 "required-opps into %s) reach no rail: give it "
				 "power-domains to the rail of %s",
				 bl->consumers, bl->consumers == 1 ? "" : "s",
				 b->devices[bl->first_device].path, t->path, rail);
		dmn__lint_free(l, path);
	}
out:
	dmn__lint_free(l, reach);
	dmn__lint_free(l, stack);
	dmn__lint_free(l, next);
	dmn__lint_free(l, seen);
	dmn__lint_free(l, blame);
	return err;
}

/* ---- evidence from nodes of the same compatible -------------------------------- */

/* Nodes by first compatible string, for "a node of the same kind has it". */
struct by_compat {
	const char *compat;
	int32_t node;
};

static int cmp_by_compat(const void *a, const void *b)
{
	const struct by_compat *x = a, *y = b;
	int c = strcmp(x->compat, y->compat);
	return c ? c : (x->node > y->node) - (x->node < y->node);
}

static bool compat_before(const void *base, size_t i, const void *key)
{
	const struct by_compat *v = base;
	return strcmp(v[i].compat, key) < 0;
}

/* The first node of @list (sorted) with compatible @compat other than
 * @self, or -1. O(log n + equal ones). */
static int32_t find_peer(const struct by_compat *list, unsigned n,
			 const char *compat, int32_t self)
{
	size_t lo = dmn__lower_bound(n, list, compat, compat_before);
	for (; lo < n && !strcmp(list[lo].compat, compat); lo++)
		if (list[lo].node != self)
			return list[lo].node;
	return -1;
}

/* ---- pd-missing ------------------------------------------------------------------ */

/* A node a device uses that could hold a power domain: enabled, with a
 * compatible, neither a consumer nor a provider of domains. */
static bool bare_device(const struct lint_blob *bi, int32_t node)
{
	return node >= 0 && bi->nodes[node].enabled &&
	       dmn__lint_compatible(bi, node) &&
	       !dmn__lint_prop(bi, node, "power-domains", NULL) &&
	       !dmn__lint_prop(bi, node, "#power-domain-cells", NULL);
}

/* The device an OF graph endpoint belongs to: endpoint -> port ->
 * (ports ->) device. */
static int32_t endpoint_device(const struct lint_blob *bi, int32_t ep)
{
	int32_t port = bi->nodes[ep].parent;
	if (port < 0 || !dmn__lint_name_is(bi, port, "port"))
		return -1;
	int32_t up = bi->nodes[port].parent;
	if (up >= 0 && dmn__lint_name_is(bi, up, "ports"))
		up = bi->nodes[up].parent;
	return up;
}

struct tie {
	int32_t user;	  /* the device in a domain */
	const char *via;  /* "phys", "its OF graph" */
};

static int report_missing(struct linter *l, const struct lint_blob *bi,
			  int32_t node, int32_t peer, const struct tie *t)
{
	char *path = dmn__lint_path_alloc(l, bi, node);
	if (!path)
		return -ENOMEM;
	char user[PATH_BUF], ppath[PATH_BUF];
	dmn__lint_report(l, DMN_DT_SEV_WARNING, "pd-missing", path, NULL,
			 "has no power-domains, yet %s, which is in a power "
			 "domain, uses it through %s, and %s (also \"%s\") has "
			 "power-domains: it may lose power while its user runs",
			 dmn__lint_path(bi, t->user, user, sizeof(user)), t->via,
			 dmn__lint_path(bi, peer, ppath, sizeof(ppath)),
			 dmn__lint_compatible(bi, node));
	dmn__lint_free(l, path);
	return 0;
}

/* Node @cand, used by @t->user: report it once (@done) when a node of its
 * compatible has power-domains. 0 or -ENOMEM. */
static int consider(struct linter *l, const struct lint_blob *bi,
		    const struct by_compat *with, unsigned n_with, bool *done,
		    int32_t cand, const struct tie *t)
{
	if (cand == t->user || !bare_device(bi, cand) || done[cand])
		return 0;
	int32_t peer = find_peer(with, n_with, dmn__lint_compatible(bi, cand), cand);
	if (peer < 0)
		return 0;
	done[cand] = true;
	return report_missing(l, bi, cand, peer, t);
}

/* Every node a device in a domain uses through `phys`. */
static int phys_ties(struct linter *l, const struct lint_blob *bi,
		     const struct by_compat *with, unsigned n_with, bool *done,
		     int32_t user)
{
	int len;
	const fdt32_t *v = dmn__lint_prop(bi, user, "phys", &len);
	unsigned n = v ? (unsigned)len / 4 : 0;
	struct tie t = {user, "phys"};
	for (unsigned pos = 0; pos < n;) {
		int32_t phy = dmn__lint_phandle(bi, fdt32_to_cpu(v[pos]));
		if (phy < 0)
			return 0;
		int cl;
		const fdt32_t *c = dmn__lint_prop(bi, phy, "#phy-cells", &cl);
		unsigned cells = c && cl == 4 ? fdt32_to_cpu(*c) : 0;
		/* a PHY's lanes sub-node without a compatible belongs to the
		 * PHY device above it (Qualcomm's QMP PHYs) */
		int32_t dev = dmn__lint_compatible(bi, phy) ? phy : bi->nodes[phy].parent;
		if (dev >= 0 && consider(l, bi, with, n_with, done, dev, &t))
			return -ENOMEM;
		if (cells > n - pos - 1)
			return 0;
		pos += 1 + cells;
	}
	return 0;
}

/* Every node at the other end of an OF graph link of a device in a
 * domain (@in_domain[node]). One pass over the endpoints: O(N log N). */
static int graph_ties(struct linter *l, const struct lint_blob *bi,
		      const struct by_compat *with, unsigned n_with, bool *done,
		      const bool *in_domain)
{
	for (unsigned ep = 0; ep < bi->n_nodes; ep++) {
		if (!dmn__lint_name_is(bi, (int32_t)ep, "endpoint"))
			continue;
		int32_t user = endpoint_device(bi, (int32_t)ep);
		if (user < 0 || !in_domain[user])
			continue;
		int len;
		const fdt32_t *r =
		    dmn__lint_prop(bi, (int32_t)ep, "remote-endpoint", &len);
		if (!r || len != 4)
			continue;
		int32_t remote = dmn__lint_phandle(bi, fdt32_to_cpu(*r));
		struct tie t = {user, "its OF graph"};
		if (remote >= 0 && consider(l, bi, with, n_with, done,
					    endpoint_device(bi, remote), &t))
			return -ENOMEM;
	}
	return 0;
}

/* The nodes with a compatible that carry @prop (any status: a disabled
 * node of a shared .dtsi still says how its kind is wired), sorted. */
static struct by_compat *nodes_with(struct linter *l, const struct lint_blob *bi,
				    const char *prop,
				    bool (*extra)(const struct lint_blob *, int32_t),
				    unsigned *n)
{
	struct by_compat *v = dmn__lint_calloc(l, bi->n_nodes, sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	for (unsigned i = 0; i < bi->n_nodes; i++) {
		const char *c = dmn__lint_compatible(bi, (int32_t)i);
		if (c && dmn__lint_prop(bi, (int32_t)i, prop, NULL) &&
		    !dmn__lint_prop(bi, (int32_t)i, "#power-domain-cells", NULL) &&
		    (!extra || extra(bi, (int32_t)i)))
			v[(*n)++] = (struct by_compat){c, (int32_t)i};
	}
	qsort(v, *n, sizeof(*v), cmp_by_compat);
	return v;
}

static int check_pd_missing(struct linter *l, const struct lint_blob *bi,
			    const struct dmn_dt_board *b)
{
	unsigned n_with;
	int err = 0;
	struct by_compat *with = nodes_with(l, bi, "power-domains", NULL, &n_with);
	bool *done = dmn__lint_calloc(l, bi->n_nodes, 1);
	bool *in_domain = dmn__lint_calloc(l, bi->n_nodes, 1);
	if (!with || !done || !in_domain) {
		err = -ENOMEM;
		goto out;
	}
	if (!n_with)
		goto out;
	for (unsigned di = 0; di < b->n_devices; di++) {
		const struct dmn_dt_device *d = &b->devices[di];
		int32_t user = d->n_attachments ? bi->device_node[di] : -1;
		if (user < 0)
			continue;
		in_domain[user] = true;
		if ((err = phys_ties(l, bi, with, n_with, done, user)))
			goto out;
	}
	err = graph_ties(l, bi, with, n_with, done, in_domain);
out:
	dmn__lint_free(l, with);
	dmn__lint_free(l, done);
	dmn__lint_free(l, in_domain);
	return err;
}

/* ---- opp-required-missing ------------------------------------------------------ */

/* Whether phandle @ph is an OPP entry with opp-level. */
static bool level_entry(const struct lint_blob *bi, uint32_t ph)
{
	int32_t e = dmn__lint_phandle(bi, ph);
	return e >= 0 && dmn__lint_prop(bi, e, "opp-level", NULL);
}

static bool refs_level(const struct lint_blob *bi, int32_t node)
{
	int len;
	const fdt32_t *v = dmn__lint_prop(bi, node, "required-opps", &len);
	for (int i = 0; v && i < len / 4; i++)
		if (level_entry(bi, fdt32_to_cpu(v[i])))
			return true;
	return false;
}

/* Node @node votes a level: its own required-opps, or an entry of its OPP
 * table, requires an OPP with opp-level. Read from the blob, so a disabled
 * node counts too. */
static bool votes_level(const struct lint_blob *bi, int32_t node)
{
	if (refs_level(bi, node))
		return true;
	int len;
	const fdt32_t *v = dmn__lint_prop(bi, node, "operating-points-v2", &len);
	int32_t t = v && len >= 4 ? dmn__lint_phandle(bi, fdt32_to_cpu(*v)) : -1;
	if (t < 0)
		return false;
	for (int32_t e = t + 1; e < bi->nodes[t].end; e++)
		if (bi->nodes[e].parent == t && refs_level(bi, e))
			return true;
	return false;
}

/* Node @node's power-domains name a provider with an OPP table (a rail). */
static bool on_rail(const struct lint_blob *bi, int32_t node)
{
	int len;
	const fdt32_t *v = dmn__lint_prop(bi, node, "power-domains", &len);
	unsigned n = v ? (unsigned)len / 4 : 0;
	for (unsigned pos = 0; pos < n;) {
		int32_t p = dmn__lint_phandle(bi, fdt32_to_cpu(v[pos]));
		int cl;
		const fdt32_t *c =
		    p >= 0 ? dmn__lint_prop(bi, p, "#power-domain-cells", &cl) : NULL;
		if (!c || cl != 4)
			return false;
		if (dmn__lint_prop(bi, p, "operating-points-v2", NULL))
			return true;
		pos += 1 + fdt32_to_cpu(*c);
	}
	return false;
}

static bool rail_voter(const struct lint_blob *bi, int32_t node)
{
	return on_rail(bi, node) && votes_level(bi, node);
}

static bool rail_vote_before(const void *base, size_t i, const void *key)
{
	const struct dmn__lint_rail_vote *v = base;
	return strcmp(v[i].compatible, key) < 0;
}

/* The row of @compat in the generated table (one row per compatible), or
 * NULL. O(log n). */
static const struct dmn__lint_rail_vote *rail_vote(const char *compat)
{
	size_t i = dmn__lower_bound(dmn__lint_n_rail_votes, dmn__lint_rail_votes,
				    compat, rail_vote_before);
	return i < dmn__lint_n_rail_votes &&
		       !strcmp(dmn__lint_rail_votes[i].compatible, compat)
		   ? &dmn__lint_rail_votes[i]
		   : NULL;
}

/* Whether the space-separated list @socs holds @soc. */
static bool soc_listed(const char *socs, const char *soc)
{
	size_t n = strlen(soc);
	for (const char *p = socs; *p;) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, soc, n))
			return true;
		p += k + (p[k] == ' ');
	}
	return false;
}

/*
 * No twin on the board: do nodes of one of @node's compatibles vote on
 * rails of other SoCs (the generated table)? The first compatible with
 * two such SoCs besides the board's own gives a note: the same device
 * votes on sibling SoCs, but only another SoC says so.
 */
static void note_sibling_socs(struct linter *l, const struct lint_blob *bi,
			      const struct dmn_dt_board *b, int32_t node,
			      const struct dmn_dt_device *d, int32_t rail)
{
	const char *soc = b->n_compatible ? b->compatible[b->n_compatible - 1] : "";
	int pos = 0;
	for (const char *s; (s = dmn__lint_compatible_next(bi, node, &pos));) {
		const struct dmn__lint_rail_vote *v = rail_vote(s);
		unsigned others = v ? v->n_socs - soc_listed(v->socs, soc) : 0;
		if (others >= 2) {
			dmn__lint_report(
			    l, DMN_DT_SEV_NOTE, "opp-required-missing", d->path,
			    "power-domains",
			    "votes no level on %s, while nodes compatible with "
			    "\"%s\" vote one on their rails on %u other SoCs of "
			    "Linux 6.12 (%s): a required-opps may be missing",
			    b->domains[rail].name, s, others, v->socs);
			return;
		}
	}
}

static int check_opp_required_missing(struct linter *l,
				      const struct lint_blob *bi,
				      const struct dmn_dt_board *b)
{
	unsigned n_with;
	struct by_compat *with =
	    nodes_with(l, bi, "power-domains", rail_voter, &n_with);
	if (!with)
		return -ENOMEM;
	for (unsigned di = 0; di < b->n_devices; di++) {
		const struct dmn_dt_device *d = &b->devices[di];
		int32_t rail = -1;
		for (unsigned a = 0; a < d->n_attachments && rail < 0; a++)
			if (b->domains[d->attachments[a].domain].opp_table >= 0)
				rail = d->attachments[a].domain;
		if (rail < 0 || first_level_ref(b, d))
			continue;
		int32_t node = bi->device_node[di];
		const char *compat = node >= 0 ? dmn__lint_compatible(bi, node) : NULL;
		int32_t peer = compat ? find_peer(with, n_with, compat, node) : -1;
		if (peer < 0) {
			if (compat)
				note_sibling_socs(l, bi, b, node, d, rail);
			continue;
		}
		char ppath[PATH_BUF];
		dmn__lint_report(l, DMN_DT_SEV_WARNING, "opp-required-missing",
				 d->path, "power-domains",
				 "votes no level on %s, while %s (also \"%s\") "
				 "votes one on its rail through required-opps: "
				 "without a vote the rail may sit below what "
				 "this device needs",
				 b->domains[rail].name,
				 dmn__lint_path(bi, peer, ppath, sizeof(ppath)),
				 compat);
	}
	dmn__lint_free(l, with);
	return 0;
}

int dmn__lint_wiring(struct linter *l, const struct lint_blob *bi,
		     const struct dmn_dt_board *b)
{
	int err = check_provider_rail(l, bi, b);
	if (!err)
		err = check_pd_missing(l, bi, b);
	if (!err)
		err = check_opp_required_missing(l, bi, b);
	return err;
}
