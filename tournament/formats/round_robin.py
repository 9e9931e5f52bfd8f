"""Round robin: every pair of entrants meets `games_per_pair` times.

Seats alternate from one game of a pair to the next, and with an even count the games come
in duplicate pairs: the same seed played twice with the seats swapped, so each entrant gets
the other's cards and dice once and the luck of the deal cancels out. Pairs are ordered by
Berger tables (the circle method), so every entrant plays once per round where possible.
"""

from __future__ import annotations

from tourney.tournament.formats.pairing import Pairing, encounters, seeds_used


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """The circle method: n-1 rounds (n even) in which every entrant meets every other once.

    With an odd n a phantom entrant is added and its games (byes) are left out.
    """
    ids = list(range(n)) + ([-1] if n % 2 else [])
    m = len(ids)
    rounds = []
    for r in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = ids[i], ids[m - 1 - i]
            if a != -1 and b != -1:
                # The fixed entrant alternates seats by round; with the rotation this
                # gives everyone seat 0 in about half their games (Berger's rule).
                pairs.append((b, a) if i == 0 and r % 2 == 1 else (a, b))
        rounds.append(pairs)
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return rounds


def round_robin(n: int, games_per_pair: int = 2, cycles: int = 1) -> list[Pairing]:
    """The full schedule for `n` entrants of a two-player game."""
    if n < 2:
        raise ValueError("a round robin needs at least two entrants")
    if games_per_pair < 1 or cycles < 1:
        raise ValueError("games per pair and cycles must be at least 1")
    schedule: list[Pairing] = []
    pair_seed = 0
    rounds = berger_rounds(n)
    for cycle in range(cycles):
        for r, pairs in enumerate(rounds):
            for a, b in pairs:
                if cycle % 2 == 1:
                    a, b = b, a
                for seats, step in encounters((a, b), games_per_pair):  # duplicate pairs
                    schedule.append(Pairing(len(schedule), cycle * len(rounds) + r, seats, pair_seed + step))
                pair_seed += seeds_used(2, games_per_pair)
    return schedule
