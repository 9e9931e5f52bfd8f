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
# The Python bot SDK is its own package (clients/python, `tourney_bot`, which `pip install ./clients/python`
# gives anywhere); tourney's tools use it too. Here a .pth names its folder, as an editable install would, so
# `import tourney_bot` works from any folder with .venv/bin/python, a `cmd:python3 mybot.py` entrant runs with
# it, edits take effect at once, and mypy reads its sources.
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$PWD/clients/python" > "$site/tourney_sdk.pth"
