/* SPDX-License-Identifier: MIT */
/*
 * Look-ups by name (an optional unit of a firmware image, issue 15): a
 * firmware keeps the handles it created, the loader and the tools find
 * objects by their names. O(objects): a linear scan, as it runs once per
 * name a board or a scenario mentions.
 */
#include "internal.h"

#include <errno.h>
#include <string.h>

int pd_domain_find(struct dmn_ctx *ctx, const char *name, pd_domain_t *out)
{
	if (!ctx || !name || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	int err = -ENOENT;
	for (uint32_t h = dmn__handle_next(&ctx->domains, 0); h;
	     h = dmn__handle_next(&ctx->domains, h)) {
		struct pd_domain *d = dmn__pd_domain_get(ctx, h);
		if (!strcmp(d->name, name)) {
			*out = h;
			err = 0;
			break;
		}
	}
	dmn__unlock(ctx);
	return err;
}

int pd_device_find(struct dmn_ctx *ctx, const char *name, pd_device_t *out)
{
	if (!ctx || !name || !out)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	int err = -ENOENT;
	for (uint32_t h = dmn__handle_next(&ctx->devices, 0); h;
	     h = dmn__handle_next(&ctx->devices, h)) {
		struct pd_device *dev = dmn__pd_device_get_ptr(ctx, h);
		if (!strcmp(dev->name, name)) {
			*out = h;
			err = 0;
			break;
		}
	}
	dmn__unlock(ctx);
	return err;
}
