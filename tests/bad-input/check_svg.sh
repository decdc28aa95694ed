#!/usr/bin/env bash
# check_svg.sh WANT -- DOMINO simulate BOARD SCENARIO: runs the simulation
# with --svg and passes when it exits 0, stderr is empty and the SVG
# contains WANT (taken literally).
set -u
want=$1
shift
[ "$1" = "--" ] && shift
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
"$@" --svg "$dir/out.svg" > "$dir/out.txt" 2> "$dir/err.txt"
rc=$?
fail=0
if [ "$rc" != 0 ]; then echo "exit code $rc, wanted 0"; fail=1; fi
if [ -s "$dir/err.txt" ]; then echo "stderr is not empty:"; head -5 "$dir/err.txt"; fail=1; fi
if ! grep -qF -- "$want" "$dir/out.svg"; then
	echo "the SVG does not contain: $want"
	grep -o '>[0-9.]* [a-z]*s<' "$dir/out.svg" | head -12
	fail=1
fi
exit $fail
