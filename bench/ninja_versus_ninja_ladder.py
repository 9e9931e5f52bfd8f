"""Win-rate ladder for Ninja Versus Ninja: random < greedy < search bots.

Each pairing plays N games. Games come in pairs with the same seed and the seats swapped
(each bot gets the other's dice: duplicate matches), and the first player alternates
with the seats (`first_player` 0: whoever sits in seat 0 moves first), so neither luck nor
the first move favours a bot. Draws count half.

    .venv/bin/python bench/ninja_versus_ninja_ladder.py --games 1000 --search-games 200

Measured (2 shared cores): greedy vs random 99.5% (1000 games); expectimax (depth 3, beam 4)
vs greedy 69.9% (1000 games; 73.0% on another 300); expectimax:depth=2 vs greedy 57.9%
(1000 games); ismcts (150 iterations) vs greedy 23.3% (60 games).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# Run as a script, Python puts bench/ first on the path, where bench/engine.py would shadow
# the `engine` package: put the repository root there instead.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.bots import make_bot  # noqa: E402
from engine.core import get_game  # noqa: E402
from engine.referee import play_match  # noqa: E402

GAME_ID = "ninja-versus-ninja"
# (bot, opponent, target win share, slow): slow pairings play --search-games games.
PAIRINGS = [
    ("greedy", "random", 0.85, False),
    ("expectimax:depth=2", "greedy", 0.60, False),
    ("expectimax", "greedy", 0.60, True),  # depth 3, beam 4: ~0.25 s a move
    ("ismcts", "greedy", 0.60, True),
]


def ladder(a: str, b: str, games: int, seed: int) -> tuple[float, float, float]:
    """(win share of a with draws half, average turns, seconds) over `games` games."""
    game = get_game(GAME_ID)
    points = 0.0
    turns = 0
    started = time.perf_counter()
    for g in range(games):
        a_seat = g % 2
        match_seed = seed + g // 2
        bots = [make_bot(a, game, match_seed * 2 + 1), make_bot(b, game, match_seed * 2 + 2)]
        seats = bots if a_seat == 0 else bots[::-1]
        result = play_match(GAME_ID, seats, match_seed, config={"first_player": 0})
        points += result.points(a_seat)
        turns += int(result.details.get("turns", 0))
    return points / games, turns / games, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--search-games", type=int, default=None, help="games for the slow pairings (default --games)")
    parser.add_argument("--only", default="", help="comma-separated bot specs of the pairings to run")
    args = parser.parse_args()
    wanted = {name for name in args.only.split(",") if name}
    print(f"{'pairing':<30}{'games':>7}{'win %':>8}{'target':>8}{'turns':>7}{'sec':>8}")
    for a, b, target, slow in PAIRINGS:
        if wanted and a not in wanted:
            continue
        games = args.search_games if slow and args.search_games is not None else args.games
        share, turns, secs = ladder(a, b, games, args.seed)
        mark = "ok" if share >= target else "BELOW"
        pairing = f"{a} vs {b}"
        print(f"{pairing:<30}{games:>7}{100 * share:>7.1f}%{100 * target:>7.0f}%{turns:>7.1f}{secs:>8.1f} {mark}")


if __name__ == "__main__":
    main()
