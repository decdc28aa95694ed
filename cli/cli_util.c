/* SPDX-License-Identifier: MIT */
/* realpath() */
#define _XOPEN_SOURCE 700

#include "cli.h"

#include "domino_demo_board.h"

#include <domino/sim.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first failure writing standard output, as an errno; 0 if none. */
static int stdout_errno;

static void stdout_failed(int err)
{
	if (!stdout_errno)
		stdout_errno = err ? err : EIO;
}

void cli_stdio_init(void)
{
	/* A closed descriptor would be reused by the next open(): a board
	 * read on fd 1, or worse a --trace file written as standard output.
	 * Park /dev/null there (read-only for stdout, so its writes fail
	 * and the failure is reported). */
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (fd == STDOUT_FILENO)
			stdout_failed(EBADF);
		int got = open("/dev/null", fd == STDERR_FILENO ? O_WRONLY : O_RDONLY);
		if (got >= 0 && got != fd) {
			dup2(got, fd);
			close(got);
		}
	}
}

void cli_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	errno = 0;
	if (vfprintf(stdout, fmt, ap) < 0)
		stdout_failed(errno);
	va_end(ap);
}

void cli_puts(const char *s)
{
	errno = 0;
	if (fputs(s, stdout) == EOF)
		stdout_failed(errno);
}

void cli_text(FILE *f, const char *s)
{
	struct rpt_sink sink = cli_file_sink(f);
	rpt_text_escape(&sink, s);
}

int cli_stdout_error(void)
{
	return stdout_errno;
}

int cli_finish(int rc)
{
	errno = 0;
	if (fflush(stdout) == EOF)
		stdout_failed(errno);
	if (ferror(stdout))
		stdout_failed(EIO);
	if (!stdout_errno)
		return rc;
	fprintf(stderr, "domino: error: cannot write standard output: %s\n",
		strerror(stdout_errno));
	return EXIT_INPUT;
}

static const struct {
	const char *name;
	char letter;
	int takes_value;
} option_table[] = {
	{"--json", 'j', 0},
	{"--trace", 't', 1},
	{"--svg", 's', 1},
	{"--supported-hw", 'h', 1},
	{"--explain", 'e', 1},
};

/* --supported-hw values: as many as the text has (at most one per two
 * characters), in storage that lives until exit. */
static uint32_t *hw_values;
static unsigned hw_values_cap;

static void hw_values_free(void)
{
	free(hw_values);
	hw_values = NULL;
}

static int hw_values_room(const char *text)
{
	size_t need = strlen(text) / 2 + 1;
	if (need <= hw_values_cap)
		return 1;
	if (need > UINT_MAX / sizeof(uint32_t))
		return 0;
	uint32_t *bigger = realloc(hw_values, need * sizeof(uint32_t));
	if (!bigger)
		return 0;
	if (!hw_values)
		atexit(hw_values_free);
	hw_values = bigger;
	hw_values_cap = (unsigned)need;
	return 1;
}

int cli_parse_supported_hw(const char *cmd, const char *value,
			   struct cli_options *opt)
{
	opt->n_supported_hw = -EINVAL;
	if (hw_values_room(value))
		opt->n_supported_hw =
		    dt_parse_supported_hw(value, hw_values, hw_values_cap);
	opt->supported_hw = hw_values;
	if (opt->n_supported_hw >= 0)
		return EXIT_OK;
	fprintf(stderr,
		"domino %s: error: --supported-hw '%s': expected V[,V...] of "
		"32-bit values\n",
		cmd, value);
	return EXIT_INPUT;
}

int cli_parse(int argc, char **argv, const char *cmd, const char *allowed,
	      unsigned max_positional, struct cli_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			opt->help = 1;
			continue;
		}
		if (arg[0] != '-' || !strcmp(arg, "-")) {
			if (opt->n_positional >= max_positional) {
				fprintf(stderr, "domino %s: error: unexpected argument '%s' (see domino %s --help)\n",
					cmd, arg, cmd);
				return EXIT_INPUT;
			}
			opt->positional[opt->n_positional++] = arg;
			continue;
		}
		const char *value = NULL;
		size_t name_len = strcspn(arg, "=");
		int found = -1;
		for (unsigned k = 0; k < sizeof(option_table) / sizeof(option_table[0]); k++)
			if (strlen(option_table[k].name) == name_len &&
			    !strncmp(option_table[k].name, arg, name_len) &&
			    strchr(allowed, option_table[k].letter))
				found = (int)k;
		if (found < 0) {
			fprintf(stderr, "domino %s: error: unknown option '%s' (see domino %s --help)\n",
				cmd, arg, cmd);
			return EXIT_INPUT;
		}
		if (option_table[found].takes_value) {
			if (arg[name_len] == '=')
				value = arg + name_len + 1;
			else if (i + 1 < argc)
				value = argv[++i];
			else {
				fprintf(stderr, "domino %s: error: %s needs a value\n", cmd,
					option_table[found].name);
				return EXIT_INPUT;
			}
		} else if (arg[name_len] == '=') {
			fprintf(stderr, "domino %s: error: %s takes no value\n", cmd,
				option_table[found].name);
			return EXIT_INPUT;
		}
		switch (option_table[found].letter) {
		case 'j':
			opt->json = 1;
			break;
		case 't':
			opt->trace_path = value;
			break;
		case 's':
			opt->svg_path = value;
			break;
		case 'h':
			if (cli_parse_supported_hw(cmd, value, opt))
				return EXIT_INPUT;
			break;
		case 'e':
			opt->explain = value;
			break;
		}
	}
	return EXIT_OK;
}

/* Read from @f until *@len is @want or the input ends, growing *@buf
 * geometrically (so a short input costs what it holds, not @want). One
 * byte more than @want is kept free for the NUL. Returns 0 or an errno. */
static int read_upto(FILE *f, char **buf, size_t *len, size_t *cap,
		     size_t want)
{
	while (*len < want) {
		if (*len == *cap) {
			size_t ncap = *cap < (1 << 16) ? (1 << 16) : *cap * 2;
			if (ncap > want)
				ncap = want;
			char *bigger = realloc(*buf, ncap + 1);
			if (!bigger)
				return ENOMEM;
			*buf = bigger;
			*cap = ncap;
		}
		size_t got = fread(*buf + *len, 1, *cap - *len, f);
		*len += got;
		if (!got)
			return ferror(f) ? (errno ? errno : EIO) : 0;
	}
	return 0;
}

/* The big-endian u32 at @off of a header of @len bytes; 0 past its end. */
static uint32_t be32_at(const char *buf, size_t len, size_t off)
{
	const unsigned char *h = (const unsigned char *)buf + off;
	if (off + 4 > len)
		return 0;
	return (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 |
	       (uint32_t)h[2] << 8 | h[3];
}

static int read_input(const char *path, int board, char **data, size_t *size,
		      int *trailing)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	errno = 0;
	/* The header first: a blob is read up to its totalsize, so an
	 * endless input (/dev/zero, a pipe) cannot grow the buffer without
	 * bound; anything else is a scenario, bounded by CLI_MAX_TEXT. */
	int err = read_upto(f, &buf, &len, &cap, 40);
	size_t want = CLI_MAX_TEXT + 1;
	uint32_t total = 0;
	int blob = !err && cli_is_dtb(buf, len);
	if (blob && len >= 8) {
		total = be32_at(buf, len, 4);
		want = total > len ? total : len;
		/* A header whose blocks end past totalsize is broken: read
		 * them too (within the bound), so the loader names the fault
		 * instead of a short read hiding it. */
		for (unsigned i = 0; i < 3; i++) {
			static const size_t at[] = {8, 12, 16}, len_at[] = {36, 32, 0};
			size_t end = (size_t)be32_at(buf, len, at[i]) +
				     (len_at[i] ? be32_at(buf, len, len_at[i]) : 16);
			if (end > want && end <= CLI_MAX_BLOB)
				want = end;
		}
	} else if (board) {
		want = len; /* not a blob: the loader says so from the header */
	}
	if (blob && total > CLI_MAX_BLOB) {
		fprintf(stderr, "%s: error: the blob's header says it is %" PRIu32 " bytes (totalsize); domino reads blobs up to 1 GiB\n",
			path, total);
		err = -1;
	} else if (!err) {
		err = read_upto(f, &buf, &len, &cap, want);
	}
	int extra = 0;
	if (!err && blob && len == want && total >= 40) {
		struct stat st;
		if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
			extra = st.st_size > (off_t)len ? 1 : 0;
		else
			extra = fgetc(f) != EOF;
	}
	if (f != stdin)
		fclose(f);
	if (!err && !blob && !board && len > CLI_MAX_TEXT) {
		fprintf(stderr, "%s: error: larger than %u MiB: not a scenario domino reads (and not a device tree blob)\n",
			path, CLI_MAX_TEXT >> 20);
		err = -1;
	}
	if (err > 0)
		fprintf(stderr, "%s: error: cannot read: %s\n", path, strerror(err));
	if (err) {
		free(buf);
		return EXIT_INPUT;
	}
	*trailing = extra;
	if (!buf && !(buf = malloc(1))) {
		fprintf(stderr, "%s: error: cannot read: %s\n", path, strerror(ENOMEM));
		return EXIT_INPUT;
	}
	buf[len] = 0;
	*data = buf;
	*size = len;
	return EXIT_OK;
}

int cli_read_file(const char *path, int board, char **data, size_t *size)
{
	int trailing;
	return read_input(path, board, data, size, &trailing);
}

void cli_board_loaded(const struct cli_board *board)
{
	/* Only once it loads: a broken blob gets its error alone. */
	if (board->trailing)
		fprintf(stderr, "%s: warning: bytes after the blob's end (%zu, from its header) are ignored\n",
			board->name, board->size);
}

int cli_is_dtb(const char *data, size_t size)
{
	static const unsigned char magic[4] = {0xd0, 0x0d, 0xfe, 0xed};
	return size >= 4 && !memcmp(data, magic, 4);
}

int cli_board_open(const char *path, struct cli_board *board)
{
	memset(board, 0, sizeof(*board));
	if (!path) {
		board->name = "demo";
		board->blob = domino_demo_dtb;
		board->size = domino_demo_dtb_len;
		return EXIT_OK;
	}
	board->name = path;
	int rc = read_input(path, 1, &board->data, &board->size,
			    &board->trailing);
	if (rc)
		return rc;
	board->blob = board->data;
	return EXIT_OK;
}

void cli_board_close(struct cli_board *board)
{
	free(board->data);
	memset(board, 0, sizeof(*board));
}

void cli_print_diag(void *user, const struct dt_diag *diag)
{
	struct cli_diag_printer *p = user;
	if (diag->severity == DT_SEV_ERROR)
		p->errors++;
	else if (p->quiet_warnings)
		return;
	char line[1024];
	dt_diag_format(diag, p->file, line, sizeof(line));
	cli_text(stderr, line);
	fputc('\n', stderr);
}

static int file_write(void *user, const char *bytes, size_t len)
{
	errno = 0;
	if (fwrite(bytes, 1, len, user) == len)
		return 0;
	int err = errno ? errno : EIO;
	if (user == stdout)
		stdout_failed(err);
	return -err;
}

struct rpt_sink cli_file_sink(FILE *f)
{
	struct rpt_sink s = {file_write, f};
	return s;
}

/* Write to an existing non-regular file (a FIFO, /dev/stdout, a device) in
 * place: there is nothing to rename over, and replacing a device node with
 * a regular file would be a disaster. */
static int write_in_place(const char *path, const struct rpt_model *m,
			  int (*writer)(const struct rpt_model *,
					const struct rpt_sink *))
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	struct rpt_sink sink = cli_file_sink(f);
	int err = writer(m, &sink);
	errno = 0;
	if (fclose(f) == EOF && !err)
		err = -(errno ? errno : EIO);
	if (err) {
		fprintf(stderr, "%s: error: cannot write: %s\n", path, strerror(-err));
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

int cli_write_file(const char *path, const struct rpt_model *m,
		   int (*writer)(const struct rpt_model *, const struct rpt_sink *))
{
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return write_in_place(path, m, writer);
	/* A temporary name in the same folder, renamed over PATH once the
	 * whole file is written: a failure half way (disk full) leaves the
	 * previous good file as it was. Through a symlink, the folder and
	 * the file replaced are the link's target's. */
	const char *name = path;
	char *real = exists ? realpath(path, NULL) : NULL;
	if (real)
		path = real;
	size_t len = strlen(path);
	char *tmp = malloc(len + sizeof(".XXXXXX"));
	if (!tmp) {
		fprintf(stderr, "%s: error: cannot create: %s\n", name, strerror(ENOMEM));
		free(real);
		return EXIT_INPUT;
	}
	memcpy(tmp, path, len);
	memcpy(tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int err = errno;
		free(tmp);
		free(real);
		/* a writable file in a folder we may not create in: write
		 * it in place, as asked, rather than refuse */
		if (exists && (err == EACCES || err == EPERM || err == EROFS) &&
		    access(name, W_OK) == 0)
			return write_in_place(name, m, writer);
		fprintf(stderr, "%s: error: cannot create: %s\n", name, strerror(err));
		return EXIT_INPUT;
	}
	/* mkstemp makes it 0600; give it the mode fopen would have */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	FILE *f = fdopen(fd, "wb");
	int err = f ? 0 : -errno;
	if (f) {
		struct rpt_sink sink = cli_file_sink(f);
		err = writer(m, &sink);
		errno = 0;
		if (fclose(f) == EOF && !err)
			err = -(errno ? errno : EIO);
	} else {
		close(fd);
	}
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		unlink(tmp);
		fprintf(stderr, "%s: error: cannot write: %s\n", name,
			strerror(-err));
	}
	free(tmp);
	free(real);
	return err ? EXIT_INPUT : EXIT_OK;
}

int cli_use_color(FILE *f)
{
	const char *no = getenv("NO_COLOR");
	return isatty(fileno(f)) && !(no && *no);
}

int cli_sim_open(const struct cli_options *opt, const struct cli_board *board,
		 struct sim **out)
{
	struct cli_diag_printer printer = {board->name, 0, 1};
	struct sim_options so;
	memset(&so, 0, sizeof(so));
	so.board_name = board->name;
	so.supported_hw = opt->supported_hw;
	so.n_supported_hw = (unsigned)opt->n_supported_hw;
	so.diag = cli_print_diag;
	so.diag_user = &printer;
	int err = sim_create(board->blob, board->size, &so, out);
	if (!err) {
		cli_board_loaded(board);
		return EXIT_OK;
	}
	if (!printer.errors)
		fprintf(stderr, "%s: error: cannot load: %s\n", board->name,
			dmn_strerror(err));
	return EXIT_INPUT;
}
