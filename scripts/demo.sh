#!/usr/bin/env bash
# Install dependencies, build domino, and run the built-in demo simulation.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build >/dev/null
exec build/cli/domino simulate "$@"
