/* SPDX-License-Identifier: MIT */
#include "dt_test_util.h"
#include "read_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *dt_test_case(const char *name, size_t *size)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s.dtb", DT_CASES_DIR, name);
	void *blob = read_whole_file(path, size);
	if (!blob)
		fail_msg("cannot read %s (built by tests/dt/CMakeLists.txt)",
			 path);
	return blob;
}

void *dt_test_board(const char *name, size_t *size)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s.dtb", DOMINO_BOARDS_DIR, name);
	void *blob = read_whole_file(path, size);
	if (!blob)
		printf("skipping %s: %s is absent (configure with "
		       "-DDOMINO_BOARDS=DIR, a folder of board blobs)\n",
		       name, path);
	return blob;
}

union hdr {
	size_t size;
	max_align_t align;
};

static void *count_alloc(void *user, size_t size)
{
	struct dt_count_alloc *c = user;
	c->calls++;
	if (c->fail_at && c->calls == c->fail_at)
		return NULL;
	union hdr *h = malloc(sizeof(*h) + size);
	if (!h)
		return NULL;
	h->size = size;
	c->allocs++;
	c->live_bytes += (long)size;
	return h + 1;
}

static void count_free(void *user, void *ptr)
{
	struct dt_count_alloc *c = user;
	union hdr *h = (union hdr *)ptr - 1;
	c->frees++;
	c->live_bytes -= (long)h->size;
	free(h);
}

void dt_count_init(struct dt_count_alloc *c, struct dmn_alloc_ops *ops)
{
	memset(c, 0, sizeof(*c));
	ops->alloc = count_alloc;
	ops->free = count_free;
	ops->user = c;
}

const struct dmn_dt_diag *dt_test_diag(const struct dmn_dt_board *b, const char *check,
				   unsigned nth)
{
	for (unsigned i = 0; i < b->n_diags; i++)
		if (strcmp(b->diags[i].check, check) == 0 && nth-- == 0)
			return &b->diags[i];
	return NULL;
}

unsigned dt_test_count(const struct dmn_dt_board *b, const char *check)
{
	unsigned n = 0;
	for (unsigned i = 0; i < b->n_diags; i++)
		n += strcmp(b->diags[i].check, check) == 0;
	return n;
}
