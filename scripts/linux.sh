#!/usr/bin/env bash
# The User-Mode-Linux kernel that `ctest -L linux` boots against
# `domino scmi-serve`: Debian's linux-source-6.12, configured from
# tests/linux/kernel.config and built into a cache outside the tree.
# Run `scripts/linux.sh --help` for the options; docs/scmi.md shows it in use.
set -uo pipefail

usage() {
  cat <<'EOF'
usage: scripts/linux.sh [OPTIONS]

Builds an ARCH=um Linux 6.12 (`allnoconfig` plus tests/linux/kernel.config,
with tests/linux/kernel/ copied in as drivers/domino/) into the cache and
prints the kernel's path on stdout. The sources come from Debian's
linux-source-6.12 package (installed with apt-get when missing, run as
root). A second run rebuilds only what changed: nothing when the fragment
and tests/linux/kernel/ are as they were.

  --jobs N      parallel make jobs (default: nproc)
  --no-install  never run apt-get: exit 77 when the sources are missing
  --path        print where the kernel is (or would be) and exit: 0 when it
                is built and current, 1 when not
  -h, --help    this text

Exit status: 0 built; 1 the build failed; 2 bad usage or a failed setup
step; 77 the sources are absent and --no-install forbids installing them.

Environment:
  DOMINO_LINUX_CACHE    the cache (default /var/tmp/domino-linux): the
                        extracted sources, the build tree (build/), the
                        kernel (linux) and its build log (build.log)
  DOMINO_LINUX_TARBALL  the package's tarball (default
                        /usr/src/linux-source-6.12.tar.xz)
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${DOMINO_LINUX_CACHE:-/var/tmp/domino-linux}
tarball=${DOMINO_LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
jobs=$(nproc)
install=1
path_only=0
die() { echo "linux: error: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive count"; jobs=$2; shift 2 ;;
    --no-install) install=0; shift ;;
    --path) path_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (try --help)" ;;
  esac
done

fragment=$root/tests/linux/kernel.config
ours=$root/tests/linux/kernel
src=$cache/linux-source-6.12
out=$cache/build
kernel=$cache/linux
# What the kernel is built from, besides the package: a change rebuilds.
inputs() { cat "$fragment" "$ours"/*; }
stamp_now() { inputs | sha256sum | cut -d' ' -f1; }

if [ "$path_only" = 1 ]; then
  echo "$kernel"
  [ -x "$kernel" ] && [ "$(cat "$cache/linux.stamp" 2>/dev/null)" = "$(stamp_now)" ]
  exit
fi

since() { echo $(( $(date +%s) - $1 )); }
mkdir -p "$cache" || die "cannot create $cache"

# ---- sources: the whole tree, extracted once -----------------------------
if [ ! -f "$src/.domino-extracted" ]; then
  if [ ! -f "$tarball" ]; then
    if [ "$install" = 0 ]; then
      echo "linux: skipped: $tarball is absent (Debian's linux-source-6.12;" \
           "scripts/linux.sh without --no-install installs it)" >&2
      exit 77
    fi
    apt-get install -y -q linux-source-6.12 >&2 || die "cannot install linux-source-6.12"
    [ -f "$tarball" ] || die "$tarball is still absent after installing linux-source-6.12"
  fi
  t=$(date +%s)
  tmp=$(mktemp -d "$cache/extract.XXXXXX") || die "cannot create a directory in $cache"
  tar -xJf "$tarball" -C "$tmp" || { rm -rf "$tmp"; die "cannot extract $tarball"; }
  rm -rf "$src"
  mv "$tmp/linux-source-6.12" "$src" && rmdir "$tmp" && touch "$src/.domino-extracted" \
    || die "cannot move the sources into $src"
  echo "linux: sources extracted into $src in $(since "$t") s" >&2
fi

# ---- domino's kernel code: drivers/domino/ --------------------------------
# Copied only when it differs, so make sees no change otherwise.
mkdir -p "$src/drivers/domino" || die "cannot write into $src"
for f in "$ours"/*; do
  cmp -s "$f" "$src/drivers/domino/${f##*/}" || cp "$f" "$src/drivers/domino/" || die "cannot copy $f"
done
grep -q '^obj-$(CONFIG_DOMINO_TEST) += domino/$' "$src/drivers/Makefile" ||
  echo 'obj-$(CONFIG_DOMINO_TEST) += domino/' >>"$src/drivers/Makefile" ||
  die "cannot edit $src/drivers/Makefile"
# its Kconfig, sourced last in the Device Drivers menu
grep -q '^source "drivers/domino/Kconfig"$' "$src/drivers/Kconfig" ||
  sed -i '$ s|^endmenu$|source "drivers/domino/Kconfig"\n\nendmenu|' "$src/drivers/Kconfig" ||
  die "cannot edit $src/drivers/Kconfig"
grep -q '^source "drivers/domino/Kconfig"$' "$src/drivers/Kconfig" ||
  die "$src/drivers/Kconfig does not end with endmenu"

# ---- configuration: allnoconfig + the fragment, checked -------------------
mkdir -p "$out" || die "cannot create $out"
export ARCH=um
if ! cmp -s "$fragment" "$out/.domino-fragment"; then
  make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="$fragment" allnoconfig >"$cache/config.log" 2>&1 ||
    { cat "$cache/config.log" >&2; die "allnoconfig failed"; }
  # A line that did not stick (a dependency missing) fails here, not as a
  # kernel that boots without it.
  bad=0
  while IFS= read -r line; do
    case "$line" in
      CONFIG_*=*) grep -qx "$line" "$out/.config" || { echo "linux: error: $line did not stick in $out/.config" >&2; bad=1; } ;;
      "# CONFIG_"*" is not set")
        opt=${line#\# }; opt=${opt%% *}
        ! grep -q "^$opt=" "$out/.config" || { echo "linux: error: $opt is set in $out/.config" >&2; bad=1; } ;;
    esac
  done <"$fragment"
  [ "$bad" = 0 ] || exit 2
  cp "$fragment" "$out/.domino-fragment"
fi

# ---- build ------------------------------------------------------------------
t=$(date +%s)
echo "linux: building $kernel ($jobs jobs; about 10 min on 2 idle cores the first time)" >&2
if ! nice -n 10 make -C "$src" O="$out" -j"$jobs" linux >"$cache/build.log" 2>&1; then
  tail -n 40 "$cache/build.log" >&2
  echo "linux: error: the build failed (the whole log: $cache/build.log)" >&2
  exit 1
fi
cp "$out/linux" "$kernel.tmp" && mv "$kernel.tmp" "$kernel" || die "cannot write $kernel"
stamp_now >"$cache/linux.stamp"
echo "linux: built in $(since "$t") s" >&2
echo "$kernel"
