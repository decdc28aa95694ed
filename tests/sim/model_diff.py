#!/usr/bin/env python3
"""model_diff.py DOMINO DTC - a random differential of `domino simulate`.

Writes small random boards (zero-cell providers, some with `opp-level`
tables, subdomains with one or two parents, `domain-idle-states`, devices
on one or two domains whose OPP tables require levels on each, sub-rails
whose own `opp-level` entries require levels of each parent's table,
`wakeup-source`, devices with `required-opps` and no OPP table of
their own (fixed votes), providers with one or two cells, entries of
`power-domain-names`, `arm,idle-state` states, providers' own
`required-opps` floors, disabled consumers; see extras()) and, from a
stream of their own, each on about a third of the boards: docs/device-tree.md's
device-to-device requirements (chained, anywhere among an entry's
domain references, owners and requirers without domains, a table
shared by two owners; devreq()); providers of several domains
(`#power-domain-cells = <1>`, Rockchip's nested power-domain@N nodes,
indices that only references make exist) and devices on three domains
(shapes()); two unsafe failures armed for one command; device tables
with `opp-supported-hw` (one or two version values, or none given),
duplicate entries, `opp-microvolt`/`opp-microamp` (hw_and_dups()), and
random scenarios over the
verbs of docs/scenario.md including the lifecycle ones (boot-on, always-on,
probe, system-suspend/resume, wakeup-enable, active-wakeup, hwmode, always-on
DEV, qos, wakeup, vote). A reference model written from the contract alone
(docs/semantics.md, docs/scenario.md, docs/lifecycle.md) computes what every
domain must be after each command; the scenario is written in
docs/scenario.md's equivalent spellings (time and frequency units, `@T` for
`+T`, a device's node name or path, blanks, tabs, comments; class Surface) and
carries that as `expect` lines (on/off, pstate, idle state, hw/sw,
held/released, last-error, rate) after every command, so `simulate` checks the
whole state step by step; random `explain` lines are compared word for
word with what the model says (docs/lifecycle.md, explain). Any `expect_failed`
is a disagreement: the
script prints the board, the scenario and the first failure. At the end
the `--json` document is checked too: the lifecycle fields, and `stats`
(docs/json.md) against the model's own accounting: time on, in plain off,
in each idle state and at each pstate, in system sleep; on/off counts,
pstate transitions, idle-state usage and `rejected`, exact where no
command rolled back (a rolled-back command's calls and undo calls count,
so each may add a power-on/off pair and a raise/undo pair per domain).

DOMINO_REAL: the same scenarios on real blobs (RealBoard), the board
taken from `summary --json` and, through `dtc -O dts`, the providers'
floors, the devices' plain OPP tables (for `rate`) and `--supported-hw`
(one version value a seed); what the model cannot know there (a table
mapping its levels onto another's) leaves out pstates (blind()).

docs/device-tree.md's dropped cycle (Links and cycles): now and then a domain
lists itself among its parents (Dom.loop): the board is as without it, `--json`
warns once for that node (`FILE: /NODE: power-domains: warning: ...cycle...`),
and `lint` calls it an error (exit 1).

Also read: `--trace` and `--svg` of the same run (check_trace, check_svg),
the order of the calls inside each command (check_order), each command's
`failure` events with their direction and undo flag and its `stay_on`
events (check_failures), `summary
--explain` of the board as loaded, `lint --json` where a provider's
required-opps match no parent, and one bad-input scenario a board
(bad_input).

Two unsafe failures armed at once: docs/semantics.md (Ordering) orders
the calls of one domain and the phases of a command, not the raises of
unrelated domains, so for that command the model checks only what holds in any
order: the final state, every raise undone, EIO, failure events on the armed
calls only (check_failures: TWO). A `set_rate`'s clock comes after its raises
and before its lowerings (check_order, boards without requirements).

Not exercised (rules of the contract the generator never writes or the model
does not check): an undo lowering that fails (a scenario cannot reach it: a
`fail DOMAIN pstate` hits that command's raise of the domain first, and
a command makes one pstate call a domain; tests/inject covers it in the
library); a requirement that makes an owner's
vote fail (owners are devices whose entries their domains accept);
supplies as calls (`simulate` gives devices no regulators; `fail` names
no supply or clock) and `clocks`; `opp-supported-hw` lengths that
differ from the version's (docs/decisions/opp-supported-hw.md: the group
size comes from the table); boot holds, always-on and wakeup paths in the trace
and SVG (docs/lifecycle.md says they show, not how; they draw sleep and HW mode
only); `summary` naming awaited consumers (it runs no scenario); the
JSON events' causes and devices beyond their types and the replayed
power and pstate state. The owners of a requirement move in the
requirer's transaction (docs/decisions/device-requirements.md), so boards with
requirements get every check too.

docs/scenario.md and docs/lifecycle.md rule by rule ([x] checked, [ ] not;
where):
scenario language (docs/scenario.md)
 [x] `#` comments, blank lines, `@T`/`+T`/no time, ns/us/ms/s and bare
     ns, a decimal point; Hz/kHz/MHz/GHz in any case, bare Hz (Surface)
 [x] an absolute time earlier than the previous line's: bad input; so are
     unknown verbs, names, units, switches, errno names, argument counts
     and a `vote` without the domain name on a device of several domains
     (bad_input: exit 2, `FILE:LINE: error:` at that line)
 [x] resume, suspend, rate (ceil OPP, 0, -ERANGE, -ENODEV), vote (a
     `power-domain-names` entry or the domain's name), qos (`none`),
     wakeup (absolute, `+T`, in the past, `none`), fail (COUNT, 0
     disarms, `hwmode`), every `expect` form (expects after every command)
 [x] last-error: OK for no-op resume/suspend, fail, qos, wakeup; the
     first errno also when a safe failure let the command succeed;
     `expect` and `explain` leave it (wrong_expects, explain lines)
 [x] a failed expect: `FILE:LINE: expect failed: WANT, got GOT`, exit 1
     after running the rest (wrong_expects)
 [x] a failed command is an event with its errno name (check_errors:
     `command_error` exactly on the commands that failed as a whole) and
     the run goes on
 [x] devices start suspended, domains off at pstate 0 (in their deepest
     idle state, docs/semantics.md), time 0
 [x] UTF-8 in comments (bad_input's good lines)
 [ ] invalid UTF-8 and NUL bytes (tests/sim/test_scenario.c); times past
     64 bits (the same)
lifecycle (docs/lifecycle.md)
 [x] boot-on DOMAIN [LEVEL] and always-on DOMAIN at time 0 only, before
     any other command (bad_input); no callback runs; the ancestors start
     on and are not held; LEVEL counts like a vote (rounded, propagated)
     and is checked like one when read (bad_input: -ERANGE, -ENODEV)
 [x] a hold awaits the enabled consumers attached directly (disabled ones
     not: extras); one with none is released only by `probe all`;
     `probe DEV` changes nothing else, repeats are OK; the release in the
     command probing the last awaited device, then the runtime power-off
     path; a `resume` probes; a rolled-back `resume` undoes its probe and
     release (snapshot)
 [x] the provider's boot choices (Linux 6.17): `boot-on D no-stay-on` is
     on without a hold and powers off at the first re-evaluation (a
     consumer's `probe`, `probe all`, a change below it); `boot-on D
     [LEVEL] no-sync-state` outlives its consumers' probes until
     `sync-state D` or `probe all`; explain, JSON stay_on / sync_state and
     awaiting say so
 [x] the system wakeup latency (Linux 6.19): `system-qos LATENCY|none`
     for CPU domains (generated boards put some under a PSCI node, each
     with idle states and a CPU device): the governor takes the tighter
     of it and the devices' QoS (explain: `system qos: ...`); system sleep
     picks the deepest state within it or keeps the domain on with its
     parents; JSON system_qos_us
 [x] system-suspend: every device suspended but wakeup-path ones, then
     power-off children first into the deepest state, governor not
     asked; kept on: always-on, held (with parents), on active-wakeup
     domains with a wakeup-enabled device (DT `wakeup-source` or
     `wakeup-enable`, at any time), with parents; an off domain keeps its
     idle state; HW-mode domains go off, the mode survives; `always-on
     DEV` keeps nothing on; a second system-suspend is OK and does nothing
 [x] system-resume: one `resume` of the devices active before; an unsafe
     failure rolls the restoration back, is reported (check_errors), the
     system is awake; resume/suspend while asleep: -EACCES; system-resume
     while awake: OK, nothing
 [x] hwmode DEV [NAME] on|off: per attachment; -EOPNOTSUPP where the
     domain has a pstate callback; the current mode makes no call; `fail
     DOMAIN hwmode` leaves the mode (EIO); in HW mode while any
     attachment is: no runtime power-off (with parents), votes aggregate;
     leaving it re-evaluates an unused domain; JSON `hw`
 [x] always-on DEV on|off: no runtime power-off whatever DEV's state,
     powers nothing on; `off` re-evaluates DEV's unused domains
 [x] `explain D` word for word (holders in the contract's order, idle-state
     rulings deepest first, pstate contributors, rounding, stuck), also
     `summary --explain` of the board as loaded
 [x] JSON: the lifecycle per-domain, per-device and top-level fields;
     stats.system_sleep, sleep_on_ns, sleep_idle_ns (check_json,
     check_stats)
 [ ] `summary` naming the awaited consumers (it runs no scenario); boot
     holds, always-on and wakeup paths in trace/SVG (docs/lifecycle.md says
     they show, not how); JSON event causes
 [ ] the idle-state sums of explain past 64 bits (shown saturated)

Environment: DOMINO_SEED (first seed, default 1), DOMINO_RUNS (boards,
default 200), DOMINO_OPS (commands a scenario, default 60), DOMINO_RANDOM=1
(a seed from the clock, printed), KEEP=1 (keep the files), DOMINO_PLAIN=1
(the boards and scenarios of a seed without what extras() adds),
DOMINO_MIX=life (half the commands
lifecycle verbs: probe, system sleep, wakeup, hwmode, always-on;
=fail: a failure armed before half the commands, not 15%),
DOMINO_REAL=BOARD.dtb or a directory of them (random scenarios on real
boards, RealBoard; ctest sim_model_diff_real on DOMINO_BOARDS).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

LEVELS = [16, 32, 48, 64, 128, 192, 256, 384]


class Dom:
    def __init__(self, i):
        self.i = i
        self.name = "pd%d" % i
        self.label = self.name     # the provider node's label
        self.cells = 0             # its #power-domain-cells
        self.index = 0             # the domain's index there
        self.parents = []
        self.children = []
        self.table = None          # sorted opp-levels, or None
        self.reqs = {}             # level -> required-opps [(table, level)]
        self.states = []           # (name, entry_us, exit_us, residency_us)
        self.always_on = False
        self.active_wakeup = False
        self.sleep_keep = False    # kept on by the wakeup path in sleep
        self.held = False
        self.boot_level = 0
        self.boot_raw = 0          # the boot level as written
        self.nostay = False        # boot-on ... no-stay-on (Linux 6.17)
        self.nosync = False        # boot-on ... no-sync-state
        self.cpu = False           # a PSCI domain: system-qos applies
        self.sleepqos = None       # the limit its last sleep chose under
        self.why = 'initial'       # why off: initial, sleep, gov
        self.gov = None            # the governor's last inputs
        self.cur = 0               # the level its callback last accepted
        self.on = False
        self.idle = None           # index while off, or None
        self.devs = []             # attachments (dev, slot)
        self.floor_refs = []       # the provider's own required-opps
        self.loop = None           # where its own ref sits in its parents
        self.floors = {}           # parent index -> the floor it takes
        self.st = None             # Stats, once the board is complete

    @property
    def node(self):
        """Its provider node's path (a CPU domain sits under PSCI)."""
        return ('/psci%d/' % self.i if self.cpu else '/') + self.label

    def ref(self):
        """A phandle to this domain, with its cells."""
        return '<&%s%s>' % (self.label, ''.join(
            ' %d' % x for x in [self.index, 1][:self.cells]))


class Stats:
    """What `stats` must say of one domain (docs/json.md): times from the
    model's state between commands; counts of the callbacks accepted.
    Stats are not rolled back (a rolled-back command's calls and undo
    calls happened): the model counts committed commands exactly and
    allows each rolled-back command (`slack`) one power-on and its undo,
    a raise and its undo, per domain; `odd` counts the undos that lowered
    a domain to a level other than the one it started at (something an
    undo could not take away still needs it), whose raise and undo are
    two calls where the model's net change counts one."""

    def __init__(self, d):
        n = len(d.states)
        self.on_count = self.off_count = self.ptrans = self.slack = 0
        self.odd = 0
        self.usage, self.rejected = [0] * n, [0] * n
        self.time_on = self.time_off = self.sleep_on = 0
        self.idle_time = [0] * n
        self.sleep_idle = {}
        self.ptime = {0: 0}

    COUNTS = ('on_count', 'off_count', 'ptrans')

    def save(self):
        return ({f: getattr(self, f) for f in Stats.COUNTS},
                list(self.usage), list(self.rejected))

    def load(self, saved):
        fs, self.usage, self.rejected = saved
        for f, x in fs.items():
            setattr(self, f, x)


class Dev:
    def __init__(self, i):
        self.i = i
        self.name = "dev%d" % i
        self.doms = []
        self.votes = []
        self.hw = []
        self.active = False
        self.probed = False
        self.wakeup = False
        self.always_on = False
        self.opps = []             # (hz, [(table domain, level)])
        self.rate = 0              # the clock's rate
        self.opp = 0               # the selected OPP's hz, 0: none
        self.qos = None            # us
        self.wake_at = None        # ns
        self.pdnames = None        # power-domain-names, if not the names
        self.fixed = None          # required-opps without an OPP table
        self.dreq = None           # per entry: [(owner, its entry, where)]
        self.hwcells = {}          # entry -> its opp-supported-hw, if any
        self.volts = {}            # entry -> opp-microvolt/-microamp
        self.extra = {}            # entry -> lines after it (hw, dups)
        self.hidden = []           # the hz of entries opp-supported-hw hides
        self.requirers = []        # devices whose entries require ours
        self.tab = self            # whose table it is (opp-shared)

    @property
    def shown(self):
        """Its name in JSON (a RealBoard's devices go by path in the
        scenario, which is always unique)."""
        return getattr(self, 'json_name', self.name)


def first_table(d):
    """The first domain with a table at or above @d (breadth first)."""
    queue = [d]
    while queue:
        x = queue.pop(0)
        if x.table:
            return x
        queue.extend(x.parents)
    return None


def match_required(v, reqs):
    """Which domain each required OPP votes on (docs/semantics.md, Required
    OPPs): {slot: level}."""
    taken, out = set(), {}
    for k, d in enumerate(v.doms):         # pass 1: the domain's own table
        for j, (t, lv) in enumerate(reqs):
            if j not in taken and t is d:
                taken.add(j)
                out[k] = lv
                break
    for k, d in enumerate(v.doms):         # pass 2: an ancestor's table
        if k in out:
            continue
        anc = Model.ancestors(None, d)
        for j, (t, lv) in enumerate(reqs):
            if j not in taken and t in anc:
                taken.add(j)
                out[k] = lv
                break
    return out


class Board:
    def __init__(self, rnd):
        self.rnd = rnd
        self.devreq = False
        self.groups = []           # (label, top nodes, {i: nested}, flat)
        self.Y = None              # the newer extras' stream, if drawn
        self.hw = None             # --supported-hw, if given
        nd = rnd.randint(2, 6)
        self.doms = [Dom(i) for i in range(nd)]
        nroots = 1 if nd < 3 else rnd.randint(1, 2)
        self.nstates = 0
        self.state_nodes = []
        self.compat = {}           # idle-state node -> its compatible
        for d in self.doms:
            if d.i < nroots:
                if rnd.random() < 0.7:
                    d.table = sorted(rnd.sample(LEVELS, rnd.randint(1, 4)))
            else:
                np = 2 if (d.i >= 2 and rnd.random() < 0.25) else 1
                for p in rnd.sample(range(d.i), np):
                    d.parents.append(self.doms[p])
                    self.doms[p].children.append(d)
                ups = [first_table(p) for p in d.parents]
                if all(ups) and rnd.random() < 0.3:
                    # a sub-rail: its own levels, each requiring a level
                    # of the first table above each parent (docs/semantics.md,
                    # Required OPPs:
                    # domain tables requiring parent levels, matched by
                    # the same rule as a device's)
                    d.table = sorted(rnd.sample(LEVELS, rnd.randint(1, 3)))
                    picks = [sorted(rnd.choice(t.table) for _ in d.table)
                             for t in ups]
                    for j, lv in enumerate(d.table):
                        d.reqs[lv] = [(t, pk[j]) for t, pk in zip(ups, picks)]
            if rnd.random() < 0.65:
                for _ in range(rnd.randint(1, 3)):
                    node = "st%d" % self.nstates
                    self.nstates += 1
                    label = node if rnd.random() < 0.6 else "ret%d" % self.nstates
                    st = (label, rnd.randint(0, 300), rnd.randint(0, 300),
                          rnd.randint(0, 900))
                    self.state_nodes.append((node, st))
                    d.states.append(st)
        self.devs = []
        self.disabled = []         # (power-domains, wakeup-source)
        for i in range(rnd.randint(2, 5)):
            v = Dev(i)
            n = 1 if (nd < 2 or rnd.random() < 0.7) else 2
            for d in rnd.sample(self.doms, n):
                v.doms.append(d)
                v.votes.append(0)
                v.hw.append(False)
                d.devs.append((v, len(v.doms) - 1))
            v.wakeup = rnd.random() < 0.3
            self.devs.append(v)
        # OPP tables of devices: each entry requires, for each of the
        # device's domains, a level of the first table at or above it
        # (docs/semantics.md, Required OPPs; the matching rule picks which
        # domain each entry votes on).
        for v in self.devs:
            owners = []
            for d in v.doms:
                t = first_table(d)
                if t:
                    owners.append(t)
            if not owners or rnd.random() < 0.35:
                continue
            hz = 0
            for _ in range(rnd.randint(1, 3)):
                hz += rnd.choice([50, 100, 200]) * 1000000
                v.opps.append((hz, [(t, rnd.choice(t.table))
                                    for t in owners]))

    def link_order(self, doms):
        """@doms in the order the loader links them to a parent: by
        provider node in the blob (providers of several domains first,
        shapes()), then index."""
        groups = [g[0] for g in self.groups]
        return sorted(doms, key=lambda d: (
            groups.index(d.label) if d.label in groups else len(groups),
            d.i if d.label not in groups else 0, d.index))

    def dts(self):
        out = ['/dts-v1/;', '/ { compatible = "domino,generated"; '
               '#address-cells = <1>; #size-cells = <0>;']
        if self.state_nodes:
            out.append('domain-idle-states {')
            for node, (label, e, x, r) in self.state_nodes:
                name = '' if label == node else \
                    ' idle-state-name = "%s";' % label
                out.append('  %s: %s { compatible = "%s";%s '
                           'entry-latency-us = <%d>; exit-latency-us = <%d>; '
                           'min-residency-us = <%d>; };' % (
                               node, node, self.compat.get(node,
                                                           'domain-idle-state'),
                               name, e, x, r))
            out.append('};')
        sid = {st: node for node, st in self.state_nodes}
        for d in self.doms:
            if d.table:
                out.append('t%d: opp-table-%d { compatible = '
                           '"operating-points-v2";' % (d.i, d.i))
                for lv in d.table:
                    req = '' if lv not in d.reqs else \
                        ' required-opps = <%s>;' % ' '.join(
                            '&t%d_%d' % (t.i, x) for t, x in d.reqs[lv])
                    out.append('  t%d_%d: opp-%d { opp-level = <%d>;%s };' %
                               (d.i, lv, lv, lv, req))
                out.append('};')
        for v in self.devs:
            if not v.opps or v.tab is not v:
                continue
            out.append('dt%d: opp-table-dev%d { compatible = '
                       '"operating-points-v2";' % (v.i, v.i))
            for j, (hz, reqs) in enumerate(v.opps):
                refs = ['&t%d_%d' % (t.i, lv) for t, lv in reqs]
                for o, e, at in (v.dreq[j] if v.dreq else []):
                    refs.insert(min(at, len(refs)), '&dt%d_%d' % (o.i, e))
                out.append('  dt%d_%d: opp-%d { opp-hz = /bits/ 64 <%d>; '
                           'required-opps = <%s>;%s%s };' % (
                               v.i, j, hz, hz, ' '.join(refs),
                               v.hwcells.get(j, ''), v.volts.get(j, '')))
                out.extend(v.extra.get(j, []))
            out.append('};')
        grouped = set(x.i for g in self.groups for x in g[1] + g[3] +
                      [c for cs in g[2].values() for c in cs])
        for label, top, nest, flat in self.groups:
            # one provider of several domains (docs/device-tree.md,
            # Providers): its own
            # `power-domains` parents its top-level domains; Rockchip's
            # nested power-domain@N nodes, and indices that exist only
            # because something references them
            def node(x, depth):
                kids = ' '.join(node(c, depth + 1) for c in nest.get(x.i, []))
                return 'power-domain@%d { reg = <%d>; #power-domain-cells = ' \
                    '<0>; %s};' % (x.index, x.index, kids + ' ' if kids else '')
            props = ['#power-domain-cells = <1>;', '#address-cells = <1>;',
                     '#size-cells = <0>;']
            parents = (top or flat)[0].parents
            if parents:
                props.append('power-domains = %s;' % ', '.join(
                    p.ref() for p in parents))
            out.append('%s: power-controller-%s { %s %s };' % (
                label, label[2:], ' '.join(props),
                ' '.join(node(x, 0) for x in top)))
        for d in self.doms:
            if d.i in grouped:
                continue
            props = ['#power-domain-cells = <0>;']
            if d.table:
                props.append('operating-points-v2 = <&t%d>;' % d.i)
            refs = [p.ref() for p in d.parents]
            if d.loop is not None:
                refs.insert(d.loop, d.ref())   # dropped: a cycle
            if refs:
                props.append('power-domains = %s;' % ', '.join(refs))
            if d.states:
                props.append('domain-idle-states = <%s>;' % ' '.join(
                    '&' + sid[s] for s in d.states))
            if d.floor_refs:
                props.append('required-opps = <%s>;' % ' '.join(
                    '&t%d_%d' % (t.i, lv) for t, lv in d.floor_refs))
            props[0] = '#power-domain-cells = <%d>;' % d.cells
            node = '%s: %s { %s };' % (d.label, d.label, ' '.join(props))
            if d.cpu:
                # under a PSCI node, in its place: the blob's order stays
                node = 'psci%d { compatible = "arm,psci-1.0"; %s };' % (
                    d.i, node)
            out.append(node)
        for v in self.devs:
            props = ['reg = <0x%x>;' % (0x1000 + v.i)]
            if v.doms:
                props.append('power-domains = %s;' % ', '.join(
                    d.ref() for d in v.doms))
            if len(v.doms) > 1 or v.pdnames:
                props.append('power-domain-names = %s;' % ', '.join(
                    '"%s"' % x for x in v.pdnames or
                    [d.name for d in v.doms]))
            if v.wakeup:
                props.append('wakeup-source;')
            if v.opps:
                props.append('operating-points-v2 = <&dt%d>;' % v.tab.i)
            if v.fixed:
                props.append('required-opps = <%s>;' % ' '.join(
                    '&t%d_%d' % (t.i, lv) for t, lv in v.fixed))
            out.append('%s: %s@%x { %s };' % (v.name, v.name, 0x1000 + v.i,
                                             ' '.join(props)))
        for j, (ref, wake) in enumerate(self.disabled):
            out.append('dis%d: dis%d@%x { reg = <0x%x>; power-domains = %s;%s '
                       'status = "disabled"; };' % (
                           j, j, 0x2000 + j, 0x2000 + j, ref,
                           ' wakeup-source;' if wake else ''))
        out.append('};')
        return '\n'.join(out) + '\n'


class RealBoard(Board):
    """A real board (DOMINO_REAL) as `summary --json` shows it: domains
    with their parents, levels, idle states and flags, devices (by path)
    with their attachments, fixed votes and `wakeup-source`. What the
    JSON leaves out (required-opps between domain tables, providers'
    floors, device OPP tables) the model cannot know, so scenarios on
    it leave out `rate` on devices whose tables are not plain
    (read_levels: Tegra30's opp-supported-hw), and where a domain's
    table maps its levels
    onto another's (read_levels, blind(); none of the five boards)
    pstates: `vote`, `fail DOMAIN pstate`, pstate expects and
    `explain`. Providers' floors come from the blob (read_levels)."""

    def __init__(self, doc):
        self.rnd = None
        self.devreq = False
        self.groups = []
        self.X = self.Y = None
        self.hw = None
        js = doc['domains']
        # parents before children: the model walks reversed(doms) for
        # children first; the summary's order stays the link order
        self.summary = [j['name'] for j in js]
        byname = {j['name']: j for j in js}
        order, seen = [], set()

        def visit(n):
            if n in seen:
                return
            seen.add(n)
            for p in byname[n]['parents']:
                visit(p)
            order.append(n)
        for j in js:
            visit(j['name'])
        self.doms = []
        for i, n in enumerate(order):
            d = Dom(i)
            j = byname[n]
            d.name = d.label = n
            d.table = [x['level'] for x in j['levels']] or None
            d.states = [(x['name'], x['entry_latency_us'],
                         x['exit_latency_us'], x['min_residency_us'])
                        for x in j['idle_states']]
            d.always_on = j['always_on']
            d.active_wakeup = j['active_wakeup']
            d.index = j['index']
            self.doms.append(d)
        dom = {d.name: d for d in self.doms}
        for d in self.doms:
            d.parents = [dom[p] for p in byname[d.name]['parents']]
            for p in d.parents:
                p.children.append(d)
        self.devs, dev = [], {}
        for j in js:
            for x in j['devices']:
                v = dev.get(x['path'])
                if v is None:
                    v = dev[x['path']] = Dev(len(self.devs))
                    v.name, v.json_name = x['path'], x['name']
                    v.wakeup = x['wakeup']
                    self.devs.append(v)
                d = dom[j['name']]
                v.doms.append(d)
                v.votes.append(x['vote'])
                v.hw.append(False)
                d.devs.append((v, len(v.doms) - 1))

    def link_order(self, doms):
        return sorted(doms, key=lambda d: self.summary.index(d.name))

    @staticmethod
    def pd_order(v, cells, handle, provider):
        """Put @v's domains in its `power-domains` order (the summary
        lists them by domain): False where a reference does not map to
        one of them."""
        pd, i, order = cells(v.name, 'power-domains'), 0, []
        while i < len(pd):
            prov = handle.get(pd[i], '')
            n = (cells(prov, '#power-domain-cells') or [0])[0]
            idx = pd[i + 1] if n and i + 1 < len(pd) else None
            i += 1 + n
            order += [k for k, d in enumerate(v.doms)
                      if provider[d.name] == prov and d.index == idx]
        if sorted(order) != list(range(len(v.doms))):
            return False
        for x in v.doms:
            x.devs = [(u, order.index(k) if u is v else k)
                      for u, k in x.devs]
        v.doms = [v.doms[k] for k in order]
        v.votes = [v.votes[k] for k in order]
        v.hw = [v.hw[k] for k in order]
        return True

    def read_levels(self, dtc, dtb, provider):
        """From the blob (`dtc -O dts`): the providers' own `required-opps`
        as floors (docs/semantics.md, Required OPPs; matched to each
        domain's parents by the
        rule of a device's: pass 1 a parent whose provider's table holds
        the entry, pass 2 an ancestor's), and whether the model knows
        the pstates (self.known): no entry of a domain's table requires
        one of another table (a sub-rail's mapping, which the model
        would need as Dom.reqs). @provider: domain name -> provider
        node path."""
        r = subprocess.run([dtc, '-q', '-I', 'dtb', '-O', 'dts', dtb],
                           capture_output=True, text=True)
        nodes, stack, handle = {}, [], {}
        for line in r.stdout.splitlines():
            t = line.strip()
            if t.endswith('{'):
                stack.append(t[:-1].strip().split(':')[-1].strip())
                nodes['/'.join(stack)[1:] or '/'] = []
            elif t.startswith('};'):
                stack.pop()
            elif stack:
                nodes['/'.join(stack)[1:] or '/'].append(t)
                if t.startswith('phandle = <'):
                    handle[int(t[11:-2], 16)] = '/'.join(stack)[1:]

        def cells(path, prop):
            return [int(x, 16) for t in nodes.get(path, [])
                    if t.startswith(prop + ' = <')
                    for x in t[len(prop) + 4:-2].replace('><', ' ').split()]
        self.known = not r.returncode

        def table(d):
            t = cells(provider[d.name], 'operating-points-v2')
            return handle.get(t[0]) if t else None

        def match(doms, refs):
            """The matching of required OPPs (docs/semantics.md, Required OPPs)
            of (table path, level)
            to @doms: pass 1 a domain whose provider's table holds the
            entry, pass 2 one whose ancestor's does: {k: level}."""
            out, taken = {}, set()
            for k, x in enumerate(doms):
                j = next((j for j, (t, _) in enumerate(refs)
                          if j not in taken and t == table(x)), None)
                if j is not None:
                    taken.add(j)
                    out[k] = refs[j][1]
            for k, x in enumerate(doms):
                anc = [table(a) for a in Model.closure(
                    x.parents, lambda y: y.parents)]
                j = None if k in out else next(
                    (j for j, (t, _) in enumerate(refs)
                     if j not in taken and t in anc), None)
                if j is not None:
                    taken.add(j)
                    out[k] = refs[j][1]
            return out
        for d in self.doms:
            t = table(d)
            if t and any(x.startswith(t + '/') and any(
                    y.startswith('required-opps') for y in ys)
                    for x, ys in nodes.items()):
                self.known = False
            refs = []
            for ph in cells(provider[d.name], 'required-opps'):
                e = handle.get(ph, '')
                lv = cells(e, 'opp-level')
                if not lv:
                    self.known = False      # not a domain's table
                    continue
                refs.append((e.rsplit('/', 1)[0], lv[0]))
            for k, lv in match(d.parents, refs).items():
                d.floors[d.parents[k].i] = lv
        # devices' OPP tables, for `rate`: plain ones only (entries by
        # their first opp-hz, distinct, no level, turbo-mode or status;
        # required-opps into domain tables; `opp-supported-hw` against
        # one version value, self.hw); a device with another keeps
        # v.rate_ok False
        for v in self.devs:
            t = cells(v.name, 'operating-points-v2')
            v.rate_ok = not t
            if t and not self.pd_order(v, cells, handle, provider):
                continue               # matching needs that order
            t = handle.get(t[0]) if t else None
            ents = sorted((x, ys) for x, ys in nodes.items()
                          if t and x.startswith(t + '/'))
            opps = []
            for x, ys in ents:
                hz = cells(x, 'opp-hz')    # 64-bit values as two cells
                if len(hz) < 2:
                    continue
                if any(y.split(' ')[0].rstrip(';') in (
                        'opp-level', 'turbo-mode', 'status') for y in ys):
                    opps = None
                    break
                sup = cells(x, 'opp-supported-hw')
                if sup and not self.hw:
                    continue           # unavailable without a version
                if sup and not any(all(c & h for c, h in zip(
                        sup[g:g + 1], [int(self.hw)]))
                                   for g in range(len(sup))):
                    continue           # no group matches (docs/device-tree.md,
                    #                  opp-supported-hw)
                refs = []
                for ph in cells(x, 'required-opps'):
                    lv = cells(handle.get(ph, ''), 'opp-level')
                    if not lv:
                        opps = None     # a device-to-device requirement
                        break
                    refs.append((handle[ph].rsplit('/', 1)[0], lv[0]))
                if opps is None:
                    break
                got = match(v.doms, refs)
                opps.append((hz[0] << 32 | hz[1],
                             [(v.doms[k], lv) for k, lv in got.items()]))
            if opps and len(set(o[0] for o in opps)) == len(opps):
                v.opps = sorted(opps, key=lambda o: o[0])
                v.rate_ok = True


class Parents:
    """A domain's parents as match_required's list of domains."""

    def __init__(self, c):
        self.doms = c.parents


class Rollback(Exception):
    """An unsafe-direction failure: the command is undone."""


DOM_FIELDS = ('on', 'idle', 'held', 'cur', 'sleep_keep', 'why', 'gov',
              'sleepqos')
DEV_FIELDS = ('active', 'probed', 'always_on', 'wakeup', 'qos', 'wake_at',
              'rate', 'opp')


class Model:
    """The expected state, from the contract (docs/) alone."""

    def __init__(self, board):
        self.b = board
        self.now = 0
        self.asleep = False
        self.saved = []
        self.fails = {}            # (domain name, op) -> count
        self.failed = []           # this command's failed calls
        self.failures = {}         # line -> its failed calls
        self.stays = {}            # line -> where the governor stayed on
        self.err = None            # first errno name of this command
        self.touched = set()       # what this command settles
        self.off_failed = set()
        self.stayed = set()
        self.explains = {}         # line -> the lines `explain` must print
        self.whole = None          # errno of this command failed as a whole
        self.wholes = {}           # line -> that errno, or None
        self.stuck = {}            # line -> domains above their aggregate
        self.slept = 0
        self.sleeps = 0
        self.sys_qos = None        # `system-qos`, us (Linux 6.19)
        for d in board.doms:
            d.idle = len(d.states) - 1 if d.states else None
            d.st = Stats(d)

    # -- failures and transactions
    def call(self, d, op, safe=False, undo=False):
        """A callback runs: True when an armed `fail` makes it fail (then
        the command's `failure` event says so: its domain, op, and
        whether it was a safe-direction call and an undo)."""
        n = self.fails.get((d.name, op), 0)
        if n:
            self.fails[(d.name, op)] = n - 1
            self.err = self.err or 'EIO'
            self.failed.append((d.name, op, safe, undo))
            return True
        return False

    def snapshot(self):
        return ([{f: getattr(d, f) for f in DOM_FIELDS} for d in self.b.doms],
                [({f: getattr(v, f) for f in DEV_FIELDS}, list(v.votes),
                  list(v.hw)) for v in self.b.devs],
                self.asleep, list(self.saved))

    def restore(self, snap):
        doms, devs, self.asleep, self.saved = snap
        for d, fs in zip(self.b.doms, doms):
            for f, x in fs.items():
                setattr(d, f, x)
        for v, (fs, votes, hw) in zip(self.b.devs, devs):
            for f, x in fs.items():
                setattr(v, f, x)
            v.votes, v.hw = votes, hw

    def touch(self, d):
        """@d's inputs or state changed: the operation settles it and its
        ancestors."""
        self.touched.add(d.i)
        for p in self.ancestors(d):
            self.touched.add(p.i)

    def settle(self, calls=True):
        """Pstate calls (docs/semantics.md, Votes and pstates): a raise
        whenever the aggregate is above the level; a lowering, or the retry of
        one that failed, for each domain the operation settles: those whose
        inputs or state it changed, and their ancestors (see
        docs/decisions/retry-rule.md)."""
        plan = {}
        for d in reversed(self.b.doms):    # children first
            if d.table:
                plan[d.i] = self.target(d, {}, plan)
        for d in self.b.doms:              # raises: parents first
            if d.table and plan[d.i] > d.cur:
                if calls and self.call(d, 'pstate'):
                    raise Rollback()
                d.cur = plan[d.i]
        for d in reversed(self.b.doms):    # lowerings: children first
            if not d.table:
                continue
            t = self.target(d, {})
            if t >= d.cur or d.i not in self.touched:
                continue
            if calls and self.call(d, 'pstate', True):
                continue           # safe: stuck at cur
            d.cur = t

    def run(self, fn):
        """One command as a transaction: its last-error."""
        snap = self.snapshot()
        counts = [d.st.save() for d in self.b.doms]
        self.err = None
        self.whole = None
        self.failed = []
        self.touched = set()
        self.off_failed = set()
        self.stayed = set()
        self.settled = False
        self.levels = self.pstates()
        owned = self.owner_votes()
        try:
            err = fn()
            # an owner whose effective vote moved: its domain is settled
            for (i, k), x in self.owner_votes().items():
                if x != owned[(i, k)] and x is not None and \
                        owned[(i, k)] is not None:
                    self.touch(self.b.devs[i].doms[k])
            if err == 'OK' and not self.settled:
                self.settle()
        except Rollback:
            self.roll_back(snap, counts)
            self.count_pstates()
            self.whole = 'EIO'
            return 'EIO'
        self.count_pstates()
        if err != 'OK':
            self.whole = self.whole or err
        return self.err or err

    def pstates(self):
        memo = {}
        return [self.pstate(d, memo) for d in self.b.doms]

    def count_pstates(self):
        """One pstate transition for each domain whose level moved since
        self.levels (one call a command; system-resume has two phases)."""
        for d, a, b in zip(self.b.doms, self.levels, self.pstates()):
            if a != b:
                d.st.ptrans += 1
                d.st.ptime.setdefault(b, 0)
        self.levels = self.pstates()

    def advance(self, step):
        """Time passes: the state since the last command holds."""
        memo = {}
        if self.asleep:
            self.slept += step
        for d in self.b.doms:
            s = d.st
            if d.on:
                s.time_on += step
                if self.asleep:
                    s.sleep_on += step
            else:
                if d.idle is None:
                    s.time_off += step
                else:
                    s.idle_time[d.idle] += step
                if self.asleep:
                    k = 'off' if d.idle is None else d.states[d.idle][0]
                    s.sleep_idle[k] = s.sleep_idle.get(k, 0) + step
            lv = self.pstate(d, memo)
            s.ptime[lv] = s.ptime.get(lv, 0) + step
        self.now += step

    # -- topology helpers
    @staticmethod
    def closure(start, step):
        """Every domain reached from @start by @step (breadth first)."""
        seen, queue = [], list(start)
        while queue:
            x = queue.pop(0)
            if x not in seen:
                seen.append(x)
                queue.extend(step(x))
        return seen

    def ancestors(self, d):
        return Model.closure(d.parents, lambda x: x.parents)

    def below(self, d):
        return Model.closure([d], lambda x: x.children)

    def tables_reached(self, d):
        """The tables a vote on @d lands in: the first on each path up
        (a table with required-opps maps the level on to its parents;
        the generator gives a sub-rail's every level a mapping)."""
        out, queue = [], [d]
        while queue:
            x = queue.pop(0)
            if x.table:
                if x not in out:
                    out.append(x)
            else:
                queue.extend(x.parents)
        return out

    def check_level(self, d, level):
        """-ENODEV / -ERANGE of a vote (docs/semantics.md, Votes and pstates),
        or None. -ERANGE where
        the vote would ask a table above its top anywhere it lands: the
        level rounded in each table and passed on as each child requires
        (a mapped entry, else 1:1), the highest over every path. A mapped
        entry passes 1:1 through the subdomains below its table, and one
        of those may also lead to a smaller table (seed 5093 with
        DOMINO_OPS=150: 384 for pd0 through pd3, also reaching pd1's
        [192, 256])."""
        if level == 0:
            return None
        if not self.tables_reached(d):
            return 'ENODEV'
        asked, queue = {d.i: level}, [d]
        while queue:
            x = queue.pop(0)
            lv = asked[x.i]
            if x.table:
                if lv > x.table[-1]:
                    return 'ERANGE'
                lv = self.rnd_up(x, lv)
            for p in x.parents:
                req = self.req_of(p, x, lv)
                if req > asked.get(p.i, 0):
                    asked[p.i] = req
                    queue.append(p)
        return None

    @staticmethod
    def rnd_up(d, level):
        if not d.table or level == 0:
            return level
        return next(lv for lv in d.table if lv >= level)

    # -- aggregate
    def pstate(self, d, memo=None, plan=None):
        """What the domain reports: its callback's level (or the level
        @plan gives it), or the aggregate a callback-less domain passes
        up."""
        if d.table:
            return d.cur if plan is None else plan[d.i]
        return self.target(d, memo, plan)

    def requires(self, d, c, memo=None, plan=None):
        """What on child @c requires of @d (docs/semantics.md, Subdomains and
        propagation): its OPP entry's
        required level matched to @d, else its level 1:1; at least the
        floor of @c's provider's own required-opps matched to @d."""
        return max(self.req_of(d, c, self.pstate(c, memo, plan)),
                   c.floors.get(d.i, 0))

    @staticmethod
    def req_of(d, c, lv):
        """What child @c at level @lv requires of its parent @d."""
        if lv and lv in c.reqs:
            k = c.parents.index(d)
            got = match_required(Parents(c), c.reqs[lv])
            if k in got:
                return got[k]
        return lv

    def target(self, d, memo=None, plan=None):
        if memo is None:
            memo = {}
        if d.i in memo:
            return memo[d.i]
        raw = d.boot_level if d.held else 0
        for v, k in d.devs:
            if v.active:
                raw = max(raw, self.vote(v, k))
        for c in d.children:
            if c.on:
                raw = max(raw, self.requires(d, c, memo, plan))
        memo[d.i] = self.rnd_up(d, raw) if d.on else 0
        return memo[d.i]

    def hwmode(self, d):
        return any(v.hw[k] for v, k in d.devs)

    # -- device-to-device requirements (docs/device-tree.md)
    def eff(self, v):
        """@v's effective OPP (an index of v.opps, None: none): the
        highest (first opp-hz) of its own and of those its active
        requirers require at their effective OPPs (a chain)."""
        best = next((j for j, o in enumerate(v.opps) if o[0] == v.opp),
                    None) if v.opp else None
        for u in v.requirers:
            e = self.eff(u) if u.active else None
            for o, j, _ in (u.dreq[e] if e is not None else []):
                if o is v.tab and (best is None or
                               v.opps[j][0] > v.opps[best][0]):
                    best = j
        return best

    def vote(self, v, k):
        """What @v's vote on its k-th domain counts for: an owner's is
        the max of its own latest vote/rate and its effective OPP's."""
        e = self.eff(v) if v.requirers else None
        if e is None:
            return v.votes[k]
        return max(v.votes[k], match_required(v, v.opps[e][1]).get(k, 0))

    def rate_of(self, v):
        """`expect DEV rate`: the effective rate; an owner no
        requirement raises is back at the clock its own commands left
        (docs/decisions/device-requirements.md)."""
        e = self.eff(v) if v.requirers else None
        return v.rate if e is None else v.opps[e][0]

    def owner_votes(self):
        return {(v.i, k): self.rnd_up(d, self.vote(v, k)) if v.active
                else None for v in self.b.devs if v.requirers
                for k, d in enumerate(v.doms)}

    def wake_path(self, v):
        return v.wakeup and any(d.active_wakeup for d in v.doms)

    # -- power
    def power_on(self, d):
        for p in d.parents:
            self.power_on(p)
        if not d.on and self.call(d, 'on'):
            raise Rollback()
        if not d.on:
            d.st.on_count += 1
        d.on = True
        d.idle = None

    def needs_on(self, d):
        return (d.always_on or d.held or d.sleep_keep or
                any(v.active for v, _ in d.devs)
                or any(c.on for c in d.children))

    def vetoed(self, d):
        return (not self.asleep and
                (self.hwmode(d) or any(v.always_on for v, _ in d.devs)))

    def governor(self, d):
        """The deepest idle state that fits, -1 for none, None: no states."""
        if not d.states:
            return None
        limit = None
        wake = None
        for x in self.below(d):
            for v, _ in x.devs:
                if v.qos is not None:
                    limit = v.qos if limit is None else min(limit, v.qos)
                if v.wake_at is not None and v.wake_at >= self.now:
                    wake = v.wake_at if wake is None else min(wake, v.wake_at)
        # a CPU domain answers to the system wakeup latency where it is
        # the tighter limit
        sys = d.cpu and self.sys_qos is not None and \
            (limit is None or self.sys_qos < limit)
        if sys:
            limit = self.sys_qos
        d.gov = (self.now, limit, wake, sys)
        d.sleepqos = None          # the last decision is the governor's
        for i in range(len(d.states) - 1, -1, -1):
            if self.ruling(d, i) is None:
                return i
        return -1

    def ruling(self, d, i):
        """Why the governor's last run rejected state @i of @d (the text
        docs/lifecycle.md gives `explain`), or None: it fits."""
        now, limit, wake, sys = d.gov
        _, e, x, r = d.states[i]
        if limit is not None and e + x > limit:
            return '%sqos: entry+exit %dns > limit %dns' % (
                'system ' if sys else '', (e + x) * 1000, limit * 1000)
        if wake is not None and now + (e + r) * 1000 > wake:
            return ('residency: now+entry+residency %dns > next wakeup '
                    '%dns' % (now + (e + r) * 1000, wake))
        return None

    @staticmethod
    def sleep_rulings(d, chosen):
        """System sleep's choice for a CPU domain under the system wakeup
        latency, deepest first down to @chosen (-1: all)."""
        out = []
        for i in range(len(d.states) - 1, max(chosen, 0) - 1, -1):
            name, e, x, _ = d.states[i]
            if e + x > d.sleepqos:
                out.append('%s rejected (system qos: entry+exit %dns > '
                           'limit %dns)' % (name, (e + x) * 1000,
                                            d.sleepqos * 1000))
            else:
                out.append('%s fits' % name if out else 'deepest')
        return ', '.join(out)

    def rulings(self, d, chosen):
        """The governor's last word, deepest first down to @chosen."""
        out = []
        for i in range(len(d.states) - 1, max(chosen, 0) - 1, -1):
            why = self.ruling(d, i)
            name = d.states[i][0]
            if why:
                out.append('%s rejected (%s)' % (name, why))
            else:
                out.append('%s fits' % name if out else 'deepest')
        return ', '.join(out)

    def req(self, d, c, memo):
        """What on child @c requires of @d as `explain` shows it: already
        rounded up into @d's table (see docs/decisions/explain.md: the raw
        1:1 requirement would be c's pstate)."""
        return self.rnd_up(d, self.requires(d, c, memo))

    def explain(self, d):
        """The two lines `explain D` must print (docs/lifecycle.md,
        explain)."""
        memo = {}
        if d.on:
            hold = ['always-on'] if d.always_on else []
            if d.held and d.nosync:
                hold.append('boot hold (level %d; no-sync-state: until '
                            'sync-state or probe all)' % d.boot_raw)
            elif d.held:
                wait = [v.shown for v, _ in d.devs if not v.probed]
                hold.append('boot hold (level %d; %s)' % (
                    d.boot_raw, 'awaiting ' + ' '.join(wait) if wait else
                    'no consumers: until probe all'))
            if self.unheld(d):
                hold.append('boot (no-stay-on: until a consumer probes, '
                            'probe all, or a change below it)')
            hold += ['dev %s (vote %d)' % (v.shown, self.vote(v, k))
                     for v, k in d.devs if v.active]
            if d.sleep_keep:
                path = ['wakeup path dev %s' % v.shown
                        for v, _ in d.devs if v.wakeup]
                # kept at system-suspend; the device's wakeup was
                # disabled since: the keep lasts to system-resume
                hold += path or ['wakeup path (until system-resume)']
            if not self.asleep:
                hold += ['always-on dev %s' % v.shown
                         for v, _ in d.devs if v.always_on]
                hold += ['hw mode (dev %s)' % v.shown
                         for v, k in d.devs if v.hw[k]]
            hold += ['child %s (requires %d)' % (c.name, self.req(d, c, memo))
                     for c in self.b.link_order(d.children) if c.on]
            if hold:
                first = ', '.join(hold)
            elif self.asleep and d.sleepqos is not None and d.states:
                # system sleep's choice under the system wakeup latency
                rs = self.sleep_rulings(d, -1)
                first = ('no holder; system sleep kept it on (system '
                         'wakeup latency): ' + rs
                         if ' fits' not in rs and 'deepest' not in rs
                         else 'no holder (its power-off failed)')
            elif d.states and d.gov and all(
                    self.ruling(d, i) for i in range(len(d.states))):
                first = ('no holder; the governor kept it on%s: ' % (
                    ' (system wakeup latency)' if d.gov[3] and any(
                        self.ruling(d, i).startswith('system qos')
                        for i in range(len(d.states))) else '') +
                    self.rulings(d, -1))
            else:
                first = 'no holder (its power-off failed)'
            first = 'on because: ' + first
        elif not d.states:
            first = 'off because: no idle states'
        else:
            first = 'off in %s because: %s' % (d.states[d.idle][0], {
                'initial': 'initial (deepest)',
                'sleep': 'system sleep (deepest, governor not asked)',
            }.get(d.why) or (
                'system sleep (system wakeup latency): ' +
                self.sleep_rulings(d, d.idle) if d.why == 'sleepqos' else
                self.rulings(d, d.idle)))
        p = self.pstate(d, memo)
        agg = self.target(d, memo)
        ins = []
        if d.held and d.boot_level:
            ins.append((d.boot_raw, 'boot hold (level %d)'))
        ins += [(self.vote(v, k), 'dev %s (vote %%d)' % v.shown)
                for v, k in d.devs if v.active and self.vote(v, k)]
        ins += [(self.req(d, c, memo), 'child %s (requires %%d)' % c.name)
                for c in self.b.link_order(d.children)
                if c.on and self.req(d, c, memo)]
        raw = max([lv for lv, _ in ins] + [0])
        if p > agg:
            second = ' because: stuck (aggregate %d; a lowering call ' \
                     'failed)' % agg
        elif not raw:
            second = ' because: no votes'
        else:
            second = '%s because: %s' % (
                ' (rounded up from %d)' % raw if raw != p else '',
                ', '.join(t % lv for lv, t in ins if lv == raw))
        return ['explain %s: %s' % (d.name, first),
                'explain %s: pstate %d%s' % (d.name, p, second)]

    def try_off(self, d):
        """The runtime power-off path of one unused domain."""
        if not d.on or self.needs_on(d) or self.vetoed(d):
            return
        st = self.governor(d)
        if st == -1:
            # the governor is asked once a command: a domain that two
            # paths reach (a device's two domains, one the other's
            # parent) counts its rejections once
            if d.i not in self.stayed:
                d.st.rejected = [x + 1 for x in d.st.rejected]
            self.stayed.add(d.i)
            return
        if d.i in self.off_failed:
            return
        if self.call(d, 'off', True):
            self.off_failed.add(d.i)   # one power-off call a command
            return
        d.st.off_count += 1
        if st is not None:
            d.st.usage[st] += 1
            for i in range(st + 1, len(d.states)):
                d.st.rejected[i] += 1
        d.on = False
        d.idle = st
        d.why = 'gov'
        for p in d.parents:
            self.try_off(p)

    # -- verbs; each returns the errno name for last-error
    def resume(self, devs):
        devs = [v for v in devs if not v.active]
        for v in devs:
            v.active = True
            for d in v.doms:
                self.touch(d)
        self.raise_first(devs)
        for v in devs:
            for d in v.doms:
                self.power_on(d)
        for v in devs:
            self.probe(v)
        return 'OK'

    def raise_first(self, devs):
        """docs/semantics.md, Ordering: "A resume raises pstates (parents
        first) and then powers domains on": the raises for the domains as they
        will be once @devs' domains and their ancestors are on (settle finds
        nothing more to raise after the power-ons)."""
        up = set()
        for v in devs:
            for d in v.doms:
                up |= set(x for x in [d] + self.ancestors(d) if not x.on)
        for d in up:
            d.on = True
        plan = {}
        for d in reversed(self.b.doms):    # children first
            if d.table:
                plan[d.i] = self.target(d, {}, plan)
        for d in up:
            d.on = False
        for d in self.b.doms:              # parents first
            if d.table and plan[d.i] > d.cur:
                if self.call(d, 'pstate'):
                    raise Rollback()
                d.cur = plan[d.i]

    def roll_back(self, snap, counts):
        """An unsafe failure (docs/semantics.md, Failures): the inputs go back
        to before the command, and the calls it made are undone, children
        first: each domain it powered on is powered off into the state it left,
        then each domain it raised is lowered back (phases C and D over what A
        and B did). Undo calls are calls like any other: an armed `fail`
        applies, and one that fails leaves that domain where its callback
        left it (safe direction; its parents keep what it needs)."""
        now = {d.i: (d.on, d.cur) for d in self.b.doms}
        self.restore(snap)
        for d, c in zip(self.b.doms, counts):
            d.st.load(c)
            d.st.slack += 1
        was = {d.i: (d.on, d.cur) for d in self.b.doms}
        for d in self.b.doms:
            d.on, d.cur = now[d.i]
            if d.on:
                d.idle = None
        for d in reversed(self.b.doms):
            if d.on and not was[d.i][0]:
                # not undone where something needs it now (a child an
                # undo could not power off; an active wakeup-path device
                # sleep left on an off domain, at system-resume)
                if self.needs_on(d) or self.call(d, 'off', True, True):
                    d.st.on_count += 1     # its power-on stays
                    continue
                d.on = False               # idle state and why: as before
                d.idle = snap[0][d.i]['idle']
        for d in reversed(self.b.doms):
            if d.table:
                want = max(self.target(d, {}), was[d.i][1])
                if want < d.cur and not self.call(d, 'pstate', True, True):
                    d.st.odd += want != was[d.i][1]
                    d.cur = want

    @staticmethod
    def unheld(d):
        """Booted no-stay-on and on ever since: nothing holds it, and a
        consumer's probe or `probe all` re-evaluates it."""
        return d.nostay and d.on and d.st.off_count == 0

    def probe(self, v):
        if v.probed:
            return                 # probing again changes nothing
        v.probed = True
        for d in v.doms:
            if self.unheld(d):
                self.touch(d)
                self.try_off(d)
            if d.held and all(u.probed for u, _ in d.devs) and d.devs \
                    and not d.nosync:
                d.held = False
                self.touch(d)
                self.try_off(d)

    def probe_all(self):
        for v in self.b.devs:
            v.probed = True
        held = [d for d in self.b.doms if d.held or self.unheld(d)]
        for d in held:
            d.held = False
            self.touch(d)
        for d in reversed(held):
            self.try_off(d)
        return 'OK'

    def sync_state(self, d):
        """`sync-state D`: the provider's own sync releases its hold."""
        if d.held:
            d.held = False
            self.touch(d)
            self.try_off(d)
        return 'OK'

    def suspend(self, v):
        if not v.active:
            return 'OK'
        if self.asleep:
            return 'EACCES'
        v.active = False
        for d in v.doms:
            self.touch(d)
            self.try_off(d)
        return 'OK'

    def system_suspend(self):
        if self.asleep:
            return 'OK'
        self.saved = [v for v in self.b.devs if v.active]
        self.asleep = True
        self.sleeps += 1
        for d in self.b.doms:
            if d.on:
                self.touch(d)
        for v in self.saved:
            if not self.wake_path(v):
                v.active = False
        for d in self.b.doms:
            d.sleep_keep = (d.on and d.active_wakeup and
                            any(v.wakeup for v, _ in d.devs))
        changed, tried = True, set()
        while changed:
            changed = False
            for d in reversed(self.b.doms):
                if not d.on or self.needs_on(d) or d.i in tried:
                    continue
                tried.add(d.i)
                # a CPU domain: the deepest state within the system
                # wakeup latency, or it stays on (Linux 6.19)
                idle = len(d.states) - 1 if d.states else None
                d.sleepqos = None
                if d.cpu and self.sys_qos is not None:
                    d.sleepqos = self.sys_qos
                    fit = [i for i, (_, e, x, _) in enumerate(d.states)
                           if e + x <= self.sys_qos]
                    if d.states and not fit:
                        d.st.rejected = [x + 1 for x in d.st.rejected]
                        self.stayed.add(d.i)
                        continue
                    idle = max(fit) if fit else None
                if self.call(d, 'off', True):
                    continue
                d.on = False
                d.idle = idle
                d.why = 'sleep' if d.sleepqos is None else 'sleepqos'
                d.st.off_count += 1
                if d.states:
                    d.st.usage[d.idle] += 1
                    if d.sleepqos is not None:
                        for i in range(d.idle + 1, len(d.states)):
                            d.st.rejected[i] += 1
                changed = True
        return 'OK'

    def system_resume(self):
        if not self.asleep:
            return 'OK'
        self.asleep = False
        snap = self.snapshot()
        counts = [d.st.save() for d in self.b.doms]
        self.touched = set()
        try:
            self.resume([v for v in self.saved if not v.active])
            self.settle()
        except Rollback:
            self.roll_back(snap, counts)
            self.whole = 'EIO'     # reported; awake either way
        self.count_pstates()
        # Then the wakeup path lets go: a domain it kept on follows its
        # votes (the runtime power-off path, as genpd_complete queues a
        # power-off); see docs/decisions/system-sleep.md.
        kept = [d for d in self.b.doms if d.sleep_keep]
        self.touched = set()
        for d in kept:
            d.sleep_keep = False
            self.touch(d)
        for d in reversed(kept):
            self.try_off(d)
        self.settle()
        self.settled = True
        return 'OK'


class Surface:
    """docs/scenario.md's equivalent spellings, drawn from a stream of their
    own (the seeds' boards and commands stay as they were): times in ns, us,
    ms, s, bare or with a decimal point, absolute `@T` where `+T` would
    do; frequencies in Hz, kHz, MHz, GHz in any case or bare; a device
    by label, node name with its unit address or full path; a
    `power-domain-names` entry for the domain's name; a `qos` latency in
    us, ms or s (the simulator's reading of LATENCY_US); runs of blanks and
    tabs between words, blank lines and `#` comments."""

    UNITS = (('s', 10 ** 9), ('ms', 10 ** 6), ('us', 1000), ('ns', 1))
    HZ = (('GHz', 10 ** 9), ('MHz', 10 ** 6), ('kHz', 1000), ('Hz', 1))

    def __init__(self, seed):
        self.r = random.Random(seed * 7919 + 17)

    def time(self, ns):
        """@ns, written in a random unit that holds it exactly."""
        r = self.r.random()
        if r < 0.15:
            return '%d' % ns
        for unit, k in self.UNITS:
            if ns % k == 0 and (r < 0.6 or k == 1):
                return '%d%s' % (ns // k, unit)
            if k > 1 and ns % (k // 10) == 0 and ns >= k and r < 0.8:
                return '%d.%d%s' % (ns // k, ns % k // (k // 10), unit)
        return '%dns' % ns

    def latency(self, us):
        """A `qos` latency of @us: bare (us), or in us, ms or s as the
        simulator also reads it (not below 1us)."""
        if us is None or self.r.random() < 0.5:
            return 'none' if us is None else '%d' % us
        t = self.time(us * 1000)
        return t if t[-2:] in ('us', 'ms') or t[-1:] == 's' and \
            t[-2:] != 'ns' else '%dus' % us

    def hz(self, hz):
        unit, k = self.r.choice([u for u in self.HZ if hz % u[1] == 0])
        if self.r.random() < 0.15 and k == 1:
            return '%d' % hz
        unit = self.r.choice([unit, unit.lower(), unit.upper()])
        return '%d%s' % (hz // k, unit)

    def dev(self, v):
        return self.r.choice([v.name, v.name, '%s@%x' % (v.name, 0x1000 + v.i),
                              '/%s@%x' % (v.name, 0x1000 + v.i)])

    def slot(self, v, k, need):
        """How a command names @v's k-th domain: '' where it may be left
        out, else its power-domain-names entry or the domain's name."""
        if not need and self.r.random() < 0.8:
            return ''
        if v.pdnames and self.r.random() < 0.5:
            return v.pdnames[k] + ' '
        return v.doms[k].name + ' '

    def line(self, text):
        """@text with its words apart by random blanks, now and then a
        trailing comment."""
        if not text or self.r.random() < 0.8:
            return text
        words = text.split(' ')
        out = words[0]
        for w in words[1:]:
            out += self.r.choice([' ', '  ', '\t', ' \t ']) + w
        if self.r.random() < 0.3:
            out += self.r.choice([' ', '\t']) + '# note'
        return out

    def noise(self, lines):
        """Now and then a blank or comment line (lines keep their count
        as the scenario's line numbers)."""
        r = self.r.random()
        if r < 0.03:
            lines.append('')
        elif r < 0.06:
            lines.append(self.r.choice(['# a comment', '#', '  # indented']))


def gen_scenario(rnd, board, nops):
    """Return (lines, notes): scenario text lines and per-line comments."""
    m = Model(board)
    S = m.S = board.surface
    lines = []
    doms, devs = board.doms, board.devs

    def level_for(d):
        tabs = m.tables_reached(d)
        r = rnd.random()
        if not tabs:
            return 0 if r < 0.7 else rnd.choice([1, 16, 100])
        hi = min(t.table[-1] for t in tabs)
        if r < 0.15:
            return 0
        if r < 0.25:
            return max(t.table[-1] for t in tabs) + rnd.randint(1, 50)
        return rnd.randint(1, hi)

    def expects():
        memo = {}
        for d in doms:
            lines.append('expect %s %s' % (d.name, 'on' if d.on else 'off'))
            if not blind(board):
                lines.append('expect %s pstate %d' % (d.name,
                                                      m.pstate(d, memo)))
            if not d.on and d.idle is not None:
                lines.append('expect %s idle %s' % (d.name,
                                                    d.states[d.idle][0]))
            lines.append('expect %s %s' % (d.name,
                                           'hw' if m.hwmode(d) else 'sw'))
            lines.append('expect %s %s' % (d.name,
                                           'held' if d.held else 'released'))
        for v in board.devs:
            if v.opps:
                lines.append('expect %s rate %s' % (v.name,
                                                    S.hz(m.rate_of(v))))

    # time 0: boot holds and always-on domains, before any other command
    t0 = []
    m.levels = [0] * len(doms)     # a boot level counts in stats
    for d in doms:
        r = rnd.random()
        if r < 0.2:
            lv = 0 if REAL else level_for(d)
            if m.check_level(d, lv):
                lv = 0
            # the provider's choice (Linux 6.17): no hold, or a hold
            # only its own sync releases
            how = rnd.choice(['', '', ' no-stay-on', ' no-stay-on',
                              ' no-sync-state'])
            if how == ' no-stay-on':
                lv = 0
            d.held = how != ' no-stay-on'
            d.nostay = how == ' no-stay-on'
            d.nosync = how == ' no-sync-state'
            d.boot_raw = lv
            d.boot_level = m.rnd_up(d, lv)
            m.power_on(d)
            t0.append('boot-on %s%s%s' % (
                d.name, ' %d' % lv if lv or
                (not d.nostay and rnd.random() < 0.5) else '', how))
            if board.X and board.X.random() < 0.15 and d.held:
                # held and always-on: the release leaves it on
                d.always_on = True
                t0.append('always-on %s' % d.name)
        elif r < 0.3:
            d.always_on = True
            m.power_on(d)
            t0.append('always-on %s' % d.name)
            if board.Y and board.Y.random() < 0.3:
                # twice: the flag again (the contract is silent; accepted)
                t0.append('always-on %s' % d.name)
        m.settle(calls=False)      # no callback runs for boot-on
        m.count_pstates()          # one line at a time
    first = True
    for cmd in t0:
        lines.append(('@%s ' % S.time(0) if first else '') + cmd)
        first = False
    if t0:
        lines.append('expect last-error OK')
        expects()

    kept = None                    # a failure left armed (extras)
    for _ in range(nops):
        step = rnd.choice([0, 0, 0, 1000, 20000, 150000, 700000])
        m.advance(step)
        x = S.r.random()
        if first or (step and x < 0.3) or (not step and x < 0.05):
            prefix = '@%s ' % S.time(m.now)
        elif step or x < 0.1:
            prefix = '+%s ' % S.time(step)
        else:
            prefix = ''
        first = False
        armed = None
        if rnd.random() < (0.5 if FAILS else 0.15):
            # One failure armed for the next command only, then disarmed,
            # so the model knows which call it hits. With extras, now and
            # then for the next 2 or 3 calls, left armed across commands
            # until they come, or with a second one on a power-off (no
            # more at a time: docs/semantics.md orders the calls of one domain
            # and the phases of a command, not the raises of unrelated
            # domains, so two unsafe failures could meet in any order).
            armed = (rnd.choice(doms).name,
                     rnd.choice(['on', 'off', 'hwmode'] if blind(board) else
                                ['on', 'off', 'pstate', 'hwmode']))
            if kept:
                m.fails[kept] = 0
                lines.append(prefix + 'fail %s %s 0' % kept)
                lines.append('expect last-error OK')
                prefix = ''
                kept = None
            count, undo, two = 1, None, None
            x = board.X.random() if board.X else 1
            if board.Y and armed[1] in ('on', 'pstate') and \
                    board.Y.random() < 0.3:
                # two unsafe failures at once: docs/semantics.md orders the
                # calls of one domain and the phases of a command, not the
                # raises of unrelated domains, so which one fires first is the
                # simulator's; any order gives the same final state,
                # every raise undone and EIO (check_failures: TWO)
                two = (board.Y.choice([d for d in doms
                                       if d.name != armed[0]]).name,
                       board.Y.choice(['on', 'pstate']))
                x = 1
            if x < 0.3:
                count = board.X.randint(2, 3)
            elif x < 0.6 and armed[1] in ('on', 'pstate'):
                # and a power-off for the undo of a power-on, should
                # this failure roll the command back (docs/semantics.md,
                # Failures: undo calls are calls like any other)
                # (mostly an ancestor: powered on before it)
                xd = next(d for d in doms if d.name == armed[0])
                undo = (board.X.choice(m.ancestors(xd) or doms).name, 'off')
            m.fails[armed] = count
            lines.append(prefix + 'fail %s %s' % armed + (
                ' %d' % count if count > 1 else
                ' 1' if S.r.random() < 0.3 else ''))
            lines.append('expect last-error OK')
            prefix = ''
            if undo and undo != armed:
                m.fails[undo] = 1
                lines.append('fail %s %s' % undo)
                lines.append('expect last-error OK')
            if two:
                m.fails[two] = 1
                lines.append('fail %s %s' % two)
                lines.append('expect last-error OK')
        S.noise(lines)
        cmd, fn = pick(m, rnd, level_for)
        lines.append(prefix + cmd)
        m.stuck[len(lines)] = set(d.name for d in doms if d.table and
                                  d.cur > m.target(d, {}))
        err = m.run(fn)
        m.wholes[len(lines)] = m.whole
        m.failures[len(lines)] = sorted(m.failed)
        if armed and two:
            m.failures[len(lines)] = (TWO, [armed, two], any(
                not safe for _, _, safe, _ in m.failed))
        m.stays[len(lines)] = sorted(doms[i].name for i in m.stayed)
        lines.append('expect last-error %s' % err)
        expects()
        if rnd.random() < 0.15 and not blind(board):
            # `explain` leaves last-error (docs/scenario.md, Errors and
            # failures)
            d = rnd.choice(doms)
            lines.append('explain %s' % d.name)
            m.explains[len(lines)] = m.explain(d)
            lines.append('expect last-error %s' % err)
        if armed and two:
            m.fails[two] = 0
            lines.append('fail %s %s 0' % two)
            lines.append('expect last-error OK')
        if armed and undo and undo != armed:
            m.fails[undo] = 0
            lines.append('fail %s %s 0' % undo)
            lines.append('expect last-error OK')
        if armed and count > 1 and m.fails[armed]:
            kept = armed
        elif armed:
            m.fails[armed] = 0
            lines.append('fail %s %s 0' % armed)
            lines.append('expect last-error OK')
    return lines, m


LIFE = os.environ.get('DOMINO_MIX') == 'life'
FAILS = os.environ.get('DOMINO_MIX') == 'fail'
REAL = os.environ.get('DOMINO_REAL')


def blind(board):
    """A RealBoard with an OPP table somewhere whose levels some table
    maps (read_levels): the model cannot know its pstates (RealBoard);
    one without tables knows them all (0)."""
    return REAL and any(d.table for d in board.doms) and \
        not getattr(board, 'known', False)


def pick(m, rnd, level_for):
    """A random command: (its text, a function doing it on the model that
    returns its errno name)."""
    doms, devs = m.b.doms, m.b.devs
    v = rnd.choice(devs)
    # a consumer of a no-stay-on domain still on since boot: its probe is
    # what lets the domain go (Linux's sync after a probe)
    if any(d.cpu for d in doms) and rnd.random() < (
            0.3 if m.sys_qos is None else 0.05):
        # the system wakeup latency (Linux 6.19): around the states'
        # latencies
        us = rnd.choice([None, 0, 60, 150, 300, 450, 700])

        def sysqos():
            m.sys_qos = us
            return 'OK'
        return 'system-qos %s' % ('none' if us is None else us), sysqos
    early = [u for d in doms if m.unheld(d) for u, _ in d.devs
             if not u.probed]
    if early and rnd.random() < 0.5:
        u = rnd.choice(early)

        def probe_early():
            m.probe(u)
            return 'OK'
        return 'probe %s' % u.name, probe_early
    r = rnd.random()
    if LIFE and r < 0.5:
        # DOMINO_MIX=life: half the commands are lifecycle verbs
        r = 0.67 + (1 - 0.67) * rnd.random()
    while REAL and (0.89 <= r < 0.92 and not v.rate_ok or
                    blind(m.b) and 0.42 <= r < 0.55):
        r = rnd.random()           # `rate` on plain tables, `vote` where
                                   # pstates are known (RealBoard)
    if not v.doms and (0.42 <= r < 0.55 or 0.92 <= r < 0.95):
        # no domain to vote on: a `rate` (an owner's `vote` is its own
        # latest word like its `rate`: docs/semantics.md, The OPP layer)
        r = 0.9
    if r < 0.22:
        return 'resume %s' % v.name, lambda: (
            'EACCES' if m.asleep and not v.active else m.resume([v]))
    if r < 0.42:
        return 'suspend %s' % v.name, lambda: m.suspend(v)
    if r < 0.55:
        k = rnd.randrange(len(v.doms))
        d = v.doms[k]
        lv = level_for(d)

        def vote():
            err = m.check_level(d, lv)
            if err:
                return err
            # (an owner's vote is docs/device-tree.md's max of this and its
            # effective OPP's: run() touches what that moves)
            if v.active and not v.requirers and \
                    m.rnd_up(d, lv) != m.rnd_up(d, v.votes[k]):
                m.touch(d)
            v.votes[k] = lv
            return 'OK'
        return 'vote %s %s%d' % (v.name, m.S.slot(v, k, len(v.doms) > 1),
                                 lv), vote
    if r < 0.61:
        q = None if rnd.random() < 0.2 else \
            rnd.choice([0, 50, 200, 400, 700, 100000])
        # sometimes exactly a state's entry + exit above it: equality
        # passes (docs/semantics.md, Idle states and the governor)
        sts = [st for d in v.doms for x in [d] + m.ancestors(d)
               for st in x.states]
        if sts and rnd.random() < 0.3:
            st = rnd.choice(sts)
            q = st[1] + st[2]

        def qos():
            v.qos = q
            return 'OK'
        return 'qos %s %s' % (v.name, m.S.latency(q)), qos
    if r < 0.67:
        x = rnd.random()
        if x < 0.2:
            at, cmd = None, 'wakeup %s none' % v.name
        elif x < 0.3 and m.now > 0:
            at = rnd.randint(0, m.now)
            cmd = 'wakeup %s %s' % (v.name, m.S.time(at))
        elif x < 0.45:
            # now + entry + residency of a state above it, or now: the
            # equalities pass (docs/semantics.md, Idle states and the
            # governor); time may pass before it counts
            sts = [st for d in v.doms for y in [d] + m.ancestors(d)
                   for st in y.states]
            dt = 0 if not sts or rnd.random() < 0.3 else \
                (lambda st: (st[1] + st[3]) * 1000)(rnd.choice(sts))
            at, cmd = m.now + dt, 'wakeup %s +%s' % (v.name, m.S.time(dt))
        else:
            dt = rnd.randint(0, 1500) * 1000
            at, cmd = m.now + dt, 'wakeup %s +%s' % (v.name, m.S.time(dt))

        def wakeup():
            v.wake_at = at
            return 'OK'
        return cmd, wakeup
    if r < 0.72:
        if rnd.random() < 0.25:
            return 'probe all', m.probe_all

        def probe():
            m.probe(v)
            return 'OK'
        return 'probe %s' % v.name, probe
    if r < 0.77:
        return 'system-suspend', m.system_suspend
    if r < 0.83:
        return 'system-resume', m.system_resume
    if r < 0.86:
        on = rnd.random() < 0.6

        def wen():
            v.wakeup = on
            return 'OK'
        return 'wakeup-enable %s %s' % (v.name, 'on' if on else 'off'), wen
    if r < 0.89 and rnd.random() < 0.15:
        d = rnd.choice(doms)
        return 'sync-state %s' % d.name, lambda: m.sync_state(d)
    if r < 0.89:
        d = rnd.choice(doms)
        on = rnd.random() < 0.7

        def aw():
            d.active_wakeup = on
            return 'OK'
        return 'active-wakeup %s%s' % (d.name, '' if on and rnd.random() < 0.5
                                       else ' on' if on else ' off'), aw
    if r < 0.92:
        # `rate`: the ceil OPP's required levels on the device's domains
        # (docs/semantics.md, The OPP layer); 0 drops them; above the highest:
        # -ERANGE; no table: -ENODEV.
        x = rnd.random()
        if not v.opps or x < 0.1:
            hz = rnd.choice([0, 75000000, 400000000])
        elif x < 0.2:
            hz = v.opps[-1][0] + 1
        else:
            hz = rnd.choice(v.opps)[0] - rnd.choice([0, 0, 1000])
        if v.hidden and rnd.random() < 0.4:
            # just above a hidden entry: the next available one
            hz = rnd.choice(v.hidden) - rnd.choice([0, 1000])

        def rate():
            if not v.opps:
                return 'ENODEV'
            if hz > v.opps[-1][0]:
                return 'ERANGE'
            if hz == 0:
                # drops the votes of the current OPP (none: nothing); the
                # clock stays where it is, as Linux's set_rate(dev, 0)
                cur = [o for o in v.opps if o[0] == v.opp]
                levels = {k: 0 for k in
                          (match_required(v, cur[0][1]) if cur else {})}
                v.opp = 0
            else:
                e = next(o for o in v.opps if o[0] >= hz)
                levels = match_required(v, e[1])
                for k, lv in levels.items():
                    err = m.check_level(v.doms[k], lv)
                    if err:
                        return err
                v.rate = v.opp = e[0]
            for k, lv in levels.items():
                d = v.doms[k]
                if v.active and m.rnd_up(d, lv) != m.rnd_up(d, v.votes[k]):
                    m.touch(d)
                v.votes[k] = lv
            return 'OK'
        return 'rate %s %s' % (v.name, m.S.hz(hz)), rate
    if r < 0.95:
        k = rnd.randrange(len(v.doms))
        d = v.doms[k]
        on = rnd.random() < 0.55

        def hw():
            if d.table:
                return 'EOPNOTSUPP'
            if v.hw[k] == on:
                return 'OK'
            if m.call(d, 'hwmode'):
                return 'EIO'       # the mode does not change
            v.hw[k] = on
            if not on:
                m.touch(d)
                m.try_off(d)
            return 'OK'
        return 'hwmode %s %s%s' % (v.name, m.S.slot(v, k, len(v.doms) > 1),
                                   'on' if on else 'off'), hw
    on = rnd.random() < 0.5

    def aon():
        was = v.always_on
        v.always_on = on
        if was and not on:
            for d in v.doms:
                m.touch(d)
                m.try_off(d)
        return 'OK'
    return 'always-on %s %s' % (v.name, 'on' if on else 'off'), aon


def check_json(doc, m):
    """The lifecycle fields of `simulate --json` (docs/json.md) against the
    model at the end of the scenario, and the `requirements` (who
    requires what): the first difference, or None."""
    want = sorted((u.name, '/opp-table-dev%d' % o.i, tuple(
        x.name for x in m.b.devs if x.opps and x.tab is o))
        for u in m.b.devs if u.dreq for o in
        dict.fromkeys(o for e in u.dreq for o, _, _ in e))
    got = sorted((r['device'], r['table'], tuple(r['owners']))
                 for r in doc.get('requirements', []))
    if got != want and not REAL:
        return 'requirements %r, model %r' % (got, want)
    if doc.get('system') != ('asleep' if m.asleep else 'awake'):
        return 'system %r' % doc.get('system')
    if doc.get('system_qos_us') != m.sys_qos:
        return 'system_qos_us %r, model %r' % (doc.get('system_qos_us'),
                                               m.sys_qos)
    awaiting = sorted(v.shown for v in m.b.devs if not v.probed and
                      any(d.held and not d.nosync for d in v.doms))
    if sorted(doc.get('awaiting', [])) != awaiting:
        return 'awaiting %r, model %r' % (doc.get('awaiting'), awaiting)
    # docs/json.md: time adds up per domain, and in system sleep
    stats, end = doc['stats'], doc['end_ns']
    slept = stats['system_sleep']['time_ns']
    for d in m.b.doms:
        st = stats[d.name]
        total = st['time_on_ns'] + st['time_off_ns'] + sum(
            x['time_ns'] for x in st['idle_states'])
        if total != end or sum(x['time_ns'] for x in st['pstates']) != end:
            return '%s: stats add up to %d, end %d' % (d.name, total, end)
        if st['sleep_on_ns'] + sum(st['sleep_idle_ns'].values()) != slept:
            return '%s: sleep stats %r, system slept %d' % (
                d.name, st['sleep_idle_ns'], slept)
    # the order of `summary`: provider nodes as in the blob (providers of
    # several domains come first, shapes()), a provider's domains by index
    order = m.b.link_order(m.b.doms)
    names = [j.get('name') for j in doc['domains']]
    if names != [d.name for d in order]:
        return 'domains %r, model %r' % (names, [d.name for d in order])
    memo = {}
    for d, j in zip(order, doc['domains']):
        want = {
            'name': d.name,
            'status': 'on' if d.on else 'off',
            'pstate': m.pstate(d, memo),
            'idle_state': None if d.on or d.idle is None else
            d.states[d.idle][0],
            'held': d.held,
            'boot_level': d.boot_level,
            'awaiting': sorted(v.shown for v, _ in d.devs
                               if d.held and not d.nosync and not v.probed),
            'stay_on': False if d.nostay else None,
            'sync_state': False if d.nosync else None,
            'hw': m.hwmode(d),
            'always_on': d.always_on,
            'active_wakeup': d.active_wakeup,
        }
        if blind(m.b):
            del want['pstate']
        got = {k: j.get(k) for k in want}
        got['awaiting'] = sorted(got['awaiting'] or [])
        if got != want:
            return '%s: %r, model %r' % (d.name, {
                k: got[k] for k in want if got[k] != want[k]},
                {k: want[k] for k in want if got[k] != want[k]})
        for (v, k), jv in zip(d.devs, j['devices']):
            # an owner's vote: docs/device-tree.md's max of its own and its
            # effective OPP's (the simulator shows it so)
            want = {'name': v.shown, 'active': v.active, 'vote': m.vote(v, k),
                    'counts': v.active,
                    'probed': v.probed, 'wakeup': v.wakeup,
                    'always_on': v.always_on, 'hw': v.hw[k]}
            got = {x: jv.get(x) for x in want}
            if got != want:
                return '%s on %s: %r, model %r' % (v.name, d.name, got, want)
    return None


def check_stats(doc, m):
    """`stats` (docs/json.md) against the model: times exactly, counts
    exactly up to what rolled-back commands may add (Stats). The first
    difference, or None."""
    stats = doc['stats']
    if stats['system_sleep'] != {'count': m.sleeps, 'time_ns': m.slept}:
        return 'system_sleep %r, model count %d time %d' % (
            stats['system_sleep'], m.sleeps, m.slept)
    for d in m.b.doms:
        g, s = stats[d.name], d.st
        want = {'time_on_ns': s.time_on, 'time_off_ns': s.time_off,
                'sleep_on_ns': s.sleep_on,
                'sleep_idle_ns': {k: x for k, x in s.sleep_idle.items()
                                  if x} or None,
                'idle_time': s.idle_time,
                'pstates': {lv: t for lv, t in s.ptime.items() if t}}
        got = {'time_on_ns': g['time_on_ns'], 'time_off_ns': g['time_off_ns'],
               'sleep_on_ns': g['sleep_on_ns'],
               'sleep_idle_ns': {k: x for k, x in g['sleep_idle_ns'].items()
                                 if x} or None,
               'idle_time': [x['time_ns'] for x in g['idle_states']],
               'pstates': {x['level']: x['time_ns'] for x in g['pstates']
                           if x['time_ns']}}
        if blind(m.b):
            del want['pstates'], got['pstates']
        if got != want:
            return '%s: stats %r, model %r' % (d.name, {
                k: got[k] for k in want if got[k] != want[k]},
                {k: want[k] for k in want if got[k] != want[k]})
        lvs = [x['level'] for x in g['pstates']]
        if lvs != sorted(set(lvs)) or not (blind(m.b) or
                                                  set(s.ptime) <= set(lvs)):
            return '%s: pstate levels %r, model reached %r' % (
                d.name, lvs, sorted(s.ptime))
        names = [x['name'] for x in g['idle_states']]
        if names != [x[0] for x in d.states]:
            return '%s: idle state names %r' % (d.name, names)
        # counts: committed commands exactly; each rolled-back one may
        # add a power-on and its undo, a raise and its undo
        extra = g['on_count'] - s.on_count
        dp = g['pstate_transitions'] - s.ptrans
        usage = [x['usage'] for x in g['idle_states']]
        rej = [x['rejected'] for x in g['idle_states']]
        if (extra != g['off_count'] - s.off_count or
                not 0 <= extra <= s.slack or
                (not blind(m.b) and ((dp - s.odd) % 2 or
                               not 0 <= dp <= 2 * s.slack)) or
                (d.states and sum(usage) != g['off_count']) or
                any(a < b for a, b in zip(usage, s.usage)) or
                any(a < b for a, b in zip(rej, s.rejected)) or
                (not s.slack and (usage != s.usage or rej != s.rejected))):
            return ('%s: counts on %d off %d pstate %d usage %r rejected %r;'
                    ' model on %d off %d pstate %d usage %r rejected %r, '
                    '%d rolled back' % (
                        d.name, g['on_count'], g['off_count'],
                        g['pstate_transitions'], usage, rej, s.on_count,
                        s.off_count, s.ptrans, s.usage, s.rejected,
                        s.slack))
    return None


INT, STR, BOOL, LIST, OBJ = int, str, bool, list, dict
NSTR = (str, type(None))
NINT = (int, type(None))
TOP_KEYS = {'board': NSTR, 'model': NSTR, 'domains': LIST, 'awaiting': LIST,
            'system': STR, 'end_ns': INT, 'events': LIST, 'stats': OBJ}
DOM_KEYS = {'name': STR, 'provider': STR, 'index': NINT, 'status': STR,
            'pstate': INT, 'pstate_name': NSTR, 'idle_state': NSTR,
            'parents': LIST, 'children': LIST, 'levels': LIST,
            'idle_states': LIST, 'held': BOOL, 'boot_level': INT,
            'awaiting': LIST, 'active_wakeup': BOOL, 'hw': BOOL,
            'always_on': BOOL, 'devices': LIST}
DEV_KEYS = {'name': STR, 'path': STR, 'via': NSTR, 'args': LIST,
            'active': BOOL, 'vote': INT, 'counts': BOOL, 'probed': BOOL,
            'wakeup': BOOL, 'always_on': BOOL, 'hw': BOOL}
EV_KEYS = {'time_ns': INT, 'kind': STR, 'domain': NSTR, 'device': NSTR,
           'cause': NSTR, 'line': NINT}
EV_EXTRA = {'power_on': {}, 'power_off': {'idle_state': NSTR},
            'pstate': {'old': INT, 'new': INT}, 'stay_on': {},
            'rate': {'old_hz': INT, 'new_hz': INT},
            'failure': {'op': STR, 'error': STR, 'safe': BOOL, 'undo': BOOL},
            'command_error': {'error': STR, 'message': STR},
            'expect_failed': {'message': STR}, 'explain': {'message': STR},
            'hwmode': {'hw': BOOL}, 'system_sleep': {}, 'system_wake': {}}
STAT_KEYS = {'time_on_ns': INT, 'time_off_ns': INT, 'idle_states': LIST,
             'pstates': LIST, 'on_count': INT, 'off_count': INT,
             'pstate_transitions': INT, 'sleep_on_ns': INT,
             'sleep_idle_ns': OBJ}
IDLE_KEYS = {'name': STR, 'time_ns': INT, 'usage': INT, 'rejected': INT,
             'entry_latency_us': INT, 'exit_latency_us': INT,
             'min_residency_us': INT}


def typed(obj, keys, what):
    """The first key of @keys missing from @obj or of the wrong type."""
    if not isinstance(obj, dict):
        return '%s is not an object' % what
    for k, t in keys.items():
        if k not in obj:
            return '%s: no %r' % (what, k)
        x = obj[k]
        # JSON has no separate boolean integers: True is not an integer
        if isinstance(x, bool) and t is not BOOL and \
                (not isinstance(t, tuple) or bool not in t):
            return '%s: %r is %r' % (what, k, x)
        if not isinstance(x, t):
            return '%s: %r is %r' % (what, k, x)
    return None


def check_order(doc, m):
    """The order inside one command (docs/semantics.md, Ordering), from the
    events of each scenario line without a callback failure (a rollback's undo
    calls run in reverse): power-on parents first and power-off children
    first (also `system-resume` and `system-suspend`), raises
    parents first and lowerings children first, a `resume` raises
    before it powers anything on and a `suspend` powers off before it
    lowers, and at most one pstate call a domain (`system-resume` has
    two phases: the restoration, then the wakeup path letting go). The
    first violation, or None."""
    by = {d.name: d for d in m.b.doms}
    lines = {}
    for e in doc['events']:
        lines.setdefault(e['line'], []).append(e)
    for ln, evs in sorted(lines.items(), key=lambda x: x[0] or 0):
        if any(e['kind'] == 'failure' for e in evs):
            continue
        cause = evs[0]['cause'] or ''
        verb = cause.split()[0] if cause.split() else ''
        seq = [(e['kind'] if e['kind'] != 'pstate' else
                'raise' if e['new'] > e['old'] else 'lower', by[e['domain']])
               for e in evs if e['domain'] in by and e['kind'] in
               ('power_on', 'power_off', 'pstate')]
        for i, (k1, d1) in enumerate(seq):
            for k2, d2 in seq[i + 1:]:
                up = d1 in m.ancestors(d2)       # d1 above d2
                down = d2 in m.ancestors(d1)     # d1 below d2
                if (k1 == k2 and ((k1 in ('power_on', 'raise') and down) or
                                  (k1 in ('power_off', 'lower') and up))):
                    return 'line %d (%s): %s of %s before %s of %s' % (
                        ln, cause, k1, d1.name, k2, d2.name)
                if ((verb == 'resume' and k1 == 'power_on' and
                     k2 == 'raise') or
                        (verb == 'suspend' and k1 == 'lower' and
                         k2 == 'power_off')):
                    return 'line %d (%s): %s of %s before %s of %s' % (
                        ln, cause, k1, d1.name, k2, d2.name)
        # set_rate (docs/semantics.md, The OPP layer): going up pstate votes,
        # then supply voltages, then clock; going down clock, then
        # supplies, then pstate votes (one device's clock: no requirements). A
        # domain a failed lowering left above its aggregate is lowered with the
        # first change of its aggregate ("the retry comes with the next
        # change of that domain's own aggregate"), which may be a raise
        # before the clock (DOMINO_MIX=fail seed 801376)
        clock = [i for i, e in enumerate(evs) if e['kind'] == 'rate']
        if verb == 'rate' and len(clock) == 1 and not m.b.devreq:
            for i, e in enumerate(evs):
                if e['kind'] == 'pstate' and e['domain'] in by and \
                        (e['new'] > e['old']) != (i < clock[0]) and \
                        not (i < clock[0] and
                             e['domain'] in m.stuck.get(ln, ())):
                    return 'line %d (%s): pstate %s of %s %s the clock' % (
                        ln, cause, 'raise' if e['new'] > e['old'] else
                        'lowering', e['domain'], 'after' if i > clock[0]
                        else 'before')
        calls = [d.name for k, d in seq if k in ('raise', 'lower')]
        if verb != 'system-resume' and len(calls) != len(set(calls)):
            return 'line %d (%s): two pstate calls on one domain: %r' % (
                ln, cause, calls)
    return None


def check_trace(trace, doc, m):
    """`--trace` (docs/trace.md; lifecycle shown in the trace) against the
    model at the end and the JSON events: each domain's last power span
    and idle state, last pstate and HW-mode counter samples, the system
    sleep spans' total time, and every `explain` line as an instant of
    that name. The first difference, or None."""
    evs = trace['traceEvents'] if isinstance(trace, dict) else trace
    tid = {e['args']['name']: e['tid'] for e in evs
           if e.get('ph') == 'M' and e.get('name') == 'thread_name'}
    memo = {}
    for d in m.b.doms:
        spans = [e for e in evs if e.get('ph') == 'X' and
                 e.get('tid') == tid.get(d.name)]
        want = ['on' if d.on else 'off', None if d.on or d.idle is None
                else d.states[d.idle][0]]
        got = spans and [spans[-1]['args'].get('power'), spans[-1]['args'].get(
            'idle_state')]
        if got != want:
            return 'trace: %s ends %r, model %r' % (d.name, got, want)
        # the HW-mode counter closes a mode still on at the end with a 0
        # sample at the end (src/report/timeline.c): the value before it
        end = doc['end_ns']
        late = any(e['kind'] == 'hwmode' and e['domain'] == d.name and
                   e['time_ns'] == end for e in doc['events'])
        for what, want in (('pstate', m.pstate(d, memo)),
                           ('hw', None if late else int(m.hwmode(d)))):
            cs = [e['args'][what] for e in evs if e.get('ph') == 'C' and
                  e.get('name') == '%s %s' % (d.name, what) and
                  (what == 'pstate' or round(e['ts'] * 1000) < end)]
            if want is None:
                continue
            if (cs[-1] if cs else 0) != want:
                return 'trace: %s %s counter ends %r, model %r' % (
                    d.name, what, cs[-1:], want)
    slept = sum(round(e['dur'] * 1000) for e in evs if e.get('ph') == 'X'
                and e.get('tid') == tid.get('system sleep'))
    if slept != m.slept:
        return 'trace: system sleep %dns, model %dns' % (slept, m.slept)
    said = [(e['args']['line'], e['args']['message']) for e in evs
            if e.get('cat') == 'explain' and e.get('name') == 'explain']
    want = [(e['line'], e['message']) for e in doc['events']
            if e['kind'] == 'explain']
    if said != want:
        return 'trace: explain instants %r, JSON events %r' % (said[:3],
                                                               want[:3])
    return None


def check_svg(path, doc, m):
    """`--svg` (docs/command-line.md, Options): well-formed, a HW-mode strip
    for each domain that was ever in HW mode (the JSON `hwmode` events), a
    sleep band when the system slept and none when it never went to sleep. The
    first difference, or None."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return 'svg: not well-formed: %s' % e
    ns = '{http://www.w3.org/2000/svg}'
    hw, sleep = set(), 0
    for g in root.iter():
        title = g.find(ns + 'title')
        if g.get('class') == 'hw' and title is not None:
            hw.add(title.text.split(': hw mode')[0])
        if g.get('class') == 'sleep':
            sleep += 1
    want, on, since = set(), {}, {}    # periods of no width are not drawn
    for e in doc['events']:
        if e['kind'] != 'hwmode':
            continue
        d, n = e['domain'], on.setdefault(e['domain'], set())
        was = bool(n)
        (n.add if e['hw'] else n.discard)(e['device'])
        if not was and n:
            since[d] = e['time_ns']
        elif was and not n and e['time_ns'] > since[d]:
            want.add(d)
    want |= set(d for d, n in on.items() if n and since[d] < doc['end_ns'])
    if hw != want:
        return 'svg: hw strips on %r, JSON %r' % (sorted(hw), sorted(want))
    if (m.slept and not sleep) or (sleep and not m.sleeps):
        return 'svg: %d sleep bands, the system slept %dns' % (sleep,
                                                                m.slept)
    return None


TWO = 'two armed'


def check_failures(doc, m, bad):
    """Each command's `failure` events (docs/semantics.md, Failures: a
    failure is reported
    with its direction; undo calls are calls like any other) against the
    calls the model saw fail, up to the first failed expect: the first
    difference, or None."""
    stop = bad[0]['line'] if bad else None
    got, stays = {}, {}
    for e in doc['events']:
        if e['kind'] == 'failure':
            got.setdefault(e['line'], []).append(
                (e['domain'], e['op'], e['safe'], e['undo']))
        if e['kind'] == 'stay_on':
            stays.setdefault(e['line'], []).append(e['domain'])
    for ln, want in sorted(m.failures.items()):
        if stop is not None and ln >= stop:
            break
        if want and want[0] is TWO:
            # two failures armed: only those, and an unsafe one (the
            # rollback's) exactly when the model rolled back
            _, armed, rolled = want
            calls = got.get(ln, [])
            if any((d, op) not in armed for d, op, _, _ in calls) or \
                    any(not safe for _, _, safe, _ in calls) != rolled:
                return 'line %d: failure events %r, armed %r, rolled ' \
                    'back %r' % (ln, calls, armed, rolled)
            continue
        if sorted(got.get(ln, [])) != want:
            return 'line %d: failure events %r, model %r' % (
                ln, sorted(got.get(ln, [])), want)
        # docs/semantics.md, Idle states and the governor: "If no state
        # passes both tests the domain stays on", once
        # a command (a `stay_on` event where the governor was asked)
        if not want and sorted(stays.get(ln, [])) != m.stays[ln]:
            return 'line %d: stay_on events on %r, model %r' % (
                ln, stays.get(ln, []), m.stays[ln])
    return None


def check_errors(doc, m, bad):
    """docs/scenario.md, Errors and failures: a command whose operation
    fails (e.g. after `fail`) is an event with its errno name: a
    `command_error` event (docs/json.md) on exactly the lines of commands that
    failed as a whole (a rollback, -ERANGE, -ENODEV, -EACCES, -EOPNOTSUPP, a
    failed `set_hwmode`, a `system-resume` whose restoration rolled back), with
    that errno; none where a safe-direction failure let the command
    succeed. Up to the first failed expect: the first difference, or
    None."""
    stop = bad[0]['line'] if bad else None
    got = {}
    for e in doc['events']:
        if e['kind'] == 'command_error':
            got.setdefault(e['line'], []).append(e['error'])
    for ln in sorted(set(m.wholes) | set(got)):
        if stop is not None and ln >= stop:
            break
        want = [m.wholes[ln]] if m.wholes.get(ln) else []
        if got.get(ln, []) != want:
            return 'line %d: command_error %r, model %r' % (
                ln, got.get(ln, []), want)
    return None


def check_format(doc, m):
    """docs/json.md: every documented key with its type, and the events
    replayed from the start give the final state and the counts in
    `stats`. The first difference, or None."""
    bad = typed(doc, TOP_KEYS, 'document')
    for d in doc['domains']:
        bad = bad or typed(d, DOM_KEYS, 'domain %s' % d.get('name'))
        for v in d.get('devices', []):
            bad = bad or typed(v, DEV_KEYS, 'device %s' % v.get('name'))
        for x in d.get('idle_states', []):
            bad = bad or typed(x, {k: t for k, t in IDLE_KEYS.items()
                                   if k == 'name' or k.endswith('_us')},
                               'idle state of %s' % d['name'])
        for x in d.get('levels', []):
            bad = bad or typed(x, {'level': INT, 'name': NSTR}, 'level')
        if d['status'] not in ('on', 'off'):
            return '%s: status %r' % (d['name'], d['status'])
    if bad:
        return bad
    if doc['system'] not in ('awake', 'asleep'):
        return 'system %r' % doc['system']
    last = 0
    for e in doc['events']:
        bad = typed(e, EV_KEYS, 'event') or (
            'event kind %r' % e['kind'] if e['kind'] not in EV_EXTRA else
            typed(e, EV_EXTRA[e['kind']], 'event %s' % e['kind']))
        if bad:
            return bad
        if e['time_ns'] < last:
            return 'events out of time order at %r' % e
        last = e['time_ns']
    for d in m.b.doms:
        st = doc['stats'][d.name]
        bad = typed(st, STAT_KEYS, 'stats of %s' % d.name)
        for x in st['idle_states']:
            bad = bad or typed(x, IDLE_KEYS, 'idle stats of %s' % d.name)
        for x in st['pstates']:
            bad = bad or typed(x, {'level': INT, 'name': NSTR,
                                   'time_ns': INT}, 'pstate stats')
        if bad:
            return bad
    if typed(doc['stats']['system_sleep'], {'count': INT, 'time_ns': INT},
             'system_sleep'):
        return 'stats.system_sleep %r' % doc['stats']['system_sleep']
    # replay: power and pstate events from the initial state
    state = {d.name: ['off', d.states[-1][0] if d.states else None, 0,
                      0, 0, 0, {}] for d in m.b.doms}
    for e in doc['events']:
        x = state.get(e['domain'])
        if x is None or e['kind'] not in ('power_on', 'power_off', 'pstate'):
            continue
        if e['kind'] == 'power_on':
            if x[0] == 'on':
                return 'power_on of an on domain: %r' % e
            x[0], x[1] = 'on', None
            x[3] += 1
        elif e['kind'] == 'power_off':
            if x[0] == 'off':
                return 'power_off of an off domain: %r' % e
            x[0], x[1] = 'off', e['idle_state']
            x[4] += 1
            if e['idle_state'] is not None:
                x[6][e['idle_state']] = x[6].get(e['idle_state'], 0) + 1
        else:
            if e['old'] != x[2]:
                return 'pstate event from %d at %d: %r' % (e['old'], x[2], e)
            x[2] = e['new']
            x[5] += 1
    for j in doc['domains']:
        x, st = state[j['name']], doc['stats'][j['name']]
        got = [j['status'], j['idle_state'], j['pstate'], st['on_count'],
               st['off_count'], st['pstate_transitions'],
               {i['name']: i['usage'] for i in st['idle_states']
                if i['usage']}]
        if got != x:
            return ('%s: [status, idle, pstate, on, off, transitions, usage]'
                    ' %r, events replayed %r' % (j['name'], got, x))
    return None


def extras(board, X, check):
    """What boards got later, from a stream of their own (@X) so that a
    seed keeps its board and commands (DOMINO_PLAIN=1 leaves them out, for
    the seeds of what was found before):
    - a provider's own `required-opps` (docs/semantics.md, Subdomains and
      propagation: a floor its domains require of their parents while on), an
      entry for some parents from the first table at or above each (pass 1 or
      pass 2 of the matching rule), now and then one that matches no parent
      (ignored); kept only where each floor is a level its parent accepts as a
      vote (a static board never asks more of any table then);
    - consumers with `status = "disabled"` (docs/device-tree.md: only enabled
      consumers are devices, are awaited by a boot hold, and make an
      index of a provider exist): on a domain, or on an index of a
      provider with cells that nothing enabled references;
    - (in gen_scenario) a domain both held and always-on at time 0, and
      a `fail` for the next 2 or 3 calls left armed across commands."""
    for d in board.doms:
        if not d.parents or X.random() < 0.6:
            continue
        refs = []
        for p in d.parents:
            t = first_table(p)
            if t and X.random() < 0.8:
                refs.append((t, X.choice(t.table)))
        near = set(p.i for p in d.parents)
        for p in d.parents:
            near |= set(a.i for a in check.ancestors(p))
        far = [t for t in board.doms if t.table and t.i not in near]
        if far and X.random() < 0.2:
            t = X.choice(far)
            refs.insert(X.randrange(len(refs) + 1), (t, X.choice(t.table)))
        got = match_required(Parents(d), refs)
        floors = {d.parents[k].i: lv for k, lv in got.items()}
        if refs and not any(check.check_level(board.doms[i], lv)
                            for i, lv in floors.items()):
            d.floor_refs, d.floors = refs, floors
    for j in range(X.choice([0, 0, 1, 2])):
        d = X.choice(board.doms)
        ref = d.ref()
        if d.cells and X.random() < 0.5:
            ref = '<&%s %d%s>' % (d.label, (d.index + 1) % 10,
                                  ' 0' if d.cells > 1 else '')
        board.disabled.append((ref, X.random() < 0.3))


def shapes(board, Y):
    """docs/device-tree.md's other provider shapes, the semantics unchanged: a
    device on three domains (`power-domain-names`), and providers of
    several domains (`#power-domain-cells = <1>`): a domain without a
    table, idle states or floor becomes a Rockchip power-domain@N node,
    with children whose only parent it is nested inside it, and domains
    with the same parents as indices of the same provider that only
    references make exist."""
    for v in board.devs:
        rest = [d for d in board.doms if d not in v.doms]
        if len(v.doms) == 2 and not v.fixed and rest and \
                not v.requirers and Y.random() < 0.5:
            d = Y.choice(rest)
            d.devs.append((v, 2))
            d.devs.sort(key=lambda a: a[0].i)
            v.doms.append(d)
            v.votes.append(0)
            v.hw.append(False)
            if v.pdnames:
                v.pdnames.append('pwr2')
    used = ' '.join(ref for ref, _ in board.disabled)
    done = set()

    def plain(d):
        return (d.i not in done and not d.table and not d.states and
                not d.floor_refs and '&%s ' % d.label not in used + ' ' and
                '&%s>' % d.label not in used)
    for r in board.doms:
        if not plain(r) or Y.random() < 0.4:
            continue
        top, nest, members = [r], {}, [r]
        done.add(r.i)
        queue = [r]
        while queue:
            x = queue.pop(0)
            for c in x.children:
                if c.parents == [x] and plain(c) and Y.random() < 0.7:
                    done.add(c.i)
                    nest.setdefault(x.i, []).append(c)
                    members.append(c)
                    queue.append(c)
        flat = [d for d in board.doms if plain(d) and d.parents == r.parents
                and (d.devs or d.children) and Y.random() < 0.5]
        done.update(d.i for d in flat)
        if len(members) + len(flat) < 2:
            done.difference_update(d.i for d in members + flat)
            continue
        label = 'pg%d' % len(board.groups)

        def dfs(x):
            return [x] + [y for c in nest.get(x.i, []) for y in dfs(c)]
        # indices rise in the blob's node order, then the referenced ones
        for d, n in zip(dfs(r) + flat, sorted(Y.sample(range(16),
                                                       len(members + flat)))):
            d.label, d.cells, d.index = label, 1, n
            d.name = '%s:%d' % (label, n)
        board.groups.append((label, top, nest, flat))


def hw_and_dups(board, Y):
    """docs/device-tree.md's `opp-supported-hw` and docs/semantics.md's
    duplicate entries, in
    device tables: entries the board's version (`--supported-hw`, one
    value per cell; none given: every entry carrying the property) makes
    unavailable, between the others (a `rate` just above one must take
    the next available entry), and entries equal in `opp-hz` to one before
    them (the first is kept). Neither is in Dev.opps: the model never
    sees them."""
    vers = [] if Y.random() < 0.3 else [Y.choice([1, 2, 4])
                                        for _ in range(Y.choice([1, 1, 2]))]
    board.hw = ','.join('%d' % x for x in vers) or None

    def cells(ok, ngroups):
        """A property of @ngroups groups of one cell a version value:
        some group matching the version (every cell ANDed with it
        non-zero) where @ok, else none (without a version: any cells).
        A table's first such entry has one group (the loader takes a
        table's group size from its shortest property:
        docs/decisions/opp-supported-hw.md)."""
        n = len(vers) or 1
        groups = [[(vers[i] if vers else 1) | Y.choice([0, 8])
                   for i in range(n)] for _ in range(ngroups)]
        for k, g in enumerate(groups):
            if ok and vers and (k == 0 or Y.random() < 0.5):
                continue
            i = Y.randrange(n)
            g[i] = Y.choice([b for b in (1, 2, 4, 8)
                             if not vers or not b & vers[i]])
        if ok:
            Y.shuffle(groups)
        return ' opp-supported-hw = <%s>;' % ' '.join(
            '0x%x' % x for g in groups for x in g)
    for v in board.devs:
        if v.opps and Y.random() < 0.5:
            # supplies (docs/semantics.md, The OPP layer: opp-microvolt target
            # or target/min/max, one a supply; opp-microamp): `simulate`
            # gives devices no regulators, so they change nothing
            n = Y.randint(1, 2)
            for j in range(len(v.opps)):
                uv = 800000 + 50000 * j
                three = Y.random() < 0.5
                v.volts[j] = ' opp-microvolt = <%s>;%s' % (' '.join(
                    '%d %d %d' % (uv, uv - 20000, uv + 20000) if three
                    else '%d' % uv for _ in range(n)),
                    ' opp-microamp = <%s>;' % ' '.join(
                        '%d' % (1000 * (j + 1)) for _ in range(n))
                    if Y.random() < 0.5 else '')
        if not v.opps or Y.random() < 0.5:
            continue
        first = [1]
        for j, (hz, reqs) in enumerate(v.opps):
            r = Y.random()
            if r < 0.3 and vers:
                v.hwcells[j] = cells(True, first.pop() if first else
                                     Y.randint(1, 2))
            elif r < 0.6:
                low = hz - 5000000
                v.hidden.append(low)
                v.extra.setdefault(j, []).append(
                    '  opp-%d { opp-hz = /bits/ 64 <%d>; required-opps = '
                    '<%s>;%s };' % (low, low, ' '.join(
                        '&t%d_%d' % (t.i, t.table[-1]) for t, _ in reqs),
                        cells(False, first.pop() if first else
                              Y.randint(1, 2))))
            elif r < 0.8:
                v.extra.setdefault(j, []).append(
                    '  opp-%d-dup { opp-hz = /bits/ 64 <%d>; required-opps = '
                    '<%s>; };' % (hz, hz, ' '.join(
                        '&t%d_%d' % (t.i, Y.choice(t.table))
                        for t, _ in reqs)))


def devreq(board, Y, check):
    """docs/device-tree.md's device-to-device requirements: entries of a
    device's table require entries of a later device's table (no `opp-level`
    there, so the pair is device-to-device; later only: no cycles), the
    reference anywhere among the entry's domain references (which the
    matching rule must skip). Owners are devices whose every entry is a
    vote their domains accept (a requirement then never fails). Also
    devices without domains (MediaTek's CPUs and CCI: a node with a
    table and no `power-domains` that requires or owns such a table),
    which requirements may order anywhere (a random rank, no cycles),
    and devices sharing an owner's table (its owners: a requirement
    raises each)."""
    extra = []
    for _ in range(Y.choice([0, 0, 1, 2])):
        v = Dev(len(board.devs) + len(extra))
        hz = 0
        for _ in range(Y.randint(1, 3)):
            hz += Y.choice([50, 100, 200]) * 1000000
            v.opps.append((hz, []))
        extra.append(v)
    devs = board.devs + extra
    rank = {v.i: r for r, v in enumerate(Y.sample(devs, len(devs)))}
    owners = [v for v in devs if v.opps and not any(
        check.check_level(v.doms[k], lv) for _, reqs in v.opps
        for k, lv in match_required(v, reqs).items())]
    for u in devs:
        later = [o for o in owners if rank[o.i] > rank[u.i]]
        if not u.opps or not later or Y.random() < 0.3:
            continue
        got = Y.sample(later, min(len(later), Y.choice([1, 1, 2])))
        u.dreq = [[(o, Y.randrange(len(o.opps)), Y.randint(0, len(reqs)))
                   for o in got] for _, reqs in u.opps]
        for o in got:
            o.requirers.append(u)
    for v in extra:
        if v.dreq or v.requirers:  # else not a device (docs/device-tree.md)
            v.i = len(board.devs)
            v.name = 'dev%d' % v.i
            board.devs.append(v)
    for o in list(board.devs):
        if o.requirers and Y.random() < 0.25:
            # a second owner of the same table, without domains
            # (its entries' requirements are its too)
            t = Dev(len(board.devs))
            t.opps, t.tab, t.requirers = o.opps, o, o.requirers
            t.dreq = o.dreq
            for x in dict.fromkeys(x for e in o.dreq or [] for x, _, _ in e):
                x.requirers.append(t)
            board.devs.append(t)
    board.devreq = any(v.dreq for v in board.devs)


def bad_input(domino, dtb, board, m, tmp, seed):
    """docs/lifecycle.md: `boot-on` and `always-on DOMAIN` only at time 0
    before any other command, a boot level checked like a vote when the
    scenario is read; docs/scenario.md: an absolute time earlier than the
    previous line's, unknown verbs, names, units, switches, errno names, wrong
    argument counts, a `vote` without the domain name on a device of several
    domains; else bad input (exit 2, an error naming the line). Two such
    scenarios a board, one of each kind: the first problem, or None."""
    X = board.X
    d = X.choice(board.doms)
    v = X.choice(board.devs)
    top = max([t.table[-1] for t in m.tables_reached(d)] + [0])
    cases = [(['@1us boot-on %s' % d.name], 1),
             (['@0 resume %s' % v.name, 'boot-on %s' % d.name], 2),
             (['@0 qos %s 5' % v.name, 'always-on %s' % d.name], 2),
             (['@0 boot-on %s %d' % (d.name, top + 1 if top else 1)], 1),
             # twice on one domain (the contract was silent; which level would
             # hold?): bad input, EALREADY, where the second one is
             (['@0 boot-on %s' % d.name, 'boot-on %s' % d.name], 2)]
    # docs/scenario.md, Errors and failures: a bad command anywhere is
    # bad input: exit 2 and
    # `FILE:LINE: error: MESSAGE` naming its line (a few good lines
    # before and after it)
    many = [u for u in board.devs if len(u.doms) > 1]
    late = [(['@1ms qos %s 5' % v.name, '+1ms qos %s none' % v.name,
              '@1500us qos %s 7' % v.name], 3),
            (['@2ms resume %s' % v.name, '@1ms suspend %s' % v.name], 2),
            (['frobnicate %s' % v.name], 1),
            (['resume nosuchdev'], 1),
            (['resume'], 1),
            (['resume %s %s' % (v.name, v.name)], 1),
            (['expect nosuchpd on'], 1),
            (['fail %s sleep' % d.name], 1),
            (['fail nosuchpd on'], 1),
            (['expect last-error EWHAT'], 1),
            (['@5min resume %s' % v.name], 1),
            (['hwmode %s maybe' % v.name], 1),
            (['wakeup-enable %s maybe' % v.name], 1),
            (['explain nosuchpd'], 1),
            (['active-wakeup nosuchpd'], 1),
            (['rate %s 5parsecs' % v.name], 1),
            (['qos %s -5' % v.name], 1),
            (['wakeup %s soon' % v.name], 1),
            (['probe nosuchdev'], 1)]
    if v.doms:
        late.append((['vote %s nosuchname 16' % v.name], 1))
    if many:
        # the name is required when DEV has several domains
        late.append((['vote %s 16' % X.choice(many).name], 1))
    text, line = X.choice(late)
    pre = [X.choice(['', '# fine', '# UTF-8: 250 \u00b5s \u2014 ok',
                     'qos %s none' % v.name])
           for _ in range(X.randint(0, 2))]
    return bad_run(domino, dtb, board, tmp, seed, [
        (X.choice(cases)), (pre + text + ['suspend %s' % v.name],
                            len(pre) + line)])


def bad_run(domino, dtb, board, tmp, seed, cases):
    """Each (lines, bad line): exit 2 and the error at that line."""
    for text, line in cases:
        scn = os.path.join(tmp, 'bad%d.scn' % seed)
        with open(scn, 'w', encoding='utf-8') as f:
            f.write('\n'.join(text) + '\n')
        r = subprocess.run([domino, 'simulate', dtb, scn] + hw_args(board),
                           capture_output=True, text=True)
        if r.returncode != 2 or \
                '%s:%d: error: ' % (scn, line) not in r.stderr:
            return 'bad input %r: exit %d, %s' % (text, r.returncode,
                                                  r.stderr.strip()[:300])
    return None


WRONG = {'on': 'off', 'off': 'on', 'hw': 'sw', 'sw': 'hw',
         'held': 'released', 'released': 'held'}


def wrong_expects(domino, dtb, board, plain, lines, tmp, seed, doc):
    """docs/scenario.md: "A failed `expect` prints `FILE:LINE: expect
    failed: WANT, got GOT`" and `simulate` exits 1 after running the rest. Two
    or three wrong expects (a domain's on/off, pstate, idle state (`got
    on` while on), hw/sw, held/released, or `last-error`, each just
    after a right one whose
    value is GOT) put into the scenario that passed: exit 1, exactly
    those lines on stderr, and the rest ran as before (the final state,
    `stats` and every other event unchanged; an `expect` leaves
    last-error). The first difference, or None."""
    R = random.Random(seed * 104729 + 11)
    by = {d.name: d for d in board.doms}
    spots = [i for i, l in enumerate(plain) if l.startswith('expect ') and
             ' rate ' not in l and (' idle ' not in l or len(
                 by[l.split(' ')[1]].states) > 1)]
    if not spots:
        return None
    out, want = list(lines), []
    for i in sorted(R.sample(spots, min(len(spots), R.randint(2, 3))),
                    reverse=True):
        w = plain[i].split(' ')[1:]
        if w[0] == 'last-error':
            bad = ['last-error', 'OK' if w[1] != 'OK' else
                   R.choice(['EIO', 'ERANGE', 'EACCES'])]
        elif w[1] == 'pstate':
            bad = [w[0], 'pstate', '%d' % (int(w[2]) + R.randint(1, 9))]
        elif w[1] == 'idle':
            bad = [w[0], 'idle', R.choice([x[0] for x in by[w[0]].states
                                           if x[0] != w[2]])]
        elif w[1] == 'on' and by[w[0]].states and R.random() < 0.5:
            bad = [w[0], 'idle', R.choice(by[w[0]].states)[0]]
        else:
            bad = [w[0], WRONG[w[1]]]
        out.insert(i + 1, 'expect ' + ' '.join(bad))
        want.append((i + 1, ' '.join(bad), w[-1]))
    scn = os.path.join(tmp, 'w%d.scn' % seed)
    with open(scn, 'w') as f:
        f.write('\n'.join(out) + '\n')
    r = subprocess.run([domino, 'simulate', dtb, scn, '--json'] +
                       hw_args(board), capture_output=True, text=True)
    # each insertion moves the ones after it down a line
    told = sorted('%s:%d: expect failed: %s, got %s' % (
        scn, i + 1 + sum(1 for j, _, _ in want if j < i), w, g)
        for i, w, g in want)
    said = sorted(l for l in r.stderr.splitlines() if 'expect failed' in l)
    if r.returncode != 1 or said != told:
        return 'wrong expects in %s: exit %d, said\n  %s\nthe model\n  %s' % (
            scn, r.returncode, '\n  '.join(said), '\n  '.join(told))
    now = json.loads(r.stdout)
    same = [e for e in now['events'] if e['kind'] != 'expect_failed']
    if len(same) != len(doc['events']) or now['domains'] != doc['domains'] \
            or now['stats'] != doc['stats'] or any(
                {k: x for k, x in a.items() if k != 'line'} !=
                {k: x for k, x in b.items() if k != 'line'}
                for a, b in zip(same, doc['events'])):
        return 'wrong expects in %s: the run went otherwise' % scn
    return None


def hw_args(board):
    return ['--supported-hw', board.hw] if board.hw else []


def run_one(domino, dtc, seed, nops, tmp):
    rnd = random.Random(seed)
    board = Board(rnd)
    S = board.surface = Surface(seed)
    for v in board.devs:
        if S.r.random() < 0.4:
            v.pdnames = ['pwr%d' % k for k in range(len(v.doms))]
    # providers with one or two cells (docs/device-tree.md, Providers:
    # `NAME:INDEX`; a
    # second cell is an argument and makes no domain); an index exists
    # only where a consumer or provider references it
    for d in board.doms:
        if (d.devs or d.children) and S.r.random() < 0.3:
            d.cells = S.r.choice([1, 1, 2])
            d.index = S.r.randint(0, 9)
            d.name = '%s:%d' % (d.label, d.index)
    for node, _ in board.state_nodes:
        if S.r.random() < 0.3:
            board.compat[node] = 'arm,idle-state'
    # docs/semantics.md, Required OPPs: a device node with `required-opps`
    # but no OPP table of its own casts those as fixed votes while active
    # (matched to its domains by the same rule): the attachment's vote from the
    # start, which `vote` overwrites (the latest wins)
    check = Model(board)
    for v in board.devs:
        owners = [first_table(d) for d in v.doms]
        if v.opps or not all(owners) or S.r.random() < 0.7:
            continue
        fixed = [(t, S.r.choice(t.table)) for t in owners]
        got = match_required(v, fixed)
        if any(check.check_level(v.doms[k], lv) for k, lv in got.items()):
            continue
        v.fixed = fixed
        for k, lv in got.items():
            v.votes[k] = lv
    board.X = None
    if not os.environ.get('DOMINO_PLAIN'):
        board.X = random.Random(seed * 15485863 + 29)
        extras(board, board.X, check)
        # newer extras, on a third of the boards, from a stream of their
        # own (the seeds before keep their boards and commands)
        Y = random.Random(seed * 32452843 + 7)
        if Y.random() < 0.35:
            devreq(board, Y, check)
        if Y.random() < 0.35:
            shapes(board, Y)
        if Y.random() < 0.35:
            board.Y = Y            # two unsafe failures (gen_scenario)
        if Y.random() < 0.35:
            hw_and_dups(board, Y)
        # docs/device-tree.md, Links and cycles: "A link that would close a
        # cycle is dropped with a warning": a domain its own parent, now and
        # then
        Z = random.Random(seed * 49979687 + 5)
        plain = [d for d in board.doms if not d.cells and not any(
            d in g[1] + g[3] for g in board.groups)]
        if plain and Z.random() < 0.15:
            d = Z.choice(plain)
            d.loop = Z.randint(0, len(d.parents))
        # PSCI's domains are CPU domains (the system wakeup latency)
        W = random.Random(seed * 86028121 + 11)
        if plain and W.random() < 0.9:
            for d in plain:
                # leaves, mostly: a CPU's domain (a cluster has children)
                d.cpu = W.random() < (0.8 if not d.children else 0.2)
                if d.cpu and not d.states:
                    # a CPU domain has its states (the CPU's and the
                    # cluster's idle states)
                    node = "st%d" % board.nstates
                    board.nstates += 1
                    st = (node, W.randint(0, 300), W.randint(0, 300),
                          W.randint(0, 900))
                    board.state_nodes.append((node, st))
                    d.states.append(st)
                if d.cpu and not d.devs:
                    # and its CPU
                    v = Dev(len(board.devs))
                    v.doms, v.votes, v.hw = [d], [0], [False]
                    d.devs.append((v, 0))
                    board.devs.append(v)
    text = board.dts()             # before the scenario changes the flags
    # `summary --explain D`: the board as loaded (docs/lifecycle.md, explain)
    first = board.X and board.X.choice(board.doms)
    first_says = first and Model(board).explain(first)
    lines, model = gen_scenario(rnd, board, nops)
    dts = os.path.join(tmp, 'b%d.dts' % seed)
    dtb = os.path.join(tmp, 'b%d.dtb' % seed)
    scn = os.path.join(tmp, 's%d.scn' % seed)
    with open(dts, 'w') as f:
        f.write(text + ('// run with --supported-hw %s\n' % board.hw
                        if board.hw else ''))
    devs = {v.name: v for v in board.devs}
    plain = lines
    lines = [S.line(' '.join(S.dev(devs[w]) if w in devs else w
                             for w in l.split(' '))) for l in lines]
    with open(scn, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    r = subprocess.run([dtc, '-q', '-@', '-I', 'dts', '-O', 'dtb', '-o', dtb,
                        dts], capture_output=True, text=True)
    if r.returncode:
        print('seed %d: dtc failed: %s' % (seed, r.stderr))
        return False
    trace = os.path.join(tmp, 't%d.json' % seed)
    svg = os.path.join(tmp, 'g%d.svg' % seed)
    r = subprocess.run([domino, 'simulate', dtb, scn] + hw_args(board) +
                       ['--json', '--trace',
                        trace, '--svg', svg], capture_output=True, text=True)
    if first:
        x = subprocess.run([domino, 'summary', dtb, '--explain', first.name]
                           + hw_args(board),
                           capture_output=True, text=True)
        if x.returncode or x.stdout.splitlines() != first_says:
            print('seed %d: summary --explain %s exit %d says\n  %s\n'
                  'the model\n  %s' % (seed, first.name, x.returncode,
                                       '\n  '.join(x.stdout.splitlines()),
                                       '\n  '.join(first_says)))
            return False
    wrong = board.X and bad_input(domino, dtb, board, model, tmp, seed)
    if wrong:
        print('seed %d: %s' % (seed, wrong))
        return False
    if r.returncode not in (0, 1):
        print('seed %d: simulate exit %d\n%s' % (seed, r.returncode,
                                                 r.stderr[:2000]))
        print('board %s scenario %s' % (dts, scn))
        return False
    doc = json.loads(r.stdout)
    loops = ['%s: %s: power-domains: warning: ' % (dtb, d.node)
             for d in board.doms if d.loop is not None]
    said = [w for w in doc.get('warnings', []) if 'cycle' in w]
    if sorted(w[:len(x)] for w, x in zip(sorted(said), sorted(loops))) != \
            sorted(loops) or len(said) != len(loops):
        print('seed %d: cycle warnings %r, model %r' % (seed, said, loops))
        return False
    # docs/semantics.md, Required OPPs: a required OPP that matches no
    # domain is ignored and reported by `lint` (a provider's own, here: extras)
    unmatched = {d.node: len(d.floor_refs) - len(d.floors)
                 for d in board.doms if len(d.floor_refs) > len(d.floors)}
    by_node = {d.node: d for d in board.doms}
    if unmatched:
        lint = subprocess.run([domino, 'lint', dtb, '--json'] + hw_args(board),
                              capture_output=True, text=True)
        found = {f['node']: f['message'] for f in
                 json.loads(lint.stdout or '{}').get('findings', [])
                 if f.get('check') == 'opp-required-unmatched' and
                 f['node'] in by_node}
        # (a cycle is an error to lint: exit 1)
        if lint.returncode != (1 if loops else 0) or \
                set(found) != set(unmatched) or any(
                not found[n].startswith('%d of %d ' % (
                    k, len(by_node[n].floor_refs)))
                for n, k in unmatched.items()):
            print('seed %d: lint exit %d, unmatched required-opps %r, '
                  'model %r' % (seed, lint.returncode, found, unmatched))
            print('  board: %s' % dts)
            return False
    bad = [e for e in doc['events'] if e['kind'] == 'expect_failed']
    if not check_explains(doc, model, bad, seed, scn, dts):
        return False
    wrong = check_run(doc, model, bad)
    if wrong:
        print('seed %d: JSON of the final state: %s' % (seed, wrong))
        print('  board: %s scenario: %s' % (dts, scn))
        return False
    if not bad and r.returncode == 0:
        with open(trace) as f:
            wrong = check_trace(json.load(f), doc, model) or \
                check_svg(svg, doc, model)
        wrong = wrong or (board.X and wrong_expects(
            domino, dtb, board, plain, lines, tmp, seed, doc))
        if wrong:
            print('seed %d: %s' % (seed, wrong))
            print('  board: %s scenario: %s' % (dts, scn))
            return False
        return True
    return tell_bad(seed, bad, scn, lines, dts)


def check_run(doc, m, bad):
    """The `--json` document of a run against the model: its format,
    the final state, the command errors, the order of the calls and the
    failure events, and the stats where no expect failed. The first
    difference, or None."""
    wrong = check_format(doc, m) or check_json(doc, m) or \
        check_errors(doc, m, bad) or \
        check_order(doc, m) or check_failures(doc, m, bad)
    if not wrong and not bad:
        m.advance(doc['end_ns'] - m.now)
        wrong = check_stats(doc, m)
    return wrong


def check_explains(doc, model, bad, seed, scn, board):
    """Each `explain` word for word with the model's, up to the first
    failed expect; False (and said why) at the first difference."""
    said = {}
    for e in doc['events']:
        if e['kind'] == 'explain':
            said.setdefault(e['line'], []).append(e['message'])
    for ln, want in sorted(model.explains.items()):
        if bad and bad[0]['line'] < ln:
            break                  # the first failed expect comes first
        if said.get(ln) != want:
            print('seed %d: %s:%d: explain says\n  %s\nthe model\n  %s' % (
                seed, scn, ln, '\n  '.join(said.get(ln, [])),
                '\n  '.join(want)))
            print('  board: %s' % board)
            return False
    return True


def tell_bad(seed, bad, scn, lines, board):
    """Print the first failed expect and the commands before it."""
    first = bad[0] if bad else None
    print('seed %d: %d expects failed; first at %s:%s: %s' % (
        seed, len(bad), scn, first and first['line'],
        first and first['message']))
    if first:
        ln = first['line']
        cmds = [(i + 1, l) for i, l in enumerate(lines[:ln])
                if not l.startswith('expect')]
        print('  commands up to there:')
        for i, l in cmds[-12:]:
            print('   %4d  %s' % (i, l))
    print('  board: %s' % board)
    return False


def real_boards():
    """The blobs DOMINO_REAL names (a .dtb, or a directory of them)."""
    if not os.path.isdir(REAL):
        return [REAL] if os.path.exists(REAL) else []
    return sorted(os.path.join(REAL, f) for f in os.listdir(REAL)
                  if f.endswith('.dtb'))


def run_real(domino, dtc, seed, nops, tmp):
    """DOMINO_REAL=BOARD.dtb or a directory of them: one board of them
    a seed (RealBoard), a random scenario without pstates, checked as
    run_one checks a generated board's (expects, `command_error`
    events, the JSON's state and flags, stats but pstates, the order of
    the calls, failure and stay_on events)."""
    dtbs = real_boards()
    dtb = dtbs[seed % len(dtbs)]
    r = subprocess.run([domino, 'summary', dtb, '--json'],
                       capture_output=True, text=True)
    summary = json.loads(r.stdout)
    board = RealBoard(summary)
    if any('opp-supported-hw' in w for w in summary.get('warnings', [])):
        # docs/device-tree.md, opp-supported-hw: "Tegra30 needs this": one
        # version value a seed
        board.hw = str(random.Random(seed * 3 + 1).choice([1, 2, 4, 8]))
    board.read_levels(dtc, dtb, {j['name']: j['provider']
                                 for j in summary['domains']})
    board.surface = Surface(seed)
    lines, model = gen_scenario(random.Random(seed), board, nops)
    lines = [board.surface.line(l) for l in lines]
    scn = os.path.join(tmp, 's%d.scn' % seed)
    with open(scn, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    r = subprocess.run([domino, 'simulate', dtb, scn, '--json'] +
                       hw_args(board), capture_output=True, text=True)
    if r.returncode not in (0, 1):
        print('seed %d: simulate %s %s exit %d\n%s' % (
            seed, dtb, scn, r.returncode, r.stderr[:2000]))
        return False
    doc = json.loads(r.stdout)
    bad = [e for e in doc['events'] if e['kind'] == 'expect_failed']
    if not check_explains(doc, model, bad, seed, scn, dtb):
        return False
    wrong = check_run(doc, model, bad)
    if wrong:
        print('seed %d: JSON of the final state: %s' % (seed, wrong))
        print('  board: %s scenario: %s' % (dtb, scn))
        return False
    if not bad and r.returncode == 0:
        return True
    return tell_bad(seed, bad, scn, lines, dtb)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    domino, dtc = sys.argv[1], sys.argv[2]
    seed = int(os.environ.get('DOMINO_SEED', '1'))
    if os.environ.get('DOMINO_RANDOM') == '1':
        seed = int(time.time() * 1000) % 1000000007
        print('DOMINO_SEED=%d' % seed)
    if REAL and not real_boards():
        print('skipped: no board in DOMINO_REAL=%s' % REAL)
        return 77
    runs = int(os.environ.get('DOMINO_RUNS', '200'))
    nops = int(os.environ.get('DOMINO_OPS', '60'))
    tmp = tempfile.mkdtemp(prefix='domino-model-')
    ok = 0
    for s in range(seed, seed + runs):
        ok += run_real(domino, dtc, s, nops, tmp) if REAL else \
            run_one(domino, dtc, s, nops, tmp)
    print('%d/%d scenarios agree with the model' % (ok, runs))
    if ok == runs and not os.environ.get('KEEP'):
        shutil.rmtree(tmp)
    else:
        print('files kept in %s' % tmp)
    return 0 if ok == runs else 1


if __name__ == '__main__':
    sys.exit(main())
