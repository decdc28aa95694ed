#!/usr/bin/env bash
# Install what domino needs to build, test, fuzz and cross-build (Debian).
# Skips apt-get entirely when everything is already there.
set -euo pipefail

packages=(
  cmake ninja-build gcc clang pkg-config
  libfdt-dev device-tree-compiler
  libcmocka-dev libjansson-dev
  libclang-rt-14-dev valgrind libxml2-utils jq universal-ctags
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
  make flex bison bc xz-utils   # scripts/linux.sh's User-Mode-Linux kernel
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "deps: installing ${missing[*]}" >&2
$SUDO apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
