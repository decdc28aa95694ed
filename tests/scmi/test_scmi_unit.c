/* SPDX-License-Identifier: MIT */
/*
 * The SCMI server on a small hand-built context: two rails with levels
 * (cx, mx), a gate under cx (gdsc) and a device on cx, driven through
 * dmn_scmi_handle by three agents. Every message, every status, paging at
 * several --max-msg values, notifications, limits and injected callback
 * failures (the simulator's providers).
 */
#include "client.h"

#include <domino/sim_providers.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

enum { CX, MX, GDSC };
enum { P_CX, P_MX };
enum { OSPM = 1, HYP = 2, GUEST = 7 };

static const uint32_t cx_levels[] = {16,  48,  64,  128, 192, 256,
				     320, 384, 416, 480, 512};
static const uint32_t mx_levels[] = {48, 64, 128};
#define N_CX (sizeof(cx_levels) / sizeof(*cx_levels))
#define N_MX (sizeof(mx_levels) / sizeof(*mx_levels))

struct world {
	struct dmn_ctx *ctx;
	struct dmn_sim_providers sp;
	dmn_domain_t dom[3];
	dmn_device_t venus;
	dmn_attach_t venus_att;
	struct dmn_scmi_server *srv;
	struct client ospm, hyp, guest;
	struct dmn_scmi_perf_level cx[N_CX], mx[N_MX];
};

static int round_up(void *user, dmn_domain_t dom, uint32_t level,
		    uint32_t *rounded)
{
	(void)dom;
	const uint32_t *levels = user;
	unsigned n = levels == cx_levels ? N_CX : N_MX;
	for (unsigned i = 0; i < n; i++)
		if (levels[i] >= level) {
			*rounded = levels[i];
			return 0;
		}
	return -ERANGE;
}

/* The context's allocations fail while this is set. */
static int fail_alloc;

static void *ctx_alloc(void *user, size_t size)
{
	(void)user;
	return fail_alloc ? NULL : malloc(size);
}

static void ctx_free(void *user, void *ptr)
{
	(void)user;
	free(ptr);
}

/* The hypervisor's dmn_scmi_agent.flags in the next world_init. */
static uint32_t hyp_flags;

static void world_init(struct world *w, size_t max_msg)
{
	memset(w, 0, sizeof(*w));
	struct dmn_config dc = {.alloc = {ctx_alloc, ctx_free, NULL}};
	fail_alloc = 0;
	assert_int_equal(dmn_ctx_create(&dc, &w->ctx), 0);
	dmn_sim_providers_init(&w->sp, w->ctx, NULL, 0);
	const char *names[] = {"cx", "mx", "gdsc"};
	for (int i = 0; i < 3; i++) {
		struct dmn_domain_desc d = {names[i],
					   i == GDSC ? &dmn_sim_providers_gate
						     : &dmn_sim_providers_rail,
					   &w->sp, 0};
		assert_int_equal(dmn_domain_create(w->ctx, &d, &w->dom[i]), 0);
	}
	assert_int_equal(dmn_domain_set_rounding(w->ctx, w->dom[CX], round_up,
						(void *)cx_levels),
			 0);
	assert_int_equal(dmn_domain_set_rounding(w->ctx, w->dom[MX], round_up,
						(void *)mx_levels),
			 0);
	assert_int_equal(dmn_link_add(w->ctx, w->dom[CX], w->dom[GDSC]), 0);
	assert_int_equal(dmn_device_create(w->ctx, "venus", &w->venus), 0);
	assert_int_equal(dmn_attach(w->ctx, w->venus, w->dom[CX], &w->venus_att),
			 0);

	for (unsigned i = 0; i < N_CX; i++)
		w->cx[i] = (struct dmn_scmi_perf_level){
		    cx_levels[i], 10 * (i + 1), (uint16_t)i, 0};
	for (unsigned i = 0; i < N_MX; i++)
		w->mx[i] = (struct dmn_scmi_perf_level){mx_levels[i], 0, 0, 0};
	struct dmn_scmi_power_domain power[3] = {
	    {w->dom[CX], "cx"}, {w->dom[MX], "mx"}, {w->dom[GDSC], "gdsc"}};
	struct dmn_scmi_perf_domain perf[2] = {{w->dom[CX], "cx", w->cx, N_CX},
					   {w->dom[MX], "mx", w->mx, N_MX}};
	static const uint8_t all = 0xff, hyp_power = 1u << CX | 1u << GDSC,
			     hyp_perf = 1u << P_CX;
	struct dmn_scmi_agent agents[3] = {
	    {OSPM, "ospm", &all, &all, 0, 0},
	    {HYP, "hypervisor", &hyp_power, &hyp_perf, 0, hyp_flags},
	    {GUEST, "guest", NULL, NULL, 0, 0}};
	struct dmn_scmi_config cfg = {.ctx = w->ctx,
				  .power = power,
				  .n_power = 3,
				  .perf = perf,
				  .n_perf = 2,
				  .agents = agents,
				  .n_agents = 3,
				  .max_msg = max_msg};
	struct client *const clients[3] = {&w->ospm, &w->hyp, &w->guest};
	w->srv = client_inproc_serve(&cfg, clients);
}

static void world_fini(struct world *w)
{
	dmn_scmi_server_destroy(w->srv);
	dmn_ctx_destroy(w->ctx);
}

static int is_on(struct world *w, int dom)
{
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(w->ctx, w->dom[dom], &info), 0);
	return info.on;
}

static uint32_t pstate(struct world *w, int dom)
{
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(w->ctx, w->dom[dom], &info), 0);
	return info.pstate;
}

/* One call with up to 3 argument words; returns the status. */
static int32_t call(struct client *c, uint32_t proto, uint32_t msg, unsigned n,
		    uint32_t a0, uint32_t a1, uint32_t a2, uint32_t *out)
{
	uint32_t args[3] = {a0, a1, a2}, dummy[16];
	return client_call(c, proto, msg, args, n, out ? out : dummy, 16, NULL);
}

#define BASE DMN_SCMI_PROTOCOL_BASE
#define POWER DMN_SCMI_PROTOCOL_POWER
#define PERF DMN_SCMI_PROTOCOL_PERF
#define ON DMN_SCMI_POWER_ON
#define OFF DMN_SCMI_POWER_OFF

static void name_is(const uint32_t *words, const char *want)
{
	char got[17] = {0};
	memcpy(got, words, 16);
	assert_string_equal(got, want);
}

/* ---- Base -----------------------------------------------------------------
 */

static void test_base(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	uint32_t o[16];
	unsigned n;
	assert_int_equal(call(&w.ospm, BASE, 0, 0, 0, 0, 0, o), DMN_SCMI_SUCCESS);
	assert_int_equal(o[0], 0x20001);
	assert_int_equal(call(&w.ospm, BASE, 1, 0, 0, 0, 0, o), DMN_SCMI_SUCCESS);
	assert_int_equal(o[0], 3u << 8 | 2);
	/* 0x0-0x7 and 0x10 NEGOTIATE_PROTOCOL_VERSION */
	for (uint32_t m = 0; m <= 0x11; m++) {
		int there = m <= 7 || m == 0x10;
		assert_int_equal(call(&w.ospm, BASE, 2, 1, m, 0, 0, o),
				 there ? DMN_SCMI_SUCCESS : DMN_SCMI_NOT_FOUND);
		if (there)
			assert_int_equal(o[0], 0);
	}
	assert_int_equal(call(&w.ospm, BASE, 3, 0, 0, 0, 0, o), DMN_SCMI_SUCCESS);
	name_is(o, "domino");
	assert_int_equal(call(&w.ospm, BASE, 4, 0, 0, 0, 0, o), DMN_SCMI_SUCCESS);
	name_is(o, "domino");
	assert_int_equal(call(&w.ospm, BASE, 5, 0, 0, 0, 0, o), DMN_SCMI_SUCCESS);
	assert_int_equal(o[0], DMN_VERSION_MAJOR << 16 |
				   DMN_VERSION_MINOR << 8 | DMN_VERSION_PATCH);
	uint32_t args[1] = {0};
	assert_int_equal(client_call(&w.guest, BASE, 6, args, 1, o, 16, &n),
			 DMN_SCMI_SUCCESS);
	assert_int_equal(n, 2);
	assert_int_equal(o[0], 2);
	assert_int_equal(o[1], 0x11 | 0x13 << 8);
	args[0] = 1;
	assert_int_equal(client_call(&w.guest, BASE, 6, args, 1, o, 16, &n),
			 DMN_SCMI_SUCCESS);
	assert_int_equal(o[0], 1);
	assert_int_equal(o[1], 0x13);
	args[0] = 2;
	assert_int_equal(client_call(&w.guest, BASE, 6, args, 1, o, 16, &n),
			 DMN_SCMI_SUCCESS);
	assert_int_equal(n, 1);
	assert_int_equal(o[0], 0);
	assert_int_equal(call(&w.guest, BASE, 6, 1, 3, 0, 0, o),
			 DMN_SCMI_INVALID_PARAMETERS);
	/* DISCOVER_AGENT: self, the platform, another, none */
	assert_int_equal(call(&w.hyp, BASE, 7, 1, 0xffffffff, 0, 0, o),
			 DMN_SCMI_SUCCESS);
	assert_int_equal(o[0], HYP);
	name_is(o + 1, "hypervisor");
	assert_int_equal(call(&w.hyp, BASE, 7, 1, 0, 0, 0, o), DMN_SCMI_SUCCESS);
	assert_int_equal(o[0], 0);
	name_is(o + 1, "platform");
	assert_int_equal(call(&w.hyp, BASE, 7, 1, GUEST, 0, 0, o),
			 DMN_SCMI_SUCCESS);
	name_is(o + 1, "guest");
	assert_int_equal(call(&w.hyp, BASE, 7, 1, 3, 0, 0, o), DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.hyp, BASE, 7, 1, 256, 0, 0, o),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.hyp, BASE, 8, 1, 1, 0, 0, o), DMN_SCMI_NOT_FOUND);
	world_fini(&w);
}

/* ---- malformed messages
 * ------------------------------------------------------ */

static void test_bad_messages(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	uint8_t reply[256];
	size_t len;
	/* shorter than a header: PROTOCOL_ERROR under a zero header */
	uint8_t two[2] = {0x12, 0x34};
	assert_int_equal(
	    dmn_scmi_handle(w.srv, OSPM, two, 2, reply, sizeof(reply), &len), 0);
	assert_int_equal(len, 8);
	uint32_t h, st;
	memcpy(&h, reply, 4);
	memcpy(&st, reply + 4, 4);
	assert_int_equal(h, 0);
	assert_int_equal((int32_t)st, DMN_SCMI_PROTOCOL_ERROR);
	assert_int_equal(
	    dmn_scmi_handle(w.srv, OSPM, NULL, 0, reply, sizeof(reply), &len), 0);
	assert_int_equal(len, 8);
	/* unknown protocol, unknown message, wrong type, wrong sizes */
	assert_int_equal(call(&w.ospm, 0x14, 0, 0, 0, 0, 0, NULL),
			 DMN_SCMI_NOT_SUPPORTED);
	assert_int_equal(call(&w.ospm, 0x12, 1, 0, 0, 0, 0, NULL),
			 DMN_SCMI_NOT_SUPPORTED);
	assert_int_equal(call(&w.ospm, POWER, 7, 1, 0, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.ospm, PERF, 0xD, 2, 0, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.ospm, PERF, 0xC, 2, 0, 0, 0, NULL),
			 DMN_SCMI_PROTOCOL_ERROR);
	assert_int_equal(call(&w.ospm, BASE, 0xff, 0, 0, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.ospm, BASE, 0, 1, 0, 0, 0, NULL),
			 DMN_SCMI_PROTOCOL_ERROR);
	assert_int_equal(call(&w.ospm, POWER, 4, 2, 0, 0, 0, NULL),
			 DMN_SCMI_PROTOCOL_ERROR);
	assert_int_equal(call(&w.ospm, PERF, 7, 3, 0, 64, 0, NULL),
			 DMN_SCMI_PROTOCOL_ERROR);
	uint8_t odd[7] = {0};
	uint32_t hh = dmn_scmi_header(PERF, 8, 0, 5);
	memcpy(odd, &hh, 4);
	assert_int_equal(
	    dmn_scmi_handle(w.srv, OSPM, odd, 7, reply, sizeof(reply), &len), 0);
	memcpy(&h, reply, 4);
	memcpy(&st, reply + 4, 4);
	assert_int_equal(h, hh);
	assert_int_equal((int32_t)st, DMN_SCMI_PROTOCOL_ERROR);
	/* a notification or delayed response sent to the platform */
	hh = dmn_scmi_header(BASE, 0, DMN_SCMI_TYPE_NOTIFICATION, 9);
	assert_int_equal(
	    dmn_scmi_handle(w.srv, OSPM, &hh, 4, reply, sizeof(reply), &len), 0);
	memcpy(&h, reply, 4);
	assert_int_equal(h, dmn_scmi_header(BASE, 0, DMN_SCMI_TYPE_COMMAND, 9));
	memcpy(&st, reply + 4, 4);
	assert_int_equal((int32_t)st, DMN_SCMI_PROTOCOL_ERROR);
	/* API misuse: no reply at all */
	assert_int_equal(
	    dmn_scmi_handle(w.srv, 3, &hh, 4, reply, sizeof(reply), &len), -ENOENT);
	assert_int_equal(
	    dmn_scmi_handle(w.srv, 0, &hh, 4, reply, sizeof(reply), &len), -ENOENT);
	assert_int_equal(dmn_scmi_handle(w.srv, OSPM, &hh, 4, reply, 39, &len),
			 -ENOSPC);
	assert_int_equal(dmn_scmi_handle(NULL, OSPM, &hh, 4, reply, 64, &len),
			 -EINVAL);
	assert_int_equal(dmn_scmi_handle(w.srv, OSPM, &hh, 4, reply, 64, NULL),
			 -EINVAL);
	/* the server still answers */
	assert_int_equal(call(&w.ospm, BASE, 0, 0, 0, 0, 0, NULL),
			 DMN_SCMI_SUCCESS);
	world_fini(&w);
}

/* ---- paging ----------------------------------------------------------------
 */

static void page_all(size_t max_msg, size_t cap)
{
	struct world w;
	world_init(&w, max_msg);
	size_t limit = cap < max_msg ? cap : max_msg;
	unsigned per_page = (unsigned)((limit - 12) / 12);
	uint32_t seen[N_CX];
	unsigned n_seen = 0;
	while (n_seen < N_CX) {
		uint8_t req[12], reply[512];
		uint32_t h = dmn_scmi_header(PERF, 4, 0, n_seen);
		memcpy(req, &h, 4);
		uint32_t dom = P_CX, idx = n_seen;
		memcpy(req + 4, &dom, 4);
		memcpy(req + 8, &idx, 4);
		size_t len;
		assert_int_equal(
		    dmn_scmi_handle(w.srv, GUEST, req, 12, reply, cap, &len), 0);
		assert_true(len <= limit);
		uint32_t st, num;
		memcpy(&st, reply + 4, 4);
		memcpy(&num, reply + 8, 4);
		assert_int_equal(st, 0);
		unsigned got = num & 0xfff, left = num >> 16;
		unsigned want =
		    N_CX - n_seen < per_page ? N_CX - n_seen : per_page;
		assert_int_equal(got, want);
		assert_int_equal(left, N_CX - n_seen - got);
		assert_int_equal(len, 12 + 12 * got);
		for (unsigned k = 0; k < got; k++) {
			uint32_t lv, pw, lat;
			memcpy(&lv, reply + 12 + 12 * k, 4);
			memcpy(&pw, reply + 16 + 12 * k, 4);
			memcpy(&lat, reply + 20 + 12 * k, 4);
			assert_int_equal(pw, 10 * (n_seen + 1));
			assert_int_equal(lat, n_seen);
			seen[n_seen++] = lv;
		}
	}
	assert_memory_equal(seen, cx_levels, sizeof(cx_levels));
	/* past the end */
	assert_int_equal(call(&w.ospm, PERF, 4, 2, P_CX, N_CX, 0, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(&w.ospm, PERF, 4, 2, 5, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	/* every fixed reply fits the smallest size */
	uint32_t o[16];
	assert_int_equal(call(&w.ospm, PERF, 3, 1, P_CX, 0, 0, o),
			 DMN_SCMI_SUCCESS);
	assert_true(w.ospm.last_len <= limit);
	world_fini(&w);
}

static void test_paging(void **state)
{
	(void)state;
	size_t sizes[] = {40, 47, 48, 52, 60, 64, 100, 128, 4096};
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(*sizes); i++)
		page_all(sizes[i], 512);
	page_all(128, 40); /* a smaller caller buffer wins */
	page_all(128, 64);
	struct world w;
	world_init(&w, 40);
	uint32_t o[16];
	unsigned n;
	uint32_t skip = 0;
	assert_int_equal(client_call(&w.ospm, BASE, 6, &skip, 1, o, 16, &n), 0);
	assert_int_equal(o[0], 2);
	world_fini(&w);
}

/* DESCRIBE_LEVELS of a domain of 70,000 levels in 65,536-byte replies:
 * num_levels is bits 11:0 returned (at most 4,095, where 5,460 would fit:
 * they spilled into the reserved bits and the remaining count), 31:16
 * remaining (65,535 when more remain); paging on reaches every level. */
static void describe(struct dmn_scmi_server *s, uint32_t first, uint8_t *reply,
		     size_t cap, uint32_t *num)
{
	uint8_t msg[12];
	size_t len;
	uint32_t words[3] = {dmn_scmi_header(DMN_SCMI_PROTOCOL_PERF, 4,
					     DMN_SCMI_TYPE_COMMAND, 0),
			     0, first};
	for (unsigned i = 0; i < 12; i++)
		msg[i] = (uint8_t)(words[i / 4] >> (8 * (i % 4)));
	assert_int_equal(dmn_scmi_handle(s, 1, msg, sizeof(msg), reply, cap, &len),
			 0);
	assert_int_equal(reply[4] | reply[5] | reply[6] | reply[7], 0);
	*num = (uint32_t)reply[8] | (uint32_t)reply[9] << 8 |
	       (uint32_t)reply[10] << 16 | (uint32_t)reply[11] << 24;
	assert_int_equal(len, 12 + 12 * (*num & 0xfff));
}

static void test_many_levels(void **state)
{
	(void)state;
	enum { LEVELS = 70000 };
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
	struct dmn_domain_desc d = {"rail", NULL, NULL, 0};
	dmn_domain_t dom;
	assert_int_equal(dmn_domain_create(ctx, &d, &dom), 0);
	struct dmn_scmi_perf_level *levels = calloc(LEVELS, sizeof(*levels));
	uint8_t *reply = malloc(65536);
	assert_non_null(levels);
	assert_non_null(reply);
	for (unsigned i = 0; i < LEVELS; i++)
		levels[i].level = i + 1;
	struct dmn_scmi_perf_domain perf = {dom, "rail", levels, LEVELS};
	static const uint8_t none = 0;
	struct dmn_scmi_agent agent = {1, "ospm", &none, &none, 0, 0};
	struct dmn_scmi_config cfg = {.ctx = ctx,
				      .perf = &perf,
				      .n_perf = 1,
				      .agents = &agent,
				      .n_agents = 1,
				      .max_msg = 65536};
	struct dmn_scmi_server *s;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), 0);
	uint32_t num, seen = 0;
	describe(s, 0, reply, 65536, &num);
	assert_int_equal(num, 0xffffu << 16 | 4095);
	while (seen < LEVELS) {
		describe(s, seen, reply, 65536, &num);
		uint32_t n = num & 0xfff, left = LEVELS - seen - n;
		assert_int_equal(num & 0xf000, 0);
		assert_int_equal(num >> 16, left < 0xffff ? left : 0xffff);
		assert_true(n > 0);
		uint32_t first = (uint32_t)reply[12] | (uint32_t)reply[13] << 8 |
				 (uint32_t)reply[14] << 16;
		assert_int_equal(first, seen + 1);
		seen += n;
	}
	assert_int_equal(seen, LEVELS);
	dmn_scmi_server_destroy(s);
	dmn_ctx_destroy(ctx);
	free(levels);
	free(reply);
}

/* ---- versions: 2.1 / 3.0 / 3.0 served, 2.0 by cap or negotiation ---------
 */

/* A world of its own: power domain names of 4, 15, 16, 63 and 70 bytes (the
 * last two perf domains too, with levels whose power is in uW or not),
 * agent 1 at the versions served, agent 2 capped to 2.0. */
#define LONG63 "a-power-domain-name-of-sixty-three-bytes-which-is-the-most-0063"
#define LONG70 LONG63 "-cut-it"
struct vworld {
	struct dmn_ctx *ctx;
	dmn_domain_t dom[5];
	struct dmn_scmi_server *srv;
	struct client now, old;
	struct dmn_scmi_perf_level uw[2], mw[2];
};

static const char *const vnames[5] = {"cpu0", "fifteen-bytes-1",
				      "sixteen-bytes-12", LONG63, LONG70};

static void vworld_init(struct vworld *v, size_t max_msg)
{
	memset(v, 0, sizeof(*v));
	assert_int_equal(dmn_ctx_create(NULL, &v->ctx), 0);
	struct dmn_scmi_power_domain power[5];
	for (int i = 0; i < 5; i++) {
		struct dmn_domain_desc d = {vnames[i], NULL, NULL, 0};
		assert_int_equal(dmn_domain_create(v->ctx, &d, &v->dom[i]), 0);
		power[i] = (struct dmn_scmi_power_domain){v->dom[i], vnames[i]};
	}
	v->uw[0] = (struct dmn_scmi_perf_level){10, 1, 5, 1500};
	v->uw[1] = (struct dmn_scmi_perf_level){20, 4, 5, 4200000000u};
	v->mw[0] = (struct dmn_scmi_perf_level){1, 7, 0, 0};
	v->mw[1] = (struct dmn_scmi_perf_level){2, 9, 0, 0};
	struct dmn_scmi_perf_domain perf[2] = {
	    {v->dom[3], vnames[3], v->uw, 2}, {v->dom[4], vnames[4], v->mw, 2}};
	static const uint8_t all = 0xff;
	struct dmn_scmi_agent agents[2] = {
	    {1, "now", &all, &all, 0, 0},
	    {2, "old", &all, &all, DMN_SCMI_PROTOCOL_VERSION_2_0, 0}};
	struct dmn_scmi_config cfg = {.ctx = v->ctx,
				      .power = power,
				      .n_power = 5,
				      .perf = perf,
				      .n_perf = 2,
				      .agents = agents,
				      .n_agents = 2,
				      .max_msg = max_msg};
	struct client *const clients[2] = {&v->now, &v->old};
	v->srv = client_inproc_serve(&cfg, clients);
}

static void vworld_fini(struct vworld *v)
{
	dmn_scmi_server_destroy(v->srv);
	dmn_ctx_destroy(v->ctx);
}

static void test_versions(void **state)
{
	(void)state;
	struct vworld v;
	vworld_init(&v, 0);
	uint32_t o[32];
	static const uint32_t proto[3] = {BASE, POWER, PERF};
	static const uint32_t served[3] = {0x20001, 0x30000, 0x30000};
	for (int p = 0; p < 3; p++) {
		assert_int_equal(call(&v.now, proto[p], 0, 0, 0, 0, 0, o), 0);
		assert_int_equal(o[0], served[p]);
		assert_int_equal(call(&v.old, proto[p], 0, 0, 0, 0, 0, o), 0);
		assert_int_equal(o[0], 0x20000);
		/* the capped agent has none of the newer messages */
		assert_int_equal(call(&v.old, proto[p], 2, 1, 0x10, 0, 0, o),
				 DMN_SCMI_NOT_FOUND);
		assert_int_equal(
		    call(&v.old, proto[p], 0x10, 1, 0x20000, 0, 0, o),
		    DMN_SCMI_NOT_FOUND);
	}
	assert_int_equal(call(&v.old, POWER, 2, 1, 8, 0, 0, o),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&v.old, POWER, 8, 1, 0, 0, 0, o),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&v.old, PERF, 2, 1, 0xC, 0, 0, o),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&v.old, PERF, 0xC, 1, 0, 0, 0, o),
			 DMN_SCMI_NOT_FOUND);
	vworld_fini(&v);
}

static void test_negotiate(void **state)
{
	(void)state;
	static const uint32_t proto[3] = {BASE, POWER, PERF};
	static const uint32_t served[3] = {0x20001, 0x30000, 0x30000};
	for (int p = 0; p < 3; p++) {
		struct vworld v;
		vworld_init(&v, 0);
		uint32_t o[32];
		/* wrong size, a version not served, newer, older, its own */
		assert_int_equal(call(&v.now, proto[p], 0x10, 0, 0, 0, 0, o),
				 DMN_SCMI_PROTOCOL_ERROR);
		assert_int_equal(
		    call(&v.now, proto[p], 0x10, 2, 0x20000, 0, 0, o),
		    DMN_SCMI_PROTOCOL_ERROR);
		static const uint32_t refused[] = {
		    0x10000, 0x20002, 0x30001, 0x40000, 0, 0xffffffffu};
		for (unsigned k = 0; k < 6; k++)
			if (refused[k] != served[p])
				assert_int_equal(call(&v.now, proto[p], 0x10, 1,
						      refused[k], 0, 0, o),
						 DMN_SCMI_NOT_SUPPORTED);
		assert_int_equal(
		    call(&v.now, proto[p], 0x10, 1, served[p], 0, 0, o), 0);
		assert_int_equal(call(&v.now, proto[p], 0, 0, 0, 0, 0, o), 0);
		assert_int_equal(o[0], served[p]);
		/* 2.0: this protocol answers as 2.0 does, the others do not */
		assert_int_equal(
		    call(&v.now, proto[p], 0x10, 1, 0x20000, 0, 0, o), 0);
		for (int q = 0; q < 3; q++) {
			assert_int_equal(
			    call(&v.now, proto[q], 0, 0, 0, 0, 0, o), 0);
			assert_int_equal(o[0], q == p ? 0x20000 : served[q]);
			assert_int_equal(
			    call(&v.now, proto[q], 2, 1, 0x10, 0, 0, o),
			    q == p ? DMN_SCMI_NOT_FOUND : DMN_SCMI_SUCCESS);
		}
		/* and stays there: 0x10 no longer exists for it */
		assert_int_equal(
		    call(&v.now, proto[p], 0x10, 1, served[p], 0, 0, o),
		    DMN_SCMI_NOT_FOUND);
		vworld_fini(&v);
	}
}

/* call() for replies longer than 16 words */
static int32_t call_long(struct client *c, uint32_t proto, uint32_t msg,
			 uint32_t arg, uint32_t *out)
{
	return client_call(c, proto, msg, &arg, 1, out, 32, NULL);
}

/* The agent's view of every power domain's attributes and extended name. */
static void names_power(struct client *c, int newer, int ext)
{
	uint32_t o[32];
	for (uint32_t d = 0; d < 5; d++) {
		size_t len = strlen(vnames[d]);
		assert_int_equal(call(c, POWER, 3, 1, d, 0, 0, o), 0);
		int flag = newer && ext && len > 15;
		assert_int_equal(o[0] >> 27 & 1, flag);
		char shortname[16] = {0};
		memcpy(shortname, vnames[d], len < 15 ? len : 15);
		assert_memory_equal(o + 1, shortname, 16);
		int32_t st = call_long(c, POWER, 8, d, o);
		if (!newer || !ext) {
			assert_int_equal(st, DMN_SCMI_NOT_FOUND);
			continue;
		}
		assert_int_equal(st, 0);
		assert_int_equal(c->last_len, 8 + 4 + 64);
		assert_int_equal(o[0], 0);
		char full[64] = {0};
		memcpy(full, vnames[d], len < 63 ? len : 63);
		assert_memory_equal(o + 1, full, 64);
	}
	/* an unknown domain (or no such message) */
	assert_int_equal(call(c, POWER, 8, 1, 5, 0, 0, o), DMN_SCMI_NOT_FOUND);
}

static void names_perf(struct client *c, int newer, int ext)
{
	uint32_t o[32];
	for (uint32_t j = 0; j < 2; j++) {
		const char *name = vnames[3 + j];
		assert_int_equal(call(c, PERF, 3, 1, j, 0, 0, o), 0);
		assert_int_equal(o[0] >> 26 & 1, newer && ext);
		assert_memory_equal(o + 4, name, 15);
		assert_int_equal(((const uint8_t *)(o + 4))[15], 0);
		int32_t st = call_long(c, PERF, 0xC, j, o);
		if (!newer || !ext) {
			assert_int_equal(st, DMN_SCMI_NOT_FOUND);
			continue;
		}
		assert_int_equal(st, 0);
		assert_int_equal(c->last_len, 8 + 4 + 64);
		assert_int_equal(o[0], 0);
		assert_memory_equal(o + 1, name, 63);
		assert_int_equal(((const uint8_t *)(o + 1))[63], 0);
	}
	if (newer && ext)
		assert_int_equal(call(c, PERF, 0xC, 1, 2, 0, 0, o),
				 DMN_SCMI_NOT_FOUND);
}

static void test_names(void **state)
{
	(void)state;
	/* the name reply takes 76 bytes: below that, no extended names */
	static const size_t sizes[] = {0, 76, 75, 40};
	for (unsigned k = 0; k < 4; k++) {
		struct vworld v;
		vworld_init(&v, sizes[k]);
		int ext = !sizes[k] || sizes[k] >= 76;
		names_power(&v.now, 1, ext);
		names_power(&v.old, 0, ext);
		names_perf(&v.now, 1, ext);
		names_perf(&v.old, 0, ext);
		uint32_t o[4];
		assert_int_equal(call(&v.now, POWER, 2, 1, 8, 0, 0, o),
				 ext ? DMN_SCMI_SUCCESS : DMN_SCMI_NOT_FOUND);
		assert_int_equal(call(&v.now, PERF, 2, 1, 0xC, 0, 0, o),
				 ext ? DMN_SCMI_SUCCESS : DMN_SCMI_NOT_FOUND);
		vworld_fini(&v);
	}
	/* a caller's buffer too small for the name: GENERIC_ERROR */
	struct vworld v;
	vworld_init(&v, 0);
	uint8_t msg[8], reply[128];
	size_t len;
	uint32_t h = dmn_scmi_header(POWER, 8, 0, 3), dom = 3;
	memcpy(msg, &h, 4);
	memcpy(msg + 4, &dom, 4);
	for (size_t cap = 40; cap <= 76; cap++) {
		assert_int_equal(
		    dmn_scmi_handle(v.srv, 1, msg, 8, reply, cap, &len), 0);
		int32_t st;
		memcpy(&st, reply + 4, 4);
		assert_int_equal(st, cap < 76 ? DMN_SCMI_GENERIC_ERROR : 0);
		assert_int_equal(len, cap < 76 ? 8 : 76);
	}
	vworld_fini(&v);
}

/* Power in uW for a version 3.0 agent when any level has it; mW for 2.0. */
static void test_power_units(void **state)
{
	(void)state;
	struct vworld v;
	vworld_init(&v, 0);
	uint32_t o[32];
	assert_int_equal(call(&v.now, PERF, 1, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 1u << 17 | 2);
	assert_int_equal(call(&v.old, PERF, 1, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 1u << 16 | 2);
	static const uint32_t now_power[2][2] = {{1500, 4200000000u}, {0, 0}};
	static const uint32_t old_power[2][2] = {{1, 4}, {7, 9}};
	for (uint32_t j = 0; j < 2; j++) {
		assert_int_equal(call(&v.now, PERF, 4, 2, j, 0, 0, o), 0);
		assert_int_equal(o[0], 2);
		assert_int_equal(o[2], now_power[j][0]);
		assert_int_equal(o[5], now_power[j][1]);
		assert_int_equal(call(&v.old, PERF, 4, 2, j, 0, 0, o), 0);
		assert_int_equal(o[2], old_power[j][0]);
		assert_int_equal(o[5], old_power[j][1]);
	}
	/* negotiated down to 2.0: mW again */
	assert_int_equal(call(&v.now, PERF, 0x10, 1, 0x20000, 0, 0, o), 0);
	assert_int_equal(call(&v.now, PERF, 1, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 1u << 16 | 2);
	assert_int_equal(call(&v.now, PERF, 4, 2, 0, 0, 0, o), 0);
	assert_int_equal(o[2], 1);
	vworld_fini(&v);
}

static void test_agents_version(void **state)
{
	(void)state;
	struct dmn_scmi_board_map map;
	memset(&map, 0, sizeof(map));
	struct dmn_scmi_agents ag;
	char err[256];
	static const char good[] =
	    "agent 1 a version 2.0 power none\n"
	    "agent 2 b\n"
	    "agent 3 c perf none version 2.0 power none\n";
	assert_int_equal(dmn_scmi_agents_parse(good, sizeof(good) - 1, &map,
					       &ag, err, sizeof(err)),
			 0);
	assert_int_equal(ag.n_agents, 3);
	assert_int_equal(ag.agents[0].version, DMN_SCMI_PROTOCOL_VERSION_2_0);
	assert_int_equal(ag.agents[1].version, 0);
	assert_int_equal(ag.agents[2].version, DMN_SCMI_PROTOCOL_VERSION_2_0);
	dmn_scmi_agents_free(&ag);
	static const struct {
		const char *text, *error;
	} bad[] = {
	    {"agent 1 a version 2.1", "1: error: version '2.1' is not one an "
				      "agent can be capped to (2.0)"},
	    {"agent 1 a version 3.0", "1: error: version '3.0' is not one"},
	    {"agent 1 a version 2", "1: error: version '2' is not one"},
	    {"agent 1 a version", "1: error: 'version' needs a version"},
	    {"agent 1 a version 2.0 version 2.0",
	     "1: error: 'version' given twice"},
	    {"agent 1 a power none perf none version 2.0 reads own x",
	     "1: error: too many words"},
	    {"agent 1 a power none perf none version 2.0 x",
	     "1: error: expected 'power', 'perf', 'version' or 'reads', got "
	     "'x'"},
	    {"agent 1 a speed 2", "1: error: expected 'power', 'perf', "
				  "'version' or 'reads', got 'speed'"},
	    {"agent 1 a reads own reads own", "1: error: 'reads' given twice"},
	    {"agent 1 a reads", "1: error: 'reads' needs a kind (own)"},
	    {"agent 1 a reads state",
	     "1: error: reads 'state' is not a kind of read (own)"},
	};
	for (unsigned k = 0; k < sizeof(bad) / sizeof(*bad); k++) {
		assert_int_equal(
		    dmn_scmi_agents_parse(bad[k].text, strlen(bad[k].text),
					  &map, &ag, err, sizeof(err)),
		    -EINVAL);
		if (strncmp(err, bad[k].error, strlen(bad[k].error)))
			fail_msg("'%s': got '%s', want '%s'", bad[k].text, err,
				 bad[k].error);
	}
	/* a version the library does not know: refused at creation */
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
	struct dmn_scmi_agent a = {1, "a", NULL, NULL, 0x20001, 0};
	struct dmn_scmi_config cfg = {.ctx = ctx, .agents = &a, .n_agents = 1};
	struct dmn_scmi_server *s;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EINVAL);
	a.version = DMN_SCMI_PROTOCOL_VERSION_2_0;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), 0);
	dmn_scmi_server_destroy(s);
	dmn_ctx_destroy(ctx);
}

/* The server's allocations (through dmn_scmi_config.alloc), the Nth failing
 * for every N until creation succeeds: -ENOMEM, the context as before (no
 * device, no listener left) and nothing leaked. */
static unsigned long srv_calls, srv_fail_at;
static long srv_live;

static void *srv_alloc(void *user, size_t size)
{
	(void)user;
	if (++srv_calls == srv_fail_at)
		return NULL;
	void *p = malloc(size);
	if (p)
		srv_live++;
	return p;
}

static void srv_free(void *user, void *p)
{
	(void)user;
	if (p)
		srv_live--;
	free(p);
}

static unsigned count_devices(struct dmn_ctx *ctx)
{
	dmn_device_t d = 0, next;
	unsigned n = 0;
	while (!dmn_device_next(ctx, d, &next)) {
		d = next;
		n++;
	}
	return n;
}

static void test_create_out_of_memory(void **state)
{
	(void)state;
	struct vworld v;
	vworld_init(&v, 0);
	dmn_scmi_server_destroy(v.srv);
	v.srv = NULL;
	unsigned devices = count_devices(v.ctx);
	struct dmn_scmi_power_domain power[5];
	for (int i = 0; i < 5; i++)
		power[i] = (struct dmn_scmi_power_domain){v.dom[i], vnames[i]};
	struct dmn_scmi_perf_domain perf[2] = {{v.dom[3], vnames[3], v.uw, 2},
					       {v.dom[4], vnames[4], v.mw, 2}};
	static const uint8_t all = 0xff;
	struct dmn_scmi_agent agents[2] = {
	    {1, "now", &all, &all, 0, 0},
	    {2, "old", &all, &all, DMN_SCMI_PROTOCOL_VERSION_2_0, 0}};
	struct dmn_scmi_config cfg = {.ctx = v.ctx,
				      .power = power,
				      .n_power = 5,
				      .perf = perf,
				      .n_perf = 2,
				      .agents = agents,
				      .n_agents = 2,
				      .alloc = {srv_alloc, srv_free, NULL}};
	struct dmn_scmi_server *s = NULL;
	int err = -ENOMEM;
	unsigned long n;
	for (n = 1; err == -ENOMEM; n++) {
		srv_calls = 0;
		srv_fail_at = n;
		srv_live = 0;
		err = dmn_scmi_server_create(&cfg, &s);
		if (err == -ENOMEM) {
			assert_int_equal(srv_live, 0);
			assert_int_equal(count_devices(v.ctx), devices);
		}
	}
	assert_int_equal(err, 0);
	assert_true(n > 10); /* the loop went through every allocation */
	/* the server created at last answers the newer messages */
	uint8_t msg[8], reply[128];
	size_t len;
	uint32_t h = dmn_scmi_header(POWER, 8, 0, 1), dom = 4;
	memcpy(msg, &h, 4);
	memcpy(msg + 4, &dom, 4);
	assert_int_equal(dmn_scmi_handle(s, 1, msg, 8, reply, sizeof(reply), &len),
			 0);
	assert_int_equal(len, 76);
	assert_memory_equal(reply + 12, LONG70, 63);
	dmn_scmi_server_destroy(s);
	assert_int_equal(srv_live, 0);
	assert_int_equal(count_devices(v.ctx), devices);
	dmn_ctx_destroy(v.ctx);
}

/* ---- power
 * ------------------------------------------------------------------- */

static uint32_t read_state(struct client *c, int dom)
{
	uint32_t o[16];
	assert_int_equal(call(c, POWER, 5, 1, (uint32_t)dom, 0, 0, o), 0);
	return o[0];
}

/* Own reads (docs/scmi.md): the hypervisor reads its own request where it
 * may act (cx, gdsc) and the domain's state elsewhere (mx); the others
 * read the domain's state. */
static void test_power_own_reads(void **state)
{
	(void)state;
	struct world w;
	hyp_flags = DMN_SCMI_AGENT_OWN_READS;
	world_init(&w, 0);
	hyp_flags = 0;
	/* the OSPM holds gdsc, so cx, its parent, is on too */
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, GDSC, ON, NULL), 0);
	assert_true(is_on(&w, CX));
	assert_int_equal(read_state(&w.hyp, CX), OFF);
	assert_int_equal(read_state(&w.hyp, GDSC), OFF);
	assert_int_equal(read_state(&w.ospm, CX), ON);
	/* what it sets it reads back, though cx stays on for gdsc */
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, CX, ON, NULL), 0);
	assert_int_equal(read_state(&w.hyp, CX), ON);
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, CX, OFF, NULL), 0);
	assert_int_equal(read_state(&w.hyp, CX), OFF);
	assert_true(is_on(&w, CX));
	assert_int_equal(read_state(&w.ospm, CX), ON);
	assert_int_equal(read_state(&w.guest, CX), ON);
	/* where it may not act, the domain's state */
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, MX, ON, NULL), 0);
	assert_int_equal(read_state(&w.hyp, MX), ON);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, MX, OFF, NULL), 0);
	assert_int_equal(read_state(&w.hyp, MX), OFF);
	/* once everyone let go: off, and a power-on that fails reads OFF */
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, GDSC, OFF, NULL), 0);
	assert_false(is_on(&w, CX));
	assert_int_equal(dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_ON,
					    w.dom[CX], 1, -EIO),
			 0);
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, CX, ON, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_int_equal(read_state(&w.hyp, CX), OFF);
	assert_false(is_on(&w, CX));
	/* a power-off that fails leaves the domain on and the request
	 * withdrawn: it reads OFF, the others read ON */
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, CX, ON, NULL), 0);
	assert_int_equal(dmn_sim_providers_fail(&w.sp,
					    DMN_SIM_PROVIDERS_POWER_OFF,
					    w.dom[CX], 1, -EIO),
			 0);
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, CX, OFF, NULL), 0);
	assert_true(is_on(&w, CX));
	assert_int_equal(read_state(&w.hyp, CX), OFF);
	assert_int_equal(read_state(&w.ospm, CX), ON);
	world_fini(&w);
	/* a flag the library does not know: refused at creation */
	struct dmn_ctx *ctx;
	assert_int_equal(dmn_ctx_create(NULL, &ctx), 0);
	struct dmn_scmi_agent a = {1, "a", NULL, NULL, 0, 1u << 1};
	struct dmn_scmi_config cfg = {.ctx = ctx, .agents = &a, .n_agents = 1};
	struct dmn_scmi_server *srv = NULL;
	assert_int_equal(dmn_scmi_server_create(&cfg, &srv), -EINVAL);
	assert_null(srv);
	dmn_ctx_destroy(ctx);
}

static void test_power(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	uint32_t o[16];
	assert_int_equal(call(&w.guest, POWER, 0, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 0x30000);
	assert_int_equal(call(&w.guest, POWER, 1, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 3);
	assert_int_equal(o[1] | o[2] | o[3], 0);
	/* 0x0-0x6, 0x8 POWER_DOMAIN_NAME_GET and 0x10 */
	for (uint32_t m = 0; m <= 0x11; m++)
		assert_int_equal(call(&w.guest, POWER, 2, 1, m, 0, 0, o),
				 m <= 6 || m == 8 || m == 0x10
				     ? DMN_SCMI_SUCCESS
				     : DMN_SCMI_NOT_FOUND);
	/* attributes per agent */
	assert_int_equal(call(&w.hyp, POWER, 3, 1, GDSC, 0, 0, o), 0);
	assert_int_equal(o[0], 7u << 29);
	name_is(o + 1, "gdsc");
	assert_int_equal(call(&w.hyp, POWER, 3, 1, MX, 0, 0, o), 0);
	assert_int_equal(o[0], 1u << 31);
	assert_int_equal(call(&w.hyp, POWER, 3, 1, 3, 0, 0, o), DMN_SCMI_NOT_FOUND);

	/* two agents on one domain: one's OFF leaves it on for the other */
	assert_false(is_on(&w, GDSC));
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, GDSC, ON, NULL), 0);
	assert_true(is_on(&w, GDSC));
	assert_true(is_on(&w, CX)); /* parent */
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, GDSC, ON, NULL), 0);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, GDSC, OFF, NULL), 0);
	assert_true(is_on(&w, GDSC));
	assert_int_equal(call(&w.ospm, POWER, 5, 1, GDSC, 0, 0, o), 0);
	assert_int_equal(o[0], ON);
	/* repeating a request is not counted twice */
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, GDSC, ON, NULL), 0);
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, GDSC, OFF, NULL), 0);
	assert_false(is_on(&w, GDSC));
	assert_false(is_on(&w, CX));
	assert_int_equal(call(&w.ospm, POWER, 5, 1, GDSC, 0, 0, o), 0);
	assert_int_equal(o[0], OFF);
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, GDSC, OFF, NULL), 0);

	/* a device keeps cx on whatever the agents say */
	assert_int_equal(dmn_device_get(w.ctx, w.venus), 0);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, CX, ON, NULL), 0);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, CX, OFF, NULL), 0);
	assert_true(is_on(&w, CX));
	assert_int_equal(dmn_device_put(w.ctx, w.venus), 0);
	assert_false(is_on(&w, CX));

	/* errors, in the order they are checked */
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 2, CX, ON, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, 3, ON, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, MX, ON, NULL),
			 DMN_SCMI_DENIED);
	assert_int_equal(call(&w.guest, POWER, 4, 3, 0, CX, ON, NULL),
			 DMN_SCMI_DENIED);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, CX, 1, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, CX, 0x40000001, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(&w.ospm, POWER, 5, 1, 3, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.ospm, POWER, 6, 2, 3, 1, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.ospm, POWER, 6, 2, CX, 2, 0, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_false(is_on(&w, CX));
	world_fini(&w);
}

static void expect_note(struct client *c, uint32_t proto, uint32_t id,
			uint32_t agent, uint32_t dom, uint32_t a, uint32_t b)
{
	struct client_msg m;
	assert_true(client_next(c, &m, 1000));
	assert_int_equal(dmn_scmi_header_type(m.header), DMN_SCMI_TYPE_NOTIFICATION);
	assert_int_equal(dmn_scmi_header_protocol(m.header), proto);
	assert_int_equal(dmn_scmi_header_msg(m.header), id);
	assert_int_equal(m.words[0], agent);
	assert_int_equal(m.words[1], dom);
	assert_int_equal(m.words[2], a);
	if (id == 0 && proto == PERF)
		assert_int_equal(m.words[3], b);
}

static void expect_nothing(struct client *c)
{
	struct client_msg m;
	assert_false(client_next(c, &m, 0));
}

static void test_async_and_notify(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	assert_int_equal(call(&w.guest, POWER, 6, 2, CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.guest, POWER, 6, 2, GDSC, 1, 0, NULL), 0);
	expect_nothing(&w.guest);
	/* async: the reply first, the change in dmn_scmi_deliver */
	uint8_t req[16], reply[64];
	uint32_t h = dmn_scmi_header(POWER, 4, 0, 77), words[3] = {1, GDSC, ON};
	memcpy(req, &h, 4);
	memcpy(req + 4, words, 12);
	size_t len;
	assert_int_equal(dmn_scmi_handle(w.srv, HYP, req, 16, reply, 64, &len), 0);
	assert_int_equal(len, 8);
	assert_false(is_on(&w, GDSC));
	/* one in flight per agent */
	assert_int_equal(dmn_scmi_handle(w.srv, HYP, req, 16, reply, 64, &len), 0);
	int32_t st;
	memcpy(&st, reply + 4, 4);
	assert_int_equal(st, DMN_SCMI_BUSY);
	assert_int_equal(dmn_scmi_deliver(w.srv), 3);
	assert_true(is_on(&w, GDSC));
	struct client_msg m;
	assert_true(client_next(&w.hyp, &m, 0));
	assert_int_equal(m.header,
			 dmn_scmi_header(POWER, 4, DMN_SCMI_TYPE_DELAYED_RESPONSE, 77));
	assert_int_equal(m.n_words, 3);
	assert_int_equal(m.words[0], DMN_SCMI_SUCCESS);
	assert_int_equal(m.words[1], GDSC);
	assert_int_equal(m.words[2], ON);
	/* parents first, caused by the hypervisor */
	expect_note(&w.guest, POWER, 0, HYP, CX, ON, 0);
	expect_note(&w.guest, POWER, 0, HYP, GDSC, ON, 0);
	expect_nothing(&w.guest);
	expect_nothing(&w.ospm);
	/* an async OFF; then a failing async ON reports the mapped status */
	words[2] = OFF;
	memcpy(req + 4, words, 12);
	assert_int_equal(dmn_scmi_handle(w.srv, HYP, req, 16, reply, 64, &len), 0);
	dmn_scmi_deliver(w.srv);
	assert_false(is_on(&w, GDSC));
	client_drain(&w.hyp);
	expect_note(&w.guest, POWER, 0, HYP, GDSC, OFF, 0);
	expect_note(&w.guest, POWER, 0, HYP, CX, OFF, 0);
	assert_int_equal(dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_ON,
					    w.dom[GDSC], 1, -EIO),
			 0);
	words[2] = ON;
	memcpy(req + 4, words, 12);
	assert_int_equal(dmn_scmi_handle(w.srv, HYP, req, 16, reply, 64, &len), 0);
	memcpy(&st, reply + 4, 4);
	assert_int_equal(st, DMN_SCMI_SUCCESS);
	dmn_scmi_deliver(w.srv);
	assert_true(client_next(&w.hyp, &m, 0));
	assert_int_equal(dmn_scmi_header_type(m.header),
			 DMN_SCMI_TYPE_DELAYED_RESPONSE);
	assert_int_equal((int32_t)m.words[0], DMN_SCMI_HARDWARE_ERROR);
	assert_false(is_on(&w, GDSC));
	assert_false(is_on(&w, CX)); /* rolled back */
	expect_nothing(&w.guest);    /* nothing changed, nothing said */
	/* a device's change is notified with agent 0 */
	assert_int_equal(dmn_device_get(w.ctx, w.venus), 0);
	dmn_scmi_deliver(w.srv);
	expect_note(&w.guest, POWER, 0, 0, CX, ON, 0);
	assert_int_equal(dmn_device_put(w.ctx, w.venus), 0);
	dmn_scmi_deliver(w.srv);
	expect_note(&w.guest, POWER, 0, 0, CX, OFF, 0);
	/* unsubscribing stops them */
	assert_int_equal(call(&w.guest, POWER, 6, 2, CX, 0, 0, NULL), 0);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, CX, ON, NULL), 0);
	expect_nothing(&w.guest);
	assert_int_equal(dmn_scmi_dropped(w.srv), 0);
	world_fini(&w);
}

/* ---- performance ----------------------------------------------------------
 */

static void test_perf(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	uint32_t o[16];
	assert_int_equal(call(&w.guest, PERF, 0, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 0x30000);
	/* no level has a power in uW: mW, as version 2.0 */
	assert_int_equal(call(&w.guest, PERF, 1, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 1u << 16 | 2);
	/* 0x0-0xC (0xC PERFORMANCE_DOMAIN_NAME_GET) and 0x10 */
	for (uint32_t m = 0; m <= 0x11; m++)
		assert_int_equal(call(&w.guest, PERF, 2, 1, m, 0, 0, o),
				 m <= 0xC || m == 0x10 ? DMN_SCMI_SUCCESS
						       : DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.hyp, PERF, 3, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 0xfu << 28);
	assert_int_equal(o[3], 512);
	name_is(o + 4, "cx");
	assert_int_equal(call(&w.hyp, PERF, 3, 1, P_MX, 0, 0, o), 0);
	assert_int_equal(o[0], 3u << 28);
	assert_int_equal(call(&w.hyp, PERF, 3, 1, 2, 0, 0, o), DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.hyp, PERF, 0xB, 2, P_CX, 7, 0, o),
			 DMN_SCMI_NOT_SUPPORTED);
	assert_int_equal(call(&w.hyp, PERF, 0xB, 2, 9, 7, 0, o),
			 DMN_SCMI_NOT_FOUND);

	/* level set/get, two agents: max wins; rounding up */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 50, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 64);
	assert_true(is_on(&w, CX)); /* a level is a use of the domain */
	assert_int_equal(call(&w.guest, PERF, 8, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 64);
	assert_int_equal(call(&w.hyp, PERF, 7, 2, P_CX, 256, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 256);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 128, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 256);
	assert_int_equal(call(&w.hyp, PERF, 7, 2, P_CX, 0, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 128);
	assert_int_equal(dmn_sim_providers_pstate(&w.sp, w.dom[CX]), 128);
	/* a device's vote counts in the max too */
	assert_int_equal(dmn_vote(w.ctx, w.venus_att, 320), 0);
	assert_int_equal(dmn_device_get(w.ctx, w.venus), 0);
	assert_int_equal(call(&w.guest, PERF, 8, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 320);
	assert_int_equal(dmn_device_put(w.ctx, w.venus), 0);
	/* errors */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 513, 0, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 15, 0, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, 2, 64, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.hyp, PERF, 7, 2, P_MX, 64, 0, NULL),
			 DMN_SCMI_DENIED);
	assert_int_equal(call(&w.guest, PERF, 7, 2, P_CX, 64, 0, NULL),
			 DMN_SCMI_DENIED);
	assert_int_equal(call(&w.guest, PERF, 8, 1, 2, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);

	/* limits: effective range = [max of mins, min of maxes] */
	assert_int_equal(call(&w.guest, PERF, 6, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 512);
	assert_int_equal(o[1], 16);
	assert_int_equal(call(&w.hyp, PERF, 7, 2, P_CX, 480, 0, NULL), 0);
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 256, 48, NULL), 0);
	assert_int_equal(pstate(&w, CX), 256); /* hyp's 480 clamped */
	assert_int_equal(call(&w.guest, PERF, 6, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 256);
	assert_int_equal(o[1], 48);
	/* outside the caller's own limits: OUT_OF_RANGE; inside them but
	 * outside the effective range: accepted and clamped */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 320, 0, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 16, 0, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(&w.hyp, PERF, 5, 3, P_CX, 512, 192, NULL), 0);
	assert_int_equal(call(&w.guest, PERF, 6, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 256);
	assert_int_equal(o[1], 192);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 64, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 256);
	/* votes stay as cast: lifting the cap restores hyp's 480 */
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 512, 16, NULL), 0);
	assert_int_equal(pstate(&w, CX), 480);
	assert_int_equal(call(&w.hyp, PERF, 7, 2, P_CX, 0, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX),
			 192); /* ospm's 64 lifted to hyp's min */
	assert_int_equal(call(&w.hyp, PERF, 5, 3, P_CX, 512, 16, NULL), 0);
	assert_int_equal(pstate(&w, CX), 64);
	/* crossing limits: the lowest max wins */
	assert_int_equal(call(&w.hyp, PERF, 5, 3, P_CX, 512, 384, NULL), 0);
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 128, 16, NULL), 0);
	assert_int_equal(call(&w.guest, PERF, 6, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 128);
	assert_int_equal(o[1], 128);
	assert_int_equal(pstate(&w, CX), 128);
	/* limit errors */
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 64, 128, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 1024, 16, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 512, 8, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(&w.guest, PERF, 5, 3, P_CX, 512, 16, NULL),
			 DMN_SCMI_DENIED);
	assert_int_equal(call(&w.ospm, PERF, 5, 3, 2, 512, 16, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.ospm, PERF, 6, 1, 2, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.ospm, PERF, 9, 2, 2, 1, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(&w.ospm, PERF, 0xA, 2, P_CX, 3, 0, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	/* withdrawing every request lets cx go off */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 0, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 0);
	assert_false(is_on(&w, CX));
	world_fini(&w);
}

static void test_perf_notify(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.guest, PERF, 9, 2, P_CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.hyp, PERF, 0xA, 2, P_CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 128, 0, NULL), 0);
	expect_note(&w.guest, PERF, 1, OSPM, P_CX, 128, 0);
	expect_note(&w.hyp, PERF, 1, OSPM, P_CX, 128, 0);
	/* a limit that changes the level: LIMITS_CHANGED names the agent,
	 * LEVEL_CHANGED names nobody (0) */
	assert_int_equal(call(&w.hyp, PERF, 5, 3, P_CX, 64, 16, NULL), 0);
	expect_note(&w.guest, PERF, 0, HYP, P_CX, 64, 16);
	expect_note(&w.guest, PERF, 1, 0, P_CX, 64, 0);
	expect_note(&w.hyp, PERF, 1, 0, P_CX, 64, 0);
	expect_nothing(&w.guest);
	/* the same effective range again: nothing to say */
	assert_int_equal(call(&w.hyp, PERF, 5, 3, P_CX, 64, 16, NULL), 0);
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 512, 16, NULL), 0);
	expect_nothing(&w.guest);
	assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_CX, 0, 0, NULL), 0);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 48, 0, NULL), 0);
	expect_nothing(&w.guest);
	expect_note(&w.hyp, PERF, 1, OSPM, P_CX, 48, 0);
	world_fini(&w);
}

/* A command handled without dmn_scmi_deliver (the caller delivers late). */
static int32_t handle_only(struct world *w, uint32_t agent, uint32_t proto,
			   uint32_t msg, unsigned n, uint32_t a0, uint32_t a1,
			   uint32_t a2)
{
	uint32_t words[4] = {dmn_scmi_header(proto, msg, 0, 5), a0, a1, a2};
	uint8_t req[16], reply[64];
	memcpy(req, words, 4 + 4 * n);
	size_t len;
	assert_int_equal(dmn_scmi_handle(w->srv, agent, req, 4 + 4 * n, reply,
				     sizeof(reply), &len),
			 0);
	int32_t st;
	memcpy(&st, reply + 4, 4);
	return st;
}

/* Recipients are chosen when a notification is sent, not when the change
 * happened (docs/scmi.md, Semantics: notifications go to the agents that
 * asked; an
 * agent that has turned them off has stopped asking): between a change and
 * dmn_scmi_deliver, an agent that unsubscribes gets nothing, one that
 * subscribes gets it, and the other kinds of a still-subscribed agent
 * come as usual. */
static void test_recipients_at_send(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.guest, POWER, 6, 2, CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.hyp, PERF, 0xA, 2, P_CX, 1, 0, NULL), 0);
	/* the change: CX on and at 128, queued */
	assert_int_equal(handle_only(&w, OSPM, PERF, 7, 2, P_CX, 128, 0), 0);
	assert_int_equal(pstate(&w, CX), 128);
	/* before the send: the guest turns level notifications off, the
	 * OSPM turns them on */
	assert_int_equal(handle_only(&w, GUEST, PERF, 0xA, 2, P_CX, 0, 0), 0);
	assert_int_equal(handle_only(&w, OSPM, PERF, 0xA, 2, P_CX, 1, 0), 0);
	expect_nothing(&w.guest);
	assert_int_equal(dmn_scmi_deliver(w.srv), 3);
	expect_note(&w.guest, POWER, 0, OSPM, CX, ON, 0);
	expect_nothing(&w.guest);
	expect_note(&w.hyp, PERF, 1, OSPM, P_CX, 128, 0);
	expect_note(&w.ospm, PERF, 1, OSPM, P_CX, 128, 0);
	/* an asynchronous change runs in dmn_scmi_deliver itself: the
	 * guest, unsubscribed after it was accepted, hears nothing */
	assert_int_equal(call(&w.guest, POWER, 6, 2, GDSC, 1, 0, NULL), 0);
	assert_int_equal(handle_only(&w, HYP, POWER, 4, 3, 1, GDSC, ON), 0);
	assert_int_equal(handle_only(&w, GUEST, POWER, 6, 2, GDSC, 0, 0), 0);
	assert_int_equal(dmn_scmi_deliver(w.srv), 1); /* the delayed response */
	assert_true(is_on(&w, GDSC));
	expect_nothing(&w.guest);
	world_fini(&w);
}

/* docs/semantics.md (Failures) under SCMI: unsafe failures roll back and
 * answer the mapped
 * status; safe ones answer SUCCESS and leave the domain where it was. */
static void test_failures(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	uint32_t o[16];
	assert_int_equal(call(&w.guest, POWER, 6, 2, CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_CX, 1, 0, NULL), 0);
	/* power-on of the parent fails: nothing changed */
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_ON, w.dom[CX], 1, -EIO);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, GDSC, ON, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_false(is_on(&w, GDSC));
	assert_false(is_on(&w, CX));
	expect_nothing(&w.guest);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, GDSC, ON, NULL), 0);
	expect_note(&w.guest, POWER, 0, OSPM, CX, ON, 0);
	/* a raise fails: the old level stands */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 64, 0, NULL), 0);
	expect_note(&w.guest, PERF, 1, OSPM, P_CX, 64, 0);
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_PSTATE, w.dom[CX], 1, -EIO);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 256, 0, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_int_equal(pstate(&w, CX), 64);
	assert_int_equal(dmn_sim_providers_pstate(&w.sp, w.dom[CX]), 64);
	expect_nothing(&w.guest);
	/* the first vote of an agent fails while cx powers on: undone */
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_PSTATE, w.dom[MX], 1, -EIO);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_MX, 128, 0, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_false(is_on(&w, MX));
	assert_int_equal(pstate(&w, MX), 0);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_MX, 128, 0, NULL), 0);
	assert_int_equal(pstate(&w, MX), 128);
	/* a limit whose raise fails: limits unchanged */
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_PSTATE, w.dom[CX], 1, -EIO);
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 512, 384, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_int_equal(call(&w.guest, PERF, 6, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 512);
	assert_int_equal(o[1], 16);
	assert_int_equal(pstate(&w, CX), 64);
	expect_nothing(&w.guest);
	/* safe direction: lowering fails, SUCCESS, the rail stays up */
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_PSTATE, w.dom[CX], 1, -EIO);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 48, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 64);
	assert_int_equal(dmn_last_error(w.ctx), -EIO);
	/* the next change of cx's aggregate retries */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 16, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 16);
	/* power-off fails: SUCCESS, gdsc stays on, reads ON */
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_OFF, w.dom[GDSC], 1,
			   -EIO);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, GDSC, OFF, NULL), 0);
	assert_int_equal(call(&w.ospm, POWER, 5, 1, GDSC, 0, 0, o), 0);
	assert_int_equal(o[0], ON);
	assert_true(dmn_sim_providers_on(&w.sp, w.dom[GDSC]));
	world_fini(&w);
}

/* The sum of the stored votes on @dom's attachments, and how many are
 * non-zero (a vote left behind by a failed command shows here). */
static unsigned stored_votes(struct world *w, int dom)
{
	unsigned nonzero = 0;
	dmn_attach_t att = 0, next;
	while (!dmn_domain_next_attachment(w->ctx, w->dom[dom], att, &next)) {
		struct dmn_attach_info info;
		att = next;
		assert_int_equal(dmn_attach_info(w->ctx, att, &info), 0);
		nonzero += info.vote != 0;
	}
	return nonzero;
}

/* An asynchronous POWER_STATE_SET ON of gdsc whose power-on fails: the
 * delayed response carries the mapped status. When the undo of cx's
 * power-on fails too (a safe-direction failure), cx stays on, reads ON,
 * and cx's subscribers are told exactly that, once; gdsc's are told
 * nothing. The same through the synchronous message. */
static void test_failed_undo_is_told(void **state)
{
	(void)state;
	for (int async = 0; async < 2; async++) {
		struct world w;
		world_init(&w, 0);
		assert_int_equal(call(&w.guest, POWER, 6, 2, CX, 1, 0, NULL), 0);
		assert_int_equal(call(&w.guest, POWER, 6, 2, GDSC, 1, 0, NULL), 0);
		assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_CX, 1, 0, NULL), 0);
		dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_ON, w.dom[GDSC],
				       1, -EIO);
		dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_OFF, w.dom[CX], 1,
				       -EIO);
		uint32_t o[16];
		if (async) {
			assert_int_equal(call(&w.hyp, POWER, 4, 3, 1, GDSC, ON, NULL),
					 DMN_SCMI_SUCCESS);
			/* client_call delivered: the delayed response waits */
			struct client_msg m;
			assert_true(client_next(&w.hyp, &m, 0));
			assert_int_equal(dmn_scmi_header_type(m.header),
					 DMN_SCMI_TYPE_DELAYED_RESPONSE);
			assert_int_equal((int32_t)m.words[0], DMN_SCMI_HARDWARE_ERROR);
			assert_int_equal(m.words[1], GDSC);
			assert_int_equal(m.words[2], ON);
			expect_nothing(&w.hyp);
		} else {
			assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, GDSC, ON, NULL),
					 DMN_SCMI_HARDWARE_ERROR);
		}
		assert_false(is_on(&w, GDSC));
		assert_true(is_on(&w, CX));
		assert_int_equal(call(&w.guest, POWER, 5, 1, CX, 0, 0, o), 0);
		assert_int_equal(o[0], ON);
		expect_note(&w.guest, POWER, 0, HYP, CX, ON, 0);
		expect_nothing(&w.guest);
		/* the next command below cx retries its power-off */
		assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, GDSC, ON, NULL), 0);
		expect_note(&w.guest, POWER, 0, HYP, GDSC, ON, 0);
		assert_int_equal(call(&w.hyp, POWER, 4, 3, 0, GDSC, OFF, NULL), 0);
		expect_note(&w.guest, POWER, 0, HYP, GDSC, OFF, 0);
		expect_note(&w.guest, POWER, 0, HYP, CX, OFF, 0);
		expect_nothing(&w.guest);
		assert_false(is_on(&w, CX));
		world_fini(&w);
	}
}

/* A failed command that moved a level and could not move it back tells
 * the move from the old level to where the rail stands, once; a failed
 * LIMITS_SET tells no limits (they stand as they were). */
static void test_failed_level_is_told(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_MX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.guest, PERF, 0x9, 2, P_CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_CX, 1, 0, NULL), 0);
	/* mx rises to 128 (call 1), its power-on fails (call 2), and the
	 * undo's lowering back to 0 fails (call 3): mx stays off at 128,
	 * which is told as the move from 0 */
	dmn_sim_providers_clear_log(&w.sp);
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_ON, w.dom[MX], 1,
			       -EIO);
	assert_int_equal(dmn_sim_providers_fail_call(&w.sp, 3, -EIO), 0);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_MX, 128, 0, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_int_equal(w.sp.n_calls, 3);
	assert_int_equal(dmn_sim_providers_pstate(&w.sp, w.dom[MX]), 128);
	assert_int_equal(pstate(&w, MX), 128);
	assert_false(is_on(&w, MX));
	expect_note(&w.guest, PERF, 1, OSPM, P_MX, 128, 0);
	expect_nothing(&w.guest);
	assert_int_equal(stored_votes(&w, MX), 0);
	/* raising cx's floor to 384 fails at the raise of ospm's 64:
	 * nothing said, limits as before */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 64, 0, NULL), 0);
	expect_note(&w.guest, PERF, 1, OSPM, P_CX, 64, 0);
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_PSTATE, w.dom[CX], 1, -EIO);
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 512, 384, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	expect_nothing(&w.guest);
	uint32_t o[16];
	assert_int_equal(call(&w.guest, PERF, 6, 1, P_CX, 0, 0, o), 0);
	assert_int_equal(o[0], 512);
	assert_int_equal(o[1], 16);
	/* the same limits succeeding are told: limits, then the level */
	assert_int_equal(call(&w.ospm, PERF, 5, 3, P_CX, 512, 384, NULL), 0);
	struct client_msg m;
	assert_true(client_next(&w.guest, &m, 0));
	assert_int_equal(dmn_scmi_header_msg(m.header), 0); /* LIMITS_CHANGED */
	assert_int_equal(m.words[2], 512);
	assert_int_equal(m.words[3], 384);
	expect_note(&w.guest, PERF, 1, 0, P_CX, 384, 0);
	expect_nothing(&w.guest);
	world_fini(&w);
}

/* A first PERFORMANCE_LEVEL_SET stores the agent's vote on its suspended
 * device, then resumes it; when the resume fails, the vote is withdrawn:
 * no vote of a failed command is left behind (a later resume of that
 * device, or a library walk, would find it). */
static void test_failed_level_set_withdraws_vote(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	assert_int_equal(stored_votes(&w, MX), 0);
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_ON, w.dom[MX], 1,
			       -EIO);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_MX, 128, 0, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_false(is_on(&w, MX));
	assert_int_equal(pstate(&w, MX), 0);
	assert_int_equal(stored_votes(&w, MX), 0);
	uint32_t o[16];
	assert_int_equal(call(&w.ospm, PERF, 8, 1, P_MX, 0, 0, o), 0);
	assert_int_equal(o[0], 0);
	/* a level above the range is refused before any vote is stored */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_MX, 129, 0, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(stored_votes(&w, MX), 0);
	/* the same request succeeding leaves exactly one vote, which goes
	 * with level 0 */
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_MX, 128, 0, NULL), 0);
	assert_int_equal(stored_votes(&w, MX), 1);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_MX, 0, 0, NULL), 0);
	assert_int_equal(stored_votes(&w, MX), 0);
	assert_false(is_on(&w, MX));
	/* the hypervisor may not set mx at all: DENIED, nothing stored */
	assert_int_equal(call(&w.hyp, PERF, 7, 2, P_MX, 64, 0, NULL),
			 DMN_SCMI_DENIED);
	assert_int_equal(stored_votes(&w, MX), 0);
	world_fini(&w);
}

/* Three little-endian words into @out. */
static void put_words(uint8_t *out, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t w[3] = {a, b, c};
	for (unsigned i = 0; i < 12; i++)
		out[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

/* What test_scmi_model found.
 * A limit that lowers two agents' levels moved cx twice, 480 -> 384 ->
 * 256, and told everyone of the 384 in between (one pstate call per domain
 * per command: docs/semantics.md, Ordering); the same with two raises. A
 * device whose
 * resume failed and rolled back had its raise and the undo notified
 * (nothing observable differs: docs/semantics.md, Failures); and the undo,
 * once cancelled,
 * must end with its command, not swallow a device's later changes. */
static void test_model_found(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_CX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 480, 0, NULL), 0);
	assert_int_equal(call(&w.hyp, PERF, 7, 2, P_CX, 384, 0, NULL), 0);
	expect_note(&w.guest, PERF, 1, OSPM, P_CX, 480, 0);
	expect_nothing(&w.guest);
	unsigned long calls = w.sp.n_calls;
	assert_int_equal(call(&w.hyp, PERF, 5, 3, P_CX, 256, 16, NULL), 0);
	expect_note(&w.guest, PERF, 1, 0, P_CX, 256, 0);
	expect_nothing(&w.guest);
	assert_int_equal(w.sp.n_calls, calls + 1);
	/* two raises when hyp lifts its cap: hyp's 256 as cast, ospm's 192 */
	assert_int_equal(call(&w.hyp, PERF, 7, 2, P_CX, 256, 0, NULL), 0);
	assert_int_equal(call(&w.hyp, PERF, 5, 3, P_CX, 128, 16, NULL), 0);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 192, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 128);
	client_drain(&w.guest);
	calls = w.sp.n_calls;
	assert_int_equal(call(&w.hyp, PERF, 5, 3, P_CX, 512, 16, NULL), 0);
	expect_note(&w.guest, PERF, 1, 0, P_CX, 256, 0);
	expect_nothing(&w.guest);
	assert_int_equal(w.sp.n_calls, calls + 1);
	/* a device's failed resume: nothing to tell */
	assert_int_equal(call(&w.guest, PERF, 0xA, 2, P_MX, 1, 0, NULL), 0);
	assert_int_equal(call(&w.guest, POWER, 6, 2, MX, 1, 0, NULL), 0);
	dmn_device_t dev;
	dmn_attach_t att;
	assert_int_equal(dmn_device_create(w.ctx, "modem", &dev), 0);
	assert_int_equal(dmn_attach(w.ctx, dev, w.dom[MX], &att), 0);
	assert_int_equal(dmn_vote(w.ctx, att, 64), 0);
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_POWER_ON, w.dom[MX], 1,
			       -EIO);
	assert_int_equal(dmn_device_get(w.ctx, dev), -EIO);
	assert_true(dmn_scmi_deliver(w.srv) >= 0);
	expect_nothing(&w.guest);
	/* and the same resume succeeding: level, then power */
	assert_int_equal(dmn_device_get(w.ctx, dev), 0);
	assert_true(dmn_scmi_deliver(w.srv) >= 0);
	expect_note(&w.guest, PERF, 1, 0, P_MX, 64, 0);
	expect_note(&w.guest, POWER, 0, 0, MX, ON, 0);
	expect_nothing(&w.guest);
	/* a failed command's undo ends with the command: a device's raise
	 * and lowering after it, delivered together, are both told */
	uint8_t msg[12], reply[64];
	size_t rlen;
	put_words(msg, dmn_scmi_header(PERF, 7, 0, 1), P_MX, 128);
	dmn_sim_providers_fail(&w.sp, DMN_SIM_PROVIDERS_PSTATE, w.dom[MX], 1,
			       -EIO);
	assert_int_equal(dmn_scmi_handle(w.srv, OSPM, msg, sizeof(msg), reply,
					 sizeof(reply), &rlen),
			 0);
	assert_int_equal((int32_t)(reply[4] | reply[5] << 8 | reply[6] << 16 |
				   (uint32_t)reply[7] << 24),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_int_equal(dmn_vote(w.ctx, att, 128), 0);
	assert_int_equal(dmn_vote(w.ctx, att, 64), 0);
	assert_true(dmn_scmi_deliver(w.srv) >= 0);
	expect_note(&w.guest, PERF, 1, 0, P_MX, 128, 0);
	expect_note(&w.guest, PERF, 1, 0, P_MX, 64, 0);
	expect_nothing(&w.guest);
	assert_int_equal(dmn_device_put(w.ctx, dev), 0);
	world_fini(&w);
}

/* The core out of memory under a command: GENERIC_ERROR, nothing changed. */
static void test_out_of_memory(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 64, 0, NULL), 0);
	fail_alloc = 1;
	int32_t st = call(&w.ospm, PERF, 7, 2, P_CX, 416, 0, NULL);
	fail_alloc = 0;
	assert_int_equal(st, DMN_SCMI_GENERIC_ERROR);
	assert_int_equal(pstate(&w, CX), 64);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_CX, 416, 0, NULL), 0);
	assert_int_equal(pstate(&w, CX), 416);
	world_fini(&w);
}

static void test_create_and_destroy(void **state)
{
	(void)state;
	struct world w;
	world_init(&w, 0);
	dmn_device_t dev;
	assert_int_equal(dmn_scmi_agent_device(w.srv, HYP, 0, GDSC, &dev), 0);
	struct dmn_device_info di;
	assert_int_equal(dmn_device_info(w.ctx, dev, &di), 0);
	assert_string_equal(di.name, "scmi:hypervisor:power:2");
	assert_int_equal(dmn_scmi_agent_device(w.srv, HYP, 0, MX, &dev), -ENOENT);
	assert_int_equal(dmn_scmi_agent_device(w.srv, 9, 0, CX, &dev), -ENOENT);
	assert_int_equal(dmn_scmi_agent_device(w.srv, HYP, 1, P_CX, &dev), 0);
	assert_int_equal(call(&w.ospm, POWER, 4, 3, 0, GDSC, ON, NULL), 0);
	assert_int_equal(call(&w.ospm, PERF, 7, 2, P_MX, 64, 0, NULL), 0);
	assert_true(is_on(&w, MX));
	/* destroy withdraws every request and leaves no device behind */
	dmn_scmi_server_destroy(w.srv);
	w.srv = NULL;
	assert_false(is_on(&w, GDSC));
	assert_false(is_on(&w, MX));
	dmn_device_t d = 0, next;
	unsigned n = 0;
	while (!dmn_device_next(w.ctx, d, &next)) {
		d = next;
		n++;
	}
	assert_int_equal(n, 1); /* venus */

	/* bad configurations */
	struct dmn_scmi_power_domain power[1] = {{w.dom[CX], "cx"}};
	struct dmn_scmi_perf_level bad_levels[2] = {{64, 0, 0, 0},
						    {64, 0, 0, 0}};
	struct dmn_scmi_perf_domain perf[1] = {{w.dom[CX], "cx", bad_levels, 2}};
	struct dmn_scmi_agent agents[2] = {{1, "a", NULL, NULL, 0, 0},
					   {2, "b", NULL, NULL, 0, 0}};
	struct dmn_scmi_config cfg = {.ctx = w.ctx,
				  .power = power,
				  .n_power = 1,
				  .agents = agents,
				  .n_agents = 2};
	struct dmn_scmi_server *s;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), 0);
	dmn_scmi_server_destroy(s);
	cfg.max_msg = 39;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EINVAL);
	cfg.max_msg = 0;
	agents[1].id = 1;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EINVAL);
	agents[1].id = 0;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EINVAL);
	agents[1].id = 256;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EINVAL);
	agents[1].id = 2;
	agents[1].name = "a";
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EINVAL);
	agents[1].name = "b";
	cfg.perf = perf;
	cfg.n_perf = 1;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EINVAL);
	cfg.n_perf = 0;
	cfg.n_agents = 0;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EINVAL);
	cfg.n_agents = 2;
	/* a stale domain handle: nothing is left behind */
	dmn_domain_t gone;
	struct dmn_domain_desc dd = {"gone", NULL, NULL, 0};
	assert_int_equal(dmn_domain_create(w.ctx, &dd, &gone), 0);
	assert_int_equal(dmn_domain_remove(w.ctx, gone), 0);
	static const uint8_t all = 0xff;
	agents[0].power = &all;
	power[0].domain = gone;
	assert_int_equal(dmn_scmi_server_create(&cfg, &s), -EBADF);
	d = 0;
	n = 0;
	while (!dmn_device_next(w.ctx, d, &next)) {
		d = next;
		n++;
	}
	assert_int_equal(n, 1);
	assert_int_equal(dmn_scmi_server_create(NULL, &s), -EINVAL);
	dmn_scmi_server_destroy(NULL);
	dmn_ctx_destroy(w.ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_base),
	    cmocka_unit_test(test_bad_messages),
	    cmocka_unit_test(test_paging),
	    cmocka_unit_test(test_many_levels),
	    cmocka_unit_test(test_versions),
	    cmocka_unit_test(test_negotiate),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_power_units),
	    cmocka_unit_test(test_agents_version),
	    cmocka_unit_test(test_create_out_of_memory),
	    cmocka_unit_test(test_power),
	    cmocka_unit_test(test_power_own_reads),
	    cmocka_unit_test(test_async_and_notify),
	    cmocka_unit_test(test_perf),
	    cmocka_unit_test(test_perf_notify),
	    cmocka_unit_test(test_recipients_at_send),
	    cmocka_unit_test(test_failures),
	    cmocka_unit_test(test_failed_undo_is_told),
	    cmocka_unit_test(test_failed_level_is_told),
	    cmocka_unit_test(test_failed_level_set_withdraws_vote),
	    cmocka_unit_test(test_model_found),
	    cmocka_unit_test(test_out_of_memory),
	    cmocka_unit_test(test_create_and_destroy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
