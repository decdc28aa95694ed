/* SPDX-License-Identifier: MIT */
/* Simulated clock, regulators and domain backend: log, state, failures;
 * the one simulated hardware of the simulator and the tests. */
#include <domino/sim_providers.h>

#include <errno.h>
#include <string.h>

void dmn_sim_providers_init(struct dmn_sim_providers *sp, struct dmn_ctx *ctx,
			struct dmn_sim_providers_call *log, unsigned log_cap)
{
	memset(sp, 0, sizeof(*sp));
	sp->ctx = ctx;
	sp->log = log;
	sp->log_cap = log ? log_cap : 0;
}

int dmn_sim_providers_fail(struct dmn_sim_providers *sp, enum dmn_sim_providers_op op,
		       uint32_t object, unsigned count, int error)
{
	if (!sp || error >= 0)
		return -EINVAL;
	for (unsigned i = 0; i < sp->n_fails; i++) {
		if (sp->fails[i].op != op || sp->fails[i].object != object)
			continue;
		sp->fails[i].count = count;
		sp->fails[i].error = error;
		return 0;
	}
	if (!count)
		return 0;
	if (sp->n_fails >= DMN_SIM_PROVIDERS_MAX_FAILS) {
		/* Reuse a rule that has run out. */
		for (unsigned i = 0; i < sp->n_fails; i++) {
			if (sp->fails[i].count)
				continue;
			memmove(&sp->fails[i], &sp->fails[i + 1],
				(sp->n_fails - i - 1) * sizeof(sp->fails[0]));
			sp->n_fails--;
			break;
		}
		if (sp->n_fails >= DMN_SIM_PROVIDERS_MAX_FAILS)
			return -ENOSPC;
	}
	sp->fails[sp->n_fails].op = op;
	sp->fails[sp->n_fails].object = object;
	sp->fails[sp->n_fails].count = count;
	sp->fails[sp->n_fails].error = error;
	sp->n_fails++;
	return 0;
}

static int injected(struct dmn_sim_providers *sp, enum dmn_sim_providers_op op,
		    uint32_t object)
{
	for (unsigned i = 0; i < sp->n_fails; i++) {
		if (sp->fails[i].op != op || !sp->fails[i].count ||
		    (sp->fails[i].object && sp->fails[i].object != object))
			continue;
		sp->fails[i].count--;
		return sp->fails[i].error;
	}
	return 0;
}

static int find_object(const struct dmn_sim_providers *sp, uint32_t object)
{
	for (unsigned i = 0; i < sp->n_objects; i++)
		if (sp->objects[i].object == object)
			return (int)i;
	return -1;
}

/* The state slot of @object, made on first use; NULL when the table is
 * full (the call still works, its state is just not kept). */
static int slot_of(struct dmn_sim_providers *sp, uint32_t object)
{
	int i = find_object(sp, object);
	if (i >= 0)
		return i;
	if (sp->n_objects >= DMN_SIM_PROVIDERS_MAX_OBJECTS) {
		sp->n_untracked++;
		return -1;
	}
	i = (int)sp->n_objects++;
	memset(&sp->objects[i], 0, sizeof(sp->objects[i]));
	sp->objects[i].object = object;
	return i;
}

void dmn_sim_providers_clear_log(struct dmn_sim_providers *sp)
{
	sp->n_log = 0;
	sp->n_dropped = 0;
	sp->n_calls = 0;
}

int dmn_sim_providers_fail_call(struct dmn_sim_providers *sp, unsigned long k,
			    int error)
{
	if (!sp || (k && error >= 0))
		return -EINVAL;
	sp->fail_call = k;
	sp->fail_call_error = error;
	return 0;
}

/* The state a successful @c leaves its object in. */
static void keep_state(struct dmn_sim_providers *sp,
		       const struct dmn_sim_providers_call *c)
{
	int i = slot_of(sp, c->object);
	if (i < 0)
		return;
	switch (c->op) {
	case DMN_SIM_PROVIDERS_CLOCK:
		sp->objects[i].rate = c->value;
		break;
	case DMN_SIM_PROVIDERS_REGULATOR:
		if (c->supply < DMN_SIM_PROVIDERS_MAX_SUPPLIES)
			sp->objects[i].microvolt[c->supply] =
			    (uint32_t)c->value;
		break;
	case DMN_SIM_PROVIDERS_POWER_ON:
	case DMN_SIM_PROVIDERS_POWER_OFF:
		sp->objects[i].on = c->op == DMN_SIM_PROVIDERS_POWER_ON;
		break;
	case DMN_SIM_PROVIDERS_PSTATE:
		sp->objects[i].pstate = (uint32_t)c->value;
		break;
	case DMN_SIM_PROVIDERS_HWMODE:
		sp->objects[i].hwmode = c->value != 0;
		break;
	}
}

int dmn_sim_providers_call(struct dmn_sim_providers *sp, struct dmn_sim_providers_call *c)
{
	c->index = ++sp->n_calls;
	/* A rule counts down even when the call fails for another reason:
	 * "the next N calls" means calls, not failures. */
	int err = injected(sp, c->op, c->object);
	if (!c->result)
		c->result = err;
	if (!c->result && sp->fail_call && c->index == sp->fail_call)
		c->result = sp->fail_call_error;
	c->time_ns = sp->ctx ? dmn_now(sp->ctx) : 0;
	if (sp->n_log < sp->log_cap)
		sp->log[sp->n_log++] = *c;
	else
		sp->n_dropped++;
	if (!c->result)
		keep_state(sp, c);
	return c->result;
}

/* A call of the stock ops: @sp is their @user. */
static int record(struct dmn_sim_providers *sp, enum dmn_sim_providers_op op,
		  uint32_t object, unsigned supply, uint64_t value,
		  uint32_t min, uint32_t max)
{
	struct dmn_sim_providers_call c = {.op = op, .object = object,
					.supply = supply, .value = value,
					.min = min, .max = max};
	return dmn_sim_providers_call(sp, &c);
}

static int clock_set_rate(void *user, dmn_device_t dev, uint64_t hz)
{
	return record(user, DMN_SIM_PROVIDERS_CLOCK, dev, 0, hz, 0, 0);
}

static uint64_t clock_get_rate(void *user, dmn_device_t dev)
{
	return dmn_sim_providers_rate(user, dev);
}

static int set_voltage(void *user, dmn_device_t dev, unsigned supply,
		       uint32_t min, uint32_t target, uint32_t max)
{
	return record(user, DMN_SIM_PROVIDERS_REGULATOR, dev, supply, target, min,
		      max);
}

static int power_on(void *user, dmn_domain_t dom)
{
	return record(user, DMN_SIM_PROVIDERS_POWER_ON, dom, 0, 1, 0, 0);
}

static int power_off(void *user, dmn_domain_t dom, int idle_state)
{
	return record(user, DMN_SIM_PROVIDERS_POWER_OFF, dom, 0,
		      (uint64_t)(int64_t)idle_state, 0, 0);
}

static int set_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	return record(user, DMN_SIM_PROVIDERS_PSTATE, dom, 0, level, 0, 0);
}

static int set_hwmode(void *user, dmn_domain_t dom, dmn_device_t dev, int hw)
{
	(void)dev;
	return record(user, DMN_SIM_PROVIDERS_HWMODE, dom, 0, hw != 0, 0, 0);
}

const struct dmn_opp_clock_ops dmn_sim_providers_clock = {clock_set_rate,
						  clock_get_rate};
const struct dmn_opp_regulator_ops dmn_sim_providers_regulators = {set_voltage};
const struct dmn_domain_ops dmn_sim_providers_rail = {power_on, power_off,
						 set_pstate, 0};
const struct dmn_domain_ops dmn_sim_providers_gate = {power_on, power_off, 0,
						 set_hwmode};

uint64_t dmn_sim_providers_rate(const struct dmn_sim_providers *sp, uint32_t dev)
{
	int i = find_object(sp, dev);
	return i >= 0 ? sp->objects[i].rate : 0;
}

uint32_t dmn_sim_providers_microvolt(const struct dmn_sim_providers *sp, uint32_t dev,
				 unsigned supply)
{
	int i = find_object(sp, dev);
	return i >= 0 && supply < DMN_SIM_PROVIDERS_MAX_SUPPLIES
		   ? sp->objects[i].microvolt[supply]
		   : 0;
}

uint32_t dmn_sim_providers_pstate(const struct dmn_sim_providers *sp, uint32_t dom)
{
	int i = find_object(sp, dom);
	return i >= 0 ? sp->objects[i].pstate : 0;
}

int dmn_sim_providers_on(const struct dmn_sim_providers *sp, uint32_t dom)
{
	int i = find_object(sp, dom);
	return i >= 0 ? sp->objects[i].on : 0;
}

int dmn_sim_providers_hwmode(const struct dmn_sim_providers *sp, uint32_t dom)
{
	int i = find_object(sp, dom);
	return i >= 0 ? sp->objects[i].hwmode : 0;
}

const char *dmn_sim_providers_op_name(enum dmn_sim_providers_op op)
{
	switch (op) {
	case DMN_SIM_PROVIDERS_CLOCK:
		return "clock";
	case DMN_SIM_PROVIDERS_REGULATOR:
		return "regulator";
	case DMN_SIM_PROVIDERS_POWER_ON:
		return "on";
	case DMN_SIM_PROVIDERS_POWER_OFF:
		return "off";
	case DMN_SIM_PROVIDERS_PSTATE:
		return "pstate";
	case DMN_SIM_PROVIDERS_HWMODE:
		return "hwmode";
	}
	return "?";
}
