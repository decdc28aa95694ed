/* SPDX-License-Identifier: MIT */
/*
 * The live invariants (src/core/check.c) trip: each case breaks one
 * invariant behind the library's back, in a child process, then makes an
 * ordinary call; the child must die of SIGABRT with the rule's text on
 * stderr. The same calls without the damage must run clean, so what
 * trips is the damage, not the setup. Linked against domino_checked, the
 * library every unit test uses (DMN_DEBUG).
 */
#include <domino/domain.h>

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/internal.h"

static int set_ps(void *user, dmn_domain_t dom, uint32_t level)
{
	(void)user;
	(void)dom;
	(void)level;
	return 0;
}
static const struct dmn_domain_ops ops = {.set_performance_state = set_ps};

/* parent <- child, a device on the child with a vote, active: both on. */
struct rig {
	struct dmn_ctx *ctx;
	dmn_domain_t parent, child;
	dmn_device_t dev;
	dmn_attach_t att;
};

static void rig_build(struct rig *r)
{
	if (dmn_ctx_create(NULL, &r->ctx) ||
	    dmn_domain_create(r->ctx, &(struct dmn_domain_desc){"parent", &ops, 0, 0},
			     &r->parent) ||
	    dmn_domain_create(r->ctx, &(struct dmn_domain_desc){"child", &ops, 0, 0},
			     &r->child) ||
	    dmn_link_add(r->ctx, r->parent, r->child) ||
	    dmn_device_create(r->ctx, "dev", &r->dev) ||
	    dmn_attach(r->ctx, r->dev, r->child, &r->att) ||
	    dmn_vote(r->ctx, r->att, 3) || dmn_device_get(r->ctx, r->dev))
		_exit(3); /* the setup itself failed: not an abort */
}

enum damage {
	NONE,
	ACTIVE_DEVICES, /* a device counted that is not */
	ON_CHILDREN,    /* a child counted on that is not */
	AGGREGATE,      /* a vote in the aggregate that nobody cast */
	FAST_AGGREGATE, /* the same, found by a vote on the fast path */
	OPEN_TXN,       /* a call that leaves its transaction open */
	NO_LOCK,        /* the engine entered without the context lock */
};

static void run_child(enum damage what)
{
	struct rig r;
	rig_build(&r);
	struct dmn_domain *parent = dmn__domain_get(r.ctx, r.parent);
	struct dmn_domain *child = dmn__domain_get(r.ctx, r.child);
	/* FAST_AGGREGATE: a device of its own on the parent, which has no
	 * parents and is on, so that its votes take the fast path (no
	 * commit); attached and active before the damage. */
	dmn_attach_t fast = 0;
	if (what == FAST_AGGREGATE) {
		dmn_device_t dev;
		if (dmn_device_create(r.ctx, "fast", &dev) ||
		    dmn_attach(r.ctx, dev, r.parent, &fast) ||
		    dmn_device_get(r.ctx, dev))
			_exit(3);
	}
	switch (what) {
	case NONE:
		break;
	case ACTIVE_DEVICES:
		child->active_devices++;
		break;
	case ON_CHILDREN:
		parent->on_children++;
		break;
	case AGGREGATE:
	case FAST_AGGREGATE: {
		struct dmn_domain *d = what == AGGREGATE ? child : parent;
		/* An extra count at a level already there: a new level
		 * would have no statistics slot reserved, and the engine
		 * would write past it before any check (ASan sees that). */
		d->votes.bins[d->votes.n - 1].count++;
		break;
	}
	case OPEN_TXN:
		r.ctx->n_order = 1;
		r.ctx->order[0] = child;
		break;
	case NO_LOCK:
		dmn__txn_begin(r.ctx);
		_exit(0);
	}
	if (what == FAST_AGGREGATE) {
		dmn_vote(r.ctx, fast, 1);
		_exit(0);
	}
	/* An ordinary call: a commit that touches both domains. */
	struct dmn_domain_info info;
	if (what == OPEN_TXN)
		dmn_domain_info(r.ctx, r.parent, &info);
	else
		dmn_device_put(r.ctx, r.dev);
	dmn_ctx_destroy(r.ctx);
	_exit(0);
}

/* Run @what in a child; its exit status, and its stderr in @err. */
static int in_child(enum damage what, char *err, size_t size)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit none = {0, 0};
		setrlimit(RLIMIT_CORE, &none); /* no core file per case */
		signal(SIGABRT, SIG_DFL);      /* not cmocka's handler */
		close(fds[0]);
		dup2(fds[1], 2);
		run_child(what);
	}
	close(fds[1]);
	size_t len = 0;
	ssize_t got;
	while (len + 1 < size &&
	       (got = read(fds[0], err + len, size - 1 - len)) > 0)
		len += (size_t)got;
	err[len] = 0;
	close(fds[0]);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void trips(enum damage what, const char *rule)
{
	char err[2048];
	int status = in_child(what, err, sizeof(err));
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		fail_msg("damage %d: no assertion (status 0x%x, stderr: %s)",
			 (int)what, status, err);
	if (!strstr(err, rule))
		fail_msg("damage %d: expected \"%s\" on stderr, got: %s",
			 (int)what, rule, err);
}

static void clean_run(void **state)
{
	(void)state;
	char err[2048];
	int status = in_child(NONE, err, sizeof(err));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(err, "");
}

static void usage_counts(void **state)
{
	(void)state;
	trips(ACTIVE_DEVICES, "active_devices counts the counted attachments");
	trips(ON_CHILDREN, "on_children counts the links whose child is on");
}

static void aggregate(void **state)
{
	(void)state;
	trips(AGGREGATE, "the aggregate is the max of the counted votes");
	trips(FAST_AGGREGATE, "the aggregate is the max of the counted votes");
}

static void lock_and_exit(void **state)
{
	(void)state;
	trips(NO_LOCK, "a transaction runs under the lock");
	trips(OPEN_TXN, "a public call leaves no transaction open");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(clean_run),
	    cmocka_unit_test(usage_counts),
	    cmocka_unit_test(aggregate),
	    cmocka_unit_test(lock_and_exit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
