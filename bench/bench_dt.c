/* SPDX-License-Identifier: MIT */
/*
 * Device-tree load time against dtc decompiling the same blob, measured in
 * the same run, and the memory of the loaded model; bytes per OPP entry.
 */
#include "bench_util.h"

#include "domino_demo_board.h"

#include <domino/dt.h>
#include <domino/opp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Load and build one board; returns the bytes the model holds, or 0. */
static size_t load_once(const void *blob, size_t size, int keep_stats)
{
	size_t before = bench_live_bytes;
	struct dmn_dt_load_opts lo;
	memset(&lo, 0, sizeof(lo));
	lo.alloc = &bench_counting;
	struct dmn_dt_board *board = NULL;
	if (dmn_dt_load(blob, size, &lo, &board))
		return 0;
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.alloc = bench_counting;
	struct dmn_ctx *ctx = NULL;
	struct dmn_dt_instance *inst = NULL;
	size_t bytes = 0;
	if (!dmn_ctx_create(&cfg, &ctx) &&
	    !dmn_dt_instantiate(board, ctx, NULL, NULL, &inst))
		bytes = bench_live_bytes - before;
	(void)keep_stats;
	dmn_dt_instance_free(inst);
	dmn_ctx_destroy(ctx);
	dmn_dt_board_free(board);
	return bytes;
}

static void bench_board(struct bench_table *t, const char *name,
			const void *blob, size_t size, const char *path,
			unsigned runs)
{
	double *ours = malloc(runs * sizeof(double));
	double *theirs = malloc(runs * sizeof(double));
	size_t bytes = 0;
	int dtc_ok = path != NULL;
	for (unsigned i = 0; i < runs; i++) {
		/* interleaved, so both see the same machine */
		uint64_t t0 = bench_now();
		bytes = load_once(blob, size, 0);
		ours[i] = (double)(bench_now() - t0);
		theirs[i] = dtc_ok ? bench_run_dtc(path, NULL) : -1;
		if (theirs[i] < 0)
			dtc_ok = 0;
	}
	double mine = bench_median(ours, runs);
	char label[96];
	snprintf(label, sizeof(label), "dtload_ns_%s", name);
	bench_result(t, label, 0, mine, "ns");
	snprintf(label, sizeof(label), "model_bytes_%s", name);
	bench_result(t, label, 0, (double)bytes, "B");
	if (dtc_ok) {
		double dtc = bench_median(theirs, runs);
		snprintf(label, sizeof(label), "dtc_decompile_ns_%s", name);
		bench_result(t, label, 0, dtc, "ns");
		snprintf(label, sizeof(label), "dtload_ratio_%s", name);
		bench_result(t, label, 0, mine / dtc, "x");
	}
	free(ours);
	free(theirs);
}

static void bench_opp_entry(struct bench_table *t, unsigned n)
{
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.alloc = bench_counting;
	struct dmn_ctx *ctx;
	if (dmn_ctx_create(&cfg, &ctx))
		return;
	dmn_opp_table_t table;
	if (dmn_opp_table_create(ctx, "bench", &table)) {
		dmn_ctx_destroy(ctx);
		return;
	}
	size_t before = bench_live_bytes;
	for (unsigned i = 0; i < n; i++) {
		struct dmn_opp_desc d;
		memset(&d, 0, sizeof(d));
		const uint64_t hz = 1000000ull * (i + 1);
		const struct dmn_opp_supply supply = {600000 + i, 600000 + i,
						  600000 + i, 0};
		d.hz = &hz;
		d.n_hz = 1;
		d.supplies = &supply;
		d.n_supplies = 1;
		dmn_opp_add(ctx, table, &d, NULL);
	}
	bench_result(t, "bytes_per_opp_entry", 0,
		     (double)(bench_live_bytes - before) / n, "B");
	dmn_opp_table_put(ctx, table);
	dmn_ctx_destroy(ctx);
}

void bench_extra(struct bench_table *t, const char *boards_dir, int quick)
{
	static const char *const boards[] = {
		"qrb5165-rb5", "sc7180-trogdor-lazor-r10", "imx8mp-evk",
		"rk3588-rock-5b", "tegra30-beaver",
	};
	unsigned runs = quick ? 5 : 21;
	bench_opp_entry(t, quick ? 1000 : 10000);
	/* The demo has no file for dtc: write it out once. */
	char demo_path[] = "/tmp/domino-bench-demo-XXXXXX";
	int fd = mkstemp(demo_path);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	int have_demo = f && fwrite(domino_demo_dtb, 1, domino_demo_dtb_len, f) ==
				     domino_demo_dtb_len;
	if (f)
		fclose(f);
	bench_board(t, "demo", domino_demo_dtb, domino_demo_dtb_len,
		    have_demo ? demo_path : NULL, runs);
	if (have_demo)
		remove(demo_path);
	if (!boards_dir)
		return;
	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/dtb/%s.dtb", boards_dir, boards[i]);
		size_t size;
		char *blob = read_whole_file(path, &size);
		if (!blob) {
			printf("dtload_%s: skipped (%s not readable)\n", boards[i], path);
			continue;
		}
		bench_board(t, boards[i], blob, size, path, runs);
		free(blob);
	}
}
