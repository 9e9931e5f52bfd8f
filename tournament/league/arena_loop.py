"""`tourney serve --leagues`: the arena plays the due league rounds itself, where remote bots are connected.

Each round's matches are played by workers/league_arena.py's ArenaExecutor on this arena and stored in
their division's tournament (the arena's own store, `serve --db`, is skipped for them: one row per match).
"""

from __future__ import annotations

import asyncio
import logging
import threading

from tourney.engine.server import Arena
from tourney.tournament.hosted.seat import hosted_starter
from tourney.tournament.league.rounds import RoundHook, RoundReport, run_due
from tourney.tournament.league.schedule import DEFAULT_CATCH_UP, DEFAULT_LEASE_S, Clock, utc_now
from tourney.tournament.store.database import open_store, url_of
from tourney.workers.league_arena import ArenaExecutor

log = logging.getLogger("tourney.league")


class LeagueLoop:
    """`tourney serve --leagues`: a thread that plays due league rounds on this arena every `interval_s`.

    The arena is the one scheduler of a deployment: remote bots connect here. Each slot it
    handles is reported to `on_round` (by default a log line); stop() ends the round in play
    and gives its claim back.
    """

    def __init__(self, arena: Arena, loop: asyncio.AbstractEventLoop, db: str, interval_s: float = 30.0,
                 clock: Clock = utc_now, address: str | None = None, lease_s: float = DEFAULT_LEASE_S,
                 catch_up: int | None = DEFAULT_CATCH_UP, on_round: RoundHook | None = None) -> None:
        self.engine = open_store(db)
        self.clock = clock
        self._stop = threading.Event()
        # Hosted members' bundles come from the league's own store, where they were submitted.
        self.executor = ArenaExecutor(arena, loop, address=address, stop=self._stop,
                                      hosted=hosted_starter(url_of(self.engine)))
        self.interval_s = interval_s
        self.lease_s = lease_s
        self.catch_up = catch_up
        self.on_round = on_round or _log_round
        self._thread = threading.Thread(target=self._run, name="leagues", daemon=True)

    def start(self) -> LeagueLoop:
        self._thread.start()
        return self

    def tick(self) -> int:
        """Play what is due now; returns the number of slots handled."""
        # Not metered here: the arena counts these matches live, like any other it plays.
        rounds = run_due(self.engine, clock=self.clock, executor=self.executor, presence=self.executor.online,
                         lease_s=self.lease_s, catch_up=self.catch_up, on_round=self.on_round, stop=self._stop)
        return len(rounds)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.tick()
            except Exception:  # a league's trouble must not stop the arena
                log.exception("a league round failed; trying again at the next tick")
            self._stop.wait(self.interval_s)

    def stop(self, timeout_s: float = 30.0) -> None:
        self._stop.set()
        self._thread.join(timeout_s)


def _log_round(report: RoundReport) -> None:
    log.info("%s", report.line())
