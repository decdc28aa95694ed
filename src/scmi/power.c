/* SPDX-License-Identifier: MIT */
/* SCMI Power Domain protocol 0x11, version 3.0 (and 2.0: without names
 * beyond 15 bytes and without version negotiation). */
#include "scmi_internal.h"

#define POWER_SET_ASYNC (1u << 0)
#define ATTR_NOTIFY (1u << 31)
#define ATTR_ASYNC (1u << 30)
#define ATTR_SYNC (1u << 29)
#define ATTR_EXT_NAME (1u << 27)

int dmn__scmi_power_set(struct dmn_scmi_server *s, struct scmi__agent *a, unsigned dom,
		    int on)
{
	DMN_ASSERT(dom < s->n_power && "the command checked the domain");
	struct scmi__power_slot *p = &a->power[dom];
	if (!p->dev || p->on == on)
		return 0;
	/* get is a transaction (a failed power-on changes nothing); put
	 * fails only for bookkeeping reasons, never for a callback. */
	int err =
	    on ? dmn_device_get(s->ctx, p->dev) : dmn_device_put(s->ctx, p->dev);
	if (!err)
		p->on = (uint8_t)on;
	return err;
}

static int32_t power_attributes(struct dmn_scmi_server *s, struct scmi__agent *a,
				const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	(void)pl;
	scmi__add32(r, s->n_power); /* 15:0 domains */
	scmi__add32(r, 0);	    /* no statistics shared memory */
	scmi__add32(r, 0);
	scmi__add32(r, 0);
	return DMN_SCMI_SUCCESS;
}

static int32_t power_message_attributes(struct dmn_scmi_server *s,
					struct scmi__agent *a,
					const uint8_t *pl,
					struct scmi__reply *r)
{
	return dmn__scmi_message_attributes(s, a, &dmn__scmi_power, pl, r);
}

/* Per calling agent: sync/async set only where it may act. */
static int32_t domain_attributes(struct dmn_scmi_server *s, struct scmi__agent *a,
				 const uint8_t *pl, struct scmi__reply *r)
{
	uint32_t dom = scmi__get32(pl);
	if (dom >= s->n_power)
		return DMN_SCMI_NOT_FOUND;
	uint32_t flags = ATTR_NOTIFY;
	if (a->power[dom].dev)
		flags |= ATTR_ASYNC | ATTR_SYNC;
	if (scmi__newer(a, SLOT_POWER) && s->ext_names &&
	    s->power_ext[dom][DMN_SCMI_NAME_SIZE - 1])
		flags |= ATTR_EXT_NAME;
	scmi__add32(r, flags);
	scmi__add_name(r, s->power_names[dom]);
	return DMN_SCMI_SUCCESS;
}

static int32_t state_set(struct dmn_scmi_server *s, struct scmi__agent *a,
			 const uint8_t *pl, struct scmi__reply *r)
{
	(void)r;
	uint32_t flags = scmi__get32(pl), dom = scmi__get32(pl + 4),
		 state = scmi__get32(pl + 8);
	if (flags & ~POWER_SET_ASYNC)
		return DMN_SCMI_INVALID_PARAMETERS;
	if (dom >= s->n_power)
		return DMN_SCMI_NOT_FOUND;
	if (!a->power[dom].dev)
		return DMN_SCMI_DENIED;
	if (state != DMN_SCMI_POWER_ON && state != DMN_SCMI_POWER_OFF)
		return DMN_SCMI_INVALID_PARAMETERS;
	if (flags & POWER_SET_ASYNC) {
		/* One request in flight per agent: its delayed response has
		 * to come before the agent can tell two apart. */
		if (a->async.pending)
			return DMN_SCMI_BUSY;
		a->async.pending = 1;
		a->async.domain = dom;
		a->async.state = state;
		a->async.token = dmn_scmi_header_token(s->cur_header);
		s->async_fifo[(s->async_head + s->async_count++) %
			      s->n_agents] = (unsigned)(a - s->agents);
		return DMN_SCMI_SUCCESS;
	}
	return dmn__scmi_status_of(
	    dmn__scmi_power_set(s, a, dom, state == DMN_SCMI_POWER_ON));
}

/* An off domain in an idle state still reads OFF (docs/scmi.md,
 * Semantics); an agent with own reads reads its request where it may act
 * (docs/scmi.md, Own reads). */
static int32_t state_get(struct dmn_scmi_server *s, struct scmi__agent *a,
			 const uint8_t *pl, struct scmi__reply *r)
{
	uint32_t dom = scmi__get32(pl);
	if (dom >= s->n_power)
		return DMN_SCMI_NOT_FOUND;
	if (a->own_reads && a->power[dom].dev) {
		scmi__add32(r, a->power[dom].on ? DMN_SCMI_POWER_ON
						: DMN_SCMI_POWER_OFF);
		return DMN_SCMI_SUCCESS;
	}
	struct dmn_domain_info info;
	int err = dmn_domain_info(s->ctx, s->power[dom], &info);
	if (err)
		return dmn__scmi_status_of(err);
	scmi__add32(r, info.on ? DMN_SCMI_POWER_ON : DMN_SCMI_POWER_OFF);
	return DMN_SCMI_SUCCESS;
}

static int32_t state_notify(struct dmn_scmi_server *s, struct scmi__agent *a,
			    const uint8_t *pl, struct scmi__reply *r)
{
	(void)r;
	uint32_t dom = scmi__get32(pl), enable = scmi__get32(pl + 4);
	if (dom >= s->n_power)
		return DMN_SCMI_NOT_FOUND;
	if (enable & ~1u)
		return DMN_SCMI_INVALID_PARAMETERS;
	scmi__set_bit(a->notify_power, dom, (int)enable);
	return DMN_SCMI_SUCCESS;
}

static int32_t name_get(struct dmn_scmi_server *s, struct scmi__agent *a,
			const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	uint32_t dom = scmi__get32(pl);
	if (dom >= s->n_power)
		return DMN_SCMI_NOT_FOUND;
	return dmn__scmi_name_get(s->power_ext[dom], r);
}

static const struct scmi__message messages[] = {
    [0x0] = {dmn__scmi_version, 0, 0},	      /* PROTOCOL_VERSION */
    [0x1] = {power_attributes, 0, 0},	      /* PROTOCOL_ATTRIBUTES */
    [0x2] = {power_message_attributes, 4, 0}, /* PROTOCOL_MESSAGE_ATTRIBUTES */
    [0x3] = {domain_attributes, 4, 0},	      /* POWER_DOMAIN_ATTRIBUTES */
    [0x4] = {state_set, 12, 0},		      /* POWER_STATE_SET */
    [0x5] = {state_get, 4, 0},		      /* POWER_STATE_GET */
    [0x6] = {state_notify, 8, 0},	      /* POWER_STATE_NOTIFY */
    [0x8] = {name_get, 4, MSG_NEWER | MSG_NAME}, /* POWER_DOMAIN_NAME_GET */
    /* NEGOTIATE_PROTOCOL_VERSION, newer versions only */
    [0x10] = {dmn__scmi_negotiate, 4, MSG_NEWER},
};

const struct scmi__protocol dmn__scmi_power = {
    DMN_SCMI_PROTOCOL_POWER, SLOT_POWER, DMN_SCMI_POWER_VERSION, messages,
    sizeof(messages) / sizeof(*messages)};
