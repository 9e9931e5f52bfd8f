"""One driver per tournament: the tournament row's lease (tournament/lease.py), in a tournament's words.

Two drivers of one tournament would each play all of its remaining matches (stored once, as results are
keyed, but played twice) and race on its status. `run`, `resume` and a league's rounds hold the lease while
they play; `resume` refuses a tournament another live process holds, and with no id picks the latest one
nobody holds. A league's division is its league's alone, between rounds too: a resume would play the rest of
its season at once, off the schedule, with no forfeits for absent bots and no carried ratings.
"""

from __future__ import annotations

import time

from sqlalchemy import select
from sqlalchemy.engine import Engine

from tourney.engine.core import ConfigError
from tourney.tournament.lease import LEASE_S, RENEW_S, Lease, runner_gone
from tourney.tournament.store.database import StoreError
from tourney.tournament.store.lease_rows import held
from tourney.tournament.store.reads import league_division, unfinished_runners
from tourney.tournament.store.retry import guard
from tourney.tournament.store.tables import TOURNAMENTS


class TournamentLease(Lease):
    """`with TournamentLease(engine, tournament_id):` holds the tournament while it is played."""

    def __init__(self, engine: Engine, tournament_id: int, me: str | None = None,
                 lease_s: float = LEASE_S, renew_s: float = RENEW_S) -> None:
        super().__init__(engine, TOURNAMENTS, tournament_id, me, lease_s, renew_s)

    def refusal(self, runner: str, alive_s_ago: float) -> str:
        """Another live process plays this tournament."""
        return refusal(self.row_id, runner, alive_s_ago, self.lease_s)

    def lost_sentence(self) -> str:
        """This driver stalled and another took the tournament over."""
        return (f"another tourney process took tournament {self.row_id} over while this one stalled: the matches "
                "this one finished are stored; this run stops.")


def refusal(tournament_id: int, runner: str, alive_s_ago: float, lease_s: float = LEASE_S) -> str:
    """The sentence that refuses to play a tournament `runner` plays."""
    return (f"tournament {tournament_id} is being played by another tourney process ({runner}, alive "
            f"{alive_s_ago:.0f} s ago): let it finish or stop it first; a run that died on another machine can be "
            f"resumed after {lease_s:g} s.")


def refuse_if_held(engine: Engine, tournament_id: int) -> None:
    """ConfigError (one sentence) when another live process holds the tournament: said before a resume starts
    its workers; the claim itself (TournamentLease) is what settles two resumes at once."""
    def read() -> tuple[str, float]:
        with engine.connect() as conn:
            row = conn.execute(select(TOURNAMENTS.c.runner, TOURNAMENTS.c.heartbeat_ts)
                               .where(TOURNAMENTS.c.id == tournament_id)).one()
        return str(row.runner), float(row.heartbeat_ts)
    runner, beat = guard(read)
    now = time.time()
    if held(runner, beat, "", now, LEASE_S, runner_gone):
        raise ConfigError(refusal(tournament_id, runner, max(0.0, now - beat)))


def refuse_if_league_division(engine: Engine, tournament_id: int) -> None:
    """ConfigError (one sentence) when the tournament holds a league's division: its league plays it."""
    held_by = league_division(engine, tournament_id)
    if held_by is not None:
        league, season, division = held_by
        raise ConfigError(f"tournament {tournament_id} is division {division} of season {season} of league "
                          f"'{league}': the league plays its rounds when they are due (`tourney league run-due`), "
                          "so it is not resumed on its own.")


def latest_free(engine: Engine) -> int:
    """The most recent unfinished tournament no live process holds (what `resume` with no id plays)."""
    unfinished = unfinished_runners(engine)
    if not unfinished:
        raise StoreError("there is no unfinished tournament to resume in this database (a league's divisions are "
                         "played by `tourney league run-due`): check --db.")
    now = time.time()
    for tournament_id, runner, beat in unfinished:
        if not held(runner, beat, "", now, LEASE_S, runner_gone):
            return tournament_id
    playing = ", ".join(f"{tid} by {runner}" for tid, runner, _ in unfinished)
    raise ConfigError(f"every unfinished tournament in this database is being played by another tourney process "
                      f"(tournament {playing}): let them finish or stop them first; one whose run died on another "
                      f"machine can be resumed after {LEASE_S:g} s.")
