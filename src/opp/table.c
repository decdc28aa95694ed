/* SPDX-License-Identifier: MIT */
/*
 * OPP tables: creation, reference counts, entries (validated, kept sorted,
 * named by stable ids) and the per-context state of the OPP layer.
 */
#include "opp_internal.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- the OPP layer's part of a context -------------------------------- */

/* The context's OPP state, made by its first table: NULL for -ENOMEM. */
static struct dmn_opp_ctx *opp_ctx_make(struct dmn_ctx *ctx)
{
	if (ctx->opp)
		return ctx->opp;
	struct dmn_opp_ctx *oc = dmn__alloc(ctx, sizeof(*oc));
	if (!oc)
		return 0;
	memset(oc, 0, sizeof(*oc));
	dmn__handle_table_init(&oc->tables, HK_OPP_TABLE);
	ctx->opp = oc;
#ifndef DMN_FIRMWARE
	/* A hosted core may be built without the OPP layer (its own tests
	 * are): dmn_ctx_destroy reaches it through this hook. A firmware's
	 * core and OPP layer are one image, and its teardown unit calls
	 * dmn__opp_ctx_fini directly. */
	ctx->opp_fini = dmn__opp_ctx_fini;
#endif
	return oc;
}

struct dmn_opp_table *dmn__opp_table_lookup(struct dmn_ctx *ctx, dmn_opp_table_t h)
{
	struct dmn_opp_ctx *oc = ctx->opp;
	return oc ? dmn__handle_lookup(&oc->tables, h) : 0;
}

struct dmn_opp_table *dmn__opp_enter(struct dmn_ctx *ctx, bool args_ok,
				 dmn_opp_table_t h, int *err)
{
	*err = dmn__enter_ctx(ctx, args_ok);
	if (*err)
		return 0;
	struct dmn_opp_table *t = dmn__opp_table_lookup(ctx, h);
	if (!t) {
		*err = -EBADF;
		dmn__unlock(ctx);
	}
	return t;
}

struct dmn_opp_entry *dmn__opp_entry_by_id(const struct dmn_opp_table *t, uint32_t id)
{
	return id < t->n ? t->by_id[id] : 0;
}

bool dmn__opp_entry_usable(const struct dmn_opp_table *t, const struct dmn_opp_entry *e)
{
	return oe_available(e) && (!(e->flags & DMN_OPP_FLAG_TURBO) || t->boost);
}

/* ---- tables ------------------------------------------------------------ */

int dmn_opp_table_create(struct dmn_ctx *ctx, const char *name, dmn_opp_table_t *out)
{
	int err = dmn__enter_ctx(ctx, name && out);
	if (err)
		return err;
	struct dmn_opp_table *t = 0;
	struct dmn_opp_ctx *oc = opp_ctx_make(ctx);
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

int dmn_opp_table_get(struct dmn_ctx *ctx, dmn_opp_table_t table)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, true, table, &err);
	if (!t)
		return err;
	dmn__opp_table_ref(t);
	dmn__unlock(ctx);
	return 0;
}

/* ---- entries ----------------------------------------------------------- */

/* Sort key order: frequency tables by hz[0], then level (an entry without
 * a level before level 0), then the other clocks; level tables by level.
 * Two entries comparing equal are duplicates. A table's entries all have
 * clocks or none (dmn_opp_add refuses a mix), so entries of one table compare
 * hz[0] both or neither. Key @k of @e: hz[0], the level (+1, 0 without
 * one), hz[1], ...; 0 past the entry's clocks (32-bit code but for the
 * 64-bit compares). */
static uint64_t sort_key(const struct dmn_opp_entry *e, unsigned k)
{
	if (k == 1)
		return (e->flags & DMN_OPP_FLAG_HAS_LEVEL) ? (uint64_t)e->level + 1
						       : 0;
	k -= k > 1;
	return k < e->n_hz ? oe_hz(e)[k] : 0;
}

int dmn__opp_entry_cmp(const struct dmn_opp_entry *a, const struct dmn_opp_entry *b)
{
	unsigned n = (a->n_hz > b->n_hz ? a->n_hz : b->n_hz) + 2;
	for (unsigned k = 0; k < n; k++) {
		uint64_t x = sort_key(a, k), y = sort_key(b, k);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Entries are distinct in sort order: an entry of @t is where it would
 * go. */
static bool entry_before(const void *t, size_t pos, const void *e)
{
	return dmn__opp_entry_cmp(opp_sorted_at(t, (unsigned)pos), e) < 0;
}

unsigned dmn__opp_entry_pos(const struct dmn_opp_table *t,
			    const struct dmn_opp_entry *e)
{
	return (unsigned)dmn__lower_bound(t->n, t, e, entry_before);
}

struct dmn_opp_table *dmn__opp_reach(struct dmn_ctx *ctx,
				     struct dmn_opp_table *from, bool devices)
{
	uint32_t gen = ++((struct dmn_opp_ctx *)ctx->opp)->table_gen;
	struct dmn_opp_table *order = 0, *t = from;
	from->mark = gen;
	from->walk_next = 0;
	from->walk_up = 0;
	while (t) {
		if (t->walk_next < t->n_deps) {
			struct dmn_opp_table *d = t->deps[t->walk_next++];
			if ((devices && d->has_level) || d->mark == gen)
				continue; /* a domain's levels, or seen */
			d->mark = gen; /* enter @d; past it only if it counts */
			d->walk_next = devices && !dmn__opp_counted(d) ? d->n_deps : 0;
			d->walk_up = t;
			t = d;
			continue;
		}
		if (t != from) { /* left: it follows what it requires */
			t->order_next = order;
			order = t;
		}
		t = t->walk_up;
	}
	return order;
}

static bool has_dep(const struct dmn_opp_table *t, unsigned n,
		    const struct dmn_opp_table *dep)
{
	for (unsigned i = 0; i < n; i++)
		if (t->deps[i] == dep)
			return true;
	return false;
}

/* The lists of a description, in the entry's order: each is checked,
 * sized and copied by one loop. @extra: bytes the entry keeps after the
 * list per element (a required OPP's resolved entry). */
static const struct {
	uint8_t list, count, size, extra;
} desc_lists[] = {
    {offsetof(struct dmn_opp_desc, hz), offsetof(struct dmn_opp_desc, n_hz),
     sizeof(uint64_t), 0},
    {offsetof(struct dmn_opp_desc, supplies),
     offsetof(struct dmn_opp_desc, n_supplies), sizeof(struct dmn_opp_supply),
     0},
    {offsetof(struct dmn_opp_desc, required),
     offsetof(struct dmn_opp_desc, n_required), sizeof(struct dmn_opp_required),
     sizeof(struct dmn_opp_entry *)},
};

/* Everything of @d that needs no other table; @d's lists are there. */
DMN_NOINLINE static int check_values(const struct dmn_opp_table *t,
					  const struct dmn_opp_desc *d)
{
	bool has_level = d->flags & DMN_OPP_FLAG_HAS_LEVEL;
	if (d->n_hz && !d->hz[0])
		return -EINVAL;
	if (!d->n_hz && !has_level)
		return -EINVAL;
	if (t->n && t->has_freq != (d->n_hz > 0))
		return -EINVAL; /* level-only and frequency entries mixed */
	if (t->n_domains && !has_level)
		return -EINVAL; /* a domain takes its levels from this table */
	if (has_level && t->n && !t->has_level && t->n_users)
		return -EINVAL; /* required as a device table: no levels */
	for (unsigned i = 0; i < d->n_supplies; i++) {
		const struct dmn_opp_supply *s = &d->supplies[i];
		if (s->microvolt_min > s->microvolt ||
		    (s->microvolt_max && s->microvolt_max < s->microvolt))
			return -EINVAL;
	}
	return 0;
}

/* Resolve the required OPPs of @e (copied as given) into its req_entry[]
 * and append the tables @t does not require yet to t->deps past n_deps
 * (room for n_required there): *@n_new of them. -EBADF, -EINVAL (no
 * level in a level table, a cycle), -ENOMEM. */
static int resolve_required(struct dmn_ctx *ctx, struct dmn_opp_table *t,
			    struct dmn_opp_entry *e, unsigned *n_new)
{
	const struct dmn_opp_required *req = oe_required(e);
	for (unsigned i = 0; i < e->n_required; i++) {
		struct dmn_opp_table *rt = dmn__opp_table_lookup(ctx, req[i].table);
		const struct dmn_opp_entry *re =
		    rt ? dmn__opp_entry_by_id(rt, req[i].id) : 0;
		if (!re)
			return -EBADF;
		if (!(re->flags & DMN_OPP_FLAG_HAS_LEVEL) && rt->has_level)
			return -EINVAL; /* nothing to vote, nor a device table */
		/* A cycle needs a path from @rt back to @t: none when nothing
		 * requires @t yet (a chain built in dependency order, each
		 * table before the ones requiring it, so O(1) per add instead
		 * of a walk of the whole chain), nor when @t requires @rt
		 * already (that link passed this check). */
		bool known = has_dep(t, t->n_deps, rt);
		if (rt == t)
			return -EINVAL;
		if (t->n_users && !known) {
			dmn__opp_reach(ctx, rt, false);
			if (t->mark == ((struct dmn_opp_ctx *)ctx->opp)->table_gen)
				return -EINVAL;
		}
		oe_req_entry(e)[i] = re;
		if (!has_dep(t, t->n_deps + *n_new, rt))
			t->deps[t->n_deps + (*n_new)++] = rt;
	}
	return 0;
}

/* The first device-to-device requirement (of the @n_new tables @t newly
 * requires, one without levels) installs devreq.c's hooks: 0, or in a
 * firmware image linked without that unit -EOPNOTSUPP. */
static int devreq_install(struct dmn_ctx *ctx, const struct dmn_opp_table *t,
			  unsigned n_new)
{
	struct dmn_opp_ctx *oc = ctx->opp;
	for (unsigned i = 0; !oc->devreq && i < n_new; i++)
		if (!t->deps[t->n_deps + i]->has_level) {
#ifdef DMN_FIRMWARE
			if (!&dmn__opp_devreq_ops)
				return -EOPNOTSUPP;
#endif
			oc->devreq = &dmn__opp_devreq_ops;
		}
	return 0;
}

/* The entry of @d in one block, laid out as opp_internal.h says, its
 * lists copied as given (a supply's window completed) and its required
 * OPPs not yet resolved. -EOVERFLOW for a count or flags wider than the
 * entry stores, -EINVAL for a count without its list, -ENOMEM. */
static int entry_new(struct dmn_ctx *ctx, const struct dmn_opp_desc *d,
		     bool pstate_slot, struct dmn_opp_entry **out)
{
	*out = 0;
	size_t name = d->name ? strlen(d->name) + 1 : 0;
	size_t size = sizeof(struct dmn_opp_entry) +
		      ((d->microwatt != 0) + pstate_slot) * sizeof(uint32_t) +
		      name;
	bool wide = d->flags > OPP_ENTRY_MAX_FLAGS, missing = false;
	for (unsigned k = 0; k < 3; k++) {
		const char *base = (const char *)d;
		unsigned n = *(const unsigned *)(const void *)(base + desc_lists[k].count);
		wide |= n > OPP_ENTRY_MAX_COUNT;
		missing |= n && !*(const void *const *)(const void *)(base + desc_lists[k].list);
		size += n * (size_t)(desc_lists[k].size + desc_lists[k].extra);
	}
	if (wide)
		return -EOVERFLOW;
	if (name > SIZE_MAX / 2)
		return -ENOMEM; /* cannot be allocated (32-bit targets) */
	char *block = dmn__alloc(ctx, size);
	if (!block)
		return -ENOMEM;
	/* every byte is written below (req_entry[] by resolve_required, the
	 * id when it is added), so no memset */
	struct dmn_opp_entry *e = (struct dmn_opp_entry *)(void *)block;
	*out = e;
	if (missing)
		return -EINVAL;
	char *at = (char *)oe_hz(e);
	for (unsigned k = 0; k < 3; k++) {
		const char *base = (const char *)d;
		unsigned n = *(const unsigned *)(const void *)(base + desc_lists[k].count);
		size_t bytes = n * (size_t)desc_lists[k].size;
		if (n)
			memcpy(at, *(const void *const *)(const void *)(base + desc_lists[k].list),
			       bytes);
		at += bytes + n * (size_t)desc_lists[k].extra;
	}
	e->n_hz = (uint8_t)d->n_hz;
	e->n_supplies = (uint8_t)d->n_supplies;
	e->n_required = (uint8_t)d->n_required;
	const struct dmn_opp_required *req =
	    (const struct dmn_opp_required *)(void *)(oe_supplies(e) +
						      e->n_supplies);
	e->req_off = (uint16_t)((const char *)(req + e->n_required) - block);
	e->level = (d->flags & DMN_OPP_FLAG_HAS_LEVEL) ? d->level : 0;
	e->flags = (uint16_t)d->flags;
	e->bits = (uint8_t)((d->microwatt ? OE_MICROWATT : 0) |
			    (pstate_slot ? OE_PSTATE_SLOT : 0) |
			    (name ? OE_NAME : 0) |
			    (d->flags & DMN_OPP_FLAG_UNAVAILABLE ? 0 : OE_AVAILABLE));
	struct dmn_opp_supply *sup = oe_supplies(e);
	for (unsigned i = 0; i < e->n_supplies; i++) {
		/* A single DT cell: the window is the target itself. */
		if (!sup[i].microvolt_min && !sup[i].microvolt_max)
			sup[i].microvolt_min = sup[i].microvolt;
		if (!sup[i].microvolt_max)
			sup[i].microvolt_max = sup[i].microvolt;
	}
	uint32_t *tail = (uint32_t *)(void *)at; /* past the lists */
	if (d->microwatt)
		*tail++ = d->microwatt;
	if (name)
		memcpy(tail + pstate_slot, d->name, name);
	return 0;
}

int dmn_opp_add(struct dmn_ctx *ctx, dmn_opp_table_t table, const struct dmn_opp_desc *desc,
	    uint32_t *id)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, desc, table, &err);
	if (!t)
		return err;
	struct dmn_opp_entry *e;
	unsigned n_new = 0, pos = 0;
	err = entry_new(ctx, desc, t->helper != 0, &e);
	/* room for the tables it may newly require, past t->deps's own */
	if (!err)
		err = dmn__grow(ctx, (void **)&t->deps, &t->cap_deps,
			       t->n_deps + desc->n_required + 1, sizeof(*t->deps));
	if (!err)
		err = check_values(t, desc);
	if (!err)
		err = resolve_required(ctx, t, e, &n_new);
	if (!err) {
		pos = dmn__opp_entry_pos(t, e);
		if (pos < t->n && !dmn__opp_entry_cmp(opp_sorted_at(t, pos), e))
			err = -EEXIST;
	}
	if (!err)
		err = dmn__grow(ctx, (void **)&t->by_id, &t->cap_id, t->n + 1,
			       sizeof(*t->by_id));
	if (!err)
		err = dmn__grow(ctx, (void **)&t->sorted, &t->cap_sorted,
			       t->n + 1, sizeof(*t->sorted));
	for (unsigned i = 0; !err && i < n_new; i++) {
		struct dmn_opp_table *dep = t->deps[t->n_deps + i];
		err = dmn__grow(ctx, (void **)&dep->users, &dep->cap_users,
			       dep->n_users + 1, sizeof(*dep->users));
	}
	if (!err)
		err = dmn__opp_scratch_reserve(ctx, desc->n_required);
	if (!err && t->helper) /* registered: helper.c's hook is there */
		err = ((struct dmn_opp_ctx *)ctx->opp)->pstate_of(t, e);
	if (!err)
		err = devreq_install(ctx, t, n_new);
	if (err) {
		dmn__free(ctx, e);
		dmn__unlock(ctx);
		return err;
	}
	t->has_freq = desc->n_hz > 0; /* as the first entry's (check_values) */
	t->has_level |= !!(e->flags & DMN_OPP_FLAG_HAS_LEVEL);
	if (e->n_supplies > t->max_supplies)
		t->max_supplies = e->n_supplies;
	e->id = t->n;
	t->by_id[t->n] = e;
	memmove(&t->sorted[pos + 1], &t->sorted[pos],
		(t->n - pos) * sizeof(*t->sorted));
	t->sorted[pos] = e->id;
	t->n++;
	for (unsigned i = 0; i < n_new; i++) {
		struct dmn_opp_table *dep = t->deps[t->n_deps++];
		dmn__opp_table_ref(dep);
		dep->users[dep->n_users++] = t;
	}
	if (id)
		*id = e->id;
	dmn__unlock(ctx);
	return 0;
}
