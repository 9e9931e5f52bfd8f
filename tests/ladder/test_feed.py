"""Executors fed as they go (the ladder's use): every fed pairing is played once, and feeding stops the run."""

from __future__ import annotations

from typing import Any

import pytest

from tourney.tournament.entrants import Entrant
from tourney.tournament.ladder.plan import LadderPairing, LadderPlan
from tourney.workers import LocalExecutor, RayExecutor

PLAN = LadderPlan(game="sticks", seed_key="feed-test-key-0123456789")
SEATS = (Entrant("a", "greedy"), Entrant("b", "random"))


def fed(executor: Any) -> tuple[list[int], int]:
    batches = [[LadderPairing(n, SEATS) for n in range(b * 5, b * 5 + 5)] for b in range(1, 4)]
    calls = 0

    def more() -> list[LadderPairing]:
        nonlocal calls
        calls += 1
        return batches.pop(0) if batches else []

    first = [LadderPairing(n, SEATS) for n in range(5)]
    numbers = [p.number for chunk in executor.run(PLAN, first, more) for p, _record, _s in chunk]
    return numbers, calls


def test_the_local_executor_plays_what_it_is_fed() -> None:
    numbers, calls = fed(LocalExecutor())
    assert numbers == list(range(20)) and calls == 4  # three batches, then none: the run ends


@pytest.mark.timeout(300)
def test_ray_plays_what_it_is_fed_once_each(ray_session: Any) -> None:
    pool = RayExecutor(workers=2)
    try:
        numbers, calls = fed(pool)
        again = [p.number for chunk in pool.run(PLAN, [], lambda: []) for p, _r, _s in chunk]
    finally:
        pool.close()
    assert sorted(numbers) == list(range(20))
    assert 4 <= calls <= 20  # asked again only when its queue ran dry, once a result or fewer
    assert again == []  # nothing given, nothing fed: nothing played
