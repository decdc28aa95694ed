#!/usr/bin/env bash
# run_board_scenario.sh DOMINO DTB_DIR SCENARIO
# Runs `domino simulate DTB_DIR/BOARD.dtb SCENARIO` as the scenario's header
# says; exits 77 (skipped) when the board's blob is absent. Header lines, at
# the top of the file, before the first command:
#   # board: NAME [OPTION...]   the blob, and options for domino simulate
#   # exit: N                   the exit code wanted (default 0)
#   # stdout: REGEX             a line of the text output matches (repeatable)
#   # stdout-not: REGEX         no line of the text output matches
#   # stderr: REGEX             a line of stderr matches (repeatable)
#   # json: REGEX               a line of the --json output matches (repeatable)
#   # svg: REGEX                a line of the --svg timeline matches (repeatable)
set -u
domino=$1; dtb_dir=$2; scn=$3
board=""; opts=(); want_exit=0
out_res=(); out_not=(); err_res=(); json_res=(); svg_res=()
while IFS= read -r line; do
  case $line in
    "# board: "*) read -r board rest <<<"${line#\# board: }"; read -r -a opts <<<"$rest" ;;
    "# exit: "*) want_exit=${line#\# exit: } ;;
    "# stdout: "*) out_res+=("${line#\# stdout: }") ;;
    "# stdout-not: "*) out_not+=("${line#\# stdout-not: }") ;;
    "# stderr: "*) err_res+=("${line#\# stderr: }") ;;
    "# json: "*) json_res+=("${line#\# json: }") ;;
    "# svg: "*) svg_res+=("${line#\# svg: }") ;;
    "#"*|"") ;;
    *) break ;;
  esac
done <"$scn"
if [ -z "$board" ]; then echo "$scn: no '# board:' line"; exit 1; fi
blob=$dtb_dir/$board.dtb
if [ ! -f "$blob" ]; then echo "SKIP: $blob absent"; exit 77; fi
out=$(mktemp); err=$(mktemp); json=$(mktemp); svg=$(mktemp)
trap 'rm -f "$out" "$err" "$json" "$svg"' EXIT
"$domino" simulate "$blob" "$scn" "${opts[@]}" >"$out" 2>"$err"
rc=$?
fail=0
if [ "$rc" != "$want_exit" ]; then echo "exit code $rc, wanted $want_exit"; fail=1; fi
for re in "${out_res[@]}"; do
  grep -Eq -- "$re" "$out" || { echo "stdout does not match: $re"; fail=1; }
done
for re in "${out_not[@]}"; do
  ! grep -Eq -- "$re" "$out" || { echo "stdout matches: $re"; fail=1; }
done
for re in "${err_res[@]}"; do
  grep -Eq -- "$re" "$err" || { echo "stderr does not match: $re"; fail=1; }
done
if [ ${#json_res[@]} -gt 0 ]; then
  "$domino" simulate "$blob" "$scn" "${opts[@]}" --json >"$json" 2>/dev/null
  for re in "${json_res[@]}"; do
    grep -Eq -- "$re" "$json" || { echo "JSON does not match: $re"; fail=1; }
  done
fi
if [ ${#svg_res[@]} -gt 0 ]; then
  "$domino" simulate "$blob" "$scn" "${opts[@]}" --svg "$svg" >/dev/null 2>&1
  for re in "${svg_res[@]}"; do
    grep -Eq -- "$re" "$svg" || { echo "SVG does not match: $re"; fail=1; }
  done
fi
if [ $fail != 0 ]; then
  echo "--- domino simulate $blob $scn ${opts[*]}"
  echo "--- stdout:"; head -c 6000 "$out"; echo "--- stderr:"; head -c 3000 "$err"
  exit 1
fi
exit 0
