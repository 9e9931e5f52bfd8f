"""Pages and JSON API against a real store filled by real tournaments of every game."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, func, select

from tests.web.conftest import HOSTILE, Filled
from tourney.engine.public_replay import public_frames
from tourney.engine.referee import Replay
from tourney.tournament.runner import load_plan
from tourney.tournament.store.codec import unpack_replay
from tourney.tournament.store.reads import load_standings, stored_matches
from tourney.tournament.store.tables import Match, MatchSeat
from tourney.web.app import create_app

TOKEN = "organiser-secret"


@pytest.fixture(scope="module")
def client(filled: Filled) -> TestClient:
    return TestClient(create_app(filled.engine, admin_token=TOKEN))


def test_home_lists_every_tournament_with_progress_and_the_league(client: TestClient, filled: Filled) -> None:
    doc = client.get("/api/tournaments").json()
    ids = {t["id"] for t in doc["tournaments"]}
    assert set(filled.by_game.values()) | {filled.sprt} <= ids
    for t in doc["tournaments"]:
        assert t["status"] == "finished" and t["played"] == t["expected"] > 0
    assert [lg["name"] for lg in doc["leagues"]] == ["web league"]
    html = client.get("/").text
    assert "web ninja-arena" in html and "web league" in html


@pytest.mark.parametrize("game", ["tiny-ninjas", "ninja-versus-ninja", "maitre-ninja", "ninja-arena"])
def test_tournament_standings_are_tournaments_own(client: TestClient, filled: Filled, game: str) -> None:
    tid = filled.by_game[game]
    doc = client.get(f"/api/tournaments/{tid}").json()
    _, plan = load_plan(filled.engine, tid)
    expected = load_standings(filled.engine, tid, [e.alias for e in plan.entrants])
    assert [s["bot"] for s in doc["standings"]] == [s.alias for s in expected]
    for got, want in zip(doc["standings"], expected, strict=True):
        assert (got["points"], got["wins"], got["losses"]) == (want.points, want.wins, want.losses)
        assert got["rating"] == pytest.approx(want.rating, abs=0.05)  # Elo to 0.1, as the CLI prints it
        # An open bound (a 0% or 100% score) is null; a finite one brackets the estimate.
        assert (got["rating_low"] is None) == (want.low == float("-inf"))
        assert (got["rating_high"] is None) == (want.high == float("inf"))
        assert got["rating_low"] is None or got["rating_low"] <= got["rating"]
        assert got["rating_high"] is None or got["rating"] <= got["rating_high"]
        assert got["mu"] == pytest.approx(want.mu, abs=5e-4) and got["sigma"] == pytest.approx(want.sigma, abs=5e-4)
    stored = stored_matches(filled.engine, tid)
    assert doc["game"] == game and doc["played"] == len(stored)
    assert sum(doc["terminations"].values()) == doc["played"]
    # Counted again from the stored seats alone, not through the function the page uses.
    points: dict[str, float] = {}
    for _, seats in stored:
        for seat in seats:
            points[seat.alias] = points.get(seat.alias, 0.0) + seat.points
    assert {s["bot"]: s["points"] for s in doc["standings"]} == pytest.approx(points)


def test_crosstable_points_add_up_to_the_standings(client: TestClient, filled: Filled) -> None:
    doc = client.get(f"/api/tournaments/{filled.by_game['tiny-ninjas']}").json()
    ct = doc["crosstable"]
    for s in doc["standings"]:
        assert sum(ct["points"][s["bot"]].values()) == pytest.approx(s["points"])
        for other, p in ct["los"][s["bot"]].items():
            assert 0.0 <= p <= 1.0 and other in ct["order"]


def test_sprt_state_and_llr_curve(client: TestClient, filled: Filled) -> None:
    doc = client.get(f"/api/tournaments/{filled.sprt}").json()
    sp = doc["sprt"]
    assert sp["pairs"] == sum(sp["pentanomial"]) > 0 and sp["lower"] < 0 < sp["upper"]
    assert sp["curve"][-1]["llr"] == pytest.approx(sp["llr"]) and sp["curve"][-1]["matches"] == doc["played"]
    assert [c["matches"] for c in sp["curve"]] == sorted(c["matches"] for c in sp["curve"])
    assert 'id="llr-chart"' in client.get(f"/tournaments/{filled.sprt}").text
    assert client.get(f"/api/tournaments/{filled.by_game['tiny-ninjas']}").json()["sprt"] is None


def test_match_list_filters(client: TestClient, filled: Filled) -> None:
    tid = filled.by_game["tiny-ninjas"]
    every = client.get(f"/api/tournaments/{tid}/matches").json()
    assert every["total"] == len(every["matches"]) == len(stored_matches(filled.engine, tid))
    greedy = client.get(f"/api/tournaments/{tid}/matches", params={"bot": "greedy"}).json()
    assert 0 < greedy["total"] < every["total"]
    assert all(any(s["bot"] == "greedy" for s in m["seats"]) for m in greedy["matches"])
    seat1 = client.get(f"/api/tournaments/{tid}/matches", params={"bot": "greedy", "seat": 1}).json()
    assert 0 < seat1["total"] < greedy["total"]
    assert all(m["seats"][1]["bot"] == "greedy" for m in seat1["matches"])
    term = every["matches"][0]["termination"]
    by_term = client.get(f"/api/tournaments/{tid}/matches", params={"termination": term}).json()
    assert by_term["total"] == sum(1 for m in every["matches"] if m["termination"] == term)
    none = client.get(f"/api/tournaments/{tid}/matches", params={"termination": "no-such-end"}).json()
    assert none["total"] == 0 and none["matches"] == []
    page = client.get(f"/tournaments/{tid}", params={"bot": "greedy", "seat": "1", "termination": ""})
    assert page.status_code == 200 and page.text.count('href="/matches/') == seat1["total"]


@pytest.mark.parametrize("game", ["tiny-ninjas", "ninja-versus-ninja", "maitre-ninja", "ninja-arena"])
def test_public_replay_is_exactly_the_public_frames(client: TestClient, filled: Filled, game: str) -> None:
    match, _seats = stored_matches(filled.engine, filled.by_game[game])[0]
    replay = Replay.from_dict(unpack_replay(match.replay_json))
    frames = client.get(f"/api/matches/{match.id}/frames").json()["frames"]
    assert frames == json.loads(json.dumps(public_frames(replay))) and len(frames) > 2
    head = client.get(f"/api/matches/{match.id}").json()
    text = json.dumps(head) + json.dumps(frames) + client.get(f"/matches/{match.id}").text
    assert "seed" not in head and "replay" not in text and str(match.seed) not in text
    assert not _keys(frames) & {"steps", "seed", "hand", "hands"} and not _keys(head) & {"steps", "seed"}


def _keys(value: object) -> set[str]:
    """Every dict key anywhere inside a JSON value."""
    if isinstance(value, dict):
        return set(value) | set().union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def test_full_replay_needs_the_admin_token(client: TestClient, filled: Filled) -> None:
    match, _ = stored_matches(filled.engine, filled.by_game["tiny-ninjas"])[0]
    assert client.get(f"/api/matches/{match.id}/full").status_code == 403
    assert client.get(f"/api/matches/{match.id}/full", headers={"X-Admin-Token": "guess"}).status_code == 403
    assert client.get(f"/matches/{match.id}", params={"token": "guess"}).status_code == 403
    full = client.get(f"/api/matches/{match.id}/full", headers={"X-Admin-Token": TOKEN}).json()["frames"]
    public = client.get(f"/api/matches/{match.id}/frames").json()["frames"]
    assert [f["public"] for f in full] == public
    assert all("hand" in seat for seat in full[0]["seats"])  # each seat's own cards: organiser-only
    assert "Organiser view" in client.get(f"/matches/{match.id}", params={"token": TOKEN}).text
    # Without a token configured, nobody gets the full replay.
    closed = TestClient(create_app(filled.engine))
    assert closed.get(f"/api/matches/{match.id}/full", headers={"X-Admin-Token": ""}).status_code == 403


def test_a_bot_named_script_is_shown_as_text(client: TestClient, filled: Filled) -> None:
    tid = filled.by_game["tiny-ninjas"]
    pages = [client.get(f"/tournaments/{tid}").text, client.get("/bots/random").text,
             client.get("/bots/" + HOSTILE.replace("/", "%2F")).text]
    match, _ = stored_matches(filled.engine, tid)[0]
    pages.append(client.get(f"/matches/{match.id}").text)
    assert any("&lt;script&gt;alert(" in p for p in pages[:2])
    for page in pages:
        assert "<script>alert(" not in page
    assert client.get(f"/api/tournaments/{tid}").json()["entrants"][2] == HOSTILE


def test_bot_page_history_and_results(client: TestClient, filled: Filled) -> None:
    doc = client.get("/api/bots/greedy").json()
    assert {r["tournament_id"] for r in doc["rating_history"]} >= {filled.by_game["tiny-ninjas"], filled.sprt}
    with Session(filled.engine) as session:
        seats = session.exec(select(func.count()).select_from(MatchSeat)
                             .join(Match, Match.id == MatchSeat.match_id)
                             .where(MatchSeat.alias == "greedy").where(Match.tournament_id != None)).one()  # noqa: E711
    by_game = {g["game"]: g for g in doc["by_game"]}
    assert sum(g["games"] for g in by_game.values()) >= seats > 0
    assert set(by_game) >= {"tiny-ninjas", "ninja-versus-ninja"}
    vs_random = [o for o in doc["by_opponent"] if o["opponent"] == "random" and o["game"] == "ninja-versus-ninja"]
    assert vs_random and vs_random[0]["wins"] + vs_random[0]["losses"] <= vs_random[0]["games"]
    assert 'id="rating-chart"' in client.get("/bots/greedy").text


def test_league_page(client: TestClient, filled: Filled) -> None:
    doc = client.get(f"/api/leagues/{filled.league}").json()
    assert doc["name"] == "web league" and doc["season"] == 2 and doc["seasons"] == [0, 1, 2]
    assert [d["division"] for d in doc["divisions"]] == [0, 1]
    assert sum(len(d["standings"]) for d in doc["divisions"]) == 4
    assert doc["next_due"].startswith("2026-01-04T20:00")
    # Two divisions of two, one promoted each season: one bot goes up, one comes down.
    assert sorted(m["move"] for m in doc["moves"]) == ["promoted", "relegated"]
    for m in doc["moves"]:
        now = next(d for d in doc["divisions"] if d["division"] == m["to"])
        assert m["bot"] in {s["bot"] for s in now["standings"]}
        assert (m["to"] < m["from"]) == (m["move"] == "promoted")
    first = client.get(f"/api/leagues/{filled.league}", params={"season": 0}).json()
    assert first["season"] == 0 and first["moves"] == []
    # The page numbers seasons, divisions and rounds for people, from 1 (the API keeps the stored numbers).
    html = client.get(f"/leagues/{filled.league}").text
    assert '<b id="season">3</b>' in html and "Division 1" in html and "Division 2" in html
    assert "Division 0" not in html and "division 0" not in html and ">season 1</a>" in html
    assert re.search(r"(promoted|relegated) from division [12] to [12]<", html)


@pytest.mark.parametrize("url", ["/tournaments/99999", "/matches/99999", "/bots/nobody", "/leagues/99",
                                 "/leagues/1?season=77", "/no/such/page", "/live/some-id",
                                 # ids no store holds: past 64 bits (the database's integers), zero, negative
                                 "/matches/" + "9" * 40, "/tournaments/" + "9" * 23, "/leagues/" + "9" * 30,
                                 "/matches/0", "/tournaments/-1", "/tournaments/abc"])
def test_unknown_ids_give_a_404_page(client: TestClient, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 404 and "404 not found" in r.text and "Traceback" not in r.text
    api = client.get("/api" + url)
    assert api.status_code == 404 and "detail" in api.json()


def test_bad_input_is_a_clear_4xx(client: TestClient, filled: Filled) -> None:
    assert client.get("/api/tournaments", params={"page": 0}).status_code == 422
    assert client.get(f"/api/tournaments/{filled.sprt}/matches", params={"bot": "x" * 5000}).status_code == 422
    assert client.get(f"/tournaments/{filled.sprt}", params={"page": "x"}).status_code == 422


@pytest.mark.parametrize("url,params", [("/api/tournaments/{sprt}/matches", {"bot": "Q" * 50_000}),
                                        ("/api/tournaments", {"page": "Q" * 50_000}),
                                        ("/tournaments/{sprt}", {"page": "Q" * 50_000})])
def test_bad_input_is_one_sentence_that_does_not_echo_what_was_sent(client: TestClient, filled: Filled, url: str,
                                                                     params: dict[str, str]) -> None:
    r = client.get(url.format(sprt=filled.sprt), params=params)
    assert r.status_code == 422 and "QQQQ" not in r.text and len(r.content) < 4000
    if url.startswith("/api/"):
        detail = r.json()["detail"]
        assert isinstance(detail, str) and detail.endswith(".") and next(iter(params)) in detail
    else:
        assert "422" in r.text and "Traceback" not in r.text


def test_nothing_writes(client: TestClient, filled: Filled) -> None:
    from fastapi.routing import APIRoute

    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, APIRoute) and route.path != "/api/hosted/{name}/versions":  # the author's upload
            assert route.methods <= {"GET", "HEAD"}, route.path
    before = filled.path.stat().st_mtime_ns, _count(filled)
    tid = filled.by_game["tiny-ninjas"]
    for url in ("/", f"/tournaments/{tid}", "/api/tournaments", f"/api/tournaments/{tid}/matches", "/api/bots/greedy"):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            assert client.request(method, url, headers={"X-Admin-Token": TOKEN}).status_code == 405
    assert _count(filled) == before[1]


def _count(filled: Filled) -> int:
    with Session(filled.engine) as session:
        return int(session.exec(select(func.count()).select_from(Match)).one())


def test_openapi_lists_every_api_page(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for p in ("/api/tournaments", "/api/tournaments/{tournament_id}", "/api/tournaments/{tournament_id}/matches",
              "/api/matches/{match_id}", "/api/matches/{match_id}/frames", "/api/bots/{name}",
              "/api/leagues/{league_id}", "/api/live"):
        assert p in paths


def test_a_running_tournament_shows_its_progress(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tourney.engine.core import get_game
    from tourney.tournament.entrants import parse_entrants
    from tourney.tournament.runner import TournamentPlan
    from tourney.tournament.store.database import open_store
    from tourney.tournament.store.writes import create_tournament, record_matches
    from tourney.workers import LocalExecutor

    engine = open_store(str(tmp_path / "running.db"))
    plan = TournamentPlan(game="maitre-ninja", entrants=parse_entrants("random,random@b,random@c,random@d",
                                                                       get_game("maitre-ninja")),
                          seed=3, games_per_pair=1, players=3, name="half done")
    tid = create_tournament(engine, plan)
    first = plan.schedule()[:2]
    for chunk in LocalExecutor().run(plan, first):
        record_matches(engine, tid, plan, chunk)
    client = TestClient(create_app(engine))
    row = next(t for t in client.get("/api/tournaments").json()["tournaments"] if t["id"] == tid)
    assert row["status"] == "running" and row["played"] == 2
    assert row["expected"] == plan.expected_matches() > 2
    assert f"2/{plan.expected_matches()}" in client.get("/").text
    doc = client.get(f"/api/tournaments/{tid}").json()
    assert doc["played"] == 2 and doc["expected"] == plan.expected_matches()
    assert sum(s["games"] for s in doc["standings"]) == 2 * 3
    # Finishing it (the driver resumes) shows at once: new matches, final ratings, the status.
    from tourney.tournament.runner import run_tournament

    report = run_tournament(engine, plan, tournament_id=tid)
    done = client.get(f"/api/tournaments/{tid}").json()
    assert done["status"] == "finished" and done["played"] == report.matches == plan.expected_matches()
    assert [s["bot"] for s in done["standings"]] == [s.alias for s in report.standings]
    assert [s["mu"] for s in done["standings"]] == pytest.approx([s.mu for s in report.standings], abs=5e-4)
