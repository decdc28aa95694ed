/* SPDX-License-Identifier: MIT */
/*
 * The --json writer (DESIGN §3; every key is listed in docs/json.md).
 * Output is indented for people reading it in a terminal, with one line
 * per device, event, level or idle state so that grep and diff work too.
 */
#include "report_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static void key(struct rpt_out *o, const char *indent, const char *name)
{
	rpt_out_puts(o, indent);
	rpt_out_json_str(o, name);
	rpt_out_puts(o, ": ");
}

static void bool_val(struct rpt_out *o, int v)
{
	rpt_out_puts(o, v ? "true" : "false");
}

static void name_array(struct rpt_out *o, const char *const *names, unsigned n)
{
	rpt_out_putc(o, '[');
	for (unsigned i = 0; names && i < n; i++) {
		if (i)
			rpt_out_puts(o, ", ");
		rpt_out_json_str(o, names[i]);
	}
	rpt_out_putc(o, ']');
}

static void write_device(struct rpt_out *o, const struct rpt_device *dev,
			 int life)
{
	rpt_out_puts(o, "{\"name\": ");
	rpt_out_json_str(o, dev->name);
	rpt_out_puts(o, ", \"path\": ");
	rpt_out_json_str(o, dev->path);
	rpt_out_puts(o, ", \"via\": ");
	rpt_out_json_str(o, dev->via);
	rpt_out_puts(o, ", \"args\": [");
	for (unsigned i = 0; i < dev->n_args; i++)
		rpt_out_printf(o, "%s%" PRIu32, i ? ", " : "", dev->args[i]);
	rpt_out_putc(o, ']');
	rpt_out_puts(o, ", \"active\": ");
	bool_val(o, dev->active);
	rpt_out_printf(o, ", \"vote\": %" PRIu32 ", \"counts\": ", dev->vote);
	bool_val(o, dev->counts);
	if (life) {
		rpt_out_puts(o, ", \"probed\": ");
		bool_val(o, dev->probed);
		rpt_out_puts(o, ", \"wakeup\": ");
		bool_val(o, dev->wakeup);
	}
	rpt_out_putc(o, '}');
}

static void write_domain(struct rpt_out *o, const struct rpt_domain *d,
			 int life)
{
	const char *in = "      ";

	rpt_out_puts(o, "    {\n");
	key(o, in, "name");
	rpt_out_json_str(o, d->name);
	rpt_out_puts(o, ",\n");
	key(o, in, "provider");
	rpt_out_json_str(o, d->provider);
	rpt_out_puts(o, ",\n");
	key(o, in, "index");
	if (d->index < 0)
		rpt_out_puts(o, "null");
	else
		rpt_out_printf(o, "%d", d->index);
	rpt_out_puts(o, ",\n");
	key(o, in, "status");
	rpt_out_puts(o, d->on ? "\"on\"" : "\"off\"");
	rpt_out_puts(o, ",\n");
	key(o, in, "pstate");
	rpt_out_printf(o, "%" PRIu32 ",\n", d->pstate);
	key(o, in, "pstate_name");
	rpt_out_json_str(o, rpt_pstate_name(d));
	rpt_out_puts(o, ",\n");
	key(o, in, "idle_state");
	rpt_out_json_str(o, d->on ? NULL : d->idle_state);
	rpt_out_puts(o, ",\n");
	key(o, in, "parents");
	name_array(o, d->parents, d->n_parents);
	rpt_out_puts(o, ",\n");
	key(o, in, "children");
	name_array(o, d->children, d->n_children);
	rpt_out_puts(o, ",\n");
	key(o, in, "levels");
	rpt_out_putc(o, '[');
	for (unsigned i = 0; d->level_values && i < d->n_levels; i++) {
		rpt_out_printf(o, "%s{\"level\": %" PRIu32 ", \"name\": ",
			       i ? ", " : "", d->level_values[i]);
		rpt_out_json_str(o, d->levels ? d->levels[i] : NULL);
		rpt_out_putc(o, '}');
	}
	rpt_out_puts(o, "],\n");
	/* The governor's menu, shallowest first: what the board declares. */
	key(o, in, "idle_states");
	rpt_out_putc(o, '[');
	for (unsigned i = 0; d->idle && i < d->n_idle; i++) {
		const struct rpt_idle_stats *st = &d->idle[i];
		rpt_out_puts(o, i ? ", {\"name\": " : "{\"name\": ");
		rpt_out_json_str(o, st->name);
		rpt_out_printf(o,
			       ", \"entry_latency_us\": %" PRIu32
			       ", \"exit_latency_us\": %" PRIu32
			       ", \"min_residency_us\": %" PRIu32 "}",
			       st->entry_latency_us, st->exit_latency_us,
			       st->min_residency_us);
	}
	rpt_out_puts(o, "],\n");
	if (life) {
		key(o, in, "held");
		bool_val(o, d->held);
		rpt_out_printf(o, ",\n%s\"boot_level\": %" PRIu32 ",\n", in,
			       d->boot_level);
		key(o, in, "awaiting");
		name_array(o, d->awaiting, d->n_awaiting);
		rpt_out_puts(o, ",\n");
		key(o, in, "active_wakeup");
		bool_val(o, d->active_wakeup);
		rpt_out_puts(o, ",\n");
	}
	key(o, in, "devices");
	if (!d->devices || !d->n_devices) {
		rpt_out_puts(o, "[]\n");
	} else {
		rpt_out_puts(o, "[\n");
		for (unsigned i = 0; i < d->n_devices; i++) {
			rpt_out_puts(o, "        ");
			write_device(o, &d->devices[i], life);
			rpt_out_puts(o, i + 1 < d->n_devices ? ",\n" : "\n");
		}
		rpt_out_puts(o, "      ]\n");
	}
	rpt_out_puts(o, "    }");
}

static void str_member(struct rpt_out *o, const char *name, const char *v)
{
	rpt_out_puts(o, ", ");
	rpt_out_json_str(o, name);
	rpt_out_puts(o, ": ");
	rpt_out_json_str(o, v);
}

static void u64_member(struct rpt_out *o, const char *name, uint64_t v)
{
	rpt_out_puts(o, ", ");
	rpt_out_json_str(o, name);
	rpt_out_printf(o, ": %" PRIu64, v);
}

static void write_event(struct rpt_out *o, const struct rpt_event *e)
{
	rpt_out_printf(o, "{\"time_ns\": %" PRIu64, e->time_ns);
	str_member(o, "kind", rpt_event_kind_name(e->kind));
	str_member(o, "domain", e->domain);
	str_member(o, "device", e->device);
	str_member(o, "cause", e->cause);
	if (e->line)
		rpt_out_printf(o, ", \"line\": %u", e->line);
	else
		rpt_out_puts(o, ", \"line\": null");

	switch (e->kind) {
	case RPT_EV_POWER_ON:
	case RPT_EV_STAY_ON:
		break;
	case RPT_EV_POWER_OFF:
		str_member(o, "idle_state", e->idle_state);
		break;
	case RPT_EV_PSTATE:
		u64_member(o, "old", e->old_level);
		u64_member(o, "new", e->new_level);
		break;
	case RPT_EV_RATE:
		u64_member(o, "old_hz", e->old_hz);
		u64_member(o, "new_hz", e->new_hz);
		break;
	case RPT_EV_FAILURE:
		str_member(o, "op", e->op);
		if (e->op && !strcmp(e->op, "pstate")) {
			u64_member(o, "old", e->old_level);
			u64_member(o, "new", e->new_level);
		} else if (e->op && !strcmp(e->op, "clock")) {
			u64_member(o, "old_hz", e->old_hz);
			u64_member(o, "new_hz", e->new_hz);
		}
		str_member(o, "error", rpt_error_name(e->error));
		rpt_out_puts(o, ", \"safe\": ");
		bool_val(o, e->safe);
		rpt_out_puts(o, ", \"undo\": ");
		bool_val(o, e->undo);
		break;
	case RPT_EV_COMMAND_ERROR:
		str_member(o, "error", rpt_error_name(e->error));
		if (e->message)
			str_member(o, "message", e->message);
		break;
	case RPT_EV_EXPECT_FAILED:
	case RPT_EV_EXPLAIN:
		str_member(o, "message", e->message);
		break;
	}
	rpt_out_putc(o, '}');
}

static void write_stats(struct rpt_out *o, const struct rpt_domain *d,
			int life)
{
	rpt_out_puts(o, "    ");
	rpt_out_json_str(o, d->name ? d->name : "");
	rpt_out_printf(o,
		       ": {\n      \"time_on_ns\": %" PRIu64
		       ",\n      \"time_off_ns\": %" PRIu64 ",\n",
		       d->time_on_ns, d->time_off_ns);
	rpt_out_puts(o, "      \"idle_states\": [");
	for (unsigned i = 0; d->idle && i < d->n_idle; i++) {
		const struct rpt_idle_stats *s = &d->idle[i];
		rpt_out_puts(o, i ? ",\n        {\"name\": "
				  : "\n        {\"name\": ");
		rpt_out_json_str(o, s->name);
		u64_member(o, "time_ns", s->time_ns);
		u64_member(o, "usage", s->usage);
		u64_member(o, "rejected", s->rejected);
		u64_member(o, "entry_latency_us", s->entry_latency_us);
		u64_member(o, "exit_latency_us", s->exit_latency_us);
		u64_member(o, "min_residency_us", s->min_residency_us);
		rpt_out_putc(o, '}');
	}
	rpt_out_puts(o, d->idle && d->n_idle ? "\n      ],\n" : "],\n");
	rpt_out_puts(o, "      \"pstates\": [");
	for (unsigned i = 0; d->pstates && i < d->n_pstates; i++) {
		const struct rpt_pstate_time *p = &d->pstates[i];
		const char *name =
		    p->level_name ? p->level_name : rpt_level_name(d, p->level);
		rpt_out_printf(o, "%s{\"level\": %" PRIu32,
			       i ? ",\n        " : "\n        ", p->level);
		str_member(o, "name", name);
		u64_member(o, "time_ns", p->time_ns);
		rpt_out_putc(o, '}');
	}
	rpt_out_puts(o, d->pstates && d->n_pstates ? "\n      ],\n" : "],\n");
	if (life) {
		rpt_out_printf(o, "      \"sleep_on_ns\": %" PRIu64 ",\n",
			       d->sleep_on_ns);
		rpt_out_puts(o, "      \"sleep_idle_ns\": {");
		unsigned n = 0;
		for (unsigned i = 0; d->sleep_idle_ns && i < d->n_idle; i++) {
			rpt_out_puts(o, n++ ? ", " : "");
			rpt_out_json_str(o, d->idle[i].name);
			rpt_out_printf(o, ": %" PRIu64, d->sleep_idle_ns[i]);
		}
		if (d->sleep_idle_ns && !d->n_idle)
			rpt_out_printf(o, "\"off\": %" PRIu64,
				       d->sleep_idle_ns[0]);
		rpt_out_puts(o, "},\n");
	}
	rpt_out_printf(o,
		       "      \"on_count\": %" PRIu64
		       ",\n      \"off_count\": %" PRIu64
		       ",\n      \"pstate_transitions\": %" PRIu64 "\n    }",
		       d->on_count, d->off_count, d->pstate_transitions);
}

int rpt_write_json(const struct rpt_model *m, const struct rpt_sink *sink)
{
	struct rpt_out o;
	unsigned first;

	if (rpt_out_init(&o, sink))
		return o.err;
	if (!m)
		return -EINVAL;

	rpt_out_puts(&o, "{\n  \"board\": ");
	rpt_out_json_str(&o, m->board);
	rpt_out_puts(&o, ",\n  \"model\": ");
	rpt_out_json_str(&o, m->model);
	rpt_out_puts(&o, ",\n  \"domains\": [");
	for (unsigned i = 0; m->domains && i < m->n_domains; i++) {
		rpt_out_puts(&o, i ? ",\n" : "\n");
		write_domain(&o, &m->domains[i], m->has_life);
	}
	rpt_out_puts(&o, m->domains && m->n_domains ? "\n  ]" : "]");

	if (m->warnings && m->n_warnings) {
		rpt_out_puts(&o, ",\n  \"warnings\": [");
		for (unsigned i = 0; i < m->n_warnings; i++) {
			rpt_out_puts(&o, i ? ",\n    " : "\n    ");
			rpt_out_json_str(&o, m->warnings[i]);
		}
		rpt_out_puts(&o, "\n  ]");
	}

	if (m->has_life) {
		rpt_out_puts(&o, ",\n  \"awaiting\": ");
		name_array(&o, m->awaiting, m->n_awaiting);
		rpt_out_printf(&o, ",\n  \"system\": \"%s\"",
			       m->asleep ? "asleep" : "awake");
	}

	if (m->requirements && m->n_requirements) {
		rpt_out_puts(&o, ",\n  \"requirements\": [");
		for (unsigned i = 0; i < m->n_requirements; i++) {
			const struct rpt_requirement *q = &m->requirements[i];
			rpt_out_puts(&o, i ? ",\n    {\"device\": "
					   : "\n    {\"device\": ");
			rpt_out_json_str(&o, q->device);
			rpt_out_puts(&o, ", \"table\": ");
			rpt_out_json_str(&o, q->table);
			rpt_out_puts(&o, ", \"owners\": [");
			for (unsigned k = 0; k < q->n_owners; k++) {
				if (k)
					rpt_out_puts(&o, ", ");
				rpt_out_json_str(&o, q->owners[k]);
			}
			rpt_out_puts(&o, "]}");
		}
		rpt_out_puts(&o, "\n  ]");
	}

	if (m->device_rates && m->n_device_rates) {
		rpt_out_puts(&o, ",\n  \"opp_rates\": [");
		for (unsigned i = 0; i < m->n_device_rates; i++) {
			const struct rpt_device_rates *r = &m->device_rates[i];
			rpt_out_puts(&o, i ? ",\n    {\"device\": "
					   : "\n    {\"device\": ");
			rpt_out_json_str(&o, r->device);
			rpt_out_puts(&o, ", \"hz\": [");
			for (unsigned k = 0; k < r->n_hz; k++)
				rpt_out_printf(&o, "%s%" PRIu64, k ? ", " : "",
					       r->hz[k]);
			rpt_out_puts(&o, "]}");
		}
		rpt_out_puts(&o, "\n  ]");
	}

	if (rpt_is_simulation(m)) {
		rpt_out_printf(&o, ",\n  \"end_ns\": %" PRIu64, m->end_ns);
		rpt_out_puts(&o, ",\n  \"events\": [");
		for (unsigned i = 0; m->events && i < m->n_events; i++) {
			rpt_out_puts(&o, i ? ",\n    " : "\n    ");
			write_event(&o, &m->events[i]);
		}
		rpt_out_puts(&o, m->events && m->n_events ? "\n  ]" : "]");
		rpt_out_puts(&o, ",\n  \"stats\": {");
		first = 1;
		for (unsigned i = 0; m->domains && i < m->n_domains; i++) {
			if (!m->domains[i].has_stats)
				continue;
			rpt_out_puts(&o, first ? "\n" : ",\n");
			write_stats(&o, &m->domains[i], m->has_life);
			first = 0;
		}
		if (m->has_life)
			rpt_out_printf(&o,
				       "%s    \"system_sleep\": {\"count\": %" PRIu64
				       ", \"time_ns\": %" PRIu64 "}",
				       first ? "\n" : ",\n", m->sleep_count,
				       m->sleep_ns);
		first = first && !m->has_life;
		rpt_out_puts(&o, first ? "}" : "\n  }");
	}
	rpt_out_puts(&o, "\n}\n");
	return rpt_out_finish(&o);
}
