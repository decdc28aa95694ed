#!/usr/bin/env bash
# Lint on device tree source: check.sh CASE DOMINO SRC_DIR WORK_DIR
# Each case runs domino on the fixtures of SRC_DIR (kernel/: a small kernel
# tree; cases/: boards built with -I) and compares its output with
# expect/ exactly, or checks its shape with jq. Exit 0 pass, 1 fail.
set -u
case=$1 domino=$2 src=$3 work=$4
mkdir -p "$work"
out=$work/$case.out err=$work/$case.err
fail() { echo "FAIL ($case): $*"; echo "--- stdout:"; head -c 3000 "$out"; echo "--- stderr:"; head -c 3000 "$err"; exit 1; }
# run [ENV=..] DIR ARGS...: domino in DIR; sets rc
run() { local dir=$1; shift; (cd "$dir" && "$domino" "$@") >"$out" 2>"$err"; rc=$?; }
same() { diff -u "$1" "$out" >"$work/$case.diff" || { cat "$work/$case.diff"; fail "output differs from $1"; }; }
want_rc() { [ "$rc" = "$1" ] || fail "exit status $rc, wanted $1"; }
has() { grep -qF -- "$1" "$2" || fail "no line with: $1"; }
jqok() { jq -e "$1" "$out" >/dev/null || fail "jq: $1"; }
k=$src/kernel
case $case in
tree)
	run "$k" lint --tree . -j2; want_rc 1; same "$src/expect/tree.txt"
	# the same whatever the number of jobs
	run "$k" lint --tree . -j 1; want_rc 1; same "$src/expect/tree.txt"
	# nothing on stderr: no progress bar when it is not a terminal
	[ ! -s "$err" ] || fail "stderr is not empty";;
tree_rules)
	run "$k" lint --tree . -W no-pd-cells-mismatch; want_rc 0
	! grep -q pd-cells-mismatch "$out" || fail "-W no-pd-cells-mismatch kept it"
	has "4 boards: 0 errors, 4 warnings, 0 notes at 2 places" "$out"
	run "$k" lint --tree . -E pd-names-count -W no-pd-cells-mismatch; want_rc 1
	has "arch/arm64/boot/dts/acme/soc.dtsi:23:3: error: 2 names for 1 power domains [pd-names-count]" "$out";;
tree_json)
	run "$k" lint --tree . --format json; want_rc 1
	jqok '.boards == 4 and .failed == [] and (.findings | length) == 3'
	jqok '.findings[] | select(.file == "arch/arm64/boot/dts/acme/soc.dtsi" and .line == 23 and .column == 3)
	      | .count == 3 and .boards == ["arm/acme/board-d", "arm64/acme/board-b", "arm64/acme/board-c"]
	        and .check == "pd-names-count" and .node == "/gpu@2000" and .property == "power-domain-names"'
	jqok '.findings[] | select(.file == "arch/arm64/boot/dts/acme/board-a.dts")
	      | .line == 12 and .column == 2 and .first_set == {"file": "arch/arm64/boot/dts/acme/soc.dtsi", "line": 23, "column": 3}'
	jqok '.checks == [{"check": "pd-cells-mismatch", "severity": "error", "findings": 1, "locations": 1, "boards": 1},
	                  {"check": "pd-names-count", "severity": "warning", "findings": 4, "locations": 2, "boards": 4}]'
	jqok '.counts == {"errors": 1, "warnings": 4, "notes": 0}';;
tree_sarif)
	run "$k" lint --tree . --format sarif; want_rc 1
	# the members SARIF 2.1.0's schema requires, and the values it allows
	jqok '.version == "2.1.0" and (.runs | type) == "array" and (.runs | length) == 1'
	jqok '.runs[0].tool.driver.name == "domino" and (.runs[0].tool.driver.rules | all(.id | type == "string"))'
	jqok '.runs[0].columnKind | IN("utf16CodeUnits", "unicodeCodePoints")'
	jqok '.runs[0] as $r | $r.results | length == 3 and all(
	        (.message.text | type) == "string" and (.level | IN("none", "note", "warning", "error"))
	        and $r.tool.driver.rules[.ruleIndex].id == .ruleId
	        and all(.locations[]; .physicalLocation.artifactLocation.uri | type == "string")
	        and all(.locations[].physicalLocation.region; .startLine >= 1 and .startColumn >= 1)
	        and all((.relatedLocations // [])[]; (.physicalLocation.artifactLocation.uri | type) == "string"
	                and .physicalLocation.region.startLine >= 1 and (.message.text | type) == "string"))'
	jqok '[.runs[0].results[] | select(.ruleId == "pd-names-count" and .properties.count == 3)
	       | .locations[0].physicalLocation] == [{"artifactLocation": {"uri": "arch/arm64/boot/dts/acme/soc.dtsi"},
	                                             "region": {"startLine": 23, "startColumn": 3}}]'
	jqok '.runs[0].results[] | select(.level == "error") | .relatedLocations[0].physicalLocation.region == {"startLine": 29, "startColumn": 3}';;
override)
	run "$k" lint arch/arm64/boot/dts/acme/board-a.dts; want_rc 0; same "$src/expect/board-a.txt"
	# from elsewhere, with the tree named: its files as reached from here
	real=$(cd "$k" && pwd -P)
	run "$work" lint --kernel-tree "$k" "$k/arch/arm64/boot/dts/acme/board-a.dts"; want_rc 0
	sed "s|^arch/|$real/arch/|" "$src/expect/board-a.txt" >"$work/board-a.abs"
	same "$work/board-a.abs";;
include)
	run "$src" lint -I cases/inc cases/override.dts; want_rc 0; same "$src/expect/override.txt"
	run "$src" lint --json -I cases/inc cases/override.dts; want_rc 0
	jqok '.findings == [{"severity": "warning", "check": "pd-names-count", "node": "/dev@2000",
	       "property": "power-domain-names", "message": "1 names for 2 power domains",
	       "file": "cases/override.dts", "line": 9, "column": 3,
	       "first_set": {"file": "cases/inc/common.dtsi", "line": 15, "column": 3}}]'
	jqok '.warnings == ["cases/override.dts:9:3: warning: 1 names for 2 power domains [pd-names-count]"]'
	# summary and simulate build sources too; loader warnings are placed
	run "$src" summary -I cases/inc cases/override.dts; want_rc 0
	has "  cases/override.dts:9:3: warning: 1 names for 2 power domains [pd-names-count]" "$out"
	run "$src" simulate -I cases/inc cases/override.dts; want_rc 0
	# a loader error of summary at its line too (the property is mid-line)
	run "$src/../cli/lint" summary pd-cells-mismatch.dts; want_rc 2
	[ "$(cat "$err")" = "pd-cells-mismatch.dts:6:34: error: entry 0: /power-controller takes 1 argument cell(s) but only 0 remain [pd-cells-mismatch]" ] ||
		fail "summary's loader error not at its line"
	# without -I, cpp says what it could not find
	run "$src" lint cases/override.dts; want_rc 2
	grep -q "^cases/override.dts:4:[0-9]*: error: no include path in which to search for common.dtsi" "$err" ||
		fail "cpp's error is not passed on";;
dtc_error)
	run "$src" lint cases/syntax-error.dts; want_rc 2
	[ "$(head -n1 "$err")" = "cases/syntax-error.dts:6:2: error: syntax error" ] || fail "dtc's error not in GCC form"
	has "cases/syntax-error.dts: error: dtc failed (exit status 1): the board was not built" "$err"
	[ ! -s "$out" ] || fail "stdout is not empty"
	run "$src" lint cases/missing-include.dts; want_rc 2
	has "cases/missing-include.dts:3:10: fatal error: not-there.dtsi: No such file or directory" "$err";;
no_tools)
	bin=$work/bin; mkdir -p "$bin"; ln -sf "$(command -v cpp)" "$bin/cpp"
	(cd "$src" && PATH=$bin "$domino" lint -I cases/inc cases/override.dts) >"$out" 2>"$err"; rc=$?; want_rc 2
	has "cases/override.dts: error: cannot run dtc: not found on PATH" "$err"
	(cd "$src" && PATH=$work/none "$domino" lint -I cases/inc cases/override.dts) >"$out" 2>"$err"; rc=$?; want_rc 2
	has "cases/override.dts: error: cannot run cpp: not found on PATH" "$err"
	(cd "$src" && DTC=$work/none/dtc "$domino" lint -I cases/inc cases/override.dts) >"$out" 2>"$err"; rc=$?; want_rc 2
	has "cannot run dtc '$work/none/dtc' (\$DTC): not found or not executable" "$err";;
blobs)
	# a folder of blobs: node-path form, folded by node and property
	d=$work/blobs; rm -rf "$d"; mkdir -p "$d/sub"
	dtc -q -@ -I dts -O dtb -o "$d/a.dtb" "$src/../cli/lint/pd-names-count.dts" || fail "dtc"
	cp "$d/a.dtb" "$d/sub/b.dtb"
	dtc -q -@ -I dts -O dtb -o "$d/c.dtb" "$src/../cli/lint/clean.dts" || fail "dtc"
	run "$work" lint --tree blobs; want_rc 0
	has "blobs/a.dtb: /dev@1000: power-domain-names: warning: 1 names for 2 power domains [pd-names-count]" "$out"
	has "  note: in 2 boards: a, sub/b" "$out"
	has "3 boards: 0 errors, 2 warnings, 0 notes at 1 place" "$out"
	[ "$(grep -c 'pd-names-count\]' "$out")" = 1 ] || fail "not folded into one line"
	# a board that cannot be read: exit 2, said on stderr
	printf 'not a blob' >"$d/garbage.dtb"
	run "$work" lint --tree blobs; want_rc 2
	has "blobs/garbage.dtb: error:" "$err"
	has "4 boards (1 could not be linted)" "$out";;
progress)
	command -v script >/dev/null || { echo "no script(1): skipped"; exit 77; }
	# on a terminal the bar is drawn on stderr, and erased at the end
	(cd "$k" && script -qec "$domino lint --tree . -j1 >/dev/null" /dev/null) >"$out" 2>"$err"
	# (redrawn at most so often: which frames show depends on the machine)
	grep -qE '\[[= ]{40}\] [1-4]/4 boards' "$out" || fail "no progress bar on a terminal"
	grep -q $'\r\033\[K' "$out" || fail "the bar is not erased";;
*) echo "unknown case $case"; exit 2;;
esac
exit 0
