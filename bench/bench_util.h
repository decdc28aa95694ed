/* SPDX-License-Identifier: MIT */
/* Timing, medians and the result table shared by the benchmarks. */
#ifndef DOMINO_BENCH_UTIL_H
#define DOMINO_BENCH_UTIL_H

#include <domino/context.h>
#include <stddef.h>
#include <stdint.h>

#include "read_file.h" /* tests/util: read_whole_file */

/* Room for every figure of a full run with space to spare: a figure past
 * it is dropped loudly (bench_result) and the run exits 1. */
#define BENCH_MAX_RESULTS 512

struct bench_table {
	char names[BENCH_MAX_RESULTS][64];
	double values[BENCH_MAX_RESULTS];
	const char *units[BENCH_MAX_RESULTS];
	unsigned char unreliable[BENCH_MAX_RESULTS];
	unsigned n;
	unsigned dropped; /* figures that did not fit */
};

/* ---- batched, interleaved timing (the method: bench/README.md) ----------- */

/* Run @calls operations of one kind on @arg (an operation: one call, or one
 * rise+fall pair; the caller says which in the figure's name). */
typedef void (*bench_batch_fn)(void *arg, unsigned calls);

struct bench_subject {
	bench_batch_fn fn;
	void *arg;
	double *ns; /* [rounds]: ns per operation, in round order */
	unsigned ops; /* set by bench_interleave: operations per sample */
};

/* The timer (the thread's CPU-time clock): its resolution as clock_getres
 * reports it, and the cost of one read. */
double bench_timer_resolution(void);
double bench_timer_read_ns(void);
/* @k subjects, @rounds rounds; each round times one sample of every
 * subject, in alternating order (forward on even rounds, backward on odd
 * ones) so neither side always runs first. A sample of a subject is
 * s->ops operations: at least @min_ops, more when that lasts under 200 us.
 * Returns the fewest operations a sample of any subject held. */
unsigned bench_interleave(struct bench_subject *s, unsigned k, unsigned rounds,
			  unsigned min_ops);
double bench_min(const double *ns, unsigned n);
double bench_median_of(const double *ns, unsigned n); /* does not reorder */
/* The median over rounds of @a[r] / @b[r]: two subjects timed side by side
 * in the same round saw the same machine, so their ratio cancels the load
 * the machine was under, which the ratio of two medians does not. */
double bench_paired_ratio(const double *a, const double *b, unsigned n);

/* A counting allocator for the memory figures: bench_live_bytes is what
 * the allocations made through bench_counting hold right now. */
extern size_t bench_live_bytes;
extern const struct dmn_alloc_ops bench_counting;

uint64_t bench_now(void);
double bench_median(double *samples, unsigned n); /* sorts in place */
void bench_table_init(struct bench_table *t);
/* Print `NAME: VALUE UNIT` (NAME may hold one %u filled with @arg). */
void bench_result(struct bench_table *t, const char *name_fmt, unsigned arg,
		  double value, const char *unit);
/* Mark the last result unreliable (a time within 5x of the timer's
 * resolution, or a ratio of such a time). */
void bench_mark_unreliable(struct bench_table *t);
/* The value of result @name, or NAN; *@unreliable (may be NULL) its mark. */
double bench_lookup(const struct bench_table *t, const char *name,
		    int *unreliable);
void bench_table_print(const struct bench_table *t);
/* Every result as `NAME VALUE` (then ` unreliable` when marked). */
void bench_table_print_kv(const struct bench_table *t);
/* Run `dtc -I dtb -O dts -o /dev/null PATH` (spawn to exit); returns the
 * wall time in ns, or -1 if it could not run or failed; *@cpu_ns (may be
 * NULL) receives the child's user + system CPU time. */
double bench_run_dtc(const char *path, double *cpu_ns);
/* The calling thread's CPU time, ns (an arbitrary origin). */
double bench_cpu_ns(void);
/* Device-tree and OPP figures (bench_dt.c). */
void bench_extra(struct bench_table *t, const char *boards_dir, int quick);
/* SCMI figures (bench_scmi.c); @domino: the domino command, or NULL. */
void bench_scmi(struct bench_table *t, const char *domino, int quick);

#endif
