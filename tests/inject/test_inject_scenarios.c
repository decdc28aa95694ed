/* SPDX-License-Identifier: MIT */
/*
 * Callback failure injection over every scenario of the test suite (see
 * inject.h for the harness and inject.c for the exact checks):
 *  - examples/NAME.scn on the built-in demo board;
 *  - tests/cli/boards/BOARD.scn on DOMINO_BOARDS/BOARD.dtb (skipped
 *    with a message when the boards are absent); a `--supported-hw V` in
 *    the scenario's leading comment is applied (tegra30-beaver needs 4);
 *  - random operation sequences (resume, suspend, vote, rate, now and then
 *    qos and wakeup) on random devices of the demo board, written as
 *    scenarios and run through the same harness.
 * For each, call k of the clean run fails, for every k.
 */
#include "inject.h"

#include <domino/dt.h>
#include <domino/sim.h>

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "domino_demo_board.h"
#include "read_file.h"

#define RANDOM_SCRIPTS 50
#define RANDOM_COMMANDS 80
#define RANDOM_BOARD_SCRIPTS 10

static struct inject_totals totals;

static struct dmn_scn_script *parse(const char *text, size_t len, const char *name)
{
	struct dmn_scn_script *s = NULL;
	struct dmn_scn_diag d;
	if (dmn_scn_parse(text, len, name, NULL, &s, &d)) {
		char msg[400];
		dmn_scn_diag_format(&d, 1, msg, sizeof(msg));
		fail_msg("%s", msg);
	}
	return s;
}

/* "--supported-hw V[,V]" in the leading comment block, if any. */
static unsigned header_hw(const char *text, uint32_t *hw, unsigned max)
{
	const char *p = text;
	while (*p == '#') {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		char line[256];
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		char *opt = strstr(line, "--supported-hw ");
		if (opt) {
			char *v = opt + strlen("--supported-hw ");
			v[strcspn(v, " \t)")] = 0;
			int got = dmn_dt_parse_supported_hw(v, hw, max);
			assert_true(got > 0);
			return (unsigned)got;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return 0;
}

static int has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);
	return n > m && !strcmp(name + n - m, suffix);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.scn files of @dir, sorted; NULL-terminated, caller frees. */
static char **list_scenarios(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char **names = calloc(64, sizeof(*names));
	assert_non_null(names);
	unsigned n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 63)
		if (has_suffix(e->d_name, ".scn"))
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	return names;
}

static void run_one(const char *label, const void *blob, size_t size,
		    const char *text, size_t len)
{
	uint32_t hw[16]; /* more cells than any scenario header gives */
	unsigned n_hw = header_hw(text, hw, 16);
	struct dmn_scn_script *script = parse(text, len, label);
	struct inject_scenario sc = {label, blob, size, hw, n_hw, script};
	inject_scenario(&sc, &totals);
	dmn_scn_free(script);
}

static void examples_on_demo(void **state)
{
	(void)state;
	unsigned long before = totals.mismatches;
	char **names = list_scenarios(DOMINO_EXAMPLES_DIR);
	assert_non_null(names);
	assert_non_null(names[0]);
	for (char **n = names; *n; n++) {
		char path[512], label[300];
		snprintf(path, sizeof(path), "%s/%s", DOMINO_EXAMPLES_DIR, *n);
		snprintf(label, sizeof(label), "%s on demo", *n);
		size_t len;
		char *text = read_whole_file(path, &len);
		assert_non_null(text);
		run_one(label, domino_demo_dtb, domino_demo_dtb_len, text, len);
		free(text);
		free(*n);
	}
	free(names);
	assert_int_equal(totals.mismatches, before);
}

static void board_scenarios(void **state)
{
	(void)state;
	unsigned long before = totals.mismatches;
	char **names = list_scenarios(DOMINO_BOARD_SCENARIOS);
	assert_non_null(names);
	unsigned ran = 0;
	for (char **n = names; *n; n++) {
		char stem[256], dtb[600], path[600];
		snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(*n) - 4), *n);
		snprintf(dtb, sizeof(dtb), "%s/%s.dtb", DOMINO_BOARDS_DIR,
			 stem);
		snprintf(path, sizeof(path), "%s/%s", DOMINO_BOARD_SCENARIOS,
			 *n);
		size_t blob_len, len;
		char *blob = read_whole_file(dtb, &blob_len);
		if (!blob) {
			printf("SKIP %s: %s absent\n", *n, dtb);
			free(*n);
			continue;
		}
		char *text = read_whole_file(path, &len);
		assert_non_null(text);
		char label[600];
		snprintf(label, sizeof(label), "%s on %s", *n, stem);
		run_one(label, blob, blob_len, text, len);
		ran++;
		free(text);
		free(blob);
		free(*n);
	}
	free(names);
	if (!ran)
		printf("SKIP board scenarios: no board of %s found\n",
		       DOMINO_BOARDS_DIR);
	assert_int_equal(totals.mismatches, before);
}

/* ---- random operation sequences on the demo board -------------------------
 */

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

struct text {
	char *buf;
	size_t len, cap;
};

static void emit(struct text *t, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(line));
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->cap + (size_t)n + 1) * 2;
		t->buf = realloc(t->buf, t->cap);
		assert_non_null(t->buf);
	}
	memcpy(t->buf + t->len, line, (size_t)n + 1);
	t->len += (size_t)n;
}

/* A level worth voting on @domain: one of its table's, or a stray one. */
static uint32_t random_level(const struct dmn_dt_board *b, int domain)
{
	int t = b->domains[domain].opp_table;
	if (t >= 0 && rnd(4)) {
		const struct dmn_dt_opp_table *tab = &b->opp_tables[t];
		const struct dmn_dt_opp *o = &tab->entries[rnd(tab->n_entries)];
		return o->has_level ? o->level : 0;
	}
	static const uint32_t stray[] = {0, 0, 1, 2, 3, 50, 64, 130, 256, 500};
	return stray[rnd(sizeof(stray) / sizeof(stray[0]))];
}

static uint64_t random_rate(const struct dmn_dt_board *b, const struct dmn_dt_device *d)
{
	const struct dmn_dt_opp_table *tab = &b->opp_tables[d->opp_table];
	switch (rnd(6)) {
	case 0:
		return 0;
	case 1:
		return 1 +
		       rnd(2000) * 1000000ull; /* between entries, or above */
	default: {
		const struct dmn_dt_opp *o = &tab->entries[rnd(tab->n_entries)];
		return o->n_hz ? o->hz[0] : 0;
	}
	}
}

static void random_script(const struct dmn_dt_board *b, struct text *t)
{
	uint64_t now_us = 0;
	t->len = 0;
	emit(t, "# random\n");
	for (unsigned i = 0; i < RANDOM_COMMANDS; i++) {
		const struct dmn_dt_device *d = &b->devices[rnd(b->n_devices)];
		now_us += rnd(3) ? rnd(2000) : 0;
		emit(t, "@%lluus ", (unsigned long long)now_us);
		unsigned what = rnd(20);
		if (what < 4) {
			emit(t, "resume %s\n", d->name);
		} else if (what < 7) {
			emit(t, "suspend %s\n", d->name);
		} else if (what < 12 && d->opp_table >= 0) {
			emit(t, "rate %s %llu\n", d->name,
			     (unsigned long long)random_rate(b, d));
		} else if (what < 17) {
			const struct dmn_dt_attachment *a =
			    &d->attachments[rnd(d->n_attachments)];
			const char *dom =
			    a->name ? a->name : b->domains[a->domain].name;
			emit(t, "vote %s %s %u\n", d->name, dom,
			     random_level(b, a->domain));
		} else if (what < 19) {
			if (rnd(3))
				emit(t, "qos %s %u\n", d->name, rnd(12000));
			else
				emit(t, "qos %s none\n", d->name);
		} else {
			emit(t, "wakeup %s +%uus\n", d->name, rnd(20000));
		}
	}
}

/* @n random scripts on one board; stops at the first that mismatches. */
static void random_on(const char *board, const void *blob, size_t size,
		      const uint32_t *hw, unsigned n_hw, unsigned n)
{
	unsigned long before = totals.mismatches;
	struct dmn_dt_board *b = NULL;
	struct dmn_dt_load_opts o = {0};
	o.supported_hw = hw;
	o.n_supported_hw = n_hw;
	assert_int_equal(dmn_dt_load(blob, size, &o, &b), 0);
	struct text t = {0};
	for (unsigned i = 0; i < n; i++) {
		random_script(b, &t);
		char label[128];
		snprintf(label, sizeof(label), "random #%u on %s", i, board);
		struct dmn_scn_script *script = parse(t.buf, t.len, label);
		struct inject_scenario sc = {label, blob, size,
					     hw,    n_hw, script};
		inject_scenario(&sc, &totals);
		dmn_scn_free(script);
		if (totals.mismatches != before) {
			fprintf(stderr, "the script:\n%s", t.buf);
			break;
		}
	}
	free(t.buf);
	dmn_dt_board_free(b);
}

static void random_on_demo(void **state)
{
	(void)state;
	unsigned long before = totals.mismatches;
	random_on("demo", domino_demo_dtb, domino_demo_dtb_len, NULL, 0,
		  RANDOM_SCRIPTS);
	assert_int_equal(totals.mismatches, before);
}

/* The same on the real boards, fewer scripts each (skipped when absent). */
static void random_on_boards(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		uint32_t hw;
	} boards[] = {
	    {"qrb5165-rb5", 0},	   {"sc7180-trogdor-lazor-r10", 0},
	    {"imx8mp-evk", 0},	   {"rk3588-rock-5b", 0},
	    {"tegra30-beaver", 4},
	};
	unsigned long before = totals.mismatches;
	for (unsigned i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
		char dtb[600];
		snprintf(dtb, sizeof(dtb), "%s/%s.dtb", DOMINO_BOARDS_DIR,
			 boards[i].name);
		size_t size;
		char *blob = read_whole_file(dtb, &size);
		if (!blob) {
			printf("SKIP random on %s: %s absent\n", boards[i].name,
			       dtb);
			continue;
		}
		random_on(boards[i].name, blob, size, &boards[i].hw,
			  boards[i].hw ? 1 : 0, RANDOM_BOARD_SCRIPTS);
		free(blob);
	}
	assert_int_equal(totals.mismatches, before);
}

/* Devices on a simple-pm-bus hold the bus (tests/sim/cases/simple-pm-bus):
 * its scenario and random scripts, each call failing in turn. A child's
 * resume that fails at any callback of the bus's chain changes nothing. */
static void pm_bus_case(void **state)
{
	(void)state;
#ifdef DOMINO_PM_BUS_DTB
	unsigned long before = totals.mismatches;
	size_t size, len;
	char *blob = read_whole_file(DOMINO_PM_BUS_DTB, &size);
	char *text = read_whole_file(DOMINO_PM_BUS_SCN, &len);
	assert_non_null(blob);
	assert_non_null(text);
	run_one("simple-pm-bus.scn", blob, size, text, len);
	random_on("simple-pm-bus", blob, size, NULL, 0, RANDOM_SCRIPTS);
	free(text);
	free(blob);
	assert_int_equal(totals.mismatches, before);
#else
	printf("SKIP simple-pm-bus: no dtc at configure time\n");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(examples_on_demo),
	    cmocka_unit_test(board_scenarios),
	    cmocka_unit_test(random_on_demo),
	    cmocka_unit_test(random_on_boards),
	    cmocka_unit_test(pm_bus_case),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	printf(
	    "injected %lu failures over %lu scenarios: %lu unsafe, %lu safe, "
	    "%lu compound (a scenario's own `fail` in the same command: "
	    "invariants only), %lu already failing; %lu calls in the clean "
	    "runs, %lu commands run, %lu link requirements unverified; "
	    "%lu mismatches\n",
	    totals.injected, totals.scenarios, totals.unsafe, totals.safe,
	    totals.compound, totals.already, totals.calls, totals.commands,
	    totals.unverified, totals.mismatches);
	static const char *const ops[] = {
	    "power_on", "power_off", "set_performance_state", "clock set_rate",
	    "regulator set_voltage", "set_hwmode"};
	_Static_assert(sizeof(ops) / sizeof(ops[0]) ==
			   sizeof(totals.by_op) / sizeof(totals.by_op[0]),
		       "a name for every backend call");
	for (unsigned op = 0; op < sizeof(ops) / sizeof(ops[0]); op++)
		printf("  %-22s %5lu unsafe %5lu safe\n", ops[op],
		       totals.by_op[op][0], totals.by_op[op][1]);
	return rc;
}
