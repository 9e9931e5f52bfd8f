"""PostgreSQL stopped and restarted while a tournament runs: the driver retries with backoff, and
nothing is lost or written twice (the standings equal those of an uninterrupted run)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from tests.faults.conftest import Postgres
from tourney.tournament.cli import app
from tourney.tournament.store.database import with_driver

ROOT = Path(__file__).resolve().parents[2]
# A search bot makes each match take a while (the run plays about 2 s, several of --local's 0.5 s batches),
# so the outage lands mid-tournament.
ARGS = ["run", "--game", "tiny-ninjas", "--bots", "random,greedy,ismcts:iterations=40@s1,greedy@g2",
        "--games-per-pair", "2", "--seed", "9", "--seed-key", "test-key-0123456789", "--local", "--json"]
TOTAL = 12  # 6 pairs x 2 games: the driver is frozen after the first, so the outage lands before the last


def _stored(url: str) -> int:
    """Matches stored so far (0 while the tables do not exist or the server is down)."""
    engine = create_engine(with_driver(url))
    try:
        with engine.connect() as con:
            return int(con.execute(text("select count(*) from match")).scalar() or 0)
    except Exception:
        return 0
    finally:
        engine.dispose()


class Lines:
    """A child's stream read line by line on a thread, so a test can wait for a line without a fixed sleep."""

    def __init__(self, stream: Any) -> None:
        self._lines: list[str] = []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            with self._changed:
                self._lines.append(line)
                self._changed.notify_all()

    def saw(self, needle: str, timeout: float) -> bool:
        """Whether a line holding `needle` came within `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: any(needle in line for line in self._lines), timeout)

    def text(self) -> str:
        """Everything read so far (all of it, once the child has exited and its stream closed)."""
        self._thread.join(timeout=10)
        with self._changed:
            return "".join(self._lines)


def test_postgres_restarted_mid_tournament_loses_nothing(restartable_postgres: Postgres, tmp_path: Path) -> None:
    pg = restartable_postgres
    whole = CliRunner().invoke(app, [*ARGS, "--db", str(tmp_path / "whole.db")])
    assert whole.exit_code == 0, whole.output
    expected = json.loads(whole.stdout)

    env = {**os.environ, "TOURNEY_DB_RETRY_S": "90", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "tourney.tournament.cli", *ARGS, "--db", pg.url], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while _stored(pg.url) < 1 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        # Frozen while the database goes down, so the outage surely lands before the last match.
        proc.send_signal(signal.SIGSTOP)
        assert proc.poll() is None, "the tournament ended before the database could be stopped"
        pg.stop()  # every connection is cut; the driver goes on playing and retries its writes
        errors = Lines(proc.stderr)
        proc.send_signal(signal.SIGCONT)
        # The database stays down until the driver says it is retrying (its next write, however slowly a loaded
        # machine lets it play): the outage surely lands on a write.
        assert errors.saw("retrying", timeout=120), errors.text()
        assert proc.poll() is None, "the driver gave up while the database was down"
        pg.start()
        out = proc.stdout.read() if proc.stdout else ""
        proc.wait(timeout=300)
        err = errors.text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    result = json.loads(out)
    assert result["matches"] == TOTAL and result["standings"] == expected["standings"]
    engine = create_engine(with_driver(pg.url))
    with engine.connect() as con:
        numbers = [row[0] for row in con.execute(text("select number from match"))]
        seats = con.execute(text("select count(*) from matchseat")).scalar()
    engine.dispose()
    assert len(numbers) == len(set(numbers)) == TOTAL and seats == 2 * TOTAL


def test_the_arena_keeps_a_match_that_ends_while_postgres_is_down(restartable_postgres: Postgres) -> None:
    import concurrent.futures

    from tests.faults.faultlib import GAME
    from tests.server.harness import WAIT_S, ArenaHarness
    from tourney.tournament.cli.serve import store_writer

    pg = restartable_postgres
    harness = ArenaHarness()
    harness.arena.on_result = store_writer(pg.url)
    try:
        harness.bot("patient", max_concurrent_matches=3)
        first = harness.run_match(GAME, ["remote:patient", "random"], 1)
        pg.stop()
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            # Two matches finish while the database is down; their writes wait for it.
            pending = [pool.submit(harness.run_match, GAME, ["remote:patient", "random"], s) for s in (2, 3)]
            time.sleep(2.0)
            assert not any(p.done() for p in pending)  # the record is kept only once it is stored
            pg.start()
            later = [p.result(WAIT_S * 4) for p in pending]
    finally:
        harness.close()
    engine = create_engine(with_driver(pg.url))
    with engine.connect() as con:
        stored = [json.loads(row[0])["arena_match_id"] for row in con.execute(text("select details_json from match"))]
    engine.dispose()
    assert sorted(stored) == sorted(r.match_id for r in [first, *later])
