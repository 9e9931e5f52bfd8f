"""Attack on `tourney pair TRF_FILE`: a file with no end. Its size was checked with stat(), which is 0
for a device, a pipe or a /proc file, and then read whole, so `tourney pair /dev/zero` grew its memory
until the kernel killed it. The read itself is now bounded: one sentence and exit 2."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tourney.tournament.cli.pair import MAX_TRF_BYTES

TOURNEY = str(Path(sys.executable).with_name("tourney"))
MEMORY_CAP = 3 << 30  # so that, were the read unbounded again, the test fails instead of the machine swapping


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@pytest.mark.timeout(120)
def test_a_file_without_end_is_one_sentence() -> None:
    done = subprocess.run([TOURNEY, "pair", "/dev/zero"], capture_output=True, text=True, timeout=90,
                          preexec_fn=_capped)
    assert done.returncode == 2, done.stderr[-500:]
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "/dev/zero" in lines[0] and f"{MAX_TRF_BYTES >> 20} MiB" in lines[0], lines
