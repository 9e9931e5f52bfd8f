"""Solo tournaments: every bot plays the rulebook AI on the same decks."""

from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from tourney.engine.core import ConfigError
from tourney.tournament.cli import app
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.registry import solo_schedule
from tourney.tournament.runner import TournamentPlan


def test_every_entrant_gets_the_same_seeds():
    schedule = solo_schedule(3, 4)
    assert len(schedule) == 12 and [p.number for p in schedule] == list(range(12))
    for e in range(3):
        mine = [p for p in schedule if p.seats == (e,)]
        assert [p.seed_offset for p in mine] == [0, 1, 2, 3]


def test_a_solo_tournament_is_stored_as_games_against_the_ai(tmp_path):
    db = tmp_path / "s.db"
    result = CliRunner().invoke(app, ["run", "--local", "--mode", "solo", "--difficulty", "easy", "--bots",
                                      "greedy,random", "--games-per-pair", "6", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["format"] == "solo" and doc["matches"] == 12
    for s in doc["standings"]:
        assert s["games"] == 6 and s["wins"] + s["draws"] + s["losses"] == 6
    with sqlite3.connect(db) as con:
        seats = con.execute("select count(*) from matchseat").fetchone()[0]
        byes = con.execute("select count(*) from match where termination = 'BYE'").fetchone()[0]
        seeds = con.execute("select s.alias, m.seed from match m join matchseat s on s.match_id = m.id "
                            "order by m.number").fetchall()
    assert seats == 12 and byes == 0
    by_bot: dict[str, list[int]] = {}
    for alias, seed in seeds:
        by_bot.setdefault(alias, []).append(seed)
    assert by_bot["greedy"] == by_bot["random"]  # the same six decks for both bots


def test_solo_needs_its_format_and_the_format_needs_solo():
    with pytest.raises(ConfigError, match="--format solo"):
        TournamentPlan("tiny-ninjas", [Entrant("a", "random"), Entrant("b", "greedy")], config={"mode": "solo"},
                       format="gauntlet").spec()
    with pytest.raises(ConfigError, match="--mode solo"):
        TournamentPlan("tiny-ninjas", [Entrant("a", "random"), Entrant("b", "greedy")], format="solo").spec()
