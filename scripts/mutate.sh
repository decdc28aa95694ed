#!/usr/bin/env bash
# Mutation testing of src/core, src/opp, src/dt and src/sim (not part of CI:
# it rebuilds and reruns the suite once per mutant). See README "Testing"
# and `scripts/mutate.sh --help`; the work is in scripts/mutate.py.
#   scripts/mutate.sh                       # 200 mutants, seed 1, -j2
#   scripts/mutate.sh -n 0 src/opp/rate.c   # every mutant of one file
set -euo pipefail
exec nice -n 10 python3 "$(dirname "$0")/mutate.py" "$@"
