"""Tournament-driver metrics: matches played on Ray workers are counted when their results arrive.

Workers are separate processes, so counters there would be lost (or need Ray's metrics
agent). The driver sees every finished match exactly once, as a StoredMatch in a chunk, with
the replay (each decision's think time and fault) and the match's duration: counting there
gives the same series as the arena's live counts, with nothing lost or counted twice (Ray's
retries replay a chunk on a worker, but the driver receives each chunk once).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence

from tourney.engine.referee import Replay
from tourney.engine.server import REMAINING, WORKER_BUSY, WORKER_SLOTS, observe_match, serve_metrics
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.codec import unpack_replay
from tourney.tournament.store.records import Played, StoredMatch
from tourney.workers.executor import Executor, Feed

__all__ = ["MeteredExecutor", "TournamentProgress", "instrument", "observe_record", "serve_metrics"]


def observe_record(game_id: str, record: StoredMatch, seconds: float) -> None:
    """Count one finished match from its stored form: termination, duration, decisions, faults."""
    steps = Replay.from_dict(unpack_replay(record.replay)).steps if record.replay else []
    observe_match(game_id, record.termination, seconds, steps)


class MeteredExecutor:
    """Wraps an executor: counts every match of every chunk as the chunk reaches the driver.

    Also reports the executor's slots and how many hold work. The driver does not see Ray's
    in-flight set, so busy slots are min(slots, matches handed out and not yet returned): exact
    while there is more work than slots, an upper bound in the last chunks of a round.
    """

    def __init__(self, inner: Executor, on_close: Callable[[], None] | None = None) -> None:
        self.inner = inner
        self.workers = inner.workers
        self.on_close = on_close

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing], more: Feed | None = None
            ) -> Iterator[list[Played]]:
        outstanding = len(pairings)
        chunks = self.inner.run(plan, pairings, more)
        self.workers = self.inner.workers  # a lazily started executor knows its size only now
        WORKER_SLOTS.set(self.workers)
        WORKER_BUSY.set(min(self.inner.workers, outstanding))
        try:
            for chunk in chunks:
                for _pairing, record, seconds in chunk:
                    observe_record(plan.game, record, seconds)
                outstanding -= len(chunk)
                WORKER_BUSY.set(min(self.inner.workers, max(0, outstanding)))
                yield chunk
        finally:
            WORKER_BUSY.set(0)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()
        if self.on_close is not None:
            self.on_close()


class TournamentProgress:
    """Keeps tourney_tournament_matches_remaining{tournament} up to date through the driver's callbacks.

    The label is the tournament's id (bounded by what one driver runs; names are free text).
    A finished tournament's series is removed when the next one starts in the same process.
    """

    def __init__(self) -> None:
        self.tournament: str | None = None

    def start(self, tournament_id: int) -> None:
        if self.tournament is not None:
            with contextlib.suppress(KeyError):
                REMAINING.remove(self.tournament)
        self.tournament = str(tournament_id)

    def progress(self, done: int, total: int) -> None:
        """total 0 means open-ended (an SPRT run decides when to stop): no remaining count is shown."""
        if self.tournament is not None and total > 0:
            REMAINING.labels(self.tournament).set(max(0, total - done))

    def finish(self) -> None:
        if self.tournament is not None:
            REMAINING.labels(self.tournament).set(0)


ProgressHook = Callable[[int, int], None]
StartHook = Callable[[int], None]


def instrument(executor: Executor, metrics_port: int | None, on_start: StartHook | None = None,
               on_match: ProgressHook | None = None, count_matches: bool = True, metrics_host: str = "127.0.0.1",
               ) -> tuple[Executor, StartHook | None, ProgressHook | None]:
    """For `tourney run --metrics-port`: serve the metrics, count every match of `executor`, and keep the
    tournament's remaining-matches gauge current. Without a port, everything is returned unchanged.

    count_matches=False when an arena plays the matches (`--arena`): it counts them itself, and
    counting them here too would double every sum over both jobs.
    """
    if metrics_port is None:
        return executor, on_start, on_match
    serve_metrics(metrics_port, metrics_host)
    progress = TournamentProgress()

    def started(tournament_id: int) -> None:
        progress.start(tournament_id)
        if on_start is not None:
            on_start(tournament_id)

    def matched(done: int, total: int) -> None:
        progress.progress(done, total)
        if on_match is not None:
            on_match(done, total)

    # Closing the executor ends the run: an SPRT stopped early still shows nothing remaining.
    metered = MeteredExecutor(executor, on_close=progress.finish)
    if not count_matches:
        metered.run = executor.run  # type: ignore[method-assign]  # progress only
    return metered, started, matched
