"""A finished match in the form it travels to the store (StoredMatch), built where it was played.

It holds the one MatchResult (`engine.core.result`) as plain values, and who held each seat. Workers
send it back instead of the bare result: the replay's steps are already serialised and compressed
(`replay`), and the details and achievements read, so the driver (the one serial part) only writes
rows (writes.match_rows) from values it reads straight off the record.

Plain values, not the result's objects, because a Ray worker pickles every record and the driver
unpickles it: a MatchResult with its SeatResults and Replay cost ~10 us a match each way on Tiny
Ninjas' shortest matches (issue 32: ~5% of a match), where a record pickles as one tuple of strings,
numbers and small tuples. The MatchResult is rebuilt from the values only when something asks for it
(`result`, `seats`), which the writing of a tournament's matches never does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tourney.engine.core import (
    MatchResult,
    Outcome,
    Replay,
    SeatResult,
    SeatStats,
    Termination,
    forfeit_seat_of,
    jsonable,
    match_result,
)
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.rating.achievements import match_achievements
from tourney.tournament.store.codec import dumps, pack_replay
from tourney.workers.executor import Played as PlayedMatch

BYE = Termination.BYE  # the termination of a stored bye
# The details of a match a league recorded without playing it, a bot being absent (tournament/league/forfeits.py):
# two seats, the absent one lost; or one seat, the bye an absent bot does not get.
FORFEIT_DETAILS = dumps({"forfeit": True})
BYE_SEED = -1  # the seed offset of a bye pairing: it is recorded, never played
BYE_OUTCOME = Outcome(((0,),), (0.0,), "bye")  # a bye's one seat, alone in first place

# A seat's result as plain values, in SeatResult's order: tier, tier size, score, points, decisions, think
# seconds, faults (kind -> count).
SeatValues = tuple[int, int, float, float, int, float, Mapping[str, int]]


def seat_values(seat: SeatResult) -> SeatValues:
    """A seat's result as plain values (SeatValues); a fault's kind as its text (a Termination is a StrEnum, equal
    to its text, which pickles as a string rather than as a call to rebuild the enum)."""
    faults = {str(kind): count for kind, count in seat.faults.items()} if seat.faults else seat.faults
    return (seat.tier, seat.tier_size, seat.score, seat.points, seat.decisions, seat.think_s, faults)


class StoredMatch:
    """A finished match on its way to the store: the result as plain values, the entrants at its seats, and
    its replay and details already in their stored form."""

    __slots__ = ("achievements", "aliases", "details_json", "forfeit_seat", "game_id", "inputs", "plies", "reason",
                 "replay", "seat_values", "seed", "termination_text", "_result")

    def __init__(self, aliases: Sequence[str], result: MatchResult, plies: int, replay: str, details_json: str,
                 achievements: tuple[tuple[str, int, str], ...] = ()) -> None:
        """The stored form of `result` (whose replay steps and details are kept only in `replay` and
        `details_json`), played by `aliases`; `plies`: how many steps its replay has."""
        self.aliases = tuple(aliases)
        self.game_id = result.game_id
        self.seed = result.seed
        self.termination_text = str(result.termination)  # a StrEnum: its value
        self.reason = result.reason
        self.seat_values = tuple(seat_values(s) for s in result.seats)
        self.forfeit_seat = result.forfeit_seat
        # The replay's inputs (players, config, seed): the rest of the Replay the result holds, without steps.
        self.inputs = (result.replay.players, result.replay.config, result.replay.seed)
        self.plies = plies
        self.replay = replay
        self.details_json = details_json
        # What each entrant earned in this match, as (alias, number, name): read from the details
        # where the match was played, so the driver does not parse every match's details again.
        self.achievements = achievements
        self._result: MatchResult | None = None

    def values(self) -> tuple[Any, ...]:
        """The record as one tuple of plain values, which `from_values` turns back into it: what it pickles as,
        and what a Ray worker sends back."""
        return (self.aliases, self.game_id, self.seed, self.termination_text, self.reason, self.seat_values,
                self.forfeit_seat, self.inputs, self.plies, self.replay, self.details_json, self.achievements)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return from_values, self.values()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoredMatch) and self.values() == other.values()

    __hash__ = None  # type: ignore[assignment]  # equal by value, and its values hold dicts

    def __repr__(self) -> str:
        return f"StoredMatch{self.values()!r}"

    @property
    def result(self) -> MatchResult:
        """The match's result (its replay without steps, no details: those are in `replay`, `details_json`)."""
        if self._result is None:
            players, config, seed = self.inputs
            seats = tuple(SeatResult(*values) for values in self.seat_values)
            self._result = MatchResult(self.game_id, self.seed, Termination(self.termination_text), self.reason, seats,
                                       Replay(self.game_id, players, config, seed), {}, self.forfeit_seat)
        return self._result

    @property
    def players(self) -> int:
        """How many seats the match had."""
        return len(self.seat_values)

    @property
    def termination(self) -> Termination:
        """How the match ended."""
        return Termination(self.termination_text)

    @property
    def seats(self) -> tuple[SeatResult, ...]:
        """Every seat's result, in seat order (`aliases` names who held each)."""
        return self.result.seats


def from_values(aliases: tuple[str, ...], game_id: str, seed: int, termination_text: str, reason: str,
                seats: tuple[SeatValues, ...], forfeit_seat: int | None, inputs: tuple[int, dict[str, Any], int],
                plies: int, replay: str, details_json: str, achievements: tuple[tuple[str, int, str], ...]
                ) -> StoredMatch:
    """A StoredMatch from its values() (no MatchResult is built): how one is unpickled, and how a Ray chunk's
    records are rebuilt."""
    record = StoredMatch.__new__(StoredMatch)
    record.aliases, record.game_id, record.seed, record.termination_text = aliases, game_id, seed, termination_text
    record.reason, record.seat_values, record.forfeit_seat, record.inputs = reason, seats, forfeit_seat, inputs
    record.plies, record.replay, record.details_json, record.achievements = plies, replay, details_json, achievements
    record._result = None
    return record


Played = PlayedMatch[Pairing, StoredMatch]  # the workers' played match: a scheduled match, its record, its seconds


def unplayed(game_id: str, aliases: Sequence[str], outcome: Outcome, termination: Termination,
             stats: Sequence[SeatStats], points: Sequence[float], details_json: str = "{}",
             replay: str = "") -> StoredMatch:
    """A match recorded without being played (a bye, an offline forfeit): seed -1, no steps, and each seat
    worth `points` as its format decides (a bye's value, nothing for a double forfeit)."""
    played = match_result(game_id, BYE_SEED, outcome, termination, stats, Replay(game_id, len(aliases), {}, BYE_SEED))
    seats = tuple(replace(seat, points=float(p)) for seat, p in zip(played.seats, points, strict=True))
    result = replace(played, seats=seats, forfeit_seat=forfeit_seat_of(termination, seats))
    return StoredMatch(tuple(aliases), result, 0, replay, details_json)


def bye_match(game_id: str, alias: str, points: float) -> StoredMatch:
    """A bye (a round without a game): its one seat, `alias`, alone in first place and worth `points`."""
    return unplayed(game_id, (alias,), BYE_OUTCOME, BYE, (SeatStats(),), (points,), replay="{}")


def match_record(aliases: Sequence[str], result: MatchResult) -> StoredMatch:
    """Reduce a finished match, whose seats the entrants `aliases` held, to its stored form (pure)."""
    details = dumps(jsonable(result.details))
    earned = tuple((e.alias, e.number, e.name) for e in match_achievements(details, aliases))
    # The steps and the details travel once, in their stored form (`replay`, `details_json`).
    return StoredMatch(aliases, result, len(result.replay.steps), pack_replay(result.replay.to_dict()), details, earned)
