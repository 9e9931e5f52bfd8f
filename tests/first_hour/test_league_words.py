"""Item 7, leagues: `name@alias` joins like everywhere else; a skipped round says why, not `season -1`."""

from __future__ import annotations

from typer.testing import CliRunner

import tests.sticks  # noqa: F401
import tourney.tournament.cli.league  # noqa: F401  (registers `tourney league`)
from tourney.tournament.cli import app

runner = CliRunner()


def test_join_takes_name_at_alias_and_a_skipped_round_says_why(tmp_path) -> None:
    db = str(tmp_path / "l.db")
    made = runner.invoke(app, ["league", "create", "weekly", "--game", "sticks", "--schedule", "30 18 * * 1",
                               "--divisions", "2", "--promote", "1", "--db", db, "--now", "2026-03-01T00:00"])
    assert made.exit_code == 0, made.output
    for bot in ("random", "greedy", "random@r2"):
        joined = runner.invoke(app, ["league", "join", "weekly", bot, "--db", db])
        assert joined.exit_code == 0, joined.output
    assert "r2 joined league weekly" in joined.stdout
    due = runner.invoke(app, ["league", "run-due", "weekly", "--db", db, "--local", "--now", "2026-03-02T19:00"])
    assert due.exit_code == 0, due.output
    assert "season -1" not in due.stdout
    assert "skipped: too few bots for its divisions" in due.stdout and "--divisions" in due.stdout
