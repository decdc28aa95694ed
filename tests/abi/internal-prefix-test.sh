#!/bin/sh
# scripts/internal-prefix.sh on a small tree: whole words only, not in
# string or character literals, not members or tags, not in a file with its own
# static of that name; comments follow; a second run changes nothing; a
# map renaming a public name or chaining two renames is refused.
#   internal-prefix-test.sh SCRIPT
set -eu
script=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/scripts" "$t/src/core" "$t/tests" "$t/include/domino"
cp "$script" "$t/scripts/internal-prefix.sh"
printf 'int pd_public(void);\n' >"$t/include/domino/x.h"
printf 'txn_begin dmn__txn_begin\nms_add dmn__ms_add\n' >"$t/scripts/internal-prefix.map"
cat >"$t/src/core/a.c" <<'C'
/* txn_begin() opens it; txn_beginning is another word */
int txn_begin(int ms_add_count);
int txn_begin(int ms_add_count)
{
	struct { int txn_begin; } s = {.txn_begin = ms_add_count};
	const char *msg = "txn_begin failed";
	char c = 'x'; /* it's txn_begin's */
	return s.txn_begin + (msg[0] == c) + ms_add(1);
}
C
cat >"$t/tests/b.c" <<'C'
struct txn_begin { int n; };
static int
ms_add(int x)
{
	struct txn_begin tb = {x};
	return tb.n + txn_begin(0);
}
C
cat >"$t/expect_a.c" <<'C'
/* dmn__txn_begin() opens it; txn_beginning is another word */
int dmn__txn_begin(int ms_add_count);
int dmn__txn_begin(int ms_add_count)
{
	struct { int txn_begin; } s = {.txn_begin = ms_add_count};
	const char *msg = "txn_begin failed";
	char c = 'x'; /* it's dmn__txn_begin's */
	return s.txn_begin + (msg[0] == c) + dmn__ms_add(1);
}
C
cat >"$t/expect_b.c" <<'C'
struct txn_begin { int n; };
static int
ms_add(int x)
{
	struct txn_begin tb = {x};
	return tb.n + dmn__txn_begin(0);
}
C
sh "$t/scripts/internal-prefix.sh"
diff -u "$t/expect_a.c" "$t/src/core/a.c"
diff -u "$t/expect_b.c" "$t/tests/b.c"
sh "$t/scripts/internal-prefix.sh" --check
sh "$t/scripts/internal-prefix.sh" 2>"$t/again"
grep -q '0 file(s) changed' "$t/again"
diff -u "$t/expect_a.c" "$t/src/core/a.c"
printf 'pd_public dmn__public\n' >"$t/bad1.map"
if sh "$t/scripts/internal-prefix.sh" "$t/bad1.map" 2>"$t/err"; then echo "renamed a public name"; exit 1; fi
grep -q 'pd_public is public' "$t/err"
printf 'a_fn dmn__a\ndmn__a dmn__b\n' >"$t/bad2.map"
if sh "$t/scripts/internal-prefix.sh" "$t/bad2.map" 2>"$t/err"; then echo "accepted a chain"; exit 1; fi
grep -q 'both a NEW and an OLD' "$t/err"
echo "internal-prefix.sh: renames, skips, idempotence and refusals as expected"
