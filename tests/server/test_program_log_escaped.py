"""A bot program's raw log reaches the organiser's terminal only as printable text.

A program that dies at start is reported with the tail of its log. Its bytes are the bot
author's: an escape sequence could retitle the terminal or move the cursor, a right-to-left
override could reverse the line, invalid UTF-8 could garble it. Each is shown as an escape.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tourney.tournament.cli import app
from tourney.workers.programs import log_tail

HOSTILE = (b"starting\n\x1b]0;owned\x07title\x1b[2J\x1b[31mred\x1b[0m \x00nul \x08back \x9b31m c1 "
           b"\xe2\x80\xaereversed \xff\xfe not utf-8\ndied [red]as markup[/red]\n")


def _unprintable(text: str) -> list[str]:
    return [c for c in text if not c.isprintable() and c != "\n"]


def test_the_log_tail_escapes_what_a_terminal_would_obey(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    log.write_bytes(HOSTILE)
    tail = log_tail(log)
    assert _unprintable(tail) == []
    assert "\\x1b]0;owned\\x07title" in tail  # an OSC title sequence, shown, not obeyed
    assert "\\x00nul" in tail and "\\x08back" in tail and "\\u202ereversed" in tail
    assert "\\xff\\xfe not utf-8" in tail  # bytes that are not UTF-8, by value
    assert "red" in tail and "\\x1b[31m" not in tail  # colour codes are dropped as before
    assert tail.endswith("died [red]as markup[/red]")


@pytest.mark.timeout(120)
def test_a_dying_program_s_binary_log_is_escaped_on_the_terminal_and_in_the_store(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch
                                                                                  ) -> None:
    monkeypatch.chdir(tmp_path)  # bot logs go to ./bot-logs
    monkeypatch.setattr("tourney.workers.programs.CONNECT_WAIT_S", 3.0)
    script = tmp_path / "noisy.py"
    script.write_text(f"import sys\nsys.stderr.buffer.write({HOSTILE!r})\nsys.stderr.flush()\nraise SystemExit(3)\n")
    db = tmp_path / "t.db"
    result = CliRunner().invoke(app, ["run", "--local", "--game", "sticks", "--bots",
                                      f"cmd:{sys.executable} {script}@noisy,random", "--games-per-pair", "1",
                                      "--db", str(db)])
    assert _unprintable(result.stdout) == [] and _unprintable(result.stderr) == [], result.output
    with sqlite3.connect(db) as con:
        reasons = [r for (r,) in con.execute("select reason from match")]
    assert any("\\x1b]0;owned" in r for r in reasons), reasons
    assert all(_unprintable(r) == [] for r in reasons)
    listed = CliRunner().invoke(app, ["matches", "1", "--db", str(db)])
    assert listed.exit_code == 0, listed.output
    assert _unprintable(listed.stdout) == []
    assert "died [red]as markup[/red]" in " ".join(listed.stdout.split())  # text, not rich markup
