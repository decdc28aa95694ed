/* SPDX-License-Identifier: MIT */
/* dt_load: validation, then the stages in order; dt_board_free. */
#include "dt_internal.h"

#include <errno.h>
#include <libfdt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int load_root(struct dt_loader *ld)
{
	struct dt_board *b = ld->board;
	unsigned n;
	const char *model = dt_prop_string(ld, 0, "model", 0, &n);
	if (model && !(b->model = dt_pool_strdup(ld->pool, model)))
		return -ENOMEM;
	dt_prop_string(ld, 0, "compatible", 0, &n);
	if (!n)
		return 0;
	b->compatible = dt_pool_alloc(ld->pool, n * sizeof(*b->compatible));
	if (!b->compatible)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		const char *c = dt_prop_string(ld, 0, "compatible", i, NULL);
		if (!(b->compatible[i] = dt_pool_strdup(ld->pool, c)))
			return -ENOMEM;
	}
	b->n_compatible = n;
	return 0;
}

static int run_stages(struct dt_loader *ld)
{
	int err;
	if ((err = dt_blob_index(ld)) || (err = load_root(ld)) ||
	    (err = dt_opp_tables_scan(ld)) || (err = dt_providers_scan(ld)) ||
	    (err = dt_domains_build(ld)) || (err = dt_consumers_scan(ld)))
		return err;
	return 0;
}

int dt_load(const void *blob, size_t size, const struct dt_load_opts *opts,
	    struct dt_board **out)
{
	static const struct dt_load_opts defaults;
	if (out)
		*out = NULL;
	if (!blob || !out)
		return -EINVAL;
	if (!opts)
		opts = &defaults;
	if ((opts->alloc && (!opts->alloc->alloc || !opts->alloc->free)) ||
	    opts->n_supported_hw > DT_MAX_HW_CELLS ||
	    (opts->n_supported_hw && !opts->supported_hw))
		return -EINVAL;

	struct dt_pool *pool = dt_pool_create(opts->alloc);
	if (!pool)
		return -ENOMEM;
	struct dt_board *board = dt_pool_alloc(pool, sizeof(*board));
	if (!board) {
		dt_pool_destroy(pool);
		return -ENOMEM;
	}
	board->pool = pool;
	struct dt_loader ld = {.board = board, .pool = pool, .opts = opts};
	int err = 0;

	if (opts->n_supported_hw) {
		board->supported_hw = dt_pool_alloc(pool, opts->n_supported_hw *
							      sizeof(uint32_t));
		if (!board->supported_hw) {
			err = -ENOMEM;
			goto done;
		}
		memcpy(board->supported_hw, opts->supported_hw,
		       opts->n_supported_hw * sizeof(uint32_t));
		board->n_supported_hw = opts->n_supported_hw;
	}

	/* libfdt wants the blob 8-byte aligned; copy a misaligned one (the
	 * copy lives in the pool until the load ends). */
	const void *fdt = blob;
	void *copy = NULL;
	if ((uintptr_t)blob % 8) {
		if (!(copy = dt_pool_alloc(pool, size ? size : 1))) {
			err = -ENOMEM;
			goto done;
		}
		memcpy(copy, blob, size);
		fdt = copy;
	}
	/* fdt_check_full checks the header against @size, every tag, the
	 * nesting and every property name: after it, libfdt's accessors stay
	 * within the blob. */
	int ferr;
	if (size > INT_MAX)
		ferr = -FDT_ERR_TRUNCATED;
	else if (size >= FDT_V1_SIZE && fdt_magic(fdt) == FDT_MAGIC &&
		 fdt_version(fdt) < 16)
		/* libfdt 1.6.1's fdt_check_full dereferences NULL on blobs
		 * older than version 16 (found by fuzz_dt_load); dtc has
		 * written version 17 since 2007, so refuse them up front. */
		ferr = -FDT_ERR_BADVERSION;
	else
		ferr = fdt_check_full(fdt, size);
	if (ferr) {
		if (DT_ERR(&ld, -EILSEQ, "dt-corrupt", -1, NULL,
			   "not a valid device tree blob: %s",
			   fdt_strerror(ferr)))
			err = -ENOMEM;
	} else {
		ld.fdt = fdt;
		err = run_stages(&ld);
	}
	dt_pool_free(pool, copy);
	/* the loader's scratch (node index, keys, paths) stays in the pool;
	 * it is freed with the board, and costs O(nodes) */
done:
	if (err == -ENOMEM || ld.oom) {
		dt_pool_destroy(pool);
		return -ENOMEM;
	}
	if (err && err != -EPIPE && !ld.first_error)
		ld.first_error = err;
	if (ld.first_error && !(opts->flags & DT_LOAD_LENIENT)) {
		dt_pool_destroy(pool);
		return ld.first_error;
	}
	*out = board;
	return ld.first_error;
}

void dt_board_free(struct dt_board *board)
{
	if (board)
		dt_pool_destroy(board->pool);
}

int dt_parse_supported_hw(const char *text, uint32_t *out, unsigned max)
{
	if (!text || (max && !out))
		return -EINVAL;
	unsigned n = 0;
	const char *p = text;
	for (;;) {
		if (*p < '0' || *p > '9')
			return -EINVAL; /* no sign, no blanks, no empty item */
		char *end;
		unsigned long long v = strtoull(p, &end, 0);
		if (end == p || v > UINT32_MAX || n >= max)
			return -EINVAL;
		out[n++] = (uint32_t)v;
		if (*end == '\0')
			return (int)n;
		if (*end != ',')
			return -EINVAL;
		p = end + 1;
	}
}
