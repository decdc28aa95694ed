/* SPDX-License-Identifier: MIT */
/*
 * The meter: each part (a domain, a device) sits in one slot (a state of
 * fixed power) at a time; a move charges the time since the last move to
 * the slot left. A slot's energy is then its time × its power, computed
 * once when a report asks: the run itself only adds times, so metering
 * costs a subtraction and an addition per change.
 */
#include <domino/energy.h>

#include "../core/debug.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int dmn_energy_meter_init(struct dmn_energy_meter *m, const unsigned *n_slots,
			  unsigned n_parts, uint64_t now)
{
	memset(m, 0, sizeof(*m));
	size_t total = 0;
	for (unsigned p = 0; p < n_parts; p++) {
		if (!n_slots[p])
			return -EINVAL;
		total += n_slots[p];
	}
	m->slots = calloc(total ? total : 1, sizeof(*m->slots));
	m->first = malloc(((size_t)n_parts + 1) * sizeof(*m->first));
	m->at = malloc((n_parts ? n_parts : 1) * sizeof(*m->at));
	m->since = malloc((n_parts ? n_parts : 1) * sizeof(*m->since));
	m->last_step = calloc(n_parts ? n_parts : 1, sizeof(*m->last_step));
	if (!m->slots || !m->first || !m->at || !m->since || !m->last_step) {
		dmn_energy_meter_free(m);
		return -ENOMEM;
	}
	size_t at = 0;
	for (unsigned p = 0; p < n_parts; p++) {
		m->first[p] = at;
		m->at[p] = at;
		m->since[p] = now;
		at += n_slots[p];
	}
	DMN_ASSERT(at == total && "the parts' slots are all the slots");
	m->first[n_parts] = at;
	for (size_t s = 0; s < total; s++)
		m->slots[s].known = 1;
	m->n_slots = total;
	m->n_parts = n_parts;
	return 0;
}

void dmn_energy_meter_free(struct dmn_energy_meter *m)
{
	free(m->slots);
	free(m->first);
	free(m->at);
	free(m->since);
	free(m->steps);
	free(m->last_step);
	memset(m, 0, sizeof(*m));
}

static int same_power(const struct dmn_energy_slot *a, const struct dmn_energy_slot *b)
{
	return a->known == b->known && (!a->known || a->uw == b->uw);
}

static int log_step(struct dmn_energy_meter *m, unsigned part, size_t slot,
		    uint64_t now)
{
	DMN_ASSERT(part < m->n_parts && slot >= m->first[part] &&
		   slot < m->first[part + 1] && "a step names a slot of its part");
	size_t last = m->last_step[part];
	DMN_ASSERT(last <= m->n_steps && "a part's last step is a logged one");
	if (last && m->steps[last - 1].time_ns == now) {
		/* one instant, one value: the part's latest word */
		m->steps[last - 1].slot = (unsigned)(slot - m->first[part]);
		return 0;
	}
	if (m->n_steps == m->cap_steps) {
		size_t cap = m->cap_steps ? m->cap_steps * 2 : 256;
		struct dmn_energy_step *bigger = realloc(m->steps, cap * sizeof(*bigger));
		if (!bigger) {
			m->oom = 1;
			return -ENOMEM;
		}
		m->steps = bigger;
		m->cap_steps = cap;
	}
	DMN_ASSERT(m->n_steps < m->cap_steps);
	m->steps[m->n_steps] = (struct dmn_energy_step){
	    now, part, (unsigned)(slot - m->first[part])};
	m->last_step[part] = ++m->n_steps;
	return 0;
}

int dmn_energy_meter_move(struct dmn_energy_meter *m, unsigned part, unsigned slot,
			  uint64_t now)
{
	if (part >= m->n_parts || slot >= m->first[part + 1] - m->first[part] ||
	    now < m->since[part])
		return -EINVAL;
	size_t to = m->first[part] + slot, from = m->at[part];
	DMN_ASSERT(from >= m->first[part] && from < m->first[part + 1] &&
		   "a part sits in one of its own slots");
	if (to == from)
		return m->oom ? -ENOMEM : 0;
	m->slots[from].time_ns += now - m->since[part];
	m->since[part] = now;
	m->at[part] = to;
	if (!m->oom && !same_power(&m->slots[from], &m->slots[to]))
		log_step(m, part, to, now);
	return m->oom ? -ENOMEM : 0;
}

void dmn_energy_meter_close(struct dmn_energy_meter *m, uint64_t now)
{
	for (unsigned p = 0; p < m->n_parts; p++) {
		if (now <= m->since[p])
			continue;
		m->slots[m->at[p]].time_ns += now - m->since[p];
		m->since[p] = now;
	}
}

void dmn_energy_meter_restart(struct dmn_energy_meter *m, uint64_t now)
{
	for (size_t s = 0; s < m->n_slots; s++)
		m->slots[s].time_ns = 0;
	for (unsigned p = 0; p < m->n_parts; p++) {
		m->since[p] = now;
		m->last_step[p] = 0;
	}
	m->n_steps = 0;
	m->oom = 0;
}
