"""What a finished arena match shows: the public record (anyone), the record without replay
(the last Watch event), and the MatchEnded each seat is told. The full record and its
conversion back to a MatchResult are in results.py."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from tourney.engine.core import ReplayMismatch
from tourney.engine.core.printable import shown
from tourney.engine.public_replay import as_changes, public_frames
from tourney.engine.referee import Replay
from tourney.engine.server.codecs import dumps
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.results import seat_points

logger = logging.getLogger(__name__)


def without_replay(record: pb.MatchRecord) -> pb.MatchRecord:
    """The record with neither seed, replay, details nor the seats' clocks: what the last Watch event
    carries for anyone."""
    public = pb.MatchRecord()
    public.CopyFrom(record)
    public.seed = 0
    public.replay_json = ""
    public.details_json = ""  # the game's extras may name what a seat held
    public.full_replay = False
    for seat in public.seats:  # how long a seat thought can tell what it held: the organiser's detail
        seat.decisions = 0
        seat.think_s = 0.0
    return public


def public_record(record: pb.MatchRecord, final_view_json: str) -> pb.MatchRecord:
    """The record as anyone may see it: no seed, and the public replay instead of the full one.

    The public replay is `engine.public_replay.public_frames` of the full one, sent as changes
    (`as_changes`: the reader rebuilds the frames with `frames_of`); a real-time match
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
    replay = as_changes(record.game, len(record.seat_names), frames)
    if unavailable is not None:
        replay["unavailable"] = unavailable
    public.replay_json = dumps(replay)
    return public


def ended_message(record: pb.MatchRecord, seat: int) -> pb.MatchEnded:
    """The MatchEnded that seat `seat` of a finished match is sent: ranks, scores, its points, and every
    seat's result as the public record shows it (no clocks)."""
    return ended_messages(record, [seat])[0]


def ended_messages(record: pb.MatchRecord, seats: Sequence[int]) -> list[pb.MatchEnded]:
    """`ended_message` for each of `seats`: what they share is built once (copied, then the seat and
    its points set), as a match's turnover is a part of every decision's cost in the arena."""
    public = pb.MatchRecord(seats=record.seats)
    for result in public.seats:  # the clocks stay the organiser's, as in without_replay
        result.decisions = 0
        result.think_s = 0.0
    shared = pb.MatchEnded(match_id=record.match_id, ranks=record.ranks, scores=record.scores,
                           reason=record.reason, termination=record.termination, forfeit_seat=record.forfeit_seat,
                           seats=public.seats, termination_kind=record.termination_kind)
    out = []
    for seat in seats:
        ended = pb.MatchEnded()
        ended.CopyFrom(shared)
        ended.seat = seat
        ended.points = seat_points(record, seat)
        out.append(ended)
    return out
