/* SPDX-License-Identifier: MIT */
/*
 * make_bad_inputs BASE.dtb OUTDIR - write the generated bad-input corpus
 *
 * Every malformed blob is the valid BASE (board.dts, compiled at build
 * time) cut or patched at one place, so the corpus is reproducible and
 * each file differs from a good blob in exactly the way its name says.
 * The scenarios that cannot live in git as text (NUL bytes, invalid
 * UTF-8, CRLF, 10000 lines) are written here too. cases.txt lists what
 * domino must do with each file.
 *
 * make_bad_inputs --levels N OUTDIR - write opp-table-N.dtb (one domain
 * of N levels) and ramp-N.scn (its device votes through all of them) for
 * check_levels.sh.
 *
 * make_bad_inputs --devchain N OUTDIR - devchain-N.dtb and .scn: a chain
 * of N device tables, each requiring the next (check_growth.sh);
 * --devresume N: the same board as devresume-N.dtb, every device resumed
 * and suspended (devresume-N.scn).
 *
 * make_bad_inputs --fan N OUTDIR, --pnest N OUTDIR, --devdoms N OUTDIR -
 * one parent of N children (fan-N.dtb), N providers nested (pnest-N.dtb),
 * one device in N domains (devdoms-N.dtb, and .scn for check_growth.sh);
 * --reqchain N: 8 devices' required OPP N domains up a chain (and
 * reqchain-N.scn, two of them resumed and suspended); --reqwide N: one
 * device in N domains with N required-opps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_file.h"

/* struct fdt_header, as byte offsets of big-endian u32 fields */
enum {
	HDR_MAGIC = 0,
	HDR_TOTALSIZE = 4,
	HDR_OFF_STRUCT = 8,
	HDR_OFF_STRINGS = 12,
	HDR_OFF_RSVMAP = 16,
	HDR_VERSION = 20,
	HDR_LAST_COMP = 24,
	HDR_SIZE_STRINGS = 32,
	HDR_SIZE_STRUCT = 36,
	HDR_SIZE = 40,
};

static const char *out_dir;
static unsigned char *base;
static size_t base_len;

static uint32_t get32(const unsigned char *p, size_t off)
{
	return (uint32_t)p[off] << 24 | (uint32_t)p[off + 1] << 16 |
	       (uint32_t)p[off + 2] << 8 | p[off + 3];
}

static void put32(unsigned char *p, size_t off, uint32_t v)
{
	p[off] = (unsigned char)(v >> 24);
	p[off + 1] = (unsigned char)(v >> 16);
	p[off + 2] = (unsigned char)(v >> 8);
	p[off + 3] = (unsigned char)v;
}

static void write_file(const char *name, const void *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* A copy of the base blob, to patch; freed by the caller. */
static unsigned char *copy_base(void)
{
	unsigned char *p = malloc(base_len);
	if (!p)
		exit(1);
	memcpy(p, base, base_len);
	return p;
}

static void patched(const char *name, size_t field, uint32_t value)
{
	unsigned char *p = copy_base();
	put32(p, field, value);
	write_file(name, p, base_len);
	free(p);
}

/* xorshift32: the same junk on every machine */
static uint32_t junk_state = 0x2545f491;
static unsigned char junk_byte(void)
{
	junk_state ^= junk_state << 13;
	junk_state ^= junk_state >> 17;
	junk_state ^= junk_state << 5;
	return (unsigned char)junk_state;
}

/* The offset of @what (@len bytes) in @p[from, to), or exit. */
static size_t find(const unsigned char *p, size_t from, size_t to,
		   const void *what, size_t len)
{
	for (size_t i = from; i + len <= to; i++)
		if (!memcmp(p + i, what, len))
			return i;
	fprintf(stderr, "base blob: %.*s not found\n", (int)len, (const char *)what);
	exit(1);
}

/*
 * Terminal escapes in a node name: the GDSC node is renamed to
 * ESC c (reset and clear the screen), ESC M + CR (back over the previous
 * line) and a fake "0 errors", and its domain-idle-states phandle made dangling so
 * lint has a finding that names the node.
 */
static void escape_names(uint32_t off_struct, uint32_t size_struct,
			 uint32_t off_strings, uint32_t size_strings)
{
	static const char name[] = "clock-controller@100000";
	static const char fake[] = "\033c\033M\r0 errors, 0 warnin";
	_Static_assert(sizeof(name) == sizeof(fake), "same length");
	unsigned char *p = copy_base();
	size_t at = find(p, off_struct, off_struct + size_struct, name,
			 sizeof(name));
	memcpy(p + at, fake, sizeof(fake));
	uint32_t nameoff = (uint32_t)(find(p, off_strings,
					   off_strings + size_strings,
					   "domain-idle-states",
					   sizeof("domain-idle-states")) -
				      off_strings);
	/* FDT_PROP, len 4, nameoff, value */
	unsigned char prop[12];
	put32(prop, 0, 3);
	put32(prop, 4, 4);
	put32(prop, 8, nameoff);
	at = find(p, off_struct, off_struct + size_struct, prop, sizeof(prop));
	put32(p, at + 12, 0xdeadbeef);
	write_file("escape-names.dtb", p, base_len);
	free(p);
}

/*
 * Two nodes with one phandle (dtc refuses to write that unless forced):
 * the second phandle property of the structure block takes the first's
 * value.
 */
static void duplicate_phandle(uint32_t off_struct, uint32_t size_struct,
			      uint32_t off_strings, uint32_t size_strings)
{
	unsigned char *p = copy_base();
	uint32_t nameoff = (uint32_t)(find(p, off_strings,
					   off_strings + size_strings,
					   "phandle", sizeof("phandle")) -
				      off_strings);
	unsigned char prop[12];
	put32(prop, 0, 3); /* FDT_PROP, len 4, nameoff */
	put32(prop, 4, 4);
	put32(prop, 8, nameoff);
	size_t end = off_struct + size_struct;
	size_t first = find(p, off_struct, end, prop, sizeof(prop));
	size_t second = find(p, first + 16, end, prop, sizeof(prop));
	put32(p, second + 12, get32(p, first + 12));
	write_file("duplicate-phandle.dtb", p, base_len);
	free(p);
}

static void blobs(void)
{
	uint32_t off_struct = get32(base, HDR_OFF_STRUCT);
	uint32_t size_struct = get32(base, HDR_SIZE_STRUCT);
	uint32_t off_strings = get32(base, HDR_OFF_STRINGS);
	uint32_t size_strings = get32(base, HDR_SIZE_STRINGS);
	if (get32(base, HDR_TOTALSIZE) != base_len ||
	    off_strings + size_strings != base_len) {
		fprintf(stderr, "base blob: unexpected layout\n");
		exit(1);
	}

	write_file("empty.dtb", "", 0);
	/* truncated: inside the magic, after it, inside the header, in the
	 * middle of the structure block, in the middle of the strings, and
	 * one byte short */
	write_file("trunc-2.dtb", base, 2);
	write_file("trunc-magic-only.dtb", base, 4);
	write_file("trunc-header.dtb", base, HDR_SIZE - 1);
	write_file("trunc-struct.dtb", base, off_struct + size_struct / 2);
	write_file("trunc-strings.dtb", base, off_strings + size_strings / 2);
	write_file("trunc-last-byte.dtb", base, base_len - 1);

	escape_names(off_struct, size_struct, off_strings, size_strings);
	duplicate_phandle(off_struct, size_struct, off_strings, size_strings);
	patched("bad-magic.dtb", HDR_MAGIC, 0xd00dfeef);
	patched("magic-byte-swapped.dtb", HDR_MAGIC, 0xedfe0dd0);
	patched("totalsize-larger.dtb", HDR_TOTALSIZE, (uint32_t)base_len + 4096);
	patched("totalsize-huge.dtb", HDR_TOTALSIZE, 0xffffffff);
	patched("totalsize-zero.dtb", HDR_TOTALSIZE, 0);
	patched("struct-offset-outside.dtb", HDR_OFF_STRUCT, (uint32_t)base_len + 64);
	patched("struct-size-huge.dtb", HDR_SIZE_STRUCT, 0x7ffffff0);
	patched("strings-offset-outside.dtb", HDR_OFF_STRINGS, (uint32_t)base_len + 64);
	patched("rsvmap-misaligned.dtb", HDR_OFF_RSVMAP, get32(base, HDR_OFF_RSVMAP) + 1);
	/* fdt_check_full lets the blocks overlap: property names read out of
	 * the structure block's tags loaded an empty board (exit 0) */
	patched("strings-in-struct.dtb", HDR_OFF_STRINGS, get32(base, HDR_OFF_STRUCT));
	patched("strings-overlap-struct-end.dtb", HDR_OFF_STRINGS,
		get32(base, HDR_OFF_STRUCT) + get32(base, HDR_SIZE_STRUCT) - 4);
	/* libfdt 1.6.1's fdt_check_full dereferences NULL on version 3;
	 * found by fuzz_dt_load */
	{
		unsigned char *p = copy_base();
		put32(p, HDR_VERSION, 3);
		put32(p, HDR_LAST_COMP, 3);
		write_file("version-3.dtb", p, base_len);
		put32(p, HDR_VERSION, 18);
		put32(p, HDR_LAST_COMP, 18);
		write_file("version-18.dtb", p, base_len);
		free(p);
	}
	/* the strings block cut: a header that agrees with the shorter
	 * file, so only the property names run out */
	{
		unsigned char *p = copy_base();
		uint32_t cut = size_strings / 2;
		put32(p, HDR_SIZE_STRINGS, cut);
		put32(p, HDR_TOTALSIZE, off_strings + cut);
		write_file("strings-cut.dtb", p, off_strings + cut);
		/* and the same claim on the full file */
		write_file("strings-size-short.dtb", p, base_len);
		free(p);
	}
	/* structure tokens: FDT_END replaced by FDT_NOP; an unknown token
	 * where the root's first property starts */
	{
		unsigned char *p = copy_base();
		size_t end = off_struct + size_struct - 4;
		if (get32(p, end) != 9) {
			fprintf(stderr, "base blob: no FDT_END\n");
			exit(1);
		}
		put32(p, end, 4);
		write_file("no-end-token.dtb", p, base_len);
		free(p);
		p = copy_base();
		put32(p, off_struct + 8, 0x0000000f); /* BEGIN_NODE, "\0\0\0\0", here */
		write_file("unknown-token.dtb", p, base_len);
		free(p);
	}
	{
		unsigned char junk[512];
		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = junk_byte();
		write_file("junk.dtb", junk, sizeof(junk));
		/* junk behind a header that is right in every field */
		unsigned char *p = copy_base();
		for (size_t i = off_struct; i < base_len; i++)
			p[i] = junk_byte();
		write_file("junk-after-header.dtb", p, base_len);
		free(p);
	}
}

static void scenarios(void)
{
	write_file("empty.scn", "", 0);
	static const char nul[] = "@0 resume cpu0\n@1ms sus\0pend cpu0\n";
	write_file("nul-byte.scn", nul, sizeof(nul) - 1);
	static const char bad_utf8[] = "# fine\n@0 resume caf\xc3\x28\n";
	write_file("invalid-utf8.scn", bad_utf8, sizeof(bad_utf8) - 1);
	static const char overlong[] = "@0 resume cpu\xc0\xb0\n";
	write_file("overlong-utf8.scn", overlong, sizeof(overlong) - 1);
	static const char surrogate[] = "@0 resume cpu0 # \xed\xa0\x80\n";
	write_file("surrogate-utf8.scn", surrogate, sizeof(surrogate) - 1);
	static const char control[] = "@0 resume\x01 cpu0\n";
	write_file("control-char.scn", control, sizeof(control) - 1);
	static const char crlf[] = "# written on Windows\r\n@0 resume cpu0\r\n"
				   "+1ms expect cluster_pd on\r\n+1ms suspend cpu0\r\n";
	write_file("crlf.scn", crlf, sizeof(crlf) - 1);
	static const char bom[] = "\xef\xbb\xbf@0 resume cpu0\n";
	write_file("bom.scn", bom, sizeof(bom) - 1);

	/* 10000 lines, all valid; then the same with the last one wrong */
	size_t cap = 10000 * 32, len = 0;
	char *text = malloc(cap);
	if (!text)
		exit(1);
	for (unsigned i = 0; i < 10000; i++)
		len += (size_t)snprintf(text + len, cap - len, "+1us %s cpu1\n",
					i % 2 ? "suspend" : "resume");
	write_file("lines-10000.scn", text, len);
	len -= strlen("+1us suspend cpu1\n");
	len += (size_t)snprintf(text + len, cap - len, "+1us suspend cpu1 extra\n");
	write_file("lines-10000-last-bad.scn", text, len);

	/* one very long word */
	len = 0;
	for (unsigned i = 0; i < 100000; i++)
		text[len++] = 'x';
	text[len++] = '\n';
	write_file("long-word.scn", text, len);
	free(text);
}

/*
 * Large inputs whose size is in one place: a board whose one node name is
 * 20,000 bytes long among 300 short ones (wide-name.dts, compiled at build
 * time; the scenario wide-name.scn resumes every device), and a scenario
 * naming each of the 100,000 devices of the flat-100000 shape, and a
 * large agents file for `domino scmi-serve` on flat-20000.
 */
static void large(void)
{
	enum { WIDE = 20000, SHORT = 300, FLAT = 100000 };
	size_t cap = (size_t)WIDE + 128 * SHORT + 256, len = 0;
	char *text = malloc(cap);
	if (!text)
		exit(1);
	len += (size_t)snprintf(text + len, cap - len, "/dts-v1/;\n/ {\n\tp");
	memset(text + len, 'w', WIDE);
	len += WIDE;
	len += (size_t)snprintf(text + len, cap - len,
				" { #power-domain-cells = <0>; phandle = <%u>; };\n"
				"\twide-dev { power-domains = <%u>; };\n",
				SHORT + 1, SHORT + 1);
	for (unsigned k = 0; k < SHORT; k++)
		len += (size_t)snprintf(text + len, cap - len,
					"\tpd%u { #power-domain-cells = <0>; "
					"phandle = <%u>; };\n\tdev%u { "
					"power-domains = <%u>; };\n",
					k, k + 1, k, k + 1);
	len += (size_t)snprintf(text + len, cap - len, "};\n");
	write_file("wide-name.dts", text, len);
	len = 0;
	len += (size_t)snprintf(text + len, cap - len, "@0 resume wide-dev\n");
	for (unsigned k = 0; k < SHORT; k++)
		len += (size_t)snprintf(text + len, cap - len,
					"+1us resume dev%u\n", k);
	write_file("wide-name.scn", text, len);
	free(text);

	cap = (size_t)FLAT * 32 + 64;
	len = 0;
	text = malloc(cap);
	if (!text)
		exit(1);
	for (unsigned k = 0; k < FLAT; k++)
		len += (size_t)snprintf(text + len, cap - len,
					"+1us resume dev@%u\n", k);
	len += (size_t)snprintf(text + len, cap - len, "resume dev@x\n");
	write_file("resume-flat-100000.scn", text, len);
	free(text);

	/* An agents file for flat-20000 (scmi-serve): 1,000,000 blank lines,
	 * then one agent listing its 20,000 domains by name 20 times over. */
	enum { BLANK = 1000000, DOMS = 20000, TIMES = 20 };
	cap = BLANK + (size_t)DOMS * TIMES * 10 + 64;
	len = 0;
	text = malloc(cap);
	if (!text)
		exit(1);
	memset(text, '\n', BLANK);
	len = BLANK;
	len += (size_t)snprintf(text + len, cap - len, "agent 1 ospm power ");
	for (unsigned k = 0; k < DOMS * TIMES; k++)
		len += (size_t)snprintf(text + len, cap - len, "%s/pd%u",
					k ? "," : "", k % DOMS);
	len += (size_t)snprintf(text + len, cap - len, "\n");
	write_file("agents-flat-20000.txt", text, len);
	free(text);
}

/* ---- a flattened tree written from scratch (dtc cannot parse 10,000
 * sibling nodes: its parser's stack runs out) ---------------------------- */
struct fdt_writer {
	unsigned char *buf;
	size_t len, cap;
	char *strings;
	size_t strings_len, strings_cap;
};

static void fdt_bytes(struct fdt_writer *w, const void *p, size_t n)
{
	size_t padded = (n + 3) & ~(size_t)3;
	if (!padded) /* an empty value: nothing to copy, maybe no buffer yet */
		return;
	if (w->len + padded > w->cap) {
		w->cap = (w->len + padded) * 2;
		w->buf = realloc(w->buf, w->cap);
		if (!w->buf)
			exit(1);
	}
	memcpy(w->buf + w->len, p, n);
	memset(w->buf + w->len + n, 0, padded - n);
	w->len += padded;
}

static void fdt_u32(struct fdt_writer *w, uint32_t v)
{
	unsigned char b[4];
	put32(b, 0, v);
	fdt_bytes(w, b, 4);
}

static void fdt_begin(struct fdt_writer *w, const char *name)
{
	fdt_u32(w, 1);
	fdt_bytes(w, name, strlen(name) + 1);
}

/* A property of @n bytes at @p; its name joins the strings block, found
 * there first unless @fresh (a name no property had: a search per name
 * would be quadratic in a __symbols__ of 200,000 labels). */
static void fdt_prop_named(struct fdt_writer *w, const char *name, int fresh,
			   const void *p, size_t n)
{
	size_t off = 0, len = strlen(name) + 1;
	while (!fresh && off < w->strings_len && strcmp(w->strings + off, name))
		off += strlen(w->strings + off) + 1;
	if (fresh || off == w->strings_len) {
		off = w->strings_len;
		if (off + len > w->strings_cap) {
			w->strings_cap = (off + len) * 2;
			w->strings = realloc(w->strings, w->strings_cap);
			if (!w->strings)
				exit(1);
		}
		memcpy(w->strings + off, name, len);
		w->strings_len += len;
	}
	fdt_u32(w, 3);
	fdt_u32(w, (uint32_t)n);
	fdt_u32(w, (uint32_t)off);
	fdt_bytes(w, p, n);
}

static void fdt_prop(struct fdt_writer *w, const char *name, const void *p,
		     size_t n)
{
	fdt_prop_named(w, name, 0, p, n);
}

static void fdt_cell(struct fdt_writer *w, const char *name, uint32_t v)
{
	unsigned char b[4];
	put32(b, 0, v);
	fdt_prop(w, name, b, 4);
}

/* A zero-cell provider @name (phandle 1; OPP table phandle @table unless
 * 0) and a device "dev" on it, then the root's end. */
static void fdt_provider_and_device(struct fdt_writer *w, const char *name,
				    uint32_t table)
{
	fdt_begin(w, name);
	fdt_cell(w, "#power-domain-cells", 0);
	fdt_cell(w, "phandle", 1);
	if (table)
		fdt_cell(w, "operating-points-v2", table);
	fdt_u32(w, 2); /* FDT_END_NODE */
	fdt_begin(w, "dev");
	fdt_cell(w, "power-domains", 1);
	fdt_u32(w, 2);
	fdt_u32(w, 2); /* the root's */
}

/* Header, empty reservation map, structure, strings. */
static void fdt_write(struct fdt_writer *w, const char *file)
{
	fdt_u32(w, 9); /* FDT_END */
	size_t off_struct = HDR_SIZE + 16, size_struct = w->len;
	size_t total = off_struct + size_struct + w->strings_len;
	unsigned char *out = calloc(1, total);
	if (!out)
		exit(1);
	put32(out, HDR_MAGIC, 0xd00dfeed);
	put32(out, HDR_TOTALSIZE, (uint32_t)total);
	put32(out, HDR_OFF_STRUCT, (uint32_t)off_struct);
	put32(out, HDR_OFF_STRINGS, (uint32_t)(off_struct + size_struct));
	put32(out, HDR_OFF_RSVMAP, HDR_SIZE);
	put32(out, HDR_VERSION, 17);
	put32(out, HDR_LAST_COMP, 16);
	put32(out, HDR_SIZE_STRINGS, (uint32_t)w->strings_len);
	put32(out, HDR_SIZE_STRUCT, (uint32_t)size_struct);
	memcpy(out + off_struct, w->buf, size_struct);
	if (w->strings_len) /* a blob without properties has no strings */
		memcpy(out + off_struct + size_struct, w->strings,
		       w->strings_len);
	write_file(file, out, total);
	free(out);
	free(w->buf);
	free(w->strings);
}

/* Close the root node and write the blob as SHAPE-N.dtb. */
static void fdt_write_shape(struct fdt_writer *w, const char *shape,
			    unsigned long n)
{
	char name[64];
	fdt_u32(w, 2); /* the root's FDT_END_NODE */
	snprintf(name, sizeof(name), "%s-%lu.dtb", shape, n);
	fdt_write(w, name);
}

/* One OPP table of @n levels, 1..@n, on a provider with one device. */
static void opp_table(unsigned n, const char *file)
{
	struct fdt_writer w = {0};
	char name[32];
	fdt_begin(&w, "");
	fdt_begin(&w, "opp-table");
	fdt_prop(&w, "compatible", "operating-points-v2",
		 sizeof("operating-points-v2"));
	fdt_cell(&w, "phandle", 2);
	for (unsigned k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "opp-%u", k + 1);
		fdt_begin(&w, name);
		fdt_cell(&w, "opp-level", k + 1);
		fdt_u32(&w, 2); /* FDT_END_NODE */
	}
	fdt_u32(&w, 2);
	fdt_provider_and_device(&w, "pd", 2);
	fdt_write(&w, file);
}

/* Terminal escapes in the names `domino scmi-serve --list` prints: a
 * provider node's name (the board) and an agent's name (the agents
 * file, listed first on a board without domains). */
static void scmi_escapes(void)
{
	struct fdt_writer w = {0};
	fdt_begin(&w, "");
	fdt_provider_and_device(&w, "pd\033[2J\033c\rX", 0);
	fdt_write(&w, "scmi-escapes.dtb");
	struct fdt_writer empty = {0};
	fdt_begin(&empty, "");
	fdt_u32(&empty, 2);
	fdt_write(&empty, "no-domains.dtb");
	static const char agents[] = "agent 1 a\033[31m power all\n";
	write_file("agents-escapes.txt", agents, sizeof(agents) - 1);
}

/* Two sibling providers named pd and two sibling devices named dev@1,
 * each device on its own pd (dtc refuses same-named siblings; a written
 * blob need not): the second of each cannot be told by its path. */
static void duplicate_siblings(void)
{
	struct fdt_writer w = {0};
	fdt_begin(&w, "");
	for (uint32_t k = 1; k <= 2; k++) {
		fdt_begin(&w, "pd");
		fdt_cell(&w, "#power-domain-cells", 0);
		fdt_cell(&w, "phandle", k);
		fdt_u32(&w, 2); /* FDT_END_NODE */
	}
	for (uint32_t k = 1; k <= 2; k++) {
		fdt_begin(&w, "dev@1");
		fdt_cell(&w, "power-domains", k);
		fdt_u32(&w, 2);
	}
	fdt_u32(&w, 2); /* the root's */
	fdt_write(&w, "duplicate-siblings.dtb");
}

/* opp-table-N.dtb and ramp-N.scn for check_levels.sh: the device votes
 * every level up, 1..N, then every level down, 1 us apart, so each is a
 * pstate of its own with a residency (a scan of the levels per vote or
 * per residency read was quadratic: 2.3 s at 20,000). */
static int levels_ramp(const char *arg)
{
	char *end = NULL;
	unsigned long n = strtoul(arg, &end, 10);
	if (!*arg || *end || n < 1 || n > 1000000) {
		fprintf(stderr, "make_bad_inputs: --levels N: 1..1000000\n");
		return 2;
	}
	char name[64];
	snprintf(name, sizeof(name), "opp-table-%lu.dtb", n);
	opp_table((unsigned)n, name);
	size_t cap = 64 + 2 * n * 40, len = 0;
	char *text = malloc(cap);
	if (!text)
		return 1;
	len += (size_t)snprintf(text, cap, "@0 resume dev\n");
	for (unsigned long k = 1; k <= 2 * n; k++)
		len += (size_t)snprintf(text + len, cap - len,
					"@%luus vote dev %lu\n", k,
					k <= n ? k : 2 * n + 1 - k);
	snprintf(name, sizeof(name), "ramp-%lu.scn", n);
	write_file(name, text, len);
	free(text);
	return 0;
}

/* names-N.dtb and names-N.scn for check_growth.sh: N zero-cell
 * providers pdK, each labelled aK and bK (its domain is called aK), and
 * a scenario that names every domain the three ways that are not its
 * name, in turn: bK (a second label), /pdK (its path), pdK (its node
 * name). At 0 it boots every even one on, then expects each on or off
 * by another of its names (a scan of the board per such name was
 * quadratic). */
static int names_board(const char *arg)
{
	char *end = NULL;
	unsigned long n = strtoul(arg, &end, 10);
	if (!*arg || *end || n < 1 || n > 1000000) {
		fprintf(stderr, "make_bad_inputs: --names N: 1..1000000\n");
		return 2;
	}
	struct fdt_writer w = {0};
	char name[64], path[64];
	fdt_begin(&w, "");
	for (unsigned long k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "pd%lu", k);
		fdt_begin(&w, name);
		fdt_cell(&w, "#power-domain-cells", 0);
		fdt_cell(&w, "phandle", (uint32_t)k + 1);
		fdt_u32(&w, 2); /* FDT_END_NODE */
	}
	fdt_begin(&w, "__symbols__");
	for (unsigned long k = 0; k < n; k++)
		for (int l = 0; l < 2; l++) {
			int len = snprintf(path, sizeof(path), "/pd%lu", k);
			snprintf(name, sizeof(name), "%c%lu", "ab"[l], k);
			fdt_prop_named(&w, name, 1, path, (size_t)len + 1);
		}
	fdt_u32(&w, 2);
	fdt_write_shape(&w, "names", n);

	size_t cap = 64 + 3 * n * 48, len = 0;
	char *text = malloc(cap);
	if (!text)
		return 1;
	static const char *const form[] = {"b%lu", "/pd%lu", "pd%lu"};
	for (unsigned long k = 0; k < n; k += 2) {
		len += (size_t)snprintf(text + len, cap - len, "@0 boot-on ");
		len += (size_t)snprintf(text + len, cap - len, form[k % 3], k);
		text[len++] = '\n';
	}
	for (unsigned long k = 0; k < n; k++) {
		len += (size_t)snprintf(text + len, cap - len, "+1us expect ");
		len += (size_t)snprintf(text + len, cap - len,
					form[(k + 1) % 3], k);
		len += (size_t)snprintf(text + len, cap - len, " %s\n",
					k % 2 ? "off" : "on");
	}
	snprintf(name, sizeof(name), "names-%lu.scn", n);
	write_file(name, text, len);
	free(text);
	return 0;
}

/* The size argument of --devchain, --devresume, --devdoms, --fan and --pnest: 2..10,000,000,
 * or 0 (told on stderr). */
static unsigned long shape_size(const char *opt, const char *arg)
{
	char *end = NULL;
	unsigned long n = strtoul(arg, &end, 10);
	if (!*arg || *end || n < 2 || n > 10000000) {
		fprintf(stderr, "make_bad_inputs: %s N: 2..10000000\n", opt);
		return 0;
	}
	return n;
}

/* devresume-N.scn (devchain-N's board): every device resumed, the chain
 * raised from dev@0 and dropped by suspending dev@1 (every owner below
 * back to 0 Hz), then each device suspended and resumed again. Each
 * resume and suspend walked the rest of the chain (quadratic: 9.9 s of
 * CPU for 10,000); now each checks the owners of its own table. */
static int devresume_scenario(unsigned long n)
{
	char name[64];
	snprintf(name, sizeof(name), "devresume-%lu.scn", n);
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", out_dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "@0 resume dev@0\n");
	for (unsigned long k = 1; k < n; k++)
		fprintf(f, "resume dev@%lu\n", k);
	fprintf(f, "rate dev@0 1000\nexpect dev@%lu rate 1000\n"
		   "suspend dev@1\nexpect dev@%lu rate 0\n", n - 1, n - 1);
	for (unsigned long k = 2; k < n; k++)
		fprintf(f, "suspend dev@%lu\n", k);
	for (unsigned long k = 1; k < n; k++)
		fprintf(f, "resume dev@%lu\n", k);
	fprintf(f, "expect dev@%lu rate 1000\n", n - 1);
	return fclose(f) ? 1 : 0;
}

/* devchain-N.dtb and devchain-N.scn for check_growth.sh: N device OPP
 * tables (opp-hz only), table K's entry requiring table K+1's, each
 * owned by dev@K (dev@0 on the one domain, pd): N - 1 device-to-device
 * requirements in a chain. The scenario raises dev@0, which raises
 * dev@1 (active or not), and suspends it. The loader scanned every table
 * for each device and every device for each required table (quadratic:
 * 25 s of CPU for 30,000 under ASan), the simulator's requirement list
 * every device for each requirement. */
static int devchain_board(const char *arg, const char *kind)
{
	unsigned long n = shape_size(kind, arg);
	if (!n)
		return 2;
	struct fdt_writer w = {0};
	char name[64];
	unsigned char hz[8] = {0, 0, 0, 0, 0, 0, 0x03, 0xe8}; /* 1000 */
	fdt_begin(&w, "");
	for (unsigned long k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "opp-table-%lu", k);
		fdt_begin(&w, name);
		fdt_prop(&w, "compatible", "operating-points-v2",
			 sizeof("operating-points-v2"));
		fdt_cell(&w, "phandle", (uint32_t)(2 * k + 10));
		fdt_begin(&w, "opp-1000");
		fdt_prop(&w, "opp-hz", hz, sizeof(hz));
		fdt_cell(&w, "phandle", (uint32_t)(2 * k + 11));
		if (k + 1 < n)
			fdt_cell(&w, "required-opps", (uint32_t)(2 * k + 13));
		fdt_u32(&w, 2);
		fdt_u32(&w, 2); /* FDT_END_NODE */
	}
	fdt_begin(&w, "pd");
	fdt_cell(&w, "#power-domain-cells", 0);
	fdt_cell(&w, "phandle", 1);
	fdt_u32(&w, 2);
	for (unsigned long k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "dev@%lu", k);
		fdt_begin(&w, name);
		fdt_cell(&w, "operating-points-v2", (uint32_t)(2 * k + 10));
		if (!k)
			fdt_cell(&w, "power-domains", 1);
		fdt_u32(&w, 2);
	}
	fdt_write_shape(&w, kind + 2, n);
	if (!strcmp(kind, "--devresume"))
		return devresume_scenario(n);
	static const char text[] = "@0 resume dev@0\n"
				   "rate dev@0 1000\n"
				   "expect dev@0 rate 1000\n"
				   "expect dev@1 rate 1000\n"
				   "+1ms suspend dev@0\n"
				   "expect pd off\n";
	snprintf(name, sizeof(name), "devchain-%lu.scn", n);
	write_file(name, text, sizeof(text) - 1);
	return 0;
}

/* Opens node @prefix@k (e.g. pd7), a zero-cell provider of phandle
 * @k + 1, a subdomain of phandle @parent unless 0; the caller ends it. */
static void fdt_open_pd(struct fdt_writer *w, const char *prefix,
			unsigned long k, uint32_t parent)
{
	char name[64];
	snprintf(name, sizeof(name), "%s%lu", prefix, k);
	fdt_begin(w, name);
	fdt_cell(w, "#power-domain-cells", 0);
	fdt_cell(w, "phandle", (uint32_t)k + 1);
	if (parent)
		fdt_cell(w, "power-domains", parent);
}

/* The root, then pd0..pd@n-1 closed, each but pd0 a subdomain of
 * phandle @parent unless 0. */
static void fdt_root_pds(struct fdt_writer *w, unsigned long n,
			 uint32_t parent)
{
	fdt_begin(w, "");
	for (unsigned long k = 0; k < n; k++) {
		fdt_open_pd(w, "pd", k, k ? parent : 0);
		fdt_u32(w, 2); /* FDT_END_NODE */
	}
}

/* fan-N.dtb: zero-cell providers pd1..pdN, each a subdomain of pd0 (one
 * parent of N children), and dev@0 on pdN. */
static int fan_board(const char *arg)
{
	unsigned long n = shape_size("--fan", arg);
	if (!n)
		return 2;
	struct fdt_writer w = {0};
	fdt_root_pds(&w, n + 1, 1);
	fdt_begin(&w, "dev@0");
	fdt_cell(&w, "power-domains", (uint32_t)n + 1);
	fdt_u32(&w, 2);
	fdt_write_shape(&w, "fan", n);
	return 0;
}

/* devdoms-N.dtb: N zero-cell providers pdK and one device, dev@0, in
 * all of them, each entry named by power-domain-names (nK), and
 * devdoms-N.scn (check_growth.sh) in which dev@0 votes 0 on each domain
 * by that name. Each was quadratic: the loader looked each name up from
 * the first and scanned the device's attachments for a repeat (11 s of
 * CPU for 40,000), dmn_attach scanned them too, the report scanned them
 * for each domain, the simulator for each `vote DEV NAME`. */
static int devdoms_board(const char *arg)
{
	unsigned long n = shape_size("--devdoms", arg);
	if (!n)
		return 2;
	struct fdt_writer w = {0};
	char name[64];
	fdt_root_pds(&w, n, 0);
	fdt_begin(&w, "dev@0");
	unsigned char *v = malloc(4 * n), *names = malloc(16 * n);
	if (!v || !names)
		return 1;
	size_t len = 0;
	for (unsigned long k = 0; k < n; k++) {
		put32(v, 4 * k, (uint32_t)k + 1);
		len += (size_t)snprintf((char *)names + len, 16, "n%lu", k) + 1;
	}
	fdt_prop(&w, "power-domains", v, 4 * n);
	fdt_prop(&w, "power-domain-names", names, len);
	free(v);
	free(names);
	fdt_u32(&w, 2);
	fdt_write_shape(&w, "devdoms", n);

	size_t cap = 64 + n * 32;
	char *text = malloc(cap);
	if (!text)
		return 1;
	len = (size_t)snprintf(text, cap, "@0 resume dev@0\n");
	for (unsigned long k = 0; k < n; k++)
		len += (size_t)snprintf(text + len, cap - len,
					"vote dev@0 n%lu 0\n", k);
	len += (size_t)snprintf(text + len, cap - len, "suspend dev@0\n");
	snprintf(name, sizeof(name), "devdoms-%lu.scn", n);
	write_file(name, text, len);
	free(text);
	return 0;
}

/* pnest-N.dtb: N zero-cell providers p0..pN-1 nested in one another,
 * each a subdomain (power-domains) of the one it is in, dev@0 on the
 * innermost: a chain N deep in the tree and in the domain graph. The
 * first 1,000 are labelled pK (__symbols__); the rest are named by
 * their paths, as docs/device-tree.md (Names) says, which makes names (and the
 * memory
 * that holds them) quadratic in N: a few thousand at most. */
static int pnest_board(const char *arg)
{
	unsigned long n = shape_size("--pnest", arg);
	if (!n)
		return 2;
	struct fdt_writer w = {0};
	char name[64];
	fdt_begin(&w, "");
	for (unsigned long k = 0; k < n; k++)
		fdt_open_pd(&w, "p", k, (uint32_t)k); /* left open */
	fdt_begin(&w, "dev@0");
	fdt_cell(&w, "power-domains", (uint32_t)n);
	fdt_u32(&w, 2);
	for (unsigned long k = 0; k < n; k++)
		fdt_u32(&w, 2);
	fdt_begin(&w, "__symbols__");
	size_t len = 0;
	char *path = malloc(16 * 1000);
	if (!path)
		return 1;
	for (unsigned long k = 0; k < n && k < 1000; k++) {
		len += (size_t)snprintf(path + len, 16, "/p%lu", k);
		snprintf(name, sizeof(name), "p%lu", k);
		fdt_prop_named(&w, name, 1, path, len + 1);
	}
	free(path);
	fdt_u32(&w, 2);
	fdt_write_shape(&w, "pnest", n);
	return 0;
}

/* An OPP table (phandle @table) of levels 1 and 2 (phandles @table + 1,
 * @table + 2). */
static void fdt_two_levels(struct fdt_writer *w, uint32_t table)
{
	fdt_begin(w, "opp-table");
	fdt_prop(w, "compatible", "operating-points-v2",
		 sizeof("operating-points-v2"));
	fdt_cell(w, "phandle", table);
	for (uint32_t k = 1; k <= 2; k++) {
		char name[16];
		snprintf(name, sizeof(name), "opp-%u", k);
		fdt_begin(w, name);
		fdt_cell(w, "opp-level", k);
		fdt_cell(w, "phandle", table + k);
		fdt_u32(w, 2);
	}
	fdt_u32(w, 2);
}

/* reqchain-N.dtb: a chain of N zero-cell providers pd0..pdN-1, each a
 * subdomain of the one before, pd0 with an OPP table of levels 1 and 2;
 * dev@0..dev@7 on pdN-1 require level 2 (device-level required-opps): the
 * required OPP matches no table of the device's own domain, so the second
 * pass of the matching rule (docs/semantics.md, Required OPPs) searches the N
 * - 1 ancestors
 * (once per ancestor; it scanned those found so far for each: quadratic). */
static int reqchain_board(const char *arg)
{
	unsigned long n = shape_size("--reqchain", arg);
	if (!n)
		return 2;
	uint32_t table = (uint32_t)n + 10;
	struct fdt_writer w = {0};
	fdt_begin(&w, "");
	fdt_two_levels(&w, table);
	for (unsigned long k = 0; k < n; k++) {
		fdt_open_pd(&w, "pd", k, (uint32_t)k);
		if (!k)
			fdt_cell(&w, "operating-points-v2", table);
		fdt_u32(&w, 2);
	}
	for (unsigned d = 0; d < 8; d++) {
		char name[16];
		snprintf(name, sizeof(name), "dev@%u", d);
		fdt_begin(&w, name);
		fdt_cell(&w, "power-domains", (uint32_t)n);
		fdt_cell(&w, "required-opps", table + 2);
		fdt_u32(&w, 2);
	}
	fdt_write_shape(&w, "reqchain", n);
	static const char scn[] = "@0 resume dev@0\nresume dev@3\n"
				  "@1ms suspend dev@0\nsuspend dev@3\n";
	char name[64];
	snprintf(name, sizeof(name), "reqchain-%lu.scn", n);
	write_file(name, scn, sizeof(scn) - 1);
	return 0;
}

/* reqwide-N.dtb: dev@0 in N domains of one one-cell provider with an OPP
 * table, and N required-opps into that table, one per domain (and
 * reqwide-N.scn, the device resumed and suspended): each domain took its
 * ref by a scan of all refs from the first (quadratic). */
static int reqwide_board(const char *arg)
{
	unsigned long n = shape_size("--reqwide", arg);
	if (!n)
		return 2;
	struct fdt_writer w = {0};
	fdt_begin(&w, "");
	fdt_two_levels(&w, 2);
	fdt_begin(&w, "pc");
	fdt_cell(&w, "#power-domain-cells", 1);
	fdt_cell(&w, "phandle", 1);
	fdt_cell(&w, "operating-points-v2", 2);
	fdt_u32(&w, 2);
	fdt_begin(&w, "dev@0");
	unsigned char *cells = malloc(n * 8);
	if (!cells)
		return 1;
	for (unsigned long k = 0; k < n; k++) {
		put32(cells, 8 * k, 1);
		put32(cells, 8 * k + 4, (uint32_t)k);
	}
	fdt_prop(&w, "power-domains", cells, n * 8);
	for (unsigned long k = 0; k < n; k++)
		put32(cells, 4 * k, 4);
	fdt_prop(&w, "required-opps", cells, n * 4);
	free(cells);
	fdt_u32(&w, 2);
	fdt_write_shape(&w, "reqwide", n);
	static const char scn[] = "@0 resume dev@0\n@1ms suspend dev@0\n";
	char name[64];
	snprintf(name, sizeof(name), "reqwide-%lu.scn", n);
	write_file(name, scn, sizeof(scn) - 1);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--levels")) {
		out_dir = argv[3];
		return levels_ramp(argv[2]);
	}
	if (argc == 4 && (!strcmp(argv[1], "--devchain") ||
			  !strcmp(argv[1], "--devresume"))) {
		out_dir = argv[3];
		return devchain_board(argv[2], argv[1]);
	}
	if (argc == 4 && !strcmp(argv[1], "--devdoms")) {
		out_dir = argv[3];
		return devdoms_board(argv[2]);
	}
	if (argc == 4 && !strcmp(argv[1], "--fan")) {
		out_dir = argv[3];
		return fan_board(argv[2]);
	}
	if (argc == 4 && !strcmp(argv[1], "--pnest")) {
		out_dir = argv[3];
		return pnest_board(argv[2]);
	}
	if (argc == 4 && !strcmp(argv[1], "--reqchain")) {
		out_dir = argv[3];
		return reqchain_board(argv[2]);
	}
	if (argc == 4 && !strcmp(argv[1], "--reqwide")) {
		out_dir = argv[3];
		return reqwide_board(argv[2]);
	}
	if (argc == 4 && !strcmp(argv[1], "--names")) {
		out_dir = argv[3];
		return names_board(argv[2]);
	}
	if (argc != 3) {
		fprintf(stderr, "usage: make_bad_inputs BASE.dtb OUTDIR\n"
				"       make_bad_inputs --levels N OUTDIR\n"
				"       make_bad_inputs --names N OUTDIR\n"
				"       make_bad_inputs --devchain N OUTDIR\n"
				"       make_bad_inputs --devresume N OUTDIR\n"
				"       make_bad_inputs --devdoms N OUTDIR\n"
				"       make_bad_inputs --fan N OUTDIR\n"
				"       make_bad_inputs --pnest N OUTDIR\n"
				"       make_bad_inputs --reqchain N OUTDIR\n"
				"       make_bad_inputs --reqwide N OUTDIR\n");
		return 2;
	}
	out_dir = argv[2];
	base = (unsigned char *)read_whole_file(argv[1], &base_len);
	if (!base) {
		perror(argv[1]);
		return 1;
	}
	if (base_len < HDR_SIZE || get32(base, HDR_MAGIC) != 0xd00dfeed) {
		fprintf(stderr, "%s: not a device tree blob\n", argv[1]);
		return 1;
	}
	blobs();
	scenarios();
	large();
	/* 200,000 levels: each entry's duplicate check scanned the entries
	 * before it (quadratic). */
	opp_table(200000, "opp-table-200000.dtb");
	scmi_escapes();
	duplicate_siblings();
	free(base);
	return 0;
}
