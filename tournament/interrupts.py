"""Stopping a command that plays: SIGTERM (a `kill`, a service manager) ends it the way Ctrl-C does.

Python turns Ctrl-C into KeyboardInterrupt in the main thread, where the CLI marks the tournament
interrupted and says how to resume it; SIGTERM would otherwise end the process at once, leaving
the tournament `running` in the store for ever.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """While inside, SIGTERM raises KeyboardInterrupt in the main thread (elsewhere: nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
