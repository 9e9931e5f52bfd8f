"""A stored match read back into the one MatchResult (`engine.core.result`) it was written from.

The rows hold every field of the result: the match row its game, seed, termination, reason, details and
replay; each seat row its tier, points, score, decisions, thinking time and faults (a tier's size is
how many seats of the match share it; the seat that forfeited is the one a fault put alone in last place).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.engine import Engine

from tourney.engine.core import MatchResult, Replay, SeatResult, Termination, forfeit_seat_of, kind_of
from tourney.tournament.store.codec import loads, unpack_replay
from tourney.tournament.store.reads import stored_match
from tourney.tournament.store.tables import Match, MatchSeat


def seat_results(seats: Sequence[MatchSeat]) -> tuple[SeatResult, ...]:
    """The seat results that one match's seat rows (all of them, in seat order) were written from."""
    tiers = [seat.tier for seat in seats]
    return tuple(SeatResult(seat.tier, tiers.count(seat.tier), seat.score, seat.points, seat.decisions,
                            seat.think_s, {kind_of(k): int(n) for k, n in loads(seat.faults_json or "{}").items()})
                 for seat in seats)


def result_of_rows(match: Match, seats: Sequence[MatchSeat]) -> MatchResult:
    """The MatchResult that a match row and its seat rows (in seat order) were written from."""
    results = seat_results(seats)
    doc = unpack_replay(match.replay_json) if match.replay_json else {}
    replay = Replay.from_dict(doc) if doc else Replay(match.game, match.players, loads(match.config_json), match.seed)
    kind = kind_of(match.termination)
    termination = kind if isinstance(kind, Termination) else Termination.ABORTED  # a kind from a newer version
    return MatchResult(match.game, match.seed, termination, match.reason, results, replay,
                       loads(match.details_json or "{}"), forfeit_seat_of(termination, results))


def stored_result(engine: Engine, match_id: int) -> tuple[list[str], MatchResult] | None:
    """Who held each seat of stored match `match_id`, and its result; None when there is no such match."""
    found = stored_match(engine, match_id)
    if found is None:
        return None
    match, seats = found
    return [seat.alias for seat in seats], result_of_rows(match, seats)
