"""A worker node dies mid-tournament: its tasks are retried elsewhere and every result is unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tourney.tournament.entrants import Entrant
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import load_history
from tourney.workers import LocalExecutor

pytestmark = pytest.mark.slow  # a Ray cluster of its own: ./test.sh leaves it to CI (.ci/run)

ROOT = Path(__file__).resolve().parents[2]


def test_killing_a_node_loses_no_match_and_changes_no_result(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tests.workers.cluster_run", str(tmp_path / "cluster.db")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, proc.stdout[-2000:] + proc.stderr[-2000:]
    doc = json.loads(lines[-1][len("RESULT "):])
    assert doc["killed_at"] is not None and doc["killed_at"] < doc["matches"]
    # (Whether the GCS already lists the dead node as dead depends on heartbeat timing: not checked.)

    bots = [Entrant("random", "random"), Entrant("i1", "ismcts:iterations=150"), Entrant("greedy", "greedy"),
            Entrant("i2", "ismcts:iterations=100")]
    plan = TournamentPlan(game="sticks", entrants=bots, seed=21, games_per_pair=8, seed_key="node-loss-0123456789")
    engine = open_store(str(tmp_path / "local.db"))
    report = run_tournament(engine, plan, executor=LocalExecutor())
    expected = [[g.number, list(g.seats), list(g.points)]
                for g in load_history(engine, report.tournament_id, [e.alias for e in bots])]
    assert doc["matches"] == report.matches == 48
    assert doc["results"] == expected
