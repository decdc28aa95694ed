/* SPDX-License-Identifier: MIT */
/*
 * Look-ups by name (an optional unit of a firmware image,
 * docs/architecture.md): a firmware keeps the handles it created, the loader
 * and the tools find objects by their names. O(objects): a linear scan, as it
 * runs once per name a board or a scenario mentions.
 */
#include "internal.h"

#include <errno.h>
#include <string.h>

/* The object named @name in the table at @table, whose objects keep their
 * names @name_at bytes in. */
static int find_named(struct dmn_ctx *ctx, size_t table, size_t name_at,
		      const char *name, uint32_t *out)
{
	int err = dmn__enter_ctx(ctx, name && out);
	if (err)
		return err;
	const struct handle_table *t =
	    (const struct handle_table *)((char *)ctx + table);
	err = -ENOENT;
	for (uint32_t h = dmn__handle_next(t, 0); h && err;
	     h = dmn__handle_next(t, h)) {
		if (!strcmp((const char *)dmn__handle_lookup(t, h) + name_at,
			    name)) {
			*out = h;
			err = 0;
		}
	}
	dmn__unlock(ctx);
	return err;
}

int dmn_domain_find(struct dmn_ctx *ctx, const char *name, dmn_domain_t *out)
{
	return find_named(ctx, DMN_DOMAINS, offsetof(struct dmn_domain, name),
			  name, out);
}

int dmn_device_find(struct dmn_ctx *ctx, const char *name, dmn_device_t *out)
{
	return find_named(ctx, DMN_DEVICES, offsetof(struct dmn_device, name),
			  name, out);
}
