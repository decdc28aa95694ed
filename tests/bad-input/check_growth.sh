#!/usr/bin/env bash
# check_growth.sh DOMINO MAKE_BAD_INPUTS KIND N [MAX_KB]
# A generated board and scenario (make_bad_inputs --KIND SIZE: KIND-SIZE.dtb
# and KIND-SIZE.scn) through `domino simulate` at N/8 and at N:
# - exit 0 (the scenario's expectations say the commands found what they
#   name);
# - the CPU time (user + sys, the best of 3 runs) at N at most 16x that at
#   N/8: linear is 8x, N log N a little more, a scan of the board per
#   command 64x. Times under 20 ms count as 20 ms (noise on a tiny run).
# MAX_KB, when given, caps each run's address space (not under the
# sanitizers).
set -u
domino=$1 gen=$2 kind=$3 n=$4 max_kb=${5:-}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
declare -A ms
for size in $((n / 8)) "$n"; do
  "$gen" --"$kind" "$size" "$dir" || { echo "make_bad_inputs --$kind $size failed"; exit 1; }
  best=
  for attempt in 1 2 3; do
    (if [ -n "$max_kb" ]; then ulimit -v "$max_kb"; fi
     TIMEFORMAT='%3U %3S'
     { time "$domino" simulate "$kind-$size.dtb" "$kind-$size.scn" \
         > out.txt 2> err.txt; echo $? > rc.txt; } 2> time.txt)
    rc=$(cat rc.txt)
    if [ "$rc" != 0 ]; then
      echo "FAIL $kind-$size: exit $rc"; head -5 err.txt; tail -3 out.txt; exit 1
    fi
    cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' time.txt)
    if [ -z "$best" ] || [ "$cpu" -lt "$best" ]; then best=$cpu; fi
  done
  ms[$size]=$best
  echo "$kind-$size: exit 0, ${best} ms CPU"
done
small=${ms[$((n / 8))]} big=${ms[$n]}
[ "$small" -lt 20 ] && small=20
echo "CPU at $kind-$n / at $kind-$((n / 8)): $big ms / $small ms"
if [ "$big" -gt $((small * 16)) ]; then
  echo "FAIL: more than 16x the time for 8x the size: not linear"; exit 1
fi
