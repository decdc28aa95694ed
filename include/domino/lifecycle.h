/* SPDX-License-Identifier: MIT */
/*
 * domino - the lifecycle around runtime PM (docs/lifecycle.md): boot state and
 * sync_state holds, system sleep and the wakeup path, hardware mode and
 * always-on devices.
 *
 * Boot holds (Linux 6.17 genpd sync_state)
 *  A boot loader may leave a domain on, at some level, before the OS takes
 *  over. dmn_domain_boot_on() records that: the domain and every domain
 *  above it are marked on without any callback (the hardware already is),
 *  and the domain is *held*: it stays on, at least at the boot level, until
 *  every consumer device attached to it directly has probed
 *  (dmn_device_probe(); dmn_device_get() probes a device that has not probed
 *  yet). The command that probes the last awaited consumer releases the
 *  hold: the boot level stops counting and, if nothing else keeps the
 *  domain on, it takes the runtime power-off path (governor, then
 *  parents). A held domain without consumers is released only by
 *  dmn_domain_release() or dmn_probe_all() (Linux releases per provider once
 *  all its consumers probed; a consumer-less domain waits for the
 *  provider's sync_state).
 *  Ancestors are on because their child is; they are not held.
 *  Two provider choices of Linux 6.17 change that (dmn_domain_boot):
 *  DMN_BOOT_NO_STAY_ON (GENPD_FLAG_NO_STAY_ON) starts the domain on
 *  without a hold, and DMN_BOOT_NO_SYNC_STATE (GENPD_FLAG_NO_SYNC_STATE)
 *  keeps the hold until the provider releases it itself (dmn_sync_state).
 *
 * Every call takes the context lock; see domain.h for the transaction and
 * failure rules these calls follow.
 */
#ifndef DOMINO_LIFECYCLE_H
#define DOMINO_LIFECYCLE_H

#include <domino/domain.h>
#include <domino/idle.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * dmn_domain_boot_on - record that boot left @dom on at @level, and hold it
 * @level: counted in @dom's aggregate like a vote while held (rounded by the
 *         domain's rounding hook, passed up through the level maps); 0 =
 *         on, no level
 * No callback runs: @dom and its ancestors are recorded on and at the levels
 * the aggregate asks, as the hardware already is. Meant for building the
 * initial state, before any device is resumed. The consumers awaited are
 * the devices attached to @dom that have not probed, now or when attached
 * later.
 * returns: 0, or -EINVAL (NULL @ctx), -EBADF, -EALREADY (@dom was held or
 *   released before: a domain boots once), -EBUSY (a device of @ctx was
 *   resumed already: boot state comes before runtime PM), -ENODEV / -ERANGE / a level map's
 *   error (a non-zero @level that a vote on @dom could not cast, as
 *   dmn_vote), -ENOMEM. On error nothing changed.
 * cost: O(domains and links above @dom + attachments of @dom).
 */
int dmn_domain_boot_on(struct dmn_ctx *ctx, dmn_domain_t dom, uint32_t level);

/* dmn_domain_boot flags (Linux 6.17's genpd provider flags). */
/* On from boot, not held (GENPD_FLAG_NO_STAY_ON): the domain stays on only
 * until something re-evaluates it: a command that touches it or a domain
 * below it, the probe of a device attached to it (genpd's sync after a
 * consumer's probe), or dmn_probe_all (genpd_power_off_unused at the end
 * of boot); then it takes the runtime power-off path if nothing needs it.
 * It has no boot level. */
#define DMN_BOOT_NO_STAY_ON (1u << 0)
/* Held, but the probes of its consumers do not release it
 * (GENPD_FLAG_NO_SYNC_STATE: the provider syncs its domains itself): only
 * dmn_sync_state, dmn_domain_release or dmn_probe_all do. */
#define DMN_BOOT_NO_SYNC_STATE (1u << 1)

/**
 * dmn_domain_boot - dmn_domain_boot_on with the provider's DMN_BOOT_* @flags
 * @flags: 0 (exactly dmn_domain_boot_on), DMN_BOOT_NO_STAY_ON or
 *         DMN_BOOT_NO_SYNC_STATE
 * With DMN_BOOT_NO_STAY_ON no hold is made: @dom and its ancestors are
 * recorded on, no callback runs, and @dom is re-evaluated as that flag
 * says; dmn_domain_hold() then reports it neither held nor released.
 * returns: as dmn_domain_boot_on, and -EINVAL also for an unknown flag,
 *   both flags, or DMN_BOOT_NO_STAY_ON with a non-zero @level (only a hold
 *   keeps a level); -EALREADY for a domain that booted before in any way.
 *   On error nothing changed.
 * cost: as dmn_domain_boot_on.
 */
int dmn_domain_boot(struct dmn_ctx *ctx, dmn_domain_t dom, uint32_t level,
		    unsigned flags);

/**
 * dmn_domain_boot_flags - how @dom booted
 * returns: its DMN_BOOT_* flags (0 for a plain dmn_domain_boot_on), or
 *   -ENOENT (it did not boot on), -EINVAL, -EBADF. cost: O(1).
 */
int dmn_domain_boot_flags(struct dmn_ctx *ctx, dmn_domain_t dom);

/**
 * dmn_device_probe - mark @dev probed (a driver bound to it)
 * Each held domain @dev is attached to stops awaiting it; a domain that
 * awaits no one any more is released in this call (unless it booted with
 * DMN_BOOT_NO_SYNC_STATE): its boot level stops counting and it powers
 * off / lowers if nothing else needs it (safe direction: a failing
 * callback leaves it on or high, is reported by dmn_last_error() and the
 * listeners, and the call succeeds). A DMN_BOOT_NO_STAY_ON domain of @dev
 * still on since boot is re-evaluated the same way. Probing a probed
 * device is a no-op returning 0.
 * returns: 0, or -EINVAL, -EBADF, -ENOMEM (then nothing changed: the
 *   device is not probed and every hold is as before).
 * cost: O(attachments of @dev) + A (domain.h) for each domain released.
 */
int dmn_device_probe(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_domain_release - release @dom's hold whatever it still awaits
 * What a provider's sync_state does when the platform decides boot is over
 * (the simulator's `probe all` for domains without consumers). The domain
 * then follows its votes, as after the last probe. Releasing a domain that
 * is not held is a no-op returning 0.
 * returns: 0, or -EINVAL, -EBADF, -ENOMEM (nothing changed).
 * cost: A (domain.h).
 */
int dmn_domain_release(struct dmn_ctx *ctx, dmn_domain_t dom);

/**
 * dmn_sync_state - a provider's sync_state: release the hold of every held
 * domain among @doms[0 .. @n - 1], in one transaction (Linux
 * of_genpd_sync_state() releases every domain of the provider's node)
 * Each released domain then follows its votes, as after its last probe
 * (safe direction: a failing power-off or lowering is reported by
 * dmn_last_error() and the listeners, and the call succeeds). Domains not
 * held are left as they are; a handle given twice counts once.
 * returns: 0, or -EINVAL (NULL @ctx, or NULL @doms with @n > 0), -EBADF
 *   (a handle names no domain: nothing changed), -ENOMEM (nothing
 *   changed).
 * cost: O(@n) + A (domain.h) over the released domains.
 */
int dmn_sync_state(struct dmn_ctx *ctx, const dmn_domain_t *doms, unsigned n);

/**
 * dmn_probe_all - the end of boot: every device probed, every hold released
 * The held domains are released in one transaction (as dmn_domain_release,
 * safe direction), and every DMN_BOOT_NO_STAY_ON domain still on since
 * boot is re-evaluated in it (Linux's genpd_power_off_unused); then every
 * device of @ctx counts as probed, so a hold set later awaits no one of
 * them.
 * returns: 0, or -EINVAL, -ENOMEM (nothing changed).
 * cost: O(domains + devices) + A (domain.h) over the released domains.
 */
int dmn_probe_all(struct dmn_ctx *ctx);

/**
 * struct dmn_hold_info - a domain's boot hold
 * @held:      1 while held
 * @released:  1 once a hold was released (held and released are never both
 *             1; both 0 for a domain that never booted on)
 * @level:     the boot level (after rounding); kept after the release
 * @awaiting:  consumers attached directly that have not probed (0 unless
 *             held)
 */
struct dmn_hold_info {
	int held;
	int released;
	uint32_t level;
	unsigned awaiting;
};

/**
 * dmn_domain_hold - fill *@out with @dom's boot hold
 * returns: 0, -EINVAL, -EBADF. cost: O(1).
 */
int dmn_domain_hold(struct dmn_ctx *ctx, dmn_domain_t dom,
		   struct dmn_hold_info *out);

/**
 * dmn_device_probed - whether @dev has probed
 * returns: 1 or 0, or -EINVAL, -EBADF. cost: O(1).
 */
int dmn_device_probed(struct dmn_ctx *ctx, dmn_device_t dev);

/* ---- system sleep ------------------------------------------------------ */

/**
 * dmn_system_suspend - enter system sleep (genpd's noirq suspend phase)
 * Every device is suspended (its votes stop counting, as a runtime
 * suspend) except those on the wakeup path: wakeup-enabled devices with at
 * least one active-wakeup domain, which keep their runtime state and
 * votes. Then every domain that nothing keeps on powers off, children
 * first, into its deepest idle state without asking the governor (a CPU
 * domain: the deepest within the system wakeup latency, see
 * dmn_system_set_wakeup_latency). Kept on,
 * with their parents: always-on and held domains, domains an active device
 * still uses, and each on, active-wakeup domain with a wakeup-path device
 * attached (even a runtime-suspended one); HW mode and always-on devices
 * keep nothing on (every on domain is looked at). A domain already off
 * keeps its idle state. Power-off failures are safe-direction (reported by
 * dmn_last_error(); that domain stays on). Calling it while asleep is a
 * no-op returning 0. While asleep, a dmn_device_get / dmn_device_put that
 * would change a device's runtime state fails with -EACCES. With
 * device-to-device requirements (opp.h) use dmn_opp_system_suspend.
 * returns: 0, or -EINVAL, -ENOMEM (then nothing changed: awake).
 * cost: O(domains + devices + attachments) + A (domain.h) over them.
 */
int dmn_system_suspend(struct dmn_ctx *ctx);

/**
 * dmn_system_resume - leave system sleep
 * Every device dmn_system_suspend suspended and that is not active now is
 * resumed in one transaction (as one dmn_device_get each: pstates raised
 * parents first, then domains on); then the wakeup path stops holding its
 * domains, which follow their votes. Domains no restored device needs stay
 * as sleep left them. The system is awake when it returns, whatever the
 * result. A no-op returning 0 while awake. With device-to-device
 * requirements (opp.h) use dmn_opp_system_resume.
 * returns: 0, or -EINVAL, -ENOMEM, or the first callback error of the
 *   restoration (unsafe direction: the restoration was rolled back, those
 *   devices stay suspended).
 * cost: as dmn_system_suspend.
 */
int dmn_system_resume(struct dmn_ctx *ctx);

/**
 * dmn_system_set_wakeup_latency - the system-wide wakeup latency limit,
 * in µs (DMN_QOS_NONE clears it; Linux 6.19's CPU system wakeup QoS,
 * /dev/cpu_wakeup_latency)
 * It applies to CPU domains (DMN_FLAG_CPU_DOMAIN) only, beside the QoS of
 * the devices below them: at run time the governor takes the tighter of
 * the two; at dmn_system_suspend a CPU domain goes to its deepest idle
 * state whose entry + exit latency is within the limit (equality passes),
 * and stays on, with its parents, when none is (a domain without idle
 * states, off taking no time, always fits). Other domains still sleep in
 * their deepest state. Like dmn_device_set_qos it re-evaluates nothing:
 * it counts at each domain's next power-off.
 * returns: 0, -EINVAL. cost: O(1).
 */
int dmn_system_set_wakeup_latency(struct dmn_ctx *ctx, uint32_t latency_us);

/** dmn_system_wakeup_latency - the limit in *@latency_us (DMN_QOS_NONE:
 * none); 0, -EINVAL. cost: O(1). */
int dmn_system_wakeup_latency(struct dmn_ctx *ctx, uint32_t *latency_us);

/** dmn_system_asleep - 1 between dmn_system_suspend and dmn_system_resume,
 * else 0; -EINVAL. cost: O(1). */
int dmn_system_asleep(struct dmn_ctx *ctx);

/**
 * dmn_device_set_wakeup_enable - @dev may wake the system (DT
 * `wakeup-source`); takes effect at the next dmn_system_suspend. Not
 * propagated to parent devices.
 * returns: 0, -EINVAL, -EBADF. cost: O(1).
 */
int dmn_device_set_wakeup_enable(struct dmn_ctx *ctx, dmn_device_t dev, int on);
/** dmn_device_wakeup_enabled - 1 or 0, or -EINVAL, -EBADF. cost: O(1). */
int dmn_device_wakeup_enabled(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_domain_set_active_wakeup - @dom stays on through system sleep while a
 * wakeup-enabled device attached to it is (Linux GENPD_FLAG_ACTIVE_WAKEUP);
 * takes effect at the next dmn_system_suspend.
 * returns: 0, -EINVAL, -EBADF, -ENOMEM (the domain's first setting needs its
 * rarely used part; nothing changed). cost: O(1).
 */
int dmn_domain_set_active_wakeup(struct dmn_ctx *ctx, dmn_domain_t dom, int on);
/** dmn_domain_active_wakeup - 1 or 0, or -EINVAL, -EBADF. cost: O(1). */
int dmn_domain_active_wakeup(struct dmn_ctx *ctx, dmn_domain_t dom);

/**
 * dmn_system_sleep_stats - how many times and how long the system slept
 * (the current sleep counted up to now).
 * returns: 0, -EINVAL. cost: O(1).
 */
int dmn_system_sleep_stats(struct dmn_ctx *ctx, uint64_t *count,
			  uint64_t *time_ns);

#define DMN_SLEEP_ON (-1)  /* dmn_domain_sleep_stats: time on */
#define DMN_SLEEP_OFF (-2) /* dmn_domain_sleep_stats: time in plain off */

/**
 * dmn_domain_sleep_stats - time @dom spent, during system sleep, in idle
 * state @i, or on (DMN_SLEEP_ON), or plain off (DMN_SLEEP_OFF)
 * returns: 0 and *@ns, -EINVAL, -EBADF, -ENOENT (no such state).
 * cost: O(idle states).
 */
int dmn_domain_sleep_stats(struct dmn_ctx *ctx, dmn_domain_t dom, int i,
			  uint64_t *ns);

/* ---- hardware mode and always-on --------------------------------------- */

/**
 * dmn_attach_set_hwmode - hand @att's device's use of its domain to the
 * hardware (@hw non-zero) or take it back (Linux 6.11
 * dev_pm_genpd_set_hwmode)
 * Calls the domain's set_hwmode callback (domain.h) with the device, only
 * when the mode changes: the current mode again is a no-op returning 0. A
 * domain is in HW mode while any of its attachments is: then its runtime
 * power-off is not called, so once on it and its parents stay on whatever
 * its devices do, and votes still aggregate. Entering HW mode powers
 * nothing on. Leaving it re-evaluates the domain at once: unused, it
 * powers off (and its parents after it) as after a runtime suspend (safe
 * direction: a failing power-off is reported by dmn_last_error() and the
 * listeners, and the call succeeds; so is, in the same way, the rare
 * settle that finds no memory for a new level after the callback: the
 * domain then stays on, in SW mode, until its next change). System sleep
 * powers HW-mode domains off like any other; the mode survives it.
 * Listeners get DMN_EV_HWMODE, or DMN_EV_FAILURE with DMN_OP_SET_HWMODE.
 * returns: 0, or -EINVAL (NULL @ctx), -EBADF, -EOPNOTSUPP (the domain has
 *   no set_hwmode callback), -ENOMEM (before the callback: nothing
 *   changed), or the callback's error (the mode did not change; a positive
 *   return counts as -EIO).
 * cost: O(1) + the callback to enter; O(domains and links above the
 *   domain) + A (domain.h) to leave.
 */
int dmn_attach_set_hwmode(struct dmn_ctx *ctx, dmn_attach_t att, int hw);

/** dmn_attach_hwmode - 1 if @att is in HW mode, else 0; -EINVAL, -EBADF.
 * cost: O(1). */
int dmn_attach_hwmode(struct dmn_ctx *ctx, dmn_attach_t att);

/** dmn_domain_hwmode - 1 while any attachment of @dom is in HW mode (the
 * domain is reported `hw`), else 0; -EINVAL, -EBADF. cost: O(1). */
int dmn_domain_hwmode(struct dmn_ctx *ctx, dmn_domain_t dom);

/**
 * dmn_device_set_always_on - keep @dev's domains from the runtime power-off
 * whatever @dev's state (@on non-zero), or stop (Linux 6.15
 * dev_pm_genpd_rpm_always_on)
 * On powers nothing on: a domain is kept only once it is on, and system
 * sleep keeps nothing for it. Off re-evaluates @dev's domains at once: an
 * unused one powers off (safe direction, as dmn_device_put). Domains @dev
 * attaches to later are kept too; detaching drops the keep. Setting the
 * current state again is a no-op returning 0.
 * returns: 0, or -EINVAL, -EBADF, -ENOMEM (turning it off, or on while a
 *   domain it is attached to has not needed its rarely used part yet:
 *   nothing changed).
 * cost: O(attachments of @dev) to set; + A (domain.h) to clear.
 */
int dmn_device_set_always_on(struct dmn_ctx *ctx, dmn_device_t dev, int on);

/** dmn_device_always_on - 1 or 0, or -EINVAL, -EBADF. cost: O(1). */
int dmn_device_always_on(struct dmn_ctx *ctx, dmn_device_t dev);

/**
 * dmn_domain_set_always_on - make @dom always-on after its creation, as if
 * created with DMN_FLAG_ALWAYS_ON (for a board description that says so
 * once the loader built the domain; the simulator's `always-on DOMAIN`)
 * Like dmn_domain_boot_on, no callback runs: @dom and its ancestors are
 * recorded on (boot left them so). It never powers off, in system sleep
 * too; the flag cannot be cleared. Already always-on: a no-op returning 0.
 * returns: 0, or -EINVAL, -EBADF, -EBUSY (a device of @ctx was resumed
 *   already: boot state comes before runtime PM), -ENOMEM (nothing
 *   changed).
 * cost: O(domains and links above @dom).
 */
int dmn_domain_set_always_on(struct dmn_ctx *ctx, dmn_domain_t dom);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_LIFECYCLE_H */
