/* SPDX-License-Identifier: MIT */
/*
 * domino - power domains, devices, attachments, the subdomain graph and
 * performance-state (pstate) votes.
 *
 * Model
 *  - A domain is on while an attached device is active, a child domain is
 *    on, or it is always-on (and, once on, while in HW mode or kept by an
 *    always-on device: lifecycle.h). Power-on runs parents first, power-off
 *    children first.
 *  - Each (device, domain) attachment holds one pstate vote; 0 = no vote. A
 *    domain's pstate is the maximum over the votes of its active devices and
 *    the requirements of its on children. A child at pstate p requires of a
 *    parent map(p) (identity unless a level map is set on the link).
 *  - Every state-changing call is a transaction. A failure in the unsafe
 *    direction (power-on, pstate raise) undoes every step already taken and
 *    the call returns that error: nothing observable differs from before. A
 *    failure in the safe direction (power-off, lowering) leaves that domain
 *    where it was (its parents keep what it still needs), the call succeeds,
 *    and the failure is reported to the listeners and by dmn_last_error().
 *    The records always equal what the callbacks last accepted.
 *  - Order inside one call: raise pstates (parents first), power on
 *    (parents first, devices' domains in attachment order, a domain's
 *    parents in link order), power off (children first), lower pstates
 *    (children first). Power-off and lowering walk as Linux's genpd does: a
 *    domain, then each parent it frees, depth first, power-off in the order
 *    the links were added (child C with parents P then Q: C, P and what P
 *    frees, Q), lowering in the reverse order (C, Q, P and what P frees).
 *    A rollback undoes in the reverse order of what it undoes. Each domain
 *    gets at most one pstate call per operation, and only if its level
 *    changes.
 *  - The graph has no depth limit: every walk is iterative, on scratch
 *    sized by the number of domains (reserved by dmn_domain_create).
 *
 * Cost
 *  Aggregation keeps, per domain, a count of counted votes per distinct
 *  level with the maximum current, so a vote costs O(log L) per domain it
 *  reaches (L = distinct levels voted on that domain, bounded by the table
 *  size where the domain has levels), whatever the number of voters. An
 *  operation touches the affected domains and their ancestors: A below.
 *
 * Threads
 *  Every call takes the context lock (see struct dmn_lock_ops), except the
 *  fast paths of a context on the default lock: dmn_vote whose effect stays
 *  on one chain of domains (the voted domain and its single-parent
 *  ancestors, all on) and nested dmn_device_get / dmn_device_put, which hold
 *  only a lock stripe and the domains they change, so calls on disjoint
 *  subtrees run in parallel. Callbacks and listeners run synchronously, on
 *  the calling thread, with the domains they are about held; a call they
 *  make back into the same context returns -EDEADLK (see context.h). The
 *  callbacks and listeners of two different domains may run at the same
 *  time on two threads: they must not share unsynchronized state.
 */
#ifndef DOMINO_DOMAIN_H
#define DOMINO_DOMAIN_H

#include <domino/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Handles: 0 is never valid. Stale or wrong-kind handles give -EBADF. */
typedef uint32_t dmn_domain_t;
typedef uint32_t dmn_device_t;
typedef uint32_t dmn_attach_t;

/**
 * struct dmn_domain_ops - the hardware behind a domain; any member may be NULL
 * @power_on:  switch the domain on; 0 or a negative errno (the operation is
 *             then rolled back)
 * @power_off: switch it off; a failure leaves it on (safe direction).
 *             @idle_state is the index the governor chose, or -1 when the
 *             domain has no idle states.
 * @set_performance_state: apply @level; called only when the aggregate
 *             changes. A domain without it passes its level to its parents;
 *             a non-zero vote fails with -ENODEV when neither the voted
 *             domain nor any domain above it (through every link) has one.
 * @set_hwmode: hand @dev's use of the domain to the hardware (@hw 1) or
 *             take it back (0) (Linux 6.11 set_hwmode_dev); called only
 *             when that attachment's mode changes. A failure leaves the
 *             mode as it was. Without it, dmn_attach_set_hwmode() answers
 *             -EOPNOTSUPP (lifecycle.h).
 * All run with the domain held (the context lock, or on a fast path the
 * domain's own lock): never twice at once for one domain, but two domains'
 * callbacks may run at once on two threads (see Threads above).
 */
struct dmn_domain_ops {
	int (*power_on)(void *user, dmn_domain_t dom);
	int (*power_off)(void *user, dmn_domain_t dom, int idle_state);
	int (*set_performance_state)(void *user, dmn_domain_t dom,
				     uint32_t level);
	int (*set_hwmode)(void *user, dmn_domain_t dom, dmn_device_t dev,
			  int hw);
};

#define DMN_FLAG_ALWAYS_ON (1u << 0) /* never powers off; on from creation */
/* A CPU PM domain (Linux GENPD_FLAG_CPU_DOMAIN: PSCI's power-domain-*
 * nodes): the system wakeup latency (lifecycle.h) limits its idle states,
 * at run time and in system sleep, beside the QoS of the devices below. */
#define DMN_FLAG_CPU_DOMAIN (1u << 1)

/**
 * struct dmn_domain_desc - what dmn_domain_create() needs
 * @name:  copied; need not be unique, but dmn_domain_find() returns the first
 * @ops:   callbacks (the pointer is kept: it must outlive the domain), or NULL
 * @user:  passed to every callback
 * @flags: DMN_FLAG_*
 */
struct dmn_domain_desc {
	const char *name;
	const struct dmn_domain_ops *ops;
	void *user;
	uint32_t flags;
};

/**
 * typedef dmn_round_fn - round a vote up to a level the domain supports
 * Store in *@rounded the smallest supported level >= @level and return 0,
 * or return -ERANGE when @level is above the highest. Must be monotonic.
 * Called with the lock held (on a fast path: the domain's stripe, so two
 * domains' hooks may run at once); must not fail for a level it accepted
 * before.
 */
typedef int (*dmn_round_fn)(void *user, dmn_domain_t dom, uint32_t level,
			   uint32_t *rounded);

/**
 * typedef dmn_map_fn - the level a child at @child_level requires of @parent
 * Store it in *@parent_level (0 = nothing) and return 0, or return a
 * negative errno. Must be monotonic and deterministic (the engine may call
 * it again for a level it mapped before and relies on the same answer); it
 * is never called for level 0.
 */
typedef int (*dmn_map_fn)(void *user, dmn_domain_t child, dmn_domain_t parent,
			 uint32_t child_level, uint32_t *parent_level);

/**
 * dmn_domain_create - add a domain
 * @desc: see struct dmn_domain_desc
 * @out:  receives the handle
 *
 * An always-on domain is powered on here, as the engine powers a domain
 * on: listeners get DMN_EV_POWER_ON, or, when its power_on fails,
 * DMN_EV_FAILURE (op DMN_OP_POWER_ON, @safe 0) with the handle it would
 * have had.
 * returns: 0, or -EINVAL (NULL argument or name), -ENOMEM, -ENOSPC (handle
 *   space exhausted), or the error of an always-on domain's power_on (then
 *   nothing was created).
 * cost: O(1) amortized.
 */
int dmn_domain_create(struct dmn_ctx *ctx, const struct dmn_domain_desc *desc,
		     dmn_domain_t *out);

/**
 * dmn_domain_remove - delete a domain that nothing uses any more
 * No callback runs. The handle becomes stale.
 * returns: 0, or -EBADF (stale handle), -EBUSY if it still has attachments,
 *   parents or children.
 * cost: O(1).
 */
int dmn_domain_remove(struct dmn_ctx *ctx, dmn_domain_t dom);

/**
 * dmn_domain_set_rounding - install the level-rounding hook of a domain
 * Votes on @dom, and requirements passed to it by children, are rounded with
 * @fn when they are cast; -ERANGE from @fn fails the vote. NULL @fn removes it.
 * Only allowed while nothing counts a level on the domain.
 * returns: 0, -EBADF, -EINVAL, -EBUSY if the domain's pstate is not 0, or
 * -ENOMEM (the domain's first hook needs its rarely used part; nothing
 * changes).
 * cost: O(1).
 */
int dmn_domain_set_rounding(struct dmn_ctx *ctx, dmn_domain_t dom,
			   dmn_round_fn fn, void *user);

/**
 * dmn_domain_find - look a domain up by name
 * returns: 0 and *@out, or -EINVAL, -ENOENT if none has that name.
 * cost: O(domains).
 */
int dmn_domain_find(struct dmn_ctx *ctx, const char *name, dmn_domain_t *out);

/* ---- subdomain graph -------------------------------------------------- */

/**
 * dmn_link_add - make @child a subdomain of @parent
 * A child may have several parents. If the child is on, the parent powers on
 * (and raises to the child's requirement) now, as a transaction.
 * returns: 0, or -EBADF, -EINVAL (NULL ctx), -ELOOP if @parent is @child or
 *   below it (only then: depth alone is never an error), -EEXIST if the
 *   link exists, -ENOMEM, or a callback error of the parent's power-on or
 *   pstate raise (then the link is not added).
 * cost: the cycle check searches up from @parent and down from @child in
 *   turns, so about twice the smaller of (domains and links above @parent,
 *   domains and links below @child): O(depth) or better on a tree, O(1)
 *   when building a chain from either end. Plus, if @child carries QoS or
 *   wakeup constraints, O(domains and links above @parent); plus A.
 */
int dmn_link_add(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child);

/**
 * dmn_link_remove - the exact inverse of dmn_link_add
 * The parent loses the child's use and requirement (safe direction: it may
 * stay on or high if its callbacks fail, and the call still succeeds).
 * returns: 0, or -EBADF, -ENOENT if there is no such link, -ENOMEM (then
 *   nothing changed).
 * cost: O(parents of child + children of parent) + A.
 */
int dmn_link_remove(struct dmn_ctx *ctx, dmn_domain_t parent,
		   dmn_domain_t child);

/**
 * dmn_link_set_map - set the level mapping of one link (NULL = identity)
 * If the child is on, its requirement on the parent changes now, as a
 * transaction (a raise can fail and is then undone).
 * returns: 0, -EBADF, -ENOENT (no such link), -ERANGE / callback errors.
 * cost: O(1) + A.
 */
int dmn_link_set_map(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child,
		    dmn_map_fn fn, void *user);

/**
 * dmn_link_set_floor - a level @child requires of @parent whenever it is on,
 * whatever its own pstate (a provider's own `required-opps`); 0 removes it
 * The level is validated and rounded as a vote on @parent would be. If the
 * child is on, the requirement changes now, as a transaction.
 * returns: 0, -EBADF, -ENOENT (no such link), -ENODEV / -ERANGE (as
 *   dmn_vote on @parent), or a callback error of the raise.
 * cost: O(1) + A.
 */
int dmn_link_set_floor(struct dmn_ctx *ctx, dmn_domain_t parent,
		      dmn_domain_t child, uint32_t level);

/* ---- devices and attachments ------------------------------------------ */

/**
 * dmn_device_create - add a device (suspended, attached to nothing)
 * @name: copied
 * returns: 0, -EINVAL, -ENOMEM, -ENOSPC.
 * cost: O(1) amortized.
 */
int dmn_device_create(struct dmn_ctx *ctx, const char *name, dmn_device_t *out);

/**
 * dmn_device_remove - delete a device that has no attachments
 * returns: 0, -EBADF, -EBUSY if it is still attached or active.
 */
int dmn_device_remove(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_device_find - look a device up by name
 * returns: 0, -EINVAL, -ENOENT. cost: O(devices).
 */
int dmn_device_find(struct dmn_ctx *ctx, const char *name, dmn_device_t *out);

/**
 * dmn_attach - attach @dev to @dom, with no vote
 * Attachments keep their order: it is the device's `power-domains` order,
 * used for power-on. If the device is active, the domain powers on now.
 * returns: 0 and *@out, or -EBADF, -EINVAL, -EEXIST (already attached to
 *   @dom), -ENOMEM, -ENOSPC, or a power-on error (then nothing changed).
 * cost: O(attachments of dev) + A.
 */
int dmn_attach(struct dmn_ctx *ctx, dmn_device_t dev, dmn_domain_t dom,
	      dmn_attach_t *out);

/**
 * dmn_detach - the exact inverse of dmn_attach; the handle becomes stale
 * If the device is active, its vote and its use of the domain go (safe
 * direction: callback failures never make it fail).
 * returns: 0, or -EBADF (stale handle, e.g. detached twice), -ENOMEM (then
 *   nothing changed).
 * cost: O(attachments of dev) + A.
 */
int dmn_detach(struct dmn_ctx *ctx, dmn_attach_t att);

/**
 * dmn_device_get - runtime-resume: count one more user of the device
 * On the 0 -> 1 transition the device's votes count again (pstates raised,
 * parents first) and then its domains power on (parents first, in
 * attachment order).
 * returns: 0, or -EBADF, -EOVERFLOW (count would wrap), -ENOMEM, or the
 *   first callback error (then the count and every domain are as before).
 * cost: A.
 */
int dmn_device_get(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_device_put - runtime-suspend: drop one user
 * On the 1 -> 0 transition the domains power off where unused (children
 * first) and then the votes stop counting (pstates lowered, children
 * first). Never fails for callback reasons (safe direction).
 * returns: 0, or -EBADF, -EALREADY if the count is already 0, -ENOMEM
 *   (then nothing changed).
 * cost: A.
 */
int dmn_device_put(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_device_set_parent - make @parent @dev's runtime-PM parent (0: none)
 * Linux's runtime-PM parent, as a simple-pm-bus is to the devices on it:
 * while @dev is active, @parent is active. @dev's 0 -> 1 transition
 * (dmn_device_get) resumes @parent first if it was suspended, and its
 * 1 -> 0 transition suspends @parent after it if @dev was the last active
 * child and @parent has no user of its own; up the chain of parents, in
 * one operation (one commit: at most one pstate call per domain, an
 * unsafe failure anywhere rolls every device and domain back). The
 * parents' domains are touched first: on resume they power on before
 * @dev's, on suspend they power off after them (where the domain graph
 * does not order them already). Each active child counts once in its
 * parent's usage (dmn_device_info); dmn_device_put of the parent never
 * takes it below its active children (-EALREADY). A parent resumed
 * through its child is not probed by that (dmn_device_probe). A removed
 * parent leaves the child without one. Part of the devparent unit: a core
 * that never calls this runs no parent code.
 * returns: 0, or -EINVAL (NULL @ctx), -EBADF (@dev, or a non-zero
 *   @parent, names no device), -EBUSY (@dev is active, or suspended by
 *   system sleep: set the parent first), -ELOOP (@parent is @dev or a
 *   device below it), -ENOMEM. On error nothing changed.
 * cost: O(depth of @parent's chain); afterwards a resume or suspend costs
 *   O(d^2) more in the length d of the chain of parents it moves.
 */
int dmn_device_set_parent(struct dmn_ctx *ctx, dmn_device_t dev,
			  dmn_device_t parent);

/**
 * dmn_device_parent - @dev's parent (0: none) and its active children
 * Either pointer may be NULL, not both.
 * returns: 0, or -EINVAL, -EBADF. cost: O(1).
 */
int dmn_device_parent(struct dmn_ctx *ctx, dmn_device_t dev,
		      dmn_device_t *parent, unsigned *active_children);

/**
 * dmn_vote - set the pstate vote of one attachment (0 = no vote)
 * The level is rounded up by the domain's rounding hook (if any). It counts
 * at once if the device is active, else it is stored for the next resume.
 * Voting the same level again is a no-op.
 * returns: 0, or -EBADF, -ENOMEM, -ENODEV (a non-zero vote, and no domain
 *   it can reach - @att's domain and every domain above it, through every
 *   link - has a set_performance_state callback), -ERANGE (above the top
 *   level of this domain or of an ancestor it passes to), a level map's
 *   own error, or a callback error of a raise (then the old vote stands
 *   and nothing changed). Errors other than callback ones are checked even
 *   while suspended.
 * cost: O(domains and links above the domain) to validate a non-zero
 *   level, O(log L) per domain reached + A; independent of the voter
 *   count. The same level again is O(1); a counted vote on an on domain
 *   whose ancestry is a chain of up to 8 on domains (one parent each) is
 *   O(chain * log L) + its callbacks (no undo log, no walk), with the same
 *   effects, and on the default lock runs beside votes on other chains
 *   (not in size-optimized builds, where every vote takes the engine).
 */
int dmn_vote(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level);

/**
 * struct dmn_vote_change - one element of dmn_vote_many()
 */
struct dmn_vote_change {
	dmn_attach_t att;
	uint32_t level;
};

/**
 * dmn_vote_many - set several votes of one device in one transaction
 * Used by the OPP layer so a rate change raises all the device's domains
 * before its clock moves. All attachments must belong to one device.
 * Any @n that memory allows (the validated changes are kept in a scratch
 * array of the context that grows to the largest call).
 * returns: as dmn_vote; -EINVAL if the attachments are of several devices or
 *   @n is 0. On failure no vote changed.
 * cost: O(n) + what dmn_vote costs for each domain reached.
 */
int dmn_vote_many(struct dmn_ctx *ctx, const struct dmn_vote_change *changes,
		 unsigned n);

/* ---- introspection ---------------------------------------------------- */

/**
 * struct dmn_domain_info - a snapshot of one domain
 * @name, @flags: as created (the name is owned by the library; valid until
 *        the domain is removed)
 * @on:   whether the domain is on, as last accepted by the callbacks
 * @pstate: its current level, as last accepted
 * @target_pstate: what its counted votes and requirements ask for now; it
 *        differs from @pstate only after a safe-direction failure
 * @active_devices: attached devices that are active
 * @on_children: child domains counted as on
 * @n_parents, @n_children, @n_attachments: sizes of the lists below
 * @idle_state: index of the idle state it sits in while off, -1 if none
 * @has_pstate_cb: whether it has a set_performance_state callback
 */
struct dmn_domain_info {
	const char *name;
	uint32_t flags;
	int on;
	uint32_t pstate;
	uint32_t target_pstate;
	unsigned active_devices;
	unsigned on_children;
	unsigned n_parents;
	unsigned n_children;
	unsigned n_attachments;
	int idle_state;
	int has_pstate_cb;
};

/**
 * dmn_domain_info - fill *@out with the state of @dom
 * returns: 0, -EBADF, -EINVAL. cost: O(1).
 */
int dmn_domain_info(struct dmn_ctx *ctx, dmn_domain_t dom,
		   struct dmn_domain_info *out);

/**
 * dmn_domain_next - iterate over all domains in creation order
 * @prev: 0 to start, else a handle returned by the previous call
 * returns: 0 and *@next, -ENOENT after the last one, -EBADF for a bad @prev.
 * cost: O(1) amortized per step.
 */
int dmn_domain_next(struct dmn_ctx *ctx, dmn_domain_t prev, dmn_domain_t *next);

/**
 * dmn_domain_parent - the @i-th parent of @dom (in link order)
 * returns: 0, -EBADF, -EINVAL, -ENOENT if @i >= n_parents. cost: O(1).
 */
int dmn_domain_parent(struct dmn_ctx *ctx, dmn_domain_t dom, unsigned i,
		     dmn_domain_t *out);

/**
 * dmn_domain_child - the @i-th child of @dom; as dmn_domain_parent
 */
int dmn_domain_child(struct dmn_ctx *ctx, dmn_domain_t dom, unsigned i,
		    dmn_domain_t *out);

/**
 * dmn_link_info - what a link currently passes up
 * @req: the level the child currently requires of the parent (0 if the child
 *       is off); @child_on: whether the parent counts the child as on
 * returns: 0, -EBADF, -ENOENT (no such link), -EINVAL.
 */
int dmn_link_info(struct dmn_ctx *ctx, dmn_domain_t parent, dmn_domain_t child,
		 uint32_t *req, int *child_on);

/**
 * dmn_domain_next_attachment - iterate over a domain's attachments
 * @prev: 0 to start
 * returns: 0 and *@next, -ENOENT at the end, -EBADF. cost: O(1) per step.
 */
int dmn_domain_next_attachment(struct dmn_ctx *ctx, dmn_domain_t dom,
			      dmn_attach_t prev, dmn_attach_t *next);

/**
 * struct dmn_device_info - a snapshot of one device
 * @name: owned by the library; valid until the device is removed
 * @usage: the get/put count; the device is active while it is > 0
 * @n_attachments: number of domains it is attached to
 */
struct dmn_device_info {
	const char *name;
	unsigned usage; /* gets not put, plus one per active child
			 * (dmn_device_set_parent) */
	unsigned n_attachments;
};

/** dmn_device_info - returns: 0, -EBADF, -EINVAL. cost: O(1). */
int dmn_device_info(struct dmn_ctx *ctx, dmn_device_t dev,
		   struct dmn_device_info *out);

/** dmn_device_next - iterate over all devices; as dmn_domain_next */
int dmn_device_next(struct dmn_ctx *ctx, dmn_device_t prev, dmn_device_t *next);

/**
 * dmn_device_attachment - the @i-th attachment of @dev, in attachment order
 * returns: 0, -EBADF, -EINVAL, -ENOENT. cost: O(1).
 */
int dmn_device_attachment(struct dmn_ctx *ctx, dmn_device_t dev, unsigned i,
			 dmn_attach_t *out);

/**
 * struct dmn_attach_info - a snapshot of one attachment
 * @device, @domain: its two ends
 * @vote:   the stored vote (after rounding), 0 = none
 * @counts: whether the vote currently counts (the device is active)
 */
struct dmn_attach_info {
	dmn_device_t device;
	dmn_domain_t domain;
	uint32_t vote;
	int counts;
};

/** dmn_attach_info - returns: 0, -EBADF, -EINVAL. cost: O(1). */
int dmn_attach_info(struct dmn_ctx *ctx, dmn_attach_t att,
		   struct dmn_attach_info *out);

/**
 * dmn_attach_find - the attachment of @dev to @dom
 * returns: 0, -EBADF, -EINVAL, -ENOENT. cost: O(attachments of dev).
 */
int dmn_attach_find(struct dmn_ctx *ctx, dmn_device_t dev, dmn_domain_t dom,
		   dmn_attach_t *out);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_DOMAIN_H */
