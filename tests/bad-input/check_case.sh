#!/usr/bin/env bash
# check_case.sh EXIT STREAM PREFIX -- COMMAND...
# Runs COMMAND (at most CHECK_TIMEOUT seconds, default 60); passes when
# it exits with EXIT, the first line of STREAM (stderr or stdout) starts with PREFIX taken literally
# (PREFIX "-": STREAM is empty), it was not killed by a signal and no
# sanitizer reported anything. CHECK_MAX_KB caps COMMAND's address space;
# CHECK_MAX_OUT_KB fails a run whose stdout is larger (output quadratic in
# the input: every row padded to the widest name).
set -u
want_exit=$1 stream=$2 prefix=$3
shift 3
[ "$1" = "--" ] && shift
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
(
	[ -n "${CHECK_MAX_KB:-}" ] && ulimit -v "$CHECK_MAX_KB"
	exec timeout "${CHECK_TIMEOUT:-60}" "$@"
) >"$out" 2>"$err"
rc=$?
fail=0
if [ $rc = 124 ]; then echo "no answer after ${CHECK_TIMEOUT:-60} s"; fail=1
elif [ $rc -ge 128 ]; then echo "killed by signal $((rc - 128))"; fail=1
elif [ "$rc" != "$want_exit" ]; then echo "exit code $rc, wanted $want_exit"; fail=1
fi
out_kb=$(( $(wc -c < "$out") / 1024 ))
if [ -n "${CHECK_MAX_OUT_KB:-}" ] && [ "$out_kb" -gt "$CHECK_MAX_OUT_KB" ]; then
	echo "stdout is $out_kb KB, more than $CHECK_MAX_OUT_KB KB"; fail=1
fi
if grep -qE 'ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:' "$err"; then
	echo "sanitizer report"; fail=1
fi
file=$err
[ "$stream" = stdout ] && file=$out
first=$(head -n 1 "$file")
if [ "$prefix" = "-" ]; then
	if [ -s "$file" ]; then echo "$stream is not empty"; fail=1; fi
elif [ "${first#"$prefix"}" = "$first" ] && [ -n "$prefix" ]; then
	echo "$stream does not start with: $prefix"; fail=1
fi
if [ $fail != 0 ]; then
	echo "--- command: $*"
	echo "--- stdout:"; head -c 2000 "$out"
	echo "--- stderr:"; head -c 2000 "$err"
	exit 1
fi
exit 0
