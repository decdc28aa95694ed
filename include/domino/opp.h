/* SPDX-License-Identifier: MIT */
/*
 * domino - operating performance points (OPP): tables, look-ups, set_rate
 * sequencing, OPP -> pstate mapping and opportunistic scaling.
 *
 * Model
 *  - An OPP table is a sorted set of entries: by frequency (the first opp-hz
 *    value) then level, or by level when the table has no frequencies. The
 *    same frequency may appear with different levels; an entry equal to
 *    another in every opp-hz value and in level is a duplicate (-EEXIST).
 *  - A table is used by devices (several when shared: DT `opp-shared`) and by
 *    power domains (a provider's table of opp-level entries gives its
 *    domains their levels). Tables are reference-counted: each bind, each
 *    get-pstate registration and each table holding a required OPP into it
 *    holds a reference; a table is freed when its last reference goes.
 *  - Entries are named by a stable id (uint32_t) that dmn_opp_add() returns; ids
 *    never change while the table lives, whatever is added later.
 *  - A device bound to a table moves between its entries with
 *    dmn_opp_set_rate(). An entry's pstate votes come from its required OPPs,
 *    matched to the device's domains by the two-pass rule of
 *    docs/semantics.md, Required OPPs (pass
 *    1: each domain, in attachment order, takes the first untaken required
 *    OPP that lies in its own table; pass 2: each domain still without one
 *    takes the first untaken one that lies in an ancestor's table), or from
 *    a get-pstate helper registered on the table.
 *  - A required OPP into a table whose entries have no level (a device's
 *    table, not a domain's) is a device-to-device requirement
 *    (docs/device-tree.md, Device-to-device requirements;
 *    MediaTek's CPU tables require their CCI's OPPs): while the device
 *    casting it is active (dmn_opp_device_get), every device bound to that
 *    table (its owners) runs at least at the required entry. An owner runs
 *    at its effective entry: the highest, by the first opp-hz, of its own
 *    rate's entry and what active requirers ask of its table; it votes
 *    and requires as that entry does (per attachment, the higher of that
 *    and its own rate's vote), so requirements chain. Tables cannot
 *    reference each other in a cycle (dmn_opp_add refuses one).
 *
 * Threads: every call takes the context lock; provider hooks (clock,
 * regulators, get-pstate) run with it held and must not call back in.
 * dmn_opp_link_add() takes the lock twice (the mapping's memory, then the
 * link and its maps in one step).
 *
 * Events: besides the core's, set_rate emits DMN_EV_RATE (clock accepted,
 * Hz) and DMN_EV_VOLTAGE (a supply accepted, target uV), and
 * DMN_EV_FAILURE / DMN_EV_ROLLBACK with op DMN_OP_CLOCK or
 * DMN_OP_REGULATOR and @device set.
 */
#ifndef DOMINO_OPP_H
#define DOMINO_OPP_H

#include <domino/domain.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t dmn_opp_table_t; /* handle; 0 is never valid */

#define DMN_OPP_ID_NONE UINT32_MAX

#define DMN_OPP_FLAG_SUSPEND (1u << 0)     /* opp-suspend */
#define DMN_OPP_FLAG_TURBO (1u << 1)       /* turbo-mode: only with boost */
#define DMN_OPP_FLAG_UNAVAILABLE (1u << 2) /* disabled at creation */
#define DMN_OPP_FLAG_HAS_LEVEL (1u << 3)   /* the entry has an opp-level */

/**
 * struct dmn_opp_supply - one supply's voltage window and current at an OPP
 * @microvolt: target; @microvolt_min, @microvolt_max: the window (equal to
 *   the target when the DT gives a single cell); @microamp: 0 if unknown
 */
struct dmn_opp_supply {
	uint32_t microvolt;
	uint32_t microvolt_min;
	uint32_t microvolt_max;
	uint32_t microamp;
};

/**
 * struct dmn_opp_required - a reference to an entry of another table
 */
struct dmn_opp_required {
	dmn_opp_table_t table;
	uint32_t id;
};

/**
 * struct dmn_opp_desc - what dmn_opp_add() needs; zero everything you do not use
 * Every list is a pointer and a count, up to 255 of each (sdm845's UFS
 * entries have 9 clocks): dmn_opp_add() copies them, the caller keeps its
 * arrays.
 * @name:     optional (DT node name, e.g. "opp-1200000000"); copied
 * @hz, @n_hz: the frequencies in Hz; @hz[0] is the look-up key; @n_hz = 0
 *            for a level-only entry
 * @level:    the opp-level (meaningful with DMN_OPP_FLAG_HAS_LEVEL)
 * @supplies, @n_supplies: voltages per supply
 * @microwatt: power, 0 if unknown
 * @required, @n_required: required OPPs, in DT order. One into a table
 *            with levels is a pstate vote (matched to the device's domains,
 *            see above); one into a table whose entries have no level is a
 *            device-to-device requirement (see dmn_opp_device_get)
 * @flags:    DMN_OPP_FLAG_* (bits above 15 are refused)
 */
struct dmn_opp_desc {
	const char *name;
	const uint64_t *hz;
	unsigned n_hz;
	uint32_t level;
	const struct dmn_opp_supply *supplies;
	unsigned n_supplies;
	uint32_t microwatt;
	const struct dmn_opp_required *required;
	unsigned n_required;
	uint32_t flags;
};

/**
 * struct dmn_opp_info - a snapshot of one entry (pointers owned by the table)
 * @available: 0 if disabled by dmn_opp_set_available() or DMN_OPP_FLAG_UNAVAILABLE
 * @pstate:    the pstate recorded by a get-pstate helper, 0 if none
 * Other members as in struct dmn_opp_desc.
 */
struct dmn_opp_info {
	const char *name;
	const uint64_t *hz;
	unsigned n_hz;
	uint32_t level;
	const struct dmn_opp_supply *supplies;
	unsigned n_supplies;
	uint32_t microwatt;
	const struct dmn_opp_required *required;
	unsigned n_required;
	uint32_t flags;
	int available;
	uint32_t pstate;
};

/* ---- tables ------------------------------------------------------------- */

/**
 * dmn_opp_table_create - a new, empty table holding one reference (the caller's)
 * @name: copied (e.g. the DT node path)
 * returns: 0, -EINVAL, -ENOMEM, -ENOSPC. cost: O(1).
 */
int dmn_opp_table_create(struct dmn_ctx *ctx, const char *name, dmn_opp_table_t *out);

/**
 * dmn_opp_table_get - take one more reference
 * returns: 0, -EBADF.
 */
int dmn_opp_table_get(struct dmn_ctx *ctx, dmn_opp_table_t table);

/**
 * dmn_opp_table_put - drop a reference; the last one frees the table (and drops
 * the references it held on tables its required OPPs point into)
 * returns: 0, -EBADF.
 */
int dmn_opp_table_put(struct dmn_ctx *ctx, dmn_opp_table_t table);

/**
 * dmn_opp_add - add an entry
 * If a get-pstate helper is registered it is called now (with hz[0], or 0
 * for a level-only entry) and its result recorded as the entry's pstate.
 * The table takes one reference on each table its required OPPs point
 * into (one per table, however many entries point there).
 * returns: 0 and the new entry's id in *@id (may be NULL), or
 *   -EBADF (bad table or a required OPP naming a bad table/id),
 *   -EINVAL (a count without its list, hz[0] == 0 with n_hz > 0,
 *            an entry with neither frequency nor level, a level-only entry
 *            in a table of frequencies or the reverse, a required OPP
 *            without a level in a table whose other entries have one, an
 *            entry with a level in a device table others require into, a
 *            required OPP into the
 *            table itself or into a table that refers back to it (tables
 *            must not reference each other in a cycle), an entry without
 *            a level in a table that gives a domain its levels, a supply
 *            whose min is above its target or max below it),
 *   -EEXIST (equal in every opp-hz value and in level to an entry),
 *   -EOVERFLOW (more than 255 clocks, supplies or required OPPs, or
 *              @flags above 0xffff: an entry stores them in 8 and 16 bits),
 *   -EOPNOTSUPP (only a firmware image linked without the devreq unit,
 *                src/opp/devreq.c: a required OPP into a table without
 *                levels, a device-to-device requirement),
 *   -ENOMEM, or the helper's error (then nothing was added).
 * cost: O(n) (sorted insert).
 */
int dmn_opp_add(struct dmn_ctx *ctx, dmn_opp_table_t table, const struct dmn_opp_desc *desc,
	    uint32_t *id);

/**
 * dmn_opp_entry_info - read entry @id
 * returns: 0, -EBADF, -ENOENT (no such id), -EINVAL. cost: O(1).
 */
int dmn_opp_entry_info(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t id,
		   struct dmn_opp_info *out);

/**
 * dmn_opp_table_count - number of entries, and of those currently usable
 * (available, and not turbo unless boost is on); either pointer may be NULL
 * returns: 0, -EBADF. cost: O(n).
 */
int dmn_opp_table_count(struct dmn_ctx *ctx, dmn_opp_table_t table, unsigned *total,
		    unsigned *usable);

/**
 * dmn_opp_table_entry - the @i-th entry in sorted order (usable or not)
 * returns: 0 and the id, -EBADF, -ENOENT past the end. cost: O(1).
 */
int dmn_opp_table_entry(struct dmn_ctx *ctx, dmn_opp_table_t table, unsigned i,
		    uint32_t *id);

/**
 * dmn_opp_table_set_boost - allow (1) or forbid (0) turbo entries in look-ups
 * returns: 0, -EBADF.
 */
int dmn_opp_table_set_boost(struct dmn_ctx *ctx, dmn_opp_table_t table, bool boost);

/**
 * dmn_opp_set_available - enable or disable one entry
 * Every device bound to the table and currently at a disabled entry moves to
 * the next usable entry up (through dmn_opp_set_rate's sequence; its requested
 * rate is kept). A follower running above its own entry at the disabled
 * one moves to the best entry still permitted. Enabling moves nobody: the
 * next dmn_opp_set_rate may pick the entry. Domain levels are not affected
 * (rounding uses every entry, see dmn_opp_domain_set_table).
 * returns: 0, -EBADF, -ENOENT, -EBUSY if a device sits at it and no usable
 *   entry above exists (nothing changed), or the error of a move (the
 *   entry then stays available; devices moved before it stay moved).
 * cost: O(devices bound) moves.
 */
int dmn_opp_set_available(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t id,
		      bool available);

/* ---- look-ups: skip unusable entries; cost O(log n) ---------------------- */

/**
 * dmn_opp_find_freq_exact / _ceil / _floor - the usable entry with exactly @hz,
 * the lowest at or above it, the highest at or below it. Among entries of
 * equal frequency, ceil and exact take the lowest level and floor the
 * highest.
 * returns: 0 and the id, -EBADF, -ERANGE if none qualifies (also when the
 *   table has no frequencies).
 */
int dmn_opp_find_freq_exact(struct dmn_ctx *ctx, dmn_opp_table_t table, uint64_t hz,
			uint32_t *id);
int dmn_opp_find_freq_ceil(struct dmn_ctx *ctx, dmn_opp_table_t table, uint64_t hz,
		       uint32_t *id);
int dmn_opp_find_freq_floor(struct dmn_ctx *ctx, dmn_opp_table_t table, uint64_t hz,
			uint32_t *id);

/**
 * dmn_opp_find_level_exact / _ceil / _floor - the same by opp-level
 * Entries without a level are skipped.
 * returns: 0 and the id, -EBADF, -ERANGE if none qualifies.
 * cost: O(log n) in a level-only table, O(n) in a table sorted by frequency.
 */
int dmn_opp_find_level_exact(struct dmn_ctx *ctx, dmn_opp_table_t table,
			 uint32_t level, uint32_t *id);
int dmn_opp_find_level_ceil(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t level,
			uint32_t *id);
int dmn_opp_find_level_floor(struct dmn_ctx *ctx, dmn_opp_table_t table,
			 uint32_t level, uint32_t *id);

/**
 * dmn_opp_first / dmn_opp_last - the lowest / highest usable entry
 * dmn_opp_suspend - the entry flagged opp-suspend (usable or not)
 * returns: 0 and the id, -EBADF, -ENOENT if none.
 */
int dmn_opp_first(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t *id);
int dmn_opp_last(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t *id);
int dmn_opp_suspend(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t *id);

/* ---- domains with levels ------------------------------------------------ */

/**
 * dmn_opp_domain_set_table - give a domain the levels of @table
 * Installs the core rounding hook (a vote rounds up to the next level of the
 * table, over every entry whatever its availability, so that a level once
 * accepted stays accepted; above the highest level fails with -ERANGE) and,
 * on each of the
 * domain's parent links present now or added later through
 * dmn_opp_link_add(), the required-opps mapping: a child at level p requires of
 * a parent the level of the required OPP, of the child's entry for p, that
 * the matching rule assigns to that parent; with no such entry, p (1:1).
 * Takes a table reference. A domain has at most one table.
 * returns: 0, -EBADF, -EEXIST (the domain already has a table), -EINVAL (the
 *   table has entries without a level), -EBUSY (the domain's pstate is not
 *   0, or a level counts on it, or an attachment stores a vote), -ENOMEM.
 * The table reference is dropped when the context is destroyed (a domain
 * removed with dmn_domain_remove keeps it until then).
 */
int dmn_opp_domain_set_table(struct dmn_ctx *ctx, dmn_domain_t dom,
			 dmn_opp_table_t table);

/**
 * dmn_opp_domain_table - the table of a domain
 * returns: 0, -EBADF, -ENOENT if it has none.
 */
int dmn_opp_domain_table(struct dmn_ctx *ctx, dmn_domain_t dom, dmn_opp_table_t *out);

/**
 * dmn_opp_link_add - dmn_link_add() plus the required-opps mapping of the child's
 * table (if any) on the new link
 * The child's other parent links are recomputed too (the new parent may
 * take a required OPP that another parent had by pass 2). The link, its
 * map and the other links' requirements are one transaction: if the child
 * is on, the new link counts its mapped level from the start, and on any
 * failure nothing changed.
 * returns: as dmn_link_add (an error of the mapping's memory or of a
 *   parent's callback included: then there is no link).
 */
int dmn_opp_link_add(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child);

/**
 * dmn_opp_link_set_floor - a level the child's provider requires of @parent
 * whenever the child is on (a provider's own `required-opps`, e.g. sm8250's
 * display clock controller keeps MMCX at low_svs while any GDSC is on)
 * returns: as dmn_link_set_floor.
 */
int dmn_opp_link_set_floor(struct dmn_ctx *ctx, dmn_domain_t parent,
		       dmn_domain_t child, uint32_t level);

/* ---- which required OPP votes where (for lint) -------------------------- */

/**
 * dmn_opp_device_required_match - where the required OPPs of one entry go
 * @dev:  a device bound to a table
 * @id:   an entry of that table
 * @slot: receives, for required OPP j (DT order, j < @max), the index of
 *        the attachment (dmn_device_attachment() order) it votes on by the
 *        two-pass rule, or -1 if it matches none of the device's domains
 *        (it is then ignored; `lint` reports it)
 * The answer follows the current attachments and domain tables. An entry
 * whose pstate came from a get-pstate helper votes that pstate instead,
 * but its required OPPs are still matched here.
 * A required OPP into a device table (a device-to-device requirement)
 * votes on no domain: its slot is -1.
 * returns: the entry's number of required OPPs (>= 0; only the first @max
 *   are written), -EINVAL (NULL @ctx, or NULL @slot with @max > 0),
 *   -EBADF (bad device), -ENOENT (not bound, or no such id), -ENOMEM
 *   (the matching rule's scratch, sized to the device and the entry).
 * cost: O(R * A * depth) for R required OPPs, A attachments.
 */
int dmn_opp_device_required_match(struct dmn_ctx *ctx, dmn_device_t dev,
			      uint32_t id, int *slot, unsigned max);

/**
 * dmn_opp_domain_required_match - the same for entry @id of a domain's level
 * table (dmn_opp_domain_set_table): @slot[j] is the index of the parent
 * (dmn_domain_parent() order) that required OPP j maps to, or -1 (that
 * parent link then passes the level 1:1)
 * returns: the entry's number of required OPPs, -EINVAL, -EBADF (bad
 *   domain), -ENOENT (the domain has no table, or no such id).
 */
int dmn_opp_domain_required_match(struct dmn_ctx *ctx, dmn_domain_t dom,
			      uint32_t id, int *slot, unsigned max);

/* ---- devices -------------------------------------------------------------- */

/**
 * struct dmn_opp_clock_ops - the device's clock provider
 * @set_rate: program @hz; 0 or a negative errno (any clock change that
 *            fails makes dmn_opp_set_rate fail and roll back)
 * @get_rate: the current rate (may be NULL)
 */
struct dmn_opp_clock_ops {
	int (*set_rate)(void *user, dmn_device_t dev, uint64_t hz);
	uint64_t (*get_rate)(void *user, dmn_device_t dev);
};

/**
 * struct dmn_opp_regulator_ops - the device's supplies
 * @set_voltage: program supply @supply to [@min, @max] aiming at @target
 */
struct dmn_opp_regulator_ops {
	int (*set_voltage)(void *user, dmn_device_t dev, unsigned supply,
			   uint32_t min, uint32_t target, uint32_t max);
};

/**
 * dmn_opp_device_bind - make @dev use @table (takes a reference)
 * The device starts at no OPP (rate 0, no votes).
 * returns: 0, -EBADF, -EEXIST (already bound), -ENOMEM.
 */
int dmn_opp_device_bind(struct dmn_ctx *ctx, dmn_device_t dev, dmn_opp_table_t table);

/**
 * dmn_opp_device_unbind - drop the device's votes (as dmn_opp_set_rate(dev, 0)) and
 * its table reference; owners of tables it required settle to what is
 * left (safe direction)
 * returns: 0, -EBADF, -ENOENT (not bound).
 */
int dmn_opp_device_unbind(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_opp_device_table - the table a device is bound to
 * returns: 0, -EBADF, -ENOENT.
 */
int dmn_opp_device_table(struct dmn_ctx *ctx, dmn_device_t dev, dmn_opp_table_t *out);

/**
 * dmn_opp_device_set_clock / dmn_opp_device_set_regulators - attach providers
 * The pointers are kept. NULL ops removes the provider. What a new provider
 * runs at is unknown (the first set_rate programs it) unless the clock has
 * get_rate, which is read now. Without a clock provider the clock step
 * records the rate and calls nothing; without regulators supplies are
 * skipped.
 * returns: 0, -EBADF, -ENOENT (not bound).
 */
int dmn_opp_device_set_clock(struct dmn_ctx *ctx, dmn_device_t dev,
			 const struct dmn_opp_clock_ops *ops, void *user);
int dmn_opp_device_set_regulators(struct dmn_ctx *ctx, dmn_device_t dev,
			      const struct dmn_opp_regulator_ops *ops, void *user);

/**
 * dmn_opp_set_rate - move @dev to the ceil OPP of @hz
 * Going up: pstate votes (all of the device's domains, one transaction),
 * then supplies, then clock. Going down: clock, then supplies, then pstate
 * votes. The same OPP: nothing is called. A failure in the unsafe direction
 * (a raise, or any clock change) undoes the steps already done in reverse
 * and returns the error; the device stays at its old OPP. A failure to
 * lower a supply or a pstate is safe: the new OPP stands, that supply or
 * domain stays higher, the call returns 0 and the failure is reported
 * (events, dmn_last_error). @hz = 0 drops the device's votes and leaves the
 * clock alone.
 * Precisely, the move goes from what the providers last accepted to the
 * new entry in five steps, each skipped when it changes nothing: raise
 * votes (each attachment to the higher of its vote and the new one, one
 * core transaction), raise supplies (target up, or never set), clock,
 * lower supplies, lower votes. For a table rising monotonically that is
 * the order above; an entry raising one domain and lowering another is
 * never run above what its rails give it. Within a vote step the domains
 * the entry's required OPPs vote on come in the order the entry lists
 * them, raised in that order and lowered in the reverse (Linux's order;
 * rate 0: the old entry's), before the device's other attachments. The
 * attachments written are
 * those the old or the new entry drives (a required OPP or the helper's
 * pstate matched to them); others keep their direct dmn_vote() votes, and
 * every attachment of the device may take part. A rate that selects the
 * entry already in use calls nothing, unless a dmn_vote() changed one of its
 * attachments' votes since: then the entry's votes are written again (the
 * latest call wins), and only those. Votes are validated (-ENODEV, -ERANGE)
 * and the memory of every step reserved before anything is called, so
 * -ENOMEM changes nothing. A supply whose old window was never known is
 * not restored by a rollback.
 * returns: 0, -EBADF, -ENOENT (not bound), -ERANGE (@hz above the
 *   highest usable entry, a table without frequencies, or a vote above a
 *   domain's top level), -ENOMEM, or the failing provider's error.
 * Device-to-device requirements (see Model): the owners of the tables the
 * device requires into are raised before the device moves (counting its
 * old and new entry) and settle after it: a requirement an owner cannot
 * take (its vote -ERANGE or -ENODEV, a failed raise) fails this call, and
 * the owners moved go back; an owner failing to come down stays higher
 * (safe, reported). The same applies along chains of requirements.
 * cost: O(log n + A * R + A * depth) plus the core transactions, plus
 *   for requirements O(T * U * D) over the T tables reached, U users
 *   each, D devices bound to them, and each owner's own move.
 */
int dmn_opp_set_rate(struct dmn_ctx *ctx, dmn_device_t dev, uint64_t hz);

/**
 * dmn_opp_device_get - dmn_device_get() with the device's requirements
 * On the 0 -> 1 transition of a bound device whose entries require OPPs of
 * device tables, the owners are raised to what its current entry requires
 * (requirers before the tables they require), then dmn_device_get() runs.
 * If either fails, every owner moved goes back and the error is returned.
 * For other devices it is dmn_device_get(). Made of OPP and core steps,
 * each taking the context lock.
 * returns: 0, or as dmn_device_get, -ENOMEM, or an owner's move error
 *   (-ERANGE, -ENODEV, a provider's error).
 * cost: dmn_device_get plus the owners' moves (as dmn_opp_set_rate).
 */
int dmn_opp_device_get(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_opp_system_suspend - dmn_system_suspend() with the requirements
 * A requirer that sleep suspends stops counting (it counts only while it
 * is active: docs/device-tree.md, Device-to-device requirements): after
 * dmn_system_suspend() its owners settle as after dmn_opp_device_put (safe
 * direction: a failed move is reported by
 * dmn_last_error, the call succeeds). One locked call.
 * returns: 0, or as dmn_system_suspend.
 * cost: dmn_system_suspend plus the owners' moves.
 */
int dmn_opp_system_suspend(struct dmn_ctx *ctx);

/**
 * dmn_opp_system_resume - dmn_system_resume() with the requirements
 * Before the restoration, the owners of every requirer it brings back are
 * raised as by dmn_opp_device_get; if that raise fails, they go back, the
 * system wakes with nothing restored and the error is returned; if the
 * restoration fails, they go back too. After it, owners settle to what is
 * left. One locked call.
 * returns: 0, or as dmn_system_resume, or an owner's move error (-ERANGE,
 *   -ENODEV, a provider's error; the system is awake either way).
 * cost: dmn_system_resume plus the owners' moves.
 */
int dmn_opp_system_resume(struct dmn_ctx *ctx);

/**
 * dmn_opp_device_vote - dmn_vote() on attachment @i of @dev (dmn_device_attachment
 * order), as a device's own direct vote
 * For a device that owns a table others require into, the attachment
 * carries the higher of @level and what its effective entry votes there,
 * now and after every later requirement change, until its own next
 * dmn_opp_set_rate (its latest own word); docs/device-tree.md,
 * Device-to-device requirements. For any other device it
 * is dmn_vote(). Made of OPP and core steps, each taking the lock.
 * returns: 0, -EBADF, -ENOENT (no attachment @i), -ENOMEM, or as dmn_vote.
 * cost: as dmn_vote, plus the matching of one entry for an owner.
 */
int dmn_opp_device_vote(struct dmn_ctx *ctx, dmn_device_t dev, unsigned i,
		    uint32_t level);

/**
 * dmn_opp_device_put - dmn_device_put() with the device's requirements
 * On the 1 -> 0 transition the device's requirements stop counting: after
 * dmn_device_put() the owners settle to what is left (their own rate, other
 * active requirers), along a chain of requirements too. An owner left
 * with no entry at all (no rate of its own, no active requirer) drops its
 * votes and gets back the clock its own calls left it at (0 Hz if it was
 * never clocked): a requirement leaves no trace once its requirer is not
 * active. Those moves are the safe direction: one that fails leaves that
 * owner higher and is reported (dmn_last_error), the call still succeeds.
 * returns: 0, or as dmn_device_put.
 * cost: dmn_device_put plus the owners' moves.
 */
int dmn_opp_device_put(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_opp_device_current - the entry the device runs at (DMN_OPP_ID_NONE if none;
 * for a follower, possibly above the entry it votes for; for an owner of a
 * required table, its effective entry) and the rate it asked for last (may
 * be NULL for either)
 * returns: 0, -EBADF, -ENOENT (not bound).
 */
int dmn_opp_device_current(struct dmn_ctx *ctx, dmn_device_t dev, uint32_t *id,
		       uint64_t *requested_hz);

/**
 * dmn_opp_device_votes - the pstate votes entry @id casts on the device's
 * attachments: fills @levels[i] for attachment i (0 = none), up to @max
 * returns: the number of attachments, -EBADF, -ENOENT, -ENOMEM.
 */
int dmn_opp_device_votes(struct dmn_ctx *ctx, dmn_device_t dev, uint32_t id,
		     uint32_t *levels, unsigned max);

/* ---- get-pstate helper --------------------------------------------------- */

/**
 * typedef dmn_opp_get_pstate_fn - the platform's pstate for an OPP of @table
 * Store it in *@pstate and return 0, or return a negative errno.
 */
typedef int (*dmn_opp_get_pstate_fn)(void *user, dmn_opp_table_t table,
				 uint64_t rate, uint32_t *pstate);

/**
 * dmn_opp_register_get_pstate - register the table's get-pstate helper
 * Must come before any entry is added. Registering the same @fn and @user
 * again counts one more registration (also once entries exist: they carry
 * this helper's pstates already; a table shared by several devices is
 * registered by each). Each registration holds a table reference. Devices
 * bound to the table vote the recorded pstate on their single domain
 * (their first attachment) instead of their required OPPs.
 * returns: 0, -EINVAL (NULL @fn), -EBADF, -EBUSY (entries exist and this
 *   helper is not registered, or another helper is registered).
 */
int dmn_opp_register_get_pstate(struct dmn_ctx *ctx, dmn_opp_table_t table,
			    dmn_opp_get_pstate_fn fn, void *user);

/**
 * dmn_opp_unregister_get_pstate - drop one registration (and its reference;
 * the last reference frees the table). Entries keep their pstates.
 * returns: 0, -EBADF, -ENOENT (not registered).
 */
int dmn_opp_unregister_get_pstate(struct dmn_ctx *ctx, dmn_opp_table_t table);

/* ---- opportunistic scaling ------------------------------------------------ */

/**
 * dmn_opp_find_max_permitted - the fastest usable entry whose pstate votes are
 * all met by the current pstates of the device's domains (each vote <= the
 * domain's pstate), and not below the device's requested rate
 * returns: 0 and the id, -EBADF, -ENOENT (not bound, or no entry fits: for
 *   a suspended device even its own entry may not).
 * cost: O(n * R * A), from the top down.
 */
int dmn_opp_find_max_permitted(struct dmn_ctx *ctx, dmn_device_t dev, uint32_t *id);

/**
 * dmn_opp_device_follow - follow the domain (1) or not (0)
 * A following device keeps voting for its requested rate's OPP, but runs at
 * dmn_opp_find_max_permitted(): when other voters raise its domains it moves up
 * (supplies, then clock) after the raise; before they lower them it moves
 * back down (clock, then supplies), never below its requested OPP. A failure
 * of such an automatic move leaves the device where it was and is reported.
 * Policy details:
 *  - the moves are driven by the core's DMN_EV_PSTATE (after a rise) and
 *    DMN_EV_PSTATE_LOWERING (before a lowering, with the level it goes to)
 *    through one listener the layer registers while any device follows;
 *  - the reported failure is an event and the dmn_last_error() of the call
 *    that caused the move (which itself succeeds); it cannot stop a
 *    lowering, so a clock that refuses to go down runs above its rail;
 *  - in its own dmn_opp_set_rate a follower moves to the best permitted entry
 *    once its raised votes are in, and rides its own lowering down;
 *  - turning following on moves up at once if permitted; turning it off
 *    moves back to the requested OPP; a device with no requested OPP
 *    (rate 0) is not moved.
 * returns: 0, -EBADF, -ENOENT (not bound), -ENOSPC (no listener slot left).
 */
int dmn_opp_device_follow(struct dmn_ctx *ctx, dmn_device_t dev, bool follow);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_OPP_H */
