"""Play a match through an arena from another process: RunMatch, back as a referee MatchResult.

This is the hook for `tourney run --arena HOST:PORT --bots remote:NAME,greedy`: the
tournament runner calls `run_remote_match` where it would call `play_match`, and gets the
same MatchResult (ranking, scores, termination, replay, per-seat stats rebuilt from the
replay), so standings and storage need no change.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any, cast

import grpc

from tourney.engine.core import TourneyError
from tourney.engine.referee import MatchResult
from tourney.engine.server.client import rpc_detail
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.results import result_of

RUN_MATCH = "/tourney.v1.Arena/RunMatch"


GET_MATCH = "/tourney.v1.Arena/GetMatch"


class ArenaUnavailable(TourneyError):
    """The arena refused or could not play the match; `code` is the gRPC status, when there was one."""

    def __init__(self, message: str, code: grpc.StatusCode | None = None) -> None:
        super().__init__(message)
        self.code = code


def run_remote_match(
    address: str,
    game_id: str,
    seats: Sequence[str],
    seed: int,
    config: Mapping[str, Any] | None = None,
    move_ms: int | None = None,
    admin_token: str = "",
    realtime: bool = False,
    timeout_s: float = 3600.0,
    credentials: grpc.ChannelCredentials | None = None,
    bot_seeds: Sequence[int] = (),
    match_id: str = "",
) -> MatchResult:
    """Ask the arena at `address` to play one match between `seats` and return its result.

    Seats are "remote:NAME" (a bot connected to that arena) or built-in bot specs; bot_seeds
    (one per seat, optional) seed the built-in ones. A `match_id` (else the arena picks one) is
    played at most once: asking again answers ALREADY_EXISTS, and `finished_match` fetches it.
    Raises ArenaUnavailable (one sentence) when the arena refuses or cannot be reached.
    """
    request = pb.RunMatchRequest(
        admin_token=admin_token, game=game_id, seats=list(seats), seed=seed,
        config_json=json.dumps(dict(config or {})), move_ms=move_ms or 0, realtime=realtime,
        bot_seeds=list(bot_seeds), match_id=match_id,
    )
    channel = grpc.secure_channel(address, credentials) if credentials else grpc.insecure_channel(address)
    with channel:
        call = channel.unary_unary(RUN_MATCH, request_serializer=pb.RunMatchRequest.SerializeToString,
                                   response_deserializer=pb.MatchRecord.FromString)
        try:
            record = cast(pb.MatchRecord, call(request, timeout=timeout_s))
        except grpc.RpcError as exc:
            raise ArenaUnavailable(f"the arena at {address} did not play the match ({rpc_detail(exc)})",
                                   exc.code() if isinstance(exc, grpc.Call) else None) from None
    return result_of(record)


def finished_match(address: str, admin_token: str, match_id: str, timeout_s: float = 3600.0,
                   poll_s: float = 0.5) -> MatchResult:
    """The result of match `match_id`, which the arena plays or played already: asked for until it is
    over (NOT_FOUND means still playing), for at most timeout_s. Raises ArenaUnavailable otherwise."""
    deadline = time.monotonic() + timeout_s
    with grpc.insecure_channel(address) as channel:
        call = channel.unary_unary(GET_MATCH, request_serializer=pb.GetMatchRequest.SerializeToString,
                                   response_deserializer=pb.MatchRecord.FromString)
        while True:
            try:
                record = cast(pb.MatchRecord, call(pb.GetMatchRequest(match_id=match_id, admin_token=admin_token),
                                                   timeout=max(1.0, min(60.0, deadline - time.monotonic()))))
                return result_of(record)
            except grpc.RpcError as exc:
                code = exc.code() if isinstance(exc, grpc.Call) else None
                if code not in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.RESOURCE_EXHAUSTED) \
                        or time.monotonic() + poll_s > deadline:
                    raise ArenaUnavailable(f"the arena at {address} did not return match {match_id} "
                                           f"({rpc_detail(exc)})", code) from None
            time.sleep(poll_s)
