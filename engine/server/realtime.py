"""Real-time matches: actions apply when they arrive, ordered by the server's clock.

A game with a real-time driver (Ninja Arena, §6) is played without turns: every seat is
always offered what it may do now (an ActionRequest, renewed whenever its view or its legal
actions change), and it answers whenever it likes. A reply to the seat's current offer is
submitted to the driver at its arrival time. An offer has no deadline (its deadline_ms is 0);
when it is superseded the bot is sent a RequestWithdrawn for it, and a reply to it that crosses
that message is answered with an ErrorReport ("unknown_request") and ignored. An out-of-range index is an
`Illegal` action, which the game resolves itself (a Mistake). A seat whose stream closes
forfeits by disconnection, like in a turn-based match.

The match runs on the arena's event loop like a turn-based one (see match_loop): a connected
bot's reply is put in the match's inbox by the stream's reader, and the match wakes when
something arrives or the driver's next deadline comes. Built-in bots think in the arena's
thread pool as soon as their offer changes; the match waits for them there, so the loop
never runs a bot and the driver never moves while one looks at the state. The server
knows the driver only through its small interface (`submit`, `advance`, `legal_actions`,
`next_deadline`, `log`), and finds it through its game (`Game.realtime_driver`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from tourney.engine.core import (
    Action,
    ConfigError,
    DecisionRequest,
    Game,
    Illegal,
    Observation,
    Seat,
    SeatDisconnected,
    SeatFault,
    State,
    Termination,
    UnknownGame,
    adjudicated_draw,
    available_games,
    get_game,
    match_result,
    termination_of,
)
from tourney.engine.referee import MatchResult, Replay, SeatStats, forfeit_result
from tourney.engine.server.codecs import dumps
from tourney.engine.server.sessions import RemoteSeat, error_message

logger = logging.getLogger(__name__)
POLL_S = 0.05  # longest wait between clock checks when nothing arrives
OFFER_DEADLINE_MS = 60_000  # what a built-in bot is told it has; remote bots see 0: no deadline


class Driver(Protocol):
    """What the arena needs from a game's real-time driver."""

    state: Any
    log: list[tuple[int, int, Action]]
    min_action_interval_ms: int  # the match config's, with the game's declared default

    def submit(self, seat: int, action: Action) -> None: ...

    def advance(self) -> None: ...

    def legal_actions(self, seat: int) -> Sequence[Action]: ...

    def next_deadline(self) -> float | None: ...


def supports_realtime(game_id: str) -> bool:
    """True when `game_id` can be played in real time."""
    try:
        return get_game(game_id).realtime_driver() is not None
    except UnknownGame:
        return False


def no_realtime(game_id: str) -> str:
    """The sentence refusing a real-time match of `game_id`, naming the games that have one."""
    games = ", ".join(g.id for g in available_games() if g.realtime_driver() is not None)
    return f"{game_id} has no real-time mode: drop realtime or pick {games or 'another game'}."


def _builtin_answer(seat: Seat, request: DecisionRequest) -> int | None:
    """A built-in bot's index for an offer (pool thread); None when it fails: it just does not act now."""
    try:
        return seat.act(request)
    except Exception:  # a built-in bot's bug must not end the match
        logger.debug("built-in bot of seat %d failed on an offer", request.seat, exc_info=True)
        return None


async def play_realtime(
    game: Game,
    seats: Sequence[Seat | RemoteSeat],
    seed: int,
    config: Mapping[str, Any] | None,
    pool: concurrent.futures.Executor | None = None,
    on_change: Callable[[State], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    max_seconds: float = 3600.0,
) -> MatchResult:
    """Play one real-time match between `seats` (RemoteSeats and built-in bots) on the running
    event loop; built-in bots think in `pool` (None: the loop's default executor)."""
    n = len(seats)
    loop = asyncio.get_running_loop()
    state = game.new_state(seed, players=n, config=config)
    driver_class = game.realtime_driver()
    if driver_class is None:
        raise ConfigError(no_realtime(game.id))
    driver: Driver = driver_class.from_config(state, clock, config)
    # (seat, offer id, index or None = the seat is gone), put by the streams' readers on this loop
    inbox: asyncio.Queue[tuple[int, int, int | None]] = asyncio.Queue()
    offers: dict[int, tuple[int, Sequence[Action], str]] = {}  # seat -> (offer id, legal, signature)
    next_offer = [0]
    stats = [SeatStats() for _ in seats]
    gone: int | None = None
    started = clock()
    # A built-in bot answers at once; without a pause it would flood the driver's queue.
    builtin_gap_s = driver.min_action_interval_ms / 1000.0
    builtin_last = [-1e9] * n
    last_events = -1

    async def offer(seat: int, view: Observation, legal: Sequence[Action], signature: str) -> None:
        next_offer[0] += 1
        oid = next_offer[0]
        offers[seat] = (oid, legal, signature)
        seat_obj = seats[seat]
        request = DecisionRequest(game, seat, view, legal, OFFER_DEADLINE_MS / 1000.0, state)
        if isinstance(seat_obj, RemoteSeat):
            def answered(outcome: int | SeatFault, seat: int = seat, oid: int = oid) -> None:
                if isinstance(outcome, SeatDisconnected):
                    inbox.put_nowait((seat, oid, None))
                elif not isinstance(outcome, SeatFault):
                    inbox.put_nowait((seat, oid, outcome))

            seat_obj.offer(request, answered)
        else:
            index = await loop.run_in_executor(pool, _builtin_answer, seat_obj, request)
            if index is not None:
                inbox.put_nowait((seat, oid, index))

    while not state.is_over() and gone is None:
        for seat in range(n):
            legal = driver.legal_actions(seat)
            if not legal:
                offers.pop(seat, None)
                idle = seats[seat]
                if isinstance(idle, RemoteSeat):
                    idle.withdraw()
                continue
            view = state.observe(seat)  # one view per seat and pass: the offer's signature and its request
            signature = dumps(view) + "|" + "|".join(a.label for a in legal)
            current = offers.get(seat)
            if not isinstance(seats[seat], RemoteSeat):
                if clock() - builtin_last[seat] < builtin_gap_s:
                    continue
                builtin_last[seat] = clock()
                await offer(seat, view, legal, signature)
            elif current is None or current[2] != signature:
                remote = seats[seat]
                if current is not None and isinstance(remote, RemoteSeat):
                    remote.withdraw()
                await offer(seat, view, legal, signature)
        deadline = driver.next_deadline()
        wait = POLL_S if deadline is None else min(POLL_S, max(0.0, deadline - clock()))
        try:
            seat, oid, index = inbox.get_nowait() if wait <= 0.0 or not inbox.empty() \
                else await asyncio.wait_for(inbox.get(), wait)
        except (asyncio.QueueEmpty, TimeoutError):
            driver.advance()
        else:
            current = offers.get(seat)
            if index is None:
                gone = seat
            elif current is not None and current[0] == oid:
                legal = current[1]
                stats[seat].decisions += 1
                action: Action = legal[index] if 0 <= index < len(legal) else Illegal(raw=repr(index)[:40])
                if isinstance(action, Illegal):
                    faults = stats[seat].faults
                    faults[Termination.ILLEGAL_MOVE] = faults.get(Termination.ILLEGAL_MOVE, 0) + 1
                driver.submit(seat, action)
                offers.pop(seat, None)  # a fresh offer follows, even if nothing visible changed
            driver.advance()
        if on_change is not None and len(driver.log) != last_events:
            last_events = len(driver.log)
            on_change(state)
        if clock() - started > max_seconds:
            break

    for seat_obj in seats:
        if isinstance(seat_obj, RemoteSeat):
            seat_obj.withdraw()
    replay = Replay(game.id, n, dict(config or {}), seed)
    details = {"realtime_log": [[ms, seat, action.label] for ms, seat, action in driver.log]}
    if gone is not None:
        seats_obj = seats[gone]
        if isinstance(seats_obj, RemoteSeat):
            seats_obj.session.send(error_message("disconnection", "the stream closed mid-match", seats_obj.match_id))
        return forfeit_result(replay, stats, gone, Termination.DISCONNECTION, details=details)
    if not state.is_over():
        stopped = adjudicated_draw(n, "server time limit")
        return match_result(game.id, seed, stopped, Termination.ADJUDICATION, stats, replay, details)
    outcome = state.outcome()
    return match_result(game.id, seed, outcome, termination_of(outcome), stats, replay,
                        {**dict(outcome.details), **details})
