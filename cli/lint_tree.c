/* SPDX-License-Identifier: MIT */
/*
 * domino lint --tree DIR: every board of a kernel tree (or a folder of
 * blobs) linted in parallel, its findings placed on source lines, folded
 * where boards share them, and a table per check.
 */
#define _XOPEN_SOURCE 700

#include "lint_out.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the boards ------------------------------------------------------------------- */

struct list {
	char **v;
	size_t n, cap;
};

static int list_add(struct list *l, char *s)
{
	if (!s)
		return -ENOMEM;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		char **bigger = realloc(l->v, cap * sizeof(*bigger));
		if (!bigger) {
			free(s);
			return -ENOMEM;
		}
		l->v = bigger;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	return 0;
}

static void list_free(struct list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && !strcmp(s + n - k, suffix);
}

/* @dir + '/' + @name; "." as @dir adds nothing. */
static char *path_join(const char *dir, const char *name)
{
	if (!strcmp(dir, "."))
		return strdup(name);
	size_t a = strlen(dir), b = strlen(name);
	int slash = a && dir[a - 1] != '/';
	char *s = malloc(a + slash + b + 1);
	if (!s)
		return NULL;
	memcpy(s, dir, a);
	if (slash)
		s[a] = '/';
	memcpy(s + a + slash, name, b + 1);
	return s;
}

/* Every file under @dir ending in @suffix (symbolic links to folders are
 * not followed: a kernel tree's include-prefixes would loop). */
static int walk(const char *dir, const char *suffix, struct list *out, unsigned depth)
{
	if (depth > 64)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	int err = 0;
	struct dirent *e;
	while (!err && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = path_join(dir, e->d_name);
		struct stat st;
		if (!p) {
			err = -ENOMEM;
		} else if (lstat(p, &st)) {
			free(p);
		} else if (S_ISDIR(st.st_mode)) {
			err = walk(p, suffix, out, depth + 1);
			free(p);
		} else if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
			   ends_with(e->d_name, suffix)) {
			err = list_add(out, p);
		} else {
			free(p);
		}
	}
	closedir(d);
	return err == -EACCES ? 0 : err;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The name a board is shown by: ARCH/VENDOR/BOARD under a kernel's
 * arch/ARCH/boot/dts/, else its path under DIR, without the extension. */
static char *board_name(const char *path, const char *dir)
{
	const char *p = strstr(path, "arch/");
	const char *dts = p ? strstr(p, "/boot/dts/") : NULL;
	char *name = NULL;
	if (dts && strchr(p + 5, '/') == dts) {
		size_t arch = (size_t)(dts - (p + 5));
		const char *rest = dts + strlen("/boot/dts/");
		name = malloc(arch + 1 + strlen(rest) + 1);
		if (name) {
			memcpy(name, p + 5, arch);
			name[arch] = '/';
			strcpy(name + arch + 1, rest);
		}
	} else {
		size_t n = strlen(dir);
		const char *rest = strcmp(dir, ".") && !strncmp(path, dir, n) && path[n] == '/'
					   ? path + n + 1 : path;
		name = strdup(rest);
	}
	if (name) {
		char *dot = strrchr(name, '.');
		char *slash = strrchr(name, '/');
		if (dot && (!slash || dot > slash))
			*dot = 0;
	}
	return name;
}

/* ---- linting one board ------------------------------------------------------------- */

struct tree {
	const struct cli_options *opt;
	struct cli_source_opts so;
	int sources;
	struct lint_board *boards;
	char **paths;
	size_t n;
	pthread_mutex_t lock;
	size_t next, done;
	int progress;
	struct timespec last_draw;
};

static char *read_blob(const char *path, size_t *size, char **why)
{
	char *data = NULL;
	FILE *f = fopen(path, "rb");
	if (!f) {
		*why = strdup(strerror(errno));
		return NULL;
	}
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			if (ncap > CLI_MAX_BLOB + (size_t)1)
				break;
			char *bigger = realloc(data, ncap);
			if (!bigger)
				break;
			data = bigger;
			cap = ncap;
		}
		size_t got = fread(data + len, 1, cap - len, f);
		if (!got)
			break;
		len += got;
	}
	int bad = ferror(f) || len == cap;
	fclose(f);
	if (bad) {
		*why = strdup(len == cap ? "too large, or out of memory" : "cannot read");
		free(data);
		return NULL;
	}
	*size = len;
	return data;
}

static void lint_board(struct tree *t, size_t i)
{
	struct lint_board *lb = &t->boards[i];
	const char *path = t->paths[i];
	char *msg = NULL;
	struct cli_built built;
	memset(&built, 0, sizeof(built));
	const void *blob = NULL;
	size_t size = 0;
	char *data = NULL;
	if (t->sources) {
		if (cli_source_build(&t->so, path, &built, &msg)) {
			lb->failed = msg ? msg : strdup("could not be built");
			return;
		}
		free(msg);
		msg = NULL;
		blob = built.blob;
		size = built.size;
	} else {
		char *why = NULL;
		blob = data = read_blob(path, &size, &why);
		if (!data) {
			size_t n = strlen(path) + (why ? strlen(why) : 0) + 32;
			lb->failed = malloc(n);
			if (lb->failed)
				snprintf(lb->failed, n, "%s: error: %s\n", path, why ? why : "");
			free(why);
			return;
		}
	}
	int err = cli_lint_blob(t->opt, blob, size, lb, NULL, NULL, lb->name);
	if (err) {
		const char *why = err == -EILSEQ && lb->n ? lb->v[0].message : dmn_strerror(err);
		size_t n = strlen(path) + strlen(why) + 32;
		lb->failed = malloc(n);
		if (lb->failed)
			snprintf(lb->failed, n, "%s: error: %s\n", path, why);
		lint_board_free_findings(lb);
	} else if (t->sources && lb->n) {
		struct cli_srcmap *map = NULL;
		if (!cli_source_map(&built, &map, &msg)) {
			lint_board_place(lb, map);
			cli_srcmap_free(map);
		} else {
			lb->failed = msg;
			msg = NULL;
		}
	}
	free(msg);
	free(data);
	cli_built_free(&built);
}

/* ---- the progress bar -------------------------------------------------------------- */

static void draw(struct tree *t, int last)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms = (now.tv_sec - t->last_draw.tv_sec) * 1000 +
		  (now.tv_nsec - t->last_draw.tv_nsec) / 1000000;
	if (!last && ms < 100)
		return;
	t->last_draw = now;
	if (last) {
		fputs("\r\033[K", stderr);
		return;
	}
	unsigned width = 40, fill = t->n ? (unsigned)(t->done * width / t->n) : width;
	char bar[41];
	memset(bar, '=', fill);
	memset(bar + fill, ' ', width - fill);
	bar[width] = 0;
	fprintf(stderr, "\r[%s] %zu/%zu boards", bar, t->done, t->n);
	fflush(stderr);
}

/* Ctrl-C: the boards being built see their cpp or dtc killed too; no new
 * board starts, every temporary folder is removed, and lint exits 130. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void *worker(void *arg)
{
	struct tree *t = arg;
	for (;;) {
		pthread_mutex_lock(&t->lock);
		size_t i = t->next < t->n && !interrupted ? t->next++ : t->n;
		pthread_mutex_unlock(&t->lock);
		if (i == t->n)
			return NULL;
		lint_board(t, i);
		pthread_mutex_lock(&t->lock);
		t->done++;
		if (t->progress)
			draw(t, 0);
		pthread_mutex_unlock(&t->lock);
	}
}

static unsigned default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 && n <= 1024 ? (unsigned)n : 1;
}

/* The boards of @dir: *@sources says whether they are .dts to build. */
static int find_boards(const char *dir, char **kernel, struct list *out, int *sources)
{
	*kernel = cli_find_kernel_tree(dir);
	*sources = *kernel != NULL;
	int err;
	if (*kernel) {
		/* the tree's root: its arm and arm64 boards; a folder inside
		 * it: the .dts there */
		char *real = realpath(dir, NULL);
		int root = real && !strcmp(real, *kernel);
		free(real);
		if (root) {
			static const char *const arches[] = {"arch/arm/boot/dts",
							     "arch/arm64/boot/dts"};
			err = 0;
			for (unsigned a = 0; !err && a < 2; a++) {
				char *p = path_join(dir, arches[a]);
				err = p ? walk(p, ".dts", out, 0) : -ENOMEM;
				free(p);
				if (err == -ENOENT)
					err = 0;
			}
		} else {
			err = walk(dir, ".dts", out, 0);
		}
	} else {
		err = walk(dir, ".dtb", out, 0);
		if (!err && !out->n) {
			err = walk(dir, ".dts", out, 0);
			*sources = 1;
		}
	}
	if (!err)
		qsort(out->v, out->n, sizeof(*out->v), cmp_name);
	return err;
}

int cli_lint_tree(const struct cli_options *opt)
{
	struct stat st;
	if (stat(opt->tree, &st) || !S_ISDIR(st.st_mode)) {
		cli_path_msg(opt->tree, ": error: %s\n",
			     errno && !S_ISDIR(st.st_mode) ? "not a folder" : strerror(errno));
		return EXIT_INPUT;
	}
	char *kernel = NULL;
	struct list boards = {NULL, 0, 0};
	struct tree t;
	memset(&t, 0, sizeof(t));
	int err = find_boards(opt->tree, &kernel, &boards, &t.sources);
	if (opt->kernel_tree) {
		free(kernel);
		kernel = strdup(opt->kernel_tree);
		t.sources = 1;
	}
	if (err) {
		cli_path_msg(opt->tree, ": error: cannot list the boards: %s\n", strerror(-err));
		list_free(&boards);
		free(kernel);
		return EXIT_INPUT;
	}
	if (!boards.n) {
		cli_path_msg(opt->tree, ": error: no board (.dts in a kernel tree, else .dtb or .dts) under it\n");
		list_free(&boards);
		free(kernel);
		return EXIT_INPUT;
	}
	t.opt = opt;
	t.so.include_dirs = opt->include_dirs;
	t.so.n_include_dirs = opt->n_include_dirs;
	t.so.kernel_tree = kernel;
	t.paths = boards.v;
	t.n = boards.n;
	t.boards = calloc(boards.n, sizeof(*t.boards));
	int rc = EXIT_INPUT;
	if (!t.boards) {
		fprintf(stderr, "domino lint: error: %s\n", strerror(ENOMEM));
		goto out;
	}
	for (size_t i = 0; i < t.n; i++) {
		t.boards[i].file = t.paths[i];
		t.boards[i].name = board_name(t.paths[i], opt->tree);
		if (!t.boards[i].name) {
			fprintf(stderr, "domino lint: error: %s\n", strerror(ENOMEM));
			goto out;
		}
	}
	pthread_mutex_init(&t.lock, NULL);
	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	t.progress = isatty(STDERR_FILENO);
	unsigned jobs = opt->jobs ? opt->jobs : default_jobs();
	if (jobs > t.n)
		jobs = (unsigned)t.n;
	pthread_t *threads = calloc(jobs, sizeof(*threads));
	unsigned started = 0;
	for (; threads && started < jobs; started++)
		if (pthread_create(&threads[started], NULL, worker, &t))
			break;
	if (!started)
		worker(&t); /* no thread: lint them here */
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	if (t.progress)
		draw(&t, 1);
	pthread_mutex_destroy(&t.lock);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (interrupted) {
		fprintf(stderr, "domino lint: interrupted after %zu of %zu boards\n", t.done, t.n);
		rc = 130;
		goto out;
	}
	/* what could not be linted, on stderr, in board order */
	for (size_t i = 0; i < t.n; i++)
		if (t.boards[i].failed)
			cli_text_lines(stderr, t.boards[i].failed);
	int color = opt->format == LINT_GCC && cli_use_color(stdout);
	rc = lint_write_tree((enum lint_format)opt->format, t.boards, t.n, color);
out:
	for (size_t i = 0; t.boards && i < t.n; i++) {
		free((char *)t.boards[i].name);
		lint_board_free(&t.boards[i]);
	}
	free(t.boards);
	list_free(&boards);
	free(kernel);
	return rc;
}
