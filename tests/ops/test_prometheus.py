"""Integration: a real Prometheus scrapes our metrics endpoint while a tournament plays, and counts its matches."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

from tests.ops.prom import prometheus, query, targets_up, wait_for
from tests.sticks import private_sticks
from tourney.engine.server import metrics as m
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.metrics import MeteredExecutor, TournamentProgress
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.records import Played
from tourney.workers import LocalExecutor
from tourney.workers.executor import Feed


class PausingExecutor(LocalExecutor):
    """Plays in this process and stops after `pause_after` matches until the test lets it go on."""

    def __init__(self, pause_after: int) -> None:
        super().__init__(chunk_s=0)  # a chunk a match, as the test counts them
        self.pause_after = pause_after
        self.paused = threading.Event()
        self.go_on = threading.Event()

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing], more: Feed | None = None
            ) -> Iterator[list[Played]]:
        for i, chunk in enumerate(super().run(plan, pairings, more)):
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


def test_prometheus_scrapes_the_arena_during_a_league_round_robin(tmp_path) -> None:
    """A real arena (gRPC, a remote bot connected) plays a league's rounds; Prometheus follows it live.

    The league plays a game id of its own: other tests in this worker count (or leave playing)
    sticks matches in the same registry, and the counts here must move with this league only."""
    from datetime import timedelta

    from tests.ops.test_league import START, FakeClock
    from tourney.engine.server.client import BotClient, RandomBot
    from tourney.engine.server.config import ArenaConfig
    from tourney.engine.server.local import LocalArena
    from tourney.tournament.league.members import LeagueSettings, create_league, join_league
    from tourney.tournament.league.rounds import run_due
    from tourney.workers.league_arena import ArenaExecutor

    game = private_sticks("sticks-league-metrics").id
    port = m.serve_metrics(0, "127.0.0.1")
    engine = open_store(str(tmp_path / "l.db"))
    create_league(engine, LeagueSettings(name="live", game=game, format="round-robin", schedule="0 20 * * *"),
                  now=START)
    for alias, spec in [("alice", "remote:alice"), ("r", "random"), ("g", "greedy"), ("g2", "greedy")]:
        join_league(engine, "live", spec, alias=alias, now=START)

    def total() -> float:
        return sum(m.REGISTRY.get_sample_value("tourney_matches_total", {"game": game, "reason": r}) or 0.0
                   for r in m.TERMINATIONS)

    played = f'sum(tourney_matches_total{{game="{game}"}})'
    with prometheus([f"127.0.0.1:{port}"], tmp_path) as url, \
            LocalArena(ArenaConfig(allow_anonymous=True, default_move_ms=5000)) as local:
        client = BotClient(local.address, RandomBot(seed=1), name="alice", games=[game])
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        try:
            assert client.connected.wait(30)
            wait_for(lambda: query(url, "tourney_connected_bots") == 1, "Prometheus to see the connected bot")
            executor = ArenaExecutor(local.arena, local._loop)
            clock = FakeClock(START + timedelta(hours=21))
            before = total()
            first = run_due(engine, clock=clock, executor=executor, presence=executor.online)
            assert [r.matches for r in first] == [4]  # round 1 of 3: two pairs, two games each
            middle = total()
            assert middle == before + 4
            wait_for(lambda: query(url, played) == middle, "Prometheus to count the first round")
            assert query(url, f'sum(tourney_active_matches{{game="{game}"}})') == 0
            clock.when += timedelta(days=2)
            rest = run_due(engine, clock=clock, executor=executor, presence=executor.online)
            assert [r.matches for r in rest] == [4, 4]
            wait_for(lambda: query(url, played) == middle + 8, "Prometheus to count the whole season")
            decisions = query(url, f'sum(tourney_decisions_total{{game="{game}"}})')
            assert decisions is not None and decisions >= 12 * 2
            started = query(url, 'sum(grpc_server_started_total{grpc_service="tourney.v1.Arena",grpc_method="Play"})')
            assert started is not None and started >= 1
        finally:
            client.cancel()
            thread.join(30)
