/* SPDX-License-Identifier: MIT */
/*
 * Re-entrancy: a callback or a listener that calls back
 * into its own context gets -EDEADLK from that call, with the default lock
 * (which would otherwise deadlock) and with no lock (which would otherwise
 * corrupt state), and the outer call finishes as if nothing happened. A
 * call into another context from a callback is fine.
 *
 * Built twice: against the library (release: the -EDEADLK answer), and
 * with the core compiled with DMN_DEBUG (REENTRY_ASSERTS), where the same
 * call must stop the program with an assertion: checked in a child.
 */
#include <domino/domain.h>
#include <domino/explain.h>
#include <domino/lifecycle.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;
#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,   \
				#cond);                                      \
			failures++;                                          \
		}                                                            \
	} while (0)

struct world {
	struct dmn_ctx *ctx, *other;
	dmn_domain_t dom, other_dom;
	dmn_device_t dev;
	int inner_put, inner_info, inner_other, inner_listen_info;
	int inner_units[8]; /* the optional units' calls (lifecycle, explain) */
	int in_listener;
};

static int on_cb(void *user, dmn_domain_t dom)
{
	struct world *w = user;
	(void)dom;
	/* What once corrupted state: a put from inside power_on. */
	w->inner_put = dmn_device_put(w->ctx, w->dev);
	struct dmn_domain_info info;
	w->inner_info = dmn_domain_info(w->ctx, w->dom, &info);
	/* Another context is not re-entrancy. */
	w->inner_other = dmn_domain_info(w->other, w->other_dom, &info);
	struct dmn_explanation ex;
	uint64_t n, ns;
	int *u = w->inner_units;
	u[0] = dmn_domain_boot_on(w->ctx, w->dom, 0);
	u[1] = dmn_device_probe(w->ctx, w->dev);
	u[2] = dmn_probe_all(w->ctx);
	u[3] = dmn_device_set_always_on(w->ctx, w->dev, 1);
	u[4] = dmn_system_suspend(w->ctx);
	u[5] = dmn_system_asleep(w->ctx);
	u[6] = dmn_system_sleep_stats(w->ctx, &n, &ns);
	u[7] = dmn_domain_explain(w->ctx, w->dom, &ex, 0, 0);
	return 0;
}

static int off_cb(void *user, dmn_domain_t dom, int idle)
{
	(void)user;
	(void)dom;
	(void)idle;
	return 0;
}

static const struct dmn_domain_ops ops = {on_cb, off_cb, 0, 0};

#if !defined(REENTRY_ASSERTS)
/* A pstate callback: with the default lock, the vote that calls it takes
 * the striped fast path (one stripe and the domain's lock), so the calls
 * back must be refused there too, not wait for the stripe it holds. */
struct fast_world {
	struct dmn_ctx *ctx;
	dmn_device_t dev;
	dmn_attach_t att;
	int inner_vote, inner_get, inner_info, calls;
	bool armed;
};

static int pstate_cb(void *user, dmn_domain_t dom, uint32_t level)
{
	struct fast_world *w = user;
	(void)level;
	struct dmn_domain_info info;
	if (!w->armed)
		return 0;
	w->calls++;
	w->inner_vote = dmn_vote(w->ctx, w->att, 30);
	w->inner_get = dmn_device_get(w->ctx, w->dev);
	w->inner_info = dmn_domain_info(w->ctx, dom, &info);
	return 0;
}

static const struct dmn_domain_ops fast_ops = {.set_performance_state = pstate_cb};
#endif

static void listener(void *user, struct dmn_ctx *ctx, const struct dmn_event *ev)
{
	struct world *w = user;
	if (ev->kind != DMN_EV_POWER_OFF || w->in_listener)
		return;
	w->in_listener = 1;
	w->inner_listen_info = dmn_last_error(ctx);
	w->in_listener = 0;
}

static void build(struct world *w, bool no_lock)
{
	memset(w, 0, sizeof(*w));
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	if (no_lock)
		cfg.lock = dmn_lock_none;
	CHECK(dmn_ctx_create(&cfg, &w->ctx) == 0);
	CHECK(dmn_ctx_create(&cfg, &w->other) == 0);
	struct dmn_domain_desc desc = {"d", &ops, w, 0};
	CHECK(dmn_domain_create(w->ctx, &desc, &w->dom) == 0);
	struct dmn_domain_desc plain = {"o", 0, 0, 0};
	CHECK(dmn_domain_create(w->other, &plain, &w->other_dom) == 0);
	CHECK(dmn_device_create(w->ctx, "dev", &w->dev) == 0);
	dmn_attach_t at;
	CHECK(dmn_attach(w->ctx, w->dev, w->dom, &at) == 0);
	CHECK(dmn_listen(w->ctx, listener, w) == 0);
}

#if !defined(REENTRY_ASSERTS)
static void run(bool no_lock)
{
	struct world w;
	build(&w, no_lock);
	CHECK(dmn_device_get(w.ctx, w.dev) == 0);
	CHECK(w.inner_put == -EDEADLK);
	CHECK(w.inner_info == -EDEADLK);
	CHECK(w.inner_other == 0);
	for (unsigned i = 0; i < 8; i++)
		CHECK(w.inner_units[i] == -EDEADLK);
	/* The outer call finished whole: on, with its one active device. */
	struct dmn_domain_info info;
	CHECK(dmn_domain_info(w.ctx, w.dom, &info) == 0);
	CHECK(info.on && info.active_devices == 1);
	struct dmn_device_info di;
	CHECK(dmn_device_info(w.ctx, w.dev, &di) == 0);
	CHECK(di.usage == 1);
	/* A listener re-entering is refused the same way. */
	CHECK(dmn_device_put(w.ctx, w.dev) == 0);
	CHECK(w.inner_listen_info == -EDEADLK);
	CHECK(dmn_domain_info(w.ctx, w.dom, &info) == 0);
	CHECK(!info.on && info.active_devices == 0);
	dmn_ctx_destroy(w.ctx);
	dmn_ctx_destroy(w.other);
}

static void run_fast(bool no_lock)
{
	struct fast_world w;
	memset(&w, 0, sizeof(w));
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	if (no_lock)
		cfg.lock = dmn_lock_none;
	CHECK(dmn_ctx_create(&cfg, &w.ctx) == 0);
	dmn_domain_t dom;
	struct dmn_domain_desc desc = {"rail", &fast_ops, &w, 0};
	CHECK(dmn_domain_create(w.ctx, &desc, &dom) == 0);
	CHECK(dmn_device_create(w.ctx, "dev", &w.dev) == 0);
	CHECK(dmn_attach(w.ctx, w.dev, dom, &w.att) == 0);
	CHECK(dmn_device_get(w.ctx, w.dev) == 0);
	/* The first votes grow the histogram and the statistics (exclusive
	 * path); after them a vote has room and takes the fast path. */
	for (uint32_t level = 10; level <= 40; level += 10)
		CHECK(dmn_vote(w.ctx, w.att, level) == 0);
	w.armed = true;
	CHECK(dmn_vote(w.ctx, w.att, 10) == 0);
	CHECK(w.calls == 1);
	CHECK(w.inner_vote == -EDEADLK);
	CHECK(w.inner_get == -EDEADLK);
	CHECK(w.inner_info == -EDEADLK);
	struct dmn_domain_info info;
	CHECK(dmn_domain_info(w.ctx, dom, &info) == 0);
	CHECK(info.pstate == 10);
	struct dmn_device_info di;
	CHECK(dmn_device_info(w.ctx, w.dev, &di) == 0);
	CHECK(di.usage == 1);
	dmn_ctx_destroy(w.ctx);
}
#endif

int main(void)
{
#if defined(REENTRY_ASSERTS)
	/* Debug build of the core: the re-entrant call asserts. */
	for (int no_lock = 0; no_lock < 2; no_lock++) {
		fflush(0);
		pid_t pid = fork();
		if (pid == 0) {
			struct world w;
			build(&w, no_lock);
			dmn_device_get(w.ctx, w.dev);
			_exit(0); /* not reached if the assertion fires */
		}
		int status = 0;
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	}
#else
	run(false);
	run(true);
	run_fast(false);
	run_fast(true);
#endif
	if (failures)
		return 1;
	printf("ok\n");
	return 0;
}
