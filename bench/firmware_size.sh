#!/usr/bin/env bash
# Cross-build the core (domains, votes, idle, OPP; no loader, no CLI)
# freestanding for Cortex-M4 with -Os and print its text size.
set -euo pipefail
cd "$(dirname "$0")/.."
cc=arm-none-eabi-gcc
if ! command -v $cc >/dev/null; then
  echo "core_text_bytes_cortex_m4: unavailable (no $cc)"; exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
objs=()
for src in src/core/*.c src/opp/*.c; do
  [ -f "$src" ] || continue
  obj="$out/$(basename "${src%.c}")-$(basename "$(dirname "$src")").o"
  $cc -std=c11 -Os -mcpu=cortex-m4 -mthumb -ffreestanding -ffunction-sections -fdata-sections \
      -Wall -Wextra -Werror -Iinclude -Isrc -c "$src" -o "$obj"
  objs+=("$obj")
done
text=$(arm-none-eabi-size -t "${objs[@]}" | tail -n 1 | awk '{print $1}')
echo "core_text_bytes_cortex_m4: $text B"
