"""Log records made printable as a whole, by the formatter of every handler tourney installs.

A record's message and args may carry a stranger's text (a bot's name, a bundle's file name, a
validation reason, an exception's message); printed raw, its control characters (ESC sequences, \\r,
\\b, NUL, bidi overrides) would reach the organiser's terminal or log files. Rendering the whole record
through `shown` here means no call site has to remember to.
"""

from __future__ import annotations

import logging
import traceback
from types import TracebackType

from tourney.engine.core.printable import shown

LOG_CHARS = 2000  # one rendered message (or one line of a traceback), like an error sentence


class PrintableRecords(logging.Formatter):
    """A formatter whose output has no unprintable character and whose lines are all its own: the
    message is `shown` whole (a stranger's newline cannot start a line that looks like another
    record), so is each exception's own line in a traceback, and the frames line by line."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging names it so)
        """The formatted message, made printable."""
        return shown(super().formatMessage(record), LOG_CHARS)

    def formatException(self, ei: tuple[type[BaseException], BaseException, TracebackType | None]  # noqa: N802
                        | tuple[None, None, None]) -> str:
        """The traceback made printable: its frames (our code) line by line, every other part (an exception's
        type and message, which may repeat a stranger's text) as one line."""
        if ei[1] is None:
            return _lines_shown(super().formatException(ei))
        parts = traceback.TracebackException(type(ei[1]), ei[1], ei[2]).format()
        return "\n".join(_lines_shown(part.rstrip("\n")) if part.startswith("  File ")
                         else shown(part.strip("\n"), LOG_CHARS) for part in parts)

    def formatStack(self, stack_info: str) -> str:  # noqa: N802 (logging names it so)
        """The stack, each of its lines made printable."""
        return _lines_shown(super().formatStack(stack_info))


def _lines_shown(text: str) -> str:
    return "\n".join(shown(line, LOG_CHARS) for line in text.split("\n"))
