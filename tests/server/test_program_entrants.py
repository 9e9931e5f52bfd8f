"""Bot programs (`cmd:...`) enter tournaments: started per match, played over loopback gRPC, stopped."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

from typer.testing import CliRunner

from tourney.tournament.cli import app

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = f"cmd:{sys.executable} {ROOT / 'clients/python/examples/random_bot.py'}"


def test_a_program_plays_a_local_round_robin(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # bot logs go to ./bot-logs
    db = tmp_path / "t.db"
    result = CliRunner().invoke(app, ["run", "--local", "--game", "tiny-ninjas", "--bots",
                                      f"{RANDOM_BOT},greedy", "--games-per-pair", "2", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {s["bot"] for s in doc["standings"]} == {"random_bot", "greedy"}
    with sqlite3.connect(db) as con:
        rows = con.execute("select m.termination, s.decisions from matchseat s join match m on m.id = s.match_id "
                           "where s.alias = 'random_bot'").fetchall()
    assert len(rows) == 2 and all(term == "normal" and decisions > 0 for term, decisions in rows)
    assert any((tmp_path / "bot-logs").iterdir()), "each program gets a log file"


def test_a_program_that_dies_at_start_forfeits_as_a_crash(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("tourney.workers.programs.CONNECT_WAIT_S", 3.0)
    crasher = f"cmd:{sys.executable} -c 'raise SystemExit(3)'@crasher"
    result = CliRunner().invoke(app, ["run", "--local", "--game", "sticks", "--bots", f"{crasher},random",
                                      "--games-per-pair", "1", "--db", str(tmp_path / "t.db"), "--json"])
    assert result.exit_code == 0, result.output
    table = {s["bot"]: s for s in json.loads(result.stdout)["standings"]}
    assert table["crasher"]["losses"] == 1 and table["crasher"]["faults"] == 1
    assert table["random"]["wins"] == 1


def test_match_launches_a_program_and_shows_its_play(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["match", "--game", "tiny-ninjas", "--bots", f"{RANDOM_BOT},greedy",
                                      "--seed", "4", "--verbose"])
    assert result.exit_code == 0, result.output
    assert "seat 0 (random_bot): " in result.stdout  # the program's moves, replayed for the reader
    assert "seat 1 (greedy): " in result.stdout
    doc = json.loads(CliRunner().invoke(app, ["match", "--game", "tiny-ninjas", "--bots", f"{RANDOM_BOT},greedy",
                                              "--seed", "4", "--json"]).stdout)
    assert doc["termination"] == "normal" and doc["plies"] > 0
