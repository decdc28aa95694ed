/* SPDX-License-Identifier: MIT */
/*
 * domino-scmi-hostile DOMINO BOARD.dtb [ROUNDS [CALLS]] - a well-behaved
 * agent's round trip with and without each hostile agent beside it
 * (scmi_hostile.c); run it against two builds of domino to compare them.
 * Prints one line per case; exits 1 when the server could not be reached.
 */
#include "scmi_hostile.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s DOMINO BOARD.dtb [ROUNDS [CALLS]]\n",
			argv[0]);
		return 2;
	}
	unsigned rounds = argc > 3 ? (unsigned)atoi(argv[3]) : 9;
	unsigned calls = argc > 4 ? (unsigned)atoi(argv[4]) : 300;
	if (!rounds || !calls)
		return 2;
	struct scmi_hostile_case c[SCMI_HOSTILE_CASES];
	if (scmi_hostile_run(argv[1], argv[2], rounds, calls, c)) {
		fprintf(stderr, "%s: the server could not be reached\n", argv[0]);
		return 1;
	}
	for (unsigned i = 0; i < SCMI_HOSTILE_CASES; i++) {
		if (c[i].no_reply)
			printf("%-17s no reply within 2 s\n", c[i].name);
		else
			printf("%-17s alone p50 %7.1f us  with p50 %7.1f us  "
			       "p99 %8.1f us  max %9.1f us  ratio %.2f\n",
			       c[i].name, c[i].alone_p50, c[i].with_p50,
			       c[i].with_p99, c[i].with_max, c[i].ratio);
	}
	return 0;
}
