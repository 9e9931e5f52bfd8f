"""Items 3 and 6: the SDK is importable by tourney's Python, says when it is in, refuses in one
sentence; a tournament on an arena that refuses the admin token stores nothing."""

from __future__ import annotations

import os
import queue
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.local import LocalArena
from tourney.tournament.cli import app

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "first-hour-admin-" + "x" * 24
MY_BOT = """from tourney_bot import Bot, run_bot


class First(Bot):
    def act(self, observation, legal_actions, request):
        return 0


run_bot(First())
"""


def start_my_bot(tmp_path: Path, arena: str, token: str) -> subprocess.Popen[str]:
    """The README's first bot, written in a folder of its own and run with tourney's Python."""
    (tmp_path / "mybot.py").write_text(MY_BOT)
    env = {**os.environ, "TOURNEY_ARENA": arena, "TOURNEY_TOKEN": token, "TOURNEY_BOT_NAME": "mybot"}
    env.pop("PYTHONPATH", None)
    return subprocess.Popen([sys.executable, "mybot.py"], cwd=tmp_path, env=env, stderr=subprocess.PIPE, text=True)


def test_a_wrong_token_is_one_sentence_and_exit_2(tmp_path):
    with LocalArena(ArenaConfig(admin_token=ADMIN)) as arena:
        bot = start_my_bot(tmp_path, arena.address, "wrong")
        _, stderr = bot.communicate(timeout=120)
    assert bot.returncode == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: the arena at {arena.address} refused bot 'mybot'")
    assert "TOURNEY_TOKEN" in lines[0]


def test_the_bot_says_when_it_is_connected(tmp_path):
    with LocalArena(ArenaConfig(admin_token=ADMIN, allow_anonymous=True)) as arena:
        bot = start_my_bot(tmp_path, arena.address, "")
        lines: queue.Queue[str] = queue.Queue()
        assert bot.stderr is not None
        threading.Thread(target=lambda: [lines.put(line) for line in bot.stderr], daemon=True).start()  # type: ignore
        try:
            first = lines.get(timeout=120)
        finally:
            bot.terminate()
            bot.wait(30)
    assert first.startswith(f"bot 'mybot' connected to the arena at {arena.address}")


def test_a_refused_admin_token_stores_no_tournament(tmp_path):
    db = tmp_path / "t.db"
    with LocalArena(ArenaConfig(admin_token=ADMIN, allow_anonymous=True)) as arena:
        result = CliRunner().invoke(app, ["run", "--game", "sticks", "--bots", "random,greedy", "--arena",
                                          arena.address, "--admin-token", "change-me", "--db", str(db)])
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "wrong admin token" in lines[0] and "--admin-token" in lines[0]
        with sqlite3.connect(db) as con:
            assert con.execute("select count(*) from tournament").fetchone()[0] == 0
        played = CliRunner().invoke(app, ["run", "--game", "sticks", "--bots", "random,greedy", "--arena",
                                          arena.address, "--admin-token", ADMIN, "--db", str(db), "--json"])
        assert played.exit_code == 0, played.output


def test_a_remote_bot_that_is_not_connected_stores_no_tournament(tmp_path):
    db = tmp_path / "t.db"
    with LocalArena(ArenaConfig(admin_token=ADMIN, allow_anonymous=True, seat_wait_s=0.5)) as arena:
        result = CliRunner().invoke(app, ["run", "--game", "sticks", "--bots", "remote:mybot,greedy", "--arena",
                                          arena.address, "--admin-token", ADMIN, "--db", str(db)])
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "no bot named 'mybot'" in lines[0] and "TOURNEY_BOT_NAME=mybot" in lines[0]
        with sqlite3.connect(db) as con:
            assert con.execute("select count(*) from tournament").fetchone()[0] == 0
        bot = start_my_bot(tmp_path, arena.address, "")
        try:
            assert bot.stderr is not None and "connected" in bot.stderr.readline()  # (it exits on any failure)
            played = CliRunner().invoke(app, ["run", "--game", "sticks", "--bots", "remote:mybot,greedy", "--arena",
                                              arena.address, "--admin-token", ADMIN, "--db", str(db), "--json"])
        finally:
            bot.terminate()
            bot.wait(30)
        assert played.exit_code == 0, played.output


def test_the_example_on_a_python_without_grpc_names_the_python_to_use():
    # -S: no site-packages, as on a system Python that never installed grpc.
    done = subprocess.run([sys.executable, "-S", "clients/python/examples/random_bot.py"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot import grpc" in lines[0] and lines[0].endswith(".venv/bin/python.")
