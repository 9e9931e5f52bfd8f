"""Injected clocks for search-budget tests: time that moves only when read, and a clock that must not be read."""

from __future__ import annotations


class FakeClock:
    """Time that moves only when read: `step` seconds per reading."""

    def __init__(self, step: float) -> None:
        self.now = 100.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


class NoClock:
    """A clock that must never be read: fixed-iteration search may not depend on time."""

    def __call__(self) -> float:
        raise AssertionError("a search with a budget in iterations read the clock")
