/* SPDX-License-Identifier: MIT */
/*
 * dmn_opp_set_available and dmn_opp_table_set_boost: enabling and disabling
 * entries at run time. An optional unit (bench/firmware_size.sh): entries
 * added with DMN_OPP_FLAG_UNAVAILABLE or DMN_OPP_FLAG_TURBO need nothing from it.
 */
#include "opp_internal.h"

#include <errno.h>

static const struct dmn_opp_entry *usable_above(const struct dmn_opp_table *t,
					    const struct dmn_opp_entry *e)
{
	int pos = dmn__opp_usable_up(t, dmn__opp_entry_pos(t, e) + 1);
	return pos < 0 ? 0 : opp_sorted_at(t, pos);
}

int dmn_opp_set_available(struct dmn_ctx *ctx, dmn_opp_table_t table, uint32_t id,
		      bool available)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, true, table, &err);
	if (!t)
		return err;
	struct dmn_opp_entry *e = dmn__opp_entry_by_id(t, id);
	err = e ? 0 : -ENOENT;
	if (err || available || !oe_available(e)) {
		if (!err)
			oe_set_available(e, available);
		dmn__unlock(ctx);
		return err;
	}
	ctx->op_error = 0;
	oe_set_available(e, false);
	/* Check every device first: -EBUSY changes nothing. */
	for (struct dmn_opp_dev *od = t->devices; od && !err; od = od->next)
		if (od->vote_id == id && !usable_above(t, e))
			err = -EBUSY;
	for (struct dmn_opp_dev *od = t->devices; od && !err; od = od->next) {
		if (od->vote_id == id) {
			err = dmn__opp_move_locked(ctx, od, usable_above(t, e),
					      od->requested_hz);
		} else if (od->run_id == id) {
			/* A follower running above its own OPP: where it may.
			 */
			const struct dmn_opp_entry *v =
			    dmn__opp_entry_by_id(t, od->vote_id);
			const struct dmn_opp_entry *p =
			    opp_follow_permitted(ctx, od, v);
			if (!p)
				p = v;
			err = dmn__opp_dev_reserve(ctx, od, p->n_supplies);
			if (!err)
				err = dmn__opp_hw_move(ctx, od, p);
			if (!err)
				od->run_id = p->id;
		}
	}
	if (err)
		oe_set_available(e, true); /* devices already moved stay moved */
	err = dmn__txn_result(ctx, err);
	dmn__unlock(ctx);
	return err;
}

int dmn_opp_table_set_boost(struct dmn_ctx *ctx, dmn_opp_table_t table, bool boost)
{
	int err;
	struct dmn_opp_table *t = dmn__opp_enter(ctx, true, table, &err);
	if (!t)
		return err;
	t->boost = boost;
	dmn__unlock(ctx);
	return 0;
}
