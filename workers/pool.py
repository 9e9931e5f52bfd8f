"""Executors: play scheduled pairings and hand each finished chunk back as soon as it is done.

A Ray task plays a *chunk* of pairings, so Ray's round trip (about 3.5 ms here) is paid once
per chunk rather than once per match; chunks are sized from the match times seen so far.
The driver writes each chunk as it arrives (`ray.wait`), so a driver that dies loses only
what was still in flight. A task lost with its worker is
retried by Ray (`max_retries`); a match is a pure function of (game, config, seed, bots), so a
retry replays exactly the same matches with exactly the same results.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from engine.core import TourneyError
from engine.core.registry import GAME_MODULES

# What a finished match comes back as: (pairing, stored record, seconds). Workers never look
# inside; the tournament layer made it and writes it. Keeping workers ignorant of the
# tournament types keeps the import arrows one way (tournament -> workers -> engine).
Played = tuple[Any, Any, float]


class MatchPlan(Protocol):
    """A tournament plan as workers see it: a game id and a way to play one pairing (pure)."""

    @property
    def game(self) -> str: ...

    def play(self, pairing: Any) -> Played: ...

# Chunks are cut so that each worker gets about this many chunks: small enough to balance
# slow matches across workers, large enough that Ray's per-task cost stays a few percent.
CHUNKS_PER_WORKER = 4
MAX_CHUNK = 64
TARGET_CHUNK_S = 0.5
TASK_RETRIES = 4


class ClusterUnreachable(TourneyError):
    """The Ray cluster named by --address or RAY_ADDRESS cannot be joined."""


class MatchFailed(TourneyError):
    """A task raised (a bug, not a bot fault: the referee turns bot faults into results)."""


def play_chunk(plan: MatchPlan, pairings: Sequence[Any], game_module: str | None = None) -> list[Played]:
    """Play `pairings` one after another; pure apart from the timings.

    `game_module` is imported first so games registered outside the engine (plugins, the
    test game) exist in a fresh worker process too.
    """
    if game_module is not None and plan.game not in _registered():
        importlib.import_module(game_module)
    return [plan.play(p) for p in pairings]


def _registered() -> set[str]:
    from engine.core import registry
    return set(registry._loaded)


def chunk_size(n: int, workers: int) -> int:
    """Matches per task for n matches over `workers` workers."""
    return max(1, min(MAX_CHUNK, math.ceil(n / max(1, workers * CHUNKS_PER_WORKER))))


class ChunkTiming:
    """Sizes chunks from the match durations seen so far.

    The first wave is one match per task (nothing is known yet); after that a chunk holds
    about TARGET_CHUNK_S of play: long enough that Ray's ~3.5 ms per task is under 1%, short
    enough that results reach the database (and the progress bar) every second or so, and
    never more than a quarter of a worker's share of what is left, so the last tasks balance.
    The sizes never change a result: every match is a pure function of its pairing.
    """

    def __init__(self) -> None:
        self.matches = 0
        self.seconds = 0.0

    def add(self, played: Sequence[Played]) -> None:
        self.matches += len(played)
        self.seconds += sum(d for _, _, d in played)

    def size(self, remaining: int, workers: int) -> int:
        if self.matches == 0:
            return 1
        per_match = max(self.seconds / self.matches, 1e-5)
        by_time = max(1, int(TARGET_CHUNK_S / per_match))
        return max(1, min(by_time, MAX_CHUNK, chunk_size(remaining, workers)))


def chunks(pairings: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(pairings[i:i + size]) for i in range(0, len(pairings), size)]


class Executor(Protocol):
    """Plays pairings and yields them in chunks as they finish (in any order)."""

    workers: int

    def run(self, plan: MatchPlan, pairings: Sequence[Any]) -> Iterator[list[Played]]: ...

    def close(self) -> None: ...


class LocalExecutor:
    """Plays every match in this process, one after another: for debugging and tiny runs."""

    workers = 1

    def run(self, plan: MatchPlan, pairings: Sequence[Any]) -> Iterator[list[Played]]:
        for pairing in pairings:
            yield [plan.play(pairing)]

    def close(self) -> None:
        pass


class RayExecutor:
    """Plays chunks of matches as Ray tasks, at most `workers` at a time.

    Starts a local Ray instance unless `address` (or RAY_ADDRESS) names a cluster to join. If
    Ray is already initialised in this process (tests, notebooks), that instance is used and
    left running on close.
    """

    def __init__(self, address: str | None = None, workers: int | None = None, chunk: int | None = None) -> None:
        import ray

        self._ray = ray
        self._owns = False
        address = address or os.environ.get("RAY_ADDRESS") or None
        if address is not None and address != "auto":
            _probe(address)
        if not ray.is_initialized():
            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "configure_logging": False}
            if address is None and workers is not None:
                kwargs["num_cpus"] = workers
            try:
                ray.init(address=address, **kwargs)
            except Exception as exc:  # Ray raises ConnectionError, RuntimeError or its own types
                where = address or "a local Ray instance"
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160].rstrip(".")
                raise ClusterUnreachable(
                    f"cannot join the Ray cluster at {where} ({first}): start it with `ray start --head`, "
                    f"fix --address/RAY_ADDRESS, or pass --local to play in this process.{client_hint(address)}"
                ) from None
            self._owns = True
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.workers = max(1, min(workers, cpus) if workers else cpus)
        self._chunk = chunk
        self._task = ray.remote(num_cpus=1, max_retries=TASK_RETRIES)(play_chunk)

    def run(self, plan: MatchPlan, pairings: Sequence[Any]) -> Iterator[list[Played]]:
        if not pairings:
            return
        ray = self._ray
        plan_ref = ray.put(plan)
        module = GAME_MODULES.get(plan.game)
        queue = list(pairings)
        queue.reverse()  # pop() from the end = schedule order
        timing = ChunkTiming()
        # Keep `workers` tasks in flight: that caps parallelism without a placement group,
        # and what is submitted but unfinished is all a dying driver can lose.
        in_flight: list[Any] = []
        try:
            while queue or in_flight:
                while queue and len(in_flight) < self.workers:
                    size = self._chunk or timing.size(len(queue), self.workers)
                    chunk = [queue.pop() for _ in range(min(size, len(queue)))]
                    in_flight.append(self._task.remote(plan_ref, chunk, module))
                done, in_flight = ray.wait(in_flight, num_returns=1)
                try:
                    played: list[Played] = ray.get(done[0])
                except ray.exceptions.RayError as exc:
                    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200].rstrip(".")
                    raise MatchFailed(
                        f"a match failed on a Ray worker ({first}): finished matches are stored; "
                        "rerun with --local to see the full traceback."
                    ) from None
                timing.add(played)
                yield played
        finally:
            for ref in in_flight:
                ray.cancel(ref)
            for ref in in_flight:
                # Collect what already failed, so Ray does not report it as unhandled later;
                # cancelled, failed or still running are all fine here.
                with contextlib.suppress(Exception):
                    ray.get(ref, timeout=0)

    def close(self) -> None:
        if self._owns:
            self._ray.shutdown()
            self._owns = False


def client_hint(address: str | None) -> str:
    """Why HOST:6379 fails from a machine with no Ray node, and what to use instead.

    A GCS address (HOST:6379) attaches a driver through the raylet of its own machine, so it
    works only where `ray start` ran; a driver elsewhere (a container, a CronJob, a laptop)
    goes through Ray Client on the head's port 10001.
    """
    if address is None or address == "auto" or address.startswith("ray://"):
        return ""
    host = address.split("://", 1)[-1].rsplit(":", 1)[0]
    return (f" HOST:6379 works only on a machine that runs a Ray node (`ray start`); from anywhere else "
            f"use Ray Client: --address ray://{host}:10001.")


def _probe(address: str) -> None:
    """Fail fast when the head node does not answer: Ray itself would retry for minutes."""
    import socket

    hostport = address.split("://", 1)[-1].rsplit("/", 1)[0]
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterUnreachable(f"the Ray address '{address}' is not host:port: write e.g. --address 10.0.0.5:6379.")
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as exc:
        raise ClusterUnreachable(
            f"cannot join the Ray cluster at {address} ({exc.strerror or type(exc).__name__}): start it with "
            "`ray start --head`, fix --address/RAY_ADDRESS, or pass --local to play in this process."
            + client_hint(address)
        ) from None


def make_executor(local: bool = False, address: str | None = None, workers: int | None = None,
                  chunk: int | None = None) -> Executor:
    """The executor the command line asked for."""
    if workers is not None and workers < 1:
        raise TourneyError(f"--workers must be at least 1, not {workers}.")
    if local:
        return LocalExecutor()
    return RayExecutor(address=address, workers=workers, chunk=chunk)
