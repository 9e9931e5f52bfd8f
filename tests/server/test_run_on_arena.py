"""`tourney run --arena`: a tournament whose matches a running arena plays, remote bots included."""

from __future__ import annotations

import json
import sqlite3

from typer.testing import CliRunner

from tests.server.harness import ArenaHarness
from tourney.tournament.cli import app


def test_a_round_robin_with_a_connected_bot_is_played_and_stored(harness: ArenaHarness, tmp_path) -> None:
    harness.bot("alice")
    db = tmp_path / "t.db"
    result = CliRunner().invoke(app, ["run", "--game", "sticks", "--bots", "remote:alice,random,greedy",
                                      "--games-per-pair", "2", "--arena", harness.address, "--db", str(db),
                                      "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["matches"] == 6
    assert {s["bot"] for s in doc["standings"]} == {"alice", "random", "greedy"}
    assert sum(s["games"] for s in doc["standings"]) == 12
    with sqlite3.connect(db) as con:
        seats = con.execute("select alias, decisions from matchseat where alias = 'alice'").fetchall()
    # alice really played over the network: every one of her four matches has her decisions.
    assert len(seats) == 4 and all(decisions > 0 for _, decisions in seats)


def test_remote_bots_need_an_arena() -> None:
    result = CliRunner().invoke(app, ["run", "--game", "sticks", "--bots", "remote:alice,random", "--local"])
    assert result.exit_code == 2
    assert "pass --arena HOST:PORT" in result.stderr
