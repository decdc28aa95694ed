#!/usr/bin/env python3
"""Mutation testing for domino: mutate the semantic core one line at a time,
rebuild, run ctest, and count the mutants the suite kills.

Run through scripts/mutate.sh (it adds `nice`); `--help` lists the options.
The tree is copied once into a persistent work folder (--work) and built
there; each mutant rewrites one file of the copy, so ninja recompiles that
file only, then ctest runs the fastest tests first and stops at the first
failure. Mutants are sampled with a fixed seed: the same options give the
same mutants on the same sources.

Verdicts: killed (a test failed, or the suite ran past the time limit),
survived (every test passed), invalid (the mutant does not compile: the
build uses -Werror, so a mutant that only draws a warning is invalid too),
equivalent (a survivor listed in docs/testing.md as unable to change
behaviour; left out of the score). Score = killed / (killed + survived).
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

DEFAULT_PATHS = ["src/core", "src/opp", "src/dt", "src/sim"]

# One token of C that matters here; the longer spellings come first so that
# `<<=` is never read as `<` and `->` never as `>`.
TOKEN = re.compile(r"<<=|>>=|<<|>>|->|<=|>=|==|!=|&&|\|\||<|>")
REL_FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
LOGIC_FLIP = {"&&": "||", "||": "&&"}
# `x + 1` / `x - 1` after an operand (an identifier, a number or a closing
# bracket), so unary minus and `-1` literals as arguments are left alone.
OFF_BY_ONE = re.compile(r"(?<=[\w\)\]])(\s*)([+-])(\s*)1\b(?![.\w])")
# A statement that is one call whose result is dropped: `f(...);`,
# `p->ops.f(...);`, `(void)f(...);`.
CALL_STMT = re.compile(r"^(\s*)((?:\(void\)\s*)?[A-Za-z_][\w]*(?:(?:->|\.)[A-Za-z_]\w*)*\s*\(.*\)\s*;)\s*$")
NOT_CALLS = {"return", "if", "while", "for", "switch", "sizeof", "do", "else", "case",
             "goto", "break", "continue", "assert", "static_assert", "_Static_assert"}
# `return -EINVAL;`, `return DMN_E...;` (a negative errno) or `return rc;`
# with a variable that by this code's habit holds an error.
RETURN_ERR = re.compile(r"\breturn\s+(-\s*[A-Z][A-Z0-9_]*|-\s*[a-z_]\w*|rc|ret|err|error|r)\s*;")
COND = re.compile(r"\b(if|while)\s*\(")


def mask(lines):
    """Each line with comments, string and character literals and
    preprocessor directives blanked (same length), so that operators are
    only found in code."""
    out = []
    in_comment = False
    in_directive = False
    for line in lines:
        chars = list(line)
        i = 0
        n = len(chars)
        if not in_comment and (in_directive or line.lstrip().startswith("#")):
            in_directive = line.rstrip("\n").endswith("\\")
            out.append(" " * n)
            continue
        while i < n:
            if in_comment:
                if line.startswith("*/", i):
                    chars[i] = chars[i + 1] = " "
                    i += 2
                    in_comment = False
                else:
                    if chars[i] != "\n":
                        chars[i] = " "
                    i += 1
            elif line.startswith("/*", i):
                in_comment = True
                chars[i] = chars[i + 1] = " "
                i += 2
            elif line.startswith("//", i):
                for k in range(i, n):
                    if chars[k] != "\n":
                        chars[k] = " "
                break
            elif chars[i] in "\"'":
                quote = chars[i]
                j = i + 1
                while j < n and chars[j] != quote:
                    j += 2 if chars[j] == "\\" else 1
                for k in range(i + 1, min(j, n)):
                    chars[k] = " "
                i = j + 1
            else:
                i += 1
        out.append("".join(chars))
    return out


def balanced_close(code, start):
    """Index of the bracket closing the `(` at start, or -1 on this line."""
    depth = 0
    for i in range(start, len(code)):
        if code[i] == "(":
            depth += 1
        elif code[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def mutants_of(path, lines):
    """Every mutant of one file: dicts with file, line (1-based), op, the
    original and mutated line text and a short description."""
    found = []
    masked = mask(lines)

    def add(no, op, new, desc):
        found.append({"file": path, "line": no + 1, "op": op, "orig": lines[no],
                      "new": new, "desc": desc})

    for no, (line, code) in enumerate(zip(lines, masked)):
        if not code.strip():
            continue
        for m in TOKEN.finditer(code):
            tok = m.group(0)
            flip = REL_FLIP.get(tok) or LOGIC_FLIP.get(tok)
            if flip:
                new = line[:m.start()] + flip + line[m.end():]
                add(no, "rel" if tok in REL_FLIP else "logic", new, f"'{tok}' -> '{flip}'")
        for m in OFF_BY_ONE.finditer(code):
            # Keep `i++`/`x += 1` alone: only a binary + or - of 1.
            before = code[:m.start(2)].rstrip()
            if before.endswith(("+", "-", "=")) or code[m.end(2):m.end(2) + 1] in "+-=":
                continue
            new = line[:m.start(1)] + line[m.end():]
            add(no, "off1", new, f"drop '{m.group(2)} 1'")
        m = CALL_STMT.match(code)
        if m:
            stmt = m.group(2)
            head = re.match(r"(?:\(void\)\s*)?([A-Za-z_]\w*)", stmt).group(1)
            paren = code.index("(", code.index(head, m.start(2)))
            last = code.rstrip().rstrip(";").rstrip()
            callee = re.findall(r"[A-Za-z_]\w*", code[:paren])[-1]
            # A call that only releases memory is left alone: a leak changes
            # nothing a test sees; the sanitizer run (scripts/test.sh
            # --sanitize address) is what catches those.
            if (head not in NOT_CALLS and not callee.endswith(("free", "destroy")) and
                    balanced_close(code, paren) == len(last) - 1):
                new = m.group(1) + "(void)0;\n"
                add(no, "delcall", new, f"delete '{stmt.strip()}'")
        for m in RETURN_ERR.finditer(code):
            new = line[:m.start()] + "return 0;" + line[m.end():]
            add(no, "ret0", new, f"'{m.group(0)}' -> 'return 0;'")
        for m in COND.finditer(code):
            open_at = m.end() - 1
            close = balanced_close(code, open_at)
            if close < 0:
                continue
            new = line[:open_at + 1] + "!(" + line[open_at + 1:close] + ")" + line[close:]
            add(no, "neg", new, f"negate {m.group(1)} condition")
    return found


def norm(text):
    return " ".join(text.split())


def mutant_key(mu):
    """Identity of a mutant that survives edits elsewhere in the file: the
    file, the operator, the original line and the mutated line (no number)."""
    return (mu["file"], mu["op"], norm(mu["orig"]), norm(mu["new"]))


def load_equivalents(repo):
    """Equivalent mutants from docs/testing.md: table rows
    `| FILE:LINE | OP | `original line` | `mutated line` | why |`, a `|`
    of the code written `\\|`."""
    doc = os.path.join(repo, "docs", "testing.md")
    keys = set()
    if not os.path.exists(doc):
        return keys
    row = re.compile(r"^\|\s*(src/[\w/.-]+\.c):\d+\s*\|\s*(\w+)\s*\|\s*`(.*)`\s*\|\s*`(.*)`\s*\|")
    with open(doc, encoding="utf-8") as f:
        for line in f:
            m = row.match(line)
            if m:
                # `\|` in a cell is a `|` of the code (Markdown tables need it).
                keys.add((m.group(1), m.group(2), norm(m.group(3).replace("\\|", "|")),
                          norm(m.group(4).replace("\\|", "|"))))
    return keys


def source_files(repo, paths):
    files = []
    for p in paths:
        full = os.path.join(repo, p)
        if os.path.isdir(full):
            for name in sorted(os.listdir(full)):
                if name.endswith(".c"):
                    files.append(os.path.join(p, name).replace("//", "/"))
        elif os.path.isfile(full) and p.endswith(".c"):
            files.append(p)
        else:
            sys.exit(f"mutate: {p}: not a folder or a .c file in {repo}")
    return files


def run(cmd, cwd=None, timeout=None, quiet=True):
    """Run cmd in its own process group; on timeout the whole group dies.
    Returns (exit status or None on timeout, output)."""
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out


def sync_copy(repo, work):
    """Bring the work copy up to date with the repository's files (rsync
    keeps mtimes, so unchanged files are not rebuilt)."""
    os.makedirs(work, exist_ok=True)
    dest = os.path.join(work, "src-copy")
    code, out = run(["rsync", "-a", "--delete", "--out-format=%n", "--exclude=/.git",
                     "--exclude=/build*/", repo.rstrip("/") + "/", dest + "/"])
    if code != 0:
        sys.exit("mutate: rsync failed:\n" + out)
    # rsync gives a copied file its source's mtime, which can be older than
    # the object a mutant of it left behind (a stopped run): mark what it
    # copied as new so ninja rebuilds it.
    for name in out.splitlines():
        path = os.path.join(dest, name)
        if os.path.isfile(path):
            os.utime(path)


def configure(repo, work, jobs):
    src = os.path.join(work, "src-copy")
    bld = os.path.join(work, "build")
    boards = os.path.abspath(os.path.join(repo, "..", "shared", "dts", "dtb"))
    boards = os.environ.get("DOMINO_BOARDS", boards)
    if not os.path.exists(os.path.join(bld, "build.ninja")):
        code, out = run(["cmake", "-S", src, "-B", bld, "-G", "Ninja",
                         "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DDOMINO_BENCH=OFF",
                         "-DDOMINO_BOARDS=" + boards], quiet=False)
        if code != 0:
            sys.exit("mutate: configure failed:\n" + out)
    return src, bld


def build(bld, jobs, timeout=None):
    return run(["ninja", "-C", bld, f"-j{jobs}"], timeout=timeout)


def ctest_cmd(bld, jobs, exclude, test_timeout, skip=None):
    cmd = ["ctest", "--test-dir", bld, f"-j{jobs}", "--stop-on-failure", "--no-tests=error",
           "--timeout", str(test_timeout)]
    if exclude:
        cmd += ["-LE", exclude]
    if skip:
        cmd += ["-E", skip]
    return cmd


def read_costs(bld):
    """Per-test mean seconds from ctest's cost file."""
    path = os.path.join(bld, "Testing", "Temporary", "CTestCostData.txt")
    costs = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip() == "---":
                    break
                parts = line.split()
                if len(parts) == 3:
                    costs[parts[0]] = float(parts[2])
    return costs


def write_costs(bld, order_costs, first):
    """ctest starts the costliest tests first and those listed after `---`
    before all: give the fastest test the highest cost, and put the tests
    that killed the last mutants first."""
    path = os.path.join(bld, "Testing", "Temporary", "CTestCostData.txt")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    ranked = sorted(order_costs.items(), key=lambda kv: kv[1])
    with open(path, "w") as f:
        for rank, (name, _) in enumerate(ranked):
            f.write(f"{name} 1 {len(ranked) - rank}\n")
        f.write("---\n")
        for name in first:
            f.write(name + "\n")


FAILED = re.compile(r"^\s*\d+ - (\S+) \((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception|Child aborted|.*)\)", re.M)
FAILED_LINE = re.compile(r"Test\s+#\d+:\s+(\S+)\s+\.*\*+(Failed|Timeout|Exception|Not Run)")


def main():
    ap = argparse.ArgumentParser(
        prog="scripts/mutate.sh",
        description="Mutation testing of domino's semantic core: each mutant changes one line "
                    "of one file (relational flips, && <-> ||, dropped +1/-1, a dropped call "
                    "statement, return 0 for an error, a negated condition), is rebuilt in a "
                    "persistent copy and run against ctest.")
    ap.add_argument("paths", nargs="*", default=DEFAULT_PATHS,
                    help="folders or .c files to mutate, relative to the repository "
                         "(default: src/core src/opp src/dt src/sim)")
    ap.add_argument("-n", "--mutants", type=int, default=200,
                    help="how many mutants to sample (0: all); default 200")
    ap.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="ninja and ctest parallelism (default 2)")
    ap.add_argument("--ops", default="rel,logic,off1,delcall,ret0,neg",
                    help="mutation operators, comma-separated (default: all six)")
    ap.add_argument("--work", default=None,
                    help="persistent work folder (copy of the tree and its build); "
                         "default $TMPDIR/domino-mutate-UID")
    ap.add_argument("--exclude-label", default="corpus",
                    help="ctest label regex to leave out (default: corpus)")
    ap.add_argument("-E", "--exclude-tests", default=None,
                    help="ctest name regex to leave out (a quicker, weaker suite: its "
                         "survivors are worth a rerun with --only survived without it)")
    ap.add_argument("--test-timeout", type=int, default=300,
                    help="per-test time limit, seconds, for tests without their own "
                         "(default 300: a loaded machine slows tests several times)")
    ap.add_argument("--timeout", type=int, default=0,
                    help="per-mutant limit for the whole ctest run, seconds "
                         "(default: 3 x the clean run + 30)")
    ap.add_argument("--reuse-clean", action="store_true",
                    help="skip the clean ctest run and reuse the last one's timings "
                         "(only when nothing but tests changed since)")
    ap.add_argument("--list", action="store_true", help="print the sampled mutants and stop")
    ap.add_argument("--results", default=None,
                    help="write every verdict as JSON lines to this file")
    ap.add_argument("--only", default=None,
                    help="run only the mutants of a --results file whose verdict is in this "
                         "comma-separated list (e.g. survived): re-check after adding tests")
    args = ap.parse_args()

    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    work = os.path.abspath(args.work or os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                     f"domino-mutate-{os.getuid()}"))
    ops = set(args.ops.split(","))
    files = source_files(repo, args.paths)
    everything = []
    for path in files:
        with open(os.path.join(repo, path), encoding="utf-8") as f:
            everything += [mu for mu in mutants_of(path, f.readlines()) if mu["op"] in ops]

    if args.only:
        if not args.results or not os.path.exists(args.results):
            sys.exit("mutate: --only needs an existing --results file")
        wanted = set(args.only.split(","))
        keys = set()
        with open(args.results) as f:
            for line in f:
                r = json.loads(line)
                if r["verdict"] in wanted:
                    keys.add((r["file"], r["op"], norm(r["orig"]), norm(r["new"])))
        chosen = [mu for mu in everything if mutant_key(mu) in keys]
        args.results = args.results + ".only"
    elif args.mutants and args.mutants < len(everything):
        chosen = random.Random(args.seed).sample(everything, args.mutants)
    else:
        chosen = list(everything)
    # Run order is the sample's own (random) order, so a run stopped early
    # still covers every folder; each mutant costs one relink either way.
    print(f"mutate: {len(everything)} mutants in {len(files)} files, {len(chosen)} chosen "
          f"(seed {args.seed})", flush=True)
    if args.list:
        for mu in chosen:
            print(f"{mu['file']}:{mu['line']}: {mu['op']}: {mu['desc']}")
        return 0

    # A stopped run still restores the file it mutated (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("mutate: stopped"))
    equivalents = load_equivalents(repo)
    started = time.time()
    sync_copy(repo, work)
    src, bld = configure(repo, work, args.jobs)
    code, out = build(bld, args.jobs)
    if code != 0:
        sys.exit("mutate: the unmutated tree does not build:\n" + out[-4000:])
    saved = os.path.join(work, "clean-run.json")
    if args.reuse_clean and os.path.exists(saved):
        with open(saved) as f:
            clean = json.load(f)
        costs, clean_time = clean["costs"], clean["seconds"]
    else:
        # ctest averages new timings into its cost file: start from none so
        # that the file holds this run's times, not the last mutant's order.
        cost_file = os.path.join(bld, "Testing", "Temporary", "CTestCostData.txt")
        if os.path.exists(cost_file):
            os.remove(cost_file)
        t0 = time.time()
        code, out = run(ctest_cmd(bld, args.jobs, args.exclude_label, args.test_timeout,
                                  args.exclude_tests))
        clean_time = time.time() - t0
        if code != 0:
            sys.exit("mutate: the unmutated tree fails its tests:\n" + out[-4000:])
        costs = read_costs(bld)
        with open(saved, "w") as f:
            json.dump({"costs": costs, "seconds": clean_time}, f)
    limit = args.timeout or int(3 * clean_time + 30)
    print(f"mutate: clean build and tests pass ({clean_time:.0f} s for the suite; "
          f"limit {limit} s per mutant)", flush=True)

    results = []
    killers = []
    out_file = open(args.results, "w") if args.results else None
    for i, mu in enumerate(chosen, 1):
        target = os.path.join(src, mu["file"])
        with open(target, encoding="utf-8") as f:
            original = f.readlines()
        if norm(original[mu["line"] - 1]) != norm(mu["orig"]):
            sys.exit(f"mutate: {mu['file']}:{mu['line']} changed under the run")
        mutated = list(original)
        mutated[mu["line"] - 1] = mu["new"]
        t_mu = time.time()
        try:
            with open(target, "w", encoding="utf-8") as f:
                f.writelines(mutated)
            code, out = build(bld, args.jobs)
            killer = ""
            if code != 0:
                verdict = "invalid"
            else:
                write_costs(bld, costs, killers)
                code, out = run(ctest_cmd(bld, args.jobs, args.exclude_label, args.test_timeout,
                                          args.exclude_tests), timeout=limit)
                if code is None:
                    verdict = "killed"
                    killer = "(time limit)"
                elif code != 0:
                    verdict = "killed"
                    m = FAILED_LINE.search(out) or FAILED.search(out)
                    killer = m.group(1) if m else "?"
                    # A test past its time limit may be a hang or a busy
                    # machine: say which, so a verdict can be doubted.
                    if m and m.group(2) == "Timeout":
                        killer += " (timeout)"
                    if m and m.group(1) in costs and m.group(2) != "Timeout":
                        killers = [killer] + [k for k in killers if k != killer][:4]
                else:
                    verdict = "survived"
        finally:
            with open(target, "w", encoding="utf-8") as f:
                f.writelines(original)
        if verdict == "survived" and mutant_key(mu) in equivalents:
            verdict = "equivalent"
        rec = dict(mu, verdict=verdict, killer=killer, seconds=round(time.time() - t_mu, 1))
        results.append(rec)
        if out_file:
            out_file.write(json.dumps(rec) + "\n")
            out_file.flush()
        print(f"[{i}/{len(chosen)}] {verdict:10} {mu['file']}:{mu['line']}: {mu['op']}: "
              f"{mu['desc']}{'  <- ' + killer if killer else ''}", flush=True)
    # Leave the copy's objects as the sources are.
    build(bld, args.jobs)

    print("\nper file: killed / survived / invalid / equivalent")
    per = {}
    for r in results:
        for key in (r["file"], os.path.dirname(r["file"]) + "/"):
            c = per.setdefault(key, {"killed": 0, "survived": 0, "invalid": 0, "equivalent": 0})
            c[r["verdict"]] += 1
    # Each folder's line, then its files'.
    for key in sorted(per, key=lambda k: (k if k.endswith("/") else os.path.dirname(k) + "/",
                                          not k.endswith("/"), k)):
        c = per[key]
        valid = c["killed"] + c["survived"]
        score = f"{100.0 * c['killed'] / valid:5.1f}%" if valid else "   - "
        label = key if key.endswith("/") else "  " + key
        print(f"{label:42} {c['killed']:4} {c['survived']:4} {c['invalid']:4} "
              f"{c['equivalent']:4}  {score}")
    total = {v: sum(1 for r in results if r["verdict"] == v)
             for v in ("killed", "survived", "invalid", "equivalent")}
    valid = total["killed"] + total["survived"]
    score = 100.0 * total["killed"] / valid if valid else 0.0
    print(f"\ntried {len(results)}, valid {valid + total['equivalent']}, killed {total['killed']}, "
          f"survived {total['survived']}, invalid {total['invalid']}, "
          f"equivalent {total['equivalent']}")
    print(f"score {score:.1f}% (killed / valid non-equivalent), {time.time() - started:.0f} s")
    survivors = [r for r in results if r["verdict"] == "survived"]
    if survivors:
        print("\nsurvivors:")
        for r in survivors:
            print(f"  {r['file']}:{r['line']}: {r['op']}: {r['desc']}")
            print(f"      - {r['orig'].strip()}")
            print(f"      + {r['new'].strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
