"""A finished arena match as a proto record: the full one (organiser), the public one (anyone),
and the MatchEnded each seat is told."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from engine.core import ReplayMismatch
from engine.public_replay import public_frames
from engine.referee import MatchResult, Replay
from engine.server.codecs import dumps
from engine.server.generated import arena_pb2 as pb
from engine.server.sessions import shown

logger = logging.getLogger(__name__)
ABORTED = "aborted"  # the termination of a match a game bug voided


def ranks_of(ranking: Sequence[Sequence[int]], players: int) -> list[int]:
    """Rank per seat from tiers: 1 + the number of seats placed strictly above (ties share)."""
    ranks = [0] * players
    above = 0
    for tier in ranking:
        for seat in tier:
            ranks[seat] = above + 1
        above += len(tier)
    return ranks


def _replay_doc(result: MatchResult) -> dict[str, Any]:
    doc = result.replay.to_dict()
    if "realtime_log" in result.details:  # a real-time match is replayed from its arrivals
        doc["realtime_log"] = result.details["realtime_log"]
    return doc


def record_of(match_id: str, names: Sequence[str], result: MatchResult) -> pb.MatchRecord:
    """The proto record of a finished match, replay included."""
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
        replay_json=dumps(_replay_doc(result)),
        finished=True,
        full_replay=True,
    )


def without_replay(record: pb.MatchRecord) -> pb.MatchRecord:
    """The record with neither seed nor replay: what the last Watch event carries for anyone."""
    public = pb.MatchRecord()
    public.CopyFrom(record)
    public.seed = 0
    public.replay_json = ""
    public.full_replay = False
    return public


def public_record(record: pb.MatchRecord, final_view_json: str) -> pb.MatchRecord:
    """The record as anyone may see it: no seed, and the public replay instead of the full one.

    The public replay is `engine.public_replay.public_frames` of the full one; a real-time match
    (replayed from its arrival log, not from steps) shows its final public view only, and a match
    without a replay (aborted) none. A replay the game cannot play again (stored by an earlier
    version of it) has no frames and says why in `unavailable`; the result fields stay as played.
    """
    public = without_replay(record)
    if not record.replay_json:
        return public
    doc = json.loads(record.replay_json)
    unavailable = None
    if "realtime_log" in doc:
        frames = [json.loads(final_view_json)] if final_view_json else []
    else:
        try:
            frames = public_frames(Replay.from_dict(doc))
        except ReplayMismatch as exc:
            logger.warning("match %s: %s", shown(record.match_id), exc)
            frames, unavailable = [], str(exc)
        except Exception:  # a replay the game cannot play again: show no frames rather than fail
            logger.exception("match %s: no public replay", record.match_id)
            frames, unavailable = [], "this replay cannot be played again; its stored result is unchanged."
    replay: dict[str, Any] = {"game": record.game, "players": len(record.seat_names), "frames": frames}
    if unavailable is not None:
        replay["unavailable"] = unavailable
    public.replay_json = dumps(replay)
    return public


def ended_message(record: pb.MatchRecord, seat: int) -> pb.MatchEnded:
    """The MatchEnded that seat `seat` of a finished match is sent: ranks, scores and its points."""
    ranks = list(record.ranks)
    n = len(ranks)
    points = 0.0
    if n >= 2 and seat < n:
        mine = ranks[seat]
        below = sum(1 for r in ranks if r > mine)
        same = sum(1 for r in ranks if r == mine) - 1
        points = (below + 0.5 * same) / (n - 1)
    return pb.MatchEnded(match_id=record.match_id, ranks=ranks, scores=list(record.scores),
                         reason=record.reason, seat=seat, termination=record.termination,
                         points=points, forfeit_seat=record.forfeit_seat)
