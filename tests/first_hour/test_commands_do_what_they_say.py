"""Issue 31, second bullet: every command does what it says (stopping a run, empty or quoted bot
lists, missing programs, resuming a finished tournament, ...)."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
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
    """Command names of the Ray workers under process `pid` that are playing matches (play_chunk)."""
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


def test_sigterm_marks_the_tournament_interrupted_with_a_resume_hint_and_no_ray_dump(tmp_path, ray_session):
    db = tmp_path / "t.db"
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    # The driver joins this session's Ray (its own start can time out on a loaded machine), so Ray's
    # workers, this process's descendants, play its chunks; ismcts keeps them busy when the signal comes.
    address = ray_session.get_runtime_context().gcs_address
    driver = subprocess.Popen([str(TOURNEY), "run", "--bots", "random,ismcts", "--games-per-pair", "40", "--db",
                               str(db), "--address", address], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        poll("Ray's workers to play", lambda: ray_workers_of(os.getpid()) or driver.poll() is not None)
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
    monkeypatch.setattr("tourney.workers.local.MAX_CHUNK", 1)  # a chunk a match: the third call is the third match
    line = one_error(runner.invoke(app, ["run", "--local", "--game", "sticks", "--bots", "random,greedy",
                                         "--games-per-pair", "6", "--db", str(db)]))
    assert "interrupted: tournament 1 keeps the matches it finished" in line and "`tourney resume 1`" in line
    assert stored(db, "select status from tournament") == [("interrupted",)]
    assert stored(db, "select count(*) from match") == [(3,)]
    # A resume stopped in turn leaves it interrupted again (it was marked running while it played).
    seen_running = []

    def ctrl_c_at_once(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen_running.extend(stored(db, "select status from tournament"))
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_module, "record_matches", ctrl_c_at_once)
    line = one_error(runner.invoke(app, ["resume", "1", "--local", "--db", str(db)]))
    assert "interrupted: tournament 1 " in line and seen_running == [("running",)]
    assert stored(db, "select status from tournament") == [("interrupted",)]
    monkeypatch.setattr(runner_module, "record_matches", real)
    # Resumed, it finishes (no longer interrupted); resumed again, it says it is finished.
    resumed = runner.invoke(app, ["resume", "1", "--local", "--db", str(db), "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert stored(db, "select status from tournament") == [("finished",)]
    assert stored(db, "select count(*) from match") == [(6,)]
    line = one_error(runner.invoke(app, ["resume", "1", "--local", "--db", str(db)]))
    assert "tournament 1 is finished: nothing to resume" in line and "tourney standings 1" in line
    assert "tournament 1 is finished" in one_error(runner.invoke(app, ["run", "--resume", "1", "--local", "--db",
                                                                      str(db)]))


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
    # arena-match reads the list the same way: one program (named after its last word), which exits unconnected.
    line = one_error(runner.invoke(app, ["arena-match", "--game", "sticks", "--bots",
                                         "cmd:python3 -c 'print(1,2)',random", "--seed", "1"]))
    assert "'print_1_2_-0'" in line


def test_a_quote_never_closed_is_one_sentence(tmp_path):
    for bots in ("cmd:python3 -c 'print(1),random", 'cmd:python3 "mybot.py,random'):
        line = one_error(runner.invoke(app, ["run", "--local", "--bots", bots, "--db", str(tmp_path / "t.db")]))
        assert "never closes" in line and "No closing quotation" not in line
    line = one_error(runner.invoke(app, ["match", "--bots", "cmd:python3 mybot.py \\", "--players", "1"]))
    assert "cannot read the command" in line and "no escaped character" in line


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_connect_reads_tourney_arena_and_says_it_never_reached_one():
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    done = runner.invoke(app, ["connect", "--game", "sticks", "--matches", "1"], env={"TOURNEY_ARENA": address})
    line = one_error(done)
    assert f"never reached an arena at {address}" in line and "lost" not in line


def test_web_on_port_zero_serves_on_the_port_it_prints(tmp_path):
    db = tmp_path / "t.db"
    open_store(str(db)).dispose()
    web = subprocess.Popen([str(TOURNEY), "web", "--port", "0", "--db", str(db)], cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([web.stdout], [], [], 120)
        assert ready, "tourney web printed nothing"
        line = web.stdout.readline()  # type: ignore[union-attr]
        match = re.fullmatch(r"tourney web on http://127\.0\.0\.1:(\d+)/\n", line)
        assert match and int(match.group(1)) > 0, line
        with urllib.request.urlopen(f"http://127.0.0.1:{match.group(1)}/api/tournaments", timeout=30) as reply:
            assert json.load(reply)["tournaments"] == []
    finally:
        web.terminate()
        web.communicate(timeout=60)


def test_a_read_only_database_is_told_so_not_to_resume_a_tournament(tmp_path):
    db = tmp_path / "t.db"
    first = runner.invoke(app, ["run", "--local", "--game", "sticks", "--bots", "random,greedy", "--games-per-pair",
                                "2", "--db", str(db), "--json"])
    assert first.exit_code == 0, first.output
    read_only = f"sqlite:///file:{db}?mode=ro&uri=true"  # root ignores file modes: SQLite's own read-only mode
    line = one_error(runner.invoke(app, ["run", "--local", "--game", "sticks", "--bots", "random,greedy",
                                         "--db", read_only]))
    assert "the database is read-only" in line and "--db" in line and "resume" not in line
    assert stored(db, "select count(*) from tournament") == [(1,)]


def test_a_bare_name_of_a_connected_bot_suggests_remote(tmp_path):
    from tourney.engine.server.client import BotClient, RandomBot
    from tourney.engine.server.config import ArenaConfig
    from tourney.engine.server.local import LocalArena

    token = "first-hour-admin-token-31"
    with LocalArena(ArenaConfig(admin_token=token, allow_anonymous=True)) as local:
        client = BotClient(local.address, RandomBot(seed=1), name="gobot", games=["sticks"])
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        try:
            assert client.connected.wait(60)
            args = ["run", "--game", "sticks", "--arena", local.address, "--admin-token", token, "--db",
                    str(tmp_path / "t.db")]
            line = one_error(runner.invoke(app, [*args, "--bots", "gobot,random"]))
            assert "a bot named gobot is connected" in line and "remote:gobot" in line
            # A name nobody connected with is still the plain unknown-bot sentence.
            line = one_error(runner.invoke(app, [*args, "--bots", "nobot,random"]))
            assert "unknown bot 'nobot'" in line and "remote:" not in line
        finally:
            client.cancel()
            thread.join(30)
    assert not (tmp_path / "t.db").exists()


REALTIME_FAST = ["--mode", "realtime", "--set", "min_action_interval_ms=20", "--set", "reaction_timeout_ms=200",
                 "--set", "grace_ms=20", "--set", "wall_clock_cap_s=4"]


def test_run_mode_realtime_plays_ninja_arena_on_the_clock(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # bot logs go to ./bot-logs
    # A program that says what MatchStarted told it, and acts with its first legal action.
    (tmp_path / "rt.py").write_text(
        "import sys\nfrom tourney_bot import Bot, run_bot\n\n\n"
        "class Rt(Bot):\n"
        "    def act(self, observation, legal_actions, request):\n        return 0\n\n"
        "    def on_match_started(self, message):\n"
        "        print(f'realtime={message.realtime}', file=sys.stderr, flush=True)\n\n\n"
        "run_bot(Rt())\n")
    db = tmp_path / "t.db"
    for bots in ("random,greedy", "cmd:python3 rt.py,random"):
        done = runner.invoke(app, ["run", "--local", "--game", "ninja-arena", "--bots", bots, "--games-per-pair", "1",
                                   *REALTIME_FAST, "--db", str(db), "--json"])
        assert done.exit_code == 0, done.output
    # Real time leaves the driver's log of arrivals (ms, seat, action), which the tick-by-tick referee never does.
    details = [json.loads(d) for (d,) in stored(db, "select details_json from match order by id")]
    assert len(details) == 2 and all(d.get("realtime_log") for d in details), details
    logs = "".join(p.read_text() for p in (tmp_path / "bot-logs").glob("rt-*.log"))
    assert "realtime=True" in logs and "realtime=False" not in logs


def test_match_mode_realtime_plays_on_the_clock_too():
    done = runner.invoke(app, ["match", "--game", "ninja-arena", "--bots", "random,greedy", "--seed", "1",
                               *REALTIME_FAST, "--json"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    # No referee steps: the real-time driver applied actions as they came, until the game or its cap ended it.
    assert doc["plies"] == 0 and doc["termination"] in ("normal", "adjudication")
