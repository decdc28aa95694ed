#!/usr/bin/env bash
# check_generated.sh DOMINO DTC - the simulator on boards beyond its old
# compiled caps (none: docs/device-tree.md, Limits and errors), written here
# and compiled with dtc -@:
#  wide: a device on 70 domains, each with its own OPP table; a `rate`
#        casts level 2 on every attachment, and the report shows the vote
#        as cast on the 70th (a 64-attachment buffer once left it at 0);
#  deep: a chain of 100 domains with an OPP table at the top only; a level
#        named from that table resolves for a device on the bottom one (the
#        search through the ancestors once stopped at depth 64).
set -u
domino=$1 dtc=$2
dir=$(mktemp -d) || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT
fail=0

{
  echo '/dts-v1/; / { compatible = "domino,generated"; #address-cells = <1>; #size-cells = <0>;'
  specs= reqs=
  for i in $(seq 0 69); do
    echo "t$i: opp-table-$i { compatible = \"operating-points-v2\";"
    echo "  t${i}_1: opp-1 { opp-level = <1>; }; t${i}_2: opp-2 { opp-level = <2>; }; };"
    echo "pd$i: pd-$i { #power-domain-cells = <0>; operating-points-v2 = <&t$i>; };"
    specs="$specs <&pd$i>,"; reqs="$reqs &t${i}_2"
  done
  echo "dt: dev-table { compatible = \"operating-points-v2\";"
  echo "  opp-100000000 { opp-hz = /bits/ 64 <100000000>; required-opps = <$reqs>; }; };"
  echo "dev: dev@1000 { reg = <0x1000>; power-domains = ${specs%,}; operating-points-v2 = <&dt>; };"
  echo '};'
} > "$dir/wide.dts"
printf '@0 resume dev\nrate dev 100000000Hz\nexpect pd69 pstate 2\n' > "$dir/wide.scn"

{
  echo '/dts-v1/; / { compatible = "domino,generated"; #address-cells = <1>; #size-cells = <0>;'
  echo 'top: opp-table { compatible = "operating-points-v2"; low: opp-1 { opp-level = <1>; }; high: opp-2 { opp-level = <2>; }; };'
  echo 'pd0: pd-0 { #power-domain-cells = <0>; operating-points-v2 = <&top>; };'
  for i in $(seq 1 99); do
    echo "pd$i: pd-$i { #power-domain-cells = <0>; power-domains = <&pd$((i - 1))>; };"
  done
  echo 'dev: dev@1000 { reg = <0x1000>; power-domains = <&pd99>; };'
  echo '};'
} > "$dir/deep.dts"
printf '@0 resume dev\nvote dev high\nexpect pd0 pstate 2\n' > "$dir/deep.scn"

for b in wide deep; do
  "$dtc" -q -@ -I dts -O dtb -o "$dir/$b.dtb" "$dir/$b.dts" || { echo "dtc $b failed"; exit 1; }
  "$domino" simulate "$dir/$b.dtb" "$dir/$b.scn" --json > "$dir/$b.json" 2> "$dir/$b.err"
  rc=$?
  if [ $rc != 0 ]; then echo "FAIL $b: exit $rc"; cat "$dir/$b.err"; fail=1; fi
done
# the 70th attachment's vote as cast, in pd69's device list
if ! tr -d '\n ' < "$dir/wide.json" | grep -o '"name":"pd69".*' |
     grep -o '"devices":\[{"name":"dev"[^}]*}' | head -1 | grep -q '"vote":2,'; then
  echo "FAIL wide: pd69 does not show dev's vote 2 as cast"; fail=1
fi
exit $fail
