#!/bin/sh
# check_lint_want.sh DOMINO BOARD.dtb CASE.dts
# Every line "lint-want: CHECK SEVERITY COUNT" of CASE.dts says how many
# findings of CHECK at SEVERITY `domino lint BOARD.dtb` must print: exactly
# COUNT (0 = none; a false positive a case pins down). Fails, showing lint's
# output, when any count differs.
set -u
domino=$1; dtb=$2; dts=$3
out=$("$domino" lint "$dtb" 2>&1)
fail=0
wants=$(sed -n 's/.*lint-want: \([^ ]*\) \([^ ]*\) \([0-9][0-9]*\).*/\1 \2 \3/p' "$dts")
[ -n "$wants" ] || { echo "$dts: no lint-want lines"; exit 1; }
echo "$wants" | while read -r check sev count; do
  got=$(printf '%s\n' "$out" | grep -c ": $sev: .*\[$check\]$")
  if [ "$got" != "$count" ]; then
    echo "$dts: $got $sev finding(s) of $check, wanted $count"
    exit 1
  fi
done || fail=1
if [ $fail != 0 ]; then printf '%s\n' "--- domino lint $dtb:" "$out"; exit 1; fi
exit 0
