"""Bot tokens are stored hashed and compared in constant time; Hello is rate-limited per connection."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from pathlib import Path

import grpc
import pytest

from tests.server.harness import WAIT_S, ArenaHarness
from tourney.engine.server import arena as arena_module
from tourney.engine.server.arena import Arena
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.rate_limit import HelloLimiter
from tourney.engine.server.tokens import add_bot, load_tokens, token_hash


def test_a_new_token_is_stored_only_as_its_sha256(tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    token = add_bot("alice", path)
    text = path.read_text()
    assert token not in text
    assert json.loads(text) == {"alice": hashlib.sha256(token.encode()).hexdigest()}
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # A second bot keeps the first one's hash and adds only its own.
    other = add_bot("bob", path)
    assert load_tokens(path) == {"alice": token_hash(token), "bob": token_hash(other)}
    assert token != other and len(token) >= 24


def test_hello_is_checked_by_constant_time_comparison_of_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[object, object]] = []
    real = hmac.compare_digest

    def spy(a: object, b: object) -> bool:
        calls.append((a, b))
        return real(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(arena_module.hmac, "compare_digest", spy)
    arena = Arena(ArenaConfig(tokens={"alice": token_hash("right")}))
    try:
        assert arena.authenticate(pb.Hello(bot_name="alice", token="right")) is None
        assert arena.authenticate(pb.Hello(bot_name="alice", token="wrong")) is not None
        # Both checks went through compare_digest, on hashes only: the raw token never is compared.
        assert calls == [(token_hash("right"), token_hash("right")), (token_hash("right"), token_hash("wrong"))]
        # A configuration holding a raw token (not its hash) lets nobody in with that token.
        raw = Arena(ArenaConfig(tokens={"alice": "right"}))
        assert raw.authenticate(pb.Hello(bot_name="alice", token="right")) is not None
        raw.shutdown()
    finally:
        arena.shutdown()


def test_the_admin_token_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    harness = ArenaHarness(ArenaConfig(admin_token="adm", allow_anonymous=True))
    monkeypatch.setattr(arena_module.hmac, "compare_digest", spy)
    try:
        with pytest.raises(grpc.RpcError) as err:
            harness.run_match("sticks", ["random", "random"], admin_token="guess")
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert harness.run_match("sticks", ["random", "random"], admin_token="adm").termination == "normal"
        assert calls == [(b"adm", b"guess"), (b"adm", b"adm")]
    finally:
        harness.close()


def test_the_hello_bucket_allows_a_burst_then_refills_per_connection() -> None:
    now = [0.0]
    limiter = HelloLimiter(burst=3, per_s=2.0, clock=lambda: now[0], max_peers=2)
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("b")  # another connection has its own bucket
    now[0] += 0.5  # one Hello's worth of refill
    assert limiter.allow("a") and not limiter.allow("a")
    now[0] += 100.0  # refill never exceeds the burst
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    limiter.allow("c")
    limiter.allow("d")  # at most max_peers buckets are kept: the oldest go first
    assert len(limiter._buckets) == 2


def test_token_guessing_on_one_connection_is_cut_off() -> None:
    harness = ArenaHarness(ArenaConfig(tokens={"alice": token_hash("right")}, hello_burst=5, hello_per_s=0.01))
    try:
        play = harness.channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=lambda b: b,
                                             response_deserializer=pb.ArenaMessage.FromString)
        codes = []
        for guess in range(8):
            hello = pb.BotMessage(hello=pb.Hello(bot_name="alice", token=f"guess-{guess}")).SerializeToString()
            call = play(iter([hello]), timeout=WAIT_S)
            with pytest.raises(grpc.RpcError) as err:
                for message in call:
                    codes.append(message.error.code)
            codes.append(err.value.code().name)
        assert codes[:10] == ["unauthenticated", "UNAUTHENTICATED"] * 5
        assert codes[10:] == ["rate_limited", "RESOURCE_EXHAUSTED"] * 3
        # Even the right token is refused on this connection now; a new connection is served.
        right = pb.BotMessage(hello=pb.Hello(bot_name="alice", token="right")).SerializeToString()
        with pytest.raises(grpc.RpcError) as err:
            list(play(iter([right]), timeout=WAIT_S))
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert harness.bot("alice", token="right").welcome is not None
    finally:
        harness.close()
