/* SPDX-License-Identifier: MIT */
/*
 * Device tree source: building a .dts into a blob with cpp and dtc, as
 * Linux's dtbs rule does, and mapping a node path and property back to the
 * source line that wrote it (dtc's -T -T annotations).
 */
#ifndef DOMINO_CLI_SOURCE_H
#define DOMINO_CLI_SOURCE_H

#include <stddef.h>

/* ---- where a property is written ------------------------------------------ */

/* A place in a source file: @file is NULL when unknown. Columns count from
 * 1, a tab as one (dtc's and GCC's byte columns). */
struct cli_loc {
	const char *file;
	unsigned line, col;
};

struct cli_srcmap;

/*
 * Parse dtc's annotated output (`dtc -O dts -T -T`) held in @text, @len
 * bytes (taken over: freed with the map, edited in place). File names are
 * rewritten by @rename (may be NULL) before they are kept: e.g. to give a
 * path under a kernel tree instead of one through its include-prefixes
 * links. Returns 0 and *@out, or -ENOMEM (then @text is freed too).
 */
int cli_srcmap_parse(char *text, size_t len,
		     char *(*rename)(void *user, const char *file), void *user,
		     struct cli_srcmap **out);
void cli_srcmap_free(struct cli_srcmap *map);

/*
 * Where node @path's @property (NULL: the node itself) is written: *@at
 * the line that won (for a node, the first place that defines it), and
 * *@first the line that set the property first when a later fragment
 * overrode it (a .dts over its .dtsi), else file NULL. Returns 0, or
 * -ENOENT when the map has no such node, or for the root without a
 * property (the board as a whole), both file NULL. A property the node
 * lacks gives the node's place.
 */
int cli_srcmap_find(struct cli_srcmap *map, const char *path,
		    const char *property, struct cli_loc *at,
		    struct cli_loc *first);

/* ---- building a .dts ------------------------------------------------------- */

/* How sources are built: the -I folders (cpp -I and dtc -i), and the kernel
 * tree whose include paths Linux's dtbs rule uses (NULL: none; found by
 * walking up from the file when @find_kernel). */
struct cli_source_opts {
	const char *const *include_dirs;
	unsigned n_include_dirs;
	const char *kernel_tree;
	int find_kernel;
};

/* A built source: the blob, and what a later annotation pass needs. */
struct cli_built {
	char *blob;
	size_t size;
	char *dir;        /* private: the temporary folder, removed on free */
	char *kernel;     /* the kernel tree used, or NULL */
	const struct cli_source_opts *opts;
	const char *path; /* the .dts, as given */
};

/* Is @path a source to build (named .dts or .dtsi)? */
int cli_is_source_name(const char *path);

/* The kernel tree holding @path: @path itself when it is one, else the
 * nearest folder above it with scripts/dtc/include-prefixes and arch/
 * (resolved, malloc'ed), or NULL. */
char *cli_find_kernel_tree(const char *path);

/*
 * Build @path: cpp, then dtc into a blob. On failure *@msg receives what
 * to print (malloc'ed, lines ending in '\n': cpp's and dtc's own messages,
 * dtc's in GCC form FILE:LINE:COL: error: ...), and EXIT_INPUT is
 * returned; 0 on success. Safe to call from several threads.
 */
int cli_source_build(const struct cli_source_opts *opts, const char *path,
		     struct cli_built *out, char **msg);
/* The source map of a built board (runs dtc -T -T; file names under the
 * kernel tree are given as @path reaches them). 0, or EXIT_INPUT and
 * *@msg as above. */
int cli_source_map(struct cli_built *b, struct cli_srcmap **out, char **msg);
void cli_built_free(struct cli_built *b);

#endif /* DOMINO_CLI_SOURCE_H */
