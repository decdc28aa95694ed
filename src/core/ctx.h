/* SPDX-License-Identifier: MIT */
/*
 * The context: the handle tables, the scratch of one operation, the undo
 * log, the listeners and the hooks the optional units install; and the
 * entry and exit every public call goes through.
 */
#ifndef DOMINO_CORE_CTX_H
#define DOMINO_CORE_CTX_H

#include <domino/context.h>
#include <errno.h>
#include <stddef.h>

#include "debug.h"
#include "object.h"

/* One entry of the undo log: an address and the value it held, replayed
 * newest first. Most entries are a plain store back of @width bytes; a
 * histogram's count (an add taken back by a decrement, so a fix-up after
 * the commit point finds the bin) and an attachment's counted bit (not
 * addressable, and a restored vote is published again) are their own
 * kinds. */
enum undo_kind {
	UNDO_HIST_ADD,    /* undo by removing level @old from the histogram */
	UNDO_HIST_REMOVE, /* undo by adding it back */
	UNDO_COUNTED,     /* attachment's counted bit was @old */
	UNDO_BOOL,        /* a bool was @old */
	UNDO_U32,         /* a uint32_t / unsigned was @old */
	UNDO_WORD,        /* a pointer-sized word (a pointer) was @old */
};

struct undo_entry {
	void *addr;
	uintptr_t old;
	enum undo_kind kind;
};

struct dmn_ctx {
	struct dmn_alloc_ops alloc;
	struct dmn_lock_ops lock_ops;
	void *lock;
	dmn_time_fn now;
	dmn_time_fn pstate_now; /* now, a coarse default, or NULL: untimed
				 * (context.c, dmn__pstate_timed) */
	void *now_user;

	struct dmn_listener {
		dmn_listener_fn fn;
		void *user;
	} *listeners;
	unsigned n_listeners, cap_listeners;

	/* dmn_vote_many's validated changes, grown to the largest call. */
	struct dmn_vote_plan {
		struct dmn_attachment *att;
		uint32_t level; /* rounded */
	} *vote_plan;
	unsigned cap_vote_plan;

	struct handle_table domains;
	struct handle_table devices;
	struct handle_table attachments;

	/* Scratch of one operation: affected domains, parents first, and
	 * the order C and D of dmn__txn_commit visit them in (children first).
	 * Every scratch array holds at least one entry per live domain,
	 * reserved by dmn_domain_create, so no walk can fail. */
	struct dmn_domain **order;
	unsigned n_order, cap_order;
	struct dmn_domain **off_order;
	unsigned cap_off_order;
	uint64_t epoch;
	struct dmn_domain **stack; /* explicit DFS stacks: no recursion */
	unsigned cap_stack;
	/* dmn__walk_up's output: off_order's array, never live with it. */
	struct dmn_domain **walk;
	uint64_t walk_epoch;

	struct undo_entry *undo;
	unsigned n_undo, cap_undo;

	/* Set while lifecycle.c records what boot left on: the commit then
	 * changes the records without calling the hardware. */
	bool record_only;
	/* Set during dmn_system_suspend's commit: power-offs go to the
	 * deepest idle state without asking the governor. */
	bool sleep_deepest;
	/* dmn_system_set_wakeup_latency: for CPU domains, in ns. */
	bool sys_qos_set;
	uint64_t sys_qos_ns;
	bool asleep;
	uint64_t sleep_since, sleep_time, sleep_count;
	/* A device was resumed: the boot state can no longer be recorded. */
	bool runtime_started;

	int last_error;
	int op_error; /* first callback error of the running operation */
	const struct dmn_domain *fail_dom; /* where an unsafe failure hit */
#ifdef DMN_FIRMWARE
	/* The attachment (device, domain) or link (parent, child) whose
	 * constraints left last (qos.c, firmware build). */
	const void *qos_gone[2];
#endif

	void *opp; /* owned by the OPP layer */
	void (*opp_fini)(struct dmn_ctx *ctx);
	/* Set by the OPP layer around a change that moves other devices in
	 * the same transaction (src/opp/devreq.c): dmn__txn_commit calls it
	 * first (!@mid: more inputs; a negative errno aborts) and between
	 * its raises and its lowerings (@mid: those devices' clocks and
	 * supplies; an error rolls back, ROLLBACK naming ctx->fail_dom). */
	int (*txn_hook)(struct dmn_ctx *ctx, bool mid);
	/* The lifecycle unit's hooks (NULL until it is used): see
	 * struct dmn_lifecycle_hooks. */
	const struct dmn_lifecycle_hooks *life;
	/* The devparent unit's hook (NULL until dmn_device_set_parent): first
	 * in a runtime resume (@resume) or suspend of @dev, it changes the
	 * inputs of the parents that change with @dev. */
	int (*dev_parent)(struct dmn_ctx *ctx, struct dmn_device *dev,
			  bool resume);

	/* The next context the same thread holds (see dmn__lock). */
	struct dmn_ctx *held_next;

	/* Lock striping (default pthread lock only, see dmn__lock): NULL,
	 * or DMN_STRIPES cache-line-sized mutexes; stripes_mem is the block
	 * they were carved from. internal_listeners counts the listeners
	 * added by the OPP layer's follow unit, which read other
	 * domains and so keep every call on the exclusive path. */
	struct dmn_stripe *stripes;
	void *stripes_mem;
	unsigned internal_listeners;
	/* Odd while an exclusive call runs on a striped context (dmn__lock
	 * to dmn__unlock): dmn_vote's lock-free unchanged check trusts a
	 * published vote only if this was even and the same around its
	 * read (a sequence lock; fast/fast.c). */
	unsigned excl_seq;
	/* Exclusive calls on a striped context so far (dmn__lock), 1 to
	 * 2^32 - 1 (at the wrap every domain's mark is dropped,
	 * dmn__fast_epoch_wrap): a domain the fast unit found a rail at this
	 * count (struct dmn_domain, fast_epoch) has not changed since but for
	 * votes on its stripe. Written with every stripe held. */
	uint32_t fast_epoch;
	/* Non-zero once a link was added or removed above a device holding
	 * a non-zero vote (domain.c): that vote may now reach no callback
	 * or a smaller table, so an unchanged non-zero vote is checked again
	 * (docs/semantics.md: a vote is checked when it is cast) instead of answering 0.
	 * Written by exclusive calls only; never cleared. */
	unsigned relinked;
};

/* Whether @ctx times pstate residency (struct dmn_config). A firmware
 * build calls its pstate clock every time: without a time source that
 * is default_now, which reads 0 without clock_gettime, so each level
 * reads 0 ns there as untimed, and the test costs no flash. */
#ifdef DMN_FIRMWARE
#define dmn__pstate_timed(ctx) ((void)(ctx), 1)
#else
#define dmn__pstate_timed(ctx) ((ctx)->pstate_now != 0)
#endif

/* ---- memory (context.c) ---------------------------------------------------- */

void *dmn__alloc(struct dmn_ctx *ctx, size_t size);
void dmn__free(struct dmn_ctx *ctx, void *ptr);
char *dmn__strdup(struct dmn_ctx *ctx, const char *s);
/* Make *@array hold at least @need elements of @elem bytes: 0, or -ENOMEM
 * with the array unchanged. */
int dmn__grow(struct dmn_ctx *ctx, void **array, unsigned *cap,
	      unsigned need, size_t elem);
/* Whether dmn__alloc gives @ctx's blocks whole 64-byte lines of their own
 * (striped, default allocator; context.c). */
int dmn__alloc_whole_lines(const struct dmn_ctx *ctx);

/* ---- listeners (context.c) ------------------------------------------------- */

void dmn__emit(struct dmn_ctx *ctx, const struct dmn_event *ev);
/* Add the listener (@fn, @user) with the lock held: 0, or -ENOMEM. The
 * OPP layer's follow unit counts its own in internal_listeners. */
int dmn__listen_add(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user);
/* Remove the listener (@fn, @user): 0, or -ENOENT. */
int dmn__listen_remove(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user);

/* ---- handles to objects (handle.c) ----------------------------------------- */

/* The object a handle names; NULL if stale or of another kind. */
struct dmn_domain *dmn__domain_get(struct dmn_ctx *ctx, dmn_domain_t h);
struct dmn_device *dmn__device_get(struct dmn_ctx *ctx, dmn_device_t h);
struct dmn_attachment *dmn__attach_get(struct dmn_ctx *ctx, dmn_attach_t h);

/* ---- a public call's entry and exit (handle.c, lock.c) --------------------- */

/* Take the context lock: 0, or -EDEADLK (and an assertion failure in
 * debug builds) when this thread already holds it, i.e. a callback or a
 * listener called back into its own context. Every public call starts
 * here, so a re-entrant call fails before it touches anything. */
int dmn__lock(struct dmn_ctx *ctx) DMN_MUST_CHECK;
void dmn__unlock(struct dmn_ctx *ctx);
/* Whether this thread is inside @ctx already (exclusive or fast). */
int dmn__reentered(const struct dmn_ctx *ctx);

/* The entry of a public call on one object: -EINVAL without @ctx or with
 * @args_ok false, -EDEADLK from a callback, then the object @h names in
 * the handle table at @table (DMN_DOMAINS, DMN_DEVICES or
 * DMN_ATTACHMENTS), or -EBADF; DMN_ENTER_RECORD or-ed into @table also
 * records that -EBADF as the call's result (dmn_last_error) for the calls
 * that run a transaction. Returns the object with the lock held and *@err
 * 0, or NULL with *@err set and the lock not held. One out-of-line copy
 * instead of a preamble in every call keeps the firmware core small. */
void *dmn__enter(struct dmn_ctx *ctx, bool args_ok, size_t table, uint32_t h,
		 int *err);
/* Its first half, for tables outside struct dmn_ctx (OPP tables) and for
 * calls on the context (create calls, walkers): 0 with the lock held, or
 * -EINVAL / -EDEADLK without it. */
int dmn__enter_ctx(struct dmn_ctx *ctx, bool args_ok);
/* Its second half, for the second object of a call on two (dmn_attach,
 * dmn_link_add): the object @h names at @table with the lock still held,
 * or NULL with *@err -EBADF (recorded with DMN_ENTER_RECORD) and the lock
 * released. */
void *dmn__enter_more(struct dmn_ctx *ctx, size_t table, uint32_t h,
		      int *err);
/* Leave a call the entry let in, before it changed anything: *@out = @err,
 * recorded as the call's result if @record has DMN_ENTER_RECORD, the lock
 * released. Returns NULL (for the entry helpers' failures). */
void *dmn__enter_leave(struct dmn_ctx *ctx, size_t record, int err, int *out);
/* Leave a state-changing call: its result recorded as dmn_last_error()
 * (dmn__txn_result), the lock released. Returns @err. */
int dmn__leave(struct dmn_ctx *ctx, int err);
/* The entry of a call on the link from @child up to @parent: as dmn__enter
 * (@record: DMN_ENTER_RECORD or 0), then -EBADF for a stale handle or
 * -ENOENT without such a link. */
struct dmn_link *dmn__enter_link(struct dmn_ctx *ctx, bool args_ok,
				 size_t record, dmn_domain_t parent,
				 dmn_domain_t child, int *err);
#define DMN_DOMAINS offsetof(struct dmn_ctx, domains)
#define DMN_DEVICES offsetof(struct dmn_ctx, devices)
#define DMN_ATTACHMENTS offsetof(struct dmn_ctx, attachments)
/* Table offsets are pointer-aligned, so bit 0 is free for the flag. */
#define DMN_ENTER_RECORD ((size_t)1)

/* Finish a public state-changing call: record dmn_last_error(), the call's
 * error or else the first callback error of its transaction (an atomic
 * store: dmn_vote's lock-free unchanged check reads it). Returns @err. */
int dmn__txn_result(struct dmn_ctx *ctx, int err);

#endif /* DOMINO_CORE_CTX_H */
