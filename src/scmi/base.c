/* SPDX-License-Identifier: MIT */
/* SCMI Base protocol 0x10, version 2.1 (2.0 without its 0x10): discovery. */
#include "scmi_internal.h"

/* The protocols after Base, ascending, as LIST_PROTOCOLS pages them. */
static const uint8_t listed[] = {DMN_SCMI_PROTOCOL_POWER, DMN_SCMI_PROTOCOL_PERF};
#define N_LISTED (sizeof(listed) / sizeof(*listed))

static int32_t base_attributes(struct dmn_scmi_server *s, struct scmi__agent *a,
			       const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	(void)pl;
	scmi__add32(r, (uint32_t)s->n_agents << 8 | N_LISTED);
	return DMN_SCMI_SUCCESS;
}

static int32_t base_message_attributes(struct dmn_scmi_server *s,
				       struct scmi__agent *a, const uint8_t *pl,
				       struct scmi__reply *r)
{
	return dmn__scmi_message_attributes(s, a, &dmn__scmi_base, pl, r);
}

static int32_t vendor(struct dmn_scmi_server *s, struct scmi__agent *a,
		      const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	(void)pl;
	scmi__add_name(r, s->vendor);
	return DMN_SCMI_SUCCESS;
}

static int32_t sub_vendor(struct dmn_scmi_server *s, struct scmi__agent *a,
			  const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	(void)pl;
	scmi__add_name(r, s->sub_vendor);
	return DMN_SCMI_SUCCESS;
}

static int32_t impl_version(struct dmn_scmi_server *s, struct scmi__agent *a,
			    const uint8_t *pl, struct scmi__reply *r)
{
	(void)a;
	(void)pl;
	scmi__add32(r, s->impl_version);
	return DMN_SCMI_SUCCESS;
}

/* Every agent may use both protocols (reads are open; DENIED is per
 * domain), so the list is the same for all. Protocol ids are packed four
 * to a word, the last word zero-padded. */
static int32_t list_protocols(struct dmn_scmi_server *s, struct scmi__agent *a,
			      const uint8_t *pl, struct scmi__reply *r)
{
	(void)s;
	(void)a;
	uint32_t skip = scmi__get32(pl);
	if (skip > N_LISTED)
		return DMN_SCMI_INVALID_PARAMETERS;
	size_t room = (r->cap - r->len - 4) / 4 * 4;
	uint32_t n = N_LISTED - skip;
	if (n > room)
		n = (uint32_t)room;
	scmi__add32(r, n);
	for (uint32_t w = 0; w < (n + 3) / 4; w++) {
		uint32_t word = 0;
		for (uint32_t k = 0; k < 4 && w * 4 + k < n; k++)
			word |= (uint32_t)listed[skip + w * 4 + k] << (8 * k);
		scmi__add32(r, word);
	}
	return DMN_SCMI_SUCCESS;
}

/* 0xffffffff asks about the caller; 0 is the platform itself. */
static int32_t discover_agent(struct dmn_scmi_server *s, struct scmi__agent *a,
			      const uint8_t *pl, struct scmi__reply *r)
{
	uint32_t id = scmi__get32(pl);
	if (id == 0xffffffffu)
		id = a->id;
	char platform[DMN_SCMI_NAME_SIZE] = "platform";
	const char *name;
	if (id == 0)
		name = platform;
	else if (id <= DMN_SCMI_MAX_AGENTS && s->agent_index[id])
		name = s->agents[s->agent_index[id] - 1].name;
	else
		return DMN_SCMI_NOT_FOUND;
	scmi__add32(r, id);
	scmi__add_name(r, name);
	return DMN_SCMI_SUCCESS;
}

static const struct scmi__message messages[] = {
    [0x0] = {dmn__scmi_version, 0, 0},	     /* PROTOCOL_VERSION */
    [0x1] = {base_attributes, 0, 0},	     /* PROTOCOL_ATTRIBUTES */
    [0x2] = {base_message_attributes, 4, 0}, /* PROTOCOL_MESSAGE_ATTRIBUTES */
    [0x3] = {vendor, 0, 0},		     /* DISCOVER_VENDOR */
    [0x4] = {sub_vendor, 0, 0},		     /* DISCOVER_SUB_VENDOR */
    [0x5] = {impl_version, 0, 0},   /* DISCOVER_IMPLEMENTATION_VERSION */
    [0x6] = {list_protocols, 4, 0}, /* DISCOVER_LIST_PROTOCOLS */
    [0x7] = {discover_agent, 4, 0}, /* DISCOVER_AGENT */
    /* NEGOTIATE_PROTOCOL_VERSION, newer versions only */
    [0x10] = {dmn__scmi_negotiate, 4, MSG_NEWER},
};

const struct scmi__protocol dmn__scmi_base = {
    DMN_SCMI_PROTOCOL_BASE, SLOT_BASE, DMN_SCMI_BASE_VERSION, messages,
    sizeof(messages) / sizeof(*messages)};
