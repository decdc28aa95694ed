/* SPDX-License-Identifier: MIT */
/* The loader on small trees written for this project (tests/dt/cases). */
#include "dt_test_util.h"
#include "read_file.h"

#include <domino/lint.h>

#include "dt/dt_internal.h" /* DT_SKIP */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct dmn_dt_board *load(const char *name, const struct dmn_dt_load_opts *o,
			     int want)
{
	size_t size;
	void *blob = dt_test_case(name, &size);
	struct dmn_dt_board *b = NULL;
	assert_int_equal(dmn_dt_load(blob, size, o, &b), want);
	free(blob);
	return b;
}

static struct dmn_dt_board *load_ok(const char *name)
{
	struct dmn_dt_board *b = load(name, NULL, 0);
	assert_non_null(b);
	assert_int_equal(b->n_errors, 0);
	return b;
}

static int dom(const struct dmn_dt_board *b, const char *name)
{
	int i = dmn_dt_domain_find(b, name);
	if (i < 0)
		fail_msg("no domain %s", name);
	return i;
}

static int dev(const struct dmn_dt_board *b, const char *name)
{
	int i = dmn_dt_device_find(b, name);
	if (i < 0)
		fail_msg("no device %s (%d)", name, i);
	return i;
}

static bool has_parent(const struct dmn_dt_board *b, int child, int parent)
{
	for (unsigned i = 0; i < b->domains[child].n_parents; i++)
		if (b->domains[child].parents[i] == parent)
			return true;
	return false;
}

/* Providers (cells 0 and 1, PSCI), names, parents, idle states, levels,
 * devices, OPP entry fields, floors and fixed votes. */
static void basic_board(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("basic");
	assert_string_equal(b->model, "domino test board");
	assert_int_equal(b->n_compatible, 2);
	assert_string_equal(b->compatible[1], "domino,soc");
	assert_int_equal(b->n_warnings, 0);

	/* providers in tree order: 2 PSCI, rpmhpd, gcc, unlabeled */
	assert_int_equal(b->n_providers, 5);
	char ppath[64];
	assert_int_equal(dmn_dt_provider_path(b, 0, ppath, sizeof(ppath)),
			 strlen("/psci/power-domain-cpu0"));
	assert_string_equal(ppath, "/psci/power-domain-cpu0");
	assert_true(dmn_dt_provider_path_is(b, 0, "/psci/power-domain-cpu0", 23));
	assert_true(dmn_dt_provider_path_is(b, 0, "/psci/power-domain-cpu0:1", 23));
	assert_false(dmn_dt_provider_path_is(b, 0, "/psci/power-domain-cpu", 22));
	assert_false(dmn_dt_provider_path_is(b, 0, "/psci/power-domain-cpu0", 22));
	assert_false(dmn_dt_provider_path_is(b, 1, "/psci/power-domain-cpu0", 23));
	assert_false(dmn_dt_provider_path_is(b, b->n_providers, "/", 1));
	assert_false(dmn_dt_provider_path_is(NULL, 0, "/", 1));
	assert_int_equal(dmn_dt_provider_path(b, b->n_providers, ppath, 4), 0);
	/* truncated like snprintf: the length, the first size - 1 bytes */
	assert_int_equal(dmn_dt_provider_path(b, 0, ppath, 6), 23);
	assert_string_equal(ppath, "/psci");
	assert_int_equal(dmn_dt_provider_path(b, 0, NULL, 0), 23);
	assert_string_equal(b->providers[0].label, "cpu_pd0");
	assert_int_equal(b->providers[2].cells, 1);
	assert_null(b->providers[4].label);

	/* domains: cpu_pd0, cluster_pd, rpmhpd:0, rpmhpd:2, gcc:1, gcc:3,
	 * and the unlabeled provider named by its path */
	assert_int_equal(b->n_domains, 7);
	int cpu = dom(b, "cpu_pd0"), cl = dom(b, "cluster_pd");
	int cx = dom(b, "rpmhpd:0"), mx = dom(b, "rpmhpd:2");
	int g1 = dom(b, "gcc:1"), g3 = dom(b, "gcc:3");
	int un = dom(b, "/unlabeled-pd");
	assert_int_equal(b->domains[cpu].index, -1);
	assert_int_equal(b->domains[mx].index, 2);
	assert_true(has_parent(b, cpu, cl));
	assert_true(has_parent(b, g1, cx) && has_parent(b, g3, cx));
	assert_int_equal(b->domains[g1].n_parents, 1);
	assert_int_equal(b->domains[un].n_parents, 0);
	assert_int_equal(dmn_dt_domain_find(b, "rpmhpd:1"), -ENOENT);

	/* idle states: name from idle-state-name, else the node name */
	assert_int_equal(b->domains[cpu].n_idle_states, 1);
	const struct dmn_dt_idle_state *s =
	    &b->idle_states[b->domains[cpu].idle_states[0]];
	assert_string_equal(s->name, "little-sleep");
	assert_int_equal(s->kind, DMN_DT_IDLE_ARM);
	assert_int_equal(s->entry_latency_us, 10);
	assert_int_equal(s->exit_latency_us, 20);
	assert_int_equal(s->min_residency_us, 100);
	s = &b->idle_states[b->domains[cl].idle_states[0]];
	assert_string_equal(s->name, "cluster-off");
	assert_int_equal(s->kind, DMN_DT_IDLE_DOMAIN);
	assert_int_equal(s->min_residency_us, 5000);

	/* levels come from the provider's table */
	assert_true(b->domains[cx].opp_table >= 0);
	assert_int_equal(b->domains[g1].opp_table, -1);
	const struct dmn_dt_opp_table *rail =
	    &b->opp_tables[b->domains[cx].opp_table];
	assert_string_equal(rail->path, "/opp-table-rail");
	assert_int_equal(rail->n_entries, 3);
	assert_true(rail->entries[2].has_level);
	assert_int_equal(rail->entries[2].level, 256);

	/* gcc's own required-opps: a floor of 64 on its parent rpmhpd:0 */
	const struct dmn_dt_provider *gcc = &b->providers[b->domains[g1].provider];
	assert_int_equal(gcc->n_floors, 1);
	assert_int_equal(gcc->floors[0].parent, cx);
	assert_int_equal(gcc->floors[0].level, 64);

	/* devices: label, else path; node names where unique */
	assert_int_equal(b->n_devices, 5);
	int video = dev(b, "video");
	assert_int_equal(dev(b, "/video-codec@2000"), video);
	assert_int_equal(dev(b, "video-codec@2000"), video);
	assert_int_equal(dmn_dt_device_find(b, "usb@4000"), -EEXIST);
	assert_int_equal(dev(b, "cpu0"), dev(b, "/cpus/cpu@0"));
	const struct dmn_dt_device *v = &b->devices[video];
	assert_int_equal(v->n_attachments, 2);
	assert_int_equal(v->attachments[0].domain, g3);
	assert_string_equal(v->attachments[0].name, "core");
	assert_int_equal(v->attachments[1].domain, mx);
	assert_string_equal(v->attachments[1].name, "mx");

	/* the device's table: every field */
	const struct dmn_dt_opp_table *t = &b->opp_tables[v->opp_table];
	assert_true(t->shared);
	assert_int_equal(t->n_entries, 3);
	const struct dmn_dt_opp *e = &t->entries[0];
	assert_string_equal(e->name, "opp-100000000");
	assert_int_equal(e->n_hz, 2);
	assert_true(e->hz[0] == 100000000u && e->hz[1] == 0);
	assert_int_equal(e->n_supplies, 1);
	assert_int_equal(e->supplies[0].microvolt, 800000);
	assert_int_equal(e->supplies[0].microvolt_min, 750000);
	assert_int_equal(e->supplies[0].microvolt_max, 850000);
	assert_int_equal(e->supplies[0].microamp, 1000);
	assert_true(e->suspend && !e->turbo && e->available);
	e = &t->entries[1];
	assert_true(e->hz[0] == 6000000000ull && e->hz[1] == 5);
	assert_int_equal(e->supplies[0].microvolt_min, 900000);
	assert_int_equal(e->n_microwatt, 1);
	assert_int_equal(e->microwatt[0], 1200);
	assert_true(e->turbo);
	assert_false(t->entries[2].enabled);
	assert_false(t->entries[2].available);

	/* votes per entry: the rail's level goes to mx (pass 1), nothing to
	 * the GDSC */
	uint32_t lv[2];
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)video, 0, lv, 2), 2);
	assert_int_equal(lv[0], 0);
	assert_int_equal(lv[1], 16);
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)video, 1, lv, 2), 2);
	assert_int_equal(lv[1], 256);
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)video, 9, lv, 2),
			 -ENOENT);

	/* device-level required-opps: fixed votes, pass 1 and pass 2 */
	int i2c = dev(b, "/i2c@3000"), usb = dev(b, "/usb@4000");
	assert_int_equal(dmn_dt_device_fixed_votes(b, (unsigned)i2c, lv, 2), 1);
	assert_int_equal(lv[0], 64);
	assert_int_equal(dmn_dt_device_fixed_votes(b, (unsigned)usb, lv, 2), 1);
	assert_int_equal(lv[0], 256); /* gcc:1 -> parent rpmhpd:0's table */
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)usb, 0, lv, 2),
			 -ENOENT);
	dmn_dt_board_free(b);
}

/* Rockchip nesting: domains, the subdomain tree, a number defined twice,
 * disabled children, references to a nested node and to extra indices. */
static void nested_domains(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("nested");
	assert_int_equal(b->n_providers, 1);
	/* 1, 2, 3, 4, 5 nested (6 is disabled) and 9 referenced */
	assert_int_equal(b->n_domains, 6);
	int d1 = dom(b, "power:1"), d2 = dom(b, "power:2"),
	    d3 = dom(b, "power:3");
	int d4 = dom(b, "power:4"), d5 = dom(b, "power:5"),
	    d9 = dom(b, "power:9");
	assert_int_equal(dmn_dt_domain_find(b, "power:6"), -ENOENT);
	assert_true(has_parent(b, d2, d1) && has_parent(b, d3, d2));
	/* 5 is nested under 1 and under 4: a subdomain of both, as Linux's
	 * Rockchip driver links RK3588's RKVDEC0/1; the first nesting is
	 * its first parent */
	assert_int_equal(b->domains[d5].n_parents, 2);
	assert_int_equal(b->domains[d5].parents[0], d1);
	assert_int_equal(b->domains[d5].parents[1], d4);
	assert_int_equal(b->domains[d4].n_parents, 0);
	assert_int_equal(b->domains[d9].n_parents, 0);
	/* paths are built on demand (dmn_dt_domain_path), snprintf-like */
	const char *p3 = "/power-controller/power-domain@1/power-domain@2/"
			 "power-domain@3";
	char buf[128];
	assert_int_equal(dmn_dt_domain_path(b, (unsigned)d3, buf, sizeof(buf)),
			 strlen(p3));
	assert_string_equal(buf, p3);
	assert_int_equal(dmn_dt_domain_path(b, (unsigned)d3, buf, 20), strlen(p3));
	assert_string_equal(buf, "/power-controller/p");
	assert_int_equal(dmn_dt_domain_path(b, (unsigned)d3, NULL, 0), strlen(p3));
	assert_true(dmn_dt_domain_path_is(b, (unsigned)d3, p3));
	assert_false(dmn_dt_domain_path_is(b, (unsigned)d3, p3 + 17));
	assert_false(dmn_dt_domain_path_is(b, (unsigned)d3, "power-controller/power-domain@1/power-domain@2/power-domain@3"));
	assert_false(dmn_dt_domain_path_is(b, (unsigned)d3, "/x/power-controller/power-domain@1/power-domain@2/power-domain@3"));
	assert_int_equal(dmn_dt_domain_path(b, (unsigned)d9, buf, sizeof(buf)),
			 strlen("/power-controller"));
	assert_string_equal(buf, "/power-controller");
	assert_int_equal(dmn_dt_domain_path(b, b->n_domains, buf, sizeof(buf)), 0);
	assert_false(dmn_dt_domain_path_is(NULL, 0, "/"));
	assert_int_equal(dt_test_count(b, "domain-defined-twice"), 1);
	const struct dmn_dt_diag *d = dt_test_diag(b, "domain-defined-twice", 0);
	assert_int_equal(d->severity, DMN_DT_SEV_NOTE);
	assert_string_equal(d->node,
			    "/power-controller/power-domain@4/power-domain@5");
	/* a consumer of the nested node itself gets that domain */
	assert_int_equal(b->devices[dev(b, "/vop@12")].attachments[0].domain,
			 d1);
	assert_int_equal(b->devices[dev(b, "/gpu@10")].attachments[0].domain,
			 d3);
	dmn_dt_board_free(b);
}

/* Parents Linux's rpmhpd driver links by compatible (sm8250: CX under MX,
 * sm8550: MMCX under CX), with the parent created when nothing references
 * it; a compatible outside the table gets none. */
static void rpmhpd_driver_parents(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("rpmhpd_parents");
	int cx = dom(b, "pd8250:0"), mx = dom(b, "pd8250:8");
	int mmcx = dom(b, "pd8550:6"), cx2 = dom(b, "pd8550:0");
	int cx3 = dom(b, "pd7280:0");
	assert_int_equal(b->n_domains, 5);
	assert_int_equal(b->domains[cx].n_parents, 1);
	assert_true(has_parent(b, cx, mx));
	assert_int_equal(b->domains[mx].n_parents, 0);
	assert_int_equal(b->domains[mmcx].n_parents, 1);
	assert_true(has_parent(b, mmcx, cx2));
	assert_int_equal(b->domains[cx3].n_parents, 0);
	/* each linking provider is a note naming the driver; sc7280 none */
	assert_int_equal(b->n_diags, 2);
	assert_int_equal(dt_test_count(b, "provider-parents-driver"), 2);
	const struct dmn_dt_diag *n =
	    dt_test_diag(b, "provider-parents-driver", 0);
	assert_int_equal(n->severity, DMN_DT_SEV_NOTE);
	assert_string_equal(n->node, "/power-controller@1");
	assert_string_equal(n->property, "compatible");
	/* only the link made: CX_AO (1) is not referenced, so no "1 under 9" */
	assert_non_null(strstr(n->message, "sm8250-rpmhpd: 0 under 8 ("));
	assert_non_null(strstr(n->message, "drivers/pmdomain/qcom/rpmhpd.c"));
	assert_non_null(strstr(n->message, "qcom,sm8250-rpmhpd"));
	n = dt_test_diag(b, "provider-parents-driver", 1);
	assert_string_equal(n->node, "/power-controller@2");
	assert_non_null(strstr(n->message, "sm8550-rpmhpd: 6 under 0 ("));
	dmn_dt_board_free(b);
}

static void disabled_nodes(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("disabled");
	/* pd-off and pd-under (ancestor "fail") are no providers */
	assert_int_equal(b->n_providers, 2);
	/* pd_on:1 (dev@2, sub-pd) only: dev@1 is under a disabled bus, dev@4
	 * is skipped, so 7 and 2 are never created */
	assert_int_equal(b->n_domains, 2);
	assert_int_equal(dmn_dt_domain_find(b, "pd_on:7"), -ENOENT);
	assert_int_equal(dmn_dt_domain_find(b, "pd_on:2"), -ENOENT);
	assert_int_equal(b->n_devices, 1);
	assert_string_equal(b->devices[0].path, "/ok-bus/dev@2");
	/* dev@3, dev@4 warned; dev@5 (itself disabled) silently skipped; the
	 * provider sub-pd keeps its usable parent */
	assert_int_equal(dt_test_count(b, "consumer-of-disabled-provider"), 3);
	assert_string_equal(
	    dt_test_diag(b, "consumer-of-disabled-provider", 2)->node,
	    "/sub-pd");
	assert_true(has_parent(b, dom(b, "sub_pd"), dom(b, "pd_on:1")));
	dmn_dt_board_free(b);
}

/* Runtime-PM parents: a device's nearest enclosing device through
 * simple-pm-bus nodes only (a bus without power-domains passes its own
 * on); a simple-bus, a plain node or a bus with no device above give
 * none. */
static void pm_bus_parents(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("pm_bus");
	assert_int_equal(b->n_devices, 9);
	int outer = dev(b, "outer"), inner = dev(b, "inner");
	assert_int_equal(b->devices[outer].parent, -1);
	assert_int_equal(b->devices[dev(b, "a")].parent, outer);
	assert_int_equal(b->devices[inner].parent, outer);
	assert_int_equal(b->devices[dev(b, "b")].parent, inner);
	assert_int_equal(b->devices[dev(b, "c")].parent, outer);
	assert_int_equal(b->devices[dev(b, "d")].parent, -1);
	assert_int_equal(b->devices[dev(b, "sbus")].parent, -1);
	assert_int_equal(b->devices[dev(b, "e")].parent, -1);
	assert_int_equal(b->devices[dev(b, "f")].parent, -1);
	for (unsigned i = 0; i < b->n_devices; i++)
		assert_true(b->devices[i].parent < (int32_t)i);
	dmn_dt_board_free(b);
}

static void cycles_dropped(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("cycle");
	int a = dom(b, "pa"), bb = dom(b, "pb"), c = dom(b, "pc");
	int s = dom(b, "self:0");
	/* a -> c, b -> a are kept (tree order); c -> b would close the loop */
	assert_true(has_parent(b, a, c));
	assert_true(has_parent(b, bb, a));
	assert_int_equal(b->domains[c].n_parents, 0);
	assert_int_equal(b->domains[s].n_parents, 0);
	assert_int_equal(dt_test_count(b, "graph-cycle"), 2);
	const struct dmn_dt_diag *d = dt_test_diag(b, "graph-cycle", 0);
	assert_string_equal(d->node, "/pd-c");
	assert_string_equal(d->property, "power-domains");
	assert_int_equal(b->devices[0].n_attachments, 2);
	dmn_dt_board_free(b);
}

static const struct dmn_dt_opp *entry(const struct dmn_dt_board *b, const char *table,
				  const char *name)
{
	for (unsigned t = 0; t < b->n_opp_tables; t++)
		if (strcmp(b->opp_tables[t].path, table) == 0)
			for (unsigned i = 0; i < b->opp_tables[t].n_entries;
			     i++)
				if (!strcmp(b->opp_tables[t].entries[i].name,
					    name))
					return &b->opp_tables[t].entries[i];
	fail_msg("no entry %s/%s", table, name);
	return NULL;
}

static void supported_hw(void **state)
{
	(void)state;
	/* no version: every entry with opp-supported-hw is unavailable */
	struct dmn_dt_board *b = load_ok("hw");
	assert_int_equal(b->n_opp_hw_unavailable, 3);
	assert_int_equal(dt_test_count(b, "opp-needs-hw-version"), 1);
	assert_false(entry(b, "/opp-table-emc", "opp-a")->available);
	assert_true(entry(b, "/opp-table-emc", "opp-d")->available);
	dmn_dt_board_free(b);

	/* version 0x4 (one cell): 0x06 matches, 0x01 does not, the two-cell
	 * entry matches through its second group */
	uint32_t v4[] = {0x4};
	struct dmn_dt_load_opts o = {.supported_hw = v4, .n_supported_hw = 1};
	b = load("hw", &o, 0);
	assert_int_equal(b->n_opp_hw_unavailable, 1);
	assert_true(entry(b, "/opp-table-emc", "opp-a")->available);
	assert_false(entry(b, "/opp-table-emc", "opp-b")->hw_ok);
	assert_true(entry(b, "/opp-table-emc", "opp-c")->available);
	assert_int_equal(dt_test_count(b, "opp-needs-hw-version"), 0);
	dmn_dt_board_free(b);

	/* A version longer than the table's groups (this table's shortest
	 * opp-supported-hw has 1 cell) applies its first value only: opp-c's
	 * cells are four 1-cell groups, 0x4 matches the third. */
	uint32_t v48[] = {0x4, 0x8};
	o.supported_hw = v48;
	o.n_supported_hw = 2;
	b = load("hw", &o, 0);
	assert_true(entry(b, "/opp-table-emc", "opp-a")->available);
	assert_true(entry(b, "/opp-table-emc", "opp-c")->available);
	assert_false(entry(b, "/opp-table-emc", "opp-b")->hw_ok);
	assert_int_equal(dt_test_count(b, "opp-supported-hw-count"), 0);
	dmn_dt_board_free(b);
	/* the second value is not read: 0x10 alone decides */
	uint32_t v10[] = {0x10, 0x4};
	o.supported_hw = v10;
	b = load("hw", &o, 0);
	assert_false(entry(b, "/opp-table-emc", "opp-c")->available);
	assert_false(entry(b, "/opp-table-emc", "opp-a")->available);
	dmn_dt_board_free(b);
}

/* Tables of one board group opp-supported-hw differently (Tegra30: CPU
 * <process speedo>, peripherals <process>); one version serves them all,
 * each table reading as many values as its groups have cells
 * (docs/decisions/opp-supported-hw.md). */
static void supported_hw_widths(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("hw_width");
	assert_int_equal(b->n_opp_hw_unavailable, 9);
	assert_int_equal(dt_test_count(b, "opp-needs-hw-version"), 3);
	assert_int_equal(dt_test_count(b, "opp-hw-mismatch"), 0);
	dmn_dt_board_free(b);

	/* one value: the CPU table checks the process cell only, so the
	 * speedo variants of a frequency are available together; the
	 * duplicates that makes are the version's, one note per table,
	 * not a warning per entry */
	uint32_t v4[] = {0x4};
	struct dmn_dt_load_opts o = {.supported_hw = v4, .n_supported_hw = 1};
	b = load("hw_width", &o, 0);
	assert_int_equal(b->n_warnings, 1); /* odd's opp-y, the tree's */
	assert_int_equal(dt_test_count(b, "opp-duplicate"), 0);
	assert_int_equal(dt_test_count(b, "opp-hw-partial"), 2);
	assert_int_equal(dt_test_count(b, "opp-supported-hw-count"), 1);
	assert_true(entry(b, "/opp-table-cpu", "opp-100-800")->available);
	assert_true(entry(b, "/opp-table-cpu", "opp-100-850")->hw_ok);
	assert_int_equal(
	    entry(b, "/opp-table-cpu", "opp-100-850")->duplicate_of, 0);
	assert_false(entry(b, "/opp-table-cpu", "opp-300-950")->hw_ok);
	assert_true(entry(b, "/opp-table-emc", "opp-a")->available);
	assert_false(entry(b, "/opp-table-emc", "opp-b")->hw_ok);
	assert_true(entry(b, "/opp-table-odd", "opp-x")->available);
	assert_false(entry(b, "/opp-table-odd", "opp-y")->hw_ok);
	/* the entries that did not match are named, one note each */
	assert_int_equal(dt_test_count(b, "opp-hw-mismatch"), 2);
	assert_int_equal(b->n_opp_hw_unavailable, 3);
	bool named = false;
	for (unsigned i = 0; i < b->n_diags; i++)
		if (!strcmp(b->diags[i].check, "opp-hw-mismatch") &&
		    b->diags[i].severity == DMN_DT_SEV_NOTE &&
		    strstr(b->diags[i].node, "/opp-table-cpu/opp-300-950") &&
		    strstr(b->diags[i].message, "hardware version 0x4"))
			named = true;
	assert_true(named);
	dmn_dt_board_free(b);

	/* two values: the CPU table is checked whole; the 1-cell table
	 * against the first value, with no count warning (Linux's driver
	 * gives it one value) */
	uint32_t v42[] = {0x4, 0x2};
	o.supported_hw = v42;
	o.n_supported_hw = 2;
	b = load("hw_width", &o, 0);
	assert_int_equal(dt_test_count(b, "opp-hw-partial"), 0);
	assert_int_equal(dt_test_count(b, "opp-duplicate"), 0);
	assert_int_equal(dt_test_count(b, "opp-supported-hw-count"), 1);
	assert_false(entry(b, "/opp-table-cpu", "opp-100-800")->available);
	assert_true(entry(b, "/opp-table-cpu", "opp-100-850")->available);
	assert_false(entry(b, "/opp-table-cpu", "opp-200-900")->available);
	assert_true(entry(b, "/opp-table-cpu", "opp-200-820")->available);
	assert_false(entry(b, "/opp-table-cpu", "opp-300-950")->available);
	assert_true(entry(b, "/opp-table-emc", "opp-a")->available);
	assert_false(entry(b, "/opp-table-emc", "opp-b")->available);
	assert_true(entry(b, "/opp-table-odd", "opp-x")->available);
	assert_int_equal(dt_test_count(b, "opp-hw-mismatch"), 4);
	assert_int_equal(b->n_opp_hw_unavailable, 5);
	dmn_dt_board_free(b);

	/* more values than any table's groups: the extra ones are unused */
	uint32_t v421[] = {0x4, 0x2, 0x1};
	o.supported_hw = v421;
	o.n_supported_hw = 3;
	b = load("hw_width", &o, 0);
	assert_true(entry(b, "/opp-table-cpu", "opp-100-850")->available);
	assert_false(entry(b, "/opp-table-cpu", "opp-100-800")->available);
	assert_int_equal(b->n_opp_hw_unavailable, 5);
	dmn_dt_board_free(b);
}

/* The names of @dom's parents, sorted by domain index, "+"-joined. */
static const char *parents_of(const struct dmn_dt_board *b, const char *dom_name)
{
	static char buf[256];
	const struct dmn_dt_domain *d = &b->domains[dom(b, dom_name)];
	buf[0] = 0;
	for (unsigned idx = 0; idx < b->n_domains; idx++)
		for (unsigned i = 0; i < d->n_parents; i++)
			if (d->parents[i] == (int32_t)idx) {
				if (buf[0])
					strcat(buf, "+");
				strcat(buf, b->domains[idx].name);
			}
	return buf;
}

/* i.MX8M block controllers: by default a known controller's domain gets
 * "bus" and its own named parent, as Linux's drivers do, and a note says
 * so; DMN_DT_LOAD_PARENTS_ALL applies every listed parent to every domain
 * (the generic rule) and warns. An unknown compatible keeps the generic
 * rule either way. */
static void provider_parents_by_name(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("blk_ctrl");
	assert_string_equal(parents_of(b, "vpu_blk:0"), "gpc:8+gpc:11");
	assert_string_equal(parents_of(b, "vpu_blk:1"), "gpc:8+gpc:12");
	assert_string_equal(parents_of(b, "vpu_blk:2"), "gpc:8+gpc:13");
	/* unknown compatible: every parent, noted */
	assert_string_equal(parents_of(b, "other_blk:0"), "gpc:1+gpc:2");
	/* imx8mq-vpu domain 1 is "g2", which this node does not name: that
	 * domain keeps every parent, and says so */
	assert_string_equal(parents_of(b, "short_blk:0"), "gpc:3+gpc:4");
	assert_string_equal(parents_of(b, "short_blk:1"), "gpc:3+gpc:4");
	assert_int_equal(dt_test_count(b, "provider-parents-by-name"), 1);
	/* a note on each provider of named parents, none a warning */
	assert_int_equal(dt_test_count(b, "provider-parents-all"), 3);
	unsigned seen = 0;
	for (unsigned i = 0; i < b->n_diags; i++) {
		const struct dmn_dt_diag *g = &b->diags[i];
		if (strcmp(g->check, "provider-parents-all"))
			continue;
		assert_string_equal(g->property, "power-domains");
		assert_int_equal(g->severity, DMN_DT_SEV_NOTE);
		if (!strcmp(g->node, "/blk-ctrl@1000")) {
			assert_non_null(strstr(g->message, "child of \"bus\""));
			assert_non_null(strstr(
			    g->message, "drivers/pmdomain/imx/imx8m-blk-ctrl.c"));
			seen++;
		}
	}
	assert_int_equal(seen, 1);
	dmn_dt_board_free(b);

	struct dmn_dt_load_opts o = {.flags = DMN_DT_LOAD_PARENTS_ALL};
	b = load("blk_ctrl", &o, 0);
	assert_string_equal(parents_of(b, "vpu_blk:0"),
			    "gpc:8+gpc:11+gpc:12+gpc:13");
	assert_string_equal(parents_of(b, "vpu_blk:2"),
			    "gpc:8+gpc:11+gpc:12+gpc:13");
	assert_string_equal(parents_of(b, "other_blk:0"), "gpc:1+gpc:2");
	assert_int_equal(dt_test_count(b, "provider-parents-by-name"), 0);
	/* a warning on each known controller, a note on the unknown one */
	assert_int_equal(dt_test_count(b, "provider-parents-all"), 3);
	unsigned warned = 0;
	for (unsigned i = 0; i < b->n_diags; i++) {
		const struct dmn_dt_diag *g = &b->diags[i];
		if (strcmp(g->check, "provider-parents-all"))
			continue;
		if (!strcmp(g->node, "/blk-ctrl@1000")) {
			assert_int_equal(g->severity, DMN_DT_SEV_WARNING);
			assert_non_null(strstr(g->message, "all 4 parents"));
			assert_non_null(strstr(g->message, "imx8m-blk-ctrl.c"));
			warned++;
		}
		if (!strcmp(g->node, "/blk-ctrl@2000")) {
			assert_int_equal(g->severity, DMN_DT_SEV_NOTE);
			warned++;
		}
	}
	assert_int_equal(warned, 2);
	dmn_dt_board_free(b);
}

static void duplicates(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("hw");
	/* d and e are equal; f and g differ by level; bandwidth-only entries
	 * have no key and are not compared */
	assert_int_equal(dt_test_count(b, "opp-duplicate"), 1);
	const struct dmn_dt_opp *e = entry(b, "/opp-table-emc", "opp-e");
	assert_false(e->available);
	assert_int_equal(e->duplicate_of, 3);
	assert_true(entry(b, "/opp-table-emc", "opp-g")->available);
	assert_true(entry(b, "/opp-table-emc", "opp-bw2")->available);
	dmn_dt_board_free(b);

	/* version 0x1: opp-a (0x06) is unavailable, opp-b (0x01), equal to
	 * it in opp-hz, is available: not a duplicate of what is not there */
	uint32_t v1[] = {0x1};
	struct dmn_dt_load_opts o = {.supported_hw = v1, .n_supported_hw = 1};
	b = load("hw", &o, 0);
	assert_false(entry(b, "/opp-table-emc", "opp-a")->available);
	const struct dmn_dt_opp *ob = entry(b, "/opp-table-emc", "opp-b");
	assert_true(ob->available);
	assert_int_equal(ob->duplicate_of, -1);
	assert_int_equal(dt_test_count(b, "opp-duplicate"), 1); /* d/e */
	dmn_dt_board_free(b);
}

/* A provider with its own power-domains and nested children: its parent
 * goes to its top-level domains only (docs/device-tree.md, Parents). */
static void nested_under_parented_provider(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("nested_parent");
	int top = dom(b, "top"), p1 = dom(b, "power:1"), p2 = dom(b, "power:2"),
	    p7 = dom(b, "power:7");
	assert_int_equal(b->domains[p1].n_parents, 1);
	assert_true(has_parent(b, p1, top));
	assert_int_equal(b->domains[p2].n_parents, 1);
	assert_true(has_parent(b, p2, p1));
	assert_int_equal(b->domains[p7].n_parents, 1);
	assert_true(has_parent(b, p7, top));
	dmn_dt_board_free(b);
}

static void two_pass_matching(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("match");
	uint32_t lv[3];
	/* pass 1: the mx rail takes the one required OPP */
	int venus = dev(b, "/venus");
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)venus, 1, lv, 3), 3);
	assert_true(lv[0] == 0 && lv[1] == 0 && lv[2] == 256);
	/* pass 2: two powergates, both OPPs in their parent's table */
	int gr3d = dev(b, "/gr3d");
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)gr3d, 0, lv, 3), 2);
	assert_true(lv[0] == 64 && lv[1] == 128);
	/* no domain owns the table: ignored and reported */
	int ufs = dev(b, "/ufs");
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)ufs, 0, lv, 3), 1);
	assert_int_equal(lv[0], 0);
	/* fixed votes: pass 2 through videocc's parent */
	assert_int_equal(
	    dmn_dt_device_fixed_votes(b, (unsigned)dev(b, "/usb"), lv, 3), 1);
	assert_int_equal(lv[0], 128);
	/* pass 1 first for rpmhpd:0, then pass 2 for pg0; o5 is left over */
	assert_int_equal(
	    dmn_dt_device_fixed_votes(b, (unsigned)dev(b, "/both"), lv, 3), 2);
	assert_true(lv[0] == 256 && lv[1] == 64);
	assert_int_equal(dt_test_count(b, "opp-required-unmatched"), 2);
	assert_string_equal(dt_test_diag(b, "opp-required-unmatched", 0)->node,
			    "/ufs");

	/* the raw API */
	int32_t doms[2] = {dom(b, "pg0"), dom(b, "rpmhpd:0")}, assign[2];
	const struct dmn_dt_device *both = &b->devices[dev(b, "/both")];
	assert_int_equal(
	    dmn_dt_match_required(b, doms, 2, both->required, 3, assign), 2);
	assert_int_equal(assign[0], 1);
	assert_int_equal(assign[1], 0);
	int32_t bad = 999;
	assert_int_equal(dmn_dt_match_required(b, &bad, 1, NULL, 0, assign),
			 -EINVAL);
	dmn_dt_board_free(b);
}

/* Providers of 2 and 3 cells: indexed by the first cell, the others kept
 * on the attachment; they create no further domains (docs/device-tree.md,
 * Providers). */
static void n_cells(void **state)
{
	(void)state;
	struct dmn_dt_load_opts o = {.flags = DMN_DT_LOAD_LENIENT};
	struct dmn_dt_board *b = load("ncells", &o, -EINVAL);
	/* only the short specifier is an error */
	assert_int_equal(b->n_errors, 1);
	const struct dmn_dt_diag *d = dt_test_diag(b, "pd-cells-mismatch", 0);
	assert_non_null(d);
	assert_string_equal(d->node, "/bad@1");
	/* k3_pds:7 (sub's parent), :57, :146; tri:4; sub */
	assert_int_equal(b->n_domains, 5);
	int k57 = dom(b, "k3_pds:57"), k146 = dom(b, "k3_pds:146");
	assert_int_equal(b->domains[k57].index, 57);
	assert_true(has_parent(b, dom(b, "sub"), dom(b, "k3_pds:7")));
	const struct dmn_dt_device *u = &b->devices[dev(b, "/uart@2800000")];
	assert_int_equal(u->n_attachments, 1);
	assert_int_equal(u->attachments[0].domain, k146);
	assert_int_equal(u->attachments[0].n_args, 1);
	assert_int_equal(u->attachments[0].args[0], 1);
	const struct dmn_dt_device *m = &b->devices[dev(b, "/mmc@fa10000")];
	assert_int_equal(m->n_attachments, 2);
	assert_int_equal(m->attachments[0].domain, k57);
	assert_int_equal(m->attachments[0].args[0], 0);
	assert_int_equal(m->attachments[1].domain, dom(b, "tri:4"));
	assert_int_equal(m->attachments[1].n_args, 2);
	assert_int_equal(m->attachments[1].args[0], 9);
	assert_int_equal(m->attachments[1].args[1], 10);
	/* the same index with other arguments is the same domain */
	const struct dmn_dt_device *m2 = &b->devices[dev(b, "/mmc@fa00000")];
	assert_int_equal(m2->attachments[0].domain, k57);
	assert_int_equal(m2->attachments[0].args[0], 1);
	/* zero- and one-cell specifiers carry none */
	const struct dmn_dt_device *g = &b->devices[dev(b, "/gpu@fd00000")];
	assert_int_equal(g->attachments[0].n_args, 0);
	assert_null(g->attachments[0].args);
	dmn_dt_board_free(b);
}

/* Vendor variants of operating-points-v2 (qcs404's CPR and CPU tables)
 * are read as OPP tables, with a note each; they failed the load once. */
static void opp_vendor_variants(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load("opp_vendor", NULL, 0);
	assert_int_equal(b->n_errors, 0);
	assert_int_equal(dt_test_count(b, "opp-table-vendor"), 2);
	assert_int_equal(b->n_opp_tables, 2);
	const struct dmn_dt_domain *cpr = &b->domains[dom(b, "cpr")];
	assert_true(cpr->opp_table >= 0);
	assert_int_equal(b->opp_tables[cpr->opp_table].n_entries, 3);
	const struct dmn_dt_device *cpu = &b->devices[dev(b, "/cpu@0")];
	assert_true(cpu->opp_table >= 0);
	const struct dmn_dt_opp_table *t = &b->opp_tables[cpu->opp_table];
	assert_int_equal(t->n_entries, 1);
	assert_int_equal(t->entries[0].n_required, 1);
	assert_int_equal(t->entries[0].required[0].table, cpr->opp_table);
	dmn_dt_board_free(b);
}

/* Device-to-device required-opps (docs/device-tree.md, Device-to-device
 * requirements): domain-less requirers and
 * owners are devices, the requirements listed; a cycle's closing pair is
 * dropped and a table without owner reported, both as warnings. */
static void device_requirements(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load("devreq", NULL, 0);
	assert_int_equal(b->n_errors, 0);
	assert_int_equal(dt_test_count(b, "opp-required-cycle"), 1);
	assert_int_equal(dt_test_count(b, "opp-table-no-owner"), 1);
	const struct dmn_dt_diag *d = dt_test_diag(b, "opp-table-no-owner", 0);
	assert_string_equal(d->node, "/opp-table-lonely");
	assert_string_equal(d->property, "required-opps");
	d = dt_test_diag(b, "opp-required-cycle", 0);
	assert_int_equal(d->severity, DMN_DT_SEV_WARNING);
	assert_string_equal(d->property, "required-opps");
	/* cpus, cci, x, y: devices without domains; not the disabled cpu3,
	 * nor a node using a level table */
	int cpu0 = dev(b, "cpu0"), cci = dev(b, "cci"), emi = dev(b, "emi");
	assert_int_equal(b->devices[cpu0].n_attachments, 0);
	assert_int_equal(dmn_dt_device_find(b, "cpu3"), -ENOENT);
	assert_int_equal(dmn_dt_device_find(b, "plain"), -ENOENT);
	assert_int_equal(b->n_devices, 7);
	struct {
		int device;
		const char *table;
	} want[] = {{cpu0, "/opp-table-cci"},
		    {dev(b, "cpu1"), "/opp-table-cci"},
		    {dev(b, "cpu2"), "/opp-table-orphan"},
		    {cci, "/opp-table-emi"},
		    {dev(b, "devx"), "/opp-table-y"}};
	assert_int_equal(b->n_requirements, 5);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(b->requirements[i].device, want[i].device);
		assert_string_equal(
		    b->opp_tables[b->requirements[i].table].path,
		    want[i].table);
	}
	/* refs into a device table vote on no domain and are not
	 * "unmatched" */
	assert_int_equal(dt_test_count(b, "opp-required-unmatched"), 0);
	uint32_t lv[1];
	assert_int_equal(dmn_dt_device_opp_votes(b, (unsigned)emi, 1, lv, 1), 1);
	assert_int_equal(lv[0], 64);
	dmn_dt_board_free(b);
}

static void cells_mismatch(void **state)
{
	(void)state;
	struct dmn_dt_load_opts o = {.flags = DMN_DT_LOAD_LENIENT};
	struct dmn_dt_board *b = load("err_mismatch", &o, -EINVAL);
	const struct dmn_dt_diag *d = dt_test_diag(b, "pd-cells-mismatch", 0);
	assert_non_null(d);
	assert_string_equal(d->node, "/dev-short");
	assert_int_equal(b->n_errors, 1);
	assert_int_equal(b->n_devices, 1);
	dmn_dt_board_free(b);
	assert_null(load("err_mismatch", NULL, -EINVAL));
}

/* Lint hands out the loader's own diagnostic type: a loader error keeps
 * the errno dmn_dt_load gives it, lint's own findings and the severities lint
 * changes carry none, and dmn_dt_diag_format renders a finding as is. */
struct lint_seen {
	unsigned n, with_error, dangling;
	char first[256];
};

static void on_lint(void *user, const struct dmn_dt_diag *f)
{
	struct lint_seen *s = user;
	s->n++;
	assert_true(f->severity == DMN_DT_SEV_ERROR || f->error == 0);
	if (f->error && !s->with_error++)
		dmn_dt_diag_format(f, "board.dtb", s->first, sizeof(s->first));
	if (!strcmp(f->check, "phandle-dangling")) {
		assert_int_equal(f->error, -ENOENT);
		s->dangling++;
	}
}

static void lint_findings_are_diags(void **state)
{
	(void)state;
	size_t size;
	void *blob = dt_test_case("err_phandles", &size);
	struct lint_seen s = {0};
	struct dmn_lint_counts c;
	assert_int_equal(dmn_dt_lint(blob, size, NULL, 0, on_lint, &s, &c), 0);
	struct dmn_dt_board *b = load("err_phandles", &(struct dmn_dt_load_opts){
						     .flags = DMN_DT_LOAD_LENIENT},
				  -EINVAL);
	/* every loader error, with its errno; nothing else has one */
	assert_int_equal(s.with_error, b->n_errors);
	assert_int_equal(s.dangling, dt_test_count(b, "phandle-dangling"));
	assert_true(s.dangling > 0);
	unsigned k = 0;
	while (b->diags[k].severity != DMN_DT_SEV_ERROR)
		k++;
	char want[256];
	dmn_dt_diag_format(&b->diags[k], "board.dtb", want, sizeof(want));
	assert_string_equal(s.first, want);
	assert_int_equal(c.errors + c.warnings + c.notes, s.n);
	dmn_dt_board_free(b);
	free(blob);
}

/* DT_SKIP, the loader's "entry reported and left out" status, is no
 * errno and never comes out of dmn_dt_load: every case, strict and lenient,
 * gives 0 or an errno the library names; warn_pd, whose problems all skip
 * an entry, loads without error. */
static void skip_status(void **state)
{
	(void)state;
	assert_true(-DT_SKIP > 4095);
	assert_string_equal(dmn_errno_name(DT_SKIP), "E?");
	DIR *dir = opendir(DT_CASES_DIR);
	assert_non_null(dir);
	unsigned cases = 0;
	for (struct dirent *e; (e = readdir(dir));) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".dtb"))
			continue;
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", DT_CASES_DIR, e->d_name);
		size_t size;
		void *blob = read_whole_file(path, &size);
		assert_non_null(blob);
		for (int lenient = 0; lenient < 2; lenient++) {
			struct dmn_dt_load_opts o = {
			    .flags = lenient ? DMN_DT_LOAD_LENIENT : 0};
			struct dmn_dt_board *b = NULL;
			int rc = dmn_dt_load(blob, size, &o, &b);
			if (rc && !strcmp(dmn_errno_name(rc), "E?"))
				fail_msg("%s: dmn_dt_load returned %d", path, rc);
			assert_int_not_equal(rc, DT_SKIP);
			dmn_dt_board_free(b);
		}
		free(blob);
		cases++;
	}
	closedir(dir);
	assert_true(cases >= 10);
	struct dmn_dt_board *b = load_ok("warn_pd");
	assert_true(dt_test_count(b, "pd-dangling-phandle") > 0);
	dmn_dt_board_free(b);
}

static void bad_phandles(void **state)
{
	(void)state;
	struct dmn_dt_load_opts o = {.flags = DMN_DT_LOAD_LENIENT};
	struct dmn_dt_board *b = load("err_phandles", &o, -EINVAL);
	struct {
		const char *check, *node, *prop;
		int error;
	} want[] = {
	    {"phandle-wrong-kind", "/pd-wrong-table", "operating-points-v2",
	     -EINVAL},
	    {"phandle-dangling", "/pd-dangling-idle", "domain-idle-states",
	     -ENOENT},
	    {"phandle-wrong-kind", "/pd-wrong-idle", "domain-idle-states",
	     -EINVAL},
	    {"phandle-dangling", "/dev-dangling-req", "required-opps", -ENOENT},
	    {"phandle-wrong-kind", "/dev-wrong-req", "required-opps", -EINVAL},
	    {"phandle-dangling", "/dev-dangling-table", "operating-points-v2",
	     -ENOENT},
	    {"phandle-wrong-kind", "/dev-wrong-table", "operating-points-v2",
	     -EINVAL},
	    {"prop-length", "/dev-bad-length", "required-opps", -EINVAL},
	};
	assert_int_equal(b->n_errors, sizeof(want) / sizeof(want[0]));
	unsigned k = 0;
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++, k++) {
		while (b->diags[k].severity != DMN_DT_SEV_ERROR)
			k++;
		const struct dmn_dt_diag *d = &b->diags[k];
		assert_string_equal(d->check, want[i].check);
		assert_string_equal(d->node, want[i].node);
		assert_string_equal(d->property, want[i].prop);
		assert_int_equal(d->error, want[i].error);
		assert_int_equal(d->severity, DMN_DT_SEV_ERROR);
	}
	/* an entry without a level among levels: a warning, the ref dropped
	 * (what domino cannot model never fails the board:
	 * docs/device-tree.md, Limits and errors) */
	assert_int_equal(dt_test_count(b, "opp-required-no-level"), 1);
	const struct dmn_dt_device *nl = &b->devices[dev(b, "/dev-nolevel-req")];
	assert_int_equal(nl->n_required, 0);
	/* lenient: the devices are kept, without what failed */
	assert_int_equal(b->n_devices, 6);
	assert_int_equal(b->devices[dev(b, "/dev-dangling-table")].opp_table,
			 -1);
	dmn_dt_board_free(b);
}

/* power-domains-child-ids: entry i's parent to domain ids[i] only; all
 * or none, as Linux's of_genpd_add_child_ids. */
static void child_ids(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("child_ids");
	int main_pd = dom(b, "main_pd"), wkup_pd = dom(b, "wkup_pd");
	/* named domains exist, referenced or not */
	int d15 = dom(b, "scmi_pds:15"), d19 = dom(b, "scmi_pds:19");
	int d4 = dom(b, "scmi_pds:4"), d3 = dom(b, "scmi_pds:3");
	assert_int_equal(b->domains[d15].n_parents, 1);
	assert_true(has_parent(b, d15, main_pd));
	assert_int_equal(b->domains[d19].n_parents, 1);
	assert_true(has_parent(b, d19, wkup_pd));
	assert_int_equal(b->domains[d4].n_parents, 2);
	assert_true(has_parent(b, d4, main_pd) && has_parent(b, d4, wkup_pd));
	assert_int_equal(b->domains[d3].n_parents, 0);
	/* invalid: nothing linked, one warning each */
	assert_int_equal(b->domains[dom(b, "short_pds:1")].n_parents, 0);
	assert_int_equal(b->domains[dom(b, "dup_pds:2")].n_parents, 0);
	assert_int_equal(b->domains[dom(b, "half_pds:5")].n_parents, 0);
	/* a provider without cells ignores it (warned): the generic rule */
	assert_true(has_parent(b, dom(b, "single"), main_pd));
	assert_int_equal(dt_test_count(b, "pd-child-ids"), 4);
	dmn_dt_board_free(b);
}

static void pd_warnings(void **state)
{
	(void)state;
	struct dmn_dt_board *b = load_ok("warn_pd");
	assert_int_equal(dt_test_count(b, "pd-dangling-phandle"), 2);
	assert_int_equal(dt_test_count(b, "pd-not-provider"), 1);
	assert_int_equal(dt_test_count(b, "pd-names-count"), 1);
	assert_int_equal(dt_test_count(b, "pd-duplicate-domain"), 1);
	assert_int_equal(dmn_dt_device_find(b, "/dev-dangling"), -ENOENT);
	assert_int_equal(dmn_dt_device_find(b, "/dev-not-provider"), -ENOENT);
	const struct dmn_dt_device *n = &b->devices[dev(b, "/dev-names")];
	assert_int_equal(n->n_attachments, 2);
	assert_string_equal(n->attachments[0].name, "only-one");
	assert_null(n->attachments[1].name);
	assert_int_equal(b->devices[dev(b, "/dev-repeat")].n_attachments, 1);
	/* a provider with an unresolvable parent keeps its domain */
	assert_int_equal(b->domains[dom(b, "sub")].n_parents, 0);
	dmn_dt_board_free(b);
}

struct sink {
	unsigned calls;
	char first[256];
};

static void collect(void *user, const struct dmn_dt_diag *d)
{
	struct sink *s = user;
	if (!s->calls++)
		dmn_dt_diag_format(d, "board.dtb", s->first, sizeof(s->first));
}

static void diag_sink_and_format(void **state)
{
	(void)state;
	struct sink s = {0};
	struct dmn_dt_load_opts o = {.diag = collect, .diag_user = &s};
	/* the sink sees diagnostics even when the load fails */
	assert_null(load("err_mismatch", &o, -EINVAL));
	assert_int_equal(s.calls, 1);
	assert_string_equal(
	    s.first, "board.dtb: /dev-short: power-domains: error: entry 1: "
		     "/one-cell takes 1 argument cell(s) but only 0 remain");
	struct dmn_dt_diag d = {DMN_DT_SEV_NOTE, "x", "/a", NULL, "hello", 0};
	char buf[8];
	assert_int_equal(dmn_dt_diag_format(&d, NULL, buf, sizeof(buf)),
			 (int)strlen("/a: note: hello"));
	assert_string_equal(buf, "/a: not");
	assert_int_equal(dmn_dt_diag_format(&d, "f", NULL, 0),
			 (int)strlen("f: /a: note: hello"));
	assert_int_equal(dmn_dt_diag_format(NULL, "f", NULL, 0), -EINVAL);
	assert_string_equal(dmn_dt_severity_name(DMN_DT_SEV_WARNING), "warning");
}

static void corrupt_and_args(void **state)
{
	(void)state;
	size_t size;
	unsigned char *blob = dt_test_case("basic", &size);
	struct dmn_dt_board *b;
	assert_int_equal(dmn_dt_load(NULL, size, NULL, &b), -EINVAL);
	assert_int_equal(dmn_dt_load(blob, size, NULL, NULL), -EINVAL);
	/* a version without its cells is malformed; any count is fine */
	struct dmn_dt_load_opts o = {.supported_hw = NULL, .n_supported_hw = 1};
	assert_int_equal(dmn_dt_load(blob, size, &o, &b), -EINVAL);
	uint32_t hw[20] = {1};
	o = (struct dmn_dt_load_opts){.supported_hw = hw, .n_supported_hw = 20};
	assert_int_equal(dmn_dt_load(blob, size, &o, &b), 0);
	assert_int_equal(b->n_supported_hw, 20);
	dmn_dt_board_free(b);
	assert_int_equal(dmn_dt_load(blob, size - 1, NULL, &b), -EILSEQ);
	assert_null(b);
	struct dmn_dt_load_opts lenient = {.flags = DMN_DT_LOAD_LENIENT};
	assert_int_equal(dmn_dt_load(blob, 10, &lenient, &b), -EILSEQ);
	assert_non_null(b);
	assert_string_equal(b->diags[0].check, "dt-corrupt");
	assert_string_equal(b->diags[0].node, "/");
	dmn_dt_board_free(b);
	/* a misaligned copy loads the same */
	unsigned char *odd = malloc(size + 1);
	memcpy(odd + 1, blob, size);
	assert_int_equal(dmn_dt_load(odd + 1, size, NULL, &b), 0);
	assert_int_equal(b->n_domains, 7);
	dmn_dt_board_free(b);
	free(odd);
	free(blob);
	dmn_dt_board_free(NULL);
}

static void parse_hw(void **state)
{
	(void)state;
	uint32_t v[3];
	assert_int_equal(dmn_dt_parse_supported_hw("4", v, 3), 1);
	assert_int_equal(v[0], 4);
	assert_int_equal(dmn_dt_parse_supported_hw("0x6,1,010", v, 3), 3);
	assert_true(v[0] == 6 && v[1] == 1 && v[2] == 8);
	assert_int_equal(dmn_dt_parse_supported_hw("1,2,3,4", v, 3), -EINVAL);
	assert_int_equal(dmn_dt_parse_supported_hw("", v, 3), -EINVAL);
	assert_int_equal(dmn_dt_parse_supported_hw("1,", v, 3), -EINVAL);
	assert_int_equal(dmn_dt_parse_supported_hw("-1", v, 3), -EINVAL);
	assert_int_equal(dmn_dt_parse_supported_hw("0x100000000", v, 3), -EINVAL);
	assert_int_equal(dmn_dt_parse_supported_hw("1 2", v, 3), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(basic_board),
	    cmocka_unit_test(nested_domains),
	    cmocka_unit_test(rpmhpd_driver_parents),
	    cmocka_unit_test(disabled_nodes),
	    cmocka_unit_test(pm_bus_parents),
	    cmocka_unit_test(cycles_dropped),
	    cmocka_unit_test(supported_hw),
	    cmocka_unit_test(supported_hw_widths),
	    cmocka_unit_test(provider_parents_by_name),
	    cmocka_unit_test(duplicates),
	    cmocka_unit_test(two_pass_matching),
	    cmocka_unit_test(n_cells),
	    cmocka_unit_test(device_requirements),
	    cmocka_unit_test(opp_vendor_variants),
	    cmocka_unit_test(nested_under_parented_provider),
	    cmocka_unit_test(cells_mismatch),
	    cmocka_unit_test(bad_phandles),
	    cmocka_unit_test(lint_findings_are_diags),
	    cmocka_unit_test(skip_status),
	    cmocka_unit_test(pd_warnings),
	    cmocka_unit_test(child_ids),
	    cmocka_unit_test(diag_sink_and_format),
	    cmocka_unit_test(corrupt_and_args),
	    cmocka_unit_test(parse_hw),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
