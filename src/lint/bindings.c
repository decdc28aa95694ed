/* SPDX-License-Identifier: MIT */
#include "lint_internal.h"

void dmn__lint_bindings(struct linter *l, const struct lint_blob *bi,
			const struct dmn_dt_board *b)
{
	(void)l;
	(void)bi;
	(void)b;
}
