"""The standings explain themselves: a legend in `tourney standings --help` and under the printed table."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tourney.tournament.cli import app

runner = CliRunner()
COLUMNS = ("Elo [95%]", "LOS", "μ (μ-3σ)", "DE", "Buch", "SB")


def test_help_explains_every_column_in_one_line_and_names_the_interval():
    result = runner.invoke(app, ["standings", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for column in COLUMNS:
        assert any(line.strip().startswith(f"{column}:") for line in result.stdout.splitlines()), column
    assert "Wilson" in result.stdout


def test_the_printed_table_carries_the_legend_and_byes_never_inflate_the_score(tmp_path):
    db = str(tmp_path / "t.db")
    doc = json.loads(runner.invoke(app, ["run", "--game", "sticks", "--bots", "random,greedy,random@r2",
                                         "--format", "swiss", "--rounds", "3", "--games-per-pair", "2",
                                         "--db", db, "--json", "--local"]).stdout)
    assert sum(s["byes"] for s in doc["standings"]) == 3
    for s in doc["standings"]:
        assert 0 <= s["score_pct"] <= 100  # was 125% when bye points were divided by games
        assert s["rating_low"] is None or s["rating_low"] <= s["rating"]
        assert s["rating_high"] is None or s["rating_high"] >= s["rating"]
    text = runner.invoke(app, ["standings", str(doc["tournament_id"]), "--db", db]).stdout
    for column in COLUMNS:
        assert f"{column}:" in text, column
