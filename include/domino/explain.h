/* SPDX-License-Identifier: MIT */
/*
 * domino - why a domain is in its state (docs/lifecycle.md, explain).
 *
 * dmn_domain_explain() answers the three questions a power engineer asks of
 * a domain: why is it on (every holder), why at this pstate (every input of
 * the aggregate), and why in this idle state (the governor's inputs when it
 * last decided, so each deeper state can be shown with the rule that ruled
 * it out). It reports facts as structured records through a callback; the
 * simulator turns them into the `explain` text.
 */
#ifndef DOMINO_EXPLAIN_H
#define DOMINO_EXPLAIN_H

#include <domino/domain.h>

#ifdef __cplusplus
extern "C" {
#endif

/** enum dmn_why_kind - one record of an explanation */
enum dmn_why_kind {
	/* Holders: why the domain is (or must be) on. */
	DMN_WHY_ALWAYS_ON,  /* created always-on */
	DMN_WHY_BOOT_HOLD,  /* a boot hold: @level, @awaiting consumers; @x
			      its DMN_BOOT_* flags (lifecycle.h) */
	DMN_WHY_DEVICE,     /* @dev is active; @level its counted vote */
	DMN_WHY_CHILD,      /* @child is on; @level what it requires */
	DMN_WHY_WAKEUP_PATH, /* system sleep keeps it on for wakeup-enabled
			       @dev (active-wakeup domain); @dev 0: kept
			       at system-suspend for a device whose wakeup
			       was disabled since, until system-resume */
	/* Inputs of the pstate aggregate (each non-zero one). */
	DMN_WHY_PSTATE_DEVICE, /* @dev's counted vote @level */
	DMN_WHY_PSTATE_CHILD,  /* @child requires @level */
	DMN_WHY_PSTATE_BOOT,   /* the boot hold's @level */
	/* The governor's last decision, one record per idle state deeper
	 * than the one chosen (deepest first), then the chosen one; for an
	 * on domain nothing holds, every state (all rejected when the
	 * governor kept it on, else its power-off failed; in system sleep, a CPU
 * domain's rulings against the system wakeup latency instead). */
	DMN_WHY_IDLE_QOS,       /* @idle ruled out: @x = entry+exit ns > @y =
				  the QoS limit in ns */
	DMN_WHY_IDLE_RESIDENCY, /* @idle ruled out: @x = now+entry+residency
				  ns > @y = the next wakeup in ns */
	DMN_WHY_IDLE_CUSTOM,    /* @idle passed both rules but a custom
				  governor chose a shallower one */
	DMN_WHY_IDLE_FITS,      /* @idle was chosen: it passed both rules */
	/* Holders added with HW mode (listed among the holders, after
	 * DMN_WHY_WAKEUP_PATH and before DMN_WHY_CHILD): they keep an on
	 * domain on outside system sleep. */
	DMN_WHY_ALWAYS_ON_DEV, /* @dev is always-on (rpm_always_on) */
	DMN_WHY_HWMODE,        /* @dev's attachment is in HW mode */
	/* Added with the boot flags and the system wakeup latency. */
	DMN_WHY_BOOT_UNHELD,   /* on since boot without a hold
				 (DMN_BOOT_NO_STAY_ON): it holds nothing,
				 listed after DMN_WHY_BOOT_HOLD's place; a
				 consumer's probe or dmn_probe_all
				 re-evaluates it */
	DMN_WHY_IDLE_SYSTEM_QOS, /* a CPU domain's idle ruling, in system
				   sleep or by the governor: @idle ruled
				   out, @x = entry+exit ns > @y = the system
				   wakeup latency ns (tighter than the
				   devices' QoS); @level 1 for system
				   sleep's rulings (then a FITS record has
				   @level 1 too), 0 for the governor's */
};

/**
 * struct dmn_why - one record
 * Members not named by the kind are 0.
 */
struct dmn_why {
	enum dmn_why_kind kind;
	dmn_device_t dev;
	dmn_domain_t child;
	uint32_t level;
	unsigned awaiting;
	unsigned idle;
	uint64_t x, y;
};

/** enum dmn_idle_why - how an off domain came to its idle state */
enum dmn_idle_why {
	DMN_IDLE_ON,       /* it is on: no idle state */
	DMN_IDLE_NONE,     /* off, and it has no idle states */
	DMN_IDLE_INITIAL,  /* never powered off by the governor since time 0:
			     the deepest state it was given */
	DMN_IDLE_GOVERNOR, /* the governor chose it (records follow) */
	DMN_IDLE_SYSTEM_SLEEP, /* system sleep switched it off: its deepest
				 state, the governor not asked */
	DMN_IDLE_SYSTEM_QOS,   /* system sleep switched this CPU domain off
				 into its deepest state within the system
				 wakeup latency (records follow: each deeper
				 one DMN_WHY_IDLE_SYSTEM_QOS, then FITS) */
};

/**
 * struct dmn_explanation - the summary of an explanation
 * @on, @pstate: as dmn_domain_info
 * @aggregate:  what the counted inputs ask (the max); @pstate above it
 *              means a lowering call failed and the domain is stuck there
 * @idle_why:   how it came to @idle_state
 * @idle_state: index while off, -1 if none
 * @decided_ns: when the governor last decided for it (DMN_IDLE_GOVERNOR)
 */
struct dmn_explanation {
	int on;
	uint32_t pstate;
	uint32_t aggregate;
	enum dmn_idle_why idle_why;
	int idle_state;
	uint64_t decided_ns;
};

/**
 * typedef dmn_why_fn - receives each record: the holders in the order
 * docs/lifecycle.md (explain) gives (always-on, boot hold, devices, wakeup
 * path, always-on devices, HW mode, children; each kind in attachment and link
 * order), then the
 * pstate inputs, then the idle rulings. Runs with the context lock held:
 * it must not call into the same context.
 */
typedef void (*dmn_why_fn)(void *user, const struct dmn_why *why);

/**
 * dmn_domain_explain - why @dom is on or off, at its pstate, in its state
 * @out: the summary; @fn (may be NULL) gets each record.
 * Holders are listed whether or not the domain is on (a domain whose
 * power-off failed is on without them; one whose power-on was rolled back
 * is off with none). The idle records replay the default governor's two
 * rules on the inputs it had when it last decided, so they describe that
 * decision even if QoS or wakeups changed since (those do not re-evaluate
 * an off domain: docs/semantics.md, Idle states and the governor).
 * returns: 0, or -EINVAL (NULL @ctx or @out), -EBADF.
 * cost: O(attachments + children + idle states of @dom).
 */
int dmn_domain_explain(struct dmn_ctx *ctx, dmn_domain_t dom,
		      struct dmn_explanation *out, dmn_why_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_EXPLAIN_H */
