"""A finished match in its stored form (MatchRecord), built where it was played from the referee's result.

Workers send a MatchRecord back instead of the MatchResult: the replay is already serialised
and compressed and the achievements read, so the driver (the one serial part) only writes rows (writes.match_rows), and
a task's return value stays small.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.referee import MatchResult
from tournament.achievements import match_achievements
from tournament.pairing import Pairing
from tournament.standings import SeatResult
from tournament.store.codec import dumps, jsonable, pack_replay

BYE = "BYE"  # the termination of a stored bye
BYE_SEED = -1  # the seed offset of a bye pairing: it is recorded, never played


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


Played = tuple[Pairing, MatchRecord, float]  # a scheduled match, its record, and how long it took (s)


def seat_results(aliases: Sequence[str], result: MatchResult) -> list[SeatResult]:
    """Each seat's place and points, for standings."""
    out = []
    for seat, alias in enumerate(aliases):
        tier = next(i for i, t in enumerate(result.ranking) if seat in t)
        faults = sum(result.seat_stats[seat].faults.values())
        out.append(SeatResult(alias, tier, len(result.ranking[tier]), result.points(seat), faults))
    return out


def match_record(aliases: Sequence[str], result: MatchResult) -> MatchRecord:
    """Reduce a finished match, whose seats the entrants `aliases` held, to its stored form (pure)."""
    seats = []
    for seat, sr in enumerate(seat_results(aliases, result)):
        st = result.seat_stats[seat]
        seats.append(SeatRecord(sr.alias, sr.tier, sr.tier_size, sr.points, result.scores[seat], st.decisions,
                                st.think_s, dumps(st.faults)))
    details = dumps(jsonable(result.details))
    earned = tuple((e.alias, e.number, e.name) for e in match_achievements(details, aliases))
    return MatchRecord(result.seed, result.players, result.termination, result.reason, len(result.replay.steps),
                       pack_replay(result.replay.to_dict()), details, tuple(seats), earned)
