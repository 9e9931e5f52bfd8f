#!/usr/bin/env bash
# The tests: installs what is missing, then runs pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
export RAY_AUTH_MODE="${RAY_AUTH_MODE:-disabled}"
exec .venv/bin/python -m pytest "$@"
