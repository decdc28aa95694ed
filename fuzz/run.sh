#!/usr/bin/env bash
# fuzz/run.sh [-j] [SECONDS] [TARGET...]
#
# Builds the libFuzzer targets (clang, DOMINO_FUZZ=ON, ASan+UBSan) in
# build-fuzz/ and runs each TARGET (default: all of them) for SECONDS
# (default 60) on a fresh corpus directory seeded from fuzz/corpus/TARGET/
# (for fuzz_dt_load also ../shared/dts/dtb/*.dtb when present, and deep and
# wide boards generated here by tests/bad-input/gen_shape: chains, reversed
# chains and flat domains of 100, 1,000 and 10,000, nested ones of 100 and
# 1,000; none of these blobs is committed). fuzz_dt_load runs with
# -max_len=1048576 so mutants of the largest seeds (up to ~820 KB) keep
# their shape. -j runs the targets at the same time, one core each.
#
# Prints "fuzz_TARGET: N execs, C crashes" per target and exits non-zero if
# any target crashed, leaked or timed out; the inputs that did are kept in
# build-fuzz/artifacts/TARGET/. Environment: FUZZ_BUILD_DIR (build
# directory), FUZZ_KEEP_CORPUS=1 (keep the grown corpus, printed at the end),
# FUZZ_ARGS (more libFuzzer flags, after run.sh's own so they win, e.g.
# -max_len=16384: small mutants run many times faster than the big seeds).
set -euo pipefail

parallel=0
if [ "${1:-}" = "-j" ]; then parallel=1; shift; fi
seconds=${1:-60}
case $seconds in ''|*[!0-9]*) echo "usage: $0 [-j] [SECONDS] [TARGET...]" >&2; exit 2;; esac
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(dt_load scenario scmi scmi_agents vhost power_model)

root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
shared_dtb=$root/../shared/dts/dtb

work=$(mktemp -d "${TMPDIR:-/tmp}/domino-fuzz.XXXXXX")
[ "${FUZZ_KEEP_CORPUS:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DDOMINO_FUZZ=ON \
	-DDOMINO_TESTS=OFF -DDOMINO_BENCH=OFF >"$work/configure.log" 2>&1 ||
	{ tail -n 30 "$work/configure.log" >&2; exit 2; }
grep '^-- fuzz:' "$work/configure.log" >&2 || true
ninja -C "$build" $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null ||
	{ ninja -C "$build" $(printf 'fuzz_%s ' "${targets[@]}"); exit 2; }

# the shape generator (plain C, no sanitizers needed)
cc -O2 -I"$root/bench" -o "$work/gen_shape" "$root/tests/bad-input/gen_shape.c" \
	"$root/bench/shape_blob.c" || exit 2

# run_one TARGET: fuzz it; leaves $work/TARGET.log and the artifacts
run_one() {
	local t=$1 corpus=$work/$1.corpus art=$build/artifacts/$1
	mkdir -p "$corpus" "$art"
	cp "$root/fuzz/corpus/$t"/* "$corpus"/
	if [ "$t" = dt_load ] && compgen -G "$shared_dtb/*.dtb" >/dev/null; then
		cp "$shared_dtb"/*.dtb "$corpus"/
	fi
	local dict=$root/fuzz/scenario.dict limits=()
	if [ "$t" = dt_load ]; then
		dict=$root/fuzz/dt.dict
		limits=(-max_len=1048576)
		# nests stop at 1,000: each nested domain's path in the model is
		# its full node path, so 10,000 nested levels hold ~0.9 GB
		for seed in chain-100 chain-1000 chain-10000 rchain-100 \
			rchain-1000 rchain-10000 flat-100 flat-1000 flat-10000 \
			nest-100 nest-1000; do
			"$work/gen_shape" "${seed%-*}" "${seed##*-}" "$corpus/shape-$seed.dtb"
		done
	fi
	[ "$t" = scmi ] && dict=$root/fuzz/scmi.dict
	[ "$t" = scmi_agents ] && dict=$root/fuzz/agents.dict
	[ "$t" = vhost ] && dict=$root/fuzz/vhost.dict
	[ "$t" = power_model ] && dict=$root/fuzz/power_model.dict
	# ASan's leak check runs at exit and on every input libFuzzer suspects
	"$build/fuzz/fuzz_$t" "$corpus" -dict="$dict" \
		-max_total_time="$seconds" -print_final_stats=1 \
		-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$art/" \
		"${limits[@]}" ${FUZZ_ARGS:-} >"$work/$t.log" 2>&1
}

declare -A status
if [ $parallel = 1 ]; then
	declare -A pids
	for t in "${targets[@]}"; do run_one "$t" & pids[$t]=$!; done
	for t in "${targets[@]}"; do
		if wait "${pids[$t]}"; then status[$t]=0; else status[$t]=$?; fi
	done
else
	for t in "${targets[@]}"; do
		if run_one "$t"; then status[$t]=0; else status[$t]=$?; fi
	done
fi

rc=0
for t in "${targets[@]}"; do
	log=$work/$t.log
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	# one artifact per crash, leak, timeout or out-of-memory
	crashes=$(grep -c 'Test unit written to' "$log" || true)
	note=
	if [ "${status[$t]}" = 72 ] && [ "$crashes" = 0 ]; then
		note=" (interrupted)" # libFuzzer's exit code on SIGINT
	elif [ "${status[$t]}" != 0 ] && [ "$crashes" = 0 ]; then
		crashes=1
	fi
	echo "fuzz_$t: ${execs:-0} execs, $crashes crashes$note" >&2
	if [ "${status[$t]}" != 0 ] || [ "$crashes" != 0 ]; then
		rc=1
		echo "--- fuzz_$t failed (exit ${status[$t]}); $(grep -m1 -o 'Seed: [0-9]*' "$log" || echo 'seed unknown'); log tail:" >&2
		# the report itself, not libFuzzer's progress lines
		grep -v -E '^(#[0-9]+|MS: |	NEW_FUNC)' "$log" | tail -n 60 >&2
		cp "$log" "$build/artifacts/$t/last-run.log"
		echo "--- inputs in $build/artifacts/$t/" >&2
	fi
done
[ "${FUZZ_KEEP_CORPUS:-0}" = 1 ] && echo "corpora kept in $work"
exit $rc
