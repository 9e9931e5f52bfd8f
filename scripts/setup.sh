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
# The Python bot SDK (clients/python/tourney_bot.py) importable by this Python from anywhere, so a
# bot of your own (`import tourney_bot`) runs with .venv/bin/python or as `cmd:python3 mybot.py`.
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$PWD/clients/python" > "$site/tourney_sdk.pth"
