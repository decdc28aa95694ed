/* SPDX-License-Identifier: MIT */
/*
 * The simulation engine: builds a board into a context on simulated time,
 * with simulated backends, and runs scenarios on it (docs/scenario.md).
 */
#include "engine_internal.h"

#include <domino/lifecycle.h>

#include <domino/idle.h>
#include <domino/opp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- simulated backends ---------------------------------------------------- */

static uint64_t sim_now(void *user)
{
	return ((struct dmn_sim *)user)->now;
}

static int take_failure(struct dmn_sim_domain *d, enum dmn_scn_fail_op op)
{
	DMN_ASSERT((unsigned)op < sizeof(d->fail_count) / sizeof(d->fail_count[0]));
	if (!d->fail_count[op])
		return 0;
	d->fail_count[op]--;
	return -EIO;
}

/* dmn_sim_call's op for each of the simulated hardware's. */
static const enum dmn_sim_call_op call_op[] = {
	[DMN_SIM_PROVIDERS_CLOCK] = DMN_SIM_CALL_CLOCK,
	[DMN_SIM_PROVIDERS_REGULATOR] = DMN_SIM_CALL_REGULATOR,
	[DMN_SIM_PROVIDERS_POWER_ON] = DMN_SIM_CALL_POWER_ON,
	[DMN_SIM_PROVIDERS_POWER_OFF] = DMN_SIM_CALL_POWER_OFF,
	[DMN_SIM_PROVIDERS_PSTATE] = DMN_SIM_CALL_PSTATE,
	[DMN_SIM_PROVIDERS_HWMODE] = DMN_SIM_CALL_HWMODE,
};

/*
 * One call through the simulated hardware (dmn_sim_providers: numbering,
 * dmn_sim_options.fail_call, the state). The ops' @user is the board's domain
 * or device, so the engine adds what needs it: @err, what a scenario's
 * `fail` command made of the call, and dmn_sim_options.on_call by board index.
 */
static int backend_call(struct dmn_sim *sim, struct dmn_sim_providers_call *pc,
			int domain, int device, int err)
{
	DMN_ASSERT((unsigned)pc->op < sizeof(call_op) / sizeof(call_op[0]));
	pc->result = err;
	err = dmn_sim_providers_call(&sim->hw, pc);
	if (sim->on_call) {
		struct dmn_sim_call call;
		memset(&call, 0, sizeof(call));
		call.index = pc->index;
		call.op = call_op[pc->op];
		call.domain = domain;
		call.device = device;
		call.supply = pc->supply;
		call.value = pc->value;
		call.min = pc->min;
		call.max = pc->max;
		call.result = err;
		sim->on_call(sim->call_user, &call);
	}
	return err;
}

static int domain_call(struct dmn_sim_domain *d, dmn_domain_t dom,
		       enum dmn_sim_providers_op op, enum dmn_scn_fail_op fail_op,
		       uint64_t value)
{
	struct dmn_sim_providers_call call = {
	    .op = op, .object = dom, .value = value};
	return backend_call(d->sim, &call, (int)d->index, -1,
			    take_failure(d, fail_op));
}

static int sim_power_on(void *user, dmn_domain_t dom)
{
	return domain_call(user, dom, DMN_SIM_PROVIDERS_POWER_ON, DMN_SCN_FAIL_ON, 0);
}

static int sim_power_off(void *user, dmn_domain_t dom, int idle_state)
{
	return domain_call(user, dom, DMN_SIM_PROVIDERS_POWER_OFF, DMN_SCN_FAIL_OFF,
			   idle_state < 0 ? UINT64_MAX : (uint64_t)idle_state);
}

static int sim_set_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	return domain_call(user, dom, DMN_SIM_PROVIDERS_PSTATE, DMN_SCN_FAIL_PSTATE,
			   level);
}

static int sim_set_hwmode(void *user, dmn_domain_t dom, dmn_device_t dev,
			  int hw)
{
	(void)dev;
	return domain_call(user, dom, DMN_SIM_PROVIDERS_HWMODE, DMN_SCN_FAIL_HWMODE,
			   (uint64_t)hw);
}

/* A simulated domain has set_hwmode exactly when it has no
 * set_performance_state (a GDSC-like gate, not a rail; docs/lifecycle.md,
 * Hardware mode). */
static const struct dmn_domain_ops ops_gate = {sim_power_on, sim_power_off, 0,
					      sim_set_hwmode};
static const struct dmn_domain_ops ops_rail = {sim_power_on, sim_power_off,
					      sim_set_pstate, 0};

/* The simulator's rule (docs/semantics.md, Votes and pstates): a domain
 * has set_performance_state
 * exactly when its provider has an OPP table. */
static int has_pstate_callback(const struct dmn_dt_board *board, unsigned domain)
{
	return board->domains[domain].opp_table >= 0;
}

/*
 * Sets doms[i].reaches_pstate for every domain: whether it or one of its
 * ancestors, through every link, has the callback. An explicit stack and
 * one visit per domain: chains are as deep as the board is large, and a
 * DAG walked without memory is exponential. A link back to a domain still
 * open (impossible: the loader drops cycles) adds nothing.
 * returns: 0 or -ENOMEM.
 */
static int mark_reaches_pstate(const struct dmn_dt_board *board,
			       struct dmn_sim_domain *doms)
{
	unsigned n = board->n_domains;
	struct frame {
		unsigned dom, next;
	} *stack = malloc((n ? n : 1) * sizeof(*stack));
	unsigned char *state = calloc(n ? n : 1, 1); /* 0 new, 1 open, 2 done */
	if (!stack || !state) {
		free(stack);
		free(state);
		return -ENOMEM;
	}
	for (unsigned root = 0; root < n; root++) {
		if (state[root])
			continue;
		unsigned sp = 0;
		stack[sp++] = (struct frame){root, 0};
		state[root] = 1;
		doms[root].reaches_pstate = has_pstate_callback(board, root);
		while (sp) {
			struct frame *top = &stack[sp - 1];
			const struct dmn_dt_domain *d = &board->domains[top->dom];
			if (doms[top->dom].reaches_pstate ||
			    top->next == d->n_parents) {
				state[top->dom] = 2;
				if (--sp && doms[top->dom].reaches_pstate)
					doms[stack[sp - 1].dom].reaches_pstate = 1;
				continue;
			}
			unsigned p = (unsigned)d->parents[top->next++];
			if (state[p] == 2) {
				doms[top->dom].reaches_pstate |=
					doms[p].reaches_pstate;
			} else if (!state[p]) {
				state[p] = 1;
				doms[p].reaches_pstate =
					has_pstate_callback(board, p);
				stack[sp++] = (struct frame){p, 0};
			}
		}
	}
	free(stack);
	free(state);
	return 0;
}

static int factory(void *user, const struct dmn_dt_board *board, unsigned domain,
		   struct dmn_domain_desc *desc)
{
	struct dmn_sim *sim = user;
	desc->ops = has_pstate_callback(board, domain) ? &ops_rail : &ops_gate;
	desc->user = &sim->doms[domain];
	desc->flags = 0;
	return 0;
}

static int sim_clock_set_rate(void *user, dmn_device_t dev, uint64_t hz)
{
	struct dmn_sim_device *d = user;
	struct dmn_sim_providers_call call = {
	    .op = DMN_SIM_PROVIDERS_CLOCK, .object = dev, .value = hz};
	int err = backend_call(d->sim, &call, -1, (int)d->index, 0);
	if (err)
		return err;
	struct dmn_report_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.kind = DMN_REPORT_EV_RATE;
	ev.device = d->sim->board->devices[d->index].name;
	ev.old_hz = d->rate;
	ev.new_hz = hz;
	dmn__sim_record(d->sim, &ev);
	d->rate = hz;
	if (d->sim->energy)
		dmn__sim_energy_device_changed(d->sim, d->index);
	return 0;
}

static uint64_t sim_clock_get_rate(void *user, dmn_device_t dev)
{
	(void)dev;
	return ((struct dmn_sim_device *)user)->rate;
}

static const struct dmn_opp_clock_ops sim_clock = {sim_clock_set_rate,
					       sim_clock_get_rate};

/* Supplies accept any window; only the call and its failure matter. */
static int sim_set_voltage(void *user, dmn_device_t dev, unsigned supply,
			   uint32_t min, uint32_t target, uint32_t max)
{
	struct dmn_sim_device *d = user;
	struct dmn_sim_providers_call call = {
	    .op = DMN_SIM_PROVIDERS_REGULATOR, .object = dev, .supply = supply,
	    .value = target, .min = min, .max = max};
	return backend_call(d->sim, &call, -1, (int)d->index, 0);
}

static const struct dmn_opp_regulator_ops sim_regulators = {sim_set_voltage};

/* Whether any entry of the device's table names a supply voltage. */
static int has_supplies(const struct dmn_dt_board *b, const struct dmn_dt_device *dev)
{
	const struct dmn_dt_opp_table *t = &b->opp_tables[dev->opp_table];
	for (unsigned i = 0; i < t->n_entries; i++)
		if (t->entries[i].n_supplies)
			return 1;
	return 0;
}

/* ---- events ---------------------------------------------------------------- */

static int cmp_handle_ix(const void *a, const void *b)
{
	uint32_t x = ((const struct dmn_sim_handle_ix *)a)->handle;
	uint32_t y = ((const struct dmn_sim_handle_ix *)b)->handle;
	return x < y ? -1 : x > y;
}

/* The sorted handle -> index table of @handles[n]; NULL on -ENOMEM. */
static struct dmn_sim_handle_ix *build_ix(const uint32_t *handles, unsigned n)
{
	struct dmn_sim_handle_ix *ix = malloc((n ? n : 1) * sizeof(*ix));
	if (!ix)
		return NULL;
	for (unsigned i = 0; i < n; i++) {
		ix[i].handle = handles[i];
		ix[i].index = (int32_t)i;
	}
	qsort(ix, n, sizeof(*ix), cmp_handle_ix);
	/* index_of's bsearch needs one entry per handle */
	for (unsigned i = 1; DMN_CHECKS && i < n; i++)
		DMN_ASSERT(ix[i - 1].handle < ix[i].handle && "handles are unique");
	return ix;
}

/* Model index of @handle, or -1: O(log n). */
static int index_of(const struct dmn_sim_handle_ix *ix, unsigned n, uint32_t handle)
{
	struct dmn_sim_handle_ix key = {handle, 0};
	const struct dmn_sim_handle_ix *hit =
		n ? bsearch(&key, ix, n, sizeof(*ix), cmp_handle_ix) : NULL;
	DMN_ASSERT(!hit || (hit->index >= 0 && (unsigned)hit->index < n));
	return hit ? hit->index : -1;
}

int dmn__sim_domain_index(const struct dmn_sim *sim, uint32_t handle)
{
	return index_of(sim->dom_ix, sim->board->n_domains, handle);
}

int dmn__sim_device_index(const struct dmn_sim *sim, uint32_t handle)
{
	return index_of(sim->dev_ix, sim->board->n_devices, handle);
}

void dmn__sim_record(struct dmn_sim *sim, struct dmn_report_event *ev)
{
	ev->time_ns = sim->now;
	ev->cause = sim->cur_cause;
	ev->line = sim->cur_line;
	if (sim->no_events) {
		if (sim->live)
			sim->live(sim->live_user, ev);
		return;
	}
	if (sim->n_events == sim->cap_events) {
		unsigned cap = sim->cap_events ? sim->cap_events * 2 : 256;
		struct dmn_report_event *bigger =
			realloc(sim->events, cap * sizeof(*bigger));
		if (!bigger) {
			sim->oom = 1;
			return;
		}
		sim->events = bigger;
		sim->cap_events = cap;
	}
	DMN_ASSERT(sim->n_events < sim->cap_events);
	sim->events[sim->n_events++] = *ev;
	if (sim->live)
		sim->live(sim->live_user, ev);
}

static const char *op_name(enum dmn_op op)
{
	switch (op) {
	case DMN_OP_POWER_ON:
		return "on";
	case DMN_OP_POWER_OFF:
		return "off";
	case DMN_OP_SET_PSTATE:
		return "pstate";
	case DMN_OP_CLOCK:
		return "clock";
	case DMN_OP_REGULATOR:
		return "regulator";
	case DMN_OP_SET_HWMODE:
		return "hwmode";
	default:
		return "?";
	}
}

const char *dmn__sim_idle_name(const struct dmn_sim *sim, unsigned domain, int idle)
{
	DMN_ASSERT(domain < sim->board->n_domains);
	const struct dmn_dt_domain *d = &sim->board->domains[domain];
	if (idle < 0 || (unsigned)idle >= d->n_idle_states)
		return NULL;
	DMN_ASSERT((unsigned)d->idle_states[idle] < sim->board->n_idle_states);
	return sim->board->idle_states[d->idle_states[idle]].name;
}

/* Runs under the context lock: record only, never call back in. */
static void listener(void *user, struct dmn_ctx *ctx, const struct dmn_event *e)
{
	(void)ctx;
	struct dmn_sim *sim = user;
	int dom = e->domain ? dmn__sim_domain_index(sim, e->domain) : -1;
	int dev = e->device ? dmn__sim_device_index(sim, e->device) : -1;
	struct dmn_report_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.domain = dom >= 0 ? sim->board->domains[dom].name : NULL;
	ev.device = dev >= 0 ? sim->board->devices[dev].name : NULL;
	/* What an undo can take back: changes before the rollback began.
	 * A failure after it is an undo only for such a change not yet
	 * undone (system-resume's second transaction, the wakeup path
	 * letting go, runs after a rolled-back restoration: not an undo). */
	struct dmn_sim_domain *sd = dom >= 0 ? &sim->doms[dom] : NULL;
	unsigned *undo_of = !sd ? NULL
			    : e->kind == DMN_EV_POWER_ON || e->kind == DMN_EV_POWER_OFF ||
				      (e->kind == DMN_EV_FAILURE && e->op == DMN_OP_POWER_OFF)
				  ? &sd->undo_on
			    : e->kind == DMN_EV_PSTATE ||
				      (e->kind == DMN_EV_FAILURE && e->op == DMN_OP_SET_PSTATE)
				  ? &sd->undo_pstate
				  : NULL;
	int undo = sim->undoing && (!undo_of || *undo_of == sim->command);
	if (sim->energy && dom >= 0 &&
	    (e->kind == DMN_EV_POWER_ON || e->kind == DMN_EV_POWER_OFF ||
	     e->kind == DMN_EV_IDLE || e->kind == DMN_EV_PSTATE))
		dmn__sim_energy_domain_changed(sim, (unsigned)dom);
	if (undo_of && !sim->undoing &&
	    (e->kind == DMN_EV_POWER_ON || e->kind == DMN_EV_PSTATE))
		*undo_of = sim->command;
	else if (undo_of && undo)
		*undo_of = 0;
	switch (e->kind) {
	case DMN_EV_POWER_ON:
		ev.kind = DMN_REPORT_EV_POWER_ON;
		break;
	case DMN_EV_POWER_OFF:
		ev.kind = DMN_REPORT_EV_POWER_OFF;
		break;
	case DMN_EV_IDLE:
		/* The power-off just recorded: name the state it went into. */
		for (unsigned i = sim->n_events; i > 0; i--) {
			struct dmn_report_event *off = &sim->events[i - 1];
			if (off->kind == DMN_REPORT_EV_POWER_OFF && off->domain == ev.domain) {
				off->idle_state =
					dmn__sim_idle_name(sim, (unsigned)dom, (int)e->new_value);
				break;
			}
		}
		return;
	case DMN_EV_PSTATE:
		ev.kind = DMN_REPORT_EV_PSTATE;
		ev.old_level = (uint32_t)e->old_value;
		ev.new_level = (uint32_t)e->new_value;
		break;
	case DMN_EV_STAY_ON:
		ev.kind = DMN_REPORT_EV_STAY_ON;
		break;
	case DMN_EV_HWMODE:
		ev.kind = DMN_REPORT_EV_HWMODE;
		ev.old_level = (uint32_t)e->old_value;
		ev.new_level = (uint32_t)e->new_value;
		break;
	case DMN_EV_FAILURE:
		ev.kind = DMN_REPORT_EV_FAILURE;
		ev.op = op_name(e->op);
		ev.error = e->error;
		ev.safe = e->safe;
		ev.old_level = (uint32_t)e->old_value;
		ev.new_level = (uint32_t)e->new_value;
		ev.old_hz = e->old_value;
		ev.new_hz = e->new_value;
		ev.undo = undo;
		break;
	case DMN_EV_ROLLBACK:
		/* What the command calls from here on undoes its steps. */
		sim->undoing = 1;
		return;
	default:
		return; /* lowering notices add nothing */
	}
	dmn__sim_record(sim, &ev);
}

/* ---- creation -------------------------------------------------------------- */

/* A new simulation with @opts' name and call hooks, nothing built yet. */
static struct dmn_sim *sim_alloc(const struct dmn_sim_options *opts)
{
	struct dmn_sim *sim = calloc(1, sizeof(*sim));
	if (!sim)
		return NULL;
	sim->board_name = opts->board_name ? opts->board_name : "board";
	/* Call numbers count from the first call of the build. */
	dmn_sim_providers_init(&sim->hw, NULL, NULL, 0);
	dmn_sim_providers_fail_call(&sim->hw, opts->fail_call, -EIO);
	sim->on_call = opts->on_call;
	sim->call_user = opts->call_user;
	sim->no_events = (opts->flags & DMN_SIM_NO_EVENTS) != 0;
	return sim;
}

static int sim_build(struct dmn_sim *sim, const struct dmn_sim_options *opts);

/* Build @sim's board unless @err (its load's result) is set; then hand
 * @sim out, or free it and return the error. */
static int sim_finish(struct dmn_sim *sim, const struct dmn_sim_options *opts,
		      int err, struct dmn_sim **out)
{
	if (!err)
		err = sim_build(sim, opts);
	if (err) {
		dmn_sim_free(sim);
		return err;
	}
	*out = sim;
	return 0;
}

int dmn_sim_create(const void *blob, size_t size, const struct dmn_sim_options *opts,
	       struct dmn_sim **out)
{
	static const struct dmn_sim_options defaults;
	if (!blob || !out)
		return -EINVAL;
	*out = NULL;
	if (!opts)
		opts = &defaults;
	struct dmn_sim *sim = sim_alloc(opts);
	if (!sim)
		return -ENOMEM;
	struct dmn_dt_load_opts lo;
	memset(&lo, 0, sizeof(lo));
	lo.supported_hw = opts->supported_hw;
	lo.n_supported_hw = opts->n_supported_hw;
	lo.diag = opts->diag;
	lo.diag_user = opts->diag_user;
	if (opts->flags & DMN_SIM_PARENTS_ALL)
		lo.flags |= DMN_DT_LOAD_PARENTS_ALL;
	int err = dmn_dt_load(blob, size, &lo, &sim->own_board);
	sim->board = sim->own_board;
	return sim_finish(sim, opts, err, out);
}

int dmn_sim_create_board(const struct dmn_dt_board *board,
			 const struct dmn_sim_options *opts, struct dmn_sim **out)
{
	static const struct dmn_sim_options defaults;
	if (out)
		*out = NULL;
	if (!board || !out || board->n_errors)
		return -EINVAL;
	if (!opts)
		opts = &defaults;
	struct dmn_sim *sim = sim_alloc(opts);
	if (!sim)
		return -ENOMEM;
	sim->board = board;
	return sim_finish(sim, opts, 0, out);
}

/* Build sim->board into a fresh context with simulated backends. On an
 * error the caller frees @sim. */
static int sim_build(struct dmn_sim *sim, const struct dmn_sim_options *opts)
{
	int err;
	const struct dmn_dt_board *b = sim->board;
	sim->doms = calloc(b->n_domains ? b->n_domains : 1, sizeof(*sim->doms));
	sim->devs = calloc(b->n_devices ? b->n_devices : 1, sizeof(*sim->devs));
	err = sim->doms && sim->devs ? 0 : -ENOMEM;
	if (err)
		return err;
	for (unsigned i = 0; i < b->n_domains; i++) {
		sim->doms[i].sim = sim;
		sim->doms[i].index = i;
	}
	err = mark_reaches_pstate(b, sim->doms);
	if (err)
		return err;
	for (unsigned i = 0; i < b->n_devices; i++) {
		sim->devs[i].sim = sim;
		sim->devs[i].index = i;
	}
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.lock = dmn_lock_none; /* one thread drives a simulation */
	cfg.now = sim_now;
	cfg.now_user = sim;
	err = dmn_ctx_create(&cfg, &sim->ctx);
	if (!err)
		err = dmn_dt_instantiate_diag(b, sim->ctx, factory, sim, opts->diag,
					  opts->diag_user, &sim->inst);
	/* DT wakeup-source: the device may wake the system
	 * (docs/lifecycle.md, System sleep). */
	for (unsigned i = 0; !err && i < b->n_devices; i++)
		if (b->devices[i].wakeup_source)
			err = dmn_device_set_wakeup_enable(
			    sim->ctx, sim->inst->devices[i], 1);
	for (unsigned i = 0; !err && i < b->n_devices; i++) {
		if (b->devices[i].opp_table < 0)
			continue;
		err = dmn_opp_device_set_clock(sim->ctx, sim->inst->devices[i],
					   &sim_clock, &sim->devs[i]);
		if (!err && (opts->flags & DMN_SIM_REGULATORS) &&
		    has_supplies(b, &b->devices[i]))
			err = dmn_opp_device_set_regulators(sim->ctx,
							sim->inst->devices[i],
							&sim_regulators,
							&sim->devs[i]);
	}
	if (!err) {
		sim->dom_ix = build_ix(sim->inst->domains, b->n_domains);
		sim->dev_ix = build_ix(sim->inst->devices, b->n_devices);
		if (!sim->dom_ix || !sim->dev_ix)
			err = -ENOMEM;
	}
	if (!err)
		err = dmn_listen(sim->ctx, listener, sim);
	if (err)
		return err;
	sim->initial = calloc(b->n_domains ? b->n_domains : 1,
			      sizeof(*sim->initial));
	size_t n_atts = 0, max_atts = 1;
	for (unsigned i = 0; i < b->n_devices; i++) {
		n_atts += b->devices[i].n_attachments;
		if (b->devices[i].n_attachments > max_atts)
			max_atts = b->devices[i].n_attachments;
	}
	sim->cast_block = calloc(n_atts ? n_atts : 1, sizeof(uint32_t));
	sim->vote_scratch = calloc(2 * max_atts, sizeof(uint32_t));
	if (!sim->initial || !sim->cast_block || !sim->vote_scratch) {
		err = -ENOMEM;
		return err;
	}
	/* Fixed votes of devices without an OPP table are cast by the
	 * build; read them back. */
	n_atts = 0;
	for (unsigned i = 0; i < b->n_devices; i++) {
		sim->devs[i].cast = sim->cast_block + n_atts;
		sim->devs[i].own_id = DMN_OPP_ID_NONE;
		n_atts += b->devices[i].n_attachments;
		for (unsigned a = 0; a < b->devices[i].n_attachments; a++) {
			struct dmn_attach_info ai;
			if (!dmn_attach_info(sim->ctx,
					    sim->inst->attachments[i][a], &ai))
				sim->devs[i].cast[a] = ai.vote;
		}
	}
	for (unsigned i = 0; i < b->n_domains; i++) {
		struct dmn_domain_info info;
		dmn_domain_info(sim->ctx, sim->inst->domains[i], &info);
		sim->initial[i].on = info.on;
		sim->initial[i].pstate = info.pstate;
		sim->initial[i].idle = info.on ? -1 : info.idle_state;
	}
	return 0;
}

void dmn_sim_free(struct dmn_sim *sim)
{
	if (!sim)
		return;
	dmn__sim_report_free(sim);
	dmn__sim_energy_free(sim);
	dmn_ctx_destroy(sim->ctx);
	dmn_dt_instance_free(sim->inst);
	dmn_dt_board_free(sim->own_board);
	for (unsigned i = 0; i < sim->n_causes; i++)
		free(sim->causes[i]);
	free(sim->causes);
	free(sim->events);
	free(sim->initial);
	free(sim->cast_block);
	free(sim->vote_scratch);
	free(sim->dom_ix);
	free(sim->dev_ix);
	dmn__sim_names_free(sim->dev_names);
	dmn__sim_names_free(sim->dom_names);
	dmn__sim_names_free(sim->att_names);
	free(sim->att_first);
	free(sim->level_tables);
	free(sim->level_stack);
	free(sim->doms);
	free(sim->devs);
	free(sim);
}

const struct dmn_dt_board *dmn_sim_board(const struct dmn_sim *sim)
{
	return sim ? sim->board : NULL;
}

unsigned long dmn_sim_calls(const struct dmn_sim *sim)
{
	return sim ? sim->hw.n_calls : 0;
}

struct dmn_ctx *dmn_sim_ctx(struct dmn_sim *sim)
{
	return sim ? sim->ctx : NULL;
}

const struct dmn_dt_instance *dmn_sim_instance(const struct dmn_sim *sim)
{
	return sim ? sim->inst : NULL;
}
