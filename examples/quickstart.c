/* The README's API example: a rail with levels, a gated subdomain, and a
 * device that votes. Built and run by the test suite. */
#include <domino/domain.h>
#include <stdio.h>

static int rail_set_level(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	printf("rail -> level %u\n", level);
	return 0; /* a negative errno here would roll the vote back */
}

int main(void)
{
	static const struct dmn_domain_ops rail_ops = {
		.set_performance_state = rail_set_level,
	};
	struct dmn_ctx *ctx;
	dmn_domain_t rail, gdsc;
	dmn_device_t codec;
	dmn_attach_t vote;

	if (dmn_ctx_create(NULL, &ctx))
		return 1;
	struct dmn_domain_desc cx = {.name = "cx", .ops = &rail_ops};
	struct dmn_domain_desc video = {.name = "video_gdsc"};
	dmn_domain_create(ctx, &cx, &rail);
	dmn_domain_create(ctx, &video, &gdsc);
	dmn_link_add(ctx, rail, gdsc);     /* the GDSC is a subdomain of cx */

	dmn_device_create(ctx, "venus", &codec);
	dmn_attach(ctx, codec, gdsc, &vote);
	dmn_vote(ctx, vote, 128);          /* stored: the codec is suspended */
	dmn_device_get(ctx, codec);        /* cx -> 128, then both power on */
	dmn_vote(ctx, vote, 256);          /* cx -> 256 */
	dmn_device_put(ctx, codec);        /* both off, then cx -> 0 */

	struct dmn_domain_info info;
	dmn_domain_info(ctx, rail, &info);
	printf("cx is %s at level %u\n", info.on ? "on" : "off", info.pstate);
	dmn_ctx_destroy(ctx);
	return info.on || info.pstate ? 1 : 0;
}
