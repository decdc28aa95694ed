/* SPDX-License-Identifier: MIT */
/*
 * OPP tables: "operating-points-v2" nodes and their entries, required-opps
 * references, opp-supported-hw availability and duplicate entries.
 */
#include "dt_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The vendor variants ("operating-points-v2-kryo-cpu", "-ti-cpu",
 * "-qcom-level", ...) are OPP tables too: Linux's OPP core reads their
 * entries like any other and leaves the vendor part to a driver. The
 * compatible that names the variant, or NULL for a plain table. */
static const char *opp_table_variant(const struct dmn_dt_loader *ld, int32_t node,
				     bool *is_table)
{
	static const char plain[] = "operating-points-v2";
	unsigned n;
	const char *variant = NULL;
	*is_table = false;
	dmn__dt_prop_string(ld, node, "compatible", 0, &n);
	for (unsigned i = 0; i < n; i++) {
		const char *c = dmn__dt_prop_string(ld, node, "compatible", i, NULL);
		if (!c || strncmp(c, plain, sizeof(plain) - 1))
			continue;
		if (!c[sizeof(plain) - 1]) {
			*is_table = true;
			return NULL;
		}
		if (c[sizeof(plain) - 1] == '-' && !variant)
			variant = c;
	}
	*is_table = variant != NULL;
	return variant;
}

static bool is_opp_table(const struct dmn_dt_loader *ld, int32_t node)
{
	bool table;
	opp_table_variant(ld, node, &table);
	return table;
}

/* A property made of whole u32 cells: the cell count, or -1 (reported). */
static int cells_of(struct dmn_dt_loader *ld, int32_t node, const char *name,
		    unsigned group, const void **value)
{
	int len;
	*value = dmn__dt_prop(ld, node, name, &len);
	if (!*value)
		return 0;
	if (len % (int)(4 * group) != 0) {
		if (DT_ERR(ld, -EINVAL, "prop-length", node, name,
			   "length %d is not a multiple of %u", len, 4 * group))
			return -2;
		return -1;
	}
	return len / 4;
}

static int parse_entry(struct dmn_dt_loader *ld, int32_t node, struct dmn_dt_opp *e)
{
	struct dmn_dt_pool *pool = ld->pool;
	const void *v;
	int n;

	e->name = dmn__dt_pool_strdup(pool, ld->nodes[node].name);
	if (ld->nodes[node].label &&
	    !(e->label = dmn__dt_pool_strdup(pool, ld->nodes[node].label)))
		return -ENOMEM;
	if (!e->name)
		return -ENOMEM;
	e->labels = ld->nodes[node].labels;
	e->n_labels = ld->nodes[node].n_labels;
	e->enabled = ld->nodes[node].own_enabled;
	e->duplicate_of = -1;

	if ((n = cells_of(ld, node, "opp-hz", 2, &v)) == -2)
		return -ENOMEM;
	if (n > 0) {
		e->n_hz = (unsigned)n / 2;
		e->hz = dmn__dt_pool_alloc(pool, e->n_hz * sizeof(*e->hz));
		if (!e->hz)
			return -ENOMEM;
		for (unsigned i = 0; i < e->n_hz; i++)
			e->hz[i] = (uint64_t)dmn__dt_cell(v, 2 * i) << 32 |
				   dmn__dt_cell(v, 2 * i + 1);
	}

	int r = dmn__dt_prop_u32(ld, node, "opp-level", &e->level);
	if (r < 0 && DT_ERR(ld, -EINVAL, "prop-length", node, "opp-level",
			    "must be one 32-bit cell"))
		return -ENOMEM;
	e->has_level = r > 0;

	const void *uv, *ua;
	int n_uv = cells_of(ld, node, "opp-microvolt", 1, &uv);
	int n_ua = cells_of(ld, node, "opp-microamp", 1, &ua);
	if (n_uv == -2 || n_ua == -2)
		return -ENOMEM;
	if (n_uv > 0) {
		/* One cell or a target/min/max triple per supply. The DT does
		 * not say how many supplies there are; opp-microamp (one
		 * cell per supply) decides when present, else a multiple of
		 * three is read as triples. */
		unsigned per = 1;
		if (n_ua > 0 && n_uv == 3 * n_ua)
			per = 3;
		else if (n_ua <= 0 && n_uv % 3 == 0)
			per = 3;
		e->n_supplies = (unsigned)n_uv / per;
		e->supplies =
		    dmn__dt_pool_alloc(pool, e->n_supplies * sizeof(*e->supplies));
		if (!e->supplies)
			return -ENOMEM;
		for (unsigned i = 0; i < e->n_supplies; i++) {
			struct dmn_dt_opp_supply *s = &e->supplies[i];
			s->microvolt = dmn__dt_cell(uv, i * per);
			s->microvolt_min =
			    per == 3 ? dmn__dt_cell(uv, i * per + 1) : s->microvolt;
			s->microvolt_max =
			    per == 3 ? dmn__dt_cell(uv, i * per + 2) : s->microvolt;
			if (n_ua > 0 && i < (unsigned)n_ua)
				s->microamp = dmn__dt_cell(ua, i);
		}
	}

	if ((n = cells_of(ld, node, "opp-microwatt", 1, &v)) == -2)
		return -ENOMEM;
	if (n > 0) {
		e->n_microwatt = (unsigned)n;
		e->microwatt = dmn__dt_pool_alloc(pool, (unsigned)n * 4);
		if (!e->microwatt)
			return -ENOMEM;
		for (int i = 0; i < n; i++)
			e->microwatt[i] = dmn__dt_cell(v, (unsigned)i);
	}

	if ((n = cells_of(ld, node, "opp-supported-hw", 1, &v)) == -2)
		return -ENOMEM;
	if (n > 0) {
		e->n_supported_hw = (unsigned)n;
		e->supported_hw = dmn__dt_pool_alloc(pool, (unsigned)n * 4);
		if (!e->supported_hw)
			return -ENOMEM;
		for (int i = 0; i < n; i++)
			e->supported_hw[i] = dmn__dt_cell(v, (unsigned)i);
	}

	e->suspend = dmn__dt_has_prop(ld, node, "opp-suspend");
	e->turbo = dmn__dt_has_prop(ld, node, "turbo-mode");
	return 0;
}

static int scan_table(struct dmn_dt_loader *ld, int32_t node)
{
	struct dmn_dt_board *b = ld->board;
	struct dmn_dt_opp_table *t =
	    dmn__dt_vec_push(ld->pool, (void **)&b->opp_tables, &b->n_opp_tables,
			&ld->cap_tables, sizeof(*t));
	if (!t)
		return -ENOMEM;
	int32_t ti = (int32_t)b->n_opp_tables - 1;
	const char *path = dmn__dt_node_path(ld, node);
	t->path = path ? dmn__dt_pool_strdup(ld->pool, path) : NULL;
	if (!t->path)
		return -ENOMEM;
	if (ld->nodes[node].label &&
	    !(t->label = dmn__dt_pool_strdup(ld->pool, ld->nodes[node].label)))
		return -ENOMEM;
	t->shared = dmn__dt_has_prop(ld, node, "opp-shared");
	ld->nodes[node].opp_table = ti;

	/* Children follow their parent in index order, until the subtree
	 * ends (a node at the table's depth or above). */
	unsigned count = 0;
	for (unsigned i = (unsigned)node + 1;
	     i < ld->n_nodes && ld->nodes[i].depth > ld->nodes[node].depth; i++)
		count += ld->nodes[i].parent == node;
	if (count) {
		t->entries =
		    dmn__dt_pool_alloc(ld->pool, count * sizeof(*t->entries));
		if (!t->entries)
			return -ENOMEM;
	}
	for (unsigned i = (unsigned)node + 1;
	     i < ld->n_nodes && ld->nodes[i].depth > ld->nodes[node].depth;
	     i++) {
		if (ld->nodes[i].parent != node)
			continue;
		int err =
		    parse_entry(ld, (int32_t)i, &t->entries[t->n_entries]);
		if (err)
			return err;
		ld->nodes[i].opp_table_of_entry = ti;
		t->has_level |= t->entries[t->n_entries].has_level;
		ld->nodes[i].opp_entry = (int32_t)t->n_entries++;
	}
	return 0;
}

int dmn__dt_opp_ref_resolve(struct dmn_dt_loader *ld, int32_t node, const char *prop,
		       struct dmn_dt_opp_ref **refs, unsigned *n_refs)
{
	const void *v;
	int n = cells_of(ld, node, prop, 1, &v);
	*refs = NULL;
	*n_refs = 0;
	if (n == -2)
		return -ENOMEM;
	if (n <= 0)
		return n < 0 ? DT_SKIP : 0;
	struct dmn_dt_opp_ref *out =
	    dmn__dt_pool_alloc(ld->pool, (unsigned)n * sizeof(*out));
	if (!out)
		return -ENOMEM;
	unsigned k = 0;
	int ret = 0;
	for (int i = 0; i < n; i++) {
		uint32_t ph = dmn__dt_cell(v, (unsigned)i);
		int32_t target = dmn__dt_phandle_node(ld, ph);
		int err = 0;
		if (target < 0) {
			err = DT_ERR(
			    ld, -ENOENT, "phandle-dangling", node, prop,
			    "entry %d: phandle 0x%x points to no node", i, ph);
		} else if (ld->nodes[target].opp_table_of_entry < 0) {
			const char *p = dmn__dt_node_path(ld, target);
			err =
			    p ? DT_ERR(ld, -EINVAL, "phandle-wrong-kind", node,
				       prop, "entry %d: %s is not an OPP entry",
				       i, p)
			      : -ENOMEM;
		} else {
			struct dmn_dt_opp_ref r = {
			    ld->nodes[target].opp_table_of_entry,
			    ld->nodes[target].opp_entry};
			const struct dmn_dt_opp_table *rt =
			    &ld->board->opp_tables[r.table];
			const struct dmn_dt_opp *e = &rt->entries[r.entry];
			/* An entry of a table without any level is another
			 * device's OPP (a device-to-device requirement); one
			 * without a level among levels has nothing domino
			 * could do with it. */
			if (!e->has_level && rt->has_level) {
				const char *p = dmn__dt_node_path(ld, target);
				if (!p || DT_WARN(ld, "opp-required-no-level",
						  node, prop,
						  "entry %d: %s has no opp-level "
						  "to vote with, unlike the rest "
						  "of its table: ignored",
						  i, p))
					return -ENOMEM;
			} else {
				out[k++] = r;
				continue;
			}
		}
		if (err)
			return -ENOMEM;
		ret = DT_SKIP;
	}
	*refs = out;
	*n_refs = k;
	return ret;
}

int dmn__dt_opp_table_resolve(struct dmn_dt_loader *ld, int32_t node, int32_t *table)
{
	const void *v;
	*table = -1;
	int n = cells_of(ld, node, "operating-points-v2", 1, &v);
	if (n == -2)
		return -ENOMEM;
	if (n <= 0)
		return n < 0 ? DT_SKIP : 0;
	/* Several phandles select tables per index (Linux's multi-table
	 * devices); the first is the device's default table. */
	uint32_t ph = dmn__dt_cell(v, 0);
	int32_t target = dmn__dt_phandle_node(ld, ph);
	if (target < 0)
		return DT_ERR_OR_SKIP(DT_ERR(ld, -ENOENT, "phandle-dangling", node,
					  "operating-points-v2",
					  "phandle 0x%x points to no node",
					  ph));
	if (ld->nodes[target].opp_table < 0) {
		const char *p = dmn__dt_node_path(ld, target);
		if (!p)
			return -ENOMEM;
		return DT_ERR_OR_SKIP(DT_ERR(
		    ld, -EINVAL, "phandle-wrong-kind", node,
		    "operating-points-v2", "%s is not %s", p,
		    is_opp_table(ld, target)
			? "an enabled OPP table"
			: "an OPP table (compatible \"operating-points-v2\" "
			  "or a vendor variant)"));
	}
	*table = ld->nodes[target].opp_table;
	return 0;
}

int dmn__dt_dynamic_power(struct dmn_dt_loader *ld, int32_t node, uint32_t *coefficient)
{
	*coefficient = 0;
	int r = dmn__dt_prop_u32(ld, node, "dynamic-power-coefficient", coefficient);
	if (r < 0) {
		/* energy only: the board loads, the entries have no power */
		*coefficient = 0;
		if (DT_WARN(ld, "prop-length", node, "dynamic-power-coefficient",
			    "must be one 32-bit cell; ignored"))
			return -ENOMEM;
	}
	return 0;
}

/* The cells of one opp-supported-hw group: the length of the table's
 * shortest opp-supported-hw. Linux takes the group size from the driver
 * (Tegra's CPU tables have 2 cells, its peripheral tables 1, on one board);
 * one --supported-hw for the whole board cannot say it per table, the
 * table's own entries can. 0 when no entry carries the property. */
unsigned dmn__dt_opp_hw_width(const struct dmn_dt_opp_table *t)
{
	unsigned w = 0;
	for (unsigned i = 0; i < t->n_entries; i++) {
		unsigned n = t->entries[i].n_supported_hw;
		if (n && (!w || n < w))
			w = n;
	}
	return w;
}

/* Some group of @w cells whose every covered cell (those the version has
 * a value for) shares a bit with that value. */
static bool hw_supported(const struct dmn_dt_board *b, const struct dmn_dt_opp *e,
			 unsigned w)
{
	unsigned k = b->n_supported_hw < w ? b->n_supported_hw : w;
	for (unsigned g = 0; g + w <= e->n_supported_hw; g += w) {
		bool all = true;
		for (unsigned j = 0; j < k; j++)
			all = all &&
			      (e->supported_hw[g + j] & b->supported_hw[j]);
		if (all)
			return true;
	}
	return false;
}

/* "0x4,0x4" for messages; a long version is cut with "...". */
static void format_version(const struct dmn_dt_board *b, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < b->n_supported_hw && len < size; i++) {
		int n = snprintf(buf + len, size - len, "%s0x%x", i ? "," : "",
				 (unsigned)b->supported_hw[i]);
		if (n < 0 || (size_t)n >= size - len) {
			if (size > 4)
				memcpy(buf + size - 4, "...", 4);
			return;
		}
		len += (size_t)n;
	}
}

static bool same_key(const struct dmn_dt_opp *a, const struct dmn_dt_opp *b)
{
	if (a->n_hz != b->n_hz || a->has_level != b->has_level ||
	    (a->has_level && a->level != b->level))
		return false;
	for (unsigned i = 0; i < a->n_hz; i++)
		if (a->hz[i] != b->hz[i])
			return false;
	return true;
}

bool dmn__dt_opp_hw_partial(const struct dmn_dt_board *b, const struct dmn_dt_opp_table *t)
{
	return b->n_supported_hw && b->n_supported_hw < dmn__dt_opp_hw_width(t);
}

bool dmn_dt_opp_hw_partial(const struct dmn_dt_board *board, unsigned table)
{
	return board && table < board->n_opp_tables &&
	       dmn__dt_opp_hw_partial(board, &board->opp_tables[table]);
}

/* ---- the entries seen so far, by key: each entry's duplicate check was
 * a scan of the entries before it, quadratic in the table (5.6 s to load
 * one table of 40,000 levels). Open addressing over 2n slots, each the
 * first available entry of its key (-1: empty). */
struct key_set {
	int32_t *slot;
	size_t mask;
};

static size_t key_hash(const struct dmn_dt_opp *e)
{
	uint64_t h = 0xcbf29ce484222325u;
	uint64_t words[2] = {e->has_level ? e->level : UINT64_MAX, e->n_hz};
	for (unsigned i = 0; i < 2 + e->n_hz; i++) {
		h ^= i < 2 ? words[i] : e->hz[i - 2];
		h *= 0x100000001b3u;
		h ^= h >> 29;
	}
	return (size_t)h;
}

/* The first entry of @t in the set with @e's key, or -1 after adding
 * @i (@e's index) as that key's first. */
static int32_t key_first(struct key_set *ks, const struct dmn_dt_opp_table *t,
			 const struct dmn_dt_opp *e, unsigned i)
{
	for (size_t h = key_hash(e) & ks->mask;; h = (h + 1) & ks->mask) {
		int32_t j = ks->slot[h];
		if (j < 0) {
			ks->slot[h] = (int32_t)i;
			return -1;
		}
		if (same_key(&t->entries[j], e))
			return j;
	}
}

static int finish_table(struct dmn_dt_loader *ld, int32_t ti, int32_t node)
{
	struct dmn_dt_board *b = ld->board;
	struct dmn_dt_opp_table *t = &b->opp_tables[ti];
	unsigned w = dmn__dt_opp_hw_width(t);
	bool partial = dmn__dt_opp_hw_partial(b, t);
	unsigned n_count_bad = 0, n_ambiguous = 0;
	int32_t count_bad_first = node;
	char version[96];
	format_version(b, version, sizeof(version));
	struct key_set ks = {NULL, 1};
	while (ks.mask < 2 * (size_t)t->n_entries)
		ks.mask *= 2;
	ks.slot = dmn__dt_pool_alloc(ld->pool, ks.mask * sizeof(*ks.slot));
	if (!ks.slot)
		return -ENOMEM;
	memset(ks.slot, 0xff, ks.mask * sizeof(*ks.slot));
	ks.mask--;
	/* (an early return leaves ks.slot to the pool, freed with it) */
	for (unsigned k = (unsigned)node + 1;
	     k < ld->n_nodes && ld->nodes[k].depth > ld->nodes[node].depth;
	     k++) {
		if (ld->nodes[k].parent != node)
			continue;
		int32_t enode = (int32_t)k;
		unsigned i = (unsigned)ld->nodes[k].opp_entry;
		struct dmn_dt_opp *e = &t->entries[i];
		int err = dmn__dt_opp_ref_resolve(ld, enode, "required-opps",
					     &e->required, &e->n_required);
		if (err == -ENOMEM)
			return err;

		e->hw_ok = true;
		if (e->n_supported_hw) {
			if (!b->n_supported_hw) {
				e->hw_ok = false;
			} else if (e->n_supported_hw % w) {
				e->hw_ok = false;
				if (!n_count_bad++)
					count_bad_first = enode;
			} else {
				e->hw_ok = hw_supported(b, e, w);
				if (!e->hw_ok &&
				    DT_NOTE(ld, "opp-hw-mismatch", enode,
					    "opp-supported-hw",
					    "no %u-cell group matches the "
					    "hardware version %s: unavailable",
					    w, version))
					return -ENOMEM;
			}
			if (!e->hw_ok) {
				t->n_hw_unavailable++;
				b->n_opp_hw_unavailable++;
			}
		}
		e->available = e->enabled && e->hw_ok;
		/* entries with neither frequency nor level (bandwidth-only,
		 * opp-peak-kBps) have no key this model compares */
		bool keyed = e->n_hz || e->has_level;
		int32_t j = keyed && e->available ? key_first(&ks, t, e, i) : -1;
		if (j >= 0) {
			const struct dmn_dt_opp *first = &t->entries[j];
			e->duplicate_of = j;
			e->available = false;
			/* both selected by opp-supported-hw in a table the
			 * version does not cover: they may be meant for
			 * different values of the unchecked cells (Tegra30's
			 * speedo variants), so their sameness is the
			 * version's doing, not the tree's */
			if (partial && first->n_supported_hw &&
			    e->n_supported_hw)
				n_ambiguous++;
			else if (DT_WARN(ld, "opp-duplicate", enode, NULL,
					 "same opp-hz and opp-level as %s; "
					 "the first is kept",
					 first->name))
				return -ENOMEM;
		}
	}
	dmn__dt_pool_free(ld->pool, ks.slot);
	if (n_count_bad &&
	    DT_WARN(ld, "opp-supported-hw-count", count_bad_first,
		    "opp-supported-hw",
		    "%u entries of this table have an opp-supported-hw length "
		    "that is not a multiple of %u (its shortest one, the cells "
		    "of a group): they are unavailable",
		    n_count_bad, w))
		return -ENOMEM;
	if (partial &&
	    DT_NOTE(ld, "opp-hw-partial", node, "opp-supported-hw",
		    "the hardware version %s has %u value%s and this table's "
		    "opp-supported-hw groups have %u cells: only the first %u "
		    "of each group %s checked, so entries for other values of "
		    "the rest stay available together (%u duplicate%s of "
		    "earlier ones, the first kept; duplicates and voltage "
		    "order among them are not reported)",
		    version, b->n_supported_hw, b->n_supported_hw == 1 ? "" : "s",
		    w, b->n_supported_hw, b->n_supported_hw == 1 ? "is" : "are",
		    n_ambiguous, n_ambiguous == 1 ? "" : "s"))
		return -ENOMEM;
	if (t->n_hw_unavailable && !b->n_supported_hw &&
	    DT_NOTE(ld, "opp-needs-hw-version", node, "opp-supported-hw",
		    "%u of %u entries carry opp-supported-hw and no hardware "
		    "version was given (--supported-hw): they are unavailable",
		    t->n_hw_unavailable, t->n_entries))
		return -ENOMEM;
	return 0;
}

/* A level that requires itself, directly or through other tables, has no
 * value the engine could settle on: report the reference that closes the
 * cycle and drop it, so a lenient load still gives a usable model. A
 * depth-first walk on an explicit stack (one frame per table: each is
 * entered once), colour 1 marking the tables on it. */
struct cycle_frame {
	int32_t table;
	unsigned entry, ref;
};

static int break_cycles(struct dmn_dt_loader *ld, const int32_t *table_node,
			uint8_t *color, struct cycle_frame *stack, int32_t root)
{
	unsigned n = 0;
	color[root] = 1;
	stack[n++] = (struct cycle_frame){root, 0, 0};
	while (n) {
		struct cycle_frame *f = &stack[n - 1];
		struct dmn_dt_opp_table *tab = &ld->board->opp_tables[f->table];
		if (f->entry >= tab->n_entries) {
			color[f->table] = 2;
			n--;
			continue;
		}
		struct dmn_dt_opp *o = &tab->entries[f->entry];
		if (f->ref >= o->n_required) {
			f->entry++;
			f->ref = 0;
			continue;
		}
		int32_t u = o->required[f->ref].table;
		if (color[u] == 1) {
			const struct dmn_dt_opp_table *to = &ld->board->opp_tables[u];
			bool device = !to->has_level;
			int err =
			    device
				? DT_WARN(ld, "opp-required-cycle",
					  table_node[f->table], "required-opps",
					  "entry %s requires an entry of %s, whose "
					  "owner requires back: the pair would "
					  "close a cycle, requirement dropped",
					  o->name, to->path)
				: DT_ERR(ld, -EINVAL, "opp-required-cycle",
					 table_node[f->table], "required-opps",
					 "entry %s requires an entry of %s, which "
					 "leads back to it: a level cannot "
					 "require itself",
					 o->name, to->path);
			if (err)
				return -ENOMEM;
			memmove(&o->required[f->ref], &o->required[f->ref + 1],
				(o->n_required - f->ref - 1) *
				    sizeof(*o->required));
			o->n_required--;
			continue;
		}
		f->ref++;
		if (!color[u]) {
			color[u] = 1;
			stack[n++] = (struct cycle_frame){u, 0, 0};
		}
	}
	return 0;
}

static int check_cycles(struct dmn_dt_loader *ld)
{
	unsigned n = ld->board->n_opp_tables;
	if (!n)
		return 0;
	int32_t *table_node = dmn__dt_pool_alloc(ld->pool, n * sizeof(*table_node));
	uint8_t *color = dmn__dt_pool_alloc(ld->pool, n);
	struct cycle_frame *stack = dmn__dt_pool_alloc(ld->pool, n * sizeof(*stack));
	if (!table_node || !color || !stack)
		return -ENOMEM;
	memset(color, 0, n);
	for (unsigned i = 0; i < ld->n_nodes; i++)
		if (ld->nodes[i].opp_table >= 0)
			table_node[ld->nodes[i].opp_table] = (int32_t)i;
	for (unsigned t = 0; t < n; t++)
		if (!color[t]) {
			int err = break_cycles(ld, table_node, color, stack,
					       (int32_t)t);
			if (err)
				return err;
		}
	dmn__dt_pool_free(ld->pool, stack);
	return 0;
}

int dmn__dt_opp_tables_scan(struct dmn_dt_loader *ld)
{
	for (unsigned i = 0; i < ld->n_nodes; i++) {
		bool table;
		const char *variant = opp_table_variant(ld, (int32_t)i, &table);
		if (!table || !ld->nodes[i].own_enabled)
			continue;
		if (variant &&
		    DT_NOTE(ld, "opp-table-vendor", (int32_t)i, "compatible",
			    "%s: read as an operating-points-v2 table; its "
			    "vendor properties are not modelled",
			    variant))
			return -ENOMEM;
		int err = scan_table(ld, (int32_t)i);
		if (err)
			return err;
	}
	/* required-opps may point into any table: resolve once all exist */
	for (unsigned i = 0; i < ld->n_nodes; i++)
		if (ld->nodes[i].opp_table >= 0) {
			int err = finish_table(ld, ld->nodes[i].opp_table,
					       (int32_t)i);
			if (err)
				return err;
		}
	return check_cycles(ld);
}
