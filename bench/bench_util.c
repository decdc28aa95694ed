/* SPDX-License-Identifier: MIT */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

double bench_timer_overhead(void)
{
	enum { N = 2001 };
	static double t[N];
	for (unsigned i = 0; i < N; i++) {
		uint64_t t0 = bench_now();
		t[i] = (double)(bench_now() - t0);
	}
	return bench_median(t, N);
}

void bench_sleep(double seconds)
{
	struct timespec ts;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
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
	printf("%s: %.6g %s\n", name, value, unit);
	fflush(stdout);
	if (t->n < BENCH_MAX_RESULTS) {
		snprintf(t->names[t->n], sizeof(t->names[0]), "%s", name);
		t->values[t->n] = value;
		t->units[t->n] = unit;
		t->n++;
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
