/* SPDX-License-Identifier: MIT */
/* The SCMI server's state, shared by the server and its three protocols. */
#ifndef DOMINO_SCMI_INTERNAL_H
#define DOMINO_SCMI_INTERNAL_H

#include <domino/scmi.h>

#include "../core/debug.h"

#include <errno.h>
#include <string.h>

/* One agent's hold on one power domain: a device attached to it alone. */
struct scmi__power_slot {
	dmn_device_t dev; /* 0: the agent may not act on the domain */
	dmn_attach_t att;
	uint8_t on;
};

/* One agent's request on one perf domain. @request is the level as cast
 * (0: none), @applied what was voted after clamping to the effective
 * range; the device is active exactly while @applied is non-zero. */
struct scmi__perf_slot {
	dmn_device_t dev;
	dmn_attach_t att;
	uint32_t request;
	uint32_t applied;
	uint32_t min, max; /* this agent's limits */
};

/* The protocols, in the order of each agent's versions. */
enum scmi__slot { SLOT_BASE, SLOT_POWER, SLOT_PERF, N_SLOTS };

struct scmi__agent {
	uint32_t id;
	char name[DMN_SCMI_NAME_SIZE];
	/* per protocol: the version served, or 2.0 (capped or negotiated) */
	uint32_t version[N_SLOTS];
	/* DMN_SCMI_AGENT_OWN_READS: POWER_STATE_GET reads its own request */
	int own_reads;
	struct scmi__power_slot *power; /* [n_power] */
	struct scmi__perf_slot *perf;	/* [n_perf] */
	/* notification subscriptions, one bit per domain */
	uint8_t *notify_power, *notify_level, *notify_limits;
	struct {
		int pending;
		uint32_t token, domain, state;
	} async;
};

struct scmi__perf_dom {
	dmn_domain_t domain;
	char name[DMN_SCMI_NAME_SIZE];
	char ext_name[DMN_SCMI_EXT_NAME_SIZE];
	struct dmn_scmi_perf_level *levels;
	unsigned n_levels;
	uint32_t eff_min, eff_max;
};

/* What a notification says; recipients are chosen when it is sent. */
enum scmi__note_kind { NOTE_POWER, NOTE_LEVEL, NOTE_LIMITS };
struct scmi__note {
	uint32_t kind;
	uint32_t agent; /* who caused it, 0 = the platform or a device */
	uint32_t domain;
	uint32_t a, b; /* state; level and the level before; max, min */
};

/* Domain handle -> wire indices, sorted by handle. */
struct scmi__handle_map {
	uint32_t handle;
	int32_t power, perf;
};

struct dmn_scmi_server {
	struct dmn_ctx *ctx;
	struct dmn_alloc_ops alloc;
	size_t max_msg;
	char vendor[DMN_SCMI_NAME_SIZE], sub_vendor[DMN_SCMI_NAME_SIZE];
	uint32_t impl_version;
	dmn_scmi_send_fn send;
	void *send_user;
	int listening;

	dmn_domain_t *power; /* [n_power] */
	char (*power_names)[DMN_SCMI_NAME_SIZE];
	char (*power_ext)[DMN_SCMI_EXT_NAME_SIZE];
	int perf_uw;   /* version 3.0 perf agents read power in uW */
	int ext_names; /* max_msg fits DOMAIN_NAME_GET's reply */
	unsigned n_power;
	struct scmi__perf_dom *perf;
	unsigned n_perf;
	struct scmi__agent *agents;
	unsigned n_agents;
	uint8_t agent_index[DMN_SCMI_MAX_AGENTS + 1]; /* id -> index + 1 */
	struct scmi__handle_map *map;
	unsigned n_map;
	uint32_t *scratch; /* [n_agents]: levels before a LIMITS_SET */

	struct scmi__note *notes; /* ring */
	unsigned note_cap, note_head, note_count;
	unsigned long dropped;
	unsigned *async_fifo; /* agent indices, [n_agents] */
	unsigned async_head, async_count;

	/* who the events of the running operation are attributed to */
	uint32_t cur_agent, level_agent;
	uint32_t cur_header; /* of the command being handled */
	/* a command or an asynchronous request is running: a failure of it
	 * is settled when it ends (settle_failed), not step by step */
	int in_command;
	/* an unsafe failure of a library operation is undoing its steps:
	 * each undo cancels the latest queued note it reverses */
	int undoing;
	/* `dropped` when the library operation began: once a note of it was
	 * dropped, the latest queued note may be an older one, which an undo
	 * must not cancel */
	unsigned long dropped_at_start;
};

/* Reply under construction: header and status are in place, payload is
 * appended; the cap is min(caller's buffer, max_msg). */
struct scmi__reply {
	uint8_t *buf;
	size_t cap, len;
};

static inline uint32_t scmi__get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void scmi__put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Append; the handlers size their replies so this never overflows
 * (fixed replies fit DMN_SCMI_MIN_MSG, paged ones count the room first). */
static inline void scmi__add32(struct scmi__reply *r, uint32_t v)
{
	DMN_ASSERT(r->len + 4 <= r->cap && "the handler sized its reply");
	if (r->len + 4 <= r->cap) {
		scmi__put32(r->buf + r->len, v);
		r->len += 4;
	}
}

static inline void scmi__add_bytes(struct scmi__reply *r, const char *b,
				   size_t n)
{
	DMN_ASSERT(r->len + n <= r->cap && "the handler sized its reply");
	if (r->len + n <= r->cap) {
		memcpy(r->buf + r->len, b, n);
		r->len += n;
	}
}

static inline void scmi__add_name(struct scmi__reply *r, const char *name)
{
	scmi__add_bytes(r, name, DMN_SCMI_NAME_SIZE);
}

/* Whether agent @a speaks the newer version of protocol @slot (not 2.0). */
static inline int scmi__newer(const struct scmi__agent *a, enum scmi__slot slot)
{
	return a->version[slot] != DMN_SCMI_PROTOCOL_VERSION_2_0;
}

static inline int scmi__bit(const uint8_t *bits, unsigned i)
{
	return bits && (bits[i / 8] >> (i % 8) & 1);
}

static inline void scmi__set_bit(uint8_t *bits, unsigned i, int on)
{
	if (on)
		bits[i / 8] |= (uint8_t)(1u << (i % 8));
	else
		bits[i / 8] &= (uint8_t) ~(1u << (i % 8));
}

/* A message handler: @pl is the payload, already checked to be exactly the
 * size the table gives; returns the status (payload only on SUCCESS). */
typedef int32_t (*scmi__handler_fn)(struct dmn_scmi_server *s,
				    struct scmi__agent *a, const uint8_t *pl,
				    struct scmi__reply *r);
struct scmi__message {
	scmi__handler_fn fn; /* NULL: no such message */
	uint8_t payload;     /* exact payload size in bytes */
	/* 0: in 2.0; MSG_NEWER: only in the newer version; MSG_NAME: and
	 * only when max_msg fits a name */
	uint8_t since;
};
#define MSG_NEWER 1u
#define MSG_NAME 2u
struct scmi__protocol {
	uint32_t id;
	enum scmi__slot slot;
	uint32_t version; /* the newest served */
	const struct scmi__message *messages;
	unsigned n_messages;
};

extern const struct scmi__protocol dmn__scmi_base, dmn__scmi_power, dmn__scmi_perf;

int32_t dmn__scmi_status_of(int err);
void dmn__scmi_note(struct dmn_scmi_server *s, enum scmi__note_kind kind,
		uint32_t agent, uint32_t domain, uint32_t a, uint32_t b);
const struct scmi__message *dmn__scmi_message(const struct dmn_scmi_server *s,
					      const struct scmi__agent *a,
					      const struct scmi__protocol *p,
					      uint32_t id);
int32_t dmn__scmi_message_attributes(const struct dmn_scmi_server *s,
				     const struct scmi__agent *a,
				     const struct scmi__protocol *p,
				     const uint8_t *pl, struct scmi__reply *r);
int32_t dmn__scmi_negotiate(struct dmn_scmi_server *s, struct scmi__agent *a,
			    const uint8_t *pl, struct scmi__reply *r);
int32_t dmn__scmi_name_get(const char *name, struct scmi__reply *r);
int32_t dmn__scmi_version(struct dmn_scmi_server *s, struct scmi__agent *a,
		      const uint8_t *pl, struct scmi__reply *r);

/* power.c: the state change behind POWER_STATE_SET (sync and deferred) */
int dmn__scmi_power_set(struct dmn_scmi_server *s, struct scmi__agent *a, unsigned dom,
		    int on);
/* perf.c: apply @target (clamped level or 0) as agent @a's vote */
int dmn__scmi_perf_apply(struct dmn_scmi_server *s, struct scmi__agent *a, unsigned dom,
		     uint32_t target);

#endif
