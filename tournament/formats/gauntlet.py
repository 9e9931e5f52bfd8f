"""Gauntlet: one challenger against every other entrant (is my new version better than the field?).

Each opponent plays `games_per_pair` games against the challenger, seats alternating and in
duplicate pairs (the same seed with seats swapped) when the count is even; a second cycle
swaps who starts.
"""

from __future__ import annotations

from tourney.tournament.formats.pairing import Pairing, encounters, seeds_used


def gauntlet(n: int, challenger: int = 0, games_per_pair: int = 2, cycles: int = 1,
             first_number: int = 0, first_seed: int = 0, round_index: int = 0) -> list[Pairing]:
    """Challenger vs every other of n entrants; numbers and seed offsets start where told."""
    if n < 2:
        raise ValueError("a gauntlet needs a challenger and at least one opponent")
    if not 0 <= challenger < n:
        raise ValueError(f"challenger {challenger} is not one of the {n} entrants")
    if games_per_pair < 1 or cycles < 1:
        raise ValueError("games per pair and cycles must be at least 1")
    out: list[Pairing] = []
    seed = first_seed
    for cycle in range(cycles):
        for opponent in (i for i in range(n) if i != challenger):
            a, b = (challenger, opponent) if cycle % 2 == 0 else (opponent, challenger)
            for seats, step in encounters((a, b), games_per_pair):
                out.append(Pairing(first_number + len(out), round_index + cycle, seats, seed + step))
            seed += seeds_used(2, games_per_pair)
    return out
