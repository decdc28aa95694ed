/* SPDX-License-Identifier: MIT */
/*
 * Building a .dts as Linux's dtbs rule does (scripts/Makefile.dtbs in 6.12):
 *
 *   cpp -nostdinc -I KERNEL/scripts/dtc/include-prefixes -undef -D__DTS__
 *       -x assembler-with-cpp -o PP BOARD.dts
 *   dtc -o BOARD.dtb -b 0 -i DIR-OF-BOARD -i KERNEL/scripts/dtc/include-prefixes
 *       -@ PP
 *
 * with each -I DIR given to both (cpp -I, dtc -i), and `dtc -O dts -T -T`
 * on the same preprocessed text for the source map. dtc's -@ (labels in
 * /__symbols__, which name domains) is always given, as the corpus builds
 * its blobs. cpp and dtc are found on PATH, or named by $CPP and $DTC (a
 * program and its first arguments); a kernel tree's own scripts/dtc/dtc,
 * when built, is preferred to the one on PATH, as the kernel's rule uses it.
 */
#define _XOPEN_SOURCE 700

#include "cli.h"
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int cli_is_source_name(const char *path)
{
	size_t n = strlen(path);
	return (n > 4 && !strcmp(path + n - 4, ".dts")) ||
	       (n > 5 && !strcmp(path + n - 5, ".dtsi"));
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);
	if (!s)
		return NULL;
	memcpy(s, a, la);
	s[la] = '/';
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

static int is_kernel_tree(const char *dir)
{
	char *a = join(dir, "scripts/dtc/include-prefixes");
	char *b = join(dir, "arch");
	int yes = a && b && is_dir(a) && is_dir(b);
	free(a);
	free(b);
	return yes;
}

char *cli_find_kernel_tree(const char *path)
{
	char *dir = realpath(path, NULL);
	if (!dir)
		return NULL;
	if (is_dir(dir) && is_kernel_tree(dir))
		return dir;
	for (;;) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			break;
		if (slash == dir) {
			slash[1] = 0;
			if (is_kernel_tree(dir))
				return dir;
			break;
		}
		*slash = 0;
		if (is_kernel_tree(dir))
			return dir;
	}
	free(dir);
	return NULL;
}

/* ---- messages ------------------------------------------------------------ */

/* Append printf output to the malloc'ed *@msg. */
static void msg_add(char **msg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void msg_add(char **msg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t old = *msg ? strlen(*msg) : 0;
	char *bigger = realloc(*msg, old + (size_t)n + 1);
	if (!bigger)
		return;
	va_start(ap, fmt);
	vsnprintf(bigger + old, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*msg = bigger;
}

/* Read a whole file into a malloc'ed buffer (NUL-terminated). */
static int slurp(const char *path, char **data, size_t *size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int err = 0;
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *bigger = realloc(buf, ncap + 1);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			buf = bigger;
			cap = ncap;
		}
		ssize_t got = read(fd, buf + len, cap - len);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (!got)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	buf[len] = 0;
	*data = buf;
	*size = len;
	return 0;
}

/*
 * dtc's errors ("Error: FILE:LINE.COL-... MESSAGE", "FILE:LINE.COL-...:
 * ERROR (check): MESSAGE") in the GCC form editors read: FILE:LINE:COL:
 * error: MESSAGE; other lines as they are, after "dtc: ".
 */
static void add_dtc_output(char **msg, const char *text)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *p = line;
		const char *kind = "error";
		if (len > 7 && !strncmp(p, "Error: ", 7))
			p += 7;
		else if (len > 9 && !strncmp(p, "Warning: ", 9))
			p += 9, kind = "warning";
		/* FILE:LINE.COL */
		const char *colon = NULL;
		for (const char *q = p; q < line + len; q++)
			if (*q == ':' && q[1] >= '0' && q[1] <= '9') {
				colon = q;
				break;
			}
		unsigned l = 0, c = 0;
		const char *q = colon ? colon + 1 : NULL;
		if (q) {
			while (*q >= '0' && *q <= '9')
				l = l * 10 + (unsigned)(*q++ - '0');
			if (*q == '.') {
				q++;
				while (*q >= '0' && *q <= '9')
					c = c * 10 + (unsigned)(*q++ - '0');
			}
			/* the rest of the place: -COL or -LINE.COL */
			if (*q == '-')
				for (q++; (*q >= '0' && *q <= '9') || *q == '.'; q++)
					;
		}
		if (colon && l && c && (*q == ' ' || *q == ':') && q < line + len) {
			const char *rest = q + (*q == ':' ? 1 : 0);
			while (*rest == ' ')
				rest++;
			const char *what = rest;
			/* "ERROR (check): " / "Warning (check): " */
			if (!strncmp(what, "ERROR ", 6))
				what += 6;
			msg_add(msg, "%.*s:%u:%u: %s: %.*s\n", (int)(colon - p), p, l, c,
				kind, (int)(line + len - what), what);
		} else if (len) {
			msg_add(msg, "dtc: %.*s\n", (int)len, line);
		}
		line = nl ? nl + 1 : line + len;
	}
}

/* ---- running a program --------------------------------------------------------- */

/* @name's path on $PATH (malloc'ed), or NULL. A name with '/' is itself. */
static char *find_program(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? strdup(name) : NULL;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	for (const char *p = path;;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char dir[PATH_MAX];
		if (n < sizeof(dir)) {
			memcpy(dir, n ? p : ".", n ? n : 1);
			dir[n ? n : 1] = 0;
			char *full = join(dir, name);
			struct stat st;
			if (full && access(full, X_OK) == 0 && stat(full, &st) == 0 &&
			    S_ISREG(st.st_mode))
				return full;
			free(full);
		}
		if (!colon)
			return NULL;
		p = colon + 1;
	}
}

/* A command line being built. */
struct argv_buf {
	char *v[128];
	unsigned n;
	char *owned[8]; /* freed with it */
	unsigned n_owned;
};

static void arg(struct argv_buf *a, const char *s)
{
	if (a->n + 1 < sizeof(a->v) / sizeof(a->v[0]))
		a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
}

static void argv_free(struct argv_buf *a)
{
	for (unsigned i = 0; i < a->n_owned; i++)
		free(a->owned[i]);
	a->n_owned = 0;
}

/*
 * The program of a tool: $VAR split at blanks (a program and arguments),
 * else @kernel_path when executable, else @name on PATH. Fills @a's first
 * words; 0, or -ENOENT with *@msg saying what is missing.
 */
static int tool(struct argv_buf *a, const char *var, const char *name,
		const char *kernel_path, const char *board, char **msg)
{
	const char *env = getenv(var);
	char *prog = NULL;
	if (env && *env) {
		char *copy = strdup(env);
		if (!copy)
			return -ENOMEM;
		a->owned[a->n_owned++] = copy;
		char *save = NULL, *w = strtok_r(copy, " \t", &save);
		if (w && (prog = find_program(w))) {
			a->owned[a->n_owned++] = prog;
			arg(a, prog);
			while ((w = strtok_r(NULL, " \t", &save)))
				arg(a, w);
			return 0;
		}
		msg_add(msg, "%s: error: cannot run %s '%s' ($%s): not found or not executable\n",
			board, name, w ? w : "", var);
		return -ENOENT;
	}
	if (kernel_path && access(kernel_path, X_OK) == 0)
		prog = strdup(kernel_path);
	else
		prog = find_program(name);
	if (!prog) {
		msg_add(msg, "%s: error: cannot run %s: not found on PATH (install %s, or name it in $%s)\n",
			board, name, !strcmp(name, "cpp") ? "cpp (gcc)" : "dtc (device-tree-compiler)",
			var);
		return -ENOENT;
	}
	a->owned[a->n_owned++] = prog;
	arg(a, prog);
	return 0;
}

/* Run @a with stdin from /dev/null, stdout to @out (NULL: /dev/null) and
 * stderr to @err; its exit status, or -errno when it could not start. */
static int run(struct argv_buf *a, const char *out, const char *err)
{
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* only async-signal-safe calls: the parent may have threads */
		int in = open("/dev/null", O_RDONLY);
		int o = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (in < 0 || o < 0 || e < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 ||
		    dup2(e, 2) < 0)
			_exit(127);
		execv(a->v[0], a->v);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static char *tmp_path(const struct cli_built *b, const char *name)
{
	return join(b->dir, name);
}

/* The tool's stderr into *@msg (dtc's converted); then a last line. */
static void report_failure(const struct cli_built *b, const char *what,
			   const char *errfile, int status, char **msg)
{
	char *text = NULL;
	size_t len;
	if (!slurp(errfile, &text, &len)) {
		if (!strcmp(what, "dtc"))
			add_dtc_output(msg, text);
		else
			msg_add(msg, "%s%s", text,
				len && text[len - 1] != '\n' ? "\n" : "");
		free(text);
	}
	if (status == 127)
		msg_add(msg, "%s: error: %s could not be started\n", b->path, what);
	else
		msg_add(msg, "%s: error: %s failed (exit status %d): the board was not built\n",
			b->path, what, status);
}

/* The -I folders of @b, each with @flag (cpp "-I", dtc "-i"). */
static void include_args(struct argv_buf *a, const struct cli_built *b,
			 const char *flag, char *prefixes)
{
	for (unsigned i = 0; i < b->opts->n_include_dirs; i++) {
		arg(a, flag);
		arg(a, b->opts->include_dirs[i]);
	}
	if (prefixes) {
		arg(a, flag);
		arg(a, prefixes);
	}
}

static char *kernel_file(const struct cli_built *b, const char *rel)
{
	return b->kernel ? join(b->kernel, rel) : NULL;
}

/* dtc on the preprocessed text: to a blob, or annotated source. */
static int run_dtc(struct cli_built *b, int annotate, const char *out, char **msg)
{
	struct argv_buf a = {.n = 0};
	char *kdtc = kernel_file(b, "scripts/dtc/dtc");
	int r = tool(&a, "DTC", "dtc", kdtc, b->path, msg);
	free(kdtc);
	if (r) {
		argv_free(&a);
		return EXIT_INPUT;
	}
	char *dir = strdup(b->path);
	char *prefixes = kernel_file(b, "scripts/dtc/include-prefixes");
	char *pp = tmp_path(b, "pp.dts"), *errf = tmp_path(b, "dtc.err");
	int rc = EXIT_INPUT;
	if (dir && pp && errf && (!b->kernel || prefixes)) {
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = 0;
		arg(&a, "-q");
		arg(&a, "-@");
		arg(&a, "-b");
		arg(&a, "0");
		arg(&a, "-i");
		arg(&a, slash ? dir : ".");
		include_args(&a, b, "-i", prefixes);
		arg(&a, "-I");
		arg(&a, "dts");
		arg(&a, "-O");
		arg(&a, annotate ? "dts" : "dtb");
		if (annotate) {
			arg(&a, "-T");
			arg(&a, "-T");
		}
		arg(&a, "-o");
		arg(&a, out);
		arg(&a, pp);
		unlink(errf);
		int st = run(&a, NULL, errf);
		if (st < 0)
			msg_add(msg, "%s: error: cannot run dtc: %s\n", b->path, strerror(-st));
		else if (st)
			report_failure(b, "dtc", errf, st, msg);
		else
			rc = 0;
	} else {
		msg_add(msg, "%s: error: %s\n", b->path, strerror(ENOMEM));
	}
	unlink(errf);
	free(dir);
	free(prefixes);
	free(pp);
	free(errf);
	argv_free(&a);
	return rc;
}

int cli_source_build(const struct cli_source_opts *opts, const char *path,
		     struct cli_built *out, char **msg)
{
	memset(out, 0, sizeof(*out));
	out->opts = opts;
	out->path = path;
	*msg = NULL;
	if (access(path, R_OK) != 0) {
		msg_add(msg, "%s: error: cannot open: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	if (opts->kernel_tree) {
		if (!is_kernel_tree(opts->kernel_tree)) {
			msg_add(msg, "%s: error: not a kernel tree (no scripts/dtc/include-prefixes and arch/)\n",
				opts->kernel_tree);
			return EXIT_INPUT;
		}
		out->kernel = strdup(opts->kernel_tree);
		if (!out->kernel) {
			msg_add(msg, "%s: error: %s\n", path, strerror(ENOMEM));
			return EXIT_INPUT;
		}
	} else if (opts->find_kernel) {
		out->kernel = cli_find_kernel_tree(path);
	}
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl = join(tmpdir && *tmpdir ? tmpdir : "/tmp", "domino-dts.XXXXXX");
	if (!tmpl || !mkdtemp(tmpl)) {
		msg_add(msg, "%s: error: cannot create a temporary folder: %s\n", path,
			strerror(tmpl ? errno : ENOMEM));
		free(tmpl);
		cli_built_free(out);
		return EXIT_INPUT;
	}
	out->dir = tmpl;

	/* cpp */
	struct argv_buf a = {.n = 0};
	int rc = EXIT_INPUT;
	char *pp = tmp_path(out, "pp.dts"), *errf = tmp_path(out, "cpp.err");
	char *dtb = tmp_path(out, "board.dtb");
	char *prefixes = kernel_file(out, "scripts/dtc/include-prefixes");
	if (!pp || !errf || !dtb || (out->kernel && !prefixes)) {
		msg_add(msg, "%s: error: %s\n", path, strerror(ENOMEM));
	} else if (!tool(&a, "CPP", "cpp", NULL, path, msg)) {
		arg(&a, "-nostdinc");
		include_args(&a, out, "-I", prefixes);
		arg(&a, "-undef");
		arg(&a, "-D__DTS__");
		arg(&a, "-x");
		arg(&a, "assembler-with-cpp");
		arg(&a, "-o");
		arg(&a, pp);
		arg(&a, path);
		int st = run(&a, NULL, errf);
		if (st < 0)
			msg_add(msg, "%s: error: cannot run cpp: %s\n", path, strerror(-st));
		else if (st)
			report_failure(out, "cpp", errf, st, msg);
		else
			rc = run_dtc(out, 0, dtb, msg);
	}
	argv_free(&a);
	if (!rc) {
		int err = slurp(dtb, &out->blob, &out->size);
		if (err) {
			msg_add(msg, "%s: error: cannot read dtc's blob: %s\n", path,
				strerror(-err));
			rc = EXIT_INPUT;
		}
	}
	if (errf)
		unlink(errf);
	if (dtb)
		unlink(dtb);
	free(pp);
	free(errf);
	free(dtb);
	free(prefixes);
	if (rc)
		cli_built_free(out);
	return rc;
}

/* A file dtc named, as printed: under the kernel tree, the path through
 * the folder the board was given in (not through include-prefixes links). */
struct renamer {
	const struct cli_built *b;
	char *kernel_real; /* realpath of the kernel tree */
	size_t kernel_len;
	const char *shown; /* the kernel tree as the user reaches it */
};

static char *rename_file(void *user, const char *file)
{
	struct renamer *r = user;
	if (!r->kernel_real)
		return NULL;
	char *real = realpath(file, NULL);
	if (!real)
		return NULL;
	char *name = NULL;
	if (!strncmp(real, r->kernel_real, r->kernel_len) && real[r->kernel_len] == '/') {
		const char *rel = real + r->kernel_len + 1;
		name = strcmp(r->shown, ".") ? join(r->shown, rel) : strdup(rel);
	}
	free(real);
	return name;
}

/* @real (an absolute, resolved path) as reached from the current folder:
 * "." for it, "../.." above it, "sub/dir" below it, else @real. */
static char *path_from_cwd(const char *real)
{
	char *cwd = getcwd(NULL, 0);
	char *rcwd = cwd ? realpath(cwd, NULL) : NULL;
	free(cwd);
	if (!rcwd)
		return strdup(real);
	size_t lr = strlen(real), lc = strlen(rcwd);
	char *out = NULL;
	if (!strcmp(rcwd, real)) {
		out = strdup(".");
	} else if (lc > lr && !strncmp(rcwd, real, lr) && (rcwd[lr] == '/' || lr == 1)) {
		/* the current folder is inside: one ".." per component */
		unsigned up = 0;
		for (const char *p = rcwd + (lr == 1 ? 0 : lr); *p; p++)
			up += *p == '/';
		out = malloc(3 * up + 1);
		if (out) {
			for (unsigned i = 0; i < up; i++)
				memcpy(out + 3 * i, "../", 3);
			out[3 * up - 1] = 0;
		}
	} else if (lr > lc && !strncmp(real, rcwd, lc) && (real[lc] == '/' || lc == 1)) {
		out = strdup(real + lc + (lc == 1 ? 0 : 1));
	} else {
		out = strdup(real);
	}
	free(rcwd);
	return out;
}

int cli_source_map(struct cli_built *b, struct cli_srcmap **out, char **msg)
{
	*out = NULL;
	*msg = NULL;
	char *ann = tmp_path(b, "annotated.dts");
	if (!ann) {
		msg_add(msg, "%s: error: %s\n", b->path, strerror(ENOMEM));
		return EXIT_INPUT;
	}
	int rc = run_dtc(b, 1, ann, msg);
	char *text = NULL;
	size_t len = 0;
	if (!rc) {
		int err = slurp(ann, &text, &len);
		if (err) {
			msg_add(msg, "%s: error: cannot read dtc's output: %s\n", b->path,
				strerror(-err));
			rc = EXIT_INPUT;
		}
	}
	unlink(ann);
	free(ann);
	if (rc)
		return rc;
	struct renamer r = {b, NULL, 0, NULL};
	char *shown = NULL;
	if (b->kernel) {
		r.kernel_real = realpath(b->kernel, NULL);
		r.kernel_len = r.kernel_real ? strlen(r.kernel_real) : 0;
		r.shown = shown = r.kernel_real ? path_from_cwd(r.kernel_real) : NULL;
		if (!r.shown) {
			free(r.kernel_real);
			r.kernel_real = NULL;
		}
	}
	int err = cli_srcmap_parse(text, len, rename_file, &r, out);
	free(r.kernel_real);
	free(shown);
	if (err) {
		msg_add(msg, "%s: error: cannot read dtc's annotations: %s\n", b->path,
			strerror(-err));
		return EXIT_INPUT;
	}
	return 0;
}

void cli_built_free(struct cli_built *b)
{
	if (b->dir) {
		static const char *const names[] = {"pp.dts", "cpp.err", "dtc.err",
						    "board.dtb", "annotated.dts"};
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			char *p = tmp_path(b, names[i]);
			if (p)
				unlink(p);
			free(p);
		}
		rmdir(b->dir);
	}
	free(b->dir);
	free(b->blob);
	free(b->kernel);
	memset(b, 0, sizeof(*b));
}
