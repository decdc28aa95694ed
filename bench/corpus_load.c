/* SPDX-License-Identifier: MIT */
/*
 * domino-corpus-load: the whole-corpus load figure of `scripts/corpus.sh
 * --bench`. For every blob named in LIST (one path a line) it reads the file,
 * loads it with the public loader (dmn_dt_load, lenient, so a blob with errors
 * is still parsed to its end), builds it into a fresh context
 * (dmn_dt_instantiate) and frees everything: the work a program does to load a
 * board from disk. With --dtc, `dtc -I dtb -O dts` decompiles the same blob
 * right after, so both see the same machine: the other engineers' load on a
 * shared machine changes from second to second, and a pass of each one
 * after the other would compare two different machines.
 *
 *   domino-corpus-load [--dtc] [--repeat R] LIST
 *
 * Prints `key value` lines: blobs, load errors (blobs whose dmn_dt_load or
 * dmn_dt_instantiate failed), the domino total and the dtc total (each the
 * best of R passes: the noise of a shared machine only ever adds time), and
 * their ratio, in wall time (the figure) and in CPU time (this thread's;
 * dtc's user + system): on a loaded machine a process start waits for the
 * scheduler, which flatters the wall-time ratio, and the CPU-time one
 * shows by how much. Exit 0, 1 if a blob could not be read or dtc failed, 2 on
 * bad usage.
 */
#include "bench_util.h"

#include <domino/dt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read, load, instantiate and free one blob; returns the ns it took, or a
 * negative value if the file could not be read. *@failed is set when the
 * loader or the instantiation returned an error. */
static double load_one(const char *path, int *failed, double *cpu_ns)
{
	double c0 = bench_cpu_ns();
	uint64_t t0 = bench_now();
	size_t size;
	char *blob = read_whole_file(path, &size);
	if (!blob)
		return -1;
	struct dmn_dt_load_opts lo;
	memset(&lo, 0, sizeof(lo));
	lo.flags = DMN_DT_LOAD_LENIENT;
	struct dmn_dt_board *board = NULL;
	int err = dmn_dt_load(blob, size, &lo, &board);
	struct dmn_ctx *ctx = NULL;
	struct dmn_dt_instance *inst = NULL;
	if (board && !dmn_ctx_create(NULL, &ctx) &&
	    dmn_dt_instantiate(board, ctx, NULL, NULL, &inst))
		err = -1;
	*failed = err != 0 || !ctx;
	dmn_dt_instance_free(inst);
	dmn_ctx_destroy(ctx);
	dmn_dt_board_free(board);
	free(blob);
	double wall = (double)(bench_now() - t0);
	*cpu_ns = bench_cpu_ns() - c0;
	return wall;
}

static char **read_list(const char *path, unsigned *n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char **list = NULL, line[4096];
	unsigned cap = 0;
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			char **grown = realloc(list, cap * sizeof(*list));
			if (!grown)
				break;
			list = grown;
		}
		list[*n] = strdup(line);
		if (!list[*n])
			break;
		(*n)++;
	}
	fclose(f);
	return list;
}

int main(int argc, char **argv)
{
	int dtc = 0;
	unsigned repeat = 1;
	const char *listfile = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dtc"))
			dtc = 1;
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc &&
			 atoi(argv[i + 1]) > 0)
			repeat = (unsigned)atoi(argv[++i]);
		else if (argv[i][0] != '-' && !listfile)
			listfile = argv[i];
		else
			listfile = NULL, i = argc;
	}
	if (!listfile) {
		fprintf(stderr, "usage: domino-corpus-load [--dtc] [--repeat R] LIST\n");
		return 2;
	}
	unsigned n = 0;
	char **list = read_list(listfile, &n);
	if (!list || !n) {
		fprintf(stderr, "domino-corpus-load: %s: no blob paths could be read\n",
			listfile);
		return 1;
	}
	double best = -1, dtc_best = -1, cpu_best = -1, dtc_cpu_best = -1;
	unsigned errors = 0;
	int status = 0;
	for (unsigned r = 0; r < repeat && !status; r++) {
		double total = 0, dtc_total = 0, cpu = 0, dtc_cpu = 0;
		errors = 0;
		for (unsigned i = 0; i < n && !status; i++) {
			int failed = 0;
			double c = 0, dc = 0;
			double t = load_one(list[i], &failed, &c), d = 0;
			if (t >= 0 && dtc)
				d = bench_run_dtc(list[i], &dc);
			if (t < 0 || d < 0) {
				fprintf(stderr, "domino-corpus-load: %s: %s\n", list[i],
					t < 0 ? "cannot read" : "dtc failed");
				status = 1;
			}
			total += t;
			dtc_total += d;
			cpu += c;
			dtc_cpu += dc;
			errors += (unsigned)failed;
		}
		if (!status && (best < 0 || total < best))
			best = total;
		if (!status && (dtc_best < 0 || dtc_total < dtc_best))
			dtc_best = dtc_total;
		if (!status && (cpu_best < 0 || cpu < cpu_best))
			cpu_best = cpu;
		if (!status && (dtc_cpu_best < 0 || dtc_cpu < dtc_cpu_best))
			dtc_cpu_best = dtc_cpu;
	}
	if (!status) {
		printf("corpus_blobs %u\n", n);
		printf("corpus_load_errors %u\n", errors);
		printf("corpus_load_passes %u\n", repeat);
		printf("corpus_load_s %.3f\n", best / 1e9);
		printf("corpus_load_us_per_blob %.1f\n", best / 1e3 / n);
		printf("corpus_load_cpu_s %.3f\n", cpu_best / 1e9);
		if (dtc) {
			printf("corpus_dtc_s %.3f\n", dtc_best / 1e9);
			printf("corpus_dtc_us_per_blob %.1f\n", dtc_best / 1e3 / n);
			printf("corpus_load_vs_dtc %.4f\n", best / dtc_best);
			printf("corpus_dtc_cpu_s %.3f\n", dtc_cpu_best / 1e9);
			printf("corpus_load_vs_dtc_cpu %.4f\n",
			       cpu_best / dtc_cpu_best);
		}
	}
	for (unsigned i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return status;
}
