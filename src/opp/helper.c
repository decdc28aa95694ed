/* SPDX-License-Identifier: MIT */
/*
 * The get-pstate helper: a platform function giving each entry of a table
 * its pstate, called once per entry when it is added. Registrations are
 * counted (a table shared by several devices is registered by each), and
 * each holds a table reference.
 */
#include "opp_internal.h"

#include <errno.h>

/* dmn_opp_ctx->pstate_of: the helper's pstate for new entry @e. */
static int pstate_of(struct dmn_opp_table *t, struct dmn_opp_entry *e)
{
	uint32_t pstate = 0;
	int err = t->helper(t->helper_user, t->handle,
			    e->n_hz ? oe_hz(e)[0] : 0, &pstate);
	if (err > 0)
		err = -EIO;
	if (!err)
		e->bits |= OE_HAS_PSTATE;
	*oe_pstate_slot(e) = pstate;
	return err;
}

int dmn_opp_register_get_pstate(struct dmn_ctx *ctx, dmn_opp_table_t table,
			    dmn_opp_get_pstate_fn fn, void *user)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, fn, table, &err);
	if (!t)
		return err;
	if (t->helper) {
		/* The same helper again only counts: its entries already
		 * carry its pstates. */
		if (t->helper != fn || t->helper_user != user)
			err = -EBUSY;
	} else if (t->n) {
		err = -EBUSY; /* entries were added without it */
	}
	if (!err) {
		t->helper = fn;
		t->helper_user = user;
		t->helper_regs++;
		dmn__opp_table_ref(t);
		((struct dmn_opp_ctx *)ctx->opp)->pstate_of = pstate_of;
	}
	dmn__unlock(ctx);
	return err;
}
