"""SQLite on a full disk: the tournament stops with one clear sentence, the database stays intact,
and once space is freed the tournament resumes to exactly the standings of an uninterrupted run.

The disk is a 4 MB tmpfs mounted for the test (root is needed, as for the PostgreSQL fixture).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store

ARGS = ["run", "--game", "tiny-ninjas", "--bots", "random,greedy,random@r2,greedy@g2", "--games-per-pair", "6",
        "--seed", "5", "--seed-key", "test-key-0123456789", "--local", "--json"]
TOTAL = 36  # 6 pairs x 6 games


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.fail("the disk-full test mounts a small tmpfs: run the tests as root (as CI does).", pytrace=False)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True,
                          text=True, timeout=30)
    if done.returncode != 0:
        pytest.fail(f"cannot mount a tmpfs for the disk-full test: {done.stderr.strip()}", pytrace=False)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, timeout=30)


def _fill(disk: Path, leave: int) -> Path:
    """A filler file that leaves about `leave` bytes free on `disk`."""
    filler = disk / "filler"
    stat = os.statvfs(disk)
    free = stat.f_bavail * stat.f_frsize
    with filler.open("wb") as f:
        f.write(b"\0" * max(0, free - leave))
    return filler


def test_a_full_disk_stops_the_tournament_cleanly_and_it_resumes(small_disk: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # A local run writes its matches in chunks of up to MAX_CHUNK (cut sooner on a slow machine): small
    # chunks make the disk fill partway through on any machine, as it would in a long run.
    monkeypatch.setattr("tourney.workers.local.MAX_CHUNK", 2)
    runner = CliRunner()
    whole = runner.invoke(app, [*ARGS, "--db", str(tmp_path / "whole.db")])
    assert whole.exit_code == 0, whole.output
    expected = json.loads(whole.stdout)
    assert expected["matches"] == TOTAL

    db = small_disk / "t.db"
    open_store(str(db)).dispose()  # the schema fits; the matches will not
    filler = _fill(small_disk, leave=256 * 1024)
    full = runner.invoke(app, [*ARGS, "--db", str(db)])
    assert full.exit_code == 2, full.output
    message = " ".join(full.output.split())
    assert "full" in message.lower(), message  # the reason is named...
    assert "resume" in message.lower() or "space" in message.lower(), message  # ...and what to do
    assert "Traceback" not in full.output

    # The database is intact: integrity check passes and every stored match has all its seats.
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
        stored = con.execute("select count(*) from match").fetchone()[0]
        seats = con.execute("select count(*) from matchseat").fetchone()[0]
    print(f"stored {stored} of {TOTAL} matches before the disk filled")
    assert 0 < stored < TOTAL and seats == 2 * stored

    filler.unlink()
    resumed = runner.invoke(app, ["resume", "--db", str(db), "--local", "--json"])
    assert resumed.exit_code == 0, resumed.output
    again = json.loads(resumed.stdout)
    assert again["standings"] == expected["standings"] and again["matches"] == TOTAL
    with sqlite3.connect(db) as con:
        numbers = [row[0] for row in con.execute("select number from match")]
        assert len(numbers) == len(set(numbers)) == TOTAL
