"""`tourney serve`, `tourney connect` and `tourney arena-match` as real processes on loopback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients.arena import served as arena_served

ROOT = Path(__file__).resolve().parents[2]
# The entry point `tourney` is `tourney.tournament.cli:app`; `-m tourney.tournament.cli` would run a second copy of it.
TOURNEY = [sys.executable, "-c", "import sys; from tourney.tournament.cli import app; sys.argv[0] = \"tourney\"; app()"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "TOURNEY_ADMIN_TOKEN": "Kp3-cW9vRt2xQm7ZsL5e"}  # no weak token


@pytest.fixture
def served() -> Iterator[str]:
    with arena_served(move_ms=5000, env=ENV) as address:
        yield address


def test_connect_and_arena_match_play_over_the_network(served: str) -> None:
    game = "ninja-versus-ninja"
    bot = subprocess.Popen([*TOURNEY, "connect", "--game", game, "--bot", "random", "--arena", served,
                            "--name", "netrand", "--matches", "1", "--seed", "3"],
                           cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        done = subprocess.run([*TOURNEY, "arena-match", "--arena", served, "--game", game,
                               "--bots", "remote:netrand,random", "--seed", "5", "--move-ms", "5000"],
                              cwd=ROOT, env={**ENV, "TOURNEY_ADMIN_TOKEN": ""}, capture_output=True, text=True,
                              timeout=120)
        # RunMatch waits for the bot to connect; the wrong (empty) admin token is refused first.
        assert done.returncode == 2 and "admin token" in done.stderr
        done = subprocess.run([*TOURNEY, "arena-match", "--arena", served, "--game", game,
                               "--bots", "remote:netrand,random", "--seed", "5", "--move-ms", "5000", "--json"],
                              cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        record = json.loads(done.stdout)
        assert [s["bot"] for s in record["seats"]] == ["netrand", "random"] and record["match_id"] and record["replay"]
        assert record["termination"] in ("normal", "adjudication")
        out, errors = bot.communicate(timeout=60)
        assert bot.returncode == 0, errors
        assert json.loads(out.strip().splitlines()[-1])["matches"] == 1
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(20)


def test_bots_add_prints_a_token_and_stores_its_hash(tmp_path: Path) -> None:
    tokens = tmp_path / "bots.json"
    done = subprocess.run([*TOURNEY, "bots", "add", "mybot", "--tokens", str(tokens)], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    token = done.stdout.strip()
    stored = json.loads(tokens.read_text())
    assert set(stored) == {"mybot"} and token not in tokens.read_text()
    bad = subprocess.run([*TOURNEY, "bots", "add", "no spaces", "--tokens", str(tokens)], cwd=ROOT, env=ENV,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("error:")


def test_arena_match_launches_bot_programs_on_a_private_arena(tmp_path: Path) -> None:
    program = f"cmd:{sys.executable} {ROOT / 'clients' / 'python' / 'examples' / 'random_bot.py'}"
    done = subprocess.run([*TOURNEY, "arena-match", "--game", "ninja-versus-ninja", "--bots", f"{program},random",
                           "--seed", "4", "--log-dir", str(tmp_path), "--json"],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert [s["bot"] for s in record["seats"]] == ["random_bot-0", "random"]
    assert record["termination"] in ("normal", "adjudication")
    assert (tmp_path / "random_bot-0.log").exists()
    bad = subprocess.run([*TOURNEY, "arena-match", "--game", "ninja-versus-ninja", "--bots", "cmd:,random"],
                         cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("error:")


def test_serve_with_db_stores_every_finished_match(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "arena.sqlite"
    proc = subprocess.Popen([*TOURNEY, "serve", "--port", "0", "--allow-anonymous", "--db", str(db)],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("arena listening on "), line + (proc.stderr.read() if proc.stderr else "")
        address = line.rsplit(" ", 1)[1].strip()
        for seed in (1, 2):
            done = subprocess.run([*TOURNEY, "arena-match", "--arena", address, "--game", "ninja-versus-ninja",
                                   "--bots", "random,greedy", "--seed", str(seed)],
                                  cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
    finally:
        proc.terminate()
        proc.wait(20)
    with sqlite3.connect(db) as con:
        matches = con.execute("select game, seed, termination from match order by seed").fetchall()
        seats = con.execute("select alias from matchseat order by match_id, seat").fetchall()
    assert [(g, s) for g, s, _ in matches] == [("ninja-versus-ninja", 1), ("ninja-versus-ninja", 2)]
    assert [a for (a,) in seats] == ["random", "greedy"] * 2


@pytest.mark.parametrize("command", [("connect", "--game", "tiny-ninjas", "--bot", "random"),
                                     ("arena-match", "--game", "tiny-ninjas", "--bots", "random,random")])
def test_an_arena_that_is_not_there_is_one_line_naming_the_fix(command: tuple[str, ...]) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run([*TOURNEY, *command, "--arena", f"127.0.0.1:{port}"],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "never reached an arena" in lines[0] and "fix --arena" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and "AioRpcError" not in done.stderr
