"""The in-process executor (`--local`): every match played here, one after another, handed back in chunks."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tourney.workers.executor import MAX_CHUNK, Feed, MatchPlan, Played

# In-process (--local) chunks are cut by time: there is no round trip to amortise, only the
# write (a transaction: ~0.5 ms, ~5 us a match at 0.2 s chunks of the shortest matches, issue 32),
# and a short wait keeps the progress bar live (it moves twice a second).
LOCAL_CHUNK_S = 0.5


class LocalExecutor:
    """Plays every match in this process, one after another, and hands them back in chunks.

    A chunk closes after LOCAL_CHUNK_S of play or MAX_CHUNK matches, whichever comes first: the
    driver writes each chunk in one transaction, and one transaction per short match cost more
    than the match itself (issue 32: a third of `tourney run --local`). A match longer than
    LOCAL_CHUNK_S is still its own chunk, so results and progress arrive at least that often
    and a crash loses at most that much play.
    """

    workers = 1

    def __init__(self, clock: Callable[[], float] = time.monotonic, chunk_s: float = LOCAL_CHUNK_S) -> None:
        """chunk_s: how much play a chunk holds at most (0: one match a chunk, for a driver that must see
        each match as it ends)."""
        self._clock = clock
        self._chunk_s = chunk_s

    def run(self, plan: MatchPlan, pairings: Sequence[Any], more: Feed | None = None
            ) -> Iterator[list[Played[Any, Any]]]:
        queue = deque(pairings)
        chunk: list[Played[Any, Any]] = []
        opened = self._clock()
        while True:
            if not queue and more is not None:
                if chunk:  # the feed may wait on these results (the ladder frees their bots)
                    yield chunk
                    chunk = []
                    opened = self._clock()
                queue.extend(more())
            if not queue:
                break
            chunk.append(plan.play(queue.popleft()))
            if len(chunk) >= MAX_CHUNK or self._clock() - opened >= self._chunk_s:
                yield chunk
                chunk = []
                opened = self._clock()
        if chunk:
            yield chunk

    def close(self) -> None:
        pass
