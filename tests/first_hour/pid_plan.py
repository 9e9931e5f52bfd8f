"""A match plan that records which process played each pairing (for the no-waiting-for-Ray test).

The driver plays slowly (it stands in for a long match) so that Ray, however long it takes to
start, comes up long before the driver alone could finish: both must have played.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class PidPlan:
    """Plays pairing k as (k, k*k, pid): a pure result plus who played it."""

    driver_pid: int
    game: str = "tiny-ninjas"

    def play(self, pairing: int) -> tuple[int, tuple[int, int], float]:
        if os.getpid() == self.driver_pid:
            time.sleep(0.5)
        return pairing, (pairing * pairing, os.getpid()), 0.001


PAIRINGS = 1000


def main() -> None:
    """Run the plan on a fresh RayExecutor (Ray not started yet) and print who played what."""
    import json

    from tourney.workers import RayExecutor

    executor = RayExecutor(workers=2)
    plan = PidPlan(os.getpid())
    rows = [list(played) for chunk in executor.run(plan, list(range(PAIRINGS))) for played in chunk]
    executor.close()
    print(json.dumps({"driver": os.getpid(), "rows": rows}))


if __name__ == "__main__":
    main()
