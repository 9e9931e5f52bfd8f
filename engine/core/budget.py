"""How long a bot may think about one decision: its own budget and the request's deadline.

The clock is a parameter so tests can drive time by hand instead of reading the wall clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from tourney.engine.core.bot_options import BotOption

Clock = Callable[[], float]

# A seat that answers after its deadline forfeits, so search keeps back a share of it for
# the answer's round trip and the work after the last clock check.
DEADLINE_SHARE = 0.7


class OutOfTime(Exception):
    """Raised inside a search when its budget is spent, to unwind to the last finished result."""


class Budget:
    """When one decision's thinking must stop: the sooner of `ms`, the deadline share and,
    when `checks` is given, that many passed checks (a count of work, the same on any machine)."""

    def __init__(self, clock: Clock, ms: float | None, deadline_s: float | None, checks: int | None = None) -> None:
        limits = []
        if ms is not None:
            limits.append(ms / 1000.0)
        if deadline_s is not None:
            limits.append(deadline_s * DEADLINE_SHARE)
        self._clock = clock
        # Unlimited budgets never read the clock, so fixed-iteration search stays a pure function.
        self.stop_at = clock() + min(limits) if limits else None
        self._checks = checks
        self.passed = 0  # checks answered "not spent": the work units this decision was allowed

    def spent(self) -> bool:
        """True once the stop time has passed or the checks are used up (never for an unlimited budget)."""
        if self._checks is not None and self.passed >= self._checks:
            return True
        if self.stop_at is not None and self._clock() >= self.stop_at:
            return True
        self.passed += 1
        return False

    def check(self) -> None:
        """Raise `OutOfTime` once the budget is spent."""
        if self.spent():
            raise OutOfTime


def default_clock() -> float:
    """The monotonic high-resolution clock bots use unless a test injects another."""
    return time.perf_counter()


def anytime_options(default_iterations: int, iterations_help: str, per: str = "a decision") -> tuple[BotOption, ...]:
    """The two budget options every anytime search bot takes: `ms` (time decides) and `iterations`
    (a fixed count of its unit of work, reproducible for a seed)."""
    return (
        BotOption("ms", float, None, f"think this many milliseconds {per} instead of a fixed count (not "
                  "reproducible run to run)", minimum=1, example=50),
        BotOption("iterations", int, default_iterations, iterations_help, minimum=1),
    )


def fixed_iterations(bot: str, ms: float | None, iterations: int | None, default: int | None) -> int | None:
    """The count an anytime bot stops at (None: only time stops it), after checking both options.

    A count is a fixed, reproducible budget, so `iterations` wins; `ms` alone means time decides; with
    neither, the bot plays its default count.
    """
    if iterations is not None and iterations < 1:
        raise ValueError(f"{bot} needs iterations >= 1")
    if ms is not None and ms <= 0:
        raise ValueError(f"{bot} needs ms > 0")
    return default if iterations is None and ms is None else iterations
