"""Attack on the files a command reads by name: a FIFO that nobody writes to. Opening it waited for a
writer for good, so `tourney pair FIFO` and `serve --tokens FIFO` hung instead of answering. The file is
now opened without waiting: a FIFO without a writer reads as an empty file, and its one sentence follows."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.security.test_endless_files import TOURNEY

BOUND_S = 60  # a bound on the command, far above its run time: before, it never returned


@pytest.mark.timeout(180)
@pytest.mark.parametrize("args", [["pair", "FIFO"], ["serve", "--port", "0", "--tokens", "FIFO"]])
def test_a_fifo_nobody_writes_is_one_sentence(tmp_path: Path, args: list[str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = subprocess.run([TOURNEY, *[str(fifo) if a == "FIFO" else a for a in args]], capture_output=True,
                          text=True, timeout=BOUND_S)
    assert done.returncode == 2, done.stderr[-500:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(fifo) in lines[0] and "Traceback" not in done.stderr, done.stderr[-500:]
