"""The lease on a row that one process at a time may play: claim, renew and release, on any table with the
columns `id`, `runner` ("host:pid", "" when none) and `heartbeat_ts` (Unix seconds of its last renewal).

The ladder (one `ladder run` per game) and the tournament (one driver per tournament) hold their rows with
these; tournament/lease.py keeps the claim alive while its holder plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from tourney.tournament.store.retry import guard

Gone = Callable[[str], bool]  # whether a runner's process is known to be dead


def held(runner: str, heartbeat_ts: float, me: str, now_ts: float, lease_s: float, gone: Gone) -> bool:
    """Whether a row with this runner and heartbeat is held by someone other than `me`: a runner whose
    lease has not run out and whose process is not known to be gone."""
    return runner not in ("", me) and heartbeat_ts > now_ts - lease_s and not gone(runner)


def claim(engine: Engine, table: Any, row_id: int, me: str, now_ts: float, lease_s: float,
          gone: Gone) -> tuple[str, float] | None:
    """Make `me` the row's one runner: None when claimed, else (the runner holding it, its last heartbeat).

    Taken over when it has no runner, its runner's lease ran out, or `gone(runner)` says that runner is
    dead; the update names the runner it read, so of two callers at once only one wins.
    """
    def write() -> tuple[str, float] | None:
        with engine.begin() as conn:
            row = conn.execute(select(table.c.runner, table.c.heartbeat_ts).where(table.c.id == row_id)).one()
            if held(row.runner, row.heartbeat_ts, me, now_ts, lease_s, gone):
                return str(row.runner), float(row.heartbeat_ts)
            taken = conn.execute(update(table).where(table.c.id == row_id).where(table.c.runner == row.runner)
                                 .values(runner=me, heartbeat_ts=now_ts)).rowcount
            return None if taken == 1 else (str(row.runner), float(row.heartbeat_ts))
    return guard(write)


def renew(engine: Engine, table: Any, row_id: int, me: str, now_ts: float) -> bool:
    """Say `me` is alive; False when another runner has taken the row over meanwhile."""
    def write() -> bool:
        with engine.begin() as conn:
            return bool(conn.execute(update(table).where(table.c.id == row_id).where(table.c.runner == me)
                                     .values(heartbeat_ts=now_ts)).rowcount == 1)
    return guard(write)


def release(engine: Engine, table: Any, row_id: int, me: str) -> None:
    """`me` stops running the row (nothing happens if another runner holds it)."""
    def write() -> None:
        with engine.begin() as conn:
            conn.execute(update(table).where(table.c.id == row_id).where(table.c.runner == me)
                         .values(runner="", heartbeat_ts=0.0))
    guard(write)
