/* SPDX-License-Identifier: MIT */
/*
 * The one whole-file reader of the tests, the benchmarks and the fuzz
 * replay driver (the domino command keeps its own, bounded reader in
 * cli/cli_util.c: it reads stdin and endless inputs by a blob's header).
 */
#ifndef DOMINO_TESTS_READ_FILE_H
#define DOMINO_TESTS_READ_FILE_H

#include <stddef.h>

/* Read all of @path (a regular file, a pipe or a device) into a malloc'ed
 * buffer with a NUL after its last byte, its length in *@size. Returns the
 * buffer, or NULL with errno set (cannot open, read error, out of memory);
 * an empty file gives a buffer holding only the NUL. */
char *read_whole_file(const char *path, size_t *size);

#endif
