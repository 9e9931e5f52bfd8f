"""The built-in bots' ladder, per game: random, greedy and the search bot at 10, 50 and 200 ms.

For each game a round robin of the five entrants is played on Ray with the product's own
tournament runner (duplicate pairs: the same seed twice with the seats swapped; for
4-player Ninja Arena, pods of four with the seats rotated through one seed), stored in a
throw-away SQLite file, and the product's standings (performance Elo with its 95% interval)
are printed. A second table gives each entrant's score against greedy: for 2-player games
the mean over duplicate pairs with a 95% interval, for 4-player pods the first-place share
next to greedy's own.

    .venv/bin/python bench/ladder.py                      # every game, a few minutes each
    .venv/bin/python bench/ladder.py --game ninja-arena --pairs 4
    .venv/bin/python bench/ladder.py --pairs 100 --workers 2   # the issue's >= 1,000 pairs vs greedy: see README

`--pairs` is duplicate pairs per encounter (2-player games) or cycles of the pod schedule
(4-player Ninja Arena: each cycle is 5 pods of 4 rotations). The search bot of a game is
named in SEARCH_BOTS (override with --search game=spec); its budget is appended as `:ms=`.
The machine is shared: the search bots think on the wall clock, so a loaded machine makes them
weaker, and the numbers are a guide, not a test.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

# Run as a script, Python puts bench/ first on the path, and Ray gives its workers the driver's
# script folder too, where bench/engine.py would shadow the `engine` package.
sys.path[0] = str(Path(__file__).resolve().parents[1])
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

from engine.core import game_ids  # noqa: E402
from tournament.entrants import Entrant  # noqa: E402
from tournament.runner import InProcess, TournamentPlan, run_tournament  # noqa: E402
from tournament.standings import Z95  # noqa: E402
from tournament.store.database import open_store  # noqa: E402
from tournament.store.reads import stored_matches  # noqa: E402

# Each game's strongest general search bot, by its registered name (a game's own bot wins).
SEARCH_BOTS = {
    "tiny-ninjas": "montecarlo",
    "maitre-ninja": "regret",
    "ninja-versus-ninja": "expectimax",
    "ninja-arena": "duct",
}
BUDGETS_MS = (10, 50, 200)
PLAYERS = {"ninja-arena": 4}  # the Ninja Arena goal is about the 4-player game
# A few minutes a game on two loaded cores: a Ninja Arena cycle is 20 matches of ~100 ticks.
DEFAULT_PAIRS = {"ninja-arena": 1}


def entrants(search: str) -> list[Entrant]:
    """random, greedy, and the search bot at each budget, aliased by its budget."""
    bots = [Entrant("random", "random"), Entrant("greedy", "greedy")]
    bots += [Entrant(f"{search}@{ms}ms", f"{search}:ms={ms}") for ms in BUDGETS_MS]
    return bots


def run_game(game: str, search: str, pairs: int, workers: int, local: bool) -> None:
    """Play one game's ladder (on Ray, or in this process with `local`) and print its two tables."""
    from workers import RayExecutor

    executor = InProcess() if local else RayExecutor(workers=workers)
    players = PLAYERS.get(game, 2)
    bots = entrants(search)
    plan = TournamentPlan(game=game, entrants=bots, seed=1, players=players, seed_key=f"bench-ladder-{game}",
                          games_per_pair=2 * pairs, cycles=1 if players == 2 else pairs, name=f"ladder {game}")
    with tempfile.TemporaryDirectory(prefix="tourney-ladder-") as tmp:
        store = open_store(str(Path(tmp) / "ladder.db"))
        started = time.perf_counter()
        report = run_tournament(store, plan, executor=executor)
        took = time.perf_counter() - started
        stored = stored_matches(store, report.tournament_id)
        rows = [[(s.alias, s.points, s.tier) for s in seats] for _, seats in stored]
        seeds = [m.seed for m, _ in stored]
    print(f"\n{game}: round robin of {len(bots)} bots, {players} players a match, {report.matches} matches, "
          f"{took:.0f} s")
    print(f"{'#':>2} {'bot':<22}{'games':>6}{'score %':>9}  {'Elo [95%]':<22}")
    for i, s in enumerate(report.standings, 1):
        pct = 100 * s.game_points / s.games if s.games else 0.0
        print(f"{i:>2} {s.alias:<22}{s.games:>6}{pct:>8.1f}%  {s.rating:>5.0f} [{_elo(s.low)}, {_elo(s.high)}]")
    if players == 2:
        versus_greedy_pairs([b.alias for b in bots], rows, seeds)
    else:
        first_place_shares([b.alias for b in bots], rows)


def _elo(x: float) -> str:
    return f"{x:.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def versus_greedy_pairs(aliases: list[str], rows: list[list[tuple[str, float, int]]], seeds: list[int]) -> None:
    """Each entrant's mean score against greedy over complete duplicate pairs, with a 95% interval."""
    pair_points: dict[tuple[str, int], list[float]] = defaultdict(list)
    for seats, seed in zip(rows, seeds, strict=True):
        names = {alias for alias, _, _ in seats}
        if "greedy" not in names or len(names) != 2:
            continue
        for alias, points, _ in seats:
            if alias != "greedy":
                pair_points[(alias, seed)].append(points)
    print(f"   {'against greedy':<22}{'pairs':>6}{'score %':>9}  {'95% interval':<16}")
    for alias in aliases:
        scores = [sum(p) / 2 for (a, _), p in pair_points.items() if a == alias and len(p) == 2]
        if not scores:
            continue
        mean = sum(scores) / len(scores)
        var = sum((x - mean) ** 2 for x in scores) / max(1, len(scores) - 1)
        half = Z95 * math.sqrt(var / len(scores))
        low, high = max(0.0, mean - half), min(1.0, mean + half)
        interval = f"[{100 * low:.1f}, {100 * high:.1f}]" if len(scores) > 1 else "(one pair: none)"
        print(f"   {alias:<22}{len(scores):>6}{100 * mean:>8.1f}%  {interval}")


def first_place_shares(aliases: list[str], rows: list[list[tuple[str, float, int]]]) -> None:
    """Each entrant's share of first places per game played (a shared first counts 1/k)."""
    firsts: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    for seats in rows:
        top = [alias for alias, _, tier in seats if tier == 0]
        for alias, _, _ in seats:
            games[alias] += 1
        for alias in top:
            firsts[alias] += 1.0 / len(top)
    base = firsts["greedy"] / games["greedy"] if games["greedy"] else 0.0
    print(f"   {'first places':<22}{'games':>6}{'share %':>9}  {'x greedy':>8}")
    for alias in aliases:
        if games[alias]:
            share = firsts[alias] / games[alias]
            ratio = f"{share / base:.2f}" if base else ("-" if share == 0 else "inf")
            print(f"   {alias:<22}{games[alias]:>6}{100 * share:>8.1f}%  {ratio:>8}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    parser.add_argument("--pairs", type=int, default=None,
                        help="duplicate pairs per encounter (default 4), or pod-schedule cycles for 4-player games "
                             "(default 1)")
    parser.add_argument("--workers", type=int, default=2, help="Ray workers (default 2)")
    parser.add_argument("--local", action="store_true", help="play in this process, one match at a time, not on Ray")
    parser.add_argument("--search", action="append", default=[], metavar="GAME=SPEC",
                        help="the search bot for a game, e.g. tiny-ninjas=ismcts:rollout_depth=6")
    args = parser.parse_args()
    if (args.pairs is not None and args.pairs < 1) or args.workers < 1:
        parser.error("--pairs and --workers must be at least 1")
    search = dict(SEARCH_BOTS)
    for item in args.search:
        game, sep, spec = item.partition("=")
        if not sep or not spec:
            parser.error(f"--search {item} is not GAME=SPEC: write e.g. --search ninja-arena=duct")
        search[game] = spec
    known = game_ids()
    games = args.game or [g for g in known if g in SEARCH_BOTS]
    for game in games:
        if game not in known:
            parser.error(f"unknown game '{game}': choose one of {', '.join(known)}")
        pairs = args.pairs if args.pairs is not None else DEFAULT_PAIRS.get(game, 4)
        run_game(game, search[game], pairs, args.workers, args.local)


if __name__ == "__main__":
    main()
