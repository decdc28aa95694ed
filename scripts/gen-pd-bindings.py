#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate src/dt/pd_bindings.c: the power-domain indices Linux's drivers
register for a provider compatible, and the dt-bindings name of each.

usage: scripts/gen-pd-bindings.py LINUX_TREE > src/dt/pd_bindings.c

LINUX_TREE is a Linux source tree (the corpus uses Debian's
linux-source-6.12) holding include/dt-bindings, drivers/pmdomain/qcom and
drivers/clk/qcom. Read from it, as facts:
  - every `#define NAME VALUE` of include/dt-bindings/{power,clock}/*.h
    (a VALUE may name another define);
  - drivers/pmdomain/qcom/rpmhpd.c and rpmpd.c: the per-compatible arrays
    `[NAME] = &...` of the RPMh / RPM power domains (the desc a compatible's
    of_device_id .data points at, its array);
  - drivers/clk/qcom/*.c: each clock controller's GDSC array
    (`struct gdsc *...[] = { [NAME] = &... }`) and the compatibles of its
    of_device_id table (by .data when the file has several descs).
Linux's genpd_xlate_onecell() fails an index at or past the array's end
(-EINVAL) and one whose slot is empty (-ENOENT); lint's pd-index-range and
pd-name-mismatch read the table (docs/lint-corpus.md). Nothing is copied
but names and numbers; no driver code.
"""
import os
import re
import sys

DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\s/]+)', re.M)
ARRAY = re.compile(r'static\s+(?:const\s+)?struct\s+(gdsc|rpmh?pd)\s*\*\s*(?:const\s+)?(\w+)\s*\[\s*\]\s*=\s*\{(.*?)\};', re.S)
SLOT = re.compile(r'\[\s*(\w+)\s*\]\s*=\s*&')
DESC = re.compile(r'(?:static\s+)?(?:const\s+)?struct\s+(?:qcom_cc_desc|rpmh?pd_desc)\s+(\w+)\s*=\s*\{(.*?)\};', re.S)
DESC_ARRAY = re.compile(r'\.(?:gdscs|rpmh?pds)\s*=\s*(\w+)')
MATCH = re.compile(r'\{\s*\.compatible\s*=\s*"([^"]+)"\s*(?:,\s*\.data\s*=\s*&?\s*(\w+)\s*)?\}')


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return re.sub(r'/\*.*?\*/', ' ', f.read(), flags=re.S)


INCLUDE = re.compile(r'^\s*#\s*include\s*<(dt-bindings/[^>]+)>', re.M)


def header_defines(tree, rel, seen=None):
    """name -> (value or None, header) for header @rel (dt-bindings/...)
    and the dt-bindings headers it includes"""
    seen = set() if seen is None else seen
    path = os.path.join(tree, 'include', rel)
    if rel in seen or not os.path.exists(path):
        return {}
    seen.add(rel)
    text = read(path)
    raw = {}
    for inc in INCLUDE.findall(text):
        for k, v in header_defines(tree, inc, seen).items():
            raw.setdefault(k, v)
    for m in DEFINE.finditer(text):
        raw.setdefault(m.group(1), (m.group(2), 'include/' + rel))
    return raw


def resolve(raw):
    out = {}
    for name, (val, rel) in raw.items():
        seen = set()
        v = val
        while v in raw and v not in seen:  # an alias of another define
            seen.add(v)
            v = raw[v][0]
        try:
            out[name] = (int(v, 0), rel)
        except (TypeError, ValueError):
            out[name] = (None, rel)
    return out


def driver_tables(tree, path):
    """compatible -> array of (index, name, header) for one driver file,
    its names read in the dt-bindings headers it includes"""
    text = read(path)
    raw = {}
    for inc in INCLUDE.findall(text):
        for k, v in header_defines(tree, inc).items():
            raw.setdefault(k, v)
    defines = resolve(raw)
    arrays = {}
    for m in ARRAY.finditer(text):
        slots = []
        for s in SLOT.finditer(m.group(3)):
            v = defines.get(s.group(1))
            if v is None or v[0] is None:
                return {}  # an index this script cannot read: skip the file
            slots.append((v[0], s.group(1), v[1]))
        if slots:
            arrays[m.group(2)] = slots
    descs = {}
    for m in DESC.finditer(text):
        a = DESC_ARRAY.search(m.group(2))
        if a and a.group(1) in arrays:
            descs[m.group(1)] = a.group(1)
    out = {}
    for m in MATCH.finditer(text):
        compat, data = m.group(1), m.group(2)
        if data in descs:
            arr = descs[data]
        elif len(set(descs.values())) == 1:
            arr = next(iter(descs.values()))
        else:
            continue  # which array serves it is decided at run time
        out.setdefault(compat, arrays[arr])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: scripts/gen-pd-bindings.py LINUX_TREE')
    tree = sys.argv[1]
    rows = {}
    files = [os.path.join('drivers/pmdomain/qcom', f) for f in ('rpmhpd.c', 'rpmpd.c')]
    clk = os.path.join(tree, 'drivers/clk/qcom')
    files += [os.path.join('drivers/clk/qcom', f) for f in sorted(os.listdir(clk)) if f.endswith('.c')]
    for rel in files:
        for compat, slots in driver_tables(tree, os.path.join(tree, rel)).items():
            rows.setdefault(compat, (rel, slots))
    version = ''
    mk = os.path.join(tree, 'Makefile')
    if os.path.exists(mk):
        v = dict(re.findall(r'^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)', read(mk), re.M))
        if v:
            version = ' %s.%s.%s' % (v.get('VERSION'), v.get('PATCHLEVEL'), v.get('SUBLEVEL', '0'))
    w = sys.stdout.write
    w('/* SPDX-License-Identifier: MIT */\n')
    w('/*\n * Generated by scripts/gen-pd-bindings.py from Linux%s: do not edit.\n' % version)
    w(' * For each provider compatible, the power-domain indices its Linux driver\n')
    w(' * registers (the array genpd_xlate_onecell() indexes: past its end or at an\n')
    w(' * empty slot the attach fails) and each index\'s dt-bindings name. Facts of\n')
    w(' * the kernel: names and numbers only. %d compatibles.\n */\n' % len(rows))
    w('#include "dt_internal.h"\n\n#include <string.h>\n\n')
    w('#define E(i, n) {i, n}\n')
    names = []
    for i, compat in enumerate(sorted(rows)):
        rel, slots = rows[compat]
        w('static const struct dmn__dt_pd_index idx%d[] = {' % i)
        w(', '.join('E(%d, "%s")' % (v, n) for v, n, _ in sorted(slots)))
        w('};\n')
        headers = sorted({h for _, _, h in slots})
        names.append((compat, rel, ' '.join(headers), 'idx%d' % i, max(v for v, _, _ in slots) + 1))
    w('\nconst struct dmn__dt_pd_binding dmn__dt_pd_bindings[] = {\n')
    for compat, rel, hdr, arr, n in names:
        w('    {"%s", "%s", "%s", %d, %s, sizeof(%s) / sizeof(%s[0])},\n'
          % (compat, rel, hdr, n, arr, arr, arr))
    w('};\n\nconst unsigned dmn__dt_n_pd_bindings = %d;\n' % len(names))


if __name__ == '__main__':
    main()
