/* SPDX-License-Identifier: MIT */
/*
 * domino - why a domain is in its state (DESIGN §7 "Why").
 *
 * pd_domain_explain() answers the three questions a power engineer asks of
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

/** enum pd_why_kind - one record of an explanation */
enum pd_why_kind {
	/* Holders: why the domain is (or must be) on. */
	PD_WHY_ALWAYS_ON,  /* created always-on */
	PD_WHY_BOOT_HOLD,  /* a boot hold: @level, @awaiting consumers */
	PD_WHY_DEVICE,     /* @dev is active; @level its counted vote */
	PD_WHY_CHILD,      /* @child is on; @level what it requires */
	PD_WHY_WAKEUP_PATH, /* system sleep keeps it on for wakeup-enabled
			       @dev (active-wakeup domain) */
	/* Inputs of the pstate aggregate (each non-zero one). */
	PD_WHY_PSTATE_DEVICE, /* @dev's counted vote @level */
	PD_WHY_PSTATE_CHILD,  /* @child requires @level */
	PD_WHY_PSTATE_BOOT,   /* the boot hold's @level */
	/* The governor's last decision, one record per idle state deeper
	 * than the one chosen (deepest first), then the chosen one; for an
	 * on domain nothing holds, every state (all rejected when the
	 * governor kept it on, else its power-off failed). */
	PD_WHY_IDLE_QOS,       /* @idle ruled out: @x = entry+exit ns > @y =
				  the QoS limit in ns */
	PD_WHY_IDLE_RESIDENCY, /* @idle ruled out: @x = now+entry+residency
				  ns > @y = the next wakeup in ns */
	PD_WHY_IDLE_CUSTOM,    /* @idle passed both rules but a custom
				  governor chose a shallower one */
	PD_WHY_IDLE_FITS,      /* @idle was chosen: it passed both rules */
	/* Holders added with HW mode (listed among the holders, after
	 * PD_WHY_WAKEUP_PATH and before PD_WHY_CHILD): they keep an on
	 * domain on outside system sleep. */
	PD_WHY_ALWAYS_ON_DEV, /* @dev is always-on (rpm_always_on) */
	PD_WHY_HWMODE,        /* @dev's attachment is in HW mode */
};

/**
 * struct pd_why - one record
 * Members not named by the kind are 0.
 */
struct pd_why {
	enum pd_why_kind kind;
	pd_device_t dev;
	pd_domain_t child;
	uint32_t level;
	unsigned awaiting;
	unsigned idle;
	uint64_t x, y;
};

/** enum pd_idle_why - how an off domain came to its idle state */
enum pd_idle_why {
	PD_IDLE_ON,       /* it is on: no idle state */
	PD_IDLE_NONE,     /* off, and it has no idle states */
	PD_IDLE_INITIAL,  /* never powered off by the governor since time 0:
			     the deepest state it was given */
	PD_IDLE_GOVERNOR, /* the governor chose it (records follow) */
	PD_IDLE_SYSTEM_SLEEP, /* system sleep switched it off: its deepest
				 state, the governor not asked */
};

/**
 * struct pd_explanation - the summary of an explanation
 * @on, @pstate: as pd_domain_info
 * @aggregate:  what the counted inputs ask (the max); @pstate above it
 *              means a lowering call failed and the domain is stuck there
 * @idle_why:   how it came to @idle_state
 * @idle_state: index while off, -1 if none
 * @decided_ns: when the governor last decided for it (PD_IDLE_GOVERNOR)
 */
struct pd_explanation {
	int on;
	uint32_t pstate;
	uint32_t aggregate;
	enum pd_idle_why idle_why;
	int idle_state;
	uint64_t decided_ns;
};

/**
 * typedef pd_why_fn - receives each record: the holders in DESIGN §7's
 * order (always-on, boot hold, devices, wakeup path, always-on devices, HW
 * mode, children; each kind in attachment and link order), then the
 * pstate inputs, then the idle rulings. Runs with the context lock held:
 * it must not call into the same context.
 */
typedef void (*pd_why_fn)(void *user, const struct pd_why *why);

/**
 * pd_domain_explain - why @dom is on or off, at its pstate, in its state
 * @out: the summary; @fn (may be NULL) gets each record.
 * Holders are listed whether or not the domain is on (a domain whose
 * power-off failed is on without them; one whose power-on was rolled back
 * is off with none). The idle records replay the default governor's two
 * rules on the inputs it had when it last decided, so they describe that
 * decision even if QoS or wakeups changed since (DESIGN §1: those do not
 * re-evaluate an off domain).
 * returns: 0, or -EINVAL (NULL @ctx or @out), -EBADF.
 * cost: O(attachments + children + idle states of @dom).
 */
int pd_domain_explain(struct dmn_ctx *ctx, pd_domain_t dom,
		      struct pd_explanation *out, pd_why_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_EXPLAIN_H */
