"""One `ladder run` per game at a time: a lease on the ladder row, renewed while the loop runs.

Two loops on one ladder would each schedule the same idle bots and rate from their own copy of
the ratings. A run claims the ladder as "host:pid" and a thread renews the claim every RENEW_S;
another run is refused while the claim is fresh. A run that died is taken over at once when it ran
on this machine (its pid is gone: the `kill -9` then restart case), else once its lease of LEASE_S
has run out. A run that loses its claim (it stalled past the lease and was taken over) stops.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from types import TracebackType

from sqlalchemy.engine import Engine

from tourney.engine.core import ConfigError
from tourney.tournament.store.ladder_rows import claim_ladder, release_ladder, renew_ladder

LEASE_S = 60.0  # a claim not renewed for this long is free: far above RENEW_S, so a busy machine keeps it
RENEW_S = 5.0


def this_runner() -> str:
    """This process as a ladder runner: host:pid."""
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


class LadderLease:
    """`with LadderLease(engine, ladder_id, game):` holds the ladder for this run; `.lost` is set if taken over."""

    def __init__(self, engine: Engine, ladder_id: int, game: str, me: str | None = None,
                 lease_s: float = LEASE_S, renew_s: float = RENEW_S) -> None:
        self.engine = engine
        self.ladder_id = ladder_id
        self.game = game
        self.me = me or this_runner()
        self.lease_s = lease_s
        self.renew_s = renew_s
        self.lost = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._renew, name="ladder-lease", daemon=True)

    def __enter__(self) -> LadderLease:
        held = claim_ladder(self.engine, self.ladder_id, self.me, time.time(), self.lease_s, runner_gone)
        if held is not None:
            runner, beat = held
            raise ConfigError(f"another `tourney ladder run` ({runner}, alive {time.time() - beat:.0f} s ago) is "
                              f"playing the {self.game} ladder: stop it first, or wait {self.lease_s:g} s if it "
                              "died on another machine.")
        self._thread.start()
        return self

    def _renew(self) -> None:
        while not self._done.wait(self.renew_s):
            if not renew_ladder(self.engine, self.ladder_id, self.me, time.time()):
                self.lost.set()
                return

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._done.set()
        self._thread.join()
        release_ladder(self.engine, self.ladder_id, self.me)
