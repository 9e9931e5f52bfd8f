"""Progress as plain lines on stderr, for when stderr is not a terminal (a pipe, a log file, CI).

A progress bar draws nothing there, so a long run looked dead. ProgressLines prints one line
every few seconds from a timer thread, so even a single match that thinks for minutes shows
it is alive; the caller only updates counters.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

PERIOD_S = 5.0


class ProgressLines:
    """`with ProgressLines("tiny-ninjas", total) as p: ... p.update(done)`: a line every period_s,
    and a last one when the work ends."""

    def __init__(self, label: str, total: int | None = None, unit: str = "matches", period_s: float | None = None,
                 stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic,
                 enabled: bool = True, final: bool = True) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.done = 0
        self.period_s = PERIOD_S if period_s is None else period_s
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.enabled = enabled  # off: counts, prints nothing (--json keeps stderr quiet)
        self.final = final  # a last line when the work ends
        self.started = clock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._report, name="progress-lines", daemon=True)

    def update(self, done: int, total: int | None = None) -> None:
        """Record how far the work is (printed at the next period)."""
        self.done = done
        if total:
            self.total = total

    def line(self) -> str:
        """The progress line as it reads now."""
        elapsed = self.clock() - self.started
        of = f"/{self.total}" if self.total else ""
        rate = f", {self.done / elapsed:.1f}/s" if elapsed > 0 and self.done else ""
        return f"{self.label}: {self.done}{of} {self.unit}{rate}, {elapsed:.0f} s"

    def _report(self) -> None:
        while not self._stop.wait(self.period_s):
            print(self.line(), file=self.stream, flush=True)

    def __enter__(self) -> ProgressLines:
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        if self.enabled:
            self._thread.join()
            if kind is None and self.final:  # where it ended, so a log always shows the last count
                print(self.line(), file=self.stream, flush=True)
