"""The bot-log folder stays under its byte budget: a hosted seat writes one log per seat name and worker
process, each up to the sandbox's largest file, and before this budget nothing ever removed one, so new
versions and worker processes filled the disk in time. Before a sandboxed bot starts, the least
recently written logs go until its own log fits."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.server.harness import WAIT_S
from tourney.workers.sandbox.limits import MIB, SandboxLimits
from tourney.workers.sandbox.log_room import make_room
from tourney.workers.sandbox.process import SandboxedProgram

pytestmark = pytest.mark.timeout(120)


def _old_log(folder: Path, name: str, size: int, age_s: int) -> Path:
    """A log of `size` bytes (sparse) last written `age_s` seconds ago."""
    path = folder / name
    with path.open("wb") as f:
        f.truncate(size)
    stamp = 1_700_000_000 - age_s
    os.utime(path, (stamp, stamp))
    return path


def test_the_oldest_logs_go_until_the_new_one_fits_and_other_files_stay(tmp_path: Path) -> None:
    oldest = _old_log(tmp_path, "alice v1.101.log", 4 * MIB, 300)
    older = _old_log(tmp_path, "bob v2.102.log", 4 * MIB, 200)
    newest = _old_log(tmp_path, "carol v1.103.log", 4 * MIB, 100)
    notes = _old_log(tmp_path, "notes.txt", 50 * MIB, 400)  # not a log: never counted or removed
    deleted = make_room(tmp_path, 64 * MIB, 64 * MIB + 5 * MIB, keep=tmp_path / "dave v1.104.log")
    assert deleted == [oldest, older]
    assert newest.exists() and notes.exists()


def test_the_log_being_started_is_never_the_one_deleted(tmp_path: Path) -> None:
    own = _old_log(tmp_path, "alice v1.101.log", 8 * MIB, 300)
    other = _old_log(tmp_path, "bob v1.101.log", 8 * MIB, 100)
    assert make_room(tmp_path, 64 * MIB, 64 * MIB, keep=own) == [other]
    assert own.exists()


def test_a_sandboxed_bot_starting_makes_room_in_its_log_folder(tmp_path: Path) -> None:
    logs = tmp_path / "bot-logs"
    logs.mkdir()
    stale = [_old_log(logs, f"old v{i}.{1000 + i}.log", 40 * MIB, 1000 - i) for i in range(5)]
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    bundle.chmod(0o755)
    (bundle / "bot.py").write_text("print('hello from the sandbox')\n")
    own = logs / "new v1.42.log"
    program = SandboxedProgram("python3 bot.py", bundle, tmp_path / "arena.sock", "new v1", own,
                               SandboxLimits(log_folder_bytes=64 * MIB + 90 * MIB))
    with program:
        deadline = time.monotonic() + WAIT_S
        while program.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
    # 5 × 40 MiB were there; with 64 MiB kept for the new log, two fit in 154 MiB: the three oldest went.
    assert [p.exists() for p in stale] == [False, False, False, True, True]
    assert "hello from the sandbox" in own.read_text()
