/* SPDX-License-Identifier: MIT */
/*
 * Writes the FDT format directly (header, empty reservation map, structure
 * and strings blocks): the shapes need a handful of properties only, and
 * this way neither dtc nor libfdt's sequential writer is needed to make
 * them.
 */
#include "shape_blob.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const shape_names[] = {"chain", "rchain", "flat",	 "nest",
				   "bus",   "oppchain", NULL};

enum { FDT_BEGIN_NODE = 1, FDT_END_NODE = 2, FDT_PROP = 3, FDT_END = 9 };

/* The strings block: every property name the shapes use. */
static const char *const prop_names[] = {
    "#power-domain-cells", "power-domains", "phandle",	 "reg",
    "#address-cells",	   "#size-cells",   "compatible", "opp-level",
    "required-opps",	   "operating-points-v2"};
enum {
	P_CELLS,
	P_DOMAINS,
	P_PHANDLE,
	P_REG,
	P_ADDR,
	P_SIZE,
	P_COMPAT,
	P_LEVEL,
	P_REQUIRED,
	P_OPP_V2,
	P_N
};

struct writer {
	unsigned char *buf;
	size_t len, cap;
	int oom;
};

static void grow(struct writer *w, size_t more)
{
	if (w->oom || w->len + more <= w->cap)
		return;
	size_t cap = w->cap ? w->cap : 4096;
	while (cap < w->len + more)
		cap *= 2;
	unsigned char *b = realloc(w->buf, cap);
	if (!b) {
		w->oom = 1;
		return;
	}
	w->buf = b;
	w->cap = cap;
}

static void put32(struct writer *w, uint32_t v)
{
	grow(w, 4);
	if (w->oom)
		return;
	unsigned char *p = w->buf + w->len;
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
	w->len += 4;
}

/* @len bytes, zero-padded to a multiple of 4 */
static void put_bytes(struct writer *w, const void *data, size_t len)
{
	size_t padded = (len + 3) & ~(size_t)3;
	grow(w, padded);
	if (w->oom)
		return;
	memcpy(w->buf + w->len, data, len);
	memset(w->buf + w->len + len, 0, padded - len);
	w->len += padded;
}

static uint32_t name_offset(int prop)
{
	uint32_t off = 0;
	for (int i = 0; i < prop; i++)
		off += (uint32_t)strlen(prop_names[i]) + 1;
	return off;
}

static void begin_node(struct writer *w, const char *fmt, unsigned k)
{
	char name[64];
	int n = snprintf(name, sizeof(name), fmt, k);
	put32(w, FDT_BEGIN_NODE);
	put_bytes(w, name, (size_t)n + 1);
}

static void prop_cells(struct writer *w, int prop, unsigned n_cells,
		       uint32_t a, uint32_t b)
{
	put32(w, FDT_PROP);
	put32(w, n_cells * 4);
	put32(w, name_offset(prop));
	if (n_cells > 0)
		put32(w, a);
	if (n_cells > 1)
		put32(w, b);
}

static void prop_string(struct writer *w, int prop, const char *s)
{
	put32(w, FDT_PROP);
	put32(w, (uint32_t)strlen(s) + 1);
	put32(w, name_offset(prop));
	put_bytes(w, s, strlen(s) + 1);
}

/* A zero-cell provider pdK (phandle K+1) under the root. */
static void provider(struct writer *w, unsigned k, int has_parent,
		     unsigned parent)
{
	begin_node(w, "pd%u", k);
	prop_cells(w, P_CELLS, 1, 0, 0);
	prop_cells(w, P_PHANDLE, 1, k + 1, 0);
	if (has_parent)
		prop_cells(w, P_DOMAINS, 1, parent + 1, 0);
	put32(w, FDT_END_NODE);
}

static void device(struct writer *w, unsigned k, unsigned n_cells, uint32_t a,
		   uint32_t b)
{
	begin_node(w, "dev@%u", k);
	prop_cells(w, P_DOMAINS, n_cells, a, b);
	put32(w, FDT_END_NODE);
}

static void structure(struct writer *w, const char *shape, unsigned n)
{
	put32(w, FDT_BEGIN_NODE);
	put_bytes(w, "", 1);
	prop_cells(w, P_ADDR, 1, 1, 0);
	prop_cells(w, P_SIZE, 1, 0, 0);
	if (!strcmp(shape, "chain")) {
		for (unsigned k = 0; k < n; k++)
			provider(w, k, k + 1 < n, k + 1);
		device(w, 0, 1, 1, 0);
	} else if (!strcmp(shape, "rchain")) {
		for (unsigned k = 0; k < n; k++)
			provider(w, k, k > 0, k - 1);
		device(w, 0, 1, n, 0);
	} else if (!strcmp(shape, "flat")) {
		for (unsigned k = 0; k < n; k++)
			provider(w, k, 0, 0);
		for (unsigned k = 0; k < n; k++)
			device(w, k, 1, k + 1, 0);
	} else if (!strcmp(shape, "bus")) {
		provider(w, 0, 0, 0);
		for (unsigned k = 0; k < n; k++) {
			begin_node(w, "bus@%u", k);
			prop_cells(w, P_REG, 1, k, 0);
			prop_cells(w, P_ADDR, 1, 1, 0);
			prop_cells(w, P_SIZE, 1, 0, 0);
		}
		device(w, 0, 1, 1, 0);
		for (unsigned k = 0; k < n; k++)
			put32(w, FDT_END_NODE);
	} else if (!strcmp(shape, "oppchain")) {
		/* table K's one entry (phandle 2K+2) requires table K+1's;
		 * provider pdK (phandle 2K+1) uses table K */
		for (unsigned k = 0; k < n; k++) {
			begin_node(w, "opp-table-%u", k);
			prop_string(w, P_COMPAT, "operating-points-v2");
			prop_cells(w, P_PHANDLE, 1, 2 * k + 1 + 2 * n, 0);
			begin_node(w, "opp-%u", k);
			prop_cells(w, P_LEVEL, 1, 1, 0);
			prop_cells(w, P_PHANDLE, 1, 2 * k + 2, 0);
			if (k + 1 < n)
				prop_cells(w, P_REQUIRED, 1, 2 * k + 4, 0);
			put32(w, FDT_END_NODE);
			put32(w, FDT_END_NODE);
		}
		for (unsigned k = 0; k < n; k++) {
			begin_node(w, "pd%u", k);
			prop_cells(w, P_CELLS, 1, 0, 0);
			prop_cells(w, P_PHANDLE, 1, 2 * k + 1, 0);
			prop_cells(w, P_OPP_V2, 1, 2 * k + 1 + 2 * n, 0);
			if (k + 1 < n)
				prop_cells(w, P_DOMAINS, 1, 2 * k + 3, 0);
			put32(w, FDT_END_NODE);
		}
		device(w, 0, 1, 1, 0);
	} else { /* nest */
		begin_node(w, "power-controller", 0);
		prop_string(w, P_COMPAT, "domino,nested-power-controller");
		prop_cells(w, P_CELLS, 1, 1, 0);
		prop_cells(w, P_PHANDLE, 1, 1, 0);
		prop_cells(w, P_ADDR, 1, 1, 0);
		prop_cells(w, P_SIZE, 1, 0, 0);
		for (unsigned k = 0; k < n; k++) {
			begin_node(w, "power-domain@%u", k);
			prop_cells(w, P_REG, 1, k, 0);
			prop_cells(w, P_CELLS, 1, 0, 0);
			prop_cells(w, P_ADDR, 1, 1, 0);
			prop_cells(w, P_SIZE, 1, 0, 0);
		}
		for (unsigned k = 0; k < n; k++)
			put32(w, FDT_END_NODE);
		put32(w, FDT_END_NODE);
		device(w, 0, 2, 1, n - 1);
	}
	put32(w, FDT_END_NODE);
	put32(w, FDT_END);
}

int shape_blob(const char *shape, unsigned n, unsigned char **blob,
	       size_t *size)
{
	int known = 0;
	for (int i = 0; shape_names[i]; i++)
		known |= !strcmp(shape, shape_names[i]);
	if (!known || n == 0 || n > 10000000)
		return -EINVAL;
	struct writer w = {0};
	const size_t hdr = 40, rsv = 16;
	for (size_t i = 0; i < hdr + rsv; i += 4)
		put32(&w, 0);
	structure(&w, shape, n);
	size_t size_struct = w.len - hdr - rsv;
	size_t strings = 0;
	for (int i = 0; i < P_N; i++) {
		size_t l = strlen(prop_names[i]) + 1;
		grow(&w, l);
		if (w.oom)
			break;
		memcpy(w.buf + w.len, prop_names[i], l);
		w.len += l;
		strings += l;
	}
	if (w.oom || w.len > UINT32_MAX) {
		free(w.buf);
		return -ENOMEM;
	}
	const uint32_t header[10] = {
	    0xd00dfeed,		 (uint32_t)w.len,
	    (uint32_t)(hdr + rsv), (uint32_t)(hdr + rsv + size_struct),
	    (uint32_t)hdr,	 17,
	    16,			 0,
	    (uint32_t)strings,	 (uint32_t)size_struct};
	size_t end = w.len;
	w.len = 0;
	for (int i = 0; i < 10; i++)
		put32(&w, header[i]);
	*blob = w.buf;
	*size = end;
	return 0;
}
