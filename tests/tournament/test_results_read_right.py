"""Results read as players expect: pods by places, points with two decimals, no fake ratings.

Real tournaments (played in this process) into real SQLite files, read back through the CLI
(`tourney standings`, `tourney matches`) and the web app, as a new user would read them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from rich.console import Console
from typer.testing import CliRunner

from tourney.tournament.cli import app
from tourney.tournament.rating.result_text import SOLO_AI, ordinal, places, result_text
from tourney.tournament.rating.standings import StandingSeat, compute_standings
from tourney.tournament.rating.standings_table import standings_table
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app

SEED_KEY = "results-read-right-test-key"  # fixed: the same matches every run
LONG_DECIMALS = re.compile(r"\d\.\d{3,}")  # 0.333333, 2.33333: more than two decimals


def _run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _text(table: object) -> str:
    console = Console(width=400, record=True)
    console.print(table)
    return console.export_text()


@pytest.fixture(scope="module")
def pods(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("pods") / "pods.db"
    _run("run", "--local", "--game", "maitre-ninja", "--players", "4", "--bots", "random,greedy,random@r2,greedy@g2",
         "--games-per-pair", "1", "--seed-key", SEED_KEY, "--db", str(db))
    return db


@pytest.fixture(scope="module")
def solo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("solo") / "solo.db"
    _run("run", "--local", "--mode", "solo", "--difficulty", "easy", "--bots", "greedy,random", "--games-per-pair",
         "4", "--seed-key", SEED_KEY, "--db", str(db))
    _run("run", "--local", "--bots", "greedy,random", "--games-per-pair", "2", "--seed-key", SEED_KEY,
         "--db", str(db))
    return db


def test_a_pod_place_counts_as_results_against_each_other_seat() -> None:
    # One pod of four: a first, then two sharing second, then a last.
    pod = [StandingSeat("a", 0, 1, 1.0), StandingSeat("b", 1, 2, 0.5), StandingSeat("c", 1, 2, 0.5),
           StandingSeat("d", 2, 1, 0.0)]
    # And one where a and b share first place.
    shared = [StandingSeat("a", 0, 2, 5 / 6), StandingSeat("b", 0, 2, 5 / 6), StandingSeat("c", 1, 1, 1 / 3),
              StandingSeat("d", 2, 1, 0.0)]
    table = {s.alias: s for s in compute_standings("abcd", [pod, shared])}
    assert (table["a"].wins, table["a"].draws, table["a"].losses) == (5, 1, 0)
    assert (table["b"].wins, table["b"].draws, table["b"].losses) == (3, 2, 1)  # a second place is 1-1-1, not a loss
    assert (table["d"].wins, table["d"].draws, table["d"].losses) == (0, 0, 6)
    assert table["a"].places == [2] and table["b"].places == [1, 1] and table["d"].places == [0, 0, 0, 2]
    assert table["a"].first_share == 1.5 and table["b"].first_share == 0.5 and table["c"].first_share == 0.0
    for s in table.values():  # points are (W + D/2) / (n - 1) per pod
        assert s.points == pytest.approx((s.wins + s.draws / 2) / 3)


def test_places_are_counted_as_players_count_them() -> None:
    assert places([1, 0, 1, 2]) == ["2nd=", "1st", "2nd=", "4th"]
    assert places([0, 0, 1]) == ["1st=", "1st=", "3rd"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
    assert result_text([0, 1], [1.0, 0.0]) == "1 - 0"
    assert result_text([1, 0, 2], [0.5, 1.0, 0.0]) == "2nd, 1st, 3rd"


def test_one_game_separates_the_winner_from_the_loser() -> None:
    table = {s.alias: s for s in compute_standings(["w", "l"], [[StandingSeat("w", 0, 1, 1.0),
                                                                  StandingSeat("l", 1, 1, 0.0)]])}
    assert table["w"].rating > 1500 > table["l"].rating


def test_a_bot_that_has_not_played_shows_no_rating() -> None:
    table = compute_standings(["played", "idle"], [[StandingSeat("played", 0, 1, 1.0)]])
    text = _text(standings_table(table, "t"))
    idle = next(line for line in text.splitlines() if " idle " in line)
    assert "1500" not in idle and "—" in idle


def test_pod_standings_and_matches_read_with_places_and_two_decimals(pods: Path) -> None:
    standings = _run("standings", "1", "--db", str(pods))
    assert "places" in standings and "1st share" in standings
    assert not LONG_DECIMALS.search(standings), standings
    matches = _run("matches", "1", "--db", str(pods))
    assert not LONG_DECIMALS.search(matches), matches
    rows = [line.split("│")[1:-1] for line in matches.splitlines() if line.startswith("│")]
    numbers, rounds = [int(r[1]) for r in rows], [int(r[2]) for r in rows]
    assert min(numbers) == 1 and min(rounds) == 1 and sorted(numbers) == list(range(1, len(rows) + 1))
    assert all(re.search(r"\d(st|nd|rd|th)", r[4]) for r in rows)  # places, not fractions


def test_the_web_counts_pod_results_in_the_crosstable_and_shows_places(pods: Path) -> None:
    engine = open_store(str(pods))
    client = TestClient(create_app(engine))
    doc = client.get("/api/tournaments/1").json()
    cross = doc["crosstable"]
    order = cross["order"]
    assert all(cross["games"][a].get(b, 0) > 0 for a in order for b in order if a != b)
    # Each meeting gives one point between the two seats.
    for a in order:
        for b in order:
            if a != b:
                assert cross["points"][a][b] + cross["points"][b][a] == cross["games"][a][b]
    html = client.get("/tournaments/1").text
    assert not LONG_DECIMALS.search(html)
    assert "1st share" in html and re.search(r"<td>1</td><td>1</td>", html)  # match #1, round 1
    match = client.get("/matches/1").text
    assert "match #1 · round 1" in match and re.search(r"\((1st|2nd|3rd|4th)=?, ", match)
    engine.dispose()


def test_solo_standings_show_the_score_against_the_ai(solo: Path) -> None:
    standings = _run("standings", "1", "--db", str(solo))
    assert "25.0 (0.0)" not in standings
    assert re.search(r"\d+% vs AI", standings)


def test_the_bot_page_keeps_solo_out_of_the_rating_history_and_in_by_opponent(solo: Path) -> None:
    engine = open_store(str(solo))
    client = TestClient(create_app(engine))
    doc = client.get("/api/bots/greedy").json()
    assert [r["tournament_id"] for r in doc["rating_history"]] == [2]  # the solo tournament 1 is left out
    solo_rows = [o for o in doc["by_opponent"] if o["opponent"] == SOLO_AI]
    assert len(solo_rows) == 1 and solo_rows[0]["games"] == 4
    assert solo_rows[0]["wins"] + solo_rows[0]["losses"] <= 4
    assert any(o["opponent"] == "random" for o in doc["by_opponent"])
    assert "Solo AI" in client.get("/bots/greedy").text
    engine.dispose()
