"""A stream that never says Hello is closed after hello_timeout_s; sessions beyond max_sessions are refused."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import grpc
import pytest

from tests.faults.faultlib import hello_bytes
from tests.server.harness import WAIT_S, ArenaHarness
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb


def _play(harness: ArenaHarness) -> grpc.StreamStreamMultiCallable:
    return harness.channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                         response_deserializer=pb.ArenaMessage.FromString)


def test_a_silent_stream_is_closed_after_the_hello_timeout_and_a_good_bot_plays_on() -> None:
    harness = ArenaHarness(ArenaConfig(allow_anonymous=True, default_move_ms=5000, hello_timeout_s=0.3))
    try:
        harness.bot("good")
        held = threading.Event()

        def junk_then_silence() -> Iterator[bytes]:  # keeps the stream open, never says Hello
            yield b"\xff\xff junk"
            held.wait(WAIT_S)

        started = time.monotonic()
        call = _play(harness)(junk_then_silence(), timeout=WAIT_S)
        try:
            with pytest.raises(grpc.RpcError) as err:
                replies = [m.error.code for m in call]
                raise AssertionError(f"the stream was not closed: {replies}")
        finally:
            held.set()
        assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "no Hello within 0.3 s" in (err.value.details() or "")
        assert 0.25 <= time.monotonic() - started < WAIT_S
        record = harness.run_match("sticks", ["remote:good", "random"], 1)
        assert record.termination == "normal"
    finally:
        harness.close()


def test_sessions_beyond_the_cap_are_refused_until_one_leaves() -> None:
    harness = ArenaHarness(ArenaConfig(allow_anonymous=True, default_move_ms=5000, max_sessions=2))
    try:
        first = harness.bot("one")
        harness.bot("two")
        call = _play(harness)(iter([hello_bytes("three")]), timeout=WAIT_S)
        with pytest.raises(grpc.RpcError) as err:
            list(call)
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "the arena is full (2 bot sessions)" in (err.value.details() or "")
        first.stop()
        for _ in range(200):  # bounded: the arena forgets the closed session
            if len(harness.arena.connected()) < 2:
                break
            time.sleep(0.01)
        harness.bot("three")  # a slot is free again
        assert {s.name for s in harness.arena.connected()} == {"two", "three"}
    finally:
        harness.close()
