"""uvicorn's log settings for the web app: its own layout, with every record made printable.

uvicorn's access lines repeat a client's request line and its error lines a client's bytes or an
exception's message; its default formatters print them raw (and colour them with escape sequences).
The same handlers here format through `PrintableRecords`, without colour.
"""

from __future__ import annotations

import copy
from typing import Any

from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter, DefaultFormatter

from tourney.engine.core.printable_logs import PrintableRecords


class PrintableDefault(PrintableRecords, DefaultFormatter):
    """uvicorn's formatter of its error log, printable."""


class PrintableAccess(PrintableRecords, AccessFormatter):
    """uvicorn's formatter of its access log, printable."""


def server_log_config() -> dict[str, Any]:
    """uvicorn's LOGGING_CONFIG with the printable formatters above in place of its own."""
    config = copy.deepcopy(LOGGING_CONFIG)
    for name, printable in (("default", PrintableDefault), ("access", PrintableAccess)):
        config["formatters"][name]["()"] = printable
        config["formatters"][name]["use_colors"] = False  # colour is escape sequences, which `shown` spells out
    return config
