"""Protobuf-level fuzz: random valid-but-nonsense messages to a live arena.

Every nonsense BotMessage after a Hello gets exactly one ErrorReport and the stream stays
usable; nonsense before a Hello ends the stream with a status or an ErrorReport, never a
hang; nonsense RunMatch/Watch/GetMatch requests are refused with a precise status (never
UNKNOWN or INTERNAL, which would mean an unhandled error). After all of it the arena still
plays a match.
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.harness import WAIT_S, ArenaHarness
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])
GAMES = ["tiny-ninjas", "maitre-ninja", "ninja-arena", "ninja-versus-ninja", "sticks"]

texts = st.text(max_size=40)
names = st.one_of(texts, st.sampled_from(["", "good", "x" * 300, "\x00", "remote:good"]))
hellos = st.builds(pb.Hello, bot_name=names, token=texts,
                   games=st.lists(st.one_of(st.sampled_from(GAMES), texts), max_size=4),
                   max_concurrent_matches=st.integers(0, 2**32 - 1))
replies = st.builds(pb.ActionReply, match_id=st.one_of(texts, st.just("live")),
                    request_id=st.integers(0, 2**64 - 1), action_index=st.integers(0, 2**32 - 1))
bot_messages = st.one_of(st.builds(pb.BotMessage), st.builds(lambda h: pb.BotMessage(hello=h), hellos),
                         st.builds(lambda r: pb.BotMessage(reply=r), replies))


@pytest.fixture(scope="module")
def arena() -> Iterator[ArenaHarness]:
    h = ArenaHarness(ArenaConfig(allow_anonymous=True, seat_wait_s=0.2, default_move_ms=2000, hello_burst=10_000,
                                 hello_per_s=1000.0))
    try:
        yield h
    finally:
        h.close()


def _play(arena: ArenaHarness) -> grpc.StreamStreamMultiCallable:
    return arena.channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                       response_deserializer=pb.ArenaMessage.FromString)


def _expected(message: pb.BotMessage) -> str:
    kind = message.WhichOneof("kind")
    return {"hello": "bad_hello", "reply": "unknown_request"}.get(kind or "", "malformed")


@FUZZ
@given(messages=st.lists(bot_messages, min_size=1, max_size=8))
def test_nonsense_after_hello_gets_one_error_report_each(arena: ArenaHarness, messages: list[pb.BotMessage]) -> None:
    hello = pb.BotMessage(hello=pb.Hello(bot_name="fuzz")).SerializeToString()
    call = _play(arena)(iter([hello, *(m.SerializeToString() for m in messages)]), timeout=WAIT_S)
    got: list[str] = []
    welcomed = False
    for message in call:
        kind = message.WhichOneof("kind")
        if kind == "welcome":
            welcomed = True
        else:
            assert kind == "error", kind
            got.append(message.error.code)
        if len(got) == len(messages):
            break
    call.cancel()
    assert welcomed and got == [_expected(m) for m in messages]


@FUZZ
@given(first=bot_messages, rest=st.lists(st.binary(max_size=64), max_size=3))
def test_nonsense_instead_of_hello_never_hangs_the_stream(arena: ArenaHarness, first: pb.BotMessage,
                                                          rest: list[bytes]) -> None:
    call = _play(arena)(iter([first.SerializeToString(), *rest]), timeout=WAIT_S)
    kinds: list[str] = []
    try:
        for message in call:
            kinds.append(message.WhichOneof("kind") or "")
            if kinds[-1] == "welcome":
                break
    except grpc.RpcError as exc:
        # Refused Hellos end with a precise status (the stream did not just die); INVALID_ARGUMENT
        # is a Hello field over its limit (engine/server/limits.py).
        assert exc.code() in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.RESOURCE_EXHAUSTED,
                              grpc.StatusCode.INVALID_ARGUMENT), exc
    finally:
        call.cancel()
    assert all(k in ("error", "welcome") for k in kinds)


run_requests = st.builds(
    pb.RunMatchRequest, admin_token=texts, game=st.one_of(st.sampled_from(GAMES), texts),
    seats=st.lists(st.one_of(st.sampled_from(["random", "greedy", "remote:nobody", "cmd:x", ""]), texts),
                   max_size=5),
    seed=st.integers(0, 2**64 - 1), move_ms=st.integers(0, 5), wait_s=st.integers(0, 1),
    config_json=st.one_of(st.sampled_from(["", "{}", "[]", "{\"mode\": 3}", "{\"players\": -1}", "null", "{"]),
                          texts),
    match_id=st.one_of(st.just(""), texts), realtime=st.booleans())


@FUZZ
@given(request=run_requests)
def test_nonsense_run_match_requests_get_a_precise_status(arena: ArenaHarness, request: pb.RunMatchRequest) -> None:
    run = arena.channel.unary_unary("/tourney.v1.Arena/RunMatch", request_serializer=pb.RunMatchRequest.
                                    SerializeToString, response_deserializer=pb.MatchRecord.FromString)
    try:
        record = run(request, timeout=WAIT_S)
    except grpc.RpcError as exc:
        assert exc.code() not in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL), exc.details()
        assert exc.details()
    else:
        assert record.finished  # a request that happened to make sense was played to its end


@FUZZ
@given(match_id=texts)
def test_nonsense_watch_and_get_match_are_not_found(arena: ArenaHarness, match_id: str) -> None:
    for method in (lambda: list(arena.stub.Watch(pb.WatchRequest(match_id="?" + match_id), timeout=WAIT_S)),
                   lambda: arena.stub.GetMatch(pb.GetMatchRequest(match_id="?" + match_id), timeout=WAIT_S)):
        with pytest.raises(grpc.RpcError) as err:
            method()
        assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_the_arena_still_plays_after_the_fuzz(arena: ArenaHarness) -> None:
    arena.bot("after-fuzz")
    record = arena.run_match("tiny-ninjas", ["remote:after-fuzz", "random"], 1)
    assert record.termination in ("normal", "adjudication")
