/* SPDX-License-Identifier: MIT */
/*
 * The get-pstate helper: a platform function giving each entry of a table
 * its pstate, called once per entry when it is added. Registrations are
 * counted (a table shared by several devices is registered by each), and
 * each holds a table reference.
 */
#include "opp_internal.h"

#include <errno.h>

int opp_register_get_pstate(struct dmn_ctx *ctx, opp_table_t table,
			    opp_get_pstate_fn fn, void *user)
{
	if (!ctx || !fn)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct opp_table *t = dmn__opp_table_lookup(ctx, table);
	int err = t ? 0 : -EBADF;
	if (!err && t->helper) {
		/* The same helper again only counts: its entries already
		 * carry its pstates. */
		if (t->helper != fn || t->helper_user != user)
			err = -EBUSY;
	} else if (!err && t->n) {
		err = -EBUSY; /* entries were added without it */
	}
	if (!err) {
		t->helper = fn;
		t->helper_user = user;
		t->helper_regs++;
		dmn__opp_table_ref(t);
	}
	dmn__unlock(ctx);
	return err;
}

int opp_unregister_get_pstate(struct dmn_ctx *ctx, opp_table_t table)
{
	if (!ctx)
		return -EINVAL;
	if (dmn__lock(ctx))
		return -EDEADLK;
	struct opp_table *t = dmn__opp_table_lookup(ctx, table);
	int err = !t ? -EBADF : !t->helper_regs ? -ENOENT : 0;
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
