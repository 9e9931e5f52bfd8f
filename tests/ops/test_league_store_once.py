"""An arena that stores its matches (`serve --db`) and plays league rounds stores each league match once:
in the league's tournament, not again as a standalone arena match. Its other matches are still stored."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlmodel import Session, select

from tests.ops.test_league import START, FakeClock
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.local import LocalArena
from tourney.tournament.cli.serve import store_writer
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match
from tourney.workers.league_arena import ArenaExecutor


def test_league_matches_are_stored_once_by_an_arena_with_a_database(tmp_path) -> None:
    db = str(tmp_path / "arena.db")
    engine = open_store(db)
    create_league(engine, LeagueSettings(name="once", game="sticks", format="round-robin", schedule="0 20 * * *",
                                         games_per_pair=2), now=START)
    for alias in ("a", "b", "c", "d"):
        join_league(engine, "once", "random", alias=alias, now=START)
    with LocalArena(ArenaConfig(allow_anonymous=True)) as local:
        local.arena.on_result = store_writer(db)  # what `tourney serve --db` sets
        executor = ArenaExecutor(local.arena, local._loop, address=local.address)
        (report,) = run_due(engine, clock=FakeClock(START + timedelta(hours=21)), executor=executor,
                            presence=executor.online)
        # An ordinary RunMatch on the same arena is still stored by the arena.
        asyncio.run_coroutine_threadsafe(local.arena.run_match("sticks", ["random", "greedy"], 7),
                                         local._loop).result(60)
    assert report.matches == 4
    with Session(engine) as session:
        league_rows = session.exec(select(Match).where(Match.tournament_id != None)).all()  # noqa: E711
        standalone = session.exec(select(Match).where(Match.tournament_id == None)).all()  # noqa: E711
    assert len([m for m in league_rows if m.players == 2]) == 4
    assert len(standalone) == 1 and standalone[0].seed == 7
