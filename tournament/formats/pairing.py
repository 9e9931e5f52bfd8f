"""What every format deals in: the pairings it plans, the games it reads back, and how a table becomes games.

A format (round robin, gauntlet, Swiss, pods, solo) is a pure function from the results so
far (`PlayedGame`s) to the next round's `Pairing`s. When a table (two entrants, or a pod of
k) plays several games, `encounters` turns it into those games the same way in every
format: the seats rotate one place per game, and k consecutive games share a seed, so each
entrant plays the same deal from every seat once and the luck of the cards cancels out
(with two players: duplicate pairs, the same seed with the seats swapped).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pairing:
    """One scheduled match: entrant indices per seat, its round, and its seed offset (-1: a bye).

    Slotted: a long round robin plans every pairing up front, and without a __dict__ each costs a
    third as much (100,000 of them held ~20 MB through a run; issue 32, flat memory).
    """

    number: int
    round: int
    seats: tuple[int, ...]
    seed_offset: int

    def __reduce__(self) -> tuple[type[Pairing], tuple[int, int, tuple[int, ...], int]]:
        """Pickled as its four fields: every Ray task sends its chunk's pairings and gets them back with
        the results, and the dataclass default for a frozen slotted class (a state dict, set field by
        field through object.__setattr__) took 6.4 us a pickle round trip against 2.7 us this way."""
        return Pairing, (self.number, self.round, self.seats, self.seed_offset)


@dataclass(frozen=True)
class PlayedGame:
    """A finished pairing as the formats read it: entrants by seat and their points (a bye has one seat).

    A stored result also knows its schedule number, round and seed; a pairer's own history
    (a TRF file, a test) may leave them at -1.
    """

    seats: tuple[int, ...]
    points: tuple[float, ...]
    number: int = -1
    round: int = -1
    seed: int = -1


def encounters(table: tuple[int, ...], games: int) -> list[tuple[tuple[int, ...], int]]:
    """The `games` games of one table as (seats, seed step): seats rotated one place per game, and
    every len(table) consecutive games on one seed (seed step g // len(table))."""
    k = len(table)
    rotations = [table[r:] + table[:r] for r in range(k)]  # shared by every game that uses them
    return [(rotations[g % k], g // k) for g in range(games)]


def seeds_used(players: int, games: int) -> int:
    """How many distinct seeds a table of `players` uses for `games` games (see `encounters`)."""
    return -(-games // players)
