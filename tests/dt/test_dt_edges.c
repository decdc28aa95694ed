/* SPDX-License-Identifier: MIT */
/*
 * Edges of the loader that the rest of the suite let through: each test
 * here kills a mutant scripts/mutate.sh found alive (docs/testing.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_test_util.h"

static const char *const cases[] = {
	"basic", "caps", "devreq", "disabled", "hw", "match",
	"nested", "nested_parent", "opp_vendor", "warn_pd",
};

/* Every domain defined by a node of its own can be found by that node's
 * name (or the name is shared and -EEXIST says so), in every case board:
 * whichever domain's path segment the loader made first (index 0)
 * included. */
static void node_names_find_their_domain(void **state)
{
	(void)state;
	unsigned checked = 0;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t size;
		void *blob = dt_test_case(cases[c], &size);
		struct dmn_dt_board *b = NULL;
		int err = dmn_dt_load(blob, size, NULL, &b);
		if (err)
			fail_msg("%s: dmn_dt_load %d", cases[c], err);
		for (unsigned i = 0; i < b->n_domains; i++) {
			if (b->domains[i].index >= 0)
				continue; /* a cell of a provider: no node */
			char path[256];
			dmn_dt_domain_path(b, i, path, sizeof(path));
			const char *base = strrchr(path, '/') + 1;
			int r = dmn_dt_domain_find(b, base);
			if (r == -ENOENT)
				fail_msg("%s: %s not found by its node name %s",
					 cases[c], path, base);
			checked++;
		}
		dmn_dt_board_free(b);
		free(blob);
	}
	assert_true(checked > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(node_names_find_their_domain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
