#!/usr/bin/env bash
# The soak test: installs what is missing, builds Weft, then runs
# scripts/soak.py for the minutes asked (default 30): the cilk5 programs,
# the run tests and random fork-join programs at 2 to 8 workers, with and
# without forced steals, each against its serial elision under a timeout.
# Not part of the README's test command. Arguments go to soak.py, e.g.
#   scripts/soak.sh --minutes 60 --jobs 2
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec python3 scripts/soak.py "$@"
