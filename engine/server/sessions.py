"""A connected bot's stream, and the seat that lets the referee ask it.

A turn-based match runs on the event loop (see match_loop): `RemoteSeat.ask` sends an
ActionRequest over the bot's stream and awaits the ActionReply with the same match id and
request id, until the deadline passes (SeatTimeout) or the stream goes away
(SeatDisconnected). Real-time matches run in a thread and use `post`, whose future is a
thread-safe one. One stream carries many matches: replies are matched to requests by their
ids, never by order.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import threading
from collections import OrderedDict
from collections.abc import Sequence

from engine.core import Action, DecisionRequest, SeatDisconnected, SeatTimeout
from engine.server.codecs import Codec
from engine.server.generated import arena_pb2 as pb

# Sentinel on the outbound queue: the stream is over, the writer stops.
_CLOSE = None


def error_message(code: str, message: str, match_id: str = "", request_id: int = 0) -> pb.ArenaMessage:
    """An ErrorReport wrapped for the stream."""
    return pb.ArenaMessage(error=pb.ErrorReport(match_id=match_id, request_id=request_id, code=code, message=message))


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def frame(field_number: int, payload: bytes) -> bytes:
    """`payload` as a length-delimited field of a protobuf message (how submessages are written)."""
    return _varint((field_number << 3) | 2) + _varint(len(payload)) + payload


# ActionRequest.legal_actions and ArenaMessage.action_request: fixed by the contract.
_LEGAL_FIELD = 5
_ACTION_REQUEST_FIELD = 3


class LegalEncoder:
    """Legal lists as ready-to-send bytes (ActionRequest field 5, one entry per action).

    Encoding is the arena's hot path: a Maître Ninja defender can have ~35,000 legal rows.
    Each distinct action is encoded once (actions are frozen, so equal actions encode
    equally), and an immutable legal sequence returned again by the game is reused whole.
    """

    def __init__(self, codec: Codec, max_actions: int = 200_000, max_lists: int = 64) -> None:
        self.codec = codec
        self.max_actions = max_actions
        self.max_lists = max_lists
        self._actions: dict[Action, bytes] = {}
        self._lists: OrderedDict[int, tuple[Sequence[Action], bytes]] = OrderedDict()

    def encode(self, legal: Sequence[Action]) -> bytes:
        """The framed bytes of every action of `legal`, in order."""
        key = id(legal)
        hit = self._lists.get(key)
        if hit is not None and hit[0] is legal:
            return hit[1]
        parts = []
        cache = self._actions
        for action in legal:
            try:
                data = cache.get(action)
            except TypeError:  # an unhashable action: encode it every time
                parts.append(frame(_LEGAL_FIELD, self.codec.action(action).SerializeToString()))
                continue
            if data is None:
                data = frame(_LEGAL_FIELD, self.codec.action(action).SerializeToString())
                if len(cache) < self.max_actions:
                    cache[action] = data
            parts.append(data)
        out = b"".join(parts)
        # Only immutable sequences may be reused by identity (a list could change in place).
        if len(legal) >= 32 and not isinstance(legal, list):
            self._lists[key] = (legal, out)
            while len(self._lists) > self.max_lists:
                self._lists.popitem(last=False)
        return out


_ENCODERS: dict[int, LegalEncoder] = {}


def legal_encoder(codec: Codec) -> LegalEncoder:
    """The shared encoder of one codec (one per game)."""
    encoder = _ENCODERS.get(id(codec))
    if encoder is None or encoder.codec is not codec:
        encoder = _ENCODERS[id(codec)] = LegalEncoder(codec)
    return encoder


Outbound = pb.ArenaMessage | bytes | None


class _Expired(Exception):
    """A request's deadline passed before its reply came."""


def _expire(future: asyncio.Future[int]) -> None:
    if not future.done():
        future.set_exception(_Expired())


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
        self.outbound: asyncio.Queue[Outbound] = asyncio.Queue()
        self._lock = threading.Lock()
        # Loop-side requests wait on asyncio futures, thread-side (real-time) ones on concurrent ones.
        self._pending: dict[tuple[str, int], asyncio.Future[int] | concurrent.futures.Future[int]] = {}
        self._ids = itertools.count(1)
        self.closed = False

    def plays(self, game_id: str) -> bool:
        """True when this bot said it plays `game_id` (an empty list in Hello means every game)."""
        return not self.games or game_id in self.games

    def send(self, message: pb.ArenaMessage | bytes) -> None:
        """Queue a message for the bot; safe from any thread, a no-op once the stream is closed."""
        if self.closed:
            return
        try:
            self.loop.call_soon_threadsafe(self.outbound.put_nowait, message)
        except RuntimeError:  # the loop is gone: the server is shutting down
            self.closed = True

    def post(self, match_id: str, seat: int, observation: pb.Observation, legal: bytes,
             deadline_s: float) -> tuple[tuple[str, int], concurrent.futures.Future[int]]:
        """Send one ActionRequest; its future gets the reply's index (SeatDisconnected if the stream ends)."""
        future: concurrent.futures.Future[int] = concurrent.futures.Future()
        with self._lock:
            request_id = next(self._ids)
            key = (match_id, request_id)
            if self.closed:
                future.set_exception(SeatDisconnected(f"bot {self.name} is not connected"))
                return key, future
            self._pending[key] = future
        deadline_ms = max(1, min(int(deadline_s * 1000.0), 2**32 - 1))
        head = pb.ActionRequest(match_id=match_id, request_id=request_id, seat=seat, observation=observation,
                                deadline_ms=deadline_ms).SerializeToString()
        # Fields may come in any order on the wire: the pre-encoded legal list goes last.
        self.send(frame(_ACTION_REQUEST_FIELD, head + legal))
        return key, future

    def withdraw(self, key: tuple[str, int]) -> None:
        """Forget a request (superseded or timed out); a later reply to it is an unknown request."""
        with self._lock:
            future = self._pending.pop(key, None)
        if future is not None:
            future.cancel()

    async def ask(self, match_id: str, seat: int, observation: pb.Observation, legal: bytes,
                  deadline_s: float) -> int:
        """Send one ActionRequest and await its reply (event-loop thread only).

        Raises SeatTimeout when no reply comes within deadline_s, SeatDisconnected when the
        stream is or goes away.
        """
        future: asyncio.Future[int] = self.loop.create_future()
        with self._lock:
            if self.closed:
                raise SeatDisconnected(f"bot {self.name} is not connected")
            key = (match_id, next(self._ids))
            self._pending[key] = future
        deadline_ms = max(1, min(int(deadline_s * 1000.0), 2**32 - 1))
        head = pb.ActionRequest(match_id=match_id, request_id=key[1], seat=seat, observation=observation,
                                deadline_ms=deadline_ms).SerializeToString()
        # Fields may come in any order on the wire: the pre-encoded legal list goes last.
        self.outbound.put_nowait(frame(_ACTION_REQUEST_FIELD, head + legal))
        # A plain timer, not asyncio.timeout: this runs once per decision and the timer is cheaper.
        timer = self.loop.call_later(deadline_s, _expire, future)
        try:
            return await future
        except _Expired:
            self.outbound.put_nowait(error_message(
                "timeout", f"no reply within {deadline_ms} ms: the match is forfeited", match_id, key[1]))
            raise SeatTimeout(f"bot {self.name} did not answer within {deadline_ms} ms") from None
        finally:
            timer.cancel()
            with self._lock:
                self._pending.pop(key, None)

    def resolve(self, reply: pb.ActionReply) -> bool:
        """Hand a reply to the request waiting for it; False when no such request is pending."""
        with self._lock:
            future = self._pending.pop((reply.match_id, reply.request_id), None)
        if future is None:
            return False
        if isinstance(future, asyncio.Future):
            if future.done():
                return False
        elif not future.set_running_or_notify_cancel():
            return False
        future.set_result(reply.action_index)
        return True

    def close(self) -> None:
        """The stream ended: every waiting request fails with SeatDisconnected (event-loop thread)."""
        with self._lock:
            self.closed = True
            pending = list(self._pending.values())
            self._pending.clear()
        for future in pending:
            gone = SeatDisconnected(f"bot {self.name} disconnected")
            if isinstance(future, asyncio.Future):
                if not future.done():
                    future.set_exception(gone)
            elif future.set_running_or_notify_cancel():
                future.set_exception(gone)
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.outbound.put_nowait, _CLOSE)


class RemoteSeat:
    """A seat played by a connected bot: observations and actions go through the game's codec."""

    # The referee asks the seats of a simultaneous step at once when any of them waits on
    # the network, so a tick costs one round trip instead of one per seat.
    networked = True

    def __init__(self, session: BotSession, match_id: str, codec: Codec, default_deadline_s: float) -> None:
        self.session = session
        self.match_id = match_id
        self.codec = codec
        self.default_deadline_s = default_deadline_s
        self.encoder = legal_encoder(codec)
        self._offer: tuple[str, int] | None = None  # the open real-time offer, if any

    async def ask(self, request: DecisionRequest) -> int:
        """Ask the bot; an index out of range is returned as is (the referee rules on it)."""
        deadline = request.deadline_s if request.deadline_s is not None else self.default_deadline_s
        observation = self.codec.observation(request.observation)
        legal = self.encoder.encode(request.legal)
        index = await self.session.ask(self.match_id, request.seat, observation, legal, deadline)
        if index >= len(request.legal):
            self.session.send(error_message(
                "illegal_move",
                f"action index {index} is not below {len(request.legal)} (the number of legal actions)",
                self.match_id,
            ))
        return index

    def offer(self, request: DecisionRequest, deadline_s: float) -> concurrent.futures.Future[int]:
        """Real time: send the request without waiting (replacing this seat's open offer)."""
        self.withdraw()
        observation = self.codec.observation(request.observation)
        key, future = self.session.post(self.match_id, request.seat, observation,
                                        self.encoder.encode(request.legal), deadline_s)
        self._offer = key
        return future

    def withdraw(self) -> None:
        """Real time: the open offer no longer stands."""
        if self._offer is not None:
            self.session.withdraw(self._offer)
            self._offer = None
