"""How long a bot may think about one decision: its own budget and the request's deadline.

The clock is a parameter so tests can drive time by hand instead of reading the wall clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]

# A seat that answers after its deadline forfeits, so search keeps back a share of it for
# the answer's round trip and the work after the last clock check.
DEADLINE_SHARE = 0.7


class OutOfTime(Exception):
    """Raised inside a search when its budget is spent, to unwind to the last finished result."""


class Budget:
    """The moment one decision's thinking must stop: the sooner of `ms` and the deadline share."""

    def __init__(self, clock: Clock, ms: float | None, deadline_s: float | None) -> None:
        limits = []
        if ms is not None:
            limits.append(ms / 1000.0)
        if deadline_s is not None:
            limits.append(deadline_s * DEADLINE_SHARE)
        self._clock = clock
        # Unlimited budgets never read the clock, so fixed-iteration search stays a pure function.
        self.stop_at = clock() + min(limits) if limits else None

    def spent(self) -> bool:
        """True once the stop time has passed (never for an unlimited budget)."""
        return self.stop_at is not None and self._clock() >= self.stop_at

    def check(self) -> None:
        """Raise `OutOfTime` once the budget is spent."""
        if self.spent():
            raise OutOfTime


def default_clock() -> float:
    """The monotonic high-resolution clock bots use unless a test injects another."""
    return time.perf_counter()
