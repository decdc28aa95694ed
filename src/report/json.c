/* SPDX-License-Identifier: MIT */
/*
 * The --json writer (every key is listed in docs/json.md).
 * Output is indented for people reading it in a terminal, with one line
 * per device, event, level or idle state so that grep and diff work too.
 */
#include "report_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static void key(struct dmn_report_out *o, const char *indent, const char *name)
{
	dmn__rpt_out_puts(o, indent);
	dmn__rpt_out_json_str(o, name);
	dmn__rpt_out_puts(o, ": ");
}

static void bool_val(struct dmn_report_out *o, int v)
{
	dmn__rpt_out_puts(o, v ? "true" : "false");
}

static void name_array(struct dmn_report_out *o, const char *const *names, unsigned n)
{
	dmn__rpt_out_putc(o, '[');
	for (unsigned i = 0; names && i < n; i++) {
		if (i)
			dmn__rpt_out_puts(o, ", ");
		dmn__rpt_out_json_str(o, names[i]);
	}
	dmn__rpt_out_putc(o, ']');
}

static void write_device(struct dmn_report_out *o, const struct dmn_report_device *dev,
			 int life)
{
	dmn__rpt_out_puts(o, "{\"name\": ");
	dmn__rpt_out_json_str(o, dev->name);
	dmn__rpt_out_puts(o, ", \"path\": ");
	dmn__rpt_out_json_str(o, dev->path);
	dmn__rpt_out_puts(o, ", \"via\": ");
	dmn__rpt_out_json_str(o, dev->via);
	dmn__rpt_out_puts(o, ", \"args\": [");
	for (unsigned i = 0; i < dev->n_args; i++)
		dmn__rpt_out_printf(o, "%s%" PRIu32, i ? ", " : "", dev->args[i]);
	dmn__rpt_out_putc(o, ']');
	dmn__rpt_out_puts(o, ", \"active\": ");
	bool_val(o, dev->active);
	dmn__rpt_out_printf(o, ", \"vote\": %" PRIu32 ", \"counts\": ", dev->vote);
	bool_val(o, dev->counts);
	if (life) {
		dmn__rpt_out_puts(o, ", \"probed\": ");
		bool_val(o, dev->probed);
		dmn__rpt_out_puts(o, ", \"wakeup\": ");
		bool_val(o, dev->wakeup);
		dmn__rpt_out_puts(o, ", \"always_on\": ");
		bool_val(o, dev->always_on);
		dmn__rpt_out_puts(o, ", \"hw\": ");
		bool_val(o, dev->hw);
	}
	dmn__rpt_out_putc(o, '}');
}

static void write_domain(struct dmn_report_out *o, const struct dmn_report_domain *d,
			 int life)
{
	const char *in = "      ";

	dmn__rpt_out_puts(o, "    {\n");
	key(o, in, "name");
	dmn__rpt_out_json_str(o, d->name);
	dmn__rpt_out_puts(o, ",\n");
	key(o, in, "provider");
	dmn__rpt_out_json_str(o, d->provider);
	dmn__rpt_out_puts(o, ",\n");
	key(o, in, "index");
	if (d->index < 0)
		dmn__rpt_out_puts(o, "null");
	else
		dmn__rpt_out_printf(o, "%d", d->index);
	dmn__rpt_out_puts(o, ",\n");
	key(o, in, "status");
	dmn__rpt_out_puts(o, d->on ? "\"on\"" : "\"off\"");
	dmn__rpt_out_puts(o, ",\n");
	key(o, in, "pstate");
	dmn__rpt_out_printf(o, "%" PRIu32 ",\n", d->pstate);
	key(o, in, "pstate_name");
	dmn__rpt_out_json_str(o, dmn__rpt_pstate_name(d));
	dmn__rpt_out_puts(o, ",\n");
	key(o, in, "idle_state");
	dmn__rpt_out_json_str(o, d->on ? NULL : d->idle_state);
	dmn__rpt_out_puts(o, ",\n");
	key(o, in, "parents");
	name_array(o, d->parents, d->n_parents);
	dmn__rpt_out_puts(o, ",\n");
	key(o, in, "children");
	name_array(o, d->children, d->n_children);
	dmn__rpt_out_puts(o, ",\n");
	key(o, in, "levels");
	dmn__rpt_out_putc(o, '[');
	for (unsigned i = 0; d->level_values && i < d->n_levels; i++) {
		dmn__rpt_out_printf(o, "%s{\"level\": %" PRIu32 ", \"name\": ",
			       i ? ", " : "", d->level_values[i]);
		dmn__rpt_out_json_str(o, d->levels ? d->levels[i] : NULL);
		dmn__rpt_out_putc(o, '}');
	}
	dmn__rpt_out_puts(o, "],\n");
	/* The governor's menu, shallowest first: what the board declares. */
	key(o, in, "idle_states");
	dmn__rpt_out_putc(o, '[');
	for (unsigned i = 0; d->idle && i < d->n_idle; i++) {
		const struct dmn_report_idle_stats *st = &d->idle[i];
		dmn__rpt_out_puts(o, i ? ", {\"name\": " : "{\"name\": ");
		dmn__rpt_out_json_str(o, st->name);
		dmn__rpt_out_printf(o,
			       ", \"entry_latency_us\": %" PRIu32
			       ", \"exit_latency_us\": %" PRIu32
			       ", \"min_residency_us\": %" PRIu32 "}",
			       st->entry_latency_us, st->exit_latency_us,
			       st->min_residency_us);
	}
	dmn__rpt_out_puts(o, "],\n");
	if (life) {
		key(o, in, "held");
		bool_val(o, d->held);
		dmn__rpt_out_printf(o, ",\n%s\"boot_level\": %" PRIu32 ",\n", in,
			       d->boot_level);
		key(o, in, "awaiting");
		name_array(o, d->awaiting, d->n_awaiting);
		dmn__rpt_out_puts(o, ",\n");
		key(o, in, "active_wakeup");
		bool_val(o, d->active_wakeup);
		dmn__rpt_out_puts(o, ",\n");
		key(o, in, "hw");
		bool_val(o, d->hw);
		dmn__rpt_out_puts(o, ",\n");
		key(o, in, "always_on");
		bool_val(o, d->always_on);
		dmn__rpt_out_puts(o, ",\n");
		/* Only where the provider chose otherwise at boot. */
		if (d->no_stay_on) {
			key(o, in, "stay_on");
			dmn__rpt_out_puts(o, "false,\n");
		}
		if (d->no_sync_state) {
			key(o, in, "sync_state");
			dmn__rpt_out_puts(o, "false,\n");
		}
	}
	key(o, in, "devices");
	if (!d->devices || !d->n_devices) {
		dmn__rpt_out_puts(o, "[]\n");
	} else {
		dmn__rpt_out_puts(o, "[\n");
		for (unsigned i = 0; i < d->n_devices; i++) {
			dmn__rpt_out_puts(o, "        ");
			write_device(o, &d->devices[i], life);
			dmn__rpt_out_puts(o, i + 1 < d->n_devices ? ",\n" : "\n");
		}
		dmn__rpt_out_puts(o, "      ]\n");
	}
	dmn__rpt_out_puts(o, "    }");
}

static void str_member(struct dmn_report_out *o, const char *name, const char *v)
{
	dmn__rpt_out_puts(o, ", ");
	dmn__rpt_out_json_str(o, name);
	dmn__rpt_out_puts(o, ": ");
	dmn__rpt_out_json_str(o, v);
}

static void u64_member(struct dmn_report_out *o, const char *name, uint64_t v)
{
	dmn__rpt_out_puts(o, ", ");
	dmn__rpt_out_json_str(o, name);
	dmn__rpt_out_printf(o, ": %" PRIu64, v);
}

static void write_event(struct dmn_report_out *o, const struct dmn_report_event *e)
{
	dmn__rpt_out_printf(o, "{\"time_ns\": %" PRIu64, e->time_ns);
	str_member(o, "kind", dmn__rpt_event_kind_name(e->kind));
	str_member(o, "domain", e->domain);
	str_member(o, "device", e->device);
	str_member(o, "cause", e->cause);
	if (e->line)
		dmn__rpt_out_printf(o, ", \"line\": %u", e->line);
	else
		dmn__rpt_out_puts(o, ", \"line\": null");

	switch (e->kind) {
	case DMN_REPORT_EV_POWER_ON:
	case DMN_REPORT_EV_STAY_ON:
	case DMN_REPORT_EV_SYSTEM_SLEEP:
	case DMN_REPORT_EV_SYSTEM_WAKE:
		break;
	case DMN_REPORT_EV_HWMODE:
		dmn__rpt_out_puts(o, ", \"hw\": ");
		bool_val(o, e->new_level != 0);
		break;
	case DMN_REPORT_EV_POWER_OFF:
		str_member(o, "idle_state", e->idle_state);
		break;
	case DMN_REPORT_EV_PSTATE:
		u64_member(o, "old", e->old_level);
		u64_member(o, "new", e->new_level);
		break;
	case DMN_REPORT_EV_RATE:
		u64_member(o, "old_hz", e->old_hz);
		u64_member(o, "new_hz", e->new_hz);
		break;
	case DMN_REPORT_EV_FAILURE:
		str_member(o, "op", e->op);
		if (e->op && !strcmp(e->op, "pstate")) {
			u64_member(o, "old", e->old_level);
			u64_member(o, "new", e->new_level);
		} else if (e->op && !strcmp(e->op, "clock")) {
			u64_member(o, "old_hz", e->old_hz);
			u64_member(o, "new_hz", e->new_hz);
		}
		str_member(o, "error", dmn__rpt_error_name(e->error));
		dmn__rpt_out_puts(o, ", \"safe\": ");
		bool_val(o, e->safe);
		dmn__rpt_out_puts(o, ", \"undo\": ");
		bool_val(o, e->undo);
		break;
	case DMN_REPORT_EV_COMMAND_ERROR:
		str_member(o, "error", dmn__rpt_error_name(e->error));
		if (e->message)
			str_member(o, "message", e->message);
		break;
	case DMN_REPORT_EV_EXPECT_FAILED:
	case DMN_REPORT_EV_EXPLAIN:
		str_member(o, "message", e->message);
		break;
	}
	dmn__rpt_out_putc(o, '}');
}

static void write_stats(struct dmn_report_out *o, const struct dmn_report_levels *lv,
			const struct dmn_report_domain *d, int life)
{
	dmn__rpt_out_puts(o, "    ");
	dmn__rpt_out_json_str(o, d->name ? d->name : "");
	dmn__rpt_out_printf(o,
		       ": {\n      \"time_on_ns\": %" PRIu64
		       ",\n      \"time_off_ns\": %" PRIu64 ",\n",
		       d->time_on_ns, d->time_off_ns);
	dmn__rpt_out_puts(o, "      \"idle_states\": [");
	for (unsigned i = 0; d->idle && i < d->n_idle; i++) {
		const struct dmn_report_idle_stats *s = &d->idle[i];
		dmn__rpt_out_puts(o, i ? ",\n        {\"name\": "
				  : "\n        {\"name\": ");
		dmn__rpt_out_json_str(o, s->name);
		u64_member(o, "time_ns", s->time_ns);
		u64_member(o, "usage", s->usage);
		u64_member(o, "rejected", s->rejected);
		u64_member(o, "entry_latency_us", s->entry_latency_us);
		u64_member(o, "exit_latency_us", s->exit_latency_us);
		u64_member(o, "min_residency_us", s->min_residency_us);
		dmn__rpt_out_putc(o, '}');
	}
	dmn__rpt_out_puts(o, d->idle && d->n_idle ? "\n      ],\n" : "],\n");
	dmn__rpt_out_puts(o, "      \"pstates\": [");
	for (unsigned i = 0; d->pstates && i < d->n_pstates; i++) {
		const struct dmn_report_pstate_time *p = &d->pstates[i];
		const char *name = p->level_name
					   ? p->level_name
					   : dmn__rpt_level_name(lv, d, p->level);
		dmn__rpt_out_printf(o, "%s{\"level\": %" PRIu32,
			       i ? ",\n        " : "\n        ", p->level);
		str_member(o, "name", name);
		u64_member(o, "time_ns", p->time_ns);
		dmn__rpt_out_putc(o, '}');
	}
	dmn__rpt_out_puts(o, d->pstates && d->n_pstates ? "\n      ],\n" : "],\n");
	if (life) {
		dmn__rpt_out_printf(o, "      \"sleep_on_ns\": %" PRIu64 ",\n",
			       d->sleep_on_ns);
		dmn__rpt_out_puts(o, "      \"sleep_idle_ns\": {");
		unsigned n = 0;
		for (unsigned i = 0; d->sleep_idle_ns && i < d->n_idle; i++) {
			dmn__rpt_out_puts(o, n++ ? ", " : "");
			dmn__rpt_out_json_str(o, d->idle[i].name);
			dmn__rpt_out_printf(o, ": %" PRIu64, d->sleep_idle_ns[i]);
		}
		if (d->sleep_idle_ns && !d->n_idle)
			dmn__rpt_out_printf(o, "\"off\": %" PRIu64,
				       d->sleep_idle_ns[0]);
		dmn__rpt_out_puts(o, "},\n");
	}
	dmn__rpt_out_printf(o,
		       "      \"on_count\": %" PRIu64
		       ",\n      \"off_count\": %" PRIu64
		       ",\n      \"pstate_transitions\": %" PRIu64 "\n    }",
		       d->on_count, d->off_count, d->pstate_transitions);
}

static const char *const power_kind_names[] = {
    [DMN_REPORT_POWER_ON] = "on",		  [DMN_REPORT_POWER_IDLE] = "idle",
    [DMN_REPORT_POWER_OFF] = "off",		  [DMN_REPORT_POWER_SUSPENDED] = "suspended",
    [DMN_REPORT_POWER_ACTIVE] = "active", [DMN_REPORT_POWER_OPP] = "opp",
};
static const char *const power_source_names[] = {
    [DMN_REPORT_SOURCE_NONE] = "none", [DMN_REPORT_SOURCE_DT] = "opp-microwatt",
    [DMN_REPORT_SOURCE_DPC] = "dynamic-power-coefficient",
    [DMN_REPORT_SOURCE_FILE] = "file", [DMN_REPORT_SOURCE_DEFAULT] = "default",
};

/* "energy_uj": exact (nine decimals), "average_uw": three, truncated */
static void energy_members(struct dmn_report_out *o, struct dmn_energy e, uint64_t span)
{
	char buf[DMN_ENERGY_TEXT_LEN];
	unsigned milli;
	uint64_t avg = dmn_energy_average_uw(e, span, &milli);
	dmn__rpt_out_printf(o, ", \"energy_uj\": %s, \"average_uw\": %" PRIu64 ".%03u",
			    dmn_energy_format_uj(e, buf), avg, milli);
}

static void write_power_state(struct dmn_report_out *o, const struct dmn_report_energy *e,
			      const struct dmn_report_power_state *s)
{
	char buf[DMN_ENERGY_TEXT_LEN];
	dmn__rpt_out_printf(o, "{\"state\": \"%s\"", power_kind_names[s->kind]);
	if (s->name)
		str_member(o, "name", s->name);
	if (s->has_level)
		u64_member(o, "level", s->level);
	if (s->kind == DMN_REPORT_POWER_OPP)
		u64_member(o, "hz", s->hz);
	if (s->known)
		u64_member(o, "power_uw", s->power_uw);
	else
		dmn__rpt_out_puts(o, ", \"power_uw\": null");
	dmn__rpt_out_printf(o, ", \"source\": \"%s\"", power_source_names[s->source]);
	if (s->source == DMN_REPORT_SOURCE_FILE)
		u64_member(o, "line", s->line);
	if (s->why)
		str_member(o, "why", s->why);
	if (s->at_domain) {
		dmn__rpt_out_puts(o, ", \"at\": {\"domain\": ");
		dmn__rpt_out_json_str(o, s->at_domain);
		dmn__rpt_out_printf(o, ", \"level\": %" PRIu32 ", \"name\": ", s->at_level);
		dmn__rpt_out_json_str(o, s->at_level_name);
		dmn__rpt_out_putc(o, '}');
	}
	if (e->has_times) {
		u64_member(o, "time_ns", s->time_ns);
		dmn__rpt_out_printf(o, ", \"energy_uj\": %s", dmn_energy_format_uj(s->energy, buf));
	}
	dmn__rpt_out_putc(o, '}');
}

static void write_energy(struct dmn_report_out *o, const struct dmn_report_model *m)
{
	const struct dmn_report_energy *e = m->energy;
	uint64_t end = m->end_ns > e->start_ns ? m->end_ns : e->start_ns;
	dmn__rpt_out_puts(o, ",\n  \"energy\": {\n    \"power_model\": ");
	dmn__rpt_out_json_str(o, e->power_model);
	if (e->has_times) {
		dmn__rpt_out_printf(o, ",\n    \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64,
				    e->start_ns, end);
		dmn__rpt_out_puts(o, ",\n    \"total\": {\"lower_bound\": ");
		bool_val(o, e->lower_bound);
		energy_members(o, e->total, end - e->start_ns);
		dmn__rpt_out_putc(o, '}');
	}
	for (int device = 0; device < 2; device++) {
		dmn__rpt_out_printf(o, ",\n    \"%s\": [", device ? "devices" : "domains");
		int first = 1;
		for (unsigned p = 0; e->parts && p < e->n_parts; p++) {
			const struct dmn_report_energy_part *part = &e->parts[p];
			if (part->device != device)
				continue;
			dmn__rpt_out_puts(o, first ? "\n      {\"name\": " : ",\n      {\"name\": ");
			first = 0;
			dmn__rpt_out_json_str(o, part->name);
			if (e->has_times) {
				energy_members(o, part->energy, end - e->start_ns);
				u64_member(o, device ? "time_active_ns" : "time_on_ns",
					   part->time_on_ns);
				u64_member(o, "unknown_ns", part->unknown_ns);
			}
			dmn__rpt_out_puts(o, ", \"states\": [");
			for (unsigned k = 0; k < part->n_states; k++) {
				dmn__rpt_out_puts(o, k ? ",\n        " : "\n        ");
				write_power_state(o, e, &part->states[k]);
			}
			dmn__rpt_out_puts(o, part->n_states ? "\n      ]}" : "]}");
		}
		dmn__rpt_out_puts(o, first ? "]" : "\n    ]");
	}
	dmn__rpt_out_puts(o, "\n  }");
}

int dmn_report_write_json(const struct dmn_report_model *m, const struct dmn_report_sink *sink)
{
	struct dmn_report_out o;
	struct dmn_report_levels lv;
	unsigned first;

	if (dmn__rpt_out_init(&o, sink))
		return o.err;
	if (!m)
		return -EINVAL;
	if (dmn__rpt_levels_build(&lv, m))
		return -ENOMEM;

	dmn__rpt_out_puts(&o, "{\n  \"board\": ");
	dmn__rpt_out_json_str(&o, m->board);
	dmn__rpt_out_puts(&o, ",\n  \"model\": ");
	dmn__rpt_out_json_str(&o, m->model);
	dmn__rpt_out_puts(&o, ",\n  \"domains\": [");
	for (unsigned i = 0; m->domains && i < m->n_domains; i++) {
		dmn__rpt_out_puts(&o, i ? ",\n" : "\n");
		write_domain(&o, &m->domains[i], m->has_life);
	}
	dmn__rpt_out_puts(&o, m->domains && m->n_domains ? "\n  ]" : "]");

	if (m->warnings && m->n_warnings) {
		dmn__rpt_out_puts(&o, ",\n  \"warnings\": [");
		for (unsigned i = 0; i < m->n_warnings; i++) {
			dmn__rpt_out_puts(&o, i ? ",\n    " : "\n    ");
			dmn__rpt_out_json_str(&o, m->warnings[i]);
		}
		dmn__rpt_out_puts(&o, "\n  ]");
	}

	if (m->has_life) {
		dmn__rpt_out_puts(&o, ",\n  \"awaiting\": ");
		name_array(&o, m->awaiting, m->n_awaiting);
		dmn__rpt_out_printf(&o, ",\n  \"system\": \"%s\"",
			       m->asleep ? "asleep" : "awake");
		if (m->has_system_qos)
			dmn__rpt_out_printf(&o, ",\n  \"system_qos_us\": %" PRIu32,
				       m->system_qos_us);
	}

	if (m->requirements && m->n_requirements) {
		dmn__rpt_out_puts(&o, ",\n  \"requirements\": [");
		for (unsigned i = 0; i < m->n_requirements; i++) {
			const struct dmn_report_requirement *q = &m->requirements[i];
			dmn__rpt_out_puts(&o, i ? ",\n    {\"device\": "
					   : "\n    {\"device\": ");
			dmn__rpt_out_json_str(&o, q->device);
			dmn__rpt_out_puts(&o, ", \"table\": ");
			dmn__rpt_out_json_str(&o, q->table);
			dmn__rpt_out_puts(&o, ", \"owners\": [");
			for (unsigned k = 0; k < q->n_owners; k++) {
				if (k)
					dmn__rpt_out_puts(&o, ", ");
				dmn__rpt_out_json_str(&o, q->owners[k]);
			}
			dmn__rpt_out_puts(&o, "]}");
		}
		dmn__rpt_out_puts(&o, "\n  ]");
	}

	if (m->device_rates && m->n_device_rates) {
		dmn__rpt_out_puts(&o, ",\n  \"opp_rates\": [");
		for (unsigned i = 0; i < m->n_device_rates; i++) {
			const struct dmn_report_device_rates *r = &m->device_rates[i];
			dmn__rpt_out_puts(&o, i ? ",\n    {\"device\": "
					   : "\n    {\"device\": ");
			dmn__rpt_out_json_str(&o, r->device);
			dmn__rpt_out_puts(&o, ", \"hz\": [");
			for (unsigned k = 0; k < r->n_hz; k++)
				dmn__rpt_out_printf(&o, "%s%" PRIu64, k ? ", " : "",
					       r->hz[k]);
			dmn__rpt_out_puts(&o, "]}");
		}
		dmn__rpt_out_puts(&o, "\n  ]");
	}

	if (dmn__rpt_is_simulation(m)) {
		dmn__rpt_out_printf(&o, ",\n  \"end_ns\": %" PRIu64, m->end_ns);
		dmn__rpt_out_puts(&o, ",\n  \"events\": [");
		for (unsigned i = 0; m->events && i < m->n_events; i++) {
			dmn__rpt_out_puts(&o, i ? ",\n    " : "\n    ");
			write_event(&o, &m->events[i]);
		}
		dmn__rpt_out_puts(&o, m->events && m->n_events ? "\n  ]" : "]");
		dmn__rpt_out_puts(&o, ",\n  \"stats\": {");
		first = 1;
		for (unsigned i = 0; m->domains && i < m->n_domains; i++) {
			if (!m->domains[i].has_stats)
				continue;
			dmn__rpt_out_puts(&o, first ? "\n" : ",\n");
			write_stats(&o, &lv, &m->domains[i], m->has_life);
			first = 0;
		}
		if (m->has_life)
			dmn__rpt_out_printf(&o,
				       "%s    \"system_sleep\": {\"count\": %" PRIu64
				       ", \"time_ns\": %" PRIu64 "}",
				       first ? "\n" : ",\n", m->sleep_count,
				       m->sleep_ns);
		first = first && !m->has_life;
		dmn__rpt_out_puts(&o, first ? "}" : "\n  }");
	}
	if (m->energy)
		write_energy(&o, m);
	dmn__rpt_out_puts(&o, "\n}\n");
	dmn__rpt_levels_free(&lv);
	return dmn__rpt_out_finish(&o);
}
