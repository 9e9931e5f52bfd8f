"""Maître Ninja speed: random playouts, the lazy legal lists, clone/determinize, and the fight LPs.

    .venv/bin/python bench/maitre_ninja_speed.py [--games 3000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# bench/ holds a script named engine.py: put the repo first so `engine` is the package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from tourney.engine.games.maitre_ninja import GAME  # noqa: E402
from tourney.engine.games.maitre_ninja import bots as nash  # noqa: E402
from tourney.engine.games.maitre_ninja.actions import parry_rows  # noqa: E402


def playouts(games: int) -> None:
    print(f"{'players':>7} {'games/s':>9} {'fights/s':>10} {'fights/game':>12}")
    for players in (2, 3, 4):
        rng = random.Random(players)
        fights = 0
        started = time.perf_counter()
        for g in range(games):
            state = GAME.new_state(g, players=players)
            while not state.is_over():
                joint = {}
                for seat in state.to_act():
                    legal = state.legal_actions(seat)
                    joint[seat] = legal[rng.randrange(len(legal))]
                state.apply(joint)
            fights += state.fights
        took = time.perf_counter() - started
        print(f"{players:>7} {games / took:>9.0f} {fights / took:>10.0f} {fights / games:>12.1f}")


def per_call(label: str, fn: object, reps: int) -> None:
    started = time.perf_counter()
    for _ in range(reps):
        fn()  # type: ignore[operator]
    print(f"{label:<44} {1e6 * (time.perf_counter() - started) / reps:>9.2f} us")


def micro() -> None:
    rows = parry_rows(12, (4, 4, 4))
    rng = random.Random(0)
    state = GAME.new_state(0, players=4)
    for _ in range(12):  # a mid-game state with some history
        state.apply({s: state.legal_actions(s)[rng.randrange(len(state.legal_actions(s)))] for s in state.to_act()})
    print()
    per_call("rank-4 legal_actions(defender) + len", lambda: len(state.legal_actions(state.defender)), 20000)
    per_call("rank-4 row by index (34,650 rows, lazy)", lambda: rows[rng.randrange(34650)], 20000)
    row = rows[12345]
    per_call("rank-4 index(row) (inverse)", lambda: rows.index(row), 20000)
    per_call("clone (12 fights of history)", state.clone, 20000)
    per_call("determinize", lambda: state.determinize(1, rng), 20000)
    per_call("observe", lambda: state.observe(1), 20000)


def solves() -> None:
    print()
    print(f"{'rank':>4} {'rows':>6} {'distinct':>8} {'kept':>5} {'cold solve s':>13} {'value':>7}")
    for rank, length in ((1, 2), (2, 5), (3, 9), (4, 12)):
        nash.row_masks.cache_clear()
        nash.solve_fight.cache_clear()
        started = time.perf_counter()
        sol = nash.solve_fight(rank, length, (4, 4, 4))
        took = time.perf_counter() - started
        masks = nash.row_masks(rank, length, (4, 4, 4))
        print(f"{rank:>4} {len(masks):>6} {len(set(masks)):>8} {len(sol.rows):>5} {took:>13.3f} {sol.value:>7.4f}")
    print("(kept = rows in the defender's equilibrium support; rank 1 includes importing scipy)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    playouts(args.games)
    micro()
    solves()


if __name__ == "__main__":
    main()
