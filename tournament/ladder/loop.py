"""The ladder loop: schedule, store, play on the executor, rate results as they arrive, store.

The executor (workers/: Ray tasks, as tournaments use) is fed as it goes: whenever its queue runs
dry it asks for more, and gets as many matches as there are idle bots for, up to about WAVE_S
seconds of play in flight at the rate measured so far; they are stored as scheduled *before*
they are handed over. Finished chunks come back in the order they finish; each is rated in that
order (OpenSkill, one match at a time) and written in one transaction that completes its match
rows and sets its players' ratings, and the bots it frees can be scheduled again at once.

Killed at any moment (`kill -9`), the ladder loses nothing and duplicates nothing: a result is
stored together with the ratings it moved, or not at all; a scheduled match that has no result
is played again on restart, first, with the same number, seats and seed, so it gives the same
result it would have given (but where a seat remembers, in a game with hidden information: there
the restart deals anew, as its bots may have seen the deal; ladder/plan.py); and a stored result
is never completed twice (only rows still scheduled are). The bots in those matches stay busy
until they are rated again.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tourney.engine.core import ConfigError, get_game
from tourney.tournament.entrants import Entrant
from tourney.tournament.ladder.lease import LadderLease
from tourney.tournament.ladder.metrics import observe_ladder
from tourney.tournament.ladder.plan import LadderPairing, LadderPlan
from tourney.tournament.ladder.scheduler import Scheduler
from tourney.tournament.rating.plackett_luce import SIGMA, rate_match
from tourney.tournament.store.database import url_of
from tourney.tournament.store.ladder_rows import (
    LadderEntry,
    MatchOutcome,
    ScheduledMatch,
    count_run,
    counters,
    departed,
    entries,
    ladder_of,
    ladder_settings,
    scheduled,
    store_results,
    store_scheduled,
)
from tourney.tournament.store.records import StoredMatch
from tourney.workers import Executor

WAVE_S = 2.0  # at most about this much play is in flight (what a restart replays)
WAVE_MIN_PER_WORKER = 2  # ... and at least this many matches per worker, so no worker idles
WAVE_MAX = 4096  # ... and at most this many (bounds what a restart replays and the memory in flight)
POLL_NEW_S = 1.0  # how often the store is asked for bots added meanwhile (`tourney ladder add`)
IDLE_WAIT_S = 0.5  # with too few idle bots for a match and nothing in flight: look again after this
RATE_WINDOW_S = 5.0  # the rate that sizes the batches is measured over this long


@dataclass
class LadderReport:
    """What one `ladder run` did."""

    game: str
    played: int = 0
    replayed: int = 0  # of them, matches left scheduled by an earlier run that stopped
    seconds: float = 0.0
    longest_wait_ticks: int = 0
    longest_wait_s: float = 0.0

    @property
    def per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


@dataclass
class LadderState:
    """The loop's memory: the scheduler, the bots' ids and win counts, the counters."""

    scheduler: Scheduler
    ids: dict[str, int] = field(default_factory=dict)
    specs: dict[str, str] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    last_id: int = 0
    next_number: int = 0
    next_rated: int = 0


def run_ladder(engine: Any, game: str, executor: Executor, matches: int | None = None,
               seconds: float | None = None, players: int | None = None, config: dict[str, Any] | None = None,
               move_ms: int | None = None, stop: threading.Event | None = None,
               on_batch: Callable[[LadderReport], None] | None = None) -> LadderReport:
    """Keep the game's ladder playing until `matches` are rated, `seconds` pass, or `stop` is set.

    With neither limit it runs until stopped (SIGINT/SIGTERM in the CLI). Matches an earlier
    run left scheduled are played first and count towards `matches`. The first run fixes the
    ladder's players, config and move_ms (None: 2 players, the game's defaults, no move limit);
    later runs use those, and refuse other values, so that every match rates the same thing and a
    match left in flight replays exactly.
    """
    if matches is not None and matches < 1:
        raise ConfigError(f"--matches must be at least 1, not {matches}.")
    if seconds is not None and seconds <= 0:
        raise ConfigError(f"--for must be a positive duration, not {seconds:g} s.")
    g = get_game(game)
    if players is not None and not g.min_players <= players <= g.max_players:
        raise ConfigError(f"{g.name} is for {g.min_players} to {g.max_players} players, not {players}.")
    g.options.resolve(config or {}, players or 2)  # a bad option fails now, not on a worker
    found = ladder_of(engine, game, create=False)
    if found is None:
        raise ConfigError(f"there is no {game} ladder in this store: add bots first with "
                          f"`tourney ladder add SPEC --game {game}`.")
    ladder_id, seed_key = found
    with LadderLease(engine, ladder_id, game) as lease:
        given = {"players": players, "config": config, "move_ms": move_ms}
        fixed = ladder_settings(engine, ladder_id, {"players": players or 2, "config": config or {},
                                                    "move_ms": move_ms})
        differ = [k for k, v in given.items() if v is not None and v != fixed[k]]
        if differ:
            raise ConfigError(f"the {game} ladder plays with {_settings_text(fixed)} since its first run, so its "
                              f"matches stay comparable: drop {', '.join(FLAGS[k] for k in differ)} or give the same.")
        plan = LadderPlan(game=game, seed_key=seed_key, players=int(fixed["players"]), config=dict(fixed["config"]),
                          move_ms=fixed["move_ms"], store=url_of(engine), restarts=count_run(engine, ladder_id) - 1)
        return _run(engine, ladder_id, plan, executor, matches, seconds, stop, on_batch, lease)


FLAGS = {"players": "--players", "config": "--set/--mode", "move_ms": "--move-ms"}


def _settings_text(settings: dict[str, Any]) -> str:
    options = ", ".join(f"{k}={v}" for k, v in sorted(settings["config"].items())) or "the default options"
    limit = f"{settings['move_ms']} ms a move" if settings["move_ms"] is not None else "no move limit"
    return f"{settings['players']} players, {options} and {limit}"


def _run(engine: Any, ladder_id: int, plan: LadderPlan, executor: Executor, matches: int | None,
         seconds: float | None, stop: threading.Event | None, on_batch: Callable[[LadderReport], None] | None,
         lease: LadderLease) -> LadderReport:
    """The loop of run_ladder, holding the ladder's lease."""
    game, players = plan.game, plan.players
    state = LadderState(Scheduler(players, sigma0=SIGMA))
    pending = scheduled(engine, ladder_id)
    busy = {alias for m in pending for alias in m.aliases}
    _join(state, entries(engine, ladder_id), busy)
    on_ladder = len(state.ids) - state.scheduler.gone
    if on_ladder < players:
        raise ConfigError(f"the {game} ladder has {on_ladder} bot(s) and a match needs {players}: add more with "
                          f"`tourney ladder add SPEC --game {game}`, or submit hosted bots for {game}.")
    state.next_number, state.next_rated = counters(engine, ladder_id)
    report = LadderReport(game, replayed=len(pending))
    started = time.monotonic()
    deadline = started + seconds if seconds is not None else None
    flow = Flow(started, outstanding=len(pending))

    def pairing(m: ScheduledMatch) -> LadderPairing:
        return LadderPairing(m.number, tuple(Entrant(a, state.specs[a]) for a in m.aliases))

    def more() -> list[LadderPairing]:
        """The next matches for the executor: as many as idle bots allow, up to a wave's worth in flight."""
        lease.check()
        now = time.monotonic()
        if (stop is not None and stop.is_set()) or (deadline is not None and now >= deadline):
            return []
        if now - flow.last_poll >= POLL_NEW_S:
            _join(state, entries(engine, ladder_id, state.last_id), set())
            for alias in departed(engine, ladder_id):  # retired, or replaced by a newer version
                state.scheduler.remove(alias)
            flow.last_poll = now
        left = None if matches is None else matches - report.played - flow.outstanding
        fresh = _schedule(state, plan, _wave_size(flow.rate(now), executor.workers, left, flow.outstanding))
        store_scheduled(engine, ladder_id, fresh)
        flow.outstanding += len(fresh)
        return [pairing(m) for m in fresh]

    while not (stop is not None and stop.is_set()):
        if matches is not None and report.played >= matches:
            break
        if deadline is not None and time.monotonic() >= deadline:
            break
        first = [pairing(m) for m in pending]
        pending = []
        for chunk in executor.run(plan, first, more):
            outcomes = [_rate(state, p, record, took) for p, record, took in chunk]
            touched = {s["alias"] for o in outcomes for s in o.seats}
            store_results(engine, ladder_id, outcomes, [_row(state, a) for a in sorted(touched)])
            flow.outstanding -= len(chunk)
            flow.rated(time.monotonic(), len(chunk))
            report.played += len(chunk)
            report.seconds = time.monotonic() - started
            report.longest_wait_ticks, report.longest_wait_s = state.scheduler.longest_wait()
            observe_ladder(game, len(chunk), flow.rate(time.monotonic()), flow.outstanding, state.scheduler.idle,
                           state.scheduler.longest_waiting()[1])
            if on_batch is not None:
                on_batch(report)
        # The executor ran dry: stopped, out of budget, or too few idle bots; newcomers may change the last.
        (stop or threading.Event()).wait(IDLE_WAIT_S)
        flow.last_poll = 0.0
    report.seconds = time.monotonic() - started
    report.longest_wait_ticks, report.longest_wait_s = state.scheduler.longest_wait()
    return report


@dataclass
class Flow:
    """What the feed needs to size its batches: matches in flight, and the rate over the last RATE_WINDOW_S."""

    started: float
    outstanding: int = 0
    last_poll: float = 0.0
    window: deque[tuple[float, int]] = field(default_factory=deque)

    def rated(self, now: float, count: int) -> None:
        self.window.append((now, count))
        while self.window and self.window[0][0] < now - RATE_WINDOW_S:
            self.window.popleft()

    def rate(self, now: float) -> float:
        """Matches rated per second over the window (0 before the first result)."""
        if not self.window:
            return 0.0
        span = max(now - max(self.window[0][0], self.started), 1e-3)
        return sum(c for _t, c in self.window) / span


def _join(state: LadderState, found: list[LadderEntry], busy: set[str]) -> None:
    """Bots stored since the last look join the scheduler (busy ones: in a match left scheduled)."""
    for entry in found:
        state.ids[entry.alias] = entry.id
        state.specs[entry.alias] = entry.spec
        state.wins[entry.alias] = entry.wins
        state.scheduler.add(entry.alias, entry.mu, entry.sigma, entry.matches, busy=entry.alias in busy)
        if not entry.active:  # kept for a match left in flight, but gets no new one
            state.scheduler.remove(entry.alias)
        state.last_id = max(state.last_id, entry.id)


def _wave_size(rate: float, workers: int, left: int | None, outstanding: int) -> int:
    """How many new matches to schedule now: up to a wave's worth in flight (see WAVE_S), within `left`."""
    size = min(max(WAVE_MIN_PER_WORKER * max(1, workers), int(rate * WAVE_S)), WAVE_MAX) - outstanding
    if left is not None:
        size = min(size, left)
    return max(0, size)


def _schedule(state: LadderState, plan: LadderPlan, size: int) -> list[ScheduledMatch]:
    chosen: list[ScheduledMatch] = []
    while len(chosen) < size:
        seats = state.scheduler.next_match()
        if seats is None:
            break
        number = state.next_number
        state.next_number += 1
        chosen.append(ScheduledMatch(number, plan.seed_of(number), seats))
    return chosen


def _rate(state: LadderState, pairing: LadderPairing, record: StoredMatch,
          took: float) -> MatchOutcome:
    """Rate one finished match against the ratings now (arrival order) and free its bots."""
    bots = state.scheduler.bots
    aliases = [e.alias for e in pairing.seats]
    rated = rate_match([(bots[a].mu, bots[a].sigma) for a in aliases], [float(s.tier) for s in record.seats])
    seats = []
    for alias, seat, (mu, sigma) in zip(aliases, record.seats, rated, strict=True):
        state.scheduler.finished(alias, mu, sigma)
        if seat.tier == 0 and seat.tier_size == 1:
            state.wins[alias] += 1
        seats.append({"alias": alias, "tier": seat.tier, "points": seat.points, "mu": mu, "sigma": sigma})
    order = state.next_rated
    state.next_rated += 1
    return MatchOutcome(pairing.number, order, record.termination, record.reason, record.plies, took,
                        tuple(seats), record.replay)


def _row(state: LadderState, alias: str) -> tuple[int, float, float, int, int]:
    seat = state.scheduler.bots[alias]
    return state.ids[alias], seat.mu, seat.sigma, seat.matches, state.wins[alias]
