"""Item 11: matches start in this process at once while Ray starts; Ray's workers then take over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.first_hour.pid_plan import PAIRINGS

ROOT = Path(__file__).resolve().parents[2]
TOURNEY = Path(sys.executable).parent / "tourney"
ENV = {**os.environ, "RAY_AUTH_MODE": "disabled"}


def test_this_process_plays_until_ray_is_up_then_ray_takes_over():
    done = subprocess.run([sys.executable, "-m", "tests.first_hour.pid_plan"], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout.strip().splitlines()[-1])
    rows = doc["rows"]
    assert sorted(k for k, _, _ in rows) == list(range(PAIRINGS))  # each pairing played once
    assert all(square == k * k for k, (square, _), _ in rows)
    players = {pid for _, (_, pid), _ in rows}
    assert doc["driver"] in players  # the first matches did not wait for Ray
    assert players - {doc["driver"]}  # and Ray's workers played the rest


def test_a_ray_run_gives_the_standings_of_a_local_run(tmp_path):
    key = "first-hour-" + "k" * 32  # the same secret seed key: the same matches wherever they are played
    args = [str(TOURNEY), "run", "--bots", "random,greedy", "--games-per-pair", "30", "--seed", "4", "--seed-key",
            key, "--json"]
    ray_run = subprocess.run([*args, "--db", str(tmp_path / "ray.db")], cwd=tmp_path, env=ENV,
                             capture_output=True, text=True, timeout=900)
    local_run = subprocess.run([*args, "--db", str(tmp_path / "local.db"), "--local"], cwd=tmp_path, env=ENV,
                               capture_output=True, text=True, timeout=900)
    assert ray_run.returncode == 0 and local_run.returncode == 0, ray_run.stderr + local_run.stderr
    assert json.loads(ray_run.stdout)["standings"] == json.loads(local_run.stdout)["standings"]
