/* SPDX-License-Identifier: MIT */
#include "genpd_baseline.h"

#include <stdlib.h>
#include <string.h>

void bl_domain_init(struct bl_domain *d,
		    int (*set_performance_state)(struct bl_domain *, uint32_t))
{
	memset(d, 0, sizeof(*d));
	pthread_mutex_init(&d->lock, NULL);
	d->set_performance_state = set_performance_state;
}

struct bl_device *bl_attach(struct bl_domain *d)
{
	struct bl_device *dev = calloc(1, sizeof(*dev));
	dev->domain = d;
	dev->next = d->devices;
	d->devices = dev;
	return dev;
}

void bl_link(struct bl_domain *parent, struct bl_domain *child)
{
	struct bl_link *l = calloc(1, sizeof(*l));
	l->child = child;
	l->next = parent->children;
	parent->children = l;
	child->parent = parent;
	child->parent_link = l;
}

static uint32_t recompute(const struct bl_domain *d)
{
	uint32_t max = 0;
	for (const struct bl_device *dev = d->devices; dev; dev = dev->next)
		if (dev->vote > max)
			max = dev->vote;
	for (const struct bl_link *l = d->children; l; l = l->next)
		if (l->vote > max)
			max = l->vote;
	return max;
}

/* Called with @d locked; locks the parent nested inside, child first. */
static int apply(struct bl_domain *d, uint32_t wanted)
{
	uint32_t level = wanted > d->pstate ? wanted : recompute(d);
	if (level == d->pstate)
		return 0;
	if (d->parent) {
		if (!d->parent->nolock)
			pthread_mutex_lock(&d->parent->lock);
		uint32_t old = d->parent_link->vote;
		d->parent_link->vote = level;
		int err = apply(d->parent, level);
		if (err)
			d->parent_link->vote = old;
		if (!d->parent->nolock)
			pthread_mutex_unlock(&d->parent->lock);
		if (err)
			return err;
	}
	int err = d->set_performance_state ? d->set_performance_state(d, level) : 0;
	if (!err)
		d->pstate = level;
	return err;
}

int bl_vote(struct bl_device *dev, uint32_t level)
{
	struct bl_domain *d = dev->domain;
	if (!d->nolock)
		pthread_mutex_lock(&d->lock);
	dev->vote = level;
	int err = apply(d, level);
	if (!d->nolock)
		pthread_mutex_unlock(&d->lock);
	return err;
}

void bl_domain_free(struct bl_domain *d)
{
	while (d->devices) {
		struct bl_device *next = d->devices->next;
		free(d->devices);
		d->devices = next;
	}
	while (d->children) {
		struct bl_link *next = d->children->next;
		free(d->children);
		d->children = next;
	}
	pthread_mutex_destroy(&d->lock);
}
