/* SPDX-License-Identifier: MIT */
/* Timing, medians and the result table shared by the benchmarks. */
#ifndef DOMINO_BENCH_UTIL_H
#define DOMINO_BENCH_UTIL_H

#include <domino/context.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_RESULTS 128

struct bench_table {
	char names[BENCH_MAX_RESULTS][64];
	double values[BENCH_MAX_RESULTS];
	const char *units[BENCH_MAX_RESULTS];
	unsigned n;
};

/* A counting allocator for the memory figures: bench_live_bytes is what
 * the allocations made through bench_counting hold right now. */
extern size_t bench_live_bytes;
extern const struct dmn_alloc_ops bench_counting;

uint64_t bench_now(void);
double bench_median(double *samples, unsigned n); /* sorts in place */
double bench_timer_overhead(void);
void bench_sleep(double seconds);
void bench_table_init(struct bench_table *t);
/* Print `NAME: VALUE UNIT` (NAME may hold one %u filled with @arg). */
void bench_result(struct bench_table *t, const char *name_fmt, unsigned arg,
		  double value, const char *unit);
void bench_table_print(const struct bench_table *t);
/* Device-tree and OPP figures (bench_dt.c). */
void bench_extra(struct bench_table *t, const char *boards_dir, int quick);
/* SCMI figures (bench_scmi.c); @domino: the domino command, or NULL. */
void bench_scmi(struct bench_table *t, const char *domino, int quick);

#endif
