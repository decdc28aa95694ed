#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/energy: properties of the energy report over random scenarios and
random power models, `at DOMAIN LEVEL` lines among them (seeded; a failure prints the seed and keeps the
files). usage: check_property.py DOMINO BOARD|demo RUNS [SEED]

For each run, on simulate --json with --power-model:
  - each state's energy is its time x its power exactly (0 when unknown);
  - a part's energy is the sum of its states', the total the sum of the
    parts' (exact decimals: the JSON's nine decimals are fJ);
  - each part's state times add up to the metered span;
  - each domain's time on at each level, in each idle state and off equals
    what an independent replay of the run's events (from time 0, every
    domain off in its deepest idle state) gives;
  - lower_bound is true exactly when some state of unknown power has time;
and the same run without energy prints the same JSON minus "energy", and
the same text minus its "== energy" section: metering changes nothing."""
import json
import os
import random
import subprocess
import sys
import tempfile
from decimal import Decimal as D

domino, board, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
seed0 = int(sys.argv[4]) if len(sys.argv) > 4 else 1
board_args = [] if board == "demo" else [board]
NS = D("0.000000001")


def sh(args):
    p = subprocess.run([domino] + args, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[-500:]))
    return p.stdout


info = json.loads(sh(["summary"] + board_args + ["--json", "--energy"]))
domains = info["energy"]["domains"]
devices = info["energy"]["devices"]
rates = {r["device"]: r["hz"] for r in info.get("opp_rates", [])}


def power(rng):
    return rng.choice(["0", "%duW" % rng.randrange(1, 5000), "%d.%03dmW" % (rng.randrange(0, 900), rng.randrange(1000)),
                       "%dW" % rng.randrange(0, 3)])


def model(rng):
    lines = []
    for d in domains:
        for s in d["states"]:
            if rng.random() < 0.15:
                continue  # left unknown (or to a general line)
            if s["state"] == "on" and "level" in s:
                lines.append("domain %s pstate %s %s" % (d["name"], s["level"], power(rng)))
            elif s["state"] == "on":
                lines.append("domain %s on %s" % (d["name"], power(rng)))
            elif s["state"] == "idle":
                lines.append("domain %s idle %s %s" % (d["name"], s["name"], power(rng)))
            else:
                lines.append("domain %s off %s" % (d["name"], power(rng)))
    leveled = [(d["name"], [s["level"] for s in d["states"] if "level" in s]) for d in domains]
    leveled = [x for x in leveled if x[1]]
    for v in devices:
        follows = rng.choice(leveled) if leveled and rng.random() < 0.3 else None
        for s in v["states"]:
            if s["state"] == "opp" and follows and rng.random() < 0.7:
                # this entry's power at some levels of one domain (`at`)
                for lv in rng.sample(follows[1], rng.randrange(1, len(follows[1]) + 1)):
                    lines.append("device %s opp %s %s at %s %s" % (v["name"], s["name"], power(rng),
                                                                 follows[0], lv))
            if rng.random() < 0.15:
                continue
            if s["state"] == "opp":
                if rng.random() < 0.5:
                    lines.append("device %s opp %s %s" % (v["name"], s["name"], power(rng)))
                else:
                    lines.append("device %s rate %dHz %s" % (v["name"], s["hz"], power(rng)))
            else:
                lines.append("device %s %s %s" % (v["name"], s["state"], power(rng)))
    rng.shuffle(lines)
    if rng.random() < 0.5:
        lines.append("domain * on %s" % power(rng))
    if rng.random() < 0.5:
        lines.append("device * active %s" % power(rng))
    return "\n".join(lines) + "\n"


def scenario(rng, n):
    t, out = 0, []
    names = [v["name"] for v in devices]
    for _ in range(n):
        t += rng.choice([0, 0, 1000, 50000, 1000000, 3000000])
        dev = rng.choice(names)
        r = rng.random()
        if r < 0.35:
            out.append("@%d resume %s" % (t, dev))
        elif r < 0.65:
            out.append("@%d suspend %s" % (t, dev))
        elif r < 0.85 and dev in rates:
            out.append("@%d rate %s %d" % (t, dev, rng.choice(rates[dev] + [0])))
        elif r < 0.9:
            out.append("@%d qos %s %s" % (t, dev, rng.choice(["none", "0", "100", "5000"])))
        elif r < 0.94:
            out.append("@%d fail %s %s" % (t, rng.choice(domains)["name"], rng.choice(["on", "off", "pstate"])))
        elif r < 0.97:
            out.append("@%d system-suspend" % t)
        else:
            out.append("@%d system-resume" % t)
    out.append("@%d expect last-error OK" % (t + rng.choice([1, 2000000])))
    return "\n".join(out) + "\n"


def replay(doc):
    """Per domain: ns at ("on", level) / ("idle", name) / ("off",), from events."""
    idle = {d["name"]: [s["name"] for s in d["idle_states"]] for d in doc["domains"]}
    state = {n: ("idle", v[-1]) if v else ("off",) for n, v in idle.items()}
    level = {n: 0 for n in idle}
    since = {n: 0 for n in idle}
    acc = {n: {} for n in idle}

    def key(n):
        return ("on", level[n]) if state[n] == ("on",) else state[n]

    def move(n, t, new_state=None, new_level=None):
        k = key(n)
        acc[n][k] = acc[n].get(k, 0) + t - since[n]
        since[n] = t
        if new_state is not None:
            state[n] = new_state
        if new_level is not None:
            level[n] = new_level

    for e in doc["events"]:
        n = e.get("domain")
        if n not in idle:
            continue
        if e["kind"] == "power_on":
            move(n, e["time_ns"], ("on",))
        elif e["kind"] == "power_off":
            move(n, e["time_ns"], ("idle", e["idle_state"]) if e.get("idle_state") else ("off",))
        elif e["kind"] == "pstate":
            move(n, e["time_ns"], new_level=e["new"])
    for n in idle:
        move(n, doc["end_ns"])
    return acc


def check(doc, fails):
    e = doc["energy"]
    span = e["end_ns"] - e["start_ns"]
    total, unknown_time = D(0), False
    replayed = replay(doc)
    for p in e["domains"] + e["devices"]:
        s_sum, t_sum = D(0), 0
        for s in p["states"]:
            want = D(0) if s["power_uw"] is None else D(s["time_ns"] * s["power_uw"]) * NS
            if s["energy_uj"] != want:
                fails.append("%s %s: energy %s, time x power %s" % (p["name"], s, s["energy_uj"], want))
            s_sum += s["energy_uj"]
            t_sum += s["time_ns"]
            unknown_time |= s["power_uw"] is None and s["time_ns"] > 0
        if s_sum != p["energy_uj"]:
            fails.append("%s: energy %s, its states add up to %s" % (p["name"], p["energy_uj"], s_sum))
        if t_sum != span:
            fails.append("%s: state times add up to %d, the span is %d" % (p["name"], t_sum, span))
        total += p["energy_uj"]
    if total != e["total"]["energy_uj"]:
        fails.append("total %s, the parts add up to %s" % (e["total"]["energy_uj"], total))
    if unknown_time != e["total"]["lower_bound"]:
        fails.append("lower_bound %s, unknown time %s" % (e["total"]["lower_bound"], unknown_time))
    levels = {}
    for p in e["domains"]:
        has_levels = any("level" in s for s in p["states"])
        got = {}
        for s in p["states"]:
            if s["state"] == "on":
                k = ("on", s.get("level", 0))
            elif s["state"] == "idle":
                k = ("idle", s["name"])
            else:
                k = ("off",)
            got[k] = got.get(k, 0) + s["time_ns"]
        want = {}
        for k, ns in replayed[p["name"]].items():
            if k[0] == "on" and not has_levels:
                k = ("on", 0)
            want[k] = want.get(k, 0) + ns
        for k in set(got) | set(want):
            if got.get(k, 0) != want.get(k, 0):
                fails.append("%s %s: metered %d ns, the events give %d" % (p["name"], k, got.get(k, 0), want.get(k, 0)))


def strip_energy_text(text):
    a = text.find("\n== energy\n")
    if a < 0:
        return text
    # the section runs to the last line, the count of failed expectations
    end = text.rfind("\n\n", 0, len(text) - 1)
    return text[:a] + text[end + 1:]


tmp = tempfile.mkdtemp(prefix="domino-energy-")
bad = 0
for k in range(runs):
    seed = seed0 + k
    rng = random.Random(seed)
    pm = os.path.join(tmp, "model.power")
    scn = os.path.join(tmp, "run.scn")
    open(pm, "w").write(model(rng))
    open(scn, "w").write(scenario(rng, rng.randrange(1, 60)))
    extra = []
    if rng.random() < 0.3:
        extra = ["--follow", rng.choice([v["name"] for v in devices if v["name"] in rates] or ["all"])]
    base = ["simulate"] + board_args + [scn] + extra
    fails = []
    with_e = sh(base + ["--json", "--power-model", pm])
    doc = json.loads(with_e, parse_float=D)
    check(doc, fails)
    plain = json.loads(sh(base + ["--json"]), parse_float=D)
    del doc["energy"]
    if plain != doc:
        fails.append("the JSON without energy differs from the JSON with energy, energy left out")
    t_plain, t_energy = sh(base), sh(base + ["--power-model", pm])
    if strip_energy_text(t_energy) != t_plain:
        fails.append("the text without energy differs from the text with energy, its section left out")
    if fails:
        bad += 1
        keep = os.path.join(tmp, "seed-%d" % seed)
        os.makedirs(keep)
        os.rename(pm, os.path.join(keep, "model.power"))
        os.rename(scn, os.path.join(keep, "run.scn"))
        print("seed %d (%s):" % (seed, keep))
        for f in fails[:10]:
            print("  " + f)
print("%s: %d runs, %d failed" % (board, runs, bad))
sys.exit(1 if bad else 0)
