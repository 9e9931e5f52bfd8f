"""Run a tournament on a 2-node Ray cluster and kill one worker node mid-run (used by test_node_loss).

Started in its own process because a process can hold only one Ray session and the other
tests share theirs. Prints one JSON document: the stored results and how many chunks had
arrived when the node died.
"""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

import tests.sticks  # noqa: E402,F401
from tourney.tournament.entrants import Entrant  # noqa: E402
from tourney.tournament.runner import TournamentPlan, run_tournament  # noqa: E402
from tourney.tournament.store.database import open_store  # noqa: E402
from tourney.tournament.store.reads import load_history  # noqa: E402
from tourney.workers import RayExecutor  # noqa: E402


def main(db: str) -> None:
    # The head runs no tasks, so every match is played on one of the two worker nodes.
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    doomed = cluster.add_node(num_cpus=1)
    cluster.add_node(num_cpus=1)
    ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
    cluster.wait_for_nodes()
    bots = [Entrant("random", "random"), Entrant("i1", "ismcts:iterations=150"), Entrant("greedy", "greedy"),
            Entrant("i2", "ismcts:iterations=100")]
    plan = TournamentPlan(game="sticks", entrants=bots, seed=21, games_per_pair=8, seed_key="node-loss-0123456789")
    engine = open_store(db)
    state = {"chunks": 0, "killed_at": None}

    def on_match(done: int, total: int) -> None:
        state["chunks"] += 1
        if state["chunks"] == 2:
            # Kill it hard while it is playing its next chunk: Ray must retry that task elsewhere.
            cluster.remove_node(doomed, allow_graceful=False)
            state["killed_at"] = done

    report = run_tournament(engine, plan, executor=RayExecutor(workers=2, chunk=2), on_match=on_match)
    history = load_history(engine, report.tournament_id, [e.alias for e in bots])
    alive = sum(1 for n in ray.nodes() if n["Alive"])
    print("RESULT " + json.dumps({"killed_at": state["killed_at"], "alive_nodes": alive, "matches": report.matches,
                      "results": [[g.number, list(g.seats), list(g.points)] for g in history]}), flush=True)
    ray.shutdown()
    cluster.shutdown()


if __name__ == "__main__":
    main(sys.argv[1])
