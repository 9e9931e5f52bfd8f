"""A finished match on the wire: the referee's MatchResult to the proto MatchRecord and back.

Both directions live here and nowhere else, so a match played by an arena comes back to a
tournament as the same MatchResult it would be had a worker played it: ranks and tiers,
scores, termination, the replay, and the per-seat clocks and faults rebuilt from the
replay (the proto carries no stats of its own). A real-time match travels with its arrival
log inside the replay document and comes back with it in its details, where the referee
put it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tourney.engine.core import Outcome, Termination
from tourney.engine.referee import MatchResult, Replay, SeatStats
from tourney.engine.server.codecs import dumps
from tourney.engine.server.generated import arena_pb2 as pb

REALTIME_LOG = "realtime_log"  # the details key (and replay document key) of a real-time match's arrivals


def ranks_of(ranking: Sequence[Sequence[int]], players: int) -> list[int]:
    """Rank per seat from tiers: 1 + the number of seats placed strictly above (ties share)."""
    ranks = [0] * players
    above = 0
    for tier in ranking:
        for seat in tier:
            ranks[seat] = above + 1
        above += len(tier)
    return ranks


def ranking_of(ranks: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Tiers of seats, best first, from one rank per seat (1 = first; ties share a rank)."""
    by_rank: dict[int, list[int]] = {}
    for seat, rank in enumerate(ranks):
        by_rank.setdefault(rank, []).append(seat)
    return tuple(tuple(by_rank[r]) for r in sorted(by_rank))


def seat_points(record: pb.MatchRecord, seat: int) -> float:
    """The match points `seat` earned, as the referee's MatchResult counts them (a void match: none)."""
    ranks = list(record.ranks)
    if record.termination == Termination.ABORTED or len(ranks) < 2 or not 0 <= seat < len(ranks):
        return 0.0
    return Outcome(ranking_of(ranks), tuple(record.scores), record.reason).points(seat)


def record_of(match_id: str, names: Sequence[str], result: MatchResult) -> pb.MatchRecord:
    """The proto record of a finished match, replay included."""
    doc = result.replay.to_dict()
    if REALTIME_LOG in result.details:  # a real-time match is replayed from its arrivals
        doc[REALTIME_LOG] = result.details[REALTIME_LOG]
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
    )


def result_of(record: pb.MatchRecord) -> MatchResult:
    """The referee's MatchResult of an arena MatchRecord.

    A match the arena voided (aborted: its game raised), or whose ranks do not cover its
    seats, or whose termination this version does not know (an arena newer than this
    client), is void: everyone shares one place and scores nothing.
    """
    n = len(record.seat_names)
    doc: dict[str, Any] = json.loads(record.replay_json) if record.replay_json else {}
    replay = Replay.from_dict(doc) if doc else Replay(record.game, n, {}, record.seed)
    stats = [SeatStats() for _ in range(n)]
    for step in replay.steps:
        for decision in step:
            st = stats[decision.seat]
            st.decisions += 1
            st.think_s += decision.ms / 1000.0
            st.max_move_s = max(st.max_move_s, decision.ms / 1000.0)
            if decision.fault is not None:
                st.faults[decision.fault] = st.faults.get(decision.fault, 0) + 1
    details: dict[str, Any] = {"arena_match_id": record.match_id}
    if REALTIME_LOG in doc:
        details[REALTIME_LOG] = doc[REALTIME_LOG]
    known = record.termination in Termination.__members__.values()
    termination = Termination(record.termination) if known else Termination.ABORTED
    if termination is Termination.ABORTED or len(record.ranks) != n:
        ranking: tuple[tuple[int, ...], ...] = (tuple(range(n)),)
        scores = tuple(0.0 for _ in range(n))
        termination = Termination.ABORTED
    else:
        ranking = ranking_of(list(record.ranks))
        scores = tuple(float(record.scores[s]) if s < len(record.scores) else 0.0 for s in range(n))
    return MatchResult(
        record.game, record.seed, n, ranking, scores, termination, record.reason, stats, replay, details,
        forfeit_seat=None if record.forfeit_seat < 0 else record.forfeit_seat,
    )
