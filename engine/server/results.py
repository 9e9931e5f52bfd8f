"""A finished match on the wire: the MatchResult to the proto MatchRecord and back.

Both directions live here and nowhere else, so a match played by an arena comes back to a
tournament as the same MatchResult it would be had a worker played it. The record is the
result's image field for field: one SeatResult message per seat (tier, tier size, score, points,
decisions, thinking time, faults), the typed termination, the reason, the forfeit seat, the
details and the replay. It still fills the older fields (1-based `ranks`, `scores`, the
termination as a string) that bots read. A real-time match travels with its arrival log inside
the replay document and comes back with it in its details, where the referee put it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tourney.engine.core import (
    MatchResult,
    Outcome,
    Replay,
    SeatResult,
    SeatStats,
    Termination,
    jsonable,
    kind_of,
    match_result,
)
from tourney.engine.server.codecs import dumps
from tourney.engine.server.generated import arena_pb2 as pb

REALTIME_LOG = "realtime_log"  # the details key (and replay document key) of a real-time match's arrivals
_WIRE_PREFIX = "TERMINATION_"  # the proto enum's values are Termination's member names under this prefix


def ranks_of(ranking: Sequence[Sequence[int]], players: int) -> list[int]:
    """Rank per seat from tiers: 1 + the number of seats placed strictly above (ties share)."""
    ranks = [0] * players
    above = 0
    for tier in ranking:
        for seat in tier:
            ranks[seat] = above + 1
        above += len(tier)
    return ranks


# Read once: the enum wrapper's Value() is Python code run for every record (0.35 -> 0.05 µs).
_TERMINATION_VALUES: dict[Termination, pb.Termination] = {
    t: pb.Termination.Value(_WIRE_PREFIX + t.name) for t in Termination}


def termination_message(termination: Termination) -> pb.Termination:
    """The proto enum value of a termination."""
    return _TERMINATION_VALUES[termination]


def termination_from(record: pb.MatchRecord) -> Termination | None:
    """A record's termination: the typed field, else (an older arena) the string; None when unknown."""
    if record.termination_kind != pb.TERMINATION_UNSPECIFIED:
        name = pb.Termination.Name(record.termination_kind).removeprefix(_WIRE_PREFIX)
        return Termination[name] if name in Termination.__members__ else None
    kind = kind_of(record.termination)
    return kind if isinstance(kind, Termination) else None


def seat_message(seat: SeatResult) -> pb.SeatResult:
    """The proto image of one seat's result."""
    message = pb.SeatResult(tier=seat.tier, tier_size=seat.tier_size, score=seat.score, points=seat.points,
                            decisions=seat.decisions, think_s=seat.think_s)
    if seat.faults:  # filled from an empty dict, the map cost more than the rest (1.15 -> 0.49 µs), writing nothing
        message.faults.update(seat.faults)
    return message


def seat_of(message: pb.SeatResult) -> SeatResult:
    """One seat's result from its proto image (fault kinds keep their stored spelling)."""
    faults = {kind_of(kind): n for kind, n in sorted(message.faults.items())}
    return SeatResult(message.tier, message.tier_size, message.score, message.points, message.decisions,
                      message.think_s, faults)


def seat_points(record: pb.MatchRecord, seat: int) -> float:
    """The match points `seat` earned, as its seat result in the record says (none for a seat not there)."""
    return record.seats[seat].points if 0 <= seat < len(record.seats) else 0.0


def record_of(match_id: str, names: Sequence[str], result: MatchResult) -> pb.MatchRecord:
    """The proto record of a finished match, replay and details included."""
    doc = result.replay.to_dict()
    details = dict(result.details)
    if REALTIME_LOG in details:  # a real-time match is replayed from its arrivals
        doc[REALTIME_LOG] = details.pop(REALTIME_LOG)
    return pb.MatchRecord(
        match_id=match_id,
        game=result.game_id,
        seat_names=list(names),
        seed=result.seed,
        ranks=ranks_of(result.ranking, result.players),
        scores=[float(s) for s in result.scores],
        termination=result.termination,
        reason=result.reason,
        forfeit_seat=-1 if result.forfeit_seat is None else result.forfeit_seat,
        replay_json=dumps(doc),
        finished=True,
        full_replay=True,
        seats=[seat_message(seat) for seat in result.seats],
        termination_kind=termination_message(result.termination),
        details_json=dumps(jsonable(details)),
    )


def result_of(record: pb.MatchRecord) -> MatchResult:
    """The MatchResult of an arena MatchRecord: its seats as sent, never worked out again.

    A match the arena voided (aborted: its game raised), or whose seats do not cover its seat
    names, or whose termination this version does not know (an arena newer than this client),
    is void: everyone shares one place and scores nothing.
    """
    n = len(record.seat_names)
    doc: dict[str, Any] = json.loads(record.replay_json) if record.replay_json else {}
    replay = Replay.from_dict(doc) if doc else Replay(record.game, n, {}, record.seed)
    details: dict[str, Any] = json.loads(record.details_json) if record.details_json else {}
    details["arena_match_id"] = record.match_id
    if REALTIME_LOG in doc:
        details[REALTIME_LOG] = doc[REALTIME_LOG]
    forfeit_seat = None if record.forfeit_seat < 0 else record.forfeit_seat
    termination = termination_from(record)
    if termination is None or termination is Termination.ABORTED or len(record.seats) != n:
        clocks = [seat_of(s).stats() for s in record.seats] if len(record.seats) == n else [SeatStats()] * n
        void = Outcome((tuple(range(n)),), tuple(0.0 for _ in range(n)), record.reason)
        return match_result(record.game, record.seed, void, Termination.ABORTED, clocks, replay, details)
    seats = tuple(seat_of(s) for s in record.seats)
    return MatchResult(record.game, record.seed, termination, record.reason, seats, replay, details, forfeit_seat)


def void_record(match_id: str, game_id: str, names: Sequence[str], seed: int, reason: str) -> pb.MatchRecord:
    """The record of a match the arena voided (its game raised): one shared place, nobody scores."""
    n = len(names)
    void = Outcome((tuple(range(n)),), tuple(0.0 for _ in range(n)), reason)
    result = match_result(game_id, seed, void, Termination.ABORTED, [SeatStats() for _ in range(n)],
                          Replay(game_id, n, {}, seed))
    return record_of(match_id, names, result)
