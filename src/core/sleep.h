/* SPDX-License-Identifier: MIT */
/* System sleep with the context lock held (sleep.c), for a caller that
 * adds steps of its own in the same locked call (src/opp/devsleep.c). */
#ifndef DOMINO_CORE_SLEEP_H
#define DOMINO_CORE_SLEEP_H

struct dmn_ctx;

/* As dmn_system_suspend / dmn_system_resume, the lock held: the result
 * is already in dmn_last_error (txn_result). */
int dmn__system_suspend_locked(struct dmn_ctx *ctx);
int dmn__system_resume_locked(struct dmn_ctx *ctx);

#endif /* DOMINO_CORE_SLEEP_H */
