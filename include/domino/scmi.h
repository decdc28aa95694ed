/* SPDX-License-Identifier: MIT */
/*
 * domino - the platform side of Arm SCMI (DEN0056): Base 0x10 (version 2.1),
 * Power Domain 0x11 (3.0) and Performance 0x13 (3.0), over a domino context.
 * An agent capped to 2.0 (dmn_scmi_agent.version), or that negotiates 2.0
 * (NEGOTIATE_PROTOCOL_VERSION), gets the version 2.0 answers of each
 * protocol, byte for byte (docs/scmi.md, Versions).
 *
 * The server is transport-free: a transport hands every message an agent
 * sent to dmn_scmi_handle(), sends the reply it builds, then calls
 * dmn_scmi_deliver(), which runs deferred work (asynchronous power state
 * changes) and passes delayed responses and notifications to the
 * configured send callback. docs/scmi.md is the wire contract (numbering,
 * layouts, every status) and, under Semantics, the rules below.
 *
 * Semantics (docs/scmi.md, Semantics)
 *  - Every agent is a domino device per domain it may act on: POWER_STATE_SET
 *    ON/OFF is that device's dmn_device_get()/dmn_device_put(); LEVEL_SET is
 *    its dmn_vote() on a second device of the agent, kept active while its
 *    level is non-zero (a level is a use of the domain: the domain is on
 *    while an agent asks for a level, as genpd keeps a domain on while a
 *    device votes). A domain runs at the max over agents and devices, and
 *    no agent can switch off what another agent or a device keeps on.
 *  - Limits are per agent; the effective range is [max of mins, min of
 *    maxes] (when they cross, the lowest max wins: a cap protects hardware).
 *    Each agent's level is applied clamped to the effective range; the
 *    level as cast is kept and re-applied when limits change.
 *  - Every command is a transaction (docs/semantics.md, Failures): a failed
 *    unsafe step rolls
 *    back and the command answers the mapped status (callback -EIO:
 *    HARDWARE_ERROR); a failed safe step (power-off, lowering) answers
 *    SUCCESS and the domain stays where its callback left it.
 *
 * Cost: no allocation after dmn_scmi_server_create(); a message costs O(1) plus
 *  the core call it makes, O(log D) to map an event to its domain, and
 *  O(agents) for LIMITS_SET and for each notification sent.
 * Threads: a server is not locked by itself; call it from one thread.
 * Pure C11 with <string.h> only, like the core: it builds freestanding.
 */
#ifndef DOMINO_SCMI_H
#define DOMINO_SCMI_H

#include <domino/domain.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Protocol identifiers; the versions served (major 31:16, minor 15:0), and
 * 2.0, which every protocol also speaks. */
#define DMN_SCMI_PROTOCOL_BASE 0x10u
#define DMN_SCMI_PROTOCOL_POWER 0x11u
#define DMN_SCMI_PROTOCOL_PERF 0x13u
#define DMN_SCMI_PROTOCOL_VERSION_2_0 0x00020000u
#define DMN_SCMI_BASE_VERSION 0x00020001u
#define DMN_SCMI_POWER_VERSION 0x00030000u
#define DMN_SCMI_PERF_VERSION 0x00030000u

/* Message types, header bits 9:8. */
#define DMN_SCMI_TYPE_COMMAND 0u
#define DMN_SCMI_TYPE_DELAYED_RESPONSE 2u
#define DMN_SCMI_TYPE_NOTIFICATION 3u

/**
 * enum dmn_scmi_status - the status word that starts every reply (DEN0056 §4.1.4)
 */
enum dmn_scmi_status {
	DMN_SCMI_SUCCESS = 0,
	DMN_SCMI_NOT_SUPPORTED = -1,
	DMN_SCMI_INVALID_PARAMETERS = -2,
	DMN_SCMI_DENIED = -3,
	DMN_SCMI_NOT_FOUND = -4,
	DMN_SCMI_OUT_OF_RANGE = -5,
	DMN_SCMI_BUSY = -6,
	DMN_SCMI_COMMS_ERROR = -7,
	DMN_SCMI_GENERIC_ERROR = -8,
	DMN_SCMI_HARDWARE_ERROR = -9,
	DMN_SCMI_PROTOCOL_ERROR = -10,
};

/** dmn_scmi_status_name - "SUCCESS", "DENIED", ...; "?" for other values */
const char *dmn_scmi_status_name(int32_t status);

/* Power states: the spec's generic ON and OFF (bit 30: context lost). */
#define DMN_SCMI_POWER_ON 0x00000000u
#define DMN_SCMI_POWER_OFF 0x40000000u

/* Headers: message id 7:0, type 9:8, protocol 17:10, token 27:18. */
static inline uint32_t dmn_scmi_header(uint32_t protocol, uint32_t msg,
				   uint32_t type, uint32_t token)
{
	return (msg & 0xffu) | (type & 3u) << 8 | (protocol & 0xffu) << 10 |
	       (token & 0x3ffu) << 18;
}
static inline uint32_t dmn_scmi_header_msg(uint32_t h)
{
	return h & 0xffu;
}
static inline uint32_t dmn_scmi_header_type(uint32_t h)
{
	return h >> 8 & 3u;
}
static inline uint32_t dmn_scmi_header_protocol(uint32_t h)
{
	return h >> 10 & 0xffu;
}
static inline uint32_t dmn_scmi_header_token(uint32_t h)
{
	return h >> 18 & 0x3ffu;
}

/* Smallest --max-msg: the largest fixed-size reply (PERF DOMAIN_ATTRIBUTES:
 * header, status, four words and a 16-byte name). */
#define DMN_SCMI_MIN_MSG 40u
#define DMN_SCMI_DEFAULT_MAX_MSG 128u
#define DMN_SCMI_NAME_SIZE 16u   /* names on the wire, NUL-padded, NUL-ended */
/* DOMAIN_NAME_GET's name (Power and Performance 3.0): longer names are cut
 * to 63 bytes. Its reply takes DMN_SCMI_NAME_MSG bytes: with a smaller
 * max_msg the message is absent and no domain says it has an extended
 * name. */
#define DMN_SCMI_EXT_NAME_SIZE 64u
#define DMN_SCMI_NAME_MSG 76u
#define DMN_SCMI_MAX_AGENTS 255u /* agent ids 1..255; 0 is the platform */

/**
 * struct dmn_scmi_power_domain - power domain I is @domain, called @name
 * (DOMAIN_ATTRIBUTES cuts it to 15 bytes; DOMAIN_NAME_GET to 63)
 */
struct dmn_scmi_power_domain {
	dmn_domain_t domain;
	const char *name;
};

/**
 * struct dmn_scmi_perf_level - one performance level, as DESCRIBE_LEVELS sends
 * it
 * @level: the value agents set (a domino vote)
 * @power_cost: in mW, what a version 2.0 agent reads (PERF ATTRIBUTES bit 16)
 * @latency_us: transition latency
 * @power_uw: in uW, what a version 3.0 agent reads when any level of any
 *   perf domain has a non-zero @power_uw (PERF ATTRIBUTES bit 17); with
 *   none, version 3.0 reads @power_cost in mW as 2.0 does
 */
struct dmn_scmi_perf_level {
	uint32_t level;
	uint32_t power_cost;
	uint16_t latency_us;
	uint32_t power_uw;
};

/**
 * struct dmn_scmi_perf_domain - performance domain J
 * @domain: the domino domain voted on; it should round votes to @levels
 * @levels, @n_levels: strictly ascending, at least one
 */
struct dmn_scmi_perf_domain {
	dmn_domain_t domain;
	const char *name;
	const struct dmn_scmi_perf_level *levels;
	unsigned n_levels;
};

/**
 * struct dmn_scmi_agent - one agent and what it may act on
 * @id: 1..255, unique
 * @name: unique; cut to 15 bytes on the wire
 * @power, @perf: permission bitmaps, bit I of byte I/8 for power (perf)
 *        domain I; NULL = none. Reads and notifications are open to all.
 * @version: 0: every protocol at the version served (DMN_SCMI_*_VERSION);
 *        DMN_SCMI_PROTOCOL_VERSION_2_0: every protocol at 2.0
 * @flags: DMN_SCMI_AGENT_* bits; 0 for the default answers
 */
struct dmn_scmi_agent {
	uint32_t id;
	const char *name;
	const uint8_t *power;
	const uint8_t *perf;
	uint32_t version;
	uint32_t flags;
};

/* dmn_scmi_agent.flags: POWER_STATE_GET answers the agent's own request on a
 * power domain it may act on (ON while it holds the domain on, OFF
 * otherwise), not the domain's state, so that a client that reads a domain
 * back after setting it (Linux's scmi_pm_domain) reads what it set
 * (docs/scmi.md, Own reads). Every other read is the domain's. */
#define DMN_SCMI_AGENT_OWN_READS (1u << 0)

/**
 * typedef dmn_scmi_send_fn - hand one platform-initiated message to an agent
 * @msg, @len: header and payload (a delayed response or a notification;
 *   never more than max_msg bytes); valid only during the call
 * Called from dmn_scmi_deliver() only, never with the context lock held.
 */
typedef void (*dmn_scmi_send_fn)(void *user, uint32_t agent_id, const void *msg,
			     size_t len);

/**
 * struct dmn_scmi_config - what dmn_scmi_server_create() needs
 * @ctx: the context; the server adds devices and a listener to it
 * @power, @n_power: the power domains, in wire order
 * @perf, @n_perf: the performance domains, in wire order
 * @agents, @n_agents: 1..DMN_SCMI_MAX_AGENTS agents
 * @max_msg: the largest message, header included (0: 128); at least
 *   DMN_SCMI_MIN_MSG
 * @vendor, @sub_vendor, @impl_version: BASE discovery answers (NULL:
 *   "domino"; 0: the library version as 0x00MMmmpp)
 * @send, @send_user: receives delayed responses and notifications, or NULL
 * @alloc: allocator for the server's tables (NULL members: malloc/free)
 * Everything is copied: the arrays need not outlive the call.
 */
struct dmn_scmi_config {
	struct dmn_ctx *ctx;
	const struct dmn_scmi_power_domain *power;
	unsigned n_power;
	const struct dmn_scmi_perf_domain *perf;
	unsigned n_perf;
	const struct dmn_scmi_agent *agents;
	unsigned n_agents;
	size_t max_msg;
	const char *vendor;
	const char *sub_vendor;
	uint32_t impl_version;
	dmn_scmi_send_fn send;
	void *send_user;
	struct dmn_alloc_ops alloc;
};

struct dmn_scmi_server;

/**
 * dmn_scmi_server_create - build a server: two devices per (agent, domain) it
 * may act on, attached with no vote and suspended, and one event listener
 * returns: 0 and *@out, or
 *   -EINVAL: NULL argument, no agents or more than DMN_SCMI_MAX_AGENTS, an
 * agent id 0 or above 255 or repeated, a repeated or empty agent name, an agent
 * version other than 0 and DMN_SCMI_PROTOCOL_VERSION_2_0, an agent flag not
 * defined above, a perf domain without levels or with levels not strictly
 * ascending, max_msg below DMN_SCMI_MIN_MSG, only one of alloc/free, more
 * than 65535 domains of either kind; -ENOMEM;
 * -ENOSPC (the context has no listener slot left); -EBADF (a domain handle not
 * in @ctx), or another error of dmn_device_create/dmn_attach. On failure
 * nothing is left in @ctx. cost: O((agents + 1) * domains) core calls.
 */
int dmn_scmi_server_create(const struct dmn_scmi_config *cfg, struct dmn_scmi_server **out);

/**
 * dmn_scmi_server_destroy - withdraw every agent's request (levels to 0,
 * powered domains released: callbacks run, in the safe direction), then
 * remove the server's devices and listener. NULL is a no-op.
 * cost: O(agents * domains) core calls.
 */
void dmn_scmi_server_destroy(struct dmn_scmi_server *srv);

/**
 * dmn_scmi_handle - answer one message from agent @agent_id
 * @msg, @len: the message as received (header and payload; any bytes)
 * @reply, @cap: the reply buffer; the reply is never longer than
 *   min(@cap, max_msg), and paged replies hold as many entries as fit
 * @reply_len: receives the reply's length
 *
 * Malformed messages get a reply, never an error: shorter than a header:
 * PROTOCOL_ERROR under a zero header (the bytes there are kept); a type
 * other than command, or a payload of the wrong size: PROTOCOL_ERROR;
 * unknown protocol: NOT_SUPPORTED; unknown message: NOT_FOUND. Work that
 * the reply promises for later (async POWER_STATE_SET) runs in
 * dmn_scmi_deliver(); notifications are queued for it too.
 * returns: 0 and a reply, or -EINVAL (NULL argument), -ENOENT (no agent
 *   @agent_id; no reply), -ENOSPC (@cap below DMN_SCMI_MIN_MSG; no reply).
 * cost: see the top of this file.
 */
int dmn_scmi_handle(struct dmn_scmi_server *srv, uint32_t agent_id, const void *msg,
		size_t len, void *reply, size_t cap, size_t *reply_len);

/**
 * dmn_scmi_deliver - run deferred work and send what is queued, in order:
 * notifications of earlier commands; then each asynchronous power state
 * change in the order accepted, its delayed response and the notifications
 * it caused. Call it after the reply of each dmn_scmi_handle() is sent (and
 * after driving the context directly, to send what that caused).
 * Notifications beyond the queue (4 per domain plus 64) are dropped and
 * counted (dmn_scmi_dropped()).
 * returns: the number of messages sent, or -EINVAL.
 */
int dmn_scmi_deliver(struct dmn_scmi_server *srv);

/** dmn_scmi_dropped - notifications dropped because the queue was full */
unsigned long dmn_scmi_dropped(const struct dmn_scmi_server *srv);

/**
 * dmn_scmi_agent_device - the domino device behind agent @agent_id on power
 * domain @power_index (@perf = 0) or perf domain @index (@perf = 1), for
 * tests and tools
 * returns: 0 and *@out, -EINVAL, -ENOENT (no such agent or domain, or the
 *   agent may not act on it).
 */
int dmn_scmi_agent_device(const struct dmn_scmi_server *srv, uint32_t agent_id,
		      int perf, unsigned index, dmn_device_t *out);

/* ---- hosted helpers (not in the freestanding build) ---------------------- */

struct dmn_dt_board;
struct dmn_dt_instance;

/**
 * struct dmn_scmi_board_map - a board's SCMI numbering (docs/scmi.md,
 * Numbering): power
 * domain I = board domain I (the order of `domino summary --json`), perf
 * domain J = the J-th domain whose provider's OPP table has available
 * `opp-level` entries, with those levels (power: the sum of the entry's
 * opp-microwatt, in uW as power_uw and / 1000 in mW as power_cost). Feed
 * @power and @perf to dmn_scmi_config.
 * @perf_board: the board domain index of each perf domain
 */
struct dmn_scmi_board_map {
	struct dmn_scmi_power_domain *power;
	unsigned n_power;
	struct dmn_scmi_perf_domain *perf;
	unsigned n_perf;
	unsigned *perf_board;
	struct dmn_scmi_perf_level *level_pool; /* private */
};

/**
 * dmn_scmi_board_map - number @board's domains, built into @inst
 * returns: 0, -EINVAL (NULL argument), -ENOMEM. Free with
 *   dmn_scmi_board_map_free(). cost: O(domains + OPP entries log entries).
 */
int dmn_scmi_board_map(const struct dmn_dt_board *board, const struct dmn_dt_instance *inst,
		   struct dmn_scmi_board_map *out);
void dmn_scmi_board_map_free(struct dmn_scmi_board_map *map);

/**
 * struct dmn_scmi_agents - a parsed agents file (see docs/scmi.md)
 * @agents, @n_agents: ready for dmn_scmi_config (names and bitmaps owned here)
 */
struct dmn_scmi_agents {
	struct dmn_scmi_agent *agents;
	unsigned n_agents;
	void *storage; /* private */
};

/**
 * dmn_scmi_agents_parse - parse an agents file
 * @text, @len: its contents
 * @map: resolves domain numbers and names
 * @err, @err_size: on -EINVAL, receives "LINE: error: MESSAGE" (the caller
 *   puts the file name in front)
 * returns: 0 and *@out, -EINVAL (bad syntax, unknown domain, id out of
 *   1..255, repeated id or name, name too long, no agent), -ENOMEM.
 * cost: O(length * domains) for names, O(length) for numbers.
 */
int dmn_scmi_agents_parse(const char *text, size_t len,
		      const struct dmn_scmi_board_map *map, struct dmn_scmi_agents *out,
		      char *err, size_t err_size);
void dmn_scmi_agents_free(struct dmn_scmi_agents *agents);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_SCMI_H */
