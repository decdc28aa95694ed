#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/energy: docs/energy.md's worked example on the RB5, run again: the
four answers it prints (following venus during video playback, under two
power models, with a fixed time slot and with fixed work) must still be
what domino computes, to the µJ the text shows (three decimals of mJ,
truncated), and every domain must be the same in a run and its follower.
usage: check_worked_example.py DOMINO qrb5165-rb5.dtb"""
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal as D, ROUND_DOWN

domino, blob = sys.argv[1], sys.argv[2]
ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "qrb5165-rb5")
tmp = tempfile.mkdtemp(prefix="domino-worked-")
fails = []


def run(model, scn, follow, name):
    path = os.path.join(tmp, name)
    args = [domino, "simulate", blob, os.path.join(ex, scn), "--json",
            "--power-model", os.path.join(ex, model)] + (["--follow", "venus"] if follow else [])
    open(path, "w").write(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    return path


def compare(a, b):
    out = subprocess.run([domino, "compare", a, b, "--json"], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out, parse_float=D)


# model, scenario of B, the B - A the doc states in mJ
cases = [("energy.power", "video-playback.scn", "8.126"),
         ("energy.power", "video-playback-race.scn", "3.147"),
         ("energy-shared-mx.power", "video-playback.scn", "4.612"),
         ("energy-shared-mx.power", "video-playback-race.scn", "-0.366")]
for model, scn, stated in cases:
    a = run(model, "video-playback.scn", False, "a-" + model + ".json")
    b = run(model, scn, True, "b-" + model + scn + ".json")
    c = compare(a, b)
    mj = (c["total"]["diff_uj"] / 1000)
    got = mj.copy_abs().quantize(D("0.001"), rounding=ROUND_DOWN) * (1 if mj >= 0 else -1)
    if got != D(stated):
        fails.append("%s, %s with --follow venus: B - A %s mJ, docs/energy.md says %s" %
                     (model, scn, got, stated))
    fixed_slot = scn == "video-playback.scn"
    for p in c["domains"]:
        if fixed_slot and p["diff_uj"] != 0:
            fails.append("%s: domain %s differs (%s) though following changes no level" %
                         (model, p["name"], p["diff_uj"]))
for f in fails:
    print(f)
print("worked example: %d of %d answers as stated" % (len(cases) - len(fails), len(cases)))
sys.exit(1 if fails else 0)
