"""The retry policy of every store transaction: wait out a database server that went away, fail on anything else.

A lost connection to PostgreSQL (a restart, a network blip) heals by waiting; a full disk, a
constraint or a bug does not, and SQLite is a local file whose errors never heal. Every
transaction the store runs may run twice safely (matches already stored are skipped), so a
retry after a connection lost at commit time never writes a match twice.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError

from tourney.engine.core.environment import DB_RETRY_ENV
from tourney.tournament.store.database import StoreError

logger = logging.getLogger(__name__)

# How long a read or write keeps retrying a database that went away before the driver gives
# up; $TOURNEY_DB_RETRY_S overrides it.
DB_RETRY_S = 120.0

T = TypeVar("T")


def db_reason(exc: SQLAlchemyError) -> str:
    """The first line of what the database said (or the error's type)."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def transient(exc: SQLAlchemyError) -> bool:
    """A lost connection to a database server is worth retrying; a full disk, a constraint or a bug is not."""
    if getattr(exc, "connection_invalidated", False):
        return True
    orig = getattr(exc, "orig", None)
    if orig is None or type(orig).__module__.startswith("sqlite3"):
        return False  # SQLite is a local file: its errors do not heal by waiting
    return isinstance(exc, (OperationalError, InterfaceError))


def guard(action: Callable[[], T]) -> T:
    """Run one store transaction; retry with backoff while the database server is unreachable.

    Anything else (or an outage longer than $TOURNEY_DB_RETRY_S) ends in a StoreError whose
    one sentence says what to do.
    """
    budget = float(os.environ.get(DB_RETRY_ENV, DB_RETRY_S))
    deadline = time.monotonic() + budget
    delay = 0.1
    while True:
        try:
            return action()
        except SQLAlchemyError as exc:
            reason = db_reason(exc)
            if transient(exc) and time.monotonic() + delay < deadline:
                logger.warning("the database is unreachable (%s); retrying in %.1f s", reason, delay)
                time.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            if "full" in reason.lower():
                raise StoreError(f"the database's disk is full ({reason}): free some space, then resume "
                                 "the tournament (`tourney resume`).") from None
            if "readonly" in reason.lower().replace("-", ""):  # SQLite's "readonly", PostgreSQL's "read-only"
                raise StoreError(f"the database is read-only ({reason}): make it writable (a SQLite file and its "
                                 "folder), or pass another --db.") from None
            waited = f" for {budget:g} s" if transient(exc) else ""
            raise StoreError(
                f"the database stopped answering{waited} ({reason}): check it is up and writable, "
                "then resume the tournament."
            ) from None

