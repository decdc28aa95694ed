/* SPDX-License-Identifier: MIT */
/*
 * OPP tables: creation, reference counts, entries (validated, kept sorted,
 * named by stable ids) and the per-context state of the OPP layer.
 */
#include "opp_internal.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* ---- the OPP layer's part of a context -------------------------------- */

static void table_free(struct dmn_ctx *ctx, struct opp_table *t)
{
	for (unsigned i = 0; i < t->n; i++) {
		dmn__free(ctx, t->by_id[i]->name);
		dmn__free(ctx, t->by_id[i]);
	}
	dmn__free(ctx, t->by_id);
	dmn__free(ctx, t->sorted);
	dmn__free(ctx, t->deps);
	dmn__free(ctx, t->users);
	dmn__free(ctx, t->name);
	dmn__free(ctx, t);
}

/* dmn_ctx_destroy: free everything, whatever the reference counts say. */
static void opp_fini(struct dmn_ctx *ctx)
{
	struct opp_ctx *oc = ctx->opp;
	if (!oc)
		return;
	if (oc->follow)
		oc->follow->fini(ctx, oc);
	for (uint32_t h = dmn__handle_next(&oc->tables, 0); h;
	     h = dmn__handle_next(&oc->tables, h)) {
		struct opp_table *t = dmn__handle_lookup(&oc->tables, h);
		for (struct opp_dev *od = t->devices, *next; od; od = next) {
			next = od->next;
			od->pdev->opp_state = 0;
			dmn__opp_dev_free(ctx, od);
		}
		table_free(ctx, t);
	}
	dmn__opp_domains_fini(ctx, oc);
	dmn__handle_table_fini(ctx, &oc->tables);
	dmn__free(ctx, oc->req_slot);
	dmn__free(ctx, oc->has);
	dmn__free(ctx, oc->walk);
	dmn__free(ctx, oc->dom_mark);
	dmn__free(ctx, oc);
	ctx->opp = 0;
	ctx->opp_fini = 0;
}

struct opp_ctx *dmn__opp_ctx_get(struct dmn_ctx *ctx, bool create)
{
	if (ctx->opp || !create)
		return ctx->opp;
	struct opp_ctx *oc = dmn__alloc(ctx, sizeof(*oc));
	if (!oc)
		return 0;
	memset(oc, 0, sizeof(*oc));
	dmn__handle_table_init(&oc->tables, HK_OPP_TABLE);
	ctx->opp = oc;
	ctx->opp_fini = opp_fini;
	return oc;
}

struct opp_table *dmn__opp_table_lookup(struct dmn_ctx *ctx, opp_table_t h)
{
	struct opp_ctx *oc = ctx->opp;
	return oc ? dmn__handle_lookup(&oc->tables, h) : 0;
}

void dmn__opp_table_ref(struct opp_table *t)
{
	t->refs++;
}

static void drop_user(struct opp_table *dep, const struct opp_table *user)
{
	for (unsigned i = 0; i < dep->n_users; i++)
		if (dep->users[i] == user) {
			dep->users[i] = dep->users[--dep->n_users];
			return;
		}
}

void dmn__opp_table_unref(struct dmn_ctx *ctx, struct opp_table *t)
{
	if (--t->refs)
		return;
	struct opp_ctx *oc = ctx->opp;
	/* A chain of tables freeing each other is walked through a list
	 * threaded in the tables themselves: no recursion on its length and
	 * no allocation on a path that frees. */
	t->free_next = 0;
	for (struct opp_table *dead = t; dead;) {
		struct opp_table *next = dead->free_next;
		dmn__handle_release(&oc->tables, dead->handle);
		for (unsigned i = 0; i < dead->n_deps; i++) {
			struct opp_table *dep = dead->deps[i];
			drop_user(dep, dead);
			if (!--dep->refs) {
				dep->free_next = next;
				next = dep;
			}
		}
		table_free(ctx, dead);
		dead = next;
	}
}

struct opp_entry *dmn__opp_entry_by_id(const struct opp_table *t, uint32_t id)
{
	return id < t->n ? t->by_id[id] : 0;
}

bool dmn__opp_entry_usable(const struct opp_table *t, const struct opp_entry *e)
{
	return e->available && (!(e->flags & OPP_FLAG_TURBO) || t->boost);
}

/* ---- tables ------------------------------------------------------------ */

int opp_table_create(struct dmn_ctx *ctx, const char *name, opp_table_t *out)
{
	if (!ctx || !name || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	int err = 0;
	struct opp_table *t = 0;
	struct opp_ctx *oc = dmn__opp_ctx_get(ctx, true);
	if (!oc)
		err = -ENOMEM;
	if (!err)
		err = dmn__handle_reserve(ctx, &oc->tables);
	if (!err) {
		t = dmn__alloc(ctx, sizeof(*t));
		err = t ? 0 : -ENOMEM;
	}
	if (!err) {
		memset(t, 0, sizeof(*t));
		t->name = dmn__strdup(ctx, name);
		err = t->name ? 0 : -ENOMEM;
	}
	if (!err) {
		t->handle = dmn__handle_alloc(&oc->tables, t);
		err = t->handle ? 0 : -ENOSPC;
	}
	if (err && t) {
		dmn__free(ctx, t->name);
		dmn__free(ctx, t);
	}
	if (!err) {
		t->refs = 1;
		*out = t->handle;
	}
	dmn__unlock(ctx);
	return err;
}

int opp_table_get(struct dmn_ctx *ctx, opp_table_t table)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct opp_table *t = dmn__opp_table_lookup(ctx, table);
	if (t)
		dmn__opp_table_ref(t);
	dmn__unlock(ctx);
	return t ? 0 : -EBADF;
}

int opp_table_put(struct dmn_ctx *ctx, opp_table_t table)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct opp_table *t = dmn__opp_table_lookup(ctx, table);
	if (t)
		dmn__opp_table_unref(ctx, t);
	dmn__unlock(ctx);
	return t ? 0 : -EBADF;
}

/* ---- entries ----------------------------------------------------------- */

/* Sort key order: frequency tables by hz[0], then level (an entry without
 * a level before level 0), then the other clocks; level tables by level.
 * Two entries comparing equal are duplicates. */
static int entry_cmp(const struct opp_table *t, const struct opp_entry *a,
		     const struct opp_entry *b)
{
	if (t->has_freq && a->hz[0] != b->hz[0])
		return a->hz[0] < b->hz[0] ? -1 : 1;
	uint64_t la =
	    (a->flags & OPP_FLAG_HAS_LEVEL) ? (uint64_t)a->level + 1 : 0;
	uint64_t lb =
	    (b->flags & OPP_FLAG_HAS_LEVEL) ? (uint64_t)b->level + 1 : 0;
	if (la != lb)
		return la < lb ? -1 : 1;
	unsigned n = a->n_hz > b->n_hz ? a->n_hz : b->n_hz;
	for (unsigned i = 1; i < n; i++) {
		uint64_t x = i < a->n_hz ? a->hz[i] : 0;
		uint64_t y = i < b->n_hz ? b->hz[i] : 0;
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Does @from reach @target through required-OPP references? An explicit
 * stack and visit marks: each table once, whatever the chain's length.
 * 1 yes, 0 no, -ENOMEM. */
static int deps_reach(struct dmn_ctx *ctx, struct opp_table *from,
		      const struct opp_table *target)
{
	struct opp_ctx *oc = ctx->opp;
	struct opp_table **stack = 0;
	unsigned n = 0, cap = 0;
	int found = 0;
	uint32_t gen = ++oc->table_gen;
	if (dmn_grow(ctx, (void **)&stack, &cap, 1, sizeof(*stack)))
		return -ENOMEM;
	from->mark = gen;
	stack[n++] = from;
	while (n && !found) {
		struct opp_table *t = stack[--n];
		if (t == target) {
			found = 1;
			break;
		}
		for (unsigned i = 0; i < t->n_deps; i++) {
			struct opp_table *d = t->deps[i];
			if (d->mark == gen)
				continue;
			if (dmn_grow(ctx, (void **)&stack, &cap, n + 1,
				     sizeof(*stack))) {
				found = -ENOMEM;
				break;
			}
			d->mark = gen;
			stack[n++] = d;
		}
	}
	dmn__free(ctx, stack);
	return found;
}

static bool has_dep(const struct opp_table *t, const struct opp_table *dep)
{
	for (unsigned i = 0; i < t->n_deps; i++)
		if (t->deps[i] == dep)
			return true;
	return false;
}

static int check_desc(struct dmn_ctx *ctx, const struct opp_table *t,
		      const struct opp_desc *d, struct opp_entry *e,
		      struct opp_table **new_deps, unsigned *n_new)
{
	if ((d->n_hz && !d->hz) || (d->n_supplies && !d->supplies) ||
	    (d->n_required && !d->required))
		return -EINVAL;
	if (d->n_hz && !d->hz[0])
		return -EINVAL;
	bool has_level = d->flags & OPP_FLAG_HAS_LEVEL;
	if (!d->n_hz && !has_level)
		return -EINVAL;
	if (t->n && t->has_freq != (d->n_hz > 0))
		return -EINVAL; /* level-only and frequency entries mixed */
	if (t->n_domains && !has_level)
		return -EINVAL; /* a domain takes its levels from this table */
	if (has_level && t->n && !t->has_level && t->n_users)
		return -EINVAL; /* required as a device table: no levels */
	for (unsigned i = 0; i < d->n_supplies; i++) {
		const struct opp_supply *s = &d->supplies[i];
		if (s->microvolt_min > s->microvolt ||
		    (s->microvolt_max && s->microvolt_max < s->microvolt))
			return -EINVAL;
	}
	*n_new = 0;
	for (unsigned i = 0; i < d->n_required; i++) {
		struct opp_table *rt =
		    dmn__opp_table_lookup(ctx, d->required[i].table);
		if (!rt)
			return -EBADF;
		struct opp_entry *re = dmn__opp_entry_by_id(rt, d->required[i].id);
		if (!re)
			return -EBADF;
		if (!(re->flags & OPP_FLAG_HAS_LEVEL) && rt->has_level)
			return -EINVAL; /* nothing to vote, nor a device table */
		/* A cycle needs a path from @rt back to @t: none when nothing
		 * requires @t yet (a chain built in dependency order, each
		 * table before the ones requiring it, so O(1) per add instead
		 * of a walk of the whole chain), nor when @t requires @rt
		 * already (that link passed this check). */
		int reach = rt == t ? 1
			    : !t->n_users || has_dep(t, rt)
				? 0
				: deps_reach(ctx, rt, t);
		if (reach)
			return reach < 0 ? reach : -EINVAL; /* a cycle */
		e->req_table[i] = rt;
		e->req_entry[i] = re;
		if (has_dep(t, rt))
			continue;
		bool seen = false;
		for (unsigned k = 0; k < *n_new; k++)
			seen |= new_deps[k] == rt;
		if (!seen)
			new_deps[(*n_new)++] = rt;
	}
	return 0;
}

/* Each list element is at most 16 bytes, the required OPPs take 32: the
 * block's size cannot wrap when every count passes this. */
static bool size_ok(size_t n)
{
	return n <= SIZE_MAX / 128;
}

/* The entry and its lists in one block (pointers, then 8-byte, then
 * 4-byte members, so each list is aligned). */
static struct opp_entry *entry_alloc(struct dmn_ctx *ctx,
				     const struct opp_desc *d)
{
	if (!size_ok(d->n_hz) || !size_ok(d->n_supplies) ||
	    !size_ok(d->n_required))
		return 0; /* sizes that cannot be allocated (32-bit targets) */
	size_t n_req = d->n_required, size = sizeof(struct opp_entry);
	size_t off_hz = size;
	size += d->n_hz * sizeof(uint64_t);
	size_t off_rt = size;
	size += n_req * sizeof(struct opp_table *);
	size_t off_re = size;
	size += n_req * sizeof(struct opp_entry *);
	size_t off_rq = size;
	size += n_req * sizeof(struct opp_required);
	size_t off_sp = size;
	size += d->n_supplies * sizeof(struct opp_supply);
	char *block = dmn__alloc(ctx, size);
	if (!block)
		return 0;
	memset(block, 0, size);
	struct opp_entry *e = (struct opp_entry *)block;
	e->hz = (uint64_t *)(block + off_hz);
	e->req_table = (struct opp_table **)(block + off_rt);
	e->req_entry = (const struct opp_entry **)(block + off_re);
	e->required = (struct opp_required *)(block + off_rq);
	e->supplies = (struct opp_supply *)(block + off_sp);
	return e;
}

static void fill_entry(struct opp_entry *e, const struct opp_desc *d)
{
	e->n_hz = d->n_hz;
	if (d->n_hz)
		memcpy(e->hz, d->hz, d->n_hz * sizeof(*e->hz));
	e->level = (d->flags & OPP_FLAG_HAS_LEVEL) ? d->level : 0;
	e->n_supplies = d->n_supplies;
	for (unsigned i = 0; i < d->n_supplies; i++) {
		e->supplies[i] = d->supplies[i];
		/* A single DT cell: the window is the target itself. */
		if (!e->supplies[i].microvolt_min &&
		    !e->supplies[i].microvolt_max) {
			e->supplies[i].microvolt_min = e->supplies[i].microvolt;
			e->supplies[i].microvolt_max = e->supplies[i].microvolt;
		}
		if (!e->supplies[i].microvolt_max)
			e->supplies[i].microvolt_max = e->supplies[i].microvolt;
	}
	e->microwatt = d->microwatt;
	e->n_required = d->n_required;
	if (d->n_required)
		memcpy(e->required, d->required,
		       d->n_required * sizeof(*d->required));
	e->flags = d->flags;
	e->available = !(d->flags & OPP_FLAG_UNAVAILABLE);
}

int opp_add(struct dmn_ctx *ctx, opp_table_t table, const struct opp_desc *desc,
	    uint32_t *id)
{
	if (!ctx || !desc)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct opp_table *t = dmn__opp_table_lookup(ctx, table);
	struct opp_entry *e = 0;
	struct opp_table **new_deps = 0;
	unsigned n_new = 0, pos = 0;
	int err = t ? 0 : -EBADF;
	if (!err) {
		e = entry_alloc(ctx, desc);
		new_deps = dmn__alloc(ctx, (desc->n_required + 1) *
					      sizeof(*new_deps));
		err = e && new_deps ? 0 : -ENOMEM;
	}
	if (!err)
		err = check_desc(ctx, t, desc, e, new_deps, &n_new);
	if (!err) {
		fill_entry(e, desc);
		/* Binary search for the insertion point (an empty table has
		 * nothing to compare, so has_freq is not needed yet). */
		unsigned lo = 0, hi = t->n;
		while (lo < hi) {
			unsigned mid = lo + (hi - lo) / 2;
			if (entry_cmp(t, t->sorted[mid], e) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		pos = lo;
		if (pos < t->n && !entry_cmp(t, t->sorted[pos], e))
			err = -EEXIST;
	}
	if (!err && desc->name) {
		e->name = dmn__strdup(ctx, desc->name);
		err = e->name ? 0 : -ENOMEM;
	}
	if (!err)
		err = dmn_grow(ctx, (void **)&t->by_id, &t->cap_id, t->n + 1,
			       sizeof(*t->by_id));
	if (!err)
		err = dmn_grow(ctx, (void **)&t->sorted, &t->cap_sorted,
			       t->n + 1, sizeof(*t->sorted));
	if (!err && n_new)
		err = dmn_grow(ctx, (void **)&t->deps, &t->cap_deps,
			       t->n_deps + n_new, sizeof(*t->deps));
	for (unsigned i = 0; !err && i < n_new; i++)
		err = dmn_grow(ctx, (void **)&new_deps[i]->users,
			       &new_deps[i]->cap_users,
			       new_deps[i]->n_users + 1,
			       sizeof(*new_deps[i]->users));
	if (!err)
		err = dmn__opp_scratch_reserve(ctx, desc->n_required, 0);
	for (struct opp_dev *od = t ? t->devices : 0; !err && od; od = od->next)
		err = dmn__opp_dev_reserve(ctx, od, desc->n_supplies);
	if (!err && t->helper) {
		uint32_t pstate = 0;
		err = t->helper(t->helper_user, t->handle,
				e->n_hz ? e->hz[0] : 0, &pstate);
		if (err > 0)
			err = -EIO;
		e->has_pstate = !err;
		e->pstate = pstate;
	}
	if (err) {
		if (e)
			dmn__free(ctx, e->name);
		dmn__free(ctx, e);
		dmn__free(ctx, new_deps);
		dmn__unlock(ctx);
		return err;
	}
	if (!t->n)
		t->has_freq = desc->n_hz > 0;
	if (e->flags & OPP_FLAG_HAS_LEVEL)
		t->has_level = true;
	if (e->n_supplies > t->max_supplies)
		t->max_supplies = e->n_supplies;
	e->id = t->n;
	t->by_id[t->n] = e;
	memmove(&t->sorted[pos + 1], &t->sorted[pos],
		(t->n - pos) * sizeof(*t->sorted));
	t->sorted[pos] = e;
	t->n++;
	for (unsigned i = pos; i < t->n; i++)
		t->sorted[i]->pos = i;
	for (unsigned i = 0; i < n_new; i++) {
		dmn__opp_table_ref(new_deps[i]);
		t->deps[t->n_deps++] = new_deps[i];
		new_deps[i]->users[new_deps[i]->n_users++] = t;
	}
	dmn__free(ctx, new_deps);
	if (id)
		*id = e->id;
	dmn__unlock(ctx);
	return 0;
}

int opp_table_set_boost(struct dmn_ctx *ctx, opp_table_t table, bool boost)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct opp_table *t = dmn__opp_table_lookup(ctx, table);
	if (t)
		t->boost = boost;
	dmn__unlock(ctx);
	return t ? 0 : -EBADF;
}
