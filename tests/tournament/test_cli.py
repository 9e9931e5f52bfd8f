"""The command line: tables, JSON, resumable results in SQLite, and one-sentence errors."""

from __future__ import annotations

import json
import sqlite3

from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tournament.cli import app

runner = CliRunner()


def run(*args: str):
    """Invoke the CLI; tournaments play in-process (--local) here, Ray has its own tests in tests/workers."""
    argv = list(args)
    if argv and argv[0] in ("run", "resume") and "--local" not in argv:
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


def test_the_same_seed_gives_the_same_standings(tmp_path):
    args = ["run", "--game", "sticks", "--bots", "random,greedy", "--games-per-pair", "4", "--json", "--seed", "9"]
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
