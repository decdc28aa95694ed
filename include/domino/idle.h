/* SPDX-License-Identifier: MIT */
/*
 * domino - idle states, the power-off governor, latency QoS, next-wakeup
 * hints and residency statistics.
 *
 * Model
 *  - A domain has zero or more idle states, shallowest first, deepest last
 *    (DT `domain-idle-states` order). A domain with none has one plain
 *    "off" with zero latencies.
 *  - When a domain becomes unused (its last active device suspends or its
 *    last on child goes off) its governor picks the state it enters, or
 *    keeps it on. It is not asked again until the next such moment: QoS,
 *    wakeups and the passing of time do not wake or re-evaluate it.
 *  - The default QoS governor picks the deepest state i with
 *      entry_i + exit_i <= QoS            (tightest resume latency below it)
 *      now + entry_i + min_residency_i <= next_wakeup   (when one is known)
 *    Equality passes; QoS 0 is a real limit; wakeups before now are ignored;
 *    no state qualifying keeps the domain on.
 *  - Constraints count every attached device below the domain, active or
 *    suspended, through all its children. They are kept per domain as
 *    sorted multisets updated incrementally on every change (cost O(log V)
 *    per domain above the change), so a power-off decision never walks the
 *    subtree.
 *  - At time 0 (before its first transition) an off domain with idle states
 *    sits in its deepest one.
 *
 * Statistics (what Linux shows in debugfs, plus pstate residency): per idle
 * state its usage, rejected count and total time; time on; time at each
 * pstate; on/off and pstate transitions. time_on + plain-off time + the
 * idle states' times equals the time elapsed since the domain was created.
 */
#ifndef DOMINO_IDLE_H
#define DOMINO_IDLE_H

#include <domino/domain.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMN_QOS_NONE UINT32_MAX    /* no resume-latency constraint */
#define DMN_WAKEUP_NONE UINT64_MAX /* no known next wakeup */

/**
 * struct dmn_idle_state_desc - one idle state
 * @name: copied (DT `idle-state-name`, else the node name)
 * @entry_latency_us, @exit_latency_us, @min_residency_us: as in DT
 * @power_uw: power while in the state, 0 if unknown
 */
struct dmn_idle_state_desc {
	const char *name;
	uint32_t entry_latency_us;
	uint32_t exit_latency_us;
	uint32_t min_residency_us;
	uint32_t power_uw;
};

/**
 * dmn_domain_add_idle_state - append a state (deeper than those before it)
 * returns: 0 (and the state's index in *@index if not NULL), -EINVAL,
 *   -EBADF, -ENOMEM. A domain has as many states as memory allows.
 * cost: O(1) amortized.
 */
int dmn_domain_add_idle_state(struct dmn_ctx *ctx, dmn_domain_t dom,
			     const struct dmn_idle_state_desc *desc,
			     unsigned *index);

/**
 * struct dmn_idle_state_info - a state and its statistics
 * @usage: times the domain entered it; @rejected: power-offs at which it was
 *   ruled out by QoS or a wakeup; @time_ns: total time spent in it, up to now
 */
struct dmn_idle_state_info {
	struct dmn_idle_state_desc desc;
	uint64_t usage;
	uint64_t rejected;
	uint64_t time_ns;
};

/**
 * dmn_domain_idle_state - read state @i of @dom
 * returns: 0, -EINVAL, -EBADF, -ENOENT (@i >= number of states). cost: O(1).
 */
int dmn_domain_idle_state(struct dmn_ctx *ctx, dmn_domain_t dom, unsigned i,
			 struct dmn_idle_state_info *out);

/**
 * dmn_domain_n_idle_states - the number of idle states of @dom
 * returns: the count (>= 0), -EINVAL, -EBADF.
 */
int dmn_domain_n_idle_states(struct dmn_ctx *ctx, dmn_domain_t dom);

/* ---- governors ---------------------------------------------------------- */

/**
 * struct dmn_governor_input - what a governor decides from
 * @now_ns: the context's time
 * @qos_ns: tightest resume latency below the domain, UINT64_MAX if none
 * @next_wakeup_ns: earliest wakeup at or after now below it, UINT64_MAX
 * @n_states, @states: the domain's idle states (0 = plain off only)
 */
struct dmn_governor_input {
	uint64_t now_ns;
	uint64_t qos_ns;
	uint64_t next_wakeup_ns;
	unsigned n_states;
	const struct dmn_idle_state_desc *states;
};

#define DMN_GOV_STAY_ON (-1) /* governor result: keep the domain on */

/**
 * typedef dmn_governor_fn - a user governor
 * Return the index of the state to enter (0 when n_states is 0: plain off),
 * or DMN_GOV_STAY_ON. Any other value (negative, or n_states and above) is
 * treated as DMN_GOV_STAY_ON. The statistics count every state deeper than
 * the one chosen as rejected (every state when the domain stays on), as for
 * the default governor. Called with the context lock held.
 */
typedef int (*dmn_governor_fn)(void *user, dmn_domain_t dom,
			      const struct dmn_governor_input *in);

enum dmn_governor_kind {
	DMN_GOVERNOR_QOS,       /* the default, described above */
	DMN_GOVERNOR_ALWAYS_ON, /* never powers the domain off */
	DMN_GOVERNOR_CUSTOM,    /* a dmn_governor_fn */
};

/**
 * dmn_domain_set_governor - choose the governor of @dom
 * @fn, @user: for DMN_GOVERNOR_CUSTOM only (else must be NULL)
 * returns: 0, -EINVAL, -EBADF, -ENOMEM (the domain's first setting needs
 * its rarely used part; nothing changes). cost: O(1).
 */
int dmn_domain_set_governor(struct dmn_ctx *ctx, dmn_domain_t dom,
			   enum dmn_governor_kind kind, dmn_governor_fn fn,
			   void *user);

/**
 * dmn_governor_qos - the default decision, for custom governors to build on
 * returns: a state index or DMN_GOV_STAY_ON. cost: O(n_states).
 */
int dmn_governor_qos(const struct dmn_governor_input *in);

/* ---- constraints -------------------------------------------------------- */

/**
 * dmn_device_set_qos - set @dev's resume-latency constraint (DMN_QOS_NONE
 * clears it). Applies to every domain above the device's attachments at
 * their next power-off; never wakes or re-evaluates a domain.
 * returns: 0, -EBADF, -EINVAL, -ENOMEM (nothing changed).
 * cost: O(log V) per domain above the device.
 */
int dmn_device_set_qos(struct dmn_ctx *ctx, dmn_device_t dev,
		      uint32_t latency_us);

/**
 * dmn_device_set_wakeup - set @dev's next expected wakeup, absolute, in the
 * context's time (DMN_WAKEUP_NONE clears it). As dmn_device_set_qos.
 */
int dmn_device_set_wakeup(struct dmn_ctx *ctx, dmn_device_t dev,
			 uint64_t wakeup_ns);

/**
 * dmn_device_constraints - read back what dmn_device_set_qos/_wakeup stored
 */
int dmn_device_constraints(struct dmn_ctx *ctx, dmn_device_t dev,
			  uint32_t *latency_us, uint64_t *wakeup_ns);

/**
 * dmn_domain_constraints - the effective constraint of @dom now
 * @qos_ns: tightest resume latency below it, UINT64_MAX if none
 * @next_wakeup_ns: earliest wakeup >= now below it, UINT64_MAX if none
 * returns: 0, -EINVAL, -EBADF. cost: O(log V).
 */
int dmn_domain_constraints(struct dmn_ctx *ctx, dmn_domain_t dom,
			  uint64_t *qos_ns, uint64_t *next_wakeup_ns);

/* ---- statistics --------------------------------------------------------- */

/**
 * struct dmn_domain_stats - residency and transitions of one domain, up to now
 * @time_on_ns:    time on
 * @time_off_ns:   time in plain off (domains without idle states)
 * @on_count, @off_count: power-on / power-off transitions accepted
 * @pstate_transitions: pstate changes accepted
 * @n_pstates:     number of levels in dmn_domain_pstate_residency()
 * @created_ns:    when counting started
 */
struct dmn_domain_stats {
	uint64_t time_on_ns;
	uint64_t time_off_ns;
	uint64_t on_count;
	uint64_t off_count;
	uint64_t pstate_transitions;
	unsigned n_pstates;
	uint64_t created_ns;
};

/**
 * dmn_domain_stats - read @dom's statistics up to now
 * returns: 0, -EINVAL, -EBADF. cost: O(1).
 */
int dmn_domain_stats(struct dmn_ctx *ctx, dmn_domain_t dom,
		    struct dmn_domain_stats *out);

/**
 * dmn_domain_pstate_residency - time spent at the @i-th level seen, up to now
 * Levels are listed in the order first seen, level 0 first; every level is
 * kept (no cap: room for a level is made when a vote or requirement first
 * brings it, and that call fails with -ENOMEM, changing nothing, if memory
 * runs out). With the default time source each level's time is exact to
 * a scheduler tick (see struct dmn_config), their sum exactly.
 * returns: 0, -EINVAL, -EBADF, -ENOENT (@i >= n_pstates).
 * cost: O(1).
 */
int dmn_domain_pstate_residency(struct dmn_ctx *ctx, dmn_domain_t dom,
			       unsigned i, uint32_t *level, uint64_t *time_ns);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_IDLE_H */
