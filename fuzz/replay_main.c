/* SPDX-License-Identifier: MIT */
/*
 * replay_main - runs a libFuzzer target's LLVMFuzzerTestOneInput on files,
 * without libFuzzer, so every build (gcc, ASan, TSan, valgrind) replays the
 * committed corpora under ctest: a harness or library change that breaks an
 * input found before fails the ordinary test run, not only a fuzzing run.
 *
 * Usage: replay FILE|DIR...   (a directory means every regular file in it)
 * Exits 0 when every input ran; a broken promise traps inside the harness.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "read_file.h" /* tests/util */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	size_t len;
	char *buf = read_whole_file(path, &len);
	if (!buf) {
		perror(path);
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	free(buf);
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays a directory's files in name order, so a failure reproduces. */
static int replay_dir(const char *dir, unsigned *count)
{
	DIR *d = opendir(dir);
	if (!d) {
		perror(dir);
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **grown = realloc(names, cap * sizeof(*names));
			if (!grown) {
				rc = -1;
				break;
			}
			names = grown;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		if (!names[n]) {
			rc = -1;
			break;
		}
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (rc == 0)
		qsort(names, n, sizeof(*names), compare_names);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			rc = replay_file(names[i]);
			++*count;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		int rc = S_ISDIR(st.st_mode) ? replay_dir(argv[i], &count)
					      : (count++, replay_file(argv[i]));
		if (rc)
			return 1;
	}
	printf("replayed %u inputs\n", count);
	return 0;
}
