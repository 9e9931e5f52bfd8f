#!/usr/bin/env bash
# The tests: installs what is missing, then runs pytest. Extra arguments go to pytest.
# The tests spread over the cores (pytest-xdist, -n; each worker starts its own Ray once). The
# slow soak and cluster tests are left to CI (.ci/run runs every test): `./test.sh -m slow`
# runs just them, `./test.sh -m "slow or not slow"` everything, `TEST_WORKERS=0` one process.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
export RAY_AUTH_MODE="${RAY_AUTH_MODE:-disabled}"
exec .venv/bin/python -m pytest -n "${TEST_WORKERS:-auto}" -m "not slow" "$@"
