/* SPDX-License-Identifier: MIT */
/*
 * Teardown of the OPP layer: the calls that only take apart (an optional
 * firmware unit with src/core/teardown.c, see docs/architecture.md
 * "Firmware units"). A power controller binds its devices and builds its
 * tables once and keeps them until reset; the context's own teardown
 * (dmn_ctx_destroy: dmn__opp_ctx_fini) frees whatever is left.
 */
#include "opp_internal.h"

#include <errno.h>

static void dev_free(struct dmn_ctx *ctx, struct dmn_opp_dev *od)
{
	dmn__free(ctx, od->supply);
	dmn__free(ctx, od->own_vote);
	dmn__free(ctx, od);
}

static void domains_fini(struct dmn_ctx *ctx, struct dmn_opp_ctx *oc)
{
	for (struct dmn_opp_domain *od = oc->domains, *next; od; od = next) {
		next = od->next;
		dmn__free(ctx, od);
	}
	oc->domains = 0;
}

void dmn__opp_table_free(struct dmn_ctx *ctx, struct dmn_opp_table *t)
{
	for (unsigned i = 0; i < t->n; i++)
		dmn__free(ctx, t->by_id[i]);
	dmn__free(ctx, t->by_id);
	dmn__free(ctx, t->sorted);
	dmn__free(ctx, t->deps);
	dmn__free(ctx, t->users);
	dmn__free(ctx, t->name);
	dmn__free(ctx, t);
}

static void drop_user(struct dmn_opp_table *dep, const struct dmn_opp_table *user)
{
	for (unsigned i = 0; i < dep->n_users; i++)
		if (dep->users[i] == user) {
			dep->users[i] = dep->users[--dep->n_users];
			return;
		}
}

void dmn__opp_table_unref(struct dmn_ctx *ctx, struct dmn_opp_table *t)
{
	if (--t->refs)
		return;
	struct dmn_opp_ctx *oc = ctx->opp;
	/* A chain of tables freeing each other is walked through a list
	 * threaded in the tables themselves: no recursion on its length and
	 * no allocation on a path that frees. */
	t->free_next = 0;
	for (struct dmn_opp_table *dead = t; dead;) {
		struct dmn_opp_table *next = dead->free_next;
		dmn__handle_release(&oc->tables, dead->handle);
		for (unsigned i = 0; i < dead->n_deps; i++) {
			struct dmn_opp_table *dep = dead->deps[i];
			drop_user(dep, dead);
			if (!--dep->refs) {
				dep->free_next = next;
				next = dep;
			}
		}
		dmn__opp_table_free(ctx, dead);
		dead = next;
	}
}

int dmn_opp_table_put(struct dmn_ctx *ctx, dmn_opp_table_t table)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, true, table, &err);
	if (!t)
		return err;
	dmn__opp_table_unref(ctx, t);
	dmn__unlock(ctx);
	return 0;
}

int dmn_opp_device_unbind(struct dmn_ctx *ctx, dmn_device_t dev)
{
	int err;
	struct dmn_opp_dev *od = dmn__opp_dev_enter(ctx, true, dev, true, &err);
	if (!od)
		return err;
	ctx->op_error = 0;
	err = dmn__opp_rate_locked(ctx, od, 0, 0);
	if (!err && od->vote_id != DMN_OPP_ID_NONE) /* held up as an owner */
		err = dmn__opp_move_locked(ctx, od, 0, 0);
	if (!err) {
		if (od->follow) /* then the hooks are there */
			((struct dmn_opp_ctx *)ctx->opp)->follow->drop(ctx, od);
		struct dmn_opp_table *t = od->table;
		struct dmn_opp_dev **link = &t->devices;
		while (*link != od)
			link = &(*link)->next;
		*link = od->next;
		od->pdev->cold->opp_state = 0;
		dev_free(ctx, od);
		/* what it required counts no more (no requirement, no
		 * devreq hook: nothing to settle) */
		const struct dmn_opp_ctx *oc = ctx->opp;
		if (oc->devreq)
			oc->devreq->settle(ctx, t);
		dmn__opp_table_unref(ctx, t);
	}
	err = dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

void dmn__opp_ctx_fini(struct dmn_ctx *ctx)
{
	struct dmn_opp_ctx *oc = ctx->opp;
	if (!oc)
		return;
	if (oc->follow)
		oc->follow->fini(ctx, oc);
	for (uint32_t h = dmn__handle_next(&oc->tables, 0); h;
	     h = dmn__handle_next(&oc->tables, h)) {
		struct dmn_opp_table *t = dmn__handle_lookup(&oc->tables, h);
		for (struct dmn_opp_dev *od = t->devices, *next; od; od = next) {
			next = od->next;
			od->pdev->cold->opp_state = 0;
			dev_free(ctx, od);
		}
		dmn__opp_table_free(ctx, t);
	}
	domains_fini(ctx, oc);
	dmn__handle_table_fini(ctx, &oc->tables);
	dmn__free(ctx, oc->req_slot);
	dmn__free(ctx, oc->walk);
	dmn__free(ctx, oc);
	ctx->opp = 0;
	ctx->opp_fini = 0;
}

int dmn_opp_unregister_get_pstate(struct dmn_ctx *ctx, dmn_opp_table_t table)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, true, table, &err);
	if (!t)
		return err;
	err = t->helper_regs ? 0 : -ENOENT;
	if (!err) {
		/* Entries keep the pstates they were given. */
		if (!--t->helper_regs) {
			t->helper = 0;
			t->helper_user = 0;
		}
		dmn__opp_table_unref(ctx, t);
	}
	dmn__unlock(ctx);
	return err;
}
