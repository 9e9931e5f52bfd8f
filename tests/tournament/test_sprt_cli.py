"""`--sprt-elo` on the commands that run an SPRT, and `tourney sprt` explaining itself in words."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tourney.tournament.cli import app
from tourney.tournament.rating.sprt import llr
from tourney.tournament.runner import load_plan
from tourney.tournament.store.database import open_store

runner = CliRunner()


def test_normalized_scale_is_stored_used_and_resumed(tmp_path):
    db = str(tmp_path / "t.db")
    result = runner.invoke(app, ["run", "--game", "sticks", "--bots", "greedy,random", "--format", "gauntlet",
                                 "--sprt", "0,100", "--sprt-elo", "normalized", "--db", db, "--json", "--local"])
    assert result.exit_code == 0, result.output
    v = json.loads(result.stdout)["sprt"]
    assert v["elo_scale"] == "normalized" and v["verdict"] in {"H0", "H1"}
    assert v["llr"] == round(llr(v["pentanomial"], 0, 100, "normalized"), 3)
    assert v["llr"] != round(llr(v["pentanomial"], 0, 100, "logistic"), 3)
    _, plan = load_plan(open_store(db), json.loads(result.stdout)["tournament_id"])
    assert plan.sprt_elo == "normalized"  # a resumed run keeps testing in the same scale


def test_sprt_says_what_h0_h1_and_the_bounds_mean(tmp_path):
    result = runner.invoke(app, ["sprt", "--game", "sticks", "--bots", "greedy,random", "--elo0", "0", "--elo1",
                                 "100", "--db", str(tmp_path / "t.db"), "--local"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())  # the console wraps long lines
    assert "H0: the new bot is at most 0 Elo better than the old one." in text
    assert "H1: it is at least 100 Elo better." in text
    assert "at or above 2.94 the test accepts H1" in text
    assert "at or below -2.94 it accepts H0" in text
    assert "SPRT: H" in text


def test_an_unknown_scale_is_one_sentence_and_exit_2(tmp_path):
    result = runner.invoke(app, ["sprt", "--game", "sticks", "--bots", "greedy,random", "--sprt-elo", "bayes",
                                 "--db", str(tmp_path / "t.db"), "--local"])
    assert result.exit_code == 2
    assert "--sprt-elo 'bayes' is not an Elo scale: choose logistic or normalized." in result.output
    assert "Traceback" not in result.output
