/* SPDX-License-Identifier: MIT */
/*
 * The loader on the five real boards of DOMINO_BOARDS_DIR (by default
 * ../shared/dts/dtb), compared with the independently computed facts in
 * DOMINO_FACTS_DIR/BOARD.json (see ../shared/dts/FACTS.md). A board whose
 * blob or facts are absent is left out with a message; when no board has
 * both, the program exits 77 and ctest shows it as skipped, not passed.
 *
 * How each fact maps onto the model (the JSON counts every node; the model
 * keeps only enabled ones, "enabled" meaning not disabled by itself or an
 * ancestor):
 *  - providers: power_domain_providers.list entries with
 *    effectively_enabled, minus Rockchip nested children (a list entry whose
 *    parent node is a one-cell provider or another nested child: those
 *    define domains of the enclosing provider, docs/device-tree.md,
 *    Providers);
 *  - domains: one per enabled zero-cell provider, plus for each enabled
 *    one-cell provider the union of its consumer_specifiers args, the args
 *    other enabled providers' parent_domains use, and its nested children's
 *    reg numbers. consumer_specifiers also count disabled consumers, which
 *    create no domain; the indices only disabled nodes reference are listed
 *    per board below (only_disabled_refs) and are checked to be absent;
 *  - devices: power_domain_consumers.count_effectively_enabled minus the
 *    enabled providers that have parent_domains (a provider is not a device)
 *    minus the consumer_count of disabled providers (their enabled
 *    consumers would be skipped; 0 on these boards);
 *  - OPP tables, entries, entries with opp-level / opp-hz / required-opps /
 *    opp-microvolt: opp.totals (the loader parses every enabled table
 *    whatever its ancestors, as the JSON counts them);
 *  - per table: path, entries, with_opp-level, with_opp-hz,
 *    with_required-opps, opp-shared;
 *  - device-level required-opps: device_level_required-opps.list, for the
 *    nodes present in the model (as a device, or as a provider whose
 *    required-opps are floors): the resolved opp-level of each phandle;
 *  - parents: each provider's parent_domains (provider path + args);
 *  - idle states: idle.nodes_with_domain-idle-states and
 *    idle.idle_state_nodes (latencies, idle-state-name else node name);
 *  - examples: attachments (provider path, args, power-domain-names), the
 *    OPP table, and for every entry its opp-hz values, opp-microvolt,
 *    opp-supported-hw and required-opps levels; then the (entry -> vote per
 *    domain) pairs of the two-pass rule: the votes are exactly the required
 *    levels, except a required OPP whose table none of the device's domains
 *    or their ancestors owns, which votes nothing (sm8250 ufshc;
 *    docs/semantics.md, Required OPPs).
 */
#include "dt_test_util.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct board_case {
	const char *name;
	const char *only_disabled_refs[8]; /* domain names; see above */
	unsigned hw_unavailable;	   /* entries with opp-supported-hw */
};

static const struct board_case cases[] = {
    {"qrb5165-rb5", {"camcc:3", "camcc:4", "camcc:5"}, 7},
    {"sc7180-trogdor-lazor-r10", {"gcc:0", "rpmhpd:5", "rpmhpd:6"}, 8},
    {"imx8mp-evk",
     {"hsio_blk_ctrl:1", "media_blk_ctrl:4", "media_blk_ctrl:5",
      "media_blk_ctrl:6"},
     3},
    {"rk3588-rock-5b", {NULL}, 0},
    {"tegra30-beaver", {NULL}, 282},
};

struct loaded {
	json_t *facts;
	struct dmn_dt_board *board;
};

static void facts_path(const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s.json", DOMINO_FACTS_DIR, name);
}

/* The board's blob and facts, loaded; false (with a message) when either
 * is absent. Without facts, the blob must still load without errors. */
static bool load_board(const struct board_case *c, struct loaded *l)
{
	char path[1024];
	size_t size;
	void *blob = dt_test_board(c->name, &size);
	if (!blob)
		return false;
	facts_path(c->name, path, sizeof(path));
	if (access(path, R_OK) != 0) {
		printf("%s: no facts (%s): only its load is checked\n", c->name,
		       path);
		assert_int_equal(dmn_dt_load(blob, size, NULL, &l->board), 0);
		dmn_dt_board_free(l->board);
		free(blob);
		return false;
	}
	json_error_t jerr;
	l->facts = json_load_file(path, 0, &jerr);
	if (!l->facts)
		fail_msg("%s: %s", path, jerr.text);
	assert_int_equal(dmn_dt_load(blob, size, NULL, &l->board), 0);
	assert_int_equal(l->board->n_errors, 0);
	free(blob);
	return true;
}

static void unload(struct loaded *l)
{
	dmn_dt_board_free(l->board);
	json_decref(l->facts);
}

static json_t *jget(json_t *o, const char *path)
{
	/* "a.b.c" */
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *key = strtok(buf, "."); key; key = strtok(NULL, ".")) {
		o = json_object_get(o, key);
		if (!o)
			fail_msg("fact %s missing", path);
	}
	return o;
}

static long jint(json_t *o, const char *path)
{
	return (long)json_integer_value(jget(o, path));
}

static json_t *provider_fact(json_t *list, const char *path)
{
	size_t i;
	json_t *p;
	json_array_foreach(
	    list, i,
	    p) if (!strcmp(json_string_value(json_object_get(p, "path")),
			   path)) return p;
	return NULL;
}

static bool fact_nested(json_t *list, json_t *p)
{
	char parent[512];
	snprintf(parent, sizeof(parent), "%s",
		 json_string_value(json_object_get(p, "path")));
	char *slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return false;
	*slash = '\0';
	json_t *pp = provider_fact(list, parent);
	if (!pp)
		return false;
	return json_integer_value(json_object_get(pp, "#power-domain-cells")) ==
		   1 ||
	       fact_nested(list, pp);
}

static const struct dmn_dt_provider *model_provider(const struct dmn_dt_board *b,
						const char *path)
{
	for (unsigned i = 0; i < b->n_providers; i++)
		if (dmn_dt_provider_path_is(b, i, path, strlen(path)))
			return &b->providers[i];
	return NULL;
}

/* The domain of (provider path, args) in the model, or -1. */
static int model_domain(const struct dmn_dt_board *b, const char *ppath,
			json_t *args)
{
	const struct dmn_dt_provider *p = model_provider(b, ppath);
	if (!p)
		return -1;
	long long index = json_array_size(args)
			      ? json_integer_value(json_array_get(args, 0))
			      : -1;
	for (unsigned k = 0; k < p->n_domains; k++)
		if (b->domains[p->first_domain + (int)k].index == index)
			return p->first_domain + (int)k;
	return -1;
}

static void counts(void **state)
{
	(void)state;
	for (unsigned ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		const struct board_case *c = &cases[ci];
		struct loaded l;
		if (!load_board(c, &l))
			continue;
		const struct dmn_dt_board *b = l.board;
		json_t *f = l.facts;
		json_t *plist = jget(f, "power_domain_providers.list");

		assert_string_equal(b->model,
				    json_string_value(jget(f, "model")));
		assert_int_equal(b->n_compatible,
				 json_array_size(jget(f, "compatible")));

		/* providers and the domain names they imply */
		unsigned want_providers = 0, want_devices_minus = 0;
		size_t i;
		json_t *p;
		json_array_foreach(plist, i, p)
		{
			if (!json_is_true(
				json_object_get(p, "effectively_enabled"))) {
				want_devices_minus +=
				    (unsigned)json_integer_value(
					json_object_get(p, "consumer_count"));
				continue;
			}
			if (json_array_size(
				json_object_get(p, "parent_domains")))
				want_devices_minus++;
			if (fact_nested(plist, p))
				continue;
			want_providers++;
			const char *path =
			    json_string_value(json_object_get(p, "path"));
			const struct dmn_dt_provider *mp = model_provider(b, path);
			assert_non_null(mp);
			json_t *labels = json_object_get(p, "labels");
			if (json_array_size(labels))
				assert_string_equal(
				    mp->label, json_string_value(
						   json_array_get(labels, 0)));
			else
				assert_null(mp->label);
			assert_int_equal(mp->cells,
					 json_integer_value(json_object_get(
					     p, "#power-domain-cells")));
		}
		assert_int_equal(b->n_providers, want_providers);

		/* domains: the union described above, minus the indices only
		 * disabled nodes reference */
		unsigned want_domains = 0;
		json_array_foreach(plist, i, p)
		{
			if (!json_is_true(
				json_object_get(p, "effectively_enabled")) ||
			    fact_nested(plist, p))
				continue;
			const char *path =
			    json_string_value(json_object_get(p, "path"));
			if (json_integer_value(json_object_get(
				p, "#power-domain-cells")) == 0) {
				assert_true(model_domain(b, path, NULL) >= 0);
				want_domains++;
				continue;
			}
			/* indices: a bitmap is enough, ids are small */
			unsigned char used[256] = {0};
			size_t k;
			json_t *s;
			json_array_foreach(
			    json_object_get(p, "consumer_specifiers"), k, s)
			    used[json_integer_value(json_array_get(
				     json_object_get(s, "args"), 0)) &
				 255] = 1;
			size_t q;
			json_t *other;
			json_array_foreach(plist, q, other)
			{
				json_t *pd;
				size_t m;
				if (!json_is_true(json_object_get(
					other, "effectively_enabled")))
					continue;
				json_array_foreach(
				    json_object_get(other, "parent_domains"), m,
				    pd) if (!strcmp(json_string_value(json_object_get(pd,
										      "provider")),
						    path))
				    used[json_integer_value(json_array_get(
					     json_object_get(pd, "args"), 0)) &
					 255] = 1;
				/* nested children: reg = the @N of the name */
				const char *opath = json_string_value(
				    json_object_get(other, "path"));
				if (fact_nested(plist, other) &&
				    !strncmp(opath, path, strlen(path)) &&
				    opath[strlen(path)] == '/')
					used[strtoul(strrchr(opath, '@') + 1,
						     NULL, 10) &
					     255] = 1;
			}
			for (unsigned idx = 0; idx < 256; idx++)
				want_domains += used[idx];
		}
		unsigned n_disabled_refs = 0;
		for (unsigned k = 0; c->only_disabled_refs[k];
		     k++, n_disabled_refs++)
			assert_int_equal(
			    dmn_dt_domain_find(b, c->only_disabled_refs[k]),
			    -ENOENT);
		assert_int_equal(b->n_domains, want_domains - n_disabled_refs);

		/* devices */
		long enabled_consumers =
		    jint(f, "power_domain_consumers.count_effectively_enabled");
		assert_int_equal(b->n_devices,
				 enabled_consumers - want_devices_minus);

		/* OPP tables */
		json_t *tot = jget(f, "opp.totals");
		assert_int_equal(b->n_opp_tables, jint(tot, "tables"));
		unsigned entries = 0, level = 0, hz = 0, req = 0, uv = 0,
			 dis = 0;
		for (unsigned t = 0; t < b->n_opp_tables; t++)
			for (unsigned e = 0; e < b->opp_tables[t].n_entries;
			     e++) {
				const struct dmn_dt_opp *o =
				    &b->opp_tables[t].entries[e];
				entries++;
				level += o->has_level;
				hz += o->n_hz > 0;
				req += o->n_required > 0;
				uv += o->n_supplies > 0;
				dis += !o->enabled;
			}
		assert_int_equal(entries, jint(tot, "entries"));
		assert_int_equal(level, jint(tot, "with_opp-level"));
		assert_int_equal(hz, jint(tot, "with_opp-hz"));
		assert_int_equal(req, jint(tot, "with_required-opps"));
		assert_int_equal(uv, jint(tot, "with_opp-microvolt"));
		assert_int_equal(dis, jint(tot, "disabled_entries"));
		json_t *tables = jget(f, "opp.tables");
		json_t *t;
		json_array_foreach(tables, i, t)
		{
			const struct dmn_dt_opp_table *mt = &b->opp_tables[i];
			assert_string_equal(
			    mt->path,
			    json_string_value(json_object_get(t, "path")));
			assert_int_equal(mt->n_entries, jint(t, "entries"));
			assert_int_equal(
			    mt->shared,
			    json_is_true(json_object_get(t, "opp-shared")));
			unsigned tl = 0, th = 0, tr = 0;
			for (unsigned e = 0; e < mt->n_entries; e++) {
				tl += mt->entries[e].has_level;
				th += mt->entries[e].n_hz > 0;
				tr += mt->entries[e].n_required > 0;
			}
			assert_int_equal(tl, jint(t, "with_opp-level"));
			assert_int_equal(th, jint(t, "with_opp-hz"));
			assert_int_equal(tr, jint(t, "with_required-opps"));
		}
		/* without --supported-hw */
		assert_int_equal(b->n_opp_hw_unavailable, c->hw_unavailable);
		printf(
		    "%s: %u providers, %u domains, %u devices, %u OPP tables, "
		    "%u entries (%u with required-opps), %u warnings\n",
		    c->name, b->n_providers, b->n_domains, b->n_devices,
		    b->n_opp_tables, entries, req, b->n_warnings);
		unload(&l);
	}
}

static void parents_and_floors(void **state)
{
	(void)state;
	for (unsigned ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		struct loaded l;
		if (!load_board(&cases[ci], &l))
			continue;
		const struct dmn_dt_board *b = l.board;
		json_t *plist = jget(l.facts, "power_domain_providers.list");
		size_t i;
		json_t *p;
		json_array_foreach(plist, i, p)
		{
			const char *path =
			    json_string_value(json_object_get(p, "path"));
			const struct dmn_dt_provider *mp = model_provider(b, path);
			if (!mp)
				continue; /* disabled or nested */
			json_t *pds = json_object_get(p, "parent_domains");
			/* the model keeps each parent once */
			unsigned distinct = 0;
			size_t k;
			json_t *pd;
			int seen[16];
			json_array_foreach(pds, k, pd)
			{
				int d = model_domain(
				    b,
				    json_string_value(
					json_object_get(pd, "provider")),
				    json_object_get(pd, "args"));
				assert_true(d >= 0);
				bool dup = false;
				for (unsigned s = 0; s < distinct; s++)
					dup = dup || seen[s] == d;
				if (!dup && distinct < 16)
					seen[distinct++] = d;
				bool found = false;
				for (unsigned s = 0; s < mp->n_parents; s++)
					found = found || mp->parents[s] == d;
				assert_true(found);
			}
			assert_int_equal(mp->n_parents, distinct);
		}

		/* device-level required-opps: floors of providers, fixed votes
		 * of devices */
		json_t *dl = jget(l.facts, "device_level_required-opps.list");
		json_t *e;
		json_array_foreach(dl, i, e)
		{
			const char *path =
			    json_string_value(json_object_get(e, "path"));
			json_t *req = json_object_get(e, "required-opps");
			const struct dmn_dt_provider *mp = model_provider(b, path);
			const struct dmn_dt_opp_ref *refs = NULL;
			unsigned n = 0;
			int di = dmn_dt_device_find(b, path);
			if (mp) {
				refs = mp->required;
				n = mp->n_required;
				/* sm8250 dispcc & co: a floor on their MMCX
				 * parent */
				assert_int_equal(mp->n_floors, n);
				for (unsigned k = 0; k < mp->n_floors; k++)
					assert_int_equal(
					    mp->floors[k].level,
					    json_integer_value(json_object_get(
						json_array_get(req, k),
						"opp-level")));
			} else if (di >= 0) {
				refs = b->devices[di].required;
				n = b->devices[di].n_required;
				uint32_t lv[8];
				assert_int_equal(dmn_dt_device_fixed_votes(
						     b, (unsigned)di, lv, 8),
						 1);
				assert_int_equal(
				    lv[0],
				    json_integer_value(json_object_get(
					json_array_get(req, 0), "opp-level")));
			} else {
				continue; /* a disabled node */
			}
			assert_int_equal(n, json_array_size(req));
			for (unsigned k = 0; k < n; k++)
				assert_int_equal(
				    b->opp_tables[refs[k].table]
					.entries[refs[k].entry]
					.level,
				    json_integer_value(json_object_get(
					json_array_get(req, k), "opp-level")));
		}
		unload(&l);
	}
}

static void idle_states(void **state)
{
	(void)state;
	struct loaded l;
	if (!load_board(&cases[0], &l)) {
		skip();
		return;
	}
	const struct dmn_dt_board *b = l.board;
	json_t *nodes = jget(l.facts, "idle.idle_state_nodes");
	json_t *with = jget(l.facts, "idle.nodes_with_domain-idle-states");
	assert_int_equal(b->n_idle_states, json_object_size(nodes));
	size_t i;
	json_t *w;
	json_array_foreach(with, i, w)
	{
		int d = model_domain(
		    b, json_string_value(json_object_get(w, "path")), NULL);
		assert_true(d >= 0);
		json_t *states = json_object_get(w, "states");
		assert_int_equal(b->domains[d].n_idle_states,
				 json_array_size(states));
		for (unsigned k = 0; k < b->domains[d].n_idle_states; k++) {
			const struct dmn_dt_idle_state *s =
			    &b->idle_states[b->domains[d].idle_states[k]];
			json_t *st = json_array_get(states, k);
			const char *spath =
			    json_is_string(st)
				? json_string_value(st)
				: json_string_value(
				      json_object_get(st, "path"));
			assert_string_equal(s->path, spath);
			json_t *fact = json_object_get(nodes, spath);
			assert_int_equal(s->entry_latency_us,
					 jint(fact, "entry-latency-us"));
			assert_int_equal(s->exit_latency_us,
					 jint(fact, "exit-latency-us"));
			assert_int_equal(s->min_residency_us,
					 jint(fact, "min-residency-us"));
			json_t *name = json_object_get(fact, "idle-state-name");
			if (name)
				assert_string_equal(s->name,
						    json_string_value(name));
			else
				assert_string_equal(s->name,
						    strrchr(spath, '/') + 1);
			assert_int_equal(
			    s->kind,
			    !strcmp(
				json_string_value(json_array_get(
				    json_object_get(fact, "compatible"), 0)),
				"domain-idle-state")
				? DMN_DT_IDLE_DOMAIN
				: DMN_DT_IDLE_ARM);
		}
	}
	unload(&l);
}

/* Does domain @d or one of its ancestors own @table? */
static bool reaches_table(const struct dmn_dt_board *b, int d, int table)
{
	if (b->domains[d].opp_table == table)
		return true;
	for (unsigned i = 0; i < b->domains[d].n_parents; i++)
		if (reaches_table(b, b->domains[d].parents[i], table))
			return true;
	return false;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void examples(void **state)
{
	(void)state;
	unsigned checked = 0, pairs = 0;
	for (unsigned ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		struct loaded l;
		if (!load_board(&cases[ci], &l))
			continue;
		const struct dmn_dt_board *b = l.board;
		size_t i;
		json_t *ex;
		json_array_foreach(jget(l.facts, "examples"), i, ex)
		{
			const char *path =
			    json_string_value(json_object_get(ex, "path"));
			int di = dmn_dt_device_find(b, path);
			bool enabled = json_is_true(
			    json_object_get(ex, "effectively_enabled"));
			if (!enabled || model_provider(b, path)) {
				/* disabled: no device; a provider: checked as a
				 * provider in parents_and_floors */
				assert_int_equal(di, -ENOENT);
				continue;
			}
			assert_true(di >= 0);
			const struct dmn_dt_device *d = &b->devices[di];
			json_t *pds = json_object_get(ex, "power-domains");
			json_t *names =
			    json_object_get(ex, "power-domain-names");
			assert_int_equal(d->n_attachments,
					 json_array_size(pds));
			for (unsigned k = 0; k < d->n_attachments; k++) {
				json_t *pd = json_array_get(pds, k);
				assert_int_equal(
				    d->attachments[k].domain,
				    model_domain(
					b,
					json_string_value(
					    json_object_get(pd, "provider")),
					json_object_get(pd, "args")));
				if (json_array_size(names))
					assert_string_equal(
					    d->attachments[k].name,
					    json_string_value(
						json_array_get(names, k)));
				else
					assert_null(d->attachments[k].name);
			}
			json_t *tabs = json_object_get(ex, "opp_tables");
			if (!json_array_size(tabs)) {
				assert_int_equal(d->opp_table, -1);
				checked++;
				continue;
			}
			json_t *tf = json_array_get(tabs, 0);
			const struct dmn_dt_opp_table *t =
			    &b->opp_tables[d->opp_table];
			assert_string_equal(
			    t->path,
			    json_string_value(json_object_get(tf, "table")));
			json_t *opps = json_object_get(tf, "opps");
			assert_int_equal(t->n_entries, json_array_size(opps));
			for (unsigned e = 0; e < t->n_entries; e++) {
				const struct dmn_dt_opp *o = &t->entries[e];
				json_t *of = json_array_get(opps, e);
				assert_string_equal(
				    o->name, json_string_value(json_object_get(
						 of, "opp-node")));
				json_t *jhz = json_object_get(of, "opp-hz");
				assert_int_equal(o->n_hz, json_array_size(jhz));
				for (unsigned h = 0; h < o->n_hz; h++)
					assert_true(
					    o->hz[h] ==
					    (uint64_t)json_integer_value(
						json_array_get(jhz, h)));
				json_t *juv =
				    json_object_get(of, "opp-microvolt");
				if (juv) {
					assert_int_equal(o->n_supplies, 1);
					assert_int_equal(
					    o->supplies[0].microvolt,
					    json_integer_value(
						json_array_get(juv, 0)));
					if (json_array_size(juv) == 3) {
						assert_int_equal(
						    o->supplies[0]
							.microvolt_min,
						    json_integer_value(
							json_array_get(juv,
								       1)));
						assert_int_equal(
						    o->supplies[0]
							.microvolt_max,
						    json_integer_value(
							json_array_get(juv,
								       2)));
					}
				}
				json_t *jhw =
				    json_object_get(of, "opp-supported-hw");
				assert_int_equal(o->n_supported_hw,
						 json_array_size(jhw));
				for (unsigned h = 0; h < o->n_supported_hw; h++)
					assert_int_equal(
					    o->supported_hw[h],
					    json_integer_value(
						json_array_get(jhw, h)));
				json_t *jreq =
				    json_object_get(of, "required-opps");
				assert_int_equal(o->n_required,
						 json_array_size(jreq));
				/* the levels the entry requires, and which of
				 * them some domain can carry */
				uint32_t want[8], got[8];
				unsigned nw = 0, ng = 0;
				for (unsigned r = 0; r < o->n_required && r < 8;
				     r++) {
					uint32_t level =
					    (uint32_t)json_integer_value(
						json_object_get(
						    json_array_get(jreq, r),
						    "opp-level"));
					assert_int_equal(
					    b->opp_tables[o->required[r].table]
						.entries[o->required[r].entry]
						.level,
					    level);
					bool carried = false;
					for (unsigned k = 0;
					     k < d->n_attachments; k++)
						carried =
						    carried ||
						    reaches_table(
							b,
							d->attachments[k]
							    .domain,
							o->required[r].table);
					if (carried)
						want[nw++] = level;
				}
				uint32_t votes[8];
				int n = dmn_dt_device_opp_votes(b, (unsigned)di, e,
							    votes, 8);
				assert_int_equal(n, (int)d->n_attachments);
				for (int k = 0; k < n && k < 8; k++)
					if (votes[k])
						got[ng++] = votes[k];
				qsort(want, nw, sizeof(*want), cmp_u32);
				qsort(got, ng, sizeof(*got), cmp_u32);
				assert_int_equal(ng, nw);
				for (unsigned k = 0; k < nw; k++)
					assert_int_equal(got[k], want[k]);
				pairs++;
			}
			checked++;
		}
		unload(&l);
	}
	printf("%u example devices, %u (entry -> votes) pairs checked\n",
	       checked, pairs);
}

/* Named expectations straight from docs/semantics.md and the facts files'
 * observations. */
static void design_examples(void **state)
{
	(void)state;
	struct loaded l;
	if (!load_board(&cases[0], &l)) { /* sm8250 */
		skip();
		return;
	}
	const struct dmn_dt_board *b = l.board;
	uint32_t v[4];
	/* venus: three domains, one required OPP, to its mx rail (pass 1) */
	int venus = dmn_dt_device_find(b, "/soc@0/video-codec@aa00000");
	assert_true(venus >= 0);
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)venus, 0, v, 4), 3);
	assert_true(v[0] == 0 && v[1] == 0 && v[2] == 64);
	assert_string_equal(
	    b->domains[b->devices[venus].attachments[2].domain].name,
	    "rpmhpd:8");
	/* dispcc keeps MMCX at low_svs while on: a floor */
	const struct dmn_dt_provider *dispcc =
	    model_provider(b, "/soc@0/clock-controller@af00000");
	assert_int_equal(dispcc->n_floors, 1);
	assert_string_equal(b->domains[dispcc->floors[0].parent].name,
			    "rpmhpd:6");
	assert_int_equal(dispcc->floors[0].level, 64);
	/* ufshc's required OPP reaches no domain: reported */
	assert_non_null(dt_test_diag(b, "opp-required-unmatched", 0));
	assert_string_equal(dt_test_diag(b, "opp-required-unmatched", 0)->node,
			    "/soc@0/ufshc@1d84000");
	/* PSCI domains: names and the cluster parent */
	int cpu0 = dmn_dt_domain_find(b, "cpu_pd0");
	assert_int_equal(b->domains[cpu0].n_parents, 1);
	assert_string_equal(b->domains[b->domains[cpu0].parents[0]].name,
			    "cluster_pd");
	unload(&l);

	if (!load_board(&cases[4], &l)) { /* tegra30 */
		skip();
		return;
	}
	b = l.board;
	/* gr3d: two powergates, two required OPPs in the parent's table
	 * (pass 2); entries are hw-gated: unavailable without a version */
	int gr3d = dmn_dt_device_find(b, "/host1x@50000000/gr3d@54180000");
	assert_true(gr3d >= 0);
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)gr3d, 0, v, 4), 2);
	assert_true(v[0] == 1000000 && v[1] == 1000000);
	const struct dmn_dt_opp_table *t =
	    &b->opp_tables[b->devices[gr3d].opp_table];
	assert_false(t->entries[0].available);
	assert_int_equal(dt_test_count(b, "opp-needs-hw-version"), 35);
	unload(&l);

	/* with a version, the EMC table's repeats are told apart by hw */
	size_t size;
	void *blob = dt_test_board("tegra30-beaver", &size);
	uint32_t hw[] = {0x4};
	struct dmn_dt_load_opts o = {.supported_hw = hw, .n_supported_hw = 1};
	struct dmn_dt_board *bb;
	assert_int_equal(dmn_dt_load(blob, size, &o, &bb), 0);
	for (unsigned ti = 0; ti < bb->n_opp_tables; ti++) {
		const struct dmn_dt_opp_table *et = &bb->opp_tables[ti];
		if (strcmp(et->path, "/opp-table-emc"))
			continue;
		unsigned avail = 0;
		for (unsigned e = 0; e < et->n_entries; e++)
			avail += et->entries[e].available;
		/* 0x4 is set in 0x6, 0x7, 0xc and 0x4 masks: one per rate at
		 * most, so no duplicates among them */
		unsigned dups = 0;
		for (unsigned e = 0; e < et->n_entries; e++)
			dups += et->entries[e].duplicate_of >= 0;
		assert_int_equal(dups, 0);
		assert_true(avail > 0 && avail <= 21);
	}
	/* The CPU table groups <process speedo>, the others <process>: one
	 * value checks the CPU table's process cell only, and the speedo
	 * variants that leaves available together are not warned about
	 * (27 opp-duplicate before; docs/decisions/opp-supported-hw.md);
	 * every entry skipped
	 * is named. */
	assert_int_equal(dt_test_count(bb, "opp-duplicate"), 0);
	assert_int_equal(dt_test_count(bb, "opp-hw-partial"), 1);
	assert_int_equal(dt_test_count(bb, "opp-hw-mismatch"),
			 bb->n_opp_hw_unavailable);
	assert_int_equal(bb->n_warnings, 0);
	dmn_dt_board_free(bb);
	/* two values fit the CPU table whole; the 1-cell tables read the
	 * first (34 opp-supported-hw-count warnings before) */
	uint32_t hw2[] = {0x4, 0x4};
	o.supported_hw = hw2;
	o.n_supported_hw = 2;
	assert_int_equal(dmn_dt_load(blob, size, &o, &bb), 0);
	assert_int_equal(bb->n_warnings, 0);
	assert_int_equal(dt_test_count(bb, "opp-supported-hw-count"), 0);
	assert_int_equal(dt_test_count(bb, "opp-hw-partial"), 0);
	assert_int_equal(dt_test_count(bb, "opp-hw-mismatch"),
			 bb->n_opp_hw_unavailable);
	assert_true(bb->n_opp_hw_unavailable > 0 &&
		    bb->n_opp_hw_unavailable < 282);
	dmn_dt_board_free(bb);
	free(blob);
}

/* Rockchip: 28 nested nodes, 26 distinct domains, 14 and 15 twice (each
 * a subdomain of both enclosing domains). */
static void rockchip_nesting(void **state)
{
	(void)state;
	struct loaded l;
	if (!load_board(&cases[3], &l)) {
		skip();
		return;
	}
	const struct dmn_dt_board *b = l.board;
	assert_int_equal(dt_test_count(b, "domain-defined-twice"), 2);
	int d14 = dmn_dt_domain_find(b, "power:14"),
	    d13 = dmn_dt_domain_find(b, "power:13");
	int d10 = dmn_dt_domain_find(b, "power:10"),
	    d9 = dmn_dt_domain_find(b, "power:9");
	int d8 = dmn_dt_domain_find(b, "power:8");
	int d21 = dmn_dt_domain_find(b, "power:21");
	/* RKVDEC0 under VCODEC and VDPU: two parents, as Linux links it */
	assert_int_equal(b->domains[d14].n_parents, 2);
	assert_int_equal(b->domains[d14].parents[0], d13);
	assert_int_equal(b->domains[d14].parents[1], d21);
	assert_int_equal(b->domains[d10].parents[0], d9);
	assert_int_equal(b->domains[d9].parents[0], d8);
	assert_int_equal(b->domains[d8].n_parents, 0);
	unload(&l);
}

/* Boards with both a blob and facts: the cases above can run on them. */
static unsigned boards_present(void)
{
	unsigned n = 0;
	for (unsigned ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		char blob[1024], facts[1024];
		snprintf(blob, sizeof(blob), "%s/%s.dtb", DOMINO_BOARDS_DIR,
			 cases[ci].name);
		facts_path(cases[ci].name, facts, sizeof(facts));
		n += access(blob, R_OK) == 0 && access(facts, R_OK) == 0;
	}
	return n;
}

int main(void)
{
	unsigned present = boards_present();
	printf("test_dt_boards: %u of %zu boards have a blob in %s and facts "
	       "in %s\n",
	       present, sizeof(cases) / sizeof(cases[0]), DOMINO_BOARDS_DIR,
	       DOMINO_FACTS_DIR);
	if (!present) {
		printf("SKIP: no board to check (configure with "
		       "-DDOMINO_BOARDS=DIR, a folder of board blobs)\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(counts),
	    cmocka_unit_test(parents_and_floors),
	    cmocka_unit_test(idle_states),
	    cmocka_unit_test(examples),
	    cmocka_unit_test(design_examples),
	    cmocka_unit_test(rockchip_nesting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
