#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/energy: every case of bad-models.txt is refused (exit 2) with
"FILE:LINE: error: MESSAGE" naming its line, and nothing on stdout.
usage: check_bad.py DOMINO SMALL.dtb"""
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
domino, blob = sys.argv[1], sys.argv[2]
scn = os.path.join(here, "boards", "small.scn")
tmp = tempfile.mkdtemp(prefix="domino-bad-power-")
fails = n = 0
for raw in open(os.path.join(here, "bad-models.txt"), encoding="utf-8"):
    if raw.startswith("#") or not raw.strip():
        continue
    name, line, words, text = [f.strip() if i < 3 else f.rstrip("\n")
                               for i, f in enumerate(raw.split(" | ", 3))]
    n += 1
    path = os.path.join(tmp, name + ".power")
    with open(path, "wb") as f:
        f.write(text.replace("\\n", "\n").replace("\\0", "\0").encode())
    for cmd in (["simulate", blob, scn], ["summary", blob]):
        p = subprocess.run([domino] + cmd + ["--power-model", path], capture_output=True)
        err = p.stderr.decode(errors="replace")
        want = "%s:%s: error: " % (path, line)
        if p.returncode != 2 or want not in err or words not in err or p.stdout:
            fails += 1
            print("%s (%s): exit %d, stderr %r; expected exit 2, %r and %r" %
                  (name, cmd[0], p.returncode, err.strip(), want, words))
# a blob is not a power model
p = subprocess.run([domino, "summary", blob, "--power-model", blob], capture_output=True)
if p.returncode != 2 or b"not a power model" not in p.stderr:
    fails += 1
    print("a blob as power model: exit %d, %r" % (p.returncode, p.stderr))
print("%d bad power models: %d failed" % (n, fails))
sys.exit(1 if fails else 0)
