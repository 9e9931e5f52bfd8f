"""Metrics: live arena counts, driver counts from results (in-process and Ray), bounded labels, HTTP."""

from __future__ import annotations

import asyncio
import threading
import urllib.request

import grpc
from prometheus_client.parser import text_string_to_metric_families
from sqlmodel import Session, select

from tests.sticks import private_sticks
from tourney.engine.bots import make_bot
from tourney.engine.referee import Decision, play_match
from tourney.engine.server import metrics as m
from tourney.engine.server.arena import Arena
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.generated import arena_pb2_grpc as pb_grpc
from tourney.engine.server.servicer import ArenaServicer, arena_handler
from tourney.tournament.entrants import Entrant
from tourney.tournament.metrics import MeteredExecutor, TournamentProgress
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match, MatchSeat
from tourney.workers import LocalExecutor


def value(name: str, **labels: str) -> float:
    return m.REGISTRY.get_sample_value(name, labels) or 0.0


def snapshot(game: str) -> dict[str, float]:
    return {
        "matches": sum(value("tourney_matches_total", game=game, reason=r) for r in m.TERMINATIONS | {m.OTHER}),
        "decisions": value("tourney_decisions_total", game=game),
        "decision_obs": value("tourney_decision_seconds_count", game=game),
        "match_obs": value("tourney_match_duration_seconds_count", game=game),
        "faults": sum(value("tourney_bot_faults_total", game=game, kind=k) for k in (*m.FAULT_KINDS, m.OTHER)),
    }


def delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {k: after[k] - before[k] for k in before}


class Crasher:
    def act(self, request: object) -> int:
        raise RuntimeError("bug")


def test_live_match_metrics_count_every_decision_and_fault() -> None:
    # A game id of its own: other tests in this worker count their sticks matches in the same registry.
    game = private_sticks("sticks-live-metrics")
    live = m.MatchMetrics()
    before = snapshot(game.id)
    results = []
    for seed in range(5):
        live.started(game.id)
        assert value("tourney_active_matches", game=game.id) >= 1
        result = play_match(game.id, [make_bot("random", game, seed), make_bot("random", game, seed + 1)], seed,
                            on_decision=live.decision)
        live.finished(game.id, result, 0.01)
        results.append(result)
    live.started(game.id)
    crashed = play_match(game.id, [Crasher(), make_bot("random", game, 1)], 9, on_decision=live.decision)
    live.finished(game.id, crashed, 0.01)
    d = delta(before, snapshot(game.id))
    total_decisions = sum(st.decisions for r in [*results, crashed] for st in r.seats)
    assert d["matches"] == 6 and d["match_obs"] == 6
    assert d["decisions"] == d["decision_obs"] == total_decisions
    assert d["faults"] == 1 and crashed.termination == "crash"
    assert value("tourney_active_matches", game=game.id) == 0


def test_labels_stay_bounded() -> None:
    assert m.game_label("sticks") == "sticks"
    assert m.game_label("match-4f2a9c") == m.OTHER
    assert m.termination_label("seat 1 timeout") == m.OTHER
    assert m.termination_label("timeout") == "timeout"
    assert m.fault_label("weird") == m.OTHER
    before = value("tourney_matches_total", game=m.OTHER, reason=m.OTHER)
    m.observe_match("no-such-game", "free text reason", 1.0, [[Decision(0, 1, 2.0, "made-up")]])
    assert value("tourney_matches_total", game=m.OTHER, reason=m.OTHER) == before + 1
    assert value("tourney_bot_faults_total", game=m.OTHER, kind=m.OTHER) >= 1
    assert value("tourney_matches_total", game="no-such-game", reason="free text reason") == 0


def _plan(game: str = "sticks") -> TournamentPlan:
    bots = [Entrant("random", "random"), Entrant("greedy", "greedy"), Entrant("r2", "random")]
    return TournamentPlan(game=game, entrants=bots, seed=3, games_per_pair=4)


def _stored_totals(engine: object, tid: int) -> tuple[int, int, int]:
    with Session(engine) as session:  # type: ignore[arg-type]
        matches = session.exec(select(Match).where(Match.tournament_id == tid)).all()
        ids = [x.id for x in matches]
        seats = session.exec(select(MatchSeat).where(MatchSeat.match_id.in_(ids))).all()  # type: ignore
        import json
        faults = sum(sum(json.loads(s.faults_json).values()) for s in seats)
        return len(matches), sum(s.decisions for s in seats), faults


def _run_metered(tmp_path, executor, game: str = "sticks") -> None:
    engine = open_store(str(tmp_path / "t.db"))
    before = snapshot(game)
    progress = TournamentProgress()
    seen: list[float] = []

    def tick(done: int, total: int) -> None:
        progress.progress(done, total)
        seen.append(value("tourney_tournament_matches_remaining", tournament=progress.tournament or ""))

    report = run_tournament(engine, _plan(game), executor=MeteredExecutor(executor), on_start=progress.start,
                            on_match=tick)
    progress.finish()
    matches, decisions, faults = _stored_totals(engine, report.tournament_id)
    d = delta(before, snapshot(game))
    assert matches == 12
    assert d["matches"] == d["match_obs"] == matches
    assert d["decisions"] == d["decision_obs"] == decisions
    assert d["faults"] == faults
    assert seen[-1] == 0 and seen == sorted(seen, reverse=True) and seen[0] > 0
    assert value("tourney_worker_busy") == 0


def test_driver_counts_matches_from_results_in_process(tmp_path) -> None:
    _run_metered(tmp_path, LocalExecutor(chunk_s=0), private_sticks("sticks-driver-metrics").id)


def test_driver_counts_matches_played_on_ray_workers(tmp_path, ray_session) -> None:
    from tourney.workers import RayExecutor

    executor = RayExecutor(workers=2, chunk=2)
    _run_metered(tmp_path, executor)
    assert value("tourney_worker_slots") == 2


def test_metrics_endpoint_serves_the_registry() -> None:
    port = m.serve_metrics(0, "127.0.0.1")
    m.observe_match("sticks", "normal", 0.5)
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    names = {s.name for family in text_string_to_metric_families(text) for s in family.samples}
    assert "tourney_matches_total" in names and "tourney_match_duration_seconds_bucket" in names
    assert "process_cpu_seconds_total" in names


def test_grpc_interceptor_counts_requests_by_method_and_code() -> None:
    arena = Arena(ArenaConfig(allow_anonymous=True, admin_token="secret"))
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    state: dict[str, object] = {}

    def serve() -> None:
        asyncio.set_event_loop(loop)

        async def main() -> None:
            server = grpc.aio.server(interceptors=[m.MetricsInterceptor(m.arena_methods())])
            server.add_generic_rpc_handlers((arena_handler(ArenaServicer(arena)),))
            state["port"] = server.add_insecure_port("127.0.0.1:0")
            await server.start()
            stop = asyncio.Event()
            state["stop"] = stop
            ready.set()
            await stop.wait()
            await server.stop(0.5)

        loop.run_until_complete(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(30)
    ok = ("unary", "tourney.v1.Arena", "ListGames")
    run = ("unary", "tourney.v1.Arena", "RunMatch")
    before_ok = value("grpc_server_handled_total", grpc_type=ok[0], grpc_service=ok[1], grpc_method=ok[2],
                      grpc_code="OK")
    before_denied = sum(value("grpc_server_handled_total", grpc_type=run[0], grpc_service=run[1],
                              grpc_method=run[2], grpc_code=c) for c in ("PERMISSION_DENIED", "UNAUTHENTICATED"))
    before_unknown = value("grpc_server_handled_total", grpc_type="unary", grpc_service="unknown",
                           grpc_method="unknown", grpc_code="UNIMPLEMENTED")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{state['port']}") as channel:
            stub = pb_grpc.ArenaStub(channel)
            for _ in range(3):
                stub.ListGames(pb.ListGamesRequest(), timeout=30)
            try:
                stub.RunMatch(pb.RunMatchRequest(admin_token="wrong", game="sticks", seats=["random", "random"]),
                              timeout=30)
                raise AssertionError("RunMatch with a wrong admin token succeeded")
            except grpc.RpcError as exc:
                code = exc.code().name
            bogus = channel.unary_unary("/made.up.Service/Anything", request_serializer=lambda b: b,
                                        response_deserializer=lambda b: b)
            try:
                bogus(b"", timeout=30)
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.UNIMPLEMENTED
    finally:
        loop.call_soon_threadsafe(state["stop"].set)  # type: ignore[attr-defined]
        thread.join(30)
    assert value("grpc_server_handled_total", grpc_type=ok[0], grpc_service=ok[1], grpc_method=ok[2],
                 grpc_code="OK") == before_ok + 3
    assert value("grpc_server_handled_total", grpc_type=run[0], grpc_service=run[1], grpc_method=run[2],
                 grpc_code=code) == (before_denied + 1 if code in ("PERMISSION_DENIED", "UNAUTHENTICATED") else 1)
    assert value("grpc_server_handled_total", grpc_type="unary", grpc_service="unknown", grpc_method="unknown",
                 grpc_code="UNIMPLEMENTED") == before_unknown + 1
    assert value("grpc_server_handling_seconds_count", grpc_type=ok[0], grpc_service=ok[1],
                 grpc_method=ok[2]) >= 3


def test_instrument_wires_executor_and_progress_for_tourney_run(tmp_path) -> None:
    from tourney.tournament.metrics import instrument

    calls: list[tuple[int, int]] = []
    same = instrument(LocalExecutor(), None, None, calls.append)  # type: ignore[arg-type]
    assert same[0].__class__ is LocalExecutor
    executor, on_start, on_match = instrument(LocalExecutor(), 0, None, lambda d, t: calls.append((d, t)))
    assert isinstance(executor, MeteredExecutor)
    game = private_sticks("sticks-instrumented").id
    before = snapshot(game)
    report = run_tournament(open_store(str(tmp_path / "i.db")), _plan(game), executor=executor, on_start=on_start,
                            on_match=on_match)
    executor.close()
    assert delta(before, snapshot(game))["matches"] == report.matches == 12
    assert calls[-1] == (12, 12)
    assert value("tourney_tournament_matches_remaining", tournament=str(report.tournament_id)) == 0


def test_tourney_run_with_metrics_port_counts_its_matches(tmp_path) -> None:
    import json

    from typer.testing import CliRunner

    from tourney.tournament.cli import app

    game = private_sticks("sticks-cli-metrics").id
    before = snapshot(game)
    done = CliRunner().invoke(app, ["run", "--game", game, "--bots", "random,greedy,random@r2", "--local",
                                    "--games-per-pair", "2", "--metrics-port", "0", "--db", str(tmp_path / "r.db"),
                                    "--json"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    d = delta(before, snapshot(game))
    assert d["matches"] == doc["matches"] == 6
    assert d["decisions"] > 0
    assert value("tourney_tournament_matches_remaining", tournament=str(doc["tournament_id"])) == 0


def test_decision_tally_exports_what_a_prometheus_histogram_would() -> None:
    from prometheus_client import CollectorRegistry, Counter, Histogram

    reference = CollectorRegistry()
    counter = Counter("tourney_decisions", "d", ["game"], registry=reference)
    hist = Histogram("tourney_decision_seconds", "s", ["game"], buckets=m.DECISION_BUCKETS, registry=reference)
    ours = CollectorRegistry()
    tally = m.DecisionTally(m.DECISION_BUCKETS)
    ours.register(tally)
    # Bucket edges exactly, between them, below the first and beyond the last.
    values = [0.0, 0.00005, 0.0001, 0.0003, 0.001, 0.7, 1.0, 29.9, 30.0, 31.0, 500.0] * 3
    for i, seconds in enumerate(values):
        game = ("a", "b")[i % 2]
        tally.observe(game, seconds)
        counter.labels(game).inc()
        hist.labels(game).observe(seconds)

    def samples(registry: CollectorRegistry) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        return {(s.name, tuple(sorted(s.labels.items()))): s.value
                for family in registry.collect() for s in family.samples if not s.name.endswith("_created")}

    expected, got = samples(reference), samples(ours)
    assert got.keys() == expected.keys()
    assert all(abs(got[k] - expected[k]) < 1e-9 for k in expected), {k: (got[k], expected[k]) for k in expected}
