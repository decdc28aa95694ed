/* SPDX-License-Identifier: MIT */
/* SCMI Performance protocol 0x13, version 3.0 (and 2.0: without names
 * beyond 15 bytes, power in uW and version negotiation). */
#include "scmi_internal.h"

#define ATTR_POWER_MW (1u << 16)
#define ATTR_POWER_UW (1u << 17)
#define DOM_SET_LIMITS (1u << 31)
#define DOM_SET_LEVEL (1u << 30)
#define DOM_NOTIFY_LIMITS (1u << 29)
#define DOM_NOTIFY_LEVEL (1u << 28)
#define DOM_EXT_NAME (1u << 26)
#define LEVEL_ENTRY_BYTES 12u
#define DESCRIBE_MAX_RETURNED 0xfffu
#define DESCRIBE_MAX_REMAINING 0xffffu

/* 0 -> L: store the vote while suspended (it is checked there: -ERANGE),
 * then resume, which raises and powers on as one transaction. L -> 0: the
 * inverse, both in the safe direction. L1 -> L2: a plain vote. */
int dmn__scmi_perf_apply(struct dmn_scmi_server *s, struct scmi__agent *a, unsigned dom,
		     uint32_t target)
{
	DMN_ASSERT(dom < s->n_perf && "the command checked the domain");
	struct scmi__perf_slot *p = &a->perf[dom];
	if (!p->dev || p->applied == target)
		return 0;
	int err;
	if (!p->applied) {
		err = dmn_vote(s->ctx, p->att, target);
		if (err)
			return err;
		err = dmn_device_get(s->ctx, p->dev);
		if (err) {
			dmn_vote(s->ctx, p->att, 0);
			return err;
		}
	} else if (!target) {
		err = dmn_device_put(s->ctx, p->dev);
		if (err)
			return err;
		dmn_vote(s->ctx, p->att, 0);
	} else {
		err = dmn_vote(s->ctx, p->att, target);
		if (err)
			return err;
	}
	p->applied = target;
	return 0;
}

static uint32_t clamp(const struct scmi__perf_dom *d, uint32_t request)
{
	if (!request)
		return 0;
	if (request < d->eff_min)
		return d->eff_min;
	if (request > d->eff_max)
		return d->eff_max;
	return request;
}

/* Whether agent @a reads power in uW (version 3.0, a board that has it). */
static int uw(const struct dmn_scmi_server *s, const struct scmi__agent *a)
{
	return s->perf_uw && scmi__newer(a, SLOT_PERF);
}

static int32_t perf_attributes(struct dmn_scmi_server *s, struct scmi__agent *a,
			       const uint8_t *pl, struct scmi__reply *r)
{
	(void)pl;
	scmi__add32(r, (uw(s, a) ? ATTR_POWER_UW : ATTR_POWER_MW) | s->n_perf);
	scmi__add32(r, 0); /* no statistics shared memory */
	scmi__add32(r, 0);
	scmi__add32(r, 0);
	return DMN_SCMI_SUCCESS;
}

static int32_t perf_message_attributes(struct dmn_scmi_server *s,
				       struct scmi__agent *a, const uint8_t *pl,
				       struct scmi__reply *r)
{
	return dmn__scmi_message_attributes(s, a, &dmn__scmi_perf, pl, r);
}

static int32_t domain_attributes(struct dmn_scmi_server *s, struct scmi__agent *a,
				 const uint8_t *pl, struct scmi__reply *r)
{
	uint32_t dom = scmi__get32(pl);
	if (dom >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	const struct scmi__perf_dom *d = &s->perf[dom];
	uint32_t flags = DOM_NOTIFY_LIMITS | DOM_NOTIFY_LEVEL;
	if (a->perf[dom].dev)
		flags |= DOM_SET_LIMITS | DOM_SET_LEVEL;
	if (scmi__newer(a, SLOT_PERF) && s->ext_names &&
	    d->ext_name[DMN_SCMI_NAME_SIZE - 1])
		flags |= DOM_EXT_NAME;
	scmi__add32(r, flags);
	scmi__add32(r, 0); /* rate limit: none */
	scmi__add32(r, 0); /* sustained frequency: levels are not kHz */
	scmi__add32(r, d->levels[d->n_levels - 1].level);
	scmi__add_name(r, d->name);
	return DMN_SCMI_SUCCESS;
}

static int32_t describe_levels(struct dmn_scmi_server *s, struct scmi__agent *a,
			       const uint8_t *pl, struct scmi__reply *r)
{
	int in_uw = uw(s, a);
	uint32_t dom = scmi__get32(pl), first = scmi__get32(pl + 4);
	if (dom >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	const struct scmi__perf_dom *d = &s->perf[dom];
	if (first >= d->n_levels)
		return DMN_SCMI_INVALID_PARAMETERS;
	uint32_t left = d->n_levels - first;
	size_t fit = (r->cap - r->len - 4) / LEVEL_ENTRY_BYTES;
	/* num_levels: bits 11:0 returned, 31:16 remaining. A reply never
	 * holds more than 4,095 levels (--max-msg allows 5,460), and a
	 * domain of more than 65,535 further levels says 65,535: the agent
	 * asks again while any remain. */
	if (fit > DESCRIBE_MAX_RETURNED)
		fit = DESCRIBE_MAX_RETURNED;
	uint32_t n = left < fit ? left : (uint32_t)fit;
	uint32_t remaining = left - n < DESCRIBE_MAX_REMAINING
				 ? left - n
				 : DESCRIBE_MAX_REMAINING;
	scmi__add32(r, remaining << 16 | n);
	for (uint32_t k = 0; k < n; k++) {
		const struct dmn_scmi_perf_level *l = &d->levels[first + k];
		scmi__add32(r, l->level);
		scmi__add32(r, in_uw ? l->power_uw : l->power_cost);
		scmi__add32(r, l->latency_us);
	}
	return DMN_SCMI_SUCCESS;
}

static void effective_range(const struct dmn_scmi_server *s, unsigned dom,
			    uint32_t *min, uint32_t *max)
{
	DMN_ASSERT(dom < s->n_perf);
	const struct scmi__perf_dom *d = &s->perf[dom];
	DMN_ASSERT(d->n_levels >= 1 && "check_config refuses a domain without levels");
	uint32_t lo = d->levels[0].level, hi = d->levels[d->n_levels - 1].level;
	for (unsigned i = 0; i < s->n_agents; i++) {
		const struct scmi__perf_slot *p = &s->agents[i].perf[dom];
		if (p->min > lo)
			lo = p->min;
		if (p->max < hi)
			hi = p->max;
	}
	*min = lo < hi ? lo : hi;
	*max = hi;
}

/* Apply agent @i's request clamped to the effective range if that moves
 * its vote up (@up) or down (!@up); else nothing. */
static int move(struct dmn_scmi_server *s, unsigned dom, unsigned i, int up)
{
	struct scmi__agent *b = &s->agents[i];
	uint32_t t = clamp(&s->perf[dom], b->perf[dom].request);
	uint32_t now = b->perf[dom].applied;
	if (up ? t <= now : t >= now)
		return 0;
	return dmn__scmi_perf_apply(s, b, dom, t);
}

/* Every agent's level applied again, clamped to the new effective range:
 * the raises, then the lowerings (which cannot fail for a callback's sake,
 * docs/semantics.md, Failures). Each is a vote of its own, so the highest
 * raise goes first and the lowering of the highest level last: the others
 * move nothing, and the domain changes level at most once (one pstate call
 * per command, docs/semantics.md, Ordering; an agent sees one
 * LEVEL_CHANGED, never a level in between).
 * A failed raise undoes the raises in reverse order. */
static int reapply(struct dmn_scmi_server *s, unsigned dom)
{
	const struct scmi__perf_dom *d = &s->perf[dom];
	unsigned n = s->n_agents, top = n, low = n;
	DMN_ASSERT(dom < s->n_perf);
	for (unsigned i = 0; i < n; i++) {
		const struct scmi__perf_slot *p = &s->agents[i].perf[dom];
		uint32_t t = clamp(d, p->request);
		s->scratch[i] = p->applied;
		if (t > p->applied &&
		    (top == n || t > clamp(d, s->agents[top].perf[dom].request)))
			top = i;
		if (t < p->applied &&
		    (low == n || p->applied > s->agents[low].perf[dom].applied))
			low = i;
	}
	int err = top < n ? move(s, dom, top, 1) : 0;
	for (unsigned i = 0; i < n && !err; i++)
		if (i != top)
			err = move(s, dom, i, 1);
	if (err) {
		for (unsigned i = n; i-- > 0;)
			if (i != top)
				dmn__scmi_perf_apply(s, &s->agents[i], dom,
						     s->scratch[i]);
		if (top < n)
			dmn__scmi_perf_apply(s, &s->agents[top], dom,
					     s->scratch[top]);
		return err;
	}
	for (unsigned i = 0; i < n; i++)
		if (i != low)
			move(s, dom, i, 0);
	if (low < n)
		move(s, dom, low, 0);
	return 0;
}

static int32_t limits_set(struct dmn_scmi_server *s, struct scmi__agent *a,
			  const uint8_t *pl, struct scmi__reply *r)
{
	(void)r;
	uint32_t dom = scmi__get32(pl), max = scmi__get32(pl + 4),
		 min = scmi__get32(pl + 8);
	if (dom >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	struct scmi__perf_dom *d = &s->perf[dom];
	struct scmi__perf_slot *p = &a->perf[dom];
	if (!p->dev)
		return DMN_SCMI_DENIED;
	if (min > max)
		return DMN_SCMI_INVALID_PARAMETERS;
	if (min < d->levels[0].level || max > d->levels[d->n_levels - 1].level)
		return DMN_SCMI_OUT_OF_RANGE;
	uint32_t old_min = p->min, old_max = p->max;
	uint32_t old_eff_min = d->eff_min, old_eff_max = d->eff_max;
	p->min = min;
	p->max = max;
	effective_range(s, dom, &d->eff_min, &d->eff_max);
	if (d->eff_min == old_eff_min && d->eff_max == old_eff_max)
		return DMN_SCMI_SUCCESS;
	/* The cause of a level change is now the limit, not an agent's
	 * request (LEVEL_CHANGED names agent 0: docs/scmi.md, Messages). */
	dmn__scmi_note(s, NOTE_LIMITS, a->id, dom, d->eff_max, d->eff_min);
	s->level_agent = 0;
	int err = reapply(s, dom);
	if (err) {
		p->min = old_min;
		p->max = old_max;
		d->eff_min = old_eff_min;
		d->eff_max = old_eff_max;
	}
	return dmn__scmi_status_of(err);
}

static int32_t limits_get(struct dmn_scmi_server *s, struct scmi__agent *a,
			  const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	uint32_t dom = scmi__get32(pl);
	if (dom >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	scmi__add32(r, s->perf[dom].eff_max);
	scmi__add32(r, s->perf[dom].eff_min);
	return DMN_SCMI_SUCCESS;
}

/* Level 0 withdraws the agent's request (domino's extension: SCMI has no
 * "no request", and a vote must be droppable for the domain to go off). */
static int32_t level_set(struct dmn_scmi_server *s, struct scmi__agent *a,
			 const uint8_t *pl, struct scmi__reply *r)
{
	(void)r;
	uint32_t dom = scmi__get32(pl), level = scmi__get32(pl + 4);
	if (dom >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	struct scmi__perf_slot *p = &a->perf[dom];
	if (!p->dev)
		return DMN_SCMI_DENIED;
	if (level && (level < p->min || level > p->max))
		return DMN_SCMI_OUT_OF_RANGE;
	uint32_t old = p->request;
	p->request = level;
	int err = dmn__scmi_perf_apply(s, a, dom, clamp(&s->perf[dom], level));
	if (err)
		p->request = old;
	return dmn__scmi_status_of(err);
}

static int32_t level_get(struct dmn_scmi_server *s, struct scmi__agent *a,
			 const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	uint32_t dom = scmi__get32(pl);
	if (dom >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	struct dmn_domain_info info;
	int err = dmn_domain_info(s->ctx, s->perf[dom].domain, &info);
	if (err)
		return dmn__scmi_status_of(err);
	scmi__add32(r, info.pstate);
	return DMN_SCMI_SUCCESS;
}

static int32_t notify(struct dmn_scmi_server *s, const uint8_t *pl, uint8_t *bits)
{
	uint32_t dom = scmi__get32(pl), enable = scmi__get32(pl + 4);
	if (dom >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	if (enable & ~1u)
		return DMN_SCMI_INVALID_PARAMETERS;
	scmi__set_bit(bits, dom, (int)enable);
	return DMN_SCMI_SUCCESS;
}

static int32_t notify_limits(struct dmn_scmi_server *s, struct scmi__agent *a,
			     const uint8_t *pl, struct scmi__reply *r)
{
	(void)r;
	return notify(s, pl, a->notify_limits);
}

static int32_t notify_level(struct dmn_scmi_server *s, struct scmi__agent *a,
			    const uint8_t *pl, struct scmi__reply *r)
{
	(void)r;
	return notify(s, pl, a->notify_level);
}

/* Fast channels are shared memory; a socket transport has none. */
static int32_t describe_fastchannel(struct dmn_scmi_server *s,
				    struct scmi__agent *a, const uint8_t *pl,
				    struct scmi__reply *r)
{
	(void)a;
	(void)r;
	if (scmi__get32(pl) >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	return DMN_SCMI_NOT_SUPPORTED;
}

static int32_t name_get(struct dmn_scmi_server *s, struct scmi__agent *a,
			const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	uint32_t dom = scmi__get32(pl);
	if (dom >= s->n_perf)
		return DMN_SCMI_NOT_FOUND;
	return dmn__scmi_name_get(s->perf[dom].ext_name, r);
}

static const struct scmi__message messages[] = {
    [0x0] = {dmn__scmi_version, 0, 0},	     /* PROTOCOL_VERSION */
    [0x1] = {perf_attributes, 0, 0},	     /* PROTOCOL_ATTRIBUTES */
    [0x2] = {perf_message_attributes, 4, 0}, /* PROTOCOL_MESSAGE_ATTRIBUTES */
    [0x3] = {domain_attributes, 4, 0},	     /* PERFORMANCE_DOMAIN_ATTRIBUTES */
    [0x4] = {describe_levels, 8, 0},	     /* PERFORMANCE_DESCRIBE_LEVELS */
    [0x5] = {limits_set, 12, 0},	     /* PERFORMANCE_LIMITS_SET */
    [0x6] = {limits_get, 4, 0},		     /* PERFORMANCE_LIMITS_GET */
    [0x7] = {level_set, 8, 0},		     /* PERFORMANCE_LEVEL_SET */
    [0x8] = {level_get, 4, 0},		     /* PERFORMANCE_LEVEL_GET */
    [0x9] = {notify_limits, 8, 0},	     /* PERFORMANCE_NOTIFY_LIMITS */
    [0xA] = {notify_level, 8, 0},	     /* PERFORMANCE_NOTIFY_LEVEL */
    [0xB] = {describe_fastchannel, 8, 0}, /* PERFORMANCE_DESCRIBE_FASTCHANNEL */
    /* PERFORMANCE_DOMAIN_NAME_GET, newer versions only */
    [0xC] = {name_get, 4, MSG_NEWER | MSG_NAME},
    /* NEGOTIATE_PROTOCOL_VERSION, newer versions only */
    [0x10] = {dmn__scmi_negotiate, 4, MSG_NEWER},
};

const struct scmi__protocol dmn__scmi_perf = {
    DMN_SCMI_PROTOCOL_PERF, SLOT_PERF, DMN_SCMI_PERF_VERSION, messages,
    sizeof(messages) / sizeof(*messages)};
