/* The README's API example: a rail with levels, a gated subdomain, and a
 * device that votes. Built and run by the test suite. */
#include <domino/domain.h>
#include <stdio.h>

static int rail_set_level(void *user, pd_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	printf("rail -> level %u\n", level);
	return 0; /* a negative errno here would roll the vote back */
}

int main(void)
{
	static const struct pd_domain_ops rail_ops = {
		.set_performance_state = rail_set_level,
	};
	struct dmn_ctx *ctx;
	pd_domain_t rail, gdsc;
	pd_device_t codec;
	pd_attach_t vote;

	if (dmn_ctx_create(NULL, &ctx))
		return 1;
	struct pd_domain_desc cx = {.name = "cx", .ops = &rail_ops};
	struct pd_domain_desc video = {.name = "video_gdsc"};
	pd_domain_create(ctx, &cx, &rail);
	pd_domain_create(ctx, &video, &gdsc);
	pd_link_add(ctx, rail, gdsc);     /* the GDSC is a subdomain of cx */

	pd_device_create(ctx, "venus", &codec);
	pd_attach(ctx, codec, gdsc, &vote);
	pd_vote(ctx, vote, 128);          /* stored: the codec is suspended */
	pd_device_get(ctx, codec);        /* cx -> 128, then both power on */
	pd_vote(ctx, vote, 256);          /* cx -> 256 */
	pd_device_put(ctx, codec);        /* both off, then cx -> 0 */

	struct pd_domain_info info;
	pd_domain_info(ctx, rail, &info);
	printf("cx is %s at level %u\n", info.on ? "on" : "off", info.pstate);
	dmn_ctx_destroy(ctx);
	return info.on || info.pstate ? 1 : 0;
}
