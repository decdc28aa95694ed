/* SPDX-License-Identifier: MIT */
/*
 * gen_shape SHAPE N OUT.dtb - write a generated board (bench/shape_blob.h):
 * a chain, reversed chain, flat or nested set of N power domains. Used by
 * the bad-input and CLI tests and by fuzz/run.sh for its seeds.
 */
#include "shape_blob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char *end = NULL;
	unsigned long n = argc == 4 ? strtoul(argv[2], &end, 10) : 0;
	unsigned char *blob;
	size_t size;
	if (argc != 4 || !end || *end || n > 10000000 ||
	    shape_blob(argv[1], (unsigned)n, &blob, &size)) {
		fprintf(stderr, "usage: gen_shape chain|rchain|flat|nest|bus N OUT.dtb (N: 1..10000000)\n");
		return 2;
	}
	FILE *f = fopen(argv[3], "wb");
	int bad = !f || fwrite(blob, 1, size, f) != size;
	if (f && fclose(f))
		bad = 1;
	free(blob);
	if (bad) {
		perror(argv[3]);
		return 1;
	}
	return 0;
}
