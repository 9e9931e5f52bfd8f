"""A match plan whose record is when and where the match was played (for the parallelism caps).

Each match waits a little (it stands in for a real one, without using a core), long enough
that two matches played at once surely overlap. The clock is CLOCK_MONOTONIC, one clock for
every process on the machine, so the intervals of Ray's workers and the driver compare.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class IntervalPlan:
    """Plays pairing k as (k, (start, end, pid), seconds); optionally holds the first match until released."""

    game: str = "sticks"
    match_s: float = 0.05
    hold: threading.Event | None = field(default=None, compare=False)

    def play(self, pairing: int) -> tuple[int, tuple[float, float, int], float]:
        start = time.monotonic()
        if self.hold is not None:
            self.hold.wait(60)
        time.sleep(self.match_s)
        end = time.monotonic()
        return pairing, (start, end, os.getpid()), end - start

    def __reduce__(self) -> tuple[type[IntervalPlan], tuple[str, float]]:
        return IntervalPlan, (self.game, self.match_s)  # the hold stays with the driver


def most_at_once(intervals: list[tuple[float, float, int]]) -> int:
    """The largest number of intervals that overlap at one instant."""
    events = sorted([(s, 1) for s, _, _ in intervals] + [(e, -1) for _, e, _ in intervals])  # ends sort first
    now = peak = 0
    for _, step in events:
        now += step
        peak = max(peak, now)
    return peak
