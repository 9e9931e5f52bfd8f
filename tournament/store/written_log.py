"""The MatchLog of a run kept as its matches are written, so that the end of a fresh run need not read them back.

The end of a run walks every match in schedule order (standings, ratings, streaks). A run that began with nothing
stored has had every one of them in hand as it wrote them: kept here in the form the store would give back
(`reads.standing_match`, the one converter), it skips the read of the whole tournament (issue 32: ~5.5 us a match
of the ~40 us `tourney run --local` spends beside playing, at 8,000 of the shortest matches). A run that resumes a
tournament reads the store as before: what earlier runs wrote is not in hand.

A few bytes a match, like the MatchLog itself: each match's schedule number and the index of its (shared) seats.
Matches written out of order (Ray's chunks) are put in schedule order once, at the end.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from tourney.tournament.rating.played_numbers import PlayedNumbers
from tourney.tournament.rating.standings import MatchLog, StandingSeat
from tourney.tournament.store.reads import standing_match
from tourney.tournament.store.records import BYE, Played


class WrittenLog:
    """The matches a run wrote, as MatchLog seats, each number once (the first record of it, as the store keeps)."""

    def __init__(self) -> None:
        self._log = MatchLog()
        self._numbers = array("q")
        self._seen = PlayedNumbers()  # a bit a match, not a set of ints (flat memory to the end)
        self._in_order = True
        self._shared: dict[tuple[Any, ...], StandingSeat] = {}
        # A match's plain seat values -> its place among the log's distinct matches: a long run repeats few
        # outcomes, and the plain values hash in C where the StandingSeats (dataclasses) hash in Python, so a
        # repeated outcome is neither converted nor hashed again (~1.5 us of ~3 a match, issue 32).
        self._held: dict[tuple[Any, ...], int] = {}

    def add(self, played: Sequence[Played]) -> None:
        """Keep a written batch's matches (a number kept already is skipped, as the store skips it)."""
        seen, numbers, held, log = self._seen, self._numbers, self._held, self._log
        for pairing, rec, _ in played:
            number = pairing.number
            if not seen.add_new(number):
                continue
            if numbers and number < numbers[-1]:
                self._in_order = False
            numbers.append(number)
            # As match_rows stores them: a solo match's entrants' seats only, the game's own AI holds the rest.
            # A list comprehension, not a generator: the tuple is built at once (~0.3 us a match, issue 32).
            seats = tuple([(alias, int(v[0]), float(v[3]), sum(int(c) for c in v[6].values()) if v[6] else 0)
                           for alias, v in zip(rec.aliases, rec.seat_values, strict=False)])
            bye = rec.termination_text == BYE
            at = held.get((seats, bye))
            if at is None:
                held[seats, bye] = log.add(standing_match(seats, bye, self._shared))
            else:
                log.repeat(at)

    def log(self) -> MatchLog:
        """Every kept match in schedule order."""
        if self._in_order:
            return self._log
        ranked = sorted(range(len(self._numbers)), key=self._numbers.__getitem__)
        matches = list(self._log)
        return MatchLog(matches[i] for i in ranked)
