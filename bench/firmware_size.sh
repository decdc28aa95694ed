#!/usr/bin/env bash
# Cross-build the core freestanding for Cortex-M4 with -Os (no loader, no
# CLI) and print the text (code and read-only data) of each unit a power
# controller's firmware links as a whole object, without --gc-sections
# (the units: src/units.txt):
#   core_text_bytes_cortex_m4       the core: domains, links, devices,
#                                   votes, idle states, QoS, statistics,
#                                   OPP tables, set_rate, required-opps
#   UNIT_text_bytes_cortex_m4       each optional unit of src/units.txt
#                                   marked firmware (what each holds:
#                                   docs/architecture.md)
#   scmi_text_bytes_cortex_m4       the SCMI server (src/scmi, Base, Power
#                                   Domain and Performance), on top
#   core_text_bytes_cortex_m4_linked  what --gc-sections keeps of the core
#                                   for the calls in FIRMWARE_API below
# and check that the core links alone: its objects, relocated into one, need
# nothing but libc and libgcc (the units above call the core, never the
# other way), and each optional unit needs nothing but the core and libc.
# Exits 1 if a check fails.
# With --core-sources, only print the core's source files, one a line
# (tests/firmware/run_smoke.sh builds its image from them); with
# --unit-sources UNIT, those of one optional unit.
set -euo pipefail
cd "$(dirname "$0")/.."

# The optional units, by source file, from src/units.txt (every other .c
# file in src/core and src/opp is the core); hosted units (the fast unit)
# are no part of a firmware image.
declare -A unit_of=()
units=""
while read -r name where srcs; do
  case $name in ''|'#'*) continue ;; esac
  for src in $srcs; do unit_of[$src]=$name; done
  if [ "$where" = firmware ]; then units="$units $name"; fi
done < src/units.txt
core_srcs=()
declare -A unit_srcs=()
for src in src/core/*.c src/opp/*.c; do
  u=${unit_of[$src]:-}
  if [ -z "$u" ]; then core_srcs+=("$src"); else unit_srcs[$u]+="$src "; fi
done
if [ "${1:-}" = --core-sources ]; then
  printf '%s\n' "${core_srcs[@]}"; exit 0
fi
if [ "${1:-}" = --unit-sources ]; then
  # shellcheck disable=SC2086 # a list of paths without spaces
  printf '%s\n' ${unit_srcs[${2:-}]:-}; exit 0
fi

cc=arm-none-eabi-gcc
if ! command -v $cc >/dev/null; then
  echo "core_text_bytes_cortex_m4: unavailable (no $cc)"; exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# compile PREFIX SRC...: cross-compile each source; appends to objs
compile() {
  local prefix=$1 src obj; shift
  for src in "$@"; do
    [ -f "$src" ] || continue
    obj="$out/$prefix$(basename "$(dirname "$src")")-$(basename "${src%.c}").o"
    $cc -std=c11 -Os -mcpu=cortex-m4 -mthumb -ffreestanding -ffunction-sections -fdata-sections -DDMN_FIRMWARE -DNDEBUG \
        -Wall -Wextra -Werror -Iinclude -Isrc -c "$src" -o "$obj"
    objs+=("$obj")
  done
}
text_of() { arm-none-eabi-size -t "$@" | tail -n 1 | awk '{print $1}'; }

# What a freestanding image takes from libc and libgcc.
libc='^(malloc|free|mem(cpy|set|move|cmp)|str(len|cmp|ncmp)|abort|__assert_func|__aeabi_.*)$'
# undefined OBJ...: the symbols that OBJ..., relocated into one object,
# still need beyond libc and libgcc (a weak reference, which an image
# without its unit leaves 0, needs nothing)
undefined() {
  arm-none-eabi-ld -r -o "$out/linked.o" "$@"
  arm-none-eabi-nm -u "$out/linked.o" | awk '$1 == "U" {print $2}' | grep -Ev "$libc" || true
}

objs=()
compile "" "${core_srcs[@]}"
core_objs=("${objs[@]}")
echo "core_text_bytes_cortex_m4: $(text_of "${core_objs[@]}") B"
status=0
missing=$(undefined "${core_objs[@]}")
if [ -n "$missing" ]; then
  echo "core_links_alone: no, it needs:" $missing; status=1
else
  echo "core_links_alone: yes"
fi
# Weak references: a unit's hooks the core installs when the unit is
# linked (devreq: dmn_opp_add's first device-to-device requirement).
echo "core_weak_refs:" $(arm-none-eabi-nm -u "$out/linked.o" | awk '$1 == "w" {print $2}')
for u in $units; do
  objs=()
  # shellcheck disable=SC2086 # a list of paths without spaces
  compile "$u-" ${unit_srcs[$u]}
  echo "${u}_text_bytes_cortex_m4: $(text_of "${objs[@]}") B"
  missing=$(undefined "${core_objs[@]}" "${objs[@]}")
  if [ -n "$missing" ]; then
    echo "$u: needs more than the core:" $missing; status=1
  fi
done

# The SCMI server only: the hosted helpers (board.c, agents.c) read the DT
# model and are not part of a firmware build.
objs=()
compile scmi- src/scmi/server.c src/scmi/base.c src/scmi/power.c src/scmi/perf.c
echo "scmi_text_bytes_cortex_m4: $(text_of "${objs[@]}") B"

FIRMWARE_API="dmn_ctx_create dmn_listen dmn_domain_create dmn_link_add
  dmn_link_set_floor dmn_device_create dmn_attach dmn_device_get dmn_device_put
  dmn_vote dmn_domain_add_idle_state dmn_device_set_qos dmn_device_set_wakeup
  dmn_opp_table_create dmn_opp_add dmn_opp_domain_set_table dmn_opp_link_add
  dmn_opp_device_bind dmn_opp_device_set_clock dmn_opp_device_set_regulators dmn_opp_set_rate"
keep=()
for sym in $FIRMWARE_API; do keep+=("-Wl,-u,$sym"); done
$cc -mcpu=cortex-m4 -mthumb -nostdlib -Wl,-r -Wl,--gc-sections "${keep[@]}" \
    "${core_objs[@]}" -o "$out/firmware-core.o"
echo "core_text_bytes_cortex_m4_linked: $(text_of "$out/firmware-core.o") B"
exit $status
