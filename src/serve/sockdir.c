/* SPDX-License-Identifier: MIT */
/*
 * The listening sockets and the files they live in (docs/scmi.md,
 * "Socket files"): the server creates a file only where nothing is, or
 * where a socket nobody listens on is left (a killed server's); it never
 * follows or replaces a symbolic link, never touches a file that is not a
 * socket, never takes over a socket that still accepts connections, and at
 * exit removes a path only if it is still the socket it created.
 */
#include "serve.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int refuse(const char *path, const char *why, int err)
{
	dmn__serve_text(stderr, path);
	fprintf(stderr, ": error: %s%s%s\n", why, err ? ": " : "",
		err ? strerror(err) : "");
	return -1;
}

static int fill_addr(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	size_t len = strlen(path);
	if (len >= sizeof(sa->sun_path))
		return -1;
	memcpy(sa->sun_path, path, len);
	return 0;
}

/* Does a server accept connections on the socket at @path? 1 yes, 0 no
 * (stale), -errno when it cannot be told. */
static int socket_in_use(const char *path)
{
	struct sockaddr_un sa;
	if (fill_addr(&sa, path))
		return -ENAMETOOLONG;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	int rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	int err = rc ? errno : 0;
	close(fd);
	if (!rc || err == EAGAIN || err == EINPROGRESS)
		return 1; /* accepted, or its backlog is full: alive */
	if (err == ECONNREFUSED)
		return 0;
	return -err;
}

/* Make @path free for a new socket, or refuse (message printed). */
static int clear_path(const char *path)
{
	struct stat st;
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return refuse(path, "cannot check it", errno);
	}
	if (S_ISLNK(st.st_mode))
		return refuse(path,
			      "is a symbolic link; not followed or replaced", 0);
	if (!S_ISSOCK(st.st_mode))
		return refuse(path, "exists and is not a socket; left untouched",
			      0);
	int used = socket_in_use(path);
	if (used > 0)
		return refuse(path, "in use by a running server", 0);
	if (used < 0)
		return refuse(path, "cannot tell whether a server uses it",
			      -used);
	/* a socket nobody listens on: a killed server's, replaced */
	if (unlink(path) && errno != ENOENT)
		return refuse(path, "cannot remove the stale socket", errno);
	return 0;
}

/* Bound under PATH~ and linked to PATH once it listens, so a client that
 * sees PATH can connect; link() never replaces what appeared meanwhile.
 * A path with no room for the '~' is bound directly. */
int dmn__sockdir_listen(const char *path, int backlog, uint64_t *dev,
			uint64_t *ino)
{
	struct sockaddr_un sa;
	if (fill_addr(&sa, path))
		return refuse(path, "cannot listen", ENAMETOOLONG);
	size_t len = strlen(path);
	int staged = len + 1 < sizeof(sa.sun_path);
	char staged_path[sizeof(sa.sun_path)];
	memcpy(staged_path, path, len + 1);
	if (staged) {
		sa.sun_path[len] = '~';
		staged_path[len] = '~';
		staged_path[len + 1] = 0;
	}
	if (clear_path(path) || (staged && clear_path(staged_path)))
		return -1;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return refuse(path, "cannot listen", errno);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = errno;
		close(fd);
		return refuse(staged && err == EADDRINUSE ? staged_path : path,
			      "cannot listen", err);
	}
	const char *bound = staged ? staged_path : path;
	if (listen(fd, backlog)) {
		int err = errno;
		close(fd);
		unlink(bound);
		return refuse(path, "cannot listen", err);
	}
	if (staged && link(staged_path, path)) {
		int err = errno;
		if (err != EEXIST && rename(staged_path, path) == 0) {
			/* a file system without hard links to sockets */
		} else {
			close(fd);
			unlink(staged_path);
			return refuse(path,
				      err == EEXIST
					  ? "appeared while the server started; "
					    "left untouched"
					  : "cannot listen",
				      err == EEXIST ? 0 : err);
		}
	}
	if (staged)
		unlink(staged_path);
	struct stat st;
	if (lstat(path, &st)) {
		int err = errno;
		close(fd);
		return refuse(path, "cannot listen", err);
	}
	*dev = (uint64_t)st.st_dev;
	*ino = (uint64_t)st.st_ino;
	return fd;
}

void dmn__sockdir_remove(const char *path, uint64_t dev, uint64_t ino)
{
	struct stat st;
	if (!lstat(path, &st) && S_ISSOCK(st.st_mode) &&
	    (uint64_t)st.st_dev == dev && (uint64_t)st.st_ino == ino)
		unlink(path);
}
