/* SPDX-License-Identifier: MIT */
/*
 * Which of a provider's own `power-domains` parent which of its domains
 * (docs/device-tree.md, Parents).
 *
 * The generic rule: every listed parent parents every top-level domain of
 * the provider. The i.MX8M block controllers list one parent per domain
 * plus a "bus" domain, named by `power-domain-names`, and Linux's drivers
 * for them attach each domain to "bus" and to its own entry only; domino
 * does the same by default (a note says so), and DMN_DT_LOAD_PARENTS_ALL
 * keeps the generic rule for comparison (a warning says what Linux does).
 * The tables hold facts of the bindings and drivers: for each domain index
 * (dt-bindings/power/imx8m*-power.h), the power-domain-names entry its
 * driver attaches it to.
 */
#include "dt_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct named_parents {
	const char *compatible;
	const char *driver; /* the Linux file whose table maps them */
	const char *const *names; /* by domain index */
	unsigned n_names;
};

#define NAMES(...)                                                             \
	(const char *const[]){__VA_ARGS__},                                    \
	    sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *)

#define IMX8M_BLK_CTRL "drivers/pmdomain/imx/imx8m-blk-ctrl.c"
#define IMX8MP_BLK_CTRL "drivers/pmdomain/imx/imx8mp-blk-ctrl.c"

/* Each row: a driver's of_device_id compatible and, by domain index, the
 * gpc_name of its per-domain data. */
static const struct named_parents by_name[] = {
    {"fsl,imx8mp-media-blk-ctrl", IMX8M_BLK_CTRL,
     NAMES("mipi-dsi1", "mipi-csi1", "lcdif1", "isi", "mipi-csi2", "lcdif2",
	   "isp", "dwe", "mipi-dsi2")},
    {"fsl,imx8mp-vpu-blk-ctrl", IMX8M_BLK_CTRL, NAMES("g1", "g2", "vc8000e")},
    {"fsl,imx8mm-vpu-blk-ctrl", IMX8M_BLK_CTRL, NAMES("g1", "g2", "h1")},
    {"fsl,imx8mq-vpu-blk-ctrl", IMX8M_BLK_CTRL, NAMES("g1", "g2")},
    {"fsl,imx8mm-disp-blk-ctrl", IMX8M_BLK_CTRL,
     NAMES("csi-bridge", "lcdif", "mipi-dsi", "mipi-csi")},
    {"fsl,imx8mn-disp-blk-ctrl", IMX8M_BLK_CTRL,
     NAMES("mipi-dsi", "mipi-csi", "lcdif", "isi")},
    {"fsl,imx8mp-hsio-blk-ctrl", IMX8MP_BLK_CTRL,
     NAMES("usb", "usb-phy1", "usb-phy2", "pcie", "pcie-phy")},
    {"fsl,imx8mp-hdmi-blk-ctrl", IMX8MP_BLK_CTRL,
     NAMES("irqsteer", "lcdif", "pai", "pvi", "trng", "hdmi-tx",
	   "hdmi-tx-phy", "hdcp", "hrv")},
};

static const char bus_name[] = "bus";

static const struct named_parents *find_map(const struct dmn_dt_loader *ld,
					    int32_t node)
{
	for (size_t i = 0; i < sizeof(by_name) / sizeof(by_name[0]); i++)
		if (dmn__dt_prop_has_string(ld, node, "compatible",
				       by_name[i].compatible))
			return &by_name[i];
	return NULL;
}

/* The domain the power-domains entry named @name resolved to, or -1. */
static int32_t named_parent(const struct dmn_dt_loader *ld, int32_t node,
			    const char *name)
{
	const struct dmn_dt_node *n = &ld->nodes[node];
	for (unsigned i = 0; i < n->n_specs; i++) {
		const char *s =
		    dmn__dt_prop_string(ld, node, "power-domain-names", i, NULL);
		if (s && !strcmp(s, name))
			return n->specs[i].usable
				   ? dmn__dt_spec_domain(ld, &n->specs[i])
				   : -1;
	}
	return -1;
}

static bool has_names(const struct dmn_dt_loader *ld, int32_t node)
{
	unsigned n = 0;
	dmn__dt_prop_string(ld, node, "power-domain-names", 0, &n);
	return n > 0;
}

int dmn__dt_provider_parents_plan(struct dmn_dt_loader *ld, int32_t pi, int32_t node,
			     bool *by_name_out)
{
	const struct dmn_dt_provider *p = &ld->board->providers[pi];
	*by_name_out = false;
	/* one domain, or one parent: every reading gives the same links */
	if (p->cells == 0 || p->n_parents < 2 || !has_names(ld, node))
		return 0;
	const struct named_parents *m = find_map(ld, node);
	if (!m)
		return DT_NOTE(ld, "provider-parents-all", node, "power-domains",
			       "all %u parents listed here were applied to every "
			       "domain of this provider; its driver may map them by "
			       "power-domain-names instead",
			       p->n_parents);
	if (ld->opts->flags & DMN_DT_LOAD_PARENTS_ALL)
		return DT_WARN(ld, "provider-parents-all", node, "power-domains",
			       "all %u parents listed here were applied to "
			       "every domain of this provider "
			       "(--provider-parents=all); Linux's %s maps them "
			       "by name: each domain gets \"%s\" and its own "
			       "power-domain-names entry (the default)",
			       p->n_parents, m->driver, bus_name);
	*by_name_out = true;
	return DT_NOTE(ld, "provider-parents-all", node, "power-domains",
		       "each domain of this provider is a child of \"%s\" and of "
		       "its own power-domain-names entry, as Linux's %s maps "
		       "them, not of all %u parents listed here "
		       "(--provider-parents=all applies them all)",
		       bus_name, m->driver, p->n_parents);
}

int dmn__dt_domain_named_parents(struct dmn_dt_loader *ld, int32_t node,
			    const struct dmn_dt_domain *d, int32_t out[2],
			    unsigned *n_out)
{
	const struct named_parents *m = find_map(ld, node);
	*n_out = 0;
	const char *own = m && d->index >= 0 && d->index < (int64_t)m->n_names
			      ? m->names[d->index]
			      : NULL;
	int32_t bus = named_parent(ld, node, bus_name);
	int32_t mine = own ? named_parent(ld, node, own) : -1;
	if (bus < 0 || mine < 0)
		return DT_WARN(ld, "provider-parents-by-name", node,
			       "power-domain-names",
			       "domain %lld: no usable power-domains entry "
			       "named \"%s\": all parents applied",
			       (long long)d->index, bus < 0 ? bus_name
					      : own	? own
							: "(none in the table)")
			   ? -ENOMEM
			   : -ENOENT;
	out[(*n_out)++] = bus;
	if (mine != bus)
		out[(*n_out)++] = mine;
	return 0;
}

/*
 * Parents a provider's driver links, with nothing in the device tree to say
 * so: Linux's rpmhpd driver makes, on these SoCs, the CX rail a subdomain
 * of MX (and CX_AO of MX_AO), or, from SM8450 on, MMCX a subdomain of CX
 * (MMCX_AO of CX_AO); its rpmpd driver makes SM6375's GX a subdomain of
 * MX. The rails share one opp-level table with no required-opps between
 * them, so a level passes up 1:1. The table holds facts of the bindings
 * and drivers: pairs of domain indices (child, parent) from
 * dt-bindings/power/qcom,rpmhpd.h and qcom-rpmpd.h, by compatible, where
 * the driver's per-compatible table gives the child a `.parent`.
 */
struct driver_parents {
	const char *compatible;
	const char *driver; /* the Linux file whose tables link them */
	const uint8_t (*pairs)[2];
	unsigned n_pairs;
};

#define RPMHPD "drivers/pmdomain/qcom/rpmhpd.c"
#define RPMPD "drivers/pmdomain/qcom/rpmpd.c"
#define PAIRS(...)                                                             \
	(const uint8_t[][2]){__VA_ARGS__},                                     \
	    sizeof((const uint8_t[][2]){__VA_ARGS__}) / sizeof(uint8_t[2])
/* RPMHPD_CX 0, _CX_AO 1, _MMCX 6, _MMCX_AO 7, _MX 8, _MX_AO 9 */
#define CX_UNDER_MX PAIRS({0, 8}, {1, 9})
#define MMCX_UNDER_CX PAIRS({6, 0}, {7, 1})

static const struct driver_parents driver_parents[] = {
    {"qcom,sdm670-rpmhpd", RPMHPD, PAIRS({2, 0}, {3, 1})},
    {"qcom,sdm845-rpmhpd", RPMHPD, PAIRS({3, 1}, {4, 2})},
    {"qcom,sdx55-rpmhpd", RPMHPD, PAIRS({2, 1})},
    {"qcom,sdx65-rpmhpd", RPMHPD, PAIRS({3, 1}, {4, 2})},
    {"qcom,sm6350-rpmhpd", RPMHPD, PAIRS({0, 5})},
    {"qcom,sm7150-rpmhpd", RPMHPD, CX_UNDER_MX},
    {"qcom,sm8150-rpmhpd", RPMHPD, PAIRS({7, 5}, {8, 6})},
    {"qcom,sa8155p-rpmhpd", RPMHPD, PAIRS({7, 5}, {8, 6})},
    {"qcom,sm8250-rpmhpd", RPMHPD, CX_UNDER_MX},
    {"qcom,sm8350-rpmhpd", RPMHPD, CX_UNDER_MX},
    {"qcom,sc7180-rpmhpd", RPMHPD, PAIRS({0, 3}, {1, 4})},
    {"qcom,sc8180x-rpmhpd", RPMHPD, PAIRS({0, 9}, {1, 10})},
    {"qcom,sm8450-rpmhpd", RPMHPD, MMCX_UNDER_CX},
    {"qcom,sm8550-rpmhpd", RPMHPD, MMCX_UNDER_CX},
    {"qcom,sm8650-rpmhpd", RPMHPD, MMCX_UNDER_CX},
    /* rpmpd: SM6375_VDDGX 6 under _VDDMX 3, _VDDGX_AO 7 under _VDDMX_AO 4 */
    {"qcom,sm6375-rpmpd", RPMPD, PAIRS({6, 3}, {7, 4})},
};

const struct driver_parents *dmn__dt_driver_parents(const struct dmn_dt_loader *ld,
						    int32_t node)
{
	for (size_t i = 0; i < sizeof(driver_parents) / sizeof(driver_parents[0]);
	     i++)
		if (dmn__dt_prop_has_string(ld, node, "compatible",
				       driver_parents[i].compatible))
			return &driver_parents[i];
	return NULL;
}

int64_t dmn__dt_driver_parent(const struct driver_parents *t, int64_t index)
{
	for (unsigned i = 0; t && i < t->n_pairs; i++)
		if (t->pairs[i][0] == index)
			return t->pairs[i][1];
	return -1;
}

static bool provider_has(const struct dmn_dt_board *b, int32_t pi, int64_t index)
{
	const struct dmn_dt_provider *p = &b->providers[pi];
	for (unsigned k = 0; k < p->n_domains; k++)
		if (b->domains[p->first_domain + (int32_t)k].index == index)
			return true;
	return false;
}

int dmn__dt_driver_parents_note(struct dmn_dt_loader *ld, int32_t pi,
				int32_t node, const struct driver_parents *t)
{
	/* a table holds at most two pairs of one- or two-digit indices */
	char pairs[64] = "";
	size_t used = 0;
	for (unsigned i = 0; t && i < t->n_pairs && used < sizeof(pairs); i++)
		if (provider_has(ld->board, pi, t->pairs[i][0]))
			used += (size_t)snprintf(pairs + used, sizeof(pairs) - used,
						 "%s%u under %u", used ? ", " : "",
						 t->pairs[i][0], t->pairs[i][1]);
	if (!used)
		return 0;
	return DT_NOTE(ld, "provider-parents-driver", node, "compatible",
		       "domains of this provider linked as Linux's %s links "
		       "them for %s: %s (a parent exists even when no consumer "
		       "references it)",
		       t->driver, t->compatible, pairs);
}
