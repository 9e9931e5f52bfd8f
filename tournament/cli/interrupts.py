"""Stopping a command that plays: SIGTERM (a `kill`, a service manager) ends it the way Ctrl-C does.

Python turns Ctrl-C into KeyboardInterrupt in the main thread, where the CLI marks the tournament
interrupted and says how to resume it; SIGTERM would otherwise end the process at once, leaving
the tournament `running` in the store for ever.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def interrupt_on_sigterm() -> Callable[[], None]:
    """From now on SIGTERM raises KeyboardInterrupt in the main thread; returns the function that puts
    the previous handler back. Off the main thread (where no handler can be set) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGTERM, _interrupt)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)
    return restore
