"""The ladder on PostgreSQL: the same loop, resume and lease as on SQLite, on a real server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ladder.checks import assert_consistent, rows
from tourney.tournament.ladder.loop import run_ladder
from tourney.tournament.ladder.members import add_bot, ladder_doc
from tourney.tournament.ladder.plan import LadderPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.ladder_rows import ScheduledMatch, ladder_of, store_scheduled
from tourney.workers import LocalExecutor


@pytest.mark.timeout(300)
def test_a_ladder_on_postgres_resumes_what_was_left_in_flight(postgres_url: str) -> Any:
    engine = open_store(postgres_url)
    for spec in ("greedy", "random", "random@r2", "greedy@g2"):
        add_bot(engine, "sticks", spec)
    run_ladder(engine, "sticks", LocalExecutor(), matches=20)
    found = ladder_of(engine, "sticks", create=False)
    assert found is not None
    # A run that stopped after storing a wave as scheduled, before any result: left in flight.
    seed = LadderPlan(game="sticks", seed_key=found[1]).seed_of(20)
    store_scheduled(engine, found[0], [ScheduledMatch(20, seed, ("greedy", "r2"))])
    report = run_ladder(engine, "sticks", LocalExecutor(), matches=10)
    assert report.played == 10 and report.replayed == 1
    left = rows(engine, "select status, seats_json from laddermatch where number = 20")
    assert left[0].status == "done"
    doc = ladder_doc(engine, "sticks", specs=True)
    assert doc.done == 30 and doc.scheduled == 0
    assert_consistent(engine)
