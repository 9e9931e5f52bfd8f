"""A connected bot's stream, and the seat that lets the referee ask it.

A turn-based match runs on the event loop (see match_loop): `RemoteSeat.request` sends an
ActionRequest over the bot's stream, and its callback gets the index of the ActionReply with
the same match id and request id, or the fault: SeatTimeout when the deadline passes,
SeatDisconnected when the stream goes away. Callbacks, not futures: the reply is handled in
the reader's own step, so a decision wakes no task but the stream's writer. Real-time
matches, on the same loop, make offers with `post`. One stream carries many matches:
replies are matched to requests by their ids, never by order. Everything here runs on the
event-loop thread that serves the stream, so nothing needs a lock.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import weakref
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from tourney.engine.core import DecisionRequest, SeatDisconnected, SeatFault, SeatTimeout
from tourney.engine.core.printable import shown
from tourney.engine.server.codecs import Codec
from tourney.engine.server.framing import field, tag
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.wire import legal_encoder, observation_bytes, request_message

# Sentinel on the outbound queue: the stream is over, the writer stops.
_CLOSE = None
_MATCH_STARTED_TAG = tag(pb.ArenaMessage, "match_started", True)
_MATCH_ENDED_TAG = tag(pb.ArenaMessage, "match_ended", True)


def error_message(code: str, message: str, match_id: str = "", request_id: int = 0) -> bytes:
    """An ErrorReport wrapped for the stream, serialized (a client-chosen match id is shortened)."""
    report = pb.ArenaMessage(error=pb.ErrorReport(match_id=shown(match_id), request_id=request_id, code=code,
                                                  message=message))
    data: bytes = report.SerializeToString()
    return data


def withdrawn_message(match_id: str, request_id: int) -> bytes:
    """A RequestWithdrawn for the stream, serialized: a real-time request no longer stands."""
    data: bytes = pb.ArenaMessage(withdrawn=pb.RequestWithdrawn(match_id=match_id, request_id=request_id)
                                  ).SerializeToString()
    return data


Outbound = bytes | None  # serialized ArenaMessages; None closes the stream


def _deadline_ms(deadline_s: float) -> int:
    return max(1, min(int(deadline_s * 1000.0), 2**32 - 1))


_ALARM_SLACK_S = 0.001  # the loop may run a timer a hair early; treat "due within 1 ms" as due

# What a request's callback gets: the index the bot replied with, or why there is none.
Answered = Callable[[int | SeatFault], None]


Write = Callable[[bytes], Coroutine[Any, Any, None]]  # the stream's write (the servicer context's)


class _WriteRound:
    """The outboxes of one event loop with a write to start, started together at the loop's next turn.

    All of a connection's streams share its HTTP/2 transport, and writes started back to back while it
    is busy leave in one socket write (the raw server's 8 streams: 0.6 sendmsg per message). Started
    one at a time in the middle of each reply's work, they went out one sendmsg each.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.due: list[Outbox] = []

    def add(self, outbox: Outbox) -> None:
        if not self.due:
            self.loop.call_soon(self._run)
        self.due.append(outbox)

    def _run(self) -> None:
        due, self.due = self.due, []
        for outbox in due:
            outbox.pump()


_ROUNDS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _WriteRound] = weakref.WeakKeyDictionary()


def _round_of(loop: asyncio.AbstractEventLoop) -> _WriteRound:
    found = _ROUNDS.get(loop)
    if found is None:
        found = _ROUNDS[loop] = _WriteRound(loop)
    return found


class QueuedBytes:
    """The bytes waiting in every stream's outbox of one arena, against one cap (event-loop thread only).

    Each stream's own cap bounds what one bot that stops reading makes the arena hold; this bounds them
    together, or max_sessions such bots could hold max_sessions times that. Past `limit`, the stream
    holding the most is cut off as a slow reader: a bot that reads holds a message or two, so it is
    never the one cut while a stream that stopped reading holds more.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self._boxes: weakref.WeakSet[Outbox] = weakref.WeakSet()

    def join(self, box: Outbox) -> None:
        """Count `box`'s bytes from now on."""
        self._boxes.add(box)

    def relieve(self) -> None:
        """Overflow the fullest outboxes until the total is back under the cap."""
        while self.total > self.limit and self._boxes:
            fullest = max(self._boxes, key=lambda box: box.queued_bytes)
            if fullest.queued_bytes == 0:
                return
            fullest.overflow(overall=True)


class Outbox:
    """Messages waiting for one stream (event-loop thread only), written one after another, with a cap.

    The outbox starts each write itself: a message put while the stream is idle is written at the
    loop's next turn with every other stream's (see _WriteRound), the next one as soon as the last
    is done. The coroutine of the stream's `write` is stepped here and resumed from its future's
    callback: a writer task would cost, per message, a future to wake it, a task step to start the
    write and another when the write completes.
    A bot that stops reading would make it grow without end, so past `max_messages` or
    `max_bytes` waiting (or when `shared`, the arena's overall count, finds it the fullest past its
    cap) it drops everything, remembers it overflowed, and calls `on_overflow`.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, max_messages: int = 4096,
                 max_bytes: int = 32 * 1024 * 1024, on_overflow: Callable[[], None] | None = None,
                 shared: QueuedBytes | None = None) -> None:
        self._loop = loop
        self._items: deque[Outbound] = deque()
        self._bytes = 0
        self._write: Write | None = None
        self._writing: Coroutine[Any, Any, None] | None = None  # the write in flight
        self._awaited: asyncio.Future[Any] | None = None  # what it waits on
        self._round = _round_of(loop)
        self._due = False  # waiting for the loop's next turn to be written
        # Set when the stream's writing is over: the close was written to, or a write failed (the stream
        # was cut or the bot hung up; nothing to report, its matches end as disconnections).
        self.finished: asyncio.Future[None] = loop.create_future()
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self.on_overflow = on_overflow
        self.overflowed = False
        self.overflowed_overall = False
        self._shared = shared or QueuedBytes(max_bytes)
        self._shared.join(self)

    @property
    def queued_bytes(self) -> int:
        """The bytes waiting to be written."""
        return self._bytes

    @property
    def shared_limit(self) -> int:
        """The cap on the bytes waiting in every outbox this one is counted with."""
        return self._shared.limit

    def _drop_all(self) -> None:
        self._items.clear()
        self._shared.total -= self._bytes
        self._bytes = 0

    def overflow(self, overall: bool = False) -> None:
        """Drop everything waiting, write no more but the close, and tell `on_overflow` (overall: the
        arena's cap on every stream's bytes was passed, not this stream's own)."""
        self._drop_all()
        if self.overflowed or self.finished.done():
            return
        self.overflowed = True
        self.overflowed_overall = overall
        if self.on_overflow is not None:
            self.on_overflow()
        self._queue(_CLOSE)

    def put(self, item: Outbound) -> None:
        """Add a message and start writing it if the stream is idle; past the cap, overflow instead."""
        if self.overflowed or self.finished.done():
            return
        if item is not None:
            size = len(item)
            self._bytes += size
            shared = self._shared
            shared.total += size
            if self._bytes > self.max_bytes or len(self._items) >= self.max_messages:
                self.overflow()
                return
            if shared.total > shared.limit:
                shared.relieve()
                if self.overflowed:
                    return
        self._queue(item)

    def _queue(self, item: Outbound) -> None:
        self._items.append(item)
        if self._writing is None and not self._due and self._write is not None:
            self._due = True
            self._round.add(self)

    def start(self, write: Write) -> None:
        """Write every message through `write` from now on (the ones waiting first)."""
        self._write = write
        self.pump()

    def stop(self) -> None:
        """Abandon the write in flight and everything waiting (the stream is over)."""
        self._write = None
        self._drop_all()
        writing, awaited = self._writing, self._awaited
        self._writing = self._awaited = None
        if awaited is not None:
            awaited.cancel()
        if writing is not None:
            writing.close()
        if not self.finished.done():
            self.finished.set_result(None)

    def pump(self) -> None:
        """Start the next write while none is in flight (a write that is done at once starts the next)."""
        self._due = False
        while self._writing is None and self._items and self._write is not None and not self.finished.done():
            item = self._items.popleft()
            if item is None:
                self.finished.set_result(None)
                self._drop_all()  # what was put after the close is never written
                return
            size = len(item)
            self._bytes -= size
            self._shared.total -= size
            self._step(self._write(item))

    def _step(self, writing: Coroutine[Any, Any, None]) -> None:
        """Run `writing` to its next wait (or its end)."""
        try:
            awaited = writing.send(None)
        except StopIteration:
            self._writing = self._awaited = None
            return
        except (Exception, asyncio.CancelledError):  # the stream is gone: what waits is never sent
            self._writing = self._awaited = None
            self.stop()
            return
        self._writing = writing
        if isinstance(awaited, asyncio.Future):
            awaited._asyncio_future_blocking = False  # a Task's handshake with the future, done here instead
            self._awaited = awaited
            awaited.add_done_callback(self._resumed)
        else:  # a bare yield (asyncio.sleep(0)): resume on the next turn of the loop
            self._awaited = None
            self._loop.call_soon(self._resumed, None)

    def _resumed(self, awaited: asyncio.Future[Any] | None) -> None:
        """The write in flight may go on: step it, and start the next one once it is done."""
        writing = self._writing
        if writing is None or awaited is not self._awaited:  # stopped meanwhile
            return
        self._step(writing)
        if self._writing is None:
            self.pump()


class BotSession:
    """One Play stream after its Hello: the bot's name, games, match slots and pending requests."""

    def __init__(
        self,
        session_id: str,
        name: str,
        games: Sequence[str],
        capacity: int,
        loop: asyncio.AbstractEventLoop,
        max_queued: int = 4096,
        max_queued_bytes: int = 32 * 1024 * 1024,
        start_in_request: bool = False,
        view_delta: bool = False,
        queued_overall: QueuedBytes | None = None,
        json_view_only: bool = False,
    ) -> None:
        """Made on the event-loop thread that serves the stream; used on that thread only.

        start_in_request: the bot's Hello asked for each MatchStarted inside its seat's first request.
        view_delta: the bot's Hello asked for only the events added since its seat's last request.
        json_view_only: the bot's Hello asked for observations without their typed fields (the JSON view only).
        queued_overall: the arena's count of bytes waiting in every stream (see `QueuedBytes`).
        """
        self.session_id = session_id
        self.name = name
        self.games = frozenset(games)
        self.capacity = max(1, capacity)
        self.active = 0  # match seats this stream holds now (guarded by the arena's lock)
        self.loop = loop
        # (code, reason) once the arena cut this stream off (see `cut_off`); its writer stops then.
        self.cut: asyncio.Future[tuple[str, str]] = loop.create_future()
        self.outbound = Outbox(loop, max_queued, max_queued_bytes, self._overflowed, queued_overall)
        # (match id, request id) -> (callback, loop time it expires at, deadline told to the bot in ms,
        # number of legal actions: None for a real-time offer, where any index is the game's to judge)
        self._pending: dict[tuple[str, int], tuple[Answered, float, int, int | None]] = {}
        self._alarm: asyncio.TimerHandle | None = None
        self._alarm_at = math.inf
        self._ids = itertools.count(1)
        self.closed = False
        self.start_in_request = start_in_request
        self.view_delta = view_delta
        self.json_view_only = json_view_only
        # (match id, seat) -> its serialized MatchStarted, held for that seat's first request (at most
        # one per match slot: `announce` adds it when a match claims the slot, `end` drops it)
        self._starts: dict[tuple[str, int], bytes] = {}

    def plays(self, game_id: str) -> bool:
        """True when this bot said it plays `game_id` (an empty list in Hello means every game)."""
        return not self.games or game_id in self.games

    def send(self, message: pb.ArenaMessage | bytes) -> None:
        """Queue a message for the bot; a no-op once the stream is closed.

        It is queued at once, so messages keep the order they were sent in (a MatchStarted
        before the match's first ActionRequest).
        """
        if self.closed:
            return
        if not isinstance(message, bytes):
            message = message.SerializeToString()
        self.outbound.put(message)

    def announce(self, started: pb.MatchStarted) -> None:
        """Tell the bot a match starts for one of its seats: now, or inside that seat's first request
        when its Hello asked for start_in_request (one message fewer a match)."""
        data = started.SerializeToString()
        if self.start_in_request and not self.closed:
            self._starts[(started.match_id, started.seat)] = data
        else:
            self.send(field(_MATCH_STARTED_TAG, data))

    def end(self, ended: pb.MatchEnded) -> None:
        """Tell the bot a match is over for one of its seats; a MatchStarted no request carried goes first."""
        held = self._starts.pop((ended.match_id, ended.seat), None)
        if held is not None:
            self.send(field(_MATCH_STARTED_TAG, held))
        self.send(field(_MATCH_ENDED_TAG, ended.SerializeToString()))  # ArenaMessage(match_ended=ended), framed

    def _started(self, match_id: str, seat: int) -> bytes:
        """The held MatchStarted of this seat's match for its first request (empty once sent or never held)."""
        return self._starts.pop((match_id, seat), b"") if self._starts else b""

    def cut_off(self, code: str, reason: str) -> None:
        """End this stream for misbehaving (event-loop thread): its matches end as disconnections.

        The Play handler ends the stream with RESOURCE_EXHAUSTED and details "code: reason".
        """
        if not self.cut.done():
            self.cut.set_result((code, reason))
        # Not at once: this may happen inside `request`, whose caller expects its answer later.
        self.loop.call_soon(self.close)

    def _overflowed(self) -> None:
        """The bot stopped reading and its queue hit the cap (its own, or the arena's on every stream)."""
        box = self.outbound
        if box.overflowed_overall:
            held = (f"its queue was the longest when the arena's {box.shared_limit // 1024} KB for every "
                    "bot's waiting messages ran out")
        else:
            held = f"more than {box.max_messages} messages or {box.max_bytes // 1024} KB waited for it"
        self.cut_off("slow_reader", f"bot {shown(self.name)} stopped reading: {held}; read the stream as it comes.")

    def request(self, match_id: str, seat: int, observation: bytes, legal: bytes, legal_count: int,
                deadline_s: float, on_answer: Answered) -> None:
        """Send one ActionRequest (event-loop thread); on_answer gets the index or the fault, once.

        A reply's index is passed on even when it is out of range (the referee rules on it),
        after the bot is told why it is wrong.
        """
        deadline_ms = _deadline_ms(deadline_s)
        expires = self.loop.time() + deadline_s
        if self.closed:
            self.loop.call_soon(on_answer, SeatDisconnected(f"bot {self.name} is not connected"))
            return
        key = (match_id, next(self._ids))
        self._pending[key] = (on_answer, expires, deadline_ms, legal_count)
        if expires < self._alarm_at:
            self._set_alarm(expires)
        self.outbound.put(request_message(match_id, key[1], seat, observation, deadline_ms, legal,
                                          self._started(match_id, seat)))

    # One alarm per session, not a timer per request: requests are answered long before their
    # deadline almost always, and a timer per request would fill the loop's timer heap with
    # cancelled entries (one per decision). The alarm rings at the earliest deadline pending
    # when it is set; if that request was answered meanwhile, it only sets the next one.

    def _set_alarm(self, when: float) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm_at = when
        self._alarm = self.loop.call_at(when, self._ring)

    def _ring(self) -> None:
        """Fail every request whose deadline has passed, and set the alarm for the next one."""
        self._alarm, self._alarm_at = None, math.inf
        now = self.loop.time() + _ALARM_SLACK_S
        expired = [(key, entry) for key, entry in self._pending.items() if entry[1] <= now]
        for key, _ in expired:
            del self._pending[key]
        following = min((entry[1] for entry in self._pending.values()), default=math.inf)
        for key, (on_answer, _, deadline_ms, _) in expired:
            self.outbound.put(error_message(
                "timeout", f"no reply within {deadline_ms} ms: the match is forfeited", key[0], key[1]))
            on_answer(SeatTimeout(f"bot {self.name} did not answer within {deadline_ms} ms"))
        if following < self._alarm_at and not self.closed:  # the callbacks may have set a sooner one
            self._set_alarm(following)

    def post(self, match_id: str, seat: int, observation: bytes, legal: bytes,
             on_answer: Answered) -> tuple[str, int]:
        """Send a real-time offer; it stands until answered or withdrawn.

        Its deadline_ms is 0: no deadline applies to it.
        """
        key = (match_id, next(self._ids))
        if self.closed:
            on_answer(SeatDisconnected(f"bot {self.name} is not connected"))
            return key
        self._pending[key] = (on_answer, math.inf, 0, None)
        self.send(request_message(match_id, key[1], seat, observation, 0, legal, self._started(match_id, seat)))
        return key

    def withdraw(self, key: tuple[str, int]) -> None:
        """Forget a request (superseded) and tell the bot: a later reply to it is an unknown request."""
        if self._pending.pop(key, None) is not None:
            self.send(withdrawn_message(*key))

    def resolve(self, reply: pb.ActionReply) -> bool:
        """Hand a reply to the request waiting for it; False when no such request is pending."""
        entry = self._pending.pop((reply.match_id, reply.request_id), None)
        if entry is None:
            return False
        on_answer, _, _, count = entry
        index = reply.action_index
        if count is not None and index >= count:
            self.outbound.put(error_message(
                "illegal_move", f"action index {index} is not below {count} (the number of legal actions)",
                reply.match_id))
        on_answer(index)
        return True

    def close(self) -> None:
        """The stream ended: every waiting request fails with SeatDisconnected."""
        self.closed = True
        pending = list(self._pending.values())
        self._pending.clear()
        self._starts.clear()
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        for on_answer, *_ in pending:
            on_answer(SeatDisconnected(f"bot {shown(self.name)} disconnected"))
        self.outbound.put(_CLOSE)


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
        # Where this seat's last request left the game's event log (Hello.view_delta): one number a seat,
        # set by the game, whatever the bot sends.
        self._mark = 0

    def request(self, request: DecisionRequest, on_answer: Answered) -> None:
        """Ask the bot (event-loop thread); on_answer gets its index (in range or not) or the fault."""
        deadline = request.deadline_s if request.deadline_s is not None else self.default_deadline_s
        if self.session.view_delta:
            observation, self._mark = request.observation_since(self._mark)
        else:
            observation = request.observation
        typed = not self.session.json_view_only
        self.session.request(self.match_id, request.seat, observation_bytes(self.codec, observation, typed),
                             self.encoder.encode(request.legal), len(request.legal), deadline, on_answer)

    def offer(self, request: DecisionRequest, on_answer: Answered) -> None:
        """Real time: send the request without waiting (replacing this seat's open offer)."""
        self.withdraw()
        observation = observation_bytes(self.codec, request.observation, not self.session.json_view_only)
        self._offer = self.session.post(self.match_id, request.seat, observation,
                                        self.encoder.encode(request.legal), on_answer)

    def withdraw(self) -> None:
        """Real time: the open offer no longer stands."""
        if self._offer is not None:
            self.session.withdraw(self._offer)
            self._offer = None
