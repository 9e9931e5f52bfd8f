"""One process at a time plays a ladder or a tournament: a lease on its row, renewed while it plays.

Two processes playing the same rows would each do all the work, and race on what they write. A run
claims the row as "host:pid" (store/lease_rows.py) and a thread renews the claim every RENEW_S; another
run is refused while the claim is fresh. A run that died is taken over at once when it ran on this
machine (its pid is gone: the `kill -9` then restart case), else once its lease of LEASE_S has run out.
A run that loses its claim (it stalled past the lease and was taken over) sees `lost` set and stops.
The ladder (ladder/lease.py) and the tournament (tournament_lease.py) say in their own words who holds it.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from types import TracebackType
from typing import Any, Self

from sqlalchemy.engine import Engine

from tourney.engine.core import ConfigError
from tourney.tournament.store.lease_rows import claim, release, renew

LEASE_S = 60.0  # a claim not renewed for this long is free: far above RENEW_S, so a busy machine keeps it
RENEW_S = 5.0


def this_runner() -> str:
    """This process as a runner: host:pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


def runner_gone(runner: str) -> bool:
    """True when `runner` ran on this machine and its process no longer exists."""
    host, _, pid = runner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, someone else's
        return False
    return False


class Lease:
    """`with Lease(...):` holds row `row_id` of `table` while the block runs; `.lost` is set if taken over.

    A subclass names what is held: `refusal` (the sentence when another runner holds it) and `lost_sentence`.
    """

    def __init__(self, engine: Engine, table: Any, row_id: int, me: str | None = None,
                 lease_s: float = LEASE_S, renew_s: float = RENEW_S) -> None:
        self.engine = engine
        self.table = table
        self.row_id = row_id
        self.me = me or this_runner()
        self.lease_s = lease_s
        self.renew_s = renew_s
        self.lost = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._renew, name="lease", daemon=True)

    def refusal(self, runner: str, alive_s_ago: float) -> str:
        """The one sentence that refuses this run because `runner` holds the row."""
        raise NotImplementedError

    def lost_sentence(self) -> str:
        """The one sentence that stops this run because another runner took the row over."""
        raise NotImplementedError

    def check(self) -> None:
        """Raise ConfigError (lost_sentence) once another runner has taken the row over."""
        if self.lost.is_set():
            raise ConfigError(self.lost_sentence())

    def __enter__(self) -> Self:
        held = claim(self.engine, self.table, self.row_id, self.me, time.time(), self.lease_s, runner_gone)
        if held is not None:
            runner, beat = held
            raise ConfigError(self.refusal(runner, max(0.0, time.time() - beat)))
        self._thread.start()
        return self

    def _renew(self) -> None:
        while not self._done.wait(self.renew_s):
            if not renew(self.engine, self.table, self.row_id, self.me, time.time()):
                self.lost.set()
                return

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._done.set()
        self._thread.join()
        release(self.engine, self.table, self.row_id, self.me)
