#!/usr/bin/env bash
# Linux's own genpd beside domino: the rising+falling
# dev_pm_genpd_set_performance_state() pair on one genpd with 1, 2, 4, 8,
# 16, 32 and 101 voters (tests/linux/kernel/domino_genpd_kunit.c, a KUnit
# case in the User-Mode-Linux kernel of scripts/linux.sh, single CPU, no
# debug options), and domino's vote pair at the same voter counts
# (domino-bench's vote_pair_ns_nN: `--only pair` and `--only sweep`), as
# ratios domino / Linux.
#
# usage: bench/linux_genpd.sh [--figures FILE] [--domino-bench PATH]
#   --figures FILE       domino-bench's `key value` output to take domino's
#                        figures from (bench/run passes its own run's)
#   --domino-bench PATH  else run this one (default
#                        build-release/bench/domino-bench) with --only pair
#                        and --only sweep
# Without the kernel: one line saying why, exit 0 (bench/run goes on).
set -uo pipefail
cd "$(dirname "$0")/.."
figures=""
bench=build-release/bench/domino-bench
while [ $# -gt 0 ]; do
  case "$1" in
    --figures) figures=$2; shift 2 ;;
    --domino-bench) bench=$2; shift 2 ;;
    *) echo "usage: bench/linux_genpd.sh [--figures FILE] [--domino-bench PATH]" >&2; exit 2 ;;
  esac
done
if ! kernel=$(scripts/linux.sh --path); then
  echo "linux_genpd: skipped: no current kernel in the cache ($kernel): run scripts/linux.sh"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/init.sh" <<'EOF'
#!/bin/sh
mount -t proc proc /proc
echo o >/proc/sysrq-trigger
EOF
chmod +x "$tmp/init.sh"
# KUnit runs at boot, before init; init powers off at once
(cd "$tmp" && timeout 300 "$kernel" mem=64M rw rootfstype=hostfs rootflags=/ \
   init="$tmp/init.sh" kunit.enable=1 kunit.filter_glob=domino_genpd \
   </dev/null >"$tmp/kernel.log" 2>&1)
if ! grep -q "^ok 1 domino_genpd" "$tmp/kernel.log"; then
  echo "linux_genpd: the KUnit case did not pass:" >&2
  grep -E "domino|not ok|FAIL|Expected" "$tmp/kernel.log" >&2
  exit 1
fi
if [ -z "$figures" ]; then
  figures="$tmp/domino.txt"
  "$bench" --only pair >"$figures" 2>/dev/null
  "$bench" --only sweep >>"$figures" 2>/dev/null
fi
echo "# Linux 6.12's genpd (KUnit in the UML kernel, one CPU) beside domino's vote pair:"
echo "# ns per rise+fall pair, median (fastest); two processes timed one after the other"
printf '%-8s %-22s %-22s %s\n' voters "linux genpd ns" "domino ns" "domino / linux"
# (domino-bench times 100 voters where the KUnit case has 101: "101/100")
awk -v figs="$figures" '
  BEGIN {
    while ((getline line < figs) > 0) {
      n = split(line, w, " ")
      if (n >= 2) fig[w[1]] = w[2]
    }
  }
  /^domino-genpd: voters / {
    v = $3; med = $5; lo = $7
    # domino-bench times 100 voters where the KUnit case has 101
    d = fig["vote_pair_ns_n" (v == 101 ? 100 : v)]
    dm = fig["vote_pair_ns_n" (v == 101 ? 100 : v) "_min"]
    printf "linux_genpd_pair_ns_n%d %s\n", v, med > "/dev/stderr"
    if (d == "") {
      printf "%-8s %-22s %-22s %s\n", v, med " (" lo ")", "not measured", "-"
    } else {
      printf "%-8s %-22s %-22s %.2f\n", v (v == 101 ? "/100" : ""), med " (" lo ")", sprintf("%.2f (%.2f)", d, dm), d / med
    }
  }' "$tmp/kernel.log" 2>"$tmp/kv"
echo "# key value:"
cat "$tmp/kv"
