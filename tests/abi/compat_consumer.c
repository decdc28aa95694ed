/* rename-api: skip-file -- written with the 0.1 names on purpose.
 *
 * Source written against DESIGN section 5 (pd_, opp_, dt_, rpt_ ...) still
 * compiles and runs after #include <domino/compat.h> (ctest abi_compat):
 * the core, an OPP table and a report helper, through the old names only. */
#include <domino/compat.h>
#include <stdio.h>
#include <string.h>

static unsigned last_level;

static int rail_set_level(void *user, pd_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	last_level = level;
	return 0;
}

static int sink(void *user, const char *bytes, size_t len)
{
	size_t *n = user;
	*n += len;
	(void)bytes;
	return 0;
}

int main(void)
{
	static const struct pd_domain_ops rail_ops = {
		.set_performance_state = rail_set_level,
	};
	struct dmn_ctx *ctx;
	pd_domain_t rail;
	pd_device_t dev;
	pd_attach_t vote;
	struct pd_domain_info info;
	opp_table_t table;
	rpt_sink_fn fn = sink;
	size_t n = 0;

	if (dmn_ctx_create(NULL, &ctx))
		return 1;
	struct pd_domain_desc cx = {.name = "cx", .ops = &rail_ops};
	if (pd_domain_create(ctx, &cx, &rail) || pd_device_create(ctx, "venus", &dev) ||
	    pd_attach(ctx, dev, rail, &vote) || pd_vote(ctx, vote, 128) ||
	    pd_device_get(ctx, dev) || pd_domain_info(ctx, rail, &info))
		return 2;
	if (!info.on || info.pstate != 128 || last_level != 128)
		return 3;
	if (opp_table_create(ctx, "big", &table) || opp_table_put(ctx, table))
		return 4;
	struct rpt_sink out = {.write = fn, .user = &n};
	enum rpt_event_kind kind = RPT_EV_POWER_ON;
	if (out.write(out.user, "on", 2) || n != 2 || kind != RPT_EV_POWER_ON)
		return 5;
	pd_device_put(ctx, dev);
	dmn_ctx_destroy(ctx);
	printf("compat: old names build and run (%s)\n", DMN_VERSION_STRING);
	return strcmp(DMN_VERSION_STRING, "") ? 0 : 6;
}
