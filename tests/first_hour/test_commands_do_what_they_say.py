"""Issue 31, second bullet: every command does what it says (stopping a run, empty or quoted bot
lists, missing programs, resuming a finished tournament, ...)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app

runner = CliRunner()
TOURNEY = Path(sys.executable).parent / "tourney"


def one_error(result) -> str:  # type: ignore[no-untyped-def]
    """The one error sentence of a command that exits 2 (a run may have said `tournament N` first)."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("tournament ")]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output, result.output
    return str(lines[0])


def poll(what: str, check, seconds: float = 300.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def stored(db: Path, sql: str) -> list[tuple[object, ...]]:
    try:
        with sqlite3.connect(db) as con:
            return con.execute(sql).fetchall()
    except sqlite3.OperationalError:  # not created yet
        return []


def ray_workers_of(pid: int) -> list[str]:
    """Command names of the Ray task workers started under process `pid` (its raylet's children)."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            names[int(entry.name)] = (entry / "cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            found.append(names.get(child, ""))
    return [n for n in found if n.startswith("ray::play_chunk")]


def test_sigterm_marks_the_tournament_interrupted_with_a_resume_hint_and_no_ray_dump(tmp_path):
    db = tmp_path / "t.db"
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    # ismcts makes matches slow enough that Ray's workers are playing when the signal comes.
    driver = subprocess.Popen([str(TOURNEY), "run", "--bots", "random,ismcts", "--games-per-pair", "40", "--db",
                               str(db)], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        poll("Ray's workers to play", lambda: ray_workers_of(driver.pid) or driver.poll() is not None)
        assert driver.poll() is None, driver.communicate()
        driver.send_signal(signal.SIGTERM)
        out, err = driver.communicate(timeout=120)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.communicate()
    assert driver.returncode == 2, err
    assert "SIGTERM received" not in err and "Traceback" not in err and "logging.cc" not in err, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: interrupted: tournament 1 ") and "`tourney resume 1`" in last, err
    assert stored(db, "select status from tournament") == [("interrupted",)]
    # The web home says so too (it showed "running" for ever).
    home = TestClient(create_app(open_store(str(db)))).get("/api/tournaments").json()
    assert [t["status"] for t in home["tournaments"]] == ["interrupted"]
    # Resumed, it finishes (and is no longer interrupted); resumed again, it says it is finished.
    resumed = runner.invoke(app, ["resume", "1", "--local", "--db", str(db), "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert stored(db, "select status from tournament") == [("finished",)]
    assert stored(db, "select count(*) from match") == [(40,)]
    line = one_error(runner.invoke(app, ["resume", "1", "--local", "--db", str(db)]))
    assert "tournament 1 is finished: nothing to resume" in line and "tourney standings 1" in line
    assert "tournament 1 is finished" in one_error(runner.invoke(app, ["run", "--resume", "1", "--local", "--db",
                                                                      str(db)]))


def test_ctrl_c_in_a_local_run_marks_the_tournament_interrupted(tmp_path, monkeypatch):
    import tourney.tournament.runner as runner_module

    db = tmp_path / "t.db"
    real = runner_module.record_matches
    calls = []

    def record_then_ctrl_c(*args, **kwargs):  # type: ignore[no-untyped-def]
        real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # what Python makes of Ctrl-C, after the third match is stored

    monkeypatch.setattr(runner_module, "record_matches", record_then_ctrl_c)
    line = one_error(runner.invoke(app, ["run", "--local", "--game", "sticks", "--bots", "random,greedy",
                                         "--games-per-pair", "6", "--db", str(db)]))
    assert "interrupted: tournament 1 keeps the matches it finished" in line and "`tourney resume 1`" in line
    assert stored(db, "select status from tournament") == [("interrupted",)]
    assert stored(db, "select count(*) from match") == [(3,)]


def test_an_empty_bot_list_is_refused_not_replaced_by_the_default(tmp_path):
    for empty in ("", " "):
        line = one_error(runner.invoke(app, ["run", "--local", "--bots", empty, "--db", str(tmp_path / "t.db")]))
        assert "--bots is empty" in line
    assert not (tmp_path / "t.db").exists()


def test_a_comma_inside_a_quoted_program_belongs_to_the_program(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # The program prints a comma-separated pair and exits before connecting: its forfeit quotes its log.
    done = runner.invoke(app, ["match", "--game", "sticks", "--bots", "cmd:python3 -c 'print(1,2)',random",
                               "--seed", "1", "--json"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    assert [s["bot"] for s in doc["seats"]][1] == "random" and len(doc["seats"]) == 2
    assert "1 2" in doc["reason"]  # print(1,2) ran whole: its comma did not split the bot list


def test_a_quote_never_closed_is_one_sentence(tmp_path):
    for bots in ("cmd:python3 -c 'print(1),random", 'cmd:python3 "mybot.py,random'):
        line = one_error(runner.invoke(app, ["run", "--local", "--bots", bots, "--db", str(tmp_path / "t.db")]))
        assert "never closes" in line and "No closing quotation" not in line
    line = one_error(runner.invoke(app, ["match", "--bots", "cmd:python3 mybot.py \\", "--players", "1"]))
    assert "cannot read the command" in line and "no escaped character" in line
