"""An arena killed with SIGKILL mid-tournament, then restarted: resuming finishes the tournament there,
with every match stored exactly once.

Everything is a real process: `tourney serve`, `tourney run --arena`, then `tourney resume` (which
remembers the arena) or `tourney run --resume ID --arena ... --admin-token ...`.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.harness import wait_for
from tests.tournament.conftest import _free_port

TOURNEY = str(Path(sys.executable).parent / "tourney")
TOKEN = "kill-test-admin-token"
MATCHES = 60  # two entrants, one pair: games-per-pair


class ArenaProcess:
    """`tourney serve` on a fixed loopback port, started and killed by the test."""

    def __init__(self, port: int, env: dict[str, str], log: Path, db: Path) -> None:
        self.port, self.env, self.log, self.db = port, env, log, db
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        seen = self.log.read_text().count("arena listening") if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([TOURNEY, "serve", "--port", str(self.port), "--allow-anonymous",
                                             "--db", str(self.db)],
                                            env=self.env, stdout=out, stderr=subprocess.STDOUT)
        listening = f"arena listening on 127.0.0.1:{self.port}"
        assert wait_for(lambda: self.log.read_text().count(listening) > seen or self.process.poll() is not None,
                        60), \
            "the arena did not start"
        assert self.process.poll() is None, self.log.read_text()[-2000:]

    def stop(self, sig: int) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(30)


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[ArenaProcess]:
    env = {**os.environ, "TOURNEY_ADMIN_TOKEN": TOKEN, "RAY_AUTH_MODE": "disabled"}
    process = ArenaProcess(_free_port(), env, tmp_path / "arena.log", tmp_path / "arena.db")
    process.start()
    try:
        yield process
    finally:
        process.stop(signal.SIGTERM)


def _stored(db: Path, where: str = "tournament_id = 1") -> list[int]:
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return [n for (n,) in con.execute(f"select number from match where {where}")]
    except sqlite3.OperationalError:  # the tables are not created yet
        return []


@pytest.mark.parametrize("how", ["resume", "run --resume"])
def test_a_tournament_survives_its_arena_being_killed(arena: ArenaProcess, tmp_path: Path, how: str) -> None:
    db = tmp_path / "t.db"
    address = f"127.0.0.1:{arena.port}"
    run = subprocess.Popen([TOURNEY, "run", "--arena", address, "--game", "tiny-ninjas", "--bots", "greedy,random",
                            "--games-per-pair", str(MATCHES), "--db", str(db), "--json"], env=arena.env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert wait_for(lambda: len(_stored(db)) >= 4 or run.poll() is not None, 300), "no match was stored"
    arena.stop(signal.SIGKILL)
    _out, err = run.communicate(timeout=120)
    before = _stored(db)
    assert run.returncode == 2, err.decode()[-2000:]
    assert "tourney resume" in err.decode() and "Traceback" not in err.decode()
    assert 4 <= len(before) < MATCHES, "the arena died mid-tournament"
    with sqlite3.connect(db) as con:
        (settings,) = con.execute("select settings_json from tournament where id = 1").fetchone()
    assert json.loads(settings)["arena"] == address and TOKEN not in settings  # the address, never the token

    arena.start()
    played_by_arena = len(_stored(arena.db, "1 = 1"))  # what the arena itself stored, in both its lives
    if how == "resume":  # the arena is remembered; the token comes from the environment
        command, env = [TOURNEY, "resume", "--db", str(db), "--json"], arena.env
    else:
        command = [TOURNEY, "run", "--resume", "1", "--arena", address, "--admin-token", TOKEN, "--db", str(db),
                   "--json"]
        env = {k: v for k, v in arena.env.items() if k != "TOURNEY_ADMIN_TOKEN"}
    done = subprocess.run(command, env=env, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert json.loads(done.stdout)["matches"] == MATCHES
    after = _stored(db)
    assert sorted(after) == sorted(set(after)) and len(after) == MATCHES  # none lost, none twice
    assert set(before) <= set(after)
    # The missing matches were played on the restarted arena, each once.
    assert len(_stored(arena.db, "1 = 1")) - played_by_arena == MATCHES - len(before)
