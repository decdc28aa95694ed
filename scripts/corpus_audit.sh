#!/usr/bin/env bash
# The modelling audit of the corpus: every cached Linux 6.12 arm/arm64 blob
# (scripts/corpus.sh --build-only builds the cache) through `domino summary
# --json`, `domino lint --json` and a `domino simulate --json` that resumes
# every device and then sets every device that has an OPP table to its
# highest rate. Prints the tables docs/corpus-audit.md is made of; run
# `scripts/corpus_audit.sh --help` for the options.
set -uo pipefail

usage() {
  cat <<'EOF'
usage: scripts/corpus_audit.sh [OPTIONS]

Reads the blob cache of scripts/corpus.sh (it never builds it), runs three
domino commands per board (a blob without power-domains, #power-domain-cells
or an OPP table gets a row of zeros and no runs) and writes, under
CACHE/report/audit/:

  boards.tsv    board, domains, devices, links (parent-child), domains with
                pstate levels, domains with idle states, domains on after
                the simulate, domains at a non-zero pstate after it,
                commands that failed, lint warnings, lint notes
  findings.tsv  board, severity, check, node, property, message (lint)
  kinds.tsv     severity, check, property, findings, boards
  failed.tsv    board, scenario line, cause, error, message (simulate)
  features.tsv  feature, boards whose blob holds it (a property name or
                compatible in the blob; what the audit's categories count)
  audit.md      the same, as the Markdown tables of docs/corpus-audit.md

  --domino PATH   the domino command (default: build-release/cli/domino,
                  then build/cli/domino)
  --jobs N        parallel jobs (default: nproc)
  --timeout S     seconds per domino run (default 60)
  --keep          keep the per-board JSON and scenarios, print where
  -h, --help      this text

Exit status: 0 when every board loaded and every command ran; 1 when a
board failed to load or a run crashed or timed out; 2 bad usage or no cache.
Environment: DOMINO_CORPUS_CACHE (default /var/tmp/domino-corpus).
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${DOMINO_CORPUS_CACHE:-/var/tmp/domino-corpus}
domino=""
jobs=$(nproc)
per_run=60
keep=0
die() { echo "corpus_audit: error: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --domino) [ $# -ge 2 ] || die "--domino needs a PATH"; domino=$2; shift 2 ;;
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive count"; jobs=$2; shift 2 ;;
    --timeout) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--timeout needs seconds"; per_run=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
for tool in jq timeout; do command -v $tool >/dev/null || die "needs $tool"; done
if [ -z "$domino" ]; then
  for d in "$root/build-release/cli/domino" "$root/build/cli/domino"; do
    [ -x "$d" ] && { domino=$d; break; }
  done
fi
[ -n "$domino" ] && [ -x "$domino" ] || die "no domino command (build one, or --domino PATH)"
# The newest blob directory of the cache (one per Linux tree).
dtbdir=$(ls -dt "$cache"/dtb/*/ 2>/dev/null | head -1)
[ -n "$dtbdir" ] || die "no blob cache under $cache/dtb (run scripts/corpus.sh --build-only)"
dtbdir=${dtbdir%/}
mapfile -t boards < <(cd "$dtbdir" && find arm arm64 -name '*.dtb' | sed 's/\.dtb$//' | LC_ALL=C sort)
[ ${#boards[@]} -gt 0 ] || die "no blobs in $dtbdir"
report=$cache/report/audit
mkdir -p "$report" || die "cannot create $report"
out=$(mktemp -d "$cache/audit.XXXXXX") || die "cannot create a directory in $cache"
[ "$keep" = 1 ] || trap 'rm -rf "$out"' EXIT

# ---- one board: three runs and its rows of each table ------------------------------
# The scenario resumes every device (by path: paths are unique) in path
# order, then rates every device with an OPP table to its highest rate
# (a table whose every entry needs a hardware version has none: skipped).
# Each board's rows are made here, in the parallel jobs; a board that did
# not run leaves a .bad line instead.
one() {
  local b=$1 blob=$dtbdir/$1.dtb res=$out/${1//\//:} rs rl rm
  # A blob without power-domains, #power-domain-cells or an OPP table
  # (its property names sit in the strings block, each ended by a NUL)
  # has nothing to audit: a row of zeros, no runs.
  if ! LC_ALL=C grep -qaP 'power-domains\x00|#power-domain-cells\x00|operating-points(-v2)?\x00' "$blob"; then
    printf 'B\t%s\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\n' "$b" >"$res.rows"
    return 0
  fi
  timeout -k 5 "$per_run" "$domino" summary --json "$blob" >"$res.s.json" 2>/dev/null
  rs=$?
  timeout -k 5 "$per_run" "$domino" lint --json "$blob" >"$res.l.json" 2>/dev/null
  rl=$?
  jq -r '([.domains[].devices[].path] | unique | .[] | "resume \(.)"),
         (.opp_rates[]? | select(.hz | length > 0) | "rate \(.device) \(.hz | max)")' "$res.s.json" >"$res.scn" 2>/dev/null
  timeout -k 5 "$per_run" "$domino" simulate "$blob" "$res.scn" --json >"$res.m.json" 2>/dev/null
  rm=$?
  # summary 0, lint 0 or 1, simulate 0 (a failed command is an event)
  if [ $rs != 0 ] || [ $rl -gt 1 ] || [ $rm != 0 ]; then
    echo "$b (summary $rs, lint $rl, simulate $rm)" >"$res.bad"
    return 0
  fi
  jq -r --arg b "$b" --slurpfile l "$res.l.json" '
    ($l[0].findings // []) as $f |
    ((.events // []) | map(select(.kind == "command_error" or .kind == "failure"))) as $e |
    ([$b, (.domains | length),
      ([.domains[].devices[].path] | unique | length),
      ([.domains[].parents | length] | add // 0),
      ([.domains[] | select((.levels | length) > 0)] | length),
      ([.domains[] | select((.idle_states | length) > 0)] | length),
      ([.domains[] | select(.status == "on")] | length),
      ([.domains[] | select(.pstate > 0)] | length),
      ($e | length),
      ([$f[] | select(.severity == "warning")] | length),
      ([$f[] | select(.severity == "note")] | length)] | "B\t" + @tsv),
    ($f[] | ["F", $b, .severity, .check, .node, (.property // "-"), .message] | @tsv),
    ($e[] | ["E", $b, .line, .cause, .error, (.message // "-")] | @tsv)' \
    "$res.m.json" >"$res.rows" 2>/dev/null || echo "$b (jq could not read its reports)" >"$res.bad"
  [ "$keep" = 1 ] || rm -f "$res".*.json "$res.scn"
}
export -f one
export dtbdir out domino per_run keep
printf '%s\0' "${boards[@]}" | xargs -0 -P "$jobs" -n 8 bash -c 'for b; do one "$b"; done' _

# ---- the tables --------------------------------------------------------------------
bad=()
: >"$report/boards.tsv"; : >"$report/findings.tsv"; : >"$report/failed.tsv"
for b in "${boards[@]}"; do
  res=$out/${b//\//:}
  [ -f "$res.bad" ] || [ ! -f "$res.rows" ] || cat "$res.rows"
done | awk -v r="$report" 'BEGIN { FS = OFS = "\t" }
  { t = $1; sub(/^[^\t]*\t/, "") }
  t == "B" { print > (r "/boards.tsv") }
  t == "F" { print > (r "/findings.tsv") }
  t == "E" { print > (r "/failed.tsv") }'
for b in "${boards[@]}"; do
  res=$out/${b//\//:}
  [ -f "$res.bad" ] && bad+=("$(cat "$res.bad")")
  [ -f "$res.bad" ] || [ -f "$res.rows" ] || bad+=("$b (no rows)")
done
awk -F'\t' '{ k = $2 "\t" $3 "\t" $5; n[k]++; if (!((k, $1) in seen)) { seen[k, $1] = 1; nb[k]++ } }
  END { for (k in n) print k "\t" n[k] "\t" nb[k] }' "$report/findings.tsv" |
  LC_ALL=C sort -t$'\t' -k1,1 -k5,5nr -k2,2 >"$report/kinds.tsv"

# Features: a property name sits once in a blob's strings block, ended by
# a NUL; a compatible sits in the structure block. grep -l counts the blobs.
features=(
  'power-domains' '#power-domain-cells' 'power-domain-names' 'domain-idle-states'
  'operating-points-v2' 'operating-points' 'required-opps' 'opp-level' 'opp-shared'
  'opp-supported-hw' 'opp-microvolt' '-rpmhpd' '-rpmpd' 'arm,psci-1.0'
  'arm,scmi' 'arm,scpi' 'nvidia,tegra' 'rockchip,' 'mediatek,' 'blk-ctrl'
  'simple-pm-bus' 'ti,sci-pm-domain' 'fsl,imx8' 'fsl,scu-pd' 'samsung,exynos4210-pd'
  'domain-idle-state' 'arm,idle-state'
)
: >"$report/features.tsv"
for f in "${features[@]}"; do
  case $f in
    # property names: the NUL-terminated name in the strings block
    power-domains|'#power-domain-cells'|power-domain-names|domain-idle-states|\
    operating-points-v2|operating-points|required-opps|opp-level|opp-shared|\
    opp-supported-hw|opp-microvolt) pat="$f\\x00" ;;
    *) pat=$f ;;
  esac
  n=$(cd "$dtbdir" && printf '%s.dtb\0' "${boards[@]}" |
      LC_ALL=C xargs -0 grep -laP -- "$pat" 2>/dev/null | wc -l)
  printf '%s\t%s\n' "$f" "$n" >>"$report/features.tsv"
done

# ---- figures and Markdown ------------------------------------------------------------
sum() { awk -F'\t' -v c="$1" '{ s += $c } END { print s + 0 }' "$report/boards.tsv"; }
cnt() { awk -F'\t' -v c="$1" '$c > 0 { s++ } END { print s + 0 }' "$report/boards.tsv"; }
{
  echo "| figure | value |"
  echo "|---|---|"
  echo "| boards | ${#boards[@]} ($((${#boards[@]} - ${#bad[@]})) ran, ${#bad[@]} failed) |"
  echo "| boards with domains | $(cnt 2) |"
  echo "| domains / devices / links | $(sum 2) / $(sum 3) / $(sum 4) |"
  echo "| domains with pstate levels | $(sum 5) on $(cnt 5) boards |"
  echo "| domains with idle states | $(sum 6) on $(cnt 6) boards |"
  echo "| domains on after resuming every device | $(sum 7) of $(sum 2) |"
  echo "| domains at a non-zero pstate after the rates | $(sum 8) on $(cnt 8) boards |"
  echo "| failed simulate commands | $(sum 9) on $(cnt 9) boards |"
  echo
  echo "| severity | check | property | findings | boards |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$report/kinds.tsv"
  echo
  echo "| feature in the blob | boards |"
  echo "|---|---|"
  awk -F'\t' '{ printf "| `%s` | %s |\n", $1, $2 }' "$report/features.tsv"
} >"$report/audit.md"
cat "$report/audit.md"
if [ ${#bad[@]} -gt 0 ]; then
  echo
  echo "failed runs:"
  printf '  %s\n' "${bad[@]}"
fi
echo
echo "tables: $report/{boards,findings,kinds,failed,features}.tsv, audit.md"
[ "$keep" = 1 ] && echo "per-board runs kept in $out"
[ ${#bad[@]} -eq 0 ]
