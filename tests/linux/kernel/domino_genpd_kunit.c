// SPDX-License-Identifier: (GPL-2.0 OR MIT)
/*
 * Linux's own genpd timed in the kernel that `ctest -L linux` boots:
 * a rising+falling dev_pm_genpd_set_performance_state() pair by one of N
 * devices attached to one genpd whose set_performance_state callback does
 * nothing, the other N - 1 devices holding the low level. The same pair
 * domino-bench times as vote_pair_ns_nN (one voter toggles 20 -> 10, the
 * others at 10), so bench/run can print the two side by side.
 *
 * Method (as bench/README.md's): batches of whole calls, each batch grown
 * until it lasts about 200 us, 101 batches, the median and the fastest
 * printed in hundredths of a ns per pair as
 *   domino-genpd: voters N pair_ns MEDIAN min MIN callbacks C
 * Written for domino's tests; scripts/linux.sh copies it into the kernel
 * tree it builds (drivers/domino/).
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/pm_domain.h>
#include <linux/slab.h>
#include <linux/sort.h>

#define ROUNDS 101
#define BATCH_NS 200000ULL
#define LOW 10
#define HIGH 20

struct bench_domain {
	struct generic_pm_domain genpd;
	unsigned long calls; /* set_performance_state callbacks */
	unsigned int state;
};

static int nothing(struct generic_pm_domain *genpd, unsigned int state)
{
	struct bench_domain *d = container_of(genpd, struct bench_domain, genpd);

	d->calls++;
	d->state = state;
	return 0;
}

static void release(struct device *dev)
{
	kfree(dev);
}

static u64 pairs(struct kunit *test, struct device *dev, unsigned long n)
{
	u64 t0 = ktime_get_ns();
	unsigned long i;
	int err = 0;

	for (i = 0; i < n; i++) {
		err |= dev_pm_genpd_set_performance_state(dev, HIGH);
		err |= dev_pm_genpd_set_performance_state(dev, LOW);
	}
	t0 = ktime_get_ns() - t0;
	KUNIT_EXPECT_EQ(test, err, 0);
	return t0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void time_voters(struct kunit *test, unsigned int voters)
{
	struct bench_domain *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct device **devs = kunit_kcalloc(test, voters, sizeof(*devs), GFP_KERNEL);
	u64 *ns = kunit_kcalloc(test, ROUNDS, sizeof(*ns), GFP_KERNEL);
	unsigned long batch = 16, expected;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_NOT_NULL(test, devs);
	KUNIT_ASSERT_NOT_NULL(test, ns);
	d->genpd.name = "domino-bench";
	d->genpd.set_performance_state = nothing;
	KUNIT_ASSERT_EQ(test, pm_genpd_init(&d->genpd, NULL, false), 0);
	for (i = 0; i < voters; i++) {
		devs[i] = kzalloc(sizeof(*devs[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, devs[i]);
		device_initialize(devs[i]);
		devs[i]->release = release;
		dev_set_name(devs[i], "domino-voter%u", i);
		KUNIT_ASSERT_EQ(test, pm_genpd_add_device(&d->genpd, devs[i]), 0);
		KUNIT_ASSERT_EQ(test, dev_pm_genpd_set_performance_state(devs[i], LOW), 0);
	}
	KUNIT_EXPECT_EQ(test, d->state, LOW);

	/* calibrate (and warm up) */
	while (pairs(test, devs[0], batch) < BATCH_NS && batch < (1UL << 24))
		batch *= 2;
	d->calls = 0;
	for (i = 0; i < ROUNDS; i++)
		ns[i] = pairs(test, devs[0], batch) * 100 / batch;
	/* every pair moved the domain up and back down: two callbacks */
	expected = 2UL * batch * ROUNDS;
	KUNIT_EXPECT_EQ(test, d->calls, expected);
	KUNIT_EXPECT_EQ(test, d->state, LOW);
	KUNIT_EXPECT_EQ(test, d->genpd.performance_state, LOW);
	sort(ns, ROUNDS, sizeof(*ns), cmp_u64, NULL);
	pr_info("domino-genpd: voters %u pair_ns %llu.%02llu min %llu.%02llu callbacks %lu\n",
		voters, ns[ROUNDS / 2] / 100, ns[ROUNDS / 2] % 100,
		ns[0] / 100, ns[0] % 100, d->calls);

	for (i = 0; i < voters; i++) {
		KUNIT_EXPECT_EQ(test, dev_pm_genpd_set_performance_state(devs[i], 0), 0);
		KUNIT_EXPECT_EQ(test, pm_genpd_remove_device(devs[i]), 0);
		put_device(devs[i]);
	}
	KUNIT_EXPECT_EQ(test, d->genpd.performance_state, 0);
	KUNIT_EXPECT_EQ(test, pm_genpd_remove(&d->genpd), 0);
}

static const unsigned int voter_counts[] = {1, 2, 4, 8, 16, 32, 101};

static void genpd_pair(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(voter_counts); i++)
		time_voters(test, voter_counts[i]);
}

static struct kunit_case domino_genpd_cases[] = {
	KUNIT_CASE(genpd_pair),
	{}
};

static struct kunit_suite domino_genpd_suite = {
	.name = "domino_genpd",
	.test_cases = domino_genpd_cases,
};
kunit_test_suite(domino_genpd_suite);

MODULE_DESCRIPTION("genpd performance-state pair timing for domino's bench/run");
MODULE_LICENSE("Dual MIT/GPL");
