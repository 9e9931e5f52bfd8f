#!/usr/bin/env bash
# mypy --strict over the package as it installs (`tourney.engine`, ...): mypy reads packages from
# folders, and the folders here are named as the layers (engine/, ...), so it checks a tree of links
# named as the install (.mypy-tree/tourney/engine -> engine/, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
tree=.mypy-tree/tourney
mkdir -p "$tree"
for layer in engine workers tournament web envs; do
  ln -sfn "../../$layer" "$tree/$layer"
done
MYPYPATH=.mypy-tree exec .venv/bin/mypy -p tourney.engine -p tourney.workers -p tourney.tournament -p tourney.web -p tourney.envs "$@"
