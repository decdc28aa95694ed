/* SPDX-License-Identifier: MIT */
#include "bench_util.h"

#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

uint64_t bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double bench_median(double *samples, unsigned n)
{
	qsort(samples, n, sizeof(*samples), cmp_double);
	return samples[n / 2];
}

void bench_table_init(struct bench_table *t)
{
	memset(t, 0, sizeof(*t));
}

void bench_result(struct bench_table *t, const char *name_fmt, unsigned arg,
		  double value, const char *unit)
{
	char name[64];
	snprintf(name, sizeof(name), name_fmt, arg);
	fprintf(stderr, "%s: %.6g %s\n", name, value, unit);
	if (t->n < BENCH_MAX_RESULTS) {
		snprintf(t->names[t->n], sizeof(t->names[0]), "%s", name);
		t->values[t->n] = value;
		t->units[t->n] = unit;
		t->unreliable[t->n] = 0;
		t->n++;
	} else {
		fprintf(stderr, "bench: no room for %s (BENCH_MAX_RESULTS)\n",
			name);
		t->dropped++;
	}
}

void bench_table_print(const struct bench_table *t)
{
	printf("\n%-44s %14s  %s\n", "summary", "value", "unit");
	for (unsigned i = 0; i < t->n; i++)
		printf("%-44s %14.4g  %s\n", t->names[i], t->values[i], t->units[i]);
}

size_t bench_live_bytes;

static void *count_alloc(void *user, size_t size)
{
	(void)user;
	size_t *p = malloc(size + 2 * sizeof(size_t));
	if (!p)
		return NULL;
	p[0] = size;
	bench_live_bytes += size;
	return p + 2;
}

static void count_free(void *user, void *ptr)
{
	(void)user;
	if (!ptr)
		return;
	size_t *p = (size_t *)ptr - 2;
	bench_live_bytes -= p[0];
	free(p);
}

const struct dmn_alloc_ops bench_counting = {count_alloc, count_free, NULL};

static double tv_ns(struct timeval tv)
{
	return (double)tv.tv_sec * 1e9 + (double)tv.tv_usec * 1e3;
}

double bench_run_dtc(const char *path, double *cpu_ns)
{
	char *argv[] = {"dtc", "-q", "-I", "dtb", "-O", "dts", "-o", "/dev/null",
			(char *)path, NULL};
	struct rusage before, after;
	getrusage(RUSAGE_CHILDREN, &before);
	uint64_t t0 = bench_now();
	pid_t pid;
	if (posix_spawnp(&pid, "dtc", NULL, NULL, argv, environ))
		return -1;
	int status;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	double wall = (double)(bench_now() - t0);
	getrusage(RUSAGE_CHILDREN, &after);
	if (cpu_ns) /* the children waited for so far: only this one is new */
		*cpu_ns = (tv_ns(after.ru_utime) + tv_ns(after.ru_stime)) -
			  (tv_ns(before.ru_utime) + tv_ns(before.ru_stime));
	return wall;
}

/* The batches are timed on the thread's CPU-time clock: on a machine
 * shared with other jobs, wall time charges a batch for every time slice
 * another process ran in the middle of it, and a batch of a few ms is
 * preempted more often than not. Reading this clock is a system call
 * (about 1.4 us on the reference VM), which is why a sample is long. */
static uint64_t cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double bench_cpu_ns(void)
{
	return (double)cpu_now();
}

double bench_timer_resolution(void)
{
	struct timespec res;
	if (clock_getres(CLOCK_THREAD_CPUTIME_ID, &res))
		return 1;
	return (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
}

double bench_timer_read_ns(void)
{
	enum { N = 1001 };
	double *t = malloc(N * sizeof(*t));
	if (!t)
		return 0;
	for (unsigned i = 0; i < N; i++) {
		uint64_t t0 = cpu_now();
		t[i] = (double)(cpu_now() - t0);
	}
	double m = bench_median(t, N);
	free(t);
	return m;
}

/* Operations a sample of @fn holds: at least @min_ops, and enough for the
 * sample to last BENCH_SAMPLE_NS, so the clock's read cost is under 1 %. */
#define BENCH_SAMPLE_NS 200000.0
static unsigned batch_for(bench_batch_fn fn, void *arg, unsigned min_ops)
{
	uint64_t t0 = cpu_now();
	fn(arg, min_ops);
	double per = (double)(cpu_now() - t0) / min_ops;
	double want = per > 0 ? BENCH_SAMPLE_NS / per : min_ops;
	if (want > 100.0 * min_ops)
		want = 100.0 * min_ops;
	return want > min_ops ? (unsigned)want : min_ops;
}

unsigned bench_interleave(struct bench_subject *s, unsigned k, unsigned rounds,
			  unsigned min_ops)
{
	double read = bench_timer_read_ns();
	unsigned fewest = UINT32_MAX;
	/* the calibration run also warms the caches and branch predictors */
	for (unsigned j = 0; j < k; j++) {
		s[j].ops = batch_for(s[j].fn, s[j].arg, min_ops);
		if (s[j].ops < fewest)
			fewest = s[j].ops;
	}
	for (unsigned r = 0; r < rounds; r++)
		for (unsigned j = 0; j < k; j++) {
			unsigned i = r & 1 ? k - 1 - j : j;
			uint64_t t0 = cpu_now();
			s[i].fn(s[i].arg, s[i].ops);
			uint64_t t1 = cpu_now();
			s[i].ns[r] = ((double)(t1 - t0) - read) / s[i].ops;
		}
	return fewest;
}

double bench_min(const double *ns, unsigned n)
{
	double m = ns[0];
	for (unsigned i = 1; i < n; i++)
		if (ns[i] < m)
			m = ns[i];
	return m;
}

double bench_median_of(const double *ns, unsigned n)
{
	double *copy = malloc(n * sizeof(*copy));
	if (!copy)
		return NAN;
	memcpy(copy, ns, n * sizeof(*copy));
	double m = bench_median(copy, n);
	free(copy);
	return m;
}

double bench_paired_ratio(const double *a, const double *b, unsigned n)
{
	double *r = malloc(n * sizeof(*r));
	if (!r)
		return NAN;
	for (unsigned i = 0; i < n; i++)
		r[i] = a[i] / b[i];
	double m = bench_median(r, n);
	free(r);
	return m;
}

void bench_mark_unreliable(struct bench_table *t)
{
	if (t->n)
		t->unreliable[t->n - 1] = 1;
}

double bench_lookup(const struct bench_table *t, const char *name,
		    int *unreliable)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!strcmp(t->names[i], name)) {
			if (unreliable)
				*unreliable = t->unreliable[i];
			return t->values[i];
		}
	if (unreliable)
		*unreliable = 0;
	return NAN;
}

void bench_table_print_kv(const struct bench_table *t)
{
	for (unsigned i = 0; i < t->n; i++)
		printf("%s %.6g%s\n", t->names[i], t->values[i],
		       t->unreliable[i] ? " unreliable" : "");
}
