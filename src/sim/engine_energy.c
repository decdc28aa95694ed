/* SPDX-License-Identifier: MIT */
/*
 * Energy in the simulator: the board's power model (device tree and power
 * model file, docs/energy.md) bound to its domains and devices, and a
 * meter that follows their states on the simulated clock.
 *
 * Each domain and each device is a part of the meter; each state it can be
 * in (on at a level, an idle state, off; suspended, active at an OPP
 * entry) is a slot of fixed power. What changed in a command is marked
 * (the listener, the clock, resume and suspend) and read back from the
 * library once the command is done: within one command time does not
 * pass, so only the state it leaves counts.
 */
#include "engine_internal.h"
#include "../core/bsearch.h"

#include <domino/idle.h>
#include <domino/opp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How strongly a slot's power is given (docs/energy.md): the file's line
 * for that very state beats the tree, which beats the file's line for the
 * part as a whole, then `*`, then the rule's default. */
enum rank {
	RANK_NONE,
	RANK_DEFAULT,
	RANK_STAR,
	RANK_PART,
	RANK_TREE,
	RANK_STATE,
	N_RANKS
};

struct slot_info {
	uint8_t kind;	/* enum dmn_report_power_kind */
	uint8_t source; /* enum dmn_report_power_source */
	uint8_t rank;	/* enum rank of what gives the power */
	uint8_t has_level;
	uint32_t level;
	int32_t ref; /* idle state index, or OPP entry index in its table */
	unsigned line;
	const char *why;
	unsigned seen[N_RANKS]; /* the file line that gave it at each rank */
	/* `at DOMAIN LEVEL` (docs/energy.md): an entry's slot whose power
	 * depends on a domain's level names that domain in @depends (-1:
	 * none); each of its level slots, after the device's entries, holds
	 * the domain in @at_domain (-1 for every other slot) and the level
	 * in @at_level. */
	int32_t depends, at_domain;
	uint32_t at_level;
};

/* An OPP entry id of a device's table and its slot, sorted by id. */
struct id_slot {
	uint32_t id;
	unsigned slot;
};

struct dmn_sim_energy {
	char *file; /* the power model's name, or NULL */
	struct dmn_energy_meter meter;
	struct slot_info *info; /* per meter slot */
	unsigned n_domains, n_devices;
	/* per domain: its levels, ascending, once (slots on_first + 1 + k) */
	uint32_t *levels;
	size_t *level_first; /* [n_domains + 1] */
	/* per device: its entries' ids -> slots */
	struct id_slot *ids;
	size_t *id_first; /* [n_devices + 1] */
	/* what a command changed, read back when it is done */
	unsigned char *dirty; /* per part */
	unsigned *todo;
	unsigned n_todo;
	uint64_t start_ns;
	size_t *initial; /* per part: its slot (absolute) at start_ns */
	/* per device: its first `at` slot (within the part) and how many of
	 * them are taken; per domain, the devices whose power follows its
	 * level: dep_dev[dep_first[d] .. dep_first[d + 1] - 1] */
	unsigned *at_first, *at_used;
	size_t *dep_first;
	unsigned *dep_dev;
	int oom;
};

/* Slot layout: a domain's on slot (any level), one per level, one per
 * idle state, and plain off where it has no idle states; a device's
 * suspended slot, active slot (no entry), one per entry it can run at. */
enum { DEV_SUSPENDED, DEV_ACTIVE, DEV_FIRST_OPP };

static unsigned domain_levels(const struct dmn_sim *sim, unsigned d)
{
	const struct dmn_sim_energy *e = sim->energy;
	return (unsigned)(e->level_first[d + 1] - e->level_first[d]);
}

/* ---- the layout ------------------------------------------------------------ */

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = ((const struct id_slot *)a)->id, y = ((const struct id_slot *)b)->id;
	return (x > y) - (x < y);
}

/* Levels and entry ids, which fix how many slots each part has. */
static int build_lookups(struct dmn_sim *sim, unsigned *n_slots)
{
	struct dmn_sim_energy *e = sim->energy;
	const struct dmn_dt_board *b = sim->board;
	size_t n_levels = 0, n_ids = 0;
	for (unsigned d = 0; d < b->n_domains; d++)
		if (b->domains[d].opp_table >= 0)
			n_levels += b->opp_tables[b->domains[d].opp_table].n_entries;
	for (unsigned v = 0; v < b->n_devices; v++)
		if (b->devices[v].opp_table >= 0)
			n_ids += b->opp_tables[b->devices[v].opp_table].n_entries;
	e->levels = malloc((n_levels ? n_levels : 1) * sizeof(*e->levels));
	e->level_first = malloc(((size_t)b->n_domains + 1) * sizeof(size_t));
	e->ids = malloc((n_ids ? n_ids : 1) * sizeof(*e->ids));
	e->id_first = malloc(((size_t)b->n_devices + 1) * sizeof(size_t));
	if (!e->levels || !e->level_first || !e->ids || !e->id_first)
		return -ENOMEM;
	size_t at = 0;
	for (unsigned d = 0; d < b->n_domains; d++) {
		const struct dmn_dt_domain *dom = &b->domains[d];
		e->level_first[d] = at;
		size_t start = at;
		if (dom->opp_table >= 0) {
			const struct dmn_dt_opp_table *t = &b->opp_tables[dom->opp_table];
			for (unsigned k = 0; k < t->n_entries; k++)
				if (t->entries[k].has_level && t->entries[k].available &&
				    t->entries[k].level)
					e->levels[at++] = t->entries[k].level;
			qsort(&e->levels[start], at - start, sizeof(uint32_t), by_u32);
			size_t kept = start;
			for (size_t k = start; k < at; k++)
				if (kept == start || e->levels[kept - 1] != e->levels[k])
					e->levels[kept++] = e->levels[k];
			at = kept;
		}
		n_slots[d] = 1 + (unsigned)(at - start) +
			     (dom->n_idle_states ? dom->n_idle_states : 1);
	}
	e->level_first[b->n_domains] = at;
	at = 0;
	for (unsigned v = 0; v < b->n_devices; v++) {
		const struct dmn_dt_device *dev = &b->devices[v];
		e->id_first[v] = at;
		size_t start = at;
		if (dev->opp_table >= 0) {
			const uint32_t *ids = sim->inst->opp_ids[dev->opp_table];
			const struct dmn_dt_opp_table *t = &b->opp_tables[dev->opp_table];
			for (unsigned k = 0; k < t->n_entries; k++)
				if (ids && ids[k] != DMN_OPP_ID_NONE) {
					e->ids[at] = (struct id_slot){
					    ids[k], DEV_FIRST_OPP + (unsigned)(at - start)};
					at++;
				}
			qsort(&e->ids[start], at - start, sizeof(*e->ids), by_id);
		}
		n_slots[b->n_domains + v] = DEV_FIRST_OPP + (unsigned)(at - start);
	}
	e->id_first[b->n_devices] = at;
	return 0;
}

static struct slot_info *slot_of(struct dmn_sim *sim, unsigned part, unsigned slot)
{
	struct dmn_sim_energy *e = sim->energy;
	return &e->info[e->meter.first[part] + slot];
}

/* opp-microwatt summed over the entry's supplies, as Linux's
 * dev_pm_opp_get_power adds them (at most 2^32 cells of 2^32 fit). */
static uint64_t microwatt(const struct dmn_dt_opp *o)
{
	uint64_t uw = 0;
	for (unsigned w = 0; w < o->n_microwatt; w++)
		uw += o->microwatt[w];
	return uw;
}

/* Each slot's kind, level or entry, and the tree's power where it has one. */
static void describe_slots(struct dmn_sim *sim)
{
	struct dmn_sim_energy *e = sim->energy;
	const struct dmn_dt_board *b = sim->board;
	for (unsigned d = 0; d < b->n_domains; d++) {
		const struct dmn_dt_domain *dom = &b->domains[d];
		unsigned n_lv = domain_levels(sim, d);
		struct slot_info *s = slot_of(sim, d, 0);
		s[0].kind = DMN_REPORT_POWER_ON;
		const uint32_t *lv = &e->levels[e->level_first[d]];
		for (unsigned k = 0; k < n_lv; k++) {
			s[1 + k].kind = DMN_REPORT_POWER_ON;
			s[1 + k].has_level = 1;
			s[1 + k].level = lv[k];
		}
		/* each level's power: its first available entry's */
		const struct dmn_dt_opp_table *t =
		    n_lv ? &b->opp_tables[dom->opp_table] : NULL;
		for (unsigned x = 0; t && x < t->n_entries; x++) {
			const struct dmn_dt_opp *o = &t->entries[x];
			if (!o->available || !o->has_level || !o->level)
				continue;
			const uint32_t *hit = bsearch(&o->level, lv, n_lv, sizeof(*lv), by_u32);
			struct slot_info *l = &s[1 + (unsigned)(hit - lv)];
			if (l->ref >= 0)
				continue;
			l->ref = (int32_t)x;
			uint64_t uw = microwatt(o);
			if (uw && uw <= DMN_ENERGY_MAX_UW) {
				e->meter.slots[e->meter.first[d] + (size_t)(l - s)].uw = uw;
				l->source = DMN_REPORT_SOURCE_DT;
				l->rank = RANK_TREE;
			}
		}
		struct slot_info *off = &s[1 + n_lv];
		if (!dom->n_idle_states) {
			off->kind = DMN_REPORT_POWER_OFF;
			off->source = DMN_REPORT_SOURCE_DEFAULT;
			off->rank = RANK_DEFAULT;
		}
		for (unsigned k = 0; k < dom->n_idle_states; k++) {
			off[k].kind = DMN_REPORT_POWER_IDLE;
			off[k].ref = (int32_t)k;
		}
	}
	for (unsigned v = 0; v < b->n_devices; v++) {
		const struct dmn_dt_device *dev = &b->devices[v];
		unsigned part = b->n_domains + v;
		struct slot_info *s = slot_of(sim, part, 0);
		struct dmn_energy_slot *ms = &e->meter.slots[e->meter.first[part]];
		s[DEV_SUSPENDED].kind = DMN_REPORT_POWER_SUSPENDED;
		s[DEV_SUSPENDED].source = DMN_REPORT_SOURCE_DEFAULT;
		s[DEV_SUSPENDED].rank = RANK_DEFAULT;
		s[DEV_ACTIVE].kind = DMN_REPORT_POWER_ACTIVE;
		if (dev->opp_table < 0)
			continue;
		const uint32_t *ids = sim->inst->opp_ids[dev->opp_table];
		const struct dmn_dt_opp_table *t = &b->opp_tables[dev->opp_table];
		unsigned k = DEV_FIRST_OPP;
		for (unsigned x = 0; ids && x < t->n_entries; x++) {
			if (ids[x] == DMN_OPP_ID_NONE)
				continue;
			struct slot_info *l = &s[k++];
			l->kind = DMN_REPORT_POWER_OPP;
			l->ref = (int32_t)x;
			const struct dmn_dt_opp *o = &t->entries[x];
			l->has_level = o->has_level;
			l->level = o->level;
			uint64_t uw = microwatt(o);
			/* Linux reads a power of 0 as none (_get_dt_power) */
			if (uw && uw <= DMN_ENERGY_MAX_UW) {
				ms[l - s].uw = uw;
				l->source = DMN_REPORT_SOURCE_DT;
				l->rank = RANK_TREE;
				continue;
			}
			if (!dev->dynamic_power_coefficient)
				continue;
			int err = -EINVAL;
			if (o->n_supplies && o->n_hz)
				err = dmn_energy_dpc_uw(dev->dynamic_power_coefficient,
							o->supplies[0].microvolt,
							o->hz[0], &uw);
			if (!err) {
				ms[l - s].uw = uw;
				l->source = DMN_REPORT_SOURCE_DPC;
				l->rank = RANK_TREE;
			} else {
				l->why = err == -EOVERFLOW
					     ? "dynamic-power-coefficient: the "
					       "power overflows"
				     : !o->n_hz ? "dynamic-power-coefficient "
						  "without opp-hz"
						: "dynamic-power-coefficient "
						  "without opp-microvolt";
			}
		}
	}
}

/* ---- the power model file -------------------------------------------------- */

static int bind_error(struct dmn_energy_diag *diag, const struct dmn_power_model *pm,
		      unsigned line, const char *fmt, ...)
{
	if (diag) {
		va_list ap;
		diag->file = pm->file;
		diag->line = line;
		va_start(ap, fmt);
		vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Give @uw to slot @slot of @part at @rank from line @l; two lines at the
 * same rank for one slot say the same thing twice. */
static int give(struct dmn_sim *sim, unsigned part, unsigned slot, enum rank rank,
		const struct dmn_pm_line *l, const struct dmn_power_model *pm,
		struct dmn_energy_diag *diag)
{
	struct dmn_sim_energy *e = sim->energy;
	struct slot_info *s = slot_of(sim, part, slot);
	if (s->seen[rank])
		return bind_error(diag, pm, l->line, "%s %s %s%s%s: already given at line %u",
				  l->device ? "device" : "domain", l->name,
				  l->state == DMN_PM_ON		 ? "on"
				  : l->state == DMN_PM_PSTATE	 ? "pstate"
				  : l->state == DMN_PM_IDLE	 ? "idle"
				  : l->state == DMN_PM_OFF	 ? "off"
				  : l->state == DMN_PM_ACTIVE	 ? "active"
				  : l->state == DMN_PM_OPP	 ? "opp"
				  : l->state == DMN_PM_RATE	 ? "rate"
							 : "suspended",
				  l->arg ? " " : "", l->arg ? l->arg : "", s->seen[rank]);
	s->seen[rank] = l->line;
	if (rank < s->rank)
		return 0;
	s->rank = (uint8_t)rank;
	s->source = DMN_REPORT_SOURCE_FILE;
	s->line = l->line;
	s->why = NULL;
	e->meter.slots[e->meter.first[part] + slot].uw = l->uw;
	return 0;
}

static int is_number(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* "a, b, c" of a domain's levels, idle states, or a device's entries. */
static void list_states(const struct dmn_sim *sim, unsigned part, enum dmn_report_power_kind kind,
			char *buf, size_t size)
{
	const struct dmn_sim_energy *e = sim->energy;
	const struct dmn_dt_board *b = sim->board;
	size_t used = 0;
	buf[0] = 0;
	for (size_t k = e->meter.first[part]; k < e->meter.first[part + 1] && used < size; k++) {
		const struct slot_info *s = &e->info[k];
		if (s->kind != kind || (kind == DMN_REPORT_POWER_ON && !s->has_level))
			continue;
		char one[64];
		if (kind == DMN_REPORT_POWER_ON)
			snprintf(one, sizeof(one), "%u", s->level);
		else if (kind == DMN_REPORT_POWER_IDLE)
			snprintf(one, sizeof(one), "%s", dmn__sim_idle_name(sim, part, (int)s->ref));
		else
			snprintf(one, sizeof(one), "%s",
				 b->opp_tables[b->devices[part - b->n_domains].opp_table]
				     .entries[s->ref]
				     .name);
		used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", one);
	}
}

/* The slot of a domain's level, idle state or plain off named by line @l. */
static int domain_slot(struct dmn_sim *sim, unsigned d, const struct dmn_pm_line *l,
		       const struct dmn_power_model *pm, struct dmn_energy_diag *diag,
		       unsigned *slot)
{
	const struct dmn_dt_domain *dom = &sim->board->domains[d];
	unsigned n_lv = domain_levels(sim, d);
	char list[200];
	if (l->state == DMN_PM_PSTATE) {
		if (!n_lv)
			return bind_error(diag, pm, l->line,
					  "domain '%s' has no performance levels of its own "
					  "(no OPP table with opp-level): give its power with 'on'",
					  dom->name);
		uint32_t level = 0;
		if (is_number(l->arg)) {
			unsigned long v = strtoul(l->arg, NULL, 10);
			level = v > UINT32_MAX ? 0 : (uint32_t)v;
		} else {
			char why[DMN_ENERGY_DIAG_MESSAGE_MAX];
			int err = dmn__sim_find_level(sim, d, l->arg, &level, why, sizeof(why));
			if (err == -ENOMEM)
				return err;
			if (err)
				return bind_error(diag, pm, l->line, "%s", why);
		}
		const uint32_t *lv = &sim->energy->levels[sim->energy->level_first[d]];
		for (unsigned k = 0; k < n_lv; k++)
			if (lv[k] == level) {
				*slot = 1 + k;
				return 0;
			}
		list_states(sim, d, DMN_REPORT_POWER_ON, list, sizeof(list));
		return bind_error(diag, pm, l->line, "domain '%s' has no level %s (levels: %s)",
				  dom->name, l->arg, list);
	}
	if (l->state == DMN_PM_OFF) {
		if (dom->n_idle_states) {
			list_states(sim, d, DMN_REPORT_POWER_IDLE, list, sizeof(list));
			return bind_error(diag, pm, l->line,
					  "domain '%s' has idle states (%s): it is never plain "
					  "off; give 'idle [STATE]'",
					  dom->name, list);
		}
		*slot = 1 + n_lv;
		return 0;
	}
	/* an idle state by name */
	for (unsigned k = 0; k < dom->n_idle_states; k++)
		if (!strcmp(dmn__sim_idle_name(sim, d, (int)k), l->arg)) {
			*slot = 1 + n_lv + k;
			return 0;
		}
	if (!dom->n_idle_states)
		return bind_error(diag, pm, l->line,
				  "domain '%s' has no idle states: give 'off'", dom->name);
	list_states(sim, d, DMN_REPORT_POWER_IDLE, list, sizeof(list));
	return bind_error(diag, pm, l->line, "domain '%s' has no idle state '%s' (%s)",
			  dom->name, l->arg, list);
}

static int entry_named(const struct dmn_dt_opp *o, const char *name)
{
	if (!strcmp(o->name, name))
		return 1;
	for (unsigned i = 0; i < o->n_labels; i++)
		if (!strcmp(o->labels[i], name))
			return 1;
	return 0;
}

/* The slot of the OPP entry a device line names (by entry or by rate). */
static int device_slot(struct dmn_sim *sim, unsigned v, const struct dmn_pm_line *l,
		       const struct dmn_power_model *pm, struct dmn_energy_diag *diag,
		       unsigned *slot)
{
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_device *dev = &b->devices[v];
	unsigned part = b->n_domains + v;
	unsigned n = (unsigned)(sim->energy->id_first[v + 1] - sim->energy->id_first[v]);
	if (!n)
		return bind_error(diag, pm, l->line,
				  "device '%s' has no OPP table%s: give its power with 'active'",
				  dev->name, dev->opp_table >= 0 ? " entry it can run at" : "");
	uint64_t hz = 0;
	if (l->state == DMN_PM_RATE) {
		int err = dmn_scn_parse_freq(l->arg, strlen(l->arg), &hz);
		if (err)
			return bind_error(diag, pm, l->line,
					  "rate '%s' is %s (e.g. 300MHz, 1.2GHz)", l->arg,
					  err == -EOVERFLOW ? "too large" : "not a frequency");
	}
	const struct dmn_dt_opp_table *t = &b->opp_tables[dev->opp_table];
	for (unsigned k = DEV_FIRST_OPP; k < DEV_FIRST_OPP + n; k++) {
		const struct dmn_dt_opp *o = &t->entries[slot_of(sim, part, k)->ref];
		if (l->state == DMN_PM_RATE ? o->n_hz && o->hz[0] == hz
					    : entry_named(o, l->arg)) {
			*slot = k;
			return 0;
		}
	}
	char list[200];
	list_states(sim, part, DMN_REPORT_POWER_OPP, list, sizeof(list));
	if (l->state == DMN_PM_RATE)
		return bind_error(diag, pm, l->line,
				  "device '%s' has no OPP entry of exactly %s (entries: %s)",
				  dev->name, l->arg, list);
	return bind_error(diag, pm, l->line, "device '%s' has no OPP entry '%s' (entries: %s)",
			  dev->name, l->arg, list);
}

/* Which of a part's slots a general line (on, idle, off, active,
 * suspended) covers. */
static int covers(const struct slot_info *s, enum dmn_pm_state st)
{
	switch (st) {
	case DMN_PM_ON:
		return s->kind == DMN_REPORT_POWER_ON;
	case DMN_PM_IDLE:
		return s->kind == DMN_REPORT_POWER_IDLE;
	case DMN_PM_OFF:
		return s->kind == DMN_REPORT_POWER_OFF;
	case DMN_PM_ACTIVE:
		return s->kind == DMN_REPORT_POWER_ACTIVE || s->kind == DMN_REPORT_POWER_OPP;
	case DMN_PM_SUSPENDED:
		return s->kind == DMN_REPORT_POWER_SUSPENDED;
	default:
		return 0;
	}
}

/* The level a domain's `pstate LEVEL` or an `at DOMAIN LEVEL` names: a
 * number, or an entry of the table whose levels the domain takes. */
static int named_level(struct dmn_sim *sim, unsigned d, const char *name, unsigned line,
		       const struct dmn_power_model *pm, struct dmn_energy_diag *diag,
		       uint32_t *level)
{
	if (is_number(name)) {
		unsigned long v = strtoul(name, NULL, 10);
		*level = v > UINT32_MAX ? 0 : (uint32_t)v;
	} else {
		char why[DMN_ENERGY_DIAG_MESSAGE_MAX];
		int err = dmn__sim_find_level(sim, d, name, level, why, sizeof(why));
		if (err == -ENOMEM)
			return err;
		if (err)
			return bind_error(diag, pm, line, "%s", why);
	}
	const uint32_t *lv = &sim->energy->levels[sim->energy->level_first[d]];
	for (unsigned k = 0; k < domain_levels(sim, d); k++)
		if (lv[k] == *level)
			return 0;
	char list[200];
	list_states(sim, d, DMN_REPORT_POWER_ON, list, sizeof(list));
	return bind_error(diag, pm, line, "domain '%s' has no level %s (levels: %s)",
			  sim->board->domains[d].name, name, list);
}

/* `device NAME opp|rate X POWER at DOMAIN LEVEL`: a slot of its own for
 * entry slot @base of device @v while DOMAIN sits at LEVEL. */
static int at_level_slot(struct dmn_sim *sim, unsigned v, unsigned base,
			 const struct dmn_pm_line *l, const struct dmn_power_model *pm,
			 struct dmn_energy_diag *diag)
{
	struct dmn_sim_energy *e = sim->energy;
	unsigned part = e->n_domains + v;
	char why[DMN_ENERGY_DIAG_MESSAGE_MAX];
	int d = dmn__sim_find_domain(sim, l->at_domain, why, sizeof(why));
	if (d == -ENOMEM)
		return d;
	if (d < 0)
		return bind_error(diag, pm, l->line, "%s", why);
	if (!domain_levels(sim, (unsigned)d))
		return bind_error(diag, pm, l->line,
				  "domain '%s' has no performance levels of its own: an "
				  "entry's power cannot follow them",
				  sim->board->domains[d].name);
	uint32_t level;
	int err = named_level(sim, (unsigned)d, l->at_level, l->line, pm, diag, &level);
	if (err)
		return err;
	struct slot_info *b = slot_of(sim, part, base);
	if (b->depends >= 0 && b->depends != d)
		return bind_error(diag, pm, l->line,
				  "the power of %s's entry %s already follows domain '%s': "
				  "one domain an entry",
				  l->name, l->arg, sim->board->domains[b->depends].name);
	for (unsigned k = e->at_first[v]; k < e->at_first[v] + e->at_used[v]; k++) {
		struct slot_info *s = slot_of(sim, part, k);
		if (s->ref == b->ref && s->at_level == level)
			return bind_error(diag, pm, l->line,
					  "%s's entry %s at %s %s: already given at line %u",
					  l->name, l->arg, l->at_domain, l->at_level, s->line);
	}
	DMN_ASSERT(e->at_used[v] < e->meter.first[part + 1] - e->meter.first[part] -
					     e->at_first[v]);
	unsigned k = e->at_first[v] + e->at_used[v]++;
	struct slot_info *s = slot_of(sim, part, k);
	*s = *b;
	memset(s->seen, 0, sizeof(s->seen));
	s->why = NULL;
	s->depends = -1;
	s->at_domain = d;
	s->at_level = level;
	b->depends = d;
	return give(sim, part, k, RANK_STATE, l, pm, diag);
}

static int apply_line(struct dmn_sim *sim, const struct dmn_pm_line *l,
		      const struct dmn_power_model *pm, struct dmn_energy_diag *diag)
{
	const struct dmn_dt_board *b = sim->board;
	struct dmn_sim_energy *e = sim->energy;
	unsigned first = l->device ? b->n_domains : 0;
	unsigned count = l->device ? b->n_devices : b->n_domains;
	if (!strcmp(l->name, "*")) {
		for (unsigned p = first; p < first + count; p++)
			for (unsigned k = 0; k < e->meter.first[p + 1] - e->meter.first[p]; k++)
				if (covers(slot_of(sim, p, k), l->state)) {
					int err = give(sim, p, k, RANK_STAR, l, pm, diag);
					if (err)
						return err;
				}
		return 0;
	}
	char why[DMN_ENERGY_DIAG_MESSAGE_MAX];
	int i = l->device ? dmn__sim_find_device(sim, l->name, why, sizeof(why))
			  : dmn__sim_find_domain(sim, l->name, why, sizeof(why));
	if (i == -ENOMEM)
		return i;
	if (i < 0)
		return bind_error(diag, pm, l->line, "%s", why);
	unsigned part = first + (unsigned)i;
	unsigned slot = 0;
	int err = 0;
	switch (l->state) {
	case DMN_PM_PSTATE:
	case DMN_PM_OFF:
		err = domain_slot(sim, (unsigned)i, l, pm, diag, &slot);
		return err ? err : give(sim, part, slot, RANK_STATE, l, pm, diag);
	case DMN_PM_IDLE:
		if (l->arg) {
			err = domain_slot(sim, (unsigned)i, l, pm, diag, &slot);
			return err ? err : give(sim, part, slot, RANK_STATE, l, pm, diag);
		}
		if (!b->domains[i].n_idle_states)
			return bind_error(diag, pm, l->line,
					  "domain '%s' has no idle states: give 'off'",
					  b->domains[i].name);
		break;
	case DMN_PM_OPP:
	case DMN_PM_RATE:
		err = device_slot(sim, (unsigned)i, l, pm, diag, &slot);
		if (!err && l->at_domain)
			return at_level_slot(sim, (unsigned)i, slot, l, pm, diag);
		return err ? err : give(sim, part, slot, RANK_STATE, l, pm, diag);
	case DMN_PM_SUSPENDED:
		return give(sim, part, DEV_SUSPENDED, RANK_STATE, l, pm, diag);
	default:
		break;
	}
	/* on, idle without a state, active: the part as a whole */
	for (unsigned k = 0; k < e->meter.first[part + 1] - e->meter.first[part]; k++)
		if (covers(slot_of(sim, part, k), l->state) &&
		    (err = give(sim, part, k, RANK_PART, l, pm, diag)))
			return err;
	return 0;
}

/* ---- following the states ---------------------------------------------------- */

static bool level_before(const void *base, size_t i, const void *key)
{
	return ((const uint32_t *)base)[i] < *(const uint32_t *)key;
}

static unsigned domain_slot_now(struct dmn_sim *sim, unsigned d)
{
	struct dmn_domain_info info;
	unsigned n_lv = domain_levels(sim, d);
	if (dmn_domain_info(sim->ctx, sim->inst->domains[d], &info))
		return 0;
	if (info.on) {
		const uint32_t *lv = &sim->energy->levels[sim->energy->level_first[d]];
		size_t lo = dmn__lower_bound(n_lv, lv, &info.pstate, level_before);
		return lo < n_lv && lv[lo] == info.pstate ? 1 + (unsigned)lo : 0;
	}
	unsigned n_idle = sim->board->domains[d].n_idle_states;
	if (!n_idle)
		return 1 + n_lv;
	/* off always sits in an idle state where it has some; the deepest
	 * is where it starts */
	int idle = info.idle_state;
	return 1 + n_lv + (idle >= 0 && (unsigned)idle < n_idle ? (unsigned)idle : n_idle - 1);
}

static unsigned entry_slot_now(struct dmn_sim *sim, unsigned v)
{
	struct dmn_sim_device *sd = &sim->devs[v];
	dmn_device_t h = sim->inst->devices[v];
	struct dmn_device_info di;
	int active = sd->active || (!dmn_device_info(sim->ctx, h, &di) && di.usage > 0);
	if (!active)
		return DEV_SUSPENDED;
	const struct dmn_sim_energy *e = sim->energy;
	const struct id_slot *ids = &e->ids[e->id_first[v]];
	size_t n = e->id_first[v + 1] - e->id_first[v];
	if (!n)
		return DEV_ACTIVE;
	uint32_t id = DMN_OPP_ID_NONE;
	if (dmn_opp_device_current(sim->ctx, h, &id, NULL))
		id = DMN_OPP_ID_NONE;
	if (id != DMN_OPP_ID_NONE) {
		struct id_slot want = {id, 0};
		const struct id_slot *hit = bsearch(&want, ids, n, sizeof(*ids), by_id);
		if (hit)
			return hit->slot;
	}
	/* No entry selected (`rate DEV 0` leaves the clock where it was):
	 * the entry the clock runs at, if it is one. */
	if (sd->rate) {
		const struct dmn_dt_board *b = sim->board;
		const struct dmn_dt_opp_table *t = &b->opp_tables[b->devices[v].opp_table];
		unsigned part = b->n_domains + v;
		for (unsigned k = DEV_FIRST_OPP; k < DEV_FIRST_OPP + n; k++) {
			const struct dmn_dt_opp *o = &t->entries[slot_of(sim, part, k)->ref];
			if (o->n_hz && o->hz[0] == sd->rate)
				return k;
		}
	}
	return DEV_ACTIVE;
}

/* The device's slot: its entry's, or that entry's at the level its
 * domain sits at now where a line gives one (`at`). */
static unsigned device_slot_now(struct dmn_sim *sim, unsigned v)
{
	struct dmn_sim_energy *e = sim->energy;
	unsigned part = e->n_domains + v, slot = entry_slot_now(sim, v);
	const struct slot_info *s = slot_of(sim, part, slot);
	struct dmn_domain_info info;
	if (s->depends < 0 ||
	    dmn_domain_info(sim->ctx, sim->inst->domains[s->depends], &info) || !info.on)
		return slot;
	for (unsigned k = e->at_first[v]; k < e->at_first[v] + e->at_used[v]; k++) {
		const struct slot_info *a = slot_of(sim, part, k);
		if (a->ref == s->ref && a->at_level == info.pstate)
			return k;
	}
	return slot;
}

static void mark(struct dmn_sim_energy *e, unsigned part)
{
	if (e->dirty[part])
		return;
	e->dirty[part] = 1;
	e->todo[e->n_todo++] = part;
}

void dmn__sim_energy_domain_changed(struct dmn_sim *sim, unsigned domain)
{
	struct dmn_sim_energy *e = sim->energy;
	mark(e, domain);
	/* devices whose entry's power follows this domain's level */
	for (size_t k = e->dep_first[domain]; k < e->dep_first[domain + 1]; k++)
		mark(e, e->n_domains + e->dep_dev[k]);
}

void dmn__sim_energy_device_changed(struct dmn_sim *sim, unsigned device)
{
	/* its runtime-PM parents' use follows its own */
	for (int32_t v = (int32_t)device; v >= 0; v = sim->board->devices[v].parent)
		mark(sim->energy, sim->energy->n_domains + (unsigned)v);
}

void dmn__sim_energy_all_devices_changed(struct dmn_sim *sim)
{
	for (unsigned v = 0; v < sim->energy->n_devices; v++)
		mark(sim->energy, sim->energy->n_domains + v);
}

void dmn__sim_energy_flush(struct dmn_sim *sim)
{
	struct dmn_sim_energy *e = sim->energy;
	for (unsigned i = 0; i < e->n_todo; i++) {
		unsigned p = e->todo[i];
		e->dirty[p] = 0;
		unsigned slot = p < e->n_domains ? domain_slot_now(sim, p)
						 : device_slot_now(sim, p - e->n_domains);
		/* a lost step would leave the timeline wrong: the run ends
		 * with -ENOMEM, as for a lost event */
		if (dmn_energy_meter_move(&e->meter, p, slot, sim->now) == -ENOMEM)
			e->oom = sim->oom = 1;
	}
	e->n_todo = 0;
}

void dmn__sim_energy_free(struct dmn_sim *sim)
{
	struct dmn_sim_energy *e = sim->energy;
	if (!e)
		return;
	dmn_energy_meter_free(&e->meter);
	free(e->file);
	free(e->info);
	free(e->levels);
	free(e->level_first);
	free(e->ids);
	free(e->id_first);
	free(e->dirty);
	free(e->todo);
	free(e->initial);
	free(e->at_first);
	free(e->at_used);
	free(e->dep_first);
	free(e->dep_dev);
	free(e);
	sim->energy = NULL;
}

/* Per domain, the devices with an entry whose power follows its level
 * (`at`): a change of that level is a change of their power. 0 or -ENOMEM. */
static int build_dependents(struct dmn_sim *sim)
{
	struct dmn_sim_energy *e = sim->energy;
	unsigned *last = calloc(e->n_domains ? e->n_domains : 1, sizeof(*last));
	e->dep_first = calloc((size_t)e->n_domains + 1, sizeof(*e->dep_first));
	if (!last || !e->dep_first) {
		free(last);
		return -ENOMEM;
	}
	size_t n = 0;
	for (int pass = 0; pass < 2; pass++) {
		memset(last, 0, (e->n_domains ? e->n_domains : 1) * sizeof(*last));
		for (unsigned v = 0; v < e->n_devices; v++) {
			unsigned part = e->n_domains + v;
			for (unsigned k = 0; k < e->at_first[v]; k++) {
				int32_t d = slot_of(sim, part, k)->depends;
				if (d < 0 || last[d] == v + 1)
					continue;
				last[d] = v + 1;
				if (pass)
					e->dep_dev[e->dep_first[d + 1]++] = v;
				else
					e->dep_first[d + 1]++, n++;
			}
		}
		if (pass)
			break;
		/* counts to starts: dep_first[d + 1] is where d's run ends */
		for (unsigned d = 0; d < e->n_domains; d++)
			e->dep_first[d + 1] += e->dep_first[d];
		e->dep_dev = malloc((n ? n : 1) * sizeof(*e->dep_dev));
		if (!e->dep_dev) {
			free(last);
			return -ENOMEM;
		}
		for (unsigned d = e->n_domains; d > 0; d--)
			e->dep_first[d] = e->dep_first[d - 1];
		e->dep_first[0] = 0;
	}
	free(last);
	return 0;
}

int dmn_sim_energy(struct dmn_sim *sim, const struct dmn_power_model *pm,
		   struct dmn_energy_diag *diag)
{
	if (!sim)
		return -EINVAL;
	if (sim->energy)
		return -EBUSY;
	const struct dmn_dt_board *b = sim->board;
	unsigned n_parts = b->n_domains + b->n_devices;
	struct dmn_sim_energy *e = calloc(1, sizeof(*e));
	unsigned *n_slots = malloc((n_parts ? n_parts : 1) * sizeof(*n_slots));
	sim->energy = e;
	int err = -ENOMEM;
	if (!e || !n_slots)
		goto fail;
	e->n_domains = b->n_domains;
	e->n_devices = b->n_devices;
	e->start_ns = sim->now;
	if (pm && pm->file && !(e->file = strdup(pm->file)))
		goto fail;
	if (pm && !e->file && !(e->file = strdup("power model")))
		goto fail;
	e->dirty = calloc(n_parts ? n_parts : 1, 1);
	e->todo = malloc((n_parts ? n_parts : 1) * sizeof(*e->todo));
	e->at_first = calloc(b->n_devices ? b->n_devices : 1, sizeof(*e->at_first));
	e->at_used = calloc(b->n_devices ? b->n_devices : 1, sizeof(*e->at_used));
	if (!e->dirty || !e->todo || !e->at_first || !e->at_used ||
	    build_lookups(sim, n_slots))
		goto fail;
	/* `at` lines take slots of their own, after the device's entries */
	for (unsigned v = 0; v < b->n_devices; v++)
		e->at_first[v] = n_slots[b->n_domains + v];
	for (size_t k = 0; pm && k < pm->n_lines; k++) {
		const struct dmn_pm_line *l = &pm->lines[k];
		char why[DMN_ENERGY_DIAG_MESSAGE_MAX];
		if (!l->at_domain || !strcmp(l->name, "*"))
			continue;
		int v = dmn__sim_find_device(sim, l->name, why, sizeof(why));
		if (v == -ENOMEM)
			goto fail;
		if (v >= 0)
			n_slots[b->n_domains + (unsigned)v]++;
	}
	if (dmn_energy_meter_init(&e->meter, n_slots, n_parts, sim->now))
		goto fail;
	e->info = calloc(e->meter.n_slots ? e->meter.n_slots : 1, sizeof(*e->info));
	if (!e->info)
		goto fail;
	for (size_t s = 0; s < e->meter.n_slots; s++) {
		e->meter.slots[s].known = 0; /* until a source gives it */
		e->info[s].ref = e->info[s].depends = e->info[s].at_domain = -1;
	}
	describe_slots(sim);
	for (size_t k = 0; pm && k < pm->n_lines; k++)
		if ((err = apply_line(sim, &pm->lines[k], pm, diag)))
			goto fail;
	for (size_t s = 0; s < e->meter.n_slots; s++)
		e->meter.slots[s].known = e->info[s].rank != RANK_NONE;
	err = -ENOMEM;
	if (build_dependents(sim))
		goto fail;
	/* every part to its state now, and count from here */
	for (unsigned p = 0; p < n_parts; p++)
		mark(e, p);
	dmn__sim_energy_flush(sim);
	dmn_energy_meter_restart(&e->meter, sim->now);
	e->initial = malloc((n_parts ? n_parts : 1) * sizeof(*e->initial));
	err = -ENOMEM;
	if (!e->initial)
		goto fail;
	memcpy(e->initial, e->meter.at, n_parts * sizeof(*e->initial));
	free(n_slots);
	return 0;
fail:
	free(n_slots);
	dmn__sim_energy_free(sim);
	return err;
}

/* ---- the report ---------------------------------------------------------------- */

static const char *state_name(const struct dmn_sim *sim, unsigned part,
			      const struct slot_info *s)
{
	const struct dmn_dt_board *b = sim->board;
	if (s->ref < 0)
		return NULL;
	if (s->kind == DMN_REPORT_POWER_IDLE)
		return dmn__sim_idle_name(sim, part, (int)s->ref);
	const struct dmn_dt_opp_table *t =
	    part < b->n_domains ? &b->opp_tables[b->domains[part].opp_table]
				: &b->opp_tables[b->devices[part - b->n_domains].opp_table];
	const struct dmn_dt_opp *o = &t->entries[s->ref];
	/* a level is known by its label (rpmhpd_opp_svs), an entry by its
	 * node name (opp-300000000), as scenarios and summary call them */
	return s->kind == DMN_REPORT_POWER_ON && o->label ? o->label : o->name;
}

/* The label of level @level in domain @d's own table (its first entry). */
static const char *level_label(const struct dmn_sim *sim, unsigned d, uint32_t level)
{
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_opp_table *t = &b->opp_tables[b->domains[d].opp_table];
	for (unsigned k = 0; k < t->n_entries; k++)
		if (t->entries[k].available && t->entries[k].has_level &&
		    t->entries[k].level == level)
			return t->entries[k].label ? t->entries[k].label : t->entries[k].name;
	return NULL;
}

int dmn__sim_energy_report(struct dmn_sim *sim, int with_times)
{
	struct dmn_sim_energy *e = sim->energy;
	struct dmn_sim_report_store *st = &sim->report;
	const struct dmn_dt_board *b = sim->board;
	unsigned n_parts = e->meter.n_parts;
	if (e->oom)
		return -ENOMEM;
	size_t n_steps = with_times ? n_parts + e->meter.n_steps : 0;
	st->energy_parts = calloc(n_parts ? n_parts : 1, sizeof(*st->energy_parts));
	st->power_states = calloc(e->meter.n_slots ? e->meter.n_slots : 1,
				  sizeof(*st->power_states));
	st->power_steps = malloc((n_steps ? n_steps : 1) * sizeof(*st->power_steps));
	if (!st->energy_parts || !st->power_states || !st->power_steps)
		return -ENOMEM;
	if (with_times)
		dmn_energy_meter_close(&e->meter, sim->now);
	struct dmn_report_energy *r = &st->energy;
	memset(r, 0, sizeof(*r));
	r->power_model = e->file;
	r->parts = st->energy_parts;
	r->n_parts = n_parts;
	r->n_domain_parts = e->n_domains;
	r->has_times = with_times;
	r->start_ns = e->start_ns;
	for (unsigned p = 0; p < n_parts; p++) {
		struct dmn_report_energy_part *part = &st->energy_parts[p];
		part->device = p >= e->n_domains;
		part->name = part->device ? b->devices[p - e->n_domains].name
					  : b->domains[p].name;
		part->states = &st->power_states[e->meter.first[p]];
		part->n_states = (unsigned)(e->meter.first[p + 1] - e->meter.first[p]);
		for (size_t k = e->meter.first[p]; k < e->meter.first[p + 1]; k++) {
			const struct slot_info *s = &e->info[k];
			const struct dmn_energy_slot *ms = &e->meter.slots[k];
			struct dmn_report_power_state *ps = &st->power_states[k];
			ps->kind = (enum dmn_report_power_kind)s->kind;
			ps->name = state_name(sim, p, s);
			ps->has_level = s->has_level;
			ps->level = s->level;
			if (s->kind == DMN_REPORT_POWER_OPP) {
				const struct dmn_dt_opp *o =
				    &b->opp_tables[b->devices[p - e->n_domains].opp_table]
					 .entries[s->ref];
				ps->hz = o->n_hz ? o->hz[0] : 0;
			}
			if (s->at_domain >= 0) {
				ps->at_domain = b->domains[s->at_domain].name;
				ps->at_level = s->at_level;
				ps->at_level_name = level_label(sim, (unsigned)s->at_domain,
								s->at_level);
			}
			ps->known = ms->known;
			ps->power_uw = ms->known ? ms->uw : 0;
			ps->source = (enum dmn_report_power_source)s->source;
			ps->line = s->line;
			ps->why = s->why;
			if (!with_times)
				continue;
			ps->time_ns = ms->time_ns;
			ps->energy = dmn_energy_slot_energy(ms);
			dmn_energy_add(&part->energy, ps->energy);
			if (s->kind != DMN_REPORT_POWER_IDLE && s->kind != DMN_REPORT_POWER_OFF &&
			    s->kind != DMN_REPORT_POWER_SUSPENDED)
				part->time_on_ns += ms->time_ns;
			if (!ms->known)
				part->unknown_ns += ms->time_ns;
		}
		dmn_energy_add(&r->total, part->energy);
		r->lower_bound |= part->unknown_ns > 0;
	}
	if (!with_times)
		return 0;
	struct dmn_report_power_step *out = st->power_steps;
	for (unsigned p = 0; p < n_parts; p++) {
		const struct dmn_energy_slot *ms = &e->meter.slots[e->initial[p]];
		out[p] = (struct dmn_report_power_step){e->start_ns, p, ms->known ? ms->uw : 0,
							ms->known};
	}
	for (size_t i = 0; i < e->meter.n_steps; i++) {
		const struct dmn_energy_step *m = &e->meter.steps[i];
		const struct dmn_energy_slot *ms =
		    &e->meter.slots[e->meter.first[m->part] + m->slot];
		out[n_parts + i] = (struct dmn_report_power_step){
		    m->time_ns, m->part, ms->known ? ms->uw : 0, ms->known};
	}
	r->steps = out;
	r->n_steps = (unsigned)n_steps;
	return 0;
}
