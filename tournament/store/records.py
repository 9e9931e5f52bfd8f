"""A finished match in its stored form (MatchRecord), built where it was played from the referee's result.

Workers send a MatchRecord back instead of the MatchResult: the replay is already serialised
and compressed and the achievements read, so the driver (the one serial part) only writes rows (writes.match_rows), and
a task's return value stays small.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tourney.engine.core import Outcome
from tourney.engine.referee import MatchResult, SeatStats
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.rating.achievements import match_achievements
from tourney.tournament.store.codec import dumps, jsonable, pack_replay
from tourney.workers.executor import Played as PlayedMatch

BYE = "BYE"  # the termination of a stored bye
BYE_SEED = -1  # the seed offset of a bye pairing: it is recorded, never played
BYE_OUTCOME = Outcome(((0,),), (0.0,), "bye")  # a bye's one seat, alone in first place


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a finished match, ready to store."""

    alias: str
    tier: int
    tier_size: int
    points: float
    score: float
    decisions: int
    think_s: float
    faults_json: str


@dataclass(frozen=True)
class MatchRecord:
    """A finished match reduced to what is stored."""

    seed: int
    players: int
    termination: str
    reason: str
    plies: int
    replay: str
    details_json: str
    seats: tuple[SeatRecord, ...]
    # What each entrant earned in this match, as (alias, number, name): read from the details
    # where the match was played, so the driver does not parse every match's details again.
    achievements: tuple[tuple[str, int, str], ...] = ()


Played = PlayedMatch[Pairing, MatchRecord]  # the workers' played match: a scheduled match, its record, its seconds


def seat_records(aliases: Sequence[str], outcome: Outcome, points: Sequence[float],
                 stats: Sequence[SeatStats]) -> tuple[SeatRecord, ...]:
    """The seats of a match in their stored form, played or not (a forfeit, a bye): each seat's tier in
    `outcome` and that tier's size, its match points, its score, and its decisions, thinking time and faults."""
    seats = []
    for seat, alias in enumerate(aliases):
        tier = outcome.tier_of(seat)
        st = stats[seat]
        seats.append(SeatRecord(alias, tier, len(outcome.ranking[tier]), points[seat], float(outcome.scores[seat]),
                                st.decisions, st.think_s, dumps(st.faults)))
    return tuple(seats)


def result_seats(aliases: Sequence[str], result: MatchResult) -> tuple[SeatRecord, ...]:
    """The seats of a match the referee played, whose seats the entrants `aliases` held, in their stored form."""
    return seat_records(aliases, result.outcome, [result.points(seat) for seat in range(len(aliases))],
                        result.seat_stats)


def bye_seat(alias: str, points: float, stats: SeatStats | None = None) -> SeatRecord:
    """The one seat of a bye (a round without a game): alone in first place, worth `points`."""
    return seat_records((alias,), BYE_OUTCOME, (points,), (stats or SeatStats(),))[0]


def match_record(aliases: Sequence[str], result: MatchResult) -> MatchRecord:
    """Reduce a finished match, whose seats the entrants `aliases` held, to its stored form (pure)."""
    details = dumps(jsonable(result.details))
    earned = tuple((e.alias, e.number, e.name) for e in match_achievements(details, aliases))
    return MatchRecord(result.seed, result.players, result.termination, result.reason, len(result.replay.steps),
                       pack_replay(result.replay.to_dict()), details, result_seats(aliases, result), earned)
