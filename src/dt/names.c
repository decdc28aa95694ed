/* SPDX-License-Identifier: MIT */
/* Names of domains and devices (DESIGN §2), and look-ups by name. */
#include "dt_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

char *dt_domain_name(struct dt_loader *ld, const struct dt_provider *p,
		     int64_t index)
{
	const char *base = p->label ? p->label : p->path;
	if (index < 0)
		return dt_pool_strdup(ld->pool, base);
	char suffix[24];
	int n = snprintf(suffix, sizeof(suffix), ":%" PRId64, index);
	size_t bl = strlen(base);
	char *name = dt_pool_alloc(ld->pool, bl + (size_t)n + 1);
	if (name) {
		memcpy(name, base, bl);
		memcpy(name + bl, suffix, (size_t)n + 1);
	}
	return name;
}

char *dt_device_name(struct dt_loader *ld, int32_t node)
{
	const struct dt_node *n = &ld->nodes[node];
	if (n->label)
		return dt_pool_strdup(ld->pool, n->label);
	const char *path = dt_node_path(ld, node);
	return path ? dt_pool_strdup(ld->pool, path) : NULL;
}

int dt_domain_find(const struct dt_board *board, const char *name)
{
	if (!board || !name)
		return -EINVAL;
	for (unsigned i = 0; i < board->n_domains; i++)
		if (strcmp(board->domains[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

int dt_device_find(const struct dt_board *board, const char *name)
{
	if (!board || !name)
		return -EINVAL;
	for (unsigned i = 0; i < board->n_devices; i++)
		if (strcmp(board->devices[i].name, name) == 0 ||
		    strcmp(board->devices[i].path, name) == 0)
			return (int)i;
	int found = -ENOENT;
	for (unsigned i = 0; i < board->n_devices; i++)
		if (strcmp(board->devices[i].node_name, name) == 0) {
			if (found >= 0)
				return -EEXIST;
			found = (int)i;
		}
	return found;
}
