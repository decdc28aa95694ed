/* SPDX-License-Identifier: MIT */
/*
 * What the OPP layer (src/opp) may use of the core: the objects it hangs
 * its state on, a call's entry and exit, the transaction it moves devices
 * and domains in, and the core calls it makes with the lock held. Not the
 * locking internals, the fast unit or the live checks: the one core header
 * src/opp includes (docs/architecture.md, Layers).
 */
#ifndef DOMINO_CORE_OPP_CORE_H
#define DOMINO_CORE_OPP_CORE_H

#include "debug.h"
#include "object.h"
#include "ctx.h"
#include "txn.h"
#include "hooks.h"
#include "bsearch.h"

#endif /* DOMINO_CORE_OPP_CORE_H */
