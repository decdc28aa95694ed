/* SPDX-License-Identifier: MIT */
/* dmn_dt_load: validation, then the stages in order; dmn_dt_board_free. */
#include "dt_internal.h"

#include <errno.h>
#include <libfdt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int load_root(struct dmn_dt_loader *ld)
{
	struct dmn_dt_board *b = ld->board;
	unsigned n;
	const char *model = dmn__dt_prop_string(ld, 0, "model", 0, &n);
	if (model && !(b->model = dmn__dt_pool_strdup(ld->pool, model)))
		return -ENOMEM;
	dmn__dt_prop_string(ld, 0, "compatible", 0, &n);
	if (!n)
		return 0;
	b->compatible = dmn__dt_pool_alloc(ld->pool, n * sizeof(*b->compatible));
	if (!b->compatible)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		const char *c = dmn__dt_prop_string(ld, 0, "compatible", i, NULL);
		if (!(b->compatible[i] = dmn__dt_pool_strdup(ld->pool, c)))
			return -ENOMEM;
	}
	b->n_compatible = n;
	return 0;
}

static int run_stages(struct dmn_dt_loader *ld)
{
	int err;
	if ((err = dmn__dt_blob_index(ld)) || (err = load_root(ld)) ||
	    (err = dmn__dt_opp_tables_scan(ld)) || (err = dmn__dt_providers_scan(ld)) ||
	    (err = dmn__dt_domains_build(ld)) || (err = dmn__dt_consumers_scan(ld)))
		return err;
	return 0;
}

static uint32_t be32_at(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * What libfdt 1.6.1's fdt_check_full gets wrong, refused before it runs
 * (the first two found by fuzz_dt_load):
 *  - on a blob older than version 16 it dereferences NULL; dtc has
 *    written version 17 since 2007;
 *  - fdt_next_tag adds a property's length to the offset unchecked, so a
 *    length of 0xfffffff4 brings it back to the same tag and
 *    fdt_check_full loops forever. The structure block is walked once
 *    here, and a property whose value runs past the block is refused.
 *  - it checks that each block lies inside the blob, not that they lie
 *    apart: a strings block on top of the structure block reads property
 *    names out of tags, and the board loaded with nothing in it (exit 0).
 *    Structure and strings blocks that overlap are refused
 *    (FDT_ERR_BADLAYOUT); the reservation map, which nothing here reads,
 *    is left alone.
 * Anything else odd is left for fdt_check_full to report.
 */

/* Whether [a, a + an) and [b, b + bn) share a byte (sizes up to 2^32). */
static bool spans_overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return an && bn && a < b + bn && b < a + an;
}

static int precheck(const void *fdt, size_t size)
{
	if (size < FDT_V1_SIZE || fdt_magic(fdt) != FDT_MAGIC)
		return 0;
	if (fdt_version(fdt) < 16)
		return -FDT_ERR_BADVERSION;
	if (size < sizeof(struct fdt_header) || fdt_check_header(fdt) ||
	    fdt_totalsize(fdt) > size)
		return 0;
	if (fdt_version(fdt) >= 17 &&
	    spans_overlap(fdt_off_dt_struct(fdt), fdt_size_dt_struct(fdt),
			  fdt_off_dt_strings(fdt), fdt_size_dt_strings(fdt)))
		return -FDT_ERR_BADLAYOUT;
	const unsigned char *s =
	    (const unsigned char *)fdt + fdt_off_dt_struct(fdt);
	size_t end = fdt_version(fdt) >= 17
			 ? fdt_size_dt_struct(fdt)
			 : fdt_totalsize(fdt) - fdt_off_dt_struct(fdt);
	size_t pos = 0;
	while (end - pos >= 4) {
		uint32_t tag = be32_at(s + pos);
		pos += 4;
		if (tag == FDT_BEGIN_NODE) {
			const unsigned char *nul = memchr(s + pos, 0, end - pos);
			if (!nul)
				return 0;
			pos = (size_t)(nul - s) + 1;
		} else if (tag == FDT_PROP) {
			if (end - pos < 8)
				return 0;
			uint32_t len = be32_at(s + pos);
			pos += 8;
			if (len > end - pos)
				return -FDT_ERR_BADSTRUCTURE;
			pos += len;
		} else if (tag != FDT_END_NODE && tag != FDT_NOP) {
			return 0; /* FDT_END, or a bad tag */
		}
		pos = (pos + 3) & ~(size_t)3;
		if (pos > end)
			return 0;
	}
	return 0;
}

int dmn_dt_load(const void *blob, size_t size, const struct dmn_dt_load_opts *opts,
	    struct dmn_dt_board **out)
{
	static const struct dmn_dt_load_opts defaults;
	if (out)
		*out = NULL;
	if (!blob || !out)
		return -EINVAL;
	if (!opts)
		opts = &defaults;
	if ((opts->alloc && (!opts->alloc->alloc || !opts->alloc->free)) ||
	    (opts->n_supported_hw && !opts->supported_hw))
		return -EINVAL;

	struct dmn_dt_pool *pool = dmn__dt_pool_create(opts->alloc);
	if (!pool)
		return -ENOMEM;
	struct dmn_dt_board *board = dmn__dt_pool_alloc(pool, sizeof(*board));
	if (!board) {
		dmn__dt_pool_destroy(pool);
		return -ENOMEM;
	}
	board->pool = pool;
	struct dmn_dt_loader ld = {.board = board, .pool = pool, .opts = opts};
	int err = 0;

	if (opts->n_supported_hw) {
		board->supported_hw = dmn__dt_pool_alloc(pool, opts->n_supported_hw *
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
		if (!(copy = dmn__dt_pool_alloc(pool, size ? size : 1))) {
			err = -ENOMEM;
			goto done;
		}
		memcpy(copy, blob, size);
		fdt = copy;
	}
	/* fdt_check_full checks the header against @size, every tag, the
	 * nesting and every property name: after it, libfdt's accessors stay
	 * within the blob. */
	int ferr = size > INT_MAX ? -FDT_ERR_TRUNCATED : precheck(fdt, size);
	if (!ferr)
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
	dmn__dt_pool_free(pool, copy);
	/* the loader's scratch (node index, keys, paths) stays in the pool;
	 * it is freed with the board, and costs O(nodes) */
done:
	if (err == -ENOMEM) {
		dmn__dt_pool_destroy(pool);
		return -ENOMEM;
	}
	/* A skip was reported as a diagnostic; it is no error of its own. */
	if (err == DT_SKIP)
		err = 0;
	if (err && !ld.first_error)
		ld.first_error = err;
	if (ld.first_error && !(opts->flags & DMN_DT_LOAD_LENIENT)) {
		dmn__dt_pool_destroy(pool);
		return ld.first_error;
	}
	*out = board;
	return ld.first_error;
}

void dmn_dt_board_free(struct dmn_dt_board *board)
{
	if (board)
		dmn__dt_pool_destroy(board->pool);
}

int dmn_dt_parse_supported_hw(const char *text, uint32_t *out, unsigned max)
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
