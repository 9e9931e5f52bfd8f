"""The Ray executor: scheduled pairings played as Ray tasks, each finished chunk handed back as soon as it is done.

A Ray task plays a *chunk* of pairings, so Ray's round trip (about 3.5 ms here) is paid once
per chunk rather than once per match; chunks are sized from the match times seen so far.
The driver writes each chunk as it arrives (`ray.wait`), so a driver that dies loses only
what was still in flight. A task lost with its worker (or its node) is submitted again by the driver, up to
TASK_RETRIES times, with the plan's `retried` copy when it has one: a tournament deals anew the tables
whose bots may remember the lost attempt (TournamentPlan.seed_of); every other match is a pure function of
(game, config, seed, bots), so its retry replays exactly the same match with exactly the same result.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import marshal
import math
import os
import pickle
import re
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from queue import Empty, SimpleQueue
from typing import Any

from tourney.engine.core import TourneyError
from tourney.engine.core.environment import (
    RAY_ADDRESS_ENV,
    RAY_AUTH_MODE_ENV,
    RAY_FAILURE_SIGNAL_ENV,
    RAY_IGNORE_UNHANDLED_ENV,
)
from tourney.engine.core.registry import GAME_MODULES
from tourney.workers.executor import MAX_CHUNK, Executor, Feed, MatchPlan, Played
from tourney.workers.local import LocalExecutor
from tourney.workers.settled_heap import freeze_now, freeze_once

# Chunks are cut so that each worker gets about this many chunks: small enough to balance
# slow matches across workers, large enough that Ray's per-task cost stays a few percent.
CHUNKS_PER_WORKER = 4
TARGET_CHUNK_S = 0.5
# ...but the tail is never cut into chunks shorter than this: a task costs ~4 ms of CPU in the driver and
# the raylet, and quartering the rest down to single matches made the last ~20 tasks of a run of short
# matches (0.3 ms each) cost ~8% of its CPU (issue 32), where ending up to this much apart costs little.
MIN_CHUNK_S = 0.1
TASK_RETRIES = 4
IN_FLIGHT_PER_WORKER = 2  # one running and one queued behind it, when Ray itself caps how many run
# Ray's own metrics (its dashboard agent and raylet collecting and exporting per-process stats) are off in the
# instance a run starts for itself: tourney exports its own, and an idle 1-CPU Ray cost 3.3% of a CPU with them,
# 2.4% without (median of four turns each, issue 32). A cluster that is joined keeps its own settings.
LOCAL_RAY_CONFIG = {"enable_metrics_collection": False}
Submit = Callable[[list[Any], int], None]  # a chunk of pairings, its attempt: sent to Ray
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # Ray colours its error texts


class ClusterUnreachable(TourneyError):
    """The Ray cluster named by --address or RAY_ADDRESS cannot be joined."""


class MatchFailed(TourneyError):
    """A task raised (a bug, not a bot fault: the referee turns bot faults into results)."""


def play_chunk(plan: MatchPlan, pairings: Sequence[Any], game_module: str | None = None) -> bytes:
    """Play `pairings` one after another and return each one's record and seconds, pickled (`unpack_chunk` puts
    them back with their pairings); pure apart from the timings.

    `game_module` is imported first so games registered outside the engine (plugins, the
    test game) exist in a fresh worker process too; the first chunk a process plays freezes what
    it holds by then (settled_heap), so the collector walks only what the matches allocate.
    The chunk travels as one pickle made by the standard library's C pickler: Ray's own serializer
    (cloudpickle) calls back into Python for every object of a result, which cost ~40% more (issue 32).
    The pairings are not sent back: the driver holds them already, and pickling and rebuilding each one
    cost ~2 us a match of the shortest (issue 32).
    """
    if game_module is not None and plan.game not in _registered():
        importlib.import_module(game_module)
    freeze_once()
    return pack_chunk([plan.play(p)[1:] for p in pairings])


def pack_chunk(played: Sequence[tuple[Any, float]]) -> bytes:
    """A chunk's (record, seconds) as one pickle. Records that pickle as one function's call on plain values (a
    StoredMatch's __reduce__; marshal's types: str, int, float, tuples, dicts...) go as those values, marshalled,
    and the function once: marshal writes them in C without pickle's memo, ~3 us a match of the shortest fewer
    in the worker (issue 32), and the driver rebuilds them with the same call unpickling makes. Anything else is
    pickled as it is."""
    reduced = [record.__reduce_ex__(pickle.HIGHEST_PROTOCOL) for record, _ in played]  # as pickle asks
    rebuild = reduced[0][0] if reduced and isinstance(reduced[0], tuple) else None
    if rebuild is not None and all(len(r) == 2 and r[0] is rebuild for r in reduced):
        with contextlib.suppress(ValueError):  # a value of a type marshal does not write: pickle all of it
            values = marshal.dumps([(r[1], seconds) for r, (_, seconds) in zip(reduced, played, strict=True)])
            return pickle.dumps((rebuild, values), protocol=pickle.HIGHEST_PROTOCOL)
    return pickle.dumps((None, list(played)), protocol=pickle.HIGHEST_PROTOCOL)


def unpack_chunk(packed: bytes, pairings: Sequence[Any]) -> list[Played[Any, Any]]:
    """The played matches of a chunk that `play_chunk` returned for `pairings`."""
    rebuild, payload = pickle.loads(packed)  # noqa: S301  (our own worker's result, as Ray's would be)
    if rebuild is None:
        return [(pairing, record, seconds) for pairing, (record, seconds) in zip(pairings, payload, strict=True)]
    return [(pairing, rebuild(*values), seconds)
            for pairing, (values, seconds) in zip(pairings, marshal.loads(payload), strict=True)]


def _registered() -> set[str]:
    from tourney.engine.core import registry
    return set(registry._loaded)


def chunk_size(n: int, workers: int) -> int:
    """Matches per task for n matches over `workers` workers."""
    return max(1, min(MAX_CHUNK, math.ceil(n / max(1, workers * CHUNKS_PER_WORKER))))


class ChunkTiming:
    """Sizes chunks from the match durations seen so far.

    The first wave is one match per task (nothing is known yet); after that a chunk holds
    about TARGET_CHUNK_S of play: long enough that Ray's ~3.5 ms per task is under 1%, short
    enough that results reach the database (and the progress bar) every second or so, and
    never more than a quarter of a worker's share of what is left, so the last tasks of several
    workers balance, unless that would be under MIN_CHUNK_S of play (one worker has nothing to balance).
    The sizes never change a result: every match is a pure function of its pairing.
    """

    def __init__(self) -> None:
        self.matches = 0
        self.seconds = 0.0

    def add(self, played: Sequence[Played[Any, Any]]) -> None:
        self.matches += len(played)
        self.seconds += sum(d for _, _, d in played)

    def size(self, remaining: int, workers: int) -> int:
        if self.matches == 0:
            return 1
        per_match = max(self.seconds / self.matches, 1e-5)
        by_time = max(1, int(TARGET_CHUNK_S / per_match))
        if workers == 1:  # nothing to balance: cutting the tail would only add tasks (~4 ms of CPU each)
            return max(1, min(by_time, MAX_CHUNK))
        at_least = max(1, int(MIN_CHUNK_S / per_match))
        return max(1, min(by_time, MAX_CHUNK, max(at_least, chunk_size(remaining, workers))))


def chunks(pairings: Sequence[Any], size: int) -> list[list[Any]]:
    return [list(pairings[i:i + size]) for i in range(0, len(pairings), size)]


class RayExecutor:
    """Plays chunks of matches as Ray tasks, at most `workers` at a time, with no wait for Ray.

    Starts a local Ray instance unless `address` (or RAY_ADDRESS) names a cluster to join. If
    Ray is already initialised in this process (tests, notebooks), that instance is used and
    left running on close. Otherwise Ray starts in the background (5-17 s here) while this
    process plays the first matches itself, one after another; once Ray is up its workers take
    the rest in chunks. Who plays a match never changes its result: a match is a pure function
    of its pairing.
    """

    def __init__(self, address: str | None = None, workers: int | None = None, chunk: int | None = None) -> None:
        self._ray: Any = sys.modules.get("ray")  # imported here at once only if in use already (1.5 s)
        self._owns = False
        self._address = address or os.environ.get(RAY_ADDRESS_ENV) or None
        if self._address is not None and self._address != "auto":
            _probe(self._address)  # a wrong address fails at once, before anything is stored
        self._requested = workers
        self.workers = max(1, workers or os.cpu_count() or 1)  # the cluster's CPUs once Ray is up
        self._chunk = chunk
        self._cpus = self.workers  # the cluster's CPUs, known once Ray is up
        self._task: Any = None
        self._ready = threading.Event()
        self._error: TourneyError | None = None
        self._closing = threading.Event()
        self._keeper: threading.Thread | None = None
        if self._ray is not None and self._ray.is_initialized():
            import ray

            self._ray = ray
            self._start()
            if self._error is not None:
                raise self._error
        else:
            # Linux kills the processes ray.init starts when the *thread* that started them ends
            # (their parent-death signal), so this thread lives until close() and shuts Ray down.
            self._keeper = threading.Thread(target=self._keep_ray, name="ray-keeper", daemon=True)
            self._keeper.start()

    def _keep_ray(self) -> None:
        """Start Ray, keep it for the executor's life, shut it down on close()."""
        # Ray's C++ core would catch the driver's SIGTERM and print a raw stack dump; without it the
        # command stops on SIGTERM as on Ctrl-C. Read once, when ray is first imported.
        os.environ.setdefault(RAY_FAILURE_SIGNAL_ENV, "1")
        import ray

        self._ray = ray
        logging.getLogger("ray._private.worker").addFilter(_not_main_thread_notice)
        self._start()
        self._closing.wait()
        if self._owns:
            self._ray.shutdown()
            self._owns = False

    def _start(self) -> None:
        """Join or start Ray; failures are kept for run() to raise (one sentence)."""
        ray = self._ray
        try:
            if not ray.is_initialized():
                os.environ.setdefault(RAY_AUTH_MODE_ENV, "disabled")
                kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                          "configure_logging": False}
                if self._address is None:
                    kwargs["_system_config"] = LOCAL_RAY_CONFIG
                    if self._requested is not None:
                        kwargs["num_cpus"] = self._requested
                try:
                    # No address: a fresh local instance of our own ("local"), never a cluster that
                    # `ray start` left running on this machine, which ray.init() would otherwise join.
                    # Not a lean head of our own (`ray start --head --block --include-dashboard=false
                    # --no-monitor --include-log-monitor=false` in a child, joined): tried (issue 32), the
                    # `ray start` process and the Ray Client server it always starts (~1 s of imports each) cost
                    # more CPU than the monitor and log monitor it leaves out: a 20,000-match `--workers 1` run
                    # used 13.85 s against 13.40 s this way (all processes, medians of 3 A/B turns, load 5-8).
                    ray.init(address=self._address or "local", **kwargs)
                except Exception as exc:  # Ray raises ConnectionError, RuntimeError or its own types
                    where = self._address or "a local Ray instance"
                    raise ClusterUnreachable(
                        f"cannot join the Ray cluster at {where} ({first_line(exc, 160)}): start it with "
                        f"`ray start --head`, fix --address/{RAY_ADDRESS_ENV}, or pass --local to play in this process."
                        + client_hint(self._address)
                    ) from None
                self._owns = True
            freeze_now()  # Ray's own objects, imported and built by now (the run froze its own before): settled_heap
            self._cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            self.workers = min(self._requested, self._cpus) if self._requested else self._cpus
            self._task = ray.remote(num_cpus=1, max_retries=0)(play_chunk)  # retried by the driver: _collect
        except TourneyError as exc:
            self._error = exc
        finally:
            self._ready.set()

    def run(self, plan: MatchPlan, pairings: Sequence[Any], more: Feed | None = None
            ) -> Iterator[list[Played[Any, Any]]]:
        """Play `pairings`; with `more`, ask it for further pairings whenever the queue runs dry (after each
        finished chunk has been handed over), until it has none and nothing is in flight."""
        queue = deque(pairings)  # popleft() = schedule order
        if not queue and more is not None:
            queue.extend(more())
        if not queue:
            return
        timing = ChunkTiming()
        here = LocalPlayer(plan, queue, self._ready) if not self._ready.is_set() else None
        in_flight: dict[Any, tuple[list[Any], int]] = {}  # a task's result (an ObjectRef) -> its pairings, attempt
        plan_refs: dict[int, Any] = {}  # attempt -> the plan Ray holds for it

        def submit(chunk: list[Any], attempt: int) -> None:
            if attempt not in plan_refs:
                plan_refs[attempt] = self._ray.put(retry_plan(plan, attempt))
            in_flight[self._task.remote(plan_refs[attempt], chunk, GAME_MODULES.get(plan.game))] = chunk, attempt

        try:
            while True:
                if more is not None and not queue:
                    fresh = more()
                    with here.lock if here is not None else contextlib.nullcontext():
                        queue.extend(fresh)
                    if fresh and here is not None and not here.busy() and not self._ready.is_set():
                        # The local player stopped when the queue ran dry, and Ray is still starting.
                        here = LocalPlayer(plan, queue, self._ready)
                if not (queue or in_flight or (here is not None and here.busy())):
                    break
                if self._error is not None:
                    raise self._error
                self._top_up(submit, queue, here, in_flight, timing)
                found = self._collect(here, in_flight, submit)
                for played in found:
                    timing.add(played)
                # Refill before handing results over: the caller writes them to the database, and
                # the workers play the next chunks meanwhile instead of waiting for that write.
                self._top_up(submit, queue, here, in_flight, timing)
                yield from found
        finally:
            if here is not None:
                here.stop()
            self._abandon(in_flight)

    def _top_up(self, submit: Submit, queue: deque[Any], here: LocalPlayer | None,
                in_flight: dict[Any, tuple[list[Any], int]], timing: ChunkTiming) -> None:
        """Submit chunks from the queue until `slots()` tasks are in flight (none before Ray is up)."""
        if not self._ready.is_set():
            return
        while chunk := self._next_chunk(queue, here, len(in_flight), timing):
            submit(chunk, 0)

    def _next_chunk(self, queue: deque[Any], here: LocalPlayer | None, in_flight: int,
                    timing: ChunkTiming) -> list[Any]:
        """The next chunk for Ray, or none when enough are in flight.

        Decided under the local player's lock: it takes from the same queue, and a match it
        has just taken counts against `workers` before Ray is given another.
        """
        with here.lock if here is not None else contextlib.nullcontext():
            if in_flight >= self.slots(here):
                return []
            size = self._chunk or timing.size(len(queue), self.workers)
            return [queue.popleft() for _ in range(min(size, len(queue)))]

    def slots(self, here: LocalPlayer | None = None) -> int:
        """How many tasks to keep in flight: never more matches at once than `workers`, this process's included.

        When `workers` is all of the cluster's CPUs, Ray itself runs no more than that many
        (each task asks for a CPU), so a second task per worker can wait queued behind the
        running one and the worker never idles between chunks. With fewer workers than CPUs Ray
        would run that queued task at once on a free CPU, so then only `workers` are in flight.
        While this process still finishes the match it began before Ray was up, Ray gets one
        task fewer and none queued.
        """
        if here is not None and here.playing():
            return self.workers - 1
        if self.workers >= self._cpus:
            return IN_FLIGHT_PER_WORKER * self.workers
        return self.workers

    def _collect(self, here: LocalPlayer | None, in_flight: dict[Any, tuple[list[Any], int]],
                 submit: Submit) -> list[list[Played[Any, Any]]]:
        """What finished since the last look: this process's matches and Ray's chunks (waits briefly); a chunk
        lost with its worker or node is submitted again, as its next attempt, up to TASK_RETRIES times."""
        found = here.take(timeout_s=0.0 if in_flight else 0.1) if here is not None else []
        if in_flight:
            done, _ = self._ray.wait(list(in_flight), num_returns=1, timeout=None if here is None or not here.busy()
                                     else 0.05)
            for ref in done:
                pairings, attempt = in_flight.pop(ref)
                try:
                    found.append(unpack_chunk(self._ray.get(ref), pairings))
                except lost_with_worker(self._ray) as exc:
                    if attempt >= TASK_RETRIES:
                        raise MatchFailed(f"a chunk of matches was lost with its Ray worker {attempt + 1} times "
                                          f"({first_line(exc, 200)}): finished matches are stored; check the "
                                          "cluster's nodes and memory, then resume.") from None
                    submit(pairings, attempt + 1)
                except self._ray.exceptions.RayError as exc:
                    raise MatchFailed(
                        f"a match failed on a Ray worker ({first_line(exc, 200)}): finished matches are stored; "
                        "rerun with --local to see the full traceback."
                    ) from None
        return found

    def _abandon(self, in_flight: dict[Any, tuple[list[Any], int]]) -> None:
        """Drop the chunks still in flight when a run stops early (an error, Ctrl-C, SIGTERM).

        They are not cancelled: Ray's core aborts the whole process ("Tried to complete task that was not
        pending") when a cancelled task's normal reply arrives at the same moment, which a SIGTERM during
        long matches met. A chunk left running ends when its matches do, or with its owner (this process:
        Ray stops an exited driver's tasks), and its result is dropped with its reference.
        """
        if in_flight:
            # A dropped chunk that fails later would have Ray print its traceback when the reference
            # is freed, after the run's one sentence; nobody fetches it, so nobody is told. Every
            # chunk this executor keeps it fetches, so only dropped ones are silenced.
            os.environ[RAY_IGNORE_UNHANDLED_ENV] = "1"
        in_flight.clear()

    def close(self) -> None:
        """Shut down the Ray this executor started. One still starting is not waited for: if this
        process ends first, its processes die with it (Ray ties them to their starter)."""
        if self._keeper is not None:
            self._closing.set()
            if self._ready.is_set():
                self._keeper.join()
            return
        if self._owns:
            self._ray.shutdown()
            self._owns = False


class LocalPlayer:
    """Plays matches from the shared queue in a thread of this process until Ray is ready.

    It takes one match at a time, so when Ray comes up the rest of the queue is Ray's; a
    match it has begun it finishes and hands back.
    """

    def __init__(self, plan: MatchPlan, queue: deque[Any], ray_ready: threading.Event) -> None:
        self.plan = plan
        self.queue = queue
        self.lock = threading.Lock()
        self._ray_ready = ray_ready
        self._stopping = threading.Event()
        self._playing = threading.Event()
        self._results: SimpleQueue[list[Played[Any, Any]] | BaseException] = SimpleQueue()
        self._thread = threading.Thread(target=self._play, name="play-while-ray-starts", daemon=True)
        self._thread.start()

    def _play(self) -> None:
        try:
            while not (self._stopping.is_set() or self._ray_ready.is_set()):
                with self.lock:
                    if not self.queue or self._ray_ready.is_set():  # checked again: Ray may be up by now
                        return
                    pairing = self.queue.popleft()
                    self._playing.set()
                self._results.put([self.plan.play(pairing)])
                self._playing.clear()
        except BaseException as exc:  # handed to the driver, which raises it where the user sees it
            self._results.put(exc)

    def playing(self) -> bool:
        """True while the thread is in the middle of a match."""
        return self._playing.is_set()

    def busy(self) -> bool:
        """True while the thread plays or has results not yet taken."""
        return self._thread.is_alive() or not self._results.empty()

    def take(self, timeout_s: float) -> list[list[Played[Any, Any]]]:
        """The matches finished since the last look as one chunk (none: no chunk), waiting up to
        timeout_s for the first; raises what the thread raised.

        One chunk, not one per match: the driver writes a transaction per chunk, and that cost
        more than a short match (issue 32).
        """
        found: list[Played[Any, Any]] = []
        with contextlib.suppress(Empty):
            item = self._results.get(timeout=timeout_s) if timeout_s > 0 else self._results.get_nowait()
            while True:
                if isinstance(item, BaseException):
                    raise item
                found += item
                item = self._results.get_nowait()
        return [found] if found else []

    def stop(self) -> None:
        """Take no further match (the one in play, if any, finishes in the background)."""
        self._stopping.set()


def retry_plan(plan: MatchPlan, attempt: int) -> MatchPlan:
    """The plan a chunk is played with at `attempt` (0: the first): the plan's own `retried(attempt)` copy when
    it has one (TournamentPlan: deals anew what a bot may remember of the lost attempt), else the plan."""
    retried = getattr(plan, "retried", None)
    return retried(attempt) if attempt and retried is not None else plan


def lost_with_worker(ray: Any) -> tuple[type[BaseException], ...]:
    """Ray's errors for a task that ended with its worker process or node, or whose result was lost with
    them: what Ray's own `max_retries` would have retried."""
    ex = ray.exceptions
    return ex.WorkerCrashedError, ex.NodeDiedError, ex.ObjectLostError, ex.OutOfMemoryError


def _not_main_thread_notice(record: logging.LogRecord) -> bool:
    """Drop Ray's notice that a thread other than the main one started it (that is on purpose)."""
    return "not the main thread" not in record.getMessage()


def first_line(exc: BaseException, limit: int) -> str:
    """The first line of an error's text, colour codes removed, bounded, without a final period."""
    text = ANSI_ESCAPE.sub("", str(exc)).strip()
    return (text.splitlines() or [type(exc).__name__])[0][:limit].rstrip(".")


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
            f"`ray start --head`, fix --address/{RAY_ADDRESS_ENV}, or pass --local to play in this process."
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
