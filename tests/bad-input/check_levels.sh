#!/usr/bin/env bash
# check_levels.sh DOMINO MAKE_BAD_INPUTS N [MAX_KB]
# One domain whose OPP table has N levels, its device voting every level
# up, 1 us apart, then every level down (make_bad_inputs --levels), through
# `domino simulate` (the event log, statistics) and `domino simulate --json
# --svg`, at N/8 and at N:
# - exit 0, and the statistics exact: 1 us at level 0 and at level 1,
#   2 us at each other level, 2N - 1 pstate transitions;
# - the CPU time (user + sys, the best of 3 runs) at N at most 16x that at
#   N/8: linear is 8x; a scan of the levels per pstate change, per
#   residency read or per level name (core statistics, simulator, reports)
#   was quadratic, 64x (0.5 s at 10,000 levels, 8.2 s at 40,000); each
#   of the four alone makes it 20x or more at N = 80,000. Times
#   under 20 ms count as 20 ms, so that noise on a tiny run cannot fail it.
# MAX_KB, when given, caps each run's address space (not under the
# sanitizers).
set -u
domino=$1 gen=$2 n=$3 max_kb=${4:-}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
declare -A ms

# One run at SIZE: its exit status in $rc, its CPU milliseconds in $cpu.
run() {
  local size=$1
  (if [ -n "$max_kb" ]; then ulimit -v "$max_kb"; fi
   TIMEFORMAT='%3U %3S'
   { time { "$domino" simulate "opp-table-$size.dtb" "ramp-$size.scn" \
              > out.txt 2> err.txt &&
            "$domino" simulate "opp-table-$size.dtb" "ramp-$size.scn" \
              --json --svg out.svg > out.json 2>> err.txt; }
     echo $? > rc.txt; } 2> time.txt)
  rc=$(cat rc.txt)
  cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' time.txt)
}

cd "$dir" || exit 1
for size in $((n / 8)) "$n"; do
  "$gen" --levels "$size" "$dir" || { echo "make_bad_inputs --levels $size failed"; exit 1; }
  best=
  for attempt in 1 2 3; do
    run "$size"
    if [ "$rc" != 0 ]; then
      echo "FAIL levels-$size: exit $rc"; head -5 err.txt; exit 1
    fi
    if [ -z "$best" ] || [ "$cpu" -lt "$best" ]; then best=$cpu; fi
  done
  ms[$size]=$best
  two=$(grep -c '"name": "opp-[0-9]*", "time_ns": 2000}' out.json)
  echo "levels-$size: exit 0, ${best} ms CPU, $two levels at 2 us"
  if [ "$two" != $((size - 1)) ] ||
     ! grep -q '{"level": 0, "name": null, "time_ns": 1000}' out.json ||
     ! grep -q '{"level": 1, "name": "opp-1", "time_ns": 1000}' out.json ||
     ! grep -q "\"pstate_transitions\": $((2 * size - 1))\$" out.json; then
    echo "FAIL levels-$size: residencies or transitions not as voted"; fail=1
  fi
done
small=${ms[$((n / 8))]} big=${ms[$n]}
[ "$small" -lt 20 ] && small=20
echo "CPU at $n levels / at $((n / 8)): $big ms / $small ms"
if [ "$big" -gt $((small * 16)) ]; then
  echo "FAIL: more than 16x the time for 8x the levels: not linear"; fail=1
fi
exit $fail
