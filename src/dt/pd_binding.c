/* SPDX-License-Identifier: MIT */
/* Look-ups in the generated table of providers' domain indices
 * (pd_bindings.c, scripts/gen-pd-bindings.py). */
#include "dt_internal.h"
#include "../core/bsearch.h"

#include <string.h>

static bool compatible_before(const void *base, size_t i, const void *key)
{
	const struct dmn__dt_pd_binding *v = base;
	return strcmp(v[i].compatible, key) < 0;
}

/* The table has one row per compatible (the generator keys it by them). */
const struct dmn__dt_pd_binding *dmn__dt_pd_binding_find(const char *c)
{
	if (!c)
		return NULL;
	size_t i = dmn__lower_bound(dmn__dt_n_pd_bindings, dmn__dt_pd_bindings,
				    c, compatible_before);
	return i < dmn__dt_n_pd_bindings &&
		       !strcmp(dmn__dt_pd_bindings[i].compatible, c)
		   ? &dmn__dt_pd_bindings[i]
		   : NULL;
}

const struct dmn__dt_pd_binding *dmn__dt_pd_binding_of(const struct dmn_dt_loader *ld,
						       int32_t node)
{
	unsigned n = 0;
	dmn__dt_prop_string(ld, node, "compatible", 0, &n);
	for (unsigned i = 0; i < n; i++) {
		const struct dmn__dt_pd_binding *t = dmn__dt_pd_binding_find(
		    dmn__dt_prop_string(ld, node, "compatible", i, NULL));
		if (t)
			return t;
	}
	return NULL;
}

static bool index_before(const void *base, size_t i, const void *key)
{
	const struct dmn__dt_pd_index *v = base;
	return v[i].index < *(const uint32_t *)key;
}

/* A driver's array has one slot per index. */
const char *dmn__dt_pd_binding_name(const struct dmn__dt_pd_binding *t,
				    uint32_t index)
{
	size_t i = dmn__lower_bound(t->n_indices, t->indices, &index,
				    index_before);
	return i < t->n_indices && t->indices[i].index == index
		   ? t->indices[i].name
		   : NULL;
}
