/* SPDX-License-Identifier: MIT */
/*
 * domino - the device-tree loader.
 *
 * Two stages, data flowing one way (blob -> model -> engine):
 *
 *  1. dmn_dt_load() parses a flattened device tree blob held in memory (libfdt;
 *     no file I/O: firmware links its blob in) into a struct dmn_dt_board, a
 *     plain self-contained model of the board's power domains, devices, OPP
 *     tables and idle states, plus the diagnostics found on the way. The
 *     model points into nothing: the blob may be freed once dmn_dt_load returns.
 *     It depends on no other part of libdomino (only the dmn_alloc_ops type).
 *  2. dmn_dt_instantiate() builds that model into a struct dmn_ctx through the
 *     public core and OPP APIs (domain.h, opp.h).
 *
 * Device-tree contract (docs/device-tree.md), as the loader applies it
 *  - Providers: enabled nodes with `#power-domain-cells` 0 (one domain) or
 *    N >= 1 (domains indexed by a specifier's first cell; the N - 1 cells
 *    after it are the consumer's arguments, kept on its attachment, see
 *    struct dmn_dt_attachment). PSCI `power-domain-*` nodes are providers like
 *    any other.
 *  - A provider with cells has the domains that an enabled consumer or
 *    provider references, plus (one-cell providers) those its enabled
 *    nested children define:
 *    children (at any depth, through other such children) with both `reg`
 *    and `#power-domain-cells` define domain reg[0] (Rockchip's
 *    `power-domain@N`), and their nesting is the subdomain hierarchy. A
 *    number defined twice is a note: the first definition gives the
 *    domain's properties, and the domain enclosing each definition is a
 *    parent (RK3588's RKVDEC0/1 sit under VCODEC and VDPU, and Linux's
 *    Rockchip driver makes them subdomains of both).
 *  - Parents a provider's Linux driver links by compatible alone, with
 *    nothing in the tree to say so: Qualcomm rpmhpd's CX under MX
 *    (sdm670, sdm845, sdx55, sdx65, sm6350, sm7150, sm8150, sa8155p,
 *    sm8250, sm8350, sc7180, sc8180x) and MMCX under CX (sm8450, sm8550,
 *    sm8650), the _AO rails alike; rpmpd's GX under MX (sm6375). Such a parent exists once its child
 *    does (Linux's driver creates every rail), and a level passes up 1:1.
 *  - A provider's own `power-domains` makes each of its domains a child of
 *    the referenced domains, unless `power-domains-child-ids` says which
 *    domain each entry parents (Linux 7.2: entry i parents domain ids[i];
 *    all or none); its `operating-points-v2` gives its domains
 *    their levels; its `required-opps` are floors its domains require of
 *    their parents while on (matched to the parents by the two-pass rule).
 *  - Devices: enabled nodes with `power-domains` that are not providers,
 *    with `power-domain-names`, `operating-points-v2` and device-level
 *    `required-opps`; and nodes with `operating-points-v2` but no
 *    `power-domains` whose table requires, or is required as, a table
 *    without levels (device-to-device requirements: devices with no
 *    domains, see struct dmn_dt_requirement).
 *  - A node is enabled when neither it nor an ancestor has a `status` other
 *    than "okay"/"ok". Disabled nodes are skipped; references to them from
 *    enabled nodes are warned about. A consumer whose `power-domains` cannot
 *    be resolved is skipped with a warning. A subdomain link that would
 *    close a cycle is dropped with a warning.
 *  - OPP tables are the nodes whose compatible list holds
 *    "operating-points-v2" and whose own status is enabled (a table is data
 *    reached by phandle, so the status of its ancestors does not matter);
 *    every child is an entry.
 *  - Names: a domain is called by its provider's first label (from
 *    /__symbols__, present when the blob was built with `dtc -@`), else the
 *    provider's full path, plus ":INDEX" for providers with cells. A device is
 *    called by its first label, else its full path. Every label of a node
 *    names it too, and so does its path: dmn_dt_device_find() and
 *    dmn_dt_domain_find() say exactly what they accept.
 *
 * Allocation: everything goes through the allocator given in struct
 * dmn_dt_load_opts (malloc/free by default); dmn_dt_board_free() releases it all.
 * Nothing is printed: diagnostics are collected in the board and, as they
 * are found, handed to an optional caller-supplied sink.
 */
#ifndef DOMINO_DT_H
#define DOMINO_DT_H

#include <domino/context.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- diagnostics ----------------------------------------------------------
 */

/** enum dmn_dt_severity - how bad a diagnostic is */
enum dmn_dt_severity {
	DMN_DT_SEV_ERROR,	/* the tree is wrong: dmn_dt_load fails unless lenient */
	DMN_DT_SEV_WARNING, /* something was skipped or dropped; loading goes on */
	DMN_DT_SEV_NOTE,	/* worth knowing; nothing was lost */
};

/**
 * struct dmn_dt_diag - one finding about the tree
 * @severity: see enum dmn_dt_severity
 * @check:    stable check code, e.g. "pd-cells-mismatch" (static string;
 *            the list is in docs of dmn_dt_load below)
 * @node:     full path of the node concerned ("/" for the blob as a whole)
 * @property: the property concerned, or NULL
 * @message:  one line, no trailing newline
 * @error:    for errors, the negative errno dmn_dt_load reports for it; else 0
 */
struct dmn_dt_diag {
	enum dmn_dt_severity severity;
	const char *check;
	const char *node;
	const char *property;
	const char *message;
	int error;
};

/**
 * typedef dmn_dt_diag_fn - a diagnostics sink, called once per diagnostic in
 * the order they are found, while dmn_dt_load runs. @diag and its strings are
 * only valid during the call (the board keeps its own copy).
 */
typedef void (*dmn_dt_diag_fn)(void *user, const struct dmn_dt_diag *diag);

/**
 * dmn_dt_severity_name - "error", "warning" or "note"
 * returns: a static string; "?" for an unknown value.
 */
const char *dmn_dt_severity_name(enum dmn_dt_severity severity);

/**
 * dmn_dt_diag_format - render a diagnostic as docs/command-line.md (Errors
 *   and output) prints it:
 *   "FILE: NODE-PATH: PROPERTY: SEVERITY: MESSAGE" (the PROPERTY part is left
 *   out when the diagnostic has none; "FILE: " too when @file is NULL)
 * @buf, @size: output, always NUL-terminated when @size > 0 (truncated if
 *   too small); @buf may be NULL when @size is 0
 * returns: the length the full line needs (without the NUL, as snprintf),
 *   or -EINVAL if @diag is NULL.
 * cost: O(length).
 */
int dmn_dt_diag_format(const struct dmn_dt_diag *diag, const char *file, char *buf,
		   size_t size);

/* ---- the board model --------------------------------------------------------
 */

/** struct dmn_dt_opp_ref - a required OPP: entry @entry of table @table (indices
 * into dmn_dt_board.opp_tables and that table's entries) */
struct dmn_dt_opp_ref {
	int32_t table;
	int32_t entry;
};

/** struct dmn_dt_opp_supply - one supply's voltages (µV) and current (µA; 0 if
 * not given); a single opp-microvolt cell gives min = target = max */
struct dmn_dt_opp_supply {
	uint32_t microvolt;
	uint32_t microvolt_min;
	uint32_t microvolt_max;
	uint32_t microamp;
};

/**
 * struct dmn_dt_opp - one OPP entry, in DT order
 * @name:        node name, e.g. "opp-1200000000"
 * @label:       its first label (e.g. "rpmhpd_opp_low_svs"), or NULL
 * @hz, @n_hz:   every opp-hz value (64-bit, from u32 pairs; zeros kept)
 * @has_level, @level: opp-level
 * @supplies, @n_supplies: opp-microvolt (one or three cells per supply) and
 *               opp-microamp; `opp-microvolt-<name>` variants are ignored
 * @microwatt, @n_microwatt: opp-microwatt, one value per supply
 * @required, @n_required: required-opps, resolved
 * @supported_hw, @n_supported_hw: opp-supported-hw cells
 * @suspend, @turbo: opp-suspend, turbo-mode
 * @enabled:     the entry's own status is okay
 * @hw_ok:       true without opp-supported-hw; with it, true only when a
 *               hardware version was given and, for some group of W cells
 *               (W = the table's shortest opp-supported-hw), every cell
 *               that has a version value (the first min(W, values)) ANDed
 *               with that value is non-zero; false when the length is not
 *               a multiple of W
 * @duplicate_of: -1, or the index of an earlier available entry equal to
 *               this one in every opp-hz value and level
 * @available:   enabled && hw_ok && duplicate_of < 0
 */
struct dmn_dt_opp {
	char *name;
	char *label;
	char **labels; /* every label of the entry's node (@label first) */
	unsigned n_labels;
	uint64_t *hz;
	unsigned n_hz;
	bool has_level;
	uint32_t level;
	struct dmn_dt_opp_supply *supplies;
	unsigned n_supplies;
	uint32_t *microwatt;
	unsigned n_microwatt;
	struct dmn_dt_opp_ref *required;
	unsigned n_required;
	uint32_t *supported_hw;
	unsigned n_supported_hw;
	bool suspend;
	bool turbo;
	bool enabled;
	bool hw_ok;
	int32_t duplicate_of;
	bool available;
};

/**
 * struct dmn_dt_opp_table - one "operating-points-v2" table
 * @path, @label: node path and first label (NULL if none)
 * @shared:       opp-shared
 * @has_level:    some entry has opp-level (a domain's levels); a table
 *               without any is a device's: required-opps into it are
 *               device-to-device requirements (see dmn_dt_requirement)
 * @entries, @n_entries: every child node, in DT order
 * @n_hw_unavailable: entries made unavailable by opp-supported-hw
 */
struct dmn_dt_opp_table {
	char *path;
	char *label;
	bool shared;
	bool has_level;
	struct dmn_dt_opp *entries;
	unsigned n_entries;
	unsigned n_hw_unavailable;
};

/** enum dmn_dt_idle_kind - the compatible of an idle-state node */
enum dmn_dt_idle_kind {
	DMN_DT_IDLE_DOMAIN, /* "domain-idle-state" */
	DMN_DT_IDLE_ARM,	/* "arm,idle-state" (PSCI CPU states) */
};

/**
 * struct dmn_dt_idle_state - one node referenced by `domain-idle-states`
 * @name: idle-state-name, else the node name
 * Latencies are in microseconds (0 when the property is absent).
 */
struct dmn_dt_idle_state {
	char *path;
	char *name;
	uint32_t entry_latency_us;
	uint32_t exit_latency_us;
	uint32_t min_residency_us;
	enum dmn_dt_idle_kind kind;
};

/**
 * struct dmn_dt_floor - a level a provider's domains require of one parent
 * while on (from the provider's own required-opps, two-pass matched)
 * @parent: domain index; @level: opp-level; @ref: the required OPP
 */
struct dmn_dt_floor {
	int32_t parent;
	uint32_t level;
	struct dmn_dt_opp_ref ref;
};

/**
 * struct dmn_dt_provider - an enabled node with #power-domain-cells
 * @path_seg: its node, as an index into dmn_dt_board.path_segs (-1 for the
 *   root "/"). The full path is not stored: 10,000 unlabelled providers
 *   nested in one another would take O(depth^2) bytes (the member
 *   `char *path` until 2026-12); dmn_dt_provider_path() builds it, and
 *   dmn_dt_provider_path_is() compares it, in O(its length).
 * @label, @compatible (first string or NULL), @status (NULL if the
 *   node has none)
 * @cells:    #power-domain-cells
 * @opp_table: its operating-points-v2 table index, or -1
 * @required, @n_required: its own required-opps
 * @floors, @n_floors: those required-opps matched to @parents
 * @parents, @n_parents: domains from its own power-domains (indices, in
 *   order, without repeats): the parents of each of its domains, except
 *   nested children (whose parent is the enclosing domain), links
 *   dropped as cycles, and, without DMN_DT_LOAD_PARENTS_ALL, a known i.MX8M
 *   block controller's domains (each under "bus" and its own entry); see
 *   dmn_dt_domain.parents, the links actually made
 * @first_domain, @n_domains: its domains are dmn_dt_board.domains[first_domain
 *   .. first_domain + n_domains - 1], by increasing index
 * @cpu:      1 for a PSCI power-domain node (a child of a node compatible
 *   "arm,psci..."): its domains are CPU domains (Linux's cpuidle-psci-domain
 *   registers them with GENPD_FLAG_CPU_DOMAIN; domain.h DMN_FLAG_CPU_DOMAIN)
 */
struct dmn_dt_provider {
	int32_t path_seg;
	char *label;
	char **labels; /* every label of the node (@label is the first) */
	unsigned n_labels;
	char *compatible;
	char *status;
	uint32_t cells;
	int32_t opp_table;
	struct dmn_dt_opp_ref *required;
	unsigned n_required;
	struct dmn_dt_floor *floors;
	unsigned n_floors;
	int32_t *parents;
	unsigned n_parents;
	int32_t first_domain;
	unsigned n_domains;
	int cpu;
};

/**
 * struct dmn_dt_domain - one power domain
 * @name:     see the naming rule above, e.g. "rpmhpd:9"
 * @path_seg: the node defining it (the provider, or a nested child), as
 *   an index into dmn_dt_board.path_segs, or -1 for the root "/". The full path
 *   is not stored: 100,000 nested domains would take O(depth^2) bytes (the
 *   member `char *path` until 2026-12); dmn_dt_domain_path() builds it, and
 *   dmn_dt_domain_path_is() compares it, in O(its length).
 * @provider: index into dmn_dt_board.providers
 * @index:    the specifier's first cell (providers with cells), or -1
 * @parents, @n_parents: parent domains (indices into dmn_dt_board.domains)
 * @idle_states, @n_idle_states: indices into dmn_dt_board.idle_states, in
 *   domain-idle-states order (shallowest first)
 * @opp_table: its provider's OPP table (its levels), or -1
 * @labels, @n_labels: every label of the node defining it when that node
 *   defines only this domain (a nested child, or a provider without
 *   cells); else none
 */
struct dmn_dt_domain {
	char *name;
	int32_t path_seg;
	char **labels;
	unsigned n_labels;
	int32_t provider;
	int64_t index;
	int32_t *parents;
	unsigned n_parents;
	int32_t *idle_states;
	unsigned n_idle_states;
	int32_t opp_table;
};

/** struct dmn_dt_attachment - one `power-domains` entry of a device: @domain
 * (index), its `power-domain-names` entry (NULL if none), and @args,
 * @n_args: the specifier's cells after the index, as the consumer gave
 * them to a provider of two or more cells (TI K3: 1 = exclusive); kept,
 * shown, never creating domains */
struct dmn_dt_attachment {
	int32_t domain;
	char *name;
	uint32_t *args;
	unsigned n_args;
};

/**
 * struct dmn_dt_device - an enabled consumer of power domains
 * @name:  first label, else @path
 * @path:  full node path
 * @node_name: the last path component, e.g. "video-codec@aa00000"
 * @labels, @n_labels: every label of the node, in /__symbols__ order (the
 *   first is @name); none without labels
 * @attachments, @n_attachments: in power-domains order (a domain listed
 *   twice is kept once, with a warning)
 * @opp_table: operating-points-v2 table index, or -1
 * @required, @n_required: device-level required-opps (fixed votes while
 *   active when the device has no OPP table)
 * @parent: the runtime-PM parent's device index (dmn_device_set_parent),
 *   or -1: the nearest enclosing device through nodes compatible
 *   "simple-pm-bus" only (Linux's simple-pm-bus enables runtime PM on the
 *   bus; a bus without power-domains passes its own parent on). A
 *   `simple-bus` gives none. Always below the device's own index.
 * @dynamic_power_coefficient: the node's `dynamic-power-coefficient` (the
 *   Energy Model's capacitance, on CPUs and some GPUs), read where the
 *   device has an OPP table; 0 when absent or not one cell (a warning)
 *   (docs/energy.md)
 */
struct dmn_dt_device {
	char *name;
	char *path;
	char *node_name;
	char **labels;
	unsigned n_labels;
	struct dmn_dt_attachment *attachments;
	unsigned n_attachments;
	int32_t opp_table;
	struct dmn_dt_opp_ref *required;
	unsigned n_required;
	int wakeup_source; /* `wakeup-source` (docs/lifecycle.md) */
	int32_t parent;
	uint32_t dynamic_power_coefficient;
};

/**
 * struct dmn_dt_requirement - a device-to-device requirement
 * (docs/device-tree.md, Device-to-device requirements):
 * device @device's OPP table has entries whose required-opps point into
 * table @table, which has no opp-level (MediaTek's CPUs require their
 * CCI's OPPs). Its owners are the devices whose opp_table is @table; while
 * the device is active they run at least at the OPP its entry requires.
 * A @table no device owns is warned about ("opp-table-no-owner").
 */
struct dmn_dt_requirement {
	int32_t device;
	int32_t table;
};

/**
 * struct dmn_dt_path_seg - one node of a domain's or provider's path:
 * @name, its node name ("power-domain@12"), and @parent, its parent node's
 * segment in dmn_dt_board.path_segs, or -1 when the parent is the root.
 * Nodes with equal paths share a segment; each node on some domain's or
 * provider's path has one.
 */
struct dmn_dt_path_seg {
	int32_t parent;
	char *name;
};

struct dmn_dt_pool;

/**
 * struct dmn_dt_board - the whole model; read-only for the caller
 * @model:   root `model`, or NULL
 * @compatible, @n_compatible: root compatible strings
 * @n_errors, @n_warnings, @n_notes: counts of @diags by severity
 * @requirements, @n_requirements: device-to-device requirements, by
 *   requiring device
 * @n_opp_hw_unavailable: entries made unavailable by opp-supported-hw
 * @supported_hw, @n_supported_hw: the hardware version used
 */
struct dmn_dt_board {
	char *model;
	char **compatible;
	unsigned n_compatible;
	struct dmn_dt_provider *providers;
	unsigned n_providers;
	struct dmn_dt_domain *domains;
	unsigned n_domains;
	struct dmn_dt_path_seg *path_segs; /* see dmn_dt_domain.path_seg */
	unsigned n_path_segs;
	struct dmn_dt_device *devices;
	unsigned n_devices;
	struct dmn_dt_opp_table *opp_tables;
	unsigned n_opp_tables;
	struct dmn_dt_idle_state *idle_states;
	unsigned n_idle_states;
	struct dmn_dt_requirement *requirements;
	unsigned n_requirements;
	struct dmn_dt_diag *diags;
	unsigned n_diags;
	unsigned n_errors;
	unsigned n_warnings;
	unsigned n_notes;
	unsigned n_opp_hw_unavailable;
	uint32_t *supported_hw;
	unsigned n_supported_hw;
	struct dmn_dt_pool *pool; /* private */
};

/* ---- stage 1: loading
 * --------------------------------------------------------- */

#define DMN_DT_LOAD_LENIENT (1u << 0) /* keep going after errors; see dmn_dt_load */
/* Apply every entry of a provider's own power-domains to each of its
 * domains even where its Linux driver maps them by power-domain-names: by
 * default a known i.MX8M block controller's domain is a child of the "bus"
 * entry and of the entry its driver names for it, as Linux's
 * imx8m-blk-ctrl.c and imx8mp-blk-ctrl.c do (docs/device-tree.md,
 * Parents). This flag keeps the generic rule, for comparison. */
#define DMN_DT_LOAD_PARENTS_ALL (1u << 1)

/**
 * struct dmn_dt_load_opts - how to load; every member may be zero
 * @alloc: allocator (both members set), or NULL for malloc/free
 * @supported_hw, @n_supported_hw: the hardware version, one u32 per cell
 *   of a group (any number; copied; each table reads as many as its groups
 *   have cells, see dmn_dt_opp.hw_ok); none given = entries with
 *   opp-supported-hw are unavailable (counted, and reported as
 *   "opp-needs-hw-version")
 * @flags: DMN_DT_LOAD_*
 * @diag, @diag_user: optional sink, see dmn_dt_diag_fn
 */
struct dmn_dt_load_opts {
	const struct dmn_alloc_ops *alloc;
	const uint32_t *supported_hw;
	unsigned n_supported_hw;
	unsigned flags;
	dmn_dt_diag_fn diag;
	void *diag_user;
};

/**
 * dmn_dt_load - parse a device tree blob into a board model
 * @blob, @size: the blob in memory and the size of the buffer holding it
 *   (the header's totalsize must fit); it need not be aligned (a misaligned
 *   blob is copied once)
 * @opts: see struct dmn_dt_load_opts, or NULL for the defaults
 * @out:  receives the board
 *
 * The whole blob is validated with fdt_check_full() before any other libfdt
 * call, so a truncated or corrupt blob is rejected and never read out of
 * bounds; every property is length-checked before it is read.
 *
 * Check codes (severity, and the errno for errors):
 *  errors
 *   "dt-corrupt"             blob fails validation (-EILSEQ)
 *   "pd-cells-mismatch"      a power-domains specifier does not fit the
 *                            property length (-EINVAL)
 *   "phandle-dangling"       required-opps / operating-points-v2 /
 *                            domain-idle-states phandle points nowhere
 *                            (-ENOENT)
 *   "phandle-wrong-kind"     ... points at a node of the wrong kind (not an
 *                            OPP table / OPP entry / idle state) (-EINVAL)
 *   "prop-length"            a property of impossible length (-EINVAL)
 *   "opp-required-cycle"     required-opps lead back into the entry's own
 *                            level table, directly or through others
 *                            (-EINVAL; the reference closing the cycle is
 *                            dropped; between device tables: a warning)
 *  warnings
 *   "pd-dangling-phandle"    power-domains phandle points nowhere (the
 *                            consumer is skipped / the parent link dropped)
 *   "pd-not-provider"        ... points at a node without #power-domain-cells
 *   "consumer-of-disabled-provider"  ... points at a disabled provider
 *   "pd-names-count"         power-domain-names count differs from the
 *                            power-domains count
 *   "pd-duplicate-domain"    a device lists the same domain twice
 *   "domain-defined-twice"   a nested power-domain@N number repeats (a
 *                            note: each enclosing domain is a parent)
 *   "graph-cycle"            a subdomain link would close a cycle: dropped
 *   "opp-duplicate"          an entry equal to an earlier one: not available
 *   "opp-needs-hw-version"   a table has opp-supported-hw entries and no
 *                            version was given (once per table)
 *   "opp-supported-hw-count" entries whose opp-supported-hw length is not
 *                            a multiple of the table's group (its shortest
 *                            opp-supported-hw): they are unavailable (once
 *                            per table, only when a version was given)
 *   "opp-required-unmatched" a required OPP matches none of the node's
 *                            domains (ignored)
 *   "opp-required-no-level"  a required OPP without opp-level in a table
 *                            whose other entries have one (ignored)
 *   "opp-required-cycle"     device tables requiring each other: the
 *                            requirement closing the cycle is dropped
 *   "opp-required-unmodelled" a device-level required-opps (outside an
 *                            OPP table) into a table without levels
 *   "opp-table-no-level"     a provider's operating-points-v2 table has no
 *                            opp-level entries (the table is ignored)
 *   "opp-table-no-owner"     a device table that required-opps point into
 *                            has no device (nothing to raise)
 *   "pd-child-ids"           power-domains-child-ids that cannot be
 *                            applied (a count that differs from
 *                            power-domains', an unusable entry, a pair
 *                            twice, an id the provider's Linux driver does
 *                            not register: no link; on a provider without
 *                            cells: ignored)
 *   "provider-parents-all"   with DMN_DT_LOAD_PARENTS_ALL, an i.MX8M block
 *                            controller's several named parents all
 *                            parent each of its domains, where Linux's
 *                            driver maps them by name (the default); a
 *                            note otherwise (see notes)
 *   "provider-parents-by-name" a known block controller's domain whose
 *                            "bus" or own entry the node does not name:
 *                            it keeps every parent
 *  notes
 *   "pd-provider-unused"     a provider with cells no enabled node references
 *   "provider-parents-all"   a provider's several named parents: how they
 *                            were applied (a known i.MX8M block controller:
 *                            by name, as its Linux driver; another: all to
 *                            every domain)
 *   "provider-parents-driver" links a provider's Linux driver makes among
 *                            its own domains (Qualcomm rpmhpd's CX under
 *                            MX), naming the driver
 *   "opp-hw-mismatch"        an entry no group of whose opp-supported-hw
 *                            matches the version given: unavailable (one
 *                            per entry, naming it)
 *   "opp-hw-partial"         the version has fewer values than the table's
 *                            groups have cells: only the first are checked;
 *                            duplicates among entries that differ only in
 *                            the others are counted here, not warned
 *   "opp-table-vendor"       a vendor variant of operating-points-v2 (e.g.
 *                            "-qcom-level", "-kryo-cpu"), read as a plain
 *                            table; its vendor properties are not modelled
 *
 * returns: 0 and *@out (which may still hold warnings and notes), or
 *   -EINVAL if @blob or @out is NULL or @opts is malformed (then no
 *     diagnostic is produced),
 *   -ENOMEM if an allocation failed (nothing is leaked, *@out is NULL),
 *   the errno of the first error diagnostic (see above).
 *   On an error of the tree's content *@out is NULL, unless DMN_DT_LOAD_LENIENT
 *   is set: then loading goes on past every error (skipping what cannot be
 *   parsed), *@out receives the partial board with all its diagnostics, and
 *   the caller must dmn_dt_board_free() it although the call returned an error.
 * cost: O(N log N + P·D) time for N nodes, P phandle references and D the
 *   depth of the domain graph; memory O(size of the model).
 */
int dmn_dt_load(const void *blob, size_t size, const struct dmn_dt_load_opts *opts,
	    struct dmn_dt_board **out);

/**
 * dmn_dt_board_free - release a board and everything it holds; NULL is a no-op
 * cost: O(allocations).
 */
void dmn_dt_board_free(struct dmn_dt_board *board);

/**
 * dmn_dt_parse_supported_hw - parse "V[,V...]" (each a C integer: decimal, 0x
 * hex or 0 octal, fitting u32) as given to --supported-hw
 * @out, @max: receive up to @max values (the text holds at most
 *   strlen(@text) / 2 + 1 of them: a buffer that size always fits)
 * returns: the number of values, or -EINVAL (empty, malformed, out of range
 *   or more than @max values).
 * cost: O(length).
 */
int dmn_dt_parse_supported_hw(const char *text, uint32_t *out, unsigned max);

/**
 * dmn_dt_domain_path - the full node path of domain @domain, as snprintf
 * would write it: at most @size bytes into @buf (NUL-terminated when
 * @size > 0; @buf may be NULL when @size is 0)
 * returns: the path's length (call again with a buffer one longer when it
 * is >= @size), or 0 for a NULL @board or an @domain out of range (a path
 * is never empty). Cost: O(length).
 */
size_t dmn_dt_domain_path(const struct dmn_dt_board *board, unsigned domain, char *buf,
		      size_t size);

/**
 * dmn_dt_domain_path_is - whether @path is exactly domain @domain's full node
 * path; false for NULL arguments or @domain out of range. Cost: O(strlen
 * (@path)), stopping at the first component that differs.
 */
bool dmn_dt_domain_path_is(const struct dmn_dt_board *board, unsigned domain,
		       const char *path);

/**
 * dmn_dt_provider_path - the full node path of provider @provider, as
 * dmn_dt_domain_path() writes a domain's (snprintf-like: at most @size bytes
 * into @buf, NUL-terminated when @size > 0; @buf may be NULL when @size is 0)
 * returns: the path's length (call again with a buffer one longer when it
 * is >= @size), or 0 for a NULL @board or a @provider out of range.
 * Cost: O(length).
 */
size_t dmn_dt_provider_path(const struct dmn_dt_board *board, unsigned provider,
			char *buf, size_t size);

/**
 * dmn_dt_provider_path_is - whether the first @len bytes of @path (which
 * need not be NUL-terminated there: "PATH:INDEX" is checked in place, as
 * libfdt's *_namelen functions do) are exactly provider @provider's full
 * node path; false for a NULL @board or @path, or @provider out of range.
 * Cost: O(@len).
 */
bool dmn_dt_provider_path_is(const struct dmn_dt_board *board, unsigned provider,
			 const char *path, size_t len);

/**
 * dmn_dt_opp_hw_partial - whether the hardware version @board was loaded
 * with has fewer values than the opp-supported-hw groups of OPP table
 * @table have cells, so that only their first cells were checked (the
 * "opp-hw-partial" note): two hw-selected entries of such a table may be
 * meant for different chips
 * returns: false as well for a NULL @board or a @table out of range.
 * cost: O(entries of the table).
 */
bool dmn_dt_opp_hw_partial(const struct dmn_dt_board *board, unsigned table);

/**
 * dmn_dt_domain_find - the index of the domain called @name
 * Accepted, in this order: its name ("rpmhpd:9", "pgc_gpu3d"); any label
 * of the node defining it (dmn_dt_domain.labels); for a domain of a one-cell
 * provider, any label of the provider or the provider's full path
 * followed by ":INDEX" ("/soc@0/rsc@18200000/power-controller:9"); the
 * full path of a node defining only this domain (a nested child, a
 * provider without cells); that node's name ("power-domain@12") when no
 * other such domain has it, else its name without the unit address when
 * that is unique.
 * returns: the index (>= 0), -EINVAL (NULL argument), -ENOENT, -EEXIST (a
 *   node name, with or without unit address, several domains share).
 * cost: O(domains * labels * length of @name).
 */
int dmn_dt_domain_find(const struct dmn_dt_board *board, const char *name);

/**
 * dmn_dt_device_find - the index of a device called @name
 * Accepted, in this order: any of its labels or its full path; else its
 * node name ("spi@880000") when no other device has that node name; else
 * its node name without the unit address ("spi") when no other device's
 * node name has that base.
 * returns: the index (>= 0), -EINVAL, -ENOENT, -EEXIST (a node name, with
 *   or without unit address, shared by several devices and no label or
 *   path matched: use a label or the path).
 * cost: O(devices * labels * length of @name).
 */
int dmn_dt_device_find(const struct dmn_dt_board *board, const char *name);

/**
 * dmn_dt_match_required - which required OPP each domain votes with
 * (docs/semantics.md, Required OPPs)
 * @domains, @n_domains: domain indices, in power-domains order
 * @refs, @n_refs:       the required OPPs, in DT order
 * @assign:              receives, per domain, the index into @refs it takes,
 *                       or -1
 *
 * Pass 1: each domain, in order, takes the first untaken ref into its own
 * provider's table. Pass 2: each domain still without one takes the first
 * untaken ref into the table of one of its ancestors (the level then passes
 * up 1:1 through the domains in between). A ref into a table without
 * levels (a device-to-device requirement) is never taken.
 * returns: the number of refs taken (n_refs minus it matched nothing), or
 *   -EINVAL (NULL argument, a bad index), -ENOMEM (scratch memory, from
 *   the board's allocator).
 * cost: O((n_domains + n_refs) log n_refs + the ancestors walked: each
 *   unmatched domain's A ancestors once, O(A log A)).
 */
int dmn_dt_match_required(const struct dmn_dt_board *board, const int32_t *domains,
		      unsigned n_domains, const struct dmn_dt_opp_ref *refs,
		      unsigned n_refs, int32_t *assign);

/**
 * dmn_dt_device_opp_votes - the level each attachment of a device votes at
 * entry @entry of its OPP table (0 = no vote), by dmn_dt_match_required
 * @levels, @max: receive min(n_attachments, @max) levels
 * returns: the number of attachments, or -EINVAL (bad device), -ENOENT (no
 *   OPP table, or @entry out of range), -ENOMEM.
 * cost: as dmn_dt_match_required.
 */
int dmn_dt_device_opp_votes(const struct dmn_dt_board *board, unsigned device,
			unsigned entry, uint32_t *levels, unsigned max);

/**
 * dmn_dt_device_fixed_votes - the same for a device's own required-opps
 * (all zeros when it has none)
 * returns: the number of attachments, or -EINVAL, -ENOMEM.
 */
int dmn_dt_device_fixed_votes(const struct dmn_dt_board *board, unsigned device,
			  uint32_t *levels, unsigned max);

/* ---- stage 2: instantiating
 * ------------------------------------------------------ */

struct dmn_domain_desc;

/**
 * typedef dmn_dt_domain_factory_fn - supply the backend of model domain @domain
 * Fill @desc->ops, @desc->user and @desc->flags (the name is set by
 * dmn_dt_instantiate and must be left alone). Per docs/semantics.md (Votes
 * and pstates) a domain should
 * have a set_performance_state callback exactly when
 * board->domains[domain].opp_table >= 0. Return 0, or a negative errno to
 * abort dmn_dt_instantiate.
 */
typedef int (*dmn_dt_domain_factory_fn)(void *user, const struct dmn_dt_board *board,
				    unsigned domain,
				    struct dmn_domain_desc *desc);

/**
 * struct dmn_dt_instance - the handles dmn_dt_instantiate created, indexed like the
 * model (handle types from domain.h / opp.h, as uint32_t)
 * @domains:   [board->n_domains]
 * @devices:   [board->n_devices]
 * @attachments: [board->n_devices] arrays of [n_attachments] each
 * @opp_tables: [board->n_opp_tables]; 0 for tables nothing uses. The
 *             instance holds no reference: a table lives as long as a
 *             domain, a bound device or a table requiring it does
 * @opp_ids:   [board->n_opp_tables] arrays of entry ids; DMN_OPP_ID_NONE for
 *             entries not added: hw-unavailable, duplicates (the model's,
 *             or -EEXIST from dmn_opp_add), without frequency and level (e.g.
 *             bandwidth-only), or whose required OPP was not added.
 *             Entries disabled by status are added, unavailable.
 */
struct dmn_dt_instance {
	uint32_t *domains;
	uint32_t *devices;
	uint32_t **attachments;
	uint32_t *opp_tables;
	uint32_t **opp_ids;
	struct dmn_dt_pool *pool; /* private */
};

/**
 * dmn_dt_instantiate - build @board into @ctx
 * @factory, @user: backend of each domain; NULL gives every domain with an
 *   OPP table a set_performance_state that accepts any level, and others no
 *   callbacks
 * @out: receives the handles (free with dmn_dt_instance_free)
 *
 * Order: OPP tables in use (tables referenced by required OPPs before the
 * tables referring to them), domains (with dmn_opp_domain_set_table when the
 * provider has a table), subdomain links (dmn_opp_link_add) and the providers'
 * floors (dmn_opp_link_set_floor), devices with their attachments in
 * power-domains order, and either dmn_opp_device_bind (device with an OPP
 * table) or fixed dmn_vote()s of its device-level required-opps matched by
 * dmn_dt_match_required. Required OPPs into tables without levels go to
 * dmn_opp_add as they are: the OPP layer makes them device-to-device
 * requirements on the devices bound to those tables (dmn_dt_requirement).
 * Nothing is powered on (devices start suspended).
 *
 * returns: 0, or -EINVAL (NULL @board/@ctx/@out), -ENOMEM, the factory's
 *   error, or the first error of a core or OPP call (e.g. -EINVAL from
 *   dmn_opp_add for a table mixing level-only and frequency entries). On
 *   failure everything created so far is removed again from @ctx (best
 *   effort, in reverse order) and *@out is NULL.
 * cost: O(model size) core calls.
 */
int dmn_dt_instantiate(const struct dmn_dt_board *board, struct dmn_ctx *ctx,
		   dmn_dt_domain_factory_fn factory, void *user,
		   struct dmn_dt_instance **out);

/**
 * dmn_dt_instantiate_diag - dmn_dt_instantiate, and when it fails (other than
 * -ENOMEM), one error diagnostic to @diag (may be NULL) with check
 * "load-failed" naming the node and property being built and the reason:
 * for an OPP entry the OPP layer refuses, the entry's node and the property
 * at fault (opp-microvolt: a supply window that does not hold its target;
 * opp-hz: a table mixing frequency and level-only entries; required-opps).
 * This is how `summary` and `lint` name where a board that loads cannot be
 * built. returns and cost: as dmn_dt_instantiate.
 */
int dmn_dt_instantiate_diag(const struct dmn_dt_board *board, struct dmn_ctx *ctx,
			dmn_dt_domain_factory_fn factory, void *user,
			dmn_dt_diag_fn diag, void *diag_user,
			struct dmn_dt_instance **out);

/**
 * dmn_dt_instance_free - free the handle arrays (not the objects in the
 * context, which the context owns); NULL is a no-op
 */
void dmn_dt_instance_free(struct dmn_dt_instance *inst);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_DT_H */
