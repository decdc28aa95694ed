/* SPDX-License-Identifier: MIT */
/*
 * An agent at SCMI version 2.0 gets exactly the answers domino gave before
 * it served newer versions (docs/scmi.md, Versions). This program drives a
 * fixed server with a fixed pseudo-random sequence of messages (every
 * message id of the three protocols and beyond, good and bad payloads,
 * other message types, callbacks that fail) and prints every message sent,
 * every reply and every delayed response or notification, in hex.
 *
 *   v2_transcript            the agents capped to 2.0 in the configuration
 *   v2_transcript negotiate  the agents at the versions served, each first
 *                            negotiating 2.0 on every protocol (those three
 *                            exchanges are not printed)
 *
 * Both must print v2_transcript.txt byte for byte: that file is this
 * program's output built against the sources before the newer versions
 * (git archive 7150f71 src include; scripts in tests/scmi/CMakeLists.txt),
 * where neither mode changes anything. Levels carry a power in uW too,
 * which no 2.0 answer may show, and names longer than 15 and 63 bytes,
 * which 2.0 cuts at 15.
 */
#include <domino/context.h>
#include <domino/domain.h>
#include <domino/scmi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rn(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (uint32_t)(rng % n) : (uint32_t)rng;
}

/* Every 7th callback fails, so some commands answer HARDWARE_ERROR. */
static unsigned calls;

static int maybe_fail(void)
{
	return ++calls % 7 == 0 ? -5 /* -EIO */ : 0;
}

static int on(void *user, dmn_domain_t dom)
{
	(void)user;
	(void)dom;
	return maybe_fail();
}

static int off(void *user, dmn_domain_t dom, int idle)
{
	(void)user;
	(void)dom;
	(void)idle;
	return maybe_fail();
}

static int pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return maybe_fail();
}

static const struct dmn_domain_ops rail_ops = {on, off, pstate, NULL};

static void hex(const char *tag, uint32_t agent, const void *p, size_t len)
{
	const uint8_t *b = p;
	printf("%s%u", tag, agent);
	for (size_t i = 0; i < len; i++)
		printf("%s%02x", i % 4 ? "" : " ", b[i]);
	printf("\n");
}

static void on_send(void *user, uint32_t agent, const void *msg, size_t len)
{
	(void)user;
	hex("! ", agent, msg, len);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static const uint32_t levels_a[] = {16, 48, 64, 128, 192, 256, 320, 384,
				    416, 480, 512, 600, 700};
#define N_A (sizeof(levels_a) / sizeof(*levels_a))

static int round_a(void *user, dmn_domain_t dom, uint32_t level,
		   uint32_t *rounded)
{
	(void)user;
	(void)dom;
	for (unsigned i = 0; i < N_A; i++)
		if (levels_a[i] >= level) {
			*rounded = levels_a[i];
			return 0;
		}
	return -34; /* -ERANGE */
}

/* One random message for the sequence into @m; returns its length. */
static size_t message(uint8_t *m, unsigned n_power, unsigned n_perf)
{
	static const uint32_t protos[] = {0x10, 0x11, 0x13};
	uint32_t proto = protos[rn(3)];
	if (rn(30) == 0)
		proto = rn(256);
	uint32_t id = rn(4) ? rn(13) : rn(20);
	if (rn(3) == 0) { /* the state changes */
		proto = rn(2) ? 0x11 : 0x13;
		id = proto == 0x11 ? 4 : (rn(3) ? 7 : 5);
	}
	uint32_t type = rn(30) == 0 ? 1 + rn(3) : 0;
	put32(m, dmn_scmi_header(proto, id, type, rn(1024)));
	unsigned n_dom = proto == 0x13 ? n_perf : n_power;
	uint32_t dom = rn(8) ? rn(n_dom + 1) : rn(0);
	uint32_t w[3] = {dom, rn(4) ? levels_a[rn(N_A)] : rn(800), rn(800)};
	if (proto == 0x11 && id == 4) {
		w[0] = rn(6) ? rn(2) : rn(0);
		w[1] = dom;
		w[2] = rn(6) ? (rn(2) ? 0 : 0x40000000u) : rn(0);
	} else if (id == 2) {
		w[0] = rn(20);
	} else if (proto == 0x10 && id == 6) {
		w[0] = rn(4);
	} else if (proto == 0x10 && id == 7) {
		w[0] = rn(3) ? 1 + rn(3) : 0xffffffffu;
	} else if (id == 0x10) {
		w[0] = rn(2) ? 0x20000 : rn(2) ? 0x30000 : 0x20001;
	} else if (proto == 0x13 && id == 4) {
		w[1] = rn(14);
	} else if (proto == 0x13 && id == 5 && rn(4)) {
		uint32_t a = levels_a[rn(N_A)], b = levels_a[rn(N_A)];
		w[1] = a > b ? a : b;
		w[2] = a > b ? b : a;
	} else if ((proto == 0x11 && id == 6) ||
		   (proto == 0x13 && (id == 9 || id == 10))) {
		w[1] = rn(5) ? rn(2) : rn(0);
	}
	unsigned nw = rn(10) ? rn(4) : 0;
	/* mostly the right size for the message, as 2.0 counts it */
	static const uint8_t words[3][20] = {
	    {0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
	    {0, 0, 1, 1, 3, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
	    {0, 0, 1, 1, 2, 3, 1, 2, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1}};
	int pi = proto == 0x10 ? 0 : proto == 0x11 ? 1 : proto == 0x13 ? 2 : -1;
	if (pi >= 0 && id < 20 && rn(8))
		nw = words[pi][id];
	for (unsigned k = 0; k < nw; k++)
		put32(m + 4 + 4 * k, w[k]);
	return 4 + 4 * (size_t)nw - (rn(40) == 0 ? 1 + rn(3) : 0);
}

static void run(size_t max_msg, int negotiate)
{
	struct dmn_ctx *ctx;
	if (dmn_ctx_create(NULL, &ctx))
		exit(1);
	/* a rail with levels, a second one, a gate under both, a domain
	 * with a 70-byte name */
	static const char *names[4] = {
	    "cx", "a-rail-with-a-long-name", "gdsc",
	    "a-domain-whose-name-is-longer-than-sixty-three-bytes-to-be-cut-x"};
	dmn_domain_t dom[4];
	for (int i = 0; i < 4; i++) {
		struct dmn_domain_desc d = {.name = names[i], .ops = &rail_ops};
		if (dmn_domain_create(ctx, &d, &dom[i]))
			exit(1);
	}
	dmn_domain_set_rounding(ctx, dom[0], round_a, NULL);
	dmn_domain_set_rounding(ctx, dom[1], round_a, NULL);
	dmn_link_add(ctx, dom[0], dom[2]);
	dmn_link_add(ctx, dom[1], dom[2]);
	struct dmn_scmi_perf_level la[N_A];
	for (unsigned i = 0; i < N_A; i++) {
		memset(&la[i], 0, sizeof(la[i]));
		la[i].level = levels_a[i];
		la[i].power_cost = 3 * i;
		la[i].latency_us = (uint16_t)(10 + i);
#ifdef DMN_SCMI_BASE_VERSION
		la[i].power_uw = 3000 * i + 17;
#endif
	}
	struct dmn_scmi_power_domain power[4];
	for (int i = 0; i < 4; i++) {
		power[i].domain = dom[i];
		power[i].name = names[i];
	}
	struct dmn_scmi_perf_domain perf[2];
	for (int j = 0; j < 2; j++) {
		perf[j].domain = dom[j];
		perf[j].name = names[j];
		perf[j].levels = la;
		perf[j].n_levels = N_A;
	}
	static const uint8_t all = 0xff, some = 0x5;
	struct dmn_scmi_agent agents[2];
	memset(agents, 0, sizeof(agents));
	agents[0].id = 1;
	agents[0].name = "ospm";
	agents[0].power = &all;
	agents[0].perf = &all;
	agents[1].id = 3;
	agents[1].name = "guest-with-a-long-name";
	agents[1].power = &some;
	agents[1].perf = &some;
#ifdef DMN_SCMI_BASE_VERSION
	for (int a = 0; a < 2; a++)
		agents[a].version = negotiate ? 0 : DMN_SCMI_PROTOCOL_VERSION_2_0;
#endif
	struct dmn_scmi_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.ctx = ctx;
	cfg.power = power;
	cfg.n_power = 4;
	cfg.perf = perf;
	cfg.n_perf = 2;
	cfg.agents = agents;
	cfg.n_agents = 2;
	cfg.max_msg = max_msg;
	cfg.send = on_send;
	struct dmn_scmi_server *srv;
	if (dmn_scmi_server_create(&cfg, &srv))
		exit(1);
	uint8_t msg[64], reply[4096];
	size_t len;
	for (int a = 0; negotiate && a < 2; a++)
		for (uint32_t p = 0x10; p <= 0x13; p++) {
			put32(msg, dmn_scmi_header(p, 0x10, 0, 1));
			put32(msg + 4, DMN_SCMI_PROTOCOL_VERSION_2_0);
			dmn_scmi_handle(srv, agents[a].id, msg, 8, reply,
					sizeof(reply), &len);
		}
	printf("# max_msg %zu\n", max_msg);
	for (unsigned i = 0; i < 700; i++) {
		uint32_t agent = agents[rn(2)].id;
		memset(msg, 0, sizeof(msg));
		size_t n = message(msg, 4, 2);
		size_t cap = rn(6) ? sizeof(reply) : 40 + rn(100);
		hex("> ", agent, msg, n);
		if (dmn_scmi_handle(srv, agent, msg, n, reply, cap, &len))
			exit(1);
		hex("< ", agent, reply, len);
		if (rn(5))
			dmn_scmi_deliver(srv);
	}
	dmn_scmi_deliver(srv);
	dmn_scmi_server_destroy(srv);
	dmn_ctx_destroy(ctx);
}

int main(int argc, char **argv)
{
	int negotiate = argc > 1 && !strcmp(argv[1], "negotiate");
	run(128, negotiate);
	run(40, negotiate);
	run(300, negotiate);
	return 0;
}
