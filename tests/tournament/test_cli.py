"""The command line: tables, JSON, resumable results in SQLite, and one-sentence errors."""

from __future__ import annotations

import json
import sqlite3

from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store

runner = CliRunner()


def run(*args: str):
    """Invoke the CLI; tournaments play in-process (--local) here, Ray has its own tests in tests/workers."""
    argv = list(args)
    if argv and argv[0] in ("run", "resume", "sprt") and "--local" not in argv:
        argv.append("--local")
    return runner.invoke(app, argv)


def test_run_stores_every_match_and_prints_json_only(tmp_path):
    db = tmp_path / "t.db"
    result = run("run", "--game", "sticks", "--bots", "random,greedy,random@r2", "--games-per-pair", "2",
                 "--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["matches"] == 6
    assert {s["bot"] for s in doc["standings"]} == {"random", "greedy", "r2"}
    assert sum(s["games"] for s in doc["standings"]) == 12
    assert sum(s["points"] for s in doc["standings"]) == 6
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from match").fetchone()[0] == 6
        assert con.execute("select count(*) from matchseat").fetchone()[0] == 12
        assert con.execute("select status from tournament").fetchone()[0] == "finished"


def test_the_same_seed_and_seed_key_give_the_same_standings(tmp_path):
    args = ["run", "--game", "sticks", "--bots", "random,greedy", "--games-per-pair", "4", "--json", "--seed", "9",
            "--seed-key", "test-key-0123456789"]
    a = json.loads(run(*args, "--db", str(tmp_path / "a.db")).stdout)
    b = json.loads(run(*args, "--db", str(tmp_path / "b.db")).stdout)
    assert a["standings"] == b["standings"]


def test_resume_plays_only_what_is_missing(tmp_path):
    db = tmp_path / "t.db"
    first = json.loads(run("run", "--game", "sticks", "--bots", "random,greedy", "--games-per-pair", "4",
                           "--db", str(db), "--json").stdout)
    with sqlite3.connect(db) as con:
        con.execute("delete from matchseat where match_id in (select id from match where number >= 2)")
        con.execute("delete from match where number >= 2")
    again = json.loads(run("run", "--game", "sticks", "--bots", "random,greedy", "--games-per-pair", "4",
                           "--db", str(db), "--json", "--resume", str(first["tournament_id"])).stdout)
    assert again["standings"] == first["standings"]
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from match").fetchone()[0] == 4


def test_match_prints_a_play_by_play(tmp_path):
    result = run("match", "--game", "sticks", "--bots", "greedy,random", "--seed", "3", "--verbose")
    assert result.exit_code == 0, result.output
    assert "seat 0 (greedy): take" in result.stdout
    doc = json.loads(run("match", "--game", "sticks", "--bots", "greedy,random", "--seed", "3", "--json").stdout)
    assert doc["seed"] == 3 and doc["reason"] == "last_stick" and len(doc["seats"]) == 2


def test_games_lists_every_built_game():
    doc = json.loads(run("games", "--json").stdout)
    ids = [g["id"] for g in doc["games"]]
    assert "sticks" in ids


def one_sentence_error(result, *fragments: str) -> None:
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and lines[0].endswith(".")
    for f in fragments:
        assert f in lines[0]
    assert "Traceback" not in result.output


def test_bad_input_is_one_sentence_and_exit_2(tmp_path):
    one_sentence_error(run("run", "--game", "nope"), "unknown game 'nope'")
    one_sentence_error(run("run", "--game", "sticks", "--bots", "random,bogus", "--db", str(tmp_path / "x.db")),
                       "unknown bot 'bogus'")
    one_sentence_error(run("run", "--game", "sticks", "--bots", "random,random"), "entered twice")
    one_sentence_error(run("run", "--game", "sticks", "--games-per-pair", "0"), "--games-per-pair")
    one_sentence_error(run("run", "--game", "sticks", "--move-ms", "-5", "--bots", "random,greedy"), "--move-ms")
    one_sentence_error(run("match", "--game", "sticks", "--bots", "random,random", "--players", "5"), "players")
    one_sentence_error(run("run", "--game", "sticks", "--bots", "random,greedy", "--db",
                           str(tmp_path / "missing" / "dir" / "t.db")), "cannot use the database")


def test_swiss_gauntlet_and_pods_from_the_command_line(tmp_path):
    db = str(tmp_path / "t.db")
    swiss = json.loads(run("run", "--game", "sticks", "--bots", "random,greedy,random@r2,greedy@g2,random@r3",
                           "--format", "swiss", "--rounds", "3", "--games-per-pair", "2", "--db", db, "--json").stdout)
    # 5 players: 2 pairings x 2 games and one bye (worth 2 points) a round.
    assert swiss["format"] == "swiss" and swiss["matches"] == 3 * (2 * 2 + 1)
    assert sum(s["byes"] for s in swiss["standings"]) == 3
    assert sum(s["points"] for s in swiss["standings"]) == 3 * (4 + 2)
    gauntlet = json.loads(run("run", "--game", "sticks", "--bots", "greedy,random,random@r2", "--format", "gauntlet",
                              "--games-per-pair", "4", "--db", db, "--json").stdout)
    table = {s["bot"]: s for s in gauntlet["standings"]}
    assert table["greedy"]["games"] == 8 and table["random"]["games"] == 4 and table["r2"]["games"] == 4
    pods = json.loads(run("run", "--game", "sticks", "--bots", "random,greedy,random@r2,greedy@g2",
                          "--players", "3", "--db", db, "--json").stdout)
    assert all(s["games"] > 0 for s in pods["standings"])
    assert all("mu" in s and "buchholz" in s for s in pods["standings"])
    stored = json.loads(run("standings", str(pods["tournament_id"]), "--db", db, "--json").stdout)
    assert stored["standings"] == pods["standings"]


def test_sprt_stops_early_with_a_verdict(tmp_path):
    result = run("run", "--game", "sticks", "--bots", "greedy,random", "--format", "gauntlet", "--sprt", "0,100",
                 "--db", str(tmp_path / "t.db"), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["sprt"]["verdict"] in {"H0", "H1"}
    assert doc["sprt"]["llr"] >= doc["sprt"]["upper"] or doc["sprt"]["llr"] <= doc["sprt"]["lower"]
    assert doc["matches"] == 2 * doc["sprt"]["pairs"]
    text = run("run", "--game", "sticks", "--bots", "greedy,random", "--format", "gauntlet", "--sprt", "0,100",
               "--db", str(tmp_path / "t.db"))
    assert "SPRT: H" in text.stdout


def test_format_errors_are_one_sentence(tmp_path):
    db = str(tmp_path / "t.db")
    one_sentence_error(run("run", "--game", "sticks", "--format", "knockout", "--bots", "random,greedy", "--db", db),
                       "unknown format 'knockout'")
    one_sentence_error(run("run", "--game", "sticks", "--sprt", "0,5", "--bots", "random,greedy", "--db", db),
                       "--format gauntlet")
    one_sentence_error(run("run", "--game", "sticks", "--format", "gauntlet", "--sprt", "5", "--bots",
                           "random,greedy", "--db", db), "--sprt")
    one_sentence_error(run("run", "--game", "sticks", "--format", "gauntlet", "--players", "3", "--bots",
                           "random,greedy,random@r", "--db", db), "two players")
    one_sentence_error(run("run", "--game", "sticks", "--players", "4", "--bots", "random,greedy,random@r,greedy@g",
                           "--db", db), "players")
    one_sentence_error(run("resume", "99", "--db", db), "there is no database")  # never created by a typo
    open_store(db)
    one_sentence_error(run("resume", "99", "--db", db), "no tournament 99")
    one_sentence_error(run("run", "--game", "sticks", "--bots", "random,greedy", "--workers", "0", "--db", db),
                       "--workers")


def test_sprt_matches_and_replay_commands(tmp_path):
    db = str(tmp_path / "t.db")
    result = run("sprt", "--game", "sticks", "--bots", "greedy,random", "--elo0", "0", "--elo1", "100", "--db", db,
                 "--local", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["sprt"]["verdict"] in {"H0", "H1"} and doc["matches"] == 2 * doc["sprt"]["pairs"]
    listing = json.loads(run("matches", str(doc["tournament_id"]), "--db", db, "--json").stdout)
    assert len(listing["matches"]) == doc["matches"]
    first = listing["matches"][0]
    shown = run("replay", str(first["id"]), "--db", db)
    assert shown.exit_code == 0, shown.output
    assert "seat 0 (" in shown.stdout and f"match {first['id']}" in shown.stdout
    assert shown.stdout.strip().splitlines()[-1].endswith(first["reason"])  # the replay ends as the match did
    one_sentence_error(run("replay", "100000", "--db", db), "no match 100000")
    one_sentence_error(run("sprt", "--game", "sticks", "--bots", "greedy,random,random@r", "--db", db), "two bots")


def test_multiplayer_swiss_from_the_command_line(tmp_path):
    doc = json.loads(run("run", "--game", "sticks", "--bots", "random,greedy,random@r2,greedy@g2,random@r3,greedy@g3,"
                         "random@r4", "--format", "swiss", "--players", "3", "--rounds", "3", "--games-per-pair", "3",
                         "--db", str(tmp_path / "t.db"), "--json").stdout)
    # 7 players in pods of 3: two pods of 3 games and one bye a round.
    assert doc["matches"] == 3 * (2 * 3 + 1)
    assert sum(s["byes"] for s in doc["standings"]) == 3
    assert sum(s["games"] for s in doc["standings"]) == 3 * 2 * 3 * 3
