"""The same pages on PostgreSQL (`tourney web --db postgresql://...`): every query runs there too."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.tournament.conftest import postgres_url  # noqa: F401  (the session's PostgreSQL cluster)
from tourney.engine.core import get_game
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import load_standings, stored_matches
from tourney.web.app import create_app


def test_every_page_on_postgres(postgres_url: str) -> None:  # noqa: F811
    engine = open_store(postgres_url)
    plan = TournamentPlan(game="ninja-versus-ninja", entrants=parse_entrants("greedy,random,random@r2",
                                                                             get_game("ninja-versus-ninja")),
                          seed=5, games_per_pair=2, name="on postgres")
    tid = run_tournament(engine, plan).tournament_id
    client = TestClient(create_app(engine, admin_token="org"))
    home = client.get("/api/tournaments").json()
    assert tid in {t["id"] for t in home["tournaments"]}
    doc = client.get(f"/api/tournaments/{tid}").json()
    expected = load_standings(engine, tid, ["greedy", "random", "r2"])
    assert [s["bot"] for s in doc["standings"]] == [s.alias for s in expected]
    filtered = client.get(f"/api/tournaments/{tid}/matches", params={"bot": "greedy", "seat": 0}).json()
    assert filtered["total"] > 0 and all(m["seats"][0]["bot"] == "greedy" for m in filtered["matches"])
    match, _ = stored_matches(engine, tid)[0]
    assert len(client.get(f"/api/matches/{match.id}/frames").json()["frames"]) > 1
    assert client.get(f"/api/matches/{match.id}/full", headers={"X-Admin-Token": "org"}).status_code == 200
    greedy = client.get("/api/bots/greedy").json()
    assert {o["opponent"] for o in greedy["by_opponent"]} == {"random"}  # r2 is the random bot too
    assert sum(g["games"] for g in greedy["by_game"]) == 4  # two opponents, two games each
    for url in ("/", f"/tournaments/{tid}", f"/matches/{match.id}", "/bots/greedy", "/live"):
        assert client.get(url).status_code == 200
    assert client.get("/tournaments/999999").status_code == 404
