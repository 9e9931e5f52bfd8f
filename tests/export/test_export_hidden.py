"""The public export hides what a spectator may not see: two stored worlds that differ only in a card nobody
but its owner ever sees export to the same bytes, on the command line and through the web app.

The worlds are the ones tests/security/test_public_records.py plays on the arena: a Maître Ninja attacker at
rank 2 lays Fi then As in one world, Fi then Sh in the other; the defender cannot parry Fi, so the fight
ends before the second card is flipped (spec A8: never revealed).
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from typer.testing import CliRunner

from tests.export.conftest import ADMIN
from tests.web.browser import served
from tourney.engine.core import DecisionRequest, get_game
from tourney.engine.public_replay import frames_of
from tourney.engine.referee import play_match
from tourney.tournament.cli import app
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.records import match_record
from tourney.tournament.store.writes import create_tournament, record_matches
from tourney.web.app import create_app

SEED = 77
CONFIG = {"first_player": 0, "fight_cap": 3}
SECOND_CARD = {"a": "Fi As", "b": "Fi Sh"}  # the attacker's rank-2 line in each world


class Scripted:
    """Lays this world's line when offered, else the first action without a BL parry (Fi stays unparried)."""

    def __init__(self, line: str | None) -> None:
        self.line = line

    def act(self, request: DecisionRequest) -> int:
        labels = [a.label for a in request.legal]
        if self.line in labels:
            return labels.index(self.line)
        return next(i for i, label in enumerate(labels) if "BL" not in label)


def store_world(path: Path, world: str) -> None:
    """A store holding one tournament of one match: this world's."""
    engine = open_store(str(path))
    plan = TournamentPlan(game="maitre-ninja", entrants=parse_entrants("random@attacker,random@defender",
                                                                       get_game("maitre-ninja")),
                          config=CONFIG, name="two worlds", seed_key="two-worlds-key")
    tournament = create_tournament(engine, plan)
    result = play_match("maitre-ninja", [Scripted(SECOND_CARD[world]), Scripted(None)], SEED, CONFIG)
    record = match_record(["attacker", "defender"], result)
    record_matches(engine, tournament, plan, [(Pairing(0, 0, (0, 1), 0), record, 0.25)])
    engine.dispose()


def cli_export(path: Path, *extra: str) -> str:
    result = CliRunner().invoke(app, ["export", "1", "--db", str(path), *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_two_worlds_differing_in_an_unflipped_card_export_the_same_public_bytes(tmp_path: Path) -> None:
    worlds = {w: tmp_path / f"{w}.db" for w in SECOND_CARD}
    for world, path in worlds.items():
        store_world(path, world)
    full = {w: cli_export(p, "--full", "--admin-token", ADMIN) for w, p in worlds.items()}
    public = {w: cli_export(p) for w, p in worlds.items()}
    # The worlds really differ: the organiser's records hold different decisions ...
    assert json.loads(full["a"])["replay"]["steps"] != json.loads(full["b"])["replay"]["steps"]
    # ... and that card was never flipped: in public the two exports are the same bytes.
    assert public["a"] == public["b"]
    record = json.loads(public["a"])
    assert frames_of(record)[-1]["history"][-1]["face_down"] == 1  # the hidden card, counted but not named
    assert "As" not in public["a"] and "Sh" not in public["a"]
    # The web download is the same public bytes in both worlds; a wrong token gets no full export.
    for world, path in worlds.items():
        engine = open_store(str(path))
        with served(create_app(engine, admin_token=ADMIN)) as base:
            url = f"{base}/api/tournaments/1/export.jsonl"
            assert httpx.get(url, timeout=30).text == public["a"]
            assert httpx.get(url, params={"full": "true"}, headers={"X-Admin-Token": "guess"}, timeout=30
                             ).status_code == 403
            organiser = httpx.get(url, params={"full": "true"}, headers={"X-Admin-Token": ADMIN}, timeout=30)
            assert organiser.text == full[world]
        engine.dispose()
