"""Item 12: `bench/tournament.py` run as the README says plays its Ray part (bench/engine.py shadows no `engine`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {k: v for k, v in os.environ.items() if not k.startswith("RAY_ADDRESS")} | {"RAY_AUTH_MODE": "disabled"}


@pytest.mark.slow  # a Ray of its own, two rounds of warm-up: about half a minute
def test_the_tournament_bench_runs_as_the_readme_says():
    done = subprocess.run([sys.executable, "bench/tournament.py", "--ray-only", "--matches", "40", "--repeats", "1"],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-3000:]
    assert "MatchFailed" not in out and "of linear" in out and "Ray overhead" in out
