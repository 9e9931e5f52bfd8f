"""A real arena on loopback whose finished matches are 'stored' through Arena.on_result.

Reuses the server tests' harness (tests/server/harness.py); every test gets a fresh arena.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from tests.server.harness import ArenaHarness
from tests.tournament.conftest import PG_BIN, _as_postgres, _free_port
from tourney.engine.referee import MatchResult
from tourney.engine.server.config import ArenaConfig


class Stored:
    """What the arena handed to its storage hook, by match id (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.results: dict[str, tuple[list[str], MatchResult]] = {}

    def __call__(self, match_id: str, names: Sequence[str], result: MatchResult, _seconds: float) -> None:
        with self.lock:
            assert match_id not in self.results, f"match {match_id} stored twice"
            self.results[match_id] = (list(names), result)


@contextlib.contextmanager
def stored_harness(config: ArenaConfig | None = None) -> Iterator[ArenaHarness]:
    """An arena harness (with `config`) whose finished matches are kept in `harness.stored`."""
    h = ArenaHarness(config)
    h.stored = Stored()  # type: ignore[attr-defined]
    h.arena.on_result = h.stored  # type: ignore[attr-defined]
    try:
        yield h
    finally:
        h.close()


@pytest.fixture
def harness() -> Iterator[ArenaHarness]:
    with stored_harness() as h:
        yield h


class Postgres:
    """A private PostgreSQL cluster the test may stop and start again (same data, same port)."""

    def __init__(self, data: Path, port: int) -> None:
        self.data = data
        self.port = port
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def start(self) -> None:
        done = _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data / "db"), "-l", str(self.data / "log"), "-w",
                            "-o", f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off",
                            "start")
        assert done.returncode == 0, f"PostgreSQL did not start: {done.stderr.strip()}"

    def stop(self, mode: str = "fast") -> None:
        done = _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data / "db"), "-m", mode, "-w", "stop")
        assert done.returncode == 0, f"PostgreSQL did not stop: {done.stderr.strip()}"


@pytest.fixture
def restartable_postgres() -> Iterator[Postgres]:
    """Like tests/tournament's postgres_url fixture (same binaries and helpers), but stoppable."""
    for tool in ("initdb", "pg_ctl"):
        if not (PG_BIN / tool).exists():
            pytest.fail(f"PostgreSQL 15 is not installed ({PG_BIN / tool} is missing): install postgresql-15.",
                        pytrace=False)
    if shutil.which("runuser") is None or os.geteuid() != 0:
        pytest.fail("the PostgreSQL fixture runs initdb as the postgres user with runuser: run the tests as root.",
                    pytrace=False)
    data = Path(tempfile.mkdtemp(prefix="tourney-pg-faults-"))
    shutil.chown(data, "postgres", "postgres")
    os.chmod(data, 0o700)
    init = _as_postgres(str(PG_BIN / "initdb"), "-D", str(data / "db"), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                        "--no-sync")
    assert init.returncode == 0, f"initdb failed: {init.stderr.strip()}"
    pg = Postgres(data, _free_port())
    pg.start()
    try:
        yield pg
    finally:
        _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data / "db"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(data, ignore_errors=True)
