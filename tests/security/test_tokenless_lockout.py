"""Tokenless Hellos from an address locked out for wrong tokens, over a real arena (loopback and a Unix
socket, so that the victim has an address of its own): they guess nothing, so they spend nothing."""

from __future__ import annotations

import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest

from tests.security.siege import peak_unauthenticated
from tests.server.harness import WAIT_S
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.local import LocalArena
from tourney.engine.server.tokens import token_hash

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
ALICE_TOKEN = "alice-right-token-0123456789"


def alice_arena(per_address: int, per_address_per_s: float, overall: int, overall_per_s: float) -> ArenaConfig:
    """An arena that knows one bot, alice, with these failed-token buckets (tries, and refill a second)."""
    return ArenaConfig(tokens={"alice": token_hash(ALICE_TOKEN)}, auth_failures_per_address=per_address,
                       auth_failures_per_address_per_s=per_address_per_s, auth_failures_overall=overall,
                       auth_failures_overall_per_s=overall_per_s)


def _hello(target: str, name: str, token: str) -> str:
    """The status a one-Hello Play stream ends with ("OK": welcomed, then ended by the client)."""
    with grpc.insecure_channel(target, options=OWN_CONNECTION) as channel:
        play = channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                     response_deserializer=pb.ArenaMessage.FromString)
        hello = pb.BotMessage(hello=pb.Hello(bot_name=name, token=token)).SerializeToString()
        try:
            kinds = [message.WhichOneof("kind") for message in play(iter([hello]), timeout=WAIT_S)]
        except grpc.RpcError as exc:
            return str(exc.code().name)  # type: ignore[attr-defined]
        return "OK" if kinds[:1] == ["welcome"] else f"ended after {kinds}"


@pytest.mark.timeout(120)
def test_tokenless_hellos_from_a_locked_out_address_do_not_lock_everyone_out() -> None:
    # Before: a tokenless Hello that failed (no such anonymous bot here) still spent a try from the
    # arena's overall bucket, and since the lockout no longer refuses tokenless Hellos, one locked-out
    # address could keep that bucket empty: every bot everywhere was then refused its right token.
    config = alice_arena(per_address=3, per_address_per_s=0.01, overall=10, overall_per_s=0.01)
    with tempfile.TemporaryDirectory(prefix="tourney-t-") as folder:
        socket = Path(folder) / "a.sock"
        with LocalArena(config, unix_paths=[str(socket)]) as local:
            attacker = local.address
            # Three wrong tokens lock the attacker's address out; its tokens are refused unread from then on.
            assert [_hello(attacker, "alice", f"guess-{i}") for i in range(4)] == \
                ["UNAUTHENTICATED"] * 3 + ["RESOURCE_EXHAUSTED"]
            # Tokenless Hellos still get in to be answered (no anonymous bot here: each is refused) ...
            assert {_hello(attacker, f"nobody-{i}", "") for i in range(12)} == {"UNAUTHENTICATED"}
            # ... and spent nothing: alice, from another address, still joins with her token.
            assert _hello(f"unix:{socket}", "alice", ALICE_TOKEN) == "OK"


def _silent_play(channel: grpc.Channel, release: threading.Event) -> str:
    """A Play stream that never says Hello (its request stream waits for `release`): how it ended."""
    def nothing() -> Iterator[bytes]:
        release.wait(WAIT_S)
        yield from ()

    play = channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                 response_deserializer=pb.ArenaMessage.FromString)
    try:
        list(play(nothing(), timeout=WAIT_S))
    except grpc.RpcError as exc:
        return str(exc.code().name)  # type: ignore[attr-defined]
    return "OK"


@pytest.mark.timeout(120)
def test_a_locked_out_address_still_meets_the_unauthenticated_limits() -> None:
    # The attack the lockout change opened: once its tokens are refused, an address floods streams that
    # present none. They are admitted as unauthenticated calls, so the arena's cap on those in flight
    # still holds them to a few (the rest are refused with a sentence), and each ends at its Hello deadline.
    config = ArenaConfig(allow_anonymous=True, auth_failures_per_address=1, auth_failures_per_address_per_s=0.01,
                         unauthenticated_calls=6, hello_timeout_s=2.0, calls_per_connection=16)
    release = threading.Event()
    with LocalArena(config) as local:
        assert [_hello(local.address, "", "guess"), _hello(local.address, "x", "guess")] == \
            ["UNAUTHENTICATED", "RESOURCE_EXHAUSTED"]  # locked out for credentials
        channels = [grpc.insecure_channel(local.address, options=OWN_CONNECTION) for _ in range(3)]
        try:
            with ThreadPoolExecutor(18) as pool:
                calls = [pool.submit(_silent_play, channels[i % 3], release) for i in range(18)]
                finished, most = peak_unauthenticated(local.arena, lambda: all(call.done() for call in calls),
                                                      WAIT_S / 2)
                assert finished
                codes = Counter(call.result() for call in calls)
            assert most <= 6 and codes["RESOURCE_EXHAUSTED"] >= 12 and set(codes) <= {
                "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED"}, codes
            assert _hello(local.address, "newcomer", "") == "OK"  # and a tokenless bot still joins
        finally:
            release.set()
            for channel in channels:
                channel.close()
