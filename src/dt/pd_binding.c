/* SPDX-License-Identifier: MIT */
/* Look-ups in the generated table of providers' domain indices
 * (pd_bindings.c, scripts/gen-pd-bindings.py). */
#include "dt_internal.h"

#include <string.h>

const struct dmn__dt_pd_binding *dmn__dt_pd_binding_find(const char *c)
{
	unsigned lo = 0, hi = dmn__dt_n_pd_bindings;
	while (c && lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		int r = strcmp(dmn__dt_pd_bindings[mid].compatible, c);
		if (!r)
			return &dmn__dt_pd_bindings[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
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

const char *dmn__dt_pd_binding_name(const struct dmn__dt_pd_binding *t,
				    uint32_t index)
{
	unsigned lo = 0, hi = t->n_indices;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (t->indices[mid].index == index)
			return t->indices[mid].name;
		if (t->indices[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
