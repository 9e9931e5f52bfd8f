"""Multiplayer Swiss pods (4 players): repeated opponents per round at 1,000 and 10,000 players.

    .venv/bin/python bench/pods.py [--rounds 6]

Each round is paired by tournament.formats.swiss.swiss_pods after random results (one winner a pod).
"repeats" counts pairs seated together who have met before; "bound" is a lower bound on that
number for the round: the pairs of players who must meet again because their pod-mates
cannot all come from the players of their score group they have not met (0 when every
player has at least three unmet players of its own score, which is what the score groups
then allow). The machine is shared: read the seconds as a rough guide.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tourney.tournament.formats.pairing import PlayedGame  # noqa: E402
from tourney.tournament.formats.swiss import player_states_multi, pod_repeats, swiss_pods  # noqa: E402

K = 4


def lower_bound(n: int, history: list[PlayedGame]) -> int:
    """Players who cannot fill a pod from unmet players of their own score force at least one repeat each
    (halved, as one repeated pair may serve two such players)."""
    states = player_states_multi(n, history)
    groups: dict[float, list[int]] = defaultdict(list)
    for s in states:
        groups[s.score].append(s.index)
    forced = 0
    for members in groups.values():
        for x in members:
            unmet = sum(1 for y in members if y != x and y not in states[x].opponents)
            forced += unmet < K - 1
    return (forced + 1) // 2


def run(n: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    history: list[PlayedGame] = []
    for r in range(rounds):
        bound = lower_bound(n, history)
        start = time.perf_counter()
        pods, byes = swiss_pods(n, K, history)
        took = time.perf_counter() - start
        states = player_states_multi(n, history)
        repeats = sum(pod_repeats(pod, states) for pod in pods)
        print(f"{n:>8}{r + 1:>7}{repeats:>9}{bound:>7}{took:>10.2f}")
        for pod in pods:
            order = list(pod)
            rng.shuffle(order)
            history.append(PlayedGame(tuple(order), tuple(1.0 if i == 0 else 0.0 for i in range(K))))
        history.extend(PlayedGame((b,), (1.0 / K,)) for b in byes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    print(f"{'players':>8}{'round':>7}{'repeats':>9}{'bound':>7}{'seconds':>10}")
    for n in (1000, 10_000):
        run(n, args.rounds, 1)


if __name__ == "__main__":
    main()
