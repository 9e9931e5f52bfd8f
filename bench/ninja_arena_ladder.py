"""Ninja Arena ladder: win rates of the built-in bots in 4-player games (and Duel).

Each line-up puts the bot under test in one seat (rotating through the seats) against three
opponents; "first" counts a finish in the top tier (a shared first place counts as 1/k), and
"points" is the mean match points of engine.core.Outcome.points (1 = beat everyone).

    PYTHONPATH=. .venv/bin/python bench/ninja_arena_ladder.py [games_per_lineup] [players]
"""

from __future__ import annotations

import os
import sys
import time

# bench/engine.py would shadow the engine package when this script runs from bench/.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

from tourney.engine.bots import make_bot  # noqa: E402
from tourney.engine.core import get_game  # noqa: E402
from tourney.engine.referee import play_match  # noqa: E402

GAME_ID = "ninja-arena"


def lineup(hero: str, villain: str, games: int, players: int, config: dict[str, object]) -> tuple[float, float, float]:
    """(first-place rate, mean points, mean ticks) of `hero` against players-1 `villain`s."""
    game = get_game(GAME_ID)
    first = points = ticks = 0.0
    for g in range(games):
        hero_seat = g % players
        seats = [
            make_bot(hero if s == hero_seat else villain, game, seed=1000 * g + s) for s in range(players)
        ]
        result = play_match(GAME_ID, seats, seed=g, config=config)
        top = result.ranking[0]
        if hero_seat in top:
            first += 1.0 / len(top)
        points += result.points(hero_seat)
        ticks += float(result.details.get("ticks", 0))
    return first / games, points / games, ticks / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    rows = [
        ("greedy", "random", players, {}),
        ("tactician", "random", players, {}),
        ("tactician", "greedy", players, {}),
        ("greedy", "tactician", players, {}),
        ("random", "random", players, {}),
        ("greedy", "random", 2, {"mode": "duel"}),
        ("tactician", "greedy", 2, {"mode": "duel"}),
    ]
    print(f"{'hero':<10} {'vs':<10} {'players':>7} {'mode':<8} {'games':>5} {'first%':>7} {'points':>7} "
          f"{'ticks':>6} {'s':>6}")
    for hero, villain, n, cfg in rows:
        t0 = time.perf_counter()
        first, pts, ticks = lineup(hero, villain, games, n, cfg)
        mode = str(cfg.get("mode", "standard"))
        print(f"{hero:<10} {villain:<10} {n:>7} {mode:<8} {games:>5} {100 * first:>6.1f}% {pts:>7.3f} "
              f"{ticks:>6.0f} {time.perf_counter() - t0:>6.1f}", flush=True)


if __name__ == "__main__":
    main()
