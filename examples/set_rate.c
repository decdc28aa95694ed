/* The README's set_rate example: a rail with corner levels, a codec whose
 * OPPs require them, and the order of the calls going up and down. Built
 * and run by the test suite. */
#include <domino/opp.h>
#include <stdio.h>
#include <string.h>

static int rail_level(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	printf("rail %u\n", level);
	return 0;
}

static int clock_rate(void *user, dmn_device_t dev, uint64_t hz)
{
	(void)user;
	(void)dev;
	printf("clock %llu\n", (unsigned long long)hz);
	return 0;
}

static int supply(void *user, dmn_device_t dev, unsigned i, uint32_t min,
		  uint32_t target, uint32_t max)
{
	(void)user;
	(void)dev;
	(void)i;
	(void)min;
	(void)max;
	printf("supply %u\n", target);
	return 0;
}

int main(void)
{
	static const struct dmn_domain_ops rail_ops = {.set_performance_state = rail_level};
	static const struct dmn_opp_clock_ops clk = {.set_rate = clock_rate};
	static const struct dmn_opp_regulator_ops reg = {.set_voltage = supply};
	struct dmn_ctx *ctx;
	dmn_domain_t mx;
	dmn_device_t venus;
	dmn_attach_t att;
	dmn_opp_table_t levels, codec;
	uint32_t svs, nom;

	dmn_ctx_create(NULL, &ctx);
	struct dmn_domain_desc desc = {.name = "mx", .ops = &rail_ops};
	dmn_domain_create(ctx, &desc, &mx);

	/* The rail's corners: a vote rounds up to the next one. */
	dmn_opp_table_create(ctx, "mx-levels", &levels);
	struct dmn_opp_desc l = {.flags = DMN_OPP_FLAG_HAS_LEVEL};
	l.level = 128;
	dmn_opp_add(ctx, levels, &l, &svs);
	l.level = 256;
	dmn_opp_add(ctx, levels, &l, &nom);
	dmn_opp_domain_set_table(ctx, mx, levels);

	/* The codec's OPPs: frequency, voltage, and the rail corner each needs. */
	dmn_opp_table_create(ctx, "venus-opps", &codec);
	uint64_t hz[1];
	struct dmn_opp_supply supply[1];
	struct dmn_opp_required required[1];
	struct dmn_opp_desc o;
	memset(&o, 0, sizeof(o));
	o.hz = hz;
	o.n_hz = 1;
	o.supplies = supply;
	o.n_supplies = 1;
	o.required = required;
	o.n_required = 1;
	hz[0] = 720000000;
	supply[0] = (struct dmn_opp_supply){800000, 800000, 800000, 0};
	required[0] = (struct dmn_opp_required){levels, svs};
	dmn_opp_add(ctx, codec, &o, NULL);
	hz[0] = 1332000000;
	supply[0] = (struct dmn_opp_supply){900000, 900000, 900000, 0};
	required[0] = (struct dmn_opp_required){levels, nom};
	dmn_opp_add(ctx, codec, &o, NULL);

	dmn_device_create(ctx, "venus", &venus);
	dmn_attach(ctx, venus, mx, &att);
	dmn_opp_device_bind(ctx, venus, codec);
	dmn_opp_device_set_clock(ctx, venus, &clk, NULL);
	dmn_opp_device_set_regulators(ctx, venus, &reg, NULL);
	dmn_device_get(ctx, venus);

	dmn_opp_set_rate(ctx, venus, 1000000000); /* up: rail, supply, clock */
	dmn_opp_set_rate(ctx, venus, 720000000);  /* down: clock, supply, rail */

	dmn_opp_table_put(ctx, codec);
	dmn_opp_table_put(ctx, levels);
	dmn_ctx_destroy(ctx);
	return 0;
}
