/* SPDX-License-Identifier: MIT */
/*
 * The simulator on a small tree written for this project (cases/names.dts),
 * so these rules are checked with or without the real boards: names,
 * levels by name, the cast-time -ENODEV rule, last-error, `vote` then
 * `rate`, votes shown as cast, rollback undo calls, and no nested resume.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <domino/sim.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_file.h"

static void *blob;
static size_t blob_size;

static int load_blob(void **state)
{
	(void)state;
	blob = read_whole_file(SIM_TEST_DTB, &blob_size);
	return blob && blob_size ? 0 : -1;
}

static int free_blob(void **state)
{
	(void)state;
	free(blob);
	return 0;
}

struct run {
	struct dmn_sim *sim;
	struct dmn_scn_script *script;
	struct dmn_sim_result res;
	struct dmn_scn_diag diag;
	int err;
};

/* Parse and run @text; the caller frees with done(). */
static struct run run(const char *text)
{
	struct run r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(dmn_sim_create(blob, blob_size, NULL, &r.sim), 0);
	assert_int_equal(dmn_scn_parse(text, strlen(text), "t.scn", NULL,
				   &r.script, &r.diag),
			 0);
	r.err = dmn_sim_run(r.sim, r.script, NULL, NULL, &r.res, &r.diag);
	return r;
}

static void done(struct run *r)
{
	dmn_scn_free(r->script);
	dmn_sim_free(r->sim);
}

/* @text runs and every `expect` in it holds. */
static void holds(const char *text)
{
	struct run r = run(text);
	if (r.err)
		fail_msg("line %u: %s", r.diag.line, r.diag.message);
	const struct dmn_report_model *m;
	assert_int_equal(dmn_sim_report(r.sim, 1, &m), 0);
	for (unsigned i = 0; i < m->n_events; i++)
		if (m->events[i].kind == DMN_REPORT_EV_EXPECT_FAILED)
			print_error("line %u: %s\n", m->events[i].line,
				    m->events[i].message);
	assert_int_equal(r.res.expect_failed, 0);
	done(&r);
}

/* @text is refused before anything runs, with @message. */
static void refused(const char *text, const char *message)
{
	struct run r = run(text);
	assert_int_equal(r.err, -EINVAL);
	assert_int_equal(r.res.commands, 0);
	if (!strstr(r.diag.message, message))
		fail_msg("got '%s', wanted '%s'", r.diag.message, message);
	done(&r);
}

static void device_names(void **state)
{
	(void)state;
	/* Both labels, the path, the node name with and without its unit
	 * address (unique: i2c). */
	holds("resume video\nexpect rpmhpd:1 on\n"
	      "suspend vcodec\nexpect rpmhpd:1 off\n"
	      "resume /video-codec@2000\nsuspend video-codec@2000\n"
	      "resume video-codec\nexpect gcc:0 on\n"
	      "resume i2c\nexpect rpmhpd:0 on\n"
	      "suspend i2c@3000\nsuspend video-codec\nexpect rpmhpd:0 off\n");
	refused("resume usb", "device name 'usb' is shared by several devices "
			      "(/usb@4000, /usb@5000); use its label or full "
			      "path");
	refused("resume vcodex", "unknown device 'vcodex'; did you mean "
				 "'vcodec'?");
}

static void domain_names(void **state)
{
	(void)state;
	/* Every provider label with :INDEX, the provider path with :INDEX,
	 * DEV:NAME as the `via` column shows it, cell-less providers by
	 * label, path and node name. */
	holds("resume video\n"
	      "expect rail:1 on\n"
	      "expect /power-controller:1 on\n"
	      "expect video:mx on\nexpect vcodec:core on\n"
	      "resume cpu0\n"
	      "expect /psci/power-domain-cpu0 on\n"
	      "expect power-domain-cluster on\n");
	refused("expect video:mxx on", "device 'video' has no domain 'mxx' "
				       "(mx, core); did you mean 'mx'?");
	refused("expect vide:mx on", "unknown domain 'vide:mx'; did you mean "
				     "'video:mx'?");
	refused("expect rpmhdp:1 on", "unknown domain 'rpmhdp:1'; did you "
				      "mean 'rpmhpd:1'?");
	refused("vote video mxx 16", "device 'video' has no domain 'mxx' "
				     "(mx, core); did you mean 'mx'?");
}

static void level_names(void **state)
{
	(void)state;
	/* Labels (all of them) and node names of the OPP entries; a
	 * callback-less domain (gcc:0) takes its parent's names. */
	holds("resume video\n"
	      "vote video mx rail_nominal\nexpect rpmhpd:1 pstate 64\n"
	      "vote video mx rail_nom\nexpect rpmhpd:1 pstate rail_nom\n"
	      "vote video mx opp3\nexpect video:mx pstate rail_turbo\n"
	      "vote video core rail_low\nexpect rpmhpd:0 pstate opp1\n");
	refused("vote video mx rail_nomm", "domain 'rpmhpd:1' has no level "
					   "'rail_nomm'; did you mean "
					   "'rail_nom'?");
	refused("vote video mx xyz", "domain 'rpmhpd:1' has no level 'xyz' "
				     "(levels: rail_low, rail_nom, "
				     "rail_turbo)");
	refused("vote cpu0 low", "domain 'cpu_pd0' has no OPP table (nor have "
				 "its parents)");
}

static void enodev_where_it_lands(void **state)
{
	(void)state;
	/* cpu_pd0 and its parent cluster_pd have no callback: -ENODEV,
	 * suspended or active. gcc:0 has none either but passes its level
	 * up to the rail, which has one. */
	holds("vote cpu0 5\nexpect last-error ENODEV\n"
	      "resume cpu0\nvote cpu0 5\nexpect last-error ENODEV\n"
	      "expect cluster_pd pstate 0\n"
	      "vote cpu0 0\nexpect last-error OK\n"
	      "vote video core 16\nexpect last-error OK\n"
	      "vote video core 300\nexpect last-error ERANGE\n");
}

static void last_error_every_command(void **state)
{
	(void)state;
	holds("resume video\n"
	      "rate video 300MHz\nexpect last-error ERANGE\n"
	      "resume video\nexpect last-error OK\n"
	      "rate video 300MHz\nsuspend i2c\nexpect last-error OK\n"
	      "rate video 300MHz\nfail rpmhpd:0 on\nexpect last-error OK\n"
	      "rate video 300MHz\nqos video 10\nexpect last-error OK\n"
	      "rate video 300MHz\nwakeup video none\n"
	      "expect last-error OK\n");
}

static void rate_after_vote(void **state)
{
	(void)state;
	holds("rate video 100MHz\nvote video mx 256\n"
	      "rate video 100MHz\nresume video\nexpect rpmhpd:1 pstate 16\n"
	      "vote video mx 256\nrate video 99MHz\n"
	      "expect rpmhpd:1 pstate 16\nexpect video rate 100MHz\n");
}

/* The vote as cast (17), not as rounded (64). */
static void vote_as_cast(void **state)
{
	(void)state;
	struct run r = run("resume video\nvote video mx 17\n"
			   "expect rpmhpd:1 pstate 64\n");
	assert_int_equal(r.err, 0);
	assert_int_equal(r.res.expect_failed, 0);
	const struct dmn_report_model *m;
	assert_int_equal(dmn_sim_report(r.sim, 1, &m), 0);
	int seen = 0;
	for (unsigned i = 0; i < m->n_domains; i++) {
		if (strcmp(m->domains[i].name, "rpmhpd:1"))
			continue;
		assert_int_equal(m->domains[i].pstate, 64);
		assert_int_equal(m->domains[i].n_devices, 1);
		assert_int_equal(m->domains[i].devices[0].vote, 17);
		seen = 1;
	}
	assert_true(seen);
	done(&r);
}

/* An undo call that fails is a safe failure marked as an undo. */
static void rollback_undo_fails(void **state)
{
	(void)state;
	struct run r = run("fail cpu_pd0 on\nfail cluster_pd off\n"
			   "resume cpu0\nexpect last-error EIO\n"
			   "expect cluster_pd on\nexpect cpu_pd0 off\n");
	assert_int_equal(r.err, 0);
	assert_int_equal(r.res.expect_failed, 0);
	const struct dmn_report_model *m;
	assert_int_equal(dmn_sim_report(r.sim, 1, &m), 0);
	int unsafe = 0, undo = 0;
	for (unsigned i = 0; i < m->n_events; i++) {
		const struct dmn_report_event *e = &m->events[i];
		if (e->kind != DMN_REPORT_EV_FAILURE)
			continue;
		if (!strcmp(e->domain, "cpu_pd0")) {
			unsafe++;
			assert_false(e->safe);
			assert_false(e->undo);
		} else {
			undo++;
			assert_string_equal(e->domain, "cluster_pd");
			assert_string_equal(e->op, "off");
			assert_true(e->safe);
			assert_true(e->undo);
		}
	}
	assert_int_equal(unsafe, 1);
	assert_int_equal(undo, 1);
	done(&r);
}

static void resume_does_not_nest(void **state)
{
	(void)state;
	holds("resume i2c\nresume i2c\nsuspend i2c\nexpect rpmhpd:0 off\n"
	      "suspend i2c\nresume i2c\nexpect rpmhpd:0 on\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(device_names),
	    cmocka_unit_test(domain_names),
	    cmocka_unit_test(level_names),
	    cmocka_unit_test(enodev_where_it_lands),
	    cmocka_unit_test(last_error_every_command),
	    cmocka_unit_test(rate_after_vote),
	    cmocka_unit_test(vote_as_cast),
	    cmocka_unit_test(rollback_undo_fails),
	    cmocka_unit_test(resume_does_not_nest),
	};
	return cmocka_run_group_tests(tests, load_blob, free_blob);
}
