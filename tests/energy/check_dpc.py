#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/energy: every OPP power domino models from a device tree, against
values computed here from the blob's own bytes (fdt.py, not the loader):
opp-microwatt summed over supplies where an entry has it, else Linux's
Energy Model formula of drivers/opp/of.c (dev_pm_opp_calc_power) from the
device node's dynamic-power-coefficient, the entry's first opp-microvolt
and its first opp-hz:
    uW = coefficient * mV * mV * MHz / 1000000,  mV = uV / 1000,
    MHz = Hz / 1000000, every division truncating (Python's // on ints).
An entry with the coefficient but no voltage has no power (unknown).

usage: check_dpc.py DOMINO BLOB [MIN_DPC_ENTRIES]
Fails when a value differs, when domino models an entry the blob does not
give a power for (or the reverse), or when fewer than MIN_DPC_ENTRIES
entries were checked through the formula (so a board that silently lost
its CPUs cannot pass)."""
import json
import subprocess
import sys

import fdt


def main():
    domino, blob = sys.argv[1], sys.argv[2]
    at_least = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    nodes, phandles = fdt.load(blob)
    out = subprocess.run([domino, "summary", blob, "--energy", "--json"],
                         check=True, capture_output=True, text=True).stdout
    doc = json.loads(out)
    paths = {}
    for d in doc["domains"]:
        for dev in d["devices"]:
            paths[dev["name"]] = dev["path"]
    checked = dpc = 0
    bad = []
    for part in doc["energy"]["devices"]:
        name = part["name"]
        path = paths.get(name)
        if path is None:  # a device with no domains (MediaTek CPUs): by label
            syms = nodes.get("/__symbols__")
            path = syms.props[name].rstrip(b"\0").decode() if syms and name in syms.props else name
        node = nodes.get(path)
        if node is None:
            bad.append("%s: node %s not in the blob" % (name, path))
            continue
        coef = (node.cells("dynamic-power-coefficient") or [0])[0]
        ops = node.cells("operating-points-v2")
        table = phandles.get(ops[0]) if ops else None
        for st in part["states"]:
            if st["state"] != "opp":
                continue
            entry = next((c for c in table.children if c.name == st["name"]), None) if table else None
            if entry is None:
                bad.append("%s: entry %s not in its table" % (name, st["name"]))
                continue
            uw_cells = entry.cells("opp-microwatt")
            want, source = None, "none"
            if uw_cells and sum(uw_cells):
                want, source = sum(uw_cells), "opp-microwatt"
            elif coef:
                uv = entry.cells("opp-microvolt")
                hz = entry.u64s("opp-hz")
                mv = uv[0] // 1000 if uv else 0
                if mv and hz:
                    want = coef * mv * mv * (hz[0] // 1000000) // 1000000
                    source = "dynamic-power-coefficient"
            checked += 1
            got = st["power_uw"] if st["source"] in ("opp-microwatt", "dynamic-power-coefficient") else None
            if source == "dynamic-power-coefficient":
                dpc += 1
            if got != want or (want is not None and st["source"] != source):
                bad.append("%s %s: domino %s (%s), expected %s (%s)" %
                           (name, st["name"], got, st["source"], want, source))
            if source == "none" and coef and st.get("why") is None:
                bad.append("%s %s: no power and no reason given" % (name, st["name"]))
    for b in bad[:20]:
        print(b)
    print("%s: %d OPP entries checked, %d through the formula, %d wrong" % (blob, checked, dpc, len(bad)))
    if bad or dpc < at_least:
        if dpc < at_least:
            print("expected at least %d entries through the formula" % at_least)
        sys.exit(1)


main()
