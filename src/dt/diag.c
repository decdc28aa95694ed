/* SPDX-License-Identifier: MIT */
/* Diagnostics: recording them in the board, the sink, the one-line format. */
#include "dt_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *dmn_dt_severity_name(enum dmn_dt_severity severity)
{
	switch (severity) {
	case DMN_DT_SEV_ERROR:
		return "error";
	case DMN_DT_SEV_WARNING:
		return "warning";
	case DMN_DT_SEV_NOTE:
		return "note";
	}
	return "?";
}

int dmn__dt_diag_add(struct dmn_dt_loader *ld, enum dmn_dt_severity sev, int error,
		const char *check, int32_t node, const char *property,
		const char *fmt, ...)
{
	struct dmn_dt_board *b = ld->board;
	/* sized to the message: node paths in it can be of any length */
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *message = len >= 0 ? dmn__dt_pool_alloc(ld->pool, (size_t)len + 1)
				 : NULL;
	if (!message)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(message, (size_t)len + 1, fmt, ap);
	va_end(ap);

	if (sev == DMN_DT_SEV_ERROR && !ld->first_error)
		ld->first_error = error ? error : -EINVAL;

	const char *path = node >= 0 ? dmn__dt_node_path(ld, node) : "/";
	struct dmn_dt_diag *d = NULL;
	char *msg = NULL, *prop = NULL, *npath = NULL;
	if (path)
		npath = dmn__dt_pool_strdup(ld->pool, path);
	if (npath)
		msg = message;
	if (msg && property)
		prop = dmn__dt_pool_strdup(ld->pool, property);
	if (msg && (prop || !property))
		d = dmn__dt_vec_push(ld->pool, (void **)&b->diags, &b->n_diags,
				&ld->cap_diags, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->severity = sev;
	d->check = check;
	d->node = npath;
	d->property = prop;
	d->message = msg;
	d->error = sev == DMN_DT_SEV_ERROR ? (error ? error : -EINVAL) : 0;
	if (sev == DMN_DT_SEV_ERROR)
		b->n_errors++;
	else if (sev == DMN_DT_SEV_WARNING)
		b->n_warnings++;
	else
		b->n_notes++;
	if (ld->opts->diag)
		ld->opts->diag(ld->opts->diag_user, d);
	return 0;
}

int dmn_dt_diag_format(const struct dmn_dt_diag *diag, const char *file, char *buf,
		   size_t size)
{
	if (!diag || (!buf && size))
		return -EINVAL;
	int n = snprintf(
	    buf, size, "%s%s%s: %s%s%s: %s", file ? file : "", file ? ": " : "",
	    diag->node ? diag->node : "/", diag->property ? diag->property : "",
	    diag->property ? ": " : "", dmn_dt_severity_name(diag->severity),
	    diag->message ? diag->message : "");
	return n < 0 ? -EINVAL : n;
}
