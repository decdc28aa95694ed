/* SPDX-License-Identifier: MIT */
/*
 * Robustness: truncated and bit-flipped blobs are rejected or loaded, never
 * crash (run also under -DDOMINO_SANITIZE=address,undefined); allocations
 * balance; failing the k-th allocation, for every k, gives -ENOMEM and
 * leaks nothing.
 */
#include "dt_test_util.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const boards[] = {
    "qrb5165-rb5",    "sc7180-trogdor-lazor-r10", "imx8mp-evk",
    "rk3588-rock-5b", "tegra30-beaver",
};
#define N_BOARDS (sizeof(boards) / sizeof(boards[0]))

static void *board_blob(unsigned i, size_t *size)
{
	return dt_test_board(boards[i], size);
}

/* Load with the counting allocator, lenient so the most code runs; any
 * outcome is fine except a crash, a sanitizer report or a leak. */
static int try_load(const void *blob, size_t size)
{
	struct dt_count_alloc c;
	struct dmn_alloc_ops ops;
	dt_count_init(&c, &ops);
	struct dmn_dt_load_opts o = {.alloc = &ops, .flags = DMN_DT_LOAD_LENIENT};
	struct dmn_dt_board *b = NULL;
	int err = dmn_dt_load(blob, size, &o, &b);
	if (b) {
		/* touch the model the way a consumer would */
		char line[512];
		for (unsigned i = 0; i < b->n_diags; i++)
			dmn_dt_diag_format(&b->diags[i], "f", line, sizeof(line));
		uint32_t lv[16];
		for (unsigned d = 0; d < b->n_devices; d++) {
			dmn_dt_device_fixed_votes(b, d, lv, 16);
			if (b->devices[d].opp_table >= 0)
				dmn_dt_device_opp_votes(b, d, 0, lv, 16);
		}
		dmn_dt_board_free(b);
	}
	assert_int_equal(c.allocs, c.frees);
	assert_int_equal(c.live_bytes, 0);
	return err;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* Every length below 4 KiB, then a dense stride, plus every length in the
 * last 512 bytes (the strings block): once with the buffer simply short,
 * once as a copy whose header's totalsize claims exactly that length. */
static void truncated(void **state)
{
	(void)state;
	unsigned tested = 0;
	for (unsigned bi = 0; bi < N_BOARDS; bi++) {
		size_t size;
		unsigned char *blob = board_blob(bi, &size);
		if (!blob) {
			skip();
			return;
		}
		unsigned char *copy = malloc(size);
		size_t stride = size / 1500 + 1;
		for (size_t len = 0; len < size; len++) {
			if (len >= 4096 && len < size - 512 && len % stride)
				continue;
			int err = try_load(blob, len);
			assert_true(err < 0);
			memcpy(copy, blob, len);
			if (len >= 8)
				put_be32(copy + 4, (uint32_t)len);
			err = try_load(copy, len);
			assert_true(err < 0);
			tested++;
		}
		assert_int_equal(try_load(blob, size), 0);
		free(copy);
		free(blob);
	}
	printf("%u truncated lengths rejected\n", tested);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* Single and multiple bit flips anywhere, and flips aimed at the header and
 * at the cells of the structure block (tags, lengths, name offsets). */
static void bit_flipped(void **state)
{
	(void)state;
	unsigned loaded = 0, rejected = 0;
	for (unsigned bi = 0; bi < N_BOARDS; bi++) {
		size_t size;
		unsigned char *blob = board_blob(bi, &size);
		if (!blob) {
			skip();
			return;
		}
		unsigned char *copy = malloc(size);
		uint32_t off_struct = be32(blob + 8);
		uint32_t size_struct = be32(blob + 36);
		for (unsigned round = 0; round < 1200; round++) {
			memcpy(copy, blob, size);
			unsigned flips = 1 + round % 3;
			for (unsigned f = 0; f < flips; f++) {
				size_t at;
				if (round % 4 == 0)
					at = next_rand() % 40; /* header */
				else if (round % 4 == 1)
					at = off_struct +
					     (next_rand() % (size_struct / 4)) *
						 4 +
					     3; /* low byte of a struct cell */
				else
					at = next_rand() % size;
				copy[at] ^=
				    (unsigned char)(1u << (next_rand() % 8));
			}
			if (try_load(copy, size) == 0)
				loaded++;
			else
				rejected++;
		}
		free(copy);
		free(blob);
	}
	printf("bit flips: %u loaded, %u rejected, no crash\n", loaded,
	       rejected);
}

/* Small hand-written cases are cheap: flip every bit of the header and the
 * first structure bytes of each. */
static void cases_flipped_everywhere(void **state)
{
	(void)state;
	const char *cases[] = {"basic",	 "nested", "match",
			       "err_phandles", "ncells", "devreq"};
	for (unsigned ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		size_t size;
		unsigned char *blob = dt_test_case(cases[ci], &size);
		unsigned char *copy = malloc(size);
		for (size_t bit = 0; bit < size * 8; bit += ci == 0 ? 1 : 3) {
			memcpy(copy, blob, size);
			copy[bit / 8] ^= (unsigned char)(1u << (bit % 8));
			try_load(copy, size);
		}
		free(copy);
		free(blob);
	}
}

static void balanced_on_boards(void **state)
{
	(void)state;
	for (unsigned bi = 0; bi < N_BOARDS; bi++) {
		size_t size;
		void *blob = board_blob(bi, &size);
		if (!blob) {
			skip();
			return;
		}
		struct dt_count_alloc c;
		struct dmn_alloc_ops ops;
		dt_count_init(&c, &ops);
		struct dmn_dt_load_opts o = {.alloc = &ops};
		struct dmn_dt_board *b;
		assert_int_equal(dmn_dt_load(blob, size, &o, &b), 0);
		assert_true(c.allocs > 0);
		dmn_dt_board_free(b);
		assert_int_equal(c.allocs, c.frees);
		assert_int_equal(c.live_bytes, 0);
		free(blob);
	}
}

/* Fail allocation k for k = 1, 2, ... until the load succeeds. */
static void fail_each_allocation_in(const char *name, const void *blob,
				    size_t size,
				    const struct dmn_dt_load_opts *base)
{
	long k;
	for (k = 1;; k++) {
		struct dt_count_alloc c;
		struct dmn_alloc_ops ops;
		dt_count_init(&c, &ops);
		c.fail_at = k;
		struct dmn_dt_load_opts o = *base;
		o.alloc = &ops;
		struct dmn_dt_board *b = (void *)1;
		int err = dmn_dt_load(blob, size, &o, &b);
		if (err == -ENOMEM) {
			assert_null(b);
			assert_int_equal(c.allocs, c.frees);
			assert_int_equal(c.live_bytes, 0);
			continue;
		}
		/* the first k past the last allocation: a normal load */
		assert_true(c.calls < k);
		if (b)
			dmn_dt_board_free(b);
		assert_int_equal(c.allocs, c.frees);
		assert_int_equal(c.live_bytes, 0);
		break;
	}
	printf("%s: failed each of %ld allocations in turn\n", name, k - 1);
}

static void allocation_failures(void **state)
{
	(void)state;
	const char *cases[] = {"basic",	 "nested", "match",	     "hw",
			       "disabled", "caps",   "devreq", "nested_parent"};
	for (unsigned ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		size_t size;
		void *blob = dt_test_case(cases[ci], &size);
		struct dmn_dt_load_opts o = {0};
		fail_each_allocation_in(cases[ci], blob, size, &o);
		free(blob);
	}
	/* lenient loads with errors recorded, and a misaligned blob (its
	 * aligned copy is one more allocation) */
	size_t size;
	struct dmn_dt_load_opts lenient = {.flags = DMN_DT_LOAD_LENIENT};
	void *ncells = dt_test_case("ncells", &size);
	fail_each_allocation_in("ncells (lenient)", ncells, size, &lenient);
	free(ncells);
	unsigned char *blob = dt_test_case("err_phandles", &size);
	fail_each_allocation_in("err_phandles (lenient)", blob, size, &lenient);
	unsigned char *odd = malloc(size + 1);
	memcpy(odd + 1, blob, size);
	fail_each_allocation_in("err_phandles (misaligned)", odd + 1, size,
				&lenient);
	free(odd);
	free(blob);
}

/* The loader reads properties straight from the structure block (blob.c's
 * raw_getprop) and must skip FDT_NOP tags as libfdt does: a property
 * added in front of every node's others and then overwritten with NOPs
 * (fdt_nop_property, what an in-place editor leaves behind) changes
 * nothing the loader finds on a real board. */
static void nop_tags_before_properties(void **state)
{
	(void)state;
	size_t size;
	void *blob = board_blob(0, &size);
	if (!blob)
		skip();
	struct dmn_dt_board *plain = NULL, *padded = NULL;
	assert_int_equal(dmn_dt_load(blob, size, NULL, &plain), 0);
	int big = (int)size * 3;
	void *rw = malloc((size_t)big);
	assert_non_null(rw);
	assert_int_equal(fdt_open_into(blob, rw, big), 0);
	int nodes = 0;
	for (int off = 0; off >= 0; off = fdt_next_node(rw, off, NULL)) {
		/* the new property goes in front of the node's others */
		assert_int_equal(fdt_setprop_u32(rw, off, "domino,pad", 1), 0);
		assert_int_equal(fdt_nop_property(rw, off, "domino,pad"), 0);
		nodes++;
	}
	assert_true(nodes > 100);
	assert_int_equal(dmn_dt_load(rw, (size_t)big, NULL, &padded), 0);
	assert_int_equal(padded->n_domains, plain->n_domains);
	assert_int_equal(padded->n_devices, plain->n_devices);
	assert_int_equal(padded->n_opp_tables, plain->n_opp_tables);
	assert_int_equal(padded->n_idle_states, plain->n_idle_states);
	assert_int_equal(padded->n_diags, plain->n_diags);
	assert_true(plain->n_domains > 0);
	for (unsigned d = 0; d < plain->n_domains; d++)
		assert_string_equal(padded->domains[d].name,
				    plain->domains[d].name);
	dmn_dt_board_free(plain);
	dmn_dt_board_free(padded);
	free(rw);
	free(blob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(truncated),
	    cmocka_unit_test(bit_flipped),
	    cmocka_unit_test(cases_flipped_everywhere),
	    cmocka_unit_test(balanced_on_boards),
	    cmocka_unit_test(allocation_failures),
	    cmocka_unit_test(nop_tags_before_properties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
