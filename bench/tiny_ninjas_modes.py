"""Tiny Ninjas per-mode benchmark: random-playout speed per mode, and the Solo ladder.

    .venv/bin/python bench/tiny_ninjas_modes.py                    # default sizes
    .venv/bin/python bench/tiny_ninjas_modes.py --seconds 5 --solo-games 400 --bots random,greedy

Speed: decisions/s and games/s of uniformly random playouts (legal_actions, a random choice,
apply) in each mode, on one core. Ladder: how often each built-in bot beats the rulebook's
scripted Solo AI at each difficulty (win rate with a 95% interval), i.e. how hard "hard" is.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from engine.bots import make_bot  # noqa: E402
from engine.core import get_game  # noqa: E402
from engine.referee import play_match  # noqa: E402

GAME_ID = "tiny-ninjas"


def playout_speed(mode: str, seconds: float) -> tuple[float, float, int, float]:
    """(decisions/s, games/s, games, mean decisions per game) of random playouts in `mode`."""
    game = get_game(GAME_ID)
    rng = random.Random(1)
    config = {"mode": mode}
    decisions = games = seed = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.new_state(seed, config=config)
        seed += 1
        while not state.is_over():
            joint = {}
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                joint[seat] = legal[rng.randrange(len(legal))]
            state.apply(joint)
            decisions += len(joint)
        games += 1
    elapsed = time.perf_counter() - started
    return decisions / elapsed, games / elapsed, games, decisions / max(1, games)


def solo_win_rate(bot: str, difficulty: str, games: int) -> tuple[float, float]:
    """The bot's win rate (seat 0) against the Solo AI (seat 1, never asked), with 95% half-width."""
    game = get_game(GAME_ID)
    config = {"mode": "solo", "difficulty": difficulty}
    points = []
    for k in range(games):
        seats = [make_bot(bot, game, 7919 * k + 1), make_bot("random", game, 0)]
        points.append(play_match(GAME_ID, seats, seed=k, config=config).points(0))
    mean = sum(points) / len(points)
    var = sum((p - mean) ** 2 for p in points) / max(1, len(points) - 1)
    return mean, 1.96 * math.sqrt(var / len(points))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per mode")
    parser.add_argument("--solo-games", type=int, default=200, help="Solo games per bot and difficulty")
    parser.add_argument("--ismcts-games", type=int, default=30, help="Solo games for ismcts (slow)")
    parser.add_argument("--bots", default="random,greedy,ismcts", help="comma-separated bot names")
    args = parser.parse_args(argv)
    console = Console()

    speed = Table(title="Tiny Ninjas random playouts per mode (one core)")
    for col in ("mode", "decisions/s", "games/s", "games", "decisions/game"):
        speed.add_column(col, justify="right")
    for mode in get_game(GAME_ID).modes:
        dps, gps, n, per = playout_speed(mode, args.seconds)
        speed.add_row(mode, f"{dps:,.0f}", f"{gps:,.1f}", str(n), f"{per:.1f}")
    console.print(speed)

    ladder = Table(title="Solo ladder: win rate against the scripted AI (95% interval)")
    ladder.add_column("bot")
    for difficulty in ("easy", "normal", "hard"):
        ladder.add_column(difficulty, justify="right")
    ladder.add_column("games", justify="right")
    for bot in [b for b in args.bots.split(",") if b]:
        n = args.ismcts_games if bot.startswith("ismcts") else args.solo_games
        cells = []
        for difficulty in ("easy", "normal", "hard"):
            mean, half = solo_win_rate(bot, difficulty, n)
            cells.append(f"{100 * mean:.1f}% ± {100 * half:.1f}")
        ladder.add_row(bot, *cells, str(n))
    console.print(ladder)


if __name__ == "__main__":
    main()
