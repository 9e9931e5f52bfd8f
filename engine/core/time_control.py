"""A match's time control: how long a seat may think on each move.

Its own module, not the referee's: the referee is compiled (setup.py's COMPILED), and a frozen
dataclass compiled by mypyc cannot be pickled or deep-copied, which a time control, a plain value
that plans and configurations carry, must allow.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TimeControl:
    """Per-move limit, plus an optional bank that overruns draw on, refilled by an increment."""

    move_s: float | None = None
    bank_s: float = 0.0
    increment_s: float = 0.0

    @staticmethod
    def from_ms(move_ms: int | None) -> TimeControl:
        """A per-move limit of `move_ms` milliseconds (None: no limit)."""
        return TimeControl(move_s=None if move_ms is None else move_ms / 1000.0)
