"""A learner's match against bot programs (`cmd:`) and hosted bots (`hosted:`), played by a real arena.

A program plays only through an arena, as in `tourney match`: a private loopback arena is
served for the match (workers.programs.open_program_arena), each program is started pointing at
it (a hosted bot in its sandbox, through the arena's Unix socket), and the learner connects to it
too, as a bot named `envs-learner` over gRPC (with a token of its own when a hosted bot plays).
The arena's referee plays the match (clocks, faults, forfeits) in a thread; every request for the
learner's seat is handed to the environment, which answers it from `step`. Built-in opponents of
the same match are played by the arena itself.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tourney.engine.core import ConfigError, Game, Observation
from tourney.engine.referee import MatchResult
from tourney.engine.server import REMOTE_PREFIX, ArenaUnavailable, Bot, BotClient, pb, run_remote_match
from tourney.envs.wire_actions import engine_action
from tourney.tournament.hosted.seat import hosted_starter
from tourney.workers.programs import CONNECT_CEILING_S, CONNECT_WAIT_S, ProgramArena, SeatForfeit, open_program_arena
from tourney.workers.start_clock import StartClock

LEARNER = "envs-learner"
POLL_S = 0.05
# The learner thinks between calls to step(), which may be slow (a training update): its clock is long.
LEARNER_MOVE_MS = 600_000
LOG_DIR = Path("bot-logs")


class _Learner(Bot):
    """The learner's side of the stream: each request goes to the environment, which answers it."""

    def __init__(self, events: queue.Queue[tuple[str, Any]]) -> None:
        self.events = events
        self.answers: queue.Queue[int | None] = queue.Queue(maxsize=1)

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action], request: Any) -> int | None:
        self.events.put(("request", (observation, list(legal_actions))))
        answer = self.answers.get(timeout=LEARNER_MOVE_MS / 1000.0)
        # None is an action outside the learner's mask: an index past the list, which the arena rules illegal.
        return len(legal_actions) if answer is None else answer


class ProgramMatch:
    """One match on a private arena: `specs` by seat, the learner's seat written `None`."""

    def __init__(self, game: Game, specs: Sequence[str | None], seed: int, config: dict[str, Any],
                 bot_seeds: Sequence[int], log_dir: Path = LOG_DIR, store: str = "") -> None:
        self.game = game
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.learner = _Learner(self.events)
        self._stack = contextlib.ExitStack()
        # An environment dropped without close() must not leave its programs and arena running.
        weakref.finalize(self, self._stack.close)
        self._threads: list[threading.Thread] = []
        try:
            self._start(specs, seed, config, bot_seeds, log_dir, store)
        except BaseException:
            self.close()
            raise

    def _start(self, specs: Sequence[str | None], seed: int, config: dict[str, Any], bot_seeds: Sequence[int],
               log_dir: Path, store: str) -> None:
        def connect_learner(table: ProgramArena) -> None:
            client = BotClient(table.arena.address, self.learner, LEARNER, token=table.guest_tokens[LEARNER],
                               games=[self.game.id])
            self._stack.callback(client.cancel)
            self._thread(client.run)

        seats = [REMOTE_PREFIX + LEARNER if spec is None else spec for spec in specs]
        try:
            table = open_program_arena(self._stack, seats, hosted_starter(store), log_dir, guests=[LEARNER],
                                       guests_connect=connect_learner)
        except SeatForfeit as forfeit:
            raise ConfigError(f"the opponent in seat {forfeit.seat} cannot play: {forfeit.why}.") from None
        clock = StartClock([os.getpid()], CONNECT_CEILING_S)  # the learner is a thread of this process
        while not table.arena.arena.connected(LEARNER):
            if clock.expired(CONNECT_WAIT_S):
                raise ConfigError(f"the learner did not connect to its arena within {CONNECT_WAIT_S:g} s.")
            time.sleep(POLL_S)

        def play() -> None:
            try:
                result = run_remote_match(table.arena.address, self.game.id, table.seats, seed, config,
                                          LEARNER_MOVE_MS, table.admin_token, bot_seeds=bot_seeds)
                self.events.put(("result", result))
            except ArenaUnavailable as exc:
                self.events.put(("error", str(exc)))

        self._thread(play)

    def _thread(self, target: Any) -> None:
        thread = threading.Thread(target=target, name="envs-program-match", daemon=True)
        thread.start()
        self._threads.append(thread)

    def next(self, timeout_s: float = LEARNER_MOVE_MS / 1000.0 + 30.0) -> tuple[Observation, list[Any]] | MatchResult:
        """The learner's next request (its view and legal engine actions), or the match's result."""
        try:
            kind, value = self.events.get(timeout=timeout_s)
        except queue.Empty:
            raise ConfigError(f"the match on the arena did not move within {timeout_s:g} s: "
                              "a program may be stuck, see its log.") from None
        if kind == "error":
            raise ConfigError(f"the arena could not play the match: {value}")
        if kind == "result":
            return value  # type: ignore[no-any-return]
        view, legal = value
        return view, [engine_action(self.game, a) for a in legal]

    def answer(self, index: int | None) -> None:
        """The learner's answer to its open request: a place in its legal list (None: out of range)."""
        self.learner.answers.put(index)

    def close(self) -> None:
        """Stop the programs, the learner's stream and the arena (a request left open is answered first)."""
        with contextlib.suppress(queue.Full):
            self.learner.answers.put_nowait(None)
        self._stack.close()
