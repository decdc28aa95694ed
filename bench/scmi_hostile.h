/* SPDX-License-Identifier: MIT */
/* A well-behaved agent's round trip beside hostile ones (scmi_hostile.c). */
#ifndef DOMINO_BENCH_SCMI_HOSTILE_H
#define DOMINO_BENCH_SCMI_HOSTILE_H

#define SCMI_HOSTILE_CASES 5
/* The first four are hostile; the fifth, a busy but honest agent. */
#define SCMI_HOSTILE_HOSTILE 4

struct scmi_hostile_case {
	const char *name;
	int no_reply;	 /* a call went unanswered for 2 s */
	double ratio;	 /* paired median ratio, with / alone */
	double alone_p50, with_p50, with_p99, with_max; /* µs */
};

/* Serve @dtb with @domino and run every case: @rounds rounds of @calls
 * calls with and without. Returns 0, or -1 when the server could not be
 * reached. */
int scmi_hostile_run(const char *domino, const char *dtb, unsigned rounds,
		     unsigned calls, struct scmi_hostile_case *out);

#endif
