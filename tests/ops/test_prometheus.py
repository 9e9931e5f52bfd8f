"""Integration: a real Prometheus scrapes our metrics endpoint while a tournament plays, and counts its matches."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

from engine.server import metrics as m
from tests.ops.prom import prometheus, query, targets_up, wait_for
from tournament.entrants import Entrant
from tournament.metrics import MeteredExecutor, TournamentProgress
from tournament.round_robin import Pairing
from tournament.runner import InProcess, Played, TournamentPlan, run_tournament
from tournament.store import open_store


class PausingExecutor(InProcess):
    """Plays in this process and stops after `pause_after` matches until the test lets it go on."""

    def __init__(self, pause_after: int) -> None:
        self.pause_after = pause_after
        self.paused = threading.Event()
        self.go_on = threading.Event()

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing]) -> Iterator[list[Played]]:
        for i, chunk in enumerate(super().run(plan, pairings)):
            yield chunk
            if i + 1 == self.pause_after:
                self.paused.set()
                assert self.go_on.wait(60), "the test never let the tournament go on"


def test_prometheus_counts_the_matches_of_a_running_tournament(tmp_path) -> None:
    port = m.serve_metrics(0, "127.0.0.1")
    bots = [Entrant("random", "random"), Entrant("greedy", "greedy"), Entrant("r2", "random"),
            Entrant("g2", "greedy")]
    plan = TournamentPlan(game="sticks", entrants=bots, seed=11, games_per_pair=4)  # 24 matches
    engine = open_store(str(tmp_path / "t.db"))
    gate = PausingExecutor(pause_after=10)
    progress = TournamentProgress()
    reports = []
    with prometheus([f"127.0.0.1:{port}"], tmp_path) as url:
        wait_for(lambda: targets_up(url) == 1, "the metrics endpoint to be scraped")
        base = m.REGISTRY.get_sample_value("tourney_matches_total", {"game": "sticks", "reason": "normal"}) or 0.0
        thread = threading.Thread(target=lambda: reports.append(run_tournament(
            engine, plan, executor=MeteredExecutor(gate), on_start=progress.start, on_match=progress.progress)))
        thread.start()
        try:
            assert gate.paused.wait(60)
            # Mid-tournament: Prometheus sees the 10 matches played so far and 14 still to play.
            sticks = 'sum(tourney_matches_total{game="sticks"})'
            remaining = f'tourney_tournament_matches_remaining{{tournament="{progress.tournament}"}}'
            wait_for(lambda: query(url, remaining) == 14, "Prometheus to see 14 matches remaining")
            mid = query(url, sticks)
            assert mid is not None and mid >= base + 10
        finally:
            gate.go_on.set()
            thread.join(60)
        assert reports and reports[0].matches == 24
        final = sum(m.REGISTRY.get_sample_value("tourney_matches_total", {"game": "sticks", "reason": r}) or 0.0
                    for r in m.TERMINATIONS)
        wait_for(lambda: query(url, sticks) == final, f"Prometheus to count {final} sticks matches")
        assert final - mid >= 14
        wait_for(lambda: query(url, remaining) == 0, "the tournament to show as done")
        decisions = query(url, 'sum(tourney_decisions_total{game="sticks"})')
        assert decisions is not None and decisions >= 24 * 2
