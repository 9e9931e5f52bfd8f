#!/usr/bin/env bash
# Creates .venv and installs tourney with its test tools; reinstalls only when pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv --help >/dev/null 2>&1 || { echo "error: python3 with venv is needed: install python3 and python3-venv." >&2; exit 2; }
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=".venv/.install-stamp"
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e ".[dev]"
  echo "$want" > "$stamp"
fi
# The Python bot SDK is its own package (clients/python, `tourney_bot`); tourney's tools use it too. Installed
# editable in the path-entry mode (a .pth naming clients/python), so `import tourney_bot` works from any folder
# with .venv/bin/python, a `cmd:python3 mybot.py` entrant runs with it, and mypy reads its sources.
if ! .venv/bin/python -c 'import tourney_bot.generated' >/dev/null 2>&1; then
  .venv/bin/python -m pip install -q --no-build-isolation -e ./clients/python --config-settings editable_mode=compat
fi
