"""--local plays in this process and hands matches back in chunks cut by play time, so the driver
writes a transaction per chunk, not per match (issue 32), without changing a result."""

from __future__ import annotations

import threading
from collections import deque

from tourney.tournament.entrants import Entrant
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.reads import load_history
from tourney.workers import LocalExecutor
from tourney.workers.executor import MAX_CHUNK
from tourney.workers.local import LOCAL_CHUNK_S
from tourney.workers.ray_tasks import LocalPlayer


class StepClock:
    """A clock that moves `step` seconds each time it is read: each match "takes" about that long."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


class Numbered:
    """A plan whose matches are their own numbers (what the executor hands back is all that matters)."""

    game = "sticks"

    def play(self, pairing: int) -> tuple[int, None, float]:
        return pairing, None, 0.0


def test_short_matches_come_back_in_chunks_of_at_most_max_chunk_in_schedule_order():
    n = 3 * MAX_CHUNK + 8
    chunks = list(LocalExecutor(clock=StepClock(1e-6)).run(Numbered(), list(range(n))))
    assert [len(c) for c in chunks] == [MAX_CHUNK, MAX_CHUNK, MAX_CHUNK, 8]
    assert [p for c in chunks for p, _, _ in c] == list(range(n))


def test_a_chunk_closes_once_its_play_time_passes_the_limit():
    # Each read of the clock moves it a third of the limit: a chunk closes after two matches.
    chunks = list(LocalExecutor(clock=StepClock(LOCAL_CHUNK_S / 3)).run(Numbered(), list(range(7))))
    assert all(len(c) < MAX_CHUNK for c in chunks) and len(chunks) > 1
    assert [p for c in chunks for p, _, _ in c] == list(range(7))


def test_long_matches_are_one_chunk_each():
    chunks = list(LocalExecutor(clock=StepClock(1.01 * LOCAL_CHUNK_S)).run(Numbered(), list(range(5))))
    assert [len(c) for c in chunks] == [1] * 5


def test_no_pairings_no_chunks():
    assert list(LocalExecutor().run(Numbered(), [])) == []


def test_chunked_local_play_stores_exactly_what_one_by_one_play_does(tmp_path):
    bots = [Entrant("random", "random"), Entrant("greedy", "greedy"), Entrant("r2", "random")]
    plan = TournamentPlan(game="sticks", entrants=bots, seed=5, games_per_pair=30, seed_key="local-chunks-test-key")
    one, chunked = open_store(str(tmp_path / "one.db")), open_store(str(tmp_path / "chunked.db"))
    writes: list[int] = []
    a = run_tournament(one, plan, executor=LocalExecutor(chunk_s=0))
    b = run_tournament(chunked, plan, executor=LocalExecutor(), on_match=lambda done, total: writes.append(done))
    aliases = [e.alias for e in bots]
    assert [(g.number, g.seats, g.points, g.seed) for g in load_history(one, a.tournament_id, aliases)] == \
        [(g.number, g.seats, g.points, g.seed) for g in load_history(chunked, b.tournament_id, aliases)]
    assert [(s.alias, s.points, s.mu) for s in a.standings] == [(s.alias, s.points, s.mu) for s in b.standings]
    assert b.matches == 90 and writes[-1] == 90
    assert len(writes) < 90  # fewer writes than matches: at least two matches shared a transaction


def test_while_ray_starts_the_matches_this_process_finished_come_back_as_one_chunk():
    here = LocalPlayer(Numbered(), deque(range(50)), threading.Event())  # Ray never comes up here
    here._thread.join(30)  # it stops by itself once the queue is empty
    assert not here._thread.is_alive()
    taken = here.take(timeout_s=0.0)
    assert len(taken) == 1 and [p for p, _, _ in taken[0]] == list(range(50))
    assert here.take(timeout_s=0.0) == []  # nothing new: no empty chunk either
