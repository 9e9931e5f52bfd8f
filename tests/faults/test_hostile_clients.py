"""Hostile clients cannot grow the arena: a bot that never reads, huge Hellos, huge replies.

Each attack runs on a real loopback arena while a well-behaved bot plays its matches there;
those end normally and are stored (faultlib.with_good_matches).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading
from collections.abc import Iterator

import grpc
import pytest

from tests.faults.conftest import Stored
from tests.faults.faultlib import GAME, RawBot, hello_bytes, reply_bytes, with_good_matches
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

PLAY = "/tourney.v1.Arena/Play"
BIG = 64 << 20  # what the attacking client lets itself send
FLOOD_MESSAGES = 12_000  # the flooder stops by itself even if nobody cuts it off


def _channel(address: str) -> grpc.Channel:
    # No BDP probing: the receive window stays at its 64 KB start, as a client that never reads
    # would leave it, so what the arena sends it piles up in the arena, not in this process.
    return grpc.insecure_channel(address, options=[("grpc.max_send_message_length", BIG),
                                                   ("grpc.max_receive_message_length", BIG),
                                                   ("grpc.http2.bdp_probe", 0)])


def _harness(**limits: int) -> ArenaHarness:
    harness = ArenaHarness(ArenaConfig(allow_anonymous=True, default_move_ms=5000, **limits))
    harness.stored = Stored()  # type: ignore[attr-defined]
    harness.arena.on_result = harness.stored  # type: ignore[attr-defined]
    return harness


@pytest.mark.parametrize(("limits", "code"), [
    # The queue cap alone (the flood itself allowed): the bot is cut off for not reading.
    ({"max_queued_messages": 512, "bad_message_burst": 1_000_000}, "slow_reader"),
    # The defaults: replies that match nothing are rate-limited long before the queue fills.
    ({}, "rate_limited"),
])
def test_a_bot_that_never_reads_is_cut_off_and_its_match_ends_as_a_disconnection(limits: dict[str, int],
                                                                                   code: str) -> None:
    harness = _harness(**limits)
    channel = _channel(harness.address)
    go = threading.Event()
    sent = [0]

    def flood() -> Iterator[bytes]:
        yield hello_bytes("flooder", slots=1)
        go.wait(WAIT_S)
        junk = "j" * (32 * 1024)  # a 32 KB match id, answered with unknown_request each time
        for i in range(FLOOD_MESSAGES):
            sent[0] += 1
            yield reply_bytes(junk, i + 1, 0)

    try:
        # The flooder never iterates its responses: it reads nothing, ever.
        call = channel.stream_stream(PLAY, request_serializer=lambda b: b,
                                     response_deserializer=pb.ArenaMessage.FromString)(flood())
        assert wait_for(lambda: bool(harness.arena.connected("flooder")))

        def its_match() -> pb.MatchRecord:
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                record = pool.submit(harness.run_match, GAME, ["remote:flooder", "random"], 7, 60_000)
                assert wait_for(lambda: any(s.active for s in harness.arena.connected("flooder")))
                go.set()
                return record.result(WAIT_S * 2)

        bad, _ = with_good_matches(harness, its_match, good=2)
        assert bad.termination == "disconnection" and bad.forfeit_seat == 0, bad.reason
        assert wait_for(lambda: not harness.arena.connected("flooder"))
        assert sent[0] < FLOOD_MESSAGES, "the stream was cut before the flooder gave up"
        # When the flooder finally reads, it finds what was in flight, then the typed reason.
        late = 0
        try:
            for _ in call:
                late += 1
        except grpc.RpcError:
            pass
        assert call.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert call.details().startswith(f"{code}: ") and len(call.details()) < 300
        assert late < 2 * 512 + 1000, "only what the transport held and the capped queue reach it"
    finally:
        go.set()
        channel.close()
        harness.close()


def test_a_huge_hello_is_refused_unread_and_a_long_name_is_not_echoed(harness: ArenaHarness) -> None:
    channel = _channel(harness.address)

    def huge_hello(i: int) -> tuple[grpc.StatusCode, str]:
        hello = pb.BotMessage(hello=pb.Hello(bot_name=f"{i}" * (60 << 20))).SerializeToString()
        call = channel.stream_stream(PLAY, request_serializer=lambda b: b,
                                     response_deserializer=pb.ArenaMessage.FromString)(iter([hello]))
        with contextlib.suppress(grpc.RpcError):
            list(call)
        return call.code(), call.details() or ""

    try:
        def attack() -> pb.MatchRecord:
            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                outcomes = list(pool.map(huge_hello, range(4)))
            for code, details in outcomes:
                assert code == grpc.StatusCode.RESOURCE_EXHAUSTED, (code, details[:200])
                assert len(details) < 300
            return harness.run_match(GAME, ["random", "random"], 3)

        with_good_matches(harness, attack, good=2)
        # Under the receive limit but over the name limit: one short sentence, the name not repeated.
        long_name = "n" * 20_000
        call = channel.stream_stream(PLAY, request_serializer=lambda b: b, response_deserializer=pb.ArenaMessage.
                                     FromString)(iter([hello_bytes(long_name)]))
        messages = []
        with contextlib.suppress(grpc.RpcError):
            messages.extend(call)
        assert call.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert [m.error.code for m in messages] == ["bad_hello"]
        assert len(messages[0].error.message) < 200 and long_name[:100] not in messages[0].error.message
        assert len(call.details() or "") < 200
    finally:
        channel.close()


def test_a_huge_reply_cuts_only_that_bot_whose_match_ends_as_a_disconnection(harness: ArenaHarness) -> None:
    huge = RawBot(harness.address, "huge", lambda r: [reply_bytes("m" * (60 << 20), r.request_id, 0)])
    try:
        bad, _ = with_good_matches(harness, lambda: harness.run_match(GAME, ["remote:huge", "random"], 5, 60_000))
        assert bad.termination == "disconnection" and bad.forfeit_seat == 0, bad.reason
        assert huge.finished.wait(WAIT_S)
        assert isinstance(huge.failure, grpc.RpcError)
        assert huge.failure.code() == grpc.StatusCode.RESOURCE_EXHAUSTED  # type: ignore[attr-defined]
        assert not huge.errors, "nothing was built from the huge reply"
    finally:
        huge.close()


def test_an_unknown_reply_is_answered_without_repeating_its_long_match_id(harness: ArenaHarness) -> None:
    long_id = "q" * 40_000
    bot = RawBot(harness.address, "odd", lambda r: [])
    try:
        bot.out.put(reply_bytes(long_id, 1, 0))
        assert wait_for(lambda: bool(bot.errors))
        error = bot.errors[0]
        assert error.code == "unknown_request"
        assert len(error.match_id) < 100 and len(error.message) < 300
        assert error.match_id.startswith("q" * 10)  # recognisable, but short
    finally:
        bot.close()


def test_a_hello_asking_for_a_million_slots_gets_the_arenas_cap(harness: ArenaHarness) -> None:
    call = _channel(harness.address).stream_stream(PLAY, request_serializer=lambda b: b,
                                                   response_deserializer=pb.ArenaMessage.FromString)(
        iter([hello_bytes("greedy-slots", slots=1_000_000)]))
    first = next(call)
    assert first.welcome.max_concurrent_matches == harness.arena.config.max_matches_per_session
    call.cancel()
