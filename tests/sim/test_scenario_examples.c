/* SPDX-License-Identifier: MIT */
/*
 * The example scenarios under examples/ parse cleanly, and the demo
 * scenario with boot.scn and sleep.scn (the lifecycle verbs) exercises
 * every verb and
 * every expect form.
 */
#include <domino/scenario.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "read_file.h"

static char *read_file(const char *path, size_t *len)
{
	char *buf = read_whole_file(path, len);
	if (!buf)
		fail_msg("cannot read %s", path);
	return buf;
}

static struct dmn_scn_script *parse_example(const char *name)
{
	char path[512];
	size_t len;
	snprintf(path, sizeof(path), "%s/%s", DOMINO_EXAMPLES_DIR, name);
	char *text = read_file(path, &len);
	struct dmn_scn_script *s = NULL;
	struct dmn_scn_diag d;
	int rc = dmn_scn_parse(text, len, name, NULL, &s, &d);
	free(text);
	if (rc) {
		char msg[400];
		dmn_scn_diag_format(&d, 1, msg, sizeof(msg));
		fail_msg("%s", msg);
	}
	assert_true(s->count > 0);
	return s;
}

static void uses(const struct dmn_scn_script *s, unsigned *verbs, unsigned *forms)
{
	for (size_t i = 0; i < s->count; i++) {
		*verbs |= 1u << s->cmds[i].verb;
		if (s->cmds[i].verb == DMN_SCN_EXPECT)
			*forms |= 1u << s->cmds[i].expect.kind;
	}
}

static void test_demo(void **state)
{
	(void)state;
	struct dmn_scn_script *s = parse_example("demo.scn");
	unsigned verbs = 0, forms = 0;
	uses(s, &verbs, &forms);
	/* The runtime-PM verbs of docs/scenario.md all appear in the demo. */
	assert_int_equal(verbs, (1u << (DMN_SCN_EXPECT + 1)) - 1);
	assert_int_equal(forms, (1u << (DMN_SCN_EXPECT_LAST_ERROR + 1)) - 1);
	assert_int_equal(s->end_ns, 200000000);
	dmn_scn_free(s);
	/* The lifecycle verbs of docs/lifecycle.md have their own example. */
	s = parse_example("boot.scn");
	uses(s, &verbs, &forms);
	dmn_scn_free(s);
	s = parse_example("sleep.scn");
	uses(s, &verbs, &forms);
	dmn_scn_free(s);
	s = parse_example("hwmode.scn");
	uses(s, &verbs, &forms);
	dmn_scn_free(s);
	/* The provider's boot choices and the system wakeup latency. */
	s = parse_example("provider-sync.scn");
	uses(s, &verbs, &forms);
	dmn_scn_free(s);
	s = parse_example("system-qos.scn");
	uses(s, &verbs, &forms);
	dmn_scn_free(s);
	assert_int_equal(verbs, (1u << DMN_SCN_VERB_COUNT) - 1);
	assert_int_equal(forms, (1u << (DMN_SCN_EXPECT_SW + 1)) - 1);
}

static void test_video_playback(void **state)
{
	(void)state;
	dmn_scn_free(parse_example("video-playback.scn"));
}

static void test_cpu_idle(void **state)
{
	(void)state;
	dmn_scn_free(parse_example("cpu-idle.scn"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demo),
		cmocka_unit_test(test_video_playback),
		cmocka_unit_test(test_cpu_idle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
