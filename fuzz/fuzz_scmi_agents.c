/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: dmn_scmi_agents_parse, the agents file of `domino
 * scmi-serve --agents` (docs/scmi.md), on a fixed board map whose domain
 * names include ones that look like numbers, ranges and keywords ("7",
 * "1-2", "none") and one cut to 15 bytes on the wire.
 *
 * Input: the file's bytes. The input's length modulo 4 picks the error
 * buffer (none, 1 byte, 12 bytes, 256 bytes). Checked:
 *  - failure: -EINVAL with "LINE: error: " in front of a NUL-ended message
 *    that fits the buffer (or -ENOMEM), and nothing left allocated;
 *  - success: 1..255 agents, ids in 1..255 and names of 1..15 bytes
 *    without blanks, both unique, permission bits only for domains the
 *    board has; and dmn_scmi_server_create accepts what was parsed (the
 *    server is created on a small context and destroyed again).
 */
#include <domino/scmi.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_POWER 11
#define N_PERF 3

static const char *const power_names[N_POWER] = {
    "cx", "mx", "gfx_rail", "7", "1-2", "none", "cpu_pd0", "cpu_pd1",
    "rpmhpd:1", "a-domain-name-longer-than-15", "gcc:0"};
static const uint32_t levels_a[] = {16, 48, 64, 128, 256};
static const uint32_t levels_b[] = {1};

static struct dmn_ctx *ctx;
static dmn_domain_t doms[N_POWER];
static struct dmn_scmi_power_domain power[N_POWER];
static struct dmn_scmi_perf_domain perf[N_PERF];
static struct dmn_scmi_perf_level la[5], lb[1];
static struct dmn_scmi_board_map map;

static int on(void *user, dmn_domain_t dom)
{
	(void)user;
	(void)dom;
	return 0;
}

static int off(void *user, dmn_domain_t dom, int idle)
{
	(void)user;
	(void)dom;
	(void)idle;
	return 0;
}

static int pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return 0;
}

static const struct dmn_domain_ops rail = {
    .power_on = on, .power_off = off, .set_performance_state = pstate};

static void setup(void)
{
	if (dmn_ctx_create(NULL, &ctx))
		abort();
	for (unsigned i = 0; i < N_POWER; i++) {
		struct dmn_domain_desc d = {power_names[i], &rail, NULL, 0};
		if (dmn_domain_create(ctx, &d, &doms[i]))
			abort();
		power[i] = (struct dmn_scmi_power_domain){doms[i], power_names[i]};
	}
	for (unsigned k = 0; k < 5; k++)
		la[k] = (struct dmn_scmi_perf_level){levels_a[k], k, 0, 0};
	lb[0] = (struct dmn_scmi_perf_level){levels_b[0], 0, 0, 0};
	/* perf names repeat power ones, and one is a number */
	perf[0] = (struct dmn_scmi_perf_domain){doms[0], "cx", la, 5};
	perf[1] = (struct dmn_scmi_perf_domain){doms[3], "7", lb, 1};
	perf[2] = (struct dmn_scmi_perf_domain){doms[2], "gfx_rail", la, 5};
	map.power = power;
	map.n_power = N_POWER;
	map.perf = perf;
	map.n_perf = N_PERF;
}

static int bits_within(const uint8_t *bits, unsigned n, size_t bytes)
{
	if (!bits)
		return 1;
	for (unsigned i = n; i < bytes * 8; i++)
		if (bits[i / 8] >> (i % 8) & 1)
			return 0;
	return 1;
}

static void check_error(int rc, const char *err, size_t err_size)
{
	if (rc == -ENOMEM)
		return;
	if (rc != -EINVAL)
		abort();
	if (!err_size)
		return;
	if (!memchr(err, 0, err_size))
		abort(); /* not NUL-ended within the buffer */
	if (err_size < 64)
		return; /* cut: the prefix may not fit */
	unsigned line;
	char tail[16];
	if (sscanf(err, "%u: error: %15s", &line, tail) != 2 || !line)
		abort();
}

static void check_agents(const struct dmn_scmi_agents *a)
{
	if (!a->n_agents || a->n_agents > DMN_SCMI_MAX_AGENTS || !a->agents)
		abort();
	for (unsigned i = 0; i < a->n_agents; i++) {
		const struct dmn_scmi_agent *x = &a->agents[i];
		size_t len = x->name ? strlen(x->name) : 0;
		if (!x->id || x->id > DMN_SCMI_MAX_AGENTS || !len ||
		    len >= DMN_SCMI_NAME_SIZE || strpbrk(x->name, " \t\r\n#"))
			abort();
		if (x->flags & ~DMN_SCMI_AGENT_OWN_READS)
			abort();
		if (!bits_within(x->power, N_POWER, (N_POWER + 7) / 8) ||
		    !bits_within(x->perf, N_PERF, (N_PERF + 7) / 8))
			abort();
		for (unsigned j = 0; j < i; j++)
			if (a->agents[j].id == x->id ||
			    !strcmp(a->agents[j].name, x->name))
				abort();
	}
	struct dmn_scmi_config cfg = {.ctx = ctx,
				  .power = power,
				  .n_power = N_POWER,
				  .perf = perf,
				  .n_perf = N_PERF,
				  .agents = a->agents,
				  .n_agents = a->n_agents};
	struct dmn_scmi_server *srv;
	int err = dmn_scmi_server_create(&cfg, &srv);
	if (err == -ENOMEM)
		return;
	if (err)
		abort();
	dmn_scmi_server_destroy(srv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!ctx)
		setup();
	static const size_t sizes[4] = {0, 1, 12, 256};
	size_t err_size = sizes[size % 4];
	char err[256];
	memset(err, 'x', sizeof(err));
	struct dmn_scmi_agents a;
	int rc = dmn_scmi_agents_parse((const char *)data, size, &map, &a,
				   err_size ? err : NULL, err_size);
	if (rc) {
		check_error(rc, err, err_size);
		if (a.agents || a.n_agents || a.storage)
			abort(); /* a failure leaves nothing */
		return 0;
	}
	check_agents(&a);
	dmn_scmi_agents_free(&a);
	return 0;
}
