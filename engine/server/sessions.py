"""A connected bot's stream, and the Seat that lets the referee drive it.

The referee runs in a worker thread and calls `RemoteSeat.act`, which sends an
ActionRequest over the bot's stream (through the event loop) and blocks on a future until
the ActionReply with the same match id and request id arrives, the deadline passes
(SeatTimeout) or the stream goes away (SeatDisconnected). One stream carries many matches:
replies are matched to requests by their ids, never by order.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import threading
from collections.abc import Sequence

from engine.core import Action, DecisionRequest, SeatDisconnected, SeatTimeout
from engine.server.codecs import Codec
from engine.server.generated import arena_pb2 as pb

# Sentinel on the outbound queue: the stream is over, the writer stops.
_CLOSE: pb.ArenaMessage | None = None


def error_message(code: str, message: str, match_id: str = "", request_id: int = 0) -> pb.ArenaMessage:
    """An ErrorReport wrapped for the stream."""
    return pb.ArenaMessage(error=pb.ErrorReport(match_id=match_id, request_id=request_id, code=code, message=message))


class BotSession:
    """One Play stream after its Hello: the bot's name, games, match slots and pending requests."""

    def __init__(
        self,
        session_id: str,
        name: str,
        games: Sequence[str],
        capacity: int,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.session_id = session_id
        self.name = name
        self.games = frozenset(games)
        self.capacity = max(1, capacity)
        self.active = 0  # match seats this stream holds now (guarded by the arena's lock)
        self.loop = loop
        self.outbound: asyncio.Queue[pb.ArenaMessage | None] = asyncio.Queue()
        self._lock = threading.Lock()
        self._pending: dict[tuple[str, int], concurrent.futures.Future[int]] = {}
        self._ids = itertools.count(1)
        self.closed = False

    def plays(self, game_id: str) -> bool:
        """True when this bot said it plays `game_id` (an empty list in Hello means every game)."""
        return not self.games or game_id in self.games

    def send(self, message: pb.ArenaMessage) -> None:
        """Queue a message for the bot; safe from any thread, a no-op once the stream is closed."""
        if self.closed:
            return
        try:
            self.loop.call_soon_threadsafe(self.outbound.put_nowait, message)
        except RuntimeError:  # the loop is gone: the server is shutting down
            self.closed = True

    def ask(self, match_id: str, seat: int, observation: pb.Observation, legal: list[pb.Action],
            deadline_s: float) -> int:
        """Send one ActionRequest and wait for its reply; raise SeatTimeout / SeatDisconnected."""
        future: concurrent.futures.Future[int] = concurrent.futures.Future()
        with self._lock:
            if self.closed:
                raise SeatDisconnected(f"bot {self.name} is not connected")
            request_id = next(self._ids)
            key = (match_id, request_id)
            self._pending[key] = future
        deadline_ms = max(1, min(int(deadline_s * 1000.0), 2**32 - 1))
        self.send(pb.ArenaMessage(action_request=pb.ActionRequest(
            match_id=match_id, request_id=request_id, seat=seat, observation=observation,
            legal_actions=legal, deadline_ms=deadline_ms,
        )))
        try:
            return future.result(timeout=deadline_s)
        except concurrent.futures.TimeoutError:
            with self._lock:
                self._pending.pop(key, None)
            if future.done() and not future.cancelled() and future.exception() is None:
                return future.result()  # the reply won the race against the clock
            self.send(error_message("timeout", f"no reply within {deadline_ms} ms: the match is forfeited",
                                    match_id, request_id))
            raise SeatTimeout(f"bot {self.name} did not answer within {deadline_ms} ms") from None

    def resolve(self, reply: pb.ActionReply) -> bool:
        """Hand a reply to the request waiting for it; False when no such request is pending."""
        with self._lock:
            future = self._pending.pop((reply.match_id, reply.request_id), None)
        if future is None or future.done():
            return False
        future.set_result(reply.action_index)
        return True

    def close(self) -> None:
        """The stream ended: every waiting request fails with SeatDisconnected."""
        with self._lock:
            self.closed = True
            pending = list(self._pending.values())
            self._pending.clear()
        for future in pending:
            if not future.done():
                future.set_exception(SeatDisconnected(f"bot {self.name} disconnected"))
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.outbound.put_nowait, _CLOSE)


class RemoteSeat:
    """A Seat played by a connected bot: observations and actions go through the game's codec."""

    def __init__(self, session: BotSession, match_id: str, codec: Codec, default_deadline_s: float) -> None:
        self.session = session
        self.match_id = match_id
        self.codec = codec
        self.default_deadline_s = default_deadline_s
        # Legal lists repeat often (openings, the same rows): encode each action object once.
        self._encoded: dict[int, tuple[Action, pb.Action]] = {}

    def _encode(self, action: Action) -> pb.Action:
        hit = self._encoded.get(id(action))
        if hit is not None and hit[0] is action:
            return hit[1]
        message = self.codec.action(action)
        if len(self._encoded) < 4096:
            self._encoded[id(action)] = (action, message)
        return message

    def act(self, request: DecisionRequest) -> int:
        """Ask the bot; an index out of range is returned as is (the referee rules on it)."""
        deadline = request.deadline_s if request.deadline_s is not None else self.default_deadline_s
        observation = self.codec.observation(request.observation)
        legal = [self._encode(a) for a in request.legal]
        index = self.session.ask(self.match_id, request.seat, observation, legal, deadline)
        if index >= len(legal):
            self.session.send(error_message(
                "illegal_move", f"action index {index} is not below {len(legal)} (the number of legal actions)",
                self.match_id,
            ))
        return index
