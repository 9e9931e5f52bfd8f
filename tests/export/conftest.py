"""Real stored tournaments (in-process, SQLite) for the export tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tourney.engine.bots import make_bot
from tourney.engine.core import get_game
from tourney.engine.referee import play_match
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.records import match_record
from tourney.tournament.store.writes import create_tournament, record_matches

ADMIN = "Vq7-hN2xLp9cRt4wZs8k"  # passes check_admin_token
LONG_SEED = 2  # greedy against greedy: 244 plies, 4.2 MB of whole frames, under 0.1 MB of changes


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


def match_copies(path: Path, copies: int, bot: str = "greedy", seed: int = LONG_SEED) -> int:
    """A stored tournament (its id) of one Tiny Ninjas match of `bot` against itself, stored again under `copies`
    numbers: an export of many lines without playing them all. By default the long match (some 0.1 MB a line)."""
    engine = open_store(str(path))
    game = get_game("tiny-ninjas")
    plan = TournamentPlan(game="tiny-ninjas", entrants=parse_entrants(f"{bot},{bot}@b", game), name="copies",
                          seed_key="copies-key")
    tournament = create_tournament(engine, plan)
    result = play_match("tiny-ninjas", [make_bot(bot, game, 1), make_bot(bot, game, 2)], seed)
    record = match_record([bot, "b"], result)
    record_matches(engine, tournament, plan, [(Pairing(n, 0, (0, 1), n), record, 0.1) for n in range(copies)])
    engine.dispose()
    return tournament
