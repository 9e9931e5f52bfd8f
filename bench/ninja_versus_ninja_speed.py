"""Speed of Ninja Versus Ninja: random playouts, and the cost of the heuristic and of expectimax.

    PYTHONPATH=. .venv/bin/python bench/ninja_versus_ninja_speed.py --games 2000

`playout_rate` is importable for a project-wide engine benchmark table.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# Run as a script, Python puts bench/ first on the path, where bench/engine.py would shadow
# the `engine` package: put the repository root there instead.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from tourney.engine.core import DecisionRequest  # noqa: E402
from tourney.engine.games.ninja_versus_ninja import GAME  # noqa: E402
from tourney.engine.games.ninja_versus_ninja.bots import ExpectimaxBot  # noqa: E402


def playout_rate(games: int, seed: int = 0) -> tuple[float, float]:
    """(decisions per second, average turns per game) of uniformly random playouts.

    Each decision asks the state for its legal list through the public interface
    (`legal_actions`) and plays one uniformly at random (`apply`), as a referee would.
    """
    rng = random.Random(seed)
    decisions = turns = 0
    started = time.perf_counter()
    for g in range(games):
        state = GAME.new_state(seed + g)
        while not state.is_over():
            seat = state.to_move
            legal = state.legal_actions(seat)
            state.apply({seat: legal[rng.randrange(len(legal))]})
            decisions += 1
        turns += state.turn_number
    return decisions / (time.perf_counter() - started), turns / games


def fast_playout_rate(games: int, seed: int = 0) -> float:
    """Decisions per second of random playouts through the engine's own fast path (search bots)."""
    rng = random.Random(seed)
    decisions = 0
    started = time.perf_counter()
    for g in range(games):
        state = GAME.new_state(seed + g)
        while not state.is_over():
            state.apply_index(rng.randrange(len(state.legal_moves())))
            decisions += 1
    return decisions / (time.perf_counter() - started)


def evaluate_rate(positions: int, seed: int = 0) -> float:
    """Calls of Game.evaluate per second on positions from random games."""
    rng = random.Random(seed)
    states = []
    while len(states) < positions:
        state = GAME.new_state(seed + len(states))
        while not state.is_over() and len(states) < positions:
            states.append(state.clone())
            state.apply_index(rng.randrange(len(state.legal_moves())))
    started = time.perf_counter()
    for s in states:
        GAME.evaluate(s, 0)
    return len(states) / (time.perf_counter() - started)


def expectimax_ms(decisions: int, seed: int = 0) -> float:
    """Average milliseconds per expectimax (depth 2) decision on positions from random games."""
    rng = random.Random(seed)
    bot = ExpectimaxBot(seed=seed)
    total = 0.0
    done = 0
    g = 0
    while done < decisions:
        state = GAME.new_state(seed + g)
        g += 1
        while not state.is_over() and done < decisions:
            seat = state.to_move
            request = DecisionRequest(GAME, seat, state.observe(seat), state.legal_actions(seat), None, state)
            started = time.perf_counter()
            bot.act(request)
            total += time.perf_counter() - started
            done += 1
            state.apply_index(rng.randrange(len(state.legal_moves())))
    return 1000.0 * total / decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="random playouts (default 2000)")
    args = parser.parse_args()
    rate, turns = playout_rate(args.games)
    print(f"{'measure':<44}{'value':>12}")
    print(f"{'random playout decisions/s (legal_actions+apply)':<44}{rate:>12,.0f}")
    print(f"{'random playout decisions/s (fast path)':<44}{fast_playout_rate(args.games):>12,.0f}")
    print(f"{'average turns per random game':<44}{turns:>12.1f}")
    print(f"{'evaluate calls/s':<44}{evaluate_rate(20000):>12,.0f}")
    print(f"{'expectimax depth 2, ms per decision':<44}{expectimax_ms(200):>12.1f}")


if __name__ == "__main__":
    main()
