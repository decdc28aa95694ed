/* SPDX-License-Identifier: MIT */
/*
 * Private to src/dt: the allocation pool, the loader's working state and the
 * helpers the loader's files share.
 */
#ifndef DOMINO_DT_INTERNAL_H
#define DOMINO_DT_INTERNAL_H

#include <domino/dt.h>

#include "../core/debug.h"

#include <stdarg.h>

/* ---- pool.c: every allocation of a board, freed together ---------------- */

/*
 * A pool links each block it hands out into a list, so a board (or a load
 * that fails half way) is released by walking the list: no per-object free
 * paths to get wrong, and the failure-injection tests can fail any
 * allocation without leaking.
 */
struct dmn_dt_pool *dmn__dt_pool_create(const struct dmn_alloc_ops *ops);
void dmn__dt_pool_destroy(struct dmn_dt_pool *pool);
void *dmn__dt_pool_alloc(struct dmn_dt_pool *pool, size_t size); /* zeroed */
void dmn__dt_pool_free(struct dmn_dt_pool *pool, void *ptr);	/* NULL ok */
char *dmn__dt_pool_strdup(struct dmn_dt_pool *pool, const char *s);
char *dmn__dt_pool_strndup(struct dmn_dt_pool *pool, const char *s, size_t n);
const struct dmn_alloc_ops *dmn__dt_pool_ops(const struct dmn_dt_pool *pool);

/*
 * Grow *@array (of *@count elements of @elem bytes, capacity *@cap) so one
 * more fits; returns a pointer to the new zeroed element, or NULL (-ENOMEM).
 */
void *dmn__dt_vec_push(struct dmn_dt_pool *pool, void **array, unsigned *count,
		  unsigned *cap, size_t elem);

/* ---- the loader's working state ------------------------------------------ */

struct dmn_dt_pd_spec;

/* One FDT node, in structure-block order. */
struct dmn_dt_node {
	int offset;	/* libfdt offset */
	int32_t parent; /* index, -1 for the root */
	int depth;
	bool enabled;	  /* neither it nor an ancestor is disabled */
	bool own_enabled; /* its own status */
	uint32_t phandle; /* 0 if none */
	const char *name; /* points into the blob */
	char *label;	  /* first label from __symbols__, or NULL */
	char **labels;	  /* every label, in __symbols__ order */
	unsigned n_labels;
	/* what the loader made of it (-1 = nothing) */
	int32_t provider;
	int32_t nested_domain; /* a Rockchip nested child: the domain index */
	int32_t opp_table;
	int32_t opp_table_of_entry; /* an OPP entry: its table... */
	int32_t opp_entry;	    /* ...and its index there */
	int32_t idle_state;
	bool nested;	      /* defines a domain of an enclosing provider */
	int32_t nested_owner; /* provider index of a nested child */
	uint32_t nested_index;
	int32_t nested_parent_node; /* enclosing nested node index, or -1 */
	int32_t same_path; /* the first node with its path (itself, mostly) */
	int32_t path_seg;  /* of same_path: dmn_dt_board.path_segs index, -1 for
			    * the root, -2 until dmn__dt_node_seg() makes it */
	/* its parsed `power-domains` (enabled nodes only) */
	struct dmn_dt_pd_spec *specs;
	unsigned n_specs;
	int pd_state; /* 0 no property, 1 parsed, -1 unusable (reported) */
};

struct dmn_dt_phandle_slot {
	uint32_t phandle;
	int32_t node;
};

/* A (provider, index) some enabled node references, or a nested define. */
struct dmn_dt_domain_key {
	int32_t provider;
	int64_t index;
	int32_t node; /* defining nested node, or -1 */
};

struct dmn_dt_loader {
	const void *fdt;
	struct dmn_dt_board *board;
	struct dmn_dt_pool *pool;
	const struct dmn_dt_load_opts *opts;
	int first_error; /* errno of the first error diagnostic, 0 if none */

	struct dmn_dt_node *nodes;
	unsigned n_nodes, cap_nodes;
	struct dmn_dt_phandle_slot *phandles; /* sorted by phandle */
	unsigned n_phandles;

	/* growable arrays backing the board's arrays */
	unsigned cap_providers, cap_domains, cap_devices, cap_tables, cap_idle,
	    cap_diags;

	struct dmn_dt_domain_key *keys;
	unsigned n_keys, cap_keys;
	unsigned cap_path_segs; /* of dmn_dt_board.path_segs */
	struct dmn_dt_link_walk *walk; /* graph.c's cycle check, made on first use */
	char *path_buf[4];	   /* dmn__dt_node_path's results, in turn */
	size_t path_cap[4];
	unsigned path_next;
};

/* ---- diag.c ---------------------------------------------------------------
 */

/* Record a diagnostic on node @node (index, or -1 for "/"). Returns 0, or
 * -ENOMEM, which every caller passes on: the load's one error channel is
 * its return value. Errors set ld->first_error. */
DMN_MUST_CHECK int dmn__dt_diag_add(struct dmn_dt_loader *ld, enum dmn_dt_severity sev, int error,
		const char *check, int32_t node, const char *property,
		const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
#define DT_ERR(ld, err, check, node, prop, ...)                                \
	dmn__dt_diag_add(ld, DMN_DT_SEV_ERROR, err, check, node, prop, __VA_ARGS__)
#define DT_WARN(ld, check, node, prop, ...)                                    \
	dmn__dt_diag_add(ld, DMN_DT_SEV_WARNING, 0, check, node, prop, __VA_ARGS__)
#define DT_NOTE(ld, check, node, prop, ...)                                    \
	dmn__dt_diag_add(ld, DMN_DT_SEV_NOTE, 0, check, node, prop, __VA_ARGS__)

/*
 * DT_SKIP: the loader's internal status "this entry was reported and left
 * out; go on with the next". Never an errno: it lies outside the range of
 * every errno (Linux's go up to 4095), so no caller can take it for one,
 * and dmn_dt_load turns it into 0 before it returns (tests/dt: skip_status).
 * DT_ERR_OR_SKIP(report): -ENOMEM when recording the diagnostic failed,
 * else DT_SKIP.
 */
#define DT_SKIP (-4096)
#define DT_ERR_OR_SKIP(report) ((report) ? -ENOMEM : DT_SKIP)

/* ---- blob.c ---------------------------------------------------------------
 */

/* Validate, then index every node (parents, status, phandles, labels). */
int dmn__dt_blob_index(struct dmn_dt_loader *ld);
/* The node with @phandle, or -1. O(log N). */
int32_t dmn__dt_phandle_node(const struct dmn_dt_loader *ld, uint32_t phandle);
/* Full path of node @node, valid until the fourth call after this one
 * (store a copy); NULL only on -ENOMEM. O(depth). */
const char *dmn__dt_node_path(struct dmn_dt_loader *ld, int32_t node);
/* Domain @dom's full path, in the same buffers as dmn__dt_node_path's. */
const char *dmn__dt_domain_path_tmp(struct dmn_dt_loader *ld, int32_t dom);
/* Sets *@seg to node @node's dmn_dt_board.path_segs index (-1 for the root),
 * making the segments of it and its ancestors that are missing: O(the
 * missing ones). 0 or -ENOMEM. */
int dmn__dt_node_seg(struct dmn_dt_loader *ld, int32_t node, int32_t *seg);
/* A property of node @node, or NULL (then *@len is 0 or a libfdt error). */
const void *dmn__dt_prop(const struct dmn_dt_loader *ld, int32_t node, const char *name,
		    int *len);
bool dmn__dt_has_prop(const struct dmn_dt_loader *ld, int32_t node, const char *name);
/* A 4-byte property: 1 and *@value, 0 if absent, -1 if of another length. */
int dmn__dt_prop_u32(const struct dmn_dt_loader *ld, int32_t node, const char *name,
		uint32_t *value);
/* Cell @i of a property already known to hold enough cells. */
uint32_t dmn__dt_cell(const void *prop, unsigned i);
/* Whether a string-list property contains @s. */
bool dmn__dt_prop_has_string(const struct dmn_dt_loader *ld, int32_t node,
			const char *name, const char *s);
/* The @i-th string of a string list, or NULL; *@n receives the count. */
const char *dmn__dt_prop_string(const struct dmn_dt_loader *ld, int32_t node,
			   const char *name, unsigned i, unsigned *n);

/* ---- the stages, in the order dmn_dt_load runs them ------------------------- */

/* idle_states.c: resolve @node's domain-idle-states into board indices */
int dmn__dt_idle_refs_resolve(struct dmn_dt_loader *ld, int32_t node, int32_t **states,
			 unsigned *n_states);
int dmn__dt_opp_tables_scan(struct dmn_dt_loader *ld); /* opp_tables.c */
/* opp-supported-hw of a table: the cells of one group (the length of its
 * shortest opp-supported-hw, 0 if none), and whether the board's version
 * has fewer values than that (some cells go unchecked: two entries that
 * both carry the property may then be meant for different chips). O(n)
 * for n entries. */
unsigned dmn__dt_opp_hw_width(const struct dmn_dt_opp_table *t);
bool dmn__dt_opp_hw_partial(const struct dmn_dt_board *b, const struct dmn_dt_opp_table *t);
int dmn__dt_opp_ref_resolve(struct dmn_dt_loader *ld, int32_t node, const char *prop,
		       struct dmn_dt_opp_ref **refs, unsigned *n_refs);
int dmn__dt_opp_table_resolve(struct dmn_dt_loader *ld, int32_t node, int32_t *table);
/* The node's dynamic-power-coefficient into *@coefficient, 0 when absent
 * or not one cell (a warning, prop-length: only energy needs it). 0 or
 * -ENOMEM. */
int dmn__dt_dynamic_power(struct dmn_dt_loader *ld, int32_t node, uint32_t *coefficient);
int dmn__dt_providers_scan(struct dmn_dt_loader *ld); /* providers.c */
int dmn__dt_domains_build(struct dmn_dt_loader *ld);  /* providers.c */
int dmn__dt_consumers_scan(struct dmn_dt_loader *ld); /* consumers.c */
/* names.c: "LABEL-or-PATH[:INDEX]" (pool) of provider @p at @node / a
 * device's name */
char *dmn__dt_domain_name(struct dmn_dt_loader *ld, const struct dmn_dt_provider *p,
		     int32_t node, int64_t index);
char *dmn__dt_device_name(struct dmn_dt_loader *ld, int32_t node);

/*
 * consumers.c: parse one `power-domains` property into specifiers. Returns
 * 0, -ENOMEM, or DT_SKIP when some entry cannot be used (reported; a
 * consumer is then skipped, a provider keeps its usable parents). On
 * DT_SKIP *@specs holds the entries parsed before parsing had to stop, each
 * with @usable set when it resolved.
 */
struct dmn_dt_pd_spec {
	int32_t provider; /* index into board->providers, or -1 (nested) */
	int64_t index;
	const void *args; /* the cells after the index, in the blob */
	unsigned n_args;
	int32_t node; /* target node */
	bool usable;  /* resolved to an enabled provider */
};
int dmn__dt_pd_parse(struct dmn_dt_loader *ld, int32_t node, struct dmn_dt_pd_spec **specs,
		unsigned *n_specs);

/*
 * provider_parents.c: how a provider's own power-domains parent its
 * domains. _plan reports how a provider's several named parents are
 * applied (provider-parents-all: a note, or a warning where
 * DMN_DT_LOAD_PARENTS_ALL overrides a known driver's mapping) and sets
 * *@by_name when they are to be mapped by name (a known compatible and no
 * DMN_DT_LOAD_PARENTS_ALL); 0 or -ENOMEM. _named_parents gives such a provider's
 * domain @d its "bus" parent and its own: 0 and *@n_out (1 or 2), -ENOENT
 * when a name is missing (reported: the caller links all parents), or
 * -ENOMEM.
 */
int dmn__dt_provider_parents_plan(struct dmn_dt_loader *ld, int32_t pi, int32_t node,
			     bool *by_name);
int dmn__dt_domain_named_parents(struct dmn_dt_loader *ld, int32_t node,
			    const struct dmn_dt_domain *d, int32_t out[2],
			    unsigned *n_out);

/* provider_parents.c: parents a provider's Linux driver links by
 * compatible alone (rpmhpd's CX under MX, MMCX under CX): the table of
 * provider node @node, or NULL; the parent index of domain index @index
 * in it, or -1; _note reports the links provider @pi got from table @t
 * (a note naming the driver; nothing when none): 0 or -ENOMEM. */
struct driver_parents;
const struct driver_parents *dmn__dt_driver_parents(const struct dmn_dt_loader *ld,
						    int32_t node);
int64_t dmn__dt_driver_parent(const struct driver_parents *t, int64_t index);
int dmn__dt_driver_parents_note(struct dmn_dt_loader *ld, int32_t pi,
				int32_t node, const struct driver_parents *t);

/*
 * pd_bindings.c (generated by scripts/gen-pd-bindings.py from Linux's
 * dt-bindings headers and the drivers that register them): for a provider
 * compatible, the domain indices its Linux driver registers and each one's
 * dt-bindings name. @n_domains is the size of the driver's array (an index
 * at or past it fails genpd's xlate, -EINVAL); @indices lists the slots it
 * fills, ascending (another index below @n_domains is an empty slot,
 * -ENOENT). pd_binding.c looks them up.
 */
struct dmn__dt_pd_index {
	uint32_t index;
	const char *name;
};
struct dmn__dt_pd_binding {
	const char *compatible;
	const char *driver; /* the Linux file the indices come from */
	const char *header; /* the dt-bindings header(s) naming them */
	uint32_t n_domains;
	const struct dmn__dt_pd_index *indices;
	unsigned n_indices;
};
extern const struct dmn__dt_pd_binding dmn__dt_pd_bindings[]; /* by compatible */
extern const unsigned dmn__dt_n_pd_bindings;
/* The binding of compatible @c, or NULL. O(log n). */
const struct dmn__dt_pd_binding *dmn__dt_pd_binding_find(const char *c);
/* The binding of node @node: its first compatible string with one. */
const struct dmn__dt_pd_binding *dmn__dt_pd_binding_of(const struct dmn_dt_loader *ld,
						       int32_t node);
/* The dt-bindings name of domain @index, or NULL when the driver registers
 * no domain there. O(log n). */
const char *dmn__dt_pd_binding_name(const struct dmn__dt_pd_binding *t,
				    uint32_t index);

/* The domain index of a spec, once domains exist; -1 if none. */
int32_t dmn__dt_spec_domain(const struct dmn_dt_loader *ld, const struct dmn_dt_pd_spec *s);

/*
 * graph.c: would the link child -> parent close a cycle, over the links
 * recorded so far? Returns 1 or 0, or -ENOMEM. Cost: O(min(ancestors of
 * @parent, descendants of @child)), with heap stacks (no recursion).
 */
int dmn__dt_link_would_cycle(struct dmn_dt_loader *ld, int32_t child, int32_t parent);
/* graph.c: remember the link (for the downward half of the check). Returns
 * 0 or -ENOMEM. O(1) amortised. */
int dmn__dt_link_record(struct dmn_dt_loader *ld, int32_t child, int32_t parent);

/* providers.c: add the link child -> parent unless it closes a cycle. */
int dmn__dt_domain_link(struct dmn_dt_loader *ld, int32_t child, int32_t parent,
		   int32_t node, const char *property);

#endif /* DOMINO_DT_INTERNAL_H */
