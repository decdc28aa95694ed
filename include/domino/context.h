/* SPDX-License-Identifier: MIT */
/*
 * domino - library-wide things: the context, its hooks, errors and events.
 *
 * Everything domino manages hangs off one struct dmn_ctx. There is no global
 * state: two contexts never share anything, so two independent power
 * controllers (or two test cases) can run side by side.
 *
 * Conventions used by every public function of libdomino:
 *  - return 0 (or a non-negative count) on success, a negative errno on
 *    failure; dmn_strerror() names it;
 *  - the library never prints: diagnostics go to the event listeners;
 *  - the library allocates only through the context's allocation hook;
 *  - objects are named by small validated handles, never dereferenced
 *    unchecked. Exactly: a handle is 32 bits, 2 of kind, 10 of the
 *    generation of its slot, 20 of slot. A handle of the wrong kind always
 *    gets -EBADF; a stale one (its object was removed) gets -EBADF unless its
 *    slot has since been reused a multiple of 1,024 times, when it names the
 *    slot's new object; a handle of another context is not recognised as
 *    such: it gets -EBADF unless this context has a live object of that kind
 *    in that slot with that generation. A context holds at most 2^20 - 1
 *    live objects of each kind (domains, devices, attachments; -ENOSPC
 *    beyond). Nothing else is capped at compile time: graph depth, idle
 *    states, pstate levels, listeners and dmn_vote_many changes are limited
 *    by memory only;
 *  - callbacks and listeners run with the context's lock held (or, on a
 *    fast path, the lock of the domains concerned: see struct
 *    dmn_lock_ops); a call they
 *    make back into their own context (on the same thread, whatever the
 *    lock hook, dmn_lock_none included) fails with -EDEADLK before it
 *    touches anything, and stops the program with an assertion in debug
 *    builds (NDEBUG unset, or DMN_DEBUG). Every function that takes a
 *    context can return -EDEADLK that way; calls into another context are
 *    fine.
 *
 * Error codes: one meaning each, across every header (each function's
 * comment says which it returns and for what):
 *   -EINVAL     an argument or an input value the call cannot take: NULL
 *               where an object is needed, a bad flag or size, a property
 *               or scenario value of the wrong form (the diagnostic says
 *               which);
 *   -EBADF      a handle that names no live object of that kind here
 *               (stale, of another kind, or of another context);
 *   -ENOENT     no such object: no such name, index, link, listener or
 *               entry, past the end of a list, or a device with no OPP
 *               table bound ("not bound" is always -ENOENT);
 *   -EEXIST     the name or link already exists, or a name is not unique;
 *   -ENOMEM     the allocation hook failed; the call changed nothing;
 *   -ENOSPC     a table or buffer of fixed size is full or too small
 *               (2^20 - 1 objects of a kind, a listener slot, an SCMI
 *               reply buffer);
 *   -ERANGE     a level or rate beyond what a domain or table supports;
 *   -ENODEV     a non-zero pstate vote no domain can take: neither the
 *               voted domain nor any domain above it has a
 *               set_performance_state callback;
 *   -EBUSY      the object is in use (an OPP entry a device runs at), or
 *               too late (boot-on after a device was resumed);
 *   -EACCES     not allowed in the system's state: a runtime change while
 *               the system sleeps (dmn_system_suspend, docs/lifecycle.md);
 *   -EOPNOTSUPP the domain's provider has no callback for the request
 *               (dmn_attach_set_hwmode without set_hwmode);
 *   -ELOOP      the link would close a cycle;
 *   -EALREADY   already in the requested state (a put at usage count 0);
 *   -EDEADLK    a callback or listener called back into its own context;
 *   -EAGAIN     the lock hook could not create its lock;
 *   -EILSEQ     malformed input: a corrupt blob, invalid UTF-8;
 *   -EOVERFLOW  a number in the input does not fit its type;
 *   -E2BIG      an input too large to index (a scenario of 2^32 - 1 lines);
 *   -EIO        an output sink failed, a callback returned a positive value,
 *               or a simulated hardware failure (the `fail` command);
 *   any other   a callback's own error, passed through unchanged.
 * dmn_strerror() and dmn_errno_name() name each of them.
 */
#ifndef DOMINO_CONTEXT_H
#define DOMINO_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMN_VERSION_MAJOR 0
#define DMN_VERSION_MINOR 2
#define DMN_VERSION_PATCH 0
#define DMN_VERSION_STRING "0.2.0"

struct dmn_ctx;

/**
 * struct dmn_alloc_ops - the one allocation hook of a context
 * @alloc: return @size bytes aligned for any object, or NULL when out of
 *         memory (the library then fails the call with -ENOMEM and changes
 *         nothing)
 * @free:  release a block returned by @alloc; never called with NULL
 * @user:  passed to both
 *
 * Tests use this hook to fail the k-th allocation for every k.
 */
struct dmn_alloc_ops {
	void *(*alloc)(void *user, size_t size);
	void (*free)(void *user, void *ptr);
	void *user;
};

/**
 * struct dmn_lock_ops - the one locking hook of a context
 * @create:  make a new non-recursive mutex; return 0 and store it in *@lock,
 *           or a negative errno
 * @acquire: block until the mutex is held
 * @release: release it
 * @destroy: free it
 * @user:    passed to every call
 *
 * With a hook, the context takes exactly this one mutex around every
 * public call, so callers on several threads are serialized and no lock
 * order can be violated. A firmware build without threads passes
 * dmn_lock_none.
 *
 * Memory: on the default allocator a striped context gives every block
 * it allocates whole 64-byte cache lines (aligned_alloc, size rounded
 * up), so threads on disjoint domains never write one line; small blocks
 * cost more (a 40-byte attachment takes 64). An allocation hook (struct
 * dmn_alloc_ops) gets exactly the sizes asked.
 *
 * The default (no hook, a build with pthreads) is striped, so that calls
 * on disjoint parts of one context run in parallel: besides the context
 * mutex, the context has 16 cache-line-sized stripe mutexes and each
 * domain a one-byte lock. A fast path (dmn_vote that changes at most one
 * chain of on domains, each with one parent; nested dmn_device_get /
 * dmn_device_put; an unchanged vote) takes one stripe, chosen by the slot
 * of the handle it was given, then the locks of the domains it changes,
 * child before parent, each by a bounded spin; if one is busy it lets go
 * of everything and takes the exclusive path instead. Every other call is
 * exclusive: the context mutex, then all stripes in ascending order.
 * Lock order: context mutex < stripe 0 < ... < stripe 15 < domain locks,
 * child before parent; a fast path never waits for the context mutex or a
 * second stripe, and its spins only point up the tree and end, so no
 * cycle can form. What a fast path writes belongs to its domains (their
 * votes, pstate, statistics) and its device (usage), except
 * dmn_last_error(), written atomically; it never allocates (a call that
 * would falls back to the exclusive path). So two threads may run the
 * callbacks and listeners of two different domains at the same time, and
 * the time source from both at once; a context whose OPP layer follows
 * events (opportunistic scaling) stays exclusive, as that listener reads
 * other domains. A caller that needs every call serialized passes the
 * pthread functions as a hook.
 */
struct dmn_lock_ops {
	int (*create)(void *user, void **lock);
	void (*acquire)(void *user, void *lock);
	void (*release)(void *user, void *lock);
	void (*destroy)(void *user, void *lock);
	void *user;
};

/* No locking at all: for single-threaded firmware. */
extern const struct dmn_lock_ops dmn_lock_none;

/**
 * typedef dmn_time_fn - the one time source of a context
 * Returns the current time in nanoseconds, monotonic. The simulator and the
 * tests pass simulated time; hosted builds default to CLOCK_MONOTONIC.
 */
typedef uint64_t (*dmn_time_fn)(void *user);

/** enum dmn_event_kind - what a struct dmn_event reports */
enum dmn_event_kind {
	DMN_EV_POWER_ON,       /* a domain's power_on was accepted */
	DMN_EV_POWER_OFF,      /* a domain's power_off was accepted */
	DMN_EV_PSTATE,         /* a domain's pstate changed (old -> new) */
	DMN_EV_PSTATE_LOWERING,/* about to lower a pstate (old -> new) */
	DMN_EV_FAILURE,        /* a callback failed; see @error and @safe */
	DMN_EV_ROLLBACK,       /* an unsafe failure undid a step (old -> new) */
	DMN_EV_STAY_ON,        /* the governor kept an unused domain on */
	DMN_EV_IDLE,           /* a domain entered idle state @level */
	DMN_EV_RATE,           /* a device's clock change was accepted (Hz) */
	DMN_EV_VOLTAGE,        /* a device's supply change was accepted (uV) */
	DMN_EV_HWMODE,         /* an attachment's mode changed: @domain,
				  @device, old -> new (1 = HW, 0 = SW) */
};

/** enum dmn_op - which callback an event is about */
enum dmn_op {
	DMN_OP_NONE,
	DMN_OP_POWER_ON,
	DMN_OP_POWER_OFF,
	DMN_OP_SET_PSTATE,
	DMN_OP_CLOCK,
	DMN_OP_REGULATOR,
	DMN_OP_SET_HWMODE,
};

/**
 * struct dmn_event - one thing that happened inside an operation
 * @kind:   see enum dmn_event_kind
 * @op:     the callback concerned (failures)
 * @domain: handle of the domain concerned, or 0
 * @device: handle of the device concerned, or 0
 * @error:  negative errno of a failed callback, else 0
 * @safe:   for DMN_EV_FAILURE: 1 if the failure was in the safe direction
 *          (power-off, lowering: the operation went on and succeeded), 0 if
 *          it made the operation fail and roll back
 * @old_value, @new_value: pstate levels, or frequencies for clock events
 */
struct dmn_event {
	enum dmn_event_kind kind;
	enum dmn_op op;
	uint32_t domain;
	uint32_t device;
	int error;
	int safe;
	uint64_t old_value;
	uint64_t new_value;
};

/**
 * typedef dmn_listener_fn - receives events, synchronously, in order
 * Called with the context lock held, or on a fast path with the domain of
 * the event held (struct dmn_lock_ops): a call back into the same context
 * fails with -EDEADLK (it may record, print, or signal another thread).
 * Each operation's events arrive in order on its thread; on the default
 * lock, two threads' fast paths on different domains may call a listener
 * at the same time, so a listener shared by them must be thread-safe.
 */
typedef void (*dmn_listener_fn)(void *user, struct dmn_ctx *ctx,
				const struct dmn_event *ev);

/**
 * struct dmn_config - how to build a context; every member may be zero
 * @alloc: allocation hook; NULL members mean malloc/free
 * @lock:  locking hook; NULL create means pthread mutexes where the build
 *         has them, none otherwise
 * @now:   time source; NULL means CLOCK_MONOTONIC (hosted) or always 0.
 *         It may be called from several threads at once (see
 *         dmn_lock_ops).
 * @now_user: passed to @now
 * @flags: DMN_CFG_* bits; 0 for the defaults
 *
 * Pstate residency (dmn_domain_pstate_residency) is timed when the
 * context has a time source (@now; the simulator passes one: exact
 * residencies), or with DMN_CFG_TIME_PSTATES on the default clock: then
 * pstate changes are time-stamped with CLOCK_MONOTONIC_COARSE (where the
 * system has it; one scheduler tick, as Linux's cpufreq time_in_state),
 * each level's time exact to a tick and their sum exactly the elapsed
 * time. Otherwise it is not timed, as genpd keeps no pstate residency
 * (and cpufreq none without CONFIG_CPU_FREQ_STAT): every level seen is
 * still listed and every change counted, each level reads 0 ns, and a
 * vote that moves a level reads no clock (even a coarse read is a third
 * of the cost of a one-voter vote). A firmware build (DMN_FIRMWARE)
 * always calls its clock on a pstate change: its default one reads 0
 * where the system has no clock_gettime, so each level reads 0 ns there
 * too, and @flags changes nothing.
 */
struct dmn_config {
	struct dmn_alloc_ops alloc;
	struct dmn_lock_ops lock;
	dmn_time_fn now;
	void *now_user;
	unsigned flags;
};

/* dmn_config.flags: time pstate residency on the default clock. */
#define DMN_CFG_TIME_PSTATES (1u << 0)

/**
 * dmn_ctx_create - make a new, empty context
 * @cfg: hooks to use, or NULL for the defaults
 * @out: receives the context
 *
 * returns: 0, or
 *   -EINVAL if @out is NULL, @cfg has only one of alloc/free, or
 *           @cfg->flags has a bit not defined above (a firmware build
 *           ignores @cfg->flags),
 *   -ENOMEM if the allocation hook failed,
 *   a negative errno returned by the lock hook's create.
 * cost: O(1).
 */
int dmn_ctx_create(const struct dmn_config *cfg, struct dmn_ctx **out);

/**
 * dmn_ctx_destroy - free a context and everything in it
 * No callbacks are called: the hardware is left as it is. NULL is a no-op.
 * cost: O(objects).
 */
void dmn_ctx_destroy(struct dmn_ctx *ctx);

/**
 * dmn_listen - add an event listener
 * @fn:   called for every event, after those added before it
 * @user: passed to @fn
 *
 * A context has as many listeners as memory allows.
 * returns: 0, or -EINVAL (NULL @ctx or @fn), -ENOMEM.
 * cost: O(1) amortized.
 */
int dmn_listen(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user);

/**
 * dmn_unlisten - remove a listener added with the same @fn and @user
 * returns: 0, -EINVAL, or -ENOENT if no such listener.
 */
int dmn_unlisten(struct dmn_ctx *ctx, dmn_listener_fn fn, void *user);

/**
 * dmn_last_error - the outcome of the latest state-changing call
 * returns: the call's own negative errno if it failed (a callback's error,
 *   or -ERANGE, -EBADF, -ENOMEM...); else the first error a callback
 *   returned during it, which happens when the failure was in the safe
 *   direction and the call still succeeded; else 0. This is the scenario
 *   language's `last-error`. With several threads, "latest" is whichever
 *   call finished last: use the event listeners to follow failures there.
 */
int dmn_last_error(struct dmn_ctx *ctx);

/**
 * dmn_now - read the context's time source, in nanoseconds
 */
uint64_t dmn_now(struct dmn_ctx *ctx);

/**
 * dmn_strerror - a short English name for a negative errno
 * returns: a static description such as "input/output error"; never NULL.
 */
const char *dmn_strerror(int err);

/**
 * dmn_errno_name - the symbolic name of a negative errno, e.g. "EIO"
 * returns: a static string; "OK" for 0; "E?" for unknown values.
 */
const char *dmn_errno_name(int err);

/**
 * dmn_errno_parse - inverse of dmn_errno_name
 * returns: the negative errno (0 for "OK"), or 1 if @name is unknown.
 */
int dmn_errno_parse(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* DOMINO_CONTEXT_H */
