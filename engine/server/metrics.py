"""Prometheus metrics of the arena and the tournament driver (one registry, one set of names).

Names follow Prometheus conventions (`_total` counters, `_seconds` histograms). Every label
value is bounded: games are the registered game ids, `reason` is the referee's termination
kind (never its free-text reason), fault kinds are the referee's taxonomy, gRPC methods come
from the served descriptors. Anything else is reported as "other", so a buggy or hostile
client cannot grow the series count.

Two ways to count a match, never both for the same match:
- live (arena): `MatchMetrics.started`, `.decision` (the referee's on_decision) and `.finished`;
- after the fact (tournament driver, Ray workers): `observe_result` / `observe_match` read the
  decisions and faults from the replay, so a match played in another process is counted once,
  when its result reaches the driver.
"""

from __future__ import annotations

import bisect
import inspect
import itertools
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any

import grpc
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from tourney.engine.core import FAULT_KINDS, Termination, available_games
from tourney.engine.core.ports import bind_error, check_port
from tourney.engine.referee import Decision, MatchResult
from tourney.engine.server.metrics_http import start_metrics_http

# A registry of our own (not the process-global default): tests and the dashboard check read exactly
# what is exported, and two arenas in one test process do not collide.
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

OTHER = "other"
BYE = "bye"
TERMINATIONS = frozenset((Termination.NORMAL, Termination.ADJUDICATION, Termination.ABORTED, BYE, *FAULT_KINDS))

# Whole matches take from milliseconds (sticks, random bots) to an hour (search bots, long games).
MATCH_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600)
# Bot think time: microseconds for random bots, up to the per-move limit (10 s by default).
DECISION_BUCKETS = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

MATCHES = Counter("tourney_matches", "Finished matches by game and how they ended (termination kind).",
                  ["game", "reason"], registry=REGISTRY)
MATCH_SECONDS = Histogram("tourney_match_duration_seconds", "Wall time of a whole match.", ["game"],
                          buckets=MATCH_BUCKETS, registry=REGISTRY)


class DecisionTally(Collector):
    """`tourney_decisions_total` and the `tourney_decision_seconds` histogram, by game.

    The arena counts every decision of every match as it happens, so this is the hottest
    metric: one lock and a few integer additions here, where prometheus_client's Counter and
    Histogram take three locks and scan every bucket. Prometheus reads the same families.
    """

    def __init__(self, buckets: Sequence[float]) -> None:
        self.bounds = tuple(buckets)
        self._lock = threading.Lock()
        self._games: dict[str, list[float]] = {}  # game -> [count per bucket (+Inf last), ..., sum]

    def observe(self, game: str, seconds: float) -> None:
        """Count one decision that took `seconds` (game is already a label value)."""
        slot = bisect.bisect_left(self.bounds, seconds)
        with self._lock:
            row = self._games.get(game)
            if row is None:
                row = self._games[game] = [0.0] * (len(self.bounds) + 2)
            row[slot] += 1
            row[-1] += seconds

    def prime(self, game: str) -> None:
        """Export `game`'s series at zero before its first decision (increase() needs a first sample)."""
        with self._lock:
            self._games.setdefault(game, [0.0] * (len(self.bounds) + 2))

    def collect(self) -> Iterable[Metric]:
        with self._lock:
            rows = {game: list(row) for game, row in self._games.items()}
        decisions = CounterMetricFamily("tourney_decisions", "Decisions asked of bots.", labels=["game"])
        seconds = HistogramMetricFamily("tourney_decision_seconds", "Bot think time per decision.",
                                        labels=["game"])
        for game, row in sorted(rows.items()):
            cumulative = list(itertools.accumulate(row[:-1]))
            decisions.add_metric([game], cumulative[-1])
            bounds = [*(floatToGoString(b) for b in self.bounds), "+Inf"]  # type: ignore[no-untyped-call]
            seconds.add_metric([game], list(zip(bounds, cumulative, strict=True)), row[-1])
        return [decisions, seconds]


DECISIONS = DecisionTally(DECISION_BUCKETS)
REGISTRY.register(DECISIONS)
FAULTS = Counter("tourney_bot_faults", "Bot faults by kind (timeout, illegal_move, crash, disconnection).",
                 ["game", "kind"], registry=REGISTRY)
ACTIVE = Gauge("tourney_active_matches", "Matches being played right now.", ["game"], registry=REGISTRY)
CONNECTED = Gauge("tourney_connected_bots", "Bot sessions connected to the arena.", registry=REGISTRY)
REMAINING = Gauge("tourney_tournament_matches_remaining", "Matches a running tournament still has to play "
                  "(by tournament id).", ["tournament"], registry=REGISTRY)
WORKER_SLOTS = Gauge("tourney_worker_slots", "Matches the driver's executor may play at once (Ray workers).",
                     registry=REGISTRY)
WORKER_BUSY = Gauge("tourney_worker_busy", "Executor slots holding unfinished work (chunks in flight).",
                    registry=REGISTRY)

# The gRPC server's own request metrics, named as in go-grpc-prometheus so stock dashboards work.
GRPC_STARTED = Counter("grpc_server_started", "RPCs started on the server.",
                       ["grpc_type", "grpc_service", "grpc_method"], registry=REGISTRY)
GRPC_HANDLED = Counter("grpc_server_handled", "RPCs completed on the server, by status code.",
                       ["grpc_type", "grpc_service", "grpc_method", "grpc_code"], registry=REGISTRY)
GRPC_SECONDS = Histogram("grpc_server_handling_seconds", "Time from an RPC's start to its end.",
                         ["grpc_type", "grpc_service", "grpc_method"],
                         buckets=(0.001, 0.005, 0.025, 0.1, 0.5, 2.5, 10, 60, 600, 3600), registry=REGISTRY)

LEAGUE_STATUSES = ("done", "skipped", "missed", "released")
LEAGUE_ROUNDS = Counter("tourney_league_rounds", "League schedule slots handled, by status (done, skipped: too few "
                        "members, missed: passed over by the catch-up policy, released: stopped mid-round).",
                        ["status"], registry=REGISTRY)
LEAGUE_MATCHES = Counter("tourney_league_matches", "League matches, played or forfeited (a bot offline).",
                         ["outcome"], registry=REGISTRY)
LEAGUE_OUTCOMES = ("played", "forfeit")

_games_lock = threading.Lock()
_games: frozenset[str] = frozenset()


def game_label(game_id: str) -> str:
    """The game id when it is a registered game, else "other" (bounded label values)."""
    global _games
    if game_id in _games:
        return game_id
    with _games_lock:
        _games = frozenset(g.id for g in available_games())
    return game_id if game_id in _games else OTHER


def termination_label(termination: str) -> str:
    value = termination.lower()
    return value if value in TERMINATIONS else OTHER


def fault_label(kind: str) -> str:
    return kind if kind in FAULT_KINDS else OTHER


def exported_names() -> set[str]:
    """Every sample name the registry can expose (counters' _total, histograms' _bucket/_sum/_count)."""
    suffixes = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_sum", "_count", "_created"),
                "gauge": ("",), "summary": ("_sum", "_count", "_created"), "info": ("_info",)}
    names: set[str] = set()
    for family in REGISTRY.collect():
        for suffix in suffixes.get(family.type, ("",)):
            names.add(family.name + suffix)
        names.update(s.name for s in family.samples)
    return names


def observe_decisions(game: str, decisions: Iterable[Decision]) -> None:
    """Count decisions and their faults (game is already a label value)."""
    for d in decisions:
        DECISIONS.observe(game, d.ms / 1000.0)
        if d.fault is not None:
            FAULTS.labels(game, fault_label(d.fault)).inc()


def observe_match(game_id: str, termination: str, seconds: float,
                  steps: Sequence[Sequence[Decision]] | None = None) -> None:
    """Count one finished match; with `steps` (its replay) also its decisions and faults."""
    game = game_label(game_id)
    MATCHES.labels(game, termination_label(termination)).inc()
    MATCH_SECONDS.labels(game).observe(max(0.0, seconds))
    if steps is not None:
        observe_decisions(game, (d for step in steps for d in step))


def observe_result(result: MatchResult, seconds: float) -> None:
    """Count a match played where no live metrics were taken (another process, real-time mode)."""
    observe_match(result.game_id, result.termination, seconds, result.replay.steps)


class MatchMetrics:
    """Live metrics of matches played in this process (the arena's referee threads).

    The label children of each registered game are looked up once: `decision` runs on every
    decision, `started` and `finished` on every match (a short match is a few decisions).
    """

    def __init__(self) -> None:
        self._series: dict[str, _GameSeries] = {}  # registered game ids only, so it stays bounded

    def _of(self, game_id: str) -> _GameSeries:
        series = self._series.get(game_id)
        if series is None:
            series = _GameSeries(game_label(game_id))
            if series.game != OTHER:
                self._series[game_id] = series
        return series

    def started(self, game_id: str) -> None:
        self._of(game_id).active.inc()

    def decision(self, game_id: str, decision: Decision) -> None:
        """The referee's on_decision callback: one timed answer of one seat."""
        game = self._of(game_id).game
        DECISIONS.observe(game, decision.ms / 1000.0)
        if decision.fault is not None:
            FAULTS.labels(game, fault_label(decision.fault)).inc()

    def finished(self, game_id: str, result: MatchResult | None, seconds: float, live: bool = True) -> None:
        """The match is over (result None: it was aborted). Without live decisions, count them from the replay."""
        series = self._of(game_id)
        series.active.dec()
        series.ended(Termination.ABORTED if result is None else result.termination).inc()
        series.seconds.observe(max(0.0, seconds))
        if result is not None and not live:
            observe_decisions(series.game, (d for step in result.replay.steps for d in step))

    def connected_bots(self, count: Callable[[], float]) -> None:
        """Read the number of connected bots from `count` at every scrape."""
        CONNECTED.set_function(count)


class _GameSeries:
    """One game's match series (`game` is its label value), bound once."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.active = ACTIVE.labels(game)
        self.seconds = MATCH_SECONDS.labels(game)
        self._ended: dict[str, Any] = {}  # termination label -> counter child (bounded by TERMINATIONS)

    def ended(self, termination: str) -> Any:
        """The tourney_matches_total child of this game and `termination`."""
        label = termination_label(termination)
        child = self._ended.get(label)
        if child is None:
            child = self._ended[label] = MATCHES.labels(self.game, label)
        return child


def prime() -> None:
    """Create every labelled series at zero for its known label values: every registered game with
    every termination and fault kind, every league status.

    A counter that first appears at its first event hides that event from increase() and rate()
    (Prometheus has no earlier sample to compare with), so the first faults would never show.
    Repeating this is harmless: existing series keep their values.
    """
    games = sorted({game_label(g.id) for g in available_games()} | {OTHER})
    for game in games:
        for termination in sorted(TERMINATIONS | {OTHER}):
            MATCHES.labels(game, termination)
        for kind in (*FAULT_KINDS, OTHER):
            FAULTS.labels(game, kind)
        MATCH_SECONDS.labels(game)
        ACTIVE.labels(game)
        DECISIONS.prime(game)
    for status in LEAGUE_STATUSES:
        LEAGUE_ROUNDS.labels(status)
    for outcome in LEAGUE_OUTCOMES:
        LEAGUE_MATCHES.labels(outcome)


def serve_metrics(port: int, host: str = "127.0.0.1") -> int:
    """Expose REGISTRY over HTTP on host:port (0 picks a free port); returns the bound port.

    Every known series is primed at zero first, so the first scrape already shows them all.
    Listening on every interface (0.0.0.0) is the caller's explicit choice (--metrics-host).
    """
    check_port(port, "--metrics-port")
    prime()
    try:
        server, _thread = start_metrics_http(port, host, REGISTRY)
    except OSError as exc:
        raise bind_error(exc, "metrics", host, port, "--metrics-port", "--metrics-host") from None
    return int(server.server_address[1])


# ---------------------------------------------------------------------- gRPC server interceptor

def _type_of(handler: grpc.RpcMethodHandler) -> str:
    if handler.request_streaming and handler.response_streaming:
        return "bidi_stream"
    if handler.request_streaming:
        return "client_stream"
    if handler.response_streaming:
        return "server_stream"
    return "unary"


def _code_of(context: Any, error: BaseException | None) -> str:
    """The status the call ended with: what the servicer set, else OK, or UNKNOWN after an exception."""
    code = None
    try:
        code = context.code()
    except Exception:  # older grpc: no code() on the context
        code = None
    if isinstance(code, grpc.StatusCode):
        return str(code.name)
    if isinstance(code, int):
        for status in grpc.StatusCode:
            if status.value[0] == code:
                return str(status.name)
    if error is None:
        return "OK"
    import asyncio

    return "CANCELLED" if isinstance(error, asyncio.CancelledError) else "UNKNOWN"


class MetricsInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Counts every RPC by service, method and final status code, and times it.

    `methods` are the full method names served ("/pkg.Service/Method"); any other name (a
    client calling something that does not exist) is counted as service and method "unknown".
    Each served method's handler is wrapped once, with its label children bound once: a short
    match is one RunMatch call, so the per-call cost counts (prometheus_client's `labels()` is a
    locked dict lookup each time).
    """

    def __init__(self, methods: Iterable[str] = ()) -> None:
        self.methods = frozenset(methods)
        for method in sorted(self.methods):
            prime_grpc(method)
        # method -> (the servicer's handler, its counted wrapper); at most one entry per served method
        self._wrapped: dict[str, tuple[grpc.RpcMethodHandler, grpc.RpcMethodHandler]] = {}

    def _names(self, method: str) -> tuple[str, str]:
        if method in self.methods or not self.methods:
            service, _, name = method.lstrip("/").rpartition("/")
            return service or "unknown", name or "unknown"
        return "unknown", "unknown"

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None:
            GRPC_STARTED.labels("unary", "unknown", "unknown").inc()
            GRPC_HANDLED.labels("unary", "unknown", "unknown", "UNIMPLEMENTED").inc()
            return handler
        method = details.method
        known = self._wrapped.get(method)
        if known is not None and known[0] is handler:
            return known[1]
        wrapped = self._wrap(handler, *self._names(method))
        if method in self.methods:  # a bounded set: a client's made-up names are never kept
            self._wrapped[method] = (handler, wrapped)
        return wrapped

    @staticmethod
    def _wrap(handler: grpc.RpcMethodHandler, service: str, method: str) -> grpc.RpcMethodHandler:
        """`handler` counted and timed under (its type, service, method)."""
        kind = _type_of(handler)
        labels = (kind, service, method)
        started_total = GRPC_STARTED.labels(*labels)
        seconds = GRPC_SECONDS.labels(*labels)
        handled: dict[str, Any] = {}  # status code name -> its counter child (bounded by the codes)
        behaviour = (handler.stream_stream or handler.stream_unary or handler.unary_stream or handler.unary_unary)

        def done(context: Any, started: float, error: BaseException | None) -> None:
            code = _code_of(context, error)
            child = handled.get(code)
            if child is None:
                child = handled[code] = GRPC_HANDLED.labels(*labels, code)
            child.inc()
            seconds.observe(time.perf_counter() - started)

        if inspect.isasyncgenfunction(behaviour):
            async def streaming(request: Any, context: Any) -> AsyncIterator[Any]:
                started_total.inc()
                started = time.perf_counter()
                error: BaseException | None = None
                try:
                    async for item in behaviour(request, context):
                        yield item
                except BaseException as exc:
                    error = exc
                    raise
                finally:
                    done(context, started, error)
            wrapped: Callable[..., Any] = streaming
        else:
            async def unary(request: Any, context: Any) -> Any:
                started_total.inc()
                started = time.perf_counter()
                error: BaseException | None = None
                try:
                    result = behaviour(request, context)
                    if inspect.isawaitable(result):
                        result = await result
                    return result
                except BaseException as exc:
                    error = exc
                    raise
                finally:
                    done(context, started, error)
            wrapped = unary

        factory = {
            "unary": grpc.unary_unary_rpc_method_handler,
            "server_stream": grpc.unary_stream_rpc_method_handler,
            "client_stream": grpc.stream_unary_rpc_method_handler,
            "bidi_stream": grpc.stream_stream_rpc_method_handler,
        }[kind]
        new: grpc.RpcMethodHandler = factory(wrapped, request_deserializer=handler.request_deserializer,
                                             response_serializer=handler.response_serializer)
        return new


GRPC_CODES = tuple(code.name for code in grpc.StatusCode)


def _kind_of(method: str) -> str | None:
    """The RPC type of a full method name, from the protobuf descriptor pool (None: not registered there)."""
    from google.protobuf import descriptor_pool

    try:
        found = descriptor_pool.Default().FindMethodByName(method.lstrip("/").replace("/", "."))
    except KeyError:
        return None
    if found.client_streaming and found.server_streaming:
        return "bidi_stream"
    if found.client_streaming:
        return "client_stream"
    return "server_stream" if found.server_streaming else "unary"


def prime_grpc(method: str) -> None:
    """The gRPC series of one served method at zero, every status code included."""
    kind = _kind_of(method)
    if kind is None:
        return
    service, _, name = method.lstrip("/").rpartition("/")
    GRPC_STARTED.labels(kind, service, name)
    GRPC_SECONDS.labels(kind, service, name)
    for code in GRPC_CODES:
        GRPC_HANDLED.labels(kind, service, name, code)


def served_methods(services: Sequence[Any]) -> list[str]:
    """Full method names ("/pkg.Service/Method") of protobuf service descriptors."""
    return [f"/{s.full_name}/{m.name}" for s in services for m in s.methods]


def arena_methods() -> list[str]:
    """The methods an arena serves: the Arena service, plus health and reflection when installed."""
    from tourney.engine.server.generated import arena_pb2 as pb

    services = list(pb.DESCRIPTOR.services_by_name.values())
    try:
        from grpc_health.v1 import health_pb2

        services.extend(health_pb2.DESCRIPTOR.services_by_name.values())
    except ImportError:
        pass
    try:
        from grpc_reflection.v1alpha import reflection_pb2

        services.extend(reflection_pb2.DESCRIPTOR.services_by_name.values())
    except ImportError:
        pass
    return served_methods(services)
