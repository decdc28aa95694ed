/* SPDX-License-Identifier: MIT */
/*
 * A baseline that aggregates performance-state votes the way Linux's genpd
 * does (written for this benchmark from its documented behaviour, not from
 * its code): each attached device has a separately allocated node on the
 * domain's device list and each subdomain a link node on its child list; a
 * vote takes the domain's mutex; a rising vote above the domain's state is
 * applied at once; any other vote walks every device node and child link of
 * the domain to recompute the maximum, and the new state is passed to the
 * parent the same way.
 *
 * With @nolock set on every domain of a tree the same code runs without the
 * mutexes: the aggregation-only figure, beside the whole-call one.
 */
#ifndef DOMINO_BENCH_GENPD_BASELINE_H
#define DOMINO_BENCH_GENPD_BASELINE_H

#include <pthread.h>
#include <stdint.h>

struct bl_domain;

struct bl_device {
	struct bl_device *next; /* on the domain's device list */
	struct bl_domain *domain;
	uint32_t vote;
};

struct bl_link {
	struct bl_link *next; /* on the parent's child list */
	struct bl_domain *child;
	uint32_t vote;
};

struct bl_domain {
	pthread_mutex_t lock;
	struct bl_domain *parent;
	struct bl_link *parent_link;
	struct bl_device *devices;
	struct bl_link *children;
	uint32_t pstate;
	int nolock; /* aggregation only: take no mutex */
	int (*set_performance_state)(struct bl_domain *d, uint32_t level);
};

void bl_domain_init(struct bl_domain *d,
		    int (*set_performance_state)(struct bl_domain *, uint32_t));
/* Allocate a device node on @d. */
struct bl_device *bl_attach(struct bl_domain *d);
/* Make @child a subdomain of @parent. */
void bl_link(struct bl_domain *parent, struct bl_domain *child);
/* Set @dev's vote and propagate. Returns the callback's error. */
int bl_vote(struct bl_device *dev, uint32_t level);
void bl_domain_free(struct bl_domain *d);

#endif
