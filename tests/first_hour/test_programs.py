"""Item 1: a bot program that does not play says why, at once, in the match's reason and on stderr."""

from __future__ import annotations

import json
import sqlite3
import sys

from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tourney.tournament.cli import app

runner = CliRunner()


def run_sticks(tmp_path, monkeypatch, entrant: str) -> tuple[object, list[str]]:
    monkeypatch.chdir(tmp_path)  # bot logs go to ./bot-logs
    db = tmp_path / "t.db"
    result = runner.invoke(app, ["run", "--local", "--game", "sticks", "--bots", f"{entrant},random",
                                 "--games-per-pair", "2", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as con:
        reasons = [r for (r,) in con.execute("select reason from match order by number")]
    return result, reasons


def test_python3_is_tourneys_python_and_its_exit_status_and_log_are_in_the_reason(tmp_path, monkeypatch):
    # The program prints the Python it runs on (with colour codes) and exits 4 before connecting.
    program = ("cmd:python3 -c 'import sys;sys.stderr.write(chr(27)+\"[31m\"+sys.executable+chr(27)+\"[0m\");"
               "sys.exit(4)'@broken")
    result, reasons = run_sticks(tmp_path, monkeypatch, program)
    assert len(reasons) == 2
    for reason in reasons:
        assert "the program did not play: it exited before connecting, exit status 4" in reason
        assert sys.executable in reason  # `python3` was tourney's own Python, and its log is quoted
        assert "\x1b" not in reason
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: broken forfeited")]
    assert len(warnings) == 1 and "exit status 4" in warnings[0]


def test_a_missing_program_stops_the_run_before_anything_is_stored(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for program in ("cmd:no-such-program-here@ghost", "cmd:python3 nothere.py"):
        db = tmp_path / "t.db"
        result = runner.invoke(app, ["run", "--local", "--game", "sticks", "--bots", f"{program},random",
                                     "--games-per-pair", "2", "--db", str(db)])
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: there is no ") and "Traceback" not in result.output
        assert "no-such-program-here" in lines[0] or "nothere.py" in lines[0]
        assert not db.exists()  # refused before the store is opened: no tournament, no forfeits


def test_a_program_that_never_connects_forfeits_after_the_wait(tmp_path, monkeypatch):
    monkeypatch.setattr("tourney.workers.programs.CONNECT_WAIT_S", 0.5)
    _, reasons = run_sticks(tmp_path, monkeypatch, "cmd:sleep 60@silent")
    assert all("it did not connect within 0.5 s" in r for r in reasons)


def test_match_shows_the_reason_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reads.py").write_text("open('nothere.txt')\n")  # starts, then fails on a missing file
    result = runner.invoke(app, ["match", "--game", "sticks", "--bots", "cmd:python3 reads.py,random", "--seed",
                                 "1", "--json"])
    assert result.exit_code == 0, result.output
    reason = json.loads(result.stdout)["reason"]
    assert "exit status 1" in reason and "nothere.txt" in reason and "No such file or directory" in reason
