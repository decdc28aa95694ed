/* SPDX-License-Identifier: MIT */
/*
 * A small hand-made report model shaped like a Qualcomm SoC with a PSCI CPU
 * cluster: two rpmhpd rails (cx, mx), a video GDSC fed by both (a child of
 * two parents), and a cluster with one CPU, both with idle states. Its
 * events replay a short scenario with a rolled-back failure, a safe one,
 * a governor that keeps a domain on and a failed expect; its statistics
 * agree with those events over 4 ms.
 */
#ifndef TEST_REPORT_SAMPLE_MODEL_H
#define TEST_REPORT_SAMPLE_MODEL_H

#include <domino/report.h>

#include <errno.h>

#define US 1000ull
#define MS 1000000ull
#define SAMPLE_END (4 * MS)

enum { D_CX, D_MX, D_VENUS, D_CLUSTER, D_CPU0, N_SAMPLE_DOMAINS };

static const char *const rpmh_level_names[] = {
    "ret", "min_svs", "low_svs", "svs", "svs_l1", "nom", "nom_l1", "turbo"};
static const uint32_t rpmh_levels[] = {16, 48, 64, 128, 192, 256, 320, 384};

static const char *const cx_children[] = {"venus_gdsc"};
static const char *const mx_children[] = {"venus_gdsc"};
static const char *const venus_parents[] = {"cx", "mx"};
static const char *const cluster_children[] = {"cpu0"};
static const char *const cpu0_parents[] = {"cluster"};

static const struct dmn_report_device cx_devices[] = {
    {"sdhc_2", "/soc/mmc@8804000", NULL, 0, 128, 0, NULL, 0, 0, 0, 0, 0},
};
static const struct dmn_report_device mx_devices[] = {
    {"venus", "/soc/video-codec@aa00000", "mx", 1, 0, 0, NULL, 0, 0, 0, 0, 0},
};
static const struct dmn_report_device venus_devices[] = {
    {"venus", "/soc/video-codec@aa00000", "venus", 1, 48, 1, NULL, 0, 0, 0, 0, 0},
};
static const struct dmn_report_device cpu0_devices[] = {
    {"cpu0", "/cpus/cpu@0", NULL, 0, 0, 0, NULL, 0, 0, 0, 0, 0},
};

static const struct dmn_report_pstate_time cx_pstates[] = {
    {0, NULL, 250 * US},
    {256, "nom", 950 * US},
    {64, "low_svs", 1300 * US},
    {48, "min_svs", 1500 * US},
};
static const struct dmn_report_pstate_time mx_pstates[] = {
    {0, NULL, 250 * US},
    {256, "nom", 950 * US},
    {64, "low_svs", 2800 * US},
};
static const struct dmn_report_pstate_time venus_pstates[] = {
    {0, NULL, 250 * US},
    {256, NULL, 950 * US},
    {64, NULL, 1300 * US},
    {48, NULL, 1500 * US},
};
static const struct dmn_report_pstate_time zero_pstate[] = {{0, NULL, 4 * MS}};

static const struct dmn_report_idle_stats cluster_idle[] = {
    {"cluster-ret", 50, 80, 300, 1, 0, 1 * MS},
    {"cluster-sleep-1", 400, 800, 3000, 0, 1, 500 * US},
};
static const struct dmn_report_idle_stats cpu0_idle[] = {
    {"cpu-sleep-0", 40, 100, 200, 2, 0, 2250 * US},
};

static const struct dmn_report_domain sample_domains[N_SAMPLE_DOMAINS] = {
    [D_CX] = {.name = "cx",
	      .provider = "/soc/power-controller@c300000",
	      .index = 0,
	      .on = 1,
	      .pstate = 48,
	      .pstate_name = "min_svs",
	      .children = cx_children,
	      .n_children = 1,
	      .devices = cx_devices,
	      .n_devices = 1,
	      .levels = rpmh_level_names,
	      .level_values = rpmh_levels,
	      .n_levels = 8,
	      .has_stats = 1,
	      .time_on_ns = 3750 * US,
	      .time_off_ns = 250 * US,
	      .on_count = 1,
	      .pstate_transitions = 3,
	      .pstates = cx_pstates,
	      .n_pstates = 4},
    [D_MX] = {.name = "mx",
	      .provider = "/soc/power-controller@c300000",
	      .index = 1,
	      .on = 1,
	      .pstate = 64,
	      .children = mx_children,
	      .n_children = 1,
	      .devices = mx_devices,
	      .n_devices = 1,
	      .levels = rpmh_level_names,
	      .level_values = rpmh_levels,
	      .n_levels = 8,
	      .has_stats = 1,
	      .time_on_ns = 3750 * US,
	      .time_off_ns = 250 * US,
	      .on_count = 1,
	      .pstate_transitions = 2,
	      .pstates = mx_pstates,
	      .n_pstates = 3},
    [D_VENUS] = {.name = "venus_gdsc",
		 .provider = "/soc/clock-controller@100000",
		 .index = 3,
		 .on = 1,
		 .pstate = 48,
		 .parents = venus_parents,
		 .n_parents = 2,
		 .devices = venus_devices,
		 .n_devices = 1,
		 .has_stats = 1,
		 .time_on_ns = 3750 * US,
		 .time_off_ns = 250 * US,
		 .on_count = 1,
		 .pstate_transitions = 3,
		 .pstates = venus_pstates,
		 .n_pstates = 4},
    [D_CLUSTER] = {.name = "cluster",
		   .provider = "/psci/power-domain-cluster",
		   .index = -1,
		   .on = 1,
		   .children = cluster_children,
		   .n_children = 1,
		   .initial_idle_state = "cluster-sleep-1",
		   .has_stats = 1,
		   .time_on_ns = 2500 * US,
		   .on_count = 2,
		   .off_count = 1,
		   .idle = cluster_idle,
		   .n_idle = 2,
		   .pstates = zero_pstate,
		   .n_pstates = 1},
    [D_CPU0] = {.name = "cpu0",
		.provider = "/psci/power-domain-cpu0",
		.index = -1,
		.on = 0,
		.idle_state = "cpu-sleep-0",
		.parents = cpu0_parents,
		.n_parents = 1,
		.devices = cpu0_devices,
		.n_devices = 1,
		.initial_idle_state = "cpu-sleep-0",
		.has_stats = 1,
		.time_on_ns = 1750 * US,
		.on_count = 2,
		.off_count = 2,
		.idle = cpu0_idle,
		.n_idle = 1,
		.pstates = zero_pstate,
		.n_pstates = 1},
};

#define EV_PSTATE(t, dom, from, to, ln, why)                                   \
	{                                                                      \
		.time_ns = (t), .kind = DMN_REPORT_EV_PSTATE, .domain = (dom),        \
		.old_level = (from), .new_level = (to), .line = (ln),          \
		.cause = (why)                                                 \
	}
#define EV_ON(t, dom, ln, why)                                                 \
	{                                                                      \
		.time_ns = (t), .kind = DMN_REPORT_EV_POWER_ON, .domain = (dom),      \
		.line = (ln), .cause = (why)                                   \
	}
#define EV_OFF(t, dom, idle, ln, why)                                          \
	{                                                                      \
		.time_ns = (t), .kind = DMN_REPORT_EV_POWER_OFF, .domain = (dom),     \
		.idle_state = (idle), .line = (ln), .cause = (why)             \
	}

static const struct dmn_report_event sample_events[] = {
    EV_PSTATE(250 * US, "cx", 0, 256, 3, "resume venus"),
    EV_PSTATE(250 * US, "mx", 0, 256, 3, "resume venus"),
    EV_PSTATE(250 * US, "venus_gdsc", 0, 256, 3, "resume venus"),
    EV_ON(250 * US, "cx", 3, "resume venus"),
    EV_ON(250 * US, "mx", 3, "resume venus"),
    EV_ON(250 * US, "venus_gdsc", 3, "resume venus"),
    EV_ON(500 * US, "cluster", 4, "resume cpu0"),
    EV_ON(500 * US, "cpu0", 4, "resume cpu0"),
    {.time_ns = 1 * MS,
     .kind = DMN_REPORT_EV_RATE,
     .device = "venus",
     .old_hz = 100000000,
     .new_hz = 240000000,
     .line = 5,
     .cause = "rate venus 240MHz"},
    EV_PSTATE(1200 * US, "venus_gdsc", 256, 64, 6, "vote venus 64"),
    EV_PSTATE(1200 * US, "cx", 256, 64, 6, "vote venus 64"),
    EV_PSTATE(1200 * US, "mx", 256, 64, 6, "vote venus 64"),
    {.time_ns = 1500 * US,
     .kind = DMN_REPORT_EV_FAILURE,
     .domain = "cx",
     .op = "pstate",
     .old_level = 64,
     .new_level = 256,
     .error = -EIO,
     .line = 12,
     .cause = "vote venus 256"},
    {.time_ns = 1500 * US,
     .kind = DMN_REPORT_EV_COMMAND_ERROR,
     .device = "venus",
     .error = -EIO,
     .line = 12,
     .cause = "vote venus 256"},
    EV_OFF(2 * MS, "cpu0", "cpu-sleep-0", 14, "suspend cpu0"),
    EV_OFF(2 * MS, "cluster", "cluster-ret", 14, "suspend cpu0"),
    EV_PSTATE(2500 * US, "venus_gdsc", 64, 48, 17, "vote venus 48"),
    EV_PSTATE(2500 * US, "cx", 64, 48, 17, "vote venus 48"),
    {.time_ns = 2500 * US,
     .kind = DMN_REPORT_EV_FAILURE,
     .domain = "mx",
     .op = "pstate",
     .old_level = 64,
     .new_level = 48,
     .error = -EIO,
     .safe = 1,
     .line = 17,
     .cause = "vote venus 48"},
    EV_ON(3 * MS, "cluster", 19, "resume cpu0"),
    EV_ON(3 * MS, "cpu0", 19, "resume cpu0"),
    EV_OFF(3250 * US, "cpu0", "cpu-sleep-0", 20, "suspend cpu0"),
    {.time_ns = 3250 * US,
     .kind = DMN_REPORT_EV_STAY_ON,
     .domain = "cluster",
     .line = 20,
     .cause = "suspend cpu0"},
    {.time_ns = 3500 * US,
     .kind = DMN_REPORT_EV_EXPECT_FAILED,
     .domain = "cluster",
     .line = 21,
     .message = "cluster idle cluster-sleep-1, got on"},
};

static const char *const sample_warnings[] = {
    "sample.dtb: /soc/camera@ac6a000: power-domains: provider disabled, "
    "device skipped"};

static const struct dmn_report_model sample_model = {
    .board = "sample.dtb",
    .model = "Domino sample SoC",
    .domains = sample_domains,
    .n_domains = N_SAMPLE_DOMAINS,
    .warnings = sample_warnings,
    .n_warnings = 1,
    .events = sample_events,
    .n_events = sizeof(sample_events) / sizeof(sample_events[0]),
    .end_ns = SAMPLE_END,
};

#endif /* TEST_REPORT_SAMPLE_MODEL_H */
