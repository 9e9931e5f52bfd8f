"""Where the library's log records go when `tourney` runs: stderr, as bare sentences.

Library code (engine/, workers/, tournament/ outside the CLI modules) logs through module
loggers and never prints. The CLI shows their warnings and errors on stderr exactly as a
sentence (no level or logger name), the way those messages read when they were printed, and
made printable (`PrintableRecords`): a record may repeat a stranger's text.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from tourney.engine.core.printable_logs import PrintableRecords

# The top-level loggers of the project's packages (league/arena_loop.py logs as "tourney.league").
PROJECT_LOGGERS = ("engine", "tournament", "workers", "web", "tourney")


class CurrentStderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever sys.stderr is at the time of each record (pytest and CliRunner swap it)."""

    def __init__(self, level: int = logging.NOTSET) -> None:
        logging.Handler.__init__(self, level)  # not StreamHandler's: it would pin today's stream

    @property
    def stream(self) -> TextIO:  # type: ignore[override]  # read-only on purpose: always today's stderr
        """The current sys.stderr."""
        return sys.stderr


def configure_cli_logging(level: int = logging.WARNING) -> None:
    """Send the project's log records of `level` and above to stderr as bare messages (once).

    Only handlers are added: the loggers' own levels are left alone (the root's WARNING by default).
    """
    for name in PROJECT_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(h, CurrentStderrHandler) for h in logger.handlers):
            handler = CurrentStderrHandler(level)
            handler.setFormatter(PrintableRecords("%(message)s"))
            logger.addHandler(handler)
