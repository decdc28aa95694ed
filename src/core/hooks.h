/* SPDX-License-Identifier: MIT */
/*
 * The core and its optional units (src/units.txt): the hooks a unit
 * installs in the context the first time it is used, which the core calls
 * through (so an image without the unit links without it), and the core
 * calls the units make with the lock held.
 */
#ifndef DOMINO_CORE_HOOKS_H
#define DOMINO_CORE_HOOKS_H

#include "ctx.h"

/* ---- the lifecycle unit (lifecycle.c, sleep.c) ----------------------------- */

/* Installed in ctx->life by its first call that makes lifecycle state (a
 * boot hold, a probe, system sleep). Until then no domain is held, none
 * has sleep statistics and a resume's probe only marks the device probed,
 * so an image that never calls the lifecycle links without it. */
struct dmn_lifecycle_hooks {
	/* Probe @dev (the lock held) and commit; @begun: inside
	 * dmn_device_get, whose resume began the transaction and set its
	 * inputs (one commit for both). */
	int (*probe_locked)(struct dmn_ctx *ctx, struct dmn_device *dev,
			    bool begun);
	/* dmn_attach / dmn_detach: @dev's attachment to @d comes or goes. */
	void (*attach)(struct dmn_domain *d, const struct dmn_device *dev,
		       bool attach);
	/* Free @d's system-sleep statistics. */
	void (*domain_free)(struct dmn_ctx *ctx, struct dmn_domain *d);
	/* Add (@delta 1) or take away (-1) the power-off vetoes an
	 * attachment gives its domain (dmn__lifecycle_vetoes). */
	bool (*vetoes)(struct dmn_attachment *a, int delta);
	/* System sleep's idle state for @d (dmn__sleep_choose): only
	 * dmn_system_suspend, which installs these hooks, asks. */
	int (*sleep_choose)(struct dmn_ctx *ctx, struct dmn_domain *d,
			    unsigned *rejected_from);
};
/* The start of every lifecycle and sleep call, once the entry let it in:
 * install the hooks (idempotent) and clear the call's first
 * safe-direction error (ctx->op_error). */
void dmn__lifecycle_begin(struct dmn_ctx *ctx);
int dmn__lifecycle_probe_locked(struct dmn_ctx *ctx, struct dmn_device *dev,
				bool begun);
void dmn__lifecycle_attach(struct dmn_domain *d, const struct dmn_device *dev,
			   bool attach);
/* Add (@delta 1) or take away (-1) the power-off vetoes @a gives its
 * domain (HW mode, an always-on device); true if it gives any. dmn_attach
 * adds them, dmn_detach takes them away in its transaction (and puts them
 * back if that fails). */
bool dmn__lifecycle_vetoes(struct dmn_attachment *a, int delta);
/* sleep.c: system sleep's choice for @d: its deepest state, or for a CPU
 * domain the deepest within the system wakeup latency (DMN_GOV_STAY_ON if
 * none fits), recorded for explain; *@rejected_from as for
 * dmn__stats_power. */
int dmn__sleep_choose(struct dmn_ctx *ctx, struct dmn_domain *d,
		      unsigned *rejected_from);
/* sleep.c: free @d's system-sleep statistics. */
void dmn__sleep_free(struct dmn_ctx *ctx, struct dmn_domain *d);
/* sleep.c: dmn_system_suspend / dmn_system_resume with the lock held, for
 * a caller that adds steps of its own in the same locked call
 * (src/opp/devsleep.c): the result is already in dmn_last_error. */
int dmn__system_suspend_locked(struct dmn_ctx *ctx);
int dmn__system_resume_locked(struct dmn_ctx *ctx);

/* ---- the OPP layer ---------------------------------------------------------- */

/* Free the OPP layer's state of @ctx, whatever the reference counts say
 * (src/opp/teardown.c; dmn_ctx_destroy calls it directly in a firmware
 * build, through ctx->opp_fini otherwise). */
void dmn__opp_ctx_fini(struct dmn_ctx *ctx);

/* ---- core calls with the lock held, for the units -------------------------- */

/* dmn_device_get, dmn_device_put and dmn_vote with the lock already held
 * (the OPP layer's dmn_opp_device_get/put/vote, which must not release
 * the lock around them: a concurrent destroy of the device or its OPP
 * state could run in the gap). Same results; they set dmn_last_error(). */
int dmn__device_get_locked(struct dmn_ctx *ctx, dmn_device_t h);
int dmn__device_put_locked(struct dmn_ctx *ctx, dmn_device_t h);
int dmn__vote_locked(struct dmn_ctx *ctx, dmn_attach_t att, uint32_t level);
/* Set @a's vote to @level (checked) and whether it counts in an open
 * transaction, and touch its domain if it counts (nothing if both are as
 * they were); on an error the transaction is aborted. For dmn_vote,
 * dmn_attach and dmn_vote_many (extend.c). */
int dmn__vote_set(struct dmn_ctx *ctx, struct dmn_attachment *a,
		  uint32_t level, bool counted);
/* dmn_link_add, and with @map every parent link of @child (the new one's
 * included) mapped by (@map, @map_user) and its requirement passed up
 * again, all in the one transaction: on failure nothing changed (the OPP
 * layer's dmn_opp_link_add). */
int dmn__link_add_map(struct dmn_ctx *ctx, dmn_domain_t parent,
		      dmn_domain_t child, dmn_map_fn map, void *map_user);
/* Make @l pass up (on, requirement(level)) now, as one transaction;
 * sets dmn_last_error(). */
int dmn__link_update(struct dmn_ctx *ctx, struct dmn_link *l, bool on,
		     uint32_t level);
/* After a link to or from @c was added or removed: unchanged non-zero
 * votes are checked again where one may sit below @c (ctx->relinked). */
void dmn__note_relink(struct dmn_ctx *ctx, struct dmn_domain *c);
/* @dev's attachment to @d, or NULL. */
struct dmn_attachment *dmn__attach_find(const struct dmn_device *dev,
					const struct dmn_domain *d);
/* Take @a out of its domain's list and its device's array (it stays
 * allocated and keeps its handle). */
void dmn__att_unlink(struct dmn_ctx *ctx, struct dmn_attachment *a);
void dmn__domain_free(struct dmn_ctx *ctx, struct dmn_domain *d);

#endif /* DOMINO_CORE_HOOKS_H */
