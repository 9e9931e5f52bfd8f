"""Maître Ninja ladder: the nash bot against random and best-response opponents, fight by fight.

For each attacker rank it plays N fights per pairing through the bots' real `act()` calls and
prints the attacker's win rate next to the game value v of §3.3. Nash is unexploitable when the
best responder, attacking, wins no more than v, and, defending, holds nash to no less than v
(within sampling noise, shown as ±2σ). A second table plays whole 2-4 player matches.

    .venv/bin/python bench/maitre_ninja_ladder.py [--fights 10000] [--matches 300]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

# bench/ holds a script named engine.py: put the repo first so `engine` is the package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from tourney.engine.bots import make_bot  # noqa: E402
from tourney.engine.core import DecisionRequest  # noqa: E402
from tourney.engine.games.maitre_ninja import GAME  # noqa: E402
from tourney.engine.games.maitre_ninja.bots import solve_fight  # noqa: E402
from tourney.engine.games.maitre_ninja.rules import codes_of, resolve  # noqa: E402
from tourney.engine.referee import play_match  # noqa: E402

SUPPLY = (4, 4, 4)
LENGTH = {1: 2, 2: 5, 3: 9, 4: 12}


def attacker_win_rate(rank: int, attacker: Any, defender: Any, fights: int) -> float:
    state = GAME.new_state(0, players=2, config={"first_player": 0})
    state.ranks[0] = rank
    requests = [DecisionRequest(GAME, s, state.observe(s), state.legal_actions(s), None, state) for s in (0, 1)]
    wins = 0
    for _ in range(fights):
        line = requests[0].legal[attacker.act(requests[0])]
        row = requests[1].legal[defender.act(requests[1])]
        wins += resolve(codes_of(line), row.row).attacker_wins
    return wins / fights


def fight_table(fights: int) -> None:
    pairings = [
        ("nash", "random"),
        ("random", "nash"),
        ("nash", "best_response"),
        ("best_response", "nash"),
        ("nash", "nash"),
    ]
    print(f"Attacker win rate per fight ({fights} fights per cell; v = equilibrium value, noise = 2 sigma)")
    header = f"{'rank':>4} {'v':>7} {'2sigma':>7} " + " ".join(f"{a + ' vs ' + d:>22}" for a, d in pairings)
    print(header)
    print("-" * len(header))
    for rank in (1, 2, 3, 4):
        v = solve_fight(rank, LENGTH[rank], SUPPLY).value
        noise = 2 * (v * (1 - v) / fights) ** 0.5
        cells = []
        for k, (att, dfn) in enumerate(pairings):
            a = make_bot(att, GAME, 1000 * rank + 2 * k)
            d = make_bot(dfn, GAME, 1000 * rank + 2 * k + 1)
            rate = attacker_win_rate(rank, a, d, fights)
            cells.append(f"{rate:>15.4f} ({rate - v:+.3f})")
        print(f"{rank:>4} {v:>7.4f} {noise:>7.4f} " + " ".join(cells))
    print("(in brackets: rate - v. Against nash, a best response attacking should be <= +2sigma,")
    print(" and nash attacking a best-response defence should be >= -2sigma.)")


def match_table(matches: int) -> None:
    print()
    print(f"Whole matches, nash in seat rotation against random ({matches} matches per row)")
    print(f"{'players':>7} {'nash points':>12} {'nash 1st place':>15} {'fights/match':>13} {'s/match':>8}")
    for players in (2, 3, 4):
        points = firsts = fights = 0.0
        started = time.perf_counter()
        for m in range(matches):
            nash_seat = m % players
            specs = ["nash" if s == nash_seat else "random" for s in range(players)]
            seats = [make_bot(spec, GAME, 7919 * m + s) for s, spec in enumerate(specs)]
            result = play_match("maitre-ninja", seats, seed=m)
            points += result.points(nash_seat)
            firsts += nash_seat in result.ranking[0]
            fights += result.details["fights"]
        took = (time.perf_counter() - started) / matches
        per = (points / matches, firsts / matches, fights / matches)
        print(f"{players:>7} {per[0]:>12.3f} {per[1]:>15.3f} {per[2]:>13.1f} {took:>8.4f}")
    print("(points: 1 = beat everyone, 0.5 = even; an even seat would score 0.5 and place first 1/n of the time)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fights", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args()
    fight_table(args.fights)
    match_table(args.matches)


if __name__ == "__main__":
    main()
