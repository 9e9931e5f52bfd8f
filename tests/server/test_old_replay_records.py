"""A finished match whose replay the game can no longer play move for move (a Maître Ninja replay of
the whole-row form) gets a public GetMatch record that says so in one sentence, with its result
intact; the web app's replay API says the same."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.maitre_ninja.old_replays import old_form
from tests.server.harness import ArenaHarness
from tourney.engine.core import get_game
from tourney.engine.public_replay import frames_of
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.codec import pack_replay, unpack_replay
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app

SENTENCE = "cannot be played again move for move; its stored result is unchanged."


@pytest.fixture
def organised() -> Iterator[ArenaHarness]:
    arena = ArenaHarness(ArenaConfig(allow_anonymous=True, admin_token="organiser"))
    try:
        yield arena
    finally:
        arena.close()


def test_get_match_of_an_old_form_replay_says_so_and_keeps_the_result(organised: ArenaHarness) -> None:
    harness = organised
    record = harness.run_match("maitre-ninja", ["random", "random", "random", "random"], seed=5,
                               admin_token="organiser")
    assert record.termination in ("normal", "adjudication"), record.reason
    kept = harness.arena._finished[record.match_id]
    assert kept.record is not None
    kept.record.replay_json = json.dumps(old_form(json.loads(kept.record.replay_json)))

    public: pb.MatchRecord = harness.stub.GetMatch(pb.GetMatchRequest(match_id=record.match_id), timeout=30)
    doc = json.loads(public.replay_json)
    assert frames_of(doc) == [] and doc["unavailable"].endswith(SENTENCE)
    assert list(public.ranks) == list(record.ranks) and list(public.scores) == list(record.scores)
    assert public.termination == record.termination and public.seed == 0 and not public.full_replay
    # The organiser still gets the stored replay as it is.
    full = harness.stub.GetMatch(pb.GetMatchRequest(match_id=record.match_id, admin_token="organiser"), timeout=30)
    assert full.full_replay and full.replay_json == kept.record.replay_json


def test_the_web_replay_api_of_an_old_form_replay_says_so(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    engine = open_store(str(path))
    plan = TournamentPlan(game="maitre-ninja", entrants=parse_entrants("random,random@b,random@c",
                                                                       get_game("maitre-ninja")),
                          seed=7, games_per_pair=1, players=3, config={}, move_ms=None, name="old replays")
    run_tournament(engine, plan)
    with sqlite3.connect(path) as conn:
        match_id, text = conn.execute("SELECT id, replay_json FROM match ORDER BY id LIMIT 1").fetchone()
        conn.execute("UPDATE match SET replay_json = ? WHERE id = ?",
                     (pack_replay(old_form(unpack_replay(text))), match_id))
    client = TestClient(create_app(engine, admin_token="organiser"))
    for url, headers in ((f"/api/matches/{match_id}/frames", {}),
                         (f"/api/matches/{match_id}/full", {"X-Admin-Token": "organiser"})):
        answer = client.get(url, headers=headers)
        assert answer.status_code == 200, answer.text
        assert answer.json()["frames"] == [] and answer.json()["unavailable"].endswith(SENTENCE)
    page = client.get(f"/matches/{match_id}")
    assert page.status_code == 200 and "Traceback" not in page.text
