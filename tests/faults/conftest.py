"""A real arena on loopback whose finished matches are 'stored' through Arena.on_result.

Reuses the server tests' harness (tests/server/harness.py); every test gets a fresh arena.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import pytest

from engine.referee import MatchResult
from tests.server.harness import ArenaHarness


class Stored:
    """What the arena handed to its storage hook, by match id (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.results: dict[str, tuple[list[str], MatchResult]] = {}

    def __call__(self, match_id: str, names: Sequence[str], result: MatchResult, _seconds: float) -> None:
        with self.lock:
            assert match_id not in self.results, f"match {match_id} stored twice"
            self.results[match_id] = (list(names), result)


@pytest.fixture
def harness() -> Iterator[ArenaHarness]:
    h = ArenaHarness()
    h.stored = Stored()  # type: ignore[attr-defined]
    h.arena.on_result = h.stored  # type: ignore[attr-defined]
    try:
        yield h
    finally:
        h.close()
