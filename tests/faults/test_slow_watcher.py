"""A spectator who stops reading is cut off after MAX_WATCH_QUEUE events instead of growing the arena's memory."""

from __future__ import annotations

from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.live import MAX_WATCH_QUEUE, LiveMatch, WatcherQueue


def test_a_watcher_that_stops_reading_is_dropped_with_its_queue_bounded() -> None:
    live = LiveMatch("m")
    slow, fast = WatcherQueue(), WatcherQueue()
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
    latest = live.latest()  # a late joiner gets only the newest view: nothing else is kept
    assert latest is not None and latest.step == MAX_WATCH_QUEUE + 499


def test_an_unwatched_step_is_rendered_only_when_a_watcher_asks() -> None:
    live = LiveMatch("m")
    rendered: list[int] = []

    def render(step: int) -> str:
        rendered.append(step)
        return f'{{"step": {step}}}'

    for step in range(1, 50):
        live.advance(step, lambda step=step: render(step))  # type: ignore[misc]
    assert rendered == []
    latest = live.latest()
    assert latest is not None and latest.step == 49 and latest.public_view_json == '{"step": 49}'
    assert live.latest() is latest and rendered == [49]  # rendered once
    queue = WatcherQueue()
    live.watchers.append(queue)
    live.advance(50, lambda: render(50))  # watched: published at once
    assert rendered == [49, 50] and queue.get_nowait().step == 50  # type: ignore[union-attr]
