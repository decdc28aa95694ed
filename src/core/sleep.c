/* SPDX-License-Identifier: MIT */
/*
 * System sleep (docs/lifecycle.md), as genpd's noirq phase does it: suspend
 * every device, power off what nothing keeps, children first, into the deepest
 * idle state without asking the governor; keep on always-on and held domains
 * and the wakeup path (an on, active-wakeup domain with a wakeup-enabled device
 * attached), with their parents. Resume restores every device's runtime state
 * from before, as one transaction.
 *
 * Sleep statistics are the difference of each domain's residency totals
 * between the start and the end of sleep, so they need no hook into the
 * accounting: every instant of sleep falls in exactly one bucket, as it
 * does in the totals.
 */
#include "internal.h"

#include <domino/lifecycle.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

void dmn__sleep_free(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	if (!dom_cold(d)->sleep)
		return;
	dmn__free(ctx, d->cold->sleep->idle);
	dmn__free(ctx, d->cold->sleep->snap_idle);
	dmn__free(ctx, d->cold->sleep);
	d->cold->sleep = 0;
}

/* Room for @d's sleep statistics with its current idle states. */
static int sleep_reserve(struct dmn_ctx *ctx, struct dmn_domain *d)
{
	unsigned n = (d->idle ? d->idle->n : 0) + 1;
	/* The sleep data hangs off the cold part. */
	if (!dmn__domain_cold(ctx, d))
		return -ENOMEM;
	if (d->cold->sleep && d->cold->sleep->n >= n)
		return 0;
	uint64_t *idle = dmn__alloc(ctx, n * sizeof(*idle));
	uint64_t *snap = dmn__alloc(ctx, n * sizeof(*snap));
	struct dmn_sleep_data *s =
	    d->cold->sleep ? d->cold->sleep : dmn__alloc(ctx, sizeof(*s));
	if (!idle || !snap || !s) {
		dmn__free(ctx, idle);
		dmn__free(ctx, snap);
		if (s != d->cold->sleep)
			dmn__free(ctx, s);
		return -ENOMEM;
	}
	memset(idle, 0, n * sizeof(*idle));
	memset(snap, 0, n * sizeof(*snap));
	if (d->cold->sleep) {
		/* Idle states were added since: the old slots keep their
		 * totals, plain off moves to the new last slot. */
		unsigned old = d->cold->sleep->n;
		memcpy(idle, d->cold->sleep->idle, (old - 1) * sizeof(*idle));
		idle[n - 1] = d->cold->sleep->idle[old - 1];
		dmn__free(ctx, d->cold->sleep->idle);
		dmn__free(ctx, d->cold->sleep->snap_idle);
	} else {
		memset(s, 0, sizeof(*s));
	}
	s->idle = idle;
	s->snap_idle = snap;
	s->n = n;
	d->cold->sleep = s;
	return 0;
}

/* @d's residency totals up to now, slot n-1 being plain off. */
static void totals(struct dmn_domain *d, uint64_t now, uint64_t *on,
		   uint64_t *idle)
{
	dmn__stats_account(d, now);
	*on = d->cold->stats.time_on;
	unsigned n = d->cold->sleep->n;
	for (unsigned i = 0; i + 1 < n; i++)
		idle[i] = d->idle->counts[i].time_ns;
	idle[n - 1] = d->cold->stats.time_off;
}

static void sleep_snapshot(struct dmn_domain *d, uint64_t now)
{
	totals(d, now, &d->cold->sleep->snap_on, d->cold->sleep->snap_idle);
}

/* Add what @d spent since the snapshot to its sleep statistics. */
static void sleep_account(struct dmn_domain *d, uint64_t now)
{
	struct dmn_sleep_data *s = d->cold->sleep;
	dmn__stats_account(d, now);
	uint64_t on = d->cold->stats.time_on;
	s->on += on - s->snap_on;
	s->snap_on = on;
	for (unsigned i = 0; i < s->n; i++) {
		uint64_t t = i + 1 < s->n ? d->idle->counts[i].time_ns
					  : d->cold->stats.time_off;
		s->idle[i] += t - s->snap_idle[i];
		s->snap_idle[i] = t;
	}
}

/* Does @dev stay in its runtime state through sleep? A wakeup-enabled
 * device with an active-wakeup domain (genpd's device_awake_path). */
static bool wakeup_path(const struct dmn_device *dev)
{
	if (!dev->wakeup)
		return false;
	for (unsigned i = 0; i < dev->n_atts; i++)
		if (dom_cold(dev_att(dev, i)->dom)->active_wakeup)
			return true;
	return false;
}

#define FOR_DOMAINS(ctx, d)                                                  \
	for (uint32_t h_ = dmn__handle_next(&(ctx)->domains, 0);                  \
	     h_ && ((d) = dmn__domain_get((ctx), h_)); h_ = dmn__handle_next(&(ctx)->domains, h_))
#define FOR_DEVICES(ctx, v)                                                  \
	for (uint32_t h_ = dmn__handle_next(&(ctx)->devices, 0);                  \
	     h_ && ((v) = dmn__device_get((ctx), h_)); h_ = dmn__handle_next(&(ctx)->devices, h_))

int dmn__sleep_choose(struct dmn_ctx *ctx, struct dmn_domain *d,
		      unsigned *rejected_from)
{
	int deepest = d->idle ? (int)d->idle->n - 1 : 0;
	*rejected_from = UINT_MAX;
	/* The cold part exists: the domain is on, it powers off. */
	d->cold->sleep_qos = (d->flags & DMN_FLAG_CPU_DOMAIN) && ctx->sys_qos_set;
	if (!d->cold->sleep_qos)
		return deepest;
	d->cold->sleep_qos_ns = ctx->sys_qos_ns;
	/* Plain off takes no time: it fits any limit. */
	if (!d->idle || !d->idle->n)
		return 0;
	for (int i = deepest; i >= 0; i--) {
		const struct dmn_idle_state_desc *s = &d->idle->desc[i];
		if ((uint64_t)s->entry_latency_us * 1000u +
			(uint64_t)s->exit_latency_us * 1000u <=
		    ctx->sys_qos_ns) {
			*rejected_from = (unsigned)i + 1;
			return i;
		}
	}
	*rejected_from = 0;
	return DMN_GOV_STAY_ON;
}

/* dmn_system_suspend with the lock held (and dmn_opp_system_suspend). */
int dmn__system_suspend_locked(struct dmn_ctx *ctx)
{
	int err = 0;
	dmn__lifecycle_begin(ctx);
	if (ctx->asleep)
		return dmn__txn_result(ctx, 0);
	struct dmn_domain *d;
	struct dmn_device *dev;
	FOR_DOMAINS(ctx, d)
		if (!err)
			err = sleep_reserve(ctx, d);
	dmn__txn_begin(ctx);
	/* Every device off the wakeup path is suspended, votes dropped as a
	 * runtime suspend drops them; its usage comes back at resume. */
	FOR_DEVICES(ctx, dev) {
		dev->sleep_usage = 0;
		if (err || !dev->usage || wakeup_path(dev))
			continue;
		dev->sleep_usage = dev->usage;
		err = dmn__txn_set_u32(ctx, &dev->usage, 0);
		for (unsigned i = 0; i < dev->n_atts && !err; i++) {
			struct dmn_attachment *a = dev_att(dev, i);
			err = dmn__txn_set_vote(ctx, a, a->vote, false);
			if (!err)
				dmn__txn_touch(ctx, a->dom);
		}
	}
	/* The wakeup path: an on, active-wakeup domain with a wakeup-path
	 * device attached stays on (genpd_finish_suspend skips it), so do
	 * its parents through the link; an off one stays off. */
	FOR_DOMAINS(ctx, d) {
		/* Only a failed reservation leaves a domain without its cold
		 * part, and then nothing below stays. */
		if (!d->cold)
			continue;
		d->cold->sleep_keep = false;
		/* HW mode and always-on devices keep nothing on in sleep;
		 * every on domain is looked at, whatever kept it on. */
		d->cold->sleeping = true;
		if (!err && d->on)
			dmn__txn_touch(ctx, d);
		if (err || !d->on || !dom_cold(d)->active_wakeup)
			continue;
		for (struct dmn_attachment *a = d->att_head; a; a = a->dom_next)
			if (wakeup_path(a->dev))
				d->cold->sleep_keep = true;
		dmn__txn_touch(ctx, d);
	}
	if (!err) {
		ctx->sleep_deepest = true;
		err = dmn__txn_commit(ctx);
		ctx->sleep_deepest = false;
	} else {
		dmn__txn_abort(ctx);
	}
	if (err) {
		FOR_DOMAINS(ctx, d)
			if (d->cold)
				d->cold->sleep_keep = d->cold->sleeping = false;
		FOR_DEVICES(ctx, dev)
			dev->sleep_usage = 0;
	} else {
		uint64_t now = dmn_now(ctx);
		ctx->asleep = true;
		ctx->sleep_since = now;
		ctx->sleep_count++;
		FOR_DOMAINS(ctx, d)
			sleep_snapshot(d, now);
	}
	return dmn__txn_result(ctx, err);
}

int dmn_system_suspend(struct dmn_ctx *ctx)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	err = dmn__system_suspend_locked(ctx);
	dmn__unlock(ctx);
	return err;
}

/* dmn_system_resume with the lock held (and dmn_opp_system_resume). */
int dmn__system_resume_locked(struct dmn_ctx *ctx)
{
	int err = 0;
	ctx->op_error = 0;
	if (!ctx->asleep)
		return dmn__txn_result(ctx, 0);
	struct dmn_domain *d;
	struct dmn_device *dev;
	uint64_t now = dmn_now(ctx);
	/* Sleep ends now, whatever the restoration does. */
	FOR_DOMAINS(ctx, d)
		if (dom_cold(d)->sleep)
			sleep_account(d, now);
	ctx->sleep_time += now - ctx->sleep_since;
	ctx->asleep = false;
	/* The vetoes count again for what is on; what sleep switched off
	 * they do not power back on. */
	FOR_DOMAINS(ctx, d)
		if (d->cold) /* not one created during sleep */
			d->cold->sleeping = false;
	/* One transaction, as one resume: every device active before sleep
	 * and not now, raised parents first, then the domains on. */
	dmn__txn_begin(ctx);
	FOR_DEVICES(ctx, dev) {
		if (err || !dev->sleep_usage || dev->usage)
			continue;
		err = dmn__txn_set_u32(ctx, &dev->usage, dev->sleep_usage);
		for (unsigned i = 0; i < dev->n_atts && !err; i++) {
			struct dmn_attachment *a = dev_att(dev, i);
			err = dmn__txn_set_vote(ctx, a, a->vote, true);
			if (!err)
				dmn__txn_touch(ctx, a->dom);
		}
	}
	err = err ? (dmn__txn_abort(ctx), err) : dmn__txn_commit(ctx);
	int first = ctx->op_error;
	FOR_DEVICES(ctx, dev)
		dev->sleep_usage = 0;
	/* Then the wakeup path lets go: what no restored device needs
	 * stays as sleep left it, a kept domain follows its votes. */
	dmn__txn_begin(ctx);
	bool any = false;
	FOR_DOMAINS(ctx, d) {
		if (!dom_cold(d)->sleep_keep)
			continue;
		d->cold->sleep_keep = false;
		dmn__txn_touch(ctx, d);
		any = true;
	}
	int err2 = any ? dmn__txn_commit(ctx) : (dmn__txn_abort(ctx), 0);
	if (first)
		ctx->op_error = first;
	if (!err)
		err = err2;
	return dmn__txn_result(ctx, err);
}

int dmn_system_resume(struct dmn_ctx *ctx)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	err = dmn__system_resume_locked(ctx);
	dmn__unlock(ctx);
	return err;
}

int dmn_system_asleep(struct dmn_ctx *ctx)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	int asleep = ctx->asleep;
	dmn__unlock(ctx);
	return asleep;
}

int dmn_system_set_wakeup_latency(struct dmn_ctx *ctx, uint32_t latency_us)
{
	int err = dmn__enter_ctx(ctx, true);
	if (err)
		return err;
	/* A limit, as a device's QoS: it re-evaluates nothing. */
	ctx->sys_qos_set = latency_us != DMN_QOS_NONE;
	ctx->sys_qos_ns = (uint64_t)latency_us * 1000u;
	ctx->op_error = 0;
	return dmn__leave(ctx, 0);
}

int dmn_system_wakeup_latency(struct dmn_ctx *ctx, uint32_t *latency_us)
{
	int err = dmn__enter_ctx(ctx, latency_us);
	if (err)
		return err;
	*latency_us = ctx->sys_qos_set ? (uint32_t)(ctx->sys_qos_ns / 1000u)
				       : DMN_QOS_NONE;
	dmn__unlock(ctx);
	return 0;
}

int dmn_device_set_wakeup_enable(struct dmn_ctx *ctx, dmn_device_t h, int on)
{
	int err;
	struct dmn_device *dev = dmn__enter(ctx, true, DMN_DEVICES, h, &err);
	if (!dev)
		return err;
	dev->wakeup = on != 0;
	dmn__unlock(ctx);
	return 0;
}

int dmn_device_wakeup_enabled(struct dmn_ctx *ctx, dmn_device_t h)
{
	int err;
	struct dmn_device *dev = dmn__enter(ctx, true, DMN_DEVICES, h, &err);
	if (!dev)
		return err;
	int r = dev->wakeup;
	dmn__unlock(ctx);
	return r;
}

int dmn_domain_set_active_wakeup(struct dmn_ctx *ctx, dmn_domain_t h, int on)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, true, DMN_DOMAINS, h, &err);
	if (!d)
		return err;
	/* The flag lives in the domain's cold part. */
	if ((on || d->cold) && !dmn__domain_cold(ctx, d))
		err = -ENOMEM;
	if (!err && d->cold)
		d->cold->active_wakeup = on != 0;
	dmn__unlock(ctx);
	return err;
}

int dmn_domain_active_wakeup(struct dmn_ctx *ctx, dmn_domain_t h)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, true, DMN_DOMAINS, h, &err);
	if (!d)
		return err;
	int r = dom_cold(d)->active_wakeup;
	dmn__unlock(ctx);
	return r;
}

int dmn_system_sleep_stats(struct dmn_ctx *ctx, uint64_t *count,
			  uint64_t *time_ns)
{
	int err = dmn__enter_ctx(ctx, count && time_ns);
	if (err)
		return err;
	*count = ctx->sleep_count;
	*time_ns = ctx->sleep_time +
		   (ctx->asleep ? dmn_now(ctx) - ctx->sleep_since : 0);
	dmn__unlock(ctx);
	return 0;
}

int dmn_domain_sleep_stats(struct dmn_ctx *ctx, dmn_domain_t h, int i,
			  uint64_t *ns)
{
	int err;
	struct dmn_domain *d = dmn__enter(ctx, ns, DMN_DOMAINS, h, &err);
	if (!d)
		return err;
	unsigned n = d->idle ? d->idle->n : 0;
	if ((i < -2 || i >= (int)n))
		err = -ENOENT;
	if (!err) {
		*ns = 0;
		struct dmn_sleep_data *s = dom_cold(d)->sleep;
		if (s && ctx->asleep)
			sleep_account(d, dmn_now(ctx));
		if (s && i == -1)
			*ns = s->on;
		else if (s && i == -2)
			*ns = s->idle[s->n - 1];
		else if (s && (unsigned)i + 1 < s->n)
			*ns = s->idle[i];
	}
	dmn__unlock(ctx);
	return err;
}
