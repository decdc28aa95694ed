/* SPDX-License-Identifier: MIT */
/* Internals of the simulation engine (engine*.c). */
#ifndef DOMINO_SIM_ENGINE_INTERNAL_H
#define DOMINO_SIM_ENGINE_INTERNAL_H

#include <domino/domain.h>
#include <domino/sim.h>
#include <domino/sim_providers.h>

#include "../core/debug.h"

struct dmn_sim;

struct dmn_sim_domain {
	struct dmn_sim *sim;
	unsigned index;
	uint32_t fail_count[4]; /* by enum dmn_scn_fail_op */
	/* It or an ancestor has a set_performance_state callback: a vote
	 * cast here can land somewhere real (-ENODEV otherwise:
	 * docs/semantics.md, Votes and pstates). */
	int reaches_pstate;
	uint32_t boot_raw; /* the boot-on level as written (explain) */
	/* The command (sim->command) that powered it on / changed its
	 * pstate before a rollback began: what an undo call takes back. */
	unsigned undo_on, undo_pstate;
};

struct dmn_sim_device {
	struct dmn_sim *sim;
	unsigned index;
	uint64_t rate; /* what the simulated clock was last set to */
	int active;
	/* Per attachment, the vote as the latest `vote` or `rate` cast it:
	 * the library keeps it rounded up to a level, reports show it as
	 * written (docs/semantics.md, Votes and pstates). */
	uint32_t *cast;
	/* The entry its latest successful `rate` selected (DMN_OPP_ID_NONE:
	 * none); an owner of a required table may run higher
	 * (docs/device-tree.md, Device-to-device requirements). */
	uint32_t own_id;
};

struct dmn_sim_initial {
	int on;
	uint32_t pstate;
	int idle;
};

/* Storage behind one struct dmn_report_model (dmn_sim_report). */
struct dmn_sim_report_store {
	struct dmn_report_model model;
	struct dmn_report_domain *domains;
	const char **names;       /* parents and children, all domains */
	struct dmn_report_device *devices;
	struct dmn_report_idle_stats *idle;
	struct dmn_report_pstate_time *pstates;
	const char **levels;
	uint32_t *level_values;
	char **warnings;
	unsigned n_warnings;
	struct dmn_report_requirement *requirements;
	const char **owners;
	struct dmn_report_device_rates *device_rates;
	unsigned n_device_rates;
	uint64_t *rates; /* every device_rates[].hz */
	const char **awaiting; /* per domain's consumers, then the model's */
	uint64_t *sleep_ns;    /* per domain: per idle state, or plain off */
	const char **provider_paths; /* per provider (the board stores none) */
	char *provider_text;   /* the ones not shared with a domain's name */
	struct dmn_report_energy energy;
	struct dmn_report_energy_part *energy_parts;
	struct dmn_report_power_state *power_states;
	struct dmn_report_power_step *power_steps;
};

struct dmn_sim_handle_ix {
	uint32_t handle;
	int32_t index;
};

/* A frame of dmn__sim_find_level's walk: @next, the parent of @dom to
 * look at next. */
struct dmn_sim_level_frame {
	unsigned dom, next;
};

/* One name of a device or domain, sorted by (bytes, index) for binary
 * search; @len bytes of @key (a node name's base is a prefix of it). */
struct dmn_sim_name {
	const char *key;
	size_t len;
	int32_t index;
};

/* A name of a domain known by its hash only (a path or PROVIDER:INDEX
 * is not stored whole: a deep nest's paths are quadratic in its depth),
 * sorted by (hash, index); a hit is checked against the board. */
struct dmn_sim_key {
	uint64_t hash;
	int32_t index;
};

/* The names a scenario looks up, built at the first look-up
 * (engine_names.c): a scan of the board per command was quadratic for a
 * scenario naming each device of a large board. @exact: the names a
 * look-up tries first (a device's name, path and labels; a domain's
 * name); @called: a domain's other names (labels, its node's path,
 * PROVIDER:INDEX), hashed; @node and @base: node names with and without
 * the unit address. */
struct dmn_sim_names {
	struct dmn_sim_name *exact, *node, *base;
	struct dmn_sim_key *called;
	size_t n_exact, n_node, n_base, n_called;
};

struct dmn_sim {
	const char *board_name;
	const struct dmn_dt_board *board;
	struct dmn_dt_board *own_board; /* @board when dmn_sim_create loaded it */
	struct dmn_ctx *ctx;
	struct dmn_dt_instance *inst;
	struct dmn_sim_domain *doms;
	struct dmn_sim_device *devs;
	struct dmn_sim_initial *initial;
	uint32_t *cast_block; /* behind every dmn_sim_device.cast */
	/* Handle -> model index, sorted by handle: events name handles, and
	 * a scan per event is quadratic on boards of 100,000 domains. */
	struct dmn_sim_handle_ix *dom_ix, *dev_ix;
	/* Two rows of the largest device's attachment count, for
	 * note_rate_votes (sized here: no compiled cap, docs/device-tree.md,
	 * Limits and errors). */
	uint32_t *vote_scratch;
	uint64_t now;

	/* The simulated hardware behind every backend call: numbers them,
	 * applies dmn_sim_options.fail_call. No log (on_call sees the calls) and
	 * the scenario's `fail` counts stay in dmn_sim_domain: a board can arm
	 * more than its bounded rule table holds. */
	struct dmn_sim_providers hw;
	dmn_sim_call_fn on_call;
	void *call_user;
	int last_error; /* of the latest command, for `expect last-error` */
	int undoing; /* the current command is rolling back */
	unsigned command; /* numbers the commands, for dmn_sim_domain.undo_* */
	int names_device; /* whose attachment names a suggestion looks at */
	struct dmn_sim_names *dev_names, *dom_names; /* NULL until used */
	struct dmn_sim_names *att_names; /* attachments by name, NULL too */
	unsigned *att_first; /* per device, its first in att_names' numbers */
	int32_t *level_tables; /* per domain: dmn__sim_find_level's table,
				  -3 until known; NULL until used */
	struct dmn_sim_level_frame *level_stack; /* its walk's, n_domains */

	struct dmn_report_event *events;
	unsigned n_events, cap_events;
	int no_events; /* DMN_SIM_NO_EVENTS */
	int oom;
	char **causes; /* "resume venus", one per executed command */
	unsigned n_causes, cap_causes;
	const char *cur_cause;
	unsigned cur_line;
	dmn_sim_event_fn live;
	void *live_user;

	struct dmn_sim_report_store report;
	/* dmn_sim_energy: the power model and its meter; NULL until asked */
	struct dmn_sim_energy *energy;
};

void dmn__sim_record(struct dmn_sim *sim, struct dmn_report_event *ev);

/*
 * Energy (engine_energy.c), only where sim->energy is set: what a command
 * changed is marked as it happens (a domain's power or pstate, a device's
 * clock, use or sleep) and read back by dmn__sim_energy_flush once the
 * command is done; dmn__sim_energy_report fills the report's energy
 * (0 or -ENOMEM; freed with the report).
 */
void dmn__sim_energy_domain_changed(struct dmn_sim *sim, unsigned domain);
void dmn__sim_energy_device_changed(struct dmn_sim *sim, unsigned device);
void dmn__sim_energy_all_devices_changed(struct dmn_sim *sim);
void dmn__sim_energy_flush(struct dmn_sim *sim);
void dmn__sim_energy_free(struct dmn_sim *sim);
int dmn__sim_energy_report(struct dmn_sim *sim, int with_times);
int dmn__sim_domain_index(const struct dmn_sim *sim, uint32_t handle);
int dmn__sim_device_index(const struct dmn_sim *sim, uint32_t handle);
const char *dmn__sim_idle_name(const struct dmn_sim *sim, unsigned domain, int idle);
void dmn__sim_report_free(struct dmn_sim *sim);
/* engine_requirements.c: the board's device-to-device requirements into
 * the report store (freed by dmn__sim_report_free). 0 or -ENOMEM. */
int dmn__sim_fill_requirements(struct dmn_sim *sim);
/* The vote a device shows on one attachment (engine_requirements.c). */
uint32_t dmn__sim_shown_vote(const struct dmn_sim *sim, unsigned dev, unsigned a);
/* engine_explain.c: `explain` of board domain @domain, lines ending in
 * '\n', malloc'd into *@out. 0, -ENOMEM. */
int dmn__sim_explain_index(struct dmn_sim *sim, unsigned domain, char **out);

/*
 * Names in a scenario (engine_names.c). Each returns an index (device,
 * domain, attachment of @device) or, for a level, 0 and *@level; on
 * failure -ENOENT (-EEXIST: a device node name several devices share;
 * -ENOMEM: dmn__sim_find_level's walk of the ancestors) with the reason, and a "did you mean" where one is close, in @why.
 */
int dmn__sim_find_device(struct dmn_sim *sim, const char *name, char *why, size_t size);
void dmn__sim_names_free(struct dmn_sim_names *names);
int dmn__sim_find_domain(struct dmn_sim *sim, const char *name, char *why, size_t size);
/* The provider @name calls (any label of its node, or its full path), or
 * -1: `sync-state PROVIDER`. */
int dmn__sim_find_provider(const struct dmn_sim *sim, const char *name);
int dmn__sim_find_attachment(struct dmn_sim *sim, int device, const char *name,
			char *why, size_t size);
/* "venus, vcodec0, mx": how @device's domains are named, in order */
void dmn__sim_attachment_names(const struct dmn_sim *sim, int device, char *buf,
			  size_t size);
int dmn__sim_find_level(const struct dmn_sim *sim, unsigned domain, const char *name,
		   uint32_t *level, char *why, size_t size);

#endif
