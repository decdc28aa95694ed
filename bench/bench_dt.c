/* SPDX-License-Identifier: MIT */
/* Device-tree load time against dtc, and OPP memory: filled in once the
 * loader lands (see bench/README.md). */
#include "bench_util.h"

#include <stdio.h>

void bench_extra(struct bench_table *t, const char *boards_dir, int quick)
{
	(void)t;
	(void)quick;
	(void)boards_dir;
}
