"""A real SQLite store filled by real (small, fast) tournaments of every game and a league, shared by the web tests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from tourney.engine.core import get_game
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store

HOSTILE = '<script>alert("x")</script>'
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "web"
START = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class Filled:
    engine: Engine
    path: Path
    by_game: dict[str, int]  # game -> tournament id
    sprt: int
    league: int


def _plan(game: str, bots: str, players: int = 2, **kw: object) -> TournamentPlan:
    # A fixed seed key: every run stores the same matches, so a failure can be replayed.
    return TournamentPlan(game=game, entrants=parse_entrants(bots, get_game(game)), seed=7, games_per_pair=2,
                          players=players, config={}, move_ms=None, name=f"web {game}", seed_key="web-tests-key",
                          **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Filled:
    path = tmp_path_factory.mktemp("web") / "store.db"
    engine = open_store(str(path))
    by_game = {}
    tiny = _plan("tiny-ninjas", f"greedy,random,random@{HOSTILE}")
    by_game["tiny-ninjas"] = run_tournament(engine, tiny).tournament_id
    by_game["ninja-versus-ninja"] = run_tournament(engine, _plan("ninja-versus-ninja", "greedy,random")).tournament_id
    by_game["maitre-ninja"] = run_tournament(engine, _plan("maitre-ninja", "random,random@r2,random@r3",
                                                           players=3)).tournament_id
    by_game["ninja-arena"] = run_tournament(engine, _plan("ninja-arena", "random,random@r2,random@r3",
                                                          players=3)).tournament_id
    sprt = run_tournament(engine, _plan("tiny-ninjas", "greedy,random", format="gauntlet", rounds=2,
                                        sprt=(0.0, 200.0, 0.05, 0.05))).tournament_id
    create_league(engine, LeagueSettings(name="web league", game="tiny-ninjas", format="round-robin",
                                         schedule="0 20 * * *", divisions=2, promote=1, games_per_pair=2), now=START)
    for alias, spec in (("r1", "random"), ("r2", "random"), ("g1", "greedy"), ("g2", "greedy")):
        join_league(engine, "web league", spec, alias=alias, now=START)
    for day in range(3):  # three daily ticks: three one-round seasons, with promotions between them
        when = START + timedelta(days=day, hours=20)
        run_due(engine, "web league", clock=lambda when=when: when)
    return Filled(engine, path, by_game, sprt, 1)
