/* SPDX-License-Identifier: MIT */
#include "fake.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what)
{
	fprintf(stderr, "test helper: %s\n", what);
	abort();
}

/* One callback of @d through the backend; the adapter keeps per domain
 * what the tests read (calls, what the hardware accepted). */
static int fake_call(struct fake_domain *d, dmn_domain_t h, enum fake_op op,
		     uint32_t level)
{
	struct dmn_sim_providers_call c = {.op = (enum dmn_sim_providers_op)op,
				       .object = h, .value = level};
	int ret = dmn_sim_providers_call(&d->fake->hw, &c);
	d->calls[op]++;
	if (!ret) {
		if (op == FAKE_ON)
			d->on = true;
		else if (op == FAKE_OFF)
			d->on = false;
		else
			d->pstate = level;
	}
	return ret;
}

static int cb_on(void *user, dmn_domain_t dom)
{
	struct fake_domain *d = user;
	if (!d->handle)
		d->handle = dom; /* always-on domains call back from create */
	return fake_call(d, dom, FAKE_ON, 0);
}

static int cb_off(void *user, dmn_domain_t dom, int idle_state)
{
	(void)idle_state;
	return fake_call(user, dom, FAKE_OFF, 0);
}

static int cb_pstate(void *user, dmn_domain_t dom, uint32_t level)
{
	return fake_call(user, dom, FAKE_PSTATE, level);
}

const struct dmn_domain_ops fake_ops_full = {cb_on, cb_off, cb_pstate, 0};
const struct dmn_domain_ops fake_ops_power = {cb_on, cb_off, 0, 0};
const struct dmn_domain_ops fake_ops_pstate = {0, 0, cb_pstate, 0};

void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	dmn_sim_providers_init(&f->hw, NULL, f->log, FAKE_MAX_LOG);
	f->fail_err = -EIO;
}

dmn_domain_t fake_domain(struct fake *f, struct dmn_ctx *ctx, const char *name,
			const struct dmn_domain_ops *ops, uint32_t flags)
{
	if (f->n_dom >= FAKE_MAX_DOMAINS)
		die("too many fake domains");
	struct fake_domain *d = &f->dom[f->n_dom];
	memset(d, 0, sizeof(*d));
	d->fake = f;
	d->index = f->n_dom;
	d->name = name;
	struct dmn_domain_desc desc = {name, ops, d, flags};
	dmn_domain_t h = 0;
	int err = dmn_domain_create(ctx, &desc, &h);
	if (err || !h) {
		fprintf(stderr, "dmn_domain_create(%s): %d\n", name, err);
		die("cannot create fake domain");
	}
	d->handle = h;
	f->n_dom++;
	return h;
}

struct fake_domain *fake_find(struct fake *f, dmn_domain_t h)
{
	int i = fake_index(f, h);
	return i >= 0 ? &f->dom[i] : 0;
}

int fake_index(const struct fake *f, dmn_domain_t h)
{
	for (unsigned i = 0; i < f->n_dom; i++)
		if (f->dom[i].handle == h)
			return (int)i;
	return -1;
}

void fake_clear_log(struct fake *f)
{
	dmn_sim_providers_clear_log(&f->hw);
}

void fake_fail(struct fake *f, dmn_domain_t h, enum fake_op op, unsigned n)
{
	if (!fake_find(f, h))
		die("fake_fail: unknown domain");
	if (dmn_sim_providers_fail(&f->hw, (enum dmn_sim_providers_op)op, h, n,
			       f->fail_err))
		die("fake_fail: cannot arm the failure");
}

void fake_fail_call(struct fake *f, unsigned long k)
{
	if (dmn_sim_providers_fail_call(&f->hw, k, f->fail_err))
		die("fake_fail_call: cannot arm the failure");
}

static const char *domain_name(const struct fake *f, dmn_domain_t h)
{
	int i = fake_index(f, h);
	return i >= 0 ? f->dom[i].name : "?";
}

void fake_log_print(const struct fake *f)
{
	for (unsigned i = 0; i < f->hw.n_log; i++) {
		const struct dmn_sim_providers_call *c = &f->log[i];
		fprintf(stderr, "  %u: %s %s", i, dmn_sim_providers_op_name(c->op),
			domain_name(f, c->object));
		if (c->op == DMN_SIM_PROVIDERS_PSTATE)
			fprintf(stderr, " %u", (unsigned)c->value);
		fprintf(stderr, "%s\n", c->result ? " (failed)" : "");
	}
}

bool fake_log_is(const struct fake *f, unsigned n, const uint32_t *triples)
{
	bool same = f->hw.n_log == n;
	for (unsigned i = 0; same && i < n; i++) {
		const struct dmn_sim_providers_call *c = &f->log[i];
		same = c->op == (enum dmn_sim_providers_op)triples[3 * i] &&
		       c->object == triples[3 * i + 1] &&
		       (c->op != DMN_SIM_PROVIDERS_PSTATE ||
			c->value == triples[3 * i + 2]);
	}
	if (!same) {
		fprintf(stderr, "callback log:\n");
		fake_log_print(f);
		fprintf(stderr, "expected:\n");
		for (unsigned i = 0; i < n; i++)
			fprintf(stderr, "  %u: %s %s %u\n", i,
				dmn_sim_providers_op_name(
				    (enum dmn_sim_providers_op)triples[3 * i]),
				domain_name(f, triples[3 * i + 1]),
				(unsigned)triples[3 * i + 2]);
	}
	return same;
}

int fake_log_find(const struct fake *f, enum fake_op op, dmn_domain_t h)
{
	for (unsigned i = 0; i < f->hw.n_log; i++)
		if (f->log[i].op == (enum dmn_sim_providers_op)op &&
		    f->log[i].object == h)
			return (int)i;
	return -1;
}

unsigned fake_log_count(const struct fake *f, enum fake_op op, dmn_domain_t h)
{
	unsigned n = 0;
	for (unsigned i = 0; i < f->hw.n_log; i++)
		n += f->log[i].op == (enum dmn_sim_providers_op)op &&
		     f->log[i].object == h;
	return n;
}

/* ---- allocation hook ---------------------------------------------------- */

void *fake_alloc_fn(void *user, size_t size)
{
	struct fake_alloc *a = user;
	a->count++;
	if (a->fail_at && a->count == a->fail_at) {
		a->failed++;
		return 0;
	}
	void *p = malloc(size);
	if (p)
		a->live++;
	return p;
}

void fake_free_fn(void *user, void *ptr)
{
	struct fake_alloc *a = user;
	if (!ptr)
		die("free hook called with NULL");
	a->live--;
	free(ptr);
}

void fake_alloc_fail_at(struct fake_alloc *a, long k)
{
	a->count = 0;
	a->fail_at = k;
}

struct dmn_config fake_config(struct fake_alloc *a)
{
	struct dmn_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.alloc.alloc = fake_alloc_fn;
	cfg.alloc.free = fake_free_fn;
	cfg.alloc.user = a;
	cfg.lock = dmn_lock_none;
	return cfg;
}

/* ---- events -------------------------------------------------------------- */

void evrec_fn(void *user, struct dmn_ctx *ctx, const struct dmn_event *ev)
{
	struct evrec *r = user;
	(void)ctx;
	if (r->n < EVREC_MAX)
		r->ev[r->n++] = *ev;
}

unsigned evrec_count(const struct evrec *r, enum dmn_event_kind kind)
{
	unsigned n = 0;
	for (unsigned i = 0; i < r->n; i++)
		n += r->ev[i].kind == kind;
	return n;
}

const struct dmn_event *evrec_first(const struct evrec *r,
				    enum dmn_event_kind kind)
{
	for (unsigned i = 0; i < r->n; i++)
		if (r->ev[i].kind == kind)
			return &r->ev[i];
	return 0;
}

/* ---- snapshots ----------------------------------------------------------- */

static void check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "snapshot: %s failed: %d\n", what, err);
		die("introspection failed");
	}
}

void snap_take(struct dmn_ctx *ctx, const struct fake *f, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	dmn_domain_t h = 0;
	int err;
	while (!(err = dmn_domain_next(ctx, h, &h))) {
		if (s->n_dom >= SNAP_MAX)
			die("snapshot: too many domains");
		struct snap_domain *d = &s->dom[s->n_dom++];
		d->handle = h;
		check(dmn_domain_info(ctx, h, &d->info), "dmn_domain_info");
		snprintf(d->name, sizeof(d->name), "%s", d->info.name);
		d->info.name = 0;
		if (d->info.n_parents > SNAP_MAX_LINKS ||
		    d->info.n_children > SNAP_MAX_LINKS)
			die("snapshot: too many links");
		for (unsigned i = 0; i < d->info.n_parents; i++)
			check(dmn_domain_parent(ctx, h, i, &d->parents[i]),
			      "dmn_domain_parent");
		dmn_domain_t extra;
		if (dmn_domain_parent(ctx, h, d->info.n_parents, &extra) !=
		    -ENOENT)
			die("snapshot: parent past the end");
		for (unsigned i = 0; i < d->info.n_children; i++) {
			check(dmn_domain_child(ctx, h, i, &d->children[i]),
			      "dmn_domain_child");
			check(dmn_link_info(ctx, h, d->children[i],
					   &d->child_req[i], &d->child_on[i]),
			      "dmn_link_info");
		}
		if (dmn_domain_child(ctx, h, d->info.n_children, &extra) !=
		    -ENOENT)
			die("snapshot: child past the end");
		dmn_attach_t a = 0;
		while (!(err = dmn_domain_next_attachment(ctx, h, a, &a))) {
			if (d->n_atts >= SNAP_MAX_ATTS)
				die("snapshot: too many attachments");
			d->atts[d->n_atts++] = a;
		}
		if (err != -ENOENT)
			die("snapshot: attachment iteration");
		if (f) {
			int i = fake_index(f, h);
			const struct fake_domain *fd = i >= 0 ? &f->dom[i] : 0;
			if (fd) {
				d->hw_known = true;
				d->hw_on = fd->on;
				d->hw_pstate = fd->pstate;
			}
		}
	}
	if (err != -ENOENT)
		die("snapshot: domain iteration");
	h = 0;
	while (!(err = dmn_device_next(ctx, h, &h))) {
		if (s->n_dev >= SNAP_MAX)
			die("snapshot: too many devices");
		struct snap_device *d = &s->dev[s->n_dev++];
		d->handle = h;
		check(dmn_device_info(ctx, h, &d->info), "dmn_device_info");
		snprintf(d->name, sizeof(d->name), "%s", d->info.name);
		d->info.name = 0;
		if (d->info.n_attachments > SNAP_MAX_ATTS)
			die("snapshot: too many attachments");
		for (unsigned i = 0; i < d->info.n_attachments; i++) {
			check(dmn_device_attachment(ctx, h, i, &d->atts[i]),
			      "dmn_device_attachment");
			check(dmn_attach_info(ctx, d->atts[i], &d->att_info[i]),
			      "dmn_attach_info");
		}
	}
	if (err != -ENOENT)
		die("snapshot: device iteration");
}

#define DIFF(cond, ...)                                                      \
	do {                                                                 \
		if (cond) {                                                  \
			snprintf(why, n, __VA_ARGS__);                       \
			return 1;                                            \
		}                                                            \
	} while (0)

int snap_diff(const struct snapshot *a, const struct snapshot *b, char *why,
	      size_t n)
{
	DIFF(a->n_dom != b->n_dom, "domain count %u != %u", a->n_dom, b->n_dom);
	DIFF(a->n_dev != b->n_dev, "device count %u != %u", a->n_dev, b->n_dev);
	for (unsigned i = 0; i < a->n_dom; i++) {
		const struct snap_domain *x = &a->dom[i], *y = &b->dom[i];
		const struct dmn_domain_info *p = &x->info, *q = &y->info;
		DIFF(x->handle != y->handle, "domain #%u handle", i);
		DIFF(strcmp(x->name, y->name), "domain #%u name", i);
		DIFF(p->flags != q->flags, "%s: flags", x->name);
		DIFF(p->on != q->on, "%s: on %d != %d", x->name, p->on, q->on);
		DIFF(p->pstate != q->pstate, "%s: pstate %u != %u", x->name,
		     (unsigned)p->pstate, (unsigned)q->pstate);
		DIFF(p->target_pstate != q->target_pstate,
		     "%s: target_pstate %u != %u", x->name,
		     (unsigned)p->target_pstate, (unsigned)q->target_pstate);
		DIFF(p->active_devices != q->active_devices,
		     "%s: active_devices %u != %u", x->name, p->active_devices,
		     q->active_devices);
		DIFF(p->on_children != q->on_children,
		     "%s: on_children %u != %u", x->name, p->on_children,
		     q->on_children);
		DIFF(p->n_parents != q->n_parents, "%s: n_parents", x->name);
		DIFF(p->n_children != q->n_children, "%s: n_children", x->name);
		DIFF(p->n_attachments != q->n_attachments,
		     "%s: n_attachments", x->name);
		DIFF(p->idle_state != q->idle_state, "%s: idle_state",
		     x->name);
		DIFF(p->has_pstate_cb != q->has_pstate_cb, "%s: has_pstate_cb",
		     x->name);
		for (unsigned j = 0; j < p->n_parents; j++)
			DIFF(x->parents[j] != y->parents[j], "%s: parent %u",
			     x->name, j);
		for (unsigned j = 0; j < p->n_children; j++) {
			DIFF(x->children[j] != y->children[j], "%s: child %u",
			     x->name, j);
			DIFF(x->child_req[j] != y->child_req[j],
			     "%s: link to child %u req %u != %u", x->name, j,
			     (unsigned)x->child_req[j],
			     (unsigned)y->child_req[j]);
			DIFF(x->child_on[j] != y->child_on[j],
			     "%s: link to child %u child_on", x->name, j);
		}
		DIFF(x->n_atts != y->n_atts, "%s: attachments iterated",
		     x->name);
		for (unsigned j = 0; j < x->n_atts; j++)
			DIFF(x->atts[j] != y->atts[j], "%s: attachment %u",
			     x->name, j);
		DIFF(x->hw_known != y->hw_known, "%s: hw known", x->name);
		DIFF(x->hw_on != y->hw_on, "%s: hardware on %d != %d", x->name,
		     x->hw_on, y->hw_on);
		DIFF(x->hw_pstate != y->hw_pstate,
		     "%s: hardware pstate %u != %u", x->name,
		     (unsigned)x->hw_pstate, (unsigned)y->hw_pstate);
	}
	for (unsigned i = 0; i < a->n_dev; i++) {
		const struct snap_device *x = &a->dev[i], *y = &b->dev[i];
		DIFF(x->handle != y->handle, "device #%u handle", i);
		DIFF(strcmp(x->name, y->name), "device #%u name", i);
		DIFF(x->info.usage != y->info.usage, "%s: usage %u != %u",
		     x->name, x->info.usage, y->info.usage);
		DIFF(x->info.n_attachments != y->info.n_attachments,
		     "%s: n_attachments", x->name);
		for (unsigned j = 0; j < x->info.n_attachments; j++) {
			const struct dmn_attach_info *p = &x->att_info[j],
						    *q = &y->att_info[j];
			DIFF(x->atts[j] != y->atts[j], "%s: attachment %u",
			     x->name, j);
			DIFF(p->device != q->device || p->domain != q->domain,
			     "%s: attachment %u ends", x->name, j);
			DIFF(p->vote != q->vote, "%s: attachment %u vote %u != %u",
			     x->name, j, (unsigned)p->vote, (unsigned)q->vote);
			DIFF(p->counts != q->counts,
			     "%s: attachment %u counts", x->name, j);
		}
	}
	return 0;
}
