#!/usr/bin/env bash
# The corpus run: every arch/arm and arch/arm64 device tree of Linux 6.12,
# built as Linux builds them and given to `domino summary` and `domino lint`.
# Run `scripts/corpus.sh --help` for the options; docs/lint-corpus.md says
# what the lint figures mean.
set -uo pipefail

usage() {
  cat <<'EOF'
usage: scripts/corpus.sh [OPTIONS]

Builds every .dts of Linux 6.12's arch/arm and arch/arm64 with cpp and
`dtc -@` (the sources come from Debian's linux-source-6.12 package, which is
installed with apt-get when missing and run as root), caches the blobs, runs
`domino summary --json` and `domino lint --json` on each, and prints one line
per figure. Exit status: 0 when every built board loads, no run crashes or
times out and (with --asan/--valgrind) no memory error is found; 1 otherwise;
2 bad usage or a failed setup step; 77 when the sources are not available
and --no-install forbids installing them (ctest shows the test as skipped).

  --domino PATH   the domino command (default: build/cli/domino, else PATH)
  --sample N      only N boards: evenly spaced over the sorted list of the
                  built boards whose blob uses power domains or OPP tables
  --asan          run an ASan+UBSan domino (the one --domino names, else one
                  built with clang into build-corpus-asan/); default sample 100
  --valgrind      run domino under valgrind memcheck; default sample 100
  --build-only    build (or refresh) the blob cache and stop
  --bench         time loading every blob in-process against dtc: builds
                  bench/'s domino-corpus-load (Release, build-release/), which
                  reads, loads (dt_load, lenient) and instantiates each blob
                  into a fresh context and frees it, then runs
                  `dtc -I dtb -O dts` on the same blob (interleaved, so both
                  see the same machine); prints each total (best of
                  --passes), the ratio and its target (<= 0.1), and the
                  ratio in CPU time (see bench/README.md); --sample
                  applies; no summary/lint runs
  --passes N      passes of the --bench timing (default 3)
  --tree          lint the sources instead of the blobs, as a kernel engineer
                  would: `domino lint --tree SRC --format json -j JOBS` on the
                  extracted tree (every .dts of arch/arm and arch/arm64, built
                  with cpp and dtc by domino itself, findings at their source
                  lines, folded across boards); prints the time, the boards
                  dtc could not build and, per check, its findings, distinct
                  source locations and boards (docs/lint-corpus.md, Tree
                  mode); --sample does not apply
  --no-install    never run apt-get: exit 77 when the sources are missing
  --jobs N        parallel jobs (default: nproc)
  --timeout S     seconds per domino run (default 60; 600 under valgrind)
  --keep          keep the per-board outputs and print where they are
  -h, --help      this text

Environment:
  DOMINO_CORPUS_CACHE  the cache (default /var/tmp/domino-corpus): extracted
                       sources, blobs in dtb/, the last run's tables in report/MODE/
  DOMINO_LINUX_SRC     a tree already holding arch/arm*/boot/dts, include/ and
                       scripts/dtc/include-prefixes: used instead of the package
  DOMINO_LINUX_TARBALL the package's tarball (default
                       /usr/src/linux-source-6.12.tar.xz)
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${DOMINO_CORPUS_CACHE:-/var/tmp/domino-corpus}
src=${DOMINO_LINUX_SRC:-}
domino=""
sample=""
asan=0
valgrind=0
build_only=0
bench=0
tree=0
passes=3
install=1
keep=0
jobs=$(nproc)
per_run=""

die() { echo "corpus: error: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --domino) [ $# -ge 2 ] || die "--domino needs a PATH"; domino=$2; shift 2 ;;
    --sample) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--sample needs a positive count"; sample=$2; shift 2 ;;
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive count"; jobs=$2; shift 2 ;;
    --timeout) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--timeout needs seconds"; per_run=$2; shift 2 ;;
    --asan) asan=1; shift ;;
    --valgrind) valgrind=1; shift ;;
    --build-only) build_only=1; shift ;;
    --bench) bench=1; shift ;;
    --tree) tree=1; shift ;;
    --passes) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--passes needs a positive count"; passes=$2; shift 2 ;;
    --no-install) install=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "corpus: error: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
if [ $((asan + valgrind)) -gt 0 ] && [ -z "$sample" ]; then sample=100; fi
[ $((bench + asan + valgrind + tree)) -le 1 ] || die "--bench, --asan, --valgrind and --tree do not mix"
if [ -z "$per_run" ]; then
  if [ "$valgrind" = 1 ]; then per_run=600; else per_run=60; fi
fi
started=$EPOCHREALTIME

# Seconds since $1 (an $EPOCHREALTIME), with one decimal.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

mkdir -p "$cache" || die "cannot create the cache $cache"

# ---- sources ----------------------------------------------------------------
# Only what a board build reads is extracted: the dts trees, the binding
# headers and the include-prefixes links that point at them.
tarball=${DOMINO_LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
if [ -z "$src" ]; then
  src=$cache/linux-source-6.12
  if [ ! -f "$src/.domino-extracted" ]; then
    if [ ! -f "$tarball" ]; then
      if [ "$install" = 0 ] || [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
        echo "corpus: skipped: $tarball is absent (Debian's linux-source-6.12;" \
             "as root: apt-get install linux-source-6.12, or set DOMINO_LINUX_SRC)"
        exit 77
      fi
      echo "corpus: installing linux-source-6.12 with apt-get" >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        linux-source-6.12 >/dev/null || die "apt-get install linux-source-6.12 failed"
    fi
    t=$EPOCHREALTIME
    tmp=$(mktemp -d "$cache/extract.XXXXXX") || die "cannot create a directory in $cache"
    tar -xJf "$tarball" -C "$tmp" \
      linux-source-6.12/arch/arm/boot/dts linux-source-6.12/arch/arm64/boot/dts \
      linux-source-6.12/arch/riscv/boot/dts \
      linux-source-6.12/include/dt-bindings linux-source-6.12/include/uapi \
      linux-source-6.12/scripts/dtc/include-prefixes || { rm -rf "$tmp"; die "cannot extract $tarball"; }
    rm -rf "$src" && mv "$tmp/linux-source-6.12" "$src" && rmdir "$tmp" &&
      touch "$src/.domino-extracted" || die "cannot move the sources into $src"
    echo "corpus: sources extracted into $src in $(since "$t") s" >&2
  fi
fi
for d in arch/arm/boot/dts arch/arm64/boot/dts include scripts/dtc/include-prefixes; do
  [ -d "$src/$d" ] || die "$src/$d is missing"
done
for tool in cpp dtc jq; do
  command -v $tool >/dev/null || die "$tool is needed (scripts/deps.sh installs it)"
done

# ---- --tree: lint the sources as a kernel engineer would ---------------------------
# One `domino lint --tree` over the extracted tree: domino runs cpp and dtc
# itself, with the include paths of Linux's dtbs rule, and places every
# finding on its source line. The figures come from its JSON.
if [ "$tree" = 1 ]; then
  if [ -z "$domino" ]; then
    if [ -x "$root/build/cli/domino" ]; then domino=$root/build/cli/domino
    else domino=$(command -v domino) || die "no domino: build it or give --domino PATH"; fi
  fi
  [ -x "$domino" ] || die "$domino is not an executable"
  domino=$(realpath "$domino")
  report=$cache/report/tree
  mkdir -p "$report"
  figures=""
  line() { printf '%-28s %s\n' "$1:" "$2"; figures+=$(printf '%-28s %s' "$1:" "$2")$'\n'; }
  t=$EPOCHREALTIME
  TIMEFORMAT='%R %U %S'
  { time (cd "$src" && "$domino" lint --tree . -j "$jobs" --format json >"$report/tree.json" 2>"$report/tree.err"; echo $? >"$report/rc") ; } 2>"$report/time"
  rc=$(cat "$report/rc")
  read -r wall user sys <"$report/time"
  jq -e .boards "$report/tree.json" >/dev/null 2>&1 || die "domino lint --tree gave no JSON (exit $rc): $(head -c 300 "$report/tree.err")"
  [ "$rc" -le 2 ] || die "domino lint --tree exit $rc: $(head -c 300 "$report/tree.err")"
  get() { jq -r "$1" "$report/tree.json"; }
  line "mode" "tree: domino lint --tree over $src, $jobs jobs, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $domino"
  line "boards" "$(get .boards) .dts linted, $(get '.failed | length') not built ($(get '[.failed[].board] | join(", ")'))"
  line "time" "$wall s wall, $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }') s CPU (cpp, dtc and lint of every board; exit status $rc)"
  line "findings" "$(get '.counts.errors') errors, $(get '.counts.warnings') warnings, $(get '.counts.notes') notes; $(get '[.findings[] | select(.file) | [.file, .line, .column]] | unique | length') distinct source locations, $(get '[.findings[] | select(.file | not)] | length') findings not placed"
  line "per check" "check severity findings locations boards"
  while IFS=$'\t' read -r c sev n loc b; do
    line "  $c" "$sev $n $loc $b"
  done < <(get '.checks[] | [.check, .severity, .findings, .locations, .boards] | @tsv')
  line "most shared" "$(get '[.findings[] | select(.file)] | sort_by(-.count) | .[0] | "\(.file):\(.line):\(.column) [\(.check)] on \(.count) boards"')"
  line "tables" "$report/tree.json, tree.err, figures.txt"
  printf '%s' "$figures" >"$report/figures.txt"
  exit 0
fi

# ---- blobs --------------------------------------------------------------------
# One blob per .dts at dtb/ARCH/VENDOR/BOARD.dtb (the two arches share board
# names); a board dtc cannot build leaves BOARD.failed with its errors, so
# neither is rebuilt until removed. The cache is keyed by the source tree's
# real path, so DOMINO_LINUX_SRC and the package do not mix.
key=$(realpath "$src" | cksum | cut -d' ' -f1)
dtbdir=$cache/dtb/$key
mkdir -p "$dtbdir"
build_one() {
  local name=$1 arch=${1%%/*} sub=${1#*/}
  local dts=$src/arch/$arch/boot/dts/$sub.dts out=$dtbdir/$name
  [ -f "$out.dtb" ] || [ -f "$out.failed" ] && return 0
  mkdir -p "$(dirname "$out")"
  if cpp -nostdinc -undef -x assembler-with-cpp -D__DTS__ -I "$(dirname "$dts")" \
       -I "$src/scripts/dtc/include-prefixes" -I "$src/include" "$dts" 2>"$out.err.$$" |
     dtc -@ -q -b 0 -i "$(dirname "$dts")" -I dts -O dtb -o "$out.tmp.$$" - 2>>"$out.err.$$"; then
    mv -f "$out.tmp.$$" "$out.dtb"
    rm -f "$out.err.$$"
  else
    rm -f "$out.tmp.$$"
    mv -f "$out.err.$$" "$out.failed"
  fi
}
export -f build_one
export src dtbdir

mapfile -t boards < <(cd "$src/arch" && find arm/boot/dts arm64/boot/dts -name '*.dts' |
  sed 's|/boot/dts/|/|; s|\.dts$||' | LC_ALL=C sort)
[ ${#boards[@]} -gt 0 ] || die "no .dts under $src/arch"
t=$EPOCHREALTIME
# Two runs at once (ctest -j) build the cache once: the second waits.
exec 9>"$dtbdir/.lock"
flock 9
printf '%s\0' "${boards[@]}" | xargs -0 -P "$jobs" -n 16 bash -c 'for b; do build_one "$b"; done' _
flock -u 9
build_s=$(since "$t")
built=() failed=()
for b in "${boards[@]}"; do
  if [ -f "$dtbdir/$b.dtb" ]; then built+=("$b"); else failed+=("$b"); fi
done
figures=""
line() { printf '%-28s %s\n' "$1:" "$2"; figures+=$(printf '%-28s %s' "$1:" "$2")$'\n'; }
line "boards built" "${#built[@]} of ${#boards[@]} .dts in $build_s s (dtc could not build ${#failed[@]}${failed:+: ${failed[*]}})"
if [ "$build_only" = 1 ]; then
  line "blob cache" "$dtbdir"
  exit 0
fi

# ---- the boards to run ----------------------------------------------------------
run=("${built[@]}")
what="every built board"
if [ -n "$sample" ]; then
  # Boards that use power domains or OPP tables exercise the loader: the
  # property names sit in the blob's strings block.
  mapfile -t cand < <(cd "$dtbdir" && printf '%s.dtb\0' "${built[@]}" |
    LC_ALL=C xargs -0 grep -laE 'power-domains|operating-points-v2' | sed 's/\.dtb$//' | LC_ALL=C sort)
  run=()
  n=${#cand[@]}
  if [ "$sample" -ge "$n" ]; then run=("${cand[@]}")
  else for ((i = 0; i < sample; i++)); do run+=("${cand[i * n / sample]}"); done; fi
  what="a sample of ${#run[@]} of the $n boards with power domains or OPP tables"
fi

# ---- --bench: in-process load against dtc -----------------------------------------
# One process, one blob at a time (no --jobs): a per-blob time, not a
# throughput, and dtc runs right after each load so both see the same machine.
if [ "$bench" = 1 ]; then
  bdir=$root/build-release
  { cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDOMINO_TESTS=OFF >/dev/null &&
    ninja -C "$bdir" domino-corpus-load >/dev/null; } || die "cannot build bench/domino-corpus-load in $bdir"
  list=$(mktemp "$cache/bench.XXXXXX") || die "cannot create a file in $cache"
  printf "$dtbdir/%s.dtb\n" "${run[@]}" >"$list"
  res=$("$bdir/bench/domino-corpus-load" --dtc --repeat "$passes" "$list")
  rc=$?
  rm -f "$list"
  [ $rc = 0 ] || die "domino-corpus-load failed (exit $rc)"
  get() { awk -v k="$1" '$1 == k { print $2 }' <<<"$res"; }
  ratio=$(get corpus_load_vs_dtc)
  verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 0.1 ? "PASS" : "MISS") }')
  line "mode" "bench, $what: $(get corpus_blobs) blobs, best of $passes passes, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  line "load in-process" "$(get corpus_load_s) s ($(get corpus_load_us_per_blob) us a blob: read, dt_load, dmn_dt_instantiate into a new context, free; $(get corpus_load_errors) blobs with load errors)"
  line "dtc -I dtb -O dts" "$(get corpus_dtc_s) s ($(get corpus_dtc_us_per_blob) us a blob, process spawn included)"
  line "load vs dtc" "$ratio (target <= 0.1: $verdict); in CPU time $(get corpus_load_cpu_s) s / $(get corpus_dtc_cpu_s) s = $(get corpus_load_vs_dtc_cpu)"
  printf '%s\n' "$res"
  exit 0
fi

# ---- the domino under test --------------------------------------------------------
if [ "$asan" = 1 ] && [ -z "$domino" ]; then
  asan_dir=$root/build-corpus-asan
  echo "corpus: building an ASan+UBSan domino in $asan_dir" >&2
  { cmake -S "$root" -B "$asan_dir" -G Ninja -DCMAKE_C_COMPILER=clang \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDOMINO_SANITIZE=address,undefined >/dev/null &&
    ninja -C "$asan_dir" domino >/dev/null; } || die "cannot build the ASan+UBSan domino"
  domino=$asan_dir/cli/domino
fi
if [ -z "$domino" ]; then
  if [ -x "$root/build/cli/domino" ]; then domino=$root/build/cli/domino
  else domino=$(command -v domino) || die "no domino: build it or give --domino PATH"; fi
fi
[ -x "$domino" ] || die "$domino is not an executable"
domino=$(realpath "$domino")
wrap=()
if [ "$valgrind" = 1 ]; then
  command -v valgrind >/dev/null || die "valgrind is not installed"
  wrap=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect)
fi
# Sanitizer reports end the run with exit 99 (not 1, which lint uses); the
# reports are also searched for on stderr, whatever the exit status.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1:exitcode=99"

mode="plain"
[ "$asan" = 1 ] && mode="ASan+UBSan"
[ "$valgrind" = 1 ] && mode="valgrind memcheck"
out=$(mktemp -d "$cache/run.XXXXXX") || die "cannot create a directory in $cache"
export out domino per_run
export wrap_cmd="${wrap[*]}"

mem_check=0
[ "$mode" != plain ] && mem_check=1
export mem_check
# Each worker appends one line per board to its own $out/rc.PID: name,
# summary's and lint's exit status, summary's wall time in ms, and whether
# summary's and lint's stderr hold a sanitizer or valgrind report (looked for
# only in those modes: a grep per run is not free).
run_one() {
  local name=$1 blob=$dtbdir/$1.dtb res t0 t1 rs rl ms=0 ml=0
  res=$out/${1//\//:}
  t0=${EPOCHREALTIME/./}
  timeout -k 5 "$per_run" $wrap_cmd "$domino" summary --json "$blob" >"$res.summary.json" 2>"$res.summary.err"
  rs=$?
  t1=${EPOCHREALTIME/./}
  timeout -k 5 "$per_run" $wrap_cmd "$domino" lint --json "$blob" >"$res.lint.json" 2>"$res.lint.err"
  rl=$?
  if [ "$mem_check" = 1 ]; then
    memreport "$res.summary.err" && ms=1
    memreport "$res.lint.err" && ml=1
  fi
  echo "$name $rs $rl $(((t1 - t0) / 1000)) $ms $ml" >>"$out/rc.$$"
}
memreport() { grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|^==[0-9]+== ' "$1"; }
export -f run_one memreport
t=$EPOCHREALTIME
printf '%s\0' "${run[@]}" | xargs -0 -P "$jobs" -n 16 bash -c 'for b; do run_one "$b"; done' _
run_s=$(since "$t")

# ---- figures ----------------------------------------------------------------------------
report=$cache/report/${mode%% *}${sample:+-sample$sample}
report=${report/+/-}
mkdir -p "$report"
LC_ALL=C sort "$out"/rc.* 2>/dev/null | awk -v OFS='\t' '{ $1 = $1; print }' >"$report/boards.tsv"
loaded=() load_fail=() crash=() memerr=() lint_fail=() lintok=()
slow_ms=-1 slow_board=""
signame() {
  case $1 in
    124) echo "timeout after ${per_run} s" ;;
    137) echo "killed (SIGKILL, after the timeout)" ;;
    99) echo "memory error (exit 99)" ;;
    *) if [ "$1" -gt 128 ]; then echo "signal SIG$(kill -l $(($1 - 128)) 2>/dev/null || echo $(($1 - 128)))"
       else echo "exit $1"; fi ;;
  esac
}
# The first line of a run's stderr that says what went wrong.
first_error() { grep -m1 -E 'error|ERROR|^==[0-9]+== [A-Z]' "$1" | sed 's/^==[0-9]*== //' || head -n1 "$1"; }
declare -A seen=()
while IFS=$'\t' read -r b rs rl ms mems meml; do
  seen[$b]=1
  f=$out/${b//\//:}
  for cmd in summary lint; do
    if [ $cmd = summary ]; then rc=$rs mem=$mems; else rc=$rl mem=$meml; fi
    if [ "$mem" = 1 ] || [ "$rc" = 99 ]; then
      memerr+=("$b ($cmd: $(first_error "$f.$cmd.err"))")
    elif [ "$rc" -ge 124 ]; then
      crash+=("$b ($cmd: $(signame "$rc"))")
    elif [ $cmd = summary ] && [ "$rc" != 0 ]; then
      load_fail+=("$b: $(first_error "$f.summary.err")")
    elif [ $cmd = lint ] && [ "$rc" -gt 1 ]; then
      lint_fail+=("$b: $(first_error "$f.lint.err")")
    fi
  done
  if [ "$rs" = 0 ]; then
    loaded+=("$f.summary.json")
    if [ "$ms" -gt "$slow_ms" ]; then slow_ms=$ms slow_board=$b; fi
  fi
  [ "$rl" -le 1 ] && lintok+=("$f.lint.json")
done <"$report/boards.tsv"
for b in "${run[@]}"; do
  [ -n "${seen[$b]:-}" ] || crash+=("$b (no result: the worker died)")
done

# Per board: domains, distinct devices; per finding: board, severity, check,
# node, property, message. One jq per batch of files, not one per board.
: >"$report/domains.tsv"
if [ ${#loaded[@]} -gt 0 ]; then
  printf '%s\0' "${loaded[@]}" |
    xargs -0 jq -r '[input_filename, (.domains | length),
                     ([.domains[].devices[].path] | unique | length)] | @tsv' \
      >"$report/domains.tsv" || die "jq could not read a summary"
fi
: >"$report/findings.tsv"
if [ ${#lintok[@]} -gt 0 ]; then
  printf '%s\0' "${lintok[@]}" |
    xargs -0 jq -r 'input_filename as $f | .findings[] |
                    [$f, .severity, .check, .node, (.property // "-"), .message] | @tsv' \
      >"$report/findings.tsv" || die "jq could not read a lint report"
fi
# back from the output file names to board names
for tsv in domains findings; do
  sed -i "s|^$out/||; s|\.\(summary\|lint\)\.json\t|\t|; s|^\([^\t]*\)|\1|; :a; s|^\([^\t:]*\):|\1/|; ta" "$report/$tsv.tsv"
done

with_domains=$(awk -F'\t' '$2 > 0' "$report/domains.tsv" | wc -l)
domains=$(awk -F'\t' '{ s += $2 } END { print s + 0 }' "$report/domains.tsv")
devices=$(awk -F'\t' '{ s += $3 } END { print s + 0 }' "$report/domains.tsv")
# "N on B boards (check N/B, ...)" for one severity, checks by count.
lint_line() {
  awk -F'\t' -v sev="$1" '
    $2 == sev { n++; c[$3]++; if (!(($1, $3) in seen)) { seen[$1, $3] = 1; cb[$3]++ }
                if (!($1 in b)) { b[$1] = 1; nb++ } }
    END {
      printf "%d on %d boards", n, nb
      k = 0
      for (x in c) keys[++k] = x
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
        if (c[keys[j]] > c[keys[i]] || (c[keys[j]] == c[keys[i]] && keys[j] < keys[i])) {
          t = keys[i]; keys[i] = keys[j]; keys[j] = t }
      for (i = 1; i <= k; i++)
        printf "%s%s %d/%d", i == 1 ? " (" : ", ", keys[i], c[keys[i]], cb[keys[i]]
      if (k) printf ")"
      printf "\n"
    }' "$report/findings.tsv"
}
list() { local x; for x in "$@"; do echo "    $x"; figures+="    $x"$'\n'; done; }

line "mode" "$mode, $what: ${#run[@]} boards, $jobs jobs, $domino"
line "boards loaded" "${#loaded[@]} of ${#run[@]}"
line "load failures" "${#load_fail[@]}"
list "${load_fail[@]}"
line "crashes" "${#crash[@]}"
list "${crash[@]}"
if [ "$mode" != plain ]; then
  line "memory errors" "${#memerr[@]}"
  list "${memerr[@]}"
fi
line "lint could not run" "${#lint_fail[@]}"
list "${lint_fail[@]}"
line "boards with domains" "$with_domains"
line "domains" "$domains"
line "devices" "$devices"
line "lint errors" "$(lint_line error)"
line "lint warnings" "$(lint_line warning)"
line "lint notes" "$(lint_line note)"
line "slowest load" "${slow_ms} ms (${slow_board:-none}; summary --json, process included)"
line "total time" "$(since "$started") s (build $build_s s, runs $run_s s)"
line "tables" "$report/{boards,domains,findings}.tsv, figures.txt"
printf '%s' "$figures" >"$report/figures.txt"
if [ "$keep" = 1 ]; then line "outputs" "$out"; else rm -rf "$out"; fi

[ ${#load_fail[@]} -eq 0 ] && [ ${#crash[@]} -eq 0 ] && [ ${#memerr[@]} -eq 0 ] && [ ${#lint_fail[@]} -eq 0 ]
