#!/usr/bin/env bash
# The main job: installs what is missing, then `tourney run` (defaults: a round robin of the
# built-in bots on Tiny Ninjas, results in ./tourney.db). Extra arguments go to `tourney run`.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
export RAY_AUTH_MODE="${RAY_AUTH_MODE:-disabled}"
exec .venv/bin/tourney run "$@"
