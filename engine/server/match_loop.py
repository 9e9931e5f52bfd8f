"""The referee's steps driven on the arena's event loop, for matches with connected bots.

A decision of a connected bot is a message out and a message in on the loop, so the match
is driven from there too: the reply's callback, run by the stream's reader, feeds the
referee and queues the next request in the same step: no thread hop and no match task to
wake per decision, which used to cost more than the game itself. The game's own work (observe,
legal actions, apply) is well under a millisecond a step. Built-in bots in the same match
think in the arena's thread pool, so a slow search never holds up the loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import time
from collections.abc import Sequence

from tourney.engine.core import DecisionRequest, Seat, SeatFault
from tourney.engine.referee import Answer, Clock, MatchResult, MatchSteps, ask_seat
from tourney.engine.server.sessions import RemoteSeat


class LoopMatch:
    """One match whose referee advances whenever the last answer of a step comes in."""

    def __init__(self, steps: MatchSteps, seats: Sequence[Seat | RemoteSeat], pool: concurrent.futures.Executor,
                 clock: Clock = time.perf_counter) -> None:
        self.steps = steps
        self.seats = seats
        self.pool = pool
        self.clock = clock
        self.loop = asyncio.get_running_loop()
        self.done: asyncio.Future[MatchResult] = self.loop.create_future()
        self._answers: dict[int, Answer] = {}
        self._expected = 0

    async def play(self) -> MatchResult:
        """Play to the end; a game bug ends the match with its exception."""
        self._advance(None)
        return await self.done

    def _advance(self, answers: dict[int, Answer] | None) -> None:
        """Send the step's answers to the referee and ask what it asks next."""
        try:
            requests = self.steps.send(answers)  # type: ignore[arg-type]  # the first send must be None
            self._answers, self._expected = {}, len(requests)
            for seat, request in requests.items():
                self._ask(seat, request)
        except StopIteration as end:
            self.done.set_result(end.value)
        except Exception as exc:  # a bug in a game or codec: the arena voids this match only
            self.done.set_exception(exc)

    def _ask(self, seat: int, request: DecisionRequest) -> None:
        player = self.seats[seat]
        if isinstance(player, RemoteSeat):
            player.request(request, functools.partial(self._replied, seat, self.clock()))
        else:
            thinking = self.loop.run_in_executor(self.pool, ask_seat, player, request, self.clock)
            thinking.add_done_callback(functools.partial(self._thought, seat))

    def _replied(self, seat: int, started: float, outcome: int | SeatFault) -> None:
        used = self.clock() - started
        if isinstance(outcome, SeatFault):
            self._answered(seat, (-1, outcome.kind, used))
        else:
            self._answered(seat, (outcome, None, used))

    def _thought(self, seat: int, thinking: asyncio.Future[Answer]) -> None:
        if thinking.cancelled() or thinking.exception() is not None:  # the pool is shutting down
            if not self.done.done():
                self.done.set_exception(thinking.exception() or asyncio.CancelledError())
            return
        self._answered(seat, thinking.result())

    def _answered(self, seat: int, answer: Answer) -> None:
        if self.done.done():  # ended (or abandoned) already: a late answer changes nothing
            return
        self._answers[seat] = answer
        if len(self._answers) == self._expected:
            self._advance(self._answers)
