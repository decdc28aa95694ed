/* SPDX-License-Identifier: MIT */
/*
 * fuzz_power_model - arbitrary bytes as a power model file (docs/energy.md).
 *
 * dmn_power_model_parse either refuses the text with -EINVAL and a
 * diagnostic whose line is within the text and whose message is
 * NUL-ended (and formats as "fuzz.power:LINE: error: "), or accepts it:
 * then every line is in order, names a state of its kind, and a power
 * within DMN_ENERGY_MAX_UW. An accepted model is bound to the built-in demo
 * board (dmn_sim_energy): refused with a line of the model, or bound, and
 * then a short run is metered and the report must hold together: each
 * state's energy is its time x its power, a part's the sum of its states',
 * the total the sum of the parts', each part's times add up to the run.
 * Every writer then renders the report into a sink that drops the bytes.
 */
#include <domino/energy.h>

#ifdef FUZZ_HAVE_SIM
#include "domino_demo_board.h"
#include <domino/report.h>
#include <domino/scenario.h>
#include <domino/sim.h>
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FILE_NAME "fuzz.power"

static unsigned lines_in(const uint8_t *data, size_t size)
{
	unsigned n = 1;
	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

static void check_diag(const struct dmn_energy_diag *d, unsigned max_line)
{
	char buf[600], head[64];
	if (!memchr(d->message, 0, sizeof(d->message)) || !d->line || d->line > max_line)
		__builtin_trap();
	int n = snprintf(head, sizeof(head), FILE_NAME ":%u: error: ", d->line);
	dmn_energy_diag_format(d, buf, sizeof(buf));
	if (strncmp(buf, head, (size_t)n))
		__builtin_trap();
}

#ifdef FUZZ_HAVE_SIM
static int drop(void *user, const char *bytes, size_t len)
{
	(void)user;
	(void)bytes;
	(void)len;
	return 0;
}

static const char script_text[] = "@0 resume venus\n"
				  "rate venus 1.098GHz\n"
				  "resume cpu0\n"
				  "rate cpu0 1.5GHz\n"
				  "@1ms resume mdp\n"
				  "rate mdp 460MHz\n"
				  "@2ms suspend cpu0\n"
				  "@3ms suspend venus\n"
				  "@5ms suspend mdp\n"
				  "@7ms expect last-error OK\n";

static void check_report(const struct dmn_report_model *m)
{
	const struct dmn_report_energy *e = m->energy;
	if (!e || !e->has_times)
		__builtin_trap();
	struct dmn_energy total = {0, 0};
	for (unsigned p = 0; p < e->n_parts; p++) {
		const struct dmn_report_energy_part *part = &e->parts[p];
		struct dmn_energy sum = {0, 0};
		uint64_t t = 0;
		for (unsigned k = 0; k < part->n_states; k++) {
			const struct dmn_report_power_state *s = &part->states[k];
			struct dmn_energy want = s->known ? dmn_energy_of(s->time_ns, s->power_uw)
							  : (struct dmn_energy){0, 0};
			if (dmn_energy_cmp(want, s->energy) || s->power_uw > DMN_ENERGY_MAX_UW)
				__builtin_trap();
			dmn_energy_add(&sum, s->energy);
			t += s->time_ns;
		}
		if (dmn_energy_cmp(sum, part->energy) || t != m->end_ns - e->start_ns)
			__builtin_trap();
		dmn_energy_add(&total, part->energy);
	}
	if (dmn_energy_cmp(total, e->total))
		__builtin_trap();
	const struct dmn_report_sink sink = {drop, NULL};
	const struct dmn_report_text_options opt = {0, 1};
	if (dmn_report_write_energy_text(m, &opt, &sink) == -EINVAL ||
	    dmn_report_write_power_text(m, &opt, &sink) == -EINVAL ||
	    dmn_report_write_json(m, &sink) == -EINVAL || dmn_report_write_trace(m, &sink) == -EINVAL ||
	    dmn_report_write_svg(m, &sink) == -EINVAL)
		__builtin_trap();
}

static void bind_and_run(const struct dmn_power_model *pm, unsigned max_line)
{
	static struct dmn_scn_script *script;
	struct dmn_scn_diag sdiag;
	if (!script && dmn_scn_parse(script_text, sizeof(script_text) - 1, "fuzz.scn", NULL,
				     &script, &sdiag))
		__builtin_trap();
	struct dmn_sim *sim = NULL;
	const struct dmn_sim_options so = {.board_name = "demo"};
	if (dmn_sim_create(domino_demo_dtb, domino_demo_dtb_len, &so, &sim))
		return; /* out of memory */
	struct dmn_energy_diag diag;
	memset(&diag, 0, sizeof(diag));
	int err = dmn_sim_energy(sim, pm, &diag);
	if (err == -EINVAL) {
		check_diag(&diag, max_line);
	} else if (!err) {
		struct dmn_sim_result res;
		const struct dmn_report_model *m;
		if (!dmn_sim_run(sim, script, NULL, NULL, &res, &sdiag) &&
		    !dmn_sim_report(sim, 1, &m))
			check_report(m);
	} else if (err != -ENOMEM) {
		__builtin_trap();
	}
	dmn_sim_free(sim);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmn_power_model *pm = NULL;
	struct dmn_energy_diag diag;
	memset(&diag, 0, sizeof(diag));
	unsigned max_line = lines_in(data, size);
	int err = dmn_power_model_parse((const char *)data, size, FILE_NAME, &pm, &diag);
	if (err == -ENOMEM)
		return 0;
	if (err) {
		if (err != -EINVAL || pm)
			__builtin_trap();
		check_diag(&diag, max_line);
		return 0;
	}
	unsigned last = 0;
	for (size_t i = 0; i < pm->n_lines; i++) {
		const struct dmn_pm_line *l = &pm->lines[i];
		if (l->line <= last || l->line > max_line || !l->name || !*l->name ||
		    l->uw > DMN_ENERGY_MAX_UW ||
		    (l->device != (l->state >= DMN_PM_ACTIVE)) ||
		    ((l->state == DMN_PM_PSTATE || l->state == DMN_PM_OPP ||
		      l->state == DMN_PM_RATE) != !!l->arg && l->state != DMN_PM_IDLE) ||
		    (!l->at_domain != !l->at_level) ||
		    (l->at_domain && l->state != DMN_PM_OPP && l->state != DMN_PM_RATE))
			__builtin_trap();
		last = l->line;
	}
#ifdef FUZZ_HAVE_SIM
	bind_and_run(pm, max_line);
#endif
	dmn_power_model_free(pm);
	return 0;
}
