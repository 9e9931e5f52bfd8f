"""The outbox writes a stream's messages itself: in order, one write in flight, a message put while
the stream is idle at the loop's next turn together with the other streams', the next as soon as
the last is done, and it stops cleanly when a write fails or the stream is over."""

from __future__ import annotations

import asyncio

import pytest

from tourney.engine.server.sessions import Outbox, QueuedBytes


class Stream:
    """A write whose completion the test decides: each write waits on a future of its own."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.started: list[bytes] = []
        self.done: list[bytes] = []
        self.waits: list[asyncio.Future[None]] = []

    async def write(self, data: bytes) -> None:
        self.started.append(data)
        wait: asyncio.Future[None] = self.loop.create_future()
        self.waits.append(wait)
        await wait
        self.done.append(data)


def _opened(**limits: object) -> tuple[Stream, Outbox]:
    """An outbox already writing to a fresh Stream (on the running loop)."""
    loop = asyncio.get_running_loop()
    stream = Stream(loop)
    box = Outbox(loop, **limits)  # type: ignore[arg-type]
    box.start(stream.write)
    return stream, box


async def _turns(n: int = 3) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


@pytest.mark.timeout(20)
def test_writes_in_order_one_at_a_time() -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        stream = Stream(loop)
        box = Outbox(loop)
        box.put(b"early")  # queued before the stream is handed over: written first
        box.start(stream.write)
        assert stream.started == [b"early"]  # started at once, no task to wake
        box.put(b"a")
        box.put(b"b")
        await _turns()
        assert stream.started == [b"early"]  # one write in flight at a time
        stream.waits[0].set_result(None)
        await _turns()
        assert stream.done == [b"early"] and stream.started == [b"early", b"a"]
        stream.waits[1].set_result(None)
        await _turns()
        stream.waits[2].set_result(None)
        await _turns()
        assert stream.done == [b"early", b"a", b"b"]
        assert not box.finished.done()
        box.put(None)  # the session closed: the outbox is finished once everything before it is written
        await _turns()
        assert box.finished.done()

    asyncio.run(run())


@pytest.mark.timeout(20)
def test_streams_idle_at_once_start_their_writes_together() -> None:
    async def run() -> None:
        first, one = _opened()
        second, other = _opened()
        one.put(b"1")
        other.put(b"2")
        assert first.started == [] and second.started == []  # not in the middle of the caller's work
        await asyncio.sleep(0)  # the loop's next turn starts both, back to back
        assert first.started == [b"1"] and second.started == [b"2"]

    asyncio.run(run())


@pytest.mark.timeout(20)
def test_a_failed_write_finishes_the_outbox() -> None:
    async def run() -> None:
        stream, box = _opened()
        box.put(b"a")
        box.put(b"b")
        await _turns()
        stream.waits[0].set_exception(ConnectionError("the bot hung up"))
        await _turns()
        assert box.finished.done() and stream.done == []
        box.put(b"c")  # nothing is written once the stream is gone
        await _turns()
        assert stream.started == [b"a"]

    asyncio.run(run())


@pytest.mark.timeout(20)
def test_stop_abandons_the_write_in_flight() -> None:
    async def run() -> None:
        stream, box = _opened()
        box.put(b"stuck")  # a bot that does not read: this write never completes
        box.put(b"next")
        await _turns()
        box.stop()
        assert stream.waits[0].cancelled() and box.finished.done()
        await _turns()
        assert stream.started == [b"stuck"] and stream.done == []

    asyncio.run(run())


@pytest.mark.timeout(20)
def test_overflow_drops_what_waits_and_finishes() -> None:
    async def run() -> None:
        overflowed: list[bool] = []
        stream, box = _opened(max_messages=2, on_overflow=lambda: overflowed.append(True))
        box.put(b"\x00")
        await _turns()  # in flight
        for i in range(1, 4):  # two wait, the third is past the cap
            box.put(bytes([i]))
        assert overflowed == [True] and box.overflowed
        stream.waits[0].set_result(None)
        await _turns()
        assert box.finished.done() and stream.started == [b"\x00"]

    asyncio.run(run())


@pytest.mark.timeout(20)
def test_past_the_overall_cap_the_fullest_outbox_overflows_whoever_put_last() -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        shared = QueuedBytes(limit=10)
        cut: list[str] = []
        full, quiet = Stream(loop), Stream(loop)
        hoarder = Outbox(loop, on_overflow=lambda: cut.append("hoarder"), shared=shared)
        reader = Outbox(loop, on_overflow=lambda: cut.append("reader"), shared=shared)
        hoarder.start(full.write)
        reader.start(quiet.write)
        hoarder.put(b"0")
        reader.put(b"r")
        await _turns()  # both written at the loop's turn and in flight: no longer waiting, so not counted
        assert shared.total == 0
        for _ in range(3):
            hoarder.put(b"xx")
        reader.put(b"yy")
        assert shared.total == 8 and not cut
        reader.put(b"zzz")  # the reader's put passes the cap, but the hoarder holds the most
        assert cut == ["hoarder"] and hoarder.overflowed and hoarder.overflowed_overall
        assert not reader.overflowed and reader.queued_bytes == 5 and shared.total == 5
        quiet.waits[0].set_result(None)
        await _turns()
        assert quiet.started == [b"r", b"yy"] and shared.total == 3
        reader.stop()
        hoarder.stop()
        assert shared.total == 0

    asyncio.run(run())


@pytest.mark.timeout(20)
def test_what_is_put_after_the_close_is_not_counted_once_the_outbox_is_finished() -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        shared = QueuedBytes(limit=1 << 20)
        stream = Stream(loop)
        box = Outbox(loop, shared=shared)
        box.start(stream.write)
        box.put(b"a")
        await _turns()  # in flight
        box.put(None)
        box.put(b"late")  # after the close: never written
        assert shared.total == 4
        stream.waits[0].set_result(None)
        await _turns()
        assert box.finished.done() and shared.total == 0

    asyncio.run(run())
