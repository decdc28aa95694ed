/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include "domino_demo_board.h"

#include <domino/sim.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	char letter;
	int takes_value;
} option_table[] = {
	{"--json", 'j', 0},
	{"--trace", 't', 1},
	{"--svg", 's', 1},
	{"--supported-hw", 'h', 1},
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
			opt->n_supported_hw = -EINVAL;
			if (hw_values_room(value))
				opt->n_supported_hw = dt_parse_supported_hw(
					value, hw_values, hw_values_cap);
			opt->supported_hw = hw_values;
			if (opt->n_supported_hw < 0) {
				fprintf(stderr, "domino %s: error: --supported-hw '%s': expected V[,V...] of 32-bit values\n",
					cmd, value);
				return EXIT_INPUT;
			}
			break;
		}
	}
	return EXIT_OK;
}

int cli_read_file(const char *path, char **data, size_t *size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "%s: error: cannot open: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len < cap)
			break;
		char *bigger = cap < (SIZE_MAX / 4) ? realloc(buf, cap * 2 + 1) : NULL;
		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	int bad = !buf || ferror(f);
	if (f != stdin)
		fclose(f);
	if (bad) {
		fprintf(stderr, "%s: error: cannot read: %s\n", path,
			buf ? strerror(errno) : "out of memory");
		free(buf);
		return EXIT_INPUT;
	}
	buf[len] = 0;
	*data = buf;
	*size = len;
	return EXIT_OK;
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
	int rc = cli_read_file(path, &board->data, &board->size);
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
	fprintf(stderr, "%s\n", line);
}

static int file_write(void *user, const char *bytes, size_t len)
{
	return fwrite(bytes, 1, len, user) == len ? 0 : -EIO;
}

struct rpt_sink cli_file_sink(FILE *f)
{
	struct rpt_sink s = {file_write, f};
	return s;
}

int cli_write_file(const char *path, const struct rpt_model *m,
		   int (*writer)(const struct rpt_model *, const struct rpt_sink *))
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "%s: error: cannot create: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	struct rpt_sink sink = cli_file_sink(f);
	int err = writer(m, &sink);
	if (fclose(f) && !err)
		err = -EIO;
	if (err) {
		fprintf(stderr, "%s: error: cannot write: %s\n", path, dmn_strerror(err));
		return EXIT_INPUT;
	}
	return EXIT_OK;
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
	if (!err)
		return EXIT_OK;
	if (!printer.errors)
		fprintf(stderr, "%s: error: cannot load: %s\n", board->name,
			dmn_strerror(err));
	return EXIT_INPUT;
}
