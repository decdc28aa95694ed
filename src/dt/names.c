/* SPDX-License-Identifier: MIT */
/* Names of domains and devices (docs/device-tree.md, Names), and look-ups
 * by name. */
#include "dt_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

char *dmn__dt_domain_name(struct dmn_dt_loader *ld, const struct dmn_dt_provider *p,
		     int32_t node, int64_t index)
{
	const char *base = p->label ? p->label : dmn__dt_node_path(ld, node);
	if (!base)
		return NULL;
	char suffix[24] = "";
	int n = index < 0 ? 0
			  : snprintf(suffix, sizeof(suffix), ":%" PRId64, index);
	size_t bl = strlen(base);
	char *name = dmn__dt_pool_alloc(ld->pool, bl + (size_t)n + 1);
	if (name) {
		memcpy(name, base, bl);
		memcpy(name + bl, suffix, (size_t)n + 1);
	}
	return name;
}

char *dmn__dt_device_name(struct dmn_dt_loader *ld, int32_t node)
{
	const struct dmn_dt_node *n = &ld->nodes[node];
	if (n->label)
		return dmn__dt_pool_strdup(ld->pool, n->label);
	const char *path = dmn__dt_node_path(ld, node);
	return path ? dmn__dt_pool_strdup(ld->pool, path) : NULL;
}

static int in_labels(char *const *labels, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(labels[i], name) == 0)
			return 1;
	return 0;
}

/* @name is "@base:INDEX" for this @index, with @base given or, when NULL,
 * the path of provider @provider. */
static int is_indexed(const struct dmn_dt_board *board, const char *name,
		      const char *base, unsigned provider, int64_t index)
{
	const char *colon = strrchr(name, ':');
	if (!colon)
		return 0;
	size_t len = (size_t)(colon - name);
	if (base ? strlen(base) != len || strncmp(name, base, len) != 0
		 : !dmn_dt_provider_path_is(board, provider, name, len))
		return 0;
	char suffix[24];
	snprintf(suffix, sizeof(suffix), "%" PRId64, index);
	return strcmp(colon + 1, suffix) == 0;
}

/* A domain defined by a node of its own (a nested child, or a provider
 * without cells), not one index of a provider's list. */
static int has_own_node(const struct dmn_dt_board *board, const struct dmn_dt_domain *d)
{
	return d->index < 0 ||
	       d->path_seg != board->providers[d->provider].path_seg;
}

static int domain_called(const struct dmn_dt_board *board,
			 const struct dmn_dt_domain *d, const char *name)
{
	if (in_labels(d->labels, d->n_labels, name))
		return 1;
	if (has_own_node(board, d) &&
	    dmn_dt_domain_path_is(board, (unsigned)(d - board->domains), name))
		return 1;
	if (d->index < 0)
		return 0;
	const struct dmn_dt_provider *p = &board->providers[d->provider];
	for (unsigned i = 0; i < p->n_labels; i++)
		if (is_indexed(board, name, p->labels[i], 0, d->index))
			return 1;
	return is_indexed(board, name, NULL, (unsigned)d->provider, d->index);
}

/* The node name without its unit address: "spi@880000" -> length of "spi" */
static size_t base_len(const char *node_name)
{
	const char *at = strchr(node_name, '@');
	return at ? (size_t)(at - node_name) : strlen(node_name);
}

/* The path of segment @first (-1: the root), as dmn_dt_domain_path says. */
static size_t seg_path(const struct dmn_dt_board *board, int32_t first, char *buf,
		       size_t size)
{
	const struct dmn_dt_path_seg *segs = board->path_segs;
	size_t len = 0;
	for (int32_t s = first; s >= 0; s = segs[s].parent)
		len += 1 + strlen(segs[s].name);
	if (len == 0)
		len = 1; /* the root: "/" */
	if (size == 0)
		return len;
	/* right to left, writing only what fits in the first size - 1 */
	size_t end = len, keep = len < size ? len : size - 1;
	buf[keep] = 0;
	if (first < 0 && keep)
		buf[0] = '/';
	for (int32_t s = first; s >= 0; s = segs[s].parent) {
		size_t nl = strlen(segs[s].name);
		end -= nl + 1;
		for (size_t j = 0; j <= nl; j++)
			if (end + j < keep)
				buf[end + j] = j ? segs[s].name[j - 1] : '/';
	}
	return len;
}

/* Whether the first @len bytes of @path are exactly segment @s's path. */
static bool seg_path_is(const struct dmn_dt_board *board, int32_t s,
			const char *path, size_t len)
{
	const struct dmn_dt_path_seg *segs = board->path_segs;
	if (s < 0)
		return len == 1 && path[0] == '/';
	size_t end = len;
	for (; s >= 0; s = segs[s].parent) {
		size_t nl = strlen(segs[s].name);
		if (end < nl + 1 || path[end - nl - 1] != '/' ||
		    memcmp(path + end - nl, segs[s].name, nl) != 0)
			return false;
		end -= nl + 1;
	}
	return end == 0;
}

size_t dmn_dt_domain_path(const struct dmn_dt_board *board, unsigned domain, char *buf,
		      size_t size)
{
	if (!board || domain >= board->n_domains)
		return 0;
	return seg_path(board, board->domains[domain].path_seg, buf, size);
}

bool dmn_dt_domain_path_is(const struct dmn_dt_board *board, unsigned domain,
		       const char *path)
{
	if (!board || !path || domain >= board->n_domains)
		return false;
	return seg_path_is(board, board->domains[domain].path_seg, path,
			   strlen(path));
}

size_t dmn_dt_provider_path(const struct dmn_dt_board *board, unsigned provider,
			char *buf, size_t size)
{
	if (!board || provider >= board->n_providers)
		return 0;
	return seg_path(board, board->providers[provider].path_seg, buf, size);
}

bool dmn_dt_provider_path_is(const struct dmn_dt_board *board, unsigned provider,
			 const char *path, size_t len)
{
	if (!board || !path || provider >= board->n_providers)
		return false;
	return seg_path_is(board, board->providers[provider].path_seg, path, len);
}

/*
 * The one item whose node name is @name (exactly, or when @base, without
 * its unit address): its index, -ENOENT, or -EEXIST when several have it.
 * @node_name(i) gives item i's node name, NULL for an item without a node.
 */
static int unique_node_name(const char *name, int base, unsigned n,
			    const char *(*node_name)(const void *, unsigned),
			    const void *user)
{
	size_t len = strlen(name);
	int found = -ENOENT;
	for (unsigned i = 0; i < n; i++) {
		const char *nn = node_name(user, i);
		if (!nn)
			continue;
		int hit = base ? base_len(nn) == len && !strncmp(nn, name, len)
			       : !strcmp(nn, name);
		if (!hit)
			continue;
		if (found >= 0)
			return -EEXIST;
		found = (int)i;
	}
	return found;
}

/* Node names first with the unit address, then (for a name without `@`)
 * without it. */
static int find_by_node_name(const char *name, unsigned n,
			     const char *(*node_name)(const void *, unsigned),
			     const void *user)
{
	int found = unique_node_name(name, 0, n, node_name, user);
	if (found != -ENOENT || strchr(name, '@'))
		return found;
	return unique_node_name(name, 1, n, node_name, user);
}

static const char *domain_node_name(const void *user, unsigned i)
{
	const struct dmn_dt_board *b = user;
	const struct dmn_dt_domain *d = &b->domains[i];
	if (!has_own_node(b, d))
		return NULL;
	return d->path_seg >= 0 ? b->path_segs[d->path_seg].name : "";
}

static const char *device_node_name(const void *user, unsigned i)
{
	return ((const struct dmn_dt_board *)user)->devices[i].node_name;
}

int dmn_dt_domain_find(const struct dmn_dt_board *board, const char *name)
{
	if (!board || !name)
		return -EINVAL;
	for (unsigned i = 0; i < board->n_domains; i++)
		if (strcmp(board->domains[i].name, name) == 0)
			return (int)i;
	for (unsigned i = 0; i < board->n_domains; i++)
		if (domain_called(board, &board->domains[i], name))
			return (int)i;
	return find_by_node_name(name, board->n_domains, domain_node_name,
				 board);
}

int dmn_dt_device_find(const struct dmn_dt_board *board, const char *name)
{
	if (!board || !name)
		return -EINVAL;
	for (unsigned i = 0; i < board->n_devices; i++) {
		const struct dmn_dt_device *d = &board->devices[i];
		if (strcmp(d->name, name) == 0 || strcmp(d->path, name) == 0 ||
		    in_labels(d->labels, d->n_labels, name))
			return (int)i;
	}
	return find_by_node_name(name, board->n_devices, device_node_name,
				 board);
}
