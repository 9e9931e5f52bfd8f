"""A learner's match against bot programs (`cmd:`), played by a real arena.

A program plays only through an arena, as in `tourney match`: a private loopback arena is
served for the match, each program is started pointing at it, and the learner connects to it
too, as a bot named `envs-learner` over gRPC. The arena's referee plays the match (clocks,
faults, forfeits) in a thread; every request for the learner's seat is handed to the
environment, which answers it from `step`. Built-in opponents of the same match are played by
the arena itself.
"""

from __future__ import annotations

import contextlib
import queue
import secrets
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tourney.engine.core import ConfigError, Game, Observation
from tourney.engine.referee import MatchResult
from tourney.engine.server.arena import REMOTE_PREFIX
from tourney.engine.server.client import Bot, BotClient
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.launcher import BotProcess, command_name, is_command
from tourney.engine.server.local import LocalArena
from tourney.engine.server.remote import ArenaUnavailable, run_remote_match
from tourney.envs.wire_actions import engine_action

LEARNER = "envs-learner"
CONNECT_WAIT_S = 10.0  # how long the programs and the learner have to connect
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
                 bot_seeds: Sequence[int], log_dir: Path = LOG_DIR) -> None:
        self.game = game
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.learner = _Learner(self.events)
        self._stack = contextlib.ExitStack()
        # An environment dropped without close() must not leave its programs and arena running.
        weakref.finalize(self, self._stack.close)
        self._threads: list[threading.Thread] = []
        try:
            self._start(specs, seed, config, bot_seeds, log_dir)
        except BaseException:
            self.close()
            raise

    def _start(self, specs: Sequence[str | None], seed: int, config: dict[str, Any], bot_seeds: Sequence[int],
               log_dir: Path) -> None:
        token = secrets.token_urlsafe(12)
        arena = self._stack.enter_context(LocalArena(ArenaConfig(admin_token=token, allow_anonymous=True,
                                                                 seat_wait_s=CONNECT_WAIT_S)))
        client = BotClient(arena.address, self.learner, LEARNER, games=[self.game.id])
        self._stack.callback(client.cancel)
        self._thread(client.run)
        seats, names = [], [LEARNER]
        for i, spec in enumerate(specs):
            if spec is None:
                seats.append(REMOTE_PREFIX + LEARNER)
            elif is_command(spec):
                name = command_name(spec, i)
                self._stack.enter_context(BotProcess(spec, name, arena.address, "", log_dir))
                seats.append(REMOTE_PREFIX + name)
                names.append(name)
            else:
                seats.append(spec)
        deadline = time.monotonic() + CONNECT_WAIT_S
        while not all(arena.arena.connected(n) for n in names):
            if time.monotonic() >= deadline:
                missing = [n for n in names if not arena.arena.connected(n)]
                raise ConfigError(f"bot {missing[0]} did not connect within {CONNECT_WAIT_S:g} s: see its log "
                                  f"in {log_dir}.")
            time.sleep(POLL_S)

        def play() -> None:
            try:
                result = run_remote_match(arena.address, self.game.id, seats, seed, config, LEARNER_MOVE_MS,
                                          token, bot_seeds=bot_seeds)
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
