#!/usr/bin/env bash
# Build from scratch and run the whole test suite with ctest.
#   scripts/test.sh                       # gcc, RelWithDebInfo
#   scripts/test.sh --sanitize address,undefined
#   scripts/test.sh --sanitize thread
#   scripts/test.sh --cc clang
#   scripts/test.sh --sanitize thread --only REGEX   # the tests ctest -R picks
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=""
cc="${CC:-gcc}"
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) sanitize="$2"; shift 2 ;;
    --cc) cc="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "usage: $0 [--sanitize LIST] [--cc COMPILER] [--only REGEX]" >&2; exit 2 ;;
  esac
done
scripts/deps.sh
dir="build-test-${cc}${sanitize:+-${sanitize//,/-}}"
if [ -n "$sanitize" ] && [ "$cc" = gcc ]; then cc=clang; dir="build-test-clang-${sanitize//,/-}"; fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDOMINO_SANITIZE="$sanitize" >/dev/null
ninja -C "$dir"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" ${only:+-R "$only"}
