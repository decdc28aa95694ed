/* Idle states, the QoS governor, constraints and residency statistics. */
#include <domino/idle.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

static uint64_t sim_now;
static uint64_t now_fn(void *user)
{
	(void)user;
	return sim_now;
}

struct fixture {
	struct dmn_ctx *ctx;
	dmn_domain_t cluster, cpu0, cpu1;
	dmn_device_t core0, core1;
	dmn_attach_t a0, a1;
	int last_off_state[3];
};

static struct fixture fx;

#define US 1000ull
#define MS 1000000ull

static int power_off_cb(void *user, dmn_domain_t dom, int idle)
{
	(void)user;
	if (dom == fx.cluster)
		fx.last_off_state[0] = idle;
	return 0;
}
static const struct dmn_domain_ops ops = {0, power_off_cb, 0, 0};

/* The cluster of qrb5165-rb5 (sm8250): one cluster state; CPUs one each. */
static int setup(void **state)
{
	(void)state;
	memset(&fx, 0, sizeof(fx));
	sim_now = 0;
	struct dmn_config cfg = {0};
	cfg.now = now_fn;
	assert_int_equal(dmn_ctx_create(&cfg, &fx.ctx), 0);
	struct dmn_domain_desc d = {"cluster", &ops, 0, 0};
	assert_int_equal(dmn_domain_create(fx.ctx, &d, &fx.cluster), 0);
	d.name = "cpu0";
	assert_int_equal(dmn_domain_create(fx.ctx, &d, &fx.cpu0), 0);
	d.name = "cpu1";
	assert_int_equal(dmn_domain_create(fx.ctx, &d, &fx.cpu1), 0);
	assert_int_equal(dmn_link_add(fx.ctx, fx.cluster, fx.cpu0), 0);
	assert_int_equal(dmn_link_add(fx.ctx, fx.cluster, fx.cpu1), 0);
	struct dmn_idle_state_desc cpu = {"cpu-sleep", 360, 531, 3934, 0};
	assert_int_equal(dmn_domain_add_idle_state(fx.ctx, fx.cpu0, &cpu, 0), 0);
	assert_int_equal(dmn_domain_add_idle_state(fx.ctx, fx.cpu1, &cpu, 0), 0);
	struct dmn_idle_state_desc c0 = {"cluster-sleep-0", 1000, 2000, 5000, 0};
	struct dmn_idle_state_desc c1 = {"cluster-sleep-1", 3264, 6562, 9987, 0};
	assert_int_equal(dmn_domain_add_idle_state(fx.ctx, fx.cluster, &c0, 0), 0);
	assert_int_equal(dmn_domain_add_idle_state(fx.ctx, fx.cluster, &c1, 0), 0);
	assert_int_equal(dmn_device_create(fx.ctx, "core0", &fx.core0), 0);
	assert_int_equal(dmn_device_create(fx.ctx, "core1", &fx.core1), 0);
	assert_int_equal(dmn_attach(fx.ctx, fx.core0, fx.cpu0, &fx.a0), 0);
	assert_int_equal(dmn_attach(fx.ctx, fx.core1, fx.cpu1, &fx.a1), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dmn_ctx_destroy(fx.ctx);
	return 0;
}

static int idle_of(dmn_domain_t dom)
{
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(fx.ctx, dom, &info), 0);
	return info.on ? -2 : info.idle_state;
}

static void starts_in_deepest(void **state)
{
	(void)state;
	assert_int_equal(idle_of(fx.cluster), 1);
	assert_int_equal(idle_of(fx.cpu0), 0);
	struct dmn_domain_info info;
	assert_int_equal(dmn_domain_info(fx.ctx, fx.cluster, &info), 0);
	assert_false(info.on);
}

/* Take both CPUs down at @t with core0's wakeup / qos as given. */
static void run_and_idle(uint64_t t_off)
{
	sim_now = t_off - 1 * MS;
	assert_int_equal(dmn_device_get(fx.ctx, fx.core0), 0);
	assert_int_equal(dmn_device_get(fx.ctx, fx.core1), 0);
	assert_int_equal(idle_of(fx.cluster), -2);
	sim_now = t_off;
	assert_int_equal(dmn_device_put(fx.ctx, fx.core1), 0);
	assert_int_equal(dmn_device_put(fx.ctx, fx.core0), 0);
}

static void qos_boundary(void **state)
{
	(void)state;
	/* cluster-sleep-1 needs entry+exit = 9826 us. */
	assert_int_equal(dmn_device_set_qos(fx.ctx, fx.core0, 9826), 0);
	run_and_idle(10 * MS);
	assert_int_equal(idle_of(fx.cluster), 1); /* equality passes */

	assert_int_equal(dmn_device_set_qos(fx.ctx, fx.core0, 9825), 0);
	run_and_idle(20 * MS);
	assert_int_equal(idle_of(fx.cluster), 0); /* 1 us short: shallower */

	assert_int_equal(dmn_device_set_qos(fx.ctx, fx.core0, 2999), 0);
	run_and_idle(30 * MS);
	/* cluster-sleep-0 needs 3000: no cluster state; the CPU state needs
	 * 891, so the CPUs go off but the cluster stays on. */
	assert_int_equal(idle_of(fx.cluster), -2);
	assert_int_equal(idle_of(fx.cpu0), 0);

	assert_int_equal(dmn_device_set_qos(fx.ctx, fx.core0, 0), 0);
	run_and_idle(40 * MS);
	/* QoS 0 is a real limit: cpu0 stays on too. */
	assert_int_equal(idle_of(fx.cpu0), -2);
	assert_int_equal(idle_of(fx.cluster), -2);

	struct dmn_idle_state_info info;
	assert_int_equal(dmn_domain_idle_state(fx.ctx, fx.cluster, 1, &info), 0);
	assert_int_equal(info.usage, 1);
	assert_int_equal(info.rejected, 2); /* at 20 ms and 30 ms */
}

static void wakeup_boundary(void **state)
{
	(void)state;
	/* cluster-sleep-1: entry 3264 + residency 9987 = 13251 us. */
	uint64_t t = 100 * MS;
	assert_int_equal(dmn_device_set_wakeup(fx.ctx, fx.core1, t + 13251 * US), 0);
	run_and_idle(t);
	assert_int_equal(idle_of(fx.cluster), 1); /* exactly at: passes */

	t = 200 * MS;
	assert_int_equal(dmn_device_set_wakeup(fx.ctx, fx.core1, t + 13251 * US - 1), 0);
	run_and_idle(t);
	assert_int_equal(idle_of(fx.cluster), 0); /* 1 ns short */

	t = 300 * MS;
	/* A wakeup in the past is ignored: the deepest state again. */
	assert_int_equal(dmn_device_set_wakeup(fx.ctx, fx.core1, t - 1 * MS), 0);
	run_and_idle(t);
	assert_int_equal(idle_of(fx.cluster), 1);

	/* A wakeup equal to now counts: only a zero-cost state would fit. */
	t = 400 * MS;
	assert_int_equal(dmn_device_set_wakeup(fx.ctx, fx.core1, t), 0);
	run_and_idle(t);
	assert_int_equal(idle_of(fx.cluster), -2);
}

static void constraint_change_while_off(void **state)
{
	(void)state;
	run_and_idle(10 * MS);
	assert_int_equal(idle_of(fx.cluster), 1);
	/* Tightening a suspended device's QoS neither wakes the cluster nor
	 * moves it: it applies at the next power-off. */
	assert_int_equal(dmn_device_set_qos(fx.ctx, fx.core0, 100), 0);
	assert_int_equal(idle_of(fx.cluster), 1);
	uint64_t qos, wake;
	assert_int_equal(dmn_domain_constraints(fx.ctx, fx.cluster, &qos, &wake), 0);
	assert_int_equal(qos, 100 * US);
	assert_int_equal(wake, UINT64_MAX);
	run_and_idle(20 * MS);
	assert_int_equal(idle_of(fx.cluster), -2);
	assert_int_equal(dmn_device_set_qos(fx.ctx, fx.core0, DMN_QOS_NONE), 0);
	assert_int_equal(dmn_domain_constraints(fx.ctx, fx.cluster, &qos, &wake), 0);
	assert_int_equal(qos, UINT64_MAX);
}

static void constraints_follow_links(void **state)
{
	(void)state;
	assert_int_equal(dmn_device_set_qos(fx.ctx, fx.core1, 500), 0);
	uint64_t qos, wake;
	assert_int_equal(dmn_domain_constraints(fx.ctx, fx.cluster, &qos, &wake), 0);
	assert_int_equal(qos, 500 * US);
	assert_int_equal(dmn_link_remove(fx.ctx, fx.cluster, fx.cpu1), 0);
	assert_int_equal(dmn_domain_constraints(fx.ctx, fx.cluster, &qos, &wake), 0);
	assert_int_equal(qos, UINT64_MAX);
	assert_int_equal(dmn_link_add(fx.ctx, fx.cluster, fx.cpu1), 0);
	assert_int_equal(dmn_domain_constraints(fx.ctx, fx.cluster, &qos, &wake), 0);
	assert_int_equal(qos, 500 * US);
	assert_int_equal(dmn_detach(fx.ctx, fx.a1), 0);
	assert_int_equal(dmn_domain_constraints(fx.ctx, fx.cluster, &qos, &wake), 0);
	assert_int_equal(qos, UINT64_MAX);
}

static uint32_t always_state(void) { return 0; }

static int gov_shallowest(void *user, dmn_domain_t dom,
			  const struct dmn_governor_input *in)
{
	(void)user;
	(void)dom;
	(void)in;
	return (int)always_state();
}

static void governors(void **state)
{
	(void)state;
	assert_int_equal(dmn_domain_set_governor(fx.ctx, fx.cluster,
						DMN_GOVERNOR_ALWAYS_ON, 0, 0), 0);
	run_and_idle(10 * MS);
	assert_int_equal(idle_of(fx.cluster), -2);
	assert_int_equal(idle_of(fx.cpu0), 0);
	assert_int_equal(dmn_domain_set_governor(fx.ctx, fx.cluster,
						DMN_GOVERNOR_CUSTOM, gov_shallowest, 0), 0);
	run_and_idle(20 * MS);
	assert_int_equal(idle_of(fx.cluster), 0);
	assert_int_equal(fx.last_off_state[0], 0);
	assert_int_equal(dmn_domain_set_governor(fx.ctx, fx.cluster,
						DMN_GOVERNOR_CUSTOM, 0, 0), -EINVAL);
}

static void statistics_add_up(void **state)
{
	(void)state;
	/* 0..2 ms idle (deepest), 2..5 on, 5.. idle in state 1 until 9,
	 * 9..10 on, then state 0 (wakeup) until 20. */
	sim_now = 2 * MS;
	assert_int_equal(dmn_device_get(fx.ctx, fx.core0), 0);
	sim_now = 5 * MS;
	assert_int_equal(dmn_device_put(fx.ctx, fx.core0), 0);
	sim_now = 9 * MS;
	assert_int_equal(dmn_device_get(fx.ctx, fx.core0), 0);
	assert_int_equal(dmn_device_set_wakeup(fx.ctx, fx.core0, 20 * MS), 0);
	sim_now = 10 * MS;
	assert_int_equal(dmn_device_put(fx.ctx, fx.core0), 0);
	sim_now = 20 * MS;

	struct dmn_domain_stats st;
	assert_int_equal(dmn_domain_stats(fx.ctx, fx.cluster, &st), 0);
	assert_int_equal(st.time_on_ns, 4 * MS);
	assert_int_equal(st.on_count, 2);
	assert_int_equal(st.off_count, 2);
	struct dmn_idle_state_info i0, i1;
	assert_int_equal(dmn_domain_idle_state(fx.ctx, fx.cluster, 0, &i0), 0);
	assert_int_equal(dmn_domain_idle_state(fx.ctx, fx.cluster, 1, &i1), 0);
	assert_int_equal(i0.time_ns, 10 * MS);
	assert_int_equal(i1.time_ns, 6 * MS);
	assert_int_equal(i0.usage, 1);
	assert_int_equal(i1.usage, 1);
	assert_int_equal(i1.rejected, 1);
	assert_int_equal(st.time_on_ns + st.time_off_ns + i0.time_ns + i1.time_ns,
			 20 * MS);
	uint32_t level;
	uint64_t t;
	assert_int_equal(dmn_domain_pstate_residency(fx.ctx, fx.cluster, 0, &level, &t), 0);
	assert_int_equal(level, 0);
	assert_int_equal(t, 20 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(starts_in_deepest, setup, teardown),
		cmocka_unit_test_setup_teardown(qos_boundary, setup, teardown),
		cmocka_unit_test_setup_teardown(wakeup_boundary, setup, teardown),
		cmocka_unit_test_setup_teardown(constraint_change_while_off, setup, teardown),
		cmocka_unit_test_setup_teardown(constraints_follow_links, setup, teardown),
		cmocka_unit_test_setup_teardown(governors, setup, teardown),
		cmocka_unit_test_setup_teardown(statistics_add_up, setup, teardown),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
