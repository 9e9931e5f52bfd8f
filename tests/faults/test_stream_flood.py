"""1,000 Play streams opened at once: the arena rate-limits Hello per connection, keeps playing, and
forgets every session once the streams are gone."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from tests.faults.conftest import stored_harness
from tests.faults.faultlib import GAME, hello_bytes, with_good_matches
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

STREAMS = 1000
CONNECTIONS = 4
# Admission control and the transport's stream cap (tests/security) would refuse most of these streams
# before they say anything: lifted here, so each test shows the arena holding every stream it floods.
NO_ADMISSION: dict[str, Any] = {"calls_per_connection": STREAMS, "streams_per_connection": STREAMS,
                                "unauthenticated_calls": STREAMS, "unauthenticated_per_s": STREAMS,
                                "unauthenticated_per_s_per_address": STREAMS}


async def _flood(address: str, hold: asyncio.Event, opened: list[int]) -> tuple[list[str], float]:
    """Open STREAMS Play streams over CONNECTIONS connections; each says Hello and waits for `hold`."""
    channels = [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1),
                                                            ("grpc.channel_id", i)])  # distinct connections
                for i in range(CONNECTIONS)]
    started = time.monotonic()

    async def one(i: int) -> str:
        play = channels[i % CONNECTIONS].stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                                       response_deserializer=pb.ArenaMessage.FromString)
        call = play()
        await call.write(hello_bytes(f"flood-{i}"))
        first = await call.read()
        opened.append(i)
        kind = "closed" if first is grpc.aio.EOF else first.WhichOneof("kind")
        outcome = kind if kind != "error" else first.error.code
        await hold.wait()
        call.cancel()
        return str(outcome)

    try:
        outcomes = await asyncio.gather(*(one(i) for i in range(STREAMS)))
    finally:
        for channel in channels:
            await channel.close()
    return list(outcomes), time.monotonic() - started


def test_a_thousand_streams_are_rate_limited_and_the_arena_keeps_serving() -> None:
    config = ArenaConfig(allow_anonymous=True, default_move_ms=5000, hello_burst=50, hello_per_s=2.0, **NO_ADMISSION)
    with stored_harness(config) as harness:
        harness.bot("good", max_concurrent_matches=4)
        loop = asyncio.new_event_loop()
        import threading

        hold = asyncio.Event()
        opened: list[int] = []
        result: list[tuple[list[str], float]] = []
        flood = threading.Thread(target=lambda: result.append(loop.run_until_complete(_flood(
            harness.address, hold, opened))), daemon=True)
        flood.start()
        assert wait_for(lambda: len(opened) == STREAMS, 120), f"only {len(opened)} streams answered"
        # With every stream still open, the good bot plays its matches as usual.
        with_good_matches(harness, lambda: harness.run_match(GAME, ["random", "remote:good"], 31), good=3)
        loop.call_soon_threadsafe(hold.set)
        flood.join(WAIT_S * 2)
        assert result, "the flood did not finish"
        outcomes, elapsed = result[0]
        welcomed = outcomes.count("welcome")
        refused = outcomes.count("rate_limited")
        assert welcomed + refused == STREAMS, set(outcomes)
        # Each connection gets its burst, plus what its bucket refilled while the flood lasted.
        assert CONNECTIONS * 50 <= welcomed <= CONNECTIONS * (50 + int(2.0 * elapsed) + 1)
        # Cancelled streams leave no session behind.
        assert wait_for(lambda: [s.name for s in harness.arena.connected()] == ["good"])
        loop.close()


async def _silent_flood(address: str, hold: asyncio.Event, opened: list[int]) -> None:
    """Open STREAMS Play streams that never say anything, and keep them open until `hold`."""
    channels = [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1),
                                                            ("grpc.channel_id", 100 + i)])
                for i in range(CONNECTIONS)]
    calls = []
    for i in range(STREAMS):
        play = channels[i % CONNECTIONS].stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                                       response_deserializer=pb.ArenaMessage.FromString)
        calls.append(play())
    for call in calls:
        await call.wait_for_connection()
        opened.append(1)
    await hold.wait()
    for call in calls:
        call.cancel()
    for channel in channels:
        await channel.close()


@pytest.fixture
def open_harness() -> Iterator[ArenaHarness]:
    """The faults harness (tests/faults/conftest.py) with NO_ADMISSION."""
    with stored_harness(ArenaConfig(allow_anonymous=True, default_move_ms=5000, **NO_ADMISSION)) as harness:
        yield harness


def test_a_thousand_silent_streams_do_not_stop_the_arena(open_harness: ArenaHarness) -> None:
    import threading

    harness = open_harness
    harness.bot("good", max_concurrent_matches=4)
    loop = asyncio.new_event_loop()
    hold = asyncio.Event()
    opened: list[int] = []
    flood = threading.Thread(target=lambda: loop.run_until_complete(_silent_flood(harness.address, hold, opened)),
                             daemon=True)
    flood.start()
    assert wait_for(lambda: len(opened) == STREAMS, 120), f"only {len(opened)} streams opened"
    with_good_matches(harness, lambda: harness.run_match(GAME, ["random", "remote:good"], 41), good=3)
    loop.call_soon_threadsafe(hold.set)
    flood.join(WAIT_S * 2)
    assert not flood.is_alive()
    loop.close()
    # None of them became a session; the arena still welcomes a new bot at once.
    assert [s.name for s in harness.arena.connected()] == ["good"]
    harness.bot("late-comer")
