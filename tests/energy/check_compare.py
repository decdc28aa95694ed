#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/energy: domino compare on two runs of boards/small.scn (the second
with acc following its domain, --follow acc, and the model's rail power
at level 3 doubled): every difference in --json equals B - A computed here
from the two runs' own JSON (exact decimals), a part missing from one run
is listed as in "a" or "b" only, and bad inputs (and bad --follow
names) exit 2 with a message.
usage: check_compare.py DOMINO SMALL.dtb"""
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal as D

here = os.path.dirname(os.path.abspath(__file__))
domino, blob = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="domino-compare-")
scn = os.path.join(here, "boards", "small.scn")
model = open(os.path.join(here, "boards", "small.power")).read()
fails = []


def run(args, name):
    path = os.path.join(tmp, name)
    out = subprocess.run([domino] + args, check=True, capture_output=True, text=True).stdout
    open(path, "w").write(out)
    return path


pa = os.path.join(tmp, "a.power")
pb = os.path.join(tmp, "b.power")
open(pa, "w").write(model)
open(pb, "w").write(model.replace("domain rail pstate 3 5mW", "domain rail pstate 3 10mW"))
A = run(["simulate", blob, scn, "--json", "--power-model", pa], "a.json")
B = run(["simulate", blob, scn, "--json", "--power-model", pb, "--follow", "acc"], "b.json")
a, b = (json.load(open(p), parse_float=D)["energy"] for p in (A, B))
c = json.loads(subprocess.run([domino, "compare", A, B, "--json"], check=True, capture_output=True,
                              text=True).stdout, parse_float=D)
if c["total"]["diff_uj"] != b["total"]["energy_uj"] - a["total"]["energy_uj"]:
    fails.append("total: %s, expected %s" % (c["total"]["diff_uj"], b["total"]["energy_uj"] - a["total"]["energy_uj"]))
for kind in ("domains", "devices"):
    for pc in c[kind]:
        x = next(p for p in a[kind] if p["name"] == pc["name"])
        y = next(p for p in b[kind] if p["name"] == pc["name"])
        if pc["in"] != "both" or pc["diff_uj"] != y["energy_uj"] - x["energy_uj"] or \
                pc["a_uj"] != x["energy_uj"] or pc["b_uj"] != y["energy_uj"]:
            fails.append("%s: %s" % (pc["name"], pc))
        for st in pc["states"]:
            if st["diff_ns"] != st["b_ns"] - st["a_ns"]:
                fails.append("%s %s: %s" % (pc["name"], st["state"], st))
rail = next(p for p in c["domains"] if p["name"] == "rail")
if rail["diff_uj"] <= 0:
    fails.append("rail: the dearer level 3 shows no difference: %s" % rail)
# a part in one run only
doc = json.load(open(B), parse_float=D)
doc["energy"]["devices"] = [p for p in doc["energy"]["devices"] if p["name"] != "dsp"]
B2 = os.path.join(tmp, "b2.json")
open(B2, "w").write(json.dumps(doc, default=str))
c2 = json.loads(subprocess.run([domino, "compare", A, B2, "--json"], check=True, capture_output=True,
                               text=True).stdout, parse_float=D)
dsp = [p for p in c2["devices"] if p["name"] == "dsp"]
if len(dsp) != 1 or dsp[0]["in"] != "a" or "b_uj" in dsp[0]:
    fails.append("dsp in A only: %s" % dsp)
text = subprocess.run([domino, "compare", A, B2], check=True, capture_output=True, text=True).stdout
if "only in A: device dsp" not in text or "B - A" not in text:
    fails.append("text: %r" % text[:400])
# bad inputs
plain = run(["simulate", blob, scn, "--json"], "plain.json")
open(os.path.join(tmp, "bad.json"), "w").write("{ not json")
for args, words in (([A], "give two runs"), ([A, plain], "no energy of a run"),
                    ([A, os.path.join(tmp, "bad.json")], "not JSON"),
                    ([A, os.path.join(tmp, "missing.json")], "cannot open")):
    p = subprocess.run([domino, "compare"] + args, capture_output=True, text=True)
    if p.returncode != 2 or words not in p.stderr:
        fails.append("compare %s: exit %d, %r" % (args, p.returncode, p.stderr))
# --follow: a name the board lacks, a device without an OPP table
for dev, words in (("nope", "no such device"), ("dsp", "the device has no OPP table")):
    p = subprocess.run([domino, "simulate", blob, scn, "--follow", dev], capture_output=True, text=True)
    if p.returncode != 2 or words not in p.stderr or p.stdout:
        fails.append("--follow %s: exit %d, %r" % (dev, p.returncode, p.stderr))
for f in fails:
    print(f)
print("compare: %d checks failed" % len(fails))
sys.exit(1 if fails else 0)
