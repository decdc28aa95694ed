/* SPDX-License-Identifier: MIT */
/*
 * Stage 2: build a board model into a context through the public core and
 * OPP APIs only (domain.h, opp.h): tables, domains, links and floors,
 * devices, attachments, bindings and fixed votes.
 */
#include "dt_internal.h"

#include <domino/domain.h>
#include <domino/idle.h>
#include <domino/opp.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int accept_level(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return 0;
}

static const struct dmn_domain_ops level_ops = {NULL, NULL, accept_level, 0};

/* The default backend (docs/semantics.md, Votes and pstates): a domain has
 * set_performance_state exactly when its provider has an OPP table. */
static int default_factory(void *user, const struct dmn_dt_board *board,
			   unsigned domain, struct dmn_domain_desc *desc)
{
	(void)user;
	if (board->domains[domain].opp_table >= 0)
		desc->ops = &level_ops;
	return 0;
}

struct builder {
	const struct dmn_dt_board *b;
	struct dmn_ctx *ctx;
	struct dmn_dt_instance *inst;
	uint8_t *table_state; /* 0 unused, 1 wanted, 2 adding, 3 done */
	unsigned n_links;
	struct {
		dmn_domain_t parent, child;
	} * links;
	unsigned n_domains_made, n_devices_made, n_tables_made;
	/* what is being built, for the diagnostic when a call fails: a node
	 * (or a table and one of its entries) and the property behind it */
	const char *at_node, *at_prop;
	int32_t at_domain; /* or a domain, whose path is built on demand */
	int32_t at_provider; /* or a provider, the same way */
	const struct dmn_dt_opp_table *at_table;
	const struct dmn_dt_opp *at_entry;
};

static void build_at(struct builder *bd, const char *node, const char *prop)
{
	bd->at_node = node;
	bd->at_prop = prop;
	bd->at_domain = -1;
	bd->at_provider = -1;
	bd->at_table = NULL;
	bd->at_entry = NULL;
}

static void build_at_domain(struct builder *bd, unsigned d, const char *prop)
{
	build_at(bd, NULL, prop);
	bd->at_domain = (int32_t)d;
}

static void build_at_provider(struct builder *bd, unsigned p, const char *prop)
{
	build_at(bd, NULL, prop);
	bd->at_provider = (int32_t)p;
}

static bool entry_added(const struct dmn_dt_opp *e)
{
	return e->hw_ok && e->duplicate_of < 0 && (e->n_hz || e->has_level);
}

/* Mark table @t and every table its entries require, through an explicit
 * stack (no recursion on the length of a required-opps chain). */
static int want_table(struct builder *bd, int32_t t, int32_t *stack)
{
	if (t < 0 || bd->table_state[t])
		return 0;
	unsigned n = 0;
	bd->table_state[t] = 1;
	stack[n++] = t;
	while (n) {
		const struct dmn_dt_opp_table *tab = &bd->b->opp_tables[stack[--n]];
		for (unsigned e = 0; e < tab->n_entries; e++)
			for (unsigned r = 0; r < tab->entries[e].n_required;
			     r++) {
				int32_t u = tab->entries[e].required[r].table;
				DMN_ASSERT(u >= 0 && (unsigned)u < bd->b->n_opp_tables &&
					   "the loader resolved every required table");
				if (bd->table_state[u])
					continue;
				DMN_ASSERT(n < bd->b->n_opp_tables);
				bd->table_state[u] = 1;
				stack[n++] = u; /* each table once: fits */
			}
	}
	return 0;
}

/* Add the entries of table @t (whose required tables are filled). */
static int add_entries(struct builder *bd, int32_t t)
{
	const struct dmn_dt_board *b = bd->b;
	struct dmn_dt_instance *inst = bd->inst;
	const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
	for (unsigned e = 0; e < tab->n_entries; e++) {
		const struct dmn_dt_opp *o = &tab->entries[e];
		if (!entry_added(o))
			continue;
		build_at(bd, tab->path, NULL);
		bd->at_table = tab;
		bd->at_entry = o;
		struct dmn_opp_desc d;
		memset(&d, 0, sizeof(d));
		struct dmn_opp_supply *sup = dmn__dt_pool_alloc(
		    inst->pool, (o->n_supplies + 1) * sizeof(*sup));
		struct dmn_opp_required *req = dmn__dt_pool_alloc(
		    inst->pool, (o->n_required + 1) * sizeof(*req));
		if (!sup || !req) {
			dmn__dt_pool_free(inst->pool, sup);
			dmn__dt_pool_free(inst->pool, req);
			return -ENOMEM;
		}
		d.name = o->name;
		d.hz = o->hz;
		d.n_hz = o->n_hz;
		d.level = o->level;
		for (unsigned s = 0; s < o->n_supplies; s++) {
			sup[s].microvolt = o->supplies[s].microvolt;
			sup[s].microvolt_min = o->supplies[s].microvolt_min;
			sup[s].microvolt_max = o->supplies[s].microvolt_max;
			sup[s].microamp = o->supplies[s].microamp;
		}
		d.supplies = sup;
		d.n_supplies = o->n_supplies;
		for (unsigned w = 0; w < o->n_microwatt; w++)
			d.microwatt += o->microwatt[w];
		bool missing = false;
		for (unsigned r = 0; r < o->n_required; r++) {
			const struct dmn_dt_opp_ref *ref = &o->required[r];
			req[r].table = inst->opp_tables[ref->table];
			req[r].id = inst->opp_ids[ref->table][ref->entry];
			missing = missing || req[r].id == DMN_OPP_ID_NONE;
		}
		d.required = req;
		d.n_required = o->n_required;
		d.flags = (o->suspend ? DMN_OPP_FLAG_SUSPEND : 0) |
			  (o->turbo ? DMN_OPP_FLAG_TURBO : 0) |
			  (o->enabled ? 0 : DMN_OPP_FLAG_UNAVAILABLE) |
			  (o->has_level ? DMN_OPP_FLAG_HAS_LEVEL : 0);
		uint32_t id;
		/* an entry whose required OPP was not added is left out */
		int err = missing ? -EEXIST
				  : dmn_opp_add(bd->ctx, inst->opp_tables[t], &d, &id);
		dmn__dt_pool_free(inst->pool, sup);
		dmn__dt_pool_free(inst->pool, req);
		if (err == -EEXIST)
			continue; /* equal to an entry kept before
				     (docs/semantics.md, The OPP layer) */
		if (err)
			return err;
		inst->opp_ids[t][e] = id;
	}
	return 0;
}

/* Fill every wanted table after the tables it requires: a depth-first
 * post-order on an explicit stack (@stack, and per level the (entry,
 * required) pair to look at next in @next_e, @next_r: one slot per table;
 * each table is pushed once). State 2 marks a table on the stack, so a
 * reference back to one (a cycle the loader left) is -ELOOP. */
static int fill_tables(struct builder *bd, int32_t *stack, unsigned *next_e,
		       unsigned *next_r)
{
	const struct dmn_dt_board *b = bd->b;
	for (unsigned root = 0; root < b->n_opp_tables; root++) {
		if (bd->table_state[root] != 1)
			continue;
		unsigned n = 0;
		stack[n] = (int32_t)root;
		next_e[n] = next_r[n] = 0;
		n++;
		bd->table_state[root] = 2;
		while (n) {
			int32_t t = stack[n - 1];
			const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
			int32_t child = -1;
			while (child < 0) {
				unsigned e = next_e[n - 1], r = next_r[n - 1];
				if (e >= tab->n_entries)
					break;
				if (r >= tab->entries[e].n_required) {
					next_e[n - 1]++;
					next_r[n - 1] = 0;
					continue;
				}
				next_r[n - 1]++;
				int32_t u = tab->entries[e].required[r].table;
				if (u == t || bd->table_state[u] == 3)
					continue;
				if (bd->table_state[u] == 2)
					return -ELOOP;
				child = u;
			}
			if (child >= 0) {
				/* a table is on the stack once: state 2 */
				DMN_ASSERT(n < b->n_opp_tables);
				bd->table_state[child] = 2;
				stack[n] = child;
				next_e[n] = next_r[n] = 0;
				n++;
				continue;
			}
			DMN_ASSERT(bd->table_state[t] == 2 &&
				   "added once, after the tables it requires");
			int err = add_entries(bd, t);
			if (err)
				return err;
			bd->table_state[t] = 3;
			n--;
		}
	}
	return 0;
}

static int make_tables(struct builder *bd)
{
	const struct dmn_dt_board *b = bd->b;
	int32_t *stack =
	    dmn__dt_pool_alloc(bd->inst->pool, (b->n_opp_tables + 1) * sizeof(*stack));
	unsigned *next_e = dmn__dt_pool_alloc(
	    bd->inst->pool, 2 * (b->n_opp_tables + 1) * sizeof(*next_e));
	int err = stack && next_e ? 0 : -ENOMEM;
	for (unsigned d = 0; !err && d < b->n_domains; d++)
		err = want_table(bd, b->domains[d].opp_table, stack);
	for (unsigned d = 0; !err && d < b->n_devices; d++)
		err = want_table(bd, b->devices[d].opp_table, stack);
	for (unsigned t = 0; !err && t < b->n_opp_tables; t++) {
		if (!bd->table_state[t])
			continue;
		build_at(bd, b->opp_tables[t].path, "compatible");
		err = dmn_opp_table_create(bd->ctx, b->opp_tables[t].path,
				       &bd->inst->opp_tables[t]);
		if (!err)
			bd->n_tables_made = t + 1;
	}
	if (!err)
		err = fill_tables(bd, stack, next_e,
				  next_e + b->n_opp_tables + 1);
	dmn__dt_pool_free(bd->inst->pool, stack);
	dmn__dt_pool_free(bd->inst->pool, next_e);
	return err;
}

static int make_domains(struct builder *bd, dmn_dt_domain_factory_fn factory,
			void *user)
{
	const struct dmn_dt_board *b = bd->b;
	struct dmn_dt_instance *inst = bd->inst;
	for (unsigned d = 0; d < b->n_domains; d++) {
		struct dmn_domain_desc desc = {0};
		build_at_domain(bd, d, "#power-domain-cells");
		int err = factory(user, b, d, &desc);
		if (err)
			return err;
		desc.name = b->domains[d].name;
		int32_t pi = b->domains[d].provider;
		if (pi >= 0 && b->providers[pi].cpu)
			desc.flags |= DMN_FLAG_CPU_DOMAIN;
		if ((err = dmn_domain_create(bd->ctx, &desc, &inst->domains[d])))
			return err;
		bd->n_domains_made = d + 1;
		int32_t t = b->domains[d].opp_table;
		bd->at_prop = "operating-points-v2";
		if (t >= 0 &&
		    (err = dmn_opp_domain_set_table(bd->ctx, inst->domains[d],
						inst->opp_tables[t])))
			return err;
		/* domain-idle-states, shallowest first: the governor's menu */
		bd->at_prop = "domain-idle-states";
		for (unsigned k = 0; k < b->domains[d].n_idle_states; k++) {
			const struct dmn_dt_idle_state *is =
			    &b->idle_states[b->domains[d].idle_states[k]];
			struct dmn_idle_state_desc st = {
			    is->name, is->entry_latency_us, is->exit_latency_us,
			    is->min_residency_us, 0};
			err = dmn_domain_add_idle_state(bd->ctx, inst->domains[d],
						       &st, NULL);
			if (err)
				return err;
		}
	}
	return 0;
}

static int make_links(struct builder *bd)
{
	const struct dmn_dt_board *b = bd->b;
	const struct dmn_dt_instance *inst = bd->inst;
	for (unsigned d = 0; d < b->n_domains; d++)
		for (unsigned k = 0; k < b->domains[d].n_parents; k++) {
			dmn_domain_t parent =
			    inst->domains[b->domains[d].parents[k]];
			dmn_domain_t child = inst->domains[d];
			build_at_domain(bd, d, "power-domains");
			int err = dmn_opp_link_add(bd->ctx, parent, child);
			if (err)
				return err;
			bd->links[bd->n_links].parent = parent;
			bd->links[bd->n_links++].child = child;
		}
	/* a provider's floors hold on every one of its domains that has that
	 * parent (nested children have their nesting parent instead) */
	for (unsigned p = 0; p < b->n_providers; p++) {
		const struct dmn_dt_provider *pr = &b->providers[p];
		for (unsigned f = 0; f < pr->n_floors; f++)
			for (unsigned k = 0; k < pr->n_domains; k++) {
				int32_t d = pr->first_domain + (int32_t)k;
				bool linked = false;
				for (unsigned q = 0;
				     q < b->domains[d].n_parents; q++)
					linked = linked ||
						 b->domains[d].parents[q] ==
						     pr->floors[f].parent;
				if (!linked)
					continue;
				build_at_provider(bd, p, "required-opps");
				int err = dmn_opp_link_set_floor(
				    bd->ctx,
				    inst->domains[pr->floors[f].parent],
				    inst->domains[d], pr->floors[f].level);
				if (err)
					return err;
			}
	}
	return 0;
}

static int make_devices(struct builder *bd)
{
	const struct dmn_dt_board *b = bd->b;
	struct dmn_dt_instance *inst = bd->inst;
	for (unsigned d = 0; d < b->n_devices; d++) {
		const struct dmn_dt_device *dev = &b->devices[d];
		build_at(bd, dev->path, "power-domains");
		int err =
		    dmn_device_create(bd->ctx, dev->name, &inst->devices[d]);
		if (err)
			return err;
		bd->n_devices_made = d + 1;
		/* a device on a simple-pm-bus holds the bus (its parent comes
		 * first in the board) */
		if (dev->parent >= 0 &&
		    (err = dmn_device_set_parent(
			 bd->ctx, inst->devices[d],
			 inst->devices[dev->parent])))
			return err;
		for (unsigned k = 0; k < dev->n_attachments; k++)
			if ((err = dmn_attach(
				 bd->ctx, inst->devices[d],
				 inst->domains[dev->attachments[k].domain],
				 &inst->attachments[d][k])))
				return err;
		if (dev->opp_table >= 0) {
			/* its rate votes come from the table; a device-level
			 * required-opps beside a table is not cast as well */
			bd->at_prop = "operating-points-v2";
			if ((err = dmn_opp_device_bind(
				 bd->ctx, inst->devices[d],
				 inst->opp_tables[dev->opp_table])))
				return err;
			continue;
		}
		if (!dev->n_required)
			continue;
		/* fixed votes (docs/semantics.md, Required OPPs). The OPP
		 * layer matches only for bound devices, so the model's own
		 * two-pass matcher decides */
		uint32_t *levels = dmn__dt_pool_alloc(
		    inst->pool, (dev->n_attachments + 1) * sizeof(*levels));
		if (!levels)
			return -ENOMEM;
		bd->at_prop = "required-opps";
		int n = dmn_dt_device_fixed_votes(b, d, levels, dev->n_attachments);
		for (int k = 0; !err && k < n; k++)
			if (levels[k])
				err = dmn_vote(bd->ctx, inst->attachments[d][k],
					      levels[k]);
		dmn__dt_pool_free(inst->pool, levels);
		if (n < 0)
			return n;
		if (err)
			return err;
	}
	return 0;
}

/* Best-effort undo, in reverse order of creation. */
static void unbuild(struct builder *bd)
{
	const struct dmn_dt_board *b = bd->b;
	struct dmn_dt_instance *inst = bd->inst;
	for (unsigned d = bd->n_devices_made; d-- > 0;) {
		if (!inst->devices[d])
			continue;
		dmn_opp_device_unbind(bd->ctx, inst->devices[d]);
		for (unsigned k = b->devices[d].n_attachments; k-- > 0;)
			if (inst->attachments[d][k])
				dmn_detach(bd->ctx, inst->attachments[d][k]);
		dmn_device_remove(bd->ctx, inst->devices[d]);
	}
	for (unsigned l = bd->n_links; l-- > 0;)
		dmn_link_remove(bd->ctx, bd->links[l].parent,
			       bd->links[l].child);
	for (unsigned d = bd->n_domains_made; d-- > 0;)
		if (inst->domains[d])
			dmn_domain_remove(bd->ctx, inst->domains[d]);
	for (unsigned t = bd->n_tables_made; t-- > 0;)
		if (inst->opp_tables[t])
			dmn_opp_table_put(bd->ctx, inst->opp_tables[t]);
}

static int alloc_instance(struct dmn_dt_pool *pool, const struct dmn_dt_board *b,
			  struct builder *bd)
{
	struct dmn_dt_instance *inst = dmn__dt_pool_alloc(pool, sizeof(*inst));
	if (!inst)
		return -ENOMEM;
	inst->pool = pool;
	bd->inst = inst;
	unsigned n_links = 0;
	for (unsigned d = 0; d < b->n_domains; d++)
		n_links += b->domains[d].n_parents;
	/* dmn__dt_pool_alloc(0) returns a valid block: no special cases */
	inst->domains = dmn__dt_pool_alloc(pool, b->n_domains * sizeof(uint32_t));
	inst->devices = dmn__dt_pool_alloc(pool, b->n_devices * sizeof(uint32_t));
	inst->attachments =
	    dmn__dt_pool_alloc(pool, b->n_devices * sizeof(uint32_t *));
	inst->opp_tables =
	    dmn__dt_pool_alloc(pool, b->n_opp_tables * sizeof(uint32_t));
	inst->opp_ids =
	    dmn__dt_pool_alloc(pool, b->n_opp_tables * sizeof(uint32_t *));
	bd->table_state = dmn__dt_pool_alloc(pool, b->n_opp_tables);
	bd->links = dmn__dt_pool_alloc(pool, n_links * sizeof(*bd->links));
	if (!inst->domains || !inst->devices || !inst->attachments ||
	    !inst->opp_tables || !inst->opp_ids || !bd->table_state ||
	    !bd->links)
		return -ENOMEM;
	for (unsigned d = 0; d < b->n_devices; d++)
		if (!(inst->attachments[d] =
			  dmn__dt_pool_alloc(pool, b->devices[d].n_attachments *
						  sizeof(uint32_t))))
			return -ENOMEM;
	for (unsigned t = 0; t < b->n_opp_tables; t++) {
		unsigned n = b->opp_tables[t].n_entries;
		if (!(inst->opp_ids[t] =
			  dmn__dt_pool_alloc(pool, n * sizeof(uint32_t))))
			return -ENOMEM;
		for (unsigned e = 0; e < n; e++)
			inst->opp_ids[t][e] = DMN_OPP_ID_NONE;
	}
	return 0;
}

/*
 * Which property of an OPP entry the OPP layer refused (dmn_opp_add only says
 * -EINVAL): the rules of its check_desc, told apart for the message.
 */
static const char *entry_fault(const struct dmn_dt_opp_table *tab,
			       const struct dmn_dt_opp *o, int err, char *why,
			       size_t size)
{
	if (err != -EINVAL)
		return o->n_hz ? "opp-hz" : "opp-level";
	if (o->n_hz && !o->hz[0]) {
		snprintf(why, size, "a rate of 0 Hz");
		return "opp-hz";
	}
	for (unsigned s = 0; s < o->n_supplies; s++) {
		const struct dmn_dt_opp_supply *sp = &o->supplies[s];
		if (sp->microvolt_min > sp->microvolt ||
		    (sp->microvolt_max && sp->microvolt_max < sp->microvolt)) {
			snprintf(why, size,
				 "supply %u: its window %u..%u uV does not "
				 "hold its target %u uV",
				 s, sp->microvolt_min, sp->microvolt_max,
				 sp->microvolt);
			return "opp-microvolt";
		}
	}
	for (unsigned e = 0; e < tab->n_entries; e++) {
		const struct dmn_dt_opp *x = &tab->entries[e];
		if (x != o && entry_added(x) && (x->n_hz > 0) != (o->n_hz > 0)) {
			snprintf(why, size,
				 "the table mixes entries with opp-hz and "
				 "level-only entries (%s, %s)",
				 x->name, o->name);
			return "opp-hz";
		}
	}
	if (o->n_required) {
		snprintf(why, size, "a required OPP cannot be voted");
		return "required-opps";
	}
	snprintf(why, size, "the entry is refused");
	return o->n_hz ? "opp-hz" : "opp-level";
}

/* The failure of dmn_dt_instantiate_diag, as a loader-style diagnostic. */
static void report_failure(const struct builder *bd, int err, dmn_dt_diag_fn diag,
			   void *diag_user)
{
	char why[256] = "", node[1024];
	const char *prop = bd->at_prop;
	snprintf(node, sizeof(node), "%s", bd->at_node ? bd->at_node : "/");
	if (bd->at_domain >= 0)
		dmn_dt_domain_path(bd->b, (unsigned)bd->at_domain, node,
			       sizeof(node));
	if (bd->at_provider >= 0)
		dmn_dt_provider_path(bd->b, (unsigned)bd->at_provider, node,
				 sizeof(node));
	if (bd->at_entry)
		prop = entry_fault(bd->at_table, bd->at_entry, err, why,
				   sizeof(why));
	if (bd->at_entry)
		snprintf(node, sizeof(node), "%s/%s", bd->at_table->path,
			 bd->at_entry->name);
	char message[512];
	snprintf(message, sizeof(message),
		 "cannot build the board's model here: %s%s%s",
		 dmn_strerror(err), why[0] ? ": " : "", why);
	struct dmn_dt_diag d = {DMN_DT_SEV_ERROR, "load-failed", node, prop, message,
			    err};
	diag(diag_user, &d);
}

int dmn_dt_instantiate(const struct dmn_dt_board *board, struct dmn_ctx *ctx,
		   dmn_dt_domain_factory_fn factory, void *user,
		   struct dmn_dt_instance **out)
{
	return dmn_dt_instantiate_diag(board, ctx, factory, user, NULL, NULL, out);
}

int dmn_dt_instantiate_diag(const struct dmn_dt_board *board, struct dmn_ctx *ctx,
			dmn_dt_domain_factory_fn factory, void *user,
			dmn_dt_diag_fn diag, void *diag_user,
			struct dmn_dt_instance **out)
{
	if (out)
		*out = NULL;
	if (!board || !ctx || !out)
		return -EINVAL;
	if (!factory)
		factory = default_factory;
	struct dmn_dt_pool *pool = dmn__dt_pool_create(dmn__dt_pool_ops(board->pool));
	if (!pool)
		return -ENOMEM;
	struct builder bd = {.b = board, .ctx = ctx, .at_domain = -1,
			   .at_provider = -1};
	int err = alloc_instance(pool, board, &bd);
	if (!err && !(err = make_tables(&bd)) &&
	    !(err = make_domains(&bd, factory, user)) &&
	    !(err = make_links(&bd)))
		err = make_devices(&bd);
	if (err) {
		if (diag && err != -ENOMEM)
			report_failure(&bd, err, diag, diag_user);
		if (bd.inst)
			unbuild(&bd);
		dmn__dt_pool_destroy(pool);
		return err;
	}
	/* the tables are held by what uses them (domains, bindings, the
	 * tables requiring them): drop the creator's references */
	for (unsigned t = 0; t < board->n_opp_tables; t++)
		if (bd.inst->opp_tables[t])
			dmn_opp_table_put(ctx, bd.inst->opp_tables[t]);
	dmn__dt_pool_free(pool, bd.table_state);
	dmn__dt_pool_free(pool, bd.links);
	*out = bd.inst;
	return 0;
}

void dmn_dt_instance_free(struct dmn_dt_instance *inst)
{
	if (inst)
		dmn__dt_pool_destroy(inst->pool);
}
