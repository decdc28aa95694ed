/* SPDX-License-Identifier: MIT */
/*
 * The transaction: the one engine every state change goes through (txn.c
 * says how), the graph walks it uses (walk.c) and the records its
 * callbacks update (stats.c, idle.c, qos.c).
 *
 * A call opens a transaction (dmn__txn_begin), changes inputs through the
 * dmn__txn_* setters, which log how to undo each change, touches the
 * domains whose inputs changed, and commits (dmn__txn_commit: callbacks,
 * events, statistics; a failure rolls back) or aborts (dmn__txn_abort:
 * inputs back, no callback).
 */
#ifndef DOMINO_CORE_TXN_H
#define DOMINO_CORE_TXN_H

#include "ctx.h"

/* ---- one transaction (txn.c) ----------------------------------------------- */

void dmn__txn_begin(struct dmn_ctx *ctx);
/* @level (0: nothing) as one more input of @d, with room for it in the
 * statistics and the log: 0 or -ENOMEM, nothing changed. */
int dmn__txn_hist_add(struct dmn_ctx *ctx, struct dmn_domain *d,
		      uint32_t level);
/* One input of @d at @level (0: nothing) fewer; the caller reserved log
 * room (cannot fail). */
void dmn__txn_hist_remove(struct dmn_ctx *ctx, struct dmn_domain *d,
			  uint32_t level);
/* @a's vote to @vote, and whether it counts in its domain: 0 or -ENOMEM,
 * nothing changed. Does not touch the domain. */
int dmn__txn_set_vote(struct dmn_ctx *ctx, struct dmn_attachment *a,
		      uint32_t vote, bool counted);
/* @d's inputs changed: the commit visits it and every domain above. */
void dmn__txn_touch(struct dmn_ctx *ctx, struct dmn_domain *d);
/* Make the hardware follow the inputs: 0, or the first unsafe callback
 * error (everything rolled back, ROLLBACK announced). Safe-direction
 * failures are kept and noted in ctx->op_error. Ends the transaction. */
int dmn__txn_commit(struct dmn_ctx *ctx);
/* Put every input back and end the transaction; no callback runs. */
void dmn__txn_abort(struct dmn_ctx *ctx);
/* The engine's power-on step for @d (nothing if on or nothing wants it
 * on): the callback, statistics, DMN_EV_POWER_ON or an unsafe
 * DMN_EV_FAILURE and ctx->op_error; 0 or the callback's error (-EIO for
 * a positive one). dmn__txn_commit's, and an always-on domain's at its
 * creation. */
int dmn__txn_power_on(struct dmn_ctx *ctx, struct dmn_domain *d);
/* A vote of @level on @d as it would be cast: -ENODEV when no domain at
 * or above @d has a pstate callback, the rounding hook's and the maps'
 * errors, -ERANGE; 0 with *@rounded the level to store (0 for 0). */
int dmn__txn_check_level(struct dmn_ctx *ctx, struct dmn_domain *d,
			 uint32_t level, uint32_t *rounded);
/* Point @l at (on, requirement(level)), logged. */
int dmn__txn_link_set(struct dmn_ctx *ctx, struct dmn_link *l, bool on,
		      uint32_t level);
/* Give @l a new map and floor; a failed commit puts the old ones back
 * before its rollback recomputes what the child requires. */
int dmn__txn_link_config(struct dmn_ctx *ctx, struct dmn_link *l,
			 dmn_map_fn map, void *map_user, uint32_t floor);
/* Store @v in the 32-bit field at @field, logging the old value: a
 * failed commit puts it back (a device's usage, devparent.c's counts). */
int dmn__txn_set_u32(struct dmn_ctx *ctx, unsigned *field, unsigned v);
/* An event's kind, callback and safe flag in one word (fewer arguments at
 * each emit site): DMN_EV(kind, op, safe). */
#define DMN_EV(kind, op, safe) \
	((unsigned)(kind) | (unsigned)(op) << 8 | (unsigned)(safe) << 16)
/* One event for the listeners, as the engine builds it: what @ev packs,
 * @error, and a move from @old_v to @new_v (levels, idle states, 0/1).
 * Nothing when nobody listens. */
void dmn__txn_emit(struct dmn_ctx *ctx, unsigned ev, const struct dmn_domain *d,
		   int error, uint32_t old_v, uint32_t new_v);

/* The level a child at @child_level requires of the parent of @l: through
 * the link's map and the parent's rounding hook, at least the link's
 * @floor (0: none). 0, or the map's or the hook's error. */
int dmn__requirement_slow(const struct dmn_link *l, uint32_t child_level,
			  uint32_t floor, uint32_t *out);
/* The same with the link's floor, without a call for the common link
 * (no map, a parent without a rounding hook). */
static inline int dmn__requirement(const struct dmn_link *l,
				   uint32_t child_level, uint32_t *out)
{
	if (!l->map && !dom_cold(l->parent)->round) {
		*out = child_level > l->floor ? child_level : l->floor;
		return 0;
	}
	return dmn__requirement_slow(l, child_level, l->floor, out);
}

/* ---- graph walks (walk.c): iterative, O(domains + links visited) ----------- */

/* Put @from and every domain above it into ctx->walk, each after all its
 * parents (parents in link order); returns how many. Marks them with a new
 * walk epoch: walk_mark == ctx->walk_epoch. */
unsigned dmn__walk_up(struct dmn_ctx *ctx, struct dmn_domain *from);
/* The same with @from and every domain below it, each after all its
 * children. */
unsigned dmn__walk_down(struct dmn_ctx *ctx, struct dmn_domain *from);
/* Append @from and every domain above it not yet marked with ctx->epoch to
 * ctx->order, each after all its parents, marking them. */
void dmn__walk_touch(struct dmn_ctx *ctx, struct dmn_domain *from);
/* Is @target @from or below it? */
bool dmn__walk_reaches_down(struct dmn_ctx *ctx, struct dmn_domain *from,
			    struct dmn_domain *target);
/* Grow every scratch array to hold ctx->domains.live + @extra domains. */
int dmn__walk_reserve(struct dmn_ctx *ctx, unsigned extra);

/* ---- what the callbacks' outcomes update ----------------------------------- */

/* idle.c: the governor's choice for @d; *@rejected_from as for
 * dmn__stats_power. */
int dmn__idle_choose(struct dmn_ctx *ctx, struct dmn_domain *d, uint64_t now,
		     unsigned *rejected_from);
void dmn__idle_free(struct dmn_ctx *ctx, struct dmn_domain *d);
/* qos.c: the constraints below a domain. */
int dmn__qos_attach(struct dmn_ctx *ctx, struct dmn_device *dev,
		    struct dmn_domain *d, bool attach);
int dmn__qos_link(struct dmn_ctx *ctx, struct dmn_domain *parent,
		  struct dmn_domain *child, bool link);
void dmn__qos_effective(struct dmn_ctx *ctx, const struct dmn_domain *d,
			uint64_t now, uint64_t *qos_ns, uint64_t *wakeup_ns);
/* stats.c */
void dmn__stats_free(struct dmn_ctx *ctx, struct dmn_domain *d);
/* Room for @extra levels not seen yet; -ENOMEM changes nothing. */
int dmn__stats_reserve(struct dmn_ctx *ctx, struct dmn_domain *d,
		       unsigned extra);
void dmn__stats_account(struct dmn_domain *d, uint64_t now);
/* @rejected_from: the governor ruled out every idle state at or after this
 * index (UINT_MAX: none). */
void dmn__stats_power(struct dmn_ctx *ctx, struct dmn_domain *d, bool on,
		      int idle, unsigned rejected_from);
void dmn__stats_rejected(struct dmn_domain *d, unsigned rejected_from);
void dmn__stats_pstate_slow(struct dmn_ctx *ctx, struct dmn_domain *d,
			    uint32_t new_level);
/* Whether @level is the pstate before the current one, by the slot hints
 * (struct dmn_stats): a vote that goes up and comes back. */
static inline bool dmn__stats_is_back(const struct dmn_stats *s,
				      uint32_t level)
{
	return s->slot_prev < s->n_levels &&
	       s->levels[s->slot_prev].level == level;
}
/* Count the move back to that pstate, without a pstate clock. O(1). */
static inline void dmn__stats_pstate_back(struct dmn_stats *s)
{
	unsigned back = s->slot_prev;
	s->pstate_transitions++;
	s->slot_prev = s->slot_cur;
	s->slot_cur = back;
}
/* Count @d's move to pstate @new_level in its statistics (cold part
 * allocated): dmn__stats_pstate_back when it applies, else
 * dmn__stats_pstate_slow, O(1) on average. */
static inline void dmn__stats_pstate(struct dmn_ctx *ctx, struct dmn_domain *d,
				     uint32_t new_level)
{
	struct dmn_stats *s = &d->cold->stats;
	if (!dmn__pstate_timed(ctx) && dmn__stats_is_back(s, new_level))
		dmn__stats_pstate_back(s);
	else
		dmn__stats_pstate_slow(ctx, d, new_level);
}

#endif /* DOMINO_CORE_TXN_H */
