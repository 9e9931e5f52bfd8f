"""A real-time match runs on the event loop: the driver moves there, built-in bots think in the pool.

The loop stays free while a bot thinks (another coroutine keeps running), and the driver never
moves while a bot looks at the state.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading

from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, State, get_game
from tourney.engine.server.realtime import play_realtime

FAST = {"mode": "realtime", "min_action_interval_ms": 20, "reaction_timeout_ms": 200, "grace_ms": 20,
        "wall_clock_cap_s": 2}


class ThreadNotingBot:
    """A built-in bot that writes down which thread asked it, and whether the state moved under it."""

    def __init__(self, seed: int) -> None:
        self.inner = make_bot("random", get_game("ninja-arena"), seed)
        self.threads: set[int] = set()
        self.moved_while_thinking = False

    def act(self, request: DecisionRequest) -> int:
        self.threads.add(threading.get_ident())
        before = request.observation
        index = self.inner.act(request)
        # The observation is read again from the state now: the same unless the driver moved meanwhile.
        self.moved_while_thinking |= request._state.observe(request.seat) != before
        return index


def test_a_realtime_match_plays_on_the_loop_and_its_bots_think_in_the_pool() -> None:
    bots = [ThreadNotingBot(1), ThreadNotingBot(2)]
    changes: set[int] = set()
    ticks = [0]

    async def ticker(stop: asyncio.Event) -> None:
        while not stop.is_set():  # stops with the match
            ticks[0] += 1
            await asyncio.sleep(0.01)

    async def scenario() -> tuple[int, object]:
        stop = asyncio.Event()
        beside = asyncio.ensure_future(ticker(stop))

        def on_change(_state: State) -> None:
            changes.add(threading.get_ident())

        with concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="bots") as pool:
            result = await play_realtime(get_game("ninja-arena"), bots, 5, FAST, pool, on_change)
        stop.set()
        await beside
        return threading.get_ident(), result

    loop_thread, result = asyncio.run(scenario())
    assert result.termination in ("normal", "adjudication"), result.reason  # type: ignore[attr-defined]
    assert changes == {loop_thread}  # the driver moved on the loop's thread
    asked = bots[0].threads | bots[1].threads
    assert asked and loop_thread not in asked  # bots never ran on the loop
    assert not any(bot.moved_while_thinking for bot in bots)
    assert ticks[0] > 1  # the loop served another coroutine while the match played
