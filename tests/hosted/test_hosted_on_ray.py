"""Hosted bots on real Ray workers: each worker reads the bundle from the store and runs it sandboxed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.hosted.bundles import GAME, submit
from tourney.engine.core import Termination
from tourney.tournament.entrants import Entrant
from tourney.tournament.hosted.pinning import pin_entrants
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import stored_matches
from tourney.workers import RayExecutor

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]


def test_a_tournament_with_hosted_bots_plays_on_ray_workers(ray_session: object, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    engine = open_store(url)
    submit(engine, tmp_path / "bundles", "good")
    entrants = pin_entrants(engine, [Entrant("good", "hosted:good"), Entrant("random", "random")])
    assert entrants[0].spec == "hosted:good:version=1"
    plan = TournamentPlan(game=GAME, entrants=entrants, seed=3, games_per_pair=4, store=url)
    report = run_tournament(engine, plan, executor=RayExecutor(workers=2))
    matches = stored_matches(engine, report.tournament_id)
    assert report.matches == len(matches) == 4
    assert {m.termination for m, _ in matches} <= {Termination.NORMAL, Termination.ADJUDICATION}
