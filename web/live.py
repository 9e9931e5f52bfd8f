"""Live matches: the arena's public `Watch` stream, relayed to the browser as server-sent events.

Only each event's public view and the players' names (public) go out. The record on the last
event carries the replay (the seed and every decision), so of it only the result is relayed:
every seat (name, place, points, score, clock) and how the match ended.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import grpc

from tourney.engine.server import pb, pb_grpc, seat_of
from tourney.tournament.responses import seat_docs

MAX_WATCHERS = 64  # SSE streams open at once; more get a clear refusal
MAX_WATCHERS_PER_ADDRESS = 8  # of them from one client address, so one client cannot take them all
MAX_ID_LENGTH = 64
RETRY_MS = 1000  # how soon the browser asks again when the match is not (yet) known


class WatchLimit:
    """Counts open streams so a crowd of spectators cannot open unbounded gRPC calls, and (with `share`)
    so one client address cannot take every one of them."""

    def __init__(self, limit: int = MAX_WATCHERS, share: int | None = None) -> None:
        self.limit = limit
        self.share = share
        self.open = 0
        self.by_address: Counter[str] = Counter()

    def take(self, address: str | None = None) -> bool:
        """Take a place (for `address`, counted against its share); False when none is free."""
        if self.open >= self.limit:
            return False
        if address is not None and self.share is not None:
            if self.by_address[address] >= self.share:
                return False
            self.by_address[address] += 1
        self.open += 1
        return True

    def give(self, address: str | None = None) -> None:
        """Give back a place taken with the same `address`."""
        self.open -= 1
        if address is not None and self.share is not None:
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]  # the table holds only addresses with streams open


def public_result(record: pb.MatchRecord) -> dict[str, Any]:
    """What a finished match's record may show anyone: its seats as the match pages show them (SeatDoc),
    how it ended and why; never its seed, replay or details."""
    seats = seat_docs(list(record.seat_names), [seat_of(seat) for seat in record.seats])
    return {"seats": [seat.model_dump() for seat in seats], "termination": record.termination, "reason": record.reason}


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\nretry: {RETRY_MS}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def watch_events(arena: str, match_id: str, limit: WatchLimit, viewer: str | None = None) -> AsyncIterator[str]:
    """The SSE text of one match for the client at address `viewer`: `frame` events (step, public view),
    then `end` with the result.

    An unknown match gives one `missing` event; the browser retries after RETRY_MS, so a page
    opened just before its match starts picks it up.
    """
    if not limit.take(viewer):
        yield _sse("busy", {"message": "too many live streams are open (from your address, or in all): close one "
                                       "or try again shortly."})
        return
    try:
        # A connection per viewer: the arena caps the calls one connection may have in flight.
        async with grpc.aio.insecure_channel(arena, options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
            stub = pb_grpc.ArenaStub(channel)  # type: ignore[no-untyped-call]
            try:
                async for event in stub.Watch(pb.WatchRequest(match_id=match_id)):
                    yield _sse("frame", {"step": event.step, "view": json.loads(event.public_view_json or "{}"),
                                         "seat_names": list(event.seat_names)})
                    if event.finished:
                        yield _sse("end", public_result(event.record))
                        return
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.NOT_FOUND:
                    yield _sse("missing", {"message": f"no live match {match_id!r} on the arena yet."})
                else:
                    yield _sse("missing", {"message": f"the arena stopped the stream ({exc.code().name})."})
    finally:  # also when the browser goes away (the stream is cancelled): the gRPC call closes with it
        limit.give(viewer)
