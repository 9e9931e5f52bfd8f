"""The Python SDK in real time: a request withdrawn while the bot thinks is never answered, so a
bot on a real arena gets no `unknown_request` however slowly it decides."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from tests.server.harness import WAIT_S, ArenaHarness, wait_for
from tests.server.test_realtime import FAST
from tourney.engine.server.client import Bot
from tourney.engine.server.generated import arena_pb2 as pb


class OutpacedBot(Bot):
    """Thinks until its request is withdrawn (or half a second passes), then answers it anyway."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._withdrawn: dict[tuple[str, int], threading.Event] = {}
        self.outpaced = 0  # answers `act` returned for a request already withdrawn

    def _event(self, key: tuple[str, int]) -> threading.Event:
        with self._lock:
            return self._withdrawn.setdefault(key, threading.Event())

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        if self._event((request.match_id, request.request_id)).wait(0.5):
            with self._lock:
                self.outpaced += 1
        return 0

    def on_withdrawn(self, message: pb.RequestWithdrawn) -> None:
        self._event((message.match_id, message.request_id)).set()


def test_the_sdk_never_answers_a_withdrawn_request(harness: ArenaHarness) -> None:
    bot = OutpacedBot()
    client = harness.bot("slow-thinker", bot, max_concurrent_matches=2)
    record: pb.MatchRecord = harness.stub.RunMatch(pb.RunMatchRequest(
        game="ninja-arena", seats=["remote:slow-thinker", "random"], seed=4, config_json=FAST, realtime=True),
        timeout=WAIT_S * 2)
    assert record.termination in ("normal", "adjudication"), record.reason
    assert wait_for(lambda: len(client.ended) == 1)
    # The bot did decide on requests that were withdrawn meanwhile (else this test proves nothing) ...
    assert bot.outpaced > 0 and client.withdrawn
    # ... and the SDK sent none of those answers: the arena never had to refuse one.
    assert [e.code for e in client.errors if e.code == "unknown_request"] == []
