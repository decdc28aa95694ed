/* SPDX-License-Identifier: MIT */
/*
 * Cortex-M4 smoke test: the core with the teardown unit (and,
 * SMOKE_DEVREQ, the devreq unit; docs/architecture.md, Firmware units), built
 * freestanding with newlib and
 * run under QEMU's mps2-an386. A power controller's day: two domains
 * linked parent to child, each with a level table, the child's entries
 * requiring the parent's (required-opps); a CPU whose frequency table
 * requires the child's levels; a second device voting on the parent
 * directly. Each step checks what the hardware callbacks saw, in order;
 * last, a device-to-device requirement: refused without the devreq
 * unit, honoured with it (SMOKE_DEVREQ: run_smoke.sh's second image).
 * Exits through semihosting: QEMU's status is 0 only if every check held.
 */
#include <domino/context.h>
#include <domino/domain.h>
#include <domino/idle.h>
#include <domino/opp.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "smoke.h"

static unsigned checks, failures;

static void put_uint(unsigned long v)
{
	char buf[24];
	char *p = buf + sizeof(buf) - 1;
	*p = 0;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	smoke_puts(p);
}

static void check(int ok, const char *what, int line)
{
	checks++;
	if (ok)
		return;
	failures++;
	smoke_puts("smoke: FAIL line ");
	put_uint((unsigned long)line);
	smoke_puts(": ");
	smoke_puts(what);
	smoke_puts("\n");
}
#define CHECK(cond) check((cond), #cond, __LINE__)

/* ---- the hardware: what each callback was last asked, and when ---------- */

static unsigned seq; /* one tick per callback */

struct rail {
	int on;
	uint32_t level;
	int idle;
	unsigned on_at, off_at, level_at;
	int fail_power_on; /* the next power_on fails with -EIO */
};

static int rail_on(void *user, dmn_domain_t dom)
{
	struct rail *r = user;
	(void)dom;
	if (r->fail_power_on) {
		r->fail_power_on = 0;
		return -EIO;
	}
	r->on = 1;
	r->on_at = ++seq;
	return 0;
}

static int rail_off(void *user, dmn_domain_t dom, int idle_state)
{
	struct rail *r = user;
	(void)dom;
	r->on = 0;
	r->idle = idle_state;
	r->off_at = ++seq;
	return 0;
}

static int rail_level(void *user, dmn_domain_t dom, uint32_t level)
{
	struct rail *r = user;
	(void)dom;
	r->level = level;
	r->level_at = ++seq;
	return 0;
}

static const struct dmn_domain_ops rail_ops = {
	.power_on = rail_on, .power_off = rail_off,
	.set_performance_state = rail_level};

static uint64_t clock_hz;
static unsigned clock_at;

/* @user: where this clock's rate goes (NULL: clock_hz, the CPU's) */
static int clk_set(void *user, dmn_device_t dev, uint64_t hz)
{
	(void)dev;
	*(user ? (uint64_t *)user : &clock_hz) = hz;
	clock_at = ++seq;
	return 0;
}

static const struct dmn_opp_clock_ops clk_ops = {clk_set, 0};

/* ---- the allocation hook: every block freed at the end ------------------ */

static long live_blocks;

static void *count_alloc(void *user, size_t size)
{
	(void)user;
	void *p = malloc(size);
	live_blocks += p != 0;
	return p;
}

static void count_free(void *user, void *ptr)
{
	(void)user;
	live_blocks--;
	free(ptr);
}

static uint64_t now_ns;

static uint64_t fake_now(void *user)
{
	(void)user;
	return now_ns;
}

/* ---- the day ------------------------------------------------------------ */

static dmn_opp_table_t level_table(struct dmn_ctx *ctx, const char *name,
			       const uint32_t *levels, unsigned n,
			       dmn_opp_table_t required, uint32_t *ids)
{
	dmn_opp_table_t t = 0;
	CHECK(dmn_opp_table_create(ctx, name, &t) == 0);
	for (unsigned i = 0; i < n; i++) {
		struct dmn_opp_required req = {required, i};
		struct dmn_opp_desc d = {0};
		d.level = levels[i];
		d.flags = DMN_OPP_FLAG_HAS_LEVEL;
		d.required = required ? &req : 0;
		d.n_required = required ? 1 : 0;
		CHECK(dmn_opp_add(ctx, t, &d, &ids[i]) == 0);
	}
	return t;
}

int main(void)
{
	struct dmn_config cfg = {.alloc = {count_alloc, count_free, 0},
				 .lock = dmn_lock_none,
				 .now = fake_now};
	struct dmn_ctx *ctx = 0;
	CHECK(dmn_ctx_create(&cfg, &ctx) == 0);
	if (!ctx) {
		smoke_puts("smoke: FAIL: no context\n");
		return 1;
	}

	/* vdd (parent, levels 100..300) feeds cluster (child, levels 1..3,
	 * entry i requiring vdd's entry i). */
	static struct rail vdd, cluster;
	dmn_domain_t d_vdd = 0, d_cluster = 0;
	struct dmn_domain_desc dv = {"vdd", &rail_ops, &vdd, 0};
	struct dmn_domain_desc dc = {"cluster", &rail_ops, &cluster, 0};
	CHECK(dmn_domain_create(ctx, &dv, &d_vdd) == 0);
	CHECK(dmn_domain_create(ctx, &dc, &d_cluster) == 0);
	static const uint32_t vdd_levels[] = {100, 200, 300};
	static const uint32_t cluster_levels[] = {1, 2, 3};
	uint32_t vdd_ids[3], cluster_ids[3], cpu_ids[3];
	dmn_opp_table_t t_vdd = level_table(ctx, "vdd", vdd_levels, 3, 0, vdd_ids);
	dmn_opp_table_t t_cluster = level_table(ctx, "cluster", cluster_levels, 3,
					    t_vdd, cluster_ids);
	CHECK(dmn_opp_domain_set_table(ctx, d_vdd, t_vdd) == 0);
	CHECK(dmn_opp_domain_set_table(ctx, d_cluster, t_cluster) == 0);
	CHECK(dmn_opp_link_add(ctx, d_vdd, d_cluster) == 0);
	CHECK(dmn_opp_link_add(ctx, d_vdd, d_cluster) == -EEXIST);
	CHECK(dmn_opp_link_add(ctx, d_cluster, d_vdd) == -ELOOP);
	struct dmn_idle_state_desc retention = {"retention", 10, 20, 100, 5};
	unsigned idle_index = 9;
	CHECK(dmn_domain_add_idle_state(ctx, d_cluster, &retention,
				       &idle_index) == 0);
	CHECK(idle_index == 0);

	/* cpu0 on cluster: 100/200/400 MHz requiring cluster levels 1/2/3. */
	dmn_opp_table_t t_cpu = 0;
	CHECK(dmn_opp_table_create(ctx, "cpu", &t_cpu) == 0);
	static const uint64_t cpu_hz[] = {100000000, 200000000, 400000000};
	for (unsigned i = 0; i < 3; i++) {
		struct dmn_opp_required req = {t_cluster, cluster_ids[i]};
		struct dmn_opp_desc d = {0};
		d.hz = &cpu_hz[i];
		d.n_hz = 1;
		d.required = &req;
		d.n_required = 1;
		CHECK(dmn_opp_add(ctx, t_cpu, &d, &cpu_ids[i]) == 0);
	}
	dmn_device_t cpu0 = 0, gpu = 0;
	dmn_attach_t a_cpu = 0, a_gpu = 0;
	CHECK(dmn_device_create(ctx, "cpu0", &cpu0) == 0);
	CHECK(dmn_attach(ctx, cpu0, d_cluster, &a_cpu) == 0);
	CHECK(dmn_opp_device_bind(ctx, cpu0, t_cpu) == 0);
	CHECK(dmn_opp_device_set_clock(ctx, cpu0, &clk_ops, 0) == 0);
	CHECK(dmn_device_set_qos(ctx, cpu0, 1000) == 0);
	CHECK(dmn_device_create(ctx, "gpu", &gpu) == 0);
	CHECK(dmn_attach(ctx, gpu, d_vdd, &a_gpu) == 0);
	CHECK(!vdd.on && !cluster.on);

	/* A power_on that fails rolls the resume back: nothing stays on. */
	vdd.fail_power_on = 1;
	CHECK(dmn_device_get(ctx, cpu0) == -EIO);
	CHECK(!vdd.on && !cluster.on);
	CHECK(dmn_last_error(ctx) == -EIO);

	/* Resume: parents first. */
	now_ns = 1000;
	CHECK(dmn_device_get(ctx, cpu0) == 0);
	CHECK(vdd.on && cluster.on && vdd.on_at < cluster.on_at);

	/* set_rate: 150 MHz rounds up to 200 MHz; the votes rise before the
	 * clock, the parent's level before the child's. */
	CHECK(dmn_opp_set_rate(ctx, cpu0, 150000000) == 0);
	CHECK(clock_hz == 200000000);
	CHECK(cluster.level == 2 && vdd.level == 200);
	CHECK(vdd.level_at < cluster.level_at && cluster.level_at < clock_at);
	CHECK(dmn_opp_set_rate(ctx, cpu0, 1000000000) == -ERANGE);
	CHECK(clock_hz == 200000000 && cluster.level == 2);

	/* A direct vote on the parent: the maximum of it and the child's
	 * requirement. */
	CHECK(dmn_device_get(ctx, gpu) == 0);
	CHECK(dmn_vote(ctx, a_gpu, 300) == 0);
	CHECK(vdd.level == 300);
	CHECK(dmn_vote(ctx, a_gpu, 250) == 0); /* rounded up to 300 */
	CHECK(vdd.level == 300);
	CHECK(dmn_vote(ctx, a_gpu, 0) == 0);
	CHECK(vdd.level == 200);
	CHECK(dmn_vote(ctx, a_gpu, 301) == -ERANGE);
	CHECK(dmn_vote(ctx, a_gpu + 1, 100) == -EBADF);

	/* Down to 100 MHz: the clock falls before the votes. */
	CHECK(dmn_opp_set_rate(ctx, cpu0, 100000000) == 0);
	CHECK(clock_hz == 100000000 && cluster.level == 1 && vdd.level == 100);
	CHECK(clock_at < cluster.level_at && cluster.level_at < vdd.level_at);

	/* Suspend: the child off (into its idle state: the QoS allows 30 us
	 * of latency within 1 ms), then the parent once nothing needs it. */
	now_ns = 5000;
	CHECK(dmn_device_put(ctx, gpu) == 0);
	CHECK(vdd.on);
	CHECK(dmn_device_put(ctx, cpu0) == 0);
	CHECK(!cluster.on && !vdd.on && cluster.off_at < vdd.off_at);
	CHECK(cluster.idle == 0 && vdd.idle == -1);
	CHECK(dmn_device_put(ctx, cpu0) == -EALREADY);

	/* Resume again: the stored OPP's votes come back with the device. */
	CHECK(dmn_device_get(ctx, cpu0) == 0);
	CHECK(vdd.on && cluster.on && cluster.level == 1 && vdd.level == 100);
	CHECK(dmn_opp_set_rate(ctx, cpu0, 400000000) == 0);
	CHECK(clock_hz == 400000000 && cluster.level == 3 && vdd.level == 300);
	CHECK(dmn_device_put(ctx, cpu0) == 0);

	/* A device-to-device requirement, a required OPP into a table
	 * without levels: big's 400 MHz requires cci's 200 MHz. */
	dmn_opp_table_t t_cci = 0, t_big = 0;
	uint32_t cci_ids[2] = {9, 9}, big_id = 9;
	CHECK(dmn_opp_table_create(ctx, "cci", &t_cci) == 0);
	CHECK(dmn_opp_table_create(ctx, "big", &t_big) == 0);
	struct dmn_opp_desc dd = {0};
	dd.n_hz = 1;
	for (unsigned i = 0; i < 2; i++) {
		dd.hz = &cpu_hz[i];
		CHECK(dmn_opp_add(ctx, t_cci, &dd, &cci_ids[i]) == 0);
	}
	struct dmn_opp_required req = {t_cci, cci_ids[1]};
	dd.hz = &cpu_hz[2];
	dd.required = &req;
	dd.n_required = 1;
#ifdef SMOKE_DEVREQ
	/* With the devreq unit linked: while big is active, the CCI runs at
	 * least at what big's entry requires. */
	static uint64_t cci_hz;
	dmn_device_t cci = 0, big = 0;
	CHECK(dmn_opp_add(ctx, t_big, &dd, &big_id) == 0 && big_id == 0);
	CHECK(dmn_device_create(ctx, "cci", &cci) == 0);
	CHECK(dmn_device_create(ctx, "big", &big) == 0);
	CHECK(dmn_opp_device_bind(ctx, cci, t_cci) == 0);
	CHECK(dmn_opp_device_bind(ctx, big, t_big) == 0);
	CHECK(dmn_opp_device_set_clock(ctx, cci, &clk_ops, &cci_hz) == 0);
	CHECK(dmn_opp_set_rate(ctx, cci, cpu_hz[0]) == 0);
	CHECK(cci_hz == cpu_hz[0]);
	CHECK(dmn_opp_device_get(ctx, big) == 0);
	CHECK(dmn_opp_set_rate(ctx, big, cpu_hz[2]) == 0);
	CHECK(cci_hz == cpu_hz[1]);
	CHECK(dmn_opp_device_put(ctx, big) == 0); /* back to its own rate */
	CHECK(cci_hz == cpu_hz[0]);
#else
	/* Without the devreq unit (src/opp/devreq.c, not linked here) it is
	 * refused and nothing is added. */
	CHECK(dmn_opp_add(ctx, t_big, &dd, &big_id) == -EOPNOTSUPP);
	CHECK(big_id == 9);
	dd.n_required = 0; /* the table is as it was: its first entry */
	CHECK(dmn_opp_add(ctx, t_big, &dd, &big_id) == 0 && big_id == 0);
#endif

	CHECK(dmn_detach(ctx, a_gpu) == 0);
	CHECK(dmn_device_remove(ctx, gpu) == 0);
	dmn_ctx_destroy(ctx);
	CHECK(live_blocks == 0);

	smoke_puts(failures ? "smoke: FAILED, " : "smoke: ok, ");
	put_uint(checks - failures);
	smoke_puts(" of ");
	put_uint(checks);
	smoke_puts(" checks passed on Cortex-M4\n");
	return failures ? 1 : 0;
}
