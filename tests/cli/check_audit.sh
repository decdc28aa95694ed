#!/usr/bin/env bash
# check_audit.sh DOMINO CHECK_JSON DIR WORKDIR [XMLLINT]
# The CLI against its specification, rule by rule (docs/design-audit.md names
# each check here; the NAME.md before a check is the docs/ file stating
# its rule). DIR holds the audit's boards (compiled, a-NAME.dtb) and
# scenarios; every check prints its name when it fails.
set -u
domino=$1 check_json=$2 dir=$3 work=$4 xmllint=${5:-}
mkdir -p "$work"
fails=0
esc=$(printf '\033') rlo=$(printf '\342\200\256')

fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

# run NAME EXIT -- COMMAND...: stdout in $work/NAME.out, stderr in .err
run() {
	local name=$1 want=$2
	shift 3
	"$@" >"$work/$name.out" 2>"$work/$name.err"
	local rc=$?
	[ "$rc" = "$want" ] || { fail "$name: exit $rc, wanted $want"; head -c 600 "$work/$name.err"; }
}
# has NAME STREAM ERE: the output matches
has() { grep -Eq -- "$3" "$work/$1.$2" || fail "$1: $2 does not match '$3'"; }
hasnt() { ! grep -Eq -- "$3" "$work/$1.$2" || fail "$1: $2 matches '$3'"; }
empty() { [ ! -s "$work/$1.$2" ] || fail "$1: $2 is not empty"; }

small=$dir/a-small.dtb odd=$dir/a-odd-names.dtb none=$dir/a-empty.dtb

# command-line.md: simulate [BOARD.dtb] [SCENARIO]: a board alone runs no
# commands
run board_alone 0 -- "$domino" simulate "$small"
has board_alone out '^== \(no scenario\) on .*a-small\.dtb: 0 commands, 0 lines$'
has board_alone out '^0 expectations failed, 0 commands failed$'
empty board_alone err
run board_alone_stdin 0 -- sh -c '"$1" simulate - < "$2"' sh "$domino" "$small"
has board_alone_stdin out '^== \(no scenario\) on -: 0 commands, 0 lines$'
printf 'not a blob\n' >"$work/broken.dtb"
run board_alone_broken 2 -- "$domino" simulate "$work/broken.dtb"
has board_alone_broken err 'broken\.dtb: /: error: not a valid device tree blob'
empty board_alone_broken out
run board_alone_json 0 -- "$domino" simulate --json "$small"
"$check_json" simulate "$work/board_alone_json.out" >/dev/null || fail "board_alone_json: check_json"

# command-line.md: empty boards: summary, lint and simulate answer, JSON with
# domains []
run empty_summary 0 -- "$domino" summary "$none"
has empty_summary out '^0 domains \(0 on, 0 off\), 0 device attachments$'
run empty_json 0 -- "$domino" summary --json "$none"
"$check_json" empty "$work/empty_json.out" >/dev/null || fail "empty_json: check_json"
run empty_lint 0 -- "$domino" lint --json "$none"
"$check_json" lint "$work/empty_lint.out" >/dev/null || fail "empty_lint: check_json"
has empty_lint out '"domains": \[\]'
printf 'qos nothing 5\n' >"$work/none.scn"
run empty_simulate 2 -- "$domino" simulate "$none" "$work/none.scn"
has empty_simulate err 'none\.scn:1: error: unknown device .nothing.'

# json.md: --json: lint's object has board, domains and warnings as summary's
run lint_json 0 -- "$domino" lint --json "$small"
"$check_json" lint "$work/lint_json.out" >/dev/null || fail "lint_json: check_json"
run summary_json 0 -- "$domino" summary --json "$small"
[ "$(grep -c '"provider":' "$work/lint_json.out")" = 2 ] || fail "lint_json: not the board's 2 domains"
has lint_json out '"counts": \{"errors": 0, "warnings": 0, "notes": 0\}'
hasnt lint_json out '^  "warnings": [0-9]'

# json.md: --json is one JSON object, with summary --explain too
# (lifecycle.md): the
# summary's object and the explanation's lines
run explain_json 0 -- "$domino" summary --json --explain gdsc:3 "$small"
"$check_json" summary "$work/explain_json.out" >/dev/null || fail "explain_json: check_json"
has explain_json out '^    "explain gdsc:3: off because: no idle states",$'

# command-line.md: exit codes: usage 2, input 2, expectation 1 (after the rest
# ran)
run usage_extra_arg 2 -- "$domino" summary "$small" "$small"
has usage_extra_arg err "^domino summary: error: unexpected argument"
empty usage_extra_arg out
run usage_no_value 2 -- "$domino" simulate --svg
has usage_no_value err '^domino simulate: error: --svg needs a value$'
run usage_flag_value 2 -- "$domino" summary --json=yes
has usage_flag_value err '^domino summary: error: --json takes no value$'
run usage_lint_option 2 -- "$domino" summary --strict
has usage_lint_option err "unknown option '--strict'"
printf 'resume dev_a\nexpect gdsc:3 off\nexpect pd pstate 64\nsuspend dev_a\nexpect gdsc:3 off\n' >"$work/expect.scn"
run expect_exit 1 -- "$domino" simulate "$small" "$work/expect.scn"
has expect_exit err '^[^ ]*expect\.scn:2: expect failed: gdsc:3 off, got on$'
has expect_exit err '^[^ ]*expect\.scn:3: expect failed: pd pstate 64, got 0$'
hasnt expect_exit err ':5: expect failed'
has expect_exit out '^2 expectations failed, 0 commands failed$'

# command-line.md: stdout vs stderr: reports on stdout, errors on stderr only
printf '@1ms resume dev_a\n@0 suspend dev_a\n' >"$work/back.scn"
run time_backwards 2 -- "$domino" simulate "$small" "$work/back.scn"
has time_backwards err 'back\.scn:2: error: '
empty time_backwards out

# command-line.md: '-' is stdin, for a board and for a scenario; options
# anywhere
run stdin_board 0 -- sh -c '"$1" summary --json - < "$2"' sh "$domino" "$small"
has stdin_board out '"board": "-"'
run stdin_scenario 0 -- sh -c 'printf "resume dev_b\nexpect pd on\n" | "$1" simulate "$2" - --json' sh "$domino" "$small"
"$check_json" simulate "$work/stdin_scenario.out" >/dev/null || fail "stdin_scenario: check_json"
printf 'resume dev_b\n' >"$work/one.scn"
run stdin_twice 2 -- sh -c '"$1" simulate - - < "$2"' sh "$domino" "$small"
has stdin_twice err "^domino simulate: error: stdin \('-'\) can be the board or the scenario, not both$"
run option_order 0 -- "$domino" simulate --json "$small" "$work/one.scn" --svg "$work/first.svg" --svg "$work/last.svg"
[ -s "$work/last.svg" ] && [ ! -e "$work/first.svg" ] || fail "option_order: the last --svg wins"

# scenario.md: the language: UTF-8 text (a BOM and CRLF are fine, invalid UTF-8
# is
# FILE:LINE: error), '#' comments, @ absolute and + relative times with
# ns/us/ms/s, frequencies in any case; devices start suspended, domains off
# at pstate 0 at time 0
printf '\357\273\277# start\r\nexpect pd off\r\nexpect pd pstate 0\r\n@1.5ms resume dev_b # on\r\n+500us expect pd on\r\n@2ms expect pd on\r\n' >"$work/lang.scn"
run lang_ok 0 -- "$domino" simulate "$small" "$work/lang.scn"
has lang_ok out '^ +1\.500 ms +pd +off -> on'
has lang_ok out '^0 expectations failed'
printf 'resume dev_\377\n' >"$work/utf8.scn"
run lang_utf8 2 -- "$domino" simulate "$small" "$work/utf8.scn"
has lang_utf8 err 'utf8\.scn:1: error: invalid UTF-8'
printf 'resume venus\nrate venus 720MHZ\nexpect venus rate 720mhz\n+1ms rate venus 1.014GhZ\nexpect venus rate 1014000000\n' >"$work/freq.scn"
run lang_freq 0 -- "$domino" simulate "$work/freq.scn"
has lang_freq out '^0 expectations failed, 0 commands failed$'

# command-line.md: one command, one line: the plural follows the count
run plural 0 -- "$domino" simulate "$small" "$work/one.scn"
has plural out ': 1 command, 1 line$'

# command-line.md, json.md: names from the board: escaped in text, valid in
# JSON/trace/SVG
run odd_summary 0 -- "$domino" summary "$odd"
hasnt odd_summary out "$esc|$rlo"
has odd_summary out 'sleep<&>"\?\[31m\?'
run odd_simulate 0 -- "$domino" simulate "$odd" "$dir/odd-names.scn" --json \
	--trace "$work/odd.trace.json" --svg "$work/odd.svg"
"$check_json" simulate "$work/odd_simulate.out" >/dev/null || fail "odd_simulate: check_json"
"$check_json" trace "$work/odd.trace.json" >/dev/null || fail "odd_simulate: check_json trace"
hasnt odd_simulate out "$esc"
grep -q "$esc" "$work/odd.svg" "$work/odd.trace.json" && fail "odd_simulate: ESC in the SVG or trace"
if [ -n "$xmllint" ]; then
	"$xmllint" --noout "$work/odd.svg" || fail "odd_simulate: SVG is not XML"
fi
run odd_lint 0 -- "$domino" lint --json "$odd"
"$check_json" lint "$work/odd_lint.out" >/dev/null || fail "odd_lint: check_json"

# command-line.md: errors name the file, escaped: a path cannot write to the
# terminal
run odd_path 2 -- "$domino" summary "$work/x${esc}[2Jy.dtb"
has odd_path err 'x\?\[2Jy\.dtb: error: cannot open: '
hasnt odd_path err "$esc"

# domino --help: options go anywhere, --opt=VALUE or --opt VALUE, -- ends
# them; scmi-serve too
printf 'agent 1 ospm power all perf all\n' >"$work/agents.txt"
run scmi_equals 0 -- "$domino" scmi-serve --list --agents="$work/agents.txt" --socket-dir=/s -- "$small"
has scmi_equals out '^power 0 pd$'
has scmi_equals out '^agent 1 ospm /s/agent1\.sock$'
run scmi_dashdash 2 -- "$domino" scmi-serve --agents "$work/agents.txt" --list -- --odd.dtb
has scmi_dashdash err '^--odd\.dtb: error: cannot open'

# --help against the code: every verb the parser knows is in simulate's
# help, every option a command's help names is one it takes
printf 'frobnicate x\n' >"$work/verb.scn"
"$domino" simulate "$work/verb.scn" 2>&1 >/dev/null | grep -o '(verbs: [^)]*)' |
	sed 's/(verbs: //; s/)//; s/, /\n/g' >"$work/verbs.txt"
[ "$(wc -l <"$work/verbs.txt")" -ge 17 ] || fail "help_verbs: the parser's verb list"
"$domino" simulate --help >"$work/simulate_help.txt"
while read -r verb; do
	grep -qw -- "$verb" "$work/simulate_help.txt" || fail "help_verbs: simulate --help lacks '$verb'"
done <"$work/verbs.txt"
run help_command 0 -- "$domino" help lint
has help_command out '^usage: domino lint BOARD\.dtb'
run help_unknown 2 -- "$domino" help frobnicate
has help_unknown err "unknown command 'frobnicate'"
for cmd in summary lint simulate; do
	for o in $("$domino" $cmd --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		(cd "$work" && "$domino" $cmd "$o" x) 2>&1 >/dev/null | grep -q "unknown option" &&
			fail "help_options: $cmd --help names $o, which $cmd does not take"
	done
done

run odd_hw_value 2 -- "$domino" summary --supported-hw "x${esc}[2J"
has odd_hw_value err "^domino summary: error: --supported-hw 'x\?\[2J'"
printf 'agent 1 a\001b power all\n' >"$work/odd-agents.txt"
run odd_agents 2 -- "$domino" scmi-serve "$small" --list --agents "$work/odd-agents${esc}.txt"
has odd_agents err 'odd-agents\?\.txt: error: cannot open'
hasnt odd_agents err "$esc"

echo "$fails failed"
[ "$fails" = 0 ]
