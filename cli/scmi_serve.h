/* SPDX-License-Identifier: MIT */
/* domino scmi-serve: its arguments (scmi_serve_args.c). */
#ifndef DOMINO_CLI_SCMI_SERVE_H
#define DOMINO_CLI_SCMI_SERVE_H

#include "cli.h"
#include "../src/serve/serve.h"

extern const char serve_help[];

/* --vhost-user AGENT=PATH, as given (AGENT an id or a name). */
struct serve_vhost_arg {
	const char *agent;
	const char *path;
};

struct serve_args {
	const char *board, *agents, *dir, *trace, *scenario;
	size_t max_msg;
	int list, verbose, help;
	struct dmn__serve_limits limits;
	struct serve_vhost_arg *vhost; /* argc entries at most */
	unsigned n_vhost;
	struct cli_options opt;
};

/* As cli_parse: options anywhere, --opt=VALUE or --opt VALUE, `--` ends
 * them. Prints the error; returns 0 or EXIT_INPUT. Free with
 * serve_args_free. */
int serve_args_parse(int argc, char **argv, struct serve_args *a);
void serve_args_free(struct serve_args *a);

#endif
