"""`tourney league ...` from the command line: create, join, run-due, standings, and one-sentence errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import tournament.league_cli  # noqa: F401  (registers `tourney league`)
from tournament.cli import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_create_join_run_due_and_standings(tmp_path) -> None:
    db = str(tmp_path / "l.db")
    made = invoke("league", "create", "cli", "--game", "sticks", "--format", "round-robin", "--schedule",
                  "30 18 * * 1", "--divisions", "2", "--promote", "1", "--db", db, "--now", "2026-03-01T00:00",
                  "--json")
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["next_round"] == "2026-03-02T18:30:00+00:00"  # the first Monday, 18:30 UTC
    for bot in ("random", "greedy", "random@r2", "greedy@g2"):
        spec, _, alias = bot.partition("@")
        args = ["league", "join", "cli", spec, "--db", db] + (["--alias", alias] if alias else [])
        joined = invoke(*args)
        assert joined.exit_code == 0, joined.output
    early = invoke("league", "run-due", "cli", "--db", db, "--local", "--now", "2026-03-02T18:29", "--json")
    assert early.exit_code == 0 and json.loads(early.stdout)["rounds"] == []
    due = invoke("league", "run-due", "--db", db, "--local", "--now", "2026-03-09T19:00", "--json")
    assert due.exit_code == 0, due.output
    rounds = json.loads(due.stdout)["rounds"]
    assert [(r["season"], r["round"], r["status"]) for r in rounds] == [(0, 0, "done"), (1, 0, "done")]
    table = invoke("league", "standings", "cli", "--db", db, "--season", "0", "--json")
    assert table.exit_code == 0, table.output
    doc = json.loads(table.stdout)
    assert [len(d["standings"]) for d in doc["divisions"]] == [2, 2]
    assert set(doc["ratings"]) == {"random", "greedy", "r2", "g2"}
    text = invoke("league", "standings", "cli", "--db", db)
    assert text.exit_code == 0 and "season 1, division 1" in text.stdout


def test_mistakes_get_one_sentence_and_exit_code_2(tmp_path) -> None:
    db = str(tmp_path / "l.db")
    bad_cron = invoke("league", "create", "x", "--game", "sticks", "--schedule", "every day", "--db", db)
    assert bad_cron.exit_code == 2 and "is not a cron schedule" in bad_cron.output
    bad_format = invoke("league", "create", "x", "--game", "sticks", "--schedule", "0 * * * *", "--format", "gauntlet",
                        "--db", db)
    assert bad_format.exit_code == 2 and "swiss or round-robin" in bad_format.output
    no_promote = invoke("league", "create", "x", "--game", "sticks", "--schedule", "0 * * * *", "--divisions", "2",
                        "--db", db)
    assert no_promote.exit_code == 2 and "--promote" in no_promote.output
    assert invoke("league", "create", "x", "--game", "sticks", "--schedule", "0 * * * *", "--db", db).exit_code == 0
    again = invoke("league", "create", "x", "--game", "sticks", "--schedule", "0 * * * *", "--db", db)
    assert again.exit_code == 2 and "already a league" in again.output
    unknown = invoke("league", "join", "nope", "random", "--db", db)
    assert unknown.exit_code == 2 and "no league named 'nope'" in unknown.output
    bad_bot = invoke("league", "join", "x", "no-such-bot", "--db", db)
    assert bad_bot.exit_code == 2 and "Traceback" not in bad_bot.output
    assert invoke("league", "join", "x", "random", "--db", db).exit_code == 0
    twice = invoke("league", "join", "x", "random", "--db", db)
    assert twice.exit_code == 2 and "already in league" in twice.output
    bad_season = invoke("league", "standings", "x", "--season", "4", "--db", db)
    assert bad_season.exit_code == 2 and "no season 4" in bad_season.output
    bad_now = invoke("league", "run-due", "--db", db, "--now", "yesterday")
    assert bad_now.exit_code == 2 and "ISO time" in bad_now.output
