#!/usr/bin/env bash
# run_case.sh EXIT STDOUT_RE STDERR_RE -- COMMAND...
# Runs COMMAND; passes when its exit code is EXIT and stdout / stderr match
# the extended regexes (an empty regex matches anything).
set -u
want_exit=$1; out_re=$2; err_re=$3; shift 3
[ "$1" = "--" ] && shift
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
rc=$?
fail=0
if [ "$rc" != "$want_exit" ]; then echo "exit code $rc, wanted $want_exit"; fail=1; fi
if [ -n "$out_re" ] && ! grep -Eq -- "$out_re" "$out"; then echo "stdout does not match: $out_re"; fail=1; fi
if [ -n "$err_re" ] && ! grep -Eq -- "$err_re" "$err"; then echo "stderr does not match: $err_re"; fail=1; fi
if [ $fail != 0 ]; then
  echo "--- command: $*"; echo "--- stdout:"; head -c 4000 "$out"; echo "--- stderr:"; head -c 4000 "$err"
  exit 1
fi
exit 0
