#!/bin/sh
# scripts/rename-api.py on a small tree (rename-api: skip-file):
# the map holds every kind of public name and the internal tags; --apply
# renames whole words in code, comments, CMake and markdown, never in string
# or character literals, #include lines, members, file names or ctest names,
# renames a tag-only name only as a tag, leaves `rename-api: off` regions
# alone; a second run changes nothing; --make-compat lets old-name code
# compile; a collision is refused.
#   rename-api-test.sh SCRIPT [CC]
set -eu
script=$1
cc=${2:-cc}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/scripts" "$t/src/core" "$t/include/domino" "$t/tests" "$t/docs"
cp "$script" "$t/scripts/rename-api.py"
cat >"$t/include/domino/x.h" <<'C'
#ifndef DOMINO_X_H
#define DOMINO_X_H
#define PD_FLAG_X 1u
#define OPP_MAX(a, b) ((a) > (b) ? (a) : (b))
typedef unsigned pd_domain_t;
typedef int (*rpt_sink_fn)(void *user, const char *s);
enum pd_state { PD_OFF, PD_ON = 2 };
struct pd_info { int pstate; struct opp_item *items; };
struct opp_item;
struct sim;
int pd_vote(pd_domain_t d, unsigned level);
int opp_find(struct sim *sim, int n);
extern const int dt_version;
#endif
C
cat >"$t/src/core/internal.h" <<'C'
struct pd_node { int opp_item_count; int pd_node; };
C
cat >"$t/src/core/a.c" <<'C'
#include <domino/x.h>
#include "internal.h"
/* pd_vote() casts; pd_voter is another word; see x.h and core/pd_vote */
const int dt_version = 1;
int pd_vote(pd_domain_t d, unsigned level)
{
	struct pd_info info = {.pstate = PD_ON};
	struct pd_node n = {.opp_item_count = 0};
	const char *msg = "pd_vote failed";
	char c = 'p'; /* it's pd_vote's */
	return (int)(d + level) + info.pstate + n.opp_item_count + (msg[0] == c);
}
int opp_find(struct sim *sim, int n)
{
	int opp_item = n;
	(void)sim;
	return OPP_MAX(opp_item, (int)PD_FLAG_X);
}
C
cat >"$t/tests/t.c" <<'C'
#include <stdio.h>
void f(int err);
void f(int err) { fprintf(stderr, "pd_vote: %d (see pd_vote.h)\n", err); }
C
cat >"$t/tests/CMakeLists.txt" <<'C'
add_test(NAME pd_vote COMMAND t pd_vote)
C
cat >"$t/docs/x.md" <<'C'
Call `pd_vote` (src/pd_vote.c, pd_vote.h); `opp_*` look-ups; `struct sim`, a sim.
<!-- rename-api: off -->
`pd_vote` was the 0.1 name.
<!-- rename-api: on -->
C
cat >"$t/tests/old.c" <<'C'
/* rename-api: skip-file */
#include <domino/compat.h>
int main(void)
{
	pd_domain_t d = 1;
	struct pd_info i = {.pstate = PD_OFF};
	enum pd_state s = PD_ON;
	return pd_vote(d, 2) + i.pstate + (s == PD_ON) - 4 + dt_version - 1;
}
C
cd "$t"
fail() { echo "rename-api-test: $*"; exit 1; }
python3 scripts/rename-api.py --make-map map >/dev/null 2>&1 || fail "--make-map failed"
for row in "pd_vote dmn_vote" "PD_FLAG_X DMN_FLAG_X" "OPP_MAX DMN_OPP_MAX" \
	   "pd_domain_t dmn_domain_t" "rpt_sink_fn dmn_report_sink_fn" "PD_ON DMN_ON" \
	   "pd_state dmn_state tag" "opp_item dmn_opp_item tag" "sim dmn_sim tag,strict" \
	   "dt_version dmn_dt_version" "pd_node dmn_node tag,internal,strict"; do
	grep -qx "$row" map || fail "map lacks '$row'"
done
grep -q '^DOMINO_X_H' map && fail "an include guard is in the map"
python3 scripts/rename-api.py --make-compat map include/domino/compat.h >/dev/null 2>&1
python3 scripts/rename-api.py --apply map . >/dev/null 2>&1
expect() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
expect src/core/a.c '/* dmn_vote() casts; pd_voter is another word; see x.h and core/pd_vote */'
expect src/core/a.c 'const int dmn_dt_version = 1;'
expect src/core/a.c 'int dmn_vote(dmn_domain_t d, unsigned level)'
expect src/core/a.c 'struct dmn_info info = {.pstate = DMN_ON};'
expect src/core/a.c 'struct dmn_node n = {.opp_item_count = 0};'
expect src/core/a.c '"pd_vote failed"'
expect src/core/a.c "'p'; /* it's dmn_vote's */"
expect src/core/a.c '#include <domino/x.h>'
expect src/core/a.c 'int dmn_opp_find(struct dmn_sim *sim, int n)'
expect src/core/a.c 'int opp_item = n;'
expect src/core/a.c 'return DMN_OPP_MAX(opp_item, (int)DMN_FLAG_X);'
expect include/domino/x.h 'struct dmn_info { int pstate; struct dmn_opp_item *items; };'
expect include/domino/x.h 'typedef int (*dmn_report_sink_fn)(void *user, const char *s);'
expect tests/CMakeLists.txt 'add_test(NAME pd_vote COMMAND t dmn_vote)'
expect docs/x.md 'Call `dmn_vote` (src/pd_vote.c, pd_vote.h); `dmn_opp_*` look-ups; `struct dmn_sim`, a sim.'
expect docs/x.md '`pd_vote` was the 0.1 name.'
expect tests/old.c 'pd_vote(d, 2)'
expect tests/t.c '"dmn_vote: %d (see pd_vote.h)\n"'
cp -r . "$t.2" 2>/dev/null || true
python3 scripts/rename-api.py --apply map . >/dev/null 2>&1
diff -r "$t.2" . >/dev/null || { rm -rf "$t.2"; fail "a second --apply changed something"; }
rm -rf "$t.2"
for f in src/core/a.c tests/old.c; do
	"$cc" -std=c11 -Wall -Wextra -Werror -Iinclude -Isrc/core -c "$f" -o /dev/null ||
		fail "$f does not compile after the rename"
done
# Collisions: a new name already in the code, two old names onto one, a
# public member spelled like an old name (compat.h would rename it).
printf 'static int dmn_vote_x;\n' >>src/core/a.c
printf 'int pd_vote_x(void);\nint opp_y(void);\nint pd_opp_y(void);\n' >>include/domino/x.h
printf 'struct dmn_q { int pd_vote_x; };\n' >>include/domino/x.h
if python3 scripts/rename-api.py --make-map map2 2>err; then fail "collisions were accepted"; fi
for e in 'dmn_vote_x (new name of pd_vote_x) is already used in src/core/a.c' \
	 'opp_y and pd_opp_y both become dmn_opp_y' 'pd_vote_x is also a member of a public struct'; do
	grep -qF "$e" err || fail "no '$e' in: $(cat err)"
done
test ! -e map2 || fail "a map was written despite the collisions"
echo "rename-api-test: map, apply, idempotence, compat and collisions all as expected"
