"""`tourney standings/matches ID --json`, `tourney ladder standings --json` and the web API answer the same
stored tournament or ladder with the same documents (tournament/responses.py), field by field: one model, one
spelling."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tourney.engine.core import get_game
from tourney.tournament.cli import app
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.ladder.loop import run_ladder
from tourney.tournament.ladder.members import add_bot
from tourney.tournament.responses import LadderBotRow, LadderDoc, MatchSummary, SeatDoc, StandingRow
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app
from tourney.workers import LocalExecutor

runner = CliRunner()


def stored(path: Path, game: str, bots: str, **kw: Any) -> int:
    """A real tournament played in-process into the SQLite store at `path`; its id."""
    plan = TournamentPlan(game=game, entrants=parse_entrants(bots, get_game(game)), seed=3, games_per_pair=2,
                          seed_key="agree-key", **kw)
    return run_tournament(open_store(str(path)), plan).tournament_id


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    path = tmp_path_factory.mktemp("agree") / "t.db"
    ids = [stored(path, "tiny-ninjas", "greedy,random,random@r2", format="swiss", rounds=2),  # a bye each round
           stored(path, "maitre-ninja", "random,random@r2,random@r3", players=3)]  # pods: places, shared tiers
    return path, ids


def cli_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


@pytest.mark.parametrize("which", [0, 1])
def test_standings_are_one_document_from_the_cli_and_the_api(store: tuple[Path, list[int]], which: int) -> None:
    path, ids = store
    tid = ids[which]
    cli = cli_json("standings", str(tid), "--db", str(path), "--json")
    api = TestClient(create_app(open_store(str(path)))).get(f"/api/tournaments/{tid}/standings")
    assert api.status_code == 200
    web = api.json()
    assert set(cli) == set(web) == {"tournament_id", "game", "format", "standings"}
    assert (cli["tournament_id"], cli["game"], cli["format"]) == (web["tournament_id"], web["game"], web["format"])
    assert len(cli["standings"]) == len(web["standings"]) == 3
    for mine, theirs in zip(cli["standings"], web["standings"], strict=True):
        assert set(mine) == set(theirs) == set(StandingRow.model_fields)
        for field in StandingRow.model_fields:
            assert mine[field] == theirs[field], field
    # the tournament page's own standings are the same rows
    page = TestClient(create_app(open_store(str(path)))).get(f"/api/tournaments/{tid}").json()
    assert page["standings"] == cli["standings"]
    if which == 0:
        assert sum(row["byes"] for row in cli["standings"]) == 2  # the Swiss rounds' byes are counted


@pytest.mark.parametrize("which", [0, 1])
def test_match_lists_are_one_model_from_the_cli_and_the_api(store: tuple[Path, list[int]], which: int) -> None:
    path, ids = store
    tid = ids[which]
    cli = cli_json("matches", str(tid), "--db", str(path), "--json")
    web = TestClient(create_app(open_store(str(path)))).get(f"/api/tournaments/{tid}/matches").json()
    assert cli["tournament_id"] == web["tournament_id"] == tid
    assert cli["total"] == web["total"] == len(cli["matches"]) == len(web["matches"]) > 0
    for mine, theirs in zip(cli["matches"], web["matches"], strict=True):
        assert set(mine) == set(theirs) == set(MatchSummary.model_fields)
        for field in MatchSummary.model_fields:
            if field != "seats":
                assert mine[field] == theirs[field], field
        for a, b in zip(mine["seats"], theirs["seats"], strict=True):
            assert set(a) == set(b) == set(SeatDoc.model_fields)
            assert a == b
    assert "seed" not in json.dumps(cli["matches"])  # the organiser's seeds stay out of both


def test_an_unknown_tournament_is_one_sentence_in_both(store: tuple[Path, list[int]]) -> None:
    path, _ = store
    result = runner.invoke(app, ["standings", "999", "--db", str(path), "--json"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    api = TestClient(create_app(open_store(str(path)))).get("/api/tournaments/999/standings")
    assert api.status_code == 404


def test_a_match_page_and_a_played_match_show_seats_as_the_lists_do(store: tuple[Path, list[int]]) -> None:
    path, ids = store
    client = TestClient(create_app(open_store(str(path))))
    listed = client.get(f"/api/tournaments/{ids[1]}/matches").json()["matches"][0]
    head = client.get(f"/api/matches/{listed['id']}").json()
    assert head["seats"] == listed["seats"]  # the same SeatDoc: place, tier size and clock included
    assert [s["tier_size"] for s in head["seats"]] == [[t["tier"] for t in head["seats"]].count(s["tier"])
                                                        for s in head["seats"]]
    played = cli_json("match", "--game", "maitre-ninja", "--players", "3", "--bots", "random,random@b,random@c",
                      "--seed", "4", "--json")
    assert all(set(s) == set(SeatDoc.model_fields) for s in played["seats"])
    assert [s["bot"] for s in played["seats"]] == ["random", "b", "c"]
    ranked = {seat: tier for tier, seats in enumerate(played["ranking"]) for seat in seats}
    assert [s["tier"] for s in played["seats"]] == [ranked[i] for i in range(3)]


def test_a_ladder_is_one_document_from_the_cli_and_the_api(tmp_path: Path) -> None:
    path = tmp_path / "ladder.db"
    engine = open_store(str(path))
    for spec in ("greedy", "random", "random@r2"):
        add_bot(engine, "tiny-ninjas", spec)
    run_ladder(engine, "tiny-ninjas", LocalExecutor(), matches=6)
    cli = cli_json("ladder", "standings", "--game", "tiny-ninjas", "--db", str(path), "--json")
    web = TestClient(create_app(open_store(str(path)))).get("/api/ladders/tiny-ninjas").json()
    assert set(cli) == set(web) == set(LadderDoc.model_fields)
    assert (cli["done"], cli["scheduled"]) == (web["done"], web["scheduled"]) == (6, 0)
    assert cli["matches"] == web["matches"] and len(cli["matches"]) == 6
    assert all(set(seat) == {"bot", "tier"} for m in cli["matches"] for seat in m["seats"])
    # the organiser's document adds each bot's spec; the public one is the same rows without it
    assert [set(b) for b in cli["bots"]] == [set(LadderBotRow.model_fields)] * 3
    assert [{k: v for k, v in b.items() if k != "spec"} for b in cli["bots"]] == web["bots"]
    assert {b["bot"]: b["spec"] for b in cli["bots"]} == {"greedy": "greedy", "random": "random", "r2": "random"}
    assert [b["rank"] for b in web["bots"]] == [1, 2, 3]
