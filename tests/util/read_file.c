/* SPDX-License-Identifier: MIT */
#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

char *read_whole_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	/* A regular file is read in one go (one byte spare, so that the
	 * first read stops short and says it reached the end); a pipe or a
	 * device has no size to ask for, so the buffer grows as it fills. */
	size_t cap = 4096, len = 0;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && (uintmax_t)st.st_size < SIZE_MAX / 2)
		cap = (size_t)st.st_size + 1;
	int err = ENOMEM;
	char *buf = malloc(cap + 1);
	errno = 0;
	while (buf) {
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
		char *grown = realloc(buf, cap * 2 + 1);
		if (!grown) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = grown;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
		err = errno ? errno : EIO;
	}
	fclose(f);
	if (!buf) {
		errno = err;
		return NULL;
	}
	buf[len] = 0;
	*size = len;
	return buf;
}
