/* SPDX-License-Identifier: MIT */
/* realpath() */
#define _XOPEN_SOURCE 700

#include "cli.h"
#include "source.h"

#include "domino_demo_board.h"

#include <domino/opp.h>
#include <domino/scenario.h>
#include <domino/sim.h>
#include <assert.h>
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
	struct dmn_report_sink sink = cli_file_sink(f);
	dmn_report_text_escape(&sink, s);
}

void cli_path_msg(const char *path, const char *fmt, ...)
{
	va_list ap;
	cli_text(stderr, path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
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
		    dmn_dt_parse_supported_hw(value, hw_values, hw_values_cap);
	opt->supported_hw = hw_values;
	if (opt->n_supported_hw >= 0)
		return EXIT_OK;
	fprintf(stderr, "domino %s: error: --supported-hw '", cmd);
	cli_text(stderr, value);
	fputs("': expected V[,V...] of 32-bit values\n", stderr);
	return EXIT_INPUT;
}

/* Every option of the subcommands; each takes those whose letter is in its
 * "allowed" string. @short_name: the one-letter form, or 0. */
static const struct cli_option option_table[] = {
	{"--json", 'j', 'j', 0},
	{"--trace", 't', 0, 1},
	{"--svg", 's', 0, 1},
	{"--supported-hw", 'h', 0, 1},
	{"--strict", 'S', 0, 0},
	{"--all", 'a', 'a', 0},
	{"--trace-max-events", 'm', 0, 1},
	{"--warning", 'W', 'W', 1},
	{"--error", 'E', 'E', 1},
	{"--provider-parents", 'p', 0, 1},
	{"--explain", 'e', 0, 1},
	{"--include", 'I', 'I', 1},
	{"--kernel-tree", 'K', 0, 1},
	{"--tree", 'T', 0, 1},
	{"--format", 'f', 0, 1},
	{"--jobs", 'J', 0, 1},
	{"--energy", 'n', 0, 0},
	{"--power-model", 'P', 0, 1},
	{"--follow", 'F', 0, 1},
};
#define N_OPTIONS (sizeof(option_table) / sizeof(option_table[0]))

static void unknown_option(const char *cmd, const char *allowed,
			   const struct cli_own_options *own, const char *arg,
			   size_t len)
{
	const char *names[N_OPTIONS + CLI_MAX_OWN_OPTIONS + 1];
	size_t n = 0;
	for (size_t k = 0; k < N_OPTIONS; k++)
		if (strchr(allowed, option_table[k].letter))
			names[n++] = option_table[k].name;
	for (size_t k = 0; own && k < own->n && k < CLI_MAX_OWN_OPTIONS; k++)
		names[n++] = own->table[k].name;
	names[n++] = "--help";
	char spelt[CLI_MAX_OPTION_LEN + 1];
	snprintf(spelt, sizeof(spelt), "%.*s",
		 (int)(len < CLI_MAX_OPTION_LEN ? len : CLI_MAX_OPTION_LEN), arg);
	const char *near = arg[1] == '-' ? dmn_scn_suggest(spelt, names, n) : NULL;
	fprintf(stderr, "domino %s: error: unknown option '", cmd);
	cli_text(stderr, arg);
	if (near)
		fprintf(stderr, "': did you mean '%s'? (see domino %s --help)\n",
			near, cmd);
	else
		fprintf(stderr, "' (see domino %s --help)\n", cmd);
}

static int set_option(const char *cmd, char letter, const char *value,
		      struct cli_options *opt)
{
	switch (letter) {
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
		return cli_parse_supported_hw(cmd, value, opt);
	case 'S':
		opt->strict = 1;
		break;
	case 'e':
		opt->explain = value;
		break;
	case 'p':
		opt->parents_all = !strcmp(value, "all");
		if (!opt->parents_all && strcmp(value, "by-name")) {
			fprintf(stderr, "domino %s: error: --provider-parents '",
				cmd);
			cli_text(stderr, value);
			fputs("': expected 'all' or 'by-name'\n", stderr);
			return EXIT_INPUT;
		}
		break;
	case 'a':
		opt->all = 1;
		break;
	case 'I':
		if (opt->n_include_dirs >= CLI_MAX_INCLUDE_DIRS) {
			fprintf(stderr, "domino %s: error: more than %d -I folders\n",
				cmd, CLI_MAX_INCLUDE_DIRS);
			return EXIT_INPUT;
		}
		opt->include_dirs[opt->n_include_dirs++] = value;
		break;
	case 'K':
		opt->kernel_tree = value;
		break;
	case 'T':
		opt->tree = value;
		break;
	case 'f': {
		static const char *const formats[] = {"gcc", "json", "sarif"};
		opt->format = -1;
		for (int i = 0; i < 3; i++)
			if (!strcmp(value, formats[i]))
				opt->format = i;
		if (opt->format < 0) {
			fprintf(stderr, "domino %s: error: --format '", cmd);
			cli_text(stderr, value);
			fputs("': expected gcc, json or sarif\n", stderr);
			return EXIT_INPUT;
		}
		break;
	}
	case 'J': {
		char *end;
		errno = 0;
		unsigned long v = strtoul(value, &end, 10);
		if (!*value || *end || errno || value[0] == '-' || !v || v > 1024) {
			fprintf(stderr, "domino %s: error: -j '", cmd);
			cli_text(stderr, value);
			fputs("': expected a number of jobs (1 to 1024)\n", stderr);
			return EXIT_INPUT;
		}
		opt->jobs = (unsigned)v;
		break;
	}
	case 'n':
		opt->energy = 1;
		break;
	case 'P':
		opt->power_model = value;
		opt->energy = 1;
		break;
	case 'F':
		if (opt->n_follow >= CLI_MAX_FOLLOW) {
			fprintf(stderr, "domino %s: error: more than %d --follow options\n",
				cmd, CLI_MAX_FOLLOW);
			return EXIT_INPUT;
		}
		opt->follow[opt->n_follow++] = value;
		break;
	case 'm': {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(value, &end, 10);
		if (!*value || *end || errno || value[0] == '-' ||
		    v > UINT32_MAX) {
			fprintf(stderr, "domino %s: error: --trace-max-events '",
				cmd);
			cli_text(stderr, value);
			fputs("': expected a count (0 to 4294967295)\n", stderr);
			return EXIT_INPUT;
		}
		opt->trace_max_events = (uint32_t)v;
		opt->trace_max_set = 1;
		break;
	}
	case 'W':
	case 'E': {
		/* as dtc: -W no-X off, -W X on; -E X error, -E no-X its own
		 * severity again */
		int no = !strncmp(value, "no-", 3);
		const char *name = value + (no ? 3 : 0);
		if (!*name || opt->n_check_rules >= CLI_MAX_CHECK_RULES) {
			fprintf(stderr, "domino %s: error: -%c '", cmd, letter);
			cli_text(stderr, value);
			fprintf(stderr, "': %s\n", *name ? "too many check options"
				: "expected CHECK or no-CHECK");
			return EXIT_INPUT;
		}
		struct cli_check_rule *r = &opt->check_rules[opt->n_check_rules++];
		r->check = name;
		r->rule = letter == 'E' ? (no ? CLI_CHECK_DEFAULT : CLI_CHECK_ERROR)
					: (no ? CLI_CHECK_OFF : CLI_CHECK_DEFAULT);
		break;
	}
	}
	return EXIT_OK;
}


/* Does @o answer to the short option @c, or (@name not NULL) to the long
 * option @name of @len bytes? */
static int option_is(const struct cli_option *o, char c, const char *name,
		     size_t len)
{
	if (name)
		return strlen(o->name) == len && !strncmp(o->name, name, len);
	return o->short_name && o->short_name == c;
}

/* The option among the common ones @allowed names and the command's own;
 * NULL if none. *@is_own says which table it came from. */
static const struct cli_option *find_option(const char *allowed,
					    const struct cli_own_options *own,
					    char c, const char *name,
					    size_t len, int *is_own)
{
	*is_own = 0;
	for (size_t k = 0; k < N_OPTIONS; k++)
		if (strchr(allowed, option_table[k].letter) &&
		    option_is(&option_table[k], c, name, len))
			return &option_table[k];
	*is_own = 1;
	for (size_t k = 0; own && k < own->n; k++)
		if (option_is(&own->table[k], c, name, len))
			return &own->table[k];
	return NULL;
}

int cli_parse(int argc, char **argv, const char *cmd, const char *allowed,
	      unsigned max_positional, struct cli_options *opt)
{
	return cli_parse_own(argc, argv, cmd, allowed, NULL, max_positional,
			     opt);
}

int cli_parse_own(int argc, char **argv, const char *cmd, const char *allowed,
		  const struct cli_own_options *own, unsigned max_positional,
		  struct cli_options *opt)
{
	assert(!own || (own->set && own->n <= CLI_MAX_OWN_OPTIONS));
	memset(opt, 0, sizeof(*opt));
	opt->format = -1;
	int options_end = 0;
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		int positional = options_end || arg[0] != '-' || !strcmp(arg, "-");
		if (!positional && !strcmp(arg, "--")) {
			options_end = 1;
			continue;
		}
		if (positional) {
			if (opt->n_positional >= max_positional) {
				fprintf(stderr, "domino %s: error: unexpected argument '",
					cmd);
				cli_text(stderr, arg);
				fprintf(stderr, "' (see domino %s --help)\n", cmd);
				return EXIT_INPUT;
			}
			opt->positional[opt->n_positional++] = arg;
			continue;
		}
		if (!strcmp(arg, "--help")) {
			opt->help = 1;
			continue;
		}
		if (arg[1] != '-') {
			/* Short options, bundled (-ja) as getopt does; one
			 * taking a value takes the rest (-Wno-x) or the next
			 * argument (-W no-x). */
			for (const char *c = arg + 1; *c; c++) {
				if (*c == 'h') {
					opt->help = 1;
					continue;
				}
				/* -j N, -jN: jobs where --jobs is taken, as
				 * make's; -j alone is --json */
				if (*c == 'j' && strchr(allowed, 'J')) {
					const char *n = c[1] ? c + 1 : i + 1 < argc ? argv[i + 1] : "";
					if (*n >= '0' && *n <= '9') {
						if (!c[1])
							i++;
						if (set_option(cmd, 'J', n, opt))
							return EXIT_INPUT;
						break;
					}
				}
				int is_own;
				const struct cli_option *o =
					find_option(allowed, own, *c, NULL, 0, &is_own);
				if (!o) {
					char one[3] = {'-', *c, 0};
					unknown_option(cmd, allowed, own, one, 2);
					return EXIT_INPUT;
				}
				const char *value = NULL;
				if (o->takes_value) {
					if (c[1])
						value = c + 1;
					else if (i + 1 < argc)
						value = argv[++i];
					else {
						fprintf(stderr, "domino %s: error: -%c needs a value\n",
							cmd, *c);
						return EXIT_INPUT;
					}
				}
				if (is_own ? own->set(own->user, o->letter, value)
					   : set_option(cmd, o->letter, value, opt))
					return EXIT_INPUT;
				if (value)
					break;
			}
			continue;
		}
		const char *value = NULL;
		size_t name_len = strcspn(arg, "=");
		int is_own;
		const struct cli_option *o =
			find_option(allowed, own, 0, arg, name_len, &is_own);
		if (!o) {
			unknown_option(cmd, allowed, own, arg, name_len);
			return EXIT_INPUT;
		}
		if (o->takes_value) {
			if (arg[name_len] == '=')
				value = arg + name_len + 1;
			else if (i + 1 < argc)
				value = argv[++i];
			else {
				fprintf(stderr, "domino %s: error: %s needs a value\n", cmd,
					o->name);
				return EXIT_INPUT;
			}
		} else if (arg[name_len] == '=') {
			fprintf(stderr, "domino %s: error: %s takes no value\n", cmd,
				o->name);
			return EXIT_INPUT;
		}
		if (is_own ? own->set(own->user, o->letter, value)
			   : set_option(cmd, o->letter, value, opt))
			return EXIT_INPUT;
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
		cli_path_msg(path, ": error: cannot open: %s\n", strerror(errno));
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
		cli_path_msg(path, ": error: the blob's header says it is %" PRIu32 " bytes (totalsize); domino reads blobs up to 1 GiB\n", total);
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
		cli_path_msg(path, ": error: larger than %u MiB: not a scenario domino reads (and not a device tree blob)\n", CLI_MAX_TEXT >> 20);
		err = -1;
	}
	if (err > 0)
		cli_path_msg(path, ": error: cannot read: %s\n", strerror(err));
	if (err) {
		free(buf);
		return EXIT_INPUT;
	}
	*trailing = extra;
	if (!buf && !(buf = malloc(1))) {
		cli_path_msg(path, ": error: cannot read: %s\n", strerror(ENOMEM));
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
		cli_path_msg(board->name, ": warning: bytes after the blob's end (%zu, from its header) are ignored\n", board->size);
}

int cli_is_dtb(const char *data, size_t size)
{
	static const unsigned char magic[4] = {0xd0, 0x0d, 0xfe, 0xed};
	return size >= 4 && !memcmp(data, magic, 4);
}

/* Device tree source given where a blob belongs: by its name, or by what
 * a source starts with (a board's first 40 bytes are all that is read). */
static int looks_like_source(const char *path, const char *head)
{
	if (cli_is_source_name(path))
		return 1;
	head += strspn(head, " \t\r\n");
	return !strncmp(head, "/dts-v1/", 8) || !strncmp(head, "//", 2) ||
	       !strncmp(head, "/*", 2) || !strncmp(head, "#include", 8);
}

/* Build the source at @path with cpp and dtc into @board. */
static int board_from_source(const struct cli_options *opt, const char *path,
			     struct cli_board *board)
{
	struct cli_source_opts *so = calloc(1, sizeof(*so));
	struct cli_built *b = calloc(1, sizeof(*b));
	if (!so || !b) {
		free(so);
		free(b);
		cli_path_msg(path, ": error: %s\n", strerror(ENOMEM));
		return EXIT_INPUT;
	}
	so->include_dirs = opt ? opt->include_dirs : NULL;
	so->n_include_dirs = opt ? opt->n_include_dirs : 0;
	so->kernel_tree = opt ? opt->kernel_tree : NULL;
	so->find_kernel = 1;
	char *msg = NULL;
	int rc = cli_source_build(so, path, b, &msg);
	if (msg)
		cli_text_lines(stderr, msg);
	free(msg);
	if (rc) {
		free(so);
		free(b);
		return rc;
	}
	board->name = path;
	board->blob = b->blob;
	board->size = b->size;
	board->built = b;
	return EXIT_OK;
}

/* @board from @data read from @path (owned now, freed on failure). */
static int board_from_data(const struct cli_options *opt, const char *path,
			   char *data, size_t size, int trailing,
			   struct cli_board *board)
{
	memset(board, 0, sizeof(*board));
	board->name = path;
	if (!cli_is_dtb(data, size) && looks_like_source(path, data)) {
		free(data);
		if (strcmp(path, "-"))
			return board_from_source(opt, path, board);
		/* cpp and dtc read a file: say how to give one */
		fputs("-: error: this is device tree source; domino builds it from a file: give BOARD.dts\n",
		      stderr);
		return EXIT_INPUT;
	}
	board->data = data;
	board->blob = data;
	board->size = size;
	board->trailing = trailing;
	return EXIT_OK;
}

int cli_board_open(const struct cli_options *opt, const char *path,
		   struct cli_board *board)
{
	memset(board, 0, sizeof(*board));
	if (!path) {
		board->name = "demo";
		board->blob = domino_demo_dtb;
		board->size = domino_demo_dtb_len;
		return EXIT_OK;
	}
	char *data;
	size_t size;
	int trailing;
	int rc = read_input(path, 1, &data, &size, &trailing);
	if (rc)
		return rc;
	return board_from_data(opt, path, data, size, trailing, board);
}

struct cli_srcmap *cli_board_map(struct cli_board *board)
{
	if (!board->built || board->map_tried)
		return board->map;
	board->map_tried = 1;
	char *msg = NULL;
	cli_source_map(board->built, &board->map, &msg);
	if (msg)
		cli_text_lines(stderr, msg);
	free(msg);
	return board->map;
}

/* Named as a board or its source: .dtb, .dtbo, .dts, .dtsi. */
static int named_as_board(const char *path)
{
	static const char *const ext[] = {".dtb", ".dtbo", ".dts", ".dtsi"};
	size_t n = strlen(path);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t k = strlen(ext[i]);
		if (n > k && !strcmp(path + n - k, ext[i]))
			return 1;
	}
	return 0;
}

int cli_board_or_scenario(const struct cli_options *opt, const char *path,
			  struct cli_board *board, char **text, size_t *len)
{
	char *data;
	size_t size;
	int trailing;
	memset(board, 0, sizeof(*board));
	*text = NULL;
	*len = 0;
	int rc = read_input(path, 0, &data, &size, &trailing);
	if (rc)
		return rc;
	if (cli_is_dtb(data, size) || named_as_board(path))
		return board_from_data(opt, path, data, size, trailing, board);
	*text = data;
	*len = size;
	return EXIT_OK;
}

/* A report model whose warnings are placed: the strings after it. */
struct placed_model {
	struct dmn_report_model m;
	char **strings;
	unsigned n;
};

static void placed_free(struct placed_model *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->n; i++)
		free(p->strings[i]);
	free(p->strings);
	free(p);
}

/* @d at its source line, or NULL (not placed, or out of memory). */
static char *placed_diag(struct cli_srcmap *map, const struct dmn_dt_diag *d)
{
	struct cli_loc at, first;
	if (cli_srcmap_find(map, d->node, d->property, &at, &first))
		return NULL;
	const char *sev = dmn_dt_severity_name(d->severity);
	int n = snprintf(NULL, 0, "%s:%u:%u: %s: %s [%s]", at.file, at.line, at.col,
			 sev, d->message, d->check);
	char *s = n > 0 ? malloc((size_t)n + 1) : NULL;
	if (s)
		snprintf(s, (size_t)n + 1, "%s:%u:%u: %s: %s [%s]", at.file, at.line,
			 at.col, sev, d->message, d->check);
	return s;
}

int cli_sim_report(struct cli_board *board, struct dmn_sim *sim, int events,
		   const struct dmn_report_model **m)
{
	int err = dmn_sim_report(sim, events, m);
	const struct dmn_dt_board *b = dmn_sim_board(sim);
	if (err || !b->n_diags || !cli_board_map(board))
		return err;
	/* the loader's warnings are the board's diagnostics, in order */
	struct placed_model *p = calloc(1, sizeof(*p));
	if (!p || !(p->strings = calloc(b->n_diags, sizeof(char *)))) {
		free(p);
		return -ENOMEM;
	}
	p->m = **m;
	for (unsigned i = 0; i < b->n_diags && i < (*m)->n_warnings; i++) {
		char *s = placed_diag(board->map, &b->diags[i]);
		p->strings[p->n++] = s ? s : strdup((*m)->warnings[i]);
		if (!p->strings[p->n - 1]) {
			placed_free(p);
			return -ENOMEM;
		}
	}
	p->m.warnings = (const char *const *)p->strings;
	placed_free(board->placed);
	board->placed = p;
	*m = &p->m;
	return 0;
}

void cli_board_close(struct cli_board *board)
{
	placed_free(board->placed);
	free(board->data);
	if (board->built) {
		struct cli_built *b = board->built;
		free((void *)b->opts);
		cli_built_free(b);
		free(b);
	}
	cli_srcmap_free(board->map);
	memset(board, 0, sizeof(*board));
}

void cli_text_lines(FILE *f, const char *text)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *one = strndup(line, len);
		if (one)
			cli_text(f, one);
		free(one);
		fputc('\n', f);
		line += len + (nl ? 1 : 0);
	}
}

void cli_print_diag(void *user, const struct dmn_dt_diag *diag)
{
	struct cli_diag_printer *p = user;
	if (diag->severity == DMN_DT_SEV_ERROR)
		p->errors++;
	else if (p->quiet_warnings)
		return;
	struct cli_srcmap *map = p->board ? cli_board_map(p->board) : NULL;
	struct cli_loc at, first;
	if (map && !cli_srcmap_find(map, diag->node, diag->property, &at, &first)) {
		cli_text(stderr, at.file);
		fprintf(stderr, ":%u:%u: %s: ", at.line, at.col,
			dmn_dt_severity_name(diag->severity));
		cli_text(stderr, diag->message);
		fputs(" [", stderr);
		cli_text(stderr, diag->check);
		fputs("]\n", stderr);
		if (first.file) {
			cli_text(stderr, first.file);
			fprintf(stderr, ":%u:%u: note: ", first.line, first.col);
			cli_text(stderr, diag->property);
			fputs(" was first set here\n", stderr);
		}
		return;
	}
	char line[1024];
	dmn_dt_diag_format(diag, p->file, line, sizeof(line));
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

struct dmn_report_sink cli_file_sink(FILE *f)
{
	struct dmn_report_sink s = {file_write, f};
	return s;
}

/* Write to an existing non-regular file (a FIFO, /dev/stdout, a device) in
 * place: there is nothing to rename over, and replacing a device node with
 * a regular file would be a disaster. */
static int write_in_place(const char *path, const struct dmn_report_model *m,
			  int (*writer)(const struct dmn_report_model *,
					const struct dmn_report_sink *))
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		cli_path_msg(path, ": error: cannot open: %s\n", strerror(errno));
		return EXIT_INPUT;
	}
	struct dmn_report_sink sink = cli_file_sink(f);
	int err = writer(m, &sink);
	errno = 0;
	if (fclose(f) == EOF && !err)
		err = -(errno ? errno : EIO);
	if (err) {
		cli_path_msg(path, ": error: cannot write: %s\n", strerror(-err));
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

int cli_write_file(const char *path, const struct dmn_report_model *m,
		   int (*writer)(const struct dmn_report_model *, const struct dmn_report_sink *))
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
		cli_path_msg(name, ": error: cannot create: %s\n", strerror(ENOMEM));
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
		cli_path_msg(name, ": error: cannot create: %s\n", strerror(err));
		return EXIT_INPUT;
	}
	/* mkstemp makes it 0600; give it the mode fopen would have */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	FILE *f = fdopen(fd, "wb");
	int err = f ? 0 : -errno;
	if (f) {
		struct dmn_report_sink sink = cli_file_sink(f);
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
		cli_path_msg(name, ": error: cannot write: %s\n",
			strerror(-err));
	}
	free(tmp);
	free(real);
	return err ? EXIT_INPUT : EXIT_OK;
}

/* A growing buffer for a JSON report that the caller extends. */
struct membuf {
	char *data;
	size_t len, cap;
};

static int membuf_write(void *user, const char *bytes, size_t len)
{
	struct membuf *b = user;
	if (len > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : 4096;
		while (len > cap - b->len) {
			if (cap > SIZE_MAX / 2)
				return -ENOMEM;
			cap *= 2;
		}
		char *bigger = realloc(b->data, cap);
		if (!bigger)
			return -ENOMEM;
		b->data = bigger;
		b->cap = cap;
	}
	memcpy(b->data + b->len, bytes, len);
	b->len += len;
	return 0;
}

int cli_json_begin(const struct dmn_report_model *m)
{
	struct membuf b = {NULL, 0, 0};
	struct dmn_report_sink mem = {membuf_write, &b};
	struct dmn_report_sink out = cli_file_sink(stdout);
	int err = dmn_report_write_json(m, &mem);
	/* "...\n}\n": the members so far */
	if (!err && (b.len < 3 || memcmp(b.data + b.len - 3, "\n}\n", 3)))
		err = -EINVAL;
	if (!err)
		err = out.write(out.user, b.data, b.len - 3);
	free(b.data);
	return err;
}

int cli_use_color(FILE *f)
{
	/* no-color.org: any non-empty NO_COLOR; a dumb terminal shows the
	 * escapes as text */
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
	if ((no && *no) || (term && !strcmp(term, "dumb")))
		return 0;
	return isatty(fileno(f));
}

int cli_sim_open(const struct cli_options *opt, struct cli_board *board,
		 struct dmn_sim **out)
{
	struct cli_diag_printer printer = {board->name, 0, 1, board};
	struct dmn_sim_options so;
	memset(&so, 0, sizeof(so));
	so.board_name = board->name;
	so.supported_hw = opt->supported_hw;
	so.n_supported_hw = (unsigned)opt->n_supported_hw;
	so.flags = opt->sim_flags;
	if (opt->parents_all)
		so.flags |= DMN_SIM_PARENTS_ALL;
	so.diag = cli_print_diag;
	so.diag_user = &printer;
	int err = dmn_sim_create(board->blob, board->size, &so, out);
	if (!err) {
		cli_board_loaded(board);
		return EXIT_OK;
	}
	if (!printer.errors)
		cli_path_msg(board->name, ": error: cannot load: %s\n",
			dmn_strerror(err));
	return EXIT_INPUT;
}

int cli_energy_open(const struct cli_options *opt, struct dmn_sim *sim)
{
	if (!opt->energy)
		return EXIT_OK;
	struct dmn_power_model *pm = NULL;
	struct dmn_energy_diag diag;
	memset(&diag, 0, sizeof(diag));
	int err = 0;
	if (opt->power_model) {
		char *text = NULL;
		size_t len = 0;
		int rc = cli_read_file(opt->power_model, 0, &text, &len);
		if (rc)
			return rc;
		if (cli_is_dtb(text, len)) {
			free(text);
			cli_path_msg(opt->power_model,
				     ": error: is a device tree blob, not a power model\n");
			return EXIT_INPUT;
		}
		err = dmn_power_model_parse(text, len, opt->power_model, &pm, &diag);
		free(text);
	}
	if (!err)
		err = dmn_sim_energy(sim, pm, &diag);
	dmn_power_model_free(pm);
	if (!err)
		return EXIT_OK;
	if (err == -EINVAL && diag.file) {
		char line[512];
		dmn_energy_diag_format(&diag, line, sizeof(line));
		cli_text(stderr, line); /* it quotes the file */
		fputc('\n', stderr);
	} else {
		cli_path_msg(opt->power_model ? opt->power_model : "energy",
			     ": error: %s\n", dmn_strerror(err));
	}
	return EXIT_INPUT;
}

int cli_follow(const struct cli_options *opt, struct dmn_sim *sim)
{
	const struct dmn_dt_board *b = dmn_sim_board(sim);
	const struct dmn_dt_instance *inst = dmn_sim_instance(sim);
	for (unsigned k = 0; k < opt->n_follow; k++) {
		const char *name = opt->follow[k];
		int all = !strcmp(name, "all");
		int i = all ? 0 : dmn_dt_device_find(b, name);
		if (i < 0) {
			fputs("domino simulate: error: --follow '", stderr);
			cli_text(stderr, name);
			fputs("': no such device (a label, path or node name; or 'all')\n",
			      stderr);
			return EXIT_INPUT;
		}
		for (unsigned v = all ? 0 : (unsigned)i;
		     v < (all ? b->n_devices : (unsigned)i + 1); v++) {
			if (b->devices[v].opp_table < 0) {
				if (all)
					continue;
				fputs("domino simulate: error: --follow '", stderr);
				cli_text(stderr, name);
				fputs("': the device has no OPP table\n", stderr);
				return EXIT_INPUT;
			}
			int err = dmn_opp_device_follow(dmn_sim_ctx(sim),
							inst->devices[v], true);
			if (err) {
				fputs("domino simulate: error: --follow '", stderr);
				cli_text(stderr, b->devices[v].name);
				fprintf(stderr, "': %s\n", dmn_strerror(err));
				return EXIT_INPUT;
			}
		}
	}
	return EXIT_OK;
}
