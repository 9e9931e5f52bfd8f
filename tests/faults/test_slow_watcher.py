"""A spectator who stops reading is cut off after MAX_WATCH_QUEUE events instead of growing the arena's memory."""

from __future__ import annotations

import asyncio

from engine.server.arena import MAX_WATCH_QUEUE, LiveMatch
from engine.server.generated import arena_pb2 as pb


def test_a_watcher_that_stops_reading_is_dropped_with_its_queue_bounded() -> None:
    live = LiveMatch("m")
    slow: asyncio.Queue[pb.MatchEvent | None] = asyncio.Queue()
    fast: asyncio.Queue[pb.MatchEvent | None] = asyncio.Queue()
    live.watchers.extend([slow, fast])
    for step in range(MAX_WATCH_QUEUE + 500):
        live.publish(pb.MatchEvent(match_id="m", step=step, public_view_json="{}"))
        while not fast.empty():  # this one keeps up
            assert fast.get_nowait() is not None
    assert live.watchers == [fast]
    assert slow.qsize() == MAX_WATCH_QUEUE + 1
    events = [slow.get_nowait() for _ in range(MAX_WATCH_QUEUE + 1)]
    assert events[-1] is None  # the end-of-stream mark the Watch call turns into RESOURCE_EXHAUSTED
    assert [e.step for e in events[:-1] if e is not None] == list(range(MAX_WATCH_QUEUE))
    assert len(live.events) <= 256  # the late-joiner backlog stays bounded too
