"""Engine speed of two source trees side by side, in CPU time, on the same seeds.

    .venv/bin/python bench/engine_compare.py /path/to/base /path/to/head
    .venv/bin/python bench/engine_compare.py BASE HEAD --rounds 5 --seconds 2 --game tiny-ninjas

Measures with `bench/engine.py`'s own loops (random playouts through the State interface, and
random bots refereed by `play_match`) every game, player count and mode, in a
fresh process per tree and per round, alternating the trees so that a change in the machine's
load hits both. Each row plays the same seeds in both trees: the first (discarded) run of the
base tree finds how many games fit in `--seconds`, and every later run plays exactly those.

Figures are CPU seconds of the measuring process (`time.process_time`), not wall time, so other
processes on a shared machine slow them only through shared caches; the best of the rounds is
kept, since noise only ever adds time. The decision counts of the two trees must be equal (the
same seeds played the same way); a row where they differ is marked, as its speeds compare
different work.

Each tree runs on this interpreter and its installed libraries with site processing off
(`-S`), so that an editable install of one checkout cannot shadow the other tree's packages:
only the tree's own code differs between the two columns. A tree's layers are imported from its
folders (`engine/`, ...) and reached under either name, `tourney.engine` (the installed package
since the layers moved under `tourney`) or `engine` (before), so trees from either side of the
move compare.
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# This folder holds bench/engine.py: keep it off the path so `engine` is the tree's package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

Row = dict[str, Any]  # kind, game, players, config, and then games or seconds


class _LayerAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports `tourney.<layer>...` as the tree's own `<layer>...` module, so one module object
    serves both names (a second copy would hold a second game registry)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name == "tourney":
            return importlib.machinery.ModuleSpec(name, None, is_package=True)
        if name.startswith("tourney."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return importlib.import_module(spec.name.removeprefix("tourney."))

    def exec_module(self, module: Any) -> None:
        """Nothing to run: the module was executed under its folder name."""


def _bench() -> Any:
    """This folder's bench/engine.py (its loops and player counts), run against the tree on the path."""
    spec = importlib.util.spec_from_file_location("engine_bench", Path(__file__).with_name("engine.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(games: Sequence[str] | None) -> list[Row]:
    """Every row to measure (run inside a tree: the games and their modes come from its code)."""
    from tourney.engine.core import available_games, get_game

    bench = _bench()
    ids = list(games) if games else [g.id for g in available_games()]
    rows: list[Row] = []
    for kind in ("playout", "referee"):
        for gid in ids:
            for n in bench.player_counts(gid):
                rows.append({"kind": kind, "game": gid, "players": n, "config": {}})
            if kind == "playout":
                for mode in get_game(gid).modes[1:]:
                    rows.append({"kind": kind, "game": gid, "players": 2, "config": {"mode": mode}})
    return rows


def _measure(rows: list[Row]) -> list[Row]:
    """Each row with the games, decisions and CPU seconds measured in this process."""
    bench = _bench()
    out = []
    for row in rows:
        play = bench.random_playouts if row["kind"] == "playout" else bench.refereed_random
        games, decisions, cpu = play(row["game"], row["players"], row["config"] or None, seconds=row.get("seconds"),
                                     games=row.get("games"), clock=time.process_time)
        out.append({**row, "games": games, "decisions": decisions, "cpu": cpu})
    return out


def _in_tree(tree: Path, request: dict[str, Any]) -> list[Row]:
    """Run this file's worker mode in a fresh process importing `tree`'s code; its rows back."""
    path = os.pathsep.join([str(tree), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    env = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-S", __file__, "--worker"], input=json.dumps(request),
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        sys.exit(f"error: measuring {tree} failed:\n{done.stderr.strip()}")
    rows: list[Row] = json.loads(done.stdout)
    return rows


def _key(row: Row) -> tuple[str, str, int, str]:
    return row["kind"], row["game"], row["players"], json.dumps(row["config"], sort_keys=True)


def _table(best: dict[str, dict[tuple[str, str, int, str], Row]], labels: tuple[str, str]) -> None:
    """Print the best rows of both trees side by side, per decision and per game."""
    from rich.console import Console
    from rich.table import Table

    base, head = labels
    table = Table(title=f"CPU speed, best of the rounds: {head} against {base}")
    for col in ("kind", "game", "n", "games", "decisions", "base dec/s", "head dec/s", "ratio",
                "base games/s", "head games/s", "ratio"):
        table.add_column(col, justify="right")
    for key, b in best[base].items():
        h = best[head][key]
        per_decision = (b["decisions"] / b["cpu"], h["decisions"] / h["cpu"])
        per_game = (b["games"] / b["cpu"], h["games"] / h["cpu"])
        name = b["game"] + "".join(f" {v}" for v in b["config"].values())
        same = b["decisions"] == h["decisions"]
        decisions = f"{b['decisions']:,}" if same else f"{b['decisions']:,} != {h['decisions']:,}"
        table.add_row(b["kind"], name, str(b["players"]), str(b["games"]), decisions,
                      f"{per_decision[0]:,.0f}", f"{per_decision[1]:,.0f}", f"{per_decision[1] / per_decision[0]:.2f}",
                      f"{per_game[0]:,.1f}", f"{per_game[1]:,.1f}", f"{per_game[1] / per_game[0]:.2f}")
    Console(width=160).print(table)
    print(f"{base}, {head}; ratio = head/base (above 1: head is faster). load average: "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", nargs="?", type=Path, help="the tree to compare against (a checkout's root)")
    parser.add_argument("head", nargs="?", type=Path, help="the tree being measured")
    parser.add_argument("--rounds", type=int, default=3, help="measured runs of each tree, alternating")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per row, set by the base")
    parser.add_argument("--game", action="append", help="game id (repeatable); default: every game of the base")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        sys.meta_path.insert(0, _LayerAlias())
        request = json.load(sys.stdin)
        rows = request["rows"] if request["rows"] is not None else [
            {**row, "seconds": request["seconds"]} for row in _rows(request["games"])]
        json.dump(_measure(rows), sys.stdout)
        return
    if args.base is None or args.head is None:
        parser.error("give the two trees to compare: BASE HEAD")
    for tree in (args.base, args.head):
        if not (tree / "engine" / "referee.py").is_file():
            parser.error(f"{tree} is not a tourney checkout (no engine/referee.py)")
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds above 0")

    labels = (f"base {args.base.resolve().name}", f"head {args.head.resolve().name}")
    plan = _in_tree(args.base, {"rows": None, "games": args.game, "seconds": args.seconds})
    rows = [{k: row[k] for k in ("kind", "game", "players", "config", "games")} for row in plan]
    best: dict[str, dict[tuple[str, str, int, str], Row]] = {label: {} for label in labels}
    for r in range(args.rounds):
        order = list(zip(labels, (args.base, args.head), strict=True))
        for label, tree in order if r % 2 == 0 else order[::-1]:
            for row in _in_tree(tree, {"rows": rows, "games": None, "seconds": None}):
                kept = best[label].get(_key(row))
                if kept is None or row["cpu"] < kept["cpu"]:
                    best[label][_key(row)] = row
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    _table(best, labels)


if __name__ == "__main__":
    main()
