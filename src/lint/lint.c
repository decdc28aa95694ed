/* SPDX-License-Identifier: MIT */
/* Lint: loader diagnostics as findings, plus checks of the model's sense. */
#include <domino/lint.h>
#include <domino/sim.h>
#include "../core/alloc.h"
#include "lint_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <libfdt.h>
#include <stdio.h>
#include <string.h>

/* @n elements of @size bytes, zeroed, from the caller's hook (n >= 1). */
static void *lint_calloc(struct linter *l, size_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		return NULL;
	void *p = l->alloc.alloc(l->alloc.user, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

static void lint_free(struct linter *l, void *p)
{
	if (p)
		l->alloc.free(l->alloc.user, p);
}

void *dmn__lint_calloc(struct linter *l, size_t n, size_t size)
{
	return lint_calloc(l, n ? n : 1, size ? size : 1);
}

void dmn__lint_free(struct linter *l, void *p)
{
	lint_free(l, p);
}

/* @error: the errno of the load that failed (a loader error, load-failed),
 * else 0, as struct dmn_dt_diag says. */
static void vreport(struct linter *l, enum dmn_dt_severity sev, int error,
		    const char *check, const char *node, const char *property,
		    const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));

static void vreport(struct linter *l, enum dmn_dt_severity sev, int error,
		    const char *check, const char *node, const char *property,
		    const char *fmt, va_list ap)
{
	char message[512];
	vsnprintf(message, sizeof(message), fmt, ap);
	struct dmn_dt_diag f = {sev, check, node, property, message, error};
	if (sev == DMN_DT_SEV_ERROR)
		l->counts.errors++;
	else if (sev == DMN_DT_SEV_WARNING)
		l->counts.warnings++;
	else
		l->counts.notes++;
	if (l->emit)
		l->emit(l->user, &f);
}

static void report(struct linter *l, enum dmn_dt_severity sev, int error,
		   const char *check, const char *node, const char *property,
		   const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void report(struct linter *l, enum dmn_dt_severity sev, int error,
		   const char *check, const char *node, const char *property,
		   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(l, sev, error, check, node, property, fmt, ap);
	va_end(ap);
}

void dmn__lint_report(struct linter *l, enum dmn_dt_severity sev,
		      const char *check, const char *node, const char *property,
		      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(l, sev, 0, check, node, property, fmt, ap);
	va_end(ap);
}

/* The loader skips what it cannot resolve; for an author those are bugs. */
static enum dmn_dt_severity lint_severity(const struct dmn_dt_diag *d)
{
	static const char *const raised[] = {
		"pd-dangling-phandle", "pd-not-provider", "pd-cells-mismatch",
		"graph-cycle", "opp-required-no-level", "idle-state-latency",
	};
	for (size_t i = 0; i < sizeof(raised) / sizeof(raised[0]); i++)
		if (!strcmp(d->check, raised[i]))
			return DMN_DT_SEV_ERROR;
	/* Entries kept for other hardware versions are normal (Tegra): worth
	 * knowing, with their count, but nothing to fix. */
	if (!strcmp(d->check, "opp-needs-hw-version"))
		return DMN_DT_SEV_NOTE;
	return d->severity;
}

/* ---- idle states: every latency must be given ----------------------------- */

static void check_idle_states(struct linter *l, const void *fdt,
			      const struct dmn_dt_board *b)
{
	static const char *const props[] = {"entry-latency-us", "exit-latency-us",
					    "min-residency-us"};
	for (unsigned i = 0; i < b->n_idle_states; i++) {
		const struct dmn_dt_idle_state *s = &b->idle_states[i];
		if (!s->path)
			continue;
		int node = fdt_path_offset(fdt, s->path);
		if (node < 0)
			continue;
		for (unsigned p = 0; p < 3; p++)
			if (!fdt_getprop(fdt, node, props[p], NULL))
				report(l, DMN_DT_SEV_ERROR, 0, "idle-state-latency", s->path,
				       props[p],
				       "idle state '%s' has no %s: the governor would "
				       "take it as 0 and pick it too readily",
				       s->name, props[p]);
	}
}

/* ---- OPP voltages must not fall as frequency rises -------------------------- */

struct by_freq {
	uint64_t hz;
	const struct dmn_dt_opp *opp;
};

static int cmp_by_freq(const void *a, const void *b)
{
	const struct by_freq *x = a, *y = b;
	return x->hz < y->hz ? -1 : x->hz > y->hz;
}

static int check_voltages(struct linter *l, const struct dmn_dt_board *b)
{
	for (unsigned t = 0; t < b->n_opp_tables; t++) {
		const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
		struct by_freq *v = lint_calloc(l, tab->n_entries ? tab->n_entries : 1,
						sizeof(*v));
		if (!v)
			return -ENOMEM;
		unsigned n = 0;
		for (unsigned e = 0; e < tab->n_entries; e++) {
			const struct dmn_dt_opp *o = &tab->entries[e];
			if (o->available && o->n_hz && o->n_supplies)
				v[n++] = (struct by_freq){o->hz[0], o};
		}
		qsort(v, n, sizeof(*v), cmp_by_freq);
		/* with a version that leaves cells of this table unchecked, two
		 * hw-selected entries may be meant for different chips */
		bool partial = dmn_dt_opp_hw_partial(b, t);
		for (unsigned i = 1; i < n; i++) {
			const struct dmn_dt_opp *lo = v[i - 1].opp, *hi = v[i].opp;
			if (v[i].hz == v[i - 1].hz ||
			    (partial && lo->n_supported_hw && hi->n_supported_hw))
				continue;
			unsigned supplies = lo->n_supplies < hi->n_supplies
						    ? lo->n_supplies
						    : hi->n_supplies;
			for (unsigned s = 0; s < supplies; s++) {
				if (hi->supplies[s].microvolt >= lo->supplies[s].microvolt)
					continue;
				char node[512];
				snprintf(node, sizeof(node), "%s/%s", tab->path, hi->name);
				report(l, DMN_DT_SEV_WARNING, 0, "opp-voltage-decreasing", node,
				       "opp-microvolt",
				       "supply %u: %u uV at %llu Hz is below %u uV at "
				       "%llu Hz (%s): voltage falls as frequency rises",
				       s, hi->supplies[s].microvolt,
				       (unsigned long long)v[i].hz,
				       lo->supplies[s].microvolt,
				       (unsigned long long)v[i - 1].hz, lo->name);
			}
		}
		lint_free(l, v);
	}
	return 0;
}

/* ---- a device's votes must fit the levels of the domain voted on ----------- */

static uint32_t top_level(const struct dmn_dt_board *b, int32_t table)
{
	uint32_t top = 0;
	const struct dmn_dt_opp_table *t = &b->opp_tables[table];
	for (unsigned e = 0; e < t->n_entries; e++)
		if (t->entries[e].has_level && t->entries[e].available &&
		    t->entries[e].level > top)
			top = t->entries[e].level;
	return top;
}

static int check_vote_levels(struct linter *l, const struct dmn_dt_board *b)
{
	for (unsigned d = 0; d < b->n_devices; d++) {
		const struct dmn_dt_device *dev = &b->devices[d];
		uint32_t *levels = lint_calloc(l, (size_t)dev->n_attachments + 1,
					       sizeof(*levels));
		if (!levels)
			return -ENOMEM;
		unsigned n_entries = dev->opp_table >= 0
					     ? b->opp_tables[dev->opp_table].n_entries
					     : 0;
		for (unsigned e = 0; e <= n_entries; e++) {
			int n = e < n_entries
					? dmn_dt_device_opp_votes(b, d, e, levels,
							      dev->n_attachments)
					: dmn_dt_device_fixed_votes(b, d, levels,
								dev->n_attachments);
			for (int a = 0; a < n; a++) {
				const struct dmn_dt_domain *dom =
					&b->domains[dev->attachments[a].domain];
				if (!levels[a] || dom->opp_table < 0)
					continue;
				uint32_t top = top_level(b, dom->opp_table);
				if (levels[a] <= top)
					continue;
				report(l, DMN_DT_SEV_ERROR, 0, "opp-level-above-top", dev->path,
				       e < n_entries ? "operating-points-v2" : "required-opps",
				       "votes level %u on %s, whose highest level is %u",
				       levels[a], dom->name, top);
			}
		}
		lint_free(l, levels);
	}
	return 0;
}

/* Is @node inside a disabled PSCI node (compatible "arm,psci...")? */
static bool in_disabled_psci(const void *fdt, int node)
{
	for (; node > 0; node = fdt_parent_offset(fdt, node)) {
		const char *compat = fdt_getprop(fdt, node, "compatible", NULL);
		const char *status = fdt_getprop(fdt, node, "status", NULL);
		if (compat && !strncmp(compat, "arm,psci", 8))
			return status && strcmp(status, "okay") &&
			       strcmp(status, "ok");
	}
	return false;
}

/*
 * A CPU whose power-domains are PSCI domains of a disabled PSCI node: the
 * board does not use PSCI (32-bit msm8916 boards boot their CPUs with
 * qcom,msm8916-smp and disable /psci), so nothing ever attaches the CPU to
 * those domains. Linux is fine with it; it is worth a note, not a warning.
 */
static bool cpu_without_psci(const struct linter *l, const char *path)
{
	if (!l->fdt)
		return false;
	int node = fdt_path_offset(l->fdt, path);
	const char *type =
	    node >= 0 ? fdt_getprop(l->fdt, node, "device_type", NULL) : NULL;
	if (!type || strcmp(type, "cpu"))
		return false;
	int len;
	const fdt32_t *pd = fdt_getprop(l->fdt, node, "power-domains", &len);
	if (!pd || len < 4)
		return false;
	for (int i = 0; i < len / 4; i++) {
		int target = fdt_node_offset_by_phandle(l->fdt,
							fdt32_to_cpu(pd[i]));
		if (target < 0 || !in_disabled_psci(l->fdt, target))
			return false;
	}
	return true;
}

static void on_diag(void *user, const struct dmn_dt_diag *d)
{
	struct linter *l = user;
	if (!strcmp(d->check, "consumer-of-disabled-provider") &&
	    cpu_without_psci(l, d->node)) {
		report(l, DMN_DT_SEV_NOTE, 0, d->check, d->node, d->property,
		       "%s (a CPU of a board that disables PSCI: nothing "
		       "attaches it to these domains)",
		       d->message);
		return;
	}
	enum dmn_dt_severity sev = lint_severity(d);
	report(l, sev, sev == DMN_DT_SEV_ERROR ? d->error : 0, d->check, d->node,
	       d->property, "%s", d->message);
}

/* Errors of the second load: the first was clean, so they are new. */
static void on_build_diag(void *user, const struct dmn_dt_diag *d)
{
	struct linter *l = user;
	if (d->severity == DMN_DT_SEV_ERROR)
		report(l, DMN_DT_SEV_ERROR, d->error, d->check, d->node, d->property, "%s",
		       d->message);
}

/*
 * `summary` and `simulate` load with dmn_sim_create: a strict load, then the
 * model built into a context, where the OPP layer may still refuse what
 * the loader took. A lenient load without an error gave the board a strict
 * load gives, so building it (dmn_sim_create_board) is what they do: a
 * board they cannot load is a lint error.
 */
static int check_loads_like_summary(struct linter *l, const struct dmn_dt_board *b,
				    const struct dmn_lint_options *o)
{
	const struct dmn_sim_options so = {.board_name = o->board_name,
					   .diag = on_build_diag,
					   .diag_user = l};
	unsigned before = l->counts.errors;
	struct dmn_sim *sim = NULL;
	int err = dmn_sim_create_board(b, &so, &sim);
	if (err == -ENOMEM)
		return err;
	if (o->sim)
		*o->sim = sim;
	else
		dmn_sim_free(sim);
	if (err && l->counts.errors == before)
		report(l, DMN_DT_SEV_ERROR, err, "load-failed", "/", NULL,
		       "summary and simulate cannot load this board: %s",
		       dmn_strerror(err));
	return 0;
}

/* The checks of a board that loaded (maybe with errors). */
static int lint_checks(struct linter *l, const struct dmn_dt_board *b)
{
	for (unsigned i = 0; i < b->n_diags; i++)
		on_diag(l, &b->diags[i]);
	check_idle_states(l, l->fdt, b);
	int err = check_voltages(l, b);
	if (!err)
		err = check_vote_levels(l, b);
	if (!err)
		err = dmn__lint_families(l, b);
	return err;
}

int dmn_lint_board(const struct dmn_dt_board *board, int load_result,
		   const void *blob, size_t size,
		   const struct dmn_lint_options *opts,
		   struct dmn_lint_counts *counts)
{
	static const struct dmn_lint_options defaults;
	if (!opts)
		opts = &defaults;
	if (opts->sim)
		*opts->sim = NULL;
	if (!board || !blob ||
	    (opts->alloc && (!opts->alloc->alloc || !opts->alloc->free)))
		return -EINVAL;
	struct linter l = {opts->emit, opts->user, {0, 0, 0},
			   dmn__alloc_ops_or_default(opts->alloc), blob};
	int err = 0;
	void *copy = NULL;
	/* A blob too corrupt to read has nothing to lint: the caller must be
	 * told (the CLI exits 2 for bad input, not 1). */
	if (load_result == -EILSEQ) {
		l.fdt = NULL; /* not a blob libfdt may read */
		for (unsigned i = 0; i < board->n_diags; i++)
			on_diag(&l, &board->diags[i]);
		err = -EILSEQ;
		goto out;
	}
	if ((uintptr_t)blob % 8) {
		copy = lint_calloc(&l, size ? size : 1, 1);
		if (!copy) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(copy, blob, size);
		l.fdt = copy;
	}
	err = lint_checks(&l, board);
	if (err)
		goto out;
	if (load_result && !l.counts.errors)
		report(&l, DMN_DT_SEV_ERROR, load_result, "load-failed", "/", NULL,
		       "the board does not load: %s", dmn_strerror(load_result));
	else if (!load_result)
		err = check_loads_like_summary(&l, board, opts);
out:
	lint_free(&l, copy);
	if (counts)
		*counts = l.counts;
	return err;
}

int dmn_dt_lint(const void *blob, size_t size, const uint32_t *supported_hw,
	    unsigned n_supported_hw, dmn_lint_fn emit, void *user,
	    struct dmn_lint_counts *counts)
{
	if (counts)
		memset(counts, 0, sizeof(*counts));
	if (!blob)
		return -EINVAL;
	struct dmn_dt_load_opts lo;
	memset(&lo, 0, sizeof(lo));
	lo.supported_hw = supported_hw;
	lo.n_supported_hw = n_supported_hw;
	lo.flags = DMN_DT_LOAD_LENIENT;
	struct dmn_dt_board *b = NULL;
	int err = dmn_dt_load(blob, size, &lo, &b);
	if (err == -ENOMEM || !b)
		return err ? err : -ENOMEM;
	const struct dmn_lint_options o = {.emit = emit, .user = user};
	err = dmn_lint_board(b, err, blob, size, &o, counts);
	dmn_dt_board_free(b);
	return err;
}
