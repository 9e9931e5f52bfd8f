"""The referee's steps driven on the arena's event loop, for matches with connected bots.

A decision of a connected bot is a message out and a message in on the loop, so the match
waits on the loop too: no thread hop per decision, which used to cost more than the game
itself. The game's own work (observe, legal actions, apply) is well under a millisecond a
step. Built-in bots in the same match think in the arena's thread pool, so a slow search
never holds up the loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Sequence

from engine.core import DecisionRequest, Seat, SeatFault
from engine.referee import Answer, Clock, MatchResult, MatchSteps, ask_seat
from engine.server.sessions import RemoteSeat


async def play_on_loop(steps: MatchSteps, seats: Sequence[Seat | RemoteSeat],
                       pool: concurrent.futures.Executor, clock: Clock = time.perf_counter) -> MatchResult:
    """Run the referee's steps to the end, awaiting connected bots and pooling built-in ones."""
    answers: dict[int, Answer] | None = None
    while True:
        try:
            requests = steps.send(answers)  # type: ignore[arg-type]  # the first send must be None
        except StopIteration as done:
            result: MatchResult = done.value
            return result
        if len(requests) == 1:
            ((seat, request),) = requests.items()
            answers = {seat: await _answer(seats[seat], request, pool, clock)}
        else:
            given = await asyncio.gather(*(_answer(seats[s], r, pool, clock) for s, r in requests.items()))
            answers = dict(zip(requests, given, strict=True))


async def _answer(seat: Seat | RemoteSeat, request: DecisionRequest, pool: concurrent.futures.Executor,
                  clock: Clock) -> Answer:
    """One timed answer; a fault becomes its kind, as in the referee's own `ask_seat`."""
    if not isinstance(seat, RemoteSeat):
        return await asyncio.get_running_loop().run_in_executor(pool, ask_seat, seat, request, clock)
    started = clock()
    try:
        return await seat.ask(request), None, clock() - started
    except SeatFault as exc:
        return -1, exc.kind, clock() - started
