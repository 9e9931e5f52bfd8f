"""Real stored tournaments (in-process, SQLite) for the export tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tourney.engine.core import get_game
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store

ADMIN = "Vq7-hN2xLp9cRt4wZs8k"  # passes check_admin_token


@dataclass
class Stored:
    path: Path
    by_game: dict[str, int]  # game -> tournament id


@pytest.fixture(scope="session")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    path = tmp_path_factory.mktemp("export") / "store.db"
    engine = open_store(str(path))
    by_game = {}
    # A fixed seed key: every run stores the same matches. Three entrants in a Swiss: one bye a round.
    for game, players, fmt in (("tiny-ninjas", 2, "swiss"), ("ninja-versus-ninja", 2, "round-robin"),
                               ("maitre-ninja", 3, "round-robin")):
        plan = TournamentPlan(game=game, entrants=parse_entrants("greedy,random,random@r2", get_game(game)), seed=3,
                              games_per_pair=2, players=players, config={}, move_ms=None, name=f"export {game}",
                              seed_key="export-tests-key", format=fmt, rounds=2 if fmt == "swiss" else None)
        by_game[game] = run_tournament(engine, plan).tournament_id
    engine.dispose()
    return Stored(path, by_game)
