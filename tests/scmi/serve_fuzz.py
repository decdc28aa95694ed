#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`domino scmi-serve` end to end with random frames (docs/scmi.md,
Transport and framing).

A third-party-style client: it speaks only the wire contract of
docs/scmi.md (a 32-bit little-endian length, then the SCMI message) on the
agent sockets of a served board, and sends random frames: well-formed
commands of every protocol, unknown protocols and message ids, other
message types, wrong payload sizes, frames shorter than a header, frames
longer than --max-msg, frames cut into pieces and several frames in one
write, clients that disconnect in the middle of a length or of a body,
connections opened and closed. Bad input gets the SCMI status the spec
names and never a crash; the connection stays up (docs/scmi.md, Status
codes).

Checked: one reply per frame, in order, with the command's header (type
0; a zero header for a frame shorter than one), never longer than
--max-msg; PROTOCOL_ERROR for short, oversized and non-command frames,
NOT_SUPPORTED for an unknown protocol, NOT_FOUND for an unknown message;
notifications (type 3) well formed, and on every connection of an agent
that asked a POWER_STATE_GET or LEVEL_GET reads what the notifications
since the last read said; each accepted asynchronous
POWER_STATE_SET gets one delayed response on its own connection, with its
token, domain and state (and never BUSY: the server completes each before
reading on); the server
alive and answering after everything; SIGTERM exits 0 and removes the
sockets.

usage: serve_fuzz.py DOMINO BOARD.dtb AGENTS.txt
Seeds 1..DOMINO_RUNS (default 3), or DOMINO_SEED=N; DOMINO_OPS=N frames
per run (default 1500).
"""
import os
import random
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

PROTOCOL_ERROR, NOT_FOUND, NOT_SUPPORTED = -10, -4, -1
COUNT = {"delayed": 0, "notifications": 0, "reads": 0}
STATUSES = {0, -1, -2, -3, -4, -5, -6, -8, -9, -10}
# Version 2.0's messages (ids 0..N-1) and their payload sizes; the newer
# versions (Base 2.1, Power and Performance 3.0) add NEGOTIATE_PROTOCOL_VERSION
# 0x10 to each and DOMAIN_NAME_GET (Power 0x8, Performance 0xC, only when
# --max-msg fits its 76-byte reply). An agent capped to 2.0 in the agents
# file, or that negotiated 2.0, has 2.0's alone.
N_IDS = {0x10: 8, 0x11: 7, 0x13: 12}
PAYLOAD = {0x10: [0, 0, 4, 0, 0, 0, 4, 4],
           0x11: [0, 0, 4, 4, 12, 4, 8],
           0x13: [0, 0, 4, 4, 8, 12, 4, 8, 4, 8, 8, 8]}
NEWER = {0x10: {0x10: 4}, 0x11: {0x8: 4, 0x10: 4}, 0x13: {0xC: 4, 0x10: 4}}
NAME_GET = {(0x11, 0x8), (0x13, 0xC)}
SERVED = {0x10: 0x20001, 0x11: 0x30000, 0x13: 0x30000}


def payload_of(proto, msg, newer, max_msg):
    """The payload size of message @msg, or None if the agent lacks it."""
    if proto not in PAYLOAD:
        return None
    if msg < N_IDS[proto]:
        return PAYLOAD[proto][msg]
    if not newer or msg not in NEWER[proto]:
        return None
    if (proto, msg) in NAME_GET and max_msg < 76:
        return None
    return NEWER[proto][msg]


class Fail(Exception):
    pass


def header(proto, msg, typ, token):
    return (msg & 0xff) | (typ & 3) << 8 | (proto & 0xff) << 10 | \
        (token & 0x3ff) << 18


class Conn:
    def __init__(self, path, agent, newer):
        self.path, self.agent = path, agent
        # per protocol: whether the agent speaks the newer version
        self.newer = dict(newer)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = b""
        # accepted asynchronous POWER_STATE_SETs: (token, domain, state)
        self.delayed = []
        # what the notifications this connection read say, per
        # ("power" | "level", domain), once a GET has said where it was
        self.known = {}

    def close(self):
        self.sock.close()

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self, timeout):
        r, _, _ = select.select([self.sock], [], [], timeout)
        if not r:
            return False
        chunk = self.sock.recv(65536)
        if not chunk:
            raise Fail("agent %d: the server closed the connection"
                       % self.agent)
        self.buf += chunk
        return True

    def frame(self, timeout=10.0):
        """The next frame's body, or None if none came in @timeout."""
        end = time.monotonic() + timeout
        while True:
            if len(self.buf) >= 4:
                n = struct.unpack_from("<I", self.buf)[0]
                if len(self.buf) >= 4 + n:
                    body = self.buf[4:4 + n]
                    self.buf = self.buf[4 + n:]
                    return body
            left = end - time.monotonic()
            if left <= 0 or not self._fill(left):
                return None

    def reply(self, max_msg):
        """Skip delayed responses and notifications; the next reply."""
        while True:
            body = self.frame()
            if body is None:
                raise Fail("agent %d: no reply" % self.agent)
            if len(body) > max_msg:
                raise Fail("a message of %d bytes, --max-msg %d"
                           % (len(body), max_msg))
            if len(body) < 8:
                raise Fail("a message of %d bytes" % len(body))
            h = struct.unpack_from("<I", body)[0]
            typ = h >> 8 & 3
            if typ == 0:
                return body
            self.platform_message(h, body)

    def platform_message(self, h, body):
        check_async(h, body)
        if h >> 8 & 3 == 3 and (h >> 10 & 0xff, h & 0xff) != (0x13, 0):
            kind = "power" if h >> 10 & 0xff == 0x11 else "level"
            _, _, dom, value = struct.unpack_from("<IIII", body)
            if (kind, dom) in self.known:
                self.known[(kind, dom)] = value
        if h >> 8 & 3 != 2:
            return
        # the delayed response of the oldest accepted request, same token
        if not self.delayed:
            raise Fail("a delayed response nobody waits for: %s" % body.hex())
        token, dom, state = self.delayed.pop(0)
        COUNT["delayed"] += 1
        _, status, d, st = struct.unpack("<IiII", body)
        if h >> 18 & 0x3ff != token or (d, st) != (dom, state) or \
                status not in STATUSES:
            raise Fail("delayed response %s for token %d domain %d "
                       "state %#x" % (body.hex(), token, dom, state))

    def drain(self):
        while True:
            body = self.frame(0.2 if self.delayed else 0)
            if body is None:
                break
            self.platform_message(struct.unpack_from("<I", body)[0], body)
        if self.delayed:
            raise Fail("agent %d: no delayed response for token %d"
                       % (self.agent, self.delayed[0][0]))


def check_async(h, body):
    typ, proto, msg = h >> 8 & 3, h >> 10 & 0xff, h & 0xff
    if typ == 2:  # delayed response of POWER_STATE_SET: status, dom, state
        if (proto, msg, len(body)) != (0x11, 4, 16):
            raise Fail("bad delayed response %s" % body.hex())
    elif typ == 3:
        want = {(0x11, 0): 16, (0x13, 0): 20, (0x13, 1): 16}
        if want.get((proto, msg)) != len(body) or h >> 18:
            raise Fail("bad notification %s" % body.hex())
        COUNT["notifications"] += 1
    else:
        raise Fail("a message of type %d from the platform" % typ)


def random_command(rng, n_power, n_perf, c, max_msg, negotiate=False):
    """(bytes, expected status or None) of one well-formed-ish command
    from connection @c's agent (its versions: c.newer[proto]); with
    @negotiate, NEGOTIATE_PROTOCOL_VERSION may be among them."""
    proto = rng.choice([0x10, 0x11, 0x13])
    if rng.random() < 0.05:
        proto = rng.choice([0x12, 0x14, 0x15, 0x00, 0xff, rng.randrange(256)])
    ids = N_IDS.get(proto, 1)
    msg = rng.randrange(ids + 2) if rng.random() < 0.1 else rng.randrange(ids)
    if rng.random() < 0.05 and proto in NEWER:
        msg = rng.choice(sorted(NEWER[proto]) + [0xd, 0x11, 0x9])
    if msg == 0x10 and not negotiate:
        msg = 0
    if rng.random() < 0.5:  # the messages that change, subscribe or read
        proto, msg = rng.choice([(0x11, 4), (0x11, 4), (0x13, 7), (0x13, 7),
                                 (0x13, 5), (0x11, 6), (0x13, 10), (0x13, 9),
                                 (0x11, 5), (0x13, 8)])
    newer = c.newer.get(proto, False)
    size = payload_of(proto, msg, newer, max_msg)
    absent = size is None
    typ = rng.choice([1, 2, 3]) if rng.random() < 0.05 else 0
    token = rng.randrange(1024)
    h = header(proto, msg, typ, token)
    if rng.random() < 0.05:
        h |= rng.randrange(16) << 28
    n_dom = n_perf if proto == 0x13 else n_power
    def dom():  # a few domains often, so that changes meet readers
        r = rng.random()
        return rng.randrange(min(n_dom, 3) or 1) if r < 0.6 \
            else rng.randrange(n_dom + 2) if r < 0.95 \
            else rng.randrange(1 << 32)

    def level():
        return rng.choice([0, 16, 48, 64, 128, 256, 384, 416,
                           rng.randrange(1000), rng.randrange(1 << 32)])

    def flag():
        return rng.choice([0, 1, 1, 2]) if rng.random() < 0.95 \
            else rng.randrange(1 << 32)
    if proto == 0x11 and msg == 4:
        words = [flag(), dom(),
                 rng.choice([0, 0x40000000, 0x40000000, 5])]
    elif msg in (3, 5) or (proto == 0x13 and msg in (6, 8)) or \
            (proto, msg) in NAME_GET:
        words = [dom()]
    elif msg == 0x10:
        words = [rng.choice([SERVED[proto], 0x20000, 0x20000, 0x10000,
                             0x30001, 0x40000, rng.randrange(1 << 32)])
                 if proto in SERVED else 0]
    elif (proto, msg) in ((0x11, 6), (0x13, 9), (0x13, 10)):
        words = [dom(), flag()]
    elif proto == 0x13 and msg == 4:
        words = [dom(), rng.choice([0, 1, 5, 9, 11, 20])]
    elif proto == 0x13 and msg == 5:
        lo, hi = sorted([level(), level()])
        words = [dom(), hi, lo] if rng.random() < 0.8 else [dom(), lo, hi]
    elif proto == 0x13 and msg == 7:
        words = [dom(), level()]
    elif proto == 0x13 and msg == 11:
        words = [dom(), rng.randrange(14)]
    elif proto == 0x10 and msg == 7:
        words = [rng.choice([0, 1, 2, 3, 255, 0xffffffff])]
    elif msg == 2 or (proto == 0x10 and msg == 6):
        words = [rng.randrange(16)]
    else:
        words = []
    words = (words + [0, 0, 0])[:(size or 0) // 4]
    data = struct.pack("<I", h) + b"".join(struct.pack("<I", w)
                                           for w in words)
    if rng.random() < 0.05:
        data = data + bytes(rng.randrange(256) for _ in range(rng.randrange(
            1, 9)))
        size = -1
    want = None
    if typ != 0:
        want = PROTOCOL_ERROR
    elif proto not in PAYLOAD:
        want = NOT_SUPPORTED
    elif absent:
        want = NOT_FOUND
    elif size < 0:
        want = PROTOCOL_ERROR
    elif msg == 0x10:
        want = 0 if words[0] in (SERVED[proto], 0x20000) else NOT_SUPPORTED
    return data, h & ~(3 << 8), want


def frame(body, length=None):
    return struct.pack("<I", len(body) if length is None else length) + body


def check_reply(rep, want_header, want_status, what):
    h, status = struct.unpack_from("<Ii", rep)
    if h != want_header:
        raise Fail("%s: reply header %#x, want %#x" % (what, h, want_header))
    if status not in STATUSES:
        raise Fail("%s: status %d" % (what, status))
    if want_status is not None and status != want_status:
        raise Fail("%s: status %d, want %d" % (what, status, want_status))
    if status != 0 and len(rep) != 8:
        raise Fail("%s: %d bytes with status %d" % (what, len(rep), status))


SUBSCRIBE = {(0x11, 6): "power", (0x13, 10): "level"}
GET = {(0x11, 5): "power", (0x13, 8): "level"}


def expect_reply(c, data, h, want, max_msg, what, conns=()):
    """Read and check the reply to @data; note an accepted async set;
    a GET must say what the notifications since the last GET said (every
    change is notified to the agents that asked, docs/scmi.md,
    Semantics)."""
    rep = c.reply(max_msg)
    check_reply(rep, h, want, what)
    status = struct.unpack_from("<i", rep, 4)[0]
    key = (h >> 10 & 0xff, h & 0xff)
    if status == 0 and key[1] == 0x10 and \
            struct.unpack_from("<I", data, 4)[0] == 0x20000:
        for d in conns:  # the agent's, on every connection of it
            if d.agent == c.agent:
                d.newer[key[0]] = False
    if status == 0 and key[1] == 0 and len(rep) == 12:
        version = struct.unpack_from("<I", rep, 8)[0]
        if version != (SERVED[key[0]] if c.newer[key[0]] else 0x20000):
            raise Fail("%s: version %#x" % (what, version))
    if status == 0 and key in SUBSCRIBE:
        dom, enable = struct.unpack_from("<II", data, 4)
        for d in conns:  # every connection of the agent, from now on
            if d.agent == c.agent:
                d.known.pop((SUBSCRIBE[key], dom), None)
                if enable & 1:
                    d.known[(SUBSCRIBE[key], dom)] = None
    if status == 0 and key in GET:
        dom = struct.unpack_from("<I", data, 4)[0]
        value = struct.unpack_from("<I", rep, 8)[0]
        k = (GET[key], dom)
        if k in c.known:
            COUNT["reads"] += c.known[k] is not None
            if c.known[k] is not None and c.known[k] != value:
                raise Fail("%s: %s of domain %d reads %#x, the "
                           "notifications said %#x" % (what, k[0], dom,
                                                       value, c.known[k]))
            c.known[k] = value
    if h & 0x3ffff == header(0x11, 4, 0, 0) and len(data) == 16 and \
            data[4] & 1:
        # the socket server completes each before reading on: never BUSY
        # (docs/scmi.md)
        if status == -6:
            raise Fail("%s: BUSY over a socket" % what)
        if status == 0:
            dom, state = struct.unpack_from("<II", data, 8)
            c.delayed.append((h >> 18 & 0x3ff, dom, state))


def one_run(seed, domino, dtb, agents_file, n_ops):
    rng = random.Random(seed)
    max_msg = rng.choice([40, 41, 64, 128, 128, 256, 1000])
    listing = subprocess.run(
        [domino, "scmi-serve", dtb, "--agents", agents_file, "--list"],
        capture_output=True, text=True, check=True).stdout.split("\n")
    n_power = sum(1 for l in listing if l.startswith("power "))
    n_perf = sum(1 for l in listing if l.startswith("perf "))
    ids = [int(l.split()[1]) for l in listing if l.startswith("agent ")]
    # agents capped to 2.0 in the file: `agent ID NAME ... version 2.0`
    capped = set()
    with open(agents_file) as f:
        for line in f:
            words = line.split("#")[0].split()
            if len(words) > 2 and words[0] == "agent" and \
                    "version" in words[3:]:
                capped.add(int(words[1]))
    start = {i: {p: i not in capped for p in SERVED} for i in ids}
    with tempfile.TemporaryDirectory(prefix="scmi-fuzz-") as tmp:
        proc = subprocess.Popen(
            [domino, "scmi-serve", dtb, "--agents", agents_file,
             "--socket-dir", tmp, "--max-msg", str(max_msg)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            ready = 0
            while ready < len(ids):
                line = proc.stdout.readline()
                if not line:
                    raise Fail("scmi-serve exited: %s" % proc.stderr.read())
                ready += line.startswith("agent ")
            path = {i: os.path.join(tmp, "agent%d.sock" % i) for i in ids}
            conns = [Conn(path[i], i, start[i]) for i in ids for _ in range(2)]
            for op in range(n_ops):
                what = "seed %d op %d" % (seed, op)
                c = rng.choice(conns)
                kind = rng.randrange(20)
                if kind == 0:  # shorter than a header
                    body = bytes(rng.randrange(256)
                                 for _ in range(rng.randrange(4)))
                    c.send(frame(body))
                    check_reply(c.reply(max_msg), 0, PROTOCOL_ERROR, what)
                elif kind == 1:  # longer than --max-msg: read through
                    data, h, _ = random_command(rng, n_power, n_perf, c,
                                                max_msg)
                    body = data + bytes(max_msg + rng.randrange(1, 300) -
                                        len(data))
                    c.send(frame(body))
                    check_reply(c.reply(max_msg), h, PROTOCOL_ERROR, what)
                elif kind == 2:  # disconnect in a length or a body
                    d = Conn(c.path, c.agent, c.newer)
                    data, _, _ = random_command(rng, n_power, n_perf, c,
                                                max_msg)
                    raw = frame(data)
                    d.send(raw[:rng.randrange(1, len(raw))])
                    d.close()
                elif kind == 3:  # a connection closed and another opened
                    conns.remove(c)
                    c.close()
                    conns.append(Conn(c.path, c.agent, c.newer))
                    conns[-1].known = {k: None for k in c.known}
                elif kind == 4:  # several frames in one write, in pieces
                    cmds = [random_command(rng, n_power, n_perf, c, max_msg)
                            for _ in range(rng.randrange(2, 5))]
                    raw = b"".join(frame(d) for d, _, _ in cmds)
                    at = 0
                    while at < len(raw):
                        step = rng.randrange(1, 9)
                        c.send(raw[at:at + step])
                        at += step
                    for data, h, want in cmds:
                        expect_reply(c, data, h, want, max_msg, what, conns)
                else:
                    data, h, want = random_command(rng, n_power, n_perf, c,
                                                   max_msg, negotiate=True)
                    c.send(frame(data))
                    expect_reply(c, data, h, want, max_msg, what, conns)
                for d in conns:
                    d.drain()
                if proc.poll() is not None:
                    raise Fail("%s: scmi-serve exited %d" % (what,
                                                             proc.returncode))
            # still there for everyone: BASE PROTOCOL_VERSION
            for d in conns:
                d.send(frame(struct.pack("<I", header(0x10, 0, 0, 7))))
                rep = d.reply(max_msg)
                check_reply(rep, header(0x10, 0, 0, 7), 0, "final")
                if struct.unpack_from("<I", rep, 8)[0] != \
                        (0x20001 if d.newer[0x10] else 0x20000):
                    raise Fail("final: version %s" % rep.hex())
            for d in conns:
                d.close()
            proc.send_signal(signal.SIGTERM)
            if proc.wait(timeout=20) != 0:
                raise Fail("SIGTERM: exit %d" % proc.returncode)
            left = [p for p in path.values() if os.path.exists(p)]
            if left:
                raise Fail("sockets left: %s" % left)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    print("seed %d: %d frames, --max-msg %d, %d delayed responses, %d "
          "notifications, %d reads checked against them: ok"
          % (seed, n_ops, max_msg, COUNT["delayed"], COUNT["notifications"],
             COUNT["reads"]))
    for k in COUNT:
        COUNT[k] = 0


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    domino, dtb, agents = sys.argv[1:]
    n_ops = int(os.environ.get("DOMINO_OPS", "1500"))
    if "DOMINO_SEED" in os.environ:
        seeds = [int(os.environ["DOMINO_SEED"])]
    else:
        seeds = range(1, int(os.environ.get("DOMINO_RUNS", "3")) + 1)
    for seed in seeds:
        try:
            one_run(seed, domino, dtb, agents, n_ops)
        except (Fail, OSError, subprocess.SubprocessError) as e:
            print("FAIL seed %d: %s" % (seed, e), file=sys.stderr)
            print("replay with DOMINO_SEED=%d" % seed, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
