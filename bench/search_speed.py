"""Search speed: how many decisions a second the look-ahead bots make on one core.

    .venv/bin/python bench/search_speed.py --game ninja-versus-ninja --seconds 20

Each bot plays seat 0 of seeded matches against `random` (fixed iteration budgets, so the
work per decision is the same before and after an engine change); the table reports the
bot's own decisions per second. The machine is shared: compare runs made side by side.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# bench/engine.py would shadow the `engine` package: drop this folder from the path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from tourney.engine.bots import make_bot  # noqa: E402
from tourney.engine.core import DecisionRequest, Seat, get_game  # noqa: E402
from tourney.engine.referee import play_match  # noqa: E402

SPECS = ("greedy", "ismcts:iterations=50:rollout_depth=10")


class Timed:
    """Counts the wrapped bot's decisions and the time it spends on them."""

    def __init__(self, bot: Seat) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0

    def act(self, request: DecisionRequest) -> int:
        """Time one decision of the wrapped bot."""
        start = time.perf_counter()
        choice = self.bot.act(request)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return choice


def measure(game_id: str, spec: str, seconds: float) -> tuple[int, float]:
    """Decisions made and seconds spent by `spec` in seeded matches until `seconds` of its time."""
    game = get_game(game_id)
    timed = Timed(make_bot(spec, game, 1))
    seed = 0
    while timed.seconds < seconds:
        play_match(game_id, [timed, make_bot("random", game, seed)], seed=seed)
        seed += 1
    return timed.decisions, timed.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ninja-versus-ninja", help="game id")
    parser.add_argument("--seconds", type=float, default=20.0, help="bot thinking time measured per spec")
    args = parser.parse_args()
    table = Table(title=f"Search speed on {args.game} (one core)")
    for col in ("bot", "decisions", "seconds", "decisions/s"):
        table.add_column(col, justify="right")
    for spec in SPECS:
        decisions, spent = measure(args.game, spec, args.seconds)
        table.add_row(spec, str(decisions), f"{spent:.1f}", f"{decisions / spent:,.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
