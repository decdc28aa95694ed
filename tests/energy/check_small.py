#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/energy: boards/small.scn on boards/small.dts, its energy
integrated by hand. usage: check_small.py DOMINO SMALL.dtb

The run, state by state (times in ms, powers in mW, energy in uJ):
  rail  0-1 level 1 (2) 2; 1-3 level 3 (5) 10; 3-4 on, no level (1) 1;
        4-4.5 level 3 (5) 2.5; 4.5-5 level 2 (3) 1.5; 5-6 no level (1) 1;
        6-10 off (0.1) 0.4                                      = 18.4
  gate  0-3 on (0.5) 1.5; 3-4 collapse (0.05) 0.05; 4-5 on (0.5) 0.5;
        5-10 retention (0.2) 1.0                                = 3.05
  acc   0-1 100 MHz (20, opp-microwatt) 20; 1-3 300 MHz (50 + 10 over two
        supplies) 120; 3-4 suspended (0.01) 0.01; 4-4.5 300 MHz 30;
        4.5-5 200 MHz (33.333, the file's) 16.6665; 5-10 suspended 0.05
                                                                = 186.7265
  dsp   2-6 active (7) 28; otherwise suspended (0 by default)   = 28
  total                                                         = 236.1765
With the tree alone (--energy): only acc's two entries with opp-microwatt
are known: 20 + 120 + 30 = 170 uJ, a lower bound; the rail's 6 ms on, the
gate's 10 ms and acc's 0.5 ms at 200 MHz are unknown; dsp's 4 ms active
too."""
import json
import os
import subprocess
import sys
from decimal import Decimal as D

here = os.path.dirname(os.path.abspath(__file__))
domino, blob = sys.argv[1], sys.argv[2]
fails = []


def run(*extra):
    out = subprocess.run([domino, "simulate", blob, os.path.join(here, "boards", "small.scn"),
                          "--json"] + list(extra), check=True, capture_output=True, text=True).stdout
    return json.loads(out, parse_float=D)["energy"]


def want(what, got, expected):
    if got != expected:
        fails.append("%s: %s, expected %s" % (what, got, expected))


def part(e, name):
    return next(p for p in e["domains"] + e["devices"] if p["name"] == name)


def state(p, label):
    for s in p["states"]:
        key = s["state"] + (" %s" % s["level"] if "level" in s and s["state"] == "on" else "") + \
            (" %s" % s["name"] if s["state"] in ("idle", "opp") else "")
        if key == label:
            return s
    raise KeyError(label)


MS = 1000000
e = run("--power-model", os.path.join(here, "boards", "small.power"))
want("total", e["total"]["energy_uj"], D("236.176500000"))
want("lower bound", e["total"]["lower_bound"], False)
for name, uj in (("rail", "18.4"), ("gate", "3.05"), ("acc", "186.7265"), ("dsp", "28")):
    want(name, part(e, name)["energy_uj"], D(uj).quantize(D("0.000000001")))
rail, gate, acc = part(e, "rail"), part(e, "gate"), part(e, "acc")
for label, ns in (("on 1", 1 * MS), ("on 3", 2500000), ("on 2", MS // 2), ("on", 2 * MS), ("off", 4 * MS)):
    want("rail " + label, state(rail, label)["time_ns"], ns)
for label, ns in (("on", 4 * MS), ("idle collapse", 1 * MS), ("idle retention", 5 * MS)):
    want("gate " + label, state(gate, label)["time_ns"], ns)
for label, ns, uw in (("opp opp-100000000", 1 * MS, 20000), ("opp opp-300000000", 2500000, 60000),
                      ("opp opp-200000000", MS // 2, 33333), ("suspended", 6 * MS, 10)):
    want("acc " + label, state(acc, label)["time_ns"], ns)
    want("acc " + label + " power", state(acc, label)["power_uw"], uw)
want("acc 200 MHz source", state(acc, "opp opp-200000000")["source"], "file")
want("acc 300 MHz source", state(acc, "opp opp-300000000")["source"], "opp-microwatt")
want("rail time on", rail["time_on_ns"], 6 * MS)
want("acc time active", acc["time_active_ns"], 4 * MS)
want("average", e["total"]["average_uw"], D("23617.650"))

t = run("--energy")
want("tree: total", t["total"]["energy_uj"], D("170.000000000"))
want("tree: lower bound", t["total"]["lower_bound"], True)
want("tree: rail unknown", part(t, "rail")["unknown_ns"], 6 * MS)
want("tree: gate unknown", part(t, "gate")["unknown_ns"], 10 * MS)
want("tree: acc unknown", part(t, "acc")["unknown_ns"], MS // 2)
want("tree: dsp unknown", part(t, "dsp")["unknown_ns"], 4 * MS)
want("tree: power model", t["power_model"], None)

# `at`: acc at 100 MHz draws 30 mW while the rail sits at 3 (0-1 ms, held
# there by dsp's vote), its entry's 20 mW from the tree at level 1 (1-2 ms),
# then 10 uW suspended (2-3 ms): 30 + 20 + 0.01 = 50.01 uJ. A line for
# level 2, where the rail never is, changes nothing.
at_model = os.path.join(os.path.dirname(blob) or ".", "small-at.power")
with open(at_model, "w") as f:
    f.write(open(os.path.join(here, "boards", "small.power")).read())
    f.write("device acc opp opp-100000000 30mW at rail rail_high\n")
    f.write("device acc rate 100MHz 99mW at rail 2\n")
out = subprocess.run([domino, "simulate", blob, os.path.join(here, "boards", "small-at.scn"), "--json",
                      "--power-model", at_model], check=True, capture_output=True, text=True).stdout
a = json.loads(out, parse_float=D)["energy"]
acc = part(a, "acc")
want("at: acc", acc["energy_uj"], D("50.010000000"))
at3 = [s for s in acc["states"] if s.get("at", {}).get("level") == 3]
want("at: acc at level 3", [(s["time_ns"], s["power_uw"], s["at"]["domain"], s["at"]["name"]) for s in at3],
     [(1 * MS, 30000, "rail", "rail_high")])
want("at: acc at 100 MHz, its own power", state(acc, "opp opp-100000000")["time_ns"], 1 * MS)
want("at: total", a["total"]["energy_uj"], sum(p["energy_uj"] for p in a["domains"] + a["devices"]))

for f in fails:
    print(f)
print("small.scn: %d checks failed" % len(fails))
sys.exit(1 if fails else 0)
