"""The Python bot SDK: connect to an arena, say Hello, answer ActionRequests with a callback.

    class MyBot(Bot):
        def act(self, observation, legal_actions, request):
            return 0          # index into legal_actions

    BotClient("127.0.0.1:50051", MyBot(), name="mine", token="...").run()

One stream carries every match of the bot; requests are answered by a small thread pool
(up to max_concurrent_matches at once), so a slow decision in one match never holds up
another. Returning None from `act` sends no reply (the arena then rules a timeout).
In real time the arena withdraws a request when the view changes (RequestWithdrawn): the SDK
never sends an answer to a withdrawn request, and the `unknown_request` for a reply that crossed
its withdrawal on the wire is expected, so it is not passed to `on_error`.
The arena's own tools (`tourney connect`, the tests) use it through `tourney.engine.server.client`.

`run` blocks like a plain function, but the stream itself is driven by grpc.aio on one
event loop shared by every bot of the process (in a thread of its own): gRPC's synchronous
API needs two thread hops per message, which made the SDK cost several times the arena's
own time per decision. (grpc.aio allows one loop per process, hence the shared one.)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import random
import threading
from collections import OrderedDict
from collections.abc import Coroutine, Sequence
from typing import Any

import grpc

from tourney_bot.generated import arena_pb2 as pb
from tourney_bot.views import SeatLogs

PLAY_METHOD = "/tourney.v1.Arena/Play"

# gRPC's default size limits (4 MiB received) suffice: no ActionRequest is over 64 KB in any game.
CHANNEL_OPTIONS: list[tuple[str, Any]] = [
    # Each bot its own connection: gRPC would otherwise share one between every client of a
    # process, and the arena rate-limits Hello per connection.
    ("grpc.use_local_subchannel_pool", 1),
]
# Withdrawn requests remembered per stream, newest kept: enough to recognise any reply of ours
# still in flight, and bounded however long a session lasts.
MAX_WITHDRAWN_REMEMBERED = 4096


def observation_dict(observation: pb.Observation) -> dict[str, Any]:
    """The full observation as a dict, from the `json` field of whichever game message is set."""
    which = observation.WhichOneof("game")
    if which is None:
        return {}
    data: dict[str, Any] = json.loads(getattr(observation, which).json or "{}")
    return data


def action_dict(action: pb.Action) -> dict[str, Any]:
    """An action's fields as a dict (from its game message's `json`), plus its label."""
    which = action.WhichOneof("game")
    data: dict[str, Any] = json.loads(getattr(action, which).json or "{}") if which else {}
    data.setdefault("label", action.label)
    return data


class Bot:
    """Subclass and override `act`; the other hooks are optional."""

    # False: `act` reads only the observation dict, never the typed fields of `request.observation`
    # (e.g. request.observation.tiny_ninjas.health); the arena then leaves them out (Hello.json_view_only),
    # which saves it work and bytes every decision. The dict `act` gets is the same either way.
    typed_observation: bool = True

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        """The index of the chosen action in legal_actions (None: do not answer)."""
        raise NotImplementedError

    def on_match_started(self, message: pb.MatchStarted) -> None:
        """A match this bot sits in has begun."""

    def on_match_ended(self, message: pb.MatchEnded) -> None:
        """A match this bot sat in is over (ranks, scores, reason, own seat)."""

    def on_error(self, message: pb.ErrorReport) -> None:
        """The arena reported a problem (timeout, illegal move, malformed message, ...)."""

    def on_withdrawn(self, message: pb.RequestWithdrawn) -> None:
        """(Real time) a request no longer stands; a newer one follows when the seat may act."""


class RandomBot(Bot):
    """Picks uniformly among the legal actions: the simplest bot that plays every game."""

    typed_observation = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._lock = threading.Lock()

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        with self._lock:
            return self.rng.randrange(len(legal_actions))


def rpc_detail(exc: BaseException) -> str:
    """The status text of a failed call, from the sync or the aio API (their errors differ)."""
    details = getattr(exc, "details", None)
    text = details() if callable(details) else None
    return str(text) if text else str(exc)


class SessionRefused(Exception):
    """The arena would not take this bot (wrong token, bad Hello)."""


_STREAM_OVER = (grpc.aio.AioRpcError, grpc.aio.UsageError, asyncio.InvalidStateError)
_sdk_loop: asyncio.AbstractEventLoop | None = None
_sdk_loop_lock = threading.Lock()


def _shared_loop() -> asyncio.AbstractEventLoop:
    """The process's SDK event loop, started on first use in a daemon thread."""
    global _sdk_loop
    with _sdk_loop_lock:
        if _sdk_loop is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="tourney-sdk", daemon=True).start()
            _sdk_loop = loop
        return _sdk_loop


class BotClient:
    """One bot's session with an arena."""

    def __init__(
        self,
        address: str,
        bot: Bot,
        name: str,
        token: str = "",
        games: Sequence[str] = (),
        max_concurrent_matches: int = 1,
        credentials: grpc.ChannelCredentials | None = None,
        inline: bool = False,
    ) -> None:
        self.address = address
        self.bot = bot
        self.name = name
        self.token = token
        self.games = list(games)
        self.max_concurrent_matches = max(1, max_concurrent_matches)
        self.credentials = credentials
        # inline: answer on the SDK's event loop (fastest for quick bots, but a slow `act`
        # then holds up every bot of the process); otherwise a pool of max_concurrent_matches
        # threads answers.
        self.inline = inline
        self.welcome: pb.Welcome | None = None
        self.ended: list[pb.MatchEnded] = []
        self.errors: list[pb.ErrorReport] = []
        self.requests = 0
        self.withdrawn: OrderedDict[tuple[str, int], None] = OrderedDict()  # (match_id, request_id)
        self.connected = threading.Event()
        self._loop = _shared_loop()
        self._stop = threading.Event()
        self._call: grpc.aio.StreamStreamCall | None = None
        self._writing: asyncio.Lock | None = None

    # ------------------------------------------------------------------ from any thread

    def send_raw(self, message: pb.BotMessage) -> None:
        """Put any message on the stream (tests use it to send odd replies)."""
        self._submit(self._write(message))

    def stop(self) -> None:
        """Close our side of the stream; `run` returns once the arena has closed its side."""
        self._stop.set()
        self._submit(self._done_writing())

    def cancel(self) -> None:
        """Drop the stream at once, as a crashed bot would."""
        self._stop.set()
        self._loop.call_soon_threadsafe(self._cancel_call)

    def _submit(self, work: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(work, self._loop)

    def _cancel_call(self) -> None:
        if self._call is not None:
            self._call.cancel()

    # ------------------------------------------------------------------ on the SDK loop

    async def _write(self, message: pb.BotMessage) -> None:
        """Send one message (gRPC allows one write at a time on a stream)."""
        if self._call is None or self._writing is None or self._call.done():
            return
        # A write to a stream that just ended fails; run() reports how it ended.
        async with self._writing:
            with contextlib.suppress(*_STREAM_OVER):
                await self._call.write(message)

    async def _done_writing(self) -> None:
        if self._call is not None and self._writing is not None and not self._call.done():
            async with self._writing:
                with contextlib.suppress(*_STREAM_OVER):
                    await self._call.done_writing()

    async def _answer(self, request: pb.ActionRequest, observation: dict[str, Any],
                      pool: concurrent.futures.Executor | None) -> None:
        try:
            if pool is None:
                index = self.bot.act(observation, request.legal_actions, request)
            else:
                index = await self._loop.run_in_executor(pool, self.bot.act, observation, request.legal_actions,
                                                         request)
        except Exception:  # a bug in the bot: say nothing, the arena rules a timeout
            return
        if (request.match_id, request.request_id) in self.withdrawn:
            return  # the view changed while the bot thought: it answers the newer request instead
        if index is not None and not self._stop.is_set():
            await self._write(pb.BotMessage(reply=pb.ActionReply(
                match_id=request.match_id, request_id=request.request_id, action_index=index,
            )))

    async def _session(self, max_matches: int | None) -> None:
        if self.credentials is not None:
            channel = grpc.aio.secure_channel(self.address, self.credentials, options=CHANNEL_OPTIONS)
        else:
            channel = grpc.aio.insecure_channel(self.address, options=CHANNEL_OPTIONS)
        pool = None if self.inline else concurrent.futures.ThreadPoolExecutor(self.max_concurrent_matches)
        answering: set[asyncio.Task[None]] = set()
        async with channel:
            play = channel.stream_stream(PLAY_METHOD, request_serializer=pb.BotMessage.SerializeToString,
                                         response_deserializer=pb.ArenaMessage.FromString)
            self._call = call = play()
            self._writing = asyncio.Lock()
            try:
                if self._stop.is_set():  # stopped or cancelled before the stream opened
                    call.cancel()
                await self._write(pb.BotMessage(hello=pb.Hello(
                    bot_name=self.name, token=self.token, games=self.games,
                    max_concurrent_matches=self.max_concurrent_matches,
                    # A match's MatchStarted comes inside its first request: one message fewer a match.
                    start_in_request=True,
                    # Only the events added since a seat's last request: the arena renders less a decision,
                    # and `logs` puts each whole view back together before `act` sees it.
                    view_delta=True,
                    # Typed fields only for a bot that reads them.
                    json_view_only=not self.bot.typed_observation,
                )))
                logs = SeatLogs()
                while (message := await call.read()) is not grpc.aio.EOF:
                    kind = message.WhichOneof("kind")
                    if kind == "welcome":
                        self.welcome = message.welcome
                        self.connected.set()
                    elif kind == "action_request":
                        self.requests += 1
                        request = message.action_request
                        if request.HasField("started"):  # this seat's first request
                            self.bot.on_match_started(request.started)
                        # Rebuilt here, in the order the requests came, before any answer runs.
                        observation = logs.whole(request.match_id, request.seat, observation_dict(request.observation))
                        if pool is None:
                            await self._answer(request, observation, None)
                        else:
                            task = asyncio.ensure_future(self._answer(request, observation, pool))
                            answering.add(task)
                            task.add_done_callback(answering.discard)
                    elif kind == "match_started":
                        self.bot.on_match_started(message.match_started)
                    elif kind == "match_ended":
                        logs.forget(message.match_ended.match_id, message.match_ended.seat)
                        self.ended.append(message.match_ended)
                        self.bot.on_match_ended(message.match_ended)
                        if max_matches is not None and len(self.ended) >= max_matches:
                            self.stop()
                    elif kind == "withdrawn":
                        self._note_withdrawn(message.withdrawn)
                    elif kind == "error" and not self._crossed_withdrawal(message.error):
                        self.errors.append(message.error)
                        self.bot.on_error(message.error)
            finally:
                for task in answering:
                    task.cancel()
                if pool is not None:
                    pool.shutdown(wait=False, cancel_futures=True)

    def _note_withdrawn(self, message: pb.RequestWithdrawn) -> None:
        self.withdrawn[(message.match_id, message.request_id)] = None
        while len(self.withdrawn) > MAX_WITHDRAWN_REMEMBERED:
            self.withdrawn.popitem(last=False)
        self.bot.on_withdrawn(message)

    def _crossed_withdrawal(self, error: pb.ErrorReport) -> bool:
        """An unknown_request for a reply sent before its RequestWithdrawn arrived: nobody's fault."""
        return error.code == "unknown_request" and (error.match_id, error.request_id) in self.withdrawn

    def run(self, max_matches: int | None = None) -> None:
        """Play until the arena closes the stream, `stop()` is called, or max_matches have ended.

        Raises SessionRefused when the arena refuses the Hello, grpc.RpcError when the
        connection fails.
        """
        try:
            asyncio.run_coroutine_threadsafe(self._session(max_matches), self._loop).result()
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.UNAUTHENTICATED:
                raise SessionRefused(exc.details() or "the arena refused this bot") from None
            if exc.code() == grpc.StatusCode.CANCELLED and self._stop.is_set():
                return
            raise
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            if not self._stop.is_set():
                raise

    def run_forever(self, max_attempts: int = 8, first_backoff_s: float = 0.5, max_backoff_s: float = 30.0) -> None:
        """`run`, reconnecting with exponential backoff when the arena is unreachable or drops us."""
        backoff = first_backoff_s
        for attempt in range(max_attempts):
            try:
                self.run()
                if self._stop.is_set():
                    return
                backoff = first_backoff_s
            except grpc.RpcError:
                if attempt == max_attempts - 1:
                    raise
            if self._stop.wait(backoff):
                return
            backoff = min(max_backoff_s, backoff * 2)
