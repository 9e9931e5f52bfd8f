"""Ray executor: same results as in-process play, chunked tasks, written as they arrive, clear errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tourney.tournament.cli import app
from tourney.tournament.entrants import Entrant
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import load_history
from tourney.workers import LocalExecutor, RayExecutor
from tourney.workers.executor import MAX_CHUNK
from tourney.workers.ray_tasks import chunk_size, chunks


def plan(fmt: str = "round-robin", **kw) -> TournamentPlan:
    bots = [Entrant("random", "random"), Entrant("greedy", "greedy"), Entrant("r2", "random"),
            Entrant("g2", "greedy"), Entrant("r3", "random")]
    return TournamentPlan(game="sticks", entrants=bots, seed=5, games_per_pair=4, format=fmt, **kw)


def results(engine, tid, p):
    return [(g.number, g.seats, g.points) for g in load_history(engine, tid, [e.alias for e in p.entrants])]


def test_ray_plays_exactly_what_in_process_play_does(ray_session, tmp_path):
    for fmt in ("round-robin", "swiss", "gauntlet"):
        p = plan(fmt)
        local_db, ray_db = open_store(str(tmp_path / f"l{fmt}.db")), open_store(str(tmp_path / f"r{fmt}.db"))
        a = run_tournament(local_db, p, executor=LocalExecutor())
        b = run_tournament(ray_db, p, executor=RayExecutor(workers=2))
        assert results(local_db, a.tournament_id, p) == results(ray_db, b.tournament_id, p)
        assert [(s.alias, s.points, s.buchholz, s.mu) for s in a.standings] == \
            [(s.alias, s.points, s.buchholz, s.mu) for s in b.standings]


def test_each_chunk_is_written_as_it_arrives(ray_session, tmp_path):
    p = plan()
    engine = open_store(str(tmp_path / "t.db"))
    seen: list[int] = []
    executor = RayExecutor(workers=2, chunk=3)
    report = run_tournament(engine, p, executor=executor, on_match=lambda done, total: seen.append(done))
    # 10 pairs x 4 games in chunks of 3: one write (and one callback) per chunk.
    assert report.matches == 40
    assert len(seen) == len(chunks(list(range(40)), 3)) == 14  # type: ignore[arg-type]
    assert seen == sorted(seen) and seen[-1] == 40


def test_workers_cap_parallelism(ray_session):
    assert RayExecutor(workers=1).workers == 1
    assert RayExecutor(workers=64).workers == 2  # no more than the cluster's CPUs


def test_chunk_size_keeps_tasks_few_but_balanced():
    assert chunk_size(10, 2) == 2
    assert chunk_size(1_000, 2) == 125  # four chunks a worker
    assert chunk_size(100_000, 2) == MAX_CHUNK
    assert chunk_size(1, 8) == 1


def test_an_unreachable_cluster_is_one_sentence_and_exit_2(tmp_path):
    result = CliRunner().invoke(app, ["run", "--game", "sticks", "--bots", "random,greedy", "--db",
                                      str(tmp_path / "t.db"), "--address", "127.0.0.1:1"])
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip() and not line.startswith("tournament ")]
    assert len(lines) == 1 and lines[0].startswith("error: cannot join the Ray cluster at 127.0.0.1:1")
    assert lines[0].endswith(".") and "Traceback" not in result.output


def test_the_cli_runs_on_ray_by_default(ray_session, tmp_path):
    result = CliRunner().invoke(app, ["run", "--game", "sticks", "--bots", "random,greedy", "--db",
                                      str(tmp_path / "t.db"), "--json", "--workers", "2"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["matches"] == 4 and sum(s["points"] for s in doc["standings"]) == 4
    assert result.stderr.startswith(f"tournament {doc['tournament_id']}")


def test_a_failing_task_is_one_sentence(ray_session, tmp_path):
    import pytest

    from tourney.workers.ray_tasks import MatchFailed

    broken = plan(config={"pile": "many"})  # int("many") raises inside the worker
    engine = open_store(str(tmp_path / "t.db"))
    with pytest.raises(MatchFailed, match="failed on a Ray worker"):
        run_tournament(engine, broken, executor=RayExecutor(workers=2))


def test_chunks_are_sized_from_observed_match_times():
    from tourney.workers.ray_tasks import ChunkTiming

    timing = ChunkTiming()
    assert timing.size(1000, 2) == 1  # nothing measured yet: one match per task
    timing.matches, timing.seconds = 10, 1.0  # 100 ms a match: five make half a second
    assert timing.size(1000, 2) == 5
    timing.matches, timing.seconds = 1000, 0.5  # 0.5 ms a match: a thousand make half a second
    assert timing.size(100_000, 2) == 1000
    timing.matches, timing.seconds = 1000, 0.01  # 10 us a match: capped
    assert timing.size(100_000, 2) == MAX_CHUNK
    assert timing.size(16, 2) == MAX_CHUNK  # 160 us of play left: one task, splitting would cost more
    timing.matches, timing.seconds = 1000, 0.5
    assert timing.size(1000, 2) == 200  # the tail is split so both workers finish together...
    assert timing.size(16, 2) == 200  # ...but into no less than 0.1 s of play a task (the queue holds 16)
    timing.matches, timing.seconds = 10, 1.0
    assert timing.size(16, 2) == 2  # long matches: balanced to the end
    timing.matches, timing.seconds = 1000, 0.5
    assert timing.size(1000, 1) == 1000  # one worker: nothing to balance, the tail is not cut...
    assert timing.size(16, 1) == 1000  # ...down to its last task (the queue holds 16)


def test_one_worker_plays_one_match_at_a_time_on_a_bigger_cluster(ray_session):
    from tests.workers.interval_plan import IntervalPlan, most_at_once

    # The session's Ray has 2 CPUs: a task queued behind the running one would start on the
    # free CPU, so `--workers 1` would play two matches at once (and a 1-worker benchmark
    # would measure two). Each match waits 50 ms, so any two played together overlap.
    for workers in (1, 2):
        played = [record for chunk in RayExecutor(workers=workers, chunk=2).run(IntervalPlan(), list(range(16)))
                  for _, record, _ in chunk]
        assert len(played) == 16
        assert most_at_once(played) <= workers, (workers, played)


def test_ray_gets_one_task_fewer_while_this_process_finishes_a_match(ray_session):
    import threading
    from collections import deque

    from tests.workers.interval_plan import IntervalPlan
    from tourney.workers.ray_tasks import IN_FLIGHT_PER_WORKER, LocalPlayer

    executor = RayExecutor(workers=2)
    ray_up, hold = threading.Event(), threading.Event()
    here = LocalPlayer(IntervalPlan(hold=hold), deque(range(4)), ray_up)
    try:
        for _ in range(6000):  # until the thread has taken its first match and waits on `hold`
            if here.playing():
                break
            here.take(timeout_s=0.01)
        ray_up.set()
        assert executor.slots(here) == 1  # with this process's match, two at once: --workers 2
    finally:
        hold.set()
        here.stop()
    for _ in range(1200):  # it finishes the held match, then sees Ray up and stops
        if not here.busy():
            break
        here.take(timeout_s=0.05)
    assert not here.playing()
    assert executor.slots(here) == IN_FLIGHT_PER_WORKER * 2  # 2 workers are all the CPUs: Ray caps what runs
    assert RayExecutor(workers=1).slots() == 1  # fewer workers than CPUs: nothing queued that Ray would start


CHILD_STARTS_RAY = """
import json, ray
from tourney.workers import RayExecutor
from tourney.tournament.entrants import Entrant
from tourney.tournament.runner import TournamentPlan
import tests.sticks  # noqa: F401
executor = RayExecutor(workers=1)
plan = TournamentPlan(game="sticks", entrants=[Entrant("a", "random"), Entrant("b", "random")], seed=1,
                      games_per_pair=2, seed_key="ray-config-test-key")
played = [p for chunk in executor.run(plan, plan.schedule()) for p in chunk]
assert executor._ready.wait(200)  # this process may have played both matches while Ray was starting
config = dict(ray._private.worker._global_node._config)
executor.close()
print(json.dumps({"played": len(played), "metrics": config.get("enable_metrics_collection")}))
"""


@pytest.mark.timeout(240)
def test_the_ray_a_run_starts_itself_does_not_collect_its_own_metrics():
    """A run that starts its own Ray (no cluster to join) turns Ray's metrics collection off: tourney exports its
    own, and Ray's costs an idle instance a third of its CPU. Checked in a child: this session's Ray is shared."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", CHILD_STARTS_RAY], cwd=root, env=env, capture_output=True, text=True,
                          timeout=220)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"played": 2, "metrics": False}
