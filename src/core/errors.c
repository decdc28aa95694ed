/* SPDX-License-Identifier: MIT */
#include <domino/context.h>

#include <errno.h>
#include <string.h>

struct errno_name {
	int value;
	const char *name;
	const char *text;
};

/* The errnos libdomino returns, plus the ones callbacks commonly report. */
static const struct errno_name names[] = {
	{0, "OK", "success"},
	{EPERM, "EPERM", "operation not permitted"},
	{ENOENT, "ENOENT", "no such object"},
	{EIO, "EIO", "input/output error"},
	{E2BIG, "E2BIG", "too many elements"},
	{EBADF, "EBADF", "stale or invalid handle"},
	{EAGAIN, "EAGAIN", "resource temporarily unavailable"},
	{ENOMEM, "ENOMEM", "out of memory"},
	{EBUSY, "EBUSY", "in use"},
	{EEXIST, "EEXIST", "already exists"},
	{ENODEV, "ENODEV", "no device to take the request"},
	{EINVAL, "EINVAL", "invalid argument"},
	{ENOSPC, "ENOSPC", "no space left"},
	{ERANGE, "ERANGE", "out of range"},
	{EDEADLK, "EDEADLK", "would deadlock"},
	{ENOSYS, "ENOSYS", "not supported"},
	{ELOOP, "ELOOP", "would create a cycle"},
	{ENODATA, "ENODATA", "no data"},
	{EOVERFLOW, "EOVERFLOW", "value too large"},
	{EILSEQ, "EILSEQ", "malformed input"},
	{EALREADY, "EALREADY", "already in that state"},
	{ETIMEDOUT, "ETIMEDOUT", "timed out"},
	/* Before ENOTSUP, its alias on Linux: docs/lifecycle.md names
	 * EOPNOTSUPP. */
	{EOPNOTSUPP, "EOPNOTSUPP", "the provider has no callback for it"},
	{ENOTSUP, "ENOTSUP", "not supported"},
	{EFAULT, "EFAULT", "bad address"},
	{ENXIO, "ENXIO", "no such device or address"},
	{EPROTO, "EPROTO", "protocol error"},
	{EACCES, "EACCES", "not allowed while the system sleeps"},
};

static const struct errno_name *lookup(int err)
{
	int value = err < 0 ? -err : err;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].value == value)
			return &names[i];
	return 0;
}

const char *dmn_errno_name(int err)
{
	const struct errno_name *n = lookup(err);
	return n ? n->name : "E?";
}

const char *dmn_strerror(int err)
{
	const struct errno_name *n = lookup(err);
	return n ? n->text : "unknown error";
}

int dmn_errno_parse(const char *name)
{
	if (!name)
		return 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].name, name))
			return -names[i].value;
	return 1;
}
