/* SPDX-License-Identifier: MIT */
/* `domain-idle-states`: the idle-state nodes domains reference. */
#include "dt_internal.h"

#include <errno.h>
#include <string.h>

static const char *const latency_props[3] = {
    "entry-latency-us", "exit-latency-us", "min-residency-us"};

/* Turn idle-state node @node into board->idle_states[...] once. 1: a
 * state without its entry or exit latency, reported; Linux's genpd then
 * fails to parse the referencing domain's whole list
 * (of_genpd_parse_idle_states), so that domain gets none of its states. */
static int idle_state_get(struct dmn_dt_loader *ld, int32_t from, int32_t node,
			  int32_t *out)
{
	struct dmn_dt_node *n = &ld->nodes[node];
	if (n->idle_state >= 0) {
		*out = n->idle_state;
		return 0;
	}
	enum dmn_dt_idle_kind kind;
	if (dmn__dt_prop_has_string(ld, node, "compatible", "domain-idle-state"))
		kind = DMN_DT_IDLE_DOMAIN;
	else if (dmn__dt_prop_has_string(ld, node, "compatible", "arm,idle-state"))
		kind = DMN_DT_IDLE_ARM;
	else {
		const char *p = dmn__dt_node_path(ld, node);
		if (!p)
			return -ENOMEM;
		return DT_ERR(ld, -EINVAL, "phandle-wrong-kind", from,
			      "domain-idle-states",
			      "%s is not an idle state (compatible is neither "
			      "\"domain-idle-state\" nor \"arm,idle-state\")",
			      p)
			   ? -ENOMEM
			   : DT_SKIP;
	}
	uint32_t v[3] = {0, 0, 0};
	for (int i = 0; i < 3; i++) {
		int got = dmn__dt_prop_u32(ld, node, latency_props[i], &v[i]);
		if (got < 0)
			return DT_ERR(ld, -EINVAL, "prop-length", node,
				      latency_props[i],
				      "must be one 32-bit cell")
				   ? -ENOMEM
				   : DT_SKIP;
		/* min-residency-us is optional (0), the latencies are not */
		if (!got && i < 2) {
			const char *p = dmn__dt_node_path(ld, from);
			if (!p)
				return -ENOMEM;
			return DT_WARN(ld, "idle-state-latency", node,
				       latency_props[i],
				       "idle state has no %s: %s gets none of "
				       "its domain-idle-states (as Linux's genpd)",
				       latency_props[i], p)
				   ? -ENOMEM
				   : 1;
		}
	}
	struct dmn_dt_board *b = ld->board;
	struct dmn_dt_idle_state *s =
	    dmn__dt_vec_push(ld->pool, (void **)&b->idle_states, &b->n_idle_states,
			&ld->cap_idle, sizeof(*s));
	if (!s)
		return -ENOMEM;
	const char *path = dmn__dt_node_path(ld, node);
	unsigned count;
	const char *name =
	    dmn__dt_prop_string(ld, node, "idle-state-name", 0, &count);
	s->path = path ? dmn__dt_pool_strdup(ld->pool, path) : NULL;
	s->name = dmn__dt_pool_strdup(ld->pool, name ? name : n->name);
	if (!s->path || !s->name)
		return -ENOMEM;
	s->entry_latency_us = v[0];
	s->exit_latency_us = v[1];
	s->min_residency_us = v[2];
	s->kind = kind;
	n->idle_state = (int32_t)b->n_idle_states - 1;
	*out = n->idle_state;
	return 0;
}

int dmn__dt_idle_refs_resolve(struct dmn_dt_loader *ld, int32_t node, int32_t **states,
			 unsigned *n_states)
{
	int len;
	const void *v = dmn__dt_prop(ld, node, "domain-idle-states", &len);
	*states = NULL;
	*n_states = 0;
	if (!v || len == 0)
		return 0;
	if (len % 4)
		return DT_ERR(ld, -EINVAL, "prop-length", node,
			      "domain-idle-states",
			      "length %d is not a multiple of 4", len)
			   ? -ENOMEM
			   : DT_SKIP;
	unsigned n = (unsigned)len / 4;
	int32_t *out = dmn__dt_pool_alloc(ld->pool, n * sizeof(*out));
	if (!out)
		return -ENOMEM;
	unsigned k = 0;
	bool refused = false;
	for (unsigned i = 0; i < n; i++) {
		uint32_t ph = dmn__dt_cell(v, i);
		int32_t target = dmn__dt_phandle_node(ld, ph);
		int err;
		if (target < 0) {
			if (DT_ERR(ld, -ENOENT, "phandle-dangling", node,
				   "domain-idle-states",
				   "entry %u: phandle 0x%x points to no node",
				   i, ph))
				return -ENOMEM;
			continue;
		}
		/* A disabled state is left out, as genpd does. */
		if (!ld->nodes[target].own_enabled)
			continue;
		err = idle_state_get(ld, node, target, &out[k]);
		if (err == -ENOMEM)
			return err;
		if (err == 1)
			refused = true;
		if (err == 0)
			k++;
	}
	*states = out;
	*n_states = refused ? 0 : k;
	return 0;
}
