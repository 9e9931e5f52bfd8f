"""The ladder's matchmaking rule, kept in memory so that choosing a match costs O(log bots).

The rule (also in README.md, "The ladder"):

1. **New bots first.** A bot that has not finished a match yet is chosen before any rated bot,
   in the order it was added: a new bot is placed within its first few scheduled matches, and the
   established bots wait at most one match per newcomer for that.
2. **Then whoever is most overdue, uncertain bots sooner.** Every idle bot has a due tick (a
   tick is one scheduled match): the tick it became idle, moved earlier by up to half a round
   (a round: bots / players ticks, the time it takes everyone to play once) in proportion to its
   uncertainty σ / σ₀. The idle bot with the earliest due tick is the next match's anchor.
3. **Close ratings.** The anchor's opponents are idle bots near it in μ: of the players idle bots
   closest to it in μ, players - 1 drawn by a seeded generator (one of the closest stays out, so
   that neighbours in the ranking do not play only each other).
4. **A quota.** A bot's due tick is never earlier than half a round before it became idle, and
   anchors are taken in due order, so no idle bot is passed over for longer than about a round and
   a half of matches (plus one match per newcomer). The longest wait is measured and reported
   (`longest_wait`, bench/hosted.py, the tourney_ladder_longest_wait_seconds metric).

A bot plays one match at a time: it is busy from being scheduled until its result is rated.

Structures: a heap of (rank, due tick) over idle bots with lazy deletion (each bot's entry carries a
version; a stale entry is dropped when it surfaces, and the heap is rebuilt when stale entries
outnumber live ones), a sorted list of idle bots by μ for the opponents, and a queue of idle bots in
the order they became idle for the longest wait. Nothing scans all bots per match.
"""

from __future__ import annotations

import heapq
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from sortedcontainers import SortedList

UNCERTAINTY_SHARE = 0.5  # a bot with σ = σ₀ is due this share of a round early
NEW, RATED = 0, 1  # the heap's first key: new bots before rated ones


@dataclass
class LadderSeat:
    """A bot as the scheduler sees it."""

    alias: str
    mu: float
    sigma: float
    matches: int
    busy: bool = False
    gone: bool = False  # left the ladder: never idle again
    version: int = 0
    idle_tick: int = 0  # the tick it became idle
    idle_since: float = 0.0  # ... and the time (monotonic seconds)
    last_match: int = -1  # the tick of its latest match (-1: none this run)


class Scheduler:
    """Chooses the next match among idle bots; see the module docstring for the rule."""

    def __init__(self, players: int, sigma0: float, seed: int = 0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.players = players
        self.sigma0 = sigma0
        self.tick = 0
        self.bots: dict[str, LadderSeat] = {}
        self._rng = random.Random(seed)
        self._clock = clock
        self._heap: list[tuple[int, float, int, int, str]] = []  # (rank, due, order, version, alias)
        self._order = 0  # ties in the heap go to whoever was queued first
        self._by_mu: SortedList = SortedList()  # (mu, alias) of idle bots
        self._idle_order: deque[tuple[int, float, int, str]] = deque()  # (tick, time, version, alias)
        self.idle = 0
        self.playing = 0  # bots in matches scheduled and not yet rated
        self.gone = 0  # bots that left (they stay in `bots` for the matches they are still in)
        self.longest_wait_ticks = 0  # the longest any scheduled bot had waited, in ticks
        self.longest_wait_s = 0.0  # ... and in seconds

    def add(self, alias: str, mu: float, sigma: float, matches: int, busy: bool = False) -> None:
        """A bot joins (or rejoins after a restart); a busy one is idle once its match is rated."""
        seat = LadderSeat(alias, mu, sigma, matches, busy=True)
        self.bots[alias] = seat
        if busy:
            self.playing += 1
        else:
            self._make_idle(seat)

    def remove(self, alias: str) -> None:
        """The bot leaves: no new match; a match it is in still finishes (and rates it)."""
        seat = self.bots.get(alias)
        if seat is None or seat.gone:
            return
        seat.gone = True
        self.gone += 1
        if not seat.busy:  # out of the idle structures; its heap and queue entries go stale
            seat.busy = True
            seat.version += 1
            self.idle -= 1
            self._by_mu.remove((seat.mu, seat.alias))

    def next_match(self) -> tuple[str, ...] | None:
        """The seats of the next match (anchor first), now busy; None while too few bots are idle."""
        if self.idle < self.players or self._only_a_rematch():
            return None
        anchor = self._pop_anchor()
        self._take(anchor)
        seats = [anchor]
        seats += self._opponents(anchor, self.players - 1)
        for seat in seats[1:]:
            self._take(seat)
        for seat in seats:
            seat.last_match = self.tick
        self.tick += 1
        return tuple(s.alias for s in seats)

    def finished(self, alias: str, mu: float, sigma: float) -> None:
        """The bot's match was rated: its new rating, and it is idle again."""
        seat = self.bots[alias]
        seat.mu, seat.sigma = mu, sigma
        seat.matches += 1
        self.playing -= 1
        if not seat.gone:
            self._make_idle(seat)

    def longest_waiting(self) -> tuple[int, float]:
        """How long the bot idle the longest has waited so far: (ticks, seconds); (0, 0.0) with nobody idle."""
        while self._idle_order:
            tick, since, version, alias = self._idle_order[0]
            if self._live(alias, version):
                return self.tick - tick, self._clock() - since
            self._idle_order.popleft()
        return 0, 0.0

    def longest_wait(self) -> tuple[int, float]:
        """The longest wait of any bot so far, scheduled since or still idle: (ticks, seconds)."""
        ticks, seconds = self.longest_waiting()
        return max(ticks, self.longest_wait_ticks), max(seconds, self.longest_wait_s)

    # ------------------------------------------------------------------ structures

    def _round(self) -> float:
        return (len(self.bots) - self.gone) / self.players

    def _make_idle(self, seat: LadderSeat) -> None:
        seat.busy = False
        seat.version += 1
        seat.idle_tick = self.tick
        seat.idle_since = self._clock()
        self.idle += 1
        if seat.matches == 0:
            key = (NEW, float(self._order))
        else:
            early = UNCERTAINTY_SHARE * self._round() * min(1.0, seat.sigma / self.sigma0)
            key = (RATED, self.tick - early)
        self._order += 1
        heapq.heappush(self._heap, (key[0], key[1], self._order, seat.version, seat.alias))
        self._by_mu.add((seat.mu, seat.alias))
        self._idle_order.append((seat.idle_tick, seat.idle_since, seat.version, seat.alias))
        if max(len(self._heap), len(self._idle_order)) > 4 * max(16, len(self.bots)):
            self._compact()

    def _compact(self) -> None:
        """Drop stale heap and queue entries (amortised: runs once per several rounds of pushes)."""
        self._heap = [e for e in self._heap if self._live(e[4], e[3])]
        heapq.heapify(self._heap)
        self._idle_order = deque(e for e in self._idle_order if self._live(e[3], e[2]))

    def _live(self, alias: str, version: int) -> bool:
        seat = self.bots[alias]
        return not seat.busy and seat.version == version

    def _only_a_rematch(self) -> bool:
        """Rule 5: the idle bots are exactly the seats of one earlier match, and a result is still to come."""
        if self.idle != self.players or self.playing == 0:
            return False
        last = {self.bots[alias].last_match for _mu, alias in self._by_mu}
        return len(last) == 1 and -1 not in last

    def _pop_anchor(self) -> LadderSeat:
        while True:
            _rank, _due, _order, version, alias = heapq.heappop(self._heap)
            if self._live(alias, version):
                return self.bots[alias]

    def _take(self, seat: LadderSeat) -> None:
        """An idle bot is scheduled: busy, out of the μ order, its wait measured."""
        seat.busy = True
        self.idle -= 1
        self.playing += 1
        self._by_mu.remove((seat.mu, seat.alias))
        self.longest_wait_ticks = max(self.longest_wait_ticks, self.tick - seat.idle_tick)
        self.longest_wait_s = max(self.longest_wait_s, self._clock() - seat.idle_since)

    def _opponents(self, anchor: LadderSeat, count: int) -> list[LadderSeat]:
        """`count` idle bots near the anchor in μ (the anchor is already out of the μ order)."""
        at = self._by_mu.bisect_left((anchor.mu, anchor.alias))
        low = max(0, at - count - 1)
        candidates = list(self._by_mu.islice(low, at + count + 1))
        candidates.sort(key=lambda c: abs(c[0] - anchor.mu))
        pool = candidates[:count + 1]
        if len(pool) > count:  # one of the closest stays out, drawn: neighbours do not play only each other
            pool.pop(self._rng.randrange(len(pool)))
        return [self.bots[alias] for _mu, alias in pool]
