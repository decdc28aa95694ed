/* SPDX-License-Identifier: MIT */
/*
 * domino - lint: the semantic checks a board's author needs and that dtc's
 * own checks do not do.
 *
 * dmn_dt_lint() loads the blob leniently (so one problem does not hide the
 * others), turns the loader's diagnostics into findings, and adds checks of
 * its own over the model and the blob:
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
 * dmn_dt_lint - check a blob
 * @supported_hw, @n_supported_hw: the hardware version, as for dmn_dt_load
 * @emit, @user: receive each finding, in a stable order (loader findings in
 *   the order found, then the lint checks by node)
 * @counts: receives the totals (may be NULL)
 * returns: 0 when the checks ran (findings say what is wrong), -EINVAL
 *   (NULL argument), -ENOMEM, or -EILSEQ when the blob is too corrupt to
 *   read at all (that is also reported as a "dt-corrupt" finding).
 * cost: O(model size + OPP entries · log), plus one dmn_sim_create of the
 *   blob when the lenient load found no error.
 */
int dmn_dt_lint(const void *blob, size_t size, const uint32_t *supported_hw,
	    unsigned n_supported_hw, dmn_lint_fn emit, void *user,
	    struct dmn_lint_counts *counts);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_LINT_H */
