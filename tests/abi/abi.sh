#!/bin/sh
# The public face of libdomino and libdomino-tools, checked from the built
# libraries.
#   abi.sh exports INCLUDE_DIR LIB.so...
#     the libraries together export exactly the functions and variables
#     that INCLUDE_DIR/domino/*.h declare, each from one library: one
#     missing is a broken promise, one extra is an internal a user could
#     start to depend on.
#   abi.sh runtime LIBDOMINO.so INCLUDE_DIR
#     libdomino.so is the runtime alone: it exports only what the runtime's
#     headers declare (RUNTIME_HEADERS below) and needs no libfdt, so what
#     it exports does not depend on whether libfdt was found.
#   abi.sh internal LIB.a INCLUDE_DIR PREFIX
#     every external symbol of the static library that no public header
#     declares starts with PREFIX, so a firmware image linking libdomino.a
#     next to other code cannot collide on a generic name (docs/architecture.md).
# Declarations are read with universal-ctags (prototypes and extern
# variables; static inline helpers are not symbols and are not listed).
set -eu
mode=${1:-}
RUNTIME_HEADERS="context.h domain.h idle.h lifecycle.h explain.h opp.h scmi.h"
case "$mode" in
exports) inc=${2:-}; lib=${3:-} ;;
*) lib=${2:-}; inc=${3:-} ;;
esac
[ -n "$mode" ] && [ -f "$lib" ] && [ -d "$inc/domino" ] || {
	echo "usage: $0 exports INCLUDE_DIR LIB.so... | runtime LIB.so INCLUDE_DIR | internal LIB.a INCLUDE_DIR PREFIX" >&2
	exit 2
}
ctags=$(command -v ctags-universal || command -v ctags || true)
if [ -z "$ctags" ] || ! "$ctags" --version 2>/dev/null | grep -q Universal; then
	echo "$0: needs universal-ctags (scripts/deps.sh installs it)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ctags" -x --kinds-C=px --language-force=C "$inc"/domino/*.h | awk '{print $1}' | sort -u >"$tmp/declared"
[ -s "$tmp/declared" ] || { echo "$0: no declarations found in $inc/domino" >&2; exit 2; }
# nm -D lists the version node itself as an absolute symbol (A) and may
# suffix names with @@NODE; neither is part of the comparison.
dynamic() { nm -D --defined-only "$1" | awk '$2 != "A" {print $3}' | sed 's/@.*//' | sort -u; }
# listed TITLE FILE [SED]: when FILE has lines, print TITLE and them
# (indented, or as SED says) and fail the check (status=1).
listed() {
	[ -s "$2" ] || return 0
	echo "$1"
	sed "${3:-s/^/  /}" "$2"
	status=1
}

case "$mode" in
exports)
	shift 2
	: >"$tmp/all"
	for l in "$@"; do dynamic "$l" >>"$tmp/all"; done
	sort "$tmp/all" | uniq -d >"$tmp/twice"
	sort -u "$tmp/all" >"$tmp/exported"
	lib=$*
	comm -23 "$tmp/exported" "$tmp/declared" >"$tmp/extra"
	comm -13 "$tmp/exported" "$tmp/declared" >"$tmp/missing"
	status=0
	listed "exported by $lib but declared in no public header:" "$tmp/extra"
	listed "declared in $inc/domino but not exported by $lib (add to src/domino.map or src/domino-tools.map):" \
		"$tmp/missing" 's/^/	/; s/$/;/'
	listed "exported by two libraries:" "$tmp/twice"
	[ $status -eq 0 ] && echo "$lib: $(wc -l <"$tmp/exported") symbols exported, all declared, all declarations exported"
	exit $status
	;;
runtime)
	(cd "$inc/domino" && "$ctags" -x --kinds-C=px --language-force=C $RUNTIME_HEADERS) |
		awk '{print $1}' | sort -u >"$tmp/runtime"
	dynamic "$lib" >"$tmp/exported"
	comm -23 "$tmp/exported" "$tmp/runtime" >"$tmp/extra"
	status=0
	listed "$lib exports what no runtime header ($RUNTIME_HEADERS) declares:" "$tmp/extra"
	if readelf -d "$lib" | grep -q 'NEEDED.*libfdt'; then
		echo "$lib needs libfdt"
		status=1
	fi
	if nm -D --undefined-only "$lib" | grep -q ' fdt_'; then
		echo "$lib calls libfdt:"
		nm -D --undefined-only "$lib" | grep ' fdt_' | sed 's/^/  /'
		status=1
	fi
	[ $status -eq 0 ] && echo "$lib: $(wc -l <"$tmp/exported") symbols exported, all the runtime's; no libfdt"
	exit $status
	;;
internal)
	prefix=${4:-}
	[ -n "$prefix" ] || { echo "$0: internal needs a PREFIX" >&2; exit 2; }
	# Names starting with two underscores belong to the toolchain
	# (sanitizer and coverage instrumentation), not to domino.
	nm --defined-only --extern-only "$lib" | awk 'NF == 3 {print $3}' | grep -v '^__' | sort -u >"$tmp/defined"
	comm -23 "$tmp/defined" "$tmp/declared" >"$tmp/internal"
	grep -v "^$prefix" "$tmp/internal" >"$tmp/bad" || true
	if [ -s "$tmp/bad" ]; then
		echo "$lib: $(wc -l <"$tmp/bad") external symbols in no public header without the internal prefix $prefix"
		echo "(make them static, declare them public, or run scripts/internal-prefix.sh):"
		sed 's/^/  /' "$tmp/bad"
		exit 1
	fi
	echo "$lib: $(wc -l <"$tmp/internal") internal symbols, all prefixed $prefix"
	;;
*)
	echo "$0: unknown mode $mode" >&2
	exit 2
	;;
esac
