#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Linux 6.12's SCMI stack against `domino scmi-serve` (ctest -L linux).

usage: test_linux.py --domino D --null-serve N --raw R SCENARIO BOARD.dtb

Boots the User-Mode-Linux kernel of scripts/linux.sh as agent 1 (`linux`)
of BOARD over vhost-user (scripts/linux-guest.py), with agent 2 (`host`)
on a Unix socket for this script, and checks what Linux sees against what
domino did. The guest runs a shell script that stops at named steps; at
each step this script reads domino's state through agent 2 and the -v log
of scmi-serve, then lets the guest go on.

  probe      Linux registers one genpd per power domain, named as domino
             names it (up to 63 bytes), and one per performance domain
             (name_N); each performance consumer gets domino's levels as
             OPPs; Linux's POWER_STATE_GET / LEVEL_GET read what domino
             says; genpd is on only where domino is on; every reply domino
             sent Linux is SUCCESS and the kernel log has no SCMI warning
  power      every power domain switched on and off from userspace (its
             consumer's power/control): POWER_STATE_SET reaches domino and
             the domain follows; a domain a board device (--scenario
             resume DEV) or agent 2 holds stays on while Linux's request
             succeeds
  perf       a level set by Linux (SCMI raw mode) is Linux's vote in
             domino, and the domain runs at the max over agents;
             LEVEL_CHANGED to agent 2 names Linux's agent
  perf-genpd two devices of the guest vote through genpd
             (dev_pm_genpd_set_performance_state, from sysfs through
             tests/linux/kernel/domino_perf_vote.c): genpd's max reaches
             domino through scmi_perf_domain and perf.c
  agents     Linux and agent 2 vote on one performance domain: the level
             Linux reads back and the LEVEL_CHANGED Linux receives show
             the aggregate, each naming the agent that caused it
  fail       a power-on, a power-off and a raise that fail in domino
             (--scenario fail ...) reach Linux as HARDWARE_ERROR
             (-EREMOTEIO), Linux's reads stay equal to domino's, and the
             next attempts succeed
  roundtrip  PERFORMANCE_LEVEL_SET from Linux (raw mode) through virtio to
             domino and back, against domino-null-serve (the same server
             whose LEVEL_SET does nothing): boots alternating between the
             two, prints both round trips and their ratio
Exit 0 pass, 1 fail, 77 skipped (no kernel, or no board: said why).
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
spec = importlib.util.spec_from_file_location(
    "linux_guest", os.path.join(ROOT, "scripts", "linux-guest.py"))
lg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lg)

BASE, POWER, PERF = 0x10, 0x11, 0x13
ON, OFF = 0, 0x40000000
LINUX, HOST = 1, 2
EREMOTEIO = 121  # Linux's errno for SCMI's HARDWARE_ERROR


class Fail(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)


def skip(why):
    print("SKIPPED: " + why)
    sys.exit(77)


# ---- what Linux shows -------------------------------------------------------

def genpd_summary(text):
    """pm_genpd_summary -> ({genpd: status}, {device: genpd})."""
    status, device_of = {}, {}
    current = None
    for line in text.splitlines():
        if not line.strip() or line.startswith(("domain", "---")) or \
                line.lstrip().startswith("/device"):
            continue
        if not line.startswith(" "):
            # "NAME  STATUS  [CHILDREN]  PERFORMANCE": the name may hold
            # single spaces, the columns are two or more apart
            cols = re.split(r"\s{2,}", line.strip())
            current = cols[0]
            status[current] = cols[1] if len(cols) > 1 else ""
        elif current:
            device_of[line.split()[0]] = current
    return status, device_of


def raw_reads(text):
    """scmi-raw msg lines 'INDEX status S words W...' -> {index: (S, [W])}."""
    out = {}
    for line in text.splitlines():
        w = line.split()
        if len(w) >= 3 and w[1] == "status":
            out[int(w[0])] = (int(w[2]), [int(x) for x in w[4:]])
    return out


def raw_notes(text):
    """scmi-raw notes lines -> [(proto, id, [words])]."""
    out = []
    for line in text.splitlines():
        w = line.split()
        if w[:1] == ["note"]:
            out.append((int(w[1], 16), int(w[2], 16), [int(x) for x in w[3:]]))
    return out


# Lines of the kernel log that say something went wrong in the SCMI stack,
# the power domains or the OPPs built from them.
SUBSYSTEM = re.compile(r"scmi|SCMI|genpd|pm_domain|power.domain|simple-pm-bus|"
                       r"pd-\d|perf-\d|OPP|opp|virtio", re.I)
TROUBLE = re.compile(r"warn|error|fail|bug|unsupported|not supported|"
                     r"compatib|timed out|malformed|unexpected|invalid|"
                     r"mismatch|cannot|can't|unable|refus", re.I)
ALWAYS = re.compile(r"WARNING:|BUG:|Oops|Call Trace|Kernel panic")


def kernel_trouble(log, allowed=()):
    """The SCMI-related warnings and errors of the kernel log up to the
    power-off (after it, UML's virtio device goes before the SCMI drivers
    and the core fails to queue their last messages: not an answer of the
    platform), except those matching one of @allowed."""
    out = []
    for line in log.splitlines():
        if "sysrq: Power Off" in line or line.startswith("reboot:"):
            break
        if (ALWAYS.search(line) or
                (SUBSYSTEM.search(line) and TROUBLE.search(line))) and \
                not any(re.search(a, line) for a in allowed):
            out.append(line)
    return out


# ---- what domino shows ------------------------------------------------------

def replies_to(serve_log, agent=LINUX):
    """-v log: [(proto, msg, status, payload words)] of every reply
    scmi-serve sent @agent, and [(proto, msg, words)] of its commands."""
    replies, commands = [], []
    pat = re.compile(r"^agent (\d+) \S+ (<-|->) \S+ 0x([0-9a-f]+) msg 0x([0-9a-f]+) "
                     r"type \d+ token \d+(?: (\w+))? \(\d+ bytes\)(?::(.*))?$")
    for line in serve_log.splitlines():
        m = pat.match(line)
        if not m or int(m.group(1)) != agent:
            continue
        words = [int(x, 16) for x in (m.group(6) or "").split()
                 if x != "..."]
        key = (int(m.group(3), 16), int(m.group(4), 16))
        if m.group(2) == "->":
            replies.append(key + (m.group(5), words))
        else:
            commands.append(key + (words,))
    return replies, commands


def genpd_view(serve_log):
    """Replays Linux's power traffic with domino: ({i: the state Linux last
    set on power domain i}, {i: what its genpd believes i is}). Linux 6.12's
    scmi_pm_domain reads a domain back after each POWER_STATE_SET (its next
    POWER_STATE_GET of that domain) and, when the read differs, fails with
    -EIO and leaves its genpd as it was; its first read of a domain, at
    probe, is where its genpd starts. A domain Linux sets OFF while a child
    Linux holds, or another agent, keeps on reads ON: Linux's genpd stays on
    while domino has Linux's request as OFF (docs/decisions/
    linux-over-virtio.md). Only Linux's own traffic: call it before raw-mode
    commands set a state."""
    asked, believed, pending = {}, {}, {}
    for proto, msg, words, status, reply in exchanges(serve_log):
        if proto != POWER or status != "SUCCESS":
            continue
        if msg == 0x4 and len(words) >= 3:
            asked[words[1]] = pending[words[1]] = words[2]
        elif msg == 0x5 and words and reply:
            i, state = words[0], reply[0]
            if i not in believed:
                believed[i] = state
            elif i in pending and pending.pop(i) == state:
                believed[i] = state
    return asked, believed


def stale_note(stale, g):
    """The NOTE for domains Linux's genpd believes on and domino has off."""
    if not stale:
        return ""
    return ("; NOTE: Linux 6.12's genpd believes %s on, domino has %s off: "
            "Linux's OFF read back ON (a child or another agent held it) and "
            "failed with -EIO" % (", ".join(g.power[i] for i in stale),
                                  "it" if len(stale) == 1 else "them"))


def levels_of(host, j):
    """Domino's levels of performance domain @j (DESCRIBE_LEVELS, paged)."""
    levels = []
    while True:
        st, w = host.call(PERF, 0x4, j, len(levels))
        check(st == 0, "DESCRIBE_LEVELS %d: status %d" % (j, st))
        n = w[0] & 0xfff
        levels += [w[1 + 3 * k] for k in range(n)]
        if not n or not w[0] >> 16:
            return levels


def power_state(host, i):
    st, w = host.call(POWER, 0x5, i)
    check(st == 0, "POWER_STATE_GET %d: status %d" % (i, st))
    return w[0]


def level(host, j):
    st, w = host.call(PERF, 0x8, j)
    check(st == 0, "LEVEL_GET %d: status %d" % (j, st))
    return w[0]


# ---- a run --------------------------------------------------------------------

class Run:
    def __init__(self, args, agents, scenario=None, serve=None, skip=()):
        self.args = args
        self.dir = tempfile.mkdtemp(prefix="domino-linux-")
        serve_args = []
        if scenario:
            path = os.path.join(self.dir, "serve.scn")
            with open(path, "w") as f:
                f.write(scenario)
            serve_args = ["--scenario", path]
        self.g = lg.Guest(args.domino, args.board, args.kernel, self.dir,
                          agents, LINUX, serve=serve, serve_args=serve_args,
                          raw=args.raw)
        self.g.write_dtb(skip)
        self.g.start_serve()
        self.host = lg.Agent(self.g.socket_path(HOST)) \
            if HOST in self.g.others else None
        self.log_at = 0

    def boot(self, script, **kw):
        env = "NPOWER=%d NPERF=%d\n" % (len(self.g.power), len(self.g.perf))
        self.g.boot(env + script, **kw)

    def step(self, name, timeout=120):
        self.g.at(name, timeout)

    def go(self, name):
        self.g.go(name)

    def file(self, name):
        return self.g.read(name)

    def new_commands(self):
        """The commands Linux sent since the last call (-v log)."""
        _, commands = replies_to(self.g.read("serve.log"))
        new = commands[self.log_at:]
        self.log_at = len(commands)
        return new

    def finish(self, timeout=300):
        rc = self.g.finish(timeout)
        check(rc == 0, "the guest's script exited %s:\n%s" %
              (rc, self.g.read("guest.out")[-3000:]))

    def close(self, keep):
        if self.host:
            self.host.close()
        rc = self.g.stop()
        if keep:
            print("(kept: %s)" % self.dir)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)
        return rc

    def clean_log(self, allowed=(), lines=()):
        """Check 6: every reply to Linux SUCCESS (but those @allowed as
        (proto, msg, status)), and no SCMI trouble in the kernel log (but
        lines matching one of @lines)."""
        replies, _ = replies_to(self.g.read("serve.log"))
        check(replies, "scmi-serve's log holds no reply to Linux")
        bad = [r for r in replies if r[2] != "SUCCESS" and
               (r[0], r[1], r[2]) not in allowed]
        check(not bad, "domino answered Linux other than SUCCESS: %s" %
              bad[:5])
        trouble = kernel_trouble(self.g.read("kernel.log"), lines)
        check(not trouble, "SCMI warnings in the kernel log:\n" +
              "\n".join(trouble))
        kinds = {}
        for r in replies:
            kinds[(r[0], r[1])] = kinds.get((r[0], r[1]), 0) + 1
        return kinds


def agents_text(host_may_act, own_reads=False):
    return ("agent %d linux power all perf all%s\n"
            "agent %d host %s\n" % (LINUX, " reads own" if own_reads else "",
                                    HOST, "power all perf all"
                                    if host_may_act else ""))


# ---- probe (checks 1 and 6) ----------------------------------------------------

PROBE = """
settle_all
cat $SUMMARY >summary.txt
for f in /sys/kernel/debug/opp/*/opp:*/level; do echo "$f $(cat $f)"; done >opp.txt
i=0; while [ $i -lt $NPOWER ]; do echo "$i $($SCMI_RAW msg 0x11 5 $i)"; i=$((i+1)); done >power_reads.txt
j=0; while [ $j -lt $NPERF ]; do echo "$j $($SCMI_RAW msg 0x13 8 $j)"; j=$((j+1)); done >perf_reads.txt
step probe
"""


def opp_levels(text):
    """opp.txt -> {device: [levels ascending]}."""
    out = {}
    for line in text.splitlines():
        path, _, value = line.rpartition(" ")
        m = re.search(r"/opp/([^/]+)/opp:[^/]+/level$", path)
        if m and value.strip().isdigit():
            out.setdefault(m.group(1), []).append(int(value))
    return {d: sorted(v) for d, v in out.items()}


def ancestors(domino, board):
    """{power domain index: the indices of its ancestors} (the board's
    links, from `domino summary --json`)."""
    out = subprocess.run([domino, "summary", board, "--json"],
                         capture_output=True, text=True, check=True).stdout
    doms = json.loads(out)["domains"]
    index = {x["name"]: i for i, x in enumerate(doms)}
    up = {}

    def walk(i):
        if i not in up:
            up[i] = set()
            for p in doms[i]["parents"]:
                up[i] |= {index[p]} | walk(index[p])
        return up[i]
    for i in range(len(doms)):
        walk(i)
    return up


def probe(r):
    g = r.g
    up = ancestors(r.args.domino, r.args.board)
    # where the board stands before Linux does anything
    before = [power_state(r.host, i) for i in range(len(g.power))]
    r.boot(PROBE)
    r.step("probe")
    now = [power_state(r.host, i) for i in range(len(g.power))]
    status, device_of = genpd_summary(r.file("summary.txt"))
    # 1: a genpd per power domain, named as domino names it, and per
    # performance domain (scmi_perf_domain adds _N to the device name)
    check(len(status) == len(g.power) + len(g.perf),
          "%d genpds for %d power and %d performance domains:\n%s" %
          (len(status), len(g.power), len(g.perf), r.file("summary.txt")))
    asked, believed = genpd_view(g.read("serve.log"))
    for i, name in enumerate(g.power):
        genpd = device_of.get("pd-%d" % i)
        check(genpd == name[:63], "pd-%d is in genpd %r, domino names "
              "power domain %d %r" % (i, genpd, i, name))
        check(status[genpd] in ("on", "off-0"), "genpd %s: %s" %
              (genpd, status[genpd]))
        # Linux's genpd is what its exchanges with domino made it
        check((status[genpd] == "on") == (believed.get(i) == ON),
              "genpd %s %s, its exchanges with domino say %s" %
              (genpd, status[genpd], "on" if believed.get(i) == ON
               else "off"))
    linux_holds = {i for i, state in asked.items() if state == ON}
    for i in range(len(g.power)):
        # on in domino exactly where the board held it before Linux, or
        # Linux holds it or a domain below it
        want = ON if before[i] == ON or i in linux_holds or any(
            i in up[k] for k in linux_holds) else OFF
        check(now[i] == want, "power domain %d %s: domino %#x, Linux "
              "holds %s, %#x before Linux" % (i, g.power[i], now[i],
                                             sorted(linux_holds), before[i]))
    stale = [i for i in range(len(g.power))
             if believed.get(i) == ON and now[i] == OFF]
    opps = opp_levels(r.file("opp.txt"))
    for j, name in enumerate(g.perf):
        genpd = device_of.get("perf-%d" % j, "")
        check(re.fullmatch(re.escape(name[:63]) + r"_\d+", genpd),
              "perf-%d is in genpd %r, domino names performance domain %d "
              "%r" % (j, genpd, j, name))
        want = levels_of(r.host, j)
        got = [v for d, v in opps.items() if d.endswith("perf-%d" % j)]
        check(got and got[0] == want, "perf-%d's OPP levels %s, domino's "
              "levels %s" % (j, got, want))
    # Linux's reads equal domino's
    reads = raw_reads(r.file("power_reads.txt"))
    for i in range(len(g.power)):
        check(reads.get(i) == (0, [now[i]]), "Linux reads power domain %d "
              "as %s, domino %#x" % (i, reads.get(i), now[i]))
    reads = raw_reads(r.file("perf_reads.txt"))
    for j in range(len(g.perf)):
        want = level(r.host, j)
        check(reads.get(j) == (0, [want]), "Linux reads performance "
              "domain %d as %s, domino %d" % (j, reads.get(j), want))
    r.go("probe")
    r.finish()
    kinds = r.clean_log()
    print("probe: %d power and %d performance genpds named as domino names "
          "them, levels and state reads equal; %d replies to Linux, all "
          "SUCCESS: %s%s" % (len(g.power), len(g.perf), sum(kinds.values()),
                             " ".join("%#x/%#x:%d" % (k[0], k[1], v) for k, v
                                      in sorted(kinds.items())),
                             stale_note(stale, g)))


# ---- power (check 2) ---------------------------------------------------------------

POWER_SCRIPT = """
settle_all
cat $SUMMARY >summary.rest
step rest
i=0
while [ $i -lt $NPOWER ]; do
    echo on >$(pd $i)/power/control
    cat $(pd $i)/power/runtime_status >status.$i.on
    cat $SUMMARY >summary.$i.on
    step on.$i
    echo auto >$(pd $i)/power/control
    settle $(pd $i)
    cat $(pd $i)/power/runtime_status >status.$i.off
    cat $SUMMARY >summary.$i.off
    $SCMI_RAW msg 0x11 5 $i >read.$i.off
    step off.$i
    i=$((i+1))
done
k=$(cat held)
echo on >$(pd $k)/power/control
echo auto >$(pd $k)/power/control
settle $(pd $k)
cat $(pd $k)/power/runtime_status >status.held
cat $SUMMARY >summary.held
$SCMI_RAW msg 0x11 5 $k >read.held
step held
cat $SUMMARY >summary.released
$SCMI_RAW msg 0x11 5 $k >read.released
step released
echo on >$(pd $k)/power/control
cat $(pd $k)/power/runtime_status >status.resumed
$SCMI_RAW msg 0x11 5 $k >read.resumed
echo auto >$(pd $k)/power/control
settle $(pd $k)
step resumed
read c p <pair
if [ "$c" != none ]; then
    echo on >$(pd $c)/power/control
    echo on >$(pd $p)/power/control
    echo auto >$(pd $p)/power/control
    settle $(pd $p)
    cat $SUMMARY >summary.parent
    step parent
    echo auto >$(pd $c)/power/control
    settle $(pd $c)
    cat $SUMMARY >summary.child
    $SCMI_RAW msg 0x11 5 $p >read.parent
fi
step child
"""


def parent_pair(domino, board, before):
    """A domain and one of its parents, both off before Linux: (child,
    parent), or None on a board without such a pair."""
    up = ancestors(domino, board)
    for c in sorted(up):
        for p in sorted(up[c]):
            if before[c] == OFF and before[p] == OFF:
                return c, p
    return None


def stale_parent(r, pair):
    """Linux turns a parent off while it holds a child, then the child: the
    parent's OFF reads back ON and fails in Linux (-EIO), domino records it
    and switches the parent off with the child; Linux's genpd stays on."""
    if pair is None:
        r.step("child")
        return ""
    g, (c, p) = r.g, pair
    r.step("parent")
    _, believed = genpd_view(g.read("serve.log"))
    check(power_state(r.host, p) == ON and genpd_on(r, "summary.parent", p)
          and believed.get(p) == ON, "domain %d %#x in domino, genpd %s, "
          "exchanges say %s, while Linux holds its child %d" %
          (p, power_state(r.host, p), genpd_on(r, "summary.parent", p),
           believed.get(p), c))
    r.go("parent")
    r.step("child")
    asked, believed = genpd_view(g.read("serve.log"))
    check(power_state(r.host, p) == OFF and said(r, "read.parent", 0, OFF),
          "domain %d %#x in domino, Linux reads %r, once Linux let go of "
          "it and its child %d" % (p, power_state(r.host, p),
                                   r.file("read.parent"), c))
    check(asked.get(p) == OFF and believed.get(p) == ON and
          genpd_on(r, "summary.child", p), "Linux asked %s of domain %d, "
          "its genpd %s, its exchanges say %s" %
          (asked.get(p), p, genpd_on(r, "summary.child", p),
           believed.get(p)))
    return ("; NOTE: Linux 6.12's genpd %s stays on after Linux turned it "
            "off while holding its child %s, then the child (domino off)" %
            (g.power[p], g.power[c]))


def board_device(domino, board):
    """A device of the board on one domain, named once: (name, domain)."""
    out = subprocess.run([domino, "summary", board, "--json"],
                         capture_output=True, text=True, check=True).stdout
    domains = json.loads(out)["domains"]
    seen = {}
    for i, d in enumerate(domains):
        for dev in d["devices"]:
            seen.setdefault(dev["name"], []).append(i)
    for i, d in enumerate(domains):
        for dev in d["devices"]:
            if seen[dev["name"]] == [i] and not d["always_on"]:
                return dev["name"], i
    return None, None


def genpd_on(r, name, i):
    status, _ = genpd_summary(r.file(name))
    return status.get(r.g.power[i][:63]) == "on"


def power_rest(r, device, held_by_device):
    """Boots the power script to its first step: domino's states then, and
    the (child, parent) pair it will use (parent_pair), or None."""
    n = len(r.g.power)
    before = [power_state(r.host, i) for i in range(n)]
    pair = parent_pair(r.args.domino, r.args.board, before)
    with open(os.path.join(r.dir, "pair"), "w") as f:
        f.write("%d %d\n" % pair if pair else "none none\n")
    r.boot(POWER_SCRIPT)
    r.step("rest")
    rest = [power_state(r.host, i) for i in range(n)]
    # Linux probed every consumer (powering its domain on) and suspended
    # them all: it holds nothing, the board is as before Linux
    check(rest == before, "at rest after Linux's probe, domino's domains "
          "%s; before Linux %s" % (rest, before))
    if held_by_device is not None:
        check(rest[held_by_device] == ON, "the board device %s does not "
              "hold domain %d on" % (device, held_by_device))
    return rest, pair


def power(r, device, held_by_device):
    """Linux 6.12's scmi_pm_domain reads the state back after each
    POWER_STATE_SET and fails with -EIO when it differs: a domain someone
    else holds on stays on in Linux's genpd after Linux's OFF (which domino
    answers SUCCESS), so Linux's genpd agrees with domino there."""
    g = r.g
    n = len(g.power)
    rest, pair = power_rest(r, device, held_by_device)
    _, believed = genpd_view(g.read("serve.log"))
    for i in range(n):
        # Linux's genpd is what its exchanges with domino made it: on where
        # domino is on, and where Linux's OFF read back ON (stale)
        check(genpd_on(r, "summary.rest", i) == (believed.get(i) == ON),
              "at rest, Linux's genpd %s is %s, its exchanges with domino "
              "say %s" % (g.power[i], "on" if genpd_on(r, "summary.rest", i)
                          else "off", "on" if believed.get(i) == ON
                          else "off"))
        check(rest[i] == OFF or believed.get(i) == ON, "at rest, domino's "
              "domain %d on, Linux's genpd off" % i)
    stale = [i for i in range(n) if believed.get(i) == ON and rest[i] == OFF]
    r.new_commands()
    for i in range(n):
        for phase in ("on", "off"):
            r.go("rest" if (i, phase) == (0, "on") else prev)
            r.step("%s.%d" % (phase, i))
            prev = "%s.%d" % (phase, i)
            sets = [c for c in r.new_commands() if c[:2] == (POWER, 0x4)]
            status = r.file("status.%d.%s" % (i, phase)).strip()
            now = power_state(r.host, i)
            linux_on = genpd_on(r, "summary.%d.%s" % (i, phase), i)
            if phase == "on" and i in stale:
                # Linux's genpd believes the domain on: it sends nothing,
                # and its consumer runs on a domain domino has off
                check(status == "active" and linux_on and now == OFF and
                      not any(c[2][1] == i for c in sets),
                      "pd-%d %s, genpd %s, domino %#x, Linux sent %s, on a "
                      "domain its genpd believed on" % (i, status, linux_on,
                                                        now, sets))
            elif phase == "on":
                # Linux's get reached domino (a domain on at rest is on in
                # Linux's genpd already: nothing to send)
                check(status == "active", "pd-%d: runtime status %r after "
                      "on" % (i, status))
                check(rest[i] == ON or
                      any(c[2][1:3] == [i, ON] for c in sets),
                      "no POWER_STATE_SET %d ON from Linux in domino's log "
                      "(it sent %s)" % (i, sets))
                check(now == ON and linux_on, "domain %d %#x in domino, "
                      "genpd %s after Linux's ON" % (i, now, linux_on))
            else:
                # Linux's put reached domino; the domain is off, or as the
                # board holds it; Linux's genpd and reads say the same
                check(status == "suspended", "pd-%d: runtime status %r "
                      "after auto" % (i, status))
                check(any(c[2][1:3] == [i, OFF] for c in sets),
                      "no POWER_STATE_SET %d OFF from Linux in domino's log "
                      "(it sent %s)" % (i, sets))
                check(now == rest[i], "domain %d %#x after Linux's OFF, "
                      "%#x at rest" % (i, now, rest[i]))
                check(linux_on == (now == ON), "domain %d %#x in domino, "
                      "Linux's genpd %s" % (i, now, "on" if linux_on
                                            else "off"))
                check(r.file("read.%d.off" % i).split()[:4] ==
                      ["status", "0", "words", str(now)],
                      "Linux reads %r for domain %d, domino %#x" %
                      (r.file("read.%d.off" % i), i, now))
    # a domain agent 2 holds on stays on while Linux's request succeeds
    check(OFF in rest, "no power domain off at rest")
    k = max(i for i in range(n) if rest[i] == OFF)
    note, held_note = stale_note(stale, g), ""
    if stale:
        note += (" at rest; each one's consumer then resumed with no "
                 "POWER_STATE_SET ON sent")
    with open(os.path.join(r.dir, "held"), "w") as f:
        f.write("%d\n" % (k if k is not None else 0))
    if k is not None:
        check(r.host.call(POWER, 0x4, 0, k, ON)[0] == 0, "agent 2's ON")
    r.go(prev)
    r.step("held")
    sets = [c for c in r.new_commands() if c[:2] == (POWER, 0x4)]
    replies, _ = replies_to(g.read("serve.log"))
    if k is not None:
        check([0, k, ON] in [c[2][:3] for c in sets] and
              [0, k, OFF] in [c[2][:3] for c in sets],
              "Linux's ON and OFF of domain %d did not reach domino: %s" %
              (k, sets))
        check(r.file("status.held").strip() == "suspended",
              "pd-%d not suspended while agent 2 holds it" % k)
        check(power_state(r.host, k) == ON, "domain %d went off under "
              "agent 2" % k)
        check(r.file("read.held").split()[:4] == ["status", "0", "words",
                                                  str(ON)],
              "Linux reads domain %d as %r while agent 2 holds it" %
              (k, r.file("read.held")))
        check(genpd_on(r, "summary.held", k), "Linux's genpd %s off while "
              "domino keeps it on for agent 2" % g.power[k])
        check(r.host.call(POWER, 0x4, 0, k, OFF)[0] == 0, "agent 2's OFF")
        check(power_state(r.host, k) == OFF, "domain %d stays on after "
              "agent 2's OFF" % k)
    r.go("held")
    r.step("released")
    if k is not None:
        check(r.file("read.released").split()[:4] ==
              ["status", "0", "words", str(OFF)],
              "Linux reads %r once agent 2 let go" % r.file("read.released"))
        # Linux 6.12's genpd stays on: its OFF failed in Linux (-EIO from
        # the read-back) and it does not try again until a consumer
        # suspends; docs/decisions/linux-over-virtio.md
        if genpd_on(r, "summary.released", k):
            held_note = ("; NOTE: Linux 6.12's genpd %s stays on after "
                         "agent 2 lets go (domino off): its OFF read back "
                         "ON and failed with -EIO" % g.power[k])
    r.go("released")
    r.step("resumed")
    if k is not None and held_note:
        sets = [c for c in r.new_commands() if c[:2] == (POWER, 0x4)]
        if r.file("status.resumed").strip() == "active" and \
                [0, k, ON] not in [c[2][:3] for c in sets] and \
                said(r, "read.resumed", 0, OFF):
            held_note += ("; its consumer then resumed with no "
                          "POWER_STATE_SET ON sent, on a domain domino has "
                          "off")
    r.go("resumed")
    note += stale_parent(r, pair)
    r.go("child")
    r.finish()
    r.clean_log()
    print("power: %d domains switched on and off by Linux, each reaching "
          "domino; held on by %s%s: stays on while Linux's request "
          "succeeds" % (n, "board device %s (domain %d), " %
                        (device, held_by_device) if device else "",
                        "agent 2 (domain %d)" % k if k is not None else "")
          + held_note + note)


def power_own(r, device, held_by_device):
    """The power script again with Linux's agent on `reads own` (docs/
    scmi.md, Own reads): Linux reads back what it set, so its genpd is its
    own request at every step and a consumer that resumes always sends ON,
    whoever else held the domain (a child, agent 2, a board device)."""
    g = r.g
    n = len(g.power)

    def genpd_is_request(summary, where):
        asked, believed = genpd_view(g.read("serve.log"))
        for i in range(n):
            want = asked.get(i, OFF) == ON
            check(genpd_on(r, summary, i) == want and
                  (believed.get(i) == ON) == want,
                  "%s: Linux's genpd %s %s, its exchanges say %s, it asked "
                  "%s" % (where, g.power[i], genpd_on(r, summary, i),
                          believed.get(i), asked.get(i)))

    rest, pair = power_rest(r, device, held_by_device)
    genpd_is_request("summary.rest", "at rest")
    r.new_commands()
    for i in range(n):
        for phase, state in (("on", ON), ("off", OFF)):
            r.go("rest" if (i, phase) == (0, "on") else prev)
            prev = "%s.%d" % (phase, i)
            r.step(prev)
            sets = [c[2][1:3] for c in r.new_commands()
                    if c[:2] == (POWER, 0x4)]
            now = power_state(r.host, i)
            check([i, state] in sets, "no POWER_STATE_SET %d %#x from Linux "
                  "(it sent %s)" % (i, state, sets))
            check(now == (ON if phase == "on" else rest[i]),
                  "domain %d %#x in domino after Linux's %s, %#x at rest" %
                  (i, now, phase, rest[i]))
            genpd_is_request("summary.%d.%s" % (i, phase), prev)
            if phase == "off":
                check(said(r, "read.%d.off" % i, 0, OFF), "Linux reads %r "
                      "for domain %d after its OFF" %
                      (r.file("read.%d.off" % i), i))
    # agent 2 holds a domain on: Linux's ON and OFF read back as sent
    k = max(i for i in range(n) if rest[i] == OFF)
    with open(os.path.join(r.dir, "held"), "w") as f:
        f.write("%d\n" % k)
    check(r.host.call(POWER, 0x4, 0, k, ON)[0] == 0, "agent 2's ON")
    r.go(prev)
    r.step("held")
    check(power_state(r.host, k) == ON and said(r, "read.held", 0, OFF),
          "domain %d %#x under agent 2, Linux reads %r after its OFF" %
          (k, power_state(r.host, k), r.file("read.held")))
    genpd_is_request("summary.held", "held by agent 2")
    check(r.host.call(POWER, 0x4, 0, k, OFF)[0] == 0, "agent 2's OFF")
    check(power_state(r.host, k) == OFF, "domain %d on after agent 2's "
          "OFF" % k)
    r.go("held")
    r.step("released")
    genpd_is_request("summary.released", "released by agent 2")
    r.new_commands()
    r.go("released")
    r.step("resumed")
    sets = [c[2][1:3] for c in r.new_commands() if c[:2] == (POWER, 0x4)]
    check([k, ON] in sets and said(r, "read.resumed", 0, ON),
          "pd-%d resumed: Linux sent %s, read %r" %
          (k, sets, r.file("read.resumed")))
    # a parent Linux turns off while holding its child: off in its genpd,
    # on in domino until the child goes
    r.go("resumed")
    r.step("child" if pair is None else "parent")
    if pair is not None:
        c, p = pair
        check(power_state(r.host, p) == ON, "domain %d off while Linux "
              "holds its child %d" % (p, c))
        genpd_is_request("summary.parent", "parent off, child held")
        r.go("parent")
        r.step("child")
        check(power_state(r.host, p) == OFF and
              said(r, "read.parent", 0, OFF), "domain %d %#x, Linux reads "
              "%r, once Linux let go of it and its child" %
              (p, power_state(r.host, p), r.file("read.parent")))
        genpd_is_request("summary.child", "parent and child off")
    r.go("child")
    r.finish()
    r.clean_log()
    print("power-own: %d domains switched on and off by Linux with own "
          "reads; its genpd is its request at every step, held on by %s"
          "agent 2 (domain %d)%s" %
          (n, "board device %s (domain %d), " % (device, held_by_device)
           if device else "", k, ", parent %s while holding %s" %
           (g.power[pair[1]], g.power[pair[0]]) if pair else ""))


# ---- perf (check 3) -------------------------------------------------------------------

PERF_SCRIPT = """
j=$(cat domain); lo=$(cat lo); hi=$(cat hi)
$SCMI_RAW msg 0x13 7 $j $lo >set.lo
step set
$SCMI_RAW msg 0x13 8 $j >read.max
step host
$SCMI_RAW msg 0x13 8 $j >read.lo
$SCMI_RAW msg 0x13 7 $j 0 >set.zero
step done
"""


def perf_domain(r):
    """The first performance domain with two levels or more: (j, levels)."""
    for j in range(len(r.g.perf)):
        levels = levels_of(r.host, j)
        if len(levels) >= 3:
            return j, levels
    raise Fail("no performance domain of three levels or more")


def perf(r):
    j, levels = perf_domain(r)
    lo, hi = levels[len(levels) // 2], levels[-1]
    for name, v in (("domain", j), ("lo", lo), ("hi", hi)):
        with open(os.path.join(r.dir, name), "w") as f:
            f.write("%d\n" % v)
    check(r.host.call(PERF, 0xa, j, 1)[0] == 0, "agent 2's NOTIFY_LEVEL")
    r.boot(PERF_SCRIPT)
    r.step("set")
    check(r.file("set.lo").split()[:2] == ["status", "0"], "Linux's "
          "LEVEL_SET: %r" % r.file("set.lo"))
    sets = [c for c in r.new_commands() if c[:2] == (PERF, 0x7)]
    check([j, lo] in [c[2][:2] for c in sets], "no LEVEL_SET %d %d from "
          "Linux in domino's log" % (j, lo))
    check(level(r.host, j) == lo, "domain %d at %d after Linux's %d" %
          (j, level(r.host, j), lo))
    # the notification agent 2 got names Linux's agent as the cause
    notes = [n for n in r.host.notes if len(n) == 16 and
             (n[0] | n[1] << 8 | n[2] << 16) >> 10 & 0xff == PERF]
    words = [list(int.from_bytes(n[k:k + 4], "little") for k in (4, 8, 12))
             for n in notes]
    check([LINUX, j, lo] in words, "agent 2 got no LEVEL_CHANGED %d %d by "
          "agent 1: %s" % (j, lo, words))
    # the max over agents: agent 2 above Linux
    check(r.host.call(PERF, 0x7, j, hi)[0] == 0, "agent 2's LEVEL_SET")
    check(level(r.host, j) == hi, "domain %d at %d, not the max %d" %
          (j, level(r.host, j), hi))
    r.go("set")
    r.step("host")
    check(r.file("read.max").split()[:4] == ["status", "0", "words",
                                             str(hi)],
          "Linux reads %r, domain at %d" % (r.file("read.max"), hi))
    check(r.host.call(PERF, 0x7, j, 0)[0] == 0, "agent 2's withdrawal")
    r.go("host")
    r.step("done")
    check(r.file("read.lo").split()[:4] == ["status", "0", "words", str(lo)],
          "after agent 2 withdrew, Linux reads %r, its vote is %d" %
          (r.file("read.lo"), lo))
    check(level(r.host, j) == 0, "Linux withdrew, domain %d at %d" %
          (j, level(r.host, j)))
    r.go("done")
    r.finish()
    r.clean_log()
    print("perf: Linux's LEVEL_SET %d on performance domain %d is its vote "
          "(LEVEL_CHANGED names agent 1); with agent 2 at %d the domain "
          "runs at the max and Linux reads it" % (lo, j, hi))


# ---- perf through genpd (check 3, Linux's driver path) --------------------------

GENPD_SCRIPT = """
j=$(cat domain); lo=$(cat lo); hi=$(cat hi)
A=/sys/bus/platform/devices/vote-$j-a/perf_vote
B=/sys/bus/platform/devices/vote-$j-b/perf_vote
echo $lo >$A; step a
echo $hi >$B; step b
echo 0 >$B; step c
echo 0 >$A; cat $SUMMARY >summary.d; step d
"""


def perf_genpd(r):
    """Two Linux devices vote on one performance domain through genpd
    (dev_pm_genpd_set_performance_state): genpd's max reaches domino as
    Linux's LEVEL_SET, through scmi_perf_domain and perf.c."""
    j, levels = perf_domain(r)
    lo, hi = levels[1], levels[-1]
    for name, v in (("domain", j), ("lo", lo), ("hi", hi)):
        with open(os.path.join(r.dir, name), "w") as f:
            f.write("%d\n" % v)
    r.boot(GENPD_SCRIPT)
    r.new_commands()
    for step, want in (("a", lo), ("b", hi), ("c", lo), ("d", lo)):
        r.step(step)
        sets = [c[2][:2] for c in r.new_commands() if c[:2] == (PERF, 0x7)]
        if step == "d":
            # both votes 0: genpd's state 0, which scmi_perf_domain does
            # not send (its set_performance_state ignores 0): Linux's last
            # level stays its vote in domino
            check(sets == [], "Linux sent %s when its votes went to 0" %
                  sets)
        else:
            check(sets == [[j, want]], "genpd's max %d: Linux sent %s" %
                  (want, sets))
        check(level(r.host, j) == want, "step %s: domain %d at %d, genpd's "
              "max %d" % (step, j, level(r.host, j), want))
        r.go(step)
    r.finish()
    r.clean_log()
    print("perf-genpd: two devices' genpd votes on performance domain %d "
          "(%d, then %d beside it, then %d alone) reached domino as one "
          "LEVEL_SET each, genpd's max; both at 0 sent nothing and domino "
          "keeps Linux's %d" % (j, lo, hi, lo, lo))


# ---- agents (check 4) ---------------------------------------------------------------

AGENTS_SCRIPT = """
j=$(cat domain); lo=$(cat lo)
$SCMI_RAW msg 0x13 0xa $j 1 >notify
$SCMI_RAW msg 0x13 7 $j $lo >set.lo
$SCMI_RAW notes 2000 >notes.own
step linux
$SCMI_RAW notes 5000 >notes.up
$SCMI_RAW msg 0x13 8 $j >read.up
step up
$SCMI_RAW notes 5000 >notes.down
$SCMI_RAW msg 0x13 8 $j >read.down
$SCMI_RAW msg 0x13 7 $j 0 >set.zero
step done
"""


def agents(r):
    j, levels = perf_domain(r)
    lo, hi = levels[0], levels[-1]
    for name, v in (("domain", j), ("lo", lo)):
        with open(os.path.join(r.dir, name), "w") as f:
            f.write("%d\n" % v)
    r.boot(AGENTS_SCRIPT)
    r.step("linux")
    check(r.file("set.lo").split()[:2] == ["status", "0"], "Linux's "
          "LEVEL_SET: %r" % r.file("set.lo"))
    own = raw_notes(r.file("notes.own"))
    check((PERF, 1, [LINUX, j, lo]) in own, "Linux got no LEVEL_CHANGED "
          "of its own level: %s" % own)
    check(r.host.call(PERF, 0x7, j, hi)[0] == 0, "agent 2's LEVEL_SET")
    r.go("linux")
    r.step("up")
    up = raw_notes(r.file("notes.up"))
    check((PERF, 1, [HOST, j, hi]) in up, "Linux got no LEVEL_CHANGED "
          "to the aggregate %d by agent 2: %s" % (hi, up))
    check(r.file("read.up").split()[:4] == ["status", "0", "words", str(hi)],
          "Linux reads %r, the aggregate is %d" % (r.file("read.up"), hi))
    check(r.host.call(PERF, 0x7, j, 0)[0] == 0, "agent 2's withdrawal")
    r.go("up")
    r.step("done")
    down = raw_notes(r.file("notes.down"))
    check((PERF, 1, [HOST, j, lo]) in down, "Linux got no LEVEL_CHANGED "
          "back to its %d when agent 2 withdrew: %s" % (lo, down))
    check(r.file("read.down").split()[:4] == ["status", "0", "words",
                                              str(lo)],
          "Linux reads %r after agent 2 withdrew" % r.file("read.down"))
    r.go("done")
    r.finish()
    r.clean_log()
    print("agents: Linux at %d, agent 2 at %d on performance domain %d: "
          "Linux read and was notified %d (by agent 2), then %d" %
          (lo, hi, j, hi, lo))


# ---- fail (check 5) -------------------------------------------------------------------

FAIL_SCRIPT = """
d1=$(cat d1); d2=$(cat d2); s=$(cat s); j=$(cat domain); hi=$(cat hi)
settle_all
cat $SUMMARY >summary.txt
ls /sys/bus/platform/drivers/simple-pm-bus >bound.txt
$SCMI_RAW msg 0x11 5 $d1 >read.d1
$SCMI_RAW msg 0x11 5 $s >read.s
$SCMI_RAW msg 0x11 4 0 $d2 0 >set.d2.fail
$SCMI_RAW msg 0x11 5 $d2 >read.d2.fail
$SCMI_RAW msg 0x13 7 $j $hi >set.fail
$SCMI_RAW msg 0x13 8 $j >read.fail
step failed
$SCMI_RAW msg 0x11 4 0 $d2 0 >set.d2.again
$SCMI_RAW msg 0x13 7 $j $hi >set.again
step retried
$SCMI_RAW msg 0x11 4 0 $d2 0x40000000 >set.d2.off
echo on >$(pd $s)/power/control
echo auto >$(pd $s)/power/control
settle $(pd $s)
$SCMI_RAW msg 0x11 5 $s >read.s2
$SCMI_RAW msg 0x11 4 0 $s 0 >set.s.on
$SCMI_RAW msg 0x11 4 0 $s 0x40000000 >set.s.off
$SCMI_RAW msg 0x11 5 $s >read.s3
echo on >$(pd $s)/power/control
echo auto >$(pd $s)/power/control
settle $(pd $s)
cat $SUMMARY >summary.done
$SCMI_RAW msg 0x13 7 $j 0 >set.zero
step done
"""


def exchanges(serve_log, agent=LINUX):
    """The agent's commands with their replies: [(proto, msg, words,
    status, reply words)] (the server answers an agent's commands one after
    another)."""
    replies, commands = replies_to(serve_log, agent)
    return [(c[0], c[1], c[2], r[2], r[3]) for c, r in zip(commands, replies)]


def said(r, name, status, *words):
    """scmi-raw's output @name is STATUS [WORDS]."""
    want = ["status", str(status), "words"] + [str(w) for w in words]
    return r.file(name).split()[:len(want)] == want


def fail(r, d1, d2, s, j, hi):
    g = r.g
    r.boot(FAIL_SCRIPT)
    r.step("failed")
    ex = exchanges(g.read("serve.log"))
    sets = [(x[2][1:3], x[3]) for x in ex if x[:2] == (POWER, 0x4)]
    # d1: the power-on Linux's genpd made when pd-d1 probed failed; Linux
    # deferred the probe and tried again, which succeeded
    first = next((k for k, x in enumerate(sets) if x[0] == [d1, ON]), None)
    check(first is not None and sets[first][1] == "HARDWARE_ERROR",
          "Linux's first POWER_STATE_SET %d ON was not answered "
          "HARDWARE_ERROR: %s" % (d1, sets))
    check(any(x == ([d1, ON], "SUCCESS") for x in sets[first + 1:]),
          "Linux did not power %d on again after the failure" % d1)
    check("pd-%d" % d1 in r.file("bound.txt").split(), "pd-%d never "
          "bound after its failed power-on" % d1)
    check(power_state(r.host, d1) == OFF and said(r, "read.d1", 0, OFF) and
          not genpd_on(r, "summary.txt", d1), "domain %d: domino %#x, "
          "Linux reads %r" % (d1, power_state(r.host, d1),
                              r.file("read.d1")))
    # d2 (no consumer): Linux's own POWER_STATE_SET got HARDWARE_ERROR and
    # changed nothing
    check(said(r, "set.d2.fail", -9), "Linux's POWER_STATE_SET %d ON got "
          "%r, not HARDWARE_ERROR" % (d2, r.file("set.d2.fail")))
    check(said(r, "read.d2.fail", 0, OFF) and
          power_state(r.host, d2) == OFF, "domain %d after its failed "
          "power-on: Linux reads %r, domino %#x" %
          (d2, r.file("read.d2.fail"), power_state(r.host, d2)))
    # s: the power-off failed (safe direction): domino answered SUCCESS
    # and kept it on; Linux reads it on and its genpd stays on
    check(([s, OFF], "SUCCESS") in sets, "no POWER_STATE_SET %d OFF "
          "answered SUCCESS: %s" % (s, sets))
    check(power_state(r.host, s) == ON and said(r, "read.s", 0, ON) and
          genpd_on(r, "summary.txt", s), "domain %d after its failed "
          "power-off: domino %#x, Linux reads %r" %
          (s, power_state(r.host, s), r.file("read.s")))
    # j: the raise failed: HARDWARE_ERROR, the level unchanged everywhere
    check(said(r, "set.fail", -9), "Linux's LEVEL_SET got %r, not "
          "HARDWARE_ERROR" % r.file("set.fail"))
    check(said(r, "read.fail", 0, 0) and level(r.host, j) == 0,
          "after the failed raise Linux reads %r, domino %d" %
          (r.file("read.fail"), level(r.host, j)))
    r.go("failed")
    r.step("retried")
    check(said(r, "set.d2.again", 0) and power_state(r.host, d2) == ON,
          "Linux's second POWER_STATE_SET %d ON: %r, domino %#x" %
          (d2, r.file("set.d2.again"), power_state(r.host, d2)))
    check(said(r, "set.again", 0) and level(r.host, j) == hi,
          "Linux's second LEVEL_SET: %r, domino at %d" %
          (r.file("set.again"), level(r.host, j)))
    r.go("retried")
    r.step("done")
    check(power_state(r.host, d2) == OFF, "domain %d on after Linux's "
          "OFF" % d2)
    # Linux's genpd was on (its OFF read back ON); a consumer's next
    # suspend sends OFF again, which changes nothing for domino (Linux's
    # hold is gone): the domain stays on until its next change, a new ON
    # and OFF of Linux's (docs/semantics.md, Failures: the next change
    # retries); then Linux reads it off and its genpd follows
    check(said(r, "read.s2", 0, ON), "domain %d after a repeated OFF: "
          "Linux reads %r" % (s, r.file("read.s2")))
    check(said(r, "set.s.on", 0) and said(r, "set.s.off", 0) and
          said(r, "read.s3", 0, OFF), "Linux's ON and OFF of domain %d: "
          "%r %r, then reads %r" % (s, r.file("set.s.on"),
                                    r.file("set.s.off"), r.file("read.s3")))
    check(power_state(r.host, s) == OFF and
          not genpd_on(r, "summary.done", s), "domain %d at the end: "
          "domino %#x, Linux's genpd %s" % (s, power_state(r.host, s),
                                           genpd_on(r, "summary.done", s)))
    check(level(r.host, j) == 0, "domain %d at %d" % (j, level(r.host, j)))
    r.go("done")
    r.finish()
    # the failures' own answers, and no warning in the kernel log
    r.clean_log(allowed={(POWER, 0x4, "HARDWARE_ERROR"),
                         (PERF, 0x7, "HARDWARE_ERROR")})
    print("fail: power-on of %d at probe (Linux deferred and retried), "
          "power-on of %d and a raise of performance domain %d failed in "
          "domino and reached Linux as HARDWARE_ERROR, reads equal to "
          "domino's; the power-off of %d failed, domino kept it on and "
          "Linux read it on; the retries succeeded" % (d1, d2, j, s))


def fail_setup(domino, board):
    """What the fail scenario breaks: (d1, d2, s, j, the --scenario
    text): power domains d1 (its power-on at probe fails), d2 (no consumer
    in the guest: Linux's raw power-on fails) and s (its power-off fails),
    leaves off at rest, and performance domain j of three levels or more
    (its next raise), each a different board domain."""
    out = subprocess.run([domino, "summary", board, "--json"],
                         capture_output=True, text=True, check=True).stdout
    doms = json.loads(out)["domains"]
    perf_names = [x["name"] for x in doms if x["levels"]]
    j = next((k for k, x in enumerate(doms) if len(x["levels"]) >= 3), None)
    check(j is not None, "no performance domain of three levels or more")
    jname = doms[j]["name"]
    cands = [i for i, x in enumerate(doms) if x["status"] == "off" and
             not x["always_on"] and not x["children"] and
             x["name"] != jname]
    check(len(cands) >= 3, "fewer than three leaf domains off at rest")
    d1, d2, s = cands[-1], cands[-2], cands[-3]
    text = "fail %s on 1\nfail %s on 1\nfail %s off 1\nfail %s pstate 1\n" % (
        doms[d1]["name"], doms[d2]["name"], doms[s]["name"], jname)
    return d1, d2, s, perf_names.index(jname), text


# ---- roundtrip (the benchmark) ------------------------------------------------------

BENCH_SCRIPT = """
j=$(cat domain); l1=$(cat l1); l2=$(cat l2)
$SCMI_RAW alternate %d $j $l1 $l2 >bench.out
"""


def roundtrip(args, n, boots, keep):
    results = {"domino": [], "null": []}
    for b in range(boots):
        for kind in (("domino", "null") if b % 2 == 0 else ("null", "domino")):
            r = Run(args, agents_text(False),
                    serve=args.null_serve if kind == "null" else None)
            try:
                j, levels = perf_domain(r)
                for name, v in (("domain", j), ("l1", levels[0]),
                                ("l2", levels[-1])):
                    with open(os.path.join(r.dir, name), "w") as f:
                        f.write("%d\n" % v)
                r.boot(BENCH_SCRIPT % n)
                r.finish()
                out = r.file("bench.out").split()
                check(out[:1] == ["round_trip_ns"], "bench: %r" % out)
                results[kind].append((int(out[1]), int(out[3])))
                if kind == "domino":
                    check(level(r.host, j) in (levels[0], levels[-1]),
                          "the level sets did not reach domino")
            finally:
                r.close(keep)
    med = {k: sorted(v[0] for v in results[k])[len(results[k]) // 2]
           for k in results}
    low = {k: min(v[1] for v in results[k]) for k in results}
    print("linux_level_set_roundtrip_ns %d" % med["domino"])
    print("linux_level_set_roundtrip_ns_min %d" % low["domino"])
    print("linux_null_roundtrip_ns %d" % med["null"])
    print("linux_null_roundtrip_ns_min %d" % low["null"])
    print("linux_level_set_vs_null %.3f" % (med["domino"] / med["null"]))
    print("(PERFORMANCE_LEVEL_SET from Linux through virtio, %d messages a "
          "boot, %d boots each, alternating; the median of each boot's "
          "median of 32-message batches)" % (n, boots))


# ---- main ---------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--domino", required=True)
    p.add_argument("--null-serve", required=True)
    p.add_argument("--raw", required=True)
    p.add_argument("--kernel")
    p.add_argument("--keep", action="store_true",
                   help="keep each run's directory")
    p.add_argument("--messages", type=int, default=512)
    p.add_argument("--boots", type=int, default=3)
    p.add_argument("scenario", choices=["probe", "probe-longnames", "power",
                                        "power-own", "perf", "perf-genpd",
                                        "agents", "fail", "roundtrip"])
    p.add_argument("board")
    args = p.parse_args()
    for name in ("domino", "null_serve", "raw", "board"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    args.kernel = args.kernel or lg.kernel_path()
    if not args.kernel:
        skip("no current kernel in the cache: run scripts/linux.sh (it "
             "builds Debian's linux-source-6.12 into /var/tmp/domino-linux, "
             "or $DOMINO_LINUX_CACHE)")
    if not os.path.exists(args.board):
        skip("%s is absent (configure with -DDOMINO_BOARDS=DIR)" % args.board)
    for tool in ("dtc",):
        if not shutil.which(tool):
            skip("%s is not installed" % tool)
    keep = args.keep or bool(os.environ.get("DOMINO_KEEP"))
    if args.scenario == "roundtrip":
        roundtrip(args, args.messages, args.boots, keep)
        return 0
    tmp = None
    if args.scenario == "probe-longnames":
        tmp = tempfile.mkdtemp(prefix="domino-longnames-")
        args.board = long_names_board(args.board, tmp)
    scenario = None
    r = None
    try:
        if args.scenario.startswith("power"):
            device, held = board_device(args.domino, args.board)
            if device:
                scenario = "resume %s\n" % device
        if args.scenario == "fail":
            d1, d2, s, j, scenario = fail_setup(args.domino, args.board)
            r = Run(args, agents_text(True), scenario, skip={d2})
            hi = levels_of(r.host, j)[-1]
            for name, v in (("d1", d1), ("d2", d2), ("s", s), ("domain", j),
                            ("hi", hi)):
                with open(os.path.join(r.dir, name), "w") as f:
                    f.write("%d\n" % v)
            fail(r, d1, d2, s, j, hi)
        else:
            r = Run(args, agents_text(args.scenario != "probe" and
                                      args.scenario != "probe-longnames",
                                      args.scenario == "power-own"),
                    scenario)
            if args.scenario.startswith("probe"):
                probe(r)
            elif args.scenario == "power":
                power(r, device, held if device else None)
            elif args.scenario == "power-own":
                power_own(r, device, held if device else None)
            elif args.scenario == "perf":
                perf(r)
            elif args.scenario == "perf-genpd":
                perf_genpd(r)
            elif args.scenario == "agents":
                agents(r)
    except Fail as e:
        print("FAIL %s %s: %s" % (args.scenario, os.path.basename(args.board),
                                  e))
        if r:
            print("--- kernel log (tail):\n" + r.g.tail(40))
            r.close(True)
        return 1
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    rc = r.close(keep)
    if rc != 0:
        print("FAIL: scmi-serve exited %s" % rc)
        return 1
    return 0


def long_names_board(demo_dts, tmp):
    """The demo board with labels of 20 and 75 bytes: a power domain and a
    performance domain whose names Linux reads with DOMAIN_NAME_GET (the
    longer cut to 63)."""
    src = os.path.join(ROOT, "boards", "demo-soc.dts")
    with open(src) as f:
        text = f.read()
    text = re.sub(r"\bcluster_pd\b", "cluster_power_domain", text)
    text = re.sub(r"\bgfx_rail\b", "gfx_rail_the_gpu_rail_whose_label_is_"
                  "longer_than_sixty_three_bytes_cut", text)
    dts = os.path.join(tmp, "demo-longnames.dts")
    with open(dts, "w") as f:
        f.write(text)
    dtb = os.path.join(tmp, "demo-longnames.dtb")
    subprocess.run(["dtc", "-q", "-@", "-I", "dts", "-O", "dtb", "-o", dtb,
                    dts], check=True)
    return dtb


if __name__ == "__main__":
    sys.exit(main())
