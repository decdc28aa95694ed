/* SPDX-License-Identifier: MIT */
/*
 * The server as Linux's SCMI client sees it (drivers/firmware/arm_scmi:
 * driver.c, base.c, power.c, perf.c; read for the wire layouts and the
 * checks, none of its code is here). The client below sends what that
 * driver sends at probe and at run time, in its order, and parses every
 * reply with that driver's field sizes and checks:
 *
 *  - a transfer: the reply's header equals the command's (the driver finds
 *    the transfer by token and wants a response type); the status word,
 *    then rx.len = min(the size the driver asked for, what came); nothing
 *    longer than the transport's message (mailbox and virtio: 128 bytes);
 *    a fixed-size reply exactly the size the driver asked for;
 *  - versions: Linux 6.12 knows Base 2.1, Power 3.1 and Perf 4.0 and reads
 *    what the platform's version has (a platform at or below those is
 *    never asked to negotiate); an agent capped to 2.0 reads 2.0's fields;
 *  - Base: PROTOCOL_ATTRIBUTES is two u8 (protocols 7:0, agents 15:8);
 *    vendor names are 16 bytes read with strscpy (a NUL within 16);
 *    DISCOVER_LIST_PROTOCOLS is asked with skip = protocols read so far
 *    until a reply returns 0, each reply holding exactly the words the
 *    count needs (the driver bails out when they are missing), never more
 *    protocols than PROTOCOL_ATTRIBUTES said; DISCOVER_AGENT for ids
 *    0..agents-1 (failures ignored), reply agent_id then name[16];
 *  - Power: PROTOCOL_ATTRIBUTES le16 domains + le16 reserved + statistics;
 *    PROTOCOL_MESSAGE_ATTRIBUTES(POWER_STATE_NOTIFY) must succeed for the
 *    driver to use notifications; DOMAIN_ATTRIBUTES flags (31 notify,
 *    30 async, 29 sync, 27 extended name: only read from version 3) and
 *    name[16]; with bit 27, POWER_DOMAIN_NAME_GET {domain} -> {flags,
 *    name[64]} (68 bytes, strscpy of 64); STATE_SET {flags, domain, state}
 *    with flags 0 (genpd's
 *    sync calls), STATE_GET; notification POWER_STATE_CHANGED event 0
 *    whose payload must be exactly {agent_id, domain_id, state} (12 bytes,
 *    the driver drops other sizes);
 *  - Performance: PROTOCOL_ATTRIBUTES le16 domains + le16 flags (bit 0 of
 *    the flags, bit 16 of the word: power in mW; bit 1, bit 17: in uW,
 *    read from version 3 only); message attributes of
 *    NOTIFY_LIMITS/NOTIFY_LEVEL must succeed, bit 0 of LEVEL_SET's and
 *    LIMITS_SET's says fast channel (must be clear: DESCRIBE_FASTCHANNEL
 *    answers NOT_SUPPORTED); DOMAIN_ATTRIBUTES flags (31 set limits,
 *    30 set level, 29/28 limits/level notify, 27 fast channels, 26
 *    extended name, 25 level indexing: both only read from versions 3/4),
 *    rate limit (19:0), sustained kHz and level, name[16]; with bit 26,
 *    PERFORMANCE_DOMAIN_NAME_GET (0xC) as for power;
 *    DESCRIBE_LEVELS paged by the driver's iterator: {domain, index},
 *    reply le16 returned + le16 remaining then {le32 level, le32 power,
 *    le16 latency, le16 reserved} per level, asked again while both
 *    returned and remaining are non-zero, never more than MAX_OPPS in all;
 *    LIMITS_SET {domain, max, min}, LIMITS_GET -> {max, min}; LEVEL_SET
 *    {domain, level}, LEVEL_GET; notifications LIMITS_CHANGED event 0
 *    {agent, domain, max, min} (16 bytes) and LEVEL_CHANGED event 1
 *    {agent, domain, level} (12 bytes), exact sizes again.
 *
 * It runs in process on a hand-built context (levels that page, agent ids
 * that are not 1..N, --max-msg 128 and the smallest, 40) and, given
 * `DOMINO BOARD.dtb` as arguments, over the sockets of `domino scmi-serve`
 * on that board (ctest: the demo SoC, and the real boards present).
 */
#include "client.h"

#include <domino/sim_providers.h>

#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#define BASE DMN_SCMI_PROTOCOL_BASE
#define POWER DMN_SCMI_PROTOCOL_POWER
#define PERF DMN_SCMI_PROTOCOL_PERF
#define ON DMN_SCMI_POWER_ON
#define OFF DMN_SCMI_POWER_OFF

/* The driver's bounds: protocols it records, levels per perf domain. */
#define LX_MAX_PROTOCOLS 255
#define LX_MAX_OPPS 64
#define LX_MAX_DOMAINS 256
/* the mailbox and virtio transports' message size */
#define LX_TRANSPORT_MSG 128

/* ---- the client's transfer ------------------------------------------------
 */

struct lx {
	struct client *c;
	const char *who;
	size_t max_msg; /* the server's --max-msg: no reply is longer */
	int v2;		/* the agent is capped to 2.0 */
	uint8_t rx[CLIENT_MAX_MSG];
	size_t rx_len; /* payload after the status, as the driver sees it */
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* One command of @n_tx words; the driver asked for @rx_size payload bytes
 * (0: up to the transport's message). Returns the status. */
static int32_t lx_xfer(struct lx *l, uint32_t proto, uint32_t msg,
		       const uint32_t *tx, unsigned n_tx, size_t rx_size)
{
	uint8_t req[4 + 4 * 4], reply[CLIENT_MAX_MSG];
	uint32_t token = l->c->token++ & 0x3ff;
	uint32_t header = dmn_scmi_header(proto, msg, DMN_SCMI_TYPE_COMMAND, token);
	assert_true(n_tx <= 4);
	for (unsigned i = 0; i < 4; i++)
		req[i] = (uint8_t)(header >> (8 * i));
	for (unsigned k = 0; k < n_tx; k++)
		for (unsigned i = 0; i < 4; i++)
			req[4 + 4 * k + i] = (uint8_t)(tx[k] >> (8 * i));
	size_t len = client_raw(l->c, req, 4 + 4 * n_tx, reply, sizeof(reply));
	/* the driver matches the token and wants a response */
	assert_true(len >= 8);
	assert_int_equal(le32(reply), header);
	assert_true(len <= l->max_msg);
	int32_t status = (int32_t)le32(reply + 4);
	size_t got = len - 8, want = rx_size ? rx_size : LX_TRANSPORT_MSG;
	l->rx_len = got < want ? got : want;
	memset(l->rx, 0xa5, sizeof(l->rx)); /* no stale bytes read as data */
	memcpy(l->rx, reply + 8, l->rx_len);
	/* a fixed reply is exactly the size asked: not shorter (fields
	 * missing), not longer (the virtio transport of Linux 5.1x sized its
	 * receive buffer so and refused more: "used len 28 is larger than in
	 * buflen 24"); an error is the status alone */
	if (status == DMN_SCMI_SUCCESS && rx_size)
		assert_int_equal(got, rx_size);
	if (status != DMN_SCMI_SUCCESS)
		assert_int_equal(got, 0);
	return status;
}

/* strscpy(dst, buf, 16): the name must end within its 16 bytes. */
static void lx_name(const uint8_t *buf, char dst[16])
{
	assert_non_null(memchr(buf, 0, 16));
	memcpy(dst, buf, 16);
}

/* A platform message as the driver's notification core takes it: type 3,
 * the protocol and event id from the header, the payload size exact. */
struct lx_note {
	uint32_t proto, event;
	uint32_t w[4];
	unsigned n;
};

static int lx_next_note(struct lx *l, struct lx_note *n)
{
	struct client_msg m;
	if (!client_next(l->c, &m, l->c->fd >= 0 ? 2000 : 0))
		return 0;
	assert_int_equal(dmn_scmi_header_type(m.header),
			 DMN_SCMI_TYPE_NOTIFICATION);
	n->proto = dmn_scmi_header_protocol(m.header);
	n->event = dmn_scmi_header_msg(m.header);
	n->n = m.n_words;
	/* POWER_STATE_CHANGED 12 bytes, LIMITS_CHANGED 16, LEVEL_CHANGED 12 */
	unsigned want = n->proto == PERF && n->event == 0 ? 4 : 3;
	assert_true(n->proto == POWER || n->proto == PERF);
	assert_true(n->proto == PERF ? n->event <= 1 : n->event == 0);
	assert_int_equal(n->n, want);
	memcpy(n->w, m.words, sizeof(n->w));
	return 1;
}

/* The next notification of @proto/@event about @domain (others, such as a
 * parent's power change, may come first); fails if none does. */
static void lx_expect_note(struct lx *l, uint32_t proto, uint32_t event,
			   uint32_t domain, uint32_t agent, uint32_t v0,
			   uint32_t v1)
{
	struct lx_note n;
	while (lx_next_note(l, &n)) {
		if (n.proto != proto || n.event != event || n.w[1] != domain)
			continue;
		assert_int_equal(n.w[0], agent);
		assert_int_equal(n.w[2], v0);
		if (n.n == 4)
			assert_int_equal(n.w[3], v1);
		return;
	}
	fail_msg("%s: no notification 0x%x/%u for domain %u", l->who, proto,
		 event, domain);
}

/* scmi_common_extended_name_get: {domain} -> {flags, name[64]}, strscpy. */
static void lx_ext_name(struct lx *l, uint32_t proto, uint32_t msg, uint32_t d,
			char name[64])
{
	assert_int_equal(lx_xfer(l, proto, msg, &d, 1, 68), 0);
	assert_non_null(memchr(l->rx + 4, 0, 64));
	memcpy(name, l->rx + 4, 64);
}

/* The name the driver ends with: the short one, or with the extended-name
 * flag the long one; either is the domain's name cut as it fits. */
static void ext_name_matches(const struct lx *l, const char *got,
			     const char *want, int ext)
{
	char cut[64] = {0};
	strncpy(cut, want, ext ? 63 : 15);
	assert_string_equal(got, cut);
	/* from 3.0, the flag is set exactly when the short name is cut */
	assert_int_equal(ext, !l->v2 && strlen(want) > 15);
}

/* ---- what the board should say --------------------------------------------
 */

struct lx_expect {
	unsigned n_agents;
	uint32_t agent_id; /* the caller */
	const char *agent_name;
	unsigned n_power, n_perf;
	const char *power_names[LX_MAX_DOMAINS];
	const char *perf_names[LX_MAX_DOMAINS];
	int may_act; /* on every domain (1) or none (0) */
	int uw;	     /* a level has a power in uW (-1: not known) */
	/* levels of each perf domain, or n_levels 0 when not known */
	const uint32_t *levels[LX_MAX_DOMAINS];
	unsigned n_levels[LX_MAX_DOMAINS];
};

/* What the probe learnt, as the driver keeps it. */
struct lx_power_dom {
	int notify, async, sync;
	uint32_t state;
	char name[64];
};

struct lx_opp {
	uint32_t perf, power;
	uint16_t latency;
};

struct lx_perf_dom {
	int set_limits, set_perf, limit_notify, level_notify, fc;
	uint32_t rate_limit, sustained_khz, sustained_level, mult_factor;
	char name[64];
	struct lx_opp opp[LX_MAX_OPPS];
	unsigned opp_count;
};

static void name_matches(const char got[16], const char *want)
{
	char cut[16] = {0};
	strncpy(cut, want, 15);
	assert_string_equal(got, cut);
}

/* ---- Base: scmi_base_protocol_init's sequence -----------------------------
 */

static void lx_base(struct lx *l, const struct lx_expect *e)
{
	assert_int_equal(lx_xfer(l, BASE, 0x0, NULL, 0, 4), 0);
	uint32_t version = le32(l->rx);
	assert_int_equal(version, l->v2 ? 0x20000 : 0x20001);

	assert_int_equal(lx_xfer(l, BASE, 0x1, NULL, 0, 4), 0);
	unsigned num_protocols = l->rx[0], num_agents = l->rx[1];
	assert_int_equal(le16(l->rx + 2), 0); /* reserved */
	assert_int_equal(num_protocols, 2);
	assert_int_equal(num_agents, e->n_agents);

	char name[16];
	for (uint32_t cmd = 0x3; cmd <= 0x4; cmd++) {
		assert_int_equal(lx_xfer(l, BASE, cmd, NULL, 0, 16), 0);
		lx_name(l->rx, name);
		assert_string_equal(name, "domino");
	}
	assert_int_equal(lx_xfer(l, BASE, 0x5, NULL, 0, 4), 0);
	assert_int_equal(le32(l->rx), (uint32_t)DMN_VERSION_MAJOR << 16 |
					  (uint32_t)DMN_VERSION_MINOR << 8 |
					  DMN_VERSION_PATCH);

	/* scmi_base_implementation_list_get */
	uint8_t prot[LX_MAX_PROTOCOLS];
	uint32_t total = 0;
	for (int pages = 0;; pages++) {
		assert_true(pages <= 3);
		uint32_t skip = total;
		assert_int_equal(lx_xfer(l, BASE, 0x6, &skip, 1, 0), 0);
		assert_true(l->rx_len >= 4);
		uint32_t n = le32(l->rx);
		if (!n)
			break;
		assert_true(n <= num_protocols - total);
		/* the words the count needs, exactly (more is only warned
		 * about, fewer is -EPROTO) */
		size_t words = (1 + (n - 1) / 4) * 4;
		assert_int_equal(l->rx_len - 4, words);
		for (uint32_t k = 0; k < n; k++)
			prot[total + k] = l->rx[4 + k];
		total += n;
	}
	assert_int_equal(total, num_protocols);
	assert_int_equal(prot[0], POWER);
	assert_int_equal(prot[1], PERF);

	/* scmi_base_discover_agent_get for 0..num_agents-1; the driver only
	 * prints them and ignores a failure (ids need not be 1..N) */
	for (uint32_t id = 0; id < num_agents; id++) {
		int32_t st = lx_xfer(l, BASE, 0x7, &id, 1, 20);
		assert_true(st == 0 || st == DMN_SCMI_NOT_FOUND);
		if (st)
			continue;
		assert_int_equal(le32(l->rx), id);
		lx_name(l->rx + 4, name);
		if (!id)
			assert_string_equal(name, "platform");
	}
	uint32_t self = 0xffffffffu;
	assert_int_equal(lx_xfer(l, BASE, 0x7, &self, 1, 20), 0);
	assert_int_equal(le32(l->rx), e->agent_id);
	lx_name(l->rx + 4, name);
	name_matches(name, e->agent_name);
	/* optional messages the driver asks about: absent ones NOT_FOUND */
	uint32_t notify_errors = 0x8;
	assert_int_equal(lx_xfer(l, BASE, 0x2, &notify_errors, 1, 4),
			 DMN_SCMI_NOT_FOUND);
	uint32_t negotiate = 0x10;
	assert_int_equal(lx_xfer(l, BASE, 0x2, &negotiate, 1, 4),
			 l->v2 ? DMN_SCMI_NOT_FOUND : DMN_SCMI_SUCCESS);
}

/* ---- Power: scmi_power_protocol_init, then scmi_pm_domain's probe ----------
 */

static void lx_power(struct lx *l, const struct lx_expect *e,
		     struct lx_power_dom *dom)
{
	assert_int_equal(lx_xfer(l, POWER, 0x0, NULL, 0, 4), 0);
	uint32_t version = le32(l->rx);
	assert_int_equal(version, l->v2 ? 0x20000 : 0x30000);
	assert_int_equal(lx_xfer(l, POWER, 0x1, NULL, 0, 16), 0);
	unsigned n = le16(l->rx);
	assert_int_equal(le16(l->rx + 2), 0);
	assert_int_equal(n, e->n_power);
	assert_int_equal(le32(l->rx + 4), 0); /* no statistics */
	assert_int_equal(le32(l->rx + 8), 0);
	assert_int_equal(le32(l->rx + 12), 0);
	uint32_t id = 0x6; /* POWER_STATE_NOTIFY */
	assert_int_equal(lx_xfer(l, POWER, 0x2, &id, 1, 4), 0);
	id = 0x10; /* NEGOTIATE_PROTOCOL_VERSION: from 3.0 */
	assert_int_equal(lx_xfer(l, POWER, 0x2, &id, 1, 4),
			 l->v2 ? DMN_SCMI_NOT_FOUND : DMN_SCMI_SUCCESS);
	for (uint32_t d = 0; d < n && d < LX_MAX_DOMAINS; d++) {
		assert_int_equal(lx_xfer(l, POWER, 0x3, &d, 1, 20), 0);
		uint32_t flags = le32(l->rx);
		dom[d].notify = flags >> 31 & 1;
		dom[d].async = flags >> 30 & 1;
		dom[d].sync = flags >> 29 & 1;
		int ext = version >> 16 >= 3 && (flags >> 27 & 1);
		/* 28:0 reserved but 27 from 3.0 */
		assert_int_equal(
		    flags & (version >> 16 >= 3 ? 0x17ffffff : 0x1fffffff), 0);
		lx_name(l->rx + 4, dom[d].name);
		name_matches(dom[d].name, e->power_names[d]);
		if (ext)
			lx_ext_name(l, POWER, 0x8, d, dom[d].name);
		if (l->max_msg >= DMN_SCMI_NAME_MSG)
			ext_name_matches(l, dom[d].name, e->power_names[d],
					 ext);
		else
			assert_false(ext);
		assert_true(dom[d].notify);
		assert_int_equal(dom[d].sync, e->may_act);
		assert_int_equal(dom[d].async, e->may_act);
		/* scmi_pm_domain: the initial state decides genpd's is_off */
		assert_int_equal(lx_xfer(l, POWER, 0x5, &d, 1, 4), 0);
		dom[d].state = le32(l->rx);
		assert_true(dom[d].state == ON || dom[d].state == OFF);
	}
	uint32_t past = n;
	assert_int_equal(lx_xfer(l, POWER, 0x3, &past, 1, 20), DMN_SCMI_NOT_FOUND);
}

/* ---- Performance: scmi_perf_protocol_init ----------------------------------
 */

static int p_uw; /* the last probe was told uW */

static void lx_describe_levels(struct lx *l, uint32_t d, struct lx_perf_dom *p)
{
	/* the iterator: index = levels read so far, while returned and
	 * remaining are both non-zero */
	uint32_t total = 0, first_remaining = 0;
	for (int page = 0;; page++) {
		uint32_t msg[2] = {d, total};
		assert_int_equal(lx_xfer(l, PERF, 0x4, msg, 2, 0), 0);
		assert_true(l->rx_len >= 4);
		uint32_t returned = le16(l->rx), remaining = le16(l->rx + 2);
		assert_int_equal(returned & 0xf000, 0); /* 15:12 reserved */
		if (!page)
			first_remaining = returned + remaining;
		else
			assert_int_equal(total + returned + remaining,
					 first_remaining);
		assert_true(returned <= LX_MAX_OPPS - total);
		assert_true(l->rx_len >= 4 + 12 * (size_t)returned);
		for (uint32_t k = 0; k < returned; k++) {
			const uint8_t *o = l->rx + 4 + 12 * k;
			struct lx_opp *opp = &p->opp[total + k];
			opp->perf = le32(o);
			opp->power = le32(o + 4);
			opp->latency = le16(o + 8);
			assert_int_equal(le16(o + 10), 0); /* reserved */
		}
		total += returned;
		if (!returned || !remaining)
			break;
	}
	assert_int_equal(total, first_remaining);
	p->opp_count = total;
	assert_true(total >= 1);
	/* the driver keys levels by value: they must be distinct (and the
	 * server sends them ascending) */
	for (unsigned k = 1; k < total; k++)
		assert_true(p->opp[k].perf > p->opp[k - 1].perf);
}

static void lx_perf(struct lx *l, const struct lx_expect *e,
		    struct lx_perf_dom *dom)
{
	assert_int_equal(lx_xfer(l, PERF, 0x0, NULL, 0, 4), 0);
	uint32_t version = le32(l->rx);
	assert_int_equal(version, l->v2 ? 0x20000 : 0x30000);
	assert_int_equal(lx_xfer(l, PERF, 0x1, NULL, 0, 16), 0);
	unsigned n = le16(l->rx), flags = le16(l->rx + 2);
	assert_int_equal(n, e->n_perf);
	/* mW, or (from 3.0, a board with it) uW, nothing else */
	if (version >> 16 < 3 || e->uw >= 0)
		assert_int_equal(flags, version >> 16 >= 3 && e->uw ? 2 : 1);
	else
		assert_true(flags == 1 || flags == 2);
	p_uw = flags == 2;
	for (unsigned k = 1; k < 4; k++)
		assert_int_equal(le32(l->rx + 4 * k), 0);
	/* notify commands present; no fast channel on LEVEL_SET/LIMITS_SET */
	static const uint32_t asked[] = {0x9, 0xa, 0x7, 0x5, 0x6, 0x8};
	for (unsigned k = 0; k < sizeof(asked) / sizeof(*asked); k++) {
		assert_int_equal(lx_xfer(l, PERF, 0x2, &asked[k], 1, 4), 0);
		assert_int_equal(le32(l->rx) & 1, 0);
	}
	for (uint32_t d = 0; d < n && d < LX_MAX_DOMAINS; d++) {
		struct lx_perf_dom *p = &dom[d];
		assert_int_equal(lx_xfer(l, PERF, 0x3, &d, 1, 32), 0);
		uint32_t f = le32(l->rx);
		p->set_limits = f >> 31 & 1;
		p->set_perf = f >> 30 & 1;
		p->limit_notify = f >> 29 & 1;
		p->level_notify = f >> 28 & 1;
		p->fc = f >> 27 & 1;
		int ext = version >> 16 >= 3 && (f >> 26 & 1);
		/* 27:0: no fast channel, no v4 bits; 26 from 3.0 */
		assert_int_equal(
		    f & (version >> 16 >= 3 ? 0x0bffffff : 0x0fffffff), 0);
		p->rate_limit = le32(l->rx + 4) & 0xfffff;
		p->sustained_khz = le32(l->rx + 8);
		p->sustained_level = le32(l->rx + 12);
		lx_name(l->rx + 16, p->name);
		name_matches(p->name, e->perf_names[d]);
		if (ext)
			lx_ext_name(l, PERF, 0xC, d, p->name);
		if (l->max_msg >= DMN_SCMI_NAME_MSG)
			ext_name_matches(l, p->name, e->perf_names[d], ext);
		else
			assert_false(ext);
		assert_int_equal(p->set_limits, e->may_act);
		assert_int_equal(p->set_perf, e->may_act);
		assert_true(p->limit_notify && p->level_notify);
		/* no kHz: cpufreq's default factor */
		p->mult_factor = p->sustained_khz && p->sustained_level
				     ? p->sustained_khz * 1000 / p->sustained_level
				     : 1000;
		assert_int_equal(p->mult_factor, 1000);
		lx_describe_levels(l, d, p);
		assert_int_equal(p->sustained_level, p->opp[p->opp_count - 1].perf);
		if (e->n_levels[d]) {
			assert_int_equal(p->opp_count, e->n_levels[d]);
			for (unsigned k = 0; k < p->opp_count; k++)
				assert_int_equal(p->opp[k].perf, e->levels[d][k]);
		}
		/* the fast channel the driver would ask for, were bit 27 set */
		uint32_t fc[2] = {d, 0x7};
		assert_int_equal(lx_xfer(l, PERF, 0xb, fc, 2, 0),
				 DMN_SCMI_NOT_SUPPORTED);
		/* scmi_perf_limits_get: {max, min}, untouched: every level */
		assert_int_equal(lx_xfer(l, PERF, 0x6, &d, 1, 8), 0);
		assert_int_equal(le32(l->rx), p->opp[p->opp_count - 1].perf);
		assert_int_equal(le32(l->rx + 4), p->opp[0].perf);
	}
}

/* ---- run time: what genpd, cpufreq and a notifier user send ---------------
 */

static void lx_notify(struct lx *l, uint32_t proto, uint32_t msg, uint32_t d,
		      int on)
{
	uint32_t m[2] = {d, on ? 1u : 0u};
	assert_int_equal(lx_xfer(l, proto, msg, m, 2, 0), 0);
	assert_int_equal(l->rx_len, 0);
}

/* @actor may act on power domain @pd and perf domain @fd (UINT32_MAX:
 * none); @watcher subscribes to them. */
static void lx_run(struct lx *actor, struct lx *watcher, uint32_t actor_id,
		   uint32_t pd, uint32_t fd, const struct lx_perf_dom *p)
{
	client_drain(watcher->c);
	client_drain(actor->c);
	lx_notify(watcher, POWER, 0x6, pd, 1);
	/* scmi_pd_power_on / _off: STATE_SET {flags 0, domain, state} */
	uint32_t set[3] = {0, pd, ON};
	assert_int_equal(lx_xfer(actor, POWER, 0x4, set, 3, 0), 0);
	assert_int_equal(actor->rx_len, 0);
	lx_expect_note(watcher, POWER, 0, pd, actor_id, ON, 0);
	assert_int_equal(lx_xfer(actor, POWER, 0x5, &pd, 1, 4), 0);
	assert_int_equal(le32(actor->rx), ON);
	set[2] = OFF;
	assert_int_equal(lx_xfer(actor, POWER, 0x4, set, 3, 0), 0);
	lx_expect_note(watcher, POWER, 0, pd, actor_id, OFF, 0);
	assert_int_equal(lx_xfer(actor, POWER, 0x5, &pd, 1, 4), 0);
	assert_int_equal(le32(actor->rx), OFF);
	lx_notify(watcher, POWER, 0x6, pd, 0);
	if (fd == UINT32_MAX)
		return; /* a board without performance domains */

	/* cpufreq: LEVEL_SET {domain, level}, LEVEL_GET; notifications */
	uint32_t top = p->opp[p->opp_count - 1].perf, low = p->opp[0].perf;
	lx_notify(watcher, PERF, 0xa, fd, 1);
	lx_notify(watcher, PERF, 0x9, fd, 1);
	uint32_t lv[2] = {fd, top};
	assert_int_equal(lx_xfer(actor, PERF, 0x7, lv, 2, 0), 0);
	assert_int_equal(actor->rx_len, 0);
	lx_expect_note(watcher, PERF, 1, fd, actor_id, top, 0);
	assert_int_equal(lx_xfer(actor, PERF, 0x8, &fd, 1, 4), 0);
	assert_int_equal(le32(actor->rx), top);
	/* scmi_perf_limits_set: {domain, max, min}; the level follows */
	if (p->opp_count > 1) {
		uint32_t lim[3] = {fd, low, low};
		assert_int_equal(lx_xfer(actor, PERF, 0x5, lim, 3, 0), 0);
		lx_expect_note(watcher, PERF, 0, fd, actor_id, low, low);
		lx_expect_note(watcher, PERF, 1, fd, 0, low, 0);
		assert_int_equal(lx_xfer(actor, PERF, 0x6, &fd, 1, 8), 0);
		assert_int_equal(le32(actor->rx), low);
		assert_int_equal(le32(actor->rx + 4), low);
		lim[1] = top;
		assert_int_equal(lx_xfer(actor, PERF, 0x5, lim, 3, 0), 0);
		lx_expect_note(watcher, PERF, 0, fd, actor_id, top, low);
		lx_expect_note(watcher, PERF, 1, fd, 0, top, 0);
	}
	/* min > max: the spec's INVALID_PARAMETERS, -EINVAL in the driver */
	if (p->opp_count > 1) {
		uint32_t bad[3] = {fd, low, top};
		assert_int_equal(lx_xfer(actor, PERF, 0x5, bad, 3, 0),
				 DMN_SCMI_INVALID_PARAMETERS);
	}
	lv[1] = 0; /* domino's withdrawal, so the domain may go off */
	assert_int_equal(lx_xfer(actor, PERF, 0x7, lv, 2, 0), 0);
	lx_notify(watcher, PERF, 0xa, fd, 0);
	lx_notify(watcher, PERF, 0x9, fd, 0);
	client_drain(watcher->c);
	client_drain(actor->c);
}

/* Everything an agent's driver does at probe. */
static void lx_probe(struct lx *l, const struct lx_expect *e,
		     struct lx_power_dom *power, struct lx_perf_dom *perf)
{
	lx_base(l, e);
	lx_power(l, e, power);
	lx_perf(l, e, perf);
}

/* ---- in process: a hand-built context --------------------------------------
 */

enum { RAIL, LITTLE, GATE, N_DOMS };
enum { OSPM = 3, GUEST = 40, OTHER = 9 };
#define N_RAIL 21

struct world {
	struct dmn_ctx *ctx;
	struct dmn_sim_providers sp;
	dmn_domain_t dom[N_DOMS];
	struct dmn_scmi_server *srv;
	struct client ospm, guest, other;
	uint32_t rail_levels[N_RAIL];
	struct dmn_scmi_perf_level rail[N_RAIL], little[1];
};

static int round_rail(void *user, dmn_domain_t dom, uint32_t level,
		      uint32_t *rounded)
{
	(void)dom;
	const uint32_t *levels = user;
	for (unsigned i = 0; i < N_RAIL; i++)
		if (levels[i] >= level) {
			*rounded = levels[i];
			return 0;
		}
	return -ERANGE;
}

static void world_init(struct world *w, size_t max_msg)
{
	memset(w, 0, sizeof(*w));
	assert_int_equal(dmn_ctx_create(NULL, &w->ctx), 0);
	dmn_sim_providers_init(&w->sp, w->ctx, NULL, 0);
	/* a name of 20 bytes: cut to 15 on the wire */
	const char *names[N_DOMS] = {"rail-with-a-long-name", "little", "gate"};
	for (int i = 0; i < N_DOMS; i++) {
		struct dmn_domain_desc d = {names[i],
					   i == GATE ? &dmn_sim_providers_gate
						     : &dmn_sim_providers_rail,
					   &w->sp, 0};
		assert_int_equal(dmn_domain_create(w->ctx, &d, &w->dom[i]), 0);
	}
	for (unsigned i = 0; i < N_RAIL; i++) {
		w->rail_levels[i] = 100 + 7 * i;
		w->rail[i] = (struct dmn_scmi_perf_level){
		    w->rail_levels[i], 3 * i, (uint16_t)(50 + i), 3000 * i + 1};
	}
	w->little[0] = (struct dmn_scmi_perf_level){1, 0, 0, 0};
	assert_int_equal(dmn_domain_set_rounding(w->ctx, w->dom[RAIL], round_rail,
						w->rail_levels),
			 0);
	assert_int_equal(dmn_link_add(w->ctx, w->dom[RAIL], w->dom[GATE]), 0);
	struct dmn_scmi_power_domain power[N_DOMS];
	for (int i = 0; i < N_DOMS; i++)
		power[i] = (struct dmn_scmi_power_domain){w->dom[i], names[i]};
	struct dmn_scmi_perf_domain perf[2] = {
	    {w->dom[RAIL], names[RAIL], w->rail, N_RAIL},
	    {w->dom[LITTLE], names[LITTLE], w->little, 1}};
	static const uint8_t all = 0xff;
	/* the guest capped to 2.0: both versions' parsing */
	struct dmn_scmi_agent agents[3] = {
	    {OSPM, "linux-ospm", &all, &all, 0, 0},
	    {GUEST, "guest", NULL, NULL, DMN_SCMI_PROTOCOL_VERSION_2_0, 0},
	    {OTHER, "other", &all, &all, 0, 0}};
	struct dmn_scmi_config cfg = {.ctx = w->ctx,
				  .power = power,
				  .n_power = N_DOMS,
				  .perf = perf,
				  .n_perf = 2,
				  .agents = agents,
				  .n_agents = 3,
				  .max_msg = max_msg};
	struct client *const clients[3] = {&w->ospm, &w->guest, &w->other};
	w->srv = client_inproc_serve(&cfg, clients);
}

static void world_fini(struct world *w)
{
	dmn_scmi_server_destroy(w->srv);
	dmn_ctx_destroy(w->ctx);
}

static void world_expect(const struct world *w, struct lx_expect *e,
			 uint32_t id, const char *name, int may_act)
{
	memset(e, 0, sizeof(*e));
	e->n_agents = 3;
	e->agent_id = id;
	e->agent_name = name;
	e->may_act = may_act;
	e->n_power = N_DOMS;
	e->power_names[RAIL] = "rail-with-a-long-name";
	e->power_names[LITTLE] = "little";
	e->power_names[GATE] = "gate";
	e->n_perf = 2;
	e->perf_names[0] = "rail-with-a-long-name";
	e->perf_names[1] = "little";
	e->levels[0] = w->rail_levels;
	e->n_levels[0] = N_RAIL;
	static const uint32_t one = 1;
	e->levels[1] = &one;
	e->n_levels[1] = 1;
	e->uw = 1;
}

static void run_inproc(size_t max_msg)
{
	struct world w;
	world_init(&w, max_msg);
	static struct lx ospm, guest;
	ospm = (struct lx){.c = &w.ospm, .who = "ospm", .max_msg = max_msg};
	guest = (struct lx){
	    .c = &w.guest, .who = "guest", .max_msg = max_msg, .v2 = 1};
	struct lx_expect e;
	static struct lx_perf_dom perf[LX_MAX_DOMAINS];
	static struct lx_power_dom power[LX_MAX_DOMAINS];
	world_expect(&w, &e, OSPM, "linux-ospm", 1);
	lx_probe(&ospm, &e, power, perf);
	/* the power (3.0: uW) and latencies as given */
	for (unsigned k = 0; k < N_RAIL; k++) {
		assert_int_equal(perf[0].opp[k].power, 3000 * k + 1);
		assert_int_equal(perf[0].opp[k].latency, 50 + k);
	}
	world_expect(&w, &e, GUEST, "guest", 0);
	lx_probe(&guest, &e, power, perf);
	for (unsigned k = 0; k < N_RAIL; k++)
		assert_int_equal(perf[0].opp[k].power, 3 * k); /* 2.0: mW */
	lx_run(&ospm, &guest, OSPM, GATE, 0, &perf[0]);
	lx_run(&ospm, &guest, OSPM, LITTLE, 1, &perf[1]);
	assert_int_equal(dmn_scmi_dropped(w.srv), 0);
	world_fini(&w);
}

static void test_inproc_default(void **state)
{
	(void)state;
	run_inproc(DMN_SCMI_DEFAULT_MAX_MSG);
}

/* 40 bytes: two levels a page, and LIST_PROTOCOLS still whole */
static void test_inproc_smallest(void **state)
{
	(void)state;
	run_inproc(DMN_SCMI_MIN_MSG);
}

/* ---- over the sockets of `domino scmi-serve` ------------------------------
 */

static const char *domino_bin, *demo_dtb;
static pid_t server;

static int kill_server(void **state)
{
	(void)state;
	if (server > 0) {
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
	}
	server = 0;
	return 0;
}

/* `--list`: the names the server will use */
struct listing {
	unsigned n_power, n_perf;
	char power[LX_MAX_DOMAINS][64], perf[LX_MAX_DOMAINS][64];
};

static void read_listing(const char *agents, struct listing *ls)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "'%s' scmi-serve '%s' --agents '%s' --list",
		 domino_bin, demo_dtb, agents);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	memset(ls, 0, sizeof(*ls));
	char line[512], name[64];
	unsigned i;
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "power %u %63s", &i, name) == 2) {
			assert_true(i == ls->n_power && i < LX_MAX_DOMAINS);
			strcpy(ls->power[ls->n_power++], name);
		} else if (sscanf(line, "perf %u %63s", &i, name) == 2) {
			assert_true(i == ls->n_perf && i < LX_MAX_DOMAINS);
			strcpy(ls->perf[ls->n_perf++], name);
		}
	}
	assert_int_equal(pclose(p), 0);
}

static void test_socket(void **state)
{
	(void)state;
	if (!domino_bin) {
		skip();
		return;
	}
	char dir[] = "/tmp/domino-lx-XXXXXX", agents[64], path[2][96];
	assert_non_null(mkdtemp(dir));
	snprintf(agents, sizeof(agents), "%s/agents", dir);
	FILE *f = fopen(agents, "w");
	assert_non_null(f);
	/* ids that are not 1..N, as Linux's DISCOVER_AGENT loop assumes */
	fprintf(f, "agent 5 linux power all perf all\n"
		   "agent 17 guest version 2.0\n");
	fclose(f);
	snprintf(path[0], sizeof(path[0]), "%s/agent5.sock", dir);
	snprintf(path[1], sizeof(path[1]), "%s/agent17.sock", dir);
	static struct listing ls;
	read_listing(agents, &ls);
	server = fork();
	assert_true(server >= 0);
	if (!server) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(domino_bin, domino_bin, "scmi-serve", demo_dtb, "--agents",
		      agents, "--socket-dir", dir, (char *)NULL);
		_exit(127);
	}
	/* a socket that exists accepts (docs/scmi.md, Transport and
	 * framing: clients find it by name;
	 * it once appeared at bind and refused until listen): each is
	 * connected to as soon as it appears, watched without sleeping */
	struct client cl[2];
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int k = 0; k < 2; k++) {
		while (access(path[k], F_OK)) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			assert_true(now.tv_sec - t0.tv_sec < 60);
			assert_int_equal(waitpid(server, NULL, WNOHANG), 0);
			sched_yield();
		}
		assert_int_equal(client_connect(&cl[k], path[k], k ? 17 : 5), 0);
	}
	static struct lx lx0, lx1;
	lx0 = (struct lx){
	    .c = &cl[0], .who = "linux", .max_msg = DMN_SCMI_DEFAULT_MAX_MSG};
	lx1 = (struct lx){.c = &cl[1],
			  .who = "guest",
			  .max_msg = DMN_SCMI_DEFAULT_MAX_MSG,
			  .v2 = 1};
	static struct lx_expect e;
	static struct lx_perf_dom perf[LX_MAX_DOMAINS];
	static struct lx_power_dom power[LX_MAX_DOMAINS];
	memset(&e, 0, sizeof(e));
	e.n_agents = 2;
	e.n_power = ls.n_power;
	e.n_perf = ls.n_perf;
	e.uw = -1; /* the socket test compares the two agents instead */
	for (unsigned i = 0; i < ls.n_power; i++)
		e.power_names[i] = ls.power[i];
	for (unsigned j = 0; j < ls.n_perf; j++)
		e.perf_names[j] = ls.perf[j];
	e.agent_id = 17;
	e.agent_name = "guest";
	lx_probe(&lx1, &e, power, perf);
	static struct lx_perf_dom perf_v2[LX_MAX_DOMAINS];
	memcpy(perf_v2, perf, sizeof(perf));
	e.agent_id = 5;
	e.agent_name = "linux";
	e.may_act = 1;
	lx_probe(&lx0, &e, power, perf);
	/* the same power, in uW where the 3.0 agent was told so */
	for (unsigned j = 0; j < ls.n_perf && j < LX_MAX_DOMAINS; j++)
		for (unsigned k = 0; k < perf[j].opp_count; k++)
			assert_int_equal(p_uw ? perf[j].opp[k].power / 1000
					      : perf[j].opp[k].power,
					 perf_v2[j].opp[k].power);
	/* the last power domain that is off at the start */
	uint32_t pd = ls.n_power;
	while (pd-- > 0 && power[pd].state != OFF)
		;
	assert_true(pd < ls.n_power);
	lx_run(&lx0, &lx1, 5, pd, ls.n_perf ? 0 : UINT32_MAX, &perf[0]);
	client_close(&cl[0]);
	client_close(&cl[1]);
	kill(server, SIGTERM);
	int status;
	assert_int_equal(waitpid(server, &status, 0), server);
	server = 0;
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	unlink(agents);
	assert_int_equal(rmdir(dir), 0);
}

int main(int argc, char **argv)
{
	if (argc == 3) {
		domino_bin = argv[1];
		demo_dtb = argv[2];
	}
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_inproc_default),
	    cmocka_unit_test(test_inproc_smallest),
	    cmocka_unit_test_teardown(test_socket, kill_server),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
