#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Boot Linux 6.12 against `domino scmi-serve`: a real kernel's SCMI stack
(arm_scmi core, virtio transport, scmi_pm_domain, scmi_perf_domain) as one
agent of a served board.

usage: scripts/linux-guest.py BOARD.dtb [options]

Serves BOARD.dtb with `domino scmi-serve`, Linux's agent over vhost-user,
generates the guest's device tree from the served numbering, boots the
User-Mode-Linux kernel of scripts/linux.sh with its root on the host's /,
and runs a script in the guest as init; then stops both. By default the
script switches every power domain on and off from userspace (runtime PM
of one consumer device per domain) and prints what Linux believes
(genpd's pm_genpd_summary) and what domino did (its -v log).

  --domino PATH   the domino command (default: build/cli/domino)
  --kernel PATH   the kernel (default: scripts/linux.sh's cache)
  --agents FILE   the agents file (default: agent 1 linux, every domain,
                  reads own: Linux reads a power domain back after setting
                  it, docs/scmi.md, Own reads)
  --agent ID      the agent Linux is (default: the first of the file)
  --script FILE   a shell script the guest runs instead of the default
  --dir DIR       keep everything here (default: a temporary directory,
                  removed afterwards): guest.dts, guest.dtb, serve.log,
                  kernel.log, guest.out
  --dts           print the guest's device tree and exit
  --timeout S     give up after S seconds (default 120)

The guest's device tree: /firmware/scmi (compatible "arm,scmi-virtio")
with protocol@11 and protocol@13 as power-domain providers, a
"simple-pm-bus" consumer pd-I for each power domain I (power-domains =
<&scmi_pd I>) and perf-J for each performance domain J (<&scmi_perf J>),
and vote-J-a, vote-J-b ("domino,perf-vote": writing N to their perf_vote
attribute is dev_pm_genpd_set_performance_state(dev, N)).
Linux's kernel log is the kernel's console; the guest's script sees
$GUEST_DIR (the directory above, on the host's file system) and $SCMI_RAW
(tests' raw-mode client, when built).
"""
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel_path():
    """The kernel scripts/linux.sh builds, or None when it is not built
    and current."""
    out = subprocess.run([os.path.join(ROOT, "scripts", "linux.sh"),
                          "--path"], capture_output=True, text=True)
    path = out.stdout.strip()
    return path if out.returncode == 0 and os.access(path, os.X_OK) else None


def listing(domino, board, agents):
    """`scmi-serve --list`: ([power names], [perf names])."""
    out = subprocess.run([domino, "scmi-serve", board, "--agents", agents,
                          "--list"], capture_output=True, text=True,
                         check=True).stdout
    power, perf = [], []
    for line in out.splitlines():
        words = line.split(" ", 2)
        if words[0] in ("power", "perf"):
            (power if words[0] == "power" else perf).append(words[2])
    return power, perf


def guest_dts(power, perf, title, skip=()):
    """The guest's device tree source for a board of @power and @perf
    domain names (the served numbering); power domains in @skip get no
    consumer. A protocol without domains is left out: Linux 6.12 warns
    ("Protocol:13 - Events Registration Failed - err:-22") when it sets
    up Performance with no domain to register events for."""
    def comment(s):
        return s.replace("*/", "* /")
    lines = ["/dts-v1/;", "", "/ {",
             '\tmodel = "domino guest: %s";' % comment(title).replace('"', "'"),
             '\tcompatible = "domino,uml-guest";',
             "\t#address-cells = <1>;", "\t#size-cells = <1>;", "",
             "\tfirmware {", "\t\tscmi {",
             '\t\t\tcompatible = "arm,scmi-virtio";',
             "\t\t\t#address-cells = <1>;", "\t\t\t#size-cells = <0>;", "",
             ]
    for label, reg, names in (("scmi_pd", 0x11, power),
                              ("scmi_perf", 0x13, perf)):
        if names:
            lines += ["\t\t\t%s: protocol@%x {" % (label, reg),
                      "\t\t\t\treg = <0x%x>;" % reg,
                      "\t\t\t\t#power-domain-cells = <1>;", "\t\t\t};"]
    lines += ["\t\t};", "\t};"]
    for kind, names, ref in (("pd", power, "scmi_pd"),
                             ("perf", perf, "scmi_perf")):
        for i, name in enumerate(names):
            if kind == "pd" and i in skip:
                continue
            lines += ["", "\t/* %s */" % comment(name),
                      "\t%s-%d {" % (kind, i),
                      '\t\tcompatible = "simple-pm-bus";',
                      "\t\tpower-domains = <&%s %d>;" % (ref, i), "\t};"]
    # two devices voting a level through genpd (tests/linux/kernel's
    # domino_perf_vote.c): genpd's max goes out as LEVEL_SET
    for j in range(len(perf)):
        for who in "ab":
            lines += ["", "\tvote-%d-%s {" % (j, who),
                      '\t\tcompatible = "domino,perf-vote";',
                      "\t\tpower-domains = <&scmi_perf %d>;" % j, "\t};"]
    lines += ["};", ""]
    return "\n".join(lines)


# The init the guest runs: mounts, then the script, then power off.
INIT = """#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export GUEST_DIR=%(dir)s SCMI_RAW=%(raw)s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
cd "$GUEST_DIR"
sh "$GUEST_DIR/guest.sh" >"$GUEST_DIR/guest.out" 2>&1
echo $? >"$GUEST_DIR/guest.rc"
echo o >/proc/sysrq-trigger
"""

# What every guest script starts with.
PRELUDE = """# step NAME: tell the host we are at NAME, wait until it says go
step() { : >"$GUEST_DIR/at.$1"; while [ ! -e "$GUEST_DIR/go.$1" ]; do sleep 0.01; done; }
pd() { echo /sys/bus/platform/devices/pd-$1; }
# suspended_by DEV TICKS: wait until runtime PM has suspended DEV, while
# the tick count n (10 ms each, shared by the caller's waits) is below TICKS
suspended_by() {
    while [ "$(cat $1/power/runtime_status)" != suspended ] && [ $n -lt $2 ]; do
        sleep 0.01; n=$((n+1))
    done
}
# settle DEV: wait (5 s at most) until runtime PM has suspended DEV: writing
# auto to power/control only queues the suspend
settle() {
    n=0
    suspended_by $1 500
}
# settle_all: wait (10 s at most) until no probe is deferred, every bound
# pd-N device is runtime-suspended and genpd's summary reads the same three
# times 20 ms apart. At init a consumer's suspend after its probe may still
# be queued (the driver core asks for it asynchronously), and so may the
# power-offs of genpd's boot sweep of unused domains (on the PM workqueue,
# after every consumer reads suspended): a snapshot taken then sees a
# domain on that is about to go off.
settle_all() {
    n=0
    while [ -s /sys/kernel/debug/devices_deferred ] && [ $n -lt 1000 ]; do
        sleep 0.01; n=$((n+1))
    done
    for d in /sys/bus/platform/devices/pd-*; do
        [ -e $d/driver ] && suspended_by $d 1000
    done
    sum_was=$(cat $SUMMARY); same=0
    while [ $same -lt 3 ] && [ $n -lt 1000 ]; do
        sleep 0.02; n=$((n+2))
        sum_now=$(cat $SUMMARY)
        if [ "$sum_now" = "$sum_was" ]; then same=$((same+1)); else same=0; sum_was=$sum_now; fi
    done
}
perf() { echo /sys/bus/platform/devices/perf-$1; }
SUMMARY=/sys/kernel/debug/pm_genpd/pm_genpd_summary
"""

DEMO = """echo "== Linux $(uname -r) sees (pm_genpd_summary):"
cat $SUMMARY
for d in /sys/bus/platform/devices/pd-*; do
    echo on >$d/power/control
    echo "$(basename $d) on: $(cat $d/power/runtime_status)"
    echo auto >$d/power/control
    settle $d
done
echo "== after switching every domain on and off:"
cat $SUMMARY
"""


class Guest:
    """A served board and a Linux guest on it, in @dir."""

    def __init__(self, domino, board, kernel, dir, agents=None,
                 linux_agent=None, serve=None, serve_args=(), raw=None):
        self.domino, self.board, self.kernel, self.dir = \
            domino, board, kernel, dir
        self.serve_cmd = serve or domino
        self.serve_args = list(serve_args)
        self.raw = raw or ""
        self.agents = os.path.join(dir, "agents.txt")
        if agents is None:
            agents = "agent 1 linux power all perf all reads own\n"
        with open(self.agents, "w") as f:
            f.write(agents)
        ids = [int(l.split()[1]) for l in agents.splitlines()
               if l.split()[:1] == ["agent"]]
        self.linux_agent = linux_agent or ids[0]
        self.others = [i for i in ids if i != self.linux_agent]
        self.power, self.perf = listing(domino, board, self.agents)
        self.vhost = os.path.join(dir, "vhost.sock")
        self.serve = self.uml = None

    def socket_path(self, agent):
        return os.path.join(self.dir, "agent%d.sock" % agent)

    def write_dtb(self, skip=()):
        dts = os.path.join(self.dir, "guest.dts")
        with open(dts, "w") as f:
            f.write(guest_dts(self.power, self.perf,
                              os.path.basename(self.board), skip))
        self.dtb = os.path.join(self.dir, "guest.dtb")
        subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o",
                        self.dtb, dts], check=True)

    def start_serve(self, timeout=30):
        """Serve the board: Linux's agent on vhost-user, the others on
        sockets in the directory; wait until every socket is there."""
        self.serve_log = open(os.path.join(self.dir, "serve.log"), "w")
        self.serve = subprocess.Popen(
            [self.serve_cmd, "scmi-serve", self.board, "--agents",
             self.agents, "--socket-dir", self.dir, "--vhost-user",
             "%d=%s" % (self.linux_agent, self.vhost), "-v"] +
            self.serve_args, stdout=self.serve_log, stderr=subprocess.STDOUT)
        paths = [self.vhost] + [self.socket_path(i) for i in self.others]
        end = time.monotonic() + timeout
        while not all(os.path.exists(p) for p in paths):
            if self.serve.poll() is not None:
                raise RuntimeError("scmi-serve exited %d: %s" % (
                    self.serve.returncode, self.read("serve.log")))
            if time.monotonic() > end:
                raise RuntimeError("scmi-serve's sockets did not appear")
            time.sleep(0.01)

    def boot(self, script, kunit=False, mem="128M"):
        """Start the kernel with @script (shell text) as the guest's
        work; returns at once (wait with finish())."""
        with open(os.path.join(self.dir, "guest.sh"), "w") as f:
            f.write(PRELUDE + script)
        init = os.path.join(self.dir, "init.sh")
        with open(init, "w") as f:
            f.write(INIT % {"dir": self.dir, "raw": self.raw})
        os.chmod(init, 0o755)
        args = [self.kernel, "mem=" + mem, "rw", "rootfstype=hostfs",
                "rootflags=/", "init=" + init, "dtb=" + self.dtb,
                "virtio_uml.device=%s:32" % self.vhost]
        if kunit:
            args += ["kunit.enable=1"]
        self.kernel_log = open(os.path.join(self.dir, "kernel.log"), "w")
        # its own session: UML's helper processes go with it on a kill
        self.uml = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                    stdout=self.kernel_log,
                                    stderr=subprocess.STDOUT,
                                    start_new_session=True, cwd=self.dir)

    def at(self, name, timeout=60):
        """Wait until the guest reached step @name."""
        path = os.path.join(self.dir, "at." + name)
        end = time.monotonic() + timeout
        while not os.path.exists(path):
            if self.uml.poll() is not None:
                raise RuntimeError("the guest stopped before step %s:\n%s" %
                                   (name, self.tail()))
            if time.monotonic() > end:
                raise RuntimeError("the guest did not reach step %s:\n%s" %
                                   (name, self.tail()))
            time.sleep(0.005)

    def go(self, name):
        open(os.path.join(self.dir, "go." + name), "w").close()

    def finish(self, timeout=120):
        """Wait for the guest to power off; returns its script's exit
        status (None if it did not get that far)."""
        try:
            self.uml.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.uml.pid, signal.SIGKILL)
            self.uml.wait()
            raise RuntimeError("the guest did not power off in %d s:\n%s" %
                               (timeout, self.tail()))
        finally:
            self.kernel_log.close()
        rc = self.read("guest.rc").strip()
        return int(rc) if rc else None

    def stop(self):
        """Stop the kernel (if still running) and the server; returns the
        server's exit status."""
        if self.uml and self.uml.poll() is None:
            try:
                os.killpg(self.uml.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.uml.wait()
        if not self.serve:
            return None
        if self.serve.poll() is None:
            self.serve.send_signal(signal.SIGTERM)
            try:
                self.serve.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.serve.kill()
                self.serve.wait()
        self.serve_log.close()
        return self.serve.returncode

    def read(self, name):
        try:
            with open(os.path.join(self.dir, name), errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def tail(self, n=30):
        return "\n".join(self.read("kernel.log").splitlines()[-n:])


class Agent:
    """An SCMI agent on a socket of scmi-serve (docs/scmi.md, framing)."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.token = 0
        self.buf = b""
        self.notes = []

    def _frame(self, timeout):
        end = time.monotonic() + timeout
        while True:
            if len(self.buf) >= 4:
                n = struct.unpack_from("<I", self.buf)[0]
                if len(self.buf) >= 4 + n:
                    body, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                    return body
            left = end - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not chunk:
                raise RuntimeError("scmi-serve closed the connection")
            self.buf += chunk

    def call(self, proto, msg, *words):
        """One command; returns (status, [reply words])."""
        self.token = (self.token + 1) & 0x3ff
        h = (msg & 0xff) | (proto & 0xff) << 10 | self.token << 18
        body = struct.pack("<I", h) + b"".join(struct.pack("<I", w)
                                               for w in words)
        self.sock.sendall(struct.pack("<I", len(body)) + body)
        while True:
            rep = self._frame(10)
            if rep is None:
                raise RuntimeError("no reply to %#x/%#x" % (proto, msg))
            rh = struct.unpack_from("<I", rep)[0]
            if rh >> 8 & 3 == 0 and rh == h:
                status = struct.unpack_from("<i", rep, 4)[0]
                n = (len(rep) - 8) // 4
                return status, list(struct.unpack_from("<%dI" % n, rep, 8))
            self.notes.append(rep)

    def close(self):
        self.sock.close()


def main():
    import argparse
    p = argparse.ArgumentParser(
        description="Boot Linux against domino scmi-serve (see the top of "
        "this file).")
    p.add_argument("board")
    p.add_argument("--domino", default=os.path.join(ROOT, "build", "cli",
                                                    "domino"))
    p.add_argument("--kernel")
    p.add_argument("--agents")
    p.add_argument("--agent", type=int)
    p.add_argument("--script")
    p.add_argument("--dir")
    p.add_argument("--raw", default=os.path.join(ROOT, "build", "tests",
                                                 "linux", "scmi-raw"))
    p.add_argument("--dts", action="store_true")
    p.add_argument("--timeout", type=int, default=120)
    a = p.parse_args()
    agents = open(a.agents).read() if a.agents else None
    if a.dts:
        with tempfile.TemporaryDirectory() as d:
            g = Guest(a.domino, a.board, None, d, agents, a.agent)
            sys.stdout.write(guest_dts(g.power, g.perf,
                                       os.path.basename(a.board)))
        return 0
    kernel = a.kernel or kernel_path()
    if not kernel:
        sys.stderr.write("linux-guest: no kernel: run scripts/linux.sh "
                         "first (or give --kernel)\n")
        return 2
    dir = a.dir or tempfile.mkdtemp(prefix="domino-guest-")
    os.makedirs(dir, exist_ok=True)
    g = Guest(a.domino, a.board, kernel, os.path.abspath(dir), agents,
              a.agent, raw=a.raw if os.path.exists(a.raw) else None)
    rc = 1
    try:
        g.write_dtb()
        g.start_serve()
        g.boot(open(a.script).read() if a.script else DEMO)
        rc = g.finish(a.timeout)
    finally:
        g.stop()
        sys.stdout.write(g.read("guest.out"))
        log = [l for l in g.read("serve.log").splitlines()
               if " power 0x11 msg 0x04 " in l]
        print("== domino saw %d POWER_STATE_SET from Linux; the last ones:" %
              sum(1 for l in log if " <- " in l))
        print("\n".join(log[-6:]))
        print("(kernel log, guest output, server log: %s)" % dir
              if a.dir else "")
        if not a.dir:
            shutil.rmtree(dir, ignore_errors=True)
    return 0 if rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
