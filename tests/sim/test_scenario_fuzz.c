/* SPDX-License-Identifier: MIT */
/*
 * Scenario parser robustness: random bytes, every truncation of a valid
 * script, and random mutations of it. The parser must return 0 or one of its
 * documented errors, fill in a sane diagnostic, and never crash or leak
 * (run this under -DDOMINO_SANITIZE=address,undefined as well).
 */
#include <domino/scenario.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char valid[] = "# a bit of everything\n"
			    "@0 resume venus\n"
			    "rate venus 720MHz\n"
			    "vote venus mx 256\n"
			    "+1.5ms qos cpu0 500\n"
			    "wakeup cpu0 +5ms\n"
			    "@2ms wakeup cpu1 20ms # absolute\n"
			    "fail mmcx pstate 2\n"
			    "expect mmcx pstate 128\n"
			    "expect cluster_pd idle cluster-sleep-1\n"
			    "expect venus rate 720000000\n"
			    "expect last-error EIO\n"
			    "expect gpu_gdsc on\r\n"
			    "+1s suspend venus\n"
			    "expect gpu_gdsc off\n"
			    "qos cpu0 none\n"
			    "resume caf\xc3\xa9\n";

/* A small deterministic generator, so failures reproduce. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static int live_blocks;
static void *track_alloc(void *user, size_t size)
{
	(void)user;
	live_blocks++;
	return malloc(size ? size : 1);
}
static void track_free(void *user, void *ptr)
{
	(void)user;
	live_blocks--;
	free(ptr);
}
static const struct dmn_alloc_ops tracking = {track_alloc, track_free, NULL};

static void check_one(const char *text, size_t len)
{
	struct dmn_scn_script *s = NULL;
	struct dmn_scn_diag d;
	memset(&d, 0x5a, sizeof(d));
	int rc = dmn_scn_parse(text, len, "fuzz.scn", &tracking, &s, &d);
	if (rc == 0) {
		assert_non_null(s);
		uint64_t prev = 0;
		for (size_t i = 0; i < s->count; i++) {
			const struct dmn_scn_cmd *c = &s->cmds[i];
			assert_true(c->time_ns >= prev);
			assert_true(c->line >= 1);
			assert_true(c->column >= 1);
			assert_true((unsigned)c->verb < DMN_SCN_VERB_COUNT);
			if (c->target)
				assert_true(strlen(c->target) <= len);
			prev = c->time_ns;
		}
		dmn_scn_free(s);
	} else {
		assert_null(s);
		assert_true(rc == -EINVAL || rc == -EILSEQ || rc == -EOVERFLOW);
		assert_int_equal(d.error, rc);
		assert_true(d.line >= 1);
		assert_true(d.column >= 1);
		assert_true(memchr(d.message, '\0', sizeof(d.message)) != NULL);
		assert_true(d.message[0] != '\0');
		char buf[400];
		assert_true(dmn_scn_diag_format(&d, 1, buf, sizeof(buf)) > 0);
	}
	assert_int_equal(live_blocks, 0);
}

/* Parse from a heap copy of exactly len bytes, so ASan sees any overread. */
static void check_copy(const char *text, size_t len)
{
	char *copy = malloc(len ? len : 1);
	memcpy(copy, text, len);
	check_one(copy, len);
	free(copy);
}

static void test_valid_parses(void **state)
{
	(void)state;
	struct dmn_scn_script *s;
	assert_int_equal(dmn_scn_parse(valid, strlen(valid), "v", NULL, &s, NULL),
			 0);
	assert_int_equal(s->count, 16);
	dmn_scn_free(s);
}

static void test_truncations(void **state)
{
	(void)state;
	for (size_t len = 0; len <= strlen(valid); len++)
		check_copy(valid, len);
	/* ... and every suffix. */
	for (size_t off = 0; off <= strlen(valid); off++)
		check_copy(valid + off, strlen(valid) - off);
}

static void test_random_bytes(void **state)
{
	(void)state;
	char buf[256];
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = rnd() % sizeof(buf);
		for (size_t i = 0; i < len; i++) {
			/* Bias towards bytes that mean something. */
			static const char alphabet[] =
			    "@+#. \t\n\r0123456789msunHzkMG-ERO"
			    "resumvtqoswakpfilxc";
			uint32_t r = rnd();
			buf[i] =
			    (r & 3)
				? alphabet[(r >> 2) % (sizeof(alphabet) - 1)]
				: (char)(r >> 8);
		}
		check_copy(buf, len);
	}
}

static void test_mutations(void **state)
{
	(void)state;
	size_t n = strlen(valid);
	char buf[sizeof(valid) + 8];
	for (int iter = 0; iter < 20000; iter++) {
		memcpy(buf, valid, n);
		size_t len = n;
		int edits = 1 + (int)(rnd() % 4);
		for (int e = 0; e < edits; e++) {
			size_t at = rnd() % len;
			switch (rnd() % 4) {
			case 0: /* flip a byte */
				buf[at] = (char)rnd();
				break;
			case 1: /* flip a bit */
				buf[at] ^= (char)(1u << (rnd() % 8));
				break;
			case 2: /* delete a byte */
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
				break;
			default: /* duplicate a byte */
				if (len < sizeof(buf)) {
					memmove(buf + at + 1, buf + at,
						len - at);
					len++;
				}
				break;
			}
			if (len == 0)
				break;
		}
		check_copy(buf, len);
	}
}

static void test_huge_numbers(void **state)
{
	(void)state;
	/* Thousands of digits, in every numeric position. */
	static const char *const forms[] = {
	    "@%s resume a\n",	   "+%s resume a\n",	   "rate a %sGHz\n",
	    "vote a %s\n",	   "qos a %s\n",	   "wakeup a +%sms\n",
	    "fail a on %s\n",	   "expect a pstate %s\n", "rate a 1.%sHz\n",
	    "@0.%s000s resume a\n"};
	size_t digits = 5000;
	char *num = malloc(digits + 1);
	char *text = malloc(digits + 64);
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		for (int fill = 0; fill < 2; fill++) {
			memset(num, fill ? '9' : '0', digits);
			num[digits] = '\0';
			if (!fill)
				num[digits - 1] = '1';
			int len = snprintf(text, digits + 64, forms[f], num);
			check_copy(text, (size_t)len);
		}
	}
	free(num);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_valid_parses),
	    cmocka_unit_test(test_truncations),
	    cmocka_unit_test(test_random_bytes),
	    cmocka_unit_test(test_mutations),
	    cmocka_unit_test(test_huge_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
