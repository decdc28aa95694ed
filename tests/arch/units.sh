#!/bin/bash
# The optional units are listed once, in src/units.txt: every file it names
# exists in src/core or src/opp, no file is in two units, and the table of
# docs/architecture.md ("Firmware units") names exactly its units.
#   units.sh [ROOT]
set -eu
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
bad=0
seen=""
listed=$(awk '/^[a-z]/ { print $1 }' src/units.txt | sort)
while read -r name where srcs; do
  case $name in ''|'#'*) continue ;; esac
  case $where in firmware|hosted) ;; *) echo "src/units.txt: $name: WHERE is '$where', not firmware or hosted"; bad=1 ;; esac
  for f in $srcs; do
    case $f in src/core/*|src/opp/*) ;; *) echo "src/units.txt: $name: $f is not in src/core or src/opp"; bad=1 ;; esac
    [ -f "$f" ] || { echo "src/units.txt: $name: no file $f"; bad=1; }
    case " $seen " in *" $f "*) echo "src/units.txt: $f is in two units"; bad=1 ;; esac
    seen="$seen $f"
  done
done < src/units.txt
documented=$(awk '/^## Firmware units/ { on = 1; next } /^## / { on = 0 }
  on && /^\| [a-z]+ \|/ && $2 != "unit" { print $2 }' docs/architecture.md | sort)
if [ "$listed" != "$documented" ]; then
  echo "docs/architecture.md (Firmware units) and src/units.txt differ:"
  diff <(echo "$listed") <(echo "$documented") || true
  bad=1
fi
[ $bad = 0 ] && echo "$(echo "$listed" | wc -l) units, listed once"
exit $bad
