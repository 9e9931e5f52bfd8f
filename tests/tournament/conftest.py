"""A private PostgreSQL 15 cluster for the session: initdb in a temp dir, a free loopback port, torn down after.

The binaries come from the postgresql-15 package (.ci/run installs it). If they are missing
the fixture fails with one clear message: PostgreSQL support is not optional, so it is never
skipped.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_BIN = Path(os.environ.get("TOURNEY_PG_BIN", "/usr/lib/postgresql/15/bin"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["runuser", "-u", "postgres", "--", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database that lives as long as the test session."""
    for tool in ("initdb", "pg_ctl"):
        if not (PG_BIN / tool).exists():
            pytest.fail(f"PostgreSQL 15 is not installed ({PG_BIN / tool} is missing): install the postgresql-15 "
                        "package (as .ci/run does) or point TOURNEY_PG_BIN at its bin directory.", pytrace=False)
    if shutil.which("runuser") is None or os.geteuid() != 0:
        pytest.fail("the PostgreSQL fixture runs initdb as the postgres user with runuser: run the tests as root.",
                    pytrace=False)
    data = Path(tempfile.mkdtemp(prefix="tourney-pg-"))
    shutil.chown(data, "postgres", "postgres")
    os.chmod(data, 0o700)
    port = _free_port()
    init = _as_postgres(str(PG_BIN / "initdb"), "-D", str(data / "db"), "-U", "postgres", "--auth=trust",
                        "-E", "UTF8", "--no-sync")
    if init.returncode != 0:
        pytest.fail(f"initdb failed: {init.stderr.strip()}", pytrace=False)
    start = _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data / "db"), "-l", str(data / "log"), "-w", "-o",
                         f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
    if start.returncode != 0:
        log = (data / "log").read_text() if (data / "log").exists() else ""
        pytest.fail(f"PostgreSQL did not start: {start.stderr.strip()} {log[-500:]}", pytrace=False)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        _as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data / "db"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(data, ignore_errors=True)
