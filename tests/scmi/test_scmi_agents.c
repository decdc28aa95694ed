/* SPDX-License-Identifier: MIT */
/*
 * The agents file parser on a hand-made board map: every list form (all,
 * none, N, N-M, a name) grants exactly the domains it names, at the
 * edges of the board's range, and every bad line is refused with its
 * line number and nothing handed back (docs/scmi.md, Agents file).
 */
#include <domino/scmi.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* Ten power domains (two share a name: the first is meant) and three
 * perf domains; the handles are never used by the parser. */
static const struct dmn_scmi_power_domain power[] = {
    {0, "cx"},  {0, "mx"},     {0, "gdsc0"}, {0, "gdsc1"}, {0, "gdsc2"},
    {0, "gfx"}, {0, "cx"},     {0, "ufs"},   {0, "usb"},   {0, "display"}};
static const struct dmn_scmi_perf_domain perf[] = {
    {0, "cx", NULL, 0}, {0, "mx", NULL, 0}, {0, "gfx", NULL, 0}};
static const struct dmn_scmi_board_map map = {
    (struct dmn_scmi_power_domain *)power, 10,
    (struct dmn_scmi_perf_domain *)perf, 3, NULL, NULL};

/* The set bits of @bits among the first @n, as a string of 0 and 1. */
static const char *granted(const uint8_t *bits, unsigned n)
{
	static char s[64];
	for (unsigned i = 0; i < n; i++)
		s[i] = bits && (bits[i / 8] >> (i % 8) & 1) ? '1' : '0';
	s[n] = 0;
	return s;
}

/* The bytes past the board's last domain are never set. */
static void no_stray_bits(const uint8_t *bits, unsigned n)
{
	for (unsigned i = n; i % 8; i++)
		assert_int_equal(bits[i / 8] >> (i % 8) & 1, 0);
}

static void parse_ok(const char *text, struct dmn_scmi_agents *out)
{
	char err[160] = "";
	int rc = dmn_scmi_agents_parse(text, strlen(text), &map, out, err,
				       sizeof(err));
	if (rc)
		fail_msg("%s", err);
}

static void test_lists(void **state)
{
	(void)state;
	struct dmn_scmi_agents a;
	parse_ok("# a comment line\n"
		 "agent 1 ospm power all perf all   # everything\n"
		 "\n"
		 "agent 2 hyp power 0,2-4,gfx,display perf mx\n"
		 "agent 3 cam power cx,9 perf 0-2\n"
		 "agent 255 guest\n"
		 "agent 7 nothing power none perf none\n"
		 "agent 9 edge power 9-9,0-0 perf 2\n"
		 "agent 4 linux reads own power all version 2.0\n",
		 &a);
	assert_int_equal(a.n_agents, 7);
	/* own reads (docs/scmi.md) only where asked, in any position */
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(a.agents[i].flags, 0);
	assert_int_equal(a.agents[6].flags, DMN_SCMI_AGENT_OWN_READS);
	assert_int_equal(a.agents[6].version, DMN_SCMI_PROTOCOL_VERSION_2_0);
	assert_string_equal(granted(a.agents[6].power, 10), "1111111111");
	assert_int_equal(a.agents[0].id, 1);
	assert_string_equal(a.agents[0].name, "ospm");
	assert_string_equal(granted(a.agents[0].power, 10), "1111111111");
	assert_string_equal(granted(a.agents[0].perf, 3), "111");
	assert_string_equal(granted(a.agents[1].power, 10), "1011110001");
	assert_string_equal(granted(a.agents[1].perf, 3), "010");
	/* a name shared by two domains means the first */
	assert_string_equal(granted(a.agents[2].power, 10), "1000000001");
	assert_string_equal(granted(a.agents[2].perf, 3), "111");
	assert_int_equal(a.agents[3].id, 255);
	assert_string_equal(granted(a.agents[3].power, 10), "0000000000");
	assert_string_equal(granted(a.agents[3].perf, 3), "000");
	assert_string_equal(granted(a.agents[4].power, 10), "0000000000");
	assert_string_equal(granted(a.agents[5].power, 10), "1000000001");
	assert_string_equal(granted(a.agents[5].perf, 3), "001");
	for (unsigned i = 0; i < a.n_agents; i++) {
		no_stray_bits(a.agents[i].power, 10);
		no_stray_bits(a.agents[i].perf, 3);
	}
	dmn_scmi_agents_free(&a);
	assert_null(a.agents);
	dmn_scmi_agents_free(&a); /* twice is harmless */
}

struct bad {
	const char *text, *error;
};

static void test_bad_lines(void **state)
{
	(void)state;
	static const struct bad cases[] = {
	    {"agent 1 a power 10\n", "1: error: no power domain 10 (the board has 10)"},
	    {"agent 1 a power 9-10\n", "1: error: no power domain 10 (the board has 10)"},
	    {"agent 1 a perf 3\n", "1: error: no perf domain 3 (the board has 3)"},
	    {"agent 1 a power 4-3\n", "1: error: power range 4-3 is backwards"},
	    {"agent 1 a\nagent 2 b power gpu\n", "2: error: no power domain 'gpu'"},
	    {"agent 1 a perf gdsc0\n", "1: error: no perf domain 'gdsc0'"},
	    {"agent 1 a power 0,\n", "1: error: power list ends with ','"},
	    {"agent 1 a power 0 power 1\n", "1: error: 'power' given twice"},
	    {"agent 1 a power\n", "1: error: 'power' needs a list"},
	    {"agent 0 a\n", "1: error: agent id '0' is not a number in 1..255"},
	    {"agent 256 a\n", "1: error: agent id '256' is not a number in 1..255"},
	    {"agent 1 a\nagent 1 b\n", "2: error: agent id 1 is used twice"},
	    {"agent 1 a\nagent 2 a\n", "2: error: agent name 'a' is used twice"},
	    {"agent 1 aaaaaaaaaaaaaaaa\n", "1: error: agent name 'aaaaaaaaaaaaaaaa' is longer than 15 bytes"},
	    {"agent 1\n", "1: error: 'agent' needs an id and a name"},
	    {"agents 1 a\n", "1: error: expected 'agent ID NAME"},
	    {"agent 1 a power 1 perf 1 x\n", "1: error: expected 'power', 'perf', 'version' or 'reads', got 'x'"},
	    {"agent 1 a power 1 perf 1 version 2.0 reads own x\n", "1: error: too many words"},
	    {"agent 1 a powers 1\n", "1: error: expected 'power', 'perf', 'version' or 'reads', got 'powers'"},
	    {"agent 1 a reads 0wn\n", "1: error: reads '0wn' is not a kind of read (own)"},
	    {"# nothing\n\n", "2: error: no agent"},
	    {"", "1: error: no agent"},
	    {"agent 1 a power 99999999999\n", "1: error: no power domain '99999999999'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct dmn_scmi_agents a;
		char err[160] = "";
		int rc = dmn_scmi_agents_parse(cases[i].text, strlen(cases[i].text),
					       &map, &a, err, sizeof(err));
		if (rc != -EINVAL || strncmp(err, cases[i].error,
					     strlen(cases[i].error)))
			fail_msg("case %zu: rc %d, '%s', want '%s'", i, rc, err,
				 cases[i].error);
		assert_null(a.agents);
		assert_int_equal(a.n_agents, 0);
	}
	struct dmn_scmi_agents a;
	assert_int_equal(dmn_scmi_agents_parse(NULL, 1, &map, &a, NULL, 0), -EINVAL);
	assert_int_equal(dmn_scmi_agents_parse("agent 1 a", 9, NULL, &a, NULL, 0),
			 -EINVAL);
	/* a NUL inside a line */
	assert_int_equal(dmn_scmi_agents_parse("agent 1 a\0b\n", 12, &map, &a, NULL, 0),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lists),
	    cmocka_unit_test(test_bad_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
