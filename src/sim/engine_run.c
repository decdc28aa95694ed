/* SPDX-License-Identifier: MIT */
/* Running a scenario: resolve every name first, then execute in order. */
#include "engine_internal.h"
#include "scenario_internal.h"

#include <domino/idle.h>
#include <domino/lifecycle.h>
#include <domino/opp.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a command's names resolved to. */
struct resolved {
	int device; /* index into board->devices, or -1 */
	int domain; /* index into board->domains, or -1 */
	int attachment; /* for vote: index into the device's attachments */
	int idle; /* for expect idle: the state's position */
	int provider; /* for sync-state PROVIDER: index into board->providers */
	uint32_t level; /* for vote and expect pstate: the level, by number
			   or resolved from its name */
};

static int diag_set(struct dmn_scn_diag *diag, const struct dmn_scn_script *script,
		    const struct dmn_scn_cmd *cmd, const char *fmt, ...)
{
	if (diag) {
		memset(diag, 0, sizeof(*diag));
		diag->file = script->filename;
		diag->line = cmd->line;
		diag->column = cmd->column;
		diag->error = -EINVAL;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The command's target through @find (dmn__sim_find_device, dmn__sim_find_domain). */
static int resolve_target(struct dmn_sim *sim, const struct dmn_scn_script *s,
			  const struct dmn_scn_cmd *cmd, struct dmn_scn_diag *diag,
			  int (*find)(struct dmn_sim *, const char *, char *,
				      size_t),
			  int *out)
{
	char why[DMN_SCN_DIAG_MESSAGE_MAX];
	int i = find(sim, cmd->target, why, sizeof(why));
	if (i < 0)
		return diag_set(diag, s, cmd, "%s", why);
	*out = i;
	return 0;
}

/* A level given by name: the entry of that name in the OPP table whose
 * levels @domain takes. */
static int resolve_level(struct dmn_sim *sim, const struct dmn_scn_script *s,
			 const struct dmn_scn_cmd *cmd, struct dmn_scn_diag *diag,
			 int domain, const char *name, uint32_t *level)
{
	char why[DMN_SCN_DIAG_MESSAGE_MAX];
	if (dmn__sim_find_level(sim, (unsigned)domain, name, level, why,
			   sizeof(why)))
		return diag_set(diag, s, cmd, "%s", why);
	return 0;
}

/* Which of @r->device's domains a `vote` or `hwmode` means: @domain by
 * name, or its only one. */
static int resolve_attachment(struct dmn_sim *sim, const struct dmn_scn_script *s,
			      const struct dmn_scn_cmd *cmd, struct dmn_scn_diag *diag,
			      const char *verb, const char *domain,
			      struct resolved *r)
{
	const struct dmn_dt_device *d = &sim->board->devices[r->device];
	char why[DMN_SCN_DIAG_MESSAGE_MAX];
	if (!domain && d->n_attachments != 1) {
		char names[200];
		dmn__sim_attachment_names(sim, r->device, names, sizeof(names));
		if (!d->n_attachments)
			return diag_set(diag, s, cmd,
					"%s: device '%s' has no domains", verb,
					d->name);
		return diag_set(diag, s, cmd,
				"device '%s' has %u domains: name one (%s)",
				d->name, d->n_attachments, names);
	}
	r->attachment = domain ? dmn__sim_find_attachment(sim, r->device,
							  domain, why,
							  sizeof(why))
			       : 0;
	if (r->attachment < 0)
		return diag_set(diag, s, cmd, "%s", why);
	return 0;
}

static int resolve_vote(struct dmn_sim *sim, const struct dmn_scn_script *s,
			const struct dmn_scn_cmd *cmd, struct dmn_scn_diag *diag,
			struct resolved *r)
{
	const struct dmn_dt_device *d = &sim->board->devices[r->device];
	int err = resolve_attachment(sim, s, cmd, diag, "vote",
				     cmd->vote.domain, r);
	if (err)
		return err;
	r->level = cmd->vote.level;
	if (!cmd->vote.level_name)
		return 0;
	return resolve_level(sim, s, cmd, diag,
			     d->attachments[r->attachment].domain,
			     cmd->vote.level_name, &r->level);
}

static int resolve_idle(const struct dmn_sim *sim, const struct dmn_scn_script *s,
			const struct dmn_scn_cmd *cmd, struct dmn_scn_diag *diag,
			struct resolved *r)
{
	const struct dmn_dt_domain *d = &sim->board->domains[r->domain];
	char names[256];
	size_t used = 0;
	names[0] = 0;
	for (unsigned i = 0; i < d->n_idle_states; i++) {
		const char *n = dmn__sim_idle_name(sim, (unsigned)r->domain, (int)i);
		if (!strcmp(n, cmd->expect.idle_state)) {
			r->idle = (int)i;
			return 0;
		}
		if (used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used,
						 "%s%s", i ? ", " : "", n);
	}
	if (!d->n_idle_states)
		return diag_set(diag, s, cmd,
				"domain '%s' has no idle states; use 'expect %s off'",
				d->name, d->name);
	return diag_set(diag, s, cmd, "domain '%s' has no idle state '%s' (%s)",
			d->name, cmd->expect.idle_state, names);
}

static int resolve(struct dmn_sim *sim, const struct dmn_scn_script *s,
		   const struct dmn_scn_cmd *cmd, struct dmn_scn_diag *diag,
		   struct resolved *r)
{
	r->device = r->domain = r->attachment = r->idle = r->provider = -1;
	switch (cmd->verb) {
	case DMN_SCN_RESUME:
	case DMN_SCN_SUSPEND:
	case DMN_SCN_RATE:
	case DMN_SCN_QOS:
	case DMN_SCN_WAKEUP:
		return resolve_target(sim, s, cmd, diag, dmn__sim_find_device,
				      &r->device);
	case DMN_SCN_VOTE: {
		int err = resolve_target(sim, s, cmd, diag, dmn__sim_find_device,
					 &r->device);
		return err ? err : resolve_vote(sim, s, cmd, diag, r);
	}
	case DMN_SCN_FAIL:
		return resolve_target(sim, s, cmd, diag, dmn__sim_find_domain,
				      &r->domain);
	case DMN_SCN_BOOT_ON: {
		int err = resolve_target(sim, s, cmd, diag, dmn__sim_find_domain,
					 &r->domain);
		r->level = cmd->boot.level;
		if (err || !cmd->boot.level_name)
			return err;
		return resolve_level(sim, s, cmd, diag, r->domain,
				     cmd->boot.level_name, &r->level);
	}
	case DMN_SCN_EXPLAIN:
	case DMN_SCN_ACTIVE_WAKEUP:
		return resolve_target(sim, s, cmd, diag, dmn__sim_find_domain,
				      &r->domain);
	case DMN_SCN_HWMODE: {
		int err = resolve_target(sim, s, cmd, diag, dmn__sim_find_device,
					 &r->device);
		return err ? err
			   : resolve_attachment(sim, s, cmd, diag, "hwmode",
						cmd->hwmode.domain, r);
	}
	case DMN_SCN_ALWAYS_ON:
		if (cmd->toggle.domain) {
			char why[DMN_SCN_DIAG_MESSAGE_MAX];
			if (dmn__sim_find_domain(sim, cmd->target, why,
						 sizeof(why)) < 0 &&
			    dmn__sim_find_device(sim, cmd->target, why,
						 sizeof(why)) >= 0)
				return diag_set(diag, s, cmd,
						"'%s' is a device: always-on "
						"DEV on|off",
						cmd->target);
			return resolve_target(sim, s, cmd, diag,
					      dmn__sim_find_domain, &r->domain);
		}
		return resolve_target(sim, s, cmd, diag, dmn__sim_find_device,
				      &r->device);
	case DMN_SCN_WAKEUP_ENABLE:
		return resolve_target(sim, s, cmd, diag, dmn__sim_find_device,
				      &r->device);
	case DMN_SCN_SYSTEM_SUSPEND:
	case DMN_SCN_SYSTEM_RESUME:
	case DMN_SCN_SYSTEM_QOS:
		return 0;
	case DMN_SCN_SYNC_STATE: {
		/* A domain, else a provider: of_genpd_sync_state() releases
		 * every domain of the provider's node. */
		char why[DMN_SCN_DIAG_MESSAGE_MAX];
		r->provider = dmn__sim_find_provider(sim, cmd->target);
		if (r->provider >= 0 &&
		    dmn__sim_find_domain(sim, cmd->target, why, sizeof(why)) < 0)
			return 0;
		r->provider = -1;
		return resolve_target(sim, s, cmd, diag, dmn__sim_find_domain,
				      &r->domain);
	}
	case DMN_SCN_PROBE:
		if (cmd->probe.all)
			return 0;
		return resolve_target(sim, s, cmd, diag, dmn__sim_find_device,
				      &r->device);
	case DMN_SCN_EXPECT:
		switch (cmd->expect.kind) {
		case DMN_SCN_EXPECT_RATE:
			return resolve_target(sim, s, cmd, diag,
					      dmn__sim_find_device, &r->device);
		case DMN_SCN_EXPECT_LAST_ERROR:
			return 0;
		case DMN_SCN_EXPECT_IDLE: {
			int err = resolve_target(sim, s, cmd, diag,
						 dmn__sim_find_domain, &r->domain);
			return err ? err : resolve_idle(sim, s, cmd, diag, r);
		}
		case DMN_SCN_EXPECT_PSTATE: {
			int err = resolve_target(sim, s, cmd, diag,
						 dmn__sim_find_domain, &r->domain);
			r->level = cmd->expect.level;
			if (err || !cmd->expect.level_name)
				return err;
			return resolve_level(sim, s, cmd, diag, r->domain,
					     cmd->expect.level_name, &r->level);
		}
		default:
			return resolve_target(sim, s, cmd, diag,
					      dmn__sim_find_domain, &r->domain);
		}
	}
	return diag_set(diag, s, cmd, "unsupported command");
}

/* ---- execution --------------------------------------------------------------- */

static const char *describe(const struct dmn_scn_cmd *cmd, char *buf, size_t size)
{
	char t[32];
	switch (cmd->verb) {
	case DMN_SCN_RATE:
		snprintf(buf, size, "rate %s %llu", cmd->target,
			 (unsigned long long)cmd->rate.hz);
		break;
	case DMN_SCN_VOTE:
		snprintf(t, sizeof(t), "%u", cmd->vote.level);
		snprintf(buf, size, "vote %s%s%s %s", cmd->target,
			 cmd->vote.domain ? " " : "",
			 cmd->vote.domain ? cmd->vote.domain : "",
			 cmd->vote.level_name ? cmd->vote.level_name : t);
		break;
	case DMN_SCN_QOS:
		if (cmd->qos.latency_us == DMN_SCN_QOS_NONE)
			snprintf(buf, size, "qos %s none", cmd->target);
		else
			snprintf(buf, size, "qos %s %u", cmd->target,
				 cmd->qos.latency_us);
		break;
	case DMN_SCN_WAKEUP:
		if (cmd->wakeup.at_ns == DMN_SCN_WAKEUP_NONE)
			snprintf(t, sizeof(t), "none");
		else
			dmn_scn_format_time(cmd->wakeup.at_ns, t, sizeof(t));
		snprintf(buf, size, "wakeup %s %s", cmd->target, t);
		break;
	case DMN_SCN_FAIL:
		snprintf(buf, size, "fail %s %s %u", cmd->target,
			 dmn_scn_fail_op_name(cmd->fail.op), cmd->fail.count);
		break;
	case DMN_SCN_BOOT_ON:
		snprintf(t, sizeof(t), "%u", cmd->boot.level);
		if (cmd->boot.flags == DMN_SCN_BOOT_NO_STAY_ON)
			snprintf(buf, size, "boot-on %s no-stay-on", cmd->target);
		else
			snprintf(buf, size, "boot-on %s %s%s", cmd->target,
				 cmd->boot.level_name ? cmd->boot.level_name : t,
				 cmd->boot.flags ? " no-sync-state" : "");
		break;
	case DMN_SCN_SYSTEM_QOS:
		if (cmd->qos.latency_us == DMN_SCN_QOS_NONE)
			snprintf(buf, size, "system-qos none");
		else
			snprintf(buf, size, "system-qos %u",
				 cmd->qos.latency_us);
		break;
	case DMN_SCN_PROBE:
		snprintf(buf, size, "probe %s",
			 cmd->probe.all ? "all" : cmd->target);
		break;
	case DMN_SCN_SYSTEM_SUSPEND:
	case DMN_SCN_SYSTEM_RESUME:
		snprintf(buf, size, "%s", dmn_scn_verb_name(cmd->verb));
		break;
	case DMN_SCN_WAKEUP_ENABLE:
	case DMN_SCN_ACTIVE_WAKEUP:
		snprintf(buf, size, "%s %s %s", dmn_scn_verb_name(cmd->verb),
			 cmd->target, cmd->toggle.on ? "on" : "off");
		break;
	case DMN_SCN_ALWAYS_ON:
		snprintf(buf, size, "always-on %s%s", cmd->target,
			 cmd->toggle.domain ? ""
			 : cmd->toggle.on   ? " on"
					    : " off");
		break;
	case DMN_SCN_HWMODE:
		snprintf(buf, size, "hwmode %s%s%s %s", cmd->target,
			 cmd->hwmode.domain ? " " : "",
			 cmd->hwmode.domain ? cmd->hwmode.domain : "",
			 cmd->hwmode.on ? "on" : "off");
		break;
	default:
		snprintf(buf, size, "%s %s", dmn_scn_verb_name(cmd->verb),
			 cmd->target ? cmd->target : "");
		break;
	}
	return buf;
}

static int push_cause(struct dmn_sim *sim, const char *text)
{
	if (sim->n_causes == sim->cap_causes) {
		unsigned cap = sim->cap_causes ? sim->cap_causes * 2 : 64;
		char **bigger = realloc(sim->causes, cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		sim->causes = bigger;
		sim->cap_causes = cap;
	}
	char *copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	DMN_ASSERT(sim->n_causes < sim->cap_causes);
	sim->causes[sim->n_causes++] = copy;
	sim->cur_cause = copy;
	return 0;
}

static void expect_failed(struct dmn_sim *sim, struct dmn_sim_result *res,
			  const char *fmt, ...)
{
	char *msg = malloc(256);
	if (!msg) {
		sim->oom = 1;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, 256, fmt, ap);
	va_end(ap);
	/* Kept with the causes so it lives as long as the events. */
	if (push_cause(sim, msg)) {
		free(msg);
		sim->oom = 1;
		return;
	}
	free(msg);
	struct dmn_report_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.kind = DMN_REPORT_EV_EXPECT_FAILED;
	ev.message = sim->causes[sim->n_causes - 1];
	dmn__sim_record(sim, &ev);
	res->expect_failed++;
}

static void check_expect(struct dmn_sim *sim, const struct dmn_scn_cmd *cmd,
			 const struct resolved *r, int last_error,
			 struct dmn_sim_result *res)
{
	const struct dmn_dt_board *b = sim->board;
	struct dmn_domain_info info;
	const char *dom = r->domain >= 0 ? b->domains[r->domain].name : NULL;
	if (r->domain >= 0)
		dmn_domain_info(sim->ctx, sim->inst->domains[r->domain], &info);
	switch (cmd->expect.kind) {
	case DMN_SCN_EXPECT_PSTATE:
		if (info.pstate != r->level)
			expect_failed(sim, res, "%s pstate %u, got %u", dom,
				      r->level, info.pstate);
		break;
	case DMN_SCN_EXPECT_ON:
	case DMN_SCN_EXPECT_OFF: {
		int want = cmd->expect.kind == DMN_SCN_EXPECT_ON;
		if (info.on != want)
			expect_failed(sim, res, "%s %s, got %s", dom,
				      want ? "on" : "off", info.on ? "on" : "off");
		break;
	}
	case DMN_SCN_EXPECT_IDLE:
		if (info.on || info.idle_state != r->idle) {
			const char *got = info.on ? "on"
				: dmn__sim_idle_name(sim, (unsigned)r->domain, info.idle_state);
			expect_failed(sim, res, "%s idle %s, got %s", dom,
				      cmd->expect.idle_state, got ? got : "off");
		}
		break;
	case DMN_SCN_EXPECT_RATE: {
		uint64_t got = sim->devs[r->device].rate;
		if (got != cmd->expect.hz)
			expect_failed(sim, res, "%s rate %llu, got %llu",
				      b->devices[r->device].name,
				      (unsigned long long)cmd->expect.hz,
				      (unsigned long long)got);
		break;
	}
	case DMN_SCN_EXPECT_LAST_ERROR:
		if (last_error != cmd->expect.error)
			expect_failed(sim, res, "last-error %s, got %s",
				      dmn_errno_name(cmd->expect.error),
				      dmn_errno_name(last_error));
		break;
	case DMN_SCN_EXPECT_HW:
	case DMN_SCN_EXPECT_SW: {
		int hw = dmn_domain_hwmode(sim->ctx, sim->inst->domains[r->domain]);
		int want = cmd->expect.kind == DMN_SCN_EXPECT_HW;
		if ((hw == 1) != want)
			expect_failed(sim, res, "%s %s, got %s", dom,
				      want ? "hw" : "sw", hw == 1 ? "hw" : "sw");
		break;
	}
	case DMN_SCN_EXPECT_HELD:
	case DMN_SCN_EXPECT_RELEASED: {
		struct dmn_hold_info h;
		dmn_domain_hold(sim->ctx, sim->inst->domains[r->domain], &h);
		int want = cmd->expect.kind == DMN_SCN_EXPECT_HELD;
		if (h.held != want)
			expect_failed(sim, res, "%s %s, got %s", dom,
				      want ? "held" : "released",
				      h.held ? "held" : "released");
		break;
	}
	}
}

/* One DMN_REPORT_EV_EXPLAIN event per line of the answer, printed where failed
 * expects go. */
static int explain(struct dmn_sim *sim, unsigned domain)
{
	char *text;
	int err = dmn__sim_explain_index(sim, domain, &text);
	if (err)
		return err;
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = 0;
		/* The line lives with the causes; the cause stays the
		 * command. */
		const char *cause = sim->cur_cause;
		if (push_cause(sim, line)) {
			free(text);
			return -ENOMEM;
		}
		sim->cur_cause = cause;
		struct dmn_report_event ev;
		memset(&ev, 0, sizeof(ev));
		ev.kind = DMN_REPORT_EV_EXPLAIN;
		ev.domain = sim->board->domains[domain].name;
		ev.message = sim->causes[sim->n_causes - 1];
		dmn__sim_record(sim, &ev);
	}
	free(text);
	return 0;
}

/* After a successful `rate` to @hz: every attachment the old or the new
 * own entry drives now holds the new entry's vote as cast (its own word:
 * not the effective entry a requirement may raise an owner to). 0, or
 * -ENOMEM (reading an entry's votes allocates): the record is then
 * unknown, and the run ends. */
static int note_rate_votes(struct dmn_sim *sim, int device, uint64_t hz)
{
	const struct dmn_dt_device *d = &sim->board->devices[device];
	dmn_device_t h = sim->inst->devices[device];
	dmn_opp_table_t t = 0;
	uint32_t was = sim->devs[device].own_id, now = DMN_OPP_ID_NONE;
	unsigned n = d->n_attachments;
	uint32_t *old_v = sim->vote_scratch, *new_v = old_v + n;
	memset(old_v, 0, 2 * (size_t)n * sizeof(*old_v));
	if (hz && !dmn_opp_device_table(sim->ctx, h, &t) &&
	    dmn_opp_find_freq_ceil(sim->ctx, t, hz, &now))
		now = DMN_OPP_ID_NONE;
	sim->devs[device].own_id = now;
	if ((was != DMN_OPP_ID_NONE &&
	     dmn_opp_device_votes(sim->ctx, h, was, old_v, n) == -ENOMEM) ||
	    (now != DMN_OPP_ID_NONE &&
	     dmn_opp_device_votes(sim->ctx, h, now, new_v, n) == -ENOMEM))
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		if (old_v[i] || new_v[i])
			sim->devs[device].cast[i] = new_v[i];
	return 0;
}

/*
 * Run one command. *@callbacks is set when it made a library call that may
 * run domain callbacks, whose safe-direction failures only
 * dmn_last_error() reports; any other command's outcome is its own result.
 */
static int execute(struct dmn_sim *sim, const struct dmn_scn_cmd *cmd,
		   const struct resolved *r, int *callbacks)
{
	struct dmn_ctx *ctx = sim->ctx;
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_instance *inst = sim->inst;
	struct dmn_sim_device *dev = r->device >= 0 ? &sim->devs[r->device] : NULL;
	uint32_t dev_h = r->device >= 0 ? inst->devices[r->device] : 0;
	int err = 0;
	*callbacks = 0;
	switch (cmd->verb) {
	case DMN_SCN_RESUME:
		if (dev->active)
			return 0; /* no nesting in scenarios */
		*callbacks = 1;
		/* with the device-to-device requirements it casts */
		err = dmn_opp_device_get(ctx, dev_h);
		if (!err)
			dev->active = 1;
		if (sim->energy)
			dmn__sim_energy_device_changed(sim, (unsigned)r->device);
		return err;
	case DMN_SCN_SUSPEND:
		if (!dev->active)
			return 0;
		*callbacks = 1;
		err = dmn_opp_device_put(ctx, dev_h);
		if (!err)
			dev->active = 0;
		if (sim->energy)
			dmn__sim_energy_device_changed(sim, (unsigned)r->device);
		return err;
	case DMN_SCN_RATE: {
		*callbacks = 1;
		err = dmn_opp_set_rate(ctx, dev_h, cmd->rate.hz);
		if (!err)
			err = note_rate_votes(sim, r->device, cmd->rate.hz);
		if (sim->energy)
			dmn__sim_energy_device_changed(sim, (unsigned)r->device);
		/* Not bound to a table: the scenario says -ENODEV ("a device
		 * without an OPP table", docs/semantics.md, The OPP layer),
		 * the library -ENOENT. */
		return err == -ENOENT ? -ENODEV : err;
	}
	case DMN_SCN_VOTE: {
		/* Checked here, when the vote is cast (even while suspended),
		 * from where it can land: the same answer for a callback-less
		 * child as for its callback-less parent. */
		int dom = b->devices[r->device].attachments[r->attachment].domain;
		if (r->level && !sim->doms[dom].reaches_pstate)
			return -ENODEV;
		*callbacks = 1;
		/* an owner of a required table keeps the higher of its vote
		 * and its effective OPP's (docs/device-tree.md,
		 * Device-to-device requirements) */
		err = dmn_opp_device_vote(ctx, dev_h, (unsigned)r->attachment,
				      r->level);
		if (!err)
			dev->cast[r->attachment] = r->level;
		return err;
	}
	case DMN_SCN_QOS:
		return dmn_device_set_qos(ctx, dev_h, cmd->qos.latency_us);
	case DMN_SCN_WAKEUP:
		return dmn_device_set_wakeup(ctx, dev_h, cmd->wakeup.at_ns);
	case DMN_SCN_FAIL:
		sim->doms[r->domain].fail_count[cmd->fail.op] = cmd->fail.count;
		return 0;
	case DMN_SCN_EXPECT:
		return 0;
	case DMN_SCN_BOOT_ON:
		sim->doms[r->domain].boot_raw = r->level;
		return dmn_domain_boot(ctx, inst->domains[r->domain], r->level,
				       cmd->boot.flags);
	case DMN_SCN_SYNC_STATE: {
		*callbacks = 1;
		if (r->provider < 0)
			return dmn_sync_state(ctx, &inst->domains[r->domain], 1);
		const struct dmn_dt_provider *p = &b->providers[r->provider];
		if (!p->n_domains)
			return 0;
		return dmn_sync_state(ctx, &inst->domains[p->first_domain],
				      p->n_domains);
	}
	case DMN_SCN_SYSTEM_QOS:
		return dmn_system_set_wakeup_latency(ctx, cmd->qos.latency_us);
	case DMN_SCN_EXPLAIN:
		return 0; /* run_command answers it */
	case DMN_SCN_WAKEUP_ENABLE:
		return dmn_device_set_wakeup_enable(ctx, dev_h, cmd->toggle.on);
	case DMN_SCN_ACTIVE_WAKEUP:
		return dmn_domain_set_active_wakeup(
		    ctx, inst->domains[r->domain], cmd->toggle.on);
	case DMN_SCN_HWMODE:
		*callbacks = 1;
		return dmn_attach_set_hwmode(
		    ctx, inst->attachments[r->device][r->attachment],
		    cmd->hwmode.on);
	case DMN_SCN_ALWAYS_ON:
		*callbacks = 1;
		if (cmd->toggle.domain)
			return dmn_domain_set_always_on(ctx,
						       inst->domains[r->domain]);
		return dmn_device_set_always_on(ctx, dev_h, cmd->toggle.on);
	case DMN_SCN_SYSTEM_SUSPEND:
	case DMN_SCN_SYSTEM_RESUME: {
		*callbacks = 1;
		int was = dmn_system_asleep(ctx);
		/* the OPP layer's: device-to-device requirements follow */
		err = cmd->verb == DMN_SCN_SYSTEM_SUSPEND
			  ? dmn_opp_system_suspend(ctx)
			  : dmn_opp_system_resume(ctx);
		/* The sleep band of the trace and the SVG starts and ends
		 * with these. */
		if (dmn_system_asleep(ctx) != was) {
			struct dmn_report_event ev;
			memset(&ev, 0, sizeof(ev));
			ev.kind = was ? DMN_REPORT_EV_SYSTEM_WAKE : DMN_REPORT_EV_SYSTEM_SLEEP;
			dmn__sim_record(sim, &ev);
		}
		/* Sleep changed runtime states behind the scenario's back:
		 * take them from the library again. */
		for (unsigned i = 0; i < b->n_devices; i++) {
			struct dmn_device_info di;
			unsigned kids = 0;
			/* its own use: the counts of its active children
			 * (a bus's) are theirs */
			if (!dmn_device_info(ctx, inst->devices[i], &di) &&
			    !dmn_device_parent(ctx, inst->devices[i], NULL,
					       &kids))
				sim->devs[i].active = di.usage > kids;
		}
		if (sim->energy)
			dmn__sim_energy_all_devices_changed(sim);
		return err;
	}
	case DMN_SCN_PROBE:
		*callbacks = 1;
		if (!cmd->probe.all)
			return dmn_device_probe(ctx, dev_h);
		return dmn_probe_all(ctx);
	}
	return -EINVAL;
}

/* Why a command failed, in words a scenario writer can act on: the
 * highest rate or level there is, where the errno alone leaves them to
 * read the board. */
static void failure_reason(struct dmn_sim *sim, const struct dmn_scn_cmd *cmd,
			   const struct resolved *r, int err, char *buf,
			   size_t size)
{
	struct dmn_ctx *ctx = sim->ctx;
	char a[DMN_SCN_HZ_LEN], b[DMN_SCN_HZ_LEN];
	dmn_opp_table_t table;
	uint32_t id;
	struct dmn_opp_info info;
	snprintf(buf, size, "%s", dmn_strerror(err));
	if (cmd->verb == DMN_SCN_RATE && r->device >= 0) {
		dmn_device_t dev = sim->inst->devices[r->device];
		if (err == -ENODEV &&
		    dmn_opp_device_table(ctx, dev, &table) != 0) {
			snprintf(buf, size, "%s has no OPP table", cmd->target);
			return;
		}
		if (err != -ERANGE || dmn_opp_device_table(ctx, dev, &table) ||
		    dmn_opp_last(ctx, table, &id) ||
		    dmn_opp_entry_info(ctx, table, id, &info))
			return;
		if (!info.n_hz) {
			snprintf(buf, size, "its OPP table has no frequencies");
			return;
		}
		if (cmd->rate.hz > info.hz[0])
			snprintf(buf, size, "no OPP >= %s; highest %s",
				 dmn__scn_format_hz(a, cmd->rate.hz),
				 dmn__scn_format_hz(b, info.hz[0]));
		else
			snprintf(buf, size, "%s", "a vote of that OPP is above "
				 "what a domain or a required table can take");
		return;
	}
	if (cmd->verb == DMN_SCN_VOTE && r->device >= 0) {
		int dom = sim->board->devices[r->device]
			      .attachments[r->attachment].domain;
		const char *name = sim->board->domains[dom].name;
		if (err == -ENODEV) {
			snprintf(buf, size, "%s has no performance states", name);
			return;
		}
		if (err == -ERANGE &&
		    !dmn_opp_domain_table(ctx, sim->inst->domains[dom], &table) &&
		    !dmn_opp_find_level_floor(ctx, table, UINT32_MAX, &id) &&
		    !dmn_opp_entry_info(ctx, table, id, &info))
			snprintf(buf, size, "level %" PRIu32 " is above %s's "
				 "highest, %" PRIu32, r->level, name, info.level);
	}
}

/* One command, its names resolved into @r: as dmn_sim_run runs each. */
static int run_command(struct dmn_sim *sim, const struct dmn_scn_cmd *cmd,
		       const struct resolved *r, struct dmn_sim_result *res,
		       int *op_error)
{
	char text[200];
	*op_error = 0;
	sim->now = cmd->time_ns;
	sim->cur_line = cmd->line;
	if (push_cause(sim, describe(cmd, text, sizeof(text))))
		return -ENOMEM;
	if (cmd->verb == DMN_SCN_EXPECT) {
		check_expect(sim, cmd, r, sim->last_error, res);
		return 0;
	}
	/* Like expect, explain only looks: it leaves last-error. */
	if (cmd->verb == DMN_SCN_EXPLAIN)
		return explain(sim, (unsigned)r->domain);
	res->commands++;
	sim->undoing = 0;
	sim->command++;
	int callbacks;
	int err = execute(sim, cmd, r, &callbacks);
	/* what the command left is what the time until the next one costs */
	if (sim->energy)
		dmn__sim_energy_flush(sim);
	/* The simulated hardware fails with -EIO only: -ENOMEM is the
	 * library's own allocation failing, which ends the run (it is not
	 * the scenario's command failing, and its expectations would fail
	 * after it for no reason of the board's). */
	if (err == -ENOMEM)
		return -ENOMEM;
	/* Every command sets last-error (docs/scenario.md, Errors and
	 * failures): one that called no
	 * callback, a no-op resume or a `fail`, leaves OK. */
	sim->last_error = err || !callbacks ? err : dmn_last_error(sim->ctx);
	*op_error = err;
	if (err) {
		struct dmn_report_event ev;
		memset(&ev, 0, sizeof(ev));
		ev.kind = DMN_REPORT_EV_COMMAND_ERROR;
		ev.error = err;
		/* The reason is kept with the causes, so it lives as long as
		 * the events; the command stays their cause. */
		char why[200];
		failure_reason(sim, cmd, r, err, why, sizeof(why));
		const char *cause = sim->cur_cause;
		if (push_cause(sim, why))
			return -ENOMEM;
		ev.message = sim->causes[sim->n_causes - 1];
		sim->cur_cause = cause;
		if (r->device >= 0)
			ev.device = sim->board->devices[r->device].name;
		if (r->domain >= 0)
			ev.domain = sim->board->domains[r->domain].name;
		dmn__sim_record(sim, &ev);
		res->commands_failed++;
	}
	return 0;
}

/* A boot level is checked like a vote, but as part of reading the
 * scenario: a board cannot boot into a state it cannot hold. */
static int boot_error(struct dmn_sim *sim, const struct dmn_scn_script *script,
		      const struct dmn_scn_cmd *cmd, int err, struct dmn_scn_diag *diag)
{
	(void)sim;
	const char *why = err == -ENODEV ? "no domain it reaches has levels"
			  : err == -ERANGE ? "above the highest level"
					   : dmn_strerror(err);
	char level[32];
	snprintf(level, sizeof(level), "%u", cmd->boot.level);
	return diag_set(diag, script, cmd, "boot-on %s %s: %s (%s)",
			cmd->target,
			cmd->boot.level_name ? cmd->boot.level_name : level,
			why, dmn_errno_name(err));
}

int dmn_sim_run(struct dmn_sim *sim, const struct dmn_scn_script *script,
	    dmn_sim_event_fn live, void *user, struct dmn_sim_result *res,
	    struct dmn_scn_diag *diag)
{
	if (!sim || !script || !res)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	struct resolved *r = calloc(script->count ? script->count : 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < script->count; i++) {
		int err = resolve(sim, script, &script->cmds[i], diag, &r[i]);
		if (err) {
			free(r);
			return err;
		}
	}
	sim->live = live;
	sim->live_user = user;
	sim->last_error = 0;
	for (size_t i = 0; i < script->count; i++) {
		int op_error;
		if (run_command(sim, &script->cmds[i], &r[i], res, &op_error)) {
			free(r);
			return -ENOMEM;
		}
		if (op_error && script->cmds[i].verb == DMN_SCN_BOOT_ON) {
			free(r);
			return boot_error(sim, script, &script->cmds[i],
					  op_error, diag);
		}
	}
	sim->cur_cause = NULL;
	sim->cur_line = 0;
	if (script->end_ns > sim->now)
		sim->now = script->end_ns;
	free(r);
	return sim->oom ? -ENOMEM : 0;
}

int dmn_sim_step(struct dmn_sim *sim, const struct dmn_scn_script *script, size_t i,
	     struct dmn_sim_result *res, int *op_error, struct dmn_scn_diag *diag)
{
	if (!sim || !script || !res || !op_error || i >= script->count)
		return -EINVAL;
	*op_error = 0;
	struct resolved r;
	int err = resolve(sim, script, &script->cmds[i], diag, &r);
	if (err)
		return err;
	sim->live = NULL;
	err = run_command(sim, &script->cmds[i], &r, res, op_error);
	if (!err && *op_error && script->cmds[i].verb == DMN_SCN_BOOT_ON)
		err = boot_error(sim, script, &script->cmds[i], *op_error, diag);
	sim->cur_cause = NULL;
	sim->cur_line = 0;
	return err ? err : sim->oom ? -ENOMEM : 0;
}
