#!/usr/bin/env bash
# check_io.sh DOMINO BOARD.dtb WORKDIR [MAX_KB]
# Outputs that cannot be written are reported and
# fail the command; --trace / --svg never leave a truncated file in place
# of a good one; inputs are read within a bound; a swapped argument order
# is recognised. MAX_KB (unset under the sanitizers) caps the address
# space, so an unbounded read fails here instead of exhausting the machine.
set -u
domino=$1 board=$2 work=$3 max_kb=${4:-}
mkdir -p "$work"
rm -f "$work"/*
fails=0
err=$work/stderr
exec 3>&1 # the report, whatever a check does with stdout

# expect EXIT STDERR_RE DESCRIPTION -- COMMAND... (stdout: set by the caller)
expect() {
	local want=$1 re=$2 what=$3
	shift 4
	local rc=0
	( [ -n "$max_kb" ] && ulimit -v "$max_kb"; exec "$@" ) 2>"$err" || rc=$?
	if [ "$rc" != "$want" ] || { [ -n "$re" ] && ! grep -Eq -- "$re" "$err"; }; then
		{ echo "FAIL: $what: exit $rc (wanted $want), stderr:"; head -c 1000 "$err"; } >&3
		fails=$((fails + 1))
	fi
}

# ---- standard output that cannot be written (item 4) ----
commands=("--help" "--version" "summary" "summary --json" "summary --help"
	"lint $board" "lint --json $board" "lint --help" "simulate"
	"simulate --json" "simulate --help")
for c in "${commands[@]}"; do
	# shellcheck disable=SC2086
	expect 2 "cannot write standard output: No space left on device" \
		"domino $c > /dev/full" -- "$domino" $c >/dev/full
	# shellcheck disable=SC2086
	expect 2 "cannot write standard output: Bad file descriptor" \
		"domino $c >&-" -- "$domino" $c >&-
done

# ---- --trace / --svg: temporary name, rename on success (item 4) ----
trace=$work/trace.json svg=$work/timeline.svg
expect 0 "" "first trace" -- "$domino" simulate --trace "$trace" --svg "$svg" >/dev/null
cp "$trace" "$work/trace.good"
cp "$svg" "$work/svg.good"
# A file-size limit makes the next write fail half way (EFBIG), as a full
# disk would; SIGXFSZ is ignored so the write returns the error.
limited=(bash -c 'trap "" XFSZ; ulimit -f 2; exec "$@"' limited)
expect 2 "trace.json: error: cannot write: File too large" "trace over a size limit" \
	-- "${limited[@]}" "$domino" simulate --trace "$trace" >/dev/null
expect 2 "timeline.svg: error: cannot write: File too large" "svg over a size limit" \
	-- "${limited[@]}" "$domino" simulate --svg "$svg" >/dev/null
cmp -s "$trace" "$work/trace.good" || { echo "FAIL: the good trace was replaced"; fails=$((fails + 1)); }
cmp -s "$svg" "$work/svg.good" || { echo "FAIL: the good svg was replaced"; fails=$((fails + 1)); }
left=$(find "$work" -name '*.json.*' -o -name '*.svg.*' | head -1)
[ -z "$left" ] || { echo "FAIL: temporary file left: $left"; fails=$((fails + 1)); }
# through a symlink: the target is replaced, the link stays a link
ln -s trace.json "$work/link.json"
expect 0 "" "trace through a symlink" -- "$domino" simulate --trace "$work/link.json" >/dev/null
[ -L "$work/link.json" ] && cmp -s "$trace" "$work/trace.good" ||
	{ echo "FAIL: writing through a symlink replaced the link or lost the trace"; fails=$((fails + 1)); }
expect 2 "/dev/full: error: cannot write: No space left on device" "trace to /dev/full" \
	-- "$domino" simulate --trace /dev/full >/dev/null
expect 2 "no/such/dir/t.json: error: cannot create: No such file or directory" \
	"trace into a missing folder" -- "$domino" simulate --trace "$work/no/such/dir/t.json" >/dev/null

# ---- bounded reads (item 5) ----
expect 2 "/dev/zero: /: error: not a valid device tree blob: FDT_ERR_BADMAGIC" \
	"summary /dev/zero" -- "$domino" summary /dev/zero >/dev/null
expect 2 "^-: error: larger than 64 MiB" "endless scenario on stdin" \
	-- "$domino" simulate - </dev/zero >/dev/null
(cat "$board"; printf 'trailing junk') >"$work/trailing.dtb"
expect 0 "trailing.dtb: warning: bytes after the blob's end \([0-9]+, from its header\) are ignored" \
	"blob with trailing bytes" -- "$domino" summary "$work/trailing.dtb" >/dev/null

# ---- swapped arguments (item 9) ----
printf '@0 resume cpu0\n' >"$work/s.scn"
cp "$board" "$work/s.dtb"
expect 2 "s.dtb is a board, not a scenario: the board comes first" "simulate SCENARIO BOARD" \
	-- "$domino" simulate "$work/s.scn" "$work/s.dtb" >/dev/null

echo "$fails failed"
[ "$fails" = 0 ]
