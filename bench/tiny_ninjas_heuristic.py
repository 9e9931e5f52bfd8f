"""Tiny Ninjas heuristic A/B: greedy with the game's evaluate against greedy with other weights.

    .venv/bin/python bench/tiny_ninjas_heuristic.py                 # 100 duplicate pairs per row
    .venv/bin/python bench/tiny_ninjas_heuristic.py --pairs 300

Each row plays duplicate pairs (same seed, seats swapped) between greedy using the shipped
`TinyNinjasGame.evaluate` and greedy using a variant's weights, and prints the shipped
heuristic's score with a 95% interval. This is the measurement behind the weights in game.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from tourney.engine.bots import make_bot  # noqa: E402
from tourney.engine.core import DecisionRequest, State, get_game  # noqa: E402
from tourney.engine.games.tiny_ninjas import game as tn_game  # noqa: E402
from tourney.engine.referee import play_match  # noqa: E402

VARIANTS: dict[str, dict[str, float]] = {
    "flat cards 0.4, tokens 0.5": {"ATTACKER_CARD_VALUE": 0.4, "DEFENDER_CARD_VALUE": 0.4, "TOKEN_VALUE": 0.5},
    "attacker cards 0.7, defender 0.2": {"ATTACKER_CARD_VALUE": 0.7, "DEFENDER_CARD_VALUE": 0.2},
    "tokens 0.5": {"TOKEN_VALUE": 0.5},
    "pending share 0.8": {"PENDING_SHARE": 0.8},
}


class VariantGame(tn_game.TinyNinjasGame):
    """The same game with other heuristic weights (module constants swapped during evaluate)."""

    def __init__(self, weights: dict[str, float]) -> None:
        self.weights = weights

    def evaluate(self, state: State, seat: int) -> float:
        saved = {k: getattr(tn_game, k) for k in self.weights}
        for k, v in self.weights.items():
            setattr(tn_game, k, v)
        try:
            return super().evaluate(state, seat)
        finally:
            for k, v in saved.items():
                setattr(tn_game, k, v)


class WithGame:
    """A seat that hands its bot the request with another Game (so another evaluate)."""

    def __init__(self, bot: Any, game: tn_game.TinyNinjasGame) -> None:
        self.bot = bot
        self.game = game

    def act(self, request: DecisionRequest) -> int:
        result: int = self.bot.act(dataclasses.replace(request, game=self.game))
        return result


def ab(weights: dict[str, float], pairs: int) -> tuple[float, float]:
    """The shipped heuristic's mean points against the variant, with the 95% half-width."""
    game = get_game("tiny-ninjas")
    variant = VariantGame(weights)
    points = []
    for k in range(pairs):
        for hero in (0, 1):
            seats: list[Any] = [make_bot("greedy", game, 7919 * k + 2 * i + hero) for i in range(2)]
            seats[1 - hero] = WithGame(seats[1 - hero], variant)
            points.append(play_match("tiny-ninjas", seats, seed=5000 + k).points(hero))
    mean = sum(points) / len(points)
    var = sum((p - mean) ** 2 for p in points) / max(1, len(points) - 1)
    return mean, 1.96 * math.sqrt(var / len(points))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs per variant")
    args = parser.parse_args(argv)
    table = Table(title="Greedy with the shipped heuristic vs greedy with a variant (points, 95% interval)")
    for col in ("variant", "shipped score", "games"):
        table.add_column(col, justify="right")
    for name, weights in VARIANTS.items():
        mean, half = ab(weights, args.pairs)
        table.add_row(name, f"{100 * mean:.1f}% ± {100 * half:.1f}", str(2 * args.pairs))
    Console().print(table)


if __name__ == "__main__":
    main()
