#!/usr/bin/env bash
# Linux's own genpd beside domino: the rising+falling
# dev_pm_genpd_set_performance_state() pair on one genpd with 1, 2, 4, 8,
# 16, 32 and 101 voters (tests/linux/kernel/domino_genpd_kunit.c, a KUnit
# case in the User-Mode-Linux kernel of scripts/linux.sh, single CPU, no
# debug options), and domino's vote pair at the same voter counts
# (domino-bench's vote_pair_ns_nN: `--only pair` and `--only sweep`), as
# ratios domino / Linux.
#
# usage: bench/linux_genpd.sh [--rounds N] [--domino-bench PATH]
#   --rounds N           boot the kernel and run domino-bench N times,
#                        alternating (default 5); each side's figure per
#                        voter count is its fastest median over the rounds
#   --domino-bench PATH  the domino-bench to run (default
#                        build-release/bench/domino-bench) with --only pair
#                        and --only sweep
# The two sides run in two processes one after the other; alternating them
# and keeping each side's best round takes the machine's slow moments
# (a shared VM's speed changes by up to 2x over seconds) out of the ratio.
# Without the kernel: one line saying why, exit 0 (bench/run goes on).
set -uo pipefail
cd "$(dirname "$0")/.."
rounds=5
bench=build-release/bench/domino-bench
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "linux_genpd: --rounds needs a positive count" >&2; exit 2; }
              rounds=$2; shift 2 ;;
    --domino-bench) bench=$2; shift 2 ;;
    *) echo "usage: bench/linux_genpd.sh [--rounds N] [--domino-bench PATH]" >&2; exit 2 ;;
  esac
done
if ! kernel=$(scripts/linux.sh --path); then
  echo "linux_genpd: skipped: no current kernel in the cache ($kernel): run scripts/linux.sh"
  exit 0
fi
if [ ! -x "$bench" ]; then
  echo "linux_genpd: no domino-bench at $bench (build it, or pass --domino-bench)" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/init.sh" <<'EOF2'
#!/bin/sh
mount -t proc proc /proc
echo o >/proc/sysrq-trigger
EOF2
chmod +x "$tmp/init.sh"
: >"$tmp/linux.txt"
: >"$tmp/domino.txt"
for ((r = 1; r <= rounds; r++)); do
  # KUnit runs at boot, before init; init powers off at once
  # (UML ends with SIGABRT once init has powered it off: not a failure,
  # and the shell's note of it goes to the log too)
  { (cd "$tmp" && timeout 300 "$kernel" mem=64M rw rootfstype=hostfs rootflags=/ \
       init="$tmp/init.sh" kunit.enable=1 kunit.filter_glob=domino_genpd \
       </dev/null >"$tmp/kernel.log" 2>&1); } 2>/dev/null
  if ! grep -q "^ok 1 domino_genpd" "$tmp/kernel.log"; then
    echo "linux_genpd: the KUnit case did not pass:" >&2
    grep -E "domino|not ok|FAIL|Expected" "$tmp/kernel.log" >&2
    exit 1
  fi
  grep "^domino-genpd: voters " "$tmp/kernel.log" >>"$tmp/linux.txt"
  "$bench" --only pair 2>/dev/null >>"$tmp/domino.txt"
  "$bench" --only sweep 2>/dev/null >>"$tmp/domino.txt"
done
echo "# Linux 6.12's genpd (KUnit in the UML kernel, one CPU) beside domino's vote pair:"
echo "# ns per rise+fall pair, the fastest median of $rounds alternating rounds (fastest batch)"
printf '%-8s %-22s %-22s %s\n' voters "linux genpd ns" "domino ns" "domino / linux"
# (domino-bench times 100 voters where the KUnit case has 101: "101/100")
awk -v figs="$tmp/domino.txt" '
  function lower(a, k, v) { if (!(k in a) || v < a[k]) a[k] = v }
  BEGIN {
    while ((getline line < figs) > 0) {
      n = split(line, w, " ")
      if (n >= 2 && w[2] ~ /^[0-9.]+$/) lower(fig, w[1], w[2] + 0)
    }
  }
  { v = $3; lower(med, v, $5 + 0); lower(lo, v, $7 + 0); if (!(v in seen)) { seen[v] = 1; order[++nv] = v } }
  END {
    for (i = 1; i <= nv; i++) {
      v = order[i]
      # domino-bench times 100 voters where the KUnit case has 101
      k = "vote_pair_ns_n" (v == 101 ? 100 : v)
      printf "linux_genpd_pair_ns_n%d %s\n", v, med[v] > "/dev/stderr"
      if (!(k in fig)) {
        printf "%-8s %-22s %-22s %s\n", v, med[v] " (" lo[v] ")", "not measured", "-"
        continue
      }
      printf "domino_pair_ns_n%d %s\n", v, fig[k] > "/dev/stderr"
      printf "domino_vs_linux_genpd_n%d %.2f\n", v, fig[k] / med[v] > "/dev/stderr"
      printf "%-8s %-22s %-22s %.2f\n", v (v == 101 ? "/100" : ""), med[v] " (" lo[v] ")", sprintf("%.2f (%.2f)", fig[k], fig[k "_min"]), fig[k] / med[v]
    }
  }' "$tmp/linux.txt" 2>"$tmp/kv"
echo "# key value:"
cat "$tmp/kv"
