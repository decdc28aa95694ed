/* SPDX-License-Identifier: MIT */
/*
 * domino-bench-shapes [--quick] - how load time, memory and text output
 * grow with a board's shape: chain, reversed chain, flat and
 * nested domains and a chain of OPP tables (bench/shape_blob.h) at 1,000,
 * 10,000 and 100,000 (1,000 and 10,000 with --quick). Each measurement runs in a child process, so
 * its peak RSS is its own, under an 8 GiB address-space cap and a time
 * limit; a child that hits either is reported, not waited for.
 *
 * Per shape and size, as `NAME: VALUE UNIT` lines:
 *   shape_dt_load_us_per_domain_SHAPE_nN   dmn_dt_load alone (the loader)
 *   shape_sim_create_us_per_domain_SHAPE_nN  loader + core + simulator:
 *       the difference is what building the context (dmn_link_add ...) costs
 *   shape_summary_bytes_per_domain_SHAPE_nN  text summary size
 *   shape_peak_rss_MB_SHAPE_nN, shape_blob_KB_SHAPE_nN, shape_model_KB_...
 *   shape_rss_over_blob_plus_model_SHAPE_nN  target: within 20x
 * and shape_load_growth_SHAPE: dmn_sim_create time per domain at the largest
 * size over that at the smallest (target: within 2x); shape_dt_load_growth_
 * SHAPE the same for the loader alone.
 */
#include "bench_util.h"
#include "shape_blob.h"

#include <domino/dt.h>
#include <domino/report.h>
#include <domino/sim.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

struct figures {
	int err;	 /* dmn_sim_create's error, 0 if none */
	int stage;	 /* 1 dmn_dt_load failed, 2 dmn_sim_create, 3 report */
	double load_us;	 /* dmn_dt_load */
	double sim_us;	 /* dmn_sim_create */
	double blob_kb, model_kb;
	double summary_bytes;
};

static int count_write(void *user, const char *bytes, size_t len)
{
	(void)bytes;
	*(double *)user += (double)len;
	return 0;
}

/* In the child: build, load, render; the figures go up the pipe. */
static void measure(const char *shape, unsigned n, int fd)
{
	struct figures f = {0};
	unsigned char *blob;
	size_t size;
	if (shape_blob(shape, n, &blob, &size))
		_exit(3);
	f.blob_kb = (double)size / 1024;

	struct dmn_dt_load_opts lo = {0};
	lo.alloc = &bench_counting;
	size_t before = bench_live_bytes;
	struct dmn_dt_board *board = NULL;
	uint64_t t0 = bench_now();
	f.err = dmn_dt_load(blob, size, &lo, &board);
	f.load_us = (double)(bench_now() - t0) / 1e3;
	f.model_kb = (double)(bench_live_bytes - before) / 1024;
	dmn_dt_board_free(board);
	f.stage = 1;
	if (!f.err) {
		struct dmn_sim_options so = {0};
		struct dmn_sim *sim = NULL;
		f.stage = 2;
		t0 = bench_now();
		f.err = dmn_sim_create(blob, size, &so, &sim);
		f.sim_us = (double)(bench_now() - t0) / 1e3;
		const struct dmn_report_model *m;
		if (!f.err && !(f.err = dmn_sim_report(sim, 0, &m))) {
			struct dmn_report_sink sink = {count_write, &f.summary_bytes};
			struct dmn_report_text_options to = {0};
			f.stage = 3;
			f.err = dmn_report_write_summary_text(m, &to, &sink);
			if (!f.err)
				f.stage = 0;
		}
		dmn_sim_free(sim);
	}
	free(blob);
	if (write(fd, &f, sizeof(f)) != (ssize_t)sizeof(f))
		_exit(4);
	_exit(0);
}

/* Runs measure() in a child; returns 0 and fills @f and @rss_mb, or -1
 * (what went wrong is printed). */
static int run_child(const char *shape, unsigned n, unsigned seconds,
		     struct figures *f, double *rss_mb)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	fflush(stdout); /* or the child would print the parent's buffer too */
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		struct rlimit as = {8ull << 30, 8ull << 30};
		setrlimit(RLIMIT_AS, &as);
		alarm(seconds);
		measure(shape, n, fds[1]);
	}
	close(fds[1]);
	ssize_t got = read(fds[0], f, sizeof(*f));
	close(fds[0]);
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	*rss_mb = (double)ru.ru_maxrss / 1024;
	if (WIFSIGNALED(status)) {
		printf("# %s-%u: %s after the %u s limit or the 8 GiB cap (peak %.0f MB)\n",
		       shape, n,
		       WTERMSIG(status) == SIGALRM ? "stopped" : "killed", seconds,
		       *rss_mb);
		return -1;
	}
	if (got != (ssize_t)sizeof(*f) || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("# %s-%u: the child failed (peak %.0f MB)\n", shape, n, *rss_mb);
		return -1;
	}
	if (f->stage) {
		static const char *const what[] = {
		    "", "dmn_dt_load", "dmn_sim_create", "the summary"};
		printf("# %s-%u: %s failed: %s\n", shape, n, what[f->stage],
		       strerror(-f->err));
		return f->stage == 1 ? -1 : 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	static const unsigned sizes[] = {1000, 10000, 100000};
	unsigned n_sizes = quick ? 2 : 3, seconds = quick ? 60 : 300;
	struct bench_table table;
	bench_table_init(&table);
	for (int s = 0; shape_names[s]; s++) {
		const char *shape = shape_names[s];
		if (!strcmp(shape, "bus"))
			continue; /* one domain: not a scaling shape */
		double first = 0, last = 0, load_first = 0, load_last = 0;
		for (unsigned i = 0; i < n_sizes; i++) {
			unsigned n = sizes[i];
			struct figures f;
			double rss;
			char name[64];
			int rc = run_child(shape, n, seconds, &f, &rss);
			if (rc < 0)
				continue;
#define RESULT(fmt, value, unit)                                               \
	do {                                                                   \
		snprintf(name, sizeof(name), fmt "_%s_n%%u", shape);           \
		bench_result(&table, name, n, value, unit);                    \
	} while (0)
			/* the loader's figures stand even when building the
			 * context failed after it */
			RESULT("shape_dt_load_us_per_domain", f.load_us / n, "us");
			RESULT("shape_model_KB", f.model_kb, "KB");
			if (i == 0)
				load_first = f.load_us / n;
			load_last = f.load_us / n;
			if (rc > 0)
				continue;
			double per = f.sim_us / n;
			if (i == 0)
				first = per;
			last = per;
			RESULT("shape_sim_create_us_per_domain", per, "us");
			RESULT("shape_summary_bytes_per_domain", f.summary_bytes / n, "B");
			RESULT("shape_blob_KB", f.blob_kb, "KB");
			RESULT("shape_peak_rss_MB", rss, "MB");
			RESULT("shape_rss_over_blob_plus_model", rss * 1024 / (f.blob_kb + f.model_kb), "x");
#undef RESULT
		}
		char name[64];
		if (load_first > 0 && load_last > 0) {
			snprintf(name, sizeof(name), "shape_dt_load_growth_%s", shape);
			bench_result(&table, name, 0, load_last / load_first, "x");
		}
		if (first > 0 && last > 0) {
			snprintf(name, sizeof(name), "shape_load_growth_%s", shape);
			bench_result(&table, name, 0, last / first, "x");
		}
	}
	bench_table_print(&table);
	return 0;
}
