/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: dmn_scmi_handle on a small context (two rails with
 * levels, a gate under one of them, a device) served to two agents.
 *
 * Input: byte 0 picks --max-msg (40 + b * 4) and byte 1 arms callback
 * failures (bit k: the k-th callback of each kind fails with -EIO); then
 * records of [agent byte][length byte][length bytes of message]. Each
 * message is handled and delivered; the reply must fit the size, carry a
 * type-0 header and a status the spec defines.
 */
#include <domino/scmi.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t levels_a[] = {16,	 48,  64,  128, 192, 256,
				    320, 384, 416, 480, 512};
static const uint32_t levels_b[] = {48, 64, 128};

static unsigned fail_bits, n_calls;

static int maybe_fail(void)
{
	unsigned k = n_calls++;
	return k < 8 && (fail_bits >> k & 1) ? -EIO : 0;
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

static const struct dmn_domain_ops rail = {on, off, pstate, 0};
static const struct dmn_domain_ops gate = {on, off, NULL, 0};

static int round_up(void *user, dmn_domain_t dom, uint32_t level,
		    uint32_t *rounded)
{
	(void)dom;
	const uint32_t *lv = user;
	unsigned n = lv == levels_a ? 11 : 3;
	for (unsigned i = 0; i < n; i++)
		if (lv[i] >= level) {
			*rounded = lv[i];
			return 0;
		}
	return -ERANGE;
}

static size_t max_msg;

static void on_send(void *user, uint32_t agent, const void *msg, size_t len)
{
	(void)user;
	(void)agent;
	if (len < 8 || len > max_msg)
		abort();
	uint32_t h;
	memcpy(&h, msg, 4);
	if (dmn_scmi_header_type(h) != DMN_SCMI_TYPE_DELAYED_RESPONSE &&
	    dmn_scmi_header_type(h) != DMN_SCMI_TYPE_NOTIFICATION)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	max_msg = 40 + (size_t)data[0] * 4;
	fail_bits = data[1];
	n_calls = 8; /* building the context never fails */
	struct dmn_ctx *ctx;
	if (dmn_ctx_create(NULL, &ctx))
		abort();
	dmn_domain_t d[3];
	const char *names[3] = {"cx", "mx", "gdsc"};
	for (int i = 0; i < 3; i++) {
		struct dmn_domain_desc desc = {names[i], i == 2 ? &gate : &rail,
					      NULL, 0};
		if (dmn_domain_create(ctx, &desc, &d[i]))
			abort();
	}
	dmn_domain_set_rounding(ctx, d[0], round_up, (void *)levels_a);
	dmn_domain_set_rounding(ctx, d[1], round_up, (void *)levels_b);
	dmn_link_add(ctx, d[0], d[2]);
	struct dmn_scmi_perf_level la[11], lb[3];
	for (unsigned i = 0; i < 11; i++)
		la[i] = (struct dmn_scmi_perf_level){levels_a[i], i, 0,
						     1000 * i + 7};
	for (unsigned i = 0; i < 3; i++)
		lb[i] = (struct dmn_scmi_perf_level){levels_b[i], 0, 0, 0};
	struct dmn_scmi_power_domain power[3] = {
	    {d[0], "cx"}, {d[1], "mx"}, {d[2], "gdsc-with-a-long-name"}};
	struct dmn_scmi_perf_domain perf[2] = {{d[0], "cx", la, 11},
					   {d[1], "mx", lb, 3}};
	static const uint8_t all = 0xff, some = 0x5;
	struct dmn_scmi_agent agents[2] = {
	    {1, "ospm", &all, &all, 0, 0},
	    {2, "hyp", &some, &some, DMN_SCMI_PROTOCOL_VERSION_2_0,
	     DMN_SCMI_AGENT_OWN_READS}};
	struct dmn_scmi_config cfg = {.ctx = ctx,
				  .power = power,
				  .n_power = 3,
				  .perf = perf,
				  .n_perf = 2,
				  .agents = agents,
				  .n_agents = 2,
				  .max_msg = max_msg,
				  .send = on_send};
	struct dmn_scmi_server *srv;
	if (dmn_scmi_server_create(&cfg, &srv))
		abort();
	n_calls = 0;
	size_t i = 2;
	uint8_t *reply = malloc(max_msg);
	while (i + 2 <= size) {
		uint32_t agent = data[i] % 3; /* 0: not an agent */
		size_t len = data[i + 1];
		i += 2;
		if (len > size - i)
			len = size - i;
		/* a copy, so ASan sees reads past the message */
		uint8_t *msg = malloc(len ? len : 1);
		memcpy(msg, data + i, len);
		i += len;
		size_t rlen = 0;
		int err =
		    dmn_scmi_handle(srv, agent, msg, len, reply, max_msg, &rlen);
		free(msg);
		if (agent == 0) {
			if (err != -ENOENT)
				abort();
			continue;
		}
		if (err || rlen < 8 || rlen > max_msg || rlen % 4)
			abort();
		uint32_t h;
		int32_t status;
		memcpy(&h, reply, 4);
		memcpy(&status, reply + 4, 4);
		if (dmn_scmi_header_type(h) != DMN_SCMI_TYPE_COMMAND || status > 0 ||
		    status < DMN_SCMI_PROTOCOL_ERROR)
			abort();
		dmn_scmi_deliver(srv);
	}
	free(reply);
	dmn_scmi_server_destroy(srv);
	dmn_ctx_destroy(ctx);
	return 0;
}
