/* SPDX-License-Identifier: MIT */
/*
 * Wrapped around the README's library snippet by tests/examples (the
 * snippet's callback and ops at file scope, its statements in main): the
 * snippet's context gets a listener at creation, and before it is
 * destroyed the program checks what the README's comments promise (cx went
 * to 128, then 256, then 0, both domains on then off). Exit 0 only then.
 */
#include <domino/domain.h>
#include <stdio.h>

static struct {
	unsigned on, off;
	uint32_t domains[16], levels[16];
	unsigned n_levels;
} seen;

static void readme_listener(void *user, struct dmn_ctx *ctx,
			    const struct dmn_event *ev)
{
	(void)user;
	(void)ctx;
	seen.on += ev->kind == DMN_EV_POWER_ON;
	seen.off += ev->kind == DMN_EV_POWER_OFF;
	if (ev->kind == DMN_EV_PSTATE && seen.n_levels < 16) {
		seen.domains[seen.n_levels] = ev->domain;
		seen.levels[seen.n_levels++] = (uint32_t)ev->new_value;
	}
}

static int readme_create(const struct dmn_config *cfg, struct dmn_ctx **out)
{
	int err = dmn_ctx_create(cfg, out);
	return err ? err : dmn_listen(*out, readme_listener, 0);
}

static int readme_failed;

static void readme_destroy(struct dmn_ctx *ctx, dmn_domain_t rail)
{
	struct dmn_domain_info info;
	int err = dmn_domain_info(ctx, rail, &info);
	static const uint32_t want[] = {128, 256, 0};
	unsigned n = 0;
	int levels_ok = 1;
	for (unsigned i = 0; i < seen.n_levels; i++)
		if (seen.domains[i] == rail)
			levels_ok &= n < 3 && seen.levels[i] == want[n++];
	levels_ok &= n == 3;
	if (err || info.on || info.pstate || !levels_ok || seen.on != 2 ||
	    seen.off != 2) {
		printf("README snippet: err %d, cx on %d at %u, %u cx levels, "
		       "%u power-ons, %u power-offs\n",
		       err, err ? -1 : info.on, err ? 0 : info.pstate, n,
		       seen.on, seen.off);
		readme_failed = 1;
	} else {
		printf("README snippet: cx 128, 256, 0 and both on, then off\n");
	}
	dmn_ctx_destroy(ctx);
}
