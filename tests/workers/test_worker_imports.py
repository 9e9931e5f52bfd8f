"""A Ray worker imports only what playing needs: a task's payload pulls in no database, web or CLI library.

A worker unpickles the task (play_chunk, the plan, its pairings) and plays; everything those
imports drag in is paid once per worker process, in time and memory, before its first match.
The payload is made here by Ray's own serializer (cloudpickle: functions and classes by
reference, as a worker receives them) and run in a fresh interpreter, which reports the modules
it ended up holding.
"""

from __future__ import annotations

import json
import subprocess
import sys

import ray.cloudpickle

from tourney.tournament.entrants import Entrant
from tourney.tournament.runner import TournamentPlan
from tourney.workers.ray_tasks import play_chunk, unpack_chunk

# What the driver needs and a worker must not load: the store's database layer, the web app, the CLI,
# the Swiss pairer's graph library, Ray's own dashboard and gRPC, numpy.
DRIVER_ONLY = ("sqlalchemy", "sqlmodel", "alembic", "pydantic", "fastapi", "starlette", "typer", "rich", "rustworkx",
               "openskill", "grpc", "numpy")

WORKER = """
import json, pickle, sys
task, unpack, plan, pairings = pickle.loads(sys.stdin.buffer.read())
played = unpack(task(plan, pairings), pairings)
print(json.dumps({"played": [[p.number, r.reason, [s.tier for s in r.seats]] for p, r, _ in played],
                  "modules": sorted({name.split(".")[0] for name in sys.modules})}))
"""


def test_a_worker_unpickling_and_playing_a_chunk_imports_nothing_the_driver_alone_needs():
    plan = TournamentPlan(game="tiny-ninjas", entrants=[Entrant("random", "random"), Entrant("greedy", "greedy")],
                          seed=3, games_per_pair=4, seed_key="worker-imports")
    pairings = plan.schedule()
    payload = ray.cloudpickle.dumps((play_chunk, unpack_chunk, plan, pairings))
    done = subprocess.run([sys.executable, "-c", WORKER], input=payload, capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    report = json.loads(done.stdout)
    assert [m for m in DRIVER_ONLY if m in report["modules"]] == []
    # and it played the chunk as this process does
    played = unpack_chunk(play_chunk(plan, pairings), pairings)
    here = [[p.number, r.reason, [s.tier for s in r.seats]] for p, r, _ in played]
    assert report["played"] == here
