/* SPDX-License-Identifier: MIT */
/*
 * The SCMI server on real boards (qrb5165-rb5, rk3588-rock-5b from
 * ../shared/dts), driven by the test client through every message, twice:
 * in process (dmn_scmi_handle) and over the sockets of `domino scmi-serve`.
 * What the server says is checked against `domino summary --json` (names,
 * counts, parents) and the boards' independent facts (the opp-level
 * entries of performance-state providers). Boards that are absent are
 * skipped, and shown as skipped.
 */
#include "client.h"

#include <domino/scenario.h>
#include <domino/sim.h>

#include <errno.h>
#include <jansson.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "read_file.h"

#define BASE DMN_SCMI_PROTOCOL_BASE
#define POWER DMN_SCMI_PROTOCOL_POWER
#define PERF DMN_SCMI_PROTOCOL_PERF
#define ON DMN_SCMI_POWER_ON
#define OFF DMN_SCMI_POWER_OFF
enum { OSPM = 1, HYP = 2, GUEST = 3 };

#define MAX_DOMAINS 512
#define MAX_LEVELS 64

/* What the board should look like, from summary --json and the facts. */
struct expect {
	const char *board;
	char dtb[1024];
	unsigned n_power;
	char names[MAX_DOMAINS][64];
	int parent[MAX_DOMAINS]; /* first parent's index, or -1 */
	char provider[MAX_DOMAINS][256];
	unsigned n_perf;
	unsigned perf_power[MAX_DOMAINS]; /* power index of each perf domain */
	uint32_t levels[MAX_DOMAINS][MAX_LEVELS];
	unsigned n_levels[MAX_DOMAINS];
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static json_t *run_json(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	json_error_t err;
	json_t *j = json_loadf(p, 0, &err);
	pclose(p);
	if (!j)
		fail_msg("%s: %s", cmd, err.text);
	return j;
}

/* 0 and *e, or -1 when the board is absent. */
static int load_expect(const char *board, struct expect *e)
{
	memset(e, 0, sizeof(*e));
	e->board = board;
	snprintf(e->dtb, sizeof(e->dtb), "%s/%s.dtb", DOMINO_BOARDS_DIR, board);
	char facts_path[1024];
	snprintf(facts_path, sizeof(facts_path), "%s/%s.json",
		 DOMINO_FACTS_DIR, board);
	if (access(e->dtb, R_OK) || access(facts_path, R_OK))
		return -1;
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "'%s' summary '%s' --json", DOMINO_BIN,
		 e->dtb);
	json_t *sum = run_json(cmd);
	json_t *doms = json_object_get(sum, "domains");
	assert_true(json_is_array(doms));
	e->n_power = (unsigned)json_array_size(doms);
	assert_true(e->n_power > 0 && e->n_power <= MAX_DOMAINS);
	for (unsigned i = 0; i < e->n_power; i++) {
		json_t *d = json_array_get(doms, i);
		snprintf(e->names[i], sizeof(e->names[i]), "%s",
			 json_string_value(json_object_get(d, "name")));
		snprintf(e->provider[i], sizeof(e->provider[i]), "%s",
			 json_string_value(json_object_get(d, "provider")));
		e->parent[i] = -1;
	}
	for (unsigned i = 0; i < e->n_power; i++) {
		json_t *parents =
		    json_object_get(json_array_get(doms, i), "parents");
		if (!json_array_size(parents))
			continue;
		const char *p = json_string_value(json_array_get(parents, 0));
		for (unsigned k = 0; k < e->n_power; k++)
			if (!strcmp(e->names[k], p))
				e->parent[i] = (int)k;
	}
	json_decref(sum);

	json_error_t err;
	json_t *facts = json_load_file(facts_path, 0, &err);
	assert_non_null(facts);
	json_t *providers =
	    json_object_get(facts, "performance_state_providers");
	for (unsigned i = 0; i < e->n_power; i++) {
		for (size_t k = 0; k < json_array_size(providers); k++) {
			json_t *pv = json_array_get(providers, k);
			if (strcmp(
				json_string_value(json_object_get(pv, "path")),
				e->provider[i]))
				continue;
			json_t *tables = json_object_get(pv, "tables");
			json_t *entries = json_object_get(
			    json_array_get(tables, 0), "entries");
			unsigned j = e->n_perf, n = 0;
			for (size_t x = 0; x < json_array_size(entries); x++) {
				json_t *lv = json_object_get(
				    json_array_get(entries, x), "opp-level");
				if (json_is_integer(lv) && n < MAX_LEVELS)
					e->levels[j][n++] =
					    (uint32_t)json_integer_value(lv);
			}
			qsort(e->levels[j], n, sizeof(uint32_t), cmp_u32);
			unsigned m = 0;
			for (unsigned x = 0; x < n; x++)
				if (!m ||
				    e->levels[j][x] != e->levels[j][m - 1])
					e->levels[j][m++] = e->levels[j][x];
			if (!m)
				continue;
			e->n_levels[j] = m;
			e->perf_power[j] = i;
			e->n_perf++;
		}
	}
	json_decref(facts);
	return 0;
}

static int32_t call(struct client *c, uint32_t proto, uint32_t msg, unsigned n,
		    uint32_t a0, uint32_t a1, uint32_t a2, uint32_t *out)
{
	uint32_t args[3] = {a0, a1, a2}, dummy[16];
	return client_call(c, proto, msg, args, n, out ? out : dummy, 16, NULL);
}

static uint32_t state_of(struct client *c, unsigned dom)
{
	uint32_t o[16];
	assert_int_equal(call(c, POWER, 5, 1, dom, 0, 0, o), DMN_SCMI_SUCCESS);
	return o[0];
}

static uint32_t level_of(struct client *c, unsigned dom)
{
	uint32_t o[16];
	assert_int_equal(call(c, PERF, 8, 1, dom, 0, 0, o), DMN_SCMI_SUCCESS);
	return o[0];
}

static void name_is(const uint32_t *words, const char *want)
{
	char got[17] = {0}, cut[16];
	memcpy(got, words, 16);
	snprintf(cut, sizeof(cut), "%s", want);
	assert_string_equal(got, cut);
}

static void expect_note(struct client *c, uint32_t proto, uint32_t id,
			uint32_t agent, uint32_t dom, uint32_t value)
{
	struct client_msg m;
	assert_true(client_next(c, &m, 10000));
	assert_int_equal(dmn_scmi_header_type(m.header), DMN_SCMI_TYPE_NOTIFICATION);
	assert_int_equal(dmn_scmi_header_protocol(m.header), proto);
	assert_int_equal(dmn_scmi_header_msg(m.header), id);
	assert_int_equal(m.words[0], agent);
	assert_int_equal(m.words[1], dom);
	assert_int_equal(m.words[2], value);
}

/* `scmi-serve --list` numbers the domains as summary --json orders them. */
static void list_matches(const struct expect *e)
{
	char cmd[2048], agents[] = "/tmp/domino-scmi-agents-XXXXXX";
	int fd = mkstemp(agents);
	assert_true(fd >= 0);
	assert_true(write(fd, "agent 4 x\n", 10) == 10);
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "'%s' scmi-serve '%s' --agents %s --list "
		 "--socket-dir /d",
		 DOMINO_BIN, e->dtb, agents);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	char line[512], want[512];
	for (unsigned i = 0; i < e->n_power; i++) {
		assert_non_null(fgets(line, sizeof(line), p));
		snprintf(want, sizeof(want), "power %u %s\n", i, e->names[i]);
		assert_string_equal(line, want);
	}
	for (unsigned j = 0; j < e->n_perf; j++) {
		assert_non_null(fgets(line, sizeof(line), p));
		snprintf(want, sizeof(want), "perf %u %s\n", j,
			 e->names[e->perf_power[j]]);
		assert_string_equal(line, want);
	}
	assert_non_null(fgets(line, sizeof(line), p));
	assert_string_equal(line, "agent 4 x /d/agent4.sock\n");
	assert_null(fgets(line, sizeof(line), p));
	assert_int_equal(pclose(p), 0);
	unlink(agents);
}

/* ---- the suite, over any transport ------------------------------------------
 */

static void discovery(const struct expect *e, struct client *ospm,
		      struct client *guest)
{
	uint32_t o[16];
	/* the guest is capped to 2.0, the others speak the newer versions */
	assert_int_equal(call(guest, BASE, 0, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 0x20000);
	assert_int_equal(call(ospm, BASE, 0, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 0x20001);
	assert_int_equal(call(guest, BASE, 1, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 3u << 8 | 2);
	assert_int_equal(call(guest, BASE, 3, 0, 0, 0, 0, o), 0);
	name_is(o, "domino");
	assert_int_equal(call(guest, BASE, 6, 1, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 2);
	assert_int_equal(o[1], 0x11 | 0x13 << 8);
	assert_int_equal(call(guest, BASE, 7, 1, 0xffffffff, 0, 0, o), 0);
	assert_int_equal(o[0], GUEST);
	name_is(o + 1, "guest");

	assert_int_equal(call(guest, POWER, 0, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 0x20000);
	assert_int_equal(call(ospm, POWER, 0, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 0x30000);
	assert_int_equal(call(guest, POWER, 1, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], e->n_power);
	for (unsigned i = 0; i < e->n_power; i++) {
		int ext = strlen(e->names[i]) > 15; /* 3.0: the long name */
		assert_int_equal(call(ospm, POWER, 3, 1, i, 0, 0, o), 0);
		assert_int_equal(o[0], 7u << 29 | (uint32_t)ext << 27);
		uint32_t full[17];
		assert_int_equal(
		    client_call(ospm, POWER, 8, &i, 1, full, 17, NULL), 0);
		char cut[64] = {0};
		strncpy(cut, e->names[i], 63);
		assert_memory_equal(full + 1, cut, 64);
		name_is(o + 1, e->names[i]);
		assert_int_equal(call(guest, POWER, 3, 1, i, 0, 0, o), 0);
		assert_int_equal(o[0], 1u << 31); /* may not set */
	}
	assert_int_equal(call(guest, PERF, 0, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 0x20000);
	assert_int_equal(call(ospm, PERF, 0, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0], 0x30000);
	assert_int_equal(call(guest, PERF, 1, 0, 0, 0, 0, o), 0);
	assert_int_equal(o[0] & 0xffff, e->n_perf);
	for (unsigned j = 0; j < e->n_perf; j++) {
		int ext = strlen(e->names[e->perf_power[j]]) > 15;
		assert_int_equal(call(ospm, PERF, 3, 1, j, 0, 0, o), 0);
		assert_int_equal(o[0], 0xfu << 28 | (uint32_t)ext << 26);
		name_is(o + 4, e->names[e->perf_power[j]]);
		assert_int_equal(call(guest, PERF, 3, 1, j, 0, 0, o), 0);
		assert_int_equal(o[0], 3u << 28);
		/* DESCRIBE_LEVELS, page by page, equals the facts */
		unsigned got = 0;
		while (got < e->n_levels[j]) {
			uint32_t args[2] = {j, got}, out[64];
			unsigned n;
			assert_int_equal(
			    client_call(guest, PERF, 4, args, 2, out, 64, &n),
			    0);
			assert_true(guest->last_len <= DMN_SCMI_DEFAULT_MAX_MSG);
			unsigned page = out[0] & 0xfff;
			assert_true(page > 0);
			assert_int_equal(out[0] >> 16,
					 e->n_levels[j] - got - page);
			for (unsigned k = 0; k < page; k++)
				assert_int_equal(out[1 + 3 * k],
						 e->levels[j][got + k]);
			got += page;
		}
		assert_int_equal(call(guest, PERF, 4, 2, j, got, 0, o),
				 DMN_SCMI_INVALID_PARAMETERS);
	}
}

/* Every domain: ON and OFF by one agent, then two agents holding it. */
static void power_round_trips(const struct expect *e, struct client *ospm,
			      struct client *hyp)
{
	for (unsigned i = 0; i < e->n_power; i++) {
		uint32_t before = state_of(ospm, i);
		assert_int_equal(call(ospm, POWER, 4, 3, 0, i, ON, NULL), 0);
		assert_int_equal(state_of(hyp, i), ON);
		if (e->parent[i] >= 0)
			assert_int_equal(state_of(hyp, (unsigned)e->parent[i]),
					 ON);
		assert_int_equal(call(hyp, POWER, 4, 3, 0, i, ON, NULL), 0);
		assert_int_equal(call(ospm, POWER, 4, 3, 0, i, OFF, NULL), 0);
		assert_int_equal(state_of(ospm, i), ON); /* hyp holds it */
		assert_int_equal(call(hyp, POWER, 4, 3, 0, i, OFF, NULL), 0);
		assert_int_equal(state_of(ospm, i), before);
	}
}

/* A child's power-on is notified parents first, naming the agent. */
static void power_notifications(const struct expect *e, struct client *ospm,
				struct client *guest)
{
	int child = -1;
	for (unsigned i = 0; i < e->n_power && child < 0; i++)
		if (e->parent[i] >= 0 && e->parent[e->parent[i]] < 0)
			child = (int)i;
	if (child < 0)
		return;
	unsigned c = (unsigned)child, p = (unsigned)e->parent[c];
	client_drain(guest);
	assert_int_equal(call(guest, POWER, 6, 2, c, 1, 0, NULL), 0);
	assert_int_equal(call(guest, POWER, 6, 2, p, 1, 0, NULL), 0);
	assert_int_equal(call(ospm, POWER, 4, 3, 0, c, ON, NULL), 0);
	expect_note(guest, POWER, 0, OSPM, p, ON);
	expect_note(guest, POWER, 0, OSPM, c, ON);
	assert_int_equal(call(ospm, POWER, 4, 3, 0, c, OFF, NULL), 0);
	expect_note(guest, POWER, 0, OSPM, c, OFF);
	expect_note(guest, POWER, 0, OSPM, p, OFF);
	assert_int_equal(call(guest, POWER, 6, 2, c, 0, 0, NULL), 0);
	assert_int_equal(call(guest, POWER, 6, 2, p, 0, 0, NULL), 0);
	/* async: the reply, then the delayed response with its token */
	uint32_t token = ospm->token & 0x3ff;
	assert_int_equal(call(ospm, POWER, 4, 3, 1, c, ON, NULL), 0);
	struct client_msg m;
	assert_true(client_next(ospm, &m, 10000));
	assert_int_equal(
	    m.header, dmn_scmi_header(POWER, 4, DMN_SCMI_TYPE_DELAYED_RESPONSE, token));
	assert_int_equal(m.words[0], DMN_SCMI_SUCCESS);
	assert_int_equal(m.words[1], c);
	assert_int_equal(m.words[2], ON);
	assert_int_equal(state_of(guest, c), ON);
	assert_int_equal(call(ospm, POWER, 4, 3, 1, c, OFF, NULL), 0);
	assert_true(client_next(ospm, &m, 10000));
	assert_int_equal(state_of(guest, c), OFF);
}

static void perf_levels(const struct expect *e, struct client *ospm,
			struct client *hyp, struct client *guest)
{
	if (!e->n_perf)
		return;
	const uint32_t *lv = e->levels[0];
	unsigned n = e->n_levels[0];
	assert_true(n >= 4);
	client_drain(guest);
	assert_int_equal(call(guest, PERF, 0xA, 2, 0, 1, 0, NULL), 0);
	assert_int_equal(call(guest, PERF, 9, 2, 0, 1, 0, NULL), 0);
	assert_int_equal(level_of(guest, 0), 0);
	assert_int_equal(call(ospm, PERF, 7, 2, 0, lv[1], 0, NULL), 0);
	assert_int_equal(level_of(guest, 0), lv[1]);
	expect_note(guest, PERF, 1, OSPM, 0, lv[1]);
	/* the domain is on while a level is asked for */
	assert_int_equal(state_of(guest, e->perf_power[0]), ON);
	/* two agents: max wins; rounding up between levels */
	assert_int_equal(call(hyp, PERF, 7, 2, 0, lv[2] + 1, 0, NULL), 0);
	assert_int_equal(level_of(guest, 0), lv[3]);
	expect_note(guest, PERF, 1, HYP, 0, lv[3]);
	assert_int_equal(call(ospm, PERF, 7, 2, 0, lv[2], 0, NULL), 0);
	assert_int_equal(level_of(guest, 0), lv[3]);
	assert_int_equal(call(hyp, PERF, 7, 2, 0, 0, 0, NULL), 0);
	assert_int_equal(level_of(guest, 0), lv[2]);
	expect_note(guest, PERF, 1, HYP, 0, lv[2]);
	/* limits: a cap from ospm clamps hyp's request; lifting restores it */
	assert_int_equal(call(hyp, PERF, 7, 2, 0, lv[n - 1], 0, NULL), 0);
	expect_note(guest, PERF, 1, HYP, 0, lv[n - 1]);
	assert_int_equal(call(ospm, PERF, 5, 3, 0, lv[2], lv[0], NULL), 0);
	struct client_msg m;
	assert_true(client_next(guest, &m, 10000));
	assert_int_equal(m.header,
			 dmn_scmi_header(PERF, 0, DMN_SCMI_TYPE_NOTIFICATION, 0));
	assert_int_equal(m.words[0], OSPM);
	assert_int_equal(m.words[2], lv[2]);
	assert_int_equal(m.words[3], lv[0]);
	expect_note(guest, PERF, 1, 0, 0, lv[2]);
	uint32_t o[16];
	assert_int_equal(call(guest, PERF, 6, 1, 0, 0, 0, o), 0);
	assert_int_equal(o[0], lv[2]);
	assert_int_equal(o[1], lv[0]);
	assert_int_equal(level_of(guest, 0), lv[2]);
	assert_int_equal(call(ospm, PERF, 7, 2, 0, lv[3], 0, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(ospm, PERF, 5, 3, 0, lv[n - 1], lv[0], NULL), 0);
	assert_int_equal(level_of(guest, 0), lv[n - 1]);
	/* errors */
	assert_int_equal(call(ospm, PERF, 5, 3, 0, lv[0], lv[1], NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(ospm, PERF, 5, 3, 0, lv[n - 1] + 1, lv[0], NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(ospm, PERF, 7, 2, 0, lv[n - 1] + 1, 0, NULL),
			 DMN_SCMI_OUT_OF_RANGE);
	assert_int_equal(call(guest, PERF, 7, 2, 0, lv[1], 0, NULL),
			 DMN_SCMI_DENIED);
	assert_int_equal(call(guest, PERF, 5, 3, 0, lv[1], lv[0], NULL),
			 DMN_SCMI_DENIED);
	assert_int_equal(call(ospm, PERF, 7, 2, e->n_perf, lv[1], 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, PERF, 0xB, 2, 0, 7, 0, NULL),
			 DMN_SCMI_NOT_SUPPORTED);
	/* withdraw everything: back to off at 0 */
	assert_int_equal(call(ospm, PERF, 7, 2, 0, 0, 0, NULL), 0);
	assert_int_equal(call(hyp, PERF, 7, 2, 0, 0, 0, NULL), 0);
	assert_int_equal(level_of(guest, 0), 0);
	assert_int_equal(state_of(guest, e->perf_power[0]), OFF);
	assert_int_equal(call(guest, PERF, 0xA, 2, 0, 0, 0, NULL), 0);
	assert_int_equal(call(guest, PERF, 9, 2, 0, 0, 0, NULL), 0);
	client_drain(guest);
}

static void error_statuses(const struct expect *e, struct client *ospm,
			   struct client *guest)
{
	assert_int_equal(call(guest, POWER, 4, 3, 0, 0, ON, NULL), DMN_SCMI_DENIED);
	assert_int_equal(call(ospm, POWER, 4, 3, 0, e->n_power, ON, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, POWER, 5, 1, e->n_power, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, POWER, 3, 1, e->n_power, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, PERF, 3, 1, e->n_perf, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, POWER, 4, 3, 4, 0, ON, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(ospm, POWER, 4, 3, 0, 0, 0x40000002, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(ospm, POWER, 6, 2, 0, 5, 0, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(ospm, BASE, 6, 1, 3, 0, 0, NULL),
			 DMN_SCMI_INVALID_PARAMETERS);
	assert_int_equal(call(ospm, BASE, 7, 1, 77, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, 0x15, 0, 0, 0, 0, 0, NULL),
			 DMN_SCMI_NOT_SUPPORTED);
	assert_int_equal(call(guest, POWER, 0x8, 1, 0, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, POWER, 0x9, 1, 0, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, BASE, 2, 1, 0x9, 0, 0, NULL),
			 DMN_SCMI_NOT_FOUND);
	assert_int_equal(call(ospm, POWER, 4, 1, 0, 0, 0, NULL),
			 DMN_SCMI_PROTOCOL_ERROR);
	assert_int_equal(call(ospm, BASE, 1, 1, 0, 0, 0, NULL),
			 DMN_SCMI_PROTOCOL_ERROR);
}

static void suite(const struct expect *e, struct client *ospm,
		  struct client *hyp, struct client *guest)
{
	discovery(e, ospm, guest);
	power_round_trips(e, ospm, hyp);
	power_notifications(e, ospm, guest);
	perf_levels(e, ospm, hyp, guest);
	error_statuses(e, ospm, guest);
}

/* ---- in process
 * -------------------------------------------------------------- */

static const uint8_t all_bits[MAX_DOMAINS / 8];

struct inproc {
	struct dmn_sim *sim;
	struct dmn_scmi_board_map map;
	struct dmn_scmi_server *srv;
	struct client ospm, hyp, guest;
};

static void inproc_open(const struct expect *e, struct inproc *w)
{
	char *blob;
	size_t size;
	blob = read_whole_file(e->dtb, &size);
	assert_non_null(blob);
	struct dmn_sim_options so = {.board_name = e->board};
	assert_int_equal(dmn_sim_create(blob, size, &so, &w->sim), 0);
	free(blob);
	assert_int_equal(
	    dmn_scmi_board_map(dmn_sim_board(w->sim), dmn_sim_instance(w->sim), &w->map),
	    0);
	static uint8_t ones[MAX_DOMAINS / 8];
	memset(ones, 0xff, sizeof(ones));
	struct dmn_scmi_agent agents[3] = {{OSPM, "ospm", ones, ones, 0, 0},
					   {HYP, "hyp", ones, ones, 0, 0},
					   {GUEST, "guest", all_bits, all_bits,
					    DMN_SCMI_PROTOCOL_VERSION_2_0, 0}};
	struct dmn_scmi_config cfg = {.ctx = dmn_sim_ctx(w->sim),
				  .power = w->map.power,
				  .n_power = w->map.n_power,
				  .perf = w->map.perf,
				  .n_perf = w->map.n_perf,
				  .agents = agents,
				  .n_agents = 3};
	struct client *const clients[3] = {&w->ospm, &w->hyp, &w->guest};
	w->srv = client_inproc_serve(&cfg, clients);
}

static void inproc_close(struct inproc *w)
{
	dmn_scmi_server_destroy(w->srv);
	dmn_scmi_board_map_free(&w->map);
	dmn_sim_free(w->sim);
}

/* Arm `fail DOMAIN OP` through the simulator's own scenario command. */
static void arm(struct inproc *w, const char *domain, const char *op)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "fail %s %s\n", domain, op);
	struct dmn_scn_script *script;
	struct dmn_scn_diag diag;
	assert_int_equal(dmn_scn_parse(line, (size_t)n, "t", NULL, &script, &diag),
			 0);
	struct dmn_sim_result res = {0, 0, 0};
	int op_error;
	assert_int_equal(dmn_sim_step(w->sim, script, 0, &res, &op_error, &diag),
			 0);
	dmn_scn_free(script);
}

/* docs/semantics.md (Failures) under SCMI on a real board's simulated
 * providers. */
static void failures(const struct expect *e, struct inproc *w)
{
	unsigned d = e->n_power - 1;
	for (unsigned i = 0; i < e->n_power; i++)
		if (e->parent[i] >= 0) {
			d = i;
			break;
		}
	unsigned p = e->parent[d] >= 0 ? (unsigned)e->parent[d] : d;
	arm(w, e->names[p], "on");
	assert_int_equal(call(&w->ospm, POWER, 4, 3, 0, d, ON, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_int_equal(state_of(&w->ospm, d), OFF);
	assert_int_equal(state_of(&w->ospm, p), OFF);
	assert_int_equal(call(&w->ospm, POWER, 4, 3, 0, d, ON, NULL), 0);
	arm(w, e->names[d], "off");
	assert_int_equal(call(&w->ospm, POWER, 4, 3, 0, d, OFF, NULL), 0);
	assert_int_equal(state_of(&w->ospm, d), ON); /* safe: stays on */
	assert_int_equal(dmn_last_error(dmn_sim_ctx(w->sim)), -EIO);
	/* BUSY: a second async request before the first was delivered */
	uint8_t req[16], reply[64];
	uint32_t h = dmn_scmi_header(POWER, 4, 0, 3), words[3] = {1, d, ON};
	memcpy(req, &h, 4);
	memcpy(req + 4, words, 12);
	size_t len;
	assert_int_equal(dmn_scmi_handle(w->srv, HYP, req, 16, reply, 64, &len), 0);
	assert_int_equal(dmn_scmi_handle(w->srv, HYP, req, 16, reply, 64, &len), 0);
	int32_t st;
	memcpy(&st, reply + 4, 4);
	assert_int_equal(st, DMN_SCMI_BUSY);
	dmn_scmi_deliver(w->srv);
	client_drain(&w->hyp);
	if (!e->n_perf)
		return;
	const uint32_t *lv = e->levels[0];
	assert_int_equal(call(&w->ospm, PERF, 7, 2, 0, lv[1], 0, NULL), 0);
	arm(w, e->names[e->perf_power[0]], "pstate");
	assert_int_equal(call(&w->ospm, PERF, 7, 2, 0, lv[3], 0, NULL),
			 DMN_SCMI_HARDWARE_ERROR);
	assert_int_equal(level_of(&w->ospm, 0), lv[1]);
	arm(w, e->names[e->perf_power[0]], "pstate");
	assert_int_equal(call(&w->ospm, PERF, 7, 2, 0, lv[0], 0, NULL), 0);
	assert_int_equal(level_of(&w->ospm, 0), lv[1]); /* lowering failed */
	assert_int_equal(call(&w->ospm, PERF, 7, 2, 0, lv[2], 0, NULL), 0);
	assert_int_equal(level_of(&w->ospm, 0), lv[2]);
}

static unsigned skipped;

static void run_inproc(const char *board)
{
	static struct expect e;
	if (load_expect(board, &e)) {
		skipped++;
		skip();
		return;
	}
	list_matches(&e);
	struct inproc w;
	inproc_open(&e, &w);
	suite(&e, &w.ospm, &w.hyp, &w.guest);
	failures(&e, &w);
	inproc_close(&w);
}

static void test_inproc_rb5(void **state)
{
	(void)state;
	run_inproc("qrb5165-rb5");
}

static void test_inproc_rock5b(void **state)
{
	(void)state;
	run_inproc("rk3588-rock-5b");
}

/* ---- over the sockets ------------------------------------------------------
 */

struct served {
	pid_t pid;
	char dir[256];
	char path[3][300];
};

/* The server of the running test, killed by the teardown if an assertion
 * ended the test early. */
static pid_t running_server;

static int kill_server(void **state)
{
	(void)state;
	if (running_server > 0) {
		kill(running_server, SIGKILL);
		waitpid(running_server, NULL, 0);
	}
	running_server = 0;
	return 0;
}

static void serve_start(const struct expect *e, struct served *s)
{
	snprintf(s->dir, sizeof(s->dir), "/tmp/domino-scmi-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	char agents[320];
	snprintf(agents, sizeof(agents), "%s/agents", s->dir);
	FILE *f = fopen(agents, "w");
	assert_non_null(f);
	fprintf(f,
		"# test agents\nagent 1 ospm power all perf all\n"
		"agent 2 hyp power all perf all\nagent 3 guest version 2.0\n");
	fclose(f);
	for (int i = 0; i < 3; i++)
		snprintf(s->path[i], sizeof(s->path[i]), "%s/agent%d.sock",
			 s->dir, i + 1);
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (!s->pid) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		char trace[320];
		snprintf(trace, sizeof(trace), "%s/trace.json", s->dir);
		execl(DOMINO_BIN, DOMINO_BIN, "scmi-serve", e->dtb, "--agents",
		      agents, "--socket-dir", s->dir, "--trace", trace,
		      (char *)NULL);
		_exit(127);
	}
	running_server = s->pid;
	/* Up to 60 s: a loaded machine or a sanitizer build can take several
	 * seconds to load the board; a server that exited fails at once. */
	for (int tries = 0; tries < 6000; tries++) {
		if (!access(s->path[2], F_OK))
			return;
		int status;
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			running_server = 0;
			fail_msg("scmi-serve exited before creating %s",
				 s->path[2]);
		}
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	fail_msg("scmi-serve did not create %s", s->path[2]);
}

/* SIGTERM: exit 0 and the sockets gone. */
static void serve_stop(const struct expect *e, struct served *s)
{
	kill(s->pid, SIGTERM);
	int status;
	assert_int_equal(waitpid(s->pid, &status, 0), s->pid);
	running_server = 0;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	for (int i = 0; i < 3; i++)
		assert_int_not_equal(access(s->path[i], F_OK), 0);
	char agents[320];
	snprintf(agents, sizeof(agents), "%s/agents", s->dir);
	unlink(agents);
	/* --trace: perf domain 0's pstate counter went through the level the
	 * suite set first (lv[1]) */
	char trace[320];
	snprintf(trace, sizeof(trace), "%s/trace.json", s->dir);
	json_error_t err;
	json_t *tr = json_load_file(trace, 0, &err);
	assert_non_null(tr);
	if (e->n_perf) {
		json_t *evs =
		    json_is_array(tr) ? tr : json_object_get(tr, "traceEvents");
		char want[128];
		snprintf(want, sizeof(want), "%s pstate",
			 e->names[e->perf_power[0]]);
		int seen = 0;
		for (size_t i = 0; i < json_array_size(evs); i++) {
			json_t *ev = json_array_get(evs, i);
			const char *name =
			    json_string_value(json_object_get(ev, "name"));
			json_t *ps = json_object_get(
			    json_object_get(ev, "args"), "pstate");
			if (name && !strcmp(name, want) &&
			    json_is_integer(ps) &&
			    (uint32_t)json_integer_value(ps) == e->levels[0][1])
				seen = 1;
		}
		assert_true(seen);
	}
	json_decref(tr);
	unlink(trace);
	assert_int_equal(rmdir(s->dir), 0);
}

static void send_frame(int fd, uint32_t len, const void *body, size_t n)
{
	uint8_t head[4] = {(uint8_t)len, (uint8_t)(len >> 8),
			   (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
	assert_int_equal(write(fd, head, 4), 4);
	if (n)
		assert_int_equal(write(fd, body, n), (ssize_t)n);
}

/* The reply's header and status, read off the socket. */
static void read_reply(struct client *c, uint32_t *header, int32_t *status)
{
	struct client_msg m;
	assert_true(client_next(c, &m, 10000));
	*header = m.header;
	*status = (int32_t)m.words[0];
}

static void bad_frames(struct client *ospm, struct client *hyp)
{
	uint32_t h;
	int32_t st;
	/* shorter than a header, and empty */
	uint8_t two[2] = {1, 2};
	send_frame(ospm->fd, 2, two, 2);
	read_reply(ospm, &h, &st);
	assert_int_equal(h, 0);
	assert_int_equal(st, DMN_SCMI_PROTOCOL_ERROR);
	send_frame(ospm->fd, 0, NULL, 0);
	read_reply(ospm, &h, &st);
	assert_int_equal(st, DMN_SCMI_PROTOCOL_ERROR);
	/* oversized: read through, answered under its header */
	uint8_t big[1000];
	memset(big, 0xab, sizeof(big));
	uint32_t hh = dmn_scmi_header(PERF, 7, 0, 42);
	memcpy(big, &hh, 4);
	send_frame(ospm->fd, sizeof(big), big, sizeof(big));
	read_reply(ospm, &h, &st);
	assert_int_equal(h, hh);
	assert_int_equal(st, DMN_SCMI_PROTOCOL_ERROR);
	/* garbage of every length: each gets a reply with a status */
	srand(7);
	for (unsigned i = 0; i < 300; i++) {
		uint8_t junk[200];
		size_t n = (size_t)rand() % sizeof(junk);
		for (size_t k = 0; k < n; k++)
			junk[k] = (uint8_t)rand();
		if (n >= 4 &&
		    i % 2) /* keep the type a command, half the time */
			junk[1] &= 0xfc;
		send_frame(ospm->fd, (uint32_t)n, junk, n);
		struct client_msg m;
		int got_reply = 0;
		while (!got_reply) {
			assert_true(client_next(ospm, &m, 10000));
			got_reply =
			    dmn_scmi_header_type(m.header) == DMN_SCMI_TYPE_COMMAND;
		}
		assert_true((int32_t)m.words[0] <= 0 &&
			    (int32_t)m.words[0] >= DMN_SCMI_PROTOCOL_ERROR);
	}
	client_drain(ospm);
	/* the connection and the other agents still work */
	assert_int_equal(call(ospm, BASE, 0, 0, 0, 0, 0, NULL), 0);
	assert_int_equal(call(hyp, BASE, 0, 0, 0, 0, 0, NULL), 0);
}

/* A subscriber that never reads loses the notifications its queue has no
 * room for, then its connection once nothing moved for --stall-timeout
 * (2 s by default); everyone else goes on being served. */
static void lazy_subscriber(const char *path, struct client *ospm)
{
	struct client lazy;
	assert_int_equal(client_connect(&lazy, path, GUEST), 0);
	assert_int_equal(call(&lazy, POWER, 6, 2, 0, 1, 0, NULL), 0);
	time_t start = time(NULL);
	for (unsigned i = 0; i < 12000; i++) {
		assert_int_equal(call(ospm, POWER, 4, 3, 0, 0, ON, NULL), 0);
		assert_int_equal(call(ospm, POWER, 4, 3, 0, 0, OFF, NULL), 0);
	}
	assert_true(time(NULL) - start < 60);
	/* still not reading when the stall timeout passes */
	struct timespec wait = {2, 600 * 1000 * 1000};
	nanosleep(&wait, NULL);
	/* the server closed it: the queued notifications, then end of file */
	uint8_t buf[65536];
	ssize_t n;
	while ((n = read(lazy.fd, buf, sizeof(buf))) > 0)
		;
	assert_int_equal(n, 0);
	client_close(&lazy);
}

static void run_socket(const char *board)
{
	static struct expect e;
	if (load_expect(board, &e)) {
		skipped++;
		skip();
		return;
	}
	struct served s;
	serve_start(&e, &s);
	struct client ospm, hyp, guest;
	assert_int_equal(client_connect(&ospm, s.path[0], OSPM), 0);
	assert_int_equal(client_connect(&hyp, s.path[1], HYP), 0);
	assert_int_equal(client_connect(&guest, s.path[2], GUEST), 0);
	suite(&e, &ospm, &hyp, &guest);
	/* a frame cut short by a disconnect harms nobody else */
	struct client cut;
	assert_int_equal(client_connect(&cut, s.path[0], OSPM), 0);
	send_frame(cut.fd, 100, "\x01\x02\x03", 3);
	client_close(&cut);
	bad_frames(&ospm, &hyp);
	lazy_subscriber(s.path[2], &ospm);
	client_close(&ospm);
	client_close(&hyp);
	client_close(&guest);
	serve_stop(&e, &s);
}

static void test_socket_rb5(void **state)
{
	(void)state;
	run_socket("qrb5165-rb5");
}

static void test_socket_rock5b(void **state)
{
	(void)state;
	run_socket("rk3588-rock-5b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_inproc_rb5),
	    cmocka_unit_test(test_inproc_rock5b),
	    cmocka_unit_test_teardown(test_socket_rb5, kill_server),
	    cmocka_unit_test_teardown(test_socket_rock5b, kill_server),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	/* No board at all: tell ctest the test was skipped (77). */
	if (!failed && skipped == sizeof(tests) / sizeof(*tests))
		return 77;
	return failed;
}
