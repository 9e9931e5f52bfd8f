"""The run loop of every executor whose matches an arena plays: a pool of threads, one call per match.

A call to an arena mostly waits on the network, so a few threads keep several matches in
flight. Results are handed back one by one as they finish (the driver stores each at once).
When the caller stops asking (a failure, SIGTERM) or `stop` is set, matches not yet started
are dropped: the round or tournament is resumed later and only what was stored counts.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tourney.workers.executor import Feed, Played

POLL_S = 0.5  # how often a pool waiting for its matches looks at the stop flag


class RoundStopped(Exception):  # noqa: N818  (a request, not an error)
    """Raised inside a round when the caller was asked to stop (the claim is then released)."""


def play_on_threads(play: Callable[[Any], Played[Any, Any]], pairings: Sequence[Any], workers: int, name: str,
                    stop: threading.Event | None = None, more: Feed | None = None) -> Iterator[list[Played[Any, Any]]]:
    """Play each pairing with `play` on `workers` threads named `name`; yield each result as it finishes.

    With `more` (the ladder's feed), it is asked for the next pairings whenever none is left in flight."""
    if not pairings and more is None:
        return
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
    try:
        pending = {pool.submit(play, p) for p in pairings}
        while not (stop is not None and stop.is_set()):
            if not pending and more is not None:
                pending = {pool.submit(play, p) for p in more()}
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, timeout=POLL_S,
                                                    return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                yield [future.result()]
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
