"""Modes, difficulty and handicaps from the command line; achievements after the standings."""

from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from tourney.engine.core import ConfigError, get_game
from tourney.tournament.cli.main import app, parse_settings

runner = CliRunner()
TINY = get_game("tiny-ninjas").options


def test_handicaps_become_per_seat_options():
    assert parse_settings(TINY, ["round_cap=50"], "solo", ["0:hand_limit=4", "1:reveal_hand=true", "1:hand_limit=5"],
                          {"difficulty": "hard"}) == {
        "round_cap": 50, "mode": "solo", "difficulty": "hard",
        "hand_limit": {0: 4, 1: 5}, "reveal_hand": {1: True}}
    with pytest.raises(ConfigError, match="SEAT:KEY=VALUE"):
        parse_settings(TINY, None, None, ["hand_limit=4"])
    with pytest.raises(ConfigError, match="clashes"):
        parse_settings(TINY, ["hand_limit=4"], None, ["1:hand_limit=4"])


@pytest.mark.parametrize("mode", ["blitz", "survivor", "champion"])
def test_match_plays_every_mode(mode):
    result = runner.invoke(app, ["match", "--bots", "greedy,random", "--mode", mode, "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["termination"] in {"normal", "adjudication"}


def test_solo_with_difficulty_and_a_handicap():
    result = runner.invoke(app, ["match", "--bots", "greedy", "--mode", "solo", "--difficulty", "hard",
                                 "--handicap", "0:start_health=6", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["reason"]


def test_a_bad_difficulty_is_one_sentence():
    result = runner.invoke(app, ["match", "--bots", "greedy,random", "--mode", "solo", "--difficulty", "brutal"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and "Traceback" not in result.output


def test_run_stores_and_shows_achievements(tmp_path):
    db = tmp_path / "t.db"
    result = runner.invoke(app, ["run", "--local", "--bots", "random,greedy", "--games-per-pair", "10",
                                 "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    earned = doc["achievements"]
    assert earned, "ten Tiny Ninjas battles earn some achievement"
    with sqlite3.connect(db) as con:
        rows = con.execute("select alias, name, opponent from achievement").fetchall()
    stored: dict[str, dict[str, int]] = {}
    for alias, name, opponent in rows:
        key = name if opponent is None else f"{name} ({opponent})"
        stored.setdefault(alias, {}).setdefault(key, 0)
        stored[alias][key] += 1
    assert stored == earned
    table = runner.invoke(app, ["run", "--local", "--bots", "random,greedy", "--games-per-pair", "10",
                                "--db", str(tmp_path / "u.db")])
    assert "Achievements earned" in table.stdout
