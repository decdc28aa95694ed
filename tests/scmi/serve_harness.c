/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "serve_harness.h"

#include <domino/scmi.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *served_bin(const char *fallback)
{
	const char *env = getenv("DOMINO_SERVE_BIN");
	return env && *env ? env : fallback;
}

double served_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
#define now_ms served_now_ms

static void file_path(const struct served *s, const char *name, char *out,
		      size_t n)
{
	if (!strcmp(name, "agents.txt"))
		snprintf(out, n, "%s/%s", s->dir, name);
	else
		snprintf(out, n, "%s/%s.%u", s->dir, name, s->run);
}

/* The ready lines: `agent ID NAME PATH`, one per agent. */
static unsigned ready_lines(struct served *s)
{
	char out[160];
	file_path(s, "stdout", out, sizeof(out));
	FILE *f = fopen(out, "r");
	if (!f)
		return 0;
	char line[512];
	unsigned n = 0;
	while (fgets(line, sizeof(line), f)) {
		char path[sizeof(s->path[0])];
		if (strncmp(line, "agent ", 6) || !strchr(line, '\n') ||
		    sscanf(line, "agent %*u %*s %159s", path) != 1)
			continue;
		if (n < 8)
			snprintf(s->path[n], sizeof(s->path[0]), "%s", path);
		n++;
	}
	fclose(f);
	return n;
}

int served_mkdir(struct served *s, const char *agents_text)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "/tmp/domino-serve-XXXXXX");
	if (!mkdtemp(s->dir))
		return -1;
	char agents[160];
	file_path(s, "agents.txt", agents, sizeof(agents));
	FILE *f = fopen(agents, "w");
	if (!f)
		return -1;
	fputs(agents_text, f);
	fclose(f);
	return 0;
}

int served_exec(struct served *s, const char *bin, const char *board,
		unsigned n_agents, const char *const *args)
{
	char agents[160], out[160], err[160];
	file_path(s, "agents.txt", agents, sizeof(agents));
	file_path(s, "stdout", out, sizeof(out));
	file_path(s, "stderr", err, sizeof(err));
	char *argv[64];
	char expanded[32][200];
	unsigned n = 0, e = 0;
	argv[n++] = (char *)bin;
	argv[n++] = (char *)"scmi-serve";
	argv[n++] = (char *)board;
	argv[n++] = (char *)"--agents";
	argv[n++] = agents;
	argv[n++] = (char *)"--socket-dir";
	argv[n++] = s->dir;
	for (unsigned i = 0; args && args[i] && n < 60 && e < 32; i++) {
		const char *at = strstr(args[i], "@DIR");
		if (at)
			snprintf(expanded[e], sizeof(expanded[e]), "%.*s%s%s",
				 (int)(at - args[i]), args[i], s->dir, at + 4);
		else
			snprintf(expanded[e], sizeof(expanded[e]), "%s", args[i]);
		argv[n++] = expanded[e++];
	}
	argv[n] = NULL;
	static unsigned runs;
	s->run = ++runs;
	file_path(s, "stdout", out, sizeof(out));
	file_path(s, "stderr", err, sizeof(err));
	s->exited = 0;
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (!s->pid) {
		/* a test that fails leaves no server behind */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int r = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || r < 0)
			_exit(127);
		dup2(o, 1);
		dup2(r, 2);
		execv(bin, argv);
		_exit(127);
	}
	for (double t0 = now_ms(); now_ms() - t0 < 5000;) {
		if (ready_lines(s) >= n_agents)
			return 0;
		if (!served_alive(s))
			return -1;
		usleep(5000);
	}
	return -1;
}

int served_start(struct served *s, const char *bin, const char *board,
		 const char *agents_text, unsigned n_agents,
		 const char *const *args)
{
	if (served_mkdir(s, agents_text))
		return -1;
	if (!served_exec(s, bin, board, n_agents, args))
		return 0;
	served_dump_log(s);
	return -1;
}

int served_wait(struct served *s, int limit_ms)
{
	for (double t0 = now_ms(); served_alive(s);) {
		if (now_ms() - t0 > limit_ms)
			return -1;
		usleep(2000);
	}
	return WIFEXITED(s->status) ? WEXITSTATUS(s->status) : -2;
}

int served_alive(struct served *s)
{
	if (s->pid <= 0 || s->exited)
		return 0;
	if (waitpid(s->pid, &s->status, WNOHANG) == 0)
		return 1;
	s->exited = 1;
	return 0;
}

int served_stop(struct served *s, int limit_ms, double *ms)
{
	if (s->pid <= 0)
		return -1;
	double t0 = now_ms();
	int status = s->status;
	if (!s->exited)
		kill(s->pid, SIGTERM);
	for (; !s->exited;) {
		pid_t r = waitpid(s->pid, &status, WNOHANG);
		if (r == s->pid || r < 0)
			break;
		if (now_ms() - t0 > limit_ms) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, NULL, 0);
			s->pid = 0;
			if (ms)
				*ms = now_ms() - t0;
			return -1;
		}
		usleep(1000);
	}
	if (ms)
		*ms = now_ms() - t0;
	s->pid = 0;
	if (WIFSIGNALED(status))
		return -2;
	return WEXITSTATUS(status);
}

int served_log_has(const struct served *s, const char *needle)
{
	char err[160];
	file_path(s, "stderr", err, sizeof(err));
	FILE *f = fopen(err, "r");
	if (!f)
		return 0;
	char line[1024];
	int found = 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, needle) != NULL;
	fclose(f);
	return found;
}

void served_dump_log(const struct served *s)
{
	char err[160];
	file_path(s, "stderr", err, sizeof(err));
	FILE *f = fopen(err, "r");
	if (!f)
		return;
	char line[1024];
	fprintf(stderr, "--- server stderr:\n");
	while (fgets(line, sizeof(line), f))
		fputs(line, stderr);
	fclose(f);
}

void served_cleanup(struct served *s)
{
	if (s->pid > 0 && !s->exited) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
		s->pid = 0;
	}
	if (!s->dir[0])
		return;
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->dir);
	if (system(cmd)) {
		/* a test directory left behind is only litter */
	}
	s->dir[0] = 0;
}

long served_rss_kib(const struct served *s)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)s->pid);
	FILE *f = fopen(path, "r");
	long kib = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

int served_connect(const char *path, int nonblock)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	if (nonblock)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

int served_connect_agent(const struct served *s, unsigned agent)
{
	char path[200];
	snprintf(path, sizeof(path), "%s/agent%u.sock", s->dir, agent);
	return served_connect(path, 0);
}

int served_read_until(int fd, uint8_t *buf, size_t n, double deadline)
{
	while (n) {
		int left = (int)(deadline - now_ms());
		struct pollfd pfd = {fd, POLLIN, 0};
		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			return -1;
		ssize_t r = read(fd, buf, n);
		if (r <= 0)
			return -1;
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

double served_call(int fd, uint32_t protocol, uint32_t msg,
		   const uint32_t *words, unsigned n_words, int timeout_ms,
		   int32_t *status)
{
	static uint32_t token;
	uint32_t header = dmn_scmi_header(protocol, msg, 0, ++token & 0x3ff);
	uint8_t frame[4 + 4 + 16];
	if (n_words > 4)
		return -1;
	put32(frame, 4 + 4 * n_words);
	put32(frame + 4, header);
	for (unsigned i = 0; i < n_words; i++)
		put32(frame + 8 + 4 * i, words[i]);
	double t0 = now_ms(), deadline = t0 + timeout_ms;
	size_t len = 8 + 4 * n_words;
	if (write(fd, frame, len) != (ssize_t)len)
		return -1;
	for (;;) {
		uint8_t head[4], body[256];
		if (served_read_until(fd, head, 4, deadline))
			return -1;
		uint32_t n = get32(head);
		if (n > sizeof(body) || served_read_until(fd, body, n, deadline))
			return -1;
		if (n >= 8 && get32(body) == header) {
			*status = (int32_t)get32(body + 4);
			return now_ms() - t0;
		}
	}
}

pid_t served_child(const struct served *s, unsigned agent,
		   void (*behave)(int fd))
{
	pid_t pid = fork();
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int fd = served_connect_agent(s, agent);
		if (fd >= 0)
			behave(fd);
		for (;;)
			pause();
	}
	return pid;
}

void served_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
