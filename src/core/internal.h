/* SPDX-License-Identifier: MIT */
/*
 * Everything the core's own files use, by concern (each header says what
 * it holds): debug.h (live invariants), object.h (domains, links, devices,
 * attachments), ctx.h (the context, a call's entry and exit), lock.h,
 * txn.h (the engine), hooks.h (the optional units), fast.h (the fast
 * unit's one entry). Only src/core includes this; the OPP layer includes
 * opp_core.h.
 */
#ifndef DOMINO_CORE_INTERNAL_H
#define DOMINO_CORE_INTERNAL_H

#include "debug.h"
#include "object.h"
#include "ctx.h"
#include "lock.h"
#include "txn.h"
#include "hooks.h"
#include "fast.h"

#endif /* DOMINO_CORE_INTERNAL_H */
