"""Test bots for the arena: well-behaved, silent, out-of-range, deserting, slow, and checking ones."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from typing import Any

from tourney.engine.server.client import Bot, BotClient
from tourney.engine.server.generated import arena_pb2 as pb


class SilentBot(Bot):
    """Never answers: the arena must rule a timeout."""

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        return None


class OutOfRangeBot(Bot):
    """Answers with an index one past the end of the legal list."""

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        return len(legal_actions)


class DesertingBot(Bot):
    """Plays `moves` moves, then drops its stream without a word."""

    def __init__(self, moves: int) -> None:
        self.moves = moves
        self.client: BotClient | None = None
        self._lock = threading.Lock()

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        with self._lock:
            self.moves -= 1
            if self.moves < 0:
                assert self.client is not None
                self.client.cancel()
                return None
        return 0


class RecordingBot(Bot):
    """A random bot that keeps every request and match message it gets (for hidden-info checks)."""

    def __init__(self, seed: int = 0, delay_s: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.delay_s = delay_s
        self.lock = threading.Lock()
        self.requests: list[tuple[pb.ActionRequest, dict[str, Any]]] = []
        self.started: dict[str, pb.MatchStarted] = {}

    def on_match_started(self, message: pb.MatchStarted) -> None:
        with self.lock:
            self.started[message.match_id] = message

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        if self.delay_s:
            time.sleep(self.delay_s)
        with self.lock:
            self.requests.append((request, observation))
            return self.rng.randrange(len(legal_actions))
