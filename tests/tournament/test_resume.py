"""Kill the driver mid-tournament, resume, and get exactly the standings of an uninterrupted run."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from tourney.tournament.cli import app

ROOT = Path(__file__).resolve().parents[2]
BOTS = "random,greedy,ismcts:iterations=200@i1,ismcts:iterations=100@i2,greedy@g2,random@r2"
SWISS = ["run", "--game", "sticks", "--bots", BOTS, "--format", "swiss", "--rounds", "5",
         "--games-per-pair", "4", "--seed", "7", "--seed-key", "test-key-0123456789", "--local"]
TOTAL = 60  # 3 pairings x 4 games x 5 rounds


def stored(db: Path) -> int:
    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("select count(*) from match").fetchone()[0])
    except sqlite3.OperationalError:  # the tables are not created yet
        return 0


def start_and_kill(db: Path, args: list[str], kill_after: int) -> int:
    """Run `tourney` in a subprocess, SIGKILL it once `kill_after` matches are stored; return how many were."""
    code = "import tests.sticks; from tourney.tournament.cli import app; app()"
    proc = subprocess.Popen([sys.executable, "-c", code, *args, "--db", str(db), "--json"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while stored(db) < kill_after and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the tournament ended before it could be killed"
    return stored(db)


def test_a_killed_swiss_resumes_to_the_uninterrupted_standings(tmp_path):
    runner = CliRunner()
    whole = json.loads(runner.invoke(app, [*SWISS, "--db", str(tmp_path / "whole.db"), "--json"]).stdout)
    assert whole["matches"] == TOTAL

    db = tmp_path / "killed.db"
    done = start_and_kill(db, SWISS, kill_after=10)
    assert 10 <= done < TOTAL
    with sqlite3.connect(db) as con:
        assert con.execute("select status from tournament").fetchone()[0] == "running"

    # No id: the most recent unfinished tournament.
    result = runner.invoke(app, ["resume", "--db", str(db), "--local", "--json"])
    assert result.exit_code == 0, result.output
    resumed = json.loads(result.stdout)
    assert resumed["standings"] == whole["standings"]
    with sqlite3.connect(db) as con:
        numbers = [row[0] for row in con.execute("select number from match")]
        assert len(numbers) == len(set(numbers)) == TOTAL  # none duplicated, none lost
        assert con.execute("select status from tournament").fetchone()[0] == "finished"


def test_resume_with_an_id_finishes_a_killed_round_robin(tmp_path):
    # Searching bots slow enough that the 60 matches span several of --local's 0.5 s batches: a round
    # robin schedules every match at once, and one batch of quick ones would store them all.
    bots = "random,greedy,ismcts:iterations=3000@i1,ismcts:iterations=2000@i2,greedy@g2,random@r2"
    args = ["run", "--game", "sticks", "--bots", bots, "--games-per-pair", "4", "--seed", "3",
            "--seed-key", "test-key-0123456789", "--local"]
    runner = CliRunner()
    whole = json.loads(runner.invoke(app, [*args, "--db", str(tmp_path / "whole.db"), "--json"]).stdout)
    db = tmp_path / "killed.db"
    assert 5 <= start_and_kill(db, args, kill_after=5) < 60
    again = json.loads(runner.invoke(app, ["run", "--resume", "1", "--db", str(db), "--local", "--json"]).stdout)
    assert again["standings"] == whole["standings"]
    assert again["matches"] == whole["matches"] == 60


def test_a_killed_ray_driver_loses_nothing_that_finished(tmp_path):
    # The driver writes each chunk as Ray hands it back: kill it mid-run, and whatever was
    # stored stays stored; the resumed run (here in-process) ends with the same standings.
    args = ["run", "--game", "sticks", "--bots", BOTS, "--games-per-pair", "4", "--seed", "5",
            "--seed-key", "test-key-0123456789", "--workers", "2"]
    runner = CliRunner()
    whole = json.loads(runner.invoke(app, [*args, "--local", "--db", str(tmp_path / "whole.db"), "--json"]).stdout)
    db = tmp_path / "killed.db"
    done = start_and_kill(db, args, kill_after=4)
    assert done < whole["matches"]
    again = json.loads(runner.invoke(app, ["resume", "--db", str(db), "--local", "--json"]).stdout)
    assert again["standings"] == whole["standings"]
