"""A Watch stream that never reads holds a bounded number of bytes of the match's views, not only of events.

Before: a watcher's queue was capped at 1,024 events whatever their size. A Tiny Ninjas champion view
reaches 48 KB, so a raw HTTP/2 client that asks to Watch a live match and grants no flow-control window
kept every view of the match in the arena for as long as it stayed: 0.5-3 MB for a champion match
against `greedy`, up to 50 MB at the event cap, for each of the arena's 256 unauthenticated calls.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from tests.security.good_match import moves
from tests.security.raw_h2 import WindowZeroClient
from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tourney.engine.server import live as live_module
from tourney.engine.server.client import RandomBot
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb

pytestmark = [pytest.mark.timeout(180)]
CAP = 256 << 10  # below what every champion match against greedy publishes (0.5-3 MB measured)
CONFIG = ArenaConfig(allow_anonymous=True, default_move_ms=5000)
CHAMPION = '{"mode": "champion"}'


class GatedBot(RandomBot):
    """A seeded random bot that makes its first move only once `gate` is set."""

    def __init__(self, gate: threading.Event, seed: int) -> None:
        super().__init__(seed=seed)
        self.gate = gate

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action], request: pb.ActionRequest
            ) -> int | None:
        self.gate.wait(WAIT_S)
        return super().act(observation, legal_actions, request)


def _match(harness: ArenaHarness, match_id: str) -> pb.MatchRecord:
    return harness.run_match("tiny-ninjas", ["remote:good", "greedy"], 4, config_json=CHAMPION, match_id=match_id)


def _drain(harness: ArenaHarness, queue: asyncio.Queue[pb.MatchEvent | None]) -> list[pb.MatchEvent | None]:
    """Everything left in a watcher's queue, taken on the arena's own loop."""

    async def take() -> list[pb.MatchEvent | None]:
        return [queue.get_nowait() for _ in range(queue.qsize())]

    return asyncio.run_coroutine_threadsafe(take(), harness.loop).result(WAIT_S)


def test_a_watcher_that_grants_no_window_holds_a_bounded_share_of_the_views(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_module, "MAX_WATCH_QUEUE_BYTES", CAP, raising=False)
    quiet = ArenaHarness(CONFIG)
    try:
        opened = threading.Event()
        opened.set()
        quiet.bot("good", GatedBot(opened, 5))
        expected = _match(quiet, "quiet")
    finally:
        quiet.close()
    harness = ArenaHarness(CONFIG)
    gate = threading.Event()
    watcher = None
    try:
        harness.bot("good", GatedBot(gate, 5))
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            played = pool.submit(_match, harness, "watched")
            assert wait_for(lambda: harness.arena.find_live("watched") is not None)
            live = harness.arena.find_live("watched")
            assert live is not None
            watcher = WindowZeroClient(harness.address, "/tourney.v1.Arena/Watch",
                                       pb.WatchRequest(match_id="watched").SerializeToString(), 1)
            assert wait_for(lambda: len(live.watchers) == 1)
            queue = live.watchers[0]
            gate.set()  # the match plays on while its watcher reads nothing
            record = played.result(WAIT_S * 2)
        left = _drain(harness, queue)
        held = sum(len(event.public_view_json) for event in left if event is not None)
        assert held <= CAP, f"{held} bytes of views wait for a watcher that reads nothing"
        assert left and left[-1] is None and queue not in live.watchers  # it was cut off, the match went on
        # The good bot's match is the one it plays on a quiet arena.
        assert record.termination == "normal" and moves(record) == moves(expected)
        assert list(record.ranks) == list(expected.ranks) and list(record.scores) == list(expected.scores)
    finally:
        gate.set()
        if watcher is not None:
            watcher.close()
        harness.close()
