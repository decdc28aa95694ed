#!/usr/bin/env bash
# bench/growth.sh [BUILD_DIR] [SCALE] - does any command grow faster than
# its input? Every red-team generator (bench/shape_blob.c through gen_shape,
# tests/bad-input/make_bad_inputs --KIND) writes a hostile board (and,
# where it has one, a scenario) at N and at 4N; each command that reads it
# (lint, summary, simulate) runs on both under /usr/bin/time -v, and the
# ratios 4N/N of CPU time (user + sys, best of 3) and peak RSS are printed.
# Linear is 4x, N log N a little more; above 5x is flagged SUPERLINEAR
# (times under 100 ms count as 100 ms, RSS under 8 MB as 8 MB: the process's
# floor, not the input). SCALE (default 1) multiplies every N.
#
# Not a test: the figures depend on the machine and its load. The tests
# that guard the shapes are tests/bad-input (CHECK_MAX_KB, check_growth.sh).
set -u
build=${1:-build}
scale=${2:-1}
domino=$build/cli/domino
gen=$build/tests/bad-input/gen_shape
bad=$build/tests/bad-input/make_bad_inputs
flood=$build/bench/domino-scmi-flood
for t in "$domino" "$gen" "$bad" "$flood"; do
  [ -x "$t" ] || { echo "missing $t (build first)" >&2; exit 2; }
done
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
# the shapes without a scenario of their own: their device dev@0 (on the
# deepest domain of a chain or nest) resumed and suspended
printf '@0 resume dev@0\n@1ms suspend dev@0\n' > "$dir/dev0.scn"

# measure FILE ARGS... -> "CPU_MS RSS_KB" (best CPU of 3, its RSS)
measure() {
  local best= rss=
  for attempt in 1 2 3; do
    /usr/bin/time -f '%U %S %M' -o "$dir/time" "$@" > /dev/null 2>&1
    local t
    t=$(awk 'END { printf "%d %d", ($1 + $2) * 1000, $3 }' "$dir/time")
    local cpu=${t% *} kb=${t#* }
    if [ -z "$best" ] || [ "$cpu" -lt "$best" ]; then best=$cpu; rss=$kb; fi
  done
  echo "$best $rss"
}

# make KIND N -> the board (and scenario) written into $dir, echoes the
# board's name and, when there is one, the scenario's
make() {
  local kind=$1 n=$2
  case $kind in
    chain|rchain|flat|nest|bus)
      "$gen" "$kind" "$n" "$dir/$kind-$n.dtb" &&
        echo "$kind-$n.dtb dev0.scn" ;;
    levels)
      "$bad" --levels "$n" "$dir" > /dev/null &&
        echo "opp-table-$n.dtb ramp-$n.scn" ;;
    fan|pnest)
      "$bad" --"$kind" "$n" "$dir" > /dev/null &&
        echo "$kind-$n.dtb dev0.scn" ;;
    *)
      "$bad" --"$kind" "$n" "$dir" > /dev/null &&
        echo "$kind-$n.dtb $kind-$n.scn" ;;
  esac
}

ratio() { # BIG SMALL FLOOR -> "R.RR" with the floor applied
  awk -v b="$1" -v s="$2" -v f="$3" 'BEGIN {
    if (s < f) s = f; if (b < f) b = f; printf "%.2f", b / s }'
}

printf '%-10s %8s %-8s %9s %9s %6s %9s %9s %6s %s\n' shape N command \
  cpu_N_ms cpu_4N_ms ratio rss_N_kb rss_4N_kb ratio verdict
status=0
# shape and base N (times SCALE): sizes where 4N takes seconds, not minutes
for spec in chain:20000 rchain:20000 flat:20000 nest:20000 bus:20000 \
            fan:20000 pnest:1000 devdoms:10000 devchain:20000 \
            devresume:20000 names:20000 levels:40000 reqchain:40000 reqwide:40000; do
  kind=${spec%:*}
  n=$((${spec#*:} * scale))
  read -r board1 scn1 <<< "$(make "$kind" "$n")"
  read -r board4 scn4 <<< "$(make "$kind" $((4 * n)))"
  [ -n "$board1" ] && [ -n "$board4" ] || { echo "$kind: generator failed"; status=1; continue; }
  cmds="lint summary simulate"
  for cmd in $cmds; do
    if [ "$cmd" = simulate ]; then
      a1=(simulate "$dir/$board1" "$dir/$scn1"); a4=(simulate "$dir/$board4" "$dir/$scn4")
    else
      a1=("$cmd" "$dir/$board1"); a4=("$cmd" "$dir/$board4")
    fi
    read -r c1 m1 <<< "$(measure "$domino" "${a1[@]}")"
    read -r c4 m4 <<< "$(measure "$domino" "${a4[@]}")"
    rc=$(ratio "$c4" "$c1" 100) rm=$(ratio "$m4" "$m1" 8192)
    verdict=ok
    if awk -v a="$rc" -v b="$rm" 'BEGIN { exit !(a > 5 || b > 5) }'; then
      verdict=SUPERLINEAR; status=1
    fi
    printf '%-10s %8d %-8s %9d %9d %6s %9d %9d %6s %s\n' "$kind" "$n" \
      "$cmd" "$c1" "$c4" "$rc" "$m1" "$m4" "$rm" "$verdict"
  done
  rm -f "$dir"/*-*.dtb "$dir"/*-*.scn
done
# SCMI: N domains served to 4 agents, 8N commands and their notifications
# (bench/scmi_flood.c), in process
n=$((8000 * scale))
read -r c1 m1 <<< "$(measure "$flood" "$n")"
read -r c4 m4 <<< "$(measure "$flood" $((4 * n)))"
rc=$(ratio "$c4" "$c1" 100) rm=$(ratio "$m4" "$m1" 8192)
verdict=ok
if awk -v a="$rc" -v b="$rm" 'BEGIN { exit !(a > 5 || b > 5) }'; then
  verdict=SUPERLINEAR; status=1
fi
printf '%-10s %8d %-8s %9d %9d %6s %9d %9d %6s %s\n' scmi-flood "$n" \
  handle "$c1" "$c4" "$rc" "$m1" "$m4" "$rm" "$verdict"
exit $status
