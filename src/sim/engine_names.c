/* SPDX-License-Identifier: MIT */
/*
 * What the names of a scenario stand for on a board: devices, domains (also
 * as DEV:NAME, the consumer's `power-domain-names` entry) and pstate levels
 * by OPP entry name. Each look-up that fails says why, with a "did you
 * mean" where a candidate is close.
 */
#include "engine_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends to a bounded message; a full buffer just stops growing. */
struct msg {
	char *buf;
	size_t size, used;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
msg_add(struct msg *m, const char *fmt, ...)
{
	if (m->used >= m->size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(m->buf + m->used, m->size - m->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->used += (size_t)n;
}

/* "unknown device 'x'; did you mean 'y'?" over the board's names */
static int unknown(struct msg *m, const char *what, const char *name,
		   dmn_scn_name_fn name_at, const struct dmn_dt_board *b, size_t n)
{
	const char *hint = dmn_scn_suggest_fn(name, name_at, (void *)b, n);
	msg_add(m, "unknown %s '%s'", what, name);
	if (hint)
		msg_add(m, "; did you mean '%s'?", hint);
	return -ENOENT;
}

/* Suggestions for devices come from every name: the @i-th of each
 * device's name followed by its other labels. A walk per call is fine
 * for the hundred or so devices of a board. */
static const char *device_name_at(void *user, size_t i)
{
	const struct dmn_dt_board *b = user;
	for (unsigned d = 0; d < b->n_devices; d++) {
		const struct dmn_dt_device *dev = &b->devices[d];
		size_t n = dev->n_labels > 1 ? dev->n_labels : 1;
		if (i < n)
			return i ? dev->labels[i] : dev->name;
		i -= n;
	}
	return NULL;
}

static size_t device_names(const struct dmn_dt_board *b)
{
	size_t n = 0;
	for (unsigned d = 0; d < b->n_devices; d++)
		n += b->devices[d].n_labels > 1 ? b->devices[d].n_labels : 1;
	return n;
}

static const char *domain_name_at(void *user, size_t i)
{
	return ((const struct dmn_dt_board *)user)->domains[i].name;
}

/* The name a device's @i-th domain goes by in the `via` column. */
static const char *attachment_name(const struct dmn_dt_board *b,
				   const struct dmn_dt_device *d, unsigned i)
{
	const struct dmn_dt_attachment *a = &d->attachments[i];
	return a->name ? a->name : b->domains[a->domain].name;
}

static const char *attachment_name_at(void *user, size_t i)
{
	const struct dmn_sim *sim = user;
	const struct dmn_dt_device *d = &sim->board->devices[sim->names_device];
	return attachment_name(sim->board, d, (unsigned)i);
}

void dmn__sim_attachment_names(const struct dmn_sim *sim, int device, char *buf,
			  size_t size)
{
	const struct dmn_dt_device *d = &sim->board->devices[device];
	struct msg m = {buf, size, 0};
	buf[0] = '\0';
	for (unsigned i = 0; i < d->n_attachments; i++)
		msg_add(&m, "%s%s", i ? ", " : "",
			attachment_name(sim->board, d, i));
}

int dmn__sim_find_attachment(struct dmn_sim *sim, int device, const char *name,
			char *why, size_t size)
{
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_device *d = &b->devices[device];
	for (unsigned i = 0; i < d->n_attachments; i++) {
		const struct dmn_dt_attachment *a = &d->attachments[i];
		if ((a->name && !strcmp(a->name, name)) ||
		    !strcmp(b->domains[a->domain].name, name))
			return (int)i;
	}
	struct msg m = {why, size, 0};
	msg_add(&m, "device '%s' has no domain '%s'", d->name, name);
	sim->names_device = device;
	const char *hint =
	    dmn_scn_suggest_fn(name, attachment_name_at, sim, d->n_attachments);
	char names[200];
	dmn__sim_attachment_names(sim, device, names, sizeof(names));
	msg_add(&m, " (%s)", names);
	if (hint)
		msg_add(&m, "; did you mean '%s'?", hint);
	return -ENOENT;
}

int dmn__sim_find_device(struct dmn_sim *sim, const char *name, char *why, size_t size)
{
	const struct dmn_dt_board *b = sim->board;
	int i = dmn_dt_device_find(b, name);
	if (i >= 0)
		return i;
	struct msg m = {why, size, 0};
	if (i == -EEXIST) {
		/* Which devices share it: their names tell them apart. */
		size_t len = strlen(name);
		unsigned shown = 0;
		msg_add(&m, "device name '%s' is shared by several devices (",
			name);
		for (unsigned k = 0; k < b->n_devices; k++) {
			const char *n = b->devices[k].node_name;
			if (strncmp(n, name, len) || (n[len] && n[len] != '@'))
				continue;
			msg_add(&m, "%s%s", shown++ ? ", " : "",
				b->devices[k].name);
		}
		msg_add(&m, "); use its label or full path");
		return -EEXIST;
	}
	return unknown(&m, "device", name, device_name_at, b, device_names(b));
}

int dmn__sim_find_domain(struct dmn_sim *sim, const char *name, char *why, size_t size)
{
	const struct dmn_dt_board *b = sim->board;
	int i = dmn_dt_domain_find(b, name);
	if (i >= 0)
		return i;
	if (i == -EEXIST) {
		snprintf(why, size,
			 "domain name '%s' is shared by several domains; use "
			 "its label or full path",
			 name);
		return -EEXIST;
	}
	/* DEV:NAME, as the `via` column shows a consumer's domain. */
	const char *colon = strrchr(name, ':');
	if (colon && colon != name && colon[1]) {
		char dev[256];
		size_t len = (size_t)(colon - name);
		if (len < sizeof(dev)) {
			memcpy(dev, name, len);
			dev[len] = '\0';
			int d = dmn_dt_device_find(b, dev);
			if (d >= 0) {
				int a = dmn__sim_find_attachment(sim, d, colon + 1,
							    why, size);
				return a < 0 ? a
					     : b->devices[d]
						   .attachments[a]
						   .domain;
			}
			/* `venuss:mx`: the device part is misspelt. */
			const char *hint = dmn_scn_suggest_fn(
			    dev, device_name_at, (void *)b, device_names(b));
			int h = hint ? dmn_dt_device_find(b, hint) : -1;
			if (h >= 0 && dmn__sim_find_attachment(sim, h, colon + 1,
							  why, size) >= 0) {
				snprintf(why, size,
					 "unknown domain '%s'; did you mean "
					 "'%s:%s'?",
					 name, hint, colon + 1);
				return -ENOENT;
			}
		}
	}
	struct msg m = {why, size, 0};
	return unknown(&m, "domain", name, domain_name_at, b, b->n_domains);
}

/* ---- levels by name
 * ---------------------------------------------------------- */

static int entry_called(const struct dmn_dt_opp *e, const char *name)
{
	if (!e->has_level)
		return 0;
	if (e->name && !strcmp(e->name, name))
		return 1;
	for (unsigned i = 0; i < e->n_labels; i++)
		if (!strcmp(e->labels[i], name))
			return 1;
	return e->label && !strcmp(e->label, name);
}

/* The table whose levels @domain takes: its own, else the nearest
 * ancestor's (a domain without one passes its level up 1:1). -1 if none,
 * -2 on -ENOMEM. Parents are searched in link order, depth first, each
 * domain once (a DAG walked without memory is exponential) and with an
 * explicit stack (chains are as deep as the board is large). */
static int32_t level_table(const struct dmn_dt_board *b, unsigned domain)
{
	if (b->domains[domain].opp_table >= 0)
		return b->domains[domain].opp_table;
	struct frame {
		unsigned dom, next;
	} *stack = malloc(b->n_domains * sizeof(*stack));
	unsigned char *seen = calloc(b->n_domains, 1);
	int32_t found = stack && seen ? -1 : -2;
	unsigned sp = 0;
	if (found == -1) {
		stack[sp++] = (struct frame){domain, 0};
		seen[domain] = 1;
	}
	while (sp && found == -1) {
		struct frame *top = &stack[sp - 1];
		const struct dmn_dt_domain *d = &b->domains[top->dom];
		if (top->next == d->n_parents) {
			sp--;
			continue;
		}
		unsigned p = (unsigned)d->parents[top->next++];
		if (seen[p])
			continue;
		seen[p] = 1;
		if (b->domains[p].opp_table >= 0)
			found = b->domains[p].opp_table;
		else
			stack[sp++] = (struct frame){p, 0};
	}
	free(stack);
	free(seen);
	return found;
}

static const char *table_level_name(const struct dmn_dt_opp *e)
{
	return e->label ? e->label : e->name;
}

static const char *level_name_at(void *user, size_t i)
{
	const struct dmn_dt_opp *e =
	    &((const struct dmn_dt_opp_table *)user)->entries[i];
	return e->has_level ? table_level_name(e) : NULL;
}

int dmn__sim_find_level(const struct dmn_sim *sim, unsigned domain, const char *name,
		   uint32_t *level, char *why, size_t size)
{
	const struct dmn_dt_board *b = sim->board;
	const struct dmn_dt_domain *d = &b->domains[domain];
	struct msg m = {why, size, 0};
	int32_t t = level_table(b, domain);
	if (t == -2) {
		msg_add(&m, "out of memory looking up level '%s'", name);
		return -ENOMEM;
	}
	if (t < 0) {
		msg_add(&m,
			"domain '%s' has no OPP table (nor have its "
			"parents), so its levels have no names; give '%s' "
			"as a number",
			d->name, name);
		return -ENOENT;
	}
	const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
	for (unsigned i = 0; i < tab->n_entries; i++)
		if (entry_called(&tab->entries[i], name)) {
			*level = tab->entries[i].level;
			return 0;
		}
	msg_add(&m, "domain '%s' has no level '%s'", d->name, name);
	const char *hint =
	    dmn_scn_suggest_fn(name, level_name_at, (void *)tab, tab->n_entries);
	if (hint) {
		msg_add(&m, "; did you mean '%s'?", hint);
		return -ENOENT;
	}
	unsigned shown = 0;
	for (unsigned i = 0; i < tab->n_entries; i++)
		if (tab->entries[i].has_level)
			msg_add(&m, "%s%s", shown++ ? ", " : " (levels: ",
				table_level_name(&tab->entries[i]));
	msg_add(&m, "%s", shown ? ")" : "");
	return -ENOENT;
}
