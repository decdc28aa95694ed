#!/usr/bin/env bash
# Cortex-M4 smoke test (docs/architecture.md, Firmware units): build smoke.c
# with the core's sources
# (bench/firmware_size.sh --core-sources) and the teardown unit, then again
# with the devreq unit too (-DSMOKE_DEVREQ), freestanding -Os against
# newlib, and run each under QEMU's mps2-an386 with semihosting; the
# test's verdict is QEMU's exit status (SYS_EXIT), the first failing
# image's. Exits 77 (ctest: skipped) when
# the cross compiler, newlib or qemu-system-arm is missing.
#   tests/firmware/run_smoke.sh [WORKDIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cc=arm-none-eabi-gcc
qemu=qemu-system-arm
for tool in $cc $qemu; do
  if ! command -v $tool >/dev/null; then
    echo "smoke: skipped: no $tool (scripts/deps.sh installs it)"; exit 77
  fi
done
if ! $qemu -machine help | grep -q '^mps2-an386 '; then
  echo "smoke: skipped: $qemu has no mps2-an386 machine"; exit 77
fi
flags=(-std=c11 -Os -mcpu=cortex-m4 -mthumb -ffreestanding -DDMN_FIRMWARE -DNDEBUG
       -Wall -Wextra -Werror -I"$root/include" -I"$root/src")
if ! echo 'int main(void){return 0;}' |
     $cc "${flags[@]}" --specs=nano.specs -x c - -c -o /dev/null 2>/dev/null ||
   ! $cc -mcpu=cortex-m4 -mthumb --specs=nano.specs -print-file-name=libc_nano.a | grep -q /; then
  echo "smoke: skipped: no newlib for $cc (libnewlib-arm-none-eabi)"; exit 77
fi
work=${1:-$(mktemp -d)}
mkdir -p "$work"
# The core, and the teardown unit for the test's detach/remove at the end;
# a second image adds the devreq unit (device-to-device requirements).
mapfile -t core < <(cd "$root" && bench/firmware_size.sh --core-sources &&
                    bench/firmware_size.sh --unit-sources teardown)
mapfile -t devreq < <(cd "$root" && bench/firmware_size.sh --unit-sources devreq)
for variant in plain devreq; do
  srcs=() defs=()
  for src in "${core[@]}"; do srcs+=("$root/$src"); done
  if [ $variant = devreq ]; then
    for src in "${devreq[@]}"; do srcs+=("$root/$src"); done
    defs=(-DSMOKE_DEVREQ)
  fi
  elf="$work/smoke-$variant.elf"
  $cc "${flags[@]}" "${defs[@]}" -nostartfiles --specs=nano.specs --specs=nosys.specs \
      -T "$here/mps2.ld" -Wl,--no-warn-rwx-segments \
      "$here/startup.c" "$here/smoke.c" "${srcs[@]}" -o "$elf"
  arm-none-eabi-size "$elf"
  timeout 120 $qemu -machine mps2-an386 -nographic -monitor none -serial none \
    -semihosting-config enable=on,target=native -kernel "$elf"
done
