/* SPDX-License-Identifier: MIT */
/*
 * test_domain_names DIR... - the simulator's domain index answers as the
 * board's scan does. For every blob in each DIR that loads, every domain
 * is named each way dmn_dt_domain_find() accepts (its name, labels, its
 * node's path, node name with and without the unit address, a
 * provider's label or path with the index) and a little off each (one
 * byte more, one less); dmn__sim_find_domain (the index in
 * engine_names.c) must give the same index, or the same -EEXIST. Where
 * the board says -ENOENT the simulator may still read DEV:NAME, so only a
 * name without ':' must fail there too. A DIR that does not exist is
 * skipped (the real boards are optional).
 */
#include "sim/engine_internal.h"

#include "read_file.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long checked, wrong;

static void check(struct dmn_sim *sim, const char *board_file, const char *name)
{
	char why[DMN_SCN_DIAG_MESSAGE_MAX];
	int want = dmn_dt_domain_find(dmn_sim_board(sim), name);
	int got = dmn__sim_find_domain(sim, name, why, sizeof(why));
	checked++;
	int same = want == -ENOENT ? got < 0 || strchr(name, ':') : got == want;
	if (!same && wrong++ < 20)
		fprintf(stderr, "%s: '%s': board %d, simulator %d\n",
			board_file, name, want, got);
}

/* @name, then @name with one byte more and one less. */
static void check_near(struct dmn_sim *sim, const char *file, const char *name)
{
	size_t len = strlen(name);
	char *v = malloc(len + 2);
	if (!v)
		exit(1);
	check(sim, file, name);
	memcpy(v, name, len);
	memcpy(v + len, "x", 2);
	check(sim, file, v);
	if (len) {
		v[len - 1] = '\0';
		check(sim, file, v);
	}
	free(v);
}

static void check_indexed(struct dmn_sim *sim, const char *file,
			  const char *base, int64_t index)
{
	char name[4200];
	if (strlen(base) > 4096)
		return;
	if (index < 0)
		snprintf(name, sizeof(name), "%s", base);
	else
		snprintf(name, sizeof(name), "%s:%" PRId64, base, index);
	check_near(sim, file, name);
}

static void check_board(const char *file)
{
	size_t size;
	char *blob = read_whole_file(file, &size);
	struct dmn_sim *sim = NULL;
	/* a large board's scan per name is too slow (the generated shapes
	 * of 10,000 domains and more) */
	if (!blob || size > 128 * 1024 || dmn_sim_create(blob, size, NULL, &sim)) {
		free(blob);
		return;
	}
	const struct dmn_dt_board *b = dmn_sim_board(sim);
	char path[4200];
	for (unsigned i = 0; i < b->n_domains; i++) {
		const struct dmn_dt_domain *d = &b->domains[i];
		check_near(sim, file, d->name);
		for (unsigned k = 0; k < d->n_labels; k++)
			check_near(sim, file, d->labels[k]);
		if (dmn_dt_domain_path(b, i, path, sizeof(path)) < sizeof(path))
			check_near(sim, file, path);
		const char *node =
		    d->path_seg >= 0 ? b->path_segs[d->path_seg].name : "";
		check_near(sim, file, node);
		const char *at = strchr(node, '@');
		if (at) {
			snprintf(path, sizeof(path), "%.*s", (int)(at - node),
				 node);
			check_near(sim, file, path);
		}
		const struct dmn_dt_provider *p = &b->providers[d->provider];
		for (unsigned k = 0; k < p->n_labels; k++)
			check_indexed(sim, file, p->labels[k], d->index);
		if (dmn_dt_provider_path(b, (unsigned)d->provider, path,
				     sizeof(path)) < sizeof(path)) {
			check_indexed(sim, file, path, d->index);
			check_indexed(sim, file, path, d->index + 1);
		}
	}
	dmn_sim_free(sim);
	free(blob);
}

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		DIR *dir = opendir(argv[a]);
		if (!dir) /* no real boards here: the generated ones */
			continue;
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t len = strlen(e->d_name);
			if (len < 5 || strcmp(e->d_name + len - 4, ".dtb"))
				continue;
			char file[4096];
			snprintf(file, sizeof(file), "%s/%s", argv[a], e->d_name);
			check_board(file);
		}
		closedir(dir);
	}
	printf("%lu names checked, %lu answered otherwise\n", checked, wrong);
	return checked < 100 || wrong;
}
