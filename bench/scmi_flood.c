/* SPDX-License-Identifier: MIT */
/*
 * domino-scmi-flood N - an SCMI message flood for bench/growth.sh
 *
 * A context of N flat domains, each an SCMI power domain and a performance
 * domain of two levels, served to 4 agents that may act on all of them.
 * Every agent subscribes to every domain's level and power notifications
 * (4N subscriptions each), then the agents send 8N commands in turn: a
 * LEVEL_SET and a POWER_STATE_SET (on, then off) on domain k % N, each
 * followed by dmn_scmi_deliver(), which hands every notification to a
 * counting sink. Prints the counts; bench/growth.sh times it at N and 4N
 * (messages and domains both grow 4x: linear is 4x the CPU).
 * Exit 0, or 1 when a call fails or a command is not answered SUCCESS.
 */
#include <domino/domain.h>
#include <domino/scmi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AGENTS 4

static int noop_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return 0;
}

static const struct dmn_domain_ops rail_ops = {
	.set_performance_state = noop_pstate,
};

static void count_sent(void *user, uint32_t agent_id, const void *msg,
		       size_t len)
{
	(void)agent_id;
	(void)msg;
	(void)len;
	++*(unsigned long *)user;
}

/* One command from @agent: header (@protocol, @msg) and up to 3 words;
 * 0 when the reply's status is SUCCESS. */
static int command(struct dmn_scmi_server *srv, uint32_t agent, uint32_t protocol,
		   uint32_t msg, const uint32_t *words, unsigned n)
{
	uint32_t m[4] = {dmn_scmi_header(protocol, msg, DMN_SCMI_TYPE_COMMAND,
					 agent & 0x3ffu)};
	memcpy(m + 1, words, n * sizeof(*words));
	uint8_t reply[DMN_SCMI_DEFAULT_MAX_MSG];
	size_t len = 0;
	int32_t status;
	if (dmn_scmi_handle(srv, agent, m, 4 * (n + 1), reply, sizeof(reply),
			    &len) ||
	    len < 8)
		return -1;
	memcpy(&status, reply + 4, 4);
	return status == DMN_SCMI_SUCCESS ? 0 : -1;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	unsigned long n = argc == 2 ? strtoul(argv[1], &end, 10) : 0;
	if (!end || *end || n < 1 || n > 65535) {
		fprintf(stderr, "usage: domino-scmi-flood N (1..65535 domains)\n");
		return 2;
	}
	static const struct dmn_scmi_perf_level levels[2] = {{10, 0, 0, 0},
							     {20, 0, 0, 0}};
	struct dmn_ctx *ctx = NULL;
	dmn_domain_t *dom = calloc(n, sizeof(*dom));
	struct dmn_scmi_power_domain *power = calloc(n, sizeof(*power));
	struct dmn_scmi_perf_domain *perf = calloc(n, sizeof(*perf));
	uint8_t *all = malloc(n / 8 + 1);
	if (!dom || !power || !perf || !all || dmn_ctx_create(NULL, &ctx))
		return 1;
	memset(all, 0xff, n / 8 + 1);
	for (unsigned long k = 0; k < n; k++) {
		struct dmn_domain_desc desc = {.name = "rail", .ops = &rail_ops};
		if (dmn_domain_create(ctx, &desc, &dom[k]))
			return 1;
		power[k] = (struct dmn_scmi_power_domain){dom[k], "rail"};
		perf[k] = (struct dmn_scmi_perf_domain){dom[k], "rail", levels, 2};
	}
	static const char *names[AGENTS] = {"a1", "a2", "a3", "a4"};
	struct dmn_scmi_agent agents[AGENTS];
	for (unsigned a = 0; a < AGENTS; a++)
		agents[a] =
		    (struct dmn_scmi_agent){a + 1, names[a], all, all, 0, 0};
	unsigned long sent = 0;
	struct dmn_scmi_config cfg = {.ctx = ctx,
				      .power = power,
				      .n_power = (unsigned)n,
				      .perf = perf,
				      .n_perf = (unsigned)n,
				      .agents = agents,
				      .n_agents = AGENTS,
				      .send = count_sent,
				      .send_user = &sent};
	struct dmn_scmi_server *srv = NULL;
	if (dmn_scmi_server_create(&cfg, &srv))
		return 1;
	int bad = 0;
	for (uint32_t a = 1; a <= AGENTS; a++)
		for (uint32_t k = 0; k < n; k++) {
			const uint32_t on[2] = {k, 1};
			bad |= command(srv, a, DMN_SCMI_PROTOCOL_PERF, 0xA, on, 2);
			bad |= command(srv, a, DMN_SCMI_PROTOCOL_POWER, 0x6, on, 2);
		}
	unsigned long commands = 0;
	for (unsigned long i = 0; i < 8 * n && !bad; i += 2) {
		uint32_t a = (uint32_t)(i / 2 % AGENTS) + 1, k = (uint32_t)(i / 2 % n);
		const uint32_t level[2] = {k, (i / 2 / n) % 2 ? 10u : 20u};
		const uint32_t state[3] = {0, k,
					   (i / 2 / n) % 2 ? DMN_SCMI_POWER_OFF
							   : DMN_SCMI_POWER_ON};
		bad |= command(srv, a, DMN_SCMI_PROTOCOL_PERF, 0x7, level, 2);
		bad |= command(srv, a, DMN_SCMI_PROTOCOL_POWER, 0x4, state, 3);
		commands += 2;
		if (dmn_scmi_deliver(srv) < 0)
			bad = 1;
	}
	printf("domains %lu agents %u commands %lu notifications %lu%s\n", n,
	       AGENTS, commands, sent, bad ? " (a command failed)" : "");
	dmn_scmi_server_destroy(srv);
	dmn_ctx_destroy(ctx);
	free(dom);
	free(power);
	free(perf);
	free(all);
	return bad;
}
