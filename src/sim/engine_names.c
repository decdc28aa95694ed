/* SPDX-License-Identifier: MIT */
/*
 * What the names of a scenario stand for on a board: devices, domains (also
 * as DEV:NAME, the consumer's `power-domain-names` entry) and pstate levels
 * by OPP entry name. Each look-up that fails says why, with a "did you
 * mean" where a candidate is close.
 */
#include "engine_internal.h"
#include "../core/bsearch.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends to a bounded message; a full buffer just stops growing. */
struct msg {
	char *buf;
	size_t size, used;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
msg_add(struct msg *m, const char *fmt, ...)
{
	if (m->used >= m->size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(m->buf + m->used, m->size - m->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->used += (size_t)n;
}

/* "unknown device 'x'; did you mean 'y'?" over the board's names */
static int unknown(struct msg *m, const char *what, const char *name,
		   dmn_scn_name_fn name_at, void *user, size_t n)
{
	const char *hint = dmn_scn_suggest_fn(name, name_at, user, n);
	msg_add(m, "unknown %s '%s'", what, name);
	if (hint)
		msg_add(m, "; did you mean '%s'?", hint);
	return -ENOENT;
}

/* Suggestions for devices come from every name: the @i-th of each
 * device's name followed by its other labels. dmn_scn_suggest_fn asks
 * for them in order, so a cursor keeps the walk linear (one from the
 * first device per name was quadratic: 7 s for 80,000 devices). */
struct device_cursor {
	const struct dmn_dt_board *b;
	unsigned d;   /* the device holding name number @first */
	size_t first; /* the number of its first name */
};

static const char *device_name_at(void *user, size_t i)
{
	struct device_cursor *c = user;
	if (i < c->first) {
		c->d = 0;
		c->first = 0;
	}
	for (; c->d < c->b->n_devices; c->d++) {
		const struct dmn_dt_device *dev = &c->b->devices[c->d];
		size_t n = dev->n_labels > 1 ? dev->n_labels : 1;
		if (i < c->first + n)
			return i > c->first ? dev->labels[i - c->first]
					    : dev->name;
		c->first += n;
	}
	return NULL;
}

static size_t device_names(const struct dmn_dt_board *b)
{
	size_t n = 0;
	for (unsigned d = 0; d < b->n_devices; d++)
		n += b->devices[d].n_labels > 1 ? b->devices[d].n_labels : 1;
	return n;
}

static const char *domain_name_at(void *user, size_t i)
{
	return ((const struct dmn_dt_board *)user)->domains[i].name;
}

/* The name a device's @i-th domain goes by in the `via` column. */
static const char *attachment_name(const struct dmn_dt_board *b,
				   const struct dmn_dt_device *d, unsigned i)
{
	const struct dmn_dt_attachment *a = &d->attachments[i];
	return a->name ? a->name : b->domains[a->domain].name;
}

static const char *attachment_name_at(void *user, size_t i)
{
	const struct dmn_sim *sim = user;
	const struct dmn_dt_device *d = &sim->board->devices[sim->names_device];
	return attachment_name(sim->board, d, (unsigned)i);
}

void dmn__sim_attachment_names(const struct dmn_sim *sim, int device, char *buf,
			  size_t size)
{
	const struct dmn_dt_device *d = &sim->board->devices[device];
	struct msg m = {buf, size, 0};
	buf[0] = '\0';
	for (unsigned i = 0; i < d->n_attachments; i++)
		msg_add(&m, "%s%s", i ? ", " : "",
			attachment_name(sim->board, d, i));
}

static const struct dmn_sim_names *attachment_index(struct dmn_sim *sim);
static const struct dmn_sim_name *name_from(const struct dmn_sim_name *v,
					    size_t n, const char *key,
					    size_t len, int32_t from);

int dmn__sim_find_attachment(struct dmn_sim *sim, int device, const char *name,
			char *why, size_t size)
{
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_device *d = &b->devices[device];
	const struct dmn_sim_names *x = attachment_index(sim);
	if (x) {
		const struct dmn_sim_name *e =
		    name_from(x->exact, x->n_exact, name, strlen(name),
			      (int32_t)sim->att_first[device]);
		if (e && (unsigned)e->index < sim->att_first[device + 1])
			return e->index - (int32_t)sim->att_first[device];
	}
	for (unsigned i = 0; !x && i < d->n_attachments; i++) {
		const struct dmn_dt_attachment *a = &d->attachments[i];
		if ((a->name && !strcmp(a->name, name)) ||
		    !strcmp(b->domains[a->domain].name, name))
			return (int)i;
	}
	struct msg m = {why, size, 0};
	msg_add(&m, "device '%s' has no domain '%s'", d->name, name);
	sim->names_device = device;
	const char *hint =
	    dmn_scn_suggest_fn(name, attachment_name_at, sim, d->n_attachments);
	char names[200];
	dmn__sim_attachment_names(sim, device, names, sizeof(names));
	msg_add(&m, " (%s)", names);
	if (hint)
		msg_add(&m, "; did you mean '%s'?", hint);
	return -ENOENT;
}

/* ---- the name index ---------------------------------------------------- */

static int name_cmp(const void *x, const void *y)
{
	const struct dmn_sim_name *a = x, *b = y;
	int c = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);
	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

static bool name_before(const void *base, size_t i, const void *key)
{
	return name_cmp(&((const struct dmn_sim_name *)base)[i], key) < 0;
}

/* The entry of the lowest index at or above @from named @key (@len
 * bytes) in sorted @v, or NULL. */
static const struct dmn_sim_name *name_from(const struct dmn_sim_name *v,
					    size_t n, const char *key,
					    size_t len, int32_t from)
{
	struct dmn_sim_name probe = {key, len, from};
	size_t lo = dmn__lower_bound(n, v, &probe, name_before);
	if (lo == n || v[lo].len != len || memcmp(v[lo].key, key, len))
		return NULL;
	return &v[lo];
}

/* The entry of the lowest index named @key (@len bytes) in sorted @v, or
 * NULL; *@dup (when given): another index has that name too. */
static const struct dmn_sim_name *name_get(const struct dmn_sim_name *v,
					   size_t n, const char *key,
					   size_t len, int *dup)
{
	const struct dmn_sim_name *e = name_from(v, n, key, len, INT32_MIN);
	if (!e)
		return NULL;
	size_t lo = (size_t)(e - v);
	if (dup)
		*dup = lo + 1 < n && v[lo + 1].len == len &&
		       !memcmp(v[lo + 1].key, key, len) &&
		       v[lo + 1].index != v[lo].index;
	return &v[lo];
}

void dmn__sim_names_free(struct dmn_sim_names *names)
{
	if (!names)
		return;
	free(names->exact);
	free(names->node);
	free(names->base);
	free(names->called);
	free(names);
}

/* Room for @n_exact exact names and @n_node node names and bases; NULL
 * on -ENOMEM. */
static struct dmn_sim_names *names_alloc(size_t n_exact, size_t n_node)
{
	struct dmn_sim_names *x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->exact = malloc((n_exact ? n_exact : 1) * sizeof(*x->exact));
	x->node = malloc((n_node ? n_node : 1) * sizeof(*x->node));
	x->base = malloc((n_node ? n_node : 1) * sizeof(*x->base));
	if (!x->exact || !x->node || !x->base) {
		dmn__sim_names_free(x);
		return NULL;
	}
	return x;
}

static void name_add(struct dmn_sim_name *v, size_t *n, const char *key,
		     size_t len, unsigned index)
{
	v[(*n)++] = (struct dmn_sim_name){key, len, (int32_t)index};
}

static void names_sort(struct dmn_sim_names *x)
{
	qsort(x->exact, x->n_exact, sizeof(*x->exact), name_cmp);
	qsort(x->node, x->n_node, sizeof(*x->node), name_cmp);
	qsort(x->base, x->n_base, sizeof(*x->base), name_cmp);
}

/* The board's device names, sorted (NULL on -ENOMEM: look-ups scan). */
static const struct dmn_sim_names *device_index(struct dmn_sim *sim)
{
	const struct dmn_dt_board *b = sim->board;
	if (sim->dev_names)
		return sim->dev_names;
	size_t n_exact = 0;
	for (unsigned i = 0; i < b->n_devices; i++)
		n_exact += 2 + (size_t)b->devices[i].n_labels;
	struct dmn_sim_names *x = names_alloc(n_exact, b->n_devices);
	if (!x)
		return NULL;
	for (unsigned i = 0; i < b->n_devices; i++) {
		const struct dmn_dt_device *d = &b->devices[i];
		name_add(x->exact, &x->n_exact, d->name, strlen(d->name), i);
		name_add(x->exact, &x->n_exact, d->path, strlen(d->path), i);
		for (unsigned k = 0; k < d->n_labels; k++)
			name_add(x->exact, &x->n_exact, d->labels[k],
				 strlen(d->labels[k]), i);
		const char *at = strchr(d->node_name, '@');
		name_add(x->node, &x->n_node, d->node_name,
			 strlen(d->node_name), i);
		name_add(x->base, &x->n_base, d->node_name,
			 at ? (size_t)(at - d->node_name)
			    : strlen(d->node_name),
			 i);
	}
	names_sort(x);
	sim->dev_names = x;
	return x;
}

/* Every device's attachments by the names `vote DEV NAME` and `hwmode`
 * take (the power-domain-names entry, the domain's name), numbered
 * sim->att_first[device] + i: one sorted array for the board, built at
 * the first such look-up (NULL on -ENOMEM: look-ups scan). A scan of the
 * device's attachments per command was quadratic for a device of many
 * domains. */
static const struct dmn_sim_names *attachment_index(struct dmn_sim *sim)
{
	const struct dmn_dt_board *b = sim->board;
	if (sim->att_names)
		return sim->att_names;
	unsigned *first = malloc(((size_t)b->n_devices + 1) * sizeof(*first));
	if (!first)
		return NULL;
	size_t n = 0;
	for (unsigned d = 0; d < b->n_devices; d++) {
		first[d] = (unsigned)n;
		n += b->devices[d].n_attachments;
	}
	first[b->n_devices] = (unsigned)n;
	struct dmn_sim_names *x = n <= INT32_MAX ? names_alloc(2 * n, 0) : NULL;
	if (!x) {
		free(first);
		return NULL;
	}
	for (unsigned d = 0; d < b->n_devices; d++)
		for (unsigned i = 0; i < b->devices[d].n_attachments; i++) {
			const struct dmn_dt_attachment *a =
			    &b->devices[d].attachments[i];
			const char *dn = b->domains[a->domain].name;
			if (a->name)
				name_add(x->exact, &x->n_exact, a->name,
					 strlen(a->name), first[d] + i);
			name_add(x->exact, &x->n_exact, dn, strlen(dn),
				 first[d] + i);
		}
	names_sort(x);
	sim->att_names = x;
	sim->att_first = first;
	return x;
}

/* The last step of both look-ups: a node name with, then (for a name
 * without `@`) without the unit address; -EEXIST when two objects share
 * it, -ENOENT when none has it. */
static int node_lookup(const struct dmn_sim_names *x, const char *name,
		       size_t len)
{
	int dup = 0;
	const struct dmn_sim_name *e =
	    name_get(x->node, x->n_node, name, len, &dup);
	if (!e && !strchr(name, '@'))
		e = name_get(x->base, x->n_base, name, len, &dup);
	return !e ? -ENOENT : dup ? -EEXIST : e->index;
}

/* dmn_dt_device_find through the index: a name, path or label (the
 * device of the lowest index), else a node name with, then (for a name
 * without `@`) without the unit address that one device alone has. */
static int device_lookup(struct dmn_sim *sim, const char *name)
{
	const struct dmn_sim_names *x = device_index(sim);
	if (!x)
		return dmn_dt_device_find(sim->board, name);
	size_t len = strlen(name);
	const struct dmn_sim_name *e =
	    name_get(x->exact, x->n_exact, name, len, NULL);
	return e ? e->index : node_lookup(x, name, len);
}

/* ---- a domain's other names, hashed ----------------------------------
 * Two polynomial hashes modulo primes below 2^31, one in each half of
 * the key. Both compose: the hash of A followed by B is A's times the
 * base to the length of B, plus B's, so a path's hash is its parent's
 * and its last component's, and "PROVIDER:INDEX" its provider's and the
 * suffix's, without writing either string. */
#define HASH_P1 2147483647u
#define HASH_P2 2147483629u
#define HASH_B1 911382323u
#define HASH_B2 972663749u

static uint64_t hash_pack(uint64_t a, uint64_t b)
{
	return a << 32 | b;
}

static uint64_t hash_more(uint64_t h, const char *s, size_t n)
{
	uint64_t a = h >> 32, b = h & 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		a = (a * HASH_B1 + (unsigned char)s[i]) % HASH_P1;
		b = (b * HASH_B2 + (unsigned char)s[i]) % HASH_P2;
	}
	return hash_pack(a, b);
}

/* The hash of @left followed by a string of @n bytes hashed @right. */
static uint64_t hash_cat(uint64_t left, uint64_t right, size_t n)
{
	uint64_t a = left >> 32, b = left & 0xffffffffu;
	uint64_t pa = HASH_B1, pb = HASH_B2, ra = 1, rb = 1;
	for (; n; n >>= 1) {
		if (n & 1) {
			ra = ra * pa % HASH_P1;
			rb = rb * pb % HASH_P2;
		}
		pa = pa * pa % HASH_P1;
		pb = pb * pb % HASH_P2;
	}
	return hash_pack((a * ra + (right >> 32)) % HASH_P1,
			 (b * rb + (right & 0xffffffffu)) % HASH_P2);
}

static uint64_t hash_str(const char *s)
{
	return hash_more(0, s, strlen(s));
}

/* A domain defined by a node of its own (a nested child, or a provider
 * without cells), not one index of a provider's list: the domains whose
 * path and node name name them (dmn_dt_domain_find). */
static int own_node(const struct dmn_dt_board *b, unsigned i)
{
	const struct dmn_dt_domain *d = &b->domains[i];
	return d->index < 0 || d->path_seg != b->providers[d->provider].path_seg;
}

/* @name is "@base:INDEX" for this @index, @base given or, when NULL,
 * provider @p's path. */
static int indexed(const struct dmn_dt_board *b, const char *name,
		   const char *base, unsigned p, int64_t index)
{
	const char *colon = strrchr(name, ':');
	if (!colon)
		return 0;
	size_t len = (size_t)(colon - name);
	if (base ? strlen(base) != len || strncmp(name, base, len)
		 : !dmn_dt_provider_path_is(b, p, name, len))
		return 0;
	char suffix[24];
	snprintf(suffix, sizeof(suffix), "%" PRId64, index);
	return !strcmp(colon + 1, suffix);
}

/* Domain @i goes by @name after its own name: a label, its node's path,
 * a provider's label or path with its index (dmn_dt_domain_find's second
 * step, which the index's hashes only preselect). */
static int domain_called(const struct dmn_dt_board *b, unsigned i,
			 const char *name)
{
	const struct dmn_dt_domain *d = &b->domains[i];
	for (unsigned k = 0; k < d->n_labels; k++)
		if (!strcmp(d->labels[k], name))
			return 1;
	if (own_node(b, i) && dmn_dt_domain_path_is(b, i, name))
		return 1;
	if (d->index < 0)
		return 0;
	const struct dmn_dt_provider *p = &b->providers[d->provider];
	for (unsigned k = 0; k < p->n_labels; k++)
		if (indexed(b, name, p->labels[k], 0, d->index))
			return 1;
	return indexed(b, name, NULL, (unsigned)d->provider, d->index);
}

static int key_cmp(const void *x, const void *y)
{
	const struct dmn_sim_key *a = x, *b = y;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

/* Each path segment's hash ("/a/b" for b); a parent made after its child
 * (never by the loader) is hashed from the leaf up. */
static uint64_t *segment_hashes(const struct dmn_dt_board *b)
{
	uint64_t *h = malloc((b->n_path_segs ? b->n_path_segs : 1) *
			     sizeof(*h));
	if (!h)
		return NULL;
	for (unsigned s = 0; s < b->n_path_segs; s++) {
		const struct dmn_dt_path_seg *g = &b->path_segs[s];
		if (g->parent < (int32_t)s) {
			uint64_t up = g->parent < 0 ? 0 : h[g->parent];
			h[s] = hash_more(hash_more(up, "/", 1), g->name,
					 strlen(g->name));
			continue;
		}
		uint64_t acc = 0;
		size_t after = 0;
		for (int32_t t = (int32_t)s; t >= 0; t = b->path_segs[t].parent) {
			const char *n = b->path_segs[t].name;
			size_t nl = strlen(n);
			uint64_t part = hash_more(hash_more(0, "/", 1), n, nl);
			acc = hash_cat(part, acc, after);
			after += 1 + nl;
		}
		h[s] = acc;
	}
	return h;
}

/* The hashes of each provider's labels and path (from @seg, the
 * segments' hashes), provider @p's from @first[p] (labels in order, then
 * the path). */
static uint64_t *provider_hashes(const struct dmn_dt_board *b, const uint64_t *seg,
				 size_t **first)
{
	size_t n = 0;
	*first = malloc((b->n_providers ? b->n_providers : 1) * sizeof(**first));
	for (unsigned p = 0; p < b->n_providers; p++)
		n += (size_t)b->providers[p].n_labels + 1;
	uint64_t *h = malloc((n ? n : 1) * sizeof(*h));
	if (!h || !*first || !seg) {
		free(h);
		free(*first);
		*first = NULL;
		return NULL;
	}
	n = 0;
	for (unsigned p = 0; p < b->n_providers; p++) {
		const struct dmn_dt_provider *v = &b->providers[p];
		(*first)[p] = n;
		for (unsigned k = 0; k < v->n_labels; k++)
			h[n++] = hash_str(v->labels[k]);
		h[n++] = v->path_seg >= 0 ? seg[v->path_seg] : hash_str("/");
	}
	return h;
}

/* The domain index: names, node names (of domains with a node of their
 * own), and the other names hashed. NULL on -ENOMEM. */
static struct dmn_sim_names *domain_index(const struct dmn_dt_board *b)
{
	size_t n_called = 0;
	for (unsigned i = 0; i < b->n_domains; i++) {
		const struct dmn_dt_domain *d = &b->domains[i];
		n_called += d->n_labels + 1;
		if (d->index >= 0)
			n_called += b->providers[d->provider].n_labels + 1u;
	}
	struct dmn_sim_names *x = names_alloc(b->n_domains, b->n_domains);
	size_t *first = NULL;
	uint64_t *seg = segment_hashes(b), *prov = provider_hashes(b, seg, &first);
	if (x)
		x->called = malloc(n_called * sizeof(*x->called) + 1);
	if (!x || !x->called || !seg || !prov) {
		dmn__sim_names_free(x);
		free(seg);
		free(prov);
		free(first);
		return NULL;
	}
	for (unsigned i = 0; i < b->n_domains; i++) {
		const struct dmn_dt_domain *d = &b->domains[i];
		struct dmn_sim_key *k = x->called;
		name_add(x->exact, &x->n_exact, d->name, strlen(d->name), i);
		for (unsigned l = 0; l < d->n_labels; l++)
			k[x->n_called++] = (struct dmn_sim_key){
			    hash_str(d->labels[l]), (int32_t)i};
		if (own_node(b, i)) {
			const char *nn = d->path_seg >= 0
					     ? b->path_segs[d->path_seg].name
					     : "";
			const char *at = strchr(nn, '@');
			k[x->n_called++] = (struct dmn_sim_key){
			    d->path_seg >= 0 ? seg[d->path_seg]
					     : hash_more(0, "/", 1),
			    (int32_t)i};
			name_add(x->node, &x->n_node, nn, strlen(nn), i);
			name_add(x->base, &x->n_base, nn,
				 at ? (size_t)(at - nn) : strlen(nn), i);
		}
		if (d->index < 0)
			continue;
		char suffix[24];
		int sl = snprintf(suffix, sizeof(suffix), ":%" PRId64, d->index);
		uint64_t hs = hash_more(0, suffix, (size_t)sl);
		const struct dmn_dt_provider *p = &b->providers[d->provider];
		for (unsigned l = 0; l <= p->n_labels; l++)
			k[x->n_called++] = (struct dmn_sim_key){
			    hash_cat(prov[first[d->provider] + l], hs,
				     (size_t)sl),
			    (int32_t)i};
	}
	free(seg);
	free(prov);
	free(first);
	names_sort(x);
	qsort(x->called, x->n_called, sizeof(*x->called), key_cmp);
	return x;
}

static bool hash_before(const void *base, size_t i, const void *key)
{
	return ((const struct dmn_sim_key *)base)[i].hash < *(const uint64_t *)key;
}

/* dmn_dt_domain_find through the index: a domain's own name (the lowest
 * index), else the lowest index called @name otherwise, else a node name
 * with, then (for a name without `@`) without the unit address that one
 * domain alone has. Without the index (-ENOMEM), the board is scanned. */
static int domain_lookup(struct dmn_sim *sim, const char *name)
{
	const struct dmn_dt_board *b = sim->board;
	if (!sim->dom_names)
		sim->dom_names = domain_index(b);
	const struct dmn_sim_names *x = sim->dom_names;
	if (!x)
		return dmn_dt_domain_find(b, name);
	size_t len = strlen(name);
	const struct dmn_sim_name *e =
	    name_get(x->exact, x->n_exact, name, len, NULL);
	if (e)
		return e->index;
	uint64_t h = hash_more(0, name, len);
	size_t lo = dmn__lower_bound(x->n_called, x->called, &h, hash_before);
	for (; lo < x->n_called && x->called[lo].hash == h; lo++)
		if (domain_called(b, (unsigned)x->called[lo].index, name))
			return x->called[lo].index;
	return node_lookup(x, name, len);
}

int dmn__sim_find_device(struct dmn_sim *sim, const char *name, char *why, size_t size)
{
	const struct dmn_dt_board *b = sim->board;
	int i = device_lookup(sim, name);
	if (i >= 0)
		return i;
	struct msg m = {why, size, 0};
	if (i == -EEXIST) {
		/* Which devices share it: their names tell them apart. */
		size_t len = strlen(name);
		unsigned shown = 0;
		msg_add(&m, "device name '%s' is shared by several devices (",
			name);
		for (unsigned k = 0; k < b->n_devices; k++) {
			const char *n = b->devices[k].node_name;
			if (strncmp(n, name, len) || (n[len] && n[len] != '@'))
				continue;
			msg_add(&m, "%s%s", shown++ ? ", " : "",
				b->devices[k].name);
		}
		msg_add(&m, "); use its label or full path");
		return -EEXIST;
	}
	struct device_cursor c = {b, 0, 0};
	return unknown(&m, "device", name, device_name_at, &c, device_names(b));
}

int dmn__sim_find_domain(struct dmn_sim *sim, const char *name, char *why, size_t size)
{
	const struct dmn_dt_board *b = sim->board;
	int i = domain_lookup(sim, name);
	if (i >= 0)
		return i;
	if (i == -EEXIST) {
		snprintf(why, size,
			 "domain name '%s' is shared by several domains; use "
			 "its label or full path",
			 name);
		return -EEXIST;
	}
	/* DEV:NAME, as the `via` column shows a consumer's domain. */
	const char *colon = strrchr(name, ':');
	if (colon && colon != name && colon[1]) {
		char dev[256];
		size_t len = (size_t)(colon - name);
		if (len < sizeof(dev)) {
			memcpy(dev, name, len);
			dev[len] = '\0';
			int d = device_lookup(sim, dev);
			if (d >= 0) {
				int a = dmn__sim_find_attachment(sim, d, colon + 1,
							    why, size);
				return a < 0 ? a
					     : b->devices[d]
						   .attachments[a]
						   .domain;
			}
			/* `venuss:mx`: the device part is misspelt. */
			struct device_cursor c = {b, 0, 0};
			const char *hint = dmn_scn_suggest_fn(
			    dev, device_name_at, &c, device_names(b));
			int h = hint ? device_lookup(sim, hint) : -1;
			if (h >= 0 && dmn__sim_find_attachment(sim, h, colon + 1,
							  why, size) >= 0) {
				snprintf(why, size,
					 "unknown domain '%s'; did you mean "
					 "'%s:%s'?",
					 name, hint, colon + 1);
				return -ENOENT;
			}
		}
	}
	struct msg m = {why, size, 0};
	return unknown(&m, "domain", name, domain_name_at, (void *)b,
		       b->n_domains);
}

int dmn__sim_find_provider(const struct dmn_sim *sim, const char *name)
{
	const struct dmn_dt_board *b = sim->board;
	for (unsigned p = 0; p < b->n_providers; p++) {
		const struct dmn_dt_provider *pr = &b->providers[p];
		for (unsigned i = 0; i < pr->n_labels; i++)
			if (!strcmp(pr->labels[i], name))
				return (int)p;
		if (dmn_dt_provider_path_is(b, p, name, strlen(name)))
			return (int)p;
	}
	return -1;
}

/* ---- levels by name
 * ---------------------------------------------------------- */

static int entry_called(const struct dmn_dt_opp *e, const char *name)
{
	if (!e->has_level)
		return 0;
	if (e->name && !strcmp(e->name, name))
		return 1;
	for (unsigned i = 0; i < e->n_labels; i++)
		if (!strcmp(e->labels[i], name))
			return 1;
	return e->label && !strcmp(e->label, name);
}

/* The table whose levels @domain takes: its own, else the nearest
 * ancestor's (a domain without one passes its level up 1:1). -1 if none,
 * -2 on -ENOMEM. Parents are searched in link order, depth first: the
 * first parent that has a table, or whose own search finds one, gives
 * it. Each domain's answer is kept (sim->level_tables), so a scenario
 * naming levels of every domain of a deep chain costs the chain once, not
 * once per command; the walk keeps its own stack (chains are as deep as
 * the board is large). */
#define LEVEL_UNKNOWN (-3)
#define LEVEL_WALKING (-4) /* on the stack: a loop (never on a loaded board) */
static int32_t level_table(struct dmn_sim *sim, unsigned domain)
{
	const struct dmn_dt_board *b = sim->board;
	if (b->domains[domain].opp_table >= 0)
		return b->domains[domain].opp_table;
	if (!sim->level_tables) {
		sim->level_tables = malloc(b->n_domains * sizeof(int32_t));
		sim->level_stack = malloc(b->n_domains * sizeof(*sim->level_stack));
		if (!sim->level_tables || !sim->level_stack) {
			free(sim->level_tables);
			free(sim->level_stack);
			sim->level_tables = NULL;
			sim->level_stack = NULL;
			return -2;
		}
		for (unsigned i = 0; i < b->n_domains; i++)
			sim->level_tables[i] = b->domains[i].opp_table >= 0
						   ? b->domains[i].opp_table
						   : LEVEL_UNKNOWN;
	}
	int32_t *memo = sim->level_tables;
	struct dmn_sim_level_frame *stack = sim->level_stack;
	unsigned sp = 0;
	if (memo[domain] == LEVEL_UNKNOWN) {
		stack[sp++] = (struct dmn_sim_level_frame){domain, 0};
		memo[domain] = LEVEL_WALKING;
	}
	while (sp) {
		struct dmn_sim_level_frame *top = &stack[sp - 1];
		const struct dmn_dt_domain *d = &b->domains[top->dom];
		int32_t found = -1;
		for (; top->next < d->n_parents; top->next++) {
			unsigned p = (unsigned)d->parents[top->next];
			if (memo[p] == LEVEL_UNKNOWN || memo[p] >= 0)
				break;
		}
		if (top->next < d->n_parents) {
			unsigned p = (unsigned)d->parents[top->next];
			if (memo[p] >= 0) {
				found = memo[p];
			} else { /* unknown: its answer first */
				memo[p] = LEVEL_WALKING;
				stack[sp++] = (struct dmn_sim_level_frame){p, 0};
				continue;
			}
		}
		memo[top->dom] = found;
		sp--;
	}
	return memo[domain];
}

static const char *table_level_name(const struct dmn_dt_opp *e)
{
	return e->label ? e->label : e->name;
}

static const char *level_name_at(void *user, size_t i)
{
	const struct dmn_dt_opp *e =
	    &((const struct dmn_dt_opp_table *)user)->entries[i];
	return e->has_level ? table_level_name(e) : NULL;
}

int dmn__sim_find_level(const struct dmn_sim *sim, unsigned domain, const char *name,
		   uint32_t *level, char *why, size_t size)
{
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_domain *d = &b->domains[domain];
	struct msg m = {why, size, 0};
	int32_t t = level_table((struct dmn_sim *)sim, domain);
	if (t == -2) {
		msg_add(&m, "out of memory looking up level '%s'", name);
		return -ENOMEM;
	}
	if (t < 0) {
		msg_add(&m,
			"domain '%s' has no OPP table (nor have its "
			"parents), so its levels have no names; give '%s' "
			"as a number",
			d->name, name);
		return -ENOENT;
	}
	const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
	for (unsigned i = 0; i < tab->n_entries; i++)
		if (entry_called(&tab->entries[i], name)) {
			*level = tab->entries[i].level;
			return 0;
		}
	msg_add(&m, "domain '%s' has no level '%s'", d->name, name);
	const char *hint =
	    dmn_scn_suggest_fn(name, level_name_at, (void *)tab, tab->n_entries);
	if (hint) {
		msg_add(&m, "; did you mean '%s'?", hint);
		return -ENOENT;
	}
	unsigned shown = 0;
	for (unsigned i = 0; i < tab->n_entries; i++)
		if (tab->entries[i].has_level)
			msg_add(&m, "%s%s", shown++ ? ", " : " (levels: ",
				table_level_name(&tab->entries[i]));
	msg_add(&m, "%s", shown ? ")" : "");
	return -ENOENT;
}
