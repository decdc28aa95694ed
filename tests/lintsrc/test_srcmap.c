/* SPDX-License-Identifier: MIT */
/*
 * cli/srcmap.c alone: dtc's annotated output (`dtc -O dts -T -T`) read into
 * places, and the sources read for where an overridden property was first
 * set. The annotations come from dtc, but the sources are whatever the
 * user wrote: random and truncated texts of both must never read out of
 * bounds (run under ASan by scripts/test.sh --sanitize) nor loop.
 */
#include "source.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static char dir[] = "/tmp/domino-srcmap.XXXXXX";

static void write_file(const char *name, const char *text, size_t len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* The annotations name files under @dir: '~' in @fmt. */
static char *annotated(const char *fmt)
{
	size_t n = strlen(fmt) * 2 + 4 * strlen(dir) + 1;
	char *out = malloc(n), *o = out;
	for (const char *p = fmt; *p; p++) {
		if (*p == '~') {
			o += sprintf(o, "%s", dir);
		} else {
			*o++ = *p;
		}
	}
	*o = 0;
	return out;
}

static const char base[] =
	"/ {\n"                                   /* 1 */
	"\tdev: dev@1 {\n"                         /* 2 */
	"\t\t/* \"a\" { } */ names = \"a\", \"}\";\n" /* 3 */
	"\t\tchild { names = \"c\"; };\n"          /* 4 */
	"#define X(a) { a }\n"                     /* 5 */
	"\t\t/delete-property/ names;\n"           /* 6 */
	"\t\tnames = \"b\";\n"                     /* 7 */
	"\t};\n"                                   /* 8 */
	"};\n";                                    /* 9 */
static const char board[] =
	"#include \"base.dtsi\"\n" /* 1 */
	"&dev {\n"                 /* 2 */
	"\tnames = \"z\";\n"       /* 3 */
	"};\n";                    /* 4 */

static const char map_text[] =
	"/dts-v1/;\n"
	"\n"
	"/ { /* ~/base.dtsi:1:3-9:3 */\n"
	"\tdev: dev@1 { /* ~/base.dtsi:2:13-8:4, ~/board.dts:2:6-4:3 */\n"
	"\t\tnames = \"z\"; /* ~/board.dts:3:2-3:14 */\n"
	"\t\tlabel2: other = <0x01>; /* <no-file>:<no-line> */\n"
	"\t\tchild { /* ~/base.dtsi:4:9-4:27 */\n"
	"\t\t\tnames = \"c\"; /* ~/base.dtsi:4:11-4:24 */\n"
	"\t\t}; /* ~/base.dtsi:4:9-4:27 */\n"
	"\t}; /* ~/base.dtsi:2:13-8:4, ~/board.dts:2:6-4:3 */\n"
	"}; /* ~/base.dtsi:1:3-9:3 */\n";

static void places_and_first_set(void **state)
{
	(void)state;
	write_file("base.dtsi", base, strlen(base));
	write_file("board.dts", board, strlen(board));
	char *text = annotated(map_text);
	struct cli_srcmap *m;
	assert_int_equal(cli_srcmap_parse(text, strlen(text), NULL, NULL, &m), 0);
	struct cli_loc at, first;
	char want[256];
	/* the winner in the .dts; first set on line 3 of the .dtsi, past the
	 * comment and the strings holding braces (line 7 sets it again, and
	 * the child's own on line 4 is not the node's) */
	assert_int_equal(cli_srcmap_find(m, "/dev@1", "names", &at, &first), 0);
	snprintf(want, sizeof(want), "%s/board.dts", dir);
	assert_string_equal(at.file, want);
	assert_int_equal(at.line, 3);
	assert_int_equal(at.col, 2);
	snprintf(want, sizeof(want), "%s/base.dtsi", dir);
	assert_non_null(first.file);
	assert_string_equal(first.file, want);
	assert_int_equal(first.line, 3);
	assert_int_equal(first.col, 17);
	/* the child's own: no earlier fragment */
	assert_int_equal(cli_srcmap_find(m, "/dev@1/child", "names", &at, &first), 0);
	assert_int_equal(at.line, 4);
	assert_int_equal(at.col, 11);
	assert_null(first.file);
	/* a property the node lacks (or one without a place): the node's
	 * definition, at its name after the label */
	assert_int_equal(cli_srcmap_find(m, "/dev@1", "missing", &at, &first), 0);
	assert_int_equal(at.line, 2);
	assert_int_equal(at.col, 7);
	assert_int_equal(cli_srcmap_find(m, "/dev@1", "other", &at, &first), 0);
	assert_int_equal(at.line, 2);
	assert_int_equal(cli_srcmap_find(m, "/dev@1", NULL, &at, &first), 0);
	assert_int_equal(at.col, 7);
	/* no such node; the root without a property is the board, no line */
	assert_int_equal(cli_srcmap_find(m, "/nope", "names", &at, &first), -ENOENT);
	assert_null(at.file);
	assert_int_equal(cli_srcmap_find(m, "/", NULL, &at, &first), -ENOENT);
	cli_srcmap_free(m);
}

/* xorshift: reproducible noise */
static uint64_t rng = 88172645463325252u;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void random_texts_are_harmless(void **state)
{
	(void)state;
	static const char alphabet[] = "{}/*\";<>[]#\\\n\t =abc:,-@0123456789";
	char *good = annotated(map_text);
	size_t good_len = strlen(good);
	for (unsigned round = 0; round < 3000; round++) {
		/* a source of random tokens, or the real one cut short */
		char src[512];
		size_t n = next() % sizeof(src);
		if (round % 3 == 0) {
			n = n % (sizeof(base) - 1);
			memcpy(src, base, n);
		} else {
			for (size_t i = 0; i < n; i++)
				src[i] = alphabet[next() % (sizeof(alphabet) - 1)];
		}
		write_file("base.dtsi", src, n);
		/* the annotations: the good text with a few bytes changed, or
		 * cut short */
		char *text = malloc(good_len + 1);
		memcpy(text, good, good_len + 1);
		size_t len = round % 5 == 0 ? next() % (good_len + 1) : good_len;
		for (unsigned k = 0; k < 4 && round % 5; k++)
			text[next() % good_len] = alphabet[next() % (sizeof(alphabet) - 1)];
		text[len] = 0;
		struct cli_srcmap *m;
		if (cli_srcmap_parse(text, len, NULL, NULL, &m))
			continue;
		static const char *const paths[] = {"/", "/dev@1", "/dev@1/child", "/x"};
		static const char *const props[] = {"names", "other", NULL, "missing"};
		for (unsigned p = 0; p < 4; p++)
			for (unsigned q = 0; q < 4; q++) {
				struct cli_loc at, first;
				if (!cli_srcmap_find(m, paths[p], props[q], &at, &first))
					assert_non_null(at.file);
			}
		cli_srcmap_free(m);
	}
	free(good);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char path[256];
	snprintf(path, sizeof(path), "%s/base.dtsi", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/board.dts", dir);
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(places_and_first_set),
		cmocka_unit_test(random_texts_are_harmless),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
