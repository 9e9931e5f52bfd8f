"""A finished match in the form it travels to the store (StoredMatch), built where it was played.

It holds the one MatchResult (`engine.core.result`) and who held each seat. Workers send it back
instead of the bare result: the replay's steps are already serialised and compressed (`replay`),
and the details and achievements read, so the driver (the one serial part) only writes rows
(writes.match_rows), and a task's return value stays small: the result it carries keeps its
replay's inputs, not its steps, and its details only as `details_json`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

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
BYE_SEED = -1  # the seed offset of a bye pairing: it is recorded, never played
BYE_OUTCOME = Outcome(((0,),), (0.0,), "bye")  # a bye's one seat, alone in first place


@dataclass(frozen=True)
class StoredMatch:
    """A finished match on its way to the store: the result, the entrants at its seats, and its
    replay and details already in their stored form."""

    aliases: tuple[str, ...]
    result: MatchResult  # its replay keeps the inputs (the steps are in `replay`); its details are in details_json
    plies: int
    replay: str
    details_json: str
    # What each entrant earned in this match, as (alias, number, name): read from the details
    # where the match was played, so the driver does not parse every match's details again.
    achievements: tuple[tuple[str, int, str], ...] = ()

    @property
    def seed(self) -> int:
        """The match's seed (-1: it was recorded, never played)."""
        return self.result.seed

    @property
    def players(self) -> int:
        """How many seats the match had."""
        return self.result.players

    @property
    def termination(self) -> Termination:
        """How the match ended."""
        return self.result.termination

    @property
    def reason(self) -> str:
        """Why it ended, in words."""
        return self.result.reason

    @property
    def seats(self) -> tuple[SeatResult, ...]:
        """Every seat's result, in seat order (`aliases` names who held each)."""
        return self.result.seats


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
    carried = replace(result, replay=replace(result.replay, steps=[]), details={})
    return StoredMatch(tuple(aliases), carried, len(result.replay.steps), pack_replay(result.replay.to_dict()),
                       details, earned)
