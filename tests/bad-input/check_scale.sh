#!/usr/bin/env bash
# check_scale.sh DOMINO GEN_SHAPE N MAX_BYTES_PER_DOMAIN [MAX_KB]
# The chain, reversed chain, flat and nested boards of N domains (and of
# N/10, for the growth) go through `domino summary` whole, with exit 0,
# and the text grows linearly: at most MAX bytes per domain, and per
# domain at N within 1.5x of per domain at N/10 (an indentation per level
# would make a chain's text quadratic). Timing is the bench's business
# (bench/run); the ctest TIMEOUT only catches a quadratic walk. MAX_KB,
# when given, caps each run's address space (not under the sanitizers):
# a model quadratic in depth (10,000 nested domains took 0.9 GB) fails.
set -u
domino=$1 gen=$2 n=$3 max=$4 max_kb=${5:-}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
for shape in chain rchain flat nest; do
  prev=
  for size in $((n / 10)) "$n"; do
    "$gen" "$shape" "$size" "$dir/b.dtb" || { echo "gen_shape $shape $size failed"; exit 1; }
    (if [ -n "$max_kb" ]; then ulimit -v "$max_kb"; fi
     exec "$domino" summary "$dir/b.dtb") > "$dir/out.txt" 2> "$dir/err.txt"
    rc=$?
    bytes=$(wc -c < "$dir/out.txt")
    per=$((bytes / size))
    echo "$shape-$size: exit $rc, $bytes bytes, $per per domain"
    if [ "$rc" != 0 ]; then
      echo "FAIL $shape-$size: exit $rc"; head -5 "$dir/err.txt"; fail=1
    fi
    if [ "$per" -gt "$max" ] || [ "$per" -lt 1 ]; then
      echo "FAIL $shape-$size: $per bytes per domain, bound $max"; fail=1
    fi
    if [ -n "$prev" ] && [ $((per * 2)) -gt $((prev * 3)) ]; then
      echo "FAIL $shape: $per bytes per domain at $size, $prev at $((size / 10)): not linear"; fail=1
    fi
    prev=$per
  done
done
exit $fail
