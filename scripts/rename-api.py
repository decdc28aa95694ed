#!/usr/bin/env python3
# rename-api: skip-file  (this script names the old prefixes on purpose)
"""One prefix for the public API of libdomino (issue 19): dmn_ / DMN_.

  rename-api.py --make-map MAP [--root DIR]
      Derive the old->new map from the public headers (DIR/include/domino/*.h,
      DIR defaults to the tree holding this script) and write it, sorted, one
      `OLD NEW [FLAGS]` per line. Every identifier the headers declare with an
      old prefix is in it: functions, typedefs (function-pointer ones too),
      struct/union/enum tags, enum constants, macros, extern variables; and
      the struct/union/enum tags and typedefs of DIR/src and DIR/cli that carry
      an old prefix (FLAGS `internal`), so the code reads as one codebase.
      FLAGS `tag`: a name that is only a tag; C code renames it only after
      `struct`, `union` or `enum` (a member may share the spelling).
      Fails (exit 1, nothing written) on a collision: two old names onto one
      new name, a new name already used in the C code of the tree, or a
      public member spelled like an old name.

  rename-api.py --apply MAP [PATH...]
      Rewrite the identifiers of MAP, whole words, in PATH (files or
      directories; default: the tree holding this script). Directories named
      .* or build* are skipped, and so is a file that says `rename-api:
      skip-file` in its first lines. Files: C (.c .h), CMake (CMakeLists.txt,
      *.cmake, *.in), shell, python, markdown, man pages (*.1), linker
      version scripts (*.map holding `global:`). Never rewritten: C string and
      character literals (program output stays byte-equal; only in a folder
      named tests are strings renamed: they label failed checks), #include lines,
      members (`.x`, `->x`), file names (`x.h`, `dir/x`), ctest names
      (`NAME x`), and text between lines saying `rename-api: off` and
      `rename-api: on`. Idempotent: no new name is an old one, so a second run
      changes nothing.

  rename-api.py --make-compat MAP [OUT]
      Write the opt-in header include/domino/compat.h (or OUT): the old
      public names as macros onto the new ones.

Porting your own code from the 0.1 names: run
      python3 scripts/rename-api.py --apply scripts/rename-api.map YOUR/DIR
  with the map shipped in domino's scripts/ (or keep the old names and
  `#include <domino/compat.h>` first).
Mapping: pd_X -> dmn_X, opp_X -> dmn_opp_X, dt_X -> dmn_dt_X,
scn_X -> dmn_scn_X, sim_X -> dmn_sim_X, rpt_X -> dmn_report_X,
scmi_X -> dmn_scmi_X, lint_X -> dmn_lint_X; upper case alike (PD_X -> DMN_X,
RPT_X -> DMN_REPORT_X, ...); dmn_ names and dmn__ internals stay.
"""

import argparse
import fnmatch
import os
import re
import sys

PREFIXES = [
    ("pd_", "dmn_"), ("opp_", "dmn_opp_"), ("dt_", "dmn_dt_"),
    ("scn_", "dmn_scn_"), ("sim_", "dmn_sim_"), ("rpt_", "dmn_report_"),
    ("scmi_", "dmn_scmi_"), ("lint_", "dmn_lint_"),
]
# An old name: an old prefix, then a letter or digit (scmi__x, dmn__x stay).
OLD_RE = re.compile(r"^(?:%s)[A-Za-z0-9]" % "|".join(
    re.escape(p) for o, _ in PREFIXES for p in (o, o.upper())))
SKIP_MARK = "rename-api: skip-file"
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
WORD_OR_GLOB = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\*[A-Za-z0-9_*]*)?")
FILE_EXT = re.compile(
    r"\.(?:c|h|md|py|sh|txt|json|svg|dtb|dts|dtsi|1|map|so|a|o|in|cmake|scn|events)\b")


BARE = {p for o, _ in PREFIXES for p in (o[:-1], o[:-1].upper())}


def is_old(name):
    return bool(OLD_RE.match(name)) or name in BARE


def new_name(old):
    if old in BARE:
        old += "_" if old.islower() else "_"
        return new_name(old)[:-1]
    for o, n in PREFIXES:
        if old.startswith(o):
            return n + old[len(o):]
        if old.startswith(o.upper()):
            return n.upper() + old[len(o):]
    raise ValueError(old)


def die(msg):
    sys.stderr.write("rename-api: %s\n" % msg)
    sys.exit(1)


# ---- reading C declarations -------------------------------------------------

C_TOKENS = re.compile(r"""
    (?P<lc>//[^\n]*)
  | (?P<bc>/\*.*?\*/)
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<chr>'(?:\\.|[^'\\\n])*')
  | (?P<inc>^[ \t]*\#[ \t]*include\b[^\n]*)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>[0-9][A-Za-z0-9_.]*)
""", re.S | re.M | re.X)


def blank(s):
    """s with everything but newlines turned into spaces."""
    return re.sub(r"[^\n]", " ", s)


def c_code_only(text):
    """C text without comments and literals (same length, same lines)."""
    def sub(m):
        if m.lastgroup in ("lc", "bc", "str", "chr"):
            return blank(m.group(0))
        return m.group(0)
    return C_TOKENS.sub(sub, text)


def strip_bodies(code):
    """Replace every {...} (nested) by ' {} ', return (flat, [bodies])."""
    out, bodies, depth, start, last = [], [], 0, 0, 0
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                out.append(code[last:i])
                start = i + 1
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                bodies.append(code[start:i])
                out.append(" {} ")
                last = i + 1
    out.append(code[last:] if depth == 0 else code[last:start])
    return "".join(out), bodies


def last_ident(stmt):
    stmt = re.sub(r"\[[^\]]*\]", " ", stmt)
    stmt = re.sub(r":\s*\w+\s*$", " ", stmt)
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)", stmt)
    if m:
        return m.group(1)
    words = WORD.findall(stmt)
    return words[-1] if words else None


def declarations(text):
    """{name: set(kinds)} and set(members) that C text declares."""
    code = c_code_only(text)
    found = {}

    def add(name, kind):
        if name:
            found.setdefault(name, set()).add(kind)
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", code, re.M):
        add(m.group(1), "macro")
    # Preprocessor lines (with continuations) are not declarations.
    code = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", lambda m: blank(m.group(0)), code,
                  flags=re.M)
    # extern "C" { ... } (its string is blank by now) is no body.
    code = re.sub(r"\bextern\s*\{", lambda m: blank(m.group(0)), code)
    for m in re.finditer(r"\b(?:struct|union|enum)\s+(\w+)", code):
        add(m.group(1), "tag")
    for m in re.finditer(r"\benum\b[^{;()]*\{([^}]*)\}", code):
        for item in m.group(1).split(","):
            w = WORD.match(item.strip())
            if w:
                add(w.group(0), "enumerator")
    members = set()

    def walk_members(body):
        flat, inner = strip_bodies(body)
        for stmt in flat.split(";"):
            if stmt.strip():
                name = last_ident(stmt.replace("{}", " "))
                if name:
                    members.add(name)
        for b in inner:
            if not re.match(r"\s*\w+\s*(?:=|,|$)", b):   # not an enum body
                walk_members(b)
    flat, bodies = strip_bodies(code)
    for b in bodies:
        if ";" in b and not re.search(r"\breturn\b", b):
            walk_members(b)
    for stmt in re.split(r";|\{\}", flat):
        s = stmt.strip()
        if not s:
            continue
        if re.match(r"typedef\b", s):
            m = re.search(r"\(\s*\*\s*(\w+)\s*\)", s)
            if m:
                add(m.group(1), "typedef")
            elif s.endswith(")"):
                m = re.search(r"(\w+)\s*\(", s)
                add(m and m.group(1), "typedef")
            else:
                add(last_ident(s), "typedef")
        elif "(" in s:
            for m in re.finditer(r"(\w+)\s*\(", s):
                if OLD_RE.match(m.group(1)) or m.group(1).startswith("dmn_"):
                    add(m.group(1), "function")
        else:
            name = last_ident(s)
            if name and not re.match(r"(?:struct|union|enum)\s+\w+\s*$", s):
                add(name, "variable")
    return found, members


# ---- the tree ----------------------------------------------------------------

def file_kind(path):
    base = os.path.basename(path)
    ext = os.path.splitext(base)[1]
    if ext in (".c", ".h"):
        return "c"
    if base == "CMakeLists.txt" or ext in (".cmake", ".in"):
        return "cmake"
    if ext in (".sh", ".py"):
        return "script"
    if ext in (".md", ".1"):
        return "prose"
    if ext == ".map":
        return "prose" if "global:" in read(path) else None
    return None


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def tree_files(paths):
    for top in paths:
        if os.path.isfile(top):
            yield top
            continue
        for d, dirs, files in os.walk(top):
            dirs[:] = sorted(x for x in dirs
                             if not x.startswith(".") and not x.startswith("build"))
            for f in sorted(files):
                p = os.path.join(d, f)
                if os.path.isfile(p) and not os.path.islink(p) and file_kind(p):
                    yield p


def skipped(text):
    return SKIP_MARK in text[:2000]


# ---- rewriting ----------------------------------------------------------------

def rename_text(s, ren, kind="prose", paths=frozenset()):
    """Whole words of prose, shell, CMake; not file names nor ctest names.
    In scripts and CMake, a word that names a file or folder of the tree
    (fuzz/corpus/dt_load) is a path or a target, not the function."""
    news = {v[0] for v in ren.values()}

    def sub(m):
        w = m.group(0)
        if "*" in w:
            return glob(w, ren)
        new = ren.get(w)
        if new is None:
            return w
        a, b = m.start(), m.end()
        pre = s[max(0, a - 2):a]
        prev = re.search(r"(\w*)/\Z", s[max(0, a - 80):a])
        if prev and not prev.group(1) and s[max(0, a - 2):a - 1] == ")":
            prev = None
        if prev and (prev.group(1) in ren or prev.group(1) in news):
            prev = None                       # a/b: two names, not a path
        if (FILE_EXT.match(s, b) or prev or re.match(r"\w\.\Z", pre)
                or pre.endswith(("-", "$", "->"))):
            return w                          # a file, a path, a member, an option
        if kind != "prose" and w in paths:
            return w
        if new[3] and not re.search(r"\b(?:struct|union|enum)\s+\Z", s[max(0, a - 20):a]):
            return w                                  # strict: a tag only after its keyword
        if kind == "cmake" and re.search(r"\bNAME\s+\Z", s[max(0, a - 20):a]):
            return w
        return new[0]
    return WORD_OR_GLOB.sub(sub, s)


def glob(w, ren):
    """opp_find_* -> dmn_opp_find_*, when it matches some old name."""
    for o, n in PREFIXES:
        for o, n in ((o, n), (o.upper(), n.upper())):
            if w.startswith(o) and any(fnmatch.fnmatchcase(k, w) for k in ren):
                return n + w[len(o):]
    return w


def rename_c(text, ren, labels=False):
    """labels: also in string literals (a test's messages name the call that
    failed; no test compares them with what the library prints)."""
    def sub(m):
        kind = m.lastgroup
        if kind in ("lc", "bc") or (labels and kind == "str"):
            return rename_text(m.group(0), ren)
        if kind != "word":
            return m.group(0)
        w = m.group(0)
        new = ren.get(w)
        if new is None:
            return w
        before = text[max(0, m.start() - 40):m.start()].rstrip()
        if before.endswith(".") or before.endswith("->"):
            return w                                  # a member
        if new[1] and not re.search(r"\b(?:struct|union|enum)\Z", before):
            return w                                  # a tag-only name, not as a tag
        return new[0]
    return C_TOKENS.sub(sub, text)


def rename_regions(text, fn):
    """fn over text, leaving lines between `rename-api: off` and `on` alone."""
    out, chunk, off = [], [], False
    for line in text.splitlines(keepends=True):
        if not off and "rename-api: off" in line:
            out.append(fn("".join(chunk)))
            out.append(line)
            chunk, off = [], True
        elif off:
            out.append(line)
            off = "rename-api: on" not in line
        else:
            chunk.append(line)
    out.append(fn("".join(chunk)))
    return "".join(out)


def load_map(path):
    ren = {}
    for n, line in enumerate(read(path).splitlines(), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        if len(line) not in (2, 3):
            die("%s:%d: expected OLD NEW [FLAGS]" % (path, n))
        flags = line[2].split(",") if len(line) == 3 else []
        ren[line[0]] = (line[1], "tag" in flags, "internal" in flags, "strict" in flags)
    for old, (new, *_) in ren.items():
        if new in ren:
            die("%s: %s is both a new and an old name" % (path, new))
    return ren


def apply(mapfile, paths):
    ren = load_map(mapfile)
    names = set()
    for top in paths:
        for d, dirs, files in os.walk(top):
            dirs[:] = [x for x in dirs if not x.startswith(".") and not x.startswith("build")]
            names.update(dirs)
            names.update(os.path.splitext(f)[0] for f in files)
    changed = 0
    for p in tree_files(paths):
        kind = file_kind(p)
        text = read(p)
        if kind is None or skipped(text):
            continue
        if kind == "c":
            new = rename_c(text, ren, "tests" in p.split(os.sep))
        else:
            new = rename_regions(text, lambda t: rename_text(t, ren, kind, names))
        if new != text:
            with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(new)
            changed += 1
            print(p)
    sys.stderr.write("rename-api: %d file(s) changed\n" % changed)


# ---- the map -----------------------------------------------------------------

def make_map(root, out):
    inc = os.path.join(root, "include", "domino")
    public, members = {}, set()
    for f in sorted(os.listdir(inc)):
        if not f.endswith(".h") or skipped(read(os.path.join(inc, f))):
            continue
        decl, mem = declarations(read(os.path.join(inc, f)))
        members |= mem
        for name, kinds in decl.items():
            public.setdefault(name, set()).update(kinds)
    internal, all_members = {}, set(members)
    for top in ("src", "cli"):
        for p in tree_files([os.path.join(root, top)]):
            if file_kind(p) != "c":
                continue
            decl, mem = declarations(read(p))
            all_members |= mem
            for name, kinds in decl.items():
                kinds = kinds & {"tag", "typedef"}
                if kinds and name not in public:
                    internal.setdefault(name, set()).update(kinds)
    rows, errors, by_new = [], [], {}
    for names, internal_flag in ((public, False), (internal, True)):
        for old in sorted(names):
            if not is_old(old):
                continue
            flags = []
            if names[old] == {"tag"}:
                flags.append("tag")
            if internal_flag:
                flags.append("internal")
            # A tag spelled like a member or a bare prefix (struct sim) is
            # renamed after struct/union/enum only, in prose too.
            if names[old] == {"tag"} and (old in BARE or (internal_flag and old in all_members)):
                flags.append("strict")
            new = new_name(old)
            if new in by_new:
                errors.append("%s and %s both become %s" % (by_new[new], old, new))
            by_new[new] = old
            if not internal_flag and old in members:
                errors.append("%s is also a member of a public struct" % old)
            rows.append((old, new, ",".join(flags)))
    news = set(by_new)
    for p in tree_files([root]):            # code only: docs may name the new API
        text = read(p)
        if file_kind(p) != "c" or skipped(text):
            continue
        for w in news & set(WORD.findall(c_code_only(text))):
            errors.append("%s (new name of %s) is already used in %s"
                          % (w, by_new[w], os.path.relpath(p, root)))
    odd = sorted(n for n in public if not is_old(n) and not n.startswith(("dmn_", "DMN_"))
                 and not re.match(r"DOMINO_\w+_H$", n))
    if odd:
        sys.stderr.write("rename-api: warning: public names with no known prefix "
                         "(left alone): %s\n" % " ".join(odd))
    if errors:
        die("collisions, no map written:\n  " + "\n  ".join(errors))
    with open(out, "w") as f:
        f.write("# rename-api: skip-file\n"
                "# The 0.1 -> 0.2 names of libdomino: OLD NEW [FLAGS], written by\n"
                "# scripts/rename-api.py --make-map (tag: renamed in C only after\n"
                "# struct/union/enum; strict: after struct/union/enum in prose too;\n"
                "# internal: not public, not in compat.h).\n")
        for old, new, flags in sorted(rows):
            f.write("%s %s%s\n" % (old, new, " " + flags if flags else ""))
    sys.stderr.write("rename-api: %d name(s) (%d internal) in %s\n"
                     % (len(rows), sum(1 for r in rows if "internal" in r[2]), out))


def make_compat(mapfile, out, root):
    ren = load_map(mapfile)
    inc = os.path.join(root, "include", "domino")
    headers = sorted(f for f in os.listdir(inc) if f.endswith(".h") and f != "compat.h"
                     and not skipped(read(os.path.join(inc, f))))
    lines = [
        "/* rename-api: skip-file -- generated by scripts/rename-api.py --make-compat */",
        "/*",
        " * domino/compat.h - the 0.1 names (DESIGN section 5: pd_, opp_, dt_, scn_,",
        " * sim_, rpt_, scmi_, lint_) as macros onto the 0.2 names (dmn_, DMN_).",
        " *",
        " * Opt-in: no other header includes it. Code written against the old names",
        " * compiles unchanged after #include <domino/compat.h>; it declares the",
        " * whole API. The macros are plain object-like macros, so a local name",
        " * spelled like an old public name is renamed too. Linked symbols are the",
        " * new names only. To port code for good instead:",
        " *   python3 scripts/rename-api.py --apply scripts/rename-api.map DIR",
        " */",
        "#ifndef DOMINO_COMPAT_H",
        "#define DOMINO_COMPAT_H",
        "",
    ]
    lines += ["#include <domino/%s>" % h for h in headers]
    lines.append("")
    for old in sorted(ren):
        new, _, internal, _ = ren[old]
        if not internal:
            lines.append("#define %s %s" % (old, new))
    lines += ["", "#endif /* DOMINO_COMPAT_H */", ""]
    with open(out, "w") as f:
        f.write("\n".join(lines))
    sys.stderr.write("rename-api: wrote %s\n" % out)


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n", 1)[0],
        epilog=__doc__.split("\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--make-map", metavar="MAP")
    g.add_argument("--apply", metavar="MAP")
    g.add_argument("--make-compat", metavar="MAP")
    ap.add_argument("--root", default=here, help="the domino tree (default: %(default)s)")
    ap.add_argument("paths", nargs="*", metavar="PATH")
    a = ap.parse_args()
    if a.make_map:
        make_map(a.root, a.make_map)
    elif a.apply:
        apply(a.apply, a.paths or [a.root])
    else:
        out = a.paths[0] if a.paths else os.path.join(a.root, "include", "domino", "compat.h")
        make_compat(a.make_compat, out, a.root)


if __name__ == "__main__":
    main()
