/* SPDX-License-Identifier: MIT */
/*
 * domino - lint: the semantic checks a board's author needs and that dtc's
 * own checks do not do.
 *
 * dmn_lint_board() checks a board the caller loaded leniently (so one
 * problem does not hide the others): it turns the loader's diagnostics
 * into findings, adds checks of its own over the model and the blob, and
 * builds the board as `summary` and `simulate` do. dmn_dt_lint() is the
 * same with the load done for the caller. The checks:
 *
 *   error    pd-dangling-phandle, pd-not-provider, pd-cells-mismatch,
 *            pd-cells-unsupported   `power-domains` that point nowhere, at a
 *                                   non-provider, or with the wrong cells
 *   error    graph-cycle            a subdomain cycle
 *   error    opp-required-no-level  a required OPP without opp-level
 *   error    opp-required-cycle     required-opps leading back into their
 *                                   own table
 *   error    opp-level-above-top    a device's OPP votes above the top
 *                                   level of the domain it votes on
 *   error    idle-state-latency     an idle state without entry/exit
 *                                   latency or min residency
 *   error    load-failed            the board loads leniently, but not
 *                                   as `summary` and `simulate` load it
 *                                   (dmn_sim_create: strict load, then the
 *                                   model built into a context): names
 *                                   the node and property refused
 *   warning  pd-names-count         power-domain-names count mismatch
 *   warning  opp-voltage-decreasing voltage falls as frequency rises,
 *                                   among entries available together
 *                                   (not between two opp-supported-hw
 *                                   entries of a table whose groups the
 *                                   version does not cover: opp-hw-partial)
 *   warning  opp-duplicate          same frequencies and level (and
 *                                   hardware version) as an earlier entry
 *   warning  phandle-duplicate      a phandle two nodes carry (references
 *                                   go to the first in node order)
 *   warning  consumer-of-disabled-provider
 *   warning  opp-required-unmatched a required OPP matching none of the
 *                                   node's domains (docs/semantics.md,
 *                                   Required OPPs)
 *   note     provider-parents-all   a provider's several named parents:
 *                                   an i.MX8M block controller's mapped by
 *                                   name, naming the Linux driver; another's
 *                                   all applied to every domain
 *   note     provider-parents-driver links a provider's Linux driver makes
 *                                   among its own domains (rpmhpd's CX
 *                                   under MX), naming the driver
 *   warning  provider-no-rail       a provider without power-domains whose
 *                                   consumers vote levels that reach no
 *                                   domain with levels (no rail)
 *   warning  pd-missing             a device without power-domains used
 *                                   through `phys` or an OF graph link by
 *                                   a device in a domain, while a node of
 *                                   its compatible on the board has them
 *   warning  opp-required-missing   a device on a rail voting no level,
 *                                   while a node of its compatible on the
 *                                   board, on a rail, votes one
 *   warning  pd-index-range         an index the provider's Linux driver
 *                                   registers no domain at
 *   warning  pd-name-mismatch       a power-domain-names entry naming
 *                                   another domain of the provider than
 *                                   the index beside it
 *   warning  opp-required-count     an OPP entry whose required-opps count
 *                                   differs from its table's first entry's
 *   warning  opp-required-index     a device-level required-opps entry that
 *                                   Linux applies, by index, to a domain
 *                                   without levels or to none
 *   warning  pd-child-ids           power-domains-child-ids that Linux
 *                                   cannot apply (count, a pair twice, an
 *                                   unknown id): no link is made
 *   note     domain-defined-twice   a nested domain number repeats (its
 *                                   first definition gives its properties;
 *                                   each enclosing domain is a parent)
 *   note     opp-needs-hw-version   entries usable only with a hardware
 *                                   version (opp-supported-hw), with count
 *   note     opp-hw-mismatch        an entry the version given does not
 *                                   match, by name
 *   note     opp-hw-partial         a table whose opp-supported-hw groups
 *                                   have more cells than the version
 *   and every other loader diagnostic with the loader's severity.
 */
#ifndef DOMINO_LINT_H
#define DOMINO_LINT_H

#include <domino/dt.h>
#include <domino/sim.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * typedef dmn_lint_fn - receives one finding, a struct dmn_dt_diag (the loader's
 * own diagnostic type: lint's findings are the loader's diagnostics, at
 * lint's severities, plus its own checks). @finding and its strings are
 * only valid during the call. @finding->error is the negative errno of the
 * load that failed for a loader error and for "load-failed", else 0.
 */
typedef void (*dmn_lint_fn)(void *user, const struct dmn_dt_diag *finding);

/**
 * struct dmn_lint_counts - totals by severity
 */
struct dmn_lint_counts {
	unsigned errors, warnings, notes;
};

/**
 * struct dmn_lint_options - how dmn_lint_board runs; every member may be zero
 * @alloc: lint's own allocations (scratch of the checks, an aligned copy of
 *   a misaligned blob): both members set, or NULL for malloc/free
 * @emit, @user: receive each finding, in a stable order (the loader's
 *   diagnostics in the order found, then lint's checks by node)
 * @board_name: the simulation's name for its reports (dmn_sim_options)
 * @sim: when non-NULL, receives the simulation of the board as `summary`
 *   and `simulate` build it (dmn_sim_create_board) when it builds, else
 *   NULL; the caller frees it with dmn_sim_free, before the board
 */
struct dmn_lint_options {
	const struct dmn_alloc_ops *alloc;
	dmn_lint_fn emit;
	void *user;
	const char *board_name;
	struct dmn_sim **sim;
};

/**
 * dmn_lint_board - check a loaded board
 * @board: what dmn_dt_load returned with DMN_DT_LOAD_LENIENT (any version
 *   or other flags), whether or not that load reported an error
 * @load_result: what that dmn_dt_load returned (0 or its first error)
 * @blob, @size: the blob @board was loaded from: read (never changed) for
 *   what the model leaves out, such as whether a latency property is
 *   absent or 0
 * @opts: see struct dmn_lint_options (NULL: all zero)
 * @counts: receives the totals (may be NULL)
 * returns: 0 when the checks ran (findings say what is wrong), -EINVAL
 *   (NULL @board or @blob, a hook with one function), -ENOMEM (an
 *   allocation failed: no simulation is handed back, nothing leaks; some
 *   findings may have been emitted), or -EILSEQ when @load_result says the
 *   blob was too corrupt to read (its "dt-corrupt" diagnostic is a finding).
 *   The board is only read: several threads may lint one board at once.
 * cost: O(model size + OPP entries · log), plus one dmn_sim_create_board
 *   when the load found no error; no parse of the blob (libfdt reads in
 *   place).
 */
int dmn_lint_board(const struct dmn_dt_board *board, int load_result,
		   const void *blob, size_t size,
		   const struct dmn_lint_options *opts,
		   struct dmn_lint_counts *counts);

/**
 * dmn_dt_lint - check a blob: dmn_dt_load with DMN_DT_LOAD_LENIENT, then
 *   dmn_lint_board, then dmn_dt_board_free
 * @supported_hw, @n_supported_hw: the hardware version, as for dmn_dt_load
 * @emit, @user: receive each finding, in a stable order (loader findings in
 *   the order found, then the lint checks by node)
 * @counts: receives the totals (may be NULL)
 * returns: 0 when the checks ran (findings say what is wrong), -EINVAL
 *   (NULL argument), -ENOMEM, or -EILSEQ when the blob is too corrupt to
 *   read at all (that is also reported as a "dt-corrupt" finding).
 * cost: one dmn_dt_load and one dmn_lint_board.
 */
int dmn_dt_lint(const void *blob, size_t size, const uint32_t *supported_hw,
	    unsigned n_supported_hw, dmn_lint_fn emit, void *user,
	    struct dmn_lint_counts *counts);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_LINT_H */
