"""Bench commands run as documented: `bench/tournament.py` plays its Ray part (item 12; bench/engine.py
shadows no `engine`), and `bench/ladder.py --versus` calibrates in CPU time and replays a fixed count."""

from __future__ import annotations

import os
import re
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


def ladder(*args: str) -> str:
    done = subprocess.run([sys.executable, "bench/ladder.py", *args, "--local"], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return done.stdout


def test_the_ladder_calibrates_the_search_bot_in_cpu_time_and_plays_that_count_against_greedy():
    out = ladder("--game", "maitre-ninja", "--versus", "greedy", "--pairs", "2", "--calibrated")
    counted = re.search(r"50 ms of CPU = (\d+) iterations a decision", out)
    assert counted, out
    assert f"regret:iterations={counted.group(1)} against greedy" in out
    assert re.search(r"regret@50ms\s+2\s+\d+\.\d%", out), out  # two complete duplicate pairs


def test_a_fixed_count_makes_the_four_player_ladder_the_same_run_to_run():
    args = ("--game", "ninja-arena", "--versus", "greedy", "--pairs", "1", "--iterations", "3")
    first, second = ladder(*args), ladder(*args)
    tables = [re.sub(r"matches, \d+ s", "matches", out) for out in (first, second)]
    assert "duct@3it takes first place" in first and "greedy (a seat)" in first
    assert tables[0] == tables[1]
