#!/usr/bin/env bash
# Cross-build the core (domains, votes, idle governor, QoS, statistics, OPP;
# no loader, no CLI) freestanding for Cortex-M4 with -Os, and print:
#   core_text_bytes_cortex_m4          every function of the core and OPP
#   core_text_bytes_cortex_m4_linked   what a power controller's firmware
#                                      keeps after --gc-sections when it
#                                      calls the API in FIRMWARE_API below
#   scmi_text_bytes_cortex_m4          the SCMI server (src/scmi, Base, Power
#                                      Domain and Performance), on top
set -euo pipefail
cd "$(dirname "$0")/.."
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
    $cc -std=c11 -Os -mcpu=cortex-m4 -mthumb -ffreestanding -ffunction-sections -fdata-sections \
        -Wall -Wextra -Werror -Iinclude -Isrc -c "$src" -o "$obj"
    objs+=("$obj")
  done
}
objs=()
compile "" src/core/*.c src/opp/*.c
core_objs=("${objs[@]}")
text=$(arm-none-eabi-size -t "${objs[@]}" | tail -n 1 | awk '{print $1}')
echo "core_text_bytes_cortex_m4: $text B"

# The SCMI server only: the hosted helpers (board.c, agents.c) read the DT
# model and are not part of a firmware build.
objs=()
compile scmi- src/scmi/server.c src/scmi/base.c src/scmi/power.c src/scmi/perf.c
scmi_objs=("${objs[@]}")
objs=("${core_objs[@]}")
scmi_text=$(arm-none-eabi-size -t "${scmi_objs[@]}" | tail -n 1 | awk '{print $1}')
echo "scmi_text_bytes_cortex_m4: $scmi_text B"

FIRMWARE_API="dmn_ctx_create dmn_ctx_destroy dmn_listen pd_domain_create pd_link_add
  pd_link_set_floor pd_device_create pd_attach pd_detach pd_device_get pd_device_put
  pd_vote pd_domain_info pd_domain_add_idle_state pd_device_set_qos pd_device_set_wakeup
  pd_domain_stats opp_table_create opp_add opp_domain_set_table opp_link_add
  opp_device_bind opp_device_set_clock opp_device_set_regulators opp_set_rate"
keep=()
for sym in $FIRMWARE_API; do keep+=("-Wl,-u,$sym"); done
$cc -mcpu=cortex-m4 -mthumb -nostdlib -Wl,-r -Wl,--gc-sections "${keep[@]}" \
    "${objs[@]}" -o "$out/firmware-core.o"
linked=$(arm-none-eabi-size "$out/firmware-core.o" | tail -n 1 | awk '{print $1}')
echo "core_text_bytes_cortex_m4_linked: $linked B"
