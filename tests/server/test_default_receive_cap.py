"""A bot whose channel keeps gRPC's default receive limit (4 MiB) plays every game: the arena never
sends a bot a message that needs more."""

from __future__ import annotations

import pytest

import tourney.engine.server.client as sdk
from tests.server.harness import ArenaHarness, wait_for

DEFAULT_RECEIVE_BYTES = 4 * 1024 * 1024  # gRPC's default, stated so a larger SDK setting cannot hide here

MATCHES = [
    ("tiny-ninjas", ["remote:plain", "greedy"], '{"mode": "champion"}'),
    ("ninja-versus-ninja", ["remote:plain", "random"], ""),
    # Four players: the last-ranked seat defends rank 4, the request that once listed 34,650 rows.
    ("maitre-ninja", ["random", "random", "random", "remote:plain"], ""),
    ("ninja-arena", ["remote:plain", "random", "random"], ""),
]


@pytest.mark.parametrize(("game", "seats", "config"), MATCHES, ids=[m[0] for m in MATCHES])
def test_a_bot_with_the_default_receive_limit_plays_a_whole_match(
        harness: ArenaHarness, monkeypatch: pytest.MonkeyPatch, game: str, seats: list[str], config: str) -> None:
    monkeypatch.setattr(sdk, "CHANNEL_OPTIONS",
                        [*sdk.CHANNEL_OPTIONS, ("grpc.max_receive_message_length", DEFAULT_RECEIVE_BYTES)])
    client = harness.bot("plain")
    for seed in (1, 2):
        record = harness.run_match(game, seats, seed=seed, config_json=config)
        assert record.termination == "normal", record.reason
    assert wait_for(lambda: len(client.ended) == 2)
    assert client.requests > 0 and not client.errors
    assert not client.thread_errors  # type: ignore[attr-defined]
